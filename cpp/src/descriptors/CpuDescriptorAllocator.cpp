// CpuDescriptorAllocator and DescriptorAllocation (see the header for the design).
#include "dx12kit/descriptors/CpuDescriptorAllocator.hpp"

#include "dx12kit/alloc/AllocatorCommon.hpp"
#include "dx12kit/alloc/FreeListAllocator.hpp"
#include "dx12kit/base/Errors.hpp"
#include "dx12kit/descriptors/DescriptorHeapTypes.hpp"
#include "dx12kit/platform/HResult.hpp"

#include <algorithm>
#include <mutex>  // std::lock_guard
#include <string>
#include <thread>

#if defined(_MSC_VER)
#  include <intrin.h>
#endif
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#  include <immintrin.h>
#endif

#if defined(__GNUC__) || defined(__clang__)
#  define DX12KIT_CPU_DESC_LIKELY(x) __builtin_expect(!!(x), 1)
#  define DX12KIT_CPU_DESC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#  define DX12KIT_CPU_DESC_LIKELY(x) (x)
#  define DX12KIT_CPU_DESC_UNLIKELY(x) (x)
#endif

namespace dx12kit {

namespace {

// The bit scans of the allocators (dx12kit/alloc/AllocatorCommon.hpp); the argument must not be 0.
using alloc::detail::HighestBit;
using alloc::detail::LowestBit;

inline uint32_t PopCount(uint64_t v) noexcept {
#if defined(_MSC_VER)
    return static_cast<uint32_t>(__popcnt64(v));
#else
    return static_cast<uint32_t>(__builtin_popcountll(v));
#endif
}

/// Bits [lo, lo + n) of one word; lo + n <= 64, n >= 1.
inline uint64_t BitRange(uint32_t lo, uint32_t n) noexcept {
    return (n >= 64 ? ~uint64_t(0) : ((uint64_t(1) << n) - 1)) << lo;
}

inline void CpuRelax() noexcept {
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
    _mm_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

}  // namespace

namespace detail {

struct CpuDescriptorPage {
    /// Slots [64 w, 64 w + 64) of the page.
    struct SlotWord {
        uint64_t cached = 0;     ///< bit i: slot is a free single inside a slab
        uint64_t slabStart = 0;  ///< bit i: a slab starts at this slot
        uint64_t slabLast = 0;   ///< bit i: a slab ends at this slot (inclusive)
    };

    CpuDescriptorPage(CpuDescriptorAllocator* owner_, uint32_t capacity_, bool dedicated_)
        : owner(owner_), capacity(capacity_), freeCount(capacity_), dedicated(dedicated_), freeList(capacity_) {
        if (!dedicated) {
            words.resize((size_t(capacity) + 63) / 64);
            summary.resize((words.size() + 63) / 64);
        }
    }

    // Hot fields first (one or two cache lines); the free list (about 1 KiB) last.
    CpuDescriptorAllocator* owner;
    D3D12_CPU_DESCRIPTOR_HANDLE cpuStart{0};
    std::vector<SlotWord> words;    ///< Not used by dedicated pages.
    std::vector<uint64_t> summary;  ///< bit w: words[w].cached != 0.
    uint32_t capacity;
    uint32_t freeCount;           ///< Descriptors free in freeList (stale ones are not free yet).
    uint32_t cachedCount = 0;     ///< Free singles inside slabs (cached bits set).
    uint32_t slabCount = 0;       ///< Slabs carved from freeList and not yet returned.
    ptrdiff_t availablePos = -1;  ///< Position in owner->m_Available, -1 when not listed.
    ptrdiff_t singlePos = -1;     ///< Position in owner->m_SingleAvail, -1 when not listed.
    size_t indexInPages = 0;      ///< Position in owner->m_Pages.
    bool dedicated;               ///< A page made for one oversized request.
    ComPtr<ID3D12DescriptorHeap> d3d12Heap;
    alloc::FreeListAllocator freeList;  ///< Offsets in descriptors; slabs are ranges in it.

