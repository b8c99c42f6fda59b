// CpuDescriptorAllocator and DescriptorAllocation (see the header for the design).
#include "dx12kit/descriptors/CpuDescriptorAllocator.hpp"

#include "dx12kit/alloc/FreeListAllocator.hpp"
#include "dx12kit/core/Errors.hpp"
#include "dx12kit/descriptors/DescriptorHeapTypes.hpp"
#include "dx12kit/platform/HResult.hpp"

#include <string>

namespace dx12kit {

namespace detail {

struct CpuDescriptorPage {
    CpuDescriptorPage(CpuDescriptorAllocator* owner_, uint32_t capacity_, bool dedicated_)
        : owner(owner_), freeList(capacity_), capacity(capacity_), freeCount(capacity_), dedicated(dedicated_) {}

    CpuDescriptorAllocator* owner;
    ComPtr<ID3D12DescriptorHeap> d3d12Heap;
    D3D12_CPU_DESCRIPTOR_HANDLE cpuStart{0};
    alloc::FreeListAllocator freeList;  ///< Offsets in descriptors.
    uint32_t capacity;
    uint32_t freeCount;            ///< Descriptors free in freeList (stale ones are not free yet).
    size_t indexInPages = 0;       ///< Position in owner->m_Pages.
    ptrdiff_t availablePos = -1;   ///< Position in owner->m_Available, -1 when not listed.
    bool dedicated;                ///< A page made for one oversized request.
};

void FreeCpuDescriptors(CpuDescriptorPage* page, uint32_t offset, uint32_t count) noexcept {
    page->owner->QueueFree(page, offset, count);
}

}  // namespace detail

using detail::CpuDescriptorPage;

D3D12_CPU_DESCRIPTOR_HANDLE DescriptorAllocation::Handle(uint32_t i) const {
    if (!m_Page) throw UseAfterFree("DescriptorAllocation::Handle: the allocation is null (freed, moved from or never allocated)");
    if (i >= m_Count)
        throw InvalidArgument("DescriptorAllocation::Handle: index " + std::to_string(i) +
                              " is out of range for an allocation of " + std::to_string(m_Count) + " descriptors");
    return D3D12_CPU_DESCRIPTOR_HANDLE{m_Cpu.ptr + size_t(i) * m_Stride};
}

CpuDescriptorAllocator::CpuDescriptorAllocator(ID3D12Device* device, D3D12_DESCRIPTOR_HEAP_TYPE type,
                                               uint32_t pageSize, const std::atomic<uint64_t>* currentSerial)
    : m_d3d12Device(device), m_Type(type), m_PageSize(pageSize), m_DescriptorSize(0), m_CurrentSerial(currentSerial) {
    if (!device) throw InvalidArgument("CpuDescriptorAllocator: device is null");
    if (!IsValidDescriptorHeapType(type))
        throw InvalidArgument("CpuDescriptorAllocator: unknown descriptor heap type " + std::to_string(int(type)));
    if (pageSize == 0) throw InvalidArgument("CpuDescriptorAllocator: pageSize must be at least 1");
    m_DescriptorSize = device->GetDescriptorHandleIncrementSize(type);
    m_Stale.reserve(256);
}

CpuDescriptorAllocator::~CpuDescriptorAllocator() = default;

CpuDescriptorPage* CpuDescriptorAllocator::NewPageLocked(uint32_t capacity, bool dedicated) {
    auto page = std::make_unique<CpuDescriptorPage>(this, capacity, dedicated);
    D3D12_DESCRIPTOR_HEAP_DESC desc{};
    desc.Type = m_Type;
    desc.NumDescriptors = capacity;
    desc.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_NONE;
    desc.NodeMask = 0;
    ThrowIfFailed(m_d3d12Device->CreateDescriptorHeap(&desc, IID_ID3D12DescriptorHeap,
                                                      page->d3d12Heap.ReleaseAndGetVoidAddress()),
                  "CpuDescriptorAllocator: ID3D12Device::CreateDescriptorHeap (CPU-only page)");
    page->cpuStart = page->d3d12Heap->GetCPUDescriptorHandleForHeapStart();
    page->indexInPages = m_Pages.size();
    m_Pages.push_back(std::move(page));
    m_Capacity += capacity;
    return m_Pages.back().get();
}

void CpuDescriptorAllocator::DestroyPageLocked(CpuDescriptorPage* page) {
    RemoveAvailableLocked(page);
    m_Capacity -= page->capacity;
    const size_t i = page->indexInPages;
    if (i + 1 != m_Pages.size()) {
        std::swap(m_Pages[i], m_Pages.back());
        m_Pages[i]->indexInPages = i;
    }
    m_Pages.pop_back();  // destroys the page and releases its heap
}

void CpuDescriptorAllocator::AddAvailableLocked(CpuDescriptorPage* page) {
    if (page->availablePos >= 0) return;
    page->availablePos = static_cast<ptrdiff_t>(m_Available.size());
    m_Available.push_back(page);
}

void CpuDescriptorAllocator::RemoveAvailableLocked(CpuDescriptorPage* page) {
    if (page->availablePos < 0) return;
    const size_t i = static_cast<size_t>(page->availablePos);
    if (i + 1 != m_Available.size()) {
        m_Available[i] = m_Available.back();
        m_Available[i]->availablePos = static_cast<ptrdiff_t>(i);
    }
    m_Available.pop_back();
    page->availablePos = -1;
}

DescriptorAllocation CpuDescriptorAllocator::Allocate(uint32_t count) {
    if (count == 0) throw InvalidArgument("CpuDescriptorAllocator::Allocate: count must be at least 1 (got 0)");
    std::lock_guard<std::mutex> lock(m_Mutex);

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
    std::lock_guard<std::mutex> lock(m_Mutex);
    // Read under the lock: tags enter the queue in non-decreasing order.
    const uint64_t serial = m_CurrentSerial ? m_CurrentSerial->load(std::memory_order_acquire) : 0;
    if (m_StaleHead != 0 && m_Stale.size() == m_Stale.capacity()) {
        // Compact instead of growing: the consumed prefix is dead.
        m_Stale.erase(m_Stale.begin(), m_Stale.begin() + static_cast<ptrdiff_t>(m_StaleHead));
        m_StaleHead = 0;
    }
    m_Stale.push_back(StaleRange{page, offset, count, serial});
    m_InUse -= count;
    m_StaleCount += count;
}

void CpuDescriptorAllocator::ReleaseStaleDescriptors(uint64_t completedSerial) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    while (m_StaleHead < m_Stale.size() && m_Stale[m_StaleHead].serial <= completedSerial) {
        const StaleRange r = m_Stale[m_StaleHead++];
        m_StaleCount -= r.count;
        if (r.page->dedicated) {
            DestroyPageLocked(r.page);
            continue;
        }
        r.page->freeList.Free(r.offset);
        r.page->freeCount += r.count;
        AddAvailableLocked(r.page);
    }
    if (m_StaleHead == m_Stale.size()) {
        m_Stale.clear();  // keeps the capacity
        m_StaleHead = 0;
    }
}

