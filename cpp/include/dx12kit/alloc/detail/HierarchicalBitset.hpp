// HierarchicalBitset: a bitset with summary levels, for "first / next / previous set bit" in
// O(levels).
//
// Level 0 holds the bits; bit w of level k+1 is set iff word w of level k is non-zero. With 64
// bits per word a query climbs at most log64(n) levels (4 for 16M bits) and climbs at all only
// when the neighbouring words are empty. All levels live in one array, top level last.
//
//   level 2            [ 0.....1 ]                 one word
//   level 1   [ 1 0 0 ... 0 1 ] ...               bit w: level-0 word w is non-zero
//   level 0   [word 0][word 1] ... [word 63][word 64] ...   the bits themselves
//
// Ownership: owns its words. Thread-safety: none. Complexity: Test O(1); Set/Clear O(1)
// amortized (they touch upper levels only when a word turns empty or non-empty); First, Next and
// Prev O(levels).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dx12kit/alloc/AllocatorCommon.hpp"

namespace dx12kit::alloc::detail {

class HierarchicalBitset {
public:
    static constexpr uint64_t kNone = ~uint64_t(0);
    static constexpr uint32_t kMaxLevels = 12;

    /// Resizes to `bits` bits, all clear.
    void Reset(uint64_t bits) {
        m_Bits = bits;
        m_NumLevels = 0;
        uint64_t total = 0;
        uint64_t words = (bits + 63) / 64;
        for (;;) {
            m_Start[m_NumLevels] = total;
            m_Count[m_NumLevels] = words;
            ++m_NumLevels;
            total += words;
            if (words <= 1) break;
            words = (words + 63) / 64;
        }
        m_Words.assign(total, 0);
    }

    /// Clears every bit (keeps the size).
    void ClearAll() { std::fill(m_Words.begin(), m_Words.end(), 0); }

    uint64_t Size() const noexcept { return m_Bits; }

    bool Test(uint64_t i) const noexcept { return (m_Words[i >> 6] >> (i & 63)) & 1; }

    void Set(uint64_t i) noexcept {
        uint64_t* w = m_Words.data();
        for (uint32_t k = 0;; ++k) {
            uint64_t& word = w[m_Start[k] + (i >> 6)];
            const bool wasEmpty = word == 0;
            word |= uint64_t(1) << (i & 63);
            if (!wasEmpty || k + 1 == m_NumLevels) return;
            i >>= 6;
        }
    }

    void Clear(uint64_t i) noexcept {
        uint64_t* w = m_Words.data();
        for (uint32_t k = 0;; ++k) {
            uint64_t& word = w[m_Start[k] + (i >> 6)];
            word &= ~(uint64_t(1) << (i & 63));
            if (word != 0 || k + 1 == m_NumLevels) return;
            i >>= 6;
        }
    }

    bool Empty() const noexcept { return m_Words[m_Start[m_NumLevels - 1]] == 0; }

    /// Smallest set bit; the bitset must not be empty. Top-down: one word per level.
    uint64_t First() const noexcept {
        const uint64_t* w = m_Words.data();
        uint64_t idx = 0;
        for (uint32_t k = m_NumLevels; k-- > 0;) idx = (idx << 6) | LowestBit(w[m_Start[k] + idx]);
        return idx;
    }

    /// Smallest set bit >= i, or kNone.
    uint64_t Next(uint64_t i) const noexcept {
        if (i >= m_Bits) return kNone;
        const uint64_t* w = m_Words.data();
        uint64_t bits = w[i >> 6] & (~uint64_t(0) << (i & 63));
        if (DX12KIT_LIKELY(bits != 0)) return (i & ~uint64_t(63)) | LowestBit(bits);
        uint64_t idx = (i >> 6) + 1;  // first level-k item still to look at
        for (uint32_t k = 1; k < m_NumLevels; ++k) {
            uint64_t word = idx >> 6;
            if (word >= m_Count[k]) return kNone;
            bits = w[m_Start[k] + word] & (~uint64_t(0) << (idx & 63));
            if (bits) {
                idx = (word << 6) | LowestBit(bits);
                for (uint32_t j = k; j-- > 0;) idx = (idx << 6) | LowestBit(w[m_Start[j] + idx]);
                return idx;
            }
            idx = word + 1;
        }
        return kNone;
    }

    /// Largest set bit <= i, or kNone.
    uint64_t Prev(uint64_t i) const noexcept {
        if (i >= m_Bits) i = m_Bits - 1;
        const uint64_t* w = m_Words.data();
        uint64_t bits = w[i >> 6] & (~uint64_t(0) >> (63 - (i & 63)));
        if (DX12KIT_LIKELY(bits != 0)) return (i & ~uint64_t(63)) | HighestBit(bits);
        uint64_t idx = i >> 6;  // level-k items strictly below idx remain
        for (uint32_t k = 1; k < m_NumLevels; ++k) {
            if (idx == 0) return kNone;
            --idx;
            uint64_t word = idx >> 6;
            bits = w[m_Start[k] + word] & (~uint64_t(0) >> (63 - (idx & 63)));
            if (bits) {
                idx = (word << 6) | HighestBit(bits);
                for (uint32_t j = k; j-- > 0;) idx = (idx << 6) | HighestBit(w[m_Start[j] + idx]);
                return idx;
            }
            idx = word;
        }
        return kNone;
    }

    /// True when every summary bit matches its word (for Validate).
    bool SummariesConsistent() const {
        for (uint32_t k = 1; k < m_NumLevels; ++k) {
            for (uint64_t w = 0; w < m_Count[k] * 64; ++w) {
                bool bit = (m_Words[m_Start[k] + (w >> 6)] >> (w & 63)) & 1;
                bool nonEmpty = w < m_Count[k - 1] && m_Words[m_Start[k - 1] + w] != 0;
                if (bit != nonEmpty) return false;
            }
        }
        for (uint64_t i = m_Bits; i < m_Count[0] * 64; ++i)
            if (Test(i)) return false;
        return true;
    }

private:
    uint64_t m_Bits = 0;
    uint32_t m_NumLevels = 0;
    uint64_t m_Start[kMaxLevels] = {};  // first word of each level in m_Words
    uint64_t m_Count[kMaxLevels] = {};  // words in each level
    std::vector<uint64_t> m_Words;
};

}  // namespace dx12kit::alloc::detail
