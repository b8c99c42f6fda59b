// HostBlocks: large host memory blocks recycled between readbacks into new arrays.
//
// A fresh multi-megabyte allocation comes from the kernel as untouched pages: the first write to
// each 4 KiB page faults and the kernel zeroes it. For a readback into a new array that costs as
// much as the copy itself (64 MiB on the test VM, one run alternating the two: 4.2 ms copying into
// a reused array, 9.4 ms into a new one; benchmarks/workloads.py times both readbacks side by side). Blocks of at least kMinBytes freed by their array come back here and serve the next
// request of a close size (up to a quarter larger), pages already mapped and warm:
//
//   read_buffer -> Take(64 MiB) -- cached block of 64..80 MiB? --> reuse it
//                                \- else aligned allocation (faults as before)
//   array freed -> Give(block)  -- cached bytes + block <= kMaxCachedBytes? --> keep it
//                                \- else freed (oldest first to make room)
//
// Blocks unused for kIdleSeconds are freed at the next Take or Give; at most kMaxCachedBytes stay
// cached otherwise. The contents of a reused block are stale: the caller overwrites all of it.
// Thread-safe (one mutex); no D3D12 here.
#pragma once

#include <cstddef>

namespace dx12kit::host {

struct HostBlocks {
    static constexpr size_t kMinBytes = size_t(1) << 20;          ///< smaller requests: plain allocation, never cached
    static constexpr size_t kMaxCachedBytes = size_t(256) << 20;  ///< bytes of free blocks kept at most
    static constexpr double kIdleSeconds = 5.0;

    /// A block of at least `bytes` (page-aligned); `capacity` receives its size, to pass to Give.
    static void* Take(size_t bytes, size_t& capacity);
    /// Returns a block from Take (kept for reuse or freed).
    static void Give(void* block, size_t capacity);
    /// Bytes of free blocks kept now (tests).
    static size_t CachedBytes();
};

}  // namespace dx12kit::host
