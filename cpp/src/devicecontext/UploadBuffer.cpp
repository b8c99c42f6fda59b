#include "dx12kit/devicecontext/UploadBuffer.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/base/HostCopy.hpp"
#include "dx12kit/devicecontext/DeviceContext.hpp"
#include "dx12kit/memory/MemoryManager.hpp"
#include "d3dx12/D3dx12Lite.hpp"
#include "dx12kit/platform/HResult.hpp"

#include <algorithm>
#include <string>

namespace dx12kit {

UploadPagePool::UploadPagePool(DeviceContext& core) : m_Context(core) {}

uint64_t UploadPagePool::PageSize() const {
    return m_Context.Options().uploadPageSize;
}

std::unique_ptr<UploadPage> UploadPagePool::Create(uint64_t size, bool dedicated) {
    auto page = std::make_unique<UploadPage>(dedicated, size);
    // Upload memory comes from the memory layer like every other byte the device holds, so it shows
    // in the same statistics and budget (a large page over half a block becomes a committed resource).
    memory::ResourceRequest rq;
    rq.desc = d3dx::BufferDesc(size, D3D12_RESOURCE_FLAG_NONE);
    rq.initialState = D3D12_RESOURCE_STATE_GENERIC_READ;
    rq.heap = memory::HeapKind::Upload;
    rq.kind = memory::AllocationKind::UploadPage;
    rq.name = dedicated ? "upload page (large)" : "upload page";
    memory::CreatedResource created = m_Context.Memory().CreateResource(rq);
    page->memory = std::move(created.allocation);
    page->resource = std::move(created.resource);
    page->gpu = page->resource->GetGPUVirtualAddress();
    {
        D3D12_RANGE none{0, 0};
        void* p = nullptr;
        ThrowIfFailed(page->resource->Map(0, &none, &p), "ID3D12Resource::Map (upload page)");
        page->cpu = static_cast<uint8_t*>(p);
        host::AdviseHugePages(p, static_cast<size_t>(size));
    }
    ++m_Stats.pagesCreated;
    return page;
}

std::unique_ptr<UploadPage> UploadPagePool::Acquire() {
    std::vector<std::unique_ptr<UploadPage>> destroy;  // declared first: destroyed after the lock
    {
        std::lock_guard<std::mutex> lock(m_Mutex);
        if (m_Free.empty()) {
            // Reuse pages whose fence completed since the last look (a dedicated page among
            // them is destroyed, as in ReleaseStale, once the lock is released).
            DrainCompletedLocked(m_Context.CompletedSerial(), destroy);
        }
        if (!m_Free.empty()) {
            auto page = std::move(m_Free.back());
            m_Free.pop_back();
            --m_Stats.pagesFree;
            ++m_Stats.pagesInUse;
            m_Stats.peakPages = std::max(m_Stats.peakPages, m_Stats.pagesInUse + m_Stats.pagesRetired + m_Stats.pagesFree);
            return page;
        }
    }
    auto page = Create(PageSize(), false);
    std::lock_guard<std::mutex> lock(m_Mutex);
    ++m_Stats.pagesInUse;
    m_Stats.peakPages = std::max(m_Stats.peakPages, m_Stats.pagesInUse + m_Stats.pagesRetired + m_Stats.pagesFree);
    return page;
}

std::unique_ptr<UploadPage> UploadPagePool::TakeLargeLocked(uint64_t size) {
    // Smallest cached page that holds `size` without wasting more than half of itself.
    auto best = m_LargeCache.end();
    for (auto it = m_LargeCache.begin(); it != m_LargeCache.end(); ++it) {
        const uint64_t cap = (*it)->linear.Capacity();
        if (cap < size || cap / 2 > size) continue;
        if (best == m_LargeCache.end() || cap < (*best)->linear.Capacity()) best = it;
    }
    if (best == m_LargeCache.end()) return nullptr;
    std::unique_ptr<UploadPage> page = std::move(*best);
    m_LargeCache.erase(best);
    --m_Stats.largeCached;
    m_Stats.largeCachedBytes -= page->linear.Capacity();
    ++m_Stats.largeReused;
    return page;
}

void UploadPagePool::CacheLargeLocked(std::unique_ptr<UploadPage> page, std::vector<std::unique_ptr<UploadPage>>& destroy) {
    const uint64_t cap = page->linear.Capacity();
    const uint64_t limit = m_Context.Options().largePageCacheBytes;
    if (cap > limit) {
        destroy.push_back(std::move(page));
        return;
    }
    while (m_Stats.largeCachedBytes + cap > limit) {  // evict the oldest
        m_Stats.largeCachedBytes -= m_LargeCache.front()->linear.Capacity();
        --m_Stats.largeCached;
        destroy.push_back(std::move(m_LargeCache.front()));
        m_LargeCache.pop_front();
    }
    page->linear.Reset();
    m_Stats.largeCachedBytes += cap;
    ++m_Stats.largeCached;
    m_LargeCache.push_back(std::move(page));
}

std::unique_ptr<UploadPage> UploadPagePool::AcquireDedicated(uint64_t size) {
    const uint64_t rounded = (size + 65535) & ~uint64_t(65535);
    std::vector<std::unique_ptr<UploadPage>> destroy;  // declared first: destroyed after the lock
    {
        std::lock_guard<std::mutex> lock(m_Mutex);
        std::unique_ptr<UploadPage> page = TakeLargeLocked(rounded);
        if (!page) {
            DrainCompletedLocked(m_Context.CompletedSerial(), destroy);
            page = TakeLargeLocked(rounded);
        }
        if (page) {
            ++m_Stats.dedicatedInUse;
            m_Stats.dedicatedBytes += page->linear.Capacity();
            return page;
        }
    }
    auto page = Create(rounded, true);
    std::lock_guard<std::mutex> lock(m_Mutex);
    ++m_Stats.dedicatedInUse;
    m_Stats.dedicatedBytes += rounded;
    return page;
}

void UploadPagePool::Retire(std::vector<std::unique_ptr<UploadPage>>& pages, uint64_t serial, uint64_t bytesUsed) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    m_Stats.bytesAllocated += bytesUsed;
    for (auto& p : pages) {
        if (!p->dedicated) {
            --m_Stats.pagesInUse;
            ++m_Stats.pagesRetired;
        }
        m_Retired.emplace_back(serial, std::move(p));
    }
    pages.clear();
}

