// FreeListAllocator: see the header for the data structures and the policy.
#include "dx12kit/alloc/FreeListAllocator.hpp"

#include <algorithm>
#include <string>

namespace dx12kit::alloc {

namespace {

// ---- 4-ary min-heap of uint32 offsets ------------------------------------------------------
// Four children share a cache line far more often than two, and the tree is half as high as a
// binary heap. The array always ends with four kHeapPad entries past the live ones, so every
// group of children is complete: the descent in HeapPop needs no bounds test per child, and the
// minimum of four is computed without branches (offsets are < 2^32 - 1, below the padding).

constexpr uint32_t kHeapPad = ~0u;

// Places `value` at hole `i` or above it, moving larger parents down (4-ary heap).
inline void SiftUp(uint32_t* d, size_t i, uint32_t value) {
    while (i > 0) {
        size_t parent = (i - 1) >> 2;
        if (d[parent] <= value) break;
        d[i] = d[parent];
        i = parent;
    }
    d[i] = value;
}

inline void HeapPush(std::vector<uint32_t>& h, uint32_t& size, uint32_t value) {
    if (h.size() < size_t(size) + 5) h.resize(std::max<size_t>(2 * h.size(), 16), kHeapPad);
    SiftUp(h.data(), size++, value);
}

// Bottom-up pop: walk the hole from the root to the bottom along the smallest children (a loop
// whose trip count is the heap height, so it predicts well), then let the former last element
// rise from there. It rarely rises: it came from the bottom.
inline void HeapPop(std::vector<uint32_t>& h, uint32_t& size) {
    uint32_t* d = h.data();
    const size_t n = --size;
    const uint32_t value = d[n];
    d[n] = kHeapPad;
    if (n == 0) return;
    size_t i = 0;
    for (size_t c = 1; c < n; c = 4 * i + 1) {
        size_t b1 = c + (d[c + 1] < d[c]);
        size_t b2 = c + 2 + (d[c + 3] < d[c + 2]);
        size_t best = DX12KIT_UNPREDICTABLE(d[b2] < d[b1]) ? b2 : b1;  // a cmov, not a branch
        d[i] = d[best];
        i = best;
    }
    SiftUp(d, i, value);
}

inline bool IsHeap(const std::vector<uint32_t>& h, uint32_t size) {
    if (size == 0) return true;
    if (h.size() < size_t(size) + 4) return false;
    for (size_t i = 1; i < size; ++i)
        if (h[(i - 1) >> 2] > h[i]) return false;
    for (size_t i = size; i < h.size(); ++i)
        if (h[i] != kHeapPad) return false;
    return true;
}

[[noreturn]] void Broken(const std::string& what) {
    throw Error("FreeListAllocator::Validate: " + what);
}

}  // namespace

FreeListAllocator::FreeListAllocator(uint64_t capacity, uint32_t bitmapBins)
    : m_Capacity(capacity), m_Pool(std::make_unique<std::pmr::unsynchronized_pool_resource>()), m_Large(m_Pool.get()) {
    if (capacity == 0 || capacity > kMaxCapacity)
        throw InvalidArgument("FreeListAllocator: capacity " + std::to_string(capacity) + " is out of range 1.." + std::to_string(kMaxCapacity));
    m_NumBins = static_cast<uint32_t>(std::min<uint64_t>(kSmallBins, capacity + 1));
    m_Words.assign(capacity / 64 + 2, Word{0, 0});  // + a padding word (see NextStart)
    m_WordIndex.Reset(m_Words.size() - 1);
    m_Pending.assign(capacity / 64 + 1, 0);
    m_BinCounts.assign(m_NumBins, 0);
    // Bitmap bins cost a few words plus one bit per 64 units each. Budget: two bits per unit of
    // capacity, at least 16 Kibit and at most 2^23 bits (1 MiB); none beyond the three-level
    // bitset's 2^18 words (2^24 units).
    const uint64_t words = m_Words.size() - 1;
    m_BinBitsLayout = detail::Bitset3Layout(words);
    if (bitmapBins == kAutoBitmapBins) {
        const uint64_t budget = std::clamp<uint64_t>(2 * capacity, uint64_t(1) << 14, uint64_t(1) << 23);
        bitmapBins = static_cast<uint32_t>(std::min<uint64_t>(m_NumBins, budget / (64 * m_BinBitsLayout.Stride())));
    }
    if (words > detail::Bitset3Layout::kMaxBits) bitmapBins = 0;
    m_BitmapBins = std::min(bitmapBins, m_NumBins);
    m_BinBits.assign(m_BitmapBins * m_BinBitsLayout.Stride(), 0);
    m_Heaps.resize(m_NumBins - m_BitmapBins);
    Reset();
}

// ---- block starts ------------------------------------------------------------------------------

DX12KIT_FORCEINLINE void FreeListAllocator::SetStart(uint64_t offset) noexcept {
    uint64_t& word = m_Words[offset >> 6].starts;
    if (!word) m_WordIndex.Set(offset >> 6);
    word |= uint64_t(1) << (offset & 63);
}

DX12KIT_FORCEINLINE void FreeListAllocator::ClearStart(uint64_t offset) noexcept {
    uint64_t& word = m_Words[offset >> 6].starts;
    word &= ~(uint64_t(1) << (offset & 63));
    if (!word) m_WordIndex.Clear(offset >> 6);
}

// Most blocks are short: a 64-unit window starting at `offset`, read from two words, holds the
// next start, and one branch (rarely taken) covers longer blocks. m_Words ends with a padding
// word, so words[w + 1] always exists.
DX12KIT_FORCEINLINE uint64_t FreeListAllocator::NextStart(uint64_t offset) const noexcept {
    const uint64_t w = offset >> 6, sh = offset & 63;
    const uint64_t window = (m_Words[w].starts >> sh) | ((m_Words[w + 1].starts << 1) << (63 - sh));
    if (DX12KIT_LIKELY(window)) return offset + detail::LowestBit(window);
    // Beyond the window: the rest of word w + 1, then the word index.
    const uint64_t rest = m_Words[w + 1].starts & (~uint64_t(0) << sh);
    if (rest) return ((w + 1) << 6) | detail::LowestBit(rest);
    const uint64_t next = m_WordIndex.Next(w + 2);  // the sentinel guarantees a hit
    return (next << 6) | detail::LowestBit(m_Words[next].starts);
}

// The mirror image: a window of the 64 units ending at `offset`. offset > 0 here, and block 0
// always starts at 0, so a start exists at or below offset.
DX12KIT_FORCEINLINE uint64_t FreeListAllocator::PrevStart(uint64_t offset) const noexcept {
    const uint64_t w = offset >> 6, sh = offset & 63;
    const uint64_t below = w ? m_Words[w - 1].starts : 0;
    const uint64_t window = (m_Words[w].starts << (63 - sh)) | ((below >> 1) >> sh);
    if (DX12KIT_LIKELY(window)) return offset - 63 + detail::HighestBit(window);
    const uint64_t rest = below & (~uint64_t(0) >> (63 - sh));  // w > 0 here
    if (rest) return ((w - 1) << 6) | detail::HighestBit(rest);
    const uint64_t prev = m_WordIndex.Prev(w - 2);
    return (prev << 6) | detail::HighestBit(m_Words[prev].starts);
}

// ---- size index -----------------------------------------------------------------------------

// First non-empty bin >= minSize (minSize < m_NumBins), or kNoBin.
DX12KIT_FORCEINLINE uint32_t FreeListAllocator::FindBin(uint64_t minSize) const noexcept {
    uint32_t w = static_cast<uint32_t>(minSize >> 6);
    uint64_t bits = m_BinWords[w] & (~uint64_t(0) << (minSize & 63));
    if (bits) return (w << 6) | detail::LowestBit(bits);
    if (w == kSmallBins / 64 - 1) return kNoBin;
    uint64_t words = m_BinSummary & (~uint64_t(0) << (w + 1));
    if (!words) return kNoBin;
    w = detail::LowestBit(words);
    return (w << 6) | detail::LowestBit(m_BinWords[w]);
}

// Whether a heap entry still names a free block of the bin's size.
DX12KIT_FORCEINLINE bool FreeListAllocator::IsLiveEntry(uint32_t offset, uint32_t bin) const noexcept {
    return IsFree(offset) && NextStart(uint64_t(offset) + 1) == uint64_t(offset) + bin;
}

// The lowest block of a non-empty bitmap bin: the first word that may hold one, checked block by
// block; words without one lose their bit. The caller takes the block, so the word loses its bit
// at once unless it holds a second block of the size.
DX12KIT_FORCEINLINE uint32_t FreeListAllocator::LowestInBitmapBin(uint32_t bin) {
    uint64_t* bits = BinBits(bin);
    for (;;) {
        const uint64_t w = m_BinBitsLayout.First(bits);
        for (uint64_t cand = m_Words[w].free; cand; cand &= cand - 1) {
            uint64_t offset = (w << 6) | detail::LowestBit(cand);
            if (BlockSize(offset) != bin) continue;
            for (uint64_t rest = cand & (cand - 1); rest; rest &= rest - 1)
                if (BlockSize((w << 6) | detail::LowestBit(rest)) == bin) return static_cast<uint32_t>(offset);
            m_BinBitsLayout.Clear(bits, w);
            return static_cast<uint32_t>(offset);
        }
        m_BinBitsLayout.Clear(bits, w);
    }
}

// Takes the lowest block of a non-empty bin out of its heap or bitmap; the caller calls RemoveFree.
DX12KIT_FORCEINLINE uint32_t FreeListAllocator::PopLowest(uint32_t bin) {
    if (bin < m_BitmapBins) return LowestInBitmapBin(bin);
    HeapBin& b = m_Heaps[bin - m_BitmapBins];
    for (;;) {
        uint32_t offset = b.heap[0];
        HeapPop(b.heap, b.size);
        if (IsLiveEntry(offset, bin)) return offset;
    }
}

DX12KIT_FORCEINLINE void FreeListAllocator::InsertFree(uint64_t offset, uint64_t size) {
    if (size < m_NumBins) {
        ++m_BinCounts[size];
        m_BinWords[size >> 6] |= uint64_t(1) << (size & 63);  // idempotent: no branch needed
        m_BinSummary |= uint64_t(1) << (size >> 6);
        if (size < m_BitmapBins) {
            m_BinBitsLayout.Set(BinBits(static_cast<uint32_t>(size)), offset >> 6);
        } else {
            HeapBin& bin = m_Heaps[size - m_BitmapBins];
            HeapPush(bin.heap, bin.size, static_cast<uint32_t>(offset));
            if (DX12KIT_UNLIKELY(bin.size > 2 * m_BinCounts[size] + 32)) CompactBin(static_cast<uint32_t>(size));
        }
    } else {
        m_Large.insert((size << 32) | offset);
    }
}

// The block's heap entry stays behind and goes stale once the caller changes the bits.
DX12KIT_FORCEINLINE void FreeListAllocator::RemoveFree(uint64_t offset, uint64_t size) {
    if (size < m_NumBins) {
        const uint64_t empty = --m_BinCounts[size] == 0;
        uint64_t& word = m_BinWords[size >> 6];
        word &= ~(empty << (size & 63));
        m_BinSummary &= ~(uint64_t(word == 0) << (size >> 6));
        if (size >= m_BitmapBins && empty) {  // bitmap bins keep their stale bits for later
            HeapBin& bin = m_Heaps[size - m_BitmapBins];
            std::fill_n(bin.heap.begin(), bin.size, kHeapPad);
            bin.size = 0;
        }
    } else {
        m_Large.erase((size << 32) | offset);
    }
}

// Keeps only live entries, each once. A sorted array is a valid min-heap.
void FreeListAllocator::CompactBin(uint32_t binIndex) {
    HeapBin& bin = m_Heaps[binIndex - m_BitmapBins];
    auto& h = bin.heap;
    auto end = std::remove_if(h.begin(), h.begin() + bin.size, [&](uint32_t o) { return !IsLiveEntry(o, binIndex); });
    std::sort(h.begin(), end);
    end = std::unique(h.begin(), end);
    bin.size = static_cast<uint32_t>(end - h.begin());
    std::fill(end, h.end(), kHeapPad);
}

// ---- allocate -------------------------------------------------------------------------------

uint64_t FreeListAllocator::Allocate(uint64_t size, uint64_t alignment) {
    detail::CheckAllocateArgs("FreeListAllocator::Allocate", size, alignment, m_Capacity);
    if (alignment > 1) return AllocateAligned(size, detail::ClampAlignment(alignment, m_Capacity));
    if (size < m_NumBins) {
        uint32_t bin = FindBin(size);
        if (bin != kNoBin) {
            uint64_t offset = PopLowest(bin);
            RemoveFree(offset, bin);
            return Place(offset, bin, offset, size);
        }
        if (m_Large.empty()) return kInvalidOffset;
        auto it = m_Large.begin();
        uint64_t key = *it;
        m_Large.erase(it);
        return Place(key & 0xFFFFFFFFu, key >> 32, key & 0xFFFFFFFFu, size);
    }
    auto it = m_Large.lower_bound(size << 32);
    if (it == m_Large.end()) return kInvalidOffset;
    uint64_t key = *it;
    m_Large.erase(it);
    return Place(key & 0xFFFFFFFFu, key >> 32, key & 0xFFFFFFFFu, size);
}

// Exact best fit with alignment: blocks of size >= size + alignment - 1 always fit; smaller ones
// fit only if their offset is suitably aligned, so their bins are scanned in (size, offset)
// order until a fit.
uint64_t FreeListAllocator::AllocateAligned(uint64_t size, uint64_t alignment) {
    const uint64_t alwaysFits = size + alignment - 1;
    auto fits = [&](uint64_t offset, uint64_t blockSize) { return detail::AlignUp(offset, alignment) - offset <= blockSize - size; };
    if (size < m_NumBins) {
        for (uint32_t bin = FindBin(size); bin != kNoBin; bin = bin + 1 < m_NumBins ? FindBin(bin + 1) : kNoBin) {
            if (bin >= alwaysFits) {
                uint64_t offset = PopLowest(bin);
                RemoveFree(offset, bin);
                return Place(offset, bin, detail::AlignUp(offset, alignment), size);
            }
            uint64_t best = kInvalidOffset;
            if (bin < m_BitmapBins) {  // words in address order: the first fit is the lowest
                uint64_t* bits = BinBits(bin);
                for (uint64_t w = m_BinBitsLayout.First(bits); w != detail::HierarchicalBitset::kNone && best == kInvalidOffset;
                     w = m_BinBitsLayout.Next(bits, w + 1)) {
                    bool any = false;
                    for (uint64_t cand = m_Words[w].free; cand; cand &= cand - 1) {
                        uint64_t offset = (w << 6) | detail::LowestBit(cand);
                        if (BlockSize(offset) != bin) continue;
                        any = true;
                        if (fits(offset, bin)) {
                            best = offset;
                            break;
                        }
                    }
                    if (!any) m_BinBitsLayout.Clear(bits, w);
                }
            } else {
                const HeapBin& b = m_Heaps[bin - m_BitmapBins];
                for (uint32_t k = 0; k < b.size; ++k)
                    if (uint32_t offset = b.heap[k]; offset < best && fits(offset, bin) && IsLiveEntry(offset, bin)) best = offset;
            }
            if (best != kInvalidOffset) {
                RemoveFree(best, bin);  // lazily: its heap entry goes stale with the new bits
                return Place(best, bin, detail::AlignUp(best, alignment), size);
            }
        }
    }
    auto it = size < m_NumBins ? m_Large.begin() : m_Large.lower_bound(size << 32);
    for (; it != m_Large.end(); ++it) {
        uint64_t blockSize = *it >> 32, offset = *it & 0xFFFFFFFFu;
        if (blockSize >= alwaysFits || fits(offset, blockSize)) {
            m_Large.erase(it);
            return Place(offset, blockSize, detail::AlignUp(offset, alignment), size);
        }
    }
    return kInvalidOffset;
}

// Carves [offset, offset + size) out of the free block [blockOffset, blockOffset + blockSize),
// already removed from the size index; the parts before and after it become free blocks.
DX12KIT_FORCEINLINE uint64_t FreeListAllocator::Place(uint64_t blockOffset, uint64_t blockSize, uint64_t offset, uint64_t size) {
    const uint64_t blockEnd = blockOffset + blockSize;
    const uint64_t end = offset + size;
    uint64_t pieces = 0;
    if (offset > blockOffset) {  // the padding keeps the block's start and free bits
        SetStart(offset);
        InsertFree(blockOffset, offset - blockOffset);
        ++pieces;
    } else {
        ClearFreeBit(offset);
    }
    if (end < blockEnd) {
        SetStart(end);
        SetFreeBit(end);
        InsertFree(end, blockEnd - end);
        ++pieces;
    }
    m_FreeBlocks = m_FreeBlocks - 1 + pieces;
    m_Used += size;
    ++m_Allocations;
    return offset;
}

// ---- free -----------------------------------------------------------------------------------

DX12KIT_FORCEINLINE uint64_t FreeListAllocator::CheckFreeable(const char* who, uint64_t offset) const {
    if (DX12KIT_LIKELY(offset < m_Capacity && IsStart(offset) && !IsFree(offset) && (m_Deferred.Empty() || !IsPending(offset))))
        return BlockSize(offset);
    ThrowNotFreeable(who, offset);
}

void FreeListAllocator::ThrowNotFreeable(const char* who, uint64_t offset) const {
    std::string at = std::string(who) + ": offset " + std::to_string(offset);
    if (offset >= m_Capacity) throw InvalidArgument(at + " is outside the capacity " + std::to_string(m_Capacity));
    if (!IsStart(offset)) throw InvalidArgument(at + " is not the start of an allocation");
    if (IsFree(offset)) throw InvalidArgument(at + " is free (double free?)");
    throw InvalidArgument(at + " was already passed to FreeDeferred (double free)");
}

void FreeListAllocator::Free(uint64_t offset) {
    uint64_t size = CheckFreeable("FreeListAllocator::Free", offset);
    FreeBlock(offset, size);
}

void FreeListAllocator::FreeDeferred(uint64_t offset, uint64_t fenceValue) {
    uint64_t size = CheckFreeable("FreeListAllocator::FreeDeferred", offset);
    m_Deferred.Push(fenceValue, offset, size);
    m_Pending[offset >> 6] |= uint64_t(1) << (offset & 63);
}

void FreeListAllocator::ReleaseStale(uint64_t completedValue) {
    m_Deferred.PopReady(completedValue, [this](uint64_t offset, uint64_t size) {
        m_Pending[offset >> 6] &= ~(uint64_t(1) << (offset & 63));
        FreeBlock(offset, size);
    });
}

DX12KIT_FORCEINLINE void FreeListAllocator::FreeBlock(uint64_t offset, uint64_t size) {
    uint64_t start = offset, end = offset + size;
    uint64_t merged = 0;
    if (end < m_Capacity && IsFree(end)) {
        uint64_t nextSize = BlockSize(end);
        RemoveFree(end, nextSize);
        ClearStart(end);
        ClearFreeBit(end);
        end += nextSize;
        ++merged;
    }
    if (offset > 0) {
        uint64_t prev = PrevStart(offset - 1);
        if (IsFree(prev)) {
            RemoveFree(prev, offset - prev);
            ClearStart(offset);
            start = prev;
            ++merged;
        }
    }
    if (start == offset) SetFreeBit(offset);
    InsertFree(start, end - start);
    m_FreeBlocks = m_FreeBlocks + 1 - merged;
    m_Used -= size;
    --m_Allocations;
}

// ---- whole-state operations -------------------------------------------------------------------

void FreeListAllocator::ClearIndex() {
    for (HeapBin& bin : m_Heaps) {
        std::fill(bin.heap.begin(), bin.heap.end(), kHeapPad);
        bin.size = 0;
    }
    std::fill(m_BinCounts.begin(), m_BinCounts.end(), 0);
    std::fill(m_BinBits.begin(), m_BinBits.end(), 0);
    std::fill(std::begin(m_BinWords), std::end(m_BinWords), 0);
    m_BinSummary = 0;
    m_Large.clear();
}

void FreeListAllocator::Reset() {
    ClearIndex();
    m_Deferred.Clear();
    std::fill(m_Words.begin(), m_Words.end(), Word{0, 0});
    m_WordIndex.ClearAll();
    std::fill(m_Pending.begin(), m_Pending.end(), 0);
    SetStart(0);
    SetStart(m_Capacity);  // sentinel: every block has a next start
    SetFreeBit(0);
    InsertFree(0, m_Capacity);
    m_FreeBlocks = 1;
    m_Used = 0;
    m_Allocations = 0;
}

AllocatorStats FreeListAllocator::GetStats() const noexcept {
    uint64_t largest = 0;
    if (!m_Large.empty()) {
        largest = *m_Large.rbegin() >> 32;
    } else if (m_BinSummary) {
        uint32_t w = detail::HighestBit(m_BinSummary);
        largest = (uint64_t(w) << 6) | detail::HighestBit(m_BinWords[w]);
    }
    return AllocatorStats{m_Capacity, m_Used, m_Capacity - m_Used, m_FreeBlocks, largest, m_Allocations};
}

std::vector<FreeListAllocator::BlockInfo> FreeListAllocator::CalculateBlocks() const {
    std::vector<BlockInfo> blocks;
    for (uint64_t offset = 0; offset < m_Capacity;) {
        uint64_t next = NextStart(offset + 1);
        if (next > m_Capacity) Broken("the block at " + std::to_string(offset) + " has no end (sentinel bit lost)");
        uint32_t state = IsFree(offset) ? 0 : IsPending(offset) ? 2 : 1;
        blocks.push_back(BlockInfo{offset, next - offset, state});
        offset = next;
    }
    return blocks;
}

void FreeListAllocator::Validate() const {
    const uint64_t words = m_Capacity / 64 + 1;  // m_Words has one more, the padding word
    if (m_Words.size() != words + 1 || !IsStart(0) || !IsStart(m_Capacity)) Broken("the start bits lost the first block or the sentinel");
    const Word& last = m_Words[words - 1];
    if ((last.starts >> (m_Capacity & 63)) > 1 || (last.free >> (m_Capacity & 63)) != 0 || m_Words[words].starts != 0 || m_Words[words].free != 0)
        Broken("start or free bits past the sentinel");
    if (!m_WordIndex.SummariesConsistent()) Broken("word index summary levels are inconsistent");
    for (uint64_t w = 0; w < words; ++w)
        if (m_WordIndex.Test(w) != (m_Words[w].starts != 0)) Broken("word index disagrees with word " + std::to_string(w));
    std::vector<BlockInfo> blocks = CalculateBlocks();

    // Free and pending bits only on block starts, never both, none past the capacity.
    for (uint64_t w = 0; w < words; ++w) {
        for (uint64_t bits = m_Words[w].free | m_Pending[w]; bits; bits &= bits - 1) {
            uint64_t i = (w << 6) | detail::LowestBit(bits);
            if (i >= m_Capacity || !IsStart(i)) Broken("free or pending bit at " + std::to_string(i) + " is not on a block start");
        }
        if (m_Words[w].free & m_Pending[w]) Broken("a block is both free and pending");
    }

    uint64_t used = 0, allocations = 0, freeBlocks = 0, pending = 0;
    std::vector<uint32_t> binCounts(m_NumBins, 0);
    std::vector<uint64_t> large;
    bool prevFree = false;
    for (const BlockInfo& b : blocks) {
        if (b.state == 0) {
            if (prevFree) Broken("two adjacent free blocks at " + std::to_string(b.offset) + ": free blocks are not coalesced");
            ++freeBlocks;
            if (b.size < m_NumBins) ++binCounts[b.size];
            else large.push_back((b.size << 32) | b.offset);
        } else {
            used += b.size;
            ++allocations;
            if (b.state == 2) ++pending;
        }
        prevFree = b.state == 0;
    }
    if (pending != m_Deferred.Size())
        Broken("deferred queue holds " + std::to_string(m_Deferred.Size()) + " entries but " + std::to_string(pending) + " blocks are pending");
    for (const auto& e : m_Deferred.Entries())
        if (e.offset >= m_Capacity || !IsPending(e.offset) || BlockSize(e.offset) != e.size)
            Broken("deferred entry at " + std::to_string(e.offset) + " is not a pending block of its size");
    if (used != m_Used) Broken("used counter " + std::to_string(m_Used) + " != " + std::to_string(used));
    if (allocations != m_Allocations) Broken("allocation counter is wrong");
    if (freeBlocks != m_FreeBlocks) Broken("free block counter is wrong");

    uint64_t summary = 0;
    for (uint32_t s = 0; s < m_NumBins; ++s) {
        const uint32_t count = m_BinCounts[s];
        if (count != binCounts[s])
            Broken("bin " + std::to_string(s) + " counts " + std::to_string(count) + " blocks, the block walk finds " + std::to_string(binCounts[s]));
        bool bit = (m_BinWords[s >> 6] >> (s & 63)) & 1;
        if (bit != (count != 0)) Broken("bin bitmap disagrees with bin " + std::to_string(s));
        if (s < m_BitmapBins) {
            if (!m_BinBitsLayout.SummariesConsistent(BinBits(s))) Broken("bitmap bin " + std::to_string(s) + " has inconsistent summary levels");
            continue;
        }
        const HeapBin& bin = m_Heaps[s - m_BitmapBins];
        if (!IsHeap(bin.heap, bin.size)) Broken("bin " + std::to_string(s) + " is not a padded heap");
        std::vector<uint32_t> liveEntries;
        for (uint32_t k = 0; k < bin.size; ++k)
            if (uint32_t o = bin.heap[k]; o < m_Capacity && IsStart(o) && IsLiveEntry(o, s)) liveEntries.push_back(o);
        std::sort(liveEntries.begin(), liveEntries.end());
        liveEntries.erase(std::unique(liveEntries.begin(), liveEntries.end()), liveEntries.end());
        if (liveEntries.size() != count) Broken("bin " + std::to_string(s) + " does not index every free block of its size");
    }
    for (const BlockInfo& b : blocks)
        if (b.state == 0 && b.size < m_BitmapBins && !m_BinBitsLayout.Test(BinBits(static_cast<uint32_t>(b.size)), b.offset >> 6))
            Broken("bitmap bin " + std::to_string(b.size) + " lost the block at " + std::to_string(b.offset));
    for (uint32_t w = 0; w < kSmallBins / 64; ++w)
        if (m_BinWords[w]) summary |= uint64_t(1) << w;
    if (summary != m_BinSummary) Broken("bin summary bitmap is wrong");
    std::sort(large.begin(), large.end());
    if (large.size() != m_Large.size() || !std::equal(large.begin(), large.end(), m_Large.begin()))
        Broken("the large-block set differs from the free blocks of size >= " + std::to_string(m_NumBins));
}

}  // namespace dx12kit::alloc
