// Host copies split over a pool of copy threads (HostCopy.hpp).
#include "dx12kit/base/HostCopy.hpp"

#include "dx12kit/base/Errors.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

#if defined(__linux__)
#  include <pthread.h>
#  include <sched.h>
#  include <sys/mman.h>
#endif

namespace dx12kit::host {
namespace {

// A job: `chunks` pieces of work, numbered 0..chunks-1, taken in any order by any participant.
struct Job {
    void (*run)(const void* ctx, size_t chunk) = nullptr;
    const void* ctx = nullptr;
    size_t chunks = 0;
};

// One pool per process, never destroyed (its detached threads sleep in it until exit). It grows
// when more threads are asked for and never shrinks; a job takes at most `helpers` of its workers
// (slots), so lowering the thread count lowers the threads a copy wakes and uses.
//
// Workers sleep on `wake` until a job with a free slot is posted, take chunks from `next`, and
// leave. The poster takes chunks too, then waits until every chunk is done and no worker still
// holds the job, so a worker late for one job never runs chunks of the next with the old function.
class Pool {
public:
    // Starts workers until there are `count`; returns how many there are (fewer when the system
    // refuses threads: the copies then use those that exist).
    unsigned Grow(unsigned count) {
        std::lock_guard<std::mutex> lock(m_GrowMutex);
        while (m_Workers < count) {
            try {
                std::thread([this] { Work(); }).detach();
            } catch (const std::system_error&) {
                break;
            }
            ++m_Workers;
        }
        return m_Workers;
    }

    // Runs `job` over up to `helpers` workers and the calling thread; false when another job
    // holds the pool (the caller then does the work itself).
    bool TryRun(const Job& job, unsigned helpers) {
        std::unique_lock<std::mutex> busy(m_Busy, std::try_to_lock);
        if (!busy.owns_lock()) return false;
        {
            std::lock_guard<std::mutex> lock(m_Mutex);
            m_Job = job;
            m_Next.store(0, std::memory_order_relaxed);
            m_Done = 0;
            m_Slots = helpers;
            m_Open = true;
            ++m_Generation;
        }
        for (unsigned i = 0; i < helpers; ++i) m_Wake.notify_one();
        const size_t mine = Take(job);
        std::unique_lock<std::mutex> lock(m_Mutex);
        m_Done += mine;
        m_Finished.wait(lock, [&] { return m_Done == job.chunks && m_Holders == 0; });
        m_Open = false;
        return true;
    }

private:
    size_t Take(const Job& job) {
        size_t n = 0;
        for (size_t c; (c = m_Next.fetch_add(1, std::memory_order_relaxed)) < job.chunks; ++n) job.run(job.ctx, c);
        return n;
    }

    [[noreturn]] void Work() {
        uint64_t seen = 0;
        std::unique_lock<std::mutex> lock(m_Mutex);
        for (;;) {
            m_Wake.wait(lock, [&] { return m_Generation != seen && m_Open && m_Slots > 0; });
            seen = m_Generation;
            --m_Slots;
            const Job job = m_Job;
            ++m_Holders;
            lock.unlock();
            const size_t n = Take(job);
            lock.lock();
            m_Done += n;
            --m_Holders;
            if (m_Done == job.chunks && m_Holders == 0) m_Finished.notify_one();
        }
    }

