#include "dx12kit/memory/MemoryPool.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/platform/HResult.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <string>
#include <unordered_set>

namespace dx12kit::memory {

namespace {
constexpr uint64_t kHeapAlignment = D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;  // 64 KiB
uint64_t AlignUp(uint64_t v, uint64_t a) {
    return (v + a - 1) / a * a;
}
std::string MiBOf(double bytes) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f MiB", bytes / double(1 << 20));
    return buf;
}
std::string MiB(uint64_t bytes) {
    return MiBOf(double(bytes));
}
}  // namespace

const char* HeapKindName(HeapKind kind) {
    switch (kind) {
        case HeapKind::Default: return "default";
        case HeapKind::Upload: return "upload";
        case HeapKind::Readback: return "readback";
        case HeapKind::Custom: return "custom";
    }
    return "?";
}

const char* ResourceClassName(ResourceClass cls) {
    switch (cls) {
        case ResourceClass::Any: return "any";
        case ResourceClass::Buffer: return "buffers";
        case ResourceClass::Texture: return "textures";
        case ResourceClass::RtDsTexture: return "rt_ds_textures";
    }
    return "?";
}

const char* AllocationKindName(AllocationKind kind) {
    switch (kind) {
        case AllocationKind::Buffer: return "buffer";
        case AllocationKind::Texture: return "texture";
        case AllocationKind::RenderTarget: return "render_target";
        case AllocationKind::DepthStencil: return "depth_stencil";
        case AllocationKind::UploadPage: return "upload_page";
        case AllocationKind::Memory: return "memory";
    }
    return "?";
}

bool MemoryBudget::Reserve(uint64_t bytes, bool withinBudget) {
    if (!withinBudget || budgetBytes == 0) {
        blockBytes.fetch_add(bytes, std::memory_order_relaxed);
        return true;
    }
    uint64_t cur = blockBytes.load(std::memory_order_relaxed);
    do {
        if (cur + bytes > budgetBytes) return false;
    } while (!blockBytes.compare_exchange_weak(cur, cur + bytes, std::memory_order_relaxed));
    return true;
}

void MemoryBudget::CheckCapacity(uint64_t bytes, const std::string& what) const {
    if (capacityBytes && bytes > capacityBytes)
        throw OutOfMemory(what + " of " + MiB(bytes) + " is larger than all of the device's memory (" + MiB(capacityBytes) + ")");
}

static_assert(kMsaaHeapAlignment == D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT, "4 MiB");

uint64_t HeapAlignmentFor(HeapKind kind, ResourceClass cls) {
    const bool textures = kind == HeapKind::Default || kind == HeapKind::Custom;
    const bool rtds = cls == ResourceClass::Any || cls == ResourceClass::RtDsTexture;
    return textures && rtds ? kMsaaHeapAlignment : kHeapAlignment;
}

// ------------------------------------------------------------------------------ blocks

struct MemoryBlock {
    uint64_t id = 0;
    uint64_t size = 0;
    ResourceClass cls = ResourceClass::Any;
    uint64_t heapAlignment = 0;  // D3D12_HEAP_DESC.Alignment
    ComPtr<ID3D12Heap> heap;
    std::unique_ptr<alloc::TlsfAllocator> tlsf;            // TLSF pools
    std::unique_ptr<alloc::LinearAllocator> linear;        // linear pools
    std::unordered_map<uint64_t, AllocationInfo> records;  // offset -> live or pending allocation
    std::unordered_map<uint64_t, AllocationInfo> aliases;  // id -> resource placed in allocated memory
    std::chrono::steady_clock::time_point emptySince = std::chrono::steady_clock::now();
};

// ------------------------------------------------------------------------------ allocation handle

MemoryAllocation& MemoryAllocation::operator=(MemoryAllocation&& o) noexcept {
    if (this != &o) {
        Release();
        m_Pool = std::move(o.m_Pool);
        m_Block = o.m_Block;
        m_Offset = o.m_Offset;
        m_Size = o.m_Size;
        m_Alignment = o.m_Alignment;
        m_CommittedId = o.m_CommittedId;
        m_Committed = o.m_Committed;
        m_Alias = o.m_Alias;
        o.m_Block = nullptr;
        o.m_Committed = false;
        o.m_Alias = false;
    }
    return *this;
}

