// OwnerMutex (base/OwnerMutex.hpp), without a device: recursion by the owner, exclusion between
// threads (a plain counter incremented under the lock by four threads ends exact), try_lock
// refused while another thread holds it, and a waiter woken when the holder lets go.
#include <doctest.h>

#include "dx12kit/base/OwnerMutex.hpp"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

using dx12kit::OwnerMutex;

TEST_SUITE("host") {

TEST_CASE("OwnerMutex is recursive for its owner and exclusive between threads") {
    OwnerMutex m;
    m.lock();
    CHECK(m.try_lock());  // the owner again: depth 2
    CHECK(m.HeldByMe());
    bool other = true;
    std::thread([&] { other = m.try_lock(); }).join();
    CHECK_FALSE(other);
    m.unlock();
    CHECK(m.HeldByMe());  // still held once
    m.unlock();
    CHECK_FALSE(m.HeldByMe());
    std::thread([&] {
        other = m.try_lock();
        if (other) m.unlock();
    }).join();
    CHECK(other);

    uint64_t counter = 0;  // not atomic: the lock alone keeps it exact
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 20000; ++i) {
                std::lock_guard<OwnerMutex> outer(m);
                std::lock_guard<OwnerMutex> inner(m);
                ++counter;
            }
        });
    for (auto& t : threads) t.join();
    CHECK(counter == 80000);
}

TEST_CASE("OwnerMutex wakes a blocked waiter") {
    OwnerMutex m;
    m.lock();
    std::atomic<bool> got{false};
    std::thread waiter([&] {
        m.lock();
        got = true;
        m.unlock();
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK_FALSE(got.load());
    m.unlock();
    waiter.join();
    CHECK(got.load());
}

}  // TEST_SUITE