    std::mutex m_GrowMutex;
    unsigned m_Workers = 0;
    std::mutex m_Busy;  // one job at a time
    std::mutex m_Mutex;
    std::condition_variable m_Wake, m_Finished;
    Job m_Job;
    std::atomic<size_t> m_Next{0};
    size_t m_Done = 0;
    unsigned m_Slots = 0;    // workers the current job may still take
    unsigned m_Holders = 0;  // workers running chunks of the current job
    bool m_Open = false;
    uint64_t m_Generation = 0;
};

constexpr unsigned kMaxThreads = 64;

// The hardware threads this process may run on (its CPU affinity on Linux: taskset, cgroups'
// cpusets), at most 4: more rarely helps a memory-bound copy.
unsigned DefaultThreads() {
    // A malformed DX12KIT_COPY_THREADS never fails a copy: CopyThreads() (which Device() calls
    // first) reports it; should it change to garbage later, the default below applies.
    unsigned env = 0;
    try {
        env = CopyThreadsFromEnvironment();
    } catch (const InvalidArgument&) {}
    if (env) return env;
    unsigned hw = std::thread::hardware_concurrency();
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) hw = static_cast<unsigned>(CPU_COUNT(&set));
#endif
    return std::clamp(hw, 1u, 4u);
}

std::atomic<unsigned> g_Threads{0};  // 0: not chosen yet
std::mutex g_PoolMutex;              // guards g_Pool (creation; a forked child's reset)
Pool* g_Pool = nullptr;

std::atomic<uint64_t> g_Copies{0}, g_Parallel{0}, g_Bytes{0}, g_ParallelBytes{0};

#if defined(__linux__)
// fork(): no thread may hold g_PoolMutex across it (the child would block on it forever), and the
// child has none of the parent's workers: it abandons the pool (never touched again: its mutexes
// may have been held by the parent's workers) and starts its own on its first large copy.
void AtForkPrepare() {
    g_PoolMutex.lock();
}
void AtForkParent() {
    g_PoolMutex.unlock();
}
void AtForkChild() {
    g_Pool = nullptr;
    g_PoolMutex.unlock();
}
#endif

}  // namespace

unsigned CopyThreadsFromEnvironment() {
    const char* env = std::getenv("DX12KIT_COPY_THREADS");
    if (!env) return 0;
    std::string v(env);
    const size_t first = v.find_first_not_of(" \t"), last = v.find_last_not_of(" \t");
    if (first == std::string::npos) return 0;  // set but empty: as if unset
    v = v.substr(first, last - first + 1);
    bool digits = v.size() <= 3;
    for (char c : v) digits = digits && c >= '0' && c <= '9';
    const long n = digits ? std::strtol(v.c_str(), nullptr, 10) : 0;
    if (!digits || n < 1 || n > long(kMaxThreads))
        throw InvalidArgument("DX12KIT_COPY_THREADS='" + std::string(env) + "' is not a number of copy threads 1.." + std::to_string(kMaxThreads) +
                              " (fix or unset it; set_copy_threads() sets the number from Python)");
    return unsigned(n);
}

namespace {

unsigned Threads() {
    unsigned t = g_Threads.load(std::memory_order_relaxed);
    if (t == 0) {
        unsigned expected = 0;
        g_Threads.compare_exchange_strong(expected, DefaultThreads());
        t = g_Threads.load(std::memory_order_relaxed);
    }
    return t;
}

// The pool with at least `helpers` workers if the system allows (null when it has none).
Pool* PoolFor(unsigned helpers, unsigned& available) {
    std::lock_guard<std::mutex> lock(g_PoolMutex);
    if (!g_Pool) {
#if defined(__linux__)
        static std::once_flag once;
        std::call_once(once, [] { pthread_atfork(AtForkPrepare, AtForkParent, AtForkChild); });
#endif
        g_Pool = new Pool;
    }
    available = g_Pool->Grow(helpers);
    return available ? g_Pool : nullptr;
}

// Runs chunks 0..chunks-1 of `run` over up to `threads` threads (the caller included); true when
// the pool took the job (its workers may take pieces; the caller takes what they leave).
bool RunSplit(void (*run)(const void*, size_t), const void* ctx, size_t chunks, unsigned threads) {
    if (chunks > 1 && threads > 1) {
        unsigned available = 0;
        if (Pool* pool = PoolFor(threads - 1, available)) {
            if (pool->TryRun(Job{run, ctx, chunks}, std::min(threads - 1, available))) return true;
        }
    }
    for (size_t c = 0; c < chunks; ++c) run(ctx, c);
    return false;
}

void Count(size_t bytes, bool parallel) {
    g_Copies.fetch_add(1, std::memory_order_relaxed);
    g_Bytes.fetch_add(bytes, std::memory_order_relaxed);
    if (parallel) {
        g_Parallel.fetch_add(1, std::memory_order_relaxed);
        g_ParallelBytes.fetch_add(bytes, std::memory_order_relaxed);
    }
}

// Pieces per participant: a few, so that a thread that wakes late still finds work.
constexpr size_t kPiecesPerThread = 4;
constexpr size_t kMinPiece = size_t(256) << 10;

}  // namespace

