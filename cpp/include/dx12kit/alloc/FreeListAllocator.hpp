// FreeListAllocator: exact address-ordered best fit over [0, capacity), the allocator of the
// descriptor pages.
//
// Concept: Allocate(size, alignment) picks, among the free blocks that can hold the aligned
// request, the smallest one, and among equally small ones the lowest offset (address-ordered best
// fit, the policy with the least fragmentation in the literature). The allocation starts at the
// first aligned offset of that block; what is left before and after it stays free. Free()
// coalesces with both neighbours, so free blocks are always maximal. These are exactly the
// placements of the textbook std::map (by offset) + std::multimap (by size) free list
// (benchmarks/baseline/BaselineBimap.hpp), which the tests replay side by side. Frees may be
// deferred behind a GPU fence (FreeDeferred / ReleaseStale, see DeferredFreeQueue.hpp).
//
// Data structures (capacity 16; A, B, C allocated; two free blocks):
//
//   offset      0   1   2   3   4   5   6   7   8   9  10  11  12  13  14  15 (16)
//   blocks     [A used][  free 3  ][B ][ C used 3 ][          free 7          ]
//   .starts     1   0   1   0   0   1   1   0   0   1   0   0   0   0   0   0   1  <- sentinel
//   .free       0   0   1   0   0   0   0   0   0   1   0   0   0   0   0   0
//   m_Pending   0   0   0   0   0   0   0   0   0   0   0   0   0   0   0   0   (deferred frees)
//
//   (.starts and .free are the two halves of m_Words.)
//   A block starts at every set bit of .starts and ends at the next one, so its size is one
//   "next set bit" query away; m_WordIndex (HierarchicalBitset.hpp) marks the non-empty start
//   words so that a scan across a large free block takes O(log64 capacity). The start and free
//   bits of 64 units share one 16-byte word (m_Words); m_Pending is read only while deferred frees
//   exist. Two to three bits per unit: a 1M-descriptor heap costs ~250 KiB, small enough to stay
//   in cache, which is what makes this allocator fast.
//
//   size index (by size, then offset): one bin per exact size below kSmallBins (4096), and a
//   two-level bitmap marks the non-empty bins:
//         m_BinSummary  bit w set  <=>  m_BinWords[w] != 0
//         m_BinWords[w] bit i set  <=>  bin 64*w + i holds a block
//   A bin finds its lowest-offset block in one of two ways:
//     - bitmap bins (small sizes, the busiest): a three-level bitset over 64-unit words, bit w set
//       when a block of the bin's size may start in word w; the first set bit names the word,
//       whose free bits are then checked for a block of exactly that size. Bits of blocks that
//       went away are cleared lazily, when the search finds their word empty of such blocks.
//       Costs (capacity / 64) bits per bin, so their number follows a budget of two bits per
//       unit of capacity, between 16 Kibit and 1 MiB in all (m_BitmapBins; none beyond 2^24
//       units).
//     - heap bins: a 4-ary min-heap of offsets with lazy removal (entries whose block went away
//       are skipped when they reach the top; a heap with more than twice as many entries as live
//       blocks is compacted).
//         bins[3]: bitmap, bit 0 set (a 3-block starts in word 0)     bins[7]: bit 0 set
//   sizes >= kSmallBins: one ordered set of keys (size << 32 | offset).
//
// Allocate(size): the first non-empty bin >= size is two bit scans away, then its lowest block;
// the remainder of the block enters the bin of its size. Free(offset): the start bits right after
// and right before the block locate both neighbours and the free bits say whether to merge, so
// coalescing needs no search; a neighbour absorbed by a free only leaves its bin lazily (its
// count drops at once, its bitmap bit or heap entry when a search meets it).
//
// Limits: capacity <= kMaxCapacity (2^32 - 1). Alignments > 1 are exact too but scan the bins
// of sizes [size, size + alignment - 1), so they cost O(free blocks of those sizes); use
// TlsfAllocator for heavily aligned workloads.
//
// Ownership: owns its tables. Thread-safety: none, callers lock. Move-constructible, not copyable.
// Complexity: Allocate with alignment 1 and Free O(log b) where b is the number of free blocks of
// one size (heap height, 4-ary), O(log L) with L free blocks of size >= 4096, plus O(log64
// capacity) bit scans; a failed Allocate O(1); GetStats O(1); FreeDeferred O(log q);
// ReleaseStale O(log q) per released range; Reset O(capacity / 64); Validate O(capacity).
#pragma once

