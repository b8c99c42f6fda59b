// LinearAllocator: the out-of-line parts (argument errors, oversize alignments, undo, checks).
#include "dx12kit/alloc/LinearAllocator.hpp"

#include <string>

namespace dx12kit::alloc {

LinearAllocator::LinearAllocator(uint64_t capacity) : m_Capacity(capacity) {
    if (capacity == 0 || capacity > kMaxCapacity)
        throw InvalidArgument("LinearAllocator: capacity " + std::to_string(capacity) + " is out of range 1..2^62");
}

uint64_t LinearAllocator::AllocateSlow(uint64_t size, uint64_t alignment) {
    detail::CheckAllocateArgs("LinearAllocator::Allocate", size, alignment, m_Capacity);
    // Valid arguments with an alignment larger than the page: only offset 0 qualifies.
    alignment = detail::ClampAlignment(alignment, m_Capacity);
    uint64_t offset = detail::AlignUp(m_Head, alignment);
    if (offset > m_Capacity - size) return kInvalidOffset;
    m_PrevHead = m_Head;
    m_Last = offset;
    m_Head = offset + size;
    ++m_Allocations;
    return offset;
}

void LinearAllocator::Free(uint64_t offset) {
    if (offset != m_Last || m_Last == kInvalidOffset) {
        std::string msg = "LinearAllocator::Free: offset " + std::to_string(offset) + " is not the most recent allocation";
        msg += m_Last == kInvalidOffset ? " (there is none to undo)" : " (" + std::to_string(m_Last) + ")";
        throw InvalidArgument(msg +
                              "; a linear page frees only its last allocation, or all "
                              "of them with Reset()");
    }
    m_Head = m_PrevHead;
    m_Last = kInvalidOffset;
    --m_Allocations;
}

void LinearAllocator::Validate() const {
    auto broken = [](const std::string& what) { throw Error("LinearAllocator::Validate: " + what); };
    if (m_Head > m_Capacity) broken("head " + std::to_string(m_Head) + " is past the capacity");
    if (m_PrevHead > m_Head) broken("the head before the last allocation is past the head");
    if (m_Last != kInvalidOffset && (m_Last < m_PrevHead || m_Last >= m_Head))
        broken("the last allocation does not lie between the previous head and the head");
    if ((m_Allocations == 0) != (m_Head == 0))
        broken("allocation count " + std::to_string(m_Allocations) + " disagrees with head " + std::to_string(m_Head));
    if (m_Allocations > m_Head) broken("more allocations than used units");
}

}  // namespace dx12kit::alloc
