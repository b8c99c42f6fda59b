// TlsfAllocator: see the header for the class layout and the search order.
#include "dx12kit/alloc/TlsfAllocator.hpp"

#include <algorithm>
#include <string>

namespace dx12kit::alloc {

namespace {
[[noreturn]] void Broken(const std::string& what) {
    throw Error("TlsfAllocator::Validate: " + what);
}
}  // namespace

TlsfAllocator::TlsfAllocator(uint64_t capacity) : m_Capacity(capacity), m_Allocated(capacity) {
    if (capacity == 0 || capacity > kMaxCapacity)
        throw InvalidArgument("TlsfAllocator: capacity " + std::to_string(capacity) + " is out of range 1..2^40");
    m_MaxBlocks = std::min<uint64_t>(m_Allocated.MaxValue(), kPhysNil);
    Reset();
}

// ---- classes ----------------------------------------------------------------------------------

uint32_t TlsfAllocator::ClassOf(uint64_t size) noexcept {
    if (size < kSlCount) return static_cast<uint32_t>(size);
    uint32_t msb = detail::HighestBit(size);
    uint32_t fl = msb - (kSlBits - 1);
    uint32_t sl = static_cast<uint32_t>(size >> (msb - kSlBits)) - kSlCount;
    return fl * kSlCount + sl;
}

uint32_t TlsfAllocator::ClassAtLeast(uint64_t size) noexcept {
    if (size < 2 * kSlCount) return ClassOf(size);  // classes below 64 hold a single size
    uint32_t msb = detail::HighestBit(size);
    return ClassOf(size + (uint64_t(1) << (msb - kSlBits)) - 1);
}

uint32_t TlsfAllocator::FindNonEmpty(uint32_t cls) const noexcept {
    uint32_t fl = cls / kSlCount, sl = cls % kSlCount;
    if (fl >= kFlCount) return kNil;
    uint32_t bits = m_SlBitmap[fl] & (~0u << sl);
    if (bits) return fl * kSlCount + detail::LowestBit(bits);
    uint64_t fls = m_FlBitmap & (~uint64_t(0) << (fl + 1));
    if (!fls) return kNil;
    fl = detail::LowestBit(fls);
    return fl * kSlCount + detail::LowestBit(m_SlBitmap[fl]);
}

bool TlsfAllocator::Fits(uint32_t b, uint64_t size, uint64_t alignment) const noexcept {
    const uint64_t offset = OffsetOf(b);
    return detail::AlignUp(offset, alignment) - offset + size <= SizeOf(b);
}

uint32_t TlsfAllocator::FindBlock(uint64_t size, uint64_t alignment) const noexcept {
    // 1. own class
    const uint32_t own = ClassOf(size);
    uint32_t b = m_Heads[own];
    if (b != kNil && Fits(b, size, alignment)) return b;
    // 2. a class whose blocks all hold `size`
    uint32_t cls = FindNonEmpty(ClassAtLeast(size));
    if (cls != kNil && (alignment == 1 || Fits(m_Heads[cls], size, alignment))) return m_Heads[cls];
    // 3. a class whose blocks all hold `size` at any alignment
    if (alignment > 1 && size + alignment - 1 <= m_Capacity) {
        cls = FindNonEmpty(ClassAtLeast(size + alignment - 1));
        if (cls != kNil) return m_Heads[cls];
    }
    // 4. nearly full: a few more blocks of the own class, which holds sizes around `size`
    if (b != kNil && (own >= 2 * kSlCount || alignment > 1)) {
        b = m_Links[b].next;
        for (uint32_t n = 0; b != kNil && n < kMaxScan; ++n, b = m_Links[b].next)
            if (Fits(b, size, alignment)) return b;
    }
    return kNil;
}

// ---- block records and free lists ---------------------------------------------------------------

uint32_t TlsfAllocator::NewBlock() {
    if (m_UnusedHead != kNil) {
        uint32_t b = m_UnusedHead;
        m_UnusedHead = m_Links[b].next;
        --m_UnusedCount;
        return b;
    }
    m_Blocks.push_back(Block{});
    m_Links.push_back(Links{kNil, kNil});
    m_States.push_back(kUnused);
    return static_cast<uint32_t>(m_Blocks.size() - 1);
}

void TlsfAllocator::ReleaseBlock(uint32_t b) noexcept {
    m_States[b] = kUnused;
    m_Links[b].next = m_UnusedHead;
    m_UnusedHead = b;
    ++m_UnusedCount;
}

void TlsfAllocator::LinkFree(uint32_t b) noexcept {
    const uint32_t cls = ClassOf(SizeOf(b));
    m_States[b] = kFree;
    const uint32_t head = m_Heads[cls];
    m_Links[b] = Links{kNil, head};
    if (head != kNil) m_Links[head].prev = b;
    m_Heads[cls] = b;
    m_SlBitmap[cls / kSlCount] |= 1u << (cls % kSlCount);
    m_FlBitmap |= uint64_t(1) << (cls / kSlCount);
}

void TlsfAllocator::UnlinkFree(uint32_t b) noexcept {
    const Links links = m_Links[b];
    if (links.prev != kNil) m_Links[links.prev].next = links.next;
    if (links.next != kNil) m_Links[links.next].prev = links.prev;
    const uint32_t cls = ClassOf(SizeOf(b));
    if (m_Heads[cls] == b) {
        m_Heads[cls] = links.next;
        if (links.next == kNil) {
            uint32_t fl = cls / kSlCount;
            m_SlBitmap[fl] &= ~(1u << (cls % kSlCount));
            if (!m_SlBitmap[fl]) m_FlBitmap &= ~(uint64_t(1) << fl);
        }
    }
}

// ---- allocate / free ---------------------------------------------------------------------------

uint64_t TlsfAllocator::Allocate(uint64_t size, uint64_t alignment) {
    detail::CheckAllocateArgs("TlsfAllocator::Allocate", size, alignment, m_Capacity);
    alignment = detail::ClampAlignment(alignment, m_Capacity);
    const uint32_t b = FindBlock(size, alignment);
    if (b == kNil) return kInvalidOffset;
    return AllocateFrom(b, size, alignment);
}

uint64_t TlsfAllocator::AllocateLowest(uint64_t size, uint64_t alignment, uint64_t limit) {
    detail::CheckAllocateArgs("TlsfAllocator::AllocateLowest", size, alignment, m_Capacity);
    alignment = detail::ClampAlignment(alignment, m_Capacity);
    if (m_FreeBlocks == 0) return kInvalidOffset;
    // The first record of the physical chain: the block whose offset is 0 (O(records), like the
    // chain walk that follows; defragmentation calls this a few times per move, not per frame).
    uint32_t b = kNil;
    for (uint32_t r = 0; r < m_Blocks.size(); ++r)
        if (m_States[r] != kUnused && PrevPhys(r) == kNil) {
            b = r;
            break;
        }
    for (; b != kNil && OffsetOf(b) < limit; b = NextPhys(b)) {
        if (m_States[b] != kFree) continue;
        const uint64_t start = detail::AlignUp(OffsetOf(b), alignment);
        if (start >= limit) return kInvalidOffset;
        if (Fits(b, size, alignment)) return AllocateFrom(b, size, alignment);
    }
    return kInvalidOffset;
}

uint64_t TlsfAllocator::AllocateFrom(uint32_t b, uint64_t size, uint64_t alignment) {
    if (DX12KIT_UNLIKELY(m_Blocks.size() - m_UnusedCount + 2 > m_MaxBlocks))
        throw OutOfMemory("TlsfAllocator::Allocate: " + std::to_string(m_MaxBlocks) + " block records in use, the most the offset map can index");
    const uint64_t blockOffset = OffsetOf(b), blockSize = SizeOf(b);
    const uint64_t offset = detail::AlignUp(blockOffset, alignment);
    const uint64_t front = offset - blockOffset;
    const uint64_t tail = blockSize - front - size;
    uint32_t a;  // the allocation's record
    if (tail) {
        // The found block's record keeps the tail: when the tail stays in the block's class (a
        // large block shrinking a little), its free-list position stays valid as well.
        const bool sameClass = ClassOf(tail) == ClassOf(blockSize);
        if (!sameClass) UnlinkFree(b);
        a = NewBlock();  // may grow m_Blocks: indices only, no references across it
        const uint32_t prev = PrevPhys(b);
        InitBlock(a, offset, size, prev, b);
        m_States[a] = kUsed;
        if (prev != kNil) SetNextPhys(prev, a);
        SetPrevPhys(b, a);
        SetOffset(b, offset + size);
        SetSize(b, tail);
        if (!sameClass) LinkFree(b);
    } else {
        UnlinkFree(b);
        a = b;
        SetOffset(a, offset);
        SetSize(a, size);
        m_States[a] = kUsed;
        --m_FreeBlocks;
    }
    if (front) {  // the padding stays free, as its own block before the allocation
        const uint32_t f = NewBlock();
        const uint32_t prev = PrevPhys(a);
        InitBlock(f, blockOffset, front, prev, a);
        if (prev != kNil) SetNextPhys(prev, f);
        SetPrevPhys(a, f);
        LinkFree(f);
        ++m_FreeBlocks;
    }
    m_Allocated.Insert(offset, a);
    m_Used += size;
    ++m_Allocations;
    return offset;
}

uint32_t TlsfAllocator::CheckFreeable(const char* who, uint64_t offset) const {
    uint32_t b = m_Allocated.Find(offset);
    if (DX12KIT_LIKELY(b != detail::OffsetHashMap::kMissing && m_States[b] == kUsed)) return b;
    std::string at = std::string(who) + ": offset " + std::to_string(offset);
    if (b != detail::OffsetHashMap::kMissing) throw InvalidArgument(at + " was already passed to FreeDeferred (double free)");
    throw InvalidArgument(at +
                          " is not the start of a live allocation (never allocated, or "
                          "already freed)");
}

void TlsfAllocator::Free(uint64_t offset) {
    uint32_t b = CheckFreeable("TlsfAllocator::Free", offset);
    m_Allocated.Erase(offset);
    FreeBlock(b);
}

void TlsfAllocator::FreeDeferred(uint64_t offset, uint64_t fenceValue) {
    uint32_t b = CheckFreeable("TlsfAllocator::FreeDeferred", offset);
    m_States[b] = kPending;
    m_Deferred.Push(fenceValue, offset, SizeOf(b));
}

void TlsfAllocator::ReleaseStale(uint64_t completedValue) {
    m_Deferred.PopReady(completedValue, [this](uint64_t offset, uint64_t) {
        uint32_t b = m_Allocated.Find(offset);
        m_Allocated.Erase(offset);
        FreeBlock(b);
    });
}

void TlsfAllocator::FreeBlock(uint32_t b) {
    const uint64_t size = SizeOf(b);
    m_Used -= size;
    --m_Allocations;
    uint64_t merged = size;
    uint32_t next = NextPhys(b);
    if (next != kNil && m_States[next] == kFree) {
        UnlinkFree(next);
        merged += SizeOf(next);
        const uint32_t after = NextPhys(next);
        SetNextPhys(b, after);
        if (after != kNil) SetPrevPhys(after, b);
        ReleaseBlock(next);
        --m_FreeBlocks;
    }
    const uint32_t prev = PrevPhys(b);
    if (prev != kNil && m_States[prev] == kFree) {
        UnlinkFree(prev);
        merged += SizeOf(prev);
        const uint32_t after = NextPhys(b);
        SetNextPhys(prev, after);
        if (after != kNil) SetPrevPhys(after, prev);
        ReleaseBlock(b);
        b = prev;
        --m_FreeBlocks;
    }
    SetSize(b, merged);
    LinkFree(b);
    ++m_FreeBlocks;
}

// ---- whole-state operations ----------------------------------------------------------------------

void TlsfAllocator::Reset() {
    m_Blocks.clear();
    m_Links.clear();
    m_States.clear();
    m_UnusedHead = kNil;
    m_UnusedCount = 0;
    std::fill(std::begin(m_Heads), std::end(m_Heads), kNil);
    m_FlBitmap = 0;
    std::fill(std::begin(m_SlBitmap), std::end(m_SlBitmap), 0u);
    m_Allocated.Clear();
    m_Deferred.Clear();
    uint32_t b = NewBlock();
    InitBlock(b, 0, m_Capacity, kNil, kNil);
    LinkFree(b);
    m_Used = 0;
    m_FreeBlocks = 1;
    m_Allocations = 0;
}

AllocatorStats TlsfAllocator::GetStats() const noexcept {
    uint64_t largest = 0;
    if (m_FlBitmap) {
        uint32_t fl = detail::HighestBit(m_FlBitmap);
        uint32_t cls = fl * kSlCount + detail::HighestBit(m_SlBitmap[fl]);
        for (uint32_t b = m_Heads[cls]; b != kNil; b = m_Links[b].next) largest = std::max(largest, SizeOf(b));
    }
    return AllocatorStats{m_Capacity, m_Used, m_Capacity - m_Used, m_FreeBlocks, largest, m_Allocations};
}

std::vector<TlsfAllocator::BlockInfo> TlsfAllocator::CalculateBlocks() const {
    uint32_t first = kNil;
    for (uint32_t b = 0; b < m_Blocks.size(); ++b) {
        if (m_States[b] != kUnused && PrevPhys(b) == kNil) {
            if (first != kNil) Broken("two blocks have no physical predecessor");
            first = b;
        }
    }
    if (first == kNil) Broken("no first block");
    std::vector<BlockInfo> blocks;
    uint64_t offset = 0;
    uint32_t prev = kNil;
    for (uint32_t b = first; b != kNil; prev = b, b = NextPhys(b)) {
        const uint64_t blockOffset = OffsetOf(b), size = SizeOf(b);
        if (m_States[b] == kUnused) Broken("the physical chain reaches an unused record");
        if (blockOffset != offset) Broken("block at " + std::to_string(blockOffset) + " should start at " + std::to_string(offset));
        if (PrevPhys(b) != prev) Broken("physical links disagree at " + std::to_string(offset));
        if (size == 0 || size > m_Capacity - offset) Broken("bad block size at " + std::to_string(offset));
        if (blocks.size() > m_Blocks.size()) Broken("the physical chain has a cycle");
        uint32_t state = m_States[b] == kFree ? 0 : m_States[b] == kUsed ? 1 : 2;
        blocks.push_back(BlockInfo{blockOffset, size, state});
        offset += size;
    }
    if (offset != m_Capacity) Broken("blocks end at " + std::to_string(offset) + ", not at the capacity");
    return blocks;
}

void TlsfAllocator::Validate() const {
    std::vector<BlockInfo> blocks = CalculateBlocks();
    uint64_t used = 0, allocations = 0, freeBlocks = 0, pending = 0;
    bool prevFree = false;
    for (const BlockInfo& b : blocks) {
        if (b.state == 0) {
            if (prevFree) Broken("two adjacent free blocks at " + std::to_string(b.offset) + ": not coalesced");
            ++freeBlocks;
        } else {
            used += b.size;
            ++allocations;
            pending += b.state == 2;
            uint32_t rec = m_Allocated.Find(b.offset);
            if (rec == detail::OffsetHashMap::kMissing || OffsetOf(rec) != b.offset)
                Broken("allocation at " + std::to_string(b.offset) + " is missing from the offset map");
        }
        prevFree = b.state == 0;
    }
    if (used != m_Used) Broken("used counter is wrong");
    if (allocations != m_Allocations) Broken("allocation counter is wrong");
    if (freeBlocks != m_FreeBlocks) Broken("free block counter is wrong");
    if (m_Allocated.Size() != allocations) Broken("the offset map holds stale entries");
    if (pending != m_Deferred.Size()) Broken("deferred queue and pending blocks disagree");
    for (const auto& e : m_Deferred.Entries()) {
        uint32_t rec = m_Allocated.Find(e.offset);
        if (rec == detail::OffsetHashMap::kMissing || m_States[rec] != kPending || SizeOf(rec) != e.size)
            Broken("deferred entry at " + std::to_string(e.offset) + " is not a pending block");
    }
    uint64_t listed = 0;
    for (uint32_t cls = 0; cls < kFlCount * kSlCount; ++cls) {
        bool bit = (m_SlBitmap[cls / kSlCount] >> (cls % kSlCount)) & 1;
        if (bit != (m_Heads[cls] != kNil)) Broken("second-level bitmap disagrees with list " + std::to_string(cls));
        uint32_t prev = kNil;
        for (uint32_t b = m_Heads[cls]; b != kNil; prev = b, b = m_Links[b].next) {
            if (m_States[b] != kFree) Broken("a free list holds a block that is not free");
            if (ClassOf(SizeOf(b)) != cls) Broken("block of size " + std::to_string(SizeOf(b)) + " is in the wrong class");
            if (m_Links[b].prev != prev) Broken("free-list links disagree");
            if (++listed > freeBlocks) Broken("free lists hold more blocks than are free");
        }
    }
    if (listed != freeBlocks) Broken("a free block is missing from the free lists");
    for (uint32_t fl = 0; fl < kFlCount; ++fl)
        if (((m_FlBitmap >> fl) & 1) != (m_SlBitmap[fl] != 0)) Broken("first-level bitmap is wrong");
    uint64_t unused = 0;
    for (uint32_t b = m_UnusedHead; b != kNil; b = m_Links[b].next) {
        if (m_States[b] != kUnused) Broken("the record pool holds a live block");
        if (++unused > m_Blocks.size()) Broken("the record pool has a cycle");
    }
    if (unused + blocks.size() != m_Blocks.size() || unused != m_UnusedCount) Broken("block records leak");
}

}  // namespace dx12kit::alloc
