// ShaderVisibleHeap: the one shader-visible descriptor heap of a type, split into a static part
// and a dynamic part handed out in chunks.
//
// Concept
//   A device keeps one ShaderVisibleHeap per shader-visible type (CBV_SRV_UAV and SAMPLER) for its
//   whole lifetime, so a command list binds both with SetDescriptorHeaps once and never rebinds
//   (heaps do not grow: a full heap is reported, never silently replaced).
//
//   * Static part, indices [0, staticCount): long-lived tables. Allocated with an
//     alloc::FreeListAllocator; FreeStatic(first, serial) is deferred until ReleaseStale(completed)
//     sees completed >= serial.
//   * Dynamic part, indices [staticCount, staticCount + chunkCount * chunkSize): fixed-size chunks.
//     A command list's DynamicDescriptorHeap acquires a chunk (one lock), sub-allocates inside it
//     without any lock, and retires every chunk it used with the serial of its submission. A
//     retired chunk is free again once ReleaseStale(completed) sees completed >= that serial.
//     Leftover descriptors (dynamic size not a multiple of chunkSize) are unused.
//
//   The heap also owns one CPU-only "null" descriptor of its type (a null Texture2D SRV for
//   CBV_SRV_UAV, a point/clamp sampler for SAMPLER) that staging uses for slots never written.
//
// Ownership
//   Owns the ID3D12DescriptorHeap (ComPtr); D3D12Heap() is borrowed (does not AddRef). The device
//   pointer is borrowed only during construction.
//
// Thread-safety
//   Every method is thread-safe (one mutex). The handle getters take no lock.
//
// Complexity
//   AllocateStatic/FreeStatic: the free list's cost. TryAcquireChunk: O(1). RetireChunk:
//   O(log chunks). ReleaseStale: O(released chunks * log chunks) + the free list's ReleaseStale.
//
// Layout (indices)
//
//   0              staticCount                                                 numDescriptors
//   +--------------+---------+---------+---------+---------+---------+---------+---+
//   | static tables| chunk 0 | chunk 1 | chunk 2 | chunk 3 |   ...   | chunk N | - |
//   | (free list)  | in use  | free    | retired | in use  |         | free    |   |
//   +--------------+---------+---------+---------+---------+---------+---------+---+
//                   m_ChunkState[i]: Free / InUse / Retired
//   m_FreeChunks: stack of free chunk numbers        (TryAcquireChunk pops)
//   m_Retired:    min-heap of {serial, chunk number} (ReleaseStale pops while serial <= completed)
#pragma once

#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace dx12kit {

namespace alloc {
class FreeListAllocator;
}

/// Counters of one ShaderVisibleHeap, in descriptors unless named otherwise.
struct ShaderVisibleHeapStats {
    uint64_t capacity;  ///< Descriptors in the D3D12 heap.
    uint64_t staticCapacity;
    uint64_t staticInUse;      ///< Allocated static descriptors, deferred frees included.
    uint64_t dynamicCapacity;  ///< chunk count * chunkSize.
    uint64_t dynamicInUse;     ///< (chunks in use + retired chunks) * chunkSize.
    uint64_t chunkSize;
    uint64_t chunksInUse;    ///< Held by command lists.
    uint64_t chunksRetired;  ///< Handed back, waiting for their serial to complete.
    uint64_t peakDynamicInUse;
};

class ShaderVisibleHeap {
public:
    /// @param type            CBV_SRV_UAV or SAMPLER.
    /// @param numDescriptors  heap size; at most 2048 for SAMPLER.
    /// @param staticCount     descriptors reserved for the static part (may be 0).
    /// @param chunkSize       descriptors per dynamic chunk; the dynamic part must hold at least one.
    /// Throws InvalidArgument on a bad type or size, DeviceError/OutOfMemory when creation fails.
    ShaderVisibleHeap(ID3D12Device* device, D3D12_DESCRIPTOR_HEAP_TYPE type, uint32_t numDescriptors, uint32_t staticCount, uint32_t chunkSize);
    ~ShaderVisibleHeap();
    ShaderVisibleHeap(const ShaderVisibleHeap&) = delete;
    ShaderVisibleHeap& operator=(const ShaderVisibleHeap&) = delete;

