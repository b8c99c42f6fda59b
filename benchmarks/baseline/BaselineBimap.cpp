// BaselineBimap: see the header.
#include "BaselineBimap.hpp"

#include <iterator>
#include <string>

namespace dx12kit::bench {

using alloc::kInvalidOffset;

BaselineBimap::BaselineBimap(uint64_t capacity) : m_Capacity(capacity) {
    if (capacity == 0) throw InvalidArgument("BaselineBimap: capacity must be >= 1");
    Reset();
}

void BaselineBimap::InsertFree(uint64_t offset, uint64_t size) {
    m_ByOffset.emplace(offset, size);
    m_BySize.emplace(size, offset);
}

uint64_t BaselineBimap::Allocate(uint64_t size, uint64_t alignment) {
    alloc::detail::CheckAllocateArgs("BaselineBimap::Allocate", size, alignment, m_Capacity);
    alignment = alloc::detail::ClampAlignment(alignment, m_Capacity);
    for (auto it = m_BySize.lower_bound({size, 0}); it != m_BySize.end(); ++it) {
        const auto [blockSize, blockOffset] = *it;
        const uint64_t offset = alloc::detail::AlignUp(blockOffset, alignment);
        if (offset + size > blockOffset + blockSize) continue;
        m_BySize.erase(it);
        m_ByOffset.erase(blockOffset);
        if (offset > blockOffset) InsertFree(blockOffset, offset - blockOffset);
        if (offset + size < blockOffset + blockSize)
            InsertFree(offset + size, blockOffset + blockSize - offset - size);
        m_Allocated.emplace(offset, size);
        m_Used += size;
        return offset;
    }
    return kInvalidOffset;
}

uint64_t BaselineBimap::CheckFreeable(const char* who, uint64_t offset) const {
    auto it = m_Allocated.find(offset);
    if (it != m_Allocated.end()) return it->second;
    std::string at = std::string(who) + ": offset " + std::to_string(offset);
    if (m_Pending.count(offset)) throw InvalidArgument(at + " was already passed to FreeDeferred (double free)");
    throw InvalidArgument(at + " is not the start of a live allocation");
}

void BaselineBimap::Free(uint64_t offset) {
    uint64_t size = CheckFreeable("BaselineBimap::Free", offset);
    m_Allocated.erase(offset);
    FreeRange(offset, size);
}

void BaselineBimap::FreeDeferred(uint64_t offset, uint64_t fenceValue) {
    uint64_t size = CheckFreeable("BaselineBimap::FreeDeferred", offset);
    m_Allocated.erase(offset);
    m_Pending.emplace(offset, size);
    m_Deferred.Push(fenceValue, offset, size);
}

void BaselineBimap::ReleaseStale(uint64_t completedValue) {
    m_Deferred.PopReady(completedValue, [this](uint64_t offset, uint64_t size) {
        m_Pending.erase(offset);
        FreeRange(offset, size);
    });
}

void BaselineBimap::FreeRange(uint64_t offset, uint64_t size) {
    m_Used -= size;
    auto next = m_ByOffset.lower_bound(offset);
    if (next != m_ByOffset.end() && next->first == offset + size) {
        size += next->second;
        m_BySize.erase({next->second, next->first});
        next = m_ByOffset.erase(next);
    }
    if (next != m_ByOffset.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == offset) {
            offset = prev->first;
            size += prev->second;
            m_BySize.erase({prev->second, prev->first});
            m_ByOffset.erase(prev);
        }
    }
    InsertFree(offset, size);
}

void BaselineBimap::Reset() {
    m_ByOffset.clear();
    m_BySize.clear();
    m_Allocated.clear();
    m_Pending.clear();
    m_Deferred.Clear();
    m_Used = 0;
    InsertFree(0, m_Capacity);
}

alloc::AllocatorStats BaselineBimap::GetStats() const {
    uint64_t largest = m_BySize.empty() ? 0 : m_BySize.rbegin()->first;
    return alloc::AllocatorStats{m_Capacity, m_Used, m_Capacity - m_Used, m_ByOffset.size(),
                                 largest, m_Allocated.size() + m_Pending.size()};
}

std::vector<BaselineBimap::BlockInfo> BaselineBimap::CalculateBlocks() const {
    std::map<uint64_t, BlockInfo> all;
    for (auto [o, s] : m_ByOffset) all[o] = BlockInfo{o, s, 0};
    for (auto [o, s] : m_Allocated) all[o] = BlockInfo{o, s, 1};
    for (auto [o, s] : m_Pending) all[o] = BlockInfo{o, s, 2};
    std::vector<BlockInfo> blocks;
    for (auto& [o, b] : all) blocks.push_back(b);
    return blocks;
}

void BaselineBimap::Validate() const {
    auto broken = [](const std::string& what) { throw Error("BaselineBimap::Validate: " + what); };
    uint64_t offset = 0;
    bool prevFree = false;
    for (const BlockInfo& b : CalculateBlocks()) {
        if (b.offset != offset) broken("blocks do not tile the space at " + std::to_string(offset));
        if (b.state == 0 && prevFree) broken("two adjacent free blocks");
        prevFree = b.state == 0;
        offset += b.size;
    }
    if (offset != m_Capacity) broken("blocks do not end at the capacity");
    if (m_BySize.size() != m_ByOffset.size()) broken("the two indexes differ in size");
    for (auto [o, s] : m_ByOffset)
        if (!m_BySize.count({s, o})) broken("size index misses a free block");
    if (m_Pending.size() != m_Deferred.Size()) broken("pending map and queue disagree");
}

}  // namespace dx12kit::bench
