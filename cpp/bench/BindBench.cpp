// dx12kit_bench: C++ timing loops for benchmarks/ (bench_upload.py, bench_dispatch.py,
// bench_descriptors.py) and the native-thread stress loop of the descriptor tests: what the hot
// paths cost with no Python in between. Not part of dx12kit: this module is built beside the
// extension (CMake option DX12KIT_BENCH) and only benchmarks and tests import it.
//
// Each loop runs on a command list of its own that is never executed (its upload pages go back to
// the pool at once), with the GIL released around the timed loops (they touch no Python object).
#include "BenchBindings.hpp"
#include "DescriptorBenchmarks.hpp"

#include "../bindings/DescriptorBindings.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/resources/ResourceStateTracker.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

namespace py = pybind11;
using namespace py::literals;

namespace dx12kit::bindings {

namespace {
using Clock = std::chrono::steady_clock;
double NsPer(Clock::time_point a, Clock::time_point b, uint64_t n) {
    return std::chrono::duration<double, std::nano>(b - a).count() / double(n);
}
// The machine is shared and noisy: every loop runs kReps times; min and median are reported.
constexpr int kReps = 5;
template <typename F>
py::tuple MinMedian(F&& once) {
    std::vector<double> v;
    for (int i = 0; i < kReps; ++i) v.push_back(once());
    std::sort(v.begin(), v.end());
    return py::make_tuple(v.front(), v[v.size() / 2]);
}
}  // namespace

void BindBench(py::module_& m) {
    m.def(
        "dynamic_cb",
        [](std::shared_ptr<Device> dev, std::shared_ptr<PipelineState> pso, uint32_t rootIndex, uint64_t n) {
            if (!dev || !pso || n == 0) throw InvalidArgument("dynamic_cb: device, pipeline and n > 0 needed");
            if (!pso->IsCompute()) throw InvalidArgument("dynamic_cb: a compute pipeline with a root CBV is needed");
            auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
            const uint32_t data[4] = {1, 2, 3, 4};
            // 0: allocation + 16-byte copy; 1: the whole SetDynamicConstantBuffer; 2: the native
            // SetComputeRootConstantBufferView alone (vkd3d's share of 1).
            auto run = [&](int what) {
                auto cl = q->CreateCommandList(q);
                cl->SetPipelineState(pso);
                const D3D12_GPU_VIRTUAL_ADDRESS va = cl->AllocateUpload(256, 256).gpu;
                ID3D12GraphicsCommandList* native = cl->D3D12List();
                const auto t0 = Clock::now();
                if (what == 1) {
                    for (uint64_t i = 0; i < n; ++i) cl->SetDynamicConstantBuffer(rootIndex, data, sizeof data);
                } else if (what == 0) {
                    for (uint64_t i = 0; i < n; ++i) {
                        UploadAllocation a = cl->AllocateUpload(sizeof data, D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT);
                        std::memcpy(a.cpu, data, sizeof data);
                    }
                } else {
                    for (uint64_t i = 0; i < n; ++i) native->SetComputeRootConstantBufferView(rootIndex, va);
                }
                return NsPer(t0, Clock::now(), n);
            };
            py::tuple alloc, full, native;
            {
                py::gil_scoped_release release;
                run(1);  // warm: the pages the loops need now sit in the pool
            }
            // (MinMedian builds Python tuples: the GIL is held around it, released inside each run.)
            alloc = MinMedian([&] {
                py::gil_scoped_release nogil;
                return run(0);
            });
            full = MinMedian([&] {
                py::gil_scoped_release nogil;
                return run(1);
            });
            native = MinMedian([&] {
                py::gil_scoped_release nogil;
                return run(2);
            });
            return py::dict("allocate_ns"_a = alloc, "set_dynamic_constant_buffer_ns"_a = full, "native_set_root_cbv_ns"_a = native, "n"_a = n,
                            "stat"_a = "(min, median) of 5");
        },
        "device"_a, "pipeline"_a, "root_index"_a, "n"_a = 100000,
        "Benchmark: ns per 16-byte dynamic constant buffer: allocation+copy alone, the whole SetDynamicConstantBuffer,\n"
        "and vkd3d's SetComputeRootConstantBufferView alone; each (min, median) of 5 runs of n calls.");

    m.def(
        "transition",
        [](std::shared_ptr<Device> dev, std::shared_ptr<Resource> r, uint64_t n) {
            if (!dev || !r || n == 0) throw InvalidArgument("transition: device, resource and n > 0 needed");
            auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
            const D3D12_RESOURCE_STATES a = D3D12_RESOURCE_STATE_COPY_DEST, b = D3D12_RESOURCE_STATE_COPY_SOURCE;
            const uint32_t sub = r->NumSubresources() > 1 ? 1u : kAllSubresources;
            // The tracker alone. A list flushes its batch before every draw/dispatch/copy, so the batch
            // stays small: time batches of 64 transitions on fresh trackers (set-up not timed).
            auto tracker = [&](uint32_t s, bool change) {
                constexpr uint64_t kBatch = 64;
                std::chrono::nanoseconds total{0};
                for (uint64_t done = 0; done < n; done += kBatch) {
                    ResourceStateTracker t(dev->Context()->Barriers());
                    t.Transition(r, a, s);  // first use: pending
                    const auto t0 = Clock::now();
                    for (uint64_t i = 0; i < kBatch; ++i) t.Transition(r, change && (i & 1) == 0 ? b : a, s);
                    total += Clock::now() - t0;
                    t.Reset();
                }
                return double(total.count()) / double((n + kBatch - 1) / kBatch * kBatch);
            };
            // Through CommandList::TransitionBarrier (argument checks + tracker), 1024 per list.
            auto list = [&]() {
                constexpr uint64_t kPerList = 1024;
                std::chrono::nanoseconds total{0};
                for (uint64_t done = 0; done < n; done += kPerList) {
                    auto cl = q->CreateCommandList(q);
                    cl->TransitionBarrier(r, a, kAllSubresources);
                    const auto t0 = Clock::now();
                    for (uint64_t i = 0; i < kPerList; ++i) cl->TransitionBarrier(r, (i & 1) == 0 ? b : a, kAllSubresources);
                    total += Clock::now() - t0;
                }
                return double(total.count()) / double((n + kPerList - 1) / kPerList * kPerList);
            };
            {
                py::gil_scoped_release nogil;
                tracker(kAllSubresources, true);  // warm
            }
            auto rel = [](auto f) {
                return [f] {
                    py::gil_scoped_release nogil;
                    return f();
                };
            };
            py::tuple whole = MinMedian(rel([&] { return tracker(kAllSubresources, true); }));
            py::tuple same = MinMedian(rel([&] { return tracker(kAllSubresources, false); }));
            py::tuple one = MinMedian(rel([&] { return tracker(sub, true); }));
            py::tuple viaList = MinMedian(rel([&] { return list(); }));
            return py::dict("transition_ns"_a = whole, "same_state_ns"_a = same, "subresource_transition_ns"_a = one,
                            "command_list_transition_ns"_a = viaList, "n"_a = n, "stat"_a = "(min, median) of 5");
        },
        "device"_a, "resource"_a, "n"_a = 200000,
        "Benchmark: ns per tracked transition (whole resource, same state, one subresource, via CommandList.transition_barrier).");
}

void BindBenchDescriptors(py::module_& m) {
    m.def(
        "stress_cpu_allocator",
        [](std::shared_ptr<PyCpuAllocator> self, uint32_t threads, uint32_t iterations, uint32_t maxCount, uint32_t seed) {
            bench::StressResult r;
            {
                py::gil_scoped_release release;
                r = bench::StressCpuAllocator(self->allocator, self->serial, threads, iterations, maxCount, seed);
            }
            return py::dict("allocations"_a = r.allocations, "duplicates"_a = r.duplicates, "peak_live"_a = r.peakLive);
        },
        "allocator"_a, "threads"_a = 4, "iterations"_a = 20000, "max_count"_a = 4, "seed"_a = 1,
        "Native threads allocate and free on `allocator` (a dx12kit.descriptors.CpuDescriptorAllocator) at once;\n"
        "returns allocations, duplicates (handles found live twice; must be 0) and peak_live.");

    m.def(
        "measure_commit",
        [](std::shared_ptr<Device> device, std::vector<uint32_t> perDraw, uint32_t draws, uint32_t repeats) {
            std::vector<bench::CommitTiming> r;
            {
                py::gil_scoped_release release;
                r = bench::MeasureCommit(device->D3D12Device(), perDraw, draws, repeats);
            }
            py::list out;
            for (const auto& t : r)
                out.append(py::dict("descriptors"_a = t.descriptorsPerDraw, "draws"_a = t.draws, "commit_ns"_a = t.commitNsPerDraw,
                                    "direct_ns"_a = t.directNsPerDraw, "ratio"_a = t.ratio));
            return out;
        },
        "device"_a, "descriptors_per_draw"_a = std::vector<uint32_t>{1, 8, 32}, "draws"_a = 10000, "repeats"_a = 5,
        "Per draw: staging n random descriptors + CommitStagedDescriptorsForDraw, against n CopyDescriptorsSimple +\n"
        "SetGraphicsRootDescriptorTable by hand (medians over repeats, in ns; ratio = commit / direct).");

    m.def(
        "measure_cpu_allocator",
        [](std::shared_ptr<Device> device, uint32_t pageSize, uint64_t allocations, uint32_t batch, uint32_t count) {
            bench::CpuAllocatorTiming t;
            {
                py::gil_scoped_release release;
                t = bench::MeasureCpuAllocator(device->D3D12Device(), pageSize, allocations, batch, count);
            }
            return py::dict("allocations"_a = t.allocations, "allocations_per_s"_a = t.allocationsPerSecond, "frees_per_s"_a = t.freesPerSecond,
                            "pairs_per_s"_a = t.pairsPerSecond);
        },
        "device"_a, "page_size"_a = 256, "allocations"_a = 1000000, "batch"_a = 1024, "count"_a = 1,
        "Allocate `batch` descriptors, drop them, release; repeated. Rates per second.");

    m.def(
        "create_drop",
        [](std::shared_ptr<Device> dev, uint64_t n, uint64_t size, bool committed, bool textures) {
            if (!dev || n == 0 || size == 0) throw InvalidArgument("create_drop: device, n > 0 and size > 0 needed");
            // One round: create n resources through Device (what create_buffer / create_texture2d run,
            // without Python), drop them all, poll so placed memory is back in its heap. ns per resource.
            Device::Placement p;
            p.committed = committed;
            auto round = [&] {
                std::vector<std::shared_ptr<Resource>> live;
                live.reserve(n);
                const auto t0 = Clock::now();
                for (uint64_t i = 0; i < n; ++i) {
                    if (textures)
                        live.push_back(dev->CreateTexture2D(static_cast<uint32_t>(size), static_cast<uint32_t>(size), DXGI_FORMAT_R8G8B8A8_UNORM, 1,
                                                            1, false, false, false, "bench", p));
                    else live.push_back(dev->CreateBuffer(size, false, p, "bench"));
                }
                live.clear();
                dev->Poll();
                return NsPer(t0, Clock::now(), n);
            };
            {
                py::gil_scoped_release release;
                round();  // warm-up: the heaps exist afterwards, as in a running program
            }
            return MinMedian([&] {
                py::gil_scoped_release release;
                return round();
            });
        },
        "device"_a, "n"_a = 1000, "size"_a = 4096, "committed"_a = false, "textures"_a = false,
        "Create n buffers of `size` bytes (or n size x size RGBA8 textures) through Device, drop them, poll:\n"
        "(min, median) ns per resource over 5 rounds. committed=True makes each a committed resource.");

    m.def(
        "measure_dynamic_suballocation",
        [](std::shared_ptr<Device> device, uint32_t chunkSize, uint64_t n, uint32_t count) {
            bench::DynamicTiming t;
            {
                py::gil_scoped_release release;
                t = bench::MeasureDynamicSuballocation(device->D3D12Device(), chunkSize, n, count);
            }
            return py::dict("suballocations"_a = t.suballocations, "per_s"_a = t.suballocationsPerSecond, "chunks_acquired"_a = t.chunksAcquired);
        },
        "device"_a, "chunk_size"_a = 256, "suballocations"_a = 10000000, "count"_a = 1,
        "DynamicDescriptorHeap sub-allocations of `count` descriptors per second, chunk turnover included.");
}

}  // namespace dx12kit::bindings