void MemoryAllocation::Release() noexcept {
    if (!m_Pool) return;
    m_Pool->Free(*this);
    m_Block = nullptr;
    m_Committed = false;
    m_Alias = false;
    m_Pool.reset();
}

ID3D12Heap* MemoryAllocation::Heap() const noexcept {
    return m_Block ? m_Block->heap.Get() : nullptr;
}
uint64_t MemoryAllocation::BlockId() const noexcept {
    return m_Block ? m_Block->id : 0;
}
uint64_t MemoryAllocation::BlockSize() const noexcept {
    return m_Block ? m_Block->size : m_Size;
}
uint64_t MemoryAllocation::HeapAlignment() const noexcept {
    return m_Block ? m_Block->heapAlignment : 0;
}
ResourceClass MemoryAllocation::HeapClass() const noexcept {
    return m_Block ? m_Block->cls : ResourceClass::Any;
}

// ------------------------------------------------------------------------------ pool

MemoryPool::MemoryPool(ID3D12Device* device, const std::atomic<uint64_t>& lastSerial, std::shared_ptr<MemoryBudget> budget, const PoolDesc& desc,
                       const D3D12_HEAP_PROPERTIES& heapProperties, bool tier1, uint64_t preferredBlockSize, bool isDefault,
                       std::chrono::milliseconds emptyGrace)
    : m_Device((device->AddRef(), device)),
      m_LastSerial(lastSerial),
      m_Budget(std::move(budget)),
      m_Desc(desc),
      m_HeapProperties(heapProperties),
      m_Tier1(tier1),
      m_Preferred(preferredBlockSize),
      m_IsDefault(isDefault),
      m_EmptyGrace(emptyGrace) {
    if (m_Desc.blockSize && (m_Desc.blockSize < kHeapAlignment || m_Desc.blockSize % kHeapAlignment))
        throw InvalidArgument("pool block_size " + std::to_string(m_Desc.blockSize) +
                              " must be a positive multiple of 65536 (D3D12's heap alignment)");
    if (m_Desc.maxBlocks && m_Desc.minBlocks > m_Desc.maxBlocks)
        throw InvalidArgument("pool min_blocks " + std::to_string(m_Desc.minBlocks) + " exceeds max_blocks " + std::to_string(m_Desc.maxBlocks));
    // A pool that could never exist on this device is refused here, not at its first allocation
    // (or never, when min_blocks heaps are created lazily by a driver that grants them).
    const std::string pool = "memory pool '" + m_Desc.name + "'";
    if (m_Desc.blockSize) m_Budget->CheckCapacity(m_Desc.blockSize, pool + ": block_size");
    if (m_Desc.minBlocks) {
        const uint64_t block = PreferredBlockSize();
        const uint64_t cap = m_Budget->capacityBytes;
        if (cap && block > cap / m_Desc.minBlocks)  // min_blocks * block > cap, without overflow
            throw OutOfMemory(pool + ": min_blocks " + std::to_string(m_Desc.minBlocks) + " x block_size " + MiB(block) + " = " +
                              MiBOf(static_cast<double>(block) * m_Desc.minBlocks) + " is larger than all of the device's memory (" + MiB(cap) + ")");
        // Minimum blocks exist from the start; on tier 1 they hold buffers (the common case).
        std::lock_guard<std::mutex> lock(m_Mutex);
        const ResourceClass cls = m_Tier1 ? ResourceClass::Buffer : ResourceClass::Any;
        try {
            for (uint32_t i = 0; i < m_Desc.minBlocks; ++i) CreateBlockLocked(PreferredBlockSize(), cls, false);
        } catch (...) {
            // The destructor does not run for a constructor that throws: give back what was reserved.
            for (auto& b : m_Blocks) m_Budget->Unreserve(b->size);
            throw;
        }
    }
}

