// Host copies split over the copy threads (base/HostCopy.hpp), without a device: every byte lands
// where a plain memcpy would put it, whatever the size, alignment, pitch and thread count; copies
// from several threads at once; a forked child copies with a pool of its own.
#include <doctest.h>

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/base/HostBlocks.hpp"
#include "dx12kit/base/HostCopy.hpp"

#include "TestSupport.hpp"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#if defined(__linux__)
#  include <sys/wait.h>
#  include <unistd.h>
#endif

using namespace dx12kit;
using dx12kit_test::Pattern;

namespace {

// Restores the default thread count when a test case ends.
struct ThreadsGuard {
    ~ThreadsGuard() { host::SetCopyThreads(0); }
};

}  // namespace

TEST_SUITE("host") {

TEST_CASE("host::Copy matches memcpy for every size, offset and thread count") {
    ThreadsGuard guard;
    const std::vector<uint8_t> src = Pattern((size_t(9) << 20) + 4096, 1);
    for (unsigned threads : {1u, 2u, 3u, 4u, 7u}) {
        host::SetCopyThreads(threads);
        CHECK(host::CopyThreads() == threads);
        for (size_t bytes : {size_t(0), size_t(1), size_t(4095), host::kParallelCopyMin - 1, host::kParallelCopyMin, host::kParallelCopyMin + 13,
                             (size_t(9) << 20) + 7}) {
            for (size_t off : {size_t(0), size_t(3), size_t(4093)}) {
                CAPTURE(threads);
                CAPTURE(bytes);
                CAPTURE(off);
                // One guard byte each side: a piece that overran its range would show there.
                std::vector<uint8_t> dst(bytes + 2, 0xA5);
                host::Copy(dst.data() + 1, src.data() + off, bytes);
                CHECK(dst.front() == 0xA5);
                CHECK(dst.back() == 0xA5);
                CHECK(std::memcmp(dst.data() + 1, src.data() + off, bytes) == 0);
            }
        }
    }
}

TEST_CASE("host::Copy splits large copies when there are threads, and counts them") {
    ThreadsGuard guard;
    const std::vector<uint8_t> src = Pattern(size_t(8) << 20, 2);
    std::vector<uint8_t> dst(src.size());
    host::SetCopyThreads(2);
    const host::CopyStats before = host::Stats();
    host::Copy(dst.data(), src.data(), src.size());
    host::Copy(dst.data(), src.data(), host::kParallelCopyMin - 1);  // small: on the caller
    const host::CopyStats after = host::Stats();
    CHECK(after.copies - before.copies == 2);
    CHECK(after.bytes - before.bytes == src.size() + host::kParallelCopyMin - 1);
    // The pool may be busy with another test's copy only if tests ran concurrently; they do not.
    CHECK(after.parallelCopies - before.parallelCopies == 1);
    CHECK(after.parallelBytes - before.parallelBytes == src.size());
    host::SetCopyThreads(1);
    const host::CopyStats single = host::Stats();
    host::Copy(dst.data(), src.data(), src.size());
    CHECK(host::Stats().parallelCopies == single.parallelCopies);
    CHECK(std::memcmp(dst.data(), src.data(), src.size()) == 0);
}

TEST_CASE("host::CopyRows matches row-by-row memcpy with pitches") {
    ThreadsGuard guard;
    struct Shape {
        uint64_t rowBytes, srcPitch, dstPitch;
        uint32_t rows;
    };
    const Shape shapes[] = {
        {4000, 4096, 4000, 700},                 // texture readback: aligned rows into a tight array (2.8 MB)
        {4000, 4000, 4096, 700},                 // texture upload: tight rows into aligned ones
        {12, 256, 12, 3},                        // tiny
        {8192, 8192, 8192, 300},                 // tight: one Copy
        {1 << 20, (1 << 20) + 256, 1 << 20, 3},  // rows bigger than a piece
        {100, 256, 100, 0},                      // no rows
    };
    for (unsigned threads : {1u, 2u, 5u}) {
        host::SetCopyThreads(threads);
        for (const Shape& s : shapes) {
            CAPTURE(threads);
            CAPTURE(s.rowBytes);
            CAPTURE(s.rows);
            const std::vector<uint8_t> src = Pattern(s.srcPitch * s.rows + 1, s.rows);
            std::vector<uint8_t> dst(s.dstPitch * s.rows + 1, 0x5A), expect(dst);
            for (uint32_t y = 0; y < s.rows; ++y) std::memcpy(expect.data() + y * s.dstPitch, src.data() + y * s.srcPitch, s.rowBytes);
            host::CopyRows(dst.data(), s.dstPitch, src.data(), s.srcPitch, s.rowBytes, s.rows);
            CHECK(dst == expect);  // the gaps between rows untouched
        }
    }
}

TEST_CASE("host::Copy from several threads at once") {
    ThreadsGuard guard;
    host::SetCopyThreads(2);
    constexpr int kThreads = 4, kRounds = 20;
    const size_t bytes = (size_t(3) << 20) + 17;
    std::vector<std::vector<uint8_t>> srcs, dsts;
    for (int t = 0; t < kThreads; ++t) {
        srcs.push_back(Pattern(bytes, 100 + t));
        dsts.emplace_back(bytes);
    }
    std::vector<int> bad(kThreads, 0);
    std::vector<std::thread> pool;
    for (int t = 0; t < kThreads; ++t)
        pool.emplace_back([&, t] {
            for (int r = 0; r < kRounds; ++r) {
                std::fill(dsts[t].begin(), dsts[t].end(), uint8_t(r));
                host::Copy(dsts[t].data(), srcs[t].data(), bytes);
                if (dsts[t] != srcs[t]) ++bad[t];
            }
        });
    for (auto& th : pool) th.join();
    for (int t = 0; t < kThreads; ++t) CHECK(bad[t] == 0);
}

TEST_CASE("host::SetCopyThreads refuses absurd counts; 0 restores the default") {
    ThreadsGuard guard;
    CHECK_THROWS_AS(host::SetCopyThreads(65), InvalidArgument);
    host::SetCopyThreads(3);
    CHECK(host::CopyThreads() == 3);
    host::SetCopyThreads(0);
    CHECK(host::CopyThreads() >= 1);
    CHECK(host::CopyThreads() <= 64);
}

#if defined(__linux__)
namespace {
int ThreadCount() {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    int n = -1;
    char line[256];
    while (f && std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "Threads: %d", &n) == 1) break;
    if (f) std::fclose(f);
    return n;
}
}  // namespace

