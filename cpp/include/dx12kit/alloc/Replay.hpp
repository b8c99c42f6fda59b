// Replay: runs a whole allocation trace in C++, for benchmarks and long randomized tests.
//
// A trace is N rows of three int64 [kind, slot, size] (a C-contiguous (N, 3) array):
//
//   kind 0  allocate `size` (with the replay's alignment) into `slot`; slot -1 discards the offset
//   kind 1  free the allocation held by `slot`        (a slot whose allocation failed: nothing)
//   kind 2  deferred free of `slot` with fence value `size`          (same rule for failures)
//   kind 3  release stale frees up to fence value `size`
//   kind 4  reset the allocator (every slot becomes empty)
//
//   slots:   [ 0 ][ 1 ][ 2 ] ...      offset held by each slot, kInvalidOffset when empty
//              |
//   row [0, 0, 16] -> slots[0] = Allocate(16)     row [1, 0, 0] -> Free(slots[0]); slots[0] = empty
//
// ValidateTrace checks every row before anything runs (known kind, slot in range, size within
// 1..capacity, no allocation into a slot that still holds one, kinds the allocator supports), so
// a malformed trace raises without changing the allocator. During the run only the allocator's
// own contract can throw (LinearAllocator's Free of anything but its last allocation); the rows
// before it stay applied.
//
// Ownership: borrows the allocator and the rows. Thread-safety: the caller owns the allocator
// for the duration (the Python binding releases the GIL and marks the allocator busy).
// Complexity: O(N) plus the allocator's own costs; the slot table is sized from the largest slot.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "dx12kit/alloc/AllocatorCommon.hpp"

namespace dx12kit::alloc {

enum ReplayKind : int64_t {
    kReplayAllocate = 0,
    kReplayFree = 1,
    kReplayFreeDeferred = 2,
    kReplayReleaseStale = 3,
    kReplayReset = 4,
};

/// Largest slot index a trace may use (bounds the slot table to 512 MiB).
inline constexpr int64_t kReplayMaxSlot = (int64_t(1) << 26) - 1;

struct ReplayResult {
    uint64_t ns = 0;      ///< wall time of the replay loop (slot table excluded)
    uint64_t failed = 0;  ///< allocations that returned kInvalidOffset
};

/// Checks the rows (see above); returns the slot table size needed. Throws InvalidArgument.
/// `supportsDeferred`: whether kinds 2 and 3 are allowed.
size_t ValidateTrace(const int64_t* rows, size_t count, uint64_t capacity, bool supportsDeferred);

namespace detail {
template <class Allocator, class Slot>
ReplayResult ReplayWithSlots(Allocator& allocator, const int64_t* rows, size_t count, size_t slotCount, uint64_t alignment, int64_t* offsets) {
    constexpr Slot kEmpty = static_cast<Slot>(kInvalidOffset);
    std::vector<Slot> slots(slotCount, kEmpty);
    ReplayResult result;
    auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < count; ++i) {
        const int64_t* row = rows + 3 * i;
        const int64_t slot = row[1];
        switch (row[0]) {
            case kReplayAllocate: {
                uint64_t offset = allocator.Allocate(static_cast<uint64_t>(row[2]), alignment);
                result.failed += offset == kInvalidOffset;
                if (slot >= 0) slots[slot] = static_cast<Slot>(offset);
                if (offsets) offsets[i] = offset == kInvalidOffset ? -1 : static_cast<int64_t>(offset);
                continue;
            }
            case kReplayFree:
                if (slots[slot] != kEmpty) allocator.Free(slots[slot]);
                slots[slot] = kEmpty;
                break;
            case kReplayFreeDeferred:
                if constexpr (Allocator::kSupportsDeferred) {
                    if (slots[slot] != kEmpty) allocator.FreeDeferred(slots[slot], static_cast<uint64_t>(row[2]));
                    slots[slot] = kEmpty;
                }
                break;
            case kReplayReleaseStale:
                if constexpr (Allocator::kSupportsDeferred) allocator.ReleaseStale(static_cast<uint64_t>(row[2]));
                break;
            default:  // kReplayReset (ValidateTrace rejected everything else)
                allocator.Reset();
                std::fill(slots.begin(), slots.end(), kEmpty);
                break;
        }
        if (offsets) offsets[i] = -2;
    }
    auto stop = std::chrono::steady_clock::now();
    result.ns = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count());
    return result;
}
}  // namespace detail

/// Replays `count` rows against `allocator` (rows checked by ValidateTrace, which also gives
/// `slotCount`). When `offsets` is non-null it receives one value per row: the offset of an
/// allocation, -1 for a failed one, -2 for rows of other kinds. Allocators with a capacity below
/// 2^32 get a table of 32-bit slots: half the cache footprint, the same for every allocator.
template <class Allocator>
ReplayResult Replay(Allocator& allocator, const int64_t* rows, size_t count, size_t slotCount, uint64_t alignment, int64_t* offsets = nullptr) {
    if (allocator.Capacity() < 0xFFFFFFFFull)
        return detail::ReplayWithSlots<Allocator, uint32_t>(allocator, rows, count, slotCount, alignment, offsets);
    return detail::ReplayWithSlots<Allocator, uint64_t>(allocator, rows, count, slotCount, alignment, offsets);
}

}  // namespace dx12kit::alloc
