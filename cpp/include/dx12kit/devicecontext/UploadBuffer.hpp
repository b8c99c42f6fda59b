// Upload memory: linear allocation from pages that are recycled by fence.
//
//   UploadPagePool (one per device, thread-safe: a mutex)
//     free           pages ready for reuse
//     retired        (serial, page): handed out again once CompletedSerial() >= serial
//
//   UploadBuffer (one per command list, no lock)
//     current --LinearAllocator--> [used....|free.........]
//     used pages    retired together, tagged with the list's submission serial
//
// Pages: UPLOAD heap, persistently mapped, GENERIC_READ, default 2 MiB (DeviceOptions::
// uploadPageSize): constants, vertices, texture data on their way to DEFAULT resources.
// A request larger than a page gets a page of its own. After its fence it goes to a bounded
// cache of large pages (DeviceOptions::largePageCacheBytes, oldest evicted first) that serves a
// later large request of up to its size (and at least half of it); pages that do not fit the
// cache are destroyed.
// Allocation is O(1): a bump of the current page's LinearAllocator. Trim() (Device.trim_memory)
// destroys the free pages and the large-page cache, giving their memory back to the memory layer.
#pragma once

#include "dx12kit/alloc/LinearAllocator.hpp"
#include "dx12kit/memory/MemoryPool.hpp"
#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

namespace dx12kit {

class DeviceContext;

struct UploadPage {
    bool dedicated;                   ///< a large request's own page (not pooled)
    memory::MemoryAllocation memory;  ///< from the device's memory layer (declared first: freed last)
    ComPtr<ID3D12Resource> resource;
    uint8_t* cpu = nullptr;  ///< mapped pointer
    D3D12_GPU_VIRTUAL_ADDRESS gpu = 0;
    alloc::LinearAllocator linear;
    /// Views of the page's memory held outside the list (zero-copy numpy arrays). A retired page
    /// with pins is neither reused nor destroyed until the last pin goes.
    std::atomic<uint32_t> pins{0};
    UploadPage(bool d, uint64_t size) : dedicated(d), linear(size) {}
};

/// One sub-allocation. Borrowed pointers: valid until
/// the owning command list's fence completes.
struct UploadAllocation {
    uint8_t* cpu = nullptr;
    D3D12_GPU_VIRTUAL_ADDRESS gpu = 0;
    ID3D12Resource* resource = nullptr;
    uint64_t offset = 0;
    uint64_t size = 0;
    UploadPage* page = nullptr;  ///< the page it lies in (to pin it)
};

struct UploadPoolStats {
    uint64_t pagesInUse = 0, pagesRetired = 0, pagesFree = 0, peakPages = 0;
    uint64_t dedicatedInUse = 0, dedicatedBytes = 0, bytesAllocated = 0, pagesCreated = 0;
    uint64_t largeCached = 0, largeCachedBytes = 0, largeReused = 0, pagesTrimmed = 0;
};

class UploadPagePool {
public:
    explicit UploadPagePool(DeviceContext& core);
    /// A page (reused when possible, created otherwise).
    std::unique_ptr<UploadPage> Acquire();
    /// A page of its own for a request of `size` bytes.
    std::unique_ptr<UploadPage> AcquireDedicated(uint64_t size);
    /// Returns pages used by a submission; they are reused once `serial` completes.
    void Retire(std::vector<std::unique_ptr<UploadPage>>& pages, uint64_t serial, uint64_t bytesUsed);
    /// Returns pages of a list that was never executed (immediately reusable).
    void Discard(std::vector<std::unique_ptr<UploadPage>>& pages);
    void ReleaseStale(uint64_t completedSerial);
    /// Destroys the free pages and the cached large pages (pages of lists in flight stay); returns
    /// how many pages went.
    uint64_t Trim(uint64_t completedSerial);
    UploadPoolStats GetStats() const;
    uint64_t PageSize() const;

private:
    std::unique_ptr<UploadPage> Create(uint64_t size, bool dedicated);
    /// Moves retired pages whose serial completed to the free lists; dedicated pages go to
    /// `destroy` (the caller destroys them after releasing m_Mutex). Caller holds m_Mutex.
    void DrainCompletedLocked(uint64_t completedSerial, std::vector<std::unique_ptr<UploadPage>>& destroy);
    /// A finished dedicated page: into the large-page cache, or into `destroy`.
    void CacheLargeLocked(std::unique_ptr<UploadPage> page, std::vector<std::unique_ptr<UploadPage>>& destroy);
    std::unique_ptr<UploadPage> TakeLargeLocked(uint64_t size);
    std::deque<std::unique_ptr<UploadPage>> m_LargeCache;  // oldest first
    std::vector<std::unique_ptr<UploadPage>> m_Pinned;     // completed, waiting for their pins
    DeviceContext& m_Context;
    mutable std::mutex m_Mutex;
    std::vector<std::unique_ptr<UploadPage>> m_Free;
    std::deque<std::pair<uint64_t, std::unique_ptr<UploadPage>>> m_Retired;
    UploadPoolStats m_Stats;
};

class UploadBuffer {
public:
    explicit UploadBuffer(UploadPagePool& pool) : m_Pool(pool) {}
    ~UploadBuffer();
    UploadBuffer(const UploadBuffer&) = delete;
    UploadBuffer& operator=(const UploadBuffer&) = delete;

    /// `size` bytes aligned to `alignment` (a power of two; 256 for constant buffers, 512 for
    /// texture data). Throws InvalidArgument for size 0.
    UploadAllocation Allocate(uint64_t size, uint64_t alignment) {
        UploadPage* page = m_Current;
        // A request larger than the current page goes to AllocateSlow (a dedicated page): the
        // page's LinearAllocator would reject it as an argument error, not as "page full".
        if (page && size <= page->linear.Capacity()) {
            uint64_t off = page->linear.Allocate(size, alignment);
            if (off != alloc::kInvalidOffset) {
                m_BytesUsed += size;
                return {page->cpu ? page->cpu + off : nullptr, page->gpu + off, page->resource.Get(), off, size, page};
            }
        }
        return AllocateSlow(size, alignment);
    }
    /// Hands every page to the pool, tagged with the list's submission serial.
    void Retire(uint64_t serial);
    size_t PageCount() const { return m_Pages.size(); }

private:
    UploadAllocation AllocateSlow(uint64_t size, uint64_t alignment);
    UploadPagePool& m_Pool;
    UploadPage* m_Current = nullptr;
    std::vector<std::unique_ptr<UploadPage>> m_Pages;
    uint64_t m_BytesUsed = 0;
};

}  // namespace dx12kit
