// ShaderVisibleHeap (see the header for the design).
#include "dx12kit/descriptors/ShaderVisibleHeap.hpp"

#include "dx12kit/alloc/FreeListAllocator.hpp"
#include "dx12kit/base/Errors.hpp"
#include "dx12kit/descriptors/DescriptorHeapTypes.hpp"
#include "dx12kit/platform/HResult.hpp"

#include <algorithm>
#include <functional>
#include <string>

namespace dx12kit {

namespace {

using RetiredEntry = std::pair<uint64_t, uint32_t>;
// std::*_heap build max-heaps; greater<> turns them into a min-heap on the serial.
constexpr std::greater<RetiredEntry> kMinHeapOrder{};

std::string Name(D3D12_DESCRIPTOR_HEAP_TYPE type) {
    return std::string("ShaderVisibleHeap(") + DescriptorHeapTypeName(type) + ")";
}

}  // namespace

ShaderVisibleHeap::ShaderVisibleHeap(ID3D12Device* device, D3D12_DESCRIPTOR_HEAP_TYPE type, uint32_t numDescriptors, uint32_t staticCount,
                                     uint32_t chunkSize)
    : m_Type(type), m_NumDescriptors(numDescriptors), m_StaticCount(staticCount), m_ChunkSize(chunkSize), m_ChunkCount(0), m_DescriptorSize(0) {
    if (!device) throw InvalidArgument("ShaderVisibleHeap: device is null");
    if (!IsShaderVisibleHeapType(type))
        throw InvalidArgument(std::string("ShaderVisibleHeap: heap type ") + DescriptorHeapTypeName(type) +
                              " cannot be shader-visible (only CBV_SRV_UAV and SAMPLER can)");
    const std::string name = Name(type);
    if (numDescriptors == 0) throw InvalidArgument(name + ": numDescriptors must be at least 1");
    if (type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER && numDescriptors > kMaxShaderVisibleSamplers)
        throw InvalidArgument(name + ": numDescriptors " + std::to_string(numDescriptors) + " exceeds D3D12's limit of " +
                              std::to_string(kMaxShaderVisibleSamplers) + " shader-visible samplers");
    if (staticCount > numDescriptors)
        throw InvalidArgument(name + ": staticCount " + std::to_string(staticCount) + " exceeds numDescriptors " + std::to_string(numDescriptors));
    if (chunkSize == 0) throw InvalidArgument(name + ": chunkSize must be at least 1");
    m_ChunkCount = (numDescriptors - staticCount) / chunkSize;
    if (m_ChunkCount == 0)
        throw InvalidArgument(name + ": the dynamic part (" + std::to_string(numDescriptors - staticCount) +
                              " descriptors) has no room for one chunk of " + std::to_string(chunkSize));

    m_DescriptorSize = device->GetDescriptorHandleIncrementSize(type);

    D3D12_DESCRIPTOR_HEAP_DESC desc{};
    desc.Type = type;
    desc.NumDescriptors = numDescriptors;
    desc.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
    ThrowIfFailed(device->CreateDescriptorHeap(&desc, IID_ID3D12DescriptorHeap, m_d3d12Heap.ReleaseAndGetVoidAddress()),
                  "ShaderVisibleHeap: ID3D12Device::CreateDescriptorHeap (shader-visible)");
    m_CpuStart = m_d3d12Heap->GetCPUDescriptorHandleForHeapStart();
    m_GpuStart = m_d3d12Heap->GetGPUDescriptorHandleForHeapStart();

    // The null descriptor that staging uses for slots nobody wrote.
    D3D12_DESCRIPTOR_HEAP_DESC nullDesc{};
    nullDesc.Type = type;
    nullDesc.NumDescriptors = 1;
    nullDesc.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_NONE;
    ThrowIfFailed(device->CreateDescriptorHeap(&nullDesc, IID_ID3D12DescriptorHeap, m_d3d12NullHeap.ReleaseAndGetVoidAddress()),
                  "ShaderVisibleHeap: ID3D12Device::CreateDescriptorHeap (null descriptor)");
    m_NullDescriptor = m_d3d12NullHeap->GetCPUDescriptorHandleForHeapStart();
    if (type == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV) {
        D3D12_SHADER_RESOURCE_VIEW_DESC srv{};
        srv.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D;
        srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        srv.Texture2D.MipLevels = 1;
        device->CreateShaderResourceView(nullptr, &srv, m_NullDescriptor);
    } else {
        D3D12_SAMPLER_DESC s{};
        s.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
        s.AddressU = s.AddressV = s.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
        s.MaxAnisotropy = 1;
        s.ComparisonFunc = D3D12_COMPARISON_FUNC_NEVER;
        s.MaxLOD = 3.402823466e+38f;
        device->CreateSampler(&s, m_NullDescriptor);
    }

    if (staticCount > 0) m_Static = std::make_unique<alloc::FreeListAllocator>(staticCount);
    m_ChunkState.assign(m_ChunkCount, ChunkState::Free);
    m_FreeChunks.reserve(m_ChunkCount);
    for (uint32_t i = m_ChunkCount; i-- > 0;) m_FreeChunks.push_back(i);  // chunk 0 on top
    m_Retired.reserve(m_ChunkCount);
}

ShaderVisibleHeap::~ShaderVisibleHeap() = default;

uint32_t ShaderVisibleHeap::AllocateStatic(uint32_t count) {
    if (count == 0) throw InvalidArgument(Name(m_Type) + "::AllocateStatic: count must be at least 1 (got 0)");
    std::lock_guard<std::mutex> lock(m_Mutex);
    const uint64_t offset = m_Static ? m_Static->Allocate(count) : alloc::kInvalidOffset;
    if (offset == alloc::kInvalidOffset) {
        std::string msg = Name(m_Type) + "::AllocateStatic: no room for " + std::to_string(count) +
                          " consecutive descriptors in the static part (capacity " + std::to_string(m_StaticCount);
        if (m_Static) {
            const alloc::AllocatorStats s = m_Static->GetStats();
            msg += ", used " + std::to_string(s.used) + ", largest free block " + std::to_string(s.largestFreeBlock);
        }
        throw OutOfMemory(msg + ")");
    }
    return static_cast<uint32_t>(offset);
}

void ShaderVisibleHeap::FreeStatic(uint32_t first, uint64_t serial) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    if (!m_Static || first >= m_StaticCount)
        throw InvalidArgument(Name(m_Type) + "::FreeStatic: index " + std::to_string(first) + " is not in the static part (size " +
                              std::to_string(m_StaticCount) + ")");
    m_Static->FreeDeferred(first, serial);
}