    /// Lowest cached slot; cachedCount > 0. Clears its bit.
    uint32_t TakeCached() noexcept {
        size_t s = 0;
        while (summary[s] == 0) ++s;
        const size_t w = (s << 6) | LowestBit(summary[s]);
        uint64_t& bits = words[w].cached;
        const uint32_t b = LowestBit(bits);
        bits &= bits - 1;
        if (bits == 0) summary[w >> 6] &= ~(uint64_t(1) << (w & 63));
        --cachedCount;
        return static_cast<uint32_t>((w << 6) | b);
    }

    void SetCached(size_t w, uint64_t mask) noexcept {
        if (words[w].cached == 0) summary[w >> 6] |= uint64_t(1) << (w & 63);
        words[w].cached |= mask;
    }
    void ClearCached(size_t w, uint64_t mask) noexcept {
        words[w].cached &= ~mask;
        if (words[w].cached == 0) summary[w >> 6] &= ~(uint64_t(1) << (w & 63));
    }

    /// Calls f(wordIndex, mask) for the one or two words covering [offset, offset + len), len <= 64.
    template <class F>
    static void ForRange(uint32_t offset, uint32_t len, F&& f) {
        const uint32_t w = offset >> 6, b = offset & 63;
        const uint32_t first = std::min<uint32_t>(len, 64 - b);
        f(size_t(w), BitRange(b, first));
        if (first < len) f(size_t(w) + 1, BitRange(0, len - first));
    }

