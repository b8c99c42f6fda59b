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

/// Three-level bitset of at most 2^18 bits stored in caller-provided words, for many small bitsets
/// packed in one array (FreeListAllocator's bitmap bins). Fixed depth, no loops:
///
///   base[0]                       level 2: bit j <=> level-1 word j != 0
///   base[1 .. 1 + l1Words)        level 1: bit k <=> level-0 word k != 0
///   base[1 + l1Words .. stride)   level 0: the bits
class Bitset3Layout {
public:
    static constexpr uint64_t kMaxBits = uint64_t(1) << 18;

    explicit Bitset3Layout(uint64_t bits = 64) {
        m_L0Words = (bits + 63) / 64;
        m_L1Words = (m_L0Words + 63) / 64;
    }
    uint64_t Stride() const noexcept { return 1 + m_L1Words + m_L0Words; }

    static bool Test(const uint64_t* base, uint64_t l1Words, uint64_t i) noexcept { return (base[1 + l1Words + (i >> 6)] >> (i & 63)) & 1; }
    bool Test(const uint64_t* base, uint64_t i) const noexcept { return Test(base, m_L1Words, i); }

    // Set and Clear update the summaries without branches: whether a word turns empty or
    // non-empty is data-dependent and would mispredict often.
    void Set(uint64_t* base, uint64_t i) const noexcept {
        uint64_t& w0 = base[1 + m_L1Words + (i >> 6)];
        const uint64_t wasEmpty = w0 == 0;
        w0 |= uint64_t(1) << (i & 63);
        base[1 + (i >> 12)] |= wasEmpty << ((i >> 6) & 63);
        base[0] |= wasEmpty << (i >> 12);  // a no-op when the level-1 word was already non-empty
    }

    void Clear(uint64_t* base, uint64_t i) const noexcept {
        uint64_t& w0 = base[1 + m_L1Words + (i >> 6)];
        w0 &= ~(uint64_t(1) << (i & 63));
        uint64_t& w1 = base[1 + (i >> 12)];
        w1 &= ~(uint64_t(w0 == 0) << ((i >> 6) & 63));
        base[0] &= ~(uint64_t(w1 == 0) << (i >> 12));
    }

    bool Empty(const uint64_t* base) const noexcept { return base[0] == 0; }

    /// Smallest set bit; must not be empty.
    uint64_t First(const uint64_t* base) const noexcept {
        uint64_t j = LowestBit(base[0]);
        uint64_t k = (j << 6) | LowestBit(base[1 + j]);
        return (k << 6) | LowestBit(base[1 + m_L1Words + k]);
    }

    /// Smallest set bit >= i, or HierarchicalBitset::kNone.
    uint64_t Next(const uint64_t* base, uint64_t i) const noexcept {
        uint64_t k = i >> 6;
        if (k >= m_L0Words) return HierarchicalBitset::kNone;
        uint64_t bits = base[1 + m_L1Words + k] & (~uint64_t(0) << (i & 63));
        if (bits) return (k << 6) | LowestBit(bits);
        ++k;  // next level-0 word: search level 1 from bit k
        uint64_t j = k >> 6;
        if (j < m_L1Words) {
            bits = base[1 + j] & (~uint64_t(0) << (k & 63));
            if (bits) {
                k = (j << 6) | LowestBit(bits);
                return (k << 6) | LowestBit(base[1 + m_L1Words + k]);
            }
        }
        ++j;  // next level-1 word: search level 2 from bit j
        if (j >= 64) return HierarchicalBitset::kNone;
        bits = base[0] & (~uint64_t(0) << j);
        if (!bits) return HierarchicalBitset::kNone;
        j = LowestBit(bits);
        k = (j << 6) | LowestBit(base[1 + j]);
        return (k << 6) | LowestBit(base[1 + m_L1Words + k]);
    }

    bool SummariesConsistent(const uint64_t* base) const noexcept {
        for (uint64_t k = 0; k < m_L1Words * 64; ++k) {
            bool bit = (base[1 + (k >> 6)] >> (k & 63)) & 1;
            if (bit != (k < m_L0Words && base[1 + m_L1Words + k] != 0)) return false;
        }
        for (uint64_t j = 0; j < 64; ++j) {
            bool bit = (base[0] >> j) & 1;
            if (bit != (j < m_L1Words && base[1 + j] != 0)) return false;
        }
        return true;
    }

private:
    uint64_t m_L0Words;
    uint64_t m_L1Words;
};

}  // namespace dx12kit::alloc::detail