MemoryPool::~MemoryPool() {
    for (auto& b : m_Blocks) m_Budget->Unreserve(b->size);
    m_Budget->allocationBytes.fetch_sub(m_LiveBytes, std::memory_order_relaxed);  // frees still pending
}

size_t MemoryPool::BlockCount() const {
    m_Fork.Check("Pool.block_count");
    std::lock_guard<std::mutex> lock(m_Mutex);
    return m_Blocks.size();
}

uint64_t MemoryPool::NewBlockSizeLocked(uint64_t request) const {
    if (m_Desc.blockSize) return m_Desc.blockSize;
    uint64_t largest = 0;
    for (const auto& b : m_Blocks) largest = std::max(largest, b->size);
    uint64_t size = m_Preferred;
    for (int shift = 1; shift <= 3; ++shift) {
        const uint64_t smaller = m_Preferred >> shift;
        if (smaller > largest && smaller >= request * 2) size = smaller;
        else break;
    }
    return std::max(size, AlignUp(request, kHeapAlignment));
}

MemoryBlock* MemoryPool::CreateBlockLocked(uint64_t size, ResourceClass cls, bool withinBudget) {
    if (m_Desc.maxBlocks && m_Blocks.size() >= m_Desc.maxBlocks)
        throw OutOfMemory("memory pool '" + m_Desc.name + "': at its limit of " + std::to_string(m_Desc.maxBlocks) + " block(s) of " +
                          MiB(PreferredBlockSize()) + ", and no block has room");
    m_Budget->CheckCapacity(size, "memory pool '" + m_Desc.name + "': a new heap");
    if (!m_Budget->Reserve(size, withinBudget))
        throw OutOfMemory("memory budget: a new " + MiB(size) + " heap would exceed the budget of " + MiB(m_Budget->budgetBytes) + " (" +
                          MiB(m_Budget->blockBytes.load()) + " in use)");
    auto b = std::make_unique<MemoryBlock>();
    D3D12_HEAP_DESC hd{};
    hd.SizeInBytes = size;
    hd.Properties = m_HeapProperties;
    // 4 MiB when the heap may hold MSAA textures (D3D12_HEAP_DESC); a size that is not a multiple of
    // it is allowed ("for convenience"), so fixed block sizes stay multiples of 64 KiB.
    hd.Alignment = HeapAlignmentFor(m_Desc.heap, cls);
    switch (cls) {
        case ResourceClass::Any: hd.Flags = D3D12_HEAP_FLAG_ALLOW_ALL_BUFFERS_AND_TEXTURES; break;
        case ResourceClass::Buffer: hd.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS; break;
        case ResourceClass::Texture: hd.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_NON_RT_DS_TEXTURES; break;
        case ResourceClass::RtDsTexture: hd.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_RT_DS_TEXTURES; break;
    }
    const HRESULT hr = m_Device.Get()->CreateHeap(&hd, IID_ID3D12Heap, b->heap.ReleaseAndGetVoidAddress());
    if (FAILED(hr)) {
        m_Budget->Unreserve(size);
        if (hr == E_OUTOFMEMORY) throw OutOfMemory("CreateHeap(" + MiB(size) + "): out of device memory");
        ThrowIfFailed(hr, ("CreateHeap(" + MiB(size) + ")").c_str());
    }
    b->id = m_NextBlockId++;
    b->size = size;
    b->cls = cls;
    b->heapAlignment = hd.Alignment;
    if (m_Desc.algorithm == PoolAlgorithm::Linear) b->linear = std::make_unique<alloc::LinearAllocator>(size);
    else b->tlsf = std::make_unique<alloc::TlsfAllocator>(size);
    m_Blocks.push_back(std::move(b));
    return m_Blocks.back().get();
}

