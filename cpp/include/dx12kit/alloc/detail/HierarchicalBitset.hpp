// HierarchicalBitset: a bitset with summary levels, for "next / previous set bit" in O(levels).
//
// Level 0 holds the bits; bit w of level k+1 is set iff word w of level k is non-zero. With 64
// bits per word a query climbs at most log64(n) levels (4 for 16M bits) and climbs at all only
// when the neighbouring words are empty.
//
//   level 2            [ 0.....1 ]                 one word
//   level 1   [ 1 0 0 ... 0 1 ] ...               bit w: level-0 word w is non-zero
//   level 0   [word 0][word 1] ... [word 63][word 64] ...   the bits themselves
//
// Ownership: owns its words. Thread-safety: none. Complexity: Test O(1); Set/Clear O(1)
// amortized (they touch upper levels only when a word turns empty or non-empty); Next/Prev
// O(levels).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dx12kit/alloc/AllocatorCommon.hpp"

namespace dx12kit::alloc::detail {

class HierarchicalBitset {
public:
    static constexpr uint64_t kNone = ~uint64_t(0);

    /// Resizes to `bits` bits, all clear.
    void Reset(uint64_t bits) {
        m_Bits = bits;
        m_Levels.clear();
        uint64_t words = (bits + 63) / 64;
        do {
            m_Levels.emplace_back(words, 0);
            words = (words + 63) / 64;
        } while (m_Levels.back().size() > 1);
    }

    /// Clears every bit (keeps the size).
    void ClearAll() {
        for (auto& level : m_Levels) std::fill(level.begin(), level.end(), 0);
    }

    uint64_t Size() const noexcept { return m_Bits; }

    bool Test(uint64_t i) const noexcept { return (m_Levels[0][i >> 6] >> (i & 63)) & 1; }

    void Set(uint64_t i) noexcept {
        for (auto& level : m_Levels) {
            uint64_t& word = level[i >> 6];
            const bool wasEmpty = word == 0;
            word |= uint64_t(1) << (i & 63);
            if (!wasEmpty) return;
            i >>= 6;
        }
    }

    void Clear(uint64_t i) noexcept {
        for (auto& level : m_Levels) {
            uint64_t& word = level[i >> 6];
            word &= ~(uint64_t(1) << (i & 63));
            if (word != 0) return;
            i >>= 6;
        }
    }

    /// Smallest set bit >= i, or kNone.
    uint64_t Next(uint64_t i) const noexcept {
        if (i >= m_Bits) return kNone;
        const uint64_t* w0 = m_Levels[0].data();
        uint64_t bits = w0[i >> 6] & (~uint64_t(0) << (i & 63));
        if (DX12KIT_LIKELY(bits != 0)) return (i & ~uint64_t(63)) | LowestBit(bits);
        uint64_t idx = (i >> 6) + 1;  // first level-k item still to look at
        for (size_t k = 1; k < m_Levels.size(); ++k) {
            const auto& level = m_Levels[k];
            uint64_t w = idx >> 6;
            if (w >= level.size()) return kNone;
            bits = level[w] & (~uint64_t(0) << (idx & 63));
            if (bits) {
                idx = (w << 6) | LowestBit(bits);
                for (size_t j = k; j-- > 0;) idx = (idx << 6) | LowestBit(m_Levels[j][idx]);
                return idx;
            }
            idx = w + 1;
        }
        return kNone;
    }

    /// Largest set bit <= i, or kNone.
    uint64_t Prev(uint64_t i) const noexcept {
        if (i >= m_Bits) i = m_Bits - 1;
        const uint64_t* w0 = m_Levels[0].data();
        uint64_t bits = w0[i >> 6] & (~uint64_t(0) >> (63 - (i & 63)));
        if (DX12KIT_LIKELY(bits != 0)) return (i & ~uint64_t(63)) | HighestBit(bits);
        uint64_t idx = i >> 6;  // level-k items strictly below idx remain
        for (size_t k = 1; k < m_Levels.size(); ++k) {
            if (idx == 0) return kNone;
            --idx;
            const auto& level = m_Levels[k];
            uint64_t w = idx >> 6;
            bits = level[w] & (~uint64_t(0) >> (63 - (idx & 63)));
            if (bits) {
                idx = (w << 6) | HighestBit(bits);
                for (size_t j = k; j-- > 0;) idx = (idx << 6) | HighestBit(m_Levels[j][idx]);
                return idx;
            }
            idx = w;
        }
        return kNone;
    }

    /// True when every summary bit matches its word (for Validate).
    bool SummariesConsistent() const {
        for (size_t k = 1; k < m_Levels.size(); ++k) {
            const auto& below = m_Levels[k - 1];
            const auto& level = m_Levels[k];
            for (size_t w = 0; w < below.size(); ++w)
                if (((level[w >> 6] >> (w & 63)) & 1) != (below[w] != 0)) return false;
            for (size_t w = below.size(); w < level.size() * 64; ++w)
                if ((level[w >> 6] >> (w & 63)) & 1) return false;
        }
        return true;
    }

private:
    uint64_t m_Bits = 0;
    std::vector<std::vector<uint64_t>> m_Levels;
};

}  // namespace dx12kit::alloc::detail
