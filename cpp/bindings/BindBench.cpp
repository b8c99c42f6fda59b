// Hidden C++ timing loops for benchmarks/ (bench_upload.py, bench_dispatch.py): what the hot paths
// of issue 5 cost with no Python in between. Underscore names: not part of the public API.
//
// Each loop runs on a command list of its own that is never executed (its upload pages go back to
// the pool at once), with the GIL released: nothing here touches Python objects.
#include "Bindings.hpp"

#include "dx12kit/core/Errors.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/resources/ResourceStateTracker.hpp"

#include <chrono>
#include <cstring>

namespace py = pybind11;
using namespace py::literals;

namespace dx12kit::bindings {

namespace {
using Clock = std::chrono::steady_clock;
double NsPer(Clock::time_point a, Clock::time_point b, uint64_t n) {
    return std::chrono::duration<double, std::nano>(b - a).count() / double(n);
}
}  // namespace

void BindBench(py::module_& m) {
    m.def("_bench_dynamic_cb", [](std::shared_ptr<Device> dev, std::shared_ptr<PipelineState> pso, uint32_t rootIndex, uint64_t n) {
        if (!dev || !pso || n == 0) throw InvalidArgument("_bench_dynamic_cb: device, pipeline and n > 0 needed");
        py::gil_scoped_release release;
        auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
        const uint32_t data[4] = {1, 2, 3, 4};
        // full: SetDynamicConstantBuffer (allocate + copy 16 bytes + Set*RootConstantBufferView)
        auto run = [&](bool full) {
            auto cl = q->CreateCommandList(q);
            cl->SetPipelineState(pso);
            const auto t0 = Clock::now();
            if (full) {
                for (uint64_t i = 0; i < n; ++i) cl->SetDynamicConstantBuffer(rootIndex, data, sizeof data);
            } else {
                for (uint64_t i = 0; i < n; ++i) {
                    UploadAllocation a = cl->AllocateUpload(sizeof data, D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT);
                    std::memcpy(a.cpu, data, sizeof data);
                }
            }
            return NsPer(t0, Clock::now(), n);
        };
        run(true);  // warm: the pages the loops need now sit in the pool
        const double alloc = run(false);
        const double full = run(true);
        py::gil_scoped_acquire acquire;
        return py::dict("allocate_ns"_a = alloc, "set_dynamic_constant_buffer_ns"_a = full, "n"_a = n);
    }, "device"_a, "pipeline"_a, "root_index"_a, "n"_a = 100000,
       "Benchmark: ns per 16-byte dynamic constant buffer, allocation+copy alone and the whole SetDynamicConstantBuffer.");

    m.def("_bench_transition", [](std::shared_ptr<Device> dev, std::shared_ptr<Resource> r, uint64_t n) {
        if (!dev || !r || n == 0) throw InvalidArgument("_bench_transition: device, resource and n > 0 needed");
        py::gil_scoped_release release;
        auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
        const D3D12_RESOURCE_STATES a = D3D12_RESOURCE_STATE_COPY_DEST, b = D3D12_RESOURCE_STATE_COPY_SOURCE;
        const uint32_t sub = r->NumSubresources() > 1 ? 1u : kAllSubresources;
        // The tracker alone. A list flushes its batch before every draw/dispatch/copy, so the batch
        // stays small: time batches of 64 transitions on fresh trackers (set-up not timed).
        auto tracker = [&](uint32_t s, bool change) {
            constexpr uint64_t kBatch = 64;
            std::chrono::nanoseconds total{0};
            for (uint64_t done = 0; done < n; done += kBatch) {
                ResourceStateTracker t(dev->Core()->Barriers());
                t.Transition(r, a, s);  // first use: pending
                const auto t0 = Clock::now();
                for (uint64_t i = 0; i < kBatch; ++i) t.Transition(r, change && (i & 1) == 0 ? b : a, s);
                total += Clock::now() - t0;
                t.Reset();
            }
            return double(total.count()) / double((n + kBatch - 1) / kBatch * kBatch);
        };
        // Through CommandList::TransitionBarrier (argument checks + tracker).
        auto list = [&]() {
            auto cl = q->CreateCommandList(q);
            cl->TransitionBarrier(r, a, kAllSubresources);
            const auto t0 = Clock::now();
            for (uint64_t i = 0; i < n; ++i) cl->TransitionBarrier(r, (i & 1) == 0 ? b : a, kAllSubresources);
            return NsPer(t0, Clock::now(), n);
        };
        tracker(kAllSubresources, true);  // warm
        const double whole = tracker(kAllSubresources, true);
        const double same = tracker(kAllSubresources, false);
        const double one = tracker(sub, true);
        const double viaList = list();
        py::gil_scoped_acquire acquire;
        return py::dict("transition_ns"_a = whole, "same_state_ns"_a = same, "subresource_transition_ns"_a = one,
                        "command_list_transition_ns"_a = viaList, "n"_a = n);
    }, "device"_a, "resource"_a, "n"_a = 200000,
       "Benchmark: ns per tracked transition (whole resource, same state, one subresource, via CommandList.transition_barrier).");
}

}  // namespace dx12kit::bindings