MemoryBlock* MemoryPool::NewBlockForLocked(uint64_t request, ResourceClass cls, bool withinBudget) {
    // An empty block of another resource class (tier 1) is remade for this class rather than
    // adding a block: min_blocks and max_blocks count blocks whatever they hold.
    if (m_Tier1 && m_Desc.maxBlocks && m_Blocks.size() >= m_Desc.maxBlocks) {
        for (size_t i = 0; i < m_Blocks.size(); ++i) {
            MemoryBlock& b = *m_Blocks[i];
            if (b.cls == cls || !b.records.empty() || b.size < request) continue;
            const uint64_t size = b.size;
            m_Budget->Unreserve(size);
            std::unique_ptr<MemoryBlock> old = std::move(m_Blocks[i]);
            m_Blocks.erase(m_Blocks.begin() + static_cast<std::ptrdiff_t>(i));
            try {
                return CreateBlockLocked(size, cls, withinBudget);
            } catch (...) {
                m_Budget->Reserve(size, false);
                m_Blocks.insert(m_Blocks.begin() + static_cast<std::ptrdiff_t>(i), std::move(old));
                throw;
            }
        }
    }
    // A growing pool that would go over the budget tries smaller blocks, down to the request
    // (D3D12MA does the same when CreateHeap fails).
    uint64_t size = NewBlockSizeLocked(request);
    for (;;) {
        try {
            return CreateBlockLocked(size, cls, withinBudget);
        } catch (const OutOfMemory&) {
            const uint64_t smaller = AlignUp(std::max(size / 2, request), kHeapAlignment);
            if (m_Desc.blockSize || smaller >= size || (m_Desc.maxBlocks && m_Blocks.size() >= m_Desc.maxBlocks)) throw;
            size = smaller;
        }
    }
}

bool MemoryPool::TryPlaceLocked(MemoryBlock& b, uint64_t size, uint64_t alignment, uint64_t& offset) {
    if (size > b.size) return false;
    offset = b.tlsf ? b.tlsf->Allocate(size, alignment) : b.linear->Allocate(size, alignment);
    return offset != alloc::kInvalidOffset;
}

MemoryAllocation MemoryPool::Allocate(uint64_t size, uint64_t alignment, ResourceClass cls, AllocationKind kind, uint32_t resourceFlags,
                                      const std::string& name, bool withinBudget) {
    if (size == 0) throw InvalidArgument("memory pool '" + m_Desc.name + "': allocation of 0 bytes");
    if (alignment == 0 || (alignment & (alignment - 1))) throw InvalidArgument("memory pool: alignment must be a power of two");
    if (!m_Tier1) cls = ResourceClass::Any;
    if (m_Desc.blockSize && AlignUp(size, alignment) > m_Desc.blockSize)
        throw InvalidArgument("memory pool '" + m_Desc.name + "': " + std::to_string(size) + " bytes (alignment " + std::to_string(alignment) +
                              ") do not fit its blocks of " + std::to_string(m_Desc.blockSize) + " bytes");
    std::lock_guard<std::mutex> lock(m_Mutex);
    uint64_t offset = alloc::kInvalidOffset;
    MemoryBlock* block = nullptr;
    for (auto& b : m_Blocks) {
        if (b->cls != cls) continue;
        if (TryPlaceLocked(*b, size, alignment, offset)) {
            block = b.get();
            break;
        }
    }
    if (!block) {
        block = NewBlockForLocked(AlignUp(size, alignment), cls, withinBudget);
        if (!TryPlaceLocked(*block, size, alignment, offset))
            throw Error("memory pool: a new block of " + std::to_string(block->size) + " bytes could not hold " + std::to_string(size));
    }
    // The allocator core promised an aligned range inside the block; D3D12 (vkd3d) would not check.
    if (offset % alignment || offset + size > block->size)
        throw Error("memory pool: internal placement error (offset " + std::to_string(offset) + ", size " + std::to_string(size) + ", alignment " +
                    std::to_string(alignment) + ", block " + std::to_string(block->size) + ")");
    AllocationInfo info;
    info.offset = offset;
    info.size = size;
    info.alignment = alignment;
    info.kind = kind;
    info.resourceFlags = resourceFlags;
    info.name = name;
    block->records.emplace(offset, std::move(info));
    m_LiveBytes += size;
    ++m_LiveCount;
    m_Budget->allocationBytes.fetch_add(size, std::memory_order_relaxed);

    MemoryAllocation a;
    a.m_Pool = shared_from_this();
    a.m_Block = block;
    a.m_Offset = offset;
    a.m_Size = size;
    a.m_Alignment = alignment;
    return a;
}

