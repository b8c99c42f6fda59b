// Host memory copies for uploads and readbacks: large copies are split over a small pool of copy
// threads. One core's memcpy is bound by its own outstanding cache misses, not by the memory bus:
// on the 2-core test VM one thread copies 64 MiB at ~7.3 GB/s and two at 13-21 GB/s
// (benchmarks/bench_upload.py compares one thread with the default). No D3D12 here.
//
// Thread safety: every function may be called from any thread. One parallel copy runs at a time;
// a copy that finds the pool busy runs on its caller alone, so copies do not queue behind each
// other. The pool only grows (up to the largest thread count asked for; a job wakes no more
// workers than the current count allows). After fork() the child starts a pool of its own on its
// first large copy (the parent's threads do not exist there).
#pragma once

#include <cstddef>
#include <cstdint>

namespace dx12kit::host {

/// Copies below this many bytes always run on the calling thread: waking a thread costs more (on
/// the test VM a 1 MiB readback took 1.11-1.76x as long on two threads, 2 MiB 0.62-1.01x).
constexpr size_t kParallelCopyMin = size_t(2) << 20;

/// Copies `bytes` from `src` to `dst` (the ranges must not overlap); a copy of at least
/// kParallelCopyMin bytes is split over the copy threads when there is more than one.
void Copy(void* dst, const void* src, size_t bytes);

/// Copies `rows` rows of `rowBytes` between buffers whose rows start every `dstPitch` / `srcPitch`
/// bytes (texel data to and from D3D12's 256-byte-aligned copy layouts): one Copy when both sides
/// are tightly packed, bands of rows over the copy threads otherwise.
void CopyRows(void* dst, uint64_t dstPitch, const void* src, uint64_t srcPitch, uint64_t rowBytes, uint32_t rows);

/// Threads that share a large copy, the caller included. 0 restores the default: the
/// DX12KIT_COPY_THREADS environment variable if set (1..64; anything else, InvalidArgument), else
/// the hardware threads the process may run on (its CPU affinity on Linux), at most 4.
/// 1 makes every copy a single memcpy on the calling thread. Values above 64 are refused
/// (InvalidArgument).
void SetCopyThreads(unsigned threads);
/// The number of copy threads; the first call (Device creation makes one) chooses the default,
/// raising InvalidArgument for a malformed DX12KIT_COPY_THREADS.
unsigned CopyThreads();
/// DX12KIT_COPY_THREADS: 0 when unset or blank, else its value; InvalidArgument unless it is 1..64.
unsigned CopyThreadsFromEnvironment();

struct CopyStats {
    uint64_t copies = 0;          ///< Copy / CopyRows calls
    uint64_t parallelCopies = 0;  ///< of those, handed to the copy threads in pieces (not run on the caller alone)
    uint64_t bytes = 0;           ///< bytes copied by all of them
    uint64_t parallelBytes = 0;   ///< bytes copied by the split ones
};
CopyStats Stats();

/// Linux: asks for transparent huge pages over the 2 MiB-aligned interior of [p, p + bytes) when
/// it spans at least one huge page (madvise MADV_HUGEPAGE, a hint; memory faulted in afterwards
/// gets huge pages, fewer TLB misses for the copies). Elsewhere, and for small ranges, nothing.
void AdviseHugePages(void* p, size_t bytes);

}  // namespace dx12kit::host
