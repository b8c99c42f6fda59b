// DynamicDescriptorHeap: stages CPU descriptors per root-signature table and copies the changed
// tables into a shader-visible heap at Draw/Dispatch.
//
// Concept
//   Each command list owns one DynamicDescriptorHeap per shader-visible heap type. The list tells
//   it the descriptor tables of the bound root signature (ParseRootSignature); the user stages CPU
//   descriptors into table slots (StageDescriptors); at Draw/Dispatch the list calls
//   CommitStagedDescriptorsFor{Draw,Dispatch}, which copies every table staged since the last
//   commit ("stale", one bit per root index) into the list's current dynamic chunk of the
//   ShaderVisibleHeap and sets it with Set{Graphics,Compute}RootDescriptorTable. Tables that did
//   not change stay bound as they are.
//
//   * What a commit copies: for each stale table, slots [0, copyCount) where copyCount is one past
//     the highest slot staged since ParseRootSignature. Slots below copyCount that were never
//     staged hold the heap's null descriptor (so no garbage handle is ever read); slots at or past
//     copyCount are not written, and a shader must not read them (D3D12 resource binding tier 2+
//     only requires the descriptors a shader reads to be valid). Staged descriptors persist from
//     commit to commit until restaged or until the next ParseRootSignature.
//   * Re-staging the descriptors a committed table's slots hold already (within its copyCount) is
//     a no-op: the table is not marked stale, so set_sampler / set_shader_resource_view repeated
//     before every draw with the same view copies nothing and uses no chunk space. A table one of
//     whose slots really changed is copied whole into a new place (copy-on-write: a table a recorded
//     draw uses is read at execution, so it is never modified in place).
//   * Each table is copied contiguously into the chunk. When the current chunk has no room for a
//     table, a new chunk is taken (TryAcquireChunk; if none is free, waitForProgress() and retry).
//     All chunks belong to the same ID3D12DescriptorHeap, which the device binds once per list, so
//     tables committed from older chunks stay valid and nothing is rebound or recommitted.
//     A table whose copyCount exceeds the chunk size cannot be placed: InvalidArgument.
//   * Copies: one ID3D12Device::CopyDescriptors per table, with consecutive source handles merged
//     into one source range (a range staged from one allocation is one range).
//   * One staging layout at a time: the last parsed root signature. A list that switches between
//     graphics and compute root signatures re-parses and restages (tables already set on the other
//     bind point stay set on the GPU side).
//   * Retire(serial) after the list's submission hands all chunks back to the heap tagged with
//     the submission serial, and resets everything (the list must re-parse after its Reset).
//
// Ownership
//   Borrows the device and the ShaderVisibleHeap (both must outlive it). Holds chunks of the heap
//   between the first commit and Retire; the destructor hands back chunks still held as if
//   Retire(0) were called, which is right only for a list that was never submitted, so call
//   Retire(serial) after each submission.
//
// Thread-safety
//   None: it belongs to one command list, which one thread records. No lock on the hot path
//   (only TryAcquireChunk/RetireChunk lock the shared heap, once per chunk).
//
// Complexity and memory
//   StageDescriptors: O(count). Commit: O(stale tables + descriptors copied). No heap allocation in
//   steady state: tables are a fixed array of 64 (the root signature limit), the stale set is a
//   64-bit mask, the staging cache is a vector that only grows in ParseRootSignature, and the
//   copy-range buffers are fixed arrays.
//
// Data structures
//
//   m_Tables[rootIndex]            m_Staging (CPU handles, one per table slot; null-filled)
//   +---+---------------------+    +----+----+----+----+----+----+----+----+----+----+
//   | 1 | start 0, size 4,    |--->| h7 | h8 | h9 |null|    | s3 | s1 |    |    |    |
//   |   | copyCount 3         |    +----+----+----+----+----+----+----+----+----+----+
//   | 3 | start 4, size 6,    |--------------------^
//   |   | copyCount 3         |    m_TableMask = 0b1010   m_StaleMask = 0b0010
//   +---+---------------------+
//                                  commit: table 1 -> CopyDescriptors(dst = chunk[used..used+3),
//   current chunk of ShaderVisibleHeap     src ranges {h7..h9 merged: 1 range of 3})
//   +--------------------------------+     SetGraphicsRootDescriptorTable(1, gpu(chunk + used))
//   |######## used ####|  free       |
//   +--------------------------------+
#pragma once