CpuDescriptorStats CpuDescriptorAllocator::GetStats() const {
    std::lock_guard<std::mutex> lock(m_Mutex);
    return CpuDescriptorStats{m_InUse, m_Pages.size(), m_PeakInUse, m_StaleCount, m_Capacity};
}

void CpuDescriptorAllocator::Validate() const {
    std::lock_guard<std::mutex> lock(m_Mutex);
    auto fail = [](const std::string& what) { throw Error("CpuDescriptorAllocator::Validate: " + what); };
    uint64_t capacity = 0, freeTotal = 0;
    for (size_t i = 0; i < m_Pages.size(); ++i) {
        const CpuDescriptorPage* p = m_Pages[i].get();
        if (p->indexInPages != i) fail("page index mismatch");
        if (p->owner != this) fail("page owned by another allocator");
        p->freeList.Validate();
        const alloc::AllocatorStats s = p->freeList.GetStats();
        if (s.free != p->freeCount) fail("page free count " + std::to_string(p->freeCount) +
                                         " differs from its free list's " + std::to_string(s.free));
        if (s.capacity != p->capacity) fail("page capacity mismatch");
        const bool shouldBeListed = !p->dedicated && p->freeCount > 0;
        if (shouldBeListed != (p->availablePos >= 0)) fail("available list out of date");
        if (p->availablePos >= 0 &&
            (size_t(p->availablePos) >= m_Available.size() || m_Available[size_t(p->availablePos)] != p))
            fail("available position mismatch");
        capacity += p->capacity;
        freeTotal += p->freeCount;
    }
    uint64_t stale = 0;
    uint64_t lastSerial = 0;
    for (size_t i = m_StaleHead; i < m_Stale.size(); ++i) {
        stale += m_Stale[i].count;
        if (m_Stale[i].serial < lastSerial) fail("stale queue not ordered by serial");
        lastSerial = m_Stale[i].serial;
    }
    if (capacity != m_Capacity) fail("capacity mismatch");
    if (stale != m_StaleCount) fail("stale count mismatch");
    if (m_InUse + m_StaleCount + freeTotal != m_Capacity)
        fail("inUse + stale + free (" + std::to_string(m_InUse) + " + " + std::to_string(m_StaleCount) + " + " +
             std::to_string(freeTotal) + ") != capacity " + std::to_string(m_Capacity));
}

}  // namespace dx12kit