    /// The D3D12 heap, borrowed (does not AddRef).
    ID3D12DescriptorHeap* D3D12Heap() const noexcept { return m_d3d12Heap.Get(); }
    D3D12_DESCRIPTOR_HEAP_TYPE Type() const noexcept { return m_Type; }
    uint32_t NumDescriptors() const noexcept { return m_NumDescriptors; }
    uint32_t DescriptorSize() const noexcept { return m_DescriptorSize; }

    // ---- static part ----
    /// First index of `count` consecutive static descriptors. Throws InvalidArgument for count 0
    /// and OutOfMemory when the static part has no such room (the message gives the numbers).
    uint32_t AllocateStatic(uint32_t count);
    /// Deferred free of the range starting at `first` (a value AllocateStatic returned); reusable
    /// after ReleaseStale(completed >= serial). Throws InvalidArgument on an unknown index.
    void FreeStatic(uint32_t first, uint64_t serial);

    /// Handles of heap index `index`. Throw InvalidArgument when index >= NumDescriptors().
    D3D12_CPU_DESCRIPTOR_HANDLE CpuHandle(uint32_t index) const;
    D3D12_GPU_DESCRIPTOR_HANDLE GpuHandle(uint32_t index) const;
    /// Unchecked versions for the hot path.
    D3D12_CPU_DESCRIPTOR_HANDLE CpuStart() const noexcept { return m_CpuStart; }
    D3D12_GPU_DESCRIPTOR_HANDLE GpuStart() const noexcept { return m_GpuStart; }

    /// A CPU-only descriptor of this heap's type that is valid to copy and reads as null.
    D3D12_CPU_DESCRIPTOR_HANDLE NullDescriptor() const noexcept { return m_NullDescriptor; }

    // ---- dynamic part ----
    /// Takes a free chunk and returns its first heap index; false when every chunk is in use or
    /// retired but not yet complete (call ReleaseStale, or wait for the GPU, then retry).
    bool TryAcquireChunk(uint32_t& firstIndex);
    /// Hands back a chunk taken with TryAcquireChunk, tagged with the serial of the last
    /// submission that used it. Throws InvalidArgument when firstIndex is not a chunk in use.
    void RetireChunk(uint32_t firstIndex, uint64_t serial);
    /// Frees the retired chunks and deferred static ranges whose serial <= completedSerial.
    void ReleaseStale(uint64_t completedSerial);

    ShaderVisibleHeapStats GetStats() const;
    uint32_t ChunkSize() const noexcept { return m_ChunkSize; }
    uint32_t ChunkCount() const noexcept { return m_ChunkCount; }
    /// Checks the invariants; throws Error when one is broken. For tests.
    void Validate() const;

private:
    enum class ChunkState : uint8_t { Free, InUse, Retired };

    D3D12_DESCRIPTOR_HEAP_TYPE m_Type;
    uint32_t m_NumDescriptors;
    uint32_t m_StaticCount;
    uint32_t m_ChunkSize;
    uint32_t m_ChunkCount;
    uint32_t m_DescriptorSize;
    ComPtr<ID3D12DescriptorHeap> m_d3d12Heap;
    ComPtr<ID3D12DescriptorHeap> m_d3d12NullHeap;  ///< CPU-only, one null descriptor.
    D3D12_CPU_DESCRIPTOR_HANDLE m_CpuStart{0};
    D3D12_GPU_DESCRIPTOR_HANDLE m_GpuStart{0};
    D3D12_CPU_DESCRIPTOR_HANDLE m_NullDescriptor{0};

    mutable std::mutex m_Mutex;
    std::unique_ptr<alloc::FreeListAllocator> m_Static;  ///< Null when staticCount == 0.
    std::vector<ChunkState> m_ChunkState;
    std::vector<uint32_t> m_FreeChunks;                    ///< Stack of chunk numbers.
    std::vector<std::pair<uint64_t, uint32_t>> m_Retired;  ///< Min-heap on serial.
    uint32_t m_ChunksInUse = 0;
    uint64_t m_PeakDynamicInUse = 0;
};

}  // namespace dx12kit
