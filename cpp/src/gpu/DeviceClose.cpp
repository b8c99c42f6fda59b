// Device::Close (dx12kit/gpu/Device.hpp): the explicit end of a device's life (Python: Device.close(),
// `with dx12kit.Device() as dev:`).
#include "dx12kit/gpu/Device.hpp"

#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/PassBuffers.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <mutex>

namespace dx12kit {

void Device::Close() {
    if (m_Context->Closed()) return;
    m_Context->CheckNotForked("close");
    std::shared_ptr<Buffer> zero;
    {
        // Recursive: WaitIdle and TrimMemory take it again on this thread. Another thread's execute
        // either went first (and is waited for) or finds the device closed.
        std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
        if (m_Context->Closed()) return;  // another thread closed it while this one waited for the lock
        // WaitIdle's steps, but an error the GPU found (FenceChecks) is raised only once the device is
        // closed: raising here would leave it open, half-closed by the exit of a `with` block.
        for (auto& q : m_Queues)
            if (q) q->Flush(-1.0, false);
        Poll();
        TrimMemory();
        m_PassBuffers->Close();
        m_Context->MarkClosed();
        zero = std::move(m_ZeroBuffer);
        // The built-in pipelines stay until the Device object goes (a few small objects): a list being
        // recorded on another thread may hold one by the raw pointer of BuiltinFast, and every list
        // keeps the Device alive.
    }
    // Released outside the lock (their destructors free descriptors and memory; the GPU is idle).
    zero.reset();
    m_FenceChecks->ThrowIfAny("close");
}

}  // namespace dx12kit
