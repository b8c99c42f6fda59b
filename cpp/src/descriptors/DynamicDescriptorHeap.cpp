// DynamicDescriptorHeap (see the header for the design).
#include "dx12kit/descriptors/DynamicDescriptorHeap.hpp"

#include "dx12kit/alloc/AllocatorCommon.hpp"
#include "dx12kit/base/Errors.hpp"
#include "dx12kit/descriptors/DescriptorHeapTypes.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace dx12kit {

namespace {

using alloc::detail::LowestBit;  // (dx12kit/alloc/AllocatorCommon.hpp; mask != 0)

std::string ListRootIndices(uint64_t mask) {
    std::string s;
    while (mask) {
        const uint32_t i = LowestBit(mask);
        mask &= mask - 1;
        if (!s.empty()) s += ", ";
        s += std::to_string(i);
    }
    return s.empty() ? "none" : s;
}

}  // namespace

DynamicDescriptorHeap::DynamicDescriptorHeap(ID3D12Device* device, ShaderVisibleHeap& heap, std::function<bool()> waitForProgress)
    : m_d3d12Device(device),
      m_Heap(&heap),
      m_WaitForProgress(std::move(waitForProgress)),
      m_Type(heap.Type()),
      m_DescriptorSize(heap.DescriptorSize()),
      m_ChunkSize(heap.ChunkSize()),
      m_HeapCpuStart(heap.CpuStart().ptr),
      m_HeapGpuStart(heap.GpuStart().ptr),
      m_NullDescriptor(heap.NullDescriptor().ptr) {
    if (!device) throw InvalidArgument("DynamicDescriptorHeap: device is null");
    m_FullChunks.reserve(64);
    m_Staging.reserve(256);
}

DynamicDescriptorHeap::~DynamicDescriptorHeap() {
    try {
        Retire(0);
    } catch (...) {
        // Only possible if the heap's state was corrupted; never throw from a destructor.
    }
}

void DynamicDescriptorHeap::ParseRootSignature(const std::vector<DescriptorTableLayout>& tables) {
    const char* typeName = DescriptorHeapTypeName(m_Type);
    uint64_t seen = 0, mine = 0, other = 0, total = 0;
    // Validate everything first: on error nothing changes.
    for (const DescriptorTableLayout& t : tables) {
        if (t.rootIndex >= kMaxRootParameters)
            throw InvalidArgument("DynamicDescriptorHeap::ParseRootSignature: root index " + std::to_string(t.rootIndex) +
                                  " is out of range (a root signature has at most 64 parameters)");
        const uint64_t bit = uint64_t(1) << t.rootIndex;
        if (seen & bit)
            throw InvalidArgument("DynamicDescriptorHeap::ParseRootSignature: root index " + std::to_string(t.rootIndex) + " is listed twice");
        seen |= bit;
        if (!IsShaderVisibleHeapType(t.heapType))
            throw InvalidArgument("DynamicDescriptorHeap::ParseRootSignature: the table at root index " + std::to_string(t.rootIndex) +
                                  " has heap type " + DescriptorHeapTypeName(t.heapType) + "; tables hold CBV_SRV_UAV or SAMPLER descriptors");
        if (t.numDescriptors == 0)
            throw InvalidArgument("DynamicDescriptorHeap::ParseRootSignature: the table at root index " + std::to_string(t.rootIndex) +
                                  " has 0 descriptors");
        if (t.heapType != m_Type) {
            other |= bit;
            continue;
        }
        mine |= bit;
        total += t.numDescriptors;
        if (total > kMaxStagedDescriptors)
            throw InvalidArgument(std::string("DynamicDescriptorHeap::ParseRootSignature: the ") + typeName + " tables hold more than " +
                                  std::to_string(kMaxStagedDescriptors) + " descriptors in total; give unbounded ranges an explicit size");
    }
    uint32_t start = 0;
    for (const DescriptorTableLayout& t : tables) {
        if (t.heapType != m_Type) continue;
        m_Tables[t.rootIndex] = Table{start, t.numDescriptors, 0};
        start += t.numDescriptors;
    }
    m_Staging.assign(static_cast<size_t>(total), m_NullDescriptor);  // keeps capacity once grown
    m_TableMask = mine;
    m_OtherTypeMask = other;
    m_StaleMask = 0;
    m_CommittedMask = 0;
}

