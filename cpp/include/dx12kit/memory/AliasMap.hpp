// AliasMap: which resource last used each byte range of a piece of memory that several placed
// resources share (Device.allocate_memory). The state tracker asks it, at a resource's use, whether
// another resource used any of its bytes since; then D3D12 needs an aliasing barrier first
// (dx12kit/resources/D3D12Rules.hpp, rule 6).
//
//   memory  [0 ............................................. 1 MiB)
//   pieces  [0, 256K) scratch   [256K, 320K) lut   [320K, 1M) never used
//   lut re-used:   its range [256K, 320K) has one user, itself: no barrier
//   scratch used:  [0, 256K) is its own, but nothing else overlaps: no barrier
//   big [0, 1M) used: scratch and lut overlap it: barrier (before = NULL: several), then
//           pieces = [0, 1M) big
//
// Pieces are disjoint and sorted by offset; a use overwrites its whole range. A user is kept as a
// weak pointer: a resource destroyed since still counts as "another resource used these bytes"
// (its contents are gone), never as the same one. Not thread-safe: one per command list (what the
// list used), and one per MemoryRegion guarded by the device's submission mutex (what executed
// lists used); ExecuteStates copies the latter and writes it back only when an execute succeeds.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace dx12kit::memory {

class AliasMap {
public:
    struct Piece {
        uint64_t begin, end;
        const void* user;
        std::weak_ptr<void> alive;
    };
    /// What [begin, end) looks like to `user` before it uses the range.
    struct Overlap {
        bool others = false;           ///< another resource (or a destroyed one) used some of it last
        bool uncovered = false;        ///< some of it was never used (since the map started)
        std::shared_ptr<void> single;  ///< the one other (live) last user, when there is exactly one
        const void* singleUser = nullptr;
    };

    bool Empty() const { return m_Pieces.empty(); }
    const std::vector<Piece>& Pieces() const { return m_Pieces; }

    Overlap Query(const void* user, uint64_t begin, uint64_t end) const {
        Overlap o;
        uint64_t at = begin;
        int distinct = 0;
        for (auto it = FirstEndingAfter(begin); it != m_Pieces.end(); ++it) {
            const Piece& p = *it;
            if (p.begin >= end) break;
            if (p.begin > at) o.uncovered = true;
            at = p.end;
            const bool self = p.user == user && !p.alive.expired();
            if (self) continue;
            o.others = true;
            if (distinct == 0 || p.user != o.singleUser) {
                ++distinct;
                o.singleUser = p.user;
                o.single = p.alive.lock();
            }
        }
        if (at < end) o.uncovered = true;
        if (distinct != 1 || !o.single) {
            o.single.reset();
            o.singleUser = nullptr;
        }
        return o;
    }

    /// `user` is now the last user of [begin, end).
    void Use(const void* user, const std::weak_ptr<void>& alive, uint64_t begin, uint64_t end) {
        auto first = FirstEndingAfter(begin);
        auto last = first;
        while (last != m_Pieces.end() && last->begin < end) ++last;  // [first, last) overlap the range
        Piece newPiece{begin, end, user, alive};
        if (first == last) {
            m_Pieces.insert(first, std::move(newPiece));
            return;
        }
        Piece before{}, after{};
        const bool hasBefore = first->begin<begin, hasAfter = (last - 1)->end> end;
        if (hasBefore) before = Piece{first->begin, begin, first->user, first->alive};
        if (hasAfter) after = Piece{end, (last - 1)->end, (last - 1)->user, (last - 1)->alive};
        auto at = m_Pieces.erase(first, last);
        if (hasAfter) at = m_Pieces.insert(at, std::move(after));
        at = m_Pieces.insert(at, std::move(newPiece));
        if (hasBefore) m_Pieces.insert(at, std::move(before));
    }

    /// Writes every piece of `newer` over this map (a list's uses over the global record).
    void Overwrite(const AliasMap& newer) {
        for (const Piece& p : newer.m_Pieces) Use(p.user, p.alive, p.begin, p.end);
    }

private:
    // Pieces are disjoint and sorted, so their ends are sorted too.
    std::vector<Piece>::iterator FirstEndingAfter(uint64_t offset) {
        return std::upper_bound(m_Pieces.begin(), m_Pieces.end(), offset, [](uint64_t o, const Piece& p) { return o < p.end; });
    }
    std::vector<Piece>::const_iterator FirstEndingAfter(uint64_t offset) const {
        return std::upper_bound(m_Pieces.begin(), m_Pieces.end(), offset, [](uint64_t o, const Piece& p) { return o < p.end; });
    }
    std::vector<Piece> m_Pieces;
};

}  // namespace dx12kit::memory