    /// Start of the slab holding `offset` (the closest slab start at or below it; slabs are at
    /// most 64 long, so it is in this word or the one before).
    uint32_t SlabStartOf(uint32_t offset) const noexcept {
        const uint32_t w = offset >> 6;
        const uint64_t here = words[w].slabStart & BitRange(0, (offset & 63) + 1);
        if (here) return (w << 6) | HighestBit(here);
        return ((w - 1) << 6) | HighestBit(words[w - 1].slabStart);
    }
    /// Last slot of the slab holding `offset` (the closest slab end at or above it).
    uint32_t SlabLastOf(uint32_t offset) const noexcept {
        const uint32_t w = offset >> 6;
        const uint64_t here = words[w].slabLast & ~BitRange(0, offset & 63);
        if (here) return (w << 6) | LowestBit(here);
        return ((w + 1) << 6) | LowestBit(words[w + 1].slabLast);
    }
};

void FreeCpuDescriptors(CpuDescriptorPage* page, uint32_t offset, uint32_t count) noexcept {
    page->owner->QueueFree(page, offset, count);
}

}  // namespace detail

using detail::CpuDescriptorPage;

namespace {

// Unordered "set of pages" lists with O(1) add/remove, the position kept in the page.
inline void ListAdd(std::vector<CpuDescriptorPage*>& list, CpuDescriptorPage* page, ptrdiff_t CpuDescriptorPage::*pos) {
    if (page->*pos >= 0) return;
    page->*pos = static_cast<ptrdiff_t>(list.size());
    list.push_back(page);
}

inline void ListRemove(std::vector<CpuDescriptorPage*>& list, CpuDescriptorPage* page, ptrdiff_t CpuDescriptorPage::*pos) {
    if (page->*pos < 0) return;
    const size_t i = static_cast<size_t>(page->*pos);
    if (i + 1 != list.size()) {
        list[i] = list.back();
        list[i]->*pos = static_cast<ptrdiff_t>(i);
    }
    list.pop_back();
    page->*pos = -1;
}

}  // namespace

D3D12_CPU_DESCRIPTOR_HANDLE DescriptorAllocation::Handle(uint32_t i) const {
    if (!m_Page) throw UseAfterFree("DescriptorAllocation::Handle: the allocation is null (freed, moved from or never allocated)");
    if (i >= Count())
        throw InvalidArgument("DescriptorAllocation::Handle: index " + std::to_string(i) + " is out of range for an allocation of " +
                              std::to_string(Count()) + " descriptors");
    return D3D12_CPU_DESCRIPTOR_HANDLE{m_Cpu.ptr + size_t(i) * m_Stride};
}

void CpuDescriptorAllocator::SpinLock::LockContended() noexcept {
    for (uint32_t spins = 0;; ++spins) {
        if (!m_Locked.load(std::memory_order_relaxed) && !m_Locked.exchange(true, std::memory_order_acquire)) return;
        if (spins < 64) CpuRelax();
        else std::this_thread::yield();  // the holder may have been preempted: let it run
    }
}

CpuDescriptorAllocator::CpuDescriptorAllocator(ID3D12Device* device, D3D12_DESCRIPTOR_HEAP_TYPE type, uint32_t pageSize,
                                               const std::atomic<uint64_t>* currentSerial)
    : m_d3d12Device(device), m_Type(type), m_PageSize(pageSize), m_DescriptorSize(0), m_CurrentSerial(currentSerial) {
    if (!device) throw InvalidArgument("CpuDescriptorAllocator: device is null");
    if (!IsValidDescriptorHeapType(type)) throw InvalidArgument("CpuDescriptorAllocator: unknown descriptor heap type " + std::to_string(int(type)));
    if (pageSize == 0) throw InvalidArgument("CpuDescriptorAllocator: pageSize must be at least 1");
    m_SlabSize = std::min(kSlabSize, pageSize);
    m_DescriptorSize = device->GetDescriptorHandleIncrementSize(type);
    m_Stale.resize(256);
}

CpuDescriptorAllocator::~CpuDescriptorAllocator() = default;

CpuDescriptorPage* CpuDescriptorAllocator::NewPageLocked(uint32_t capacity, bool dedicated) {
    auto page = std::make_unique<CpuDescriptorPage>(this, capacity, dedicated);
    D3D12_DESCRIPTOR_HEAP_DESC desc{};
    desc.Type = m_Type;
    desc.NumDescriptors = capacity;
    desc.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_NONE;
    desc.NodeMask = 0;
    ThrowIfFailed(m_d3d12Device->CreateDescriptorHeap(&desc, IID_ID3D12DescriptorHeap, page->d3d12Heap.ReleaseAndGetVoidAddress()),
                  "CpuDescriptorAllocator: ID3D12Device::CreateDescriptorHeap (CPU-only page)");
    page->cpuStart = page->d3d12Heap->GetCPUDescriptorHandleForHeapStart();
    page->indexInPages = m_Pages.size();
    m_Pages.push_back(std::move(page));
    m_Capacity += capacity;
    return m_Pages.back().get();
}

void CpuDescriptorAllocator::DestroyPageLocked(CpuDescriptorPage* page) {
    RemoveAvailableLocked(page);
    ListRemove(m_SingleAvail, page, &CpuDescriptorPage::singlePos);
    m_Capacity -= page->capacity;
    const size_t i = page->indexInPages;
    if (i + 1 != m_Pages.size()) {
        std::swap(m_Pages[i], m_Pages.back());
        m_Pages[i]->indexInPages = i;
    }
    m_Pages.pop_back();  // destroys the page and releases its heap
}

void CpuDescriptorAllocator::AddAvailableLocked(CpuDescriptorPage* page) {
    ListAdd(m_Available, page, &CpuDescriptorPage::availablePos);
}

void CpuDescriptorAllocator::RemoveAvailableLocked(CpuDescriptorPage* page) {
    ListRemove(m_Available, page, &CpuDescriptorPage::availablePos);
}

// Takes one slab out of some page's free list and lists the page in m_SingleAvail.
void CpuDescriptorAllocator::CarveSlabLocked() {
    CpuDescriptorPage* page = nullptr;
    uint32_t len = 0;
    // A full slab from one of the most recently listed pages...
    const size_t probes = std::min<size_t>(m_Available.size(), kSlabProbes);
    for (size_t k = 0; k < probes && !page; ++k) {
        CpuDescriptorPage* p = m_Available[m_Available.size() - 1 - k];
        if (p->freeCount >= m_SlabSize && p->freeList.GetStats().largestFreeBlock >= m_SlabSize) {
            page = p;
            len = m_SlabSize;
        }
    }
    // ...else as much as the top page holds in one piece (never a new page while one has room).
    if (!page && !m_Available.empty()) {
        page = m_Available.back();
        len = static_cast<uint32_t>(std::min<uint64_t>(m_SlabSize, std::max<uint64_t>(1, page->freeList.GetStats().largestFreeBlock)));
    }
    if (!page) {
        page = NewPageLocked(m_PageSize, /*dedicated=*/false);
        AddAvailableLocked(page);
        len = m_SlabSize;
    }
    uint64_t offset = page->freeList.Allocate(len);
    if (offset == alloc::kInvalidOffset && len > 1) {  // the largest-block figure was too hopeful
        len = 1;
        offset = page->freeList.Allocate(1);
    }
    if (offset == alloc::kInvalidOffset)  // cannot happen: a listed page has at least one free slot
        throw Error("CpuDescriptorAllocator::Allocate: internal error: an available page had no room");

    page->freeCount -= len;
    if (page->freeCount == 0) RemoveAvailableLocked(page);
    const uint32_t first = static_cast<uint32_t>(offset), last = first + len - 1;
    page->words[first >> 6].slabStart |= uint64_t(1) << (first & 63);
    page->words[last >> 6].slabLast |= uint64_t(1) << (last & 63);
    CpuDescriptorPage::ForRange(first, len, [&](size_t w, uint64_t mask) { page->SetCached(w, mask); });
    page->cachedCount += len;
    ++page->slabCount;
    ListAdd(m_SingleAvail, page, &CpuDescriptorPage::singlePos);
}

// A released single: cached again; its slab goes back to the free list once wholly cached.
void CpuDescriptorAllocator::ReturnSingleLocked(CpuDescriptorPage* page, uint32_t offset) {
    const uint32_t w = offset >> 6, b = offset & 63;
    CpuDescriptorPage::SlotWord& word = page->words[w];
    const uint64_t bit = uint64_t(1) << b;
    if (word.cached == 0) page->summary[w >> 6] |= uint64_t(1) << (w & 63);
    const uint64_t cached = word.cached | bit;
    word.cached = cached;
    if (page->cachedCount++ == 0) ListAdd(m_SingleAvail, page, &CpuDescriptorPage::singlePos);

    // The slab holding `offset` starts at the closest start bit at or below it and ends at the
    // closest last bit at or above it (slabs never overlap).
    const uint64_t starts = word.slabStart & (bit | (bit - 1));
    const uint64_t lasts = word.slabLast & ~(bit - 1);
    uint32_t first, len;
    if (DX12KIT_CPU_DESC_LIKELY(starts && lasts)) {  // the slab lies inside this word
        const uint32_t lo = HighestBit(starts), hi = LowestBit(lasts);
        const uint64_t mask = (~uint64_t(0) << lo) & (~uint64_t(0) >> (63 - hi));
        if ((cached & mask) != mask) return;
        first = (w << 6) | lo;
        len = hi - lo + 1;
    } else {  // it spans this word and a neighbour
        first = page->SlabStartOf(offset);
        len = page->SlabLastOf(offset) - first + 1;
        bool whole = true;
        CpuDescriptorPage::ForRange(first, len, [&](size_t i, uint64_t mask) { whole = whole && (page->words[i].cached & mask) == mask; });
        if (!whole) return;
    }

    const uint32_t last = first + len - 1;
    CpuDescriptorPage::ForRange(first, len, [&](size_t i, uint64_t mask) { page->ClearCached(i, mask); });
    page->words[first >> 6].slabStart &= ~(uint64_t(1) << (first & 63));
    page->words[last >> 6].slabLast &= ~(uint64_t(1) << (last & 63));
    page->cachedCount -= len;
    --page->slabCount;
    if (page->cachedCount == 0) ListRemove(m_SingleAvail, page, &CpuDescriptorPage::singlePos);
    page->freeList.Free(first);
    page->freeCount += len;
    AddAvailableLocked(page);
}

DescriptorAllocation CpuDescriptorAllocator::Allocate(uint32_t count) {
    if (DX12KIT_CPU_DESC_LIKELY(count == 1)) {
        std::lock_guard<SpinLock> lock(m_Mutex);
        if (DX12KIT_CPU_DESC_UNLIKELY(m_SingleAvail.empty())) CarveSlabLocked();
        CpuDescriptorPage* page = m_SingleAvail.back();
        const uint32_t offset = page->TakeCached();
        if (page->cachedCount == 0) {  // it is the last entry of the list
            m_SingleAvail.pop_back();
            page->singlePos = -1;
        }
        if (++m_InUse > m_PeakInUse) m_PeakInUse = m_InUse;
        const D3D12_CPU_DESCRIPTOR_HANDLE first{page->cpuStart.ptr + size_t(offset) * m_DescriptorSize};
        return DescriptorAllocation(page, first, offset, 1, m_DescriptorSize);
    }
    return AllocateRange(count);
}

DescriptorAllocation CpuDescriptorAllocator::AllocateRange(uint32_t count) {
    if (count == 0) throw InvalidArgument("CpuDescriptorAllocator::Allocate: count must be at least 1 (got 0)");
    std::lock_guard<SpinLock> lock(m_Mutex);

    CpuDescriptorPage* page = nullptr;
    uint64_t offset = alloc::kInvalidOffset;
    if (count > m_PageSize) {
        page = NewPageLocked(count, /*dedicated=*/true);
        offset = page->freeList.Allocate(count);
    } else {
        // Most recently listed pages first: they are the ones that just got room back.
        for (size_t i = m_Available.size(); i-- > 0;) {
            CpuDescriptorPage* p = m_Available[i];
            if (p->freeCount < count) continue;
            offset = p->freeList.Allocate(count);
            if (offset != alloc::kInvalidOffset) {
                page = p;
                break;
            }
        }
        if (!page) {
            page = NewPageLocked(m_PageSize, /*dedicated=*/false);
            offset = page->freeList.Allocate(count);
            AddAvailableLocked(page);
        }
    }
    if (offset == alloc::kInvalidOffset)  // cannot happen: a fresh page always has room
        throw Error("CpuDescriptorAllocator::Allocate: internal error: a new page had no room");

    page->freeCount -= count;
    if (page->freeCount == 0) RemoveAvailableLocked(page);
    m_InUse += count;
    if (m_InUse > m_PeakInUse) m_PeakInUse = m_InUse;
    const D3D12_CPU_DESCRIPTOR_HANDLE first{page->cpuStart.ptr + size_t(offset) * m_DescriptorSize};
    return DescriptorAllocation(page, first, static_cast<uint32_t>(offset), count, m_DescriptorSize);
}

void CpuDescriptorAllocator::QueueFree(CpuDescriptorPage* page, uint32_t offset, uint32_t count) noexcept {
    std::lock_guard<SpinLock> lock(m_Mutex);
    // Read under the lock: tags enter the queue in non-decreasing order.
    const uint64_t serial = m_CurrentSerial ? m_CurrentSerial->load(std::memory_order_acquire) : 0;
    if (DX12KIT_CPU_DESC_UNLIKELY(m_StaleTail == m_Stale.size())) GrowStaleLocked();
    // Fields written in place (not a StaleRange temporary copied in: its narrow stores read back
    // by a wide copy would stall store-to-load forwarding).
    StaleRange& r = m_Stale[m_StaleTail++];
    r.page = page;
    r.offset = offset;
    r.count = count;
    r.serial = serial;
    m_InUse -= count;
    m_StaleCount += count;
}

// Makes room at the tail of the FIFO: compacts when the consumed prefix is at least half of the
// buffer, else doubles it. noexcept: a failed allocation here would lose a free, so terminate.
void CpuDescriptorAllocator::GrowStaleLocked() noexcept {
    if (m_StaleHead != 0 && m_StaleHead * 2 >= m_Stale.size()) {
        std::copy(m_Stale.begin() + static_cast<ptrdiff_t>(m_StaleHead), m_Stale.begin() + static_cast<ptrdiff_t>(m_StaleTail), m_Stale.begin());
        m_StaleTail -= m_StaleHead;
        m_StaleHead = 0;
    } else {
        m_Stale.resize(std::max<size_t>(256, m_Stale.size() * 2));
    }
}

void CpuDescriptorAllocator::ReleaseStaleDescriptors(uint64_t completedSerial) {
    std::lock_guard<SpinLock> lock(m_Mutex);
    while (m_StaleHead < m_StaleTail && m_Stale[m_StaleHead].serial <= completedSerial) {
        const StaleRange r = m_Stale[m_StaleHead++];  // popped first: never released twice
        m_StaleCount -= r.count;
        if (r.count == 1) {  // singles always come from slabs (never from a dedicated page)
            ReturnSingleLocked(r.page, r.offset);
        } else if (r.page->dedicated) {
            DestroyPageLocked(r.page);
        } else {
            r.page->freeList.Free(r.offset);
            r.page->freeCount += r.count;
            AddAvailableLocked(r.page);
        }
    }
    if (m_StaleHead == m_StaleTail) m_StaleHead = m_StaleTail = 0;  // empty: restart at the front
}

CpuDescriptorStats CpuDescriptorAllocator::GetStats() const {
    std::lock_guard<SpinLock> lock(m_Mutex);
    return CpuDescriptorStats{m_InUse, m_Pages.size(), m_PeakInUse, m_StaleCount, m_Capacity};
}

void CpuDescriptorAllocator::Validate() const {
    std::lock_guard<SpinLock> lock(m_Mutex);
    auto fail = [](const std::string& what) { throw Error("CpuDescriptorAllocator::Validate: " + what); };
    uint64_t capacity = 0, freeTotal = 0;
    size_t singleListed = 0;
    for (size_t i = 0; i < m_Pages.size(); ++i) {
        const CpuDescriptorPage* p = m_Pages[i].get();
        const std::string at = " (page " + std::to_string(i) + ")";
        if (p->indexInPages != i) fail("page index mismatch" + at);
        if (p->owner != this) fail("page owned by another allocator" + at);
        p->freeList.Validate();
        const alloc::AllocatorStats s = p->freeList.GetStats();
        if (s.free != p->freeCount)
            fail("page free count " + std::to_string(p->freeCount) + " differs from its free list's " + std::to_string(s.free) + at);
        if (s.capacity != p->capacity) fail("page capacity mismatch" + at);
        const bool shouldBeListed = !p->dedicated && p->freeCount > 0;
        if (shouldBeListed != (p->availablePos >= 0)) fail("available list out of date" + at);
        if (p->availablePos >= 0 && (size_t(p->availablePos) >= m_Available.size() || m_Available[size_t(p->availablePos)] != p))
            fail("available position mismatch" + at);
        if ((p->cachedCount > 0) != (p->singlePos >= 0)) fail("single list out of date" + at);
        if (p->singlePos >= 0) {
            ++singleListed;
            if (size_t(p->singlePos) >= m_SingleAvail.size() || m_SingleAvail[size_t(p->singlePos)] != p) fail("single list position mismatch" + at);
        }

        if (p->dedicated) {
            if (p->cachedCount || p->slabCount || !p->words.empty()) fail("a dedicated page has slabs" + at);
        } else {
            // Slabs: start/last bits alternate in slot order, each slab 1..kSlabSize long, is one
            // allocated block of the free list, holds cached bits only inside, and is never
            // wholly cached (it would have gone back to the free list).
            if (p->words.size() != (size_t(p->capacity) + 63) / 64 || p->summary.size() != (p->words.size() + 63) / 64)
                fail("slot words sized wrongly" + at);
            const std::vector<alloc::FreeListAllocator::BlockInfo> blocks = p->freeList.CalculateBlocks();
            size_t b = 0;
            uint32_t slabs = 0, cached = 0;
            int64_t open = -1;  // start of the slab being walked
            for (uint32_t slot = 0; slot < p->capacity; ++slot) {
                const size_t w = slot >> 6;
                const uint64_t bit = uint64_t(1) << (slot & 63);
                const bool start = p->words[w].slabStart & bit, last = p->words[w].slabLast & bit, isCached = p->words[w].cached & bit;
                if (start) {
                    if (open >= 0) fail("slab at " + std::to_string(open) + " has no end" + at);
                    open = slot;
                    cached = 0;
                }
                if (isCached) {
                    if (open < 0) fail("cached slot " + std::to_string(slot) + " outside any slab" + at);
                    ++cached;
                }
                if (last) {
                    if (open < 0) fail("slab end at " + std::to_string(slot) + " without a start" + at);
                    const uint64_t len = slot - uint64_t(open) + 1;
                    if (len > kSlabSize) fail("slab longer than kSlabSize" + at);
                    if (cached == len) fail("slab at " + std::to_string(open) + " is wholly cached" + at);
                    while (b < blocks.size() && blocks[b].offset < uint64_t(open)) ++b;
                    if (b == blocks.size() || blocks[b].offset != uint64_t(open) || blocks[b].size != len || blocks[b].state != 1)
                        fail("slab at " + std::to_string(open) + " is not an allocation of the free list" + at);
                    ++slabs;
                    open = -1;
                }
            }
            if (open >= 0) fail("slab at " + std::to_string(open) + " has no end" + at);
            uint64_t pop = 0;
            for (size_t w = 0; w < p->words.size(); ++w) {
                pop += PopCount(p->words[w].cached);
                const bool sum = (p->summary[w >> 6] >> (w & 63)) & 1;
                if (sum != (p->words[w].cached != 0)) fail("cached summary out of date" + at);
                if (w + 1 == p->words.size() && (p->capacity & 63) &&
                    ((p->words[w].cached | p->words[w].slabStart | p->words[w].slabLast) >> (p->capacity & 63)))
                    fail("slot bits past the capacity" + at);
            }
            if (pop != p->cachedCount) fail("cached count " + std::to_string(p->cachedCount) + " differs from the bits' " + std::to_string(pop) + at);
            if (slabs != p->slabCount) fail("slab count mismatch" + at);
        }
        capacity += p->capacity;
        freeTotal += uint64_t(p->freeCount) + p->cachedCount;
    }
    if (singleListed != m_SingleAvail.size()) fail("single list holds pages that are not listed");
    uint64_t stale = 0;
    uint64_t lastSerial = 0;
    if (m_StaleHead > m_StaleTail || m_StaleTail > m_Stale.size()) fail("stale queue bounds broken");
    for (size_t i = m_StaleHead; i < m_StaleTail; ++i) {
        stale += m_Stale[i].count;
        if (m_Stale[i].serial < lastSerial) fail("stale queue not ordered by serial");
        lastSerial = m_Stale[i].serial;
    }
    if (capacity != m_Capacity) fail("capacity mismatch");
    if (stale != m_StaleCount) fail("stale count mismatch");
    if (m_InUse + m_StaleCount + freeTotal != m_Capacity)
        fail("inUse + stale + free (" + std::to_string(m_InUse) + " + " + std::to_string(m_StaleCount) + " + " + std::to_string(freeTotal) +
             ") != capacity " + std::to_string(m_Capacity));
    if (m_PeakInUse < m_InUse) fail("peak below current use");
}

}  // namespace dx12kit