void DynamicDescriptorHeap::ThrowNotATable(const char* what, uint32_t rootIndex) const {
    const char* typeName = DescriptorHeapTypeName(m_Type);
    std::string msg = std::string("DynamicDescriptorHeap::") + what + ": root index " + std::to_string(rootIndex);
    if (rootIndex >= kMaxRootParameters) msg += " is out of range (a root signature has at most 64 parameters)";
    else if ((m_OtherTypeMask >> rootIndex) & 1)
        msg += std::string(" is a ") + (m_Type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER ? "CBV_SRV_UAV" : "SAMPLER") + " descriptor table, not a " +
               typeName + " one";
    else if (m_TableMask == 0 && m_OtherTypeMask == 0)
        msg += " is not a descriptor table: the bound root signature has no descriptor tables (or none was set)";
    else
        msg += std::string(" is not a ") + typeName + " descriptor table of the bound root signature (" + typeName + " tables are at root indices " +
               ListRootIndices(m_TableMask) + ")";
    throw InvalidArgument(msg);
}

bool DynamicDescriptorHeap::StageDescriptors(uint32_t rootIndex, uint32_t offset, uint32_t count, D3D12_CPU_DESCRIPTOR_HANDLE src) {
    if (rootIndex >= kMaxRootParameters || !((m_TableMask >> rootIndex) & 1)) ThrowNotATable("StageDescriptors", rootIndex);
    if (count == 0) throw InvalidArgument("DynamicDescriptorHeap::StageDescriptors: count must be at least 1 (got 0)");
    Table& table = m_Tables[rootIndex];
    const uint64_t end = uint64_t(offset) + count;
    if (end > table.size)
        throw InvalidArgument("DynamicDescriptorHeap::StageDescriptors: descriptors [" + std::to_string(offset) + ", " + std::to_string(end) +
                              ") pass the end of the table at root index " + std::to_string(rootIndex) + ", which holds " +
                              std::to_string(table.size));
    if (end > m_ChunkSize)
        throw InvalidArgument("DynamicDescriptorHeap::StageDescriptors: slot " + std::to_string(end - 1) + " of the table at root index " +
                              std::to_string(rootIndex) + " cannot be committed: a table is copied contiguously into one dynamic chunk of " +
                              std::to_string(m_ChunkSize) + " descriptors (raise the chunk size)");
    size_t* dst = m_Staging.data() + table.start + offset;
    const uint64_t bit = uint64_t(1) << rootIndex;
    if ((m_CommittedMask & bit) && end <= table.copyCount) {
        // Committed, and these slots were part of the copy: unchanged handles change nothing.
        bool same = true;
        size_t h = src.ptr == 0 ? m_NullDescriptor : src.ptr;
        for (uint32_t i = 0; i < count && same; ++i, h += src.ptr == 0 ? 0 : m_DescriptorSize) same = dst[i] == h;
        if (same) return false;
    }
    if (src.ptr == 0) {
        std::fill(dst, dst + count, m_NullDescriptor);
    } else {
        size_t h = src.ptr;
        for (uint32_t i = 0; i < count; ++i, h += m_DescriptorSize) dst[i] = h;
    }
    if (end > table.copyCount) table.copyCount = static_cast<uint32_t>(end);
    m_StaleMask |= bit;
    return true;
}

void DynamicDescriptorHeap::AcquireChunk() {
    uint32_t first = 0;
    while (!m_Heap->TryAcquireChunk(first)) {
        // Without a way to wait, or when nothing is in flight any more (every completion applied,
        // so the look below sees all that can be freed): a last look, then out of memory.
        if (!m_WaitForProgress || !m_WaitForProgress()) {
            if (m_Heap->TryAcquireChunk(first)) break;
            const ShaderVisibleHeapStats s = m_Heap->GetStats();
            throw OutOfMemory(std::string("shader-visible ") + DescriptorHeapTypeName(m_Type) + " heap: no free dynamic chunk (" +
                              std::to_string(s.chunksInUse) + " chunks in use, " + std::to_string(s.chunksRetired) + " retired, chunk size " +
                              std::to_string(s.chunkSize) + ")" +
                              (m_WaitForProgress ? ", and no submitted work is in flight whose completion would free one" : ""));
        }
    }
    if (m_ChunkFirst != kNoChunk) m_FullChunks.push_back(m_ChunkFirst);
    m_ChunkFirst = first;
    m_ChunkUsed = 0;
    ++m_ChunksAcquired;
}

inline uint32_t DynamicDescriptorHeap::Reserve(uint32_t count) {
    if (m_ChunkFirst == kNoChunk || m_ChunkUsed + count > m_ChunkSize) AcquireChunk();
    const uint32_t index = m_ChunkFirst + m_ChunkUsed;
    m_ChunkUsed += count;
    return index;
}