void UploadPagePool::Discard(std::vector<std::unique_ptr<UploadPage>>& pages) {
    std::vector<std::unique_ptr<UploadPage>> destroy;  // declared first: destroyed after the lock
    std::lock_guard<std::mutex> lock(m_Mutex);
    for (auto& p : pages) {
        if (p->pins.load(std::memory_order_acquire) != 0) {
            // A view into it may outlive the list (its UploadAllocation holds the list, so this
            // should not happen): it waits with the retired pages for its last pin.
            if (!p->dedicated) {
                --m_Stats.pagesInUse;
                ++m_Stats.pagesRetired;
            }
            m_Pinned.push_back(std::move(p));
            continue;
        }
        if (p->dedicated) {
            --m_Stats.dedicatedInUse;
            m_Stats.dedicatedBytes -= p->linear.Capacity();
            CacheLargeLocked(std::move(p), destroy);
            continue;
        }
        --m_Stats.pagesInUse;
        p->linear.Reset();
        m_Free.push_back(std::move(p));
        ++m_Stats.pagesFree;
    }
    pages.clear();
}

void UploadPagePool::DrainCompletedLocked(uint64_t completedSerial, std::vector<std::unique_ptr<UploadPage>>& destroy) {
    std::vector<std::unique_ptr<UploadPage>> done;
    for (auto it = m_Pinned.begin(); it != m_Pinned.end();) {
        if ((*it)->pins.load(std::memory_order_acquire) == 0) {
            done.push_back(std::move(*it));
            it = m_Pinned.erase(it);
        } else {
            ++it;
        }
    }
    while (!m_Retired.empty() && m_Retired.front().first <= completedSerial) {
        done.push_back(std::move(m_Retired.front().second));
        m_Retired.pop_front();
    }
    for (auto& page : done) {
        if (page->pins.load(std::memory_order_acquire) != 0) {  // a numpy view still points into it
            m_Pinned.push_back(std::move(page));
            continue;
        }
        if (page->dedicated) {
            --m_Stats.dedicatedInUse;
            m_Stats.dedicatedBytes -= page->linear.Capacity();
            CacheLargeLocked(std::move(page), destroy);
            continue;
        }
        --m_Stats.pagesRetired;
        page->linear.Reset();
        m_Free.push_back(std::move(page));
        ++m_Stats.pagesFree;
    }
}

