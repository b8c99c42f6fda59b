// TlsfAllocator: two-level segregated fit over [0, capacity), capacity up to 2^40 units; the
// allocator of the memory heaps (placed resources).
//
// Concept: free blocks are kept in lists by size class. The first level (FL) is the power of
// two of the size, the second (SL) splits each power of two into 32 equal classes; sizes below
// 64 get one exact class each. Two bitmaps say which lists are non-empty, so the smallest
// non-empty class at or above a given one is two bit scans away: O(1) allocate and free, with
// a fit close to best fit (a block is at most 1/32 larger than its class's lower bound).
//
//   class of size s (s >= 32):  fl = log2(s) - 4,  sl = (s >> (log2(s) - 5)) - 32
//   class of size s (s <  32):  fl = 0,            sl = s
//
//   m_FlBitmap   ...0 1 1 0 1      bit fl  <=> some list of row fl is non-empty
//   m_SlBitmap[fl] ...1 0 0 1 0    bit sl  <=> list (fl, sl) is non-empty
//   m_Heads[fl][sl] -> block <-> block <-> block      (free lists, LIFO, doubly linked)
//
//   physical order:  [used a][free][used b][pending c][free] ...   (prev/next links, by offset)
//   m_States[record]: free / used / pending / unused, one byte each (a compact copy that keeps the
//                     neighbour checks of Free() in cache)
//   m_Allocated: offset -> block of every live or pending allocation (open-addressing hash)
//
// Allocate(size, alignment) looks, in order, at
//   1. the head of the request's own class (closest fit, often an exact one);
//   2. the first non-empty class whose every block is >= size (size rounded up to the next class
//      boundary); with alignment its head is used if the aligned request fits in it;
//   3. with alignment > 1: the first class whose blocks all hold size + alignment - 1, so
//      alignment never leads to a scan (D3D12MA's TLSF walks lists here and collapses when
//      padding leaves many small blocks);
//   4. only when all that fails (the heap is nearly full): at most kMaxScan more blocks of the
//      request's own class, which may hold a block large enough.
// The padding before an aligned allocation stays a free block. Free() merges with the physical
// neighbours. Deferred frees as in FreeListAllocator (see DeferredFreeQueue.hpp).
//
// Limits: at most 2^23 - 2 block records (about 4M live allocations) exist at once: records
// keep neighbour indices in 23 bits, and the offset map packs an offset and a record index into
// 64 bits. Allocate throws OutOfMemory, state unchanged, rather than exceed it.
//
// Ownership: owns its block pool and tables. Thread-safety: none, callers lock.
// Complexity: Allocate, Free, FreeDeferred O(1) (expected, hash); ReleaseStale O(log q) per
// released range; GetStats O(1) except that largestFreeBlock scans the largest non-empty class
// (usually one block); Validate O(blocks); Reset O(blocks).
#pragma once

#include <cstdint>
#include <vector>

#include "dx12kit/alloc/AllocatorCommon.hpp"
#include "dx12kit/alloc/DeferredFreeQueue.hpp"
#include "dx12kit/alloc/detail/OffsetHashMap.hpp"

namespace dx12kit::alloc {

class TlsfAllocator {
public:
    /// Whether FreeDeferred/ReleaseStale exist (used by Replay).
    static constexpr bool kSupportsDeferred = true;
    static constexpr uint64_t kMaxCapacity = uint64_t(1) << 40;
    static constexpr uint32_t kSlBits = 5;
    static constexpr uint32_t kSlCount = 1u << kSlBits;  // 32 second-level classes
    static constexpr uint32_t kFlCount = 37;             // sizes up to 2^40
    static constexpr uint32_t kMaxScan = 16;             // step 4 of Allocate

    /// @param capacity 1..kMaxCapacity; throws InvalidArgument otherwise.
    explicit TlsfAllocator(uint64_t capacity);
    TlsfAllocator(TlsfAllocator&&) noexcept = default;
    TlsfAllocator& operator=(TlsfAllocator&&) noexcept = default;
    TlsfAllocator(const TlsfAllocator&) = delete;
    TlsfAllocator& operator=(const TlsfAllocator&) = delete;

    /// Returns an offset (multiple of `alignment`) or kInvalidOffset when no room was found.
    /// Throws InvalidArgument, state unchanged, on size 0, size > capacity, alignment not a power
    /// of two.
    uint64_t Allocate(uint64_t size, uint64_t alignment = 1);
    /// The free range with the lowest offset that holds the request, if it starts below `limit`
    /// (kInvalidOffset otherwise): what defragmentation uses to move an allocation down. O(blocks).
    uint64_t AllocateLowest(uint64_t size, uint64_t alignment, uint64_t limit);
    /// Throws InvalidArgument, state unchanged, unless `offset` starts a live allocation.
    void Free(uint64_t offset);
    /// Validated like Free(); the range is reusable only after ReleaseStale(>= fenceValue).
    void FreeDeferred(uint64_t offset, uint64_t fenceValue);
    void ReleaseStale(uint64_t completedValue);
    /// Forgets every allocation and deferred free.
    void Reset();

