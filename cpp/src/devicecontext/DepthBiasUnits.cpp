// The depth-bias probe (dx12kit/devicecontext/DepthBiasUnits.hpp).
#include "dx12kit/devicecontext/DepthBiasUnits.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/FenceEvent.hpp"
#include "dx12kit/platform/HResult.hpp"
#include "d3dx12/D3dx12Lite.hpp"

#include "../builtin/vs_DepthBiasProbe.generated.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

namespace dx12kit {

namespace {

/// Bits of a UNORM depth format; 0 for the float formats.
uint32_t UnormBits(DXGI_FORMAT f) {
    switch (f) {
        case DXGI_FORMAT_D16_UNORM: return 16;
        case DXGI_FORMAT_D24_UNORM_S8_UINT: return 24;
        default: return 0;
    }
}

bool IsProbeFormat(DXGI_FORMAT f) {
    return f == DXGI_FORMAT_D16_UNORM || f == DXGI_FORMAT_D24_UNORM_S8_UINT || f == DXGI_FORMAT_D32_FLOAT || f == DXGI_FORMAT_D32_FLOAT_S8X24_UINT;
}

/// The depth of texel `x` of row 0 in the readback (texels `stride` bytes apart): UNORM steps, or
/// the float's value. vkd3d 1.2 lays out d32_float_s8x24_uint's depth plane with the whole 8-byte
/// texel (D3D12: 4 bytes); the depth is the first 4 bytes either way.
double ReadDepth(const uint8_t* row, DXGI_FORMAT f, uint64_t stride, uint32_t x) {
    if (f == DXGI_FORMAT_D16_UNORM) {
        uint16_t v;
        std::memcpy(&v, row + stride * x, 2);
        return v;
    }
    uint32_t v;
    std::memcpy(&v, row + stride * x, 4);
    if (f == DXGI_FORMAT_D24_UNORM_S8_UINT) return v & 0xFFFFFFu;
    float d;
    std::memcpy(&d, &v, 4);
    return d;
}

}  // namespace

double DepthBiasUnits::Ratio(DXGI_FORMAT depthFormat) {
    {
        std::lock_guard<std::mutex> lock(m_Mutex);
        auto it = m_Ratios.find(depthFormat);
        if (it != m_Ratios.end()) return it->second;
    }
    const double raw = Measure(depthFormat);  // no lock held: the probe waits for the GPU
    const double snapped = std::round(raw * 64.0) / 64.0;
    const double ratio = snapped > 0 && std::fabs(raw - snapped) <= 4.0 / kProbeBias ? snapped : 0.0;
    std::lock_guard<std::mutex> lock(m_Mutex);
    m_Raws.emplace(depthFormat, raw);
    return m_Ratios.emplace(depthFormat, ratio).first->second;
}

double DepthBiasUnits::Raw(DXGI_FORMAT depthFormat) {
    (void)Ratio(depthFormat);  // measured once, cached with the ratio
    std::lock_guard<std::mutex> lock(m_Mutex);
    return m_Raws.at(depthFormat);
}

double DepthBiasUnits::Measure(DXGI_FORMAT f) {
    if (!IsProbeFormat(f)) throw InvalidArgument("depth bias probe: " + std::to_string(int(f)) + " is not a depth format");
    ID3D12Device* dev = m_Device;

    // Root signature without parameters.
    D3D12_ROOT_SIGNATURE_DESC rsDesc{};
    ComPtr<ID3DBlob> blob, error;
    ThrowIfFailed(D3D12SerializeRootSignature(&rsDesc, D3D_ROOT_SIGNATURE_VERSION_1, blob.ReleaseAndGetAddressOf(), error.ReleaseAndGetAddressOf()),
                  "depth bias probe: D3D12SerializeRootSignature");
    ComPtr<ID3D12RootSignature> rs;
    ThrowIfFailed(
        dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_ID3D12RootSignature, rs.ReleaseAndGetVoidAddress()),
        "depth bias probe: CreateRootSignature");