D3D12_CPU_DESCRIPTOR_HANDLE ShaderVisibleHeap::CpuHandle(uint32_t index) const {
    if (index >= m_NumDescriptors)
        throw InvalidArgument(Name(m_Type) + "::CpuHandle: index " + std::to_string(index) + " >= heap size " + std::to_string(m_NumDescriptors));
    return D3D12_CPU_DESCRIPTOR_HANDLE{m_CpuStart.ptr + size_t(index) * m_DescriptorSize};
}

D3D12_GPU_DESCRIPTOR_HANDLE ShaderVisibleHeap::GpuHandle(uint32_t index) const {
    if (index >= m_NumDescriptors)
        throw InvalidArgument(Name(m_Type) + "::GpuHandle: index " + std::to_string(index) + " >= heap size " + std::to_string(m_NumDescriptors));
    return D3D12_GPU_DESCRIPTOR_HANDLE{m_GpuStart.ptr + uint64_t(index) * m_DescriptorSize};
}

bool ShaderVisibleHeap::TryAcquireChunk(uint32_t& firstIndex) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    if (m_FreeChunks.empty()) return false;
    const uint32_t chunk = m_FreeChunks.back();
    m_FreeChunks.pop_back();
    m_ChunkState[chunk] = ChunkState::InUse;
    ++m_ChunksInUse;
    const uint64_t dynamicInUse = uint64_t(m_ChunkCount - m_FreeChunks.size()) * m_ChunkSize;
    if (dynamicInUse > m_PeakDynamicInUse) m_PeakDynamicInUse = dynamicInUse;
    firstIndex = m_StaticCount + chunk * m_ChunkSize;
    return true;
}