void Copy(void* dst, const void* src, size_t bytes) {
    const unsigned threads = Threads();
    if (bytes < kParallelCopyMin || threads < 2) {
        if (bytes) std::memcpy(dst, src, bytes);
        Count(bytes, false);
        return;
    }
    struct Ctx {
        uint8_t* dst;
        const uint8_t* src;
        size_t bytes, piece;
    };
    // Pieces are multiples of 4 KiB (whole pages when dst is page aligned, as mapped memory is).
    size_t piece = std::max(kMinPiece, bytes / (threads * kPiecesPerThread));
    piece = (piece + 4095) & ~size_t(4095);
    const Ctx ctx{static_cast<uint8_t*>(dst), static_cast<const uint8_t*>(src), bytes, piece};
    const size_t chunks = (bytes + piece - 1) / piece;
    const bool split = RunSplit(
        [](const void* p, size_t c) {
            const Ctx& x = *static_cast<const Ctx*>(p);
            const size_t begin = c * x.piece;
            std::memcpy(x.dst + begin, x.src + begin, std::min(x.piece, x.bytes - begin));
        },
        &ctx, chunks, threads);
    Count(bytes, split);
}

void CopyRows(void* dst, uint64_t dstPitch, const void* src, uint64_t srcPitch, uint64_t rowBytes, uint32_t rows) {
    if (dstPitch == rowBytes && srcPitch == rowBytes) {
        Copy(dst, src, static_cast<size_t>(rowBytes * rows));
        return;
    }
    const unsigned threads = Threads();
    const uint64_t total = rowBytes * rows;
    struct Ctx {
        uint8_t* dst;
        const uint8_t* src;
        uint64_t dstPitch, srcPitch, rowBytes;
        uint32_t rows, band;
    };
    uint32_t band = rows;
    if (total >= kParallelCopyMin && threads >= 2 && rowBytes > 0) {
        const uint64_t perBand = std::max<uint64_t>(kMinPiece, total / (threads * kPiecesPerThread));
        band = static_cast<uint32_t>(std::clamp<uint64_t>(perBand / rowBytes, 1, rows));
    }
    const Ctx ctx{static_cast<uint8_t*>(dst), static_cast<const uint8_t*>(src), dstPitch, srcPitch, rowBytes, rows, std::max(band, 1u)};
    const size_t chunks = rows == 0 ? 0 : (rows + ctx.band - 1) / ctx.band;
    const bool split = RunSplit(
        [](const void* p, size_t c) {
            const Ctx& x = *static_cast<const Ctx*>(p);
            const uint32_t first = static_cast<uint32_t>(c) * x.band;
            const uint32_t last = std::min(x.rows, first + x.band);
            for (uint32_t y = first; y < last; ++y) std::memcpy(x.dst + y * x.dstPitch, x.src + y * x.srcPitch, x.rowBytes);
        },
        &ctx, chunks, threads);
    Count(static_cast<size_t>(total), split);
}

void SetCopyThreads(unsigned threads) {
    if (threads > kMaxThreads)
        throw InvalidArgument("set_copy_threads: threads must be 1.." + std::to_string(kMaxThreads) + ", got " + std::to_string(threads));
    if (threads == 0) CopyThreadsFromEnvironment();  // restoring the default: a malformed variable is an error
    g_Threads.store(threads == 0 ? DefaultThreads() : threads, std::memory_order_relaxed);
}

unsigned CopyThreads() {
    if (g_Threads.load(std::memory_order_relaxed) == 0) CopyThreadsFromEnvironment();  // a malformed value: InvalidArgument
    return Threads();
}

CopyStats Stats() {
    CopyStats s;
    s.copies = g_Copies.load(std::memory_order_relaxed);
    s.parallelCopies = g_Parallel.load(std::memory_order_relaxed);
    s.bytes = g_Bytes.load(std::memory_order_relaxed);
    s.parallelBytes = g_ParallelBytes.load(std::memory_order_relaxed);
    return s;
}

void AdviseHugePages(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr uintptr_t kHuge = uintptr_t(2) << 20;
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
    const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHuge - 1);
    if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // a hint: failure changes nothing
#else
    (void)p;
    (void)bytes;
#endif
}

}  // namespace dx12kit::host
