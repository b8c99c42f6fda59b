// DescriptorBenchmarks: timed C++ loops over the descriptor classes, for benchmarks/bench_descriptors.py,
// and a multi-threaded stress loop for the tests.
//
// Concept
//   The descriptor hot paths cost tens to hundreds of nanoseconds, far below what a Python loop
//   can time, so the loops live here and Python only reads the results. Each function builds its
//   own objects on the given device (CPU allocator, shader-visible heap, a command list that is
//   never executed) and destroys them before returning; nothing touches the device's own heaps.
//
//   * MeasureCommit: per "draw", stage `n` descriptors picked at random from 512 distinct CPU SRVs
//     and commit them with CommitStagedDescriptorsForDraw, against the floor of doing the same by
//     hand: `n` CopyDescriptorsSimple calls into the shader-visible heap plus one
//     SetGraphicsRootDescriptorTable. Both run in the same process, interleaved, `repeats` times;
//     the medians are reported and ratio = commit / direct.
//   * MeasureCpuAllocator: Allocate(count) `batch` times, drop them all (deferred frees), then
//     ReleaseStaleDescriptors; repeated until `allocations` allocations were made.
//   * MeasureDynamicSuballocation: DynamicDescriptorHeap::AllocateDynamic(count) in a loop, with
//     Retire + ReleaseStale whenever the dynamic part is used up (chunk turnover included).
//   * StressCpuAllocator: `threads` native threads allocate (1..maxCount descriptors) and free at
//     random on one allocator; every 64 steps each thread also advances the serial and releases
//     the ranges freed three serials earlier.
//     Every descriptor handed out is entered into a shared set under a checker mutex (a duplicate
//     means a handle was live twice) and removed before it is freed; the allocator calls
//     themselves run outside that mutex, so they really race.
//
// Ownership: borrows the device. Thread-safety: single-threaded; run nothing else on the device
// meanwhile. Complexity: linear in the requested counts.
//
//   results: CommitTiming per n           CpuAllocatorTiming       DynamicTiming
//   +----+-------+--------+--------+      +--------------------+   +---------------------+
//   | n  | draws | commit | direct |      | allocations/s      |   | suballocations/s    |
//   |    |       | ns/draw| ns/draw|      | frees/s, releases/s|   | chunks acquired     |
//   +----+-------+--------+--------+      +--------------------+   +---------------------+
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <atomic>
#include <cstdint>
#include <vector>

namespace dx12kit {
class CpuDescriptorAllocator;
}

namespace dx12kit::bench {

struct CommitTiming {
    uint32_t descriptorsPerDraw;
    uint64_t draws;          ///< Draws per repeat.
    double commitNsPerDraw;  ///< Median over repeats: StageDescriptors x n + CommitStagedDescriptorsForDraw.
    double directNsPerDraw;  ///< Median over repeats: CopyDescriptorsSimple x n + SetGraphicsRootDescriptorTable.
    double ratio;            ///< commitNsPerDraw / directNsPerDraw.
};

/// Throws InvalidArgument for an empty list, n == 0 or n > 1024, draws == 0 or repeats == 0.
std::vector<CommitTiming> MeasureCommit(ID3D12Device* device, const std::vector<uint32_t>& descriptorsPerDraw, uint32_t draws, uint32_t repeats);

struct CpuAllocatorTiming {
    uint64_t allocations;
    double allocationsPerSecond;  ///< Allocate only.
    double freesPerSecond;        ///< Dropping allocations (deferred free) + ReleaseStaleDescriptors.
    double pairsPerSecond;        ///< One allocation and its complete free.
};

CpuAllocatorTiming MeasureCpuAllocator(ID3D12Device* device, uint32_t pageSize, uint64_t allocations, uint32_t batch, uint32_t count);

struct DynamicTiming {
    uint64_t suballocations;
    double suballocationsPerSecond;
    uint64_t chunksAcquired;
};

DynamicTiming MeasureDynamicSuballocation(ID3D12Device* device, uint32_t chunkSize, uint64_t suballocations, uint32_t count);

struct StressResult {
    uint64_t allocations;
    uint64_t duplicates;  ///< Handles found live twice (must be 0).
    uint64_t peakLive;    ///< Most descriptors live at once (per the checker).
};

/// Throws InvalidArgument for threads == 0, iterations == 0 or maxCount == 0.
StressResult StressCpuAllocator(CpuDescriptorAllocator& allocator, std::atomic<uint64_t>& serial, uint32_t threads, uint32_t iterations,
                                uint32_t maxCount, uint32_t seed);

}  // namespace dx12kit::bench