void DynamicDescriptorHeap::CopyTable(const Table& table, uint32_t destIndex) {
    const size_t* src = m_Staging.data() + table.start;
    const uint32_t n = table.copyCount;
    const size_t stride = m_DescriptorSize;
    uint32_t done = 0;
    while (done < n) {
        // Merge consecutive source handles into ranges, up to kMaxCopyRanges per call.
        const uint32_t begin = done;
        uint32_t ranges = 0;
        size_t next = 0;
        for (; done < n; ++done) {
            const size_t h = src[done];
            if (ranges != 0 && h == next) {
                ++m_SrcSizes[ranges - 1];
            } else {
                if (ranges == kMaxCopyRanges) break;
                m_SrcStarts[ranges].ptr = h;
                m_SrcSizes[ranges] = 1;
                ++ranges;
            }
            next = h + stride;
        }
        D3D12_CPU_DESCRIPTOR_HANDLE dst{m_HeapCpuStart + (size_t(destIndex) + begin) * stride};
        UINT dstSize = done - begin;
        if (ranges == 1) m_d3d12Device->CopyDescriptorsSimple(dstSize, dst, m_SrcStarts[0], m_Type);
        else m_d3d12Device->CopyDescriptors(1, &dst, &dstSize, ranges, m_SrcStarts.data(), m_SrcSizes.data(), m_Type);
    }
    m_DescriptorsCopied += n;
}

template <bool Graphics>
void DynamicDescriptorHeap::Commit(ID3D12GraphicsCommandList* list) {
    uint64_t stale = m_StaleMask;  // only tables of the parsed signature can be stale
    while (stale) {
        const uint32_t root = LowestBit(stale);
        stale &= stale - 1;
        const Table& table = m_Tables[root];
        const uint32_t dest = Reserve(table.copyCount);  // may throw OutOfMemory: later tables stay stale
        CopyTable(table, dest);
        const D3D12_GPU_DESCRIPTOR_HANDLE gpu{m_HeapGpuStart + uint64_t(dest) * m_DescriptorSize};
        if constexpr (Graphics) list->SetGraphicsRootDescriptorTable(root, gpu);
        else list->SetComputeRootDescriptorTable(root, gpu);
        m_StaleMask &= ~(uint64_t(1) << root);
        m_CommittedMask |= uint64_t(1) << root;
    }
}

void DynamicDescriptorHeap::CommitStagedDescriptorsForDraw(ID3D12GraphicsCommandList* list) {
    Commit<true>(list);
}

void DynamicDescriptorHeap::CommitStagedDescriptorsForDispatch(ID3D12GraphicsCommandList* list) {
    Commit<false>(list);
}

D3D12_GPU_DESCRIPTOR_HANDLE DynamicDescriptorHeap::CopyDescriptor(ID3D12GraphicsCommandList* /*list*/, D3D12_CPU_DESCRIPTOR_HANDLE src) {
    if (src.ptr == 0) throw InvalidArgument("DynamicDescriptorHeap::CopyDescriptor: the source handle is null");
    const uint32_t index = Reserve(1);
    const D3D12_CPU_DESCRIPTOR_HANDLE dst{m_HeapCpuStart + size_t(index) * m_DescriptorSize};
    m_d3d12Device->CopyDescriptorsSimple(1, dst, src, m_Type);
    ++m_DescriptorsCopied;
    return D3D12_GPU_DESCRIPTOR_HANDLE{m_HeapGpuStart + uint64_t(index) * m_DescriptorSize};
}

uint32_t DynamicDescriptorHeap::AllocateDynamic(uint32_t count) {
    if (count == 0 || count > m_ChunkSize)
        throw InvalidArgument("DynamicDescriptorHeap::AllocateDynamic: count " + std::to_string(count) + " must be between 1 and the chunk size " +
                              std::to_string(m_ChunkSize));
    return Reserve(count);
}

uint32_t DynamicDescriptorHeap::ChunksHeld() const noexcept {
    return static_cast<uint32_t>(m_FullChunks.size()) + (m_ChunkFirst != kNoChunk ? 1u : 0u);
}

void DynamicDescriptorHeap::Retire(uint64_t serial) {
    // RetireChunk throws only if the heap's state is corrupted (a chunk retired twice).
    std::vector<uint32_t>& full = m_FullChunks;
    const uint32_t current = m_ChunkFirst;
    m_ChunkFirst = kNoChunk;
    m_ChunkUsed = 0;
    m_TableMask = m_OtherTypeMask = m_StaleMask = m_CommittedMask = 0;
    m_Staging.clear();
    for (uint32_t first : full) m_Heap->RetireChunk(first, serial);
    full.clear();
    if (current != kNoChunk) m_Heap->RetireChunk(current, serial);
}

}  // namespace dx12kit
