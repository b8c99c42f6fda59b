// dx12core: CommandQueue's submission thread (QueueSubmitter.hpp): its counters, and the test hook
// that makes a queued op fail. Only conversions live here; behaviour is in cpp/src/gpu/QueueSubmitter.cpp.
#include "docs/CommandQueueDocs.hpp"
#include "GpuArgs.hpp"

#include "dx12kit/gpu/QueueSubmitter.hpp"

namespace dx12kit::bindings {

void BindCommandQueueSubmission(Classes& c) {
    c.commandQueue
        .def(
            "submission_stats",
            [](const CommandQueue& q) {
                const QueueSubmitter& s = q.Submitter();
                return py::dict("queued_ops"_a = s.QueuedOps(), "thread_waits"_a = s.WorkerWaits(), "busy"_a = !s.Idle());
            },
            docs::CommandQueue::submission_stats)
        .def(
            "_fail_next_queued_op",
            [](CommandQueue& q, int64_t hresult) { q.Submitter().FailNextQueuedOp(static_cast<HRESULT>(static_cast<int32_t>(hresult))); },
            "hresult"_a, docs::CommandQueue::_fail_next_queued_op);
}

}  // namespace dx12kit::bindings
