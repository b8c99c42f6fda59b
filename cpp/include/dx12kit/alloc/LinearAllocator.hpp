// LinearAllocator: the bump allocator of the upload pages.
//
// Concept: a page of `capacity` units is filled front to back. Allocate(size, alignment) rounds
// the head up to the alignment, returns it, and moves the head past the allocation; when the
// page cannot hold the request it returns kInvalidOffset (the clear "page full" signal: the upload
// ring then retires this page behind a fence and takes a fresh one). Reset() empties the page
// once the GPU is done with it.
//
//   0                         m_Head                                   capacity
//   [ a ][pad][   b   ][pad][ c ]|<------------- free ------------------>|
//                             ^ m_Last (offset of c), m_PrevHead = end of b
//
// Free(offset) is an undo, not a general free: it accepts only the most recent allocation (the
// one Allocate just returned, `c` above) and moves the head back to where it was before that
// allocation, padding included. One level only: after an undo, Free() accepts nothing until the
// next Allocate. Anything else throws InvalidArgument; whole pages are recycled with Reset().
//
// Ownership: plain value type, owns nothing. Thread-safety: none, callers lock.
// Complexity: everything O(1). Allocate is inline: on the fast path it is an align, a compare
// and three stores (~1-4 ns).
#pragma once

#include <cstdint>

#include "dx12kit/alloc/AllocatorCommon.hpp"

namespace dx12kit::alloc {

class LinearAllocator {
public:
    /// Whether FreeDeferred/ReleaseStale exist (used by Replay).
    static constexpr bool kSupportsDeferred = false;
    /// Largest supported capacity (keeps head + alignment free of overflow).
    static constexpr uint64_t kMaxCapacity = uint64_t(1) << 62;

    /// @param capacity page size in units, 1..kMaxCapacity; throws InvalidArgument otherwise.
    explicit LinearAllocator(uint64_t capacity);

    /// Returns the head rounded up to `alignment`, or kInvalidOffset when the page cannot hold
    /// the request (state unchanged). Throws InvalidArgument, state unchanged, on size 0,
    /// size > capacity, or alignment not a power of two.
    uint64_t Allocate(uint64_t size, uint64_t alignment = 1) {
        // One unlikely branch covers bad arguments and alignments larger than the page.
        if (DX12KIT_UNLIKELY((size - 1) >= m_Capacity || (alignment - 1) >= m_Capacity || (alignment & (alignment - 1)) != 0))
            return AllocateSlow(size, alignment);
        uint64_t offset = (m_Head + alignment - 1) & ~(alignment - 1);
        if (DX12KIT_UNLIKELY(offset > m_Capacity - size)) return kInvalidOffset;
        m_PrevHead = m_Head;
        m_Last = offset;
        m_Head = offset + size;
        ++m_Allocations;
        return offset;
    }

    /// Undoes the most recent allocation (see the header comment); throws InvalidArgument, state
    /// unchanged, for any other offset.
    void Free(uint64_t offset);

    /// Empties the page: the next allocation starts at offset 0.
    void Reset() noexcept {
        m_Head = 0;
        m_PrevHead = 0;
        m_Last = kInvalidOffset;
        m_Allocations = 0;
    }

    /// used = head (allocations and their padding), one free block [head, capacity). O(1).
    AllocatorStats GetStats() const noexcept {
        uint64_t free = m_Capacity - m_Head;
        return AllocatorStats{m_Capacity, m_Head, free, free ? 1u : 0u, free, m_Allocations};
    }

    /// Throws dx12kit::Error naming the broken invariant.
    void Validate() const;

    uint64_t Capacity() const noexcept { return m_Capacity; }
    /// Offset of the next allocation with alignment 1.
    uint64_t Head() const noexcept { return m_Head; }

private:
    DX12KIT_NOINLINE uint64_t AllocateSlow(uint64_t size, uint64_t alignment);

    uint64_t m_Capacity;
    uint64_t m_Head = 0;
    uint64_t m_PrevHead = 0;           // head before the most recent allocation
    uint64_t m_Last = kInvalidOffset;  // offset of the most recent allocation, if undoable
    uint64_t m_Allocations = 0;
};

}  // namespace dx12kit::alloc
