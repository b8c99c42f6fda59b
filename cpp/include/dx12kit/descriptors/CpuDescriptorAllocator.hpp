// CpuDescriptorAllocator: CPU-only descriptors of one heap type, in pages, with deferred frees.
//
// Concept
//   One allocator per descriptor heap type (CBV_SRV_UAV, SAMPLER, RTV, DSV). Descriptors live in
//   CPU-only (non-shader-visible) ID3D12DescriptorHeap "pages" of `pageSize` descriptors. Each
//   page's free space is kept by an alloc::FreeListAllocator (offsets in descriptors). Pages that
//   still have room sit in an "available" list, so Allocate never scans full pages. A request
//   larger than a page gets a dedicated page of exactly its size, destroyed again once its range
//   is released.
//
//   Frees are deferred. DescriptorAllocation::Free (or dropping the allocation) queues the range
//   tagged with the device's current submission serial (read from the atomic the device passes
//   in; the value is read under the allocator's lock, so the queue is ordered by serial). Only
//   ReleaseStaleDescriptors(completed) returns ranges whose tag <= completed to their pages.
//
// Ownership
//   The allocator owns its pages (ComPtr<ID3D12DescriptorHeap>). Allocations point at pages with
//   raw pointers, so the allocator must outlive every allocation: the device keeps its
//   allocators alive until every resource (and thus every view) has been destroyed. The device
//   pointer is borrowed and must outlive the allocator.
//
// Thread-safety
//   Every public method is thread-safe (one std::mutex per allocator; allocations of different
//   heap types never contend).
//
// Complexity
//   Allocate: O(1) pages visited for count == 1 (any available page fits); for count > 1 pages
//     whose free count is too small are skipped, and a fragmented page costs one failed
//     FreeListAllocator::Allocate; plus the free list's own cost.
//   Free: O(1) amortised (append to the stale queue).
//   ReleaseStaleDescriptors: O(released ranges) x the free list's Free.
//   GetStats: O(1).  Validate: O(pages + stale ranges) plus each page's Validate.
//
// Data structures
//
//   m_Pages (owns)                m_Available (pages with room; page->availablePos = index)
//   +--------+--------+--------+  +--------+--------+
//   | page 0 | page 1 | page 2 |  | page 2 | page 0 |      page 1 is full: not listed
//   +---|----+--------+--------+  +--------+--------+
//       v
//   CpuDescriptorPage: ComPtr<ID3D12DescriptorHeap> (pageSize slots, CPU only)
//                      FreeListAllocator (free ranges of slots), freeCount
//   +---+---+---+---+---+---+---+---+
//   |###|###|   |###|   |   |###|~~~|   ### live   ~~~ stale (freed, GPU may still use it)
//   +---+---+---+---+---+---+---+---+
//
//   m_Stale (FIFO ring over a vector, ordered by serial because the serial is read under the lock)
//   head -> {page 0, slot 7, n 1, serial 41} {page 2, slot 0, n 4, serial 42} ... <- tail
//   ReleaseStaleDescriptors(42) pops both and calls page->freeList.Free(slot).
#pragma once

#include "dx12kit/descriptors/DescriptorAllocation.hpp"
#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace dx12kit {

/// Counters of one CpuDescriptorAllocator, in descriptors (pages: in pages).
struct CpuDescriptorStats {
    uint64_t inUse;      ///< Handed out and not yet freed by the user.
    uint64_t pages;      ///< Pages alive, dedicated pages included.
    uint64_t peakInUse;  ///< Highest inUse seen.
    uint64_t stale;      ///< Freed by the user, waiting for their serial to complete.
    uint64_t capacity;   ///< Sum of the sizes of all pages alive.
};

class CpuDescriptorAllocator {
public:
    static constexpr uint32_t kDefaultPageSize = 256;

    /// @param device         borrowed; must outlive the allocator.
    /// @param type           heap type of every descriptor this allocator hands out.
    /// @param pageSize       descriptors per page (>= 1); requests larger than this get a page of their own.
    /// @param currentSerial  the device's last handed-out submission serial (borrowed); frees are
    ///                       tagged with its value. nullptr means "always 0".
    /// Throws InvalidArgument for pageSize 0 or an unknown type.
    CpuDescriptorAllocator(ID3D12Device* device, D3D12_DESCRIPTOR_HEAP_TYPE type,
                           uint32_t pageSize = kDefaultPageSize,
                           const std::atomic<uint64_t>* currentSerial = nullptr);
    ~CpuDescriptorAllocator();
    CpuDescriptorAllocator(const CpuDescriptorAllocator&) = delete;
    CpuDescriptorAllocator& operator=(const CpuDescriptorAllocator&) = delete;

    /// `count` consecutive descriptors. Throws InvalidArgument for count 0, OutOfMemory or
    /// DeviceError when a new page cannot be created.
    DescriptorAllocation Allocate(uint32_t count = 1);

    /// Returns every queued range whose serial <= completedSerial to its page. Dedicated pages
    /// whose range comes back are destroyed.
    void ReleaseStaleDescriptors(uint64_t completedSerial);

    CpuDescriptorStats GetStats() const;
    /// Checks every internal invariant (counts, available list, each page's free list); throws
    /// Error with a description when one is broken. Meant for tests; O(pages + stale ranges).
    void Validate() const;

    uint32_t DescriptorSize() const noexcept { return m_DescriptorSize; }
    uint32_t PageSize() const noexcept { return m_PageSize; }
    D3D12_DESCRIPTOR_HEAP_TYPE Type() const noexcept { return m_Type; }

private:
    friend void detail::FreeCpuDescriptors(detail::CpuDescriptorPage*, uint32_t, uint32_t) noexcept;

    struct StaleRange {
        detail::CpuDescriptorPage* page;
        uint32_t offset;
        uint32_t count;
        uint64_t serial;
    };

    detail::CpuDescriptorPage* NewPageLocked(uint32_t capacity, bool dedicated);
    void DestroyPageLocked(detail::CpuDescriptorPage* page);
    void AddAvailableLocked(detail::CpuDescriptorPage* page);
    void RemoveAvailableLocked(detail::CpuDescriptorPage* page);
    void QueueFree(detail::CpuDescriptorPage* page, uint32_t offset, uint32_t count) noexcept;

    ID3D12Device* m_d3d12Device;  ///< Borrowed.
    D3D12_DESCRIPTOR_HEAP_TYPE m_Type;
    uint32_t m_PageSize;
    uint32_t m_DescriptorSize;
    const std::atomic<uint64_t>* m_CurrentSerial;  ///< Borrowed; may be null.

    mutable std::mutex m_Mutex;
    std::vector<std::unique_ptr<detail::CpuDescriptorPage>> m_Pages;
    std::vector<detail::CpuDescriptorPage*> m_Available;
    std::vector<StaleRange> m_Stale;  ///< FIFO: live entries are [m_StaleHead, size()).
    size_t m_StaleHead = 0;
    uint64_t m_InUse = 0;
    uint64_t m_PeakInUse = 0;
    uint64_t m_StaleCount = 0;  ///< Descriptors in m_Stale.
    uint64_t m_Capacity = 0;
};

}  // namespace dx12kit