#include <cstdint>
#include <memory>
#include <memory_resource>
#include <set>
#include <utility>
#include <vector>

#include "dx12kit/alloc/AllocatorCommon.hpp"
#include "dx12kit/alloc/DeferredFreeQueue.hpp"
#include "dx12kit/alloc/detail/HierarchicalBitset.hpp"

namespace dx12kit::alloc {

class FreeListAllocator {
public:
    /// Whether FreeDeferred/ReleaseStale exist (used by Replay).
    static constexpr bool kSupportsDeferred = true;
    /// Largest supported capacity (offsets and sizes are kept in 32 bits).
    static constexpr uint64_t kMaxCapacity = (uint64_t(1) << 32) - 1;
    /// Free blocks smaller than this live in exact-size bins; larger ones in an ordered set.
    static constexpr uint32_t kSmallBins = 4096;

    static constexpr uint32_t kAutoBitmapBins = ~0u;

    /// @param capacity number of units managed, 1..kMaxCapacity; throws InvalidArgument otherwise.
    /// @param bitmapBins sizes below this use bitmap bins, the others heaps (see above); the
    ///        default picks it from the capacity. Placements never depend on it; tests use it to
    ///        exercise both kinds of bin.
    explicit FreeListAllocator(uint64_t capacity, uint32_t bitmapBins = kAutoBitmapBins);
    FreeListAllocator(FreeListAllocator&&) noexcept = default;
    FreeListAllocator(const FreeListAllocator&) = delete;
    FreeListAllocator& operator=(const FreeListAllocator&) = delete;
    FreeListAllocator& operator=(FreeListAllocator&&) = delete;

    /// Address-ordered best fit. Returns the offset (a multiple of `alignment`) or kInvalidOffset
    /// when no free block can hold the request. Throws InvalidArgument, state unchanged, on
    /// size 0, size > capacity, or alignment not a power of two.
    uint64_t Allocate(uint64_t size, uint64_t alignment = 1);

    /// Returns the allocation starting at `offset` to the free space, coalescing with its free
    /// neighbours. Throws InvalidArgument, state unchanged, unless `offset` is the start of a live
    /// allocation (not freed, not passed to FreeDeferred).
    void Free(uint64_t offset);

    /// Validated like Free(); the range stays unavailable (and counted as used) until
    /// ReleaseStale(completedValue) with completedValue >= fenceValue.
    void FreeDeferred(uint64_t offset, uint64_t fenceValue);

    /// Frees every deferred range whose fence value is <= completedValue.
    void ReleaseStale(uint64_t completedValue);

    /// Forgets every allocation and every deferred free: one free block [0, capacity) remains.
    void Reset();

    /// O(1).
    AllocatorStats GetStats() const noexcept;

    /// Walks every block and index; throws dx12kit::Error naming the first broken invariant.
    void Validate() const;

    uint64_t Capacity() const noexcept { return m_Capacity; }
    /// Sizes below this value use bitmap bins.
    uint32_t BitmapBins() const noexcept { return m_BitmapBins; }
    /// Number of ranges waiting in the deferred-free queue.
    uint64_t PendingFrees() const noexcept { return m_Deferred.Size(); }

    /// Every block in address order: (offset, size, state) with state 0 = free, 1 = allocated,
    /// 2 = deferred free pending. O(capacity); for tests and debugging.
    struct BlockInfo {
        uint64_t offset;
        uint64_t size;
        uint32_t state;
    };
    std::vector<BlockInfo> CalculateBlocks() const;

private:
    static constexpr uint32_t kNoBin = ~0u;

    struct HeapBin {
        std::vector<uint32_t> heap;  // 4-ary min-heap of offsets (may hold stale entries), padded
        uint32_t size = 0;           // entries in the heap
    };