MemoryAllocation MemoryPool::AddCommitted(uint64_t size, uint64_t alignment, AllocationKind kind, uint32_t resourceFlags, const std::string& name,
                                          bool withinBudget) {
    std::lock_guard<std::mutex> lock(m_Mutex);  // budget changes under the pool's lock (see MemoryManager::Validate)
    m_Budget->CheckCapacity(size, "a committed resource");
    if (!m_Budget->Reserve(size, withinBudget))
        throw OutOfMemory("memory budget: a committed resource of " + MiB(size) + " would exceed the budget of " + MiB(m_Budget->budgetBytes) + " (" +
                          MiB(m_Budget->blockBytes.load()) + " in use)");
    m_Budget->allocationBytes.fetch_add(size, std::memory_order_relaxed);
    MemoryAllocation a;
    a.m_Pool = shared_from_this();
    a.m_Committed = true;
    a.m_CommittedId = m_NextCommittedId++;
    a.m_Size = size;
    a.m_Alignment = alignment;
    AllocationInfo info;
    info.size = size;
    info.kind = kind;
    info.resourceFlags = resourceFlags;
    info.name = name;
    m_Committed.emplace(a.m_CommittedId, std::move(info));
    m_CommittedBytes += size;
    return a;
}

MemoryAllocation MemoryPool::AddAlias(const MemoryAllocation& memory, uint64_t offset, uint64_t size, uint64_t alignment, AllocationKind kind,
                                      uint32_t resourceFlags, const std::string& name) {
    if (memory.Pool() != this || !memory.m_Block) throw InvalidArgument("alias: the memory is not a range of this pool");
    std::lock_guard<std::mutex> lock(m_Mutex);
    MemoryAllocation a;
    a.m_Pool = shared_from_this();
    a.m_Block = memory.m_Block;
    a.m_Alias = true;
    a.m_CommittedId = m_NextCommittedId++;
    a.m_Offset = offset;
    a.m_Size = size;
    a.m_Alignment = alignment;
    AllocationInfo info;
    info.offset = offset;
    info.size = size;
    info.kind = kind;
    info.resourceFlags = resourceFlags;
    info.aliased = true;
    info.name = name;
    memory.m_Block->aliases.emplace(a.m_CommittedId, std::move(info));
    return a;
}

void MemoryPool::Free(MemoryAllocation& a) noexcept {
    std::lock_guard<std::mutex> lock(m_Mutex);
    if (a.m_Alias) {
        a.m_Block->aliases.erase(a.m_CommittedId);
        return;
    }
    if (a.m_Committed) {
        // The resource's own memory goes with the resource, which its owner releases with this
        // handle (after the GPU is done with it: command lists keep resources alive).
        auto it = m_Committed.find(a.m_CommittedId);
        if (it != m_Committed.end()) {
            m_CommittedBytes -= it->second.size;
            m_Committed.erase(it);
        }
        m_Budget->Unreserve(a.m_Size);
        m_Budget->allocationBytes.fetch_sub(a.m_Size, std::memory_order_relaxed);
        return;
    }
    auto it = a.m_Block->records.find(a.m_Offset);
    if (it == a.m_Block->records.end() || it->second.pendingFree) return;  // cannot happen: handles are unique
    it->second.pendingFree = true;
    m_Pending.push_back(PendingFree{m_LastSerial.load(std::memory_order_acquire), a.m_Block, a.m_Offset});
}

void MemoryPool::ReleaseStaleLocked(uint64_t completed) {
    while (!m_Pending.empty() && m_Pending.front().serial <= completed) {
        const PendingFree f = m_Pending.front();
        m_Pending.pop_front();
        MemoryBlock& b = *f.block;
        auto it = b.records.find(f.offset);
        const uint64_t size = it->second.size;
        b.records.erase(it);
        if (b.tlsf) b.tlsf->Free(f.offset);
        m_LiveBytes -= size;
        --m_LiveCount;
        m_Budget->allocationBytes.fetch_sub(size, std::memory_order_relaxed);
        if (b.records.empty()) {
            if (b.linear) b.linear->Reset();  // a linear block starts again at 0 once empty
            b.emptySince = std::chrono::steady_clock::now();
        }
    }
}