void UploadPagePool::ReleaseStale(uint64_t completedSerial) {
    std::vector<std::unique_ptr<UploadPage>> destroy;  // destroyed after the lock is released
    std::lock_guard<std::mutex> lock(m_Mutex);
    DrainCompletedLocked(completedSerial, destroy);
}

uint64_t UploadPagePool::Trim(uint64_t completedSerial) {
    std::vector<std::unique_ptr<UploadPage>> destroy;  // destroyed after the lock is released
    std::lock_guard<std::mutex> lock(m_Mutex);
    DrainCompletedLocked(completedSerial, destroy);
    for (auto& p : m_Free) destroy.push_back(std::move(p));
    m_Free.clear();
    m_Stats.pagesFree = 0;
    for (auto& p : m_LargeCache) destroy.push_back(std::move(p));
    m_LargeCache.clear();
    m_Stats.largeCached = 0;
    m_Stats.largeCachedBytes = 0;
    m_Stats.pagesTrimmed += destroy.size();
    return destroy.size();
}

UploadPoolStats UploadPagePool::GetStats() const {
    std::lock_guard<std::mutex> lock(m_Mutex);
    return m_Stats;
}

UploadBuffer::~UploadBuffer() {
    if (!m_Pages.empty()) m_Pool.Discard(m_Pages);
}

UploadAllocation UploadBuffer::AllocateSlow(uint64_t size, uint64_t alignment) {
    if (size == 0) throw InvalidArgument("upload allocation of 0 bytes");
    if (alignment == 0 || (alignment & (alignment - 1)))
        throw InvalidArgument("upload alignment " + std::to_string(alignment) + " is not a power of two");
    const uint64_t pageSize = m_Pool.PageSize();
    constexpr uint64_t kMaxDedicated = uint64_t(4) << 30;
    if (size > kMaxDedicated) throw InvalidArgument("upload of " + std::to_string(size) + " bytes is larger than the 4 GiB limit of one upload");
    // D3D12 places buffers at 64 KiB (D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT): a page cannot
    // promise a larger alignment of GPU addresses.
    if (alignment > D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT)
        throw InvalidArgument("upload alignment " + std::to_string(alignment) + " is larger than 65536, the alignment of a D3D12 buffer");
    UploadPage* page;
    if (alignment > pageSize || size > pageSize - alignment) {  // size + alignment > pageSize, without overflow
        m_Pages.push_back(m_Pool.AcquireDedicated(size));
        page = m_Pages.back().get();  // the current page stays current for small requests
    } else {
        m_Pages.push_back(m_Pool.Acquire());
        page = m_Pages.back().get();
        m_Current = page;
    }
    const uint64_t off = page->linear.Allocate(size, alignment);
    if (off == alloc::kInvalidOffset) throw OutOfMemory("upload page cannot hold " + std::to_string(size) + " bytes");
    m_BytesUsed += size;
    return {page->cpu ? page->cpu + off : nullptr, page->gpu + off, page->resource.Get(), off, size, page};
}

void UploadBuffer::Retire(uint64_t serial) {
    m_Current = nullptr;
    if (!m_Pages.empty()) m_Pool.Retire(m_Pages, serial, m_BytesUsed);
    m_BytesUsed = 0;
}

}  // namespace dx12kit