#include "dx12kit/descriptors/ShaderVisibleHeap.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

namespace dx12kit {

/// A descriptor table as the root signature builder describes it to DynamicDescriptorHeap.
struct DescriptorTableLayout {
    uint32_t rootIndex;                   ///< Root parameter index (< 64).
    D3D12_DESCRIPTOR_HEAP_TYPE heapType;  ///< CBV_SRV_UAV or SAMPLER.
    uint32_t numDescriptors;              ///< Explicit size (unbounded ranges get an explicit count).
};

class DynamicDescriptorHeap {
public:
    static constexpr uint32_t kMaxRootParameters = 64;
    /// Source ranges per CopyDescriptors call; longer tables take several calls.
    static constexpr uint32_t kMaxCopyRanges = 64;
    /// Upper bound on the sum of the table sizes of one root signature (staging memory).
    static constexpr uint32_t kMaxStagedDescriptors = 1u << 20;

    /// @param device           borrowed.
    /// @param heap             borrowed; the shader-visible heap the chunks come from.
    /// @param waitForProgress  called when no chunk is free: applies every completion it sees
    ///                         (heap.ReleaseStale), blocking for the oldest in-flight submission
    ///                         when none is new, and returns true; returns false when nothing is
    ///                         in flight (Device::WaitForProgress). After false the heap looks
    ///                         once more, then throws OutOfMemory. May be empty (then a missing
    ///                         chunk throws OutOfMemory at once).
    DynamicDescriptorHeap(ID3D12Device* device, ShaderVisibleHeap& heap, std::function<bool()> waitForProgress);
    ~DynamicDescriptorHeap();
    DynamicDescriptorHeap(const DynamicDescriptorHeap&) = delete;
    DynamicDescriptorHeap& operator=(const DynamicDescriptorHeap&) = delete;

    /// Takes the descriptor tables of the newly bound root signature. Tables of another heap type
    /// are ignored (remembered only to give better error messages). Resets staging: every slot
    /// becomes null and nothing is stale. Throws InvalidArgument for a root index >= 64, a root
    /// index listed twice, numDescriptors 0, or more than kMaxStagedDescriptors in total.
    void ParseRootSignature(const std::vector<DescriptorTableLayout>& tables);

    /// Stages `count` consecutive CPU descriptors starting at `src` into slots
    /// [offset, offset+count) of the table at `rootIndex`; src.ptr == 0 stages null descriptors.
    /// Throws InvalidArgument when rootIndex is not a table of this heap's type (the message says
    /// what it is), count is 0, offset+count passes the table's end, or offset+count exceeds the
    /// chunk size (such a table could never be placed in a chunk).
    /// Re-staging what the slots hold already, into a table committed since ParseRootSignature and
    /// inside what that commit copied, changes nothing: the table stays as committed (not stale), so
    /// the next draw copies nothing. Returns whether anything changed.
    bool StageDescriptors(uint32_t rootIndex, uint32_t offset, uint32_t count, D3D12_CPU_DESCRIPTOR_HANDLE src);

    /// Copies the stale tables and sets them with SetGraphicsRootDescriptorTable.
    void CommitStagedDescriptorsForDraw(ID3D12GraphicsCommandList* list);
    /// Copies the stale tables and sets them with SetComputeRootDescriptorTable.
    void CommitStagedDescriptorsForDispatch(ID3D12GraphicsCommandList* list);