void MemoryPool::CollectEmptyLocked(bool all, std::vector<std::unique_ptr<MemoryBlock>>& out) {
    const auto now = std::chrono::steady_clock::now();
    for (size_t i = m_Blocks.size(); i-- > 0 && m_Blocks.size() > m_Desc.minBlocks;) {
        MemoryBlock& b = *m_Blocks[i];
        if (!b.records.empty()) continue;
        if (!all && now - b.emptySince < m_EmptyGrace) continue;
        m_Budget->Unreserve(b.size);
        out.push_back(std::move(m_Blocks[i]));
        m_Blocks.erase(m_Blocks.begin() + static_cast<std::ptrdiff_t>(i));
    }
}

void MemoryPool::ReleaseStale(uint64_t completed) {
    std::vector<std::unique_ptr<MemoryBlock>> destroy;  // heaps are destroyed outside the lock
    std::lock_guard<std::mutex> lock(m_Mutex);
    ReleaseStaleLocked(completed);
    CollectEmptyLocked(false, destroy);
}

void MemoryPool::Trim(uint64_t completed) {
    std::vector<std::unique_ptr<MemoryBlock>> destroy;
    std::lock_guard<std::mutex> lock(m_Mutex);
    ReleaseStaleLocked(completed);
    CollectEmptyLocked(true, destroy);
}

namespace {
// Free ranges of a block in address order: the TLSF's own free blocks, or a linear block's tail
// (the space of released allocations below the head is not reusable until the block empties, so
// it is not reported as free).
void UnusedRanges(const MemoryBlock& b, std::vector<std::pair<uint64_t, uint64_t>>& out) {
    if (b.tlsf) {
        for (const auto& r : b.tlsf->CalculateBlocks())
            if (r.state == 0) out.emplace_back(r.offset, r.size);
    } else {
        const uint64_t head = b.linear->Head();
        if (head < b.size) out.emplace_back(head, b.size - head);
    }
}
}  // namespace

std::unique_lock<std::mutex> MemoryPool::Lock() const {
    return std::unique_lock<std::mutex>(m_Mutex);
}

uint64_t MemoryPool::BlockBytesLocked() const {
    uint64_t bytes = m_CommittedBytes;
    for (const auto& b : m_Blocks) bytes += b->size;
    return bytes;
}

MemoryStats MemoryPool::Stats() const {
    m_Fork.Check("Pool.stats");
    MemoryStats s;
    std::vector<std::pair<uint64_t, uint64_t>> unused;
    std::lock_guard<std::mutex> lock(m_Mutex);
    for (const auto& b : m_Blocks) {
        ++s.blockCount;
        s.blockBytes += b->size;
        for (const auto& kv : b->records) s.AddAllocation(kv.second.size);
        unused.clear();
        UnusedRanges(*b, unused);
        for (const auto& u : unused) s.AddUnusedRange(u.second);
    }
    for (const auto& kv : m_Committed) {
        ++s.blockCount;
        s.blockBytes += kv.second.size;
        s.AddAllocation(kv.second.size);
    }
    return s;
}

void MemoryPool::Snapshot(std::vector<BlockSnapshot>& blocks, std::vector<AllocationInfo>& committed) const {
    std::lock_guard<std::mutex> lock(m_Mutex);
    for (const auto& b : m_Blocks) {
        BlockSnapshot snap;
        snap.id = b->id;
        snap.size = b->size;
        snap.cls = b->cls;
        snap.heapAlignment = b->heapAlignment;
        snap.allocations.reserve(b->records.size());
        for (const auto& kv : b->records) snap.allocations.push_back(kv.second);
        for (const auto& kv : b->aliases) snap.allocations.push_back(kv.second);
        // By offset; an aliased resource after the memory it lies in.
        std::sort(snap.allocations.begin(), snap.allocations.end(), [](const AllocationInfo& x, const AllocationInfo& y) {
            return x.offset != y.offset ? x.offset < y.offset : x.aliased < y.aliased;
        });
        UnusedRanges(*b, snap.unused);
        blocks.push_back(std::move(snap));
    }
    for (const auto& kv : m_Committed) committed.push_back(kv.second);
}

