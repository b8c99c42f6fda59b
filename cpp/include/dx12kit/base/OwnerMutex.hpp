// OwnerMutex: a recursive mutex whose uncontended lock is one compare-and-swap of the owning
// thread's id and whose unlock is one store (std::recursive_mutex costs a pthread trylock and
// unlock; no same-run comparison of the two is kept in the tree). Made for locks taken on every call of a hot path by the
// one thread that nearly always holds them alone: CommandList's recording lock.
//
//   m_Owner   the owning thread's id (none: free); changed only by compare-and-swap or by the owner
//   m_Depth   recursion depth, read and written by the owner only
//   m_Waiters threads blocked in lock(); the releasing thread wakes them through m_Cv
//
// A waiter announces itself (m_Waiters, under m_WaitMutex) before it tests the owner again and
// sleeps; a releaser frees m_Owner before it reads m_Waiters (both sequentially consistent), so
// either the waiter sees the lock free or the releaser sees the waiter and notifies under
// m_WaitMutex (no lost wake-up). Meets the Lockable requirements (std::unique_lock works).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace dx12kit {

class OwnerMutex {
public:
    OwnerMutex() = default;
    OwnerMutex(const OwnerMutex&) = delete;
    OwnerMutex& operator=(const OwnerMutex&) = delete;

    bool try_lock() noexcept {
        const std::thread::id me = std::this_thread::get_id();
        if (m_Owner.load(std::memory_order_relaxed) == me) {  // only this thread can have stored its id
            ++m_Depth;
            return true;
        }
        std::thread::id none;
        if (!m_Owner.compare_exchange_strong(none, me, std::memory_order_seq_cst, std::memory_order_relaxed)) return false;
        m_Depth = 1;
        return true;
    }

    void lock() {
        if (try_lock()) return;
        std::unique_lock<std::mutex> wait(m_WaitMutex);
        m_Waiters.fetch_add(1, std::memory_order_seq_cst);
        m_Cv.wait(wait, [this] { return try_lock(); });
        m_Waiters.fetch_sub(1, std::memory_order_relaxed);
    }

    void unlock() {
        if (--m_Depth) return;
        m_Owner.store(std::thread::id(), std::memory_order_seq_cst);
        if (m_Waiters.load(std::memory_order_seq_cst)) {
            std::lock_guard<std::mutex> wake(m_WaitMutex);
            m_Cv.notify_all();
        }
    }

    /// Whether the calling thread holds it.
    bool HeldByMe() const noexcept { return m_Owner.load(std::memory_order_relaxed) == std::this_thread::get_id(); }

private:
    std::atomic<std::thread::id> m_Owner{};
    uint32_t m_Depth = 0;
    std::atomic<uint32_t> m_Waiters{0};
    std::mutex m_WaitMutex;
    std::condition_variable m_Cv;
};

}  // namespace dx12kit