void ShaderVisibleHeap::RetireChunk(uint32_t firstIndex, uint64_t serial) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    const uint32_t rel = firstIndex - m_StaticCount;  // wraps for indices in the static part
    const uint32_t chunk = rel / m_ChunkSize;
    if (firstIndex < m_StaticCount || rel % m_ChunkSize != 0 || chunk >= m_ChunkCount || m_ChunkState[chunk] != ChunkState::InUse)
        throw InvalidArgument(Name(m_Type) + "::RetireChunk: index " + std::to_string(firstIndex) + " is not the first index of a chunk in use");
    m_ChunkState[chunk] = ChunkState::Retired;
    --m_ChunksInUse;
    m_Retired.emplace_back(serial, chunk);
    std::push_heap(m_Retired.begin(), m_Retired.end(), kMinHeapOrder);
}

void ShaderVisibleHeap::ReleaseStale(uint64_t completedSerial) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    while (!m_Retired.empty() && m_Retired.front().first <= completedSerial) {
        std::pop_heap(m_Retired.begin(), m_Retired.end(), kMinHeapOrder);
        const uint32_t chunk = m_Retired.back().second;
        m_Retired.pop_back();
        m_ChunkState[chunk] = ChunkState::Free;
        m_FreeChunks.push_back(chunk);
    }
    if (m_Static) m_Static->ReleaseStale(completedSerial);
}

ShaderVisibleHeapStats ShaderVisibleHeap::GetStats() const {
    std::lock_guard<std::mutex> lock(m_Mutex);
    ShaderVisibleHeapStats s{};
    s.capacity = m_NumDescriptors;
    s.staticCapacity = m_StaticCount;
    s.staticInUse = m_Static ? m_Static->GetStats().used : 0;
    s.dynamicCapacity = uint64_t(m_ChunkCount) * m_ChunkSize;
    s.dynamicInUse = uint64_t(m_ChunkCount - m_FreeChunks.size()) * m_ChunkSize;
    s.chunkSize = m_ChunkSize;
    s.chunksInUse = m_ChunksInUse;
    s.chunksRetired = m_Retired.size();
    s.peakDynamicInUse = m_PeakDynamicInUse;
    return s;
}

void ShaderVisibleHeap::Validate() const {
    std::lock_guard<std::mutex> lock(m_Mutex);
    auto fail = [this](const std::string& what) { throw Error(Name(m_Type) + "::Validate: " + what); };
    if (m_Static) m_Static->Validate();
    uint32_t nFree = 0, nInUse = 0, nRetired = 0;
    for (ChunkState s : m_ChunkState) {
        nFree += s == ChunkState::Free;
        nInUse += s == ChunkState::InUse;
        nRetired += s == ChunkState::Retired;
    }
    if (nFree != m_FreeChunks.size()) fail("free chunk stack size differs from chunk states");
    for (uint32_t c : m_FreeChunks)
        if (c >= m_ChunkCount || m_ChunkState[c] != ChunkState::Free) fail("free stack holds a chunk not free");
    if (nRetired != m_Retired.size()) fail("retired heap size differs from chunk states");
    for (const auto& r : m_Retired)
        if (r.second >= m_ChunkCount || m_ChunkState[r.second] != ChunkState::Retired) fail("retired heap holds a chunk not retired");
    if (!std::is_heap(m_Retired.begin(), m_Retired.end(), kMinHeapOrder)) fail("retired heap order broken");
    if (nInUse != m_ChunksInUse) fail("chunks-in-use counter mismatch");
}

}  // namespace dx12kit
