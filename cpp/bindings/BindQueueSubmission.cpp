// dx12core: CommandQueue's submission thread (QueueSubmitter.hpp): its counters, and the test hook
// that makes a queued op fail. Only conversions live here; behaviour is in cpp/src/gpu/QueueSubmitter.cpp.
#include "GpuArgs.hpp"

#include "dx12kit/gpu/QueueSubmitter.hpp"

namespace dx12kit::bindings {

void BindQueueSubmission(Classes& c) {
    c.commandQueue
        .def("submission_stats", [](const CommandQueue& q) {
            const QueueSubmitter& s = q.Submitter();
            return py::dict("queued_ops"_a = s.QueuedOps(), "thread_waits"_a = s.WorkerWaits(), "busy"_a = !s.Idle());
        },
           "The queue's submission thread, as a plain dict: queued_ops (native calls, ExecuteCommandLists, Signal or a\n"
           "GPU wait, that execute and the waits handed to the thread instead of making them on the caller's thread),\n"
           "thread_waits (GPU waits on another queue's unreached fence value that the thread did), busy (ops still\n"
           "queued). On vkd3d a GPU wait on a value not reached yet blocks the thread that issues it, so such a wait,\n"
           "and every op of the queue after it until the thread has caught up, is issued by the queue's own thread:\n"
           "execute returns at once. Elsewhere (Windows) every op is issued directly and the counters stay 0.")
        .def("_fail_next_queued_op", [](CommandQueue& q, int64_t hresult) {
            q.Submitter().FailNextQueuedOp(static_cast<HRESULT>(static_cast<int32_t>(hresult)));
        }, "hresult"_a,
           "Test hook: the next op handed to the submission thread fails with `hresult` instead of being issued\n"
           "(the error path of a failed backend call, which cannot be provoked on purpose).");
}

}  // namespace dx12kit::bindings