    // Two pipelines: depth only, written always, DepthBias 0 and kProbeBias.
    ComPtr<ID3D12PipelineState> pso[2];
    for (int i = 0; i < 2; ++i) {
        D3D12_GRAPHICS_PIPELINE_STATE_DESC d{};
        d.pRootSignature = rs.Get();
        d.VS = {builtin::vs_DepthBiasProbe, sizeof builtin::vs_DepthBiasProbe};
        for (auto& rt : d.BlendState.RenderTarget) rt.RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
        d.SampleMask = 0xFFFFFFFFu;
        d.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
        d.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
        d.RasterizerState.DepthBias = i ? kProbeBias : 0;
        d.RasterizerState.DepthClipEnable = TRUE;
        d.DepthStencilState.DepthEnable = TRUE;
        d.DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL;
        d.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_ALWAYS;
        d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
        d.DSVFormat = f;
        d.SampleDesc.Count = 1;
        ThrowIfFailed(dev->CreateGraphicsPipelineState(&d, IID_ID3D12PipelineState, pso[i].ReleaseAndGetVoidAddress()),
                      "depth bias probe: CreateGraphicsPipelineState");
    }

    // A 2x1 depth target and its view; a readback buffer for its depth plane.
    const D3D12_HEAP_PROPERTIES defaultHeap = d3dx::HeapProperties(D3D12_HEAP_TYPE_DEFAULT);
    const D3D12_RESOURCE_DESC texDesc = d3dx::Tex2DDesc(f, 2, 1, 1, 1, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
    D3D12_CLEAR_VALUE clear{};
    clear.Format = f;
    clear.DepthStencil.Depth = 1.0f;
    ComPtr<ID3D12Resource> tex;
    ThrowIfFailed(dev->CreateCommittedResource(&defaultHeap, D3D12_HEAP_FLAG_NONE, &texDesc, D3D12_RESOURCE_STATE_DEPTH_WRITE, &clear,
                                               IID_ID3D12Resource, tex.ReleaseAndGetVoidAddress()),
                  "depth bias probe: CreateCommittedResource (texture)");
    D3D12_DESCRIPTOR_HEAP_DESC heapDesc{};
    heapDesc.Type = D3D12_DESCRIPTOR_HEAP_TYPE_DSV;
    heapDesc.NumDescriptors = 1;
    ComPtr<ID3D12DescriptorHeap> dsvHeap;
    ThrowIfFailed(dev->CreateDescriptorHeap(&heapDesc, IID_ID3D12DescriptorHeap, dsvHeap.ReleaseAndGetVoidAddress()),
                  "depth bias probe: CreateDescriptorHeap");
    const D3D12_CPU_DESCRIPTOR_HANDLE dsv = dsvHeap->GetCPUDescriptorHandleForHeapStart();
    dev->CreateDepthStencilView(tex.Get(), nullptr, dsv);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT footprint{};
    UINT64 total = 0, rowBytes = 0;
    dev->GetCopyableFootprints(&texDesc, 0, 1, 0, &footprint, nullptr, &rowBytes, &total);
    const uint64_t stride = rowBytes / 2;
    const D3D12_HEAP_PROPERTIES readbackHeap = d3dx::HeapProperties(D3D12_HEAP_TYPE_READBACK);
    const D3D12_RESOURCE_DESC bufDesc = d3dx::BufferDesc(total);
    ComPtr<ID3D12Resource> readback;
    ThrowIfFailed(dev->CreateCommittedResource(&readbackHeap, D3D12_HEAP_FLAG_NONE, &bufDesc, D3D12_RESOURCE_STATE_COPY_DEST, nullptr,
                                               IID_ID3D12Resource, readback.ReleaseAndGetVoidAddress()),
                  "depth bias probe: CreateCommittedResource (readback)");

    // One command list on a queue of the probe's own: clear, pixel 0 without bias, pixel 1 with.
    D3D12_COMMAND_QUEUE_DESC queueDesc{};
    queueDesc.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    ComPtr<ID3D12CommandQueue> queue;
    ThrowIfFailed(dev->CreateCommandQueue(&queueDesc, IID_ID3D12CommandQueue, queue.ReleaseAndGetVoidAddress()),
                  "depth bias probe: CreateCommandQueue");
    ComPtr<ID3D12CommandAllocator> allocator;
    ThrowIfFailed(dev->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_ID3D12CommandAllocator, allocator.ReleaseAndGetVoidAddress()),
                  "depth bias probe: CreateCommandAllocator");
    ComPtr<ID3D12GraphicsCommandList> list;
    ThrowIfFailed(dev->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, allocator.Get(), nullptr, IID_ID3D12GraphicsCommandList,
                                         list.ReleaseAndGetVoidAddress()),
                  "depth bias probe: CreateCommandList");
    list->OMSetRenderTargets(0, nullptr, FALSE, &dsv);
    list->ClearDepthStencilView(dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, nullptr);
    list->SetGraphicsRootSignature(rs.Get());
    list->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    for (int i = 0; i < 2; ++i) {
        const D3D12_VIEWPORT vp{float(i), 0.0f, 1.0f, 1.0f, 0.0f, 1.0f};
        const D3D12_RECT scissor{i, 0, i + 1, 1};
        list->RSSetViewports(1, &vp);
        list->RSSetScissorRects(1, &scissor);
        list->SetPipelineState(pso[i].Get());
        list->DrawInstanced(3, 1, 0, 0);
    }
    const D3D12_RESOURCE_BARRIER toCopy = d3dx::TransitionBarrier(tex.Get(), D3D12_RESOURCE_STATE_DEPTH_WRITE, D3D12_RESOURCE_STATE_COPY_SOURCE,
                                                                  D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES);
    list->ResourceBarrier(1, &toCopy);
    const D3D12_TEXTURE_COPY_LOCATION dst = d3dx::FootprintLocation(readback.Get(), footprint);
    const D3D12_TEXTURE_COPY_LOCATION src = d3dx::SubresourceLocation(tex.Get(), 0);
    list->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    ThrowIfFailed(list->Close(), "depth bias probe: Close");
    ComPtr<ID3D12Fence> fence;
    ThrowIfFailed(dev->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_ID3D12Fence, fence.ReleaseAndGetVoidAddress()), "depth bias probe: CreateFence");
    ID3D12CommandList* lists[] = {list.Get()};
    queue->ExecuteCommandLists(1, lists);
    ThrowIfFailed(queue->Signal(fence.Get(), 1), "depth bias probe: Signal");
    // Waits to the end whatever happens (the objects above must outlive the work); a few ms.
    FenceEvent event;
    event.Arm(fence.Get(), 1);
    auto wait = [&] {
        while (fence->GetCompletedValue() < 1) event.WaitSignal(100);
    };
    if (m_Blocking) m_Blocking(wait);
    else wait();

    void* mapped = nullptr;
    const D3D12_RANGE readRange{0, static_cast<SIZE_T>(total)};
    ThrowIfFailed(readback->Map(0, &readRange, &mapped), "depth bias probe: Map");
    const uint8_t* row = static_cast<const uint8_t*>(mapped) + footprint.Offset;
    const double d0 = ReadDepth(row, f, stride, 0), d1 = ReadDepth(row, f, stride, 1);
    const D3D12_RANGE noWrite{0, 0};
    readback->Unmap(0, &noWrite);
    // The unbiased pixel must hold z = 0.25 (else the probe did not draw: no ratio).
    const uint32_t bits = UnormBits(f);
    const double base = bits ? 0.25 * double((uint64_t(1) << bits) - 1) : 0.25;
    if (!(std::fabs(d0 - base) <= (bits ? 1.0 : 0.0))) return 0.0;
    // D3D12's r: one UNORM step, or 2^(exponent(0.25) - 23) = 2^-25 on float formats (d0 and d1 are
    // then depths; on UNORM formats they are already in steps).
    const double steps = bits ? d1 - d0 : (d1 - d0) / std::ldexp(1.0, -25);
    return steps / kProbeBias;
}

}  // namespace dx12kit