void MemoryPool::Validate() const {
    m_Fork.Check("Pool.validate");
    std::lock_guard<std::mutex> lock(m_Mutex);
    auto fail = [&](const std::string& what) { throw Error("memory pool '" + m_Desc.name + "' invalid: " + what); };
    uint64_t liveBytes = 0, liveCount = 0, pending = 0;
    for (const auto& b : m_Blocks) {
        if (b->tlsf) {
            b->tlsf->Validate();
            if (b->tlsf->GetStats().allocations != b->records.size()) fail("block record count differs from its TLSF");
        }
        std::vector<const AllocationInfo*> sorted;
        for (const auto& kv : b->records) {
            if (kv.first != kv.second.offset) fail("record keyed by the wrong offset");
            sorted.push_back(&kv.second);
            liveBytes += kv.second.size;
            ++liveCount;
            pending += kv.second.pendingFree;
        }
        std::sort(sorted.begin(), sorted.end(), [](auto* x, auto* y) { return x->offset < y->offset; });
        uint64_t end = 0;
        for (const AllocationInfo* r : sorted) {
            if (r->offset < end) fail("allocations overlap at offset " + std::to_string(r->offset) + " of block " + std::to_string(b->id));
            end = r->offset + r->size;
            if (end > b->size) fail("allocation past the end of block " + std::to_string(b->id));
        }
        if (b->linear && end > b->linear->Head()) fail("linear block allocation above its head");
    }
    if (liveBytes != m_LiveBytes || liveCount != m_LiveCount) fail("live byte/count totals drifted");
    if (pending != m_Pending.size()) fail("pending free count differs from the queue");
    uint64_t committed = 0;
    for (const auto& kv : m_Committed) committed += kv.second.size;
    if (committed != m_CommittedBytes) fail("committed byte total drifted");
    if (m_Desc.maxBlocks && m_Blocks.size() > m_Desc.maxBlocks) fail("more blocks than max_blocks");
}

// ------------------------------------------------------------------------------ defragmentation

void MemoryPool::SetOwner(const MemoryAllocation& a, std::weak_ptr<void> owner) {
    if (a.Pool() != this || !a.m_Block || a.m_Alias) return;
    std::lock_guard<std::mutex> lock(m_Mutex);
    auto it = a.m_Block->records.find(a.m_Offset);
    if (it != a.m_Block->records.end()) it->second.owner = std::move(owner);
}

void MemoryPool::CancelMove(uint64_t srcBlockId, uint64_t srcOffset) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    for (auto& b : m_Blocks) {
        if (b->id != srcBlockId) continue;
        auto it = b->records.find(srcOffset);
        if (it != b->records.end()) it->second.moving = false;
    }
}