    AllocatorStats GetStats() const noexcept;
    /// Throws dx12kit::Error naming the first broken invariant.
    void Validate() const;
    uint64_t Capacity() const noexcept { return m_Capacity; }
    uint64_t PendingFrees() const noexcept { return m_Deferred.Size(); }

    /// Every block in address order: state 0 = free, 1 = allocated, 2 = deferred free pending.
    struct BlockInfo {
        uint64_t offset;
        uint64_t size;
        uint32_t state;
    };
    std::vector<BlockInfo> CalculateBlocks() const;

private:
    static constexpr uint32_t kNil = ~0u;
    enum State : uint32_t { kUnused = 0, kFree = 1, kUsed = 2, kPending = 3 };

    // A block record is 16 bytes, four per cache line: offset and size take 41 bits each, the
    // physical neighbours 23 bits each (kPhysNil = none). The free-list links, needed only while
    // a block is free, live apart in m_Links, and the state in m_States: the records touched by
    // every free stay few and small.
    struct Block {
        uint64_t lo;  // offset | prevPhys << 41
        uint64_t hi;  // size   | nextPhys << 41
    };
    struct Links {
        uint32_t prev, next;  // free-list neighbours (free blocks); next = pool link (unused records)
    };
    static constexpr uint32_t kPosBits = 41;
    static constexpr uint64_t kPosMask = (uint64_t(1) << kPosBits) - 1;
    static constexpr uint32_t kPhysNil = (1u << (64 - kPosBits)) - 1;

    uint64_t OffsetOf(uint32_t b) const noexcept { return m_Blocks[b].lo & kPosMask; }
    uint64_t SizeOf(uint32_t b) const noexcept { return m_Blocks[b].hi & kPosMask; }
    uint32_t PrevPhys(uint32_t b) const noexcept { return Phys(m_Blocks[b].lo >> kPosBits); }
    uint32_t NextPhys(uint32_t b) const noexcept { return Phys(m_Blocks[b].hi >> kPosBits); }
    static uint32_t Phys(uint64_t field) noexcept { return field == kPhysNil ? kNil : static_cast<uint32_t>(field); }
    static uint64_t PhysField(uint32_t b) noexcept { return uint64_t(b == kNil ? kPhysNil : b) << kPosBits; }
    void SetOffset(uint32_t b, uint64_t v) noexcept { m_Blocks[b].lo = (m_Blocks[b].lo & ~kPosMask) | v; }
    void SetSize(uint32_t b, uint64_t v) noexcept { m_Blocks[b].hi = (m_Blocks[b].hi & ~kPosMask) | v; }
    void SetPrevPhys(uint32_t b, uint32_t p) noexcept { m_Blocks[b].lo = (m_Blocks[b].lo & kPosMask) | PhysField(p); }
    void SetNextPhys(uint32_t b, uint32_t n) noexcept { m_Blocks[b].hi = (m_Blocks[b].hi & kPosMask) | PhysField(n); }
    void InitBlock(uint32_t b, uint64_t offset, uint64_t size, uint32_t prev, uint32_t next) noexcept {
        m_Blocks[b] = Block{offset | PhysField(prev), size | PhysField(next)};
    }

    static uint32_t ClassOf(uint64_t size) noexcept;       // fl * kSlCount + sl
    static uint32_t ClassAtLeast(uint64_t size) noexcept;  // first class whose blocks are all >= size
    uint32_t FindNonEmpty(uint32_t cls) const noexcept;
    uint32_t FindBlock(uint64_t size, uint64_t alignment) const noexcept;
    uint64_t AllocateFrom(uint32_t freeBlock, uint64_t size, uint64_t alignment);  // carves the request out of it
    bool Fits(uint32_t block, uint64_t size, uint64_t alignment) const noexcept;
    uint32_t NewBlock();
    void ReleaseBlock(uint32_t b) noexcept;
    void LinkFree(uint32_t b) noexcept;
    void UnlinkFree(uint32_t b) noexcept;
    uint32_t CheckFreeable(const char* who, uint64_t offset) const;
    void FreeBlock(uint32_t b);

    uint64_t m_Capacity;
    std::vector<Block> m_Blocks;
    std::vector<Links> m_Links;
    // One byte per record, apart from the records: Free() asks whether both physical neighbours
    // are free, and this small array answers from cache without fetching their records.
    std::vector<uint8_t> m_States;
    uint32_t m_UnusedHead = kNil;  // pool of Block records
    uint64_t m_UnusedCount = 0;
    uint64_t m_MaxBlocks;  // block records the offset map can index
    uint32_t m_Heads[kFlCount * kSlCount];
    uint64_t m_FlBitmap = 0;
    uint32_t m_SlBitmap[kFlCount] = {};
    detail::OffsetHashMap m_Allocated;
    DeferredFreeQueue m_Deferred;
    uint64_t m_Used = 0;
    uint64_t m_FreeBlocks = 0;
    uint64_t m_Allocations = 0;
};

}  // namespace dx12kit::alloc
