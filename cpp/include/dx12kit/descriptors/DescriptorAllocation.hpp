// DescriptorAllocation: a move-only handle to a contiguous range of CPU-only descriptors.
//
// Concept
//   CpuDescriptorAllocator::Allocate(count) returns one of these. It names `count` consecutive
//   descriptors in one CPU-only (non-shader-visible) descriptor heap page. The descriptors are
//   written with ID3D12Device::Create*View and read on the CPU: by CopyDescriptors into a
//   shader-visible heap, or by OMSetRenderTargets / Clear*View at record time.
//
// Ownership
//   The allocation owns its range. Dropping it (destructor, move-assignment over it, or Free())
//   hands the range back to its allocator as a *deferred* free: the range is tagged with the
//   device's current submission serial and becomes reusable only after the device reports that
//   serial complete (CpuDescriptorAllocator::ReleaseStaleDescriptors). A moved-from or freed
//   allocation is null; freeing a null allocation does nothing.
//
//   The allocation points at its page by a raw pointer: the allocator must outlive every
//   allocation it handed out. The device guarantees this (it keeps its CPU descriptor allocators
//   alive until every resource, and so every view, is gone).
//
// Thread-safety
//   One allocation is not safe to use from two threads at once. Different allocations of one
//   allocator may be freed from any threads concurrently (the allocator locks).
//
// Complexity
//   Handle(i), Count(), IsNull(): O(1), no lock. Free(): O(1) amortised, one lock of the allocator.
//
// Layout
//
//     DescriptorAllocation                       CPU-only descriptor heap page (pageSize slots)
//     +-----------------+                        +----+----+----+----+----+----+----+----+
//     | m_Page ---------+----------------------> |    |####|####|####|    |    |    |    |
//     | m_Cpu  ---------+---------------------------> ^ Handle(0)   ^ Handle(2)
//     | offset = 1      |                                     (slot stride = DescriptorSize())
//     | count  = 3      |  (offset and count share one 64-bit word, m_OffsetCount)
//     | m_Stride = 32   |
//     +-----------------+
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdint>

namespace dx12kit {

namespace detail {
struct CpuDescriptorPage;
/// Queues the range [offset, offset+count) of `page` for a deferred free (CpuDescriptorAllocator.cpp).
void FreeCpuDescriptors(CpuDescriptorPage* page, uint32_t offset, uint32_t count) noexcept;
}  // namespace detail

class DescriptorAllocation {
public:
    /// A null allocation (IsNull() is true, Count() is 0).
    DescriptorAllocation() noexcept = default;
    /// Used by CpuDescriptorAllocator only.
    DescriptorAllocation(detail::CpuDescriptorPage* page, D3D12_CPU_DESCRIPTOR_HANDLE first, uint32_t offset, uint32_t count,
                         uint32_t stride) noexcept
        : m_Page(page), m_Cpu(first), m_OffsetCount(uint64_t(offset) | uint64_t(count) << 32), m_Stride(stride) {}

    DescriptorAllocation(const DescriptorAllocation&) = delete;
    DescriptorAllocation& operator=(const DescriptorAllocation&) = delete;
    DescriptorAllocation(DescriptorAllocation&& o) noexcept { MoveFrom(o); }
    DescriptorAllocation& operator=(DescriptorAllocation&& o) noexcept {
        if (this != &o) {
            Free();
            MoveFrom(o);
        }
        return *this;
    }
    ~DescriptorAllocation() { Free(); }

    /// CPU handle of descriptor `i` of the range.
    /// Throws UseAfterFree when the allocation is null (never allocated, moved from or freed) and
    /// InvalidArgument when i >= Count().
    D3D12_CPU_DESCRIPTOR_HANDLE Handle(uint32_t i = 0) const;

    /// Number of descriptors in the range; 0 when null.
    uint32_t Count() const noexcept { return static_cast<uint32_t>(m_OffsetCount >> 32); }
    /// Byte stride between consecutive handles (the device's descriptor increment); 0 when null.
    uint32_t DescriptorSize() const noexcept { return m_Stride; }
    /// Index of the first descriptor inside its page (diagnostics and tests).
    uint32_t PageOffset() const noexcept { return static_cast<uint32_t>(m_OffsetCount); }
    bool IsNull() const noexcept { return m_Page == nullptr; }
    explicit operator bool() const noexcept { return m_Page != nullptr; }

    /// Deferred free, tagged with the device's current submission serial; the allocation becomes
    /// null. Does nothing on a null allocation.
    void Free() noexcept {
        if (m_Page) {
            detail::FreeCpuDescriptors(m_Page, PageOffset(), Count());
            Reset();
        }
    }

private:
    void Reset() noexcept {
        m_Page = nullptr;
        m_Cpu.ptr = 0;
        m_OffsetCount = 0;
        m_Stride = 0;
    }
    void MoveFrom(DescriptorAllocation& o) noexcept {
        m_Page = o.m_Page;
        m_Cpu = o.m_Cpu;
        m_OffsetCount = o.m_OffsetCount;
        m_Stride = o.m_Stride;
        o.Reset();
    }

    detail::CpuDescriptorPage* m_Page = nullptr;  ///< Owning page; null when the allocation is null.
    D3D12_CPU_DESCRIPTOR_HANDLE m_Cpu{0};         ///< Handle(0).
    /// First slot inside the page (low 32 bits) and count (high 32 bits), kept in one word so
    /// that the constructor's store and a move's load have the same width: two 32-bit stores
    /// read back by one 64-bit load (what compilers emit for the move) defeat store-to-load
    /// forwarding and cost a ~10-cycle stall on every `v.push_back(allocator.Allocate(1))`.
    uint64_t m_OffsetCount = 0;
    uint32_t m_Stride = 0;
};

}  // namespace dx12kit
