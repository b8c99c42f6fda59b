// OffsetHashMap: offset -> block index, for allocators whose space is too large for a table
// indexed by offset (TlsfAllocator manages up to 2^40 units).
//
// Open addressing with linear probing and Fibonacci hashing; deletion shifts the following
// entries back instead of leaving tombstones, so probe chains never degrade. Key and value share
// one 16-byte slot: a lookup usually touches a single cache line.
//
//   slots:  [k=4096 v=7][  empty   ][k=0 v=1][k=8192 v=3][  empty   ] ...
//           home(k) = (k * 0x9E3779B97F4A7C15) >> (64 - log2(slot count))
//
// The table doubles when it is half full and never shrinks (no allocation in steady state).
// Ownership: owns its slot array. Thread-safety: none. Complexity: O(1) expected per operation.
#pragma once

#include <cstdint>
#include <vector>

namespace dx12kit::alloc::detail {

class OffsetHashMap {
public:
    static constexpr uint64_t kEmpty = ~uint64_t(0);  // never a valid offset
    static constexpr uint32_t kMissing = ~0u;

    OffsetHashMap() { Rehash(64); }

    /// The value stored for `key`, or kMissing.
    uint32_t Find(uint64_t key) const noexcept {
        for (uint64_t i = Home(key);; i = (i + 1) & m_Mask) {
            const Slot& s = m_Slots[i];
            if (s.key == key) return s.value;
            if (s.key == kEmpty) return kMissing;
        }
    }

    /// `key` must not be present.
    void Insert(uint64_t key, uint32_t value) {
        if (2 * (m_Count + 1) > m_Slots.size()) Rehash(2 * m_Slots.size());
        uint64_t i = Home(key);
        while (m_Slots[i].key != kEmpty) i = (i + 1) & m_Mask;
        m_Slots[i] = Slot{key, value, 0};
        ++m_Count;
    }

    /// Removes `key`; returns false if it was not present.
    bool Erase(uint64_t key) noexcept {
        uint64_t i = Home(key);
        for (;; i = (i + 1) & m_Mask) {
            if (m_Slots[i].key == key) break;
            if (m_Slots[i].key == kEmpty) return false;
        }
        // Backward shift: pull later entries of the chain into the hole when their home allows.
        for (uint64_t j = (i + 1) & m_Mask;; j = (j + 1) & m_Mask) {
            uint64_t k = m_Slots[j].key;
            if (k == kEmpty) break;
            if (((j - Home(k)) & m_Mask) >= ((j - i) & m_Mask)) {
                m_Slots[i] = m_Slots[j];
                i = j;
            }
        }
        m_Slots[i].key = kEmpty;
        --m_Count;
        return true;
    }

    void Clear() noexcept {
        for (Slot& s : m_Slots) s.key = kEmpty;
        m_Count = 0;
    }

    size_t Size() const noexcept { return m_Count; }

    template <class F>
    void ForEach(F&& f) const {
        for (const Slot& s : m_Slots)
            if (s.key != kEmpty) f(s.key, s.value);
    }

private:
    struct Slot {
        uint64_t key;
        uint32_t value;
        uint32_t pad;
    };

    uint64_t Home(uint64_t key) const noexcept {
        return (key * 0x9E3779B97F4A7C15ull) >> m_Shift;
    }

    void Rehash(size_t slotCount) {
        std::vector<Slot> old;
        old.swap(m_Slots);
        m_Slots.assign(slotCount, Slot{kEmpty, 0, 0});
        m_Mask = slotCount - 1;
        m_Shift = 64;
        for (size_t n = slotCount; n > 1; n >>= 1) --m_Shift;
        m_Count = 0;
        for (const Slot& s : old)
            if (s.key != kEmpty) Insert(s.key, s.value);
    }

    std::vector<Slot> m_Slots;
    uint64_t m_Mask = 0;
    uint32_t m_Shift = 64;
    size_t m_Count = 0;
};

}  // namespace dx12kit::alloc::detail
