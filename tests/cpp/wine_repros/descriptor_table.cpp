// Wine defect W1, raw D3D12 (no dx12kit): a compute shader reaches a UAV through a descriptor
// table in a shader-visible heap. Correct D3D12 writes 0x12345678; Wine 8.0 (vkd3d 1.6) logs
// "d3d12_command_list_set_descriptor_table Invalid heap for base descriptor" and the shader does
// not run. Exit code 0: right result; 1: wrong result; 2: an API call failed.
// Builds natively against vkd3d too (where it passes), to show the program is right.
#define NOMINMAX
#define INITGUID  // this file defines the IIDs it uses (mingw-w64's libdxguid has no D3D12 IIDs)
#if defined(_WIN32)
#  include <windows.h>
#  include <d3d12.h>
#else
#  define WIDL_EXPLICIT_AGGREGATE_RETURNS
#  include <vkd3d/vkd3d_utils.h>
#endif
#include <chrono>
#include <cstdio>
#include <thread>

#include "../data/Shaders.generated.hpp"

#define CHECK_HR(x)                                                \
  do {                                                             \
    HRESULT hr_ = (x);                                             \
    if (FAILED(hr_)) {                                             \
      std::printf("%s failed: 0x%08lx\n", #x, (unsigned long)hr_); \
      return 2;                                                    \
    }                                                              \
  } while (0)

int main() {
    ID3D12Device* dev;
    ID3D12CommandQueue* q;
    ID3D12CommandAllocator* ca;
    ID3D12GraphicsCommandList* cl;
    ID3D12DescriptorHeap* heap;
    ID3D12RootSignature* rs;
    ID3D12PipelineState* pso;
    ID3D12Fence* fence;
    ID3D12Resource *buf, *rb;
    ID3DBlob *blob, *err;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_ID3D12Device, (void**)&dev));
    D3D12_COMMAND_QUEUE_DESC qd = {};
    qd.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    CHECK_HR(dev->CreateCommandQueue(&qd, IID_ID3D12CommandQueue, (void**)&q));
    CHECK_HR(dev->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_ID3D12CommandAllocator, (void**)&ca));
    CHECK_HR(dev->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, ca, nullptr, IID_ID3D12GraphicsCommandList, (void**)&cl));
    CHECK_HR(dev->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_ID3D12Fence, (void**)&fence));
    // Root signature: one table holding one UAV at u0.
    D3D12_DESCRIPTOR_RANGE range = {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, 0};
    D3D12_ROOT_PARAMETER param = {};
    param.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    param.DescriptorTable.NumDescriptorRanges = 1;
    param.DescriptorTable.pDescriptorRanges = &range;
    D3D12_ROOT_SIGNATURE_DESC rsd = {1, &param, 0, nullptr, D3D12_ROOT_SIGNATURE_FLAG_NONE};
    CHECK_HR(D3D12SerializeRootSignature(&rsd, D3D_ROOT_SIGNATURE_VERSION_1, &blob, &err));
    CHECK_HR(dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_ID3D12RootSignature, (void**)&rs));
    D3D12_COMPUTE_PIPELINE_STATE_DESC pd = {};
    pd.pRootSignature = rs;
    pd.CS = {dx12kit_test::shaders::cs_store_table, sizeof dx12kit_test::shaders::cs_store_table};
    CHECK_HR(dev->CreateComputePipelineState(&pd, IID_ID3D12PipelineState, (void**)&pso));
    // A 256-byte UAV buffer (DEFAULT) and a READBACK buffer.
    D3D12_HEAP_PROPERTIES hp = {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_RESOURCE_DESC bd = {D3D12_RESOURCE_DIMENSION_BUFFER,           0, 256, 1, 1, 1, DXGI_FORMAT_UNKNOWN, {1, 0}, D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
                              D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS};
    CHECK_HR(dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &bd, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, nullptr, IID_ID3D12Resource,
                                          (void**)&buf));
    hp.Type = D3D12_HEAP_TYPE_READBACK;
    bd.Flags = D3D12_RESOURCE_FLAG_NONE;
    CHECK_HR(dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &bd, D3D12_RESOURCE_STATE_COPY_DEST, nullptr, IID_ID3D12Resource, (void**)&rb));
    // A shader-visible heap with a raw UAV of the buffer in slot 0.
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_ID3D12DescriptorHeap, (void**)&heap));
    D3D12_UNORDERED_ACCESS_VIEW_DESC ud = {};
    ud.Format = DXGI_FORMAT_R32_TYPELESS;
    ud.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    ud.Buffer.NumElements = 64;
    ud.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
    dev->CreateUnorderedAccessView(buf, nullptr, &ud, heap->GetCPUDescriptorHandleForHeapStart());
    // Bind the table, dispatch, copy to readback.
    cl->SetDescriptorHeaps(1, &heap);
    cl->SetComputeRootSignature(rs);
    cl->SetPipelineState(pso);
    cl->SetComputeRootDescriptorTable(0, heap->GetGPUDescriptorHandleForHeapStart());  // Wine: "Invalid heap"
    cl->Dispatch(1, 1, 1);
    D3D12_RESOURCE_BARRIER b = {};
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    b.Transition.pResource = buf;
    b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    b.Transition.StateBefore = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    b.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
    cl->ResourceBarrier(1, &b);
    cl->CopyResource(rb, buf);
    CHECK_HR(cl->Close());
    q->ExecuteCommandLists(1, (ID3D12CommandList**)&cl);
    CHECK_HR(q->Signal(fence, 1));
    for (int i = 0; fence->GetCompletedValue() < 1; ++i) {
        if (i == 10000) {
            std::printf("timeout\n");
            return 2;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    unsigned* p;
    D3D12_RANGE r = {0, 4};
    CHECK_HR(rb->Map(0, &r, (void**)&p));
    const unsigned value = *p;
    std::printf("read 0x%08x, expected 0x12345678: %s\n", value, value == 0x12345678u ? "right" : "WRONG");
    return value == 0x12345678u ? 0 : 1;
}
