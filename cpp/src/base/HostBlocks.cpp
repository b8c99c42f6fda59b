#include "dx12kit/base/HostBlocks.hpp"

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

#if defined(_WIN32)
#  include <malloc.h>
#endif

namespace dx12kit::host {
namespace {
constexpr size_t kPage = 4096;

struct Cached {
    void* block;
    size_t capacity;
    std::chrono::steady_clock::time_point since;
};

std::mutex g_Mutex;
std::vector<Cached> g_Free;  // oldest first
size_t g_Bytes = 0;

// Frees blocks idle for kIdleSeconds; caller holds g_Mutex. Returns them in `out` (freed unlocked).
void DropIdle(std::vector<void*>& out) {
    const auto now = std::chrono::steady_clock::now();
    size_t keep = 0;
    for (size_t i = 0; i < g_Free.size(); ++i) {
        if (std::chrono::duration<double>(now - g_Free[i].since).count() >= HostBlocks::kIdleSeconds) {
            out.push_back(g_Free[i].block);
            g_Bytes -= g_Free[i].capacity;
        } else {
            g_Free[keep++] = g_Free[i];
        }
    }
    g_Free.resize(keep);
}

void* Allocate(size_t bytes) {
#if defined(_WIN32)
    return _aligned_malloc(bytes, kPage);
#else
    return std::aligned_alloc(kPage, bytes);
#endif
}

void Free(void* block) {
#if defined(_WIN32)
    _aligned_free(block);
#else
    std::free(block);
#endif
}

void FreeAll(const std::vector<void*>& blocks) {
    for (void* b : blocks) Free(b);
}
}  // namespace

void* HostBlocks::Take(size_t bytes, size_t& capacity) {
    capacity = (bytes + kPage - 1) / kPage * kPage;
    if (capacity == 0) capacity = kPage;
    if (bytes >= kMinBytes) {
        std::vector<void*> idle;
        void* found = nullptr;
        {
            std::lock_guard<std::mutex> lock(g_Mutex);
            DropIdle(idle);
            size_t best = g_Free.size();
            for (size_t i = 0; i < g_Free.size(); ++i) {
                const size_t c = g_Free[i].capacity;
                if (c >= capacity && c - capacity <= capacity / 4 && (best == g_Free.size() || c <= g_Free[best].capacity))
                    best = i;  // the smallest, the latest freed (warmest) among equals
            }
            if (best != g_Free.size()) {
                found = g_Free[best].block;
                capacity = g_Free[best].capacity;
                g_Bytes -= capacity;
                g_Free.erase(g_Free.begin() + static_cast<std::ptrdiff_t>(best));
            }
        }
        FreeAll(idle);
        if (found) return found;
    }
    void* p = Allocate(capacity);
    if (!p) throw std::bad_alloc();
    return p;
}

void HostBlocks::Give(void* block, size_t capacity) {
    if (!block) return;
    if (capacity < kMinBytes || capacity > kMaxCachedBytes) {
        Free(block);
        return;
    }
    std::vector<void*> drop;
    {
        std::lock_guard<std::mutex> lock(g_Mutex);
        DropIdle(drop);
        while (g_Bytes + capacity > kMaxCachedBytes && !g_Free.empty()) {  // oldest first
            drop.push_back(g_Free.front().block);
            g_Bytes -= g_Free.front().capacity;
            g_Free.erase(g_Free.begin());
        }
        g_Free.push_back(Cached{block, capacity, std::chrono::steady_clock::now()});
        g_Bytes += capacity;
    }
    FreeAll(drop);
}

size_t HostBlocks::CachedBytes() {
    std::lock_guard<std::mutex> lock(g_Mutex);
    return g_Bytes;
}

}  // namespace dx12kit::host