    // Start and free bits of 64 consecutive units share a cache line.
    struct Word {
        uint64_t starts;  // bit i: a block starts at 64*w + i
        uint64_t free;    // bit i: that block is free
    };

    bool IsStart(uint64_t offset) const noexcept { return (m_Words[offset >> 6].starts >> (offset & 63)) & 1; }
    bool IsFree(uint64_t offset) const noexcept { return (m_Words[offset >> 6].free >> (offset & 63)) & 1; }
    void SetFreeBit(uint64_t offset) noexcept { m_Words[offset >> 6].free |= uint64_t(1) << (offset & 63); }
    void ClearFreeBit(uint64_t offset) noexcept { m_Words[offset >> 6].free &= ~(uint64_t(1) << (offset & 63)); }
    bool IsPending(uint64_t offset) const noexcept { return (m_Pending[offset >> 6] >> (offset & 63)) & 1; }
    void SetStart(uint64_t offset) noexcept;
    void ClearStart(uint64_t offset) noexcept;
    uint64_t NextStart(uint64_t offset) const noexcept;  // smallest start >= offset (<= capacity)
    uint64_t PrevStart(uint64_t offset) const noexcept;  // largest start <= offset
    /// Size of the block starting at `offset` (distance to the next start bit).
    uint64_t BlockSize(uint64_t offset) const noexcept { return NextStart(offset + 1) - offset; }

    uint32_t FindBin(uint64_t minSize) const noexcept;
    uint32_t PopLowest(uint32_t bin);
    uint32_t LowestInBitmapBin(uint32_t bin);
    bool IsLiveEntry(uint32_t offset, uint32_t bin) const noexcept;
    void InsertFree(uint64_t offset, uint64_t size);
    void RemoveFree(uint64_t offset, uint64_t size);
    uint64_t Place(uint64_t blockOffset, uint64_t blockSize, uint64_t offset, uint64_t size);
    uint64_t AllocateAligned(uint64_t size, uint64_t alignment);
    void FreeBlock(uint64_t offset, uint64_t size);
    uint64_t CheckFreeable(const char* who, uint64_t offset) const;
    [[noreturn]] DX12KIT_NOINLINE void ThrowNotFreeable(const char* who, uint64_t offset) const;
    void CompactBin(uint32_t bin);
    void ClearIndex();

    uint64_t m_Capacity;
    uint32_t m_NumBins;                      // min(kSmallBins, capacity + 1)
    std::vector<Word> m_Words;               // capacity + 1 units; unit `capacity` is a sentinel start
    detail::HierarchicalBitset m_WordIndex;  // bit w: m_Words[w].starts != 0 (for long scans)
    std::vector<uint64_t> m_Pending;         // start of an allocation whose free is deferred
    uint32_t m_BitmapBins;                   // bins [1, m_BitmapBins) are bitmap bins
    std::vector<uint32_t> m_BinCounts;       // live free blocks per size, [0, m_NumBins)
    std::vector<HeapBin> m_Heaps;            // heap bins, for sizes [m_BitmapBins, m_NumBins)
    detail::Bitset3Layout m_BinBitsLayout;   // geometry of one bitmap bin (one bit per word)
    std::vector<uint64_t> m_BinBits;         // the bitmap bins, one after the other
    uint64_t* BinBits(uint32_t bin) noexcept { return m_BinBits.data() + bin * m_BinBitsLayout.Stride(); }
    const uint64_t* BinBits(uint32_t bin) const noexcept { return m_BinBits.data() + bin * m_BinBitsLayout.Stride(); }
    uint64_t m_BinWords[kSmallBins / 64] = {};
    uint64_t m_BinSummary = 0;
    // Free blocks of size >= m_NumBins, key (size << 32 | offset); nodes come from a private pool.
    std::unique_ptr<std::pmr::unsynchronized_pool_resource> m_Pool;
    std::pmr::set<uint64_t> m_Large;
    DeferredFreeQueue m_Deferred;
    uint64_t m_Used = 0;
    uint64_t m_FreeBlocks = 0;
    uint64_t m_Allocations = 0;
};

}  // namespace dx12kit::alloc
