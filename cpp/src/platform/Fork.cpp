// fork() bookkeeping (dx12kit/platform/Fork.hpp).
#include "dx12kit/platform/Fork.hpp"

#include <atomic>
#include <mutex>

#if defined(_WIN32)
#  include <windows.h>
#else
#  include <pthread.h>
#  include <unistd.h>
#endif

namespace dx12kit::platform {

namespace {
std::atomic<uint32_t> g_ForkGeneration{0};
#if !defined(_WIN32)
void InForkedChild() { g_ForkGeneration.fetch_add(1, std::memory_order_relaxed); }
#endif
}  // namespace

uint32_t ForkGeneration() noexcept { return g_ForkGeneration.load(std::memory_order_relaxed); }

void WatchForks() {
#if !defined(_WIN32)
    static std::once_flag once;
    std::call_once(once, [] { pthread_atfork(nullptr, nullptr, &InForkedChild); });
#endif
}

uint64_t ProcessId() noexcept {
#if defined(_WIN32)
    return GetCurrentProcessId();
#else
    return static_cast<uint64_t>(getpid());
#endif
}

}  // namespace dx12kit::platform