    /// Copies one CPU descriptor into the current chunk and returns its GPU handle (for
    /// ClearUnorderedAccessView*, which needs the same descriptor in a shader-visible heap).
    /// The CPU handle of that copy is CpuHandleOf(gpu). Throws InvalidArgument for src.ptr == 0.
    D3D12_GPU_DESCRIPTOR_HANDLE CopyDescriptor(ID3D12GraphicsCommandList* list, D3D12_CPU_DESCRIPTOR_HANDLE src);
    /// Reserves `count` consecutive descriptors of the current dynamic chunk (taking a new chunk
    /// when it has no room) and returns the heap index of the first; the caller writes them (via
    /// Heap().CpuHandle) and uses Heap().GpuHandle. Valid until Retire. Throws InvalidArgument for
    /// count 0 or count > chunk size.
    uint32_t AllocateDynamic(uint32_t count);
    /// The shader-visible CPU handle that matches a GPU handle of the heap.
    D3D12_CPU_DESCRIPTOR_HANDLE CpuHandleOf(D3D12_GPU_DESCRIPTOR_HANDLE gpu) const noexcept {
        return D3D12_CPU_DESCRIPTOR_HANDLE{m_HeapCpuStart + size_t(gpu.ptr - m_HeapGpuStart)};
    }

    /// Hands every chunk used since the last Retire back to the heap tagged with `serial` (the
    /// list's submission serial; 0 for a list that was never submitted) and resets all state.
    void Retire(uint64_t serial);

    /// Descriptors copied into the shader-visible heap since construction (statistic).
    uint64_t DescriptorsCopied() const noexcept { return m_DescriptorsCopied; }
    /// Chunks taken since construction (statistic).
    uint64_t ChunksAcquired() const noexcept { return m_ChunksAcquired; }
    /// Chunks held right now (current one included).
    uint32_t ChunksHeld() const noexcept;
    /// Bit i set when root index i is a table of this heap's type.
    uint64_t TableMask() const noexcept { return m_TableMask; }
    /// Bit i set when table i was staged since it was last committed.
    uint64_t StaleMask() const noexcept { return m_StaleMask; }
    D3D12_DESCRIPTOR_HEAP_TYPE Type() const noexcept { return m_Type; }
    ShaderVisibleHeap& Heap() const noexcept { return *m_Heap; }

private:
    struct Table {
        uint32_t start = 0;      ///< First slot in m_Staging.
        uint32_t size = 0;       ///< numDescriptors.
        uint32_t copyCount = 0;  ///< One past the highest slot staged.
    };

    template <bool Graphics>
    void Commit(ID3D12GraphicsCommandList* list);
    /// Makes room for `count` consecutive descriptors in the current chunk; returns the heap index.
    uint32_t Reserve(uint32_t count);
    void AcquireChunk();
    void CopyTable(const Table& table, uint32_t destIndex);
    [[noreturn]] void ThrowNotATable(const char* what, uint32_t rootIndex) const;

    ID3D12Device* m_d3d12Device;
    ShaderVisibleHeap* m_Heap;
    std::function<bool()> m_WaitForProgress;
    D3D12_DESCRIPTOR_HEAP_TYPE m_Type;
    uint32_t m_DescriptorSize;
    uint32_t m_ChunkSize;
    size_t m_HeapCpuStart;
    uint64_t m_HeapGpuStart;
    size_t m_NullDescriptor;

    std::array<Table, kMaxRootParameters> m_Tables{};
    uint64_t m_TableMask = 0;
    uint64_t m_OtherTypeMask = 0;  ///< Tables of the other shader-visible type (for messages).
    uint64_t m_StaleMask = 0;
    uint64_t m_CommittedMask = 0;   ///< Tables committed (set on the list) since ParseRootSignature.
    std::vector<size_t> m_Staging;  ///< CPU handle values (D3D12_CPU_DESCRIPTOR_HANDLE::ptr).

    static constexpr uint32_t kNoChunk = ~0u;
    uint32_t m_ChunkFirst = kNoChunk;    ///< Heap index of the current chunk's first descriptor.
    uint32_t m_ChunkUsed = 0;            ///< Descriptors used in the current chunk.
    std::vector<uint32_t> m_FullChunks;  ///< Earlier chunks of this list, waiting for Retire.

    std::array<D3D12_CPU_DESCRIPTOR_HANDLE, kMaxCopyRanges> m_SrcStarts{};
    std::array<UINT, kMaxCopyRanges> m_SrcSizes{};

    uint64_t m_DescriptorsCopied = 0;
    uint64_t m_ChunksAcquired = 0;
};

}  // namespace dx12kit
