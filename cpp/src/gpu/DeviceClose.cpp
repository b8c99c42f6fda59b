// Device::Close (dx12kit/gpu/Device.hpp): the explicit end of a device's life (Python: Device.close(),
// `with dx12kit.Device() as dev:`).
#include "dx12kit/gpu/Device.hpp"

#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <map>
#include <mutex>

namespace dx12kit {

void Device::Close() {
    if (m_Context->Closed()) return;
    m_Context->CheckNotForked("close");
    std::shared_ptr<Buffer> zero;
    std::map<std::string, std::shared_ptr<void>> builtins;
    {
        // Recursive: WaitIdle and TrimMemory take it again on this thread. Another thread's execute
        // either went first (and is waited for) or finds the device closed.
        std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
        WaitIdle();
        TrimMemory();
        m_Context->MarkClosed();
        zero = std::move(m_ZeroBuffer);
        std::lock_guard<std::mutex> builtinLock(m_BuiltinMutex);
        builtins.swap(m_Builtins);
        for (auto& fast : m_BuiltinFast) fast.store(nullptr, std::memory_order_release);
    }
    // Released outside the lock (their destructors free descriptors and memory; the GPU is idle).
}

}  // namespace dx12kit
