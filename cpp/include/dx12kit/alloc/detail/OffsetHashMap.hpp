// OffsetHashMap: offset -> block index, for allocators whose space is too large for a table
// indexed by offset (TlsfAllocator manages up to 2^40 units).
//
// Open addressing with linear probing and Fibonacci hashing. Key and value are packed into one
// 64-bit slot: the key takes just the bits the capacity needs (41 for 2^40), the value the rest
// (MaxValue()), so the table stays small enough to live in cache.
//
//   slot:  [ value (64 - keyBits) | offset (keyBits) ]      all ones = empty
//   slots: [v7|4096][  empty  ][dead|0][v3|8192][  empty  ] ...
//   home(k) = (k * 0x9E3779B97F4A7C15) >> (64 - log2(slot count))
//
// Erase leaves a tombstone that keeps its key (value all ones): allocators free and reallocate the
// same offsets all the time, and Insert revives the tombstone of its own key in place, so the
// common erase/insert pair costs no shifting. Insert otherwise takes the first tombstone of the
// chain. Live entries plus tombstones stay below half the slots: past that the table is rebuilt
// (doubled only when live entries alone need it), which drops the tombstones. Never shrinks, so
// no allocation in steady state.
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
        m_DeadValue = ~uint64_t(0) >> m_KeyBits;
        Rehash(64);
    }

    /// Values must be below this.
    uint64_t MaxValue() const noexcept { return std::min<uint64_t>((uint64_t(1) << std::min<uint32_t>(64 - m_KeyBits, 32)) - 1, kMissing); }

    /// The value stored for `key`, or kMissing.
    uint32_t Find(uint64_t key) const noexcept {
        for (uint64_t i = Home(key);; i = (i + 1) & m_Mask) {
            const uint64_t s = m_Slots[i];
            if ((s & m_KeyMask) == key) {
                uint64_t value = s >> m_KeyBits;
                return value == m_DeadValue ? kMissing : static_cast<uint32_t>(value);
            }
            if (s == kEmpty) return kMissing;
        }
    }

    /// `key` must not be present (a tombstone of it may be); value < MaxValue().
    void Insert(uint64_t key, uint32_t value) {
        const uint64_t entry = key | (uint64_t(value) << m_KeyBits);
        uint64_t tomb = kEmpty;
        uint64_t i = Home(key);
        for (;; i = (i + 1) & m_Mask) {
            const uint64_t s = m_Slots[i];
            if (s == kEmpty) break;
            if ((s >> m_KeyBits) == m_DeadValue) {
                if ((s & m_KeyMask) == key) {  // its own tombstone: revive in place
                    m_Slots[i] = entry;
                    ++m_Count;
                    --m_Dead;
                    return;
                }
                if (tomb == kEmpty) tomb = i;
            }
        }
        if (tomb != kEmpty) {
            m_Slots[tomb] = entry;
            --m_Dead;
        } else {
            if (2 * (m_Count + m_Dead + 1) > m_Slots.size()) {
                Rebuild();
                Insert(key, value);
                return;
            }
            m_Slots[i] = entry;
        }
        ++m_Count;
    }

    /// Removes `key`; returns false if it was not present.
    bool Erase(uint64_t key) noexcept {
        for (uint64_t i = Home(key);; i = (i + 1) & m_Mask) {
            const uint64_t s = m_Slots[i];
            if ((s & m_KeyMask) == key) {
                if ((s >> m_KeyBits) == m_DeadValue) return false;
                m_Slots[i] = key | (m_DeadValue << m_KeyBits);
                --m_Count;
                ++m_Dead;
                return true;
            }
            if (s == kEmpty) return false;
        }
    }

    void Clear() noexcept {
        std::fill(m_Slots.begin(), m_Slots.end(), kEmpty);
        m_Count = 0;
        m_Dead = 0;
    }

    /// Tombstones currently in the table.
    size_t Dead() const noexcept { return m_Dead; }

    size_t Size() const noexcept { return m_Count; }

private:
    uint64_t Home(uint64_t key) const noexcept { return (key * 0x9E3779B97F4A7C15ull) >> m_Shift; }

    // Drops the tombstones; doubles the table when live entries fill a quarter of it or more.
    void Rebuild() { Rehash(4 * (m_Count + 1) > m_Slots.size() ? 2 * m_Slots.size() : m_Slots.size()); }

    void Rehash(size_t slotCount) {
        std::vector<uint64_t> old;
        old.swap(m_Slots);
        m_Slots.assign(slotCount, kEmpty);
        m_Mask = slotCount - 1;
        m_Shift = 64;
        for (size_t n = slotCount; n > 1; n >>= 1) --m_Shift;
        m_Count = 0;
        m_Dead = 0;
        for (uint64_t s : old) {
            if (s == kEmpty || (s >> m_KeyBits) == m_DeadValue) continue;
            uint64_t i = Home(s & m_KeyMask);
            while (m_Slots[i] != kEmpty) i = (i + 1) & m_Mask;
            m_Slots[i] = s;
            ++m_Count;
        }
    }

    uint32_t m_KeyBits = 1;
    uint64_t m_KeyMask = 1;
    uint64_t m_DeadValue = 0;  // all-ones value field: a tombstone
    std::vector<uint64_t> m_Slots;
    uint64_t m_Mask = 0;
    uint32_t m_Shift = 64;
    size_t m_Count = 0;
    size_t m_Dead = 0;
};

}  // namespace dx12kit::alloc::detail
