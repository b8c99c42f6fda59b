// OffsetHashMap: offset -> block index, for allocators whose space is too large for a table
// indexed by offset (TlsfAllocator manages up to 2^40 units).
//
// Open addressing with linear probing and Fibonacci hashing; deletion shifts the following
// entries back instead of leaving tombstones, so probe chains never degrade. Key and value are
// packed into one 64-bit slot: the key takes just the bits the capacity needs (41 for 2^40), the
// value the rest (MaxValue()), so the table stays small enough to live in cache.
//
//   slot:  [ value (64 - keyBits) | offset (keyBits) ]      all ones = empty
//   slots: [v7|4096][  empty  ][v1|0][v3|8192][  empty  ] ...
//   home(k) = (k * 0x9E3779B97F4A7C15) >> (64 - log2(slot count))
//
// The table doubles when it is half full and never shrinks (no allocation in steady state).
// Ownership: owns its slot array. Thread-safety: none. Complexity: O(1) expected per operation.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dx12kit/alloc/AllocatorCommon.hpp"

namespace dx12kit::alloc::detail {

class OffsetHashMap {
public:
    static constexpr uint64_t kEmpty = ~uint64_t(0);
    static constexpr uint32_t kMissing = ~0u;

    /// Keys are offsets < capacity.
    explicit OffsetHashMap(uint64_t capacity = 1) {
        m_KeyBits = capacity <= 1 ? 1 : HighestBit(capacity) + 1;  // all-ones key never occurs
        m_KeyMask = (uint64_t(1) << m_KeyBits) - 1;
        Rehash(64);
    }

    /// Values must be below this.
    uint64_t MaxValue() const noexcept {
        return std::min<uint64_t>(uint64_t(1) << std::min<uint32_t>(64 - m_KeyBits, 32), kMissing);
    }

    /// The value stored for `key`, or kMissing.
    uint32_t Find(uint64_t key) const noexcept {
        for (uint64_t i = Home(key);; i = (i + 1) & m_Mask) {
            const uint64_t s = m_Slots[i];
            if ((s & m_KeyMask) == key) return static_cast<uint32_t>(s >> m_KeyBits);
            if (s == kEmpty) return kMissing;
        }
    }

    /// `key` must not be present; value < MaxValue().
    void Insert(uint64_t key, uint32_t value) {
        if (2 * (m_Count + 1) > m_Slots.size()) Rehash(2 * m_Slots.size());
        uint64_t i = Home(key);
        while (m_Slots[i] != kEmpty) i = (i + 1) & m_Mask;
        m_Slots[i] = key | (uint64_t(value) << m_KeyBits);
        ++m_Count;
    }

    /// Removes `key`; returns false if it was not present.
    bool Erase(uint64_t key) noexcept {
        uint64_t i = Home(key);
        for (;; i = (i + 1) & m_Mask) {
            if ((m_Slots[i] & m_KeyMask) == key) break;
            if (m_Slots[i] == kEmpty) return false;
        }
        // Backward shift: pull later entries of the chain into the hole when their home allows.
        for (uint64_t j = (i + 1) & m_Mask;; j = (j + 1) & m_Mask) {
            const uint64_t s = m_Slots[j];
            if (s == kEmpty) break;
            if (((j - Home(s & m_KeyMask)) & m_Mask) >= ((j - i) & m_Mask)) {
                m_Slots[i] = s;
                i = j;
            }
        }
        m_Slots[i] = kEmpty;
        --m_Count;
        return true;
    }

    void Clear() noexcept {
        std::fill(m_Slots.begin(), m_Slots.end(), kEmpty);
        m_Count = 0;
    }

    size_t Size() const noexcept { return m_Count; }

private:
    uint64_t Home(uint64_t key) const noexcept {
        return (key * 0x9E3779B97F4A7C15ull) >> m_Shift;
    }

    void Rehash(size_t slotCount) {
        std::vector<uint64_t> old;
        old.swap(m_Slots);
        m_Slots.assign(slotCount, kEmpty);
        m_Mask = slotCount - 1;
        m_Shift = 64;
        for (size_t n = slotCount; n > 1; n >>= 1) --m_Shift;
        m_Count = 0;
        for (uint64_t s : old)
            if (s != kEmpty) Insert(s & m_KeyMask, static_cast<uint32_t>(s >> m_KeyBits));
    }

    uint32_t m_KeyBits = 1;
    uint64_t m_KeyMask = 1;
    std::vector<uint64_t> m_Slots;
    uint64_t m_Mask = 0;
    uint32_t m_Shift = 64;
    size_t m_Count = 0;
};

}  // namespace dx12kit::alloc::detail