TEST_CASE("host: raising the thread count again and again grows one pool, it does not leak pools") {
    ThreadsGuard guard;
    const std::vector<uint8_t> src = Pattern(size_t(4) << 20, 3);
    std::vector<uint8_t> dst(src.size());
    host::SetCopyThreads(2);
    host::Copy(dst.data(), src.data(), src.size());
    const int before = ThreadCount();
    for (unsigned t = 2; t <= 12; ++t) {
        host::SetCopyThreads(t);
        host::Copy(dst.data(), src.data(), src.size());
        host::SetCopyThreads(2);  // lowering it again: copies stay right
        host::Copy(dst.data(), src.data(), src.size());
    }
    CHECK(dst == src);
    // At most the workers of the largest count (11) were added to the one pool.
    CHECK(ThreadCount() - before <= 11);
}

TEST_CASE("host: a forked child copies with a pool of its own, even while another thread copied and changed the count") {
    ThreadsGuard guard;
    const std::vector<uint8_t> src = Pattern(size_t(4) << 20, 4);
    std::atomic<bool> stop{false};
    std::thread busy([&] {
        std::vector<uint8_t> dst(src.size());
        for (unsigned t = 2; !stop.load(); t = t % 16 + 2) {
            host::SetCopyThreads(t);
            host::Copy(dst.data(), src.data(), src.size());
        }
    });
    for (int i = 0; i < 8; ++i) {
        const pid_t pid = fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            // The parent's workers do not exist here. A child blocked on a lock held at the fork, or
            // waiting for those workers, dies of SIGALRM (the test fails); a wrong copy exits 1.
            alarm(20);
            host::SetCopyThreads(2);
            std::vector<uint8_t> mine(src.size());
            const host::CopyStats before = host::Stats();
            host::Copy(mine.data(), src.data(), src.size());
            const bool split = host::Stats().parallelCopies == before.parallelCopies + 1;
            _exit(mine == src && split ? 0 : 1);
        }
        int status = 0;
        REQUIRE(waitpid(pid, &status, 0) == pid);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
    }
    stop = true;
    busy.join();
}

#endif

}  // TEST_SUITE

TEST_CASE("host blocks: freed blocks of close sizes are reused, the latest first; small ones never cached") {
    using dx12kit::host::HostBlocks;
    const size_t mib = size_t(1) << 20;
    size_t capA = 0, capB = 0, capC = 0;
    void* a = HostBlocks::Take(4 * mib, capA);
    void* b = HostBlocks::Take(4 * mib, capB);
    CHECK(capA == 4 * mib);
    CHECK(reinterpret_cast<uintptr_t>(a) % 4096 == 0);
    const size_t before = HostBlocks::CachedBytes();
    HostBlocks::Give(a, capA);
    HostBlocks::Give(b, capB);
    CHECK(HostBlocks::CachedBytes() == before + 8 * mib);
    void* c = HostBlocks::Take(4 * mib - 100, capC);  // within +25%: the latest freed (b)
    CHECK(c == b);
    CHECK(capC == capB);
    size_t capD = 0;
    void* d = HostBlocks::Take(2 * mib, capD);  // a (4 MiB) is more than 25% larger: a new block
    CHECK(d != a);
    HostBlocks::Give(c, capC);
    HostBlocks::Give(d, capD);
    size_t capS = 0;
    void* s = HostBlocks::Take(4096, capS);
    const size_t cached = HostBlocks::CachedBytes();
    HostBlocks::Give(s, capS);  // below kMinBytes: freed, not cached
    CHECK(HostBlocks::CachedBytes() == cached);
}
