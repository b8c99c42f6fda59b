// BaselineBimap: the textbook free list, kept as the yardstick of the allocation benchmarks.
//
// Concept: free blocks are kept twice, in a std::map by offset (to find the neighbours to
// coalesce with) and in an ordered index by size (to find the smallest block that fits). This
// is the std::map + std::multimap "bimap" of Diligent's VariableSizeAllocationsManager, with
// one change that defines the policy: the size index is ordered by (size, offset), so among
// equally small blocks the lowest offset wins (address-ordered best fit). A std::multimap keyed
// by size alone keeps equal sizes in insertion order, which is a different policy.
//
//   m_ByOffset:  { 2 -> 3, 9 -> 7 }           (offset -> size)
//   m_BySize:    { (3, 2), (7, 9) }           (size, offset), smallest first
//   m_Allocated: { 0 -> 2, 5 -> 1, 6 -> 3 }   (offset -> size; unordered_map)
//
// With alignment, blocks are visited in (size, offset) order from the first of size >= size and
// the first one that holds the aligned request wins (O(n) scan in the worst case). FreeList must
// place every allocation exactly where this class does; the tests replay both side by side.
//
// Not part of the library: compiled only into the benchmark module, so the benchmarks and the
// property tests can run it through the same replay loop (dx12kit_bench.BaselineBimap).
// Ownership: owns its containers. Thread-safety: none.
// Complexity: O(log n) per operation (plus the alignment scan); node allocation on every insert.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dx12kit/alloc/AllocatorCommon.hpp"
#include "dx12kit/alloc/DeferredFreeQueue.hpp"

namespace dx12kit::bench {

class BaselineBimap {
public:
    static constexpr bool kSupportsDeferred = true;
    static constexpr uint64_t kMaxCapacity = uint64_t(1) << 62;

    explicit BaselineBimap(uint64_t capacity);

    uint64_t Allocate(uint64_t size, uint64_t alignment = 1);
    void Free(uint64_t offset);
    void FreeDeferred(uint64_t offset, uint64_t fenceValue);
    void ReleaseStale(uint64_t completedValue);
    void Reset();
    alloc::AllocatorStats GetStats() const;
    void Validate() const;
    uint64_t Capacity() const noexcept { return m_Capacity; }

    struct BlockInfo {
        uint64_t offset;
        uint64_t size;
        uint32_t state;  // 0 free, 1 allocated, 2 deferred free pending
    };
    std::vector<BlockInfo> CalculateBlocks() const;

private:
    void InsertFree(uint64_t offset, uint64_t size);
    void FreeRange(uint64_t offset, uint64_t size);
    uint64_t CheckFreeable(const char* who, uint64_t offset) const;

    uint64_t m_Capacity;
    std::map<uint64_t, uint64_t> m_ByOffset;
    std::set<std::pair<uint64_t, uint64_t>> m_BySize;
    std::unordered_map<uint64_t, uint64_t> m_Allocated;
    std::unordered_map<uint64_t, uint64_t> m_Pending;
    alloc::DeferredFreeQueue m_Deferred;
    uint64_t m_Used = 0;
};

}  // namespace dx12kit::bench