std::vector<DefragMove> MemoryPool::PlanDefragmentation(DefragAlgorithm algorithm, uint64_t maxBytes, uint64_t maxMoves,
                                                        const std::function<bool(const std::shared_ptr<void>&)>& movable) {
    if (m_Desc.algorithm == PoolAlgorithm::Linear)
        throw InvalidArgument("defragment: pool '" + m_Desc.name + "' is linear; linear pools are freed at once, not defragmented");
    std::vector<DefragMove> moves;
    std::lock_guard<std::mutex> lock(m_Mutex);
    uint64_t bytes = 0;
    auto budgetLeft = [&](uint64_t size) { return (maxMoves == 0 || moves.size() < maxMoves) && (maxBytes == 0 || bytes + size <= maxBytes); };
    // Destinations first in the fullest blocks: filling them lets the emptiest ones go.
    std::vector<MemoryBlock*> order;
    std::unordered_map<MemoryBlock*, uint64_t> used;
    for (auto& b : m_Blocks) {
        uint64_t u = 0;
        for (const auto& kv : b->records) u += kv.second.size;
        used[b.get()] = u;
        order.push_back(b.get());
    }
    std::stable_sort(order.begin(), order.end(), [&](MemoryBlock* x, MemoryBlock* y) { return used[x] > used[y]; });

    std::unordered_set<const void*> planned;  // owners already moving in this plan
    auto candidates = [&](MemoryBlock* b) {
        std::vector<std::pair<AllocationInfo*, std::shared_ptr<void>>> out;
        for (auto& kv : b->records) {
            AllocationInfo& info = kv.second;
            if (info.pendingFree || info.moving || info.kind == AllocationKind::Memory || info.kind == AllocationKind::UploadPage) continue;
            std::shared_ptr<void> owner = info.owner.lock();
            if (!owner || planned.count(owner.get()) || (movable && !movable(owner))) continue;
            out.emplace_back(&info, std::move(owner));
        }
        std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.first->offset < y.first->offset; });
        return out;
    };
    auto reserve = [&](MemoryBlock* dstBlock, uint64_t offset, MemoryBlock* srcBlock, AllocationInfo& src, std::shared_ptr<void> owner) {
        src.moving = true;
        planned.insert(owner.get());
        AllocationInfo info = src;
        info.offset = offset;
        info.moving = false;
        info.pendingFree = false;
        dstBlock->records.emplace(offset, std::move(info));  // node-based map: `src` stays valid
        m_LiveBytes += src.size;
        ++m_LiveCount;
        m_Budget->allocationBytes.fetch_add(src.size, std::memory_order_relaxed);
        used[dstBlock] += src.size;
        used[srcBlock] -= src.size;
        bytes += src.size;
        DefragMove mv;
        mv.owner = std::move(owner);
        mv.srcBlockId = srcBlock->id;
        mv.srcOffset = src.offset;
        mv.size = src.size;
        mv.dst.m_Pool = shared_from_this();
        mv.dst.m_Block = dstBlock;
        mv.dst.m_Offset = offset;
        mv.dst.m_Size = src.size;
        mv.dst.m_Alignment = src.alignment;
        moves.push_back(std::move(mv));
    };

    // Phase 1 (every algorithm): empty the least-used blocks into fuller ones.
    for (size_t si = order.size(); si-- > 1;) {
        MemoryBlock* src = order[si];
        for (auto& [info, owner] : candidates(src)) {
            if (!budgetLeft(info->size)) return moves;
            for (size_t di = 0; di < si; ++di) {
                MemoryBlock* dst = order[di];
                if (dst->cls != src->cls || !dst->tlsf) continue;
                uint64_t off = alloc::kInvalidOffset;
                if (!TryPlaceLocked(*dst, info->size, info->alignment, off)) continue;
                reserve(dst, off, src, *info, owner);
                break;
            }
        }
    }
    if (algorithm == DefragAlgorithm::Fast) return moves;
    // Phase 2: compact each block: allocations that lie beyond the size the block's live
    // allocations would take packed ("target") move into the lowest free range below them, so
    // each moves about once and the next pass (after these sources are freed) finds the block
    // packed. Balanced moves only allocations no larger than the block's average.
    for (MemoryBlock* b : order) {
        if (!b->tlsf) continue;
        uint64_t count = 0, live = 0;
        for (const auto& kv : b->records)
            if (!kv.second.pendingFree && !kv.second.moving) {
                ++count;
                live += kv.second.size;
            }
        const uint64_t average = count ? live / count : 0;
        for (auto& [info, owner] : candidates(b)) {
            if (info->offset + info->size <= live) continue;  // already inside the packed prefix
            if (algorithm == DefragAlgorithm::Balanced && info->size > average) continue;
            if (!budgetLeft(info->size)) return moves;
            const uint64_t off = b->tlsf->AllocateLowest(info->size, info->alignment, info->offset);
            if (off == alloc::kInvalidOffset) continue;
            reserve(b, off, b, *info, owner);
        }
    }
    return moves;
}

}  // namespace dx12kit::memory
