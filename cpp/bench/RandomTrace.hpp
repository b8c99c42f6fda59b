// The random trace builder of benchmarks/traces.py (dx12kit_bench.build_random_trace): the
// sequential part of a trace, the bookkeeping of the live set. Benchmark code: not in dx12kit.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dx12kit::bench {

/// Builds the random traces of benchmarks/traces.py: at row i, allocate sizes[i] into a fresh
/// slot if nothing is live or (fewer than maxLive are live and uAlloc[i] < pAlloc); otherwise free
/// the live slot at index floor(uPick[i] * live) of the live list (uniform, swap-remove). Slots
/// are reused most recently freed first. Writes count rows of three int64 to `out`.
void BuildRandomTrace(const double* uAlloc, const double* uPick, const int64_t* sizes, size_t count, uint64_t maxLive, double pAlloc, int64_t* out);

}  // namespace dx12kit::bench
