// DescriptorBenchmarks: timed C++ loops over the descriptor classes, for benchmarks/bench_descriptors.py.
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

#include <cstdint>
#include <vector>

namespace dx12kit::bench {

struct CommitTiming {
    uint32_t descriptorsPerDraw;
    uint64_t draws;            ///< Draws per repeat.
    double commitNsPerDraw;    ///< Median over repeats: StageDescriptors x n + CommitStagedDescriptorsForDraw.
    double directNsPerDraw;    ///< Median over repeats: CopyDescriptorsSimple x n + SetGraphicsRootDescriptorTable.
    double ratio;              ///< commitNsPerDraw / directNsPerDraw.
};

/// Throws InvalidArgument for an empty list, n == 0 or n > 1024, draws == 0 or repeats == 0.
std::vector<CommitTiming> MeasureCommit(ID3D12Device* device, const std::vector<uint32_t>& descriptorsPerDraw,
                                        uint32_t draws, uint32_t repeats);

struct CpuAllocatorTiming {
    uint64_t allocations;
    double allocationsPerSecond;  ///< Allocate only.
    double freesPerSecond;        ///< Dropping allocations (deferred free) + ReleaseStaleDescriptors.
    double pairsPerSecond;        ///< One allocation and its complete free.
};

CpuAllocatorTiming MeasureCpuAllocator(ID3D12Device* device, uint32_t pageSize, uint64_t allocations,
                                       uint32_t batch, uint32_t count);

struct DynamicTiming {
    uint64_t suballocations;
    double suballocationsPerSecond;
    uint64_t chunksAcquired;
};

DynamicTiming MeasureDynamicSuballocation(ID3D12Device* device, uint32_t chunkSize, uint64_t suballocations,
                                          uint32_t count);

}  // namespace dx12kit::bench
