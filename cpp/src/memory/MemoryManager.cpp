#include "dx12kit/memory/MemoryManager.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/platform/HResult.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace dx12kit::memory {

namespace {
constexpr uint64_t kSmallTextureAlignment = D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT;    // 4 KiB
constexpr uint64_t kDefaultAlignment = D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT;       // 64 KiB
constexpr uint64_t kSmallMsaaAlignment = D3D12_SMALL_MSAA_RESOURCE_PLACEMENT_ALIGNMENT;  // 64 KiB

ResourceClass ClassOf(const D3D12_RESOURCE_DESC& d) {
    if (d.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER) return ResourceClass::Buffer;
    if (d.Flags & (D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL)) return ResourceClass::RtDsTexture;
    return ResourceClass::Texture;
}
}  // namespace

void CheckPlacement(uint64_t heapSize, uint64_t offset, uint64_t size, uint64_t alignment, const char* what) {
    if (alignment == 0 || offset % alignment)
        throw InvalidArgument(std::string(what) + ": offset " + std::to_string(offset) + " is not a multiple of the resource's alignment " +
                              std::to_string(alignment) + " (GetResourceAllocationInfo's; D3D12 CreatePlacedResource requires it)");
    if (offset > heapSize || size > heapSize - offset)
        throw InvalidArgument(std::string(what) + ": " + std::to_string(size) + " bytes at offset " + std::to_string(offset) + " do not fit the " +
                              std::to_string(heapSize) + " bytes of memory");
}

void CheckMsaaHeap(uint64_t heapAlignment, ResourceClass heapClass, uint32_t sampleCount, const char* what) {
    if (sampleCount <= 1) return;
    if (heapAlignment < kMsaaHeapAlignment)
        throw InvalidArgument(std::string(what) + ": a multisampled texture (" + std::to_string(sampleCount) +
                              " samples) must be placed in a heap created with 4 MiB alignment "
                              "(D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT, D3D12_HEAP_DESC); this heap has " +
                              std::to_string(heapAlignment) + "-byte alignment. Place it in 'default' memory that may hold render targets");
    if (heapClass != ResourceClass::Any && heapClass != ResourceClass::RtDsTexture)
        throw InvalidArgument(std::string(what) + ": a multisampled texture needs a heap that allows render-target and depth textures " +
                              "(resource heap tier 1: D3D12_HEAP_FLAG_ALLOW_ONLY_RT_DS_TEXTURES); this heap allows only " +
                              ResourceClassName(heapClass));
}

MemoryManager::MemoryManager(ID3D12Device* device, const std::atomic<uint64_t>& lastSerial, const MemoryOptions& options)
    : m_Device(device), m_LastSerial(lastSerial), m_Options(options), m_Budget(std::make_shared<MemoryBudget>()) {
    if (m_Options.preferredBlockSize < kDefaultAlignment || m_Options.preferredBlockSize % kDefaultAlignment)
        throw InvalidArgument("memory block size " + std::to_string(m_Options.preferredBlockSize) +
                              " must be a positive multiple of 65536 (D3D12's heap alignment)");
    D3D12_FEATURE_DATA_D3D12_OPTIONS o{};
    if (SUCCEEDED(device->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS, &o, sizeof o))) m_Tier1 = o.ResourceHeapTier == D3D12_RESOURCE_HEAP_TIER_1;
    else m_Tier1 = true;
    if (m_Options.forceTier1) m_Tier1 = true;
    D3D12_FEATURE_DATA_ARCHITECTURE arch{};
    if (SUCCEEDED(device->CheckFeatureSupport(D3D12_FEATURE_ARCHITECTURE, &arch, sizeof arch))) {
        m_Uma = arch.UMA;
        m_CacheCoherentUma = arch.CacheCoherentUMA;
    }
#ifdef D3D12_FEATURE_D3D12_OPTIONS4
    D3D12_FEATURE_DATA_D3D12_OPTIONS4 o4{};
    if (SUCCEEDED(device->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS4, &o4, sizeof o4)))
        m_Msaa64KbAlignment = o4.MSAA64KBAlignedTextureSupported;
#endif
    m_LocalBytes = platform::LocalMemoryBytes(device, m_Uma);
    m_Budget->budgetBytes = m_Options.budgetBytes ? m_Options.budgetBytes : m_LocalBytes / 10 * 8;
    m_Budget->capacityBytes = platform::TotalMemoryBytes(device);
    const std::chrono::milliseconds grace(m_Options.emptyBlockGraceMs);
    for (int k = 0; k < kHeapKindCount; ++k) {
        const HeapKind kind = static_cast<HeapKind>(k);
        if (kind == HeapKind::Custom && !m_CacheCoherentUma) continue;
        PoolDesc d;
        d.heap = kind;
        d.name = std::string(HeapKindName(kind)) + " (default pool)";
        m_DefaultPools[k] = std::make_shared<MemoryPool>(device, m_LastSerial, m_Budget, d, HeapPropertiesOf(kind), m_Tier1,
                                                         m_Options.preferredBlockSize, true, grace);
    }
}

MemoryManager::~MemoryManager() = default;

D3D12_HEAP_PROPERTIES MemoryManager::HeapPropertiesOf(HeapKind kind) const {
    D3D12_HEAP_PROPERTIES hp{};
    hp.CreationNodeMask = 1;
    hp.VisibleNodeMask = 1;
    switch (kind) {
        case HeapKind::Default: hp.Type = D3D12_HEAP_TYPE_DEFAULT; break;
        case HeapKind::Upload: hp.Type = D3D12_HEAP_TYPE_UPLOAD; break;
        case HeapKind::Readback: hp.Type = D3D12_HEAP_TYPE_READBACK; break;
        case HeapKind::Custom:
            if (!m_CacheCoherentUma)
                throw InvalidArgument("heap='custom' (CPU-visible device memory) needs a cache-coherent UMA adapter; this one is not");
            hp.Type = D3D12_HEAP_TYPE_CUSTOM;
            hp.CPUPageProperty = D3D12_CPU_PAGE_PROPERTY_WRITE_BACK;
            hp.MemoryPoolPreference = D3D12_MEMORY_POOL_L0;
            break;
    }
    return hp;
}

D3D12_RESOURCE_ALLOCATION_INFO MemoryManager::AllocationInfo(D3D12_RESOURCE_DESC& desc) const {
    D3D12_RESOURCE_ALLOCATION_INFO info{};
    if (desc.Dimension != D3D12_RESOURCE_DIMENSION_BUFFER) {
        // Small placement alignment (4 KiB; 64 KiB for MSAA) exists for textures that are not render
        // targets or depth buffers, and for MSAA targets where OPTIONS4 grants it; D3D12 answers
        // with a larger alignment when the texture is too big for it, and then the default is used.
        const bool msaa = desc.SampleDesc.Count > 1;
        const bool rtds = desc.Flags & (D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
        uint64_t small = 0;
        if (!msaa && !rtds) small = kSmallTextureAlignment;
        else if (msaa && m_Msaa64KbAlignment) small = kSmallMsaaAlignment;
        if (small) {
            desc.Alignment = small;
            info = m_Device->GetResourceAllocationInfo(0, 1, &desc);
            if (info.Alignment == small && info.SizeInBytes != UINT64_MAX) return info;
        }
    }
    desc.Alignment = 0;
    info = m_Device->GetResourceAllocationInfo(0, 1, &desc);
    if (info.SizeInBytes == UINT64_MAX || info.SizeInBytes == 0)
        throw UnsupportedDescription("the resource description is not valid for this device (GetResourceAllocationInfo refused it)");
    return info;
}

CreatedResource MemoryManager::CreateResource(const ResourceRequest& rq) {
    std::shared_ptr<MemoryPool> pool = rq.pool ? rq.pool : DefaultPool(rq.heap);
    if (!pool) (void)HeapPropertiesOf(rq.heap);  // throws the reason (custom heap without cache-coherent UMA)
    const HeapKind heap = pool->Desc().heap;
    D3D12_RESOURCE_DESC desc = rq.desc;
    if (desc.Dimension != D3D12_RESOURCE_DIMENSION_BUFFER && (heap == HeapKind::Upload || heap == HeapKind::Readback))
        throw InvalidArgument(std::string("textures cannot live in a '") + HeapKindName(heap) + "' heap (D3D12 allows only buffers there)");
    const D3D12_RESOURCE_ALLOCATION_INFO info = AllocationInfo(desc);
    // MSAA textures are placed like others: the blocks that may hold them are heaps of 4 MiB
    // alignment (HeapAlignmentFor; D3D12_HEAP_DESC), and the offset is a multiple of the texture's
    // own alignment (4 MiB, or 64 KiB where OPTIONS4 grants small MSAA alignment). vkd3d checks
    // neither; CheckMsaaHeap and CheckPlacement below do.
    bool committed = rq.committed;
    if (!committed && pool->IsDefault() && info.SizeInBytes > pool->PreferredBlockSize() / 2) committed = true;
    if (committed && !pool->IsDefault() && pool->Desc().blockSize)
        throw InvalidArgument("pool '" + pool->Desc().name +
                              "' has a fixed block size: its resources are always placed (committed=True "
                              "is not possible there)");
    CreatedResource out;
    if (committed) {
        out.allocation = pool->AddCommitted(info.SizeInBytes, info.Alignment, rq.kind, desc.Flags, rq.name, rq.withinBudget);
        D3D12_HEAP_PROPERTIES hp = pool->HeapProperties();
        desc.Alignment = 0;
        const HRESULT hr = m_Device->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &desc, rq.initialState, rq.clearValue, IID_ID3D12Resource,
                                                             out.resource.ReleaseAndGetVoidAddress());
        if (hr == E_OUTOFMEMORY) throw OutOfMemory("CreateCommittedResource(" + std::to_string(info.SizeInBytes) + " bytes): out of memory");
        ThrowIfFailed(hr, "CreateCommittedResource");
        return out;
    }
    out.allocation = pool->Allocate(info.SizeInBytes, info.Alignment, ClassOf(desc), rq.kind, desc.Flags, rq.name, rq.withinBudget);
    CheckPlacement(out.allocation.BlockSize(), out.allocation.Offset(), info.SizeInBytes, info.Alignment, "placed resource");
    CheckMsaaHeap(out.allocation.HeapAlignment(), out.allocation.HeapClass(), desc.SampleDesc.Count, "placed resource");
    const HRESULT hr = m_Device->CreatePlacedResource(out.allocation.Heap(), out.allocation.Offset(), &desc, rq.initialState, rq.clearValue,
                                                      IID_ID3D12Resource, out.resource.ReleaseAndGetVoidAddress());
    if (hr == E_OUTOFMEMORY) throw OutOfMemory("CreatePlacedResource: out of memory");
    ThrowIfFailed(hr, "CreatePlacedResource");
    return out;
}

MemoryAllocation MemoryManager::AllocateMemory(uint64_t size, uint64_t alignment, HeapKind heap, const std::shared_ptr<MemoryPool>& pool,
                                               bool withinBudget, const std::string& name) {
    if (size == 0) throw InvalidArgument("allocate_memory: size must be positive");
    if (alignment < kSmallTextureAlignment || (alignment & (alignment - 1)))
        throw InvalidArgument("allocate_memory: alignment " + std::to_string(alignment) + " must be a power of two >= 4096");
    std::shared_ptr<MemoryPool> p = pool ? pool : DefaultPool(heap);
    if (!p) (void)HeapPropertiesOf(heap);
    // Raw memory may hold any class on tier 2; on tier 1 it holds buffers (D3D12 heaps of tier 1
    // accept one class each).
    return p->Allocate(size, alignment, m_Tier1 ? ResourceClass::Buffer : ResourceClass::Any, AllocationKind::Memory, 0, name, withinBudget);
}

ComPtr<ID3D12Resource> MemoryManager::CreatePlacedResource(const MemoryAllocation& memory, uint64_t offset, const D3D12_RESOURCE_DESC& d,
                                                           D3D12_RESOURCE_STATES initialState, const D3D12_CLEAR_VALUE* clearValue,
                                                           D3D12_RESOURCE_ALLOCATION_INFO* infoOut) {
    if (memory.IsNull() || memory.IsCommitted() || memory.IsAlias()) throw InvalidArgument("placed resource: the memory is not a heap range");
    D3D12_RESOURCE_DESC desc = d;
    const D3D12_RESOURCE_ALLOCATION_INFO info = AllocationInfo(desc);
    if (infoOut) *infoOut = info;
    CheckPlacement(memory.Size(), offset, info.SizeInBytes, info.Alignment, "placed resource");
    CheckPlacement(memory.BlockSize(), memory.Offset() + offset, info.SizeInBytes, info.Alignment, "placed resource (heap offset)");
    // Tier 1: a heap holds one resource class, and raw memory is taken from buffer heaps there.
    if (m_Tier1 && ClassOf(desc) != ResourceClass::Buffer)
        throw InvalidArgument(
            "placed resource: on resource heap tier 1 allocated memory holds buffers only (D3D12 heaps of tier 1 "
            "accept one resource class)");
    CheckMsaaHeap(memory.HeapAlignment(), memory.HeapClass(), desc.SampleDesc.Count, "placed resource");
    ComPtr<ID3D12Resource> r;
    ThrowIfFailed(m_Device->CreatePlacedResource(memory.Heap(), memory.Offset() + offset, &desc, initialState, clearValue, IID_ID3D12Resource,
                                                 r.ReleaseAndGetVoidAddress()),
                  "CreatePlacedResource");
    return r;
}

std::shared_ptr<MemoryPool> MemoryManager::CreatePool(const PoolDesc& desc) {
    m_Fork.Check("create_pool");
    PoolDesc d = desc;
    if (d.name.empty()) d.name = std::string("pool/") + HeapKindName(d.heap);
    auto pool = std::make_shared<MemoryPool>(m_Device, m_LastSerial, m_Budget, d, HeapPropertiesOf(d.heap), m_Tier1, m_Options.preferredBlockSize,
                                             false, std::chrono::milliseconds(m_Options.emptyBlockGraceMs));
    std::lock_guard<std::mutex> lock(m_PoolsMutex);
    m_CustomPools.erase(std::remove_if(m_CustomPools.begin(), m_CustomPools.end(), [](const auto& w) { return w.expired(); }), m_CustomPools.end());
    m_CustomPools.push_back(pool);
    return pool;
}

std::vector<std::shared_ptr<MemoryPool>> MemoryManager::AllPools() const {
    std::vector<std::shared_ptr<MemoryPool>> out;
    for (const auto& p : m_DefaultPools)
        if (p) out.push_back(p);
    std::lock_guard<std::mutex> lock(m_PoolsMutex);
    for (const auto& w : m_CustomPools)
        if (auto p = w.lock()) out.push_back(std::move(p));
    return out;
}

void MemoryManager::ReleaseStale(uint64_t completed) {
    for (const auto& p : AllPools()) p->ReleaseStale(completed);
}

void MemoryManager::Trim(uint64_t completed) {
    for (const auto& p : AllPools()) p->Trim(completed);
}

TotalMemoryStats MemoryManager::Stats() const {
    m_Fork.Check("memory_stats");
    TotalMemoryStats t;
    for (const auto& p : AllPools()) {
        const MemoryStats s = p->Stats();
        t.heapKinds[static_cast<int>(p->Desc().heap)].Add(s);
        t.total.Add(s);
    }
    return t;
}

BudgetInfo MemoryManager::Budget(bool local) const {
    m_Fork.Check("memory_budget");
    // On UMA every heap is local memory (D3D12MA: "UMA -> all LOCAL"); otherwise upload and
    // readback heaps live in system memory (L1 segment is the GPU's, L0 the system's).
    BudgetInfo b;
    const TotalMemoryStats t = Stats();
    for (int k = 0; k < kHeapKindCount; ++k) {
        const HeapKind kind = static_cast<HeapKind>(k);
        const bool isLocal = m_Uma || kind == HeapKind::Default;
        if (isLocal != local) continue;
        b.blockBytes += t.heapKinds[k].blockBytes;
        b.allocationBytes += t.heapKinds[k].allocationBytes;
    }
    b.usageBytes = b.blockBytes;
    b.budgetBytes = local ? m_Budget->budgetBytes : 0;
    return b;
}

void MemoryManager::Validate() const {
    m_Fork.Check("validate_memory");
    std::vector<std::shared_ptr<MemoryPool>> pools = AllPools();
    for (const auto& p : pools) p->Validate();
    // Budget changes happen under each pool's lock: with every pool locked (in address order, as
    // nothing else holds two), the sum of their blocks must equal the budget's count. Pools that
    // died with their last allocation unreserved their blocks.
    std::sort(pools.begin(), pools.end());
    std::vector<std::unique_lock<std::mutex>> locks;
    uint64_t blockBytes = 0;
    for (const auto& p : pools) {
        locks.push_back(p->Lock());
        blockBytes += p->BlockBytesLocked();
    }
    if (blockBytes != m_Budget->blockBytes.load())
        throw Error("memory budget invalid: pools hold " + std::to_string(blockBytes) + " block bytes, the budget counts " +
                    std::to_string(m_Budget->blockBytes.load()));
}

// ------------------------------------------------------------------------------------- JSON

namespace {

void JsonString(std::ostringstream& o, const std::string& s) {
    o << '"';
    for (unsigned char c : s) {
        switch (c) {
            case '"': o << "\\\""; break;
            case '\\': o << "\\\\"; break;
            case '\n': o << "\\n"; break;
            case '\r': o << "\\r"; break;
            case '\t': o << "\\t"; break;
            case '\b': o << "\\b"; break;
            case '\f': o << "\\f"; break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    o << buf;
                } else {
                    o << static_cast<char>(c);  // UTF-8 passes through (names come from Python str)
                }
        }
    }
    o << '"';
}

void JsonStats(std::ostringstream& o, const MemoryStats& s) {
    const bool anyAlloc = s.allocationCount != 0, anyUnused = s.unusedRangeCount != 0;
    o << "{\"BlockCount\": " << s.blockCount << ", \"BlockBytes\": " << s.blockBytes << ", \"AllocationCount\": " << s.allocationCount
      << ", \"AllocationBytes\": " << s.allocationBytes << ", \"UnusedRangeCount\": " << s.unusedRangeCount
      << ", \"AllocationSizeMin\": " << (anyAlloc ? s.allocationSizeMin : 0) << ", \"AllocationSizeMax\": " << s.allocationSizeMax
      << ", \"UnusedRangeSizeMin\": " << (anyUnused ? s.unusedRangeSizeMin : 0) << ", \"UnusedRangeSizeMax\": " << s.unusedRangeSizeMax << "}";
}

void JsonAllocation(std::ostringstream& o, const AllocationInfo& a, bool withOffset) {
    o << "{";
    if (withOffset) o << "\"Offset\": " << a.offset << ", ";
    o << "\"Type\": \"" << AllocationKindName(a.kind) << "\", \"Size\": " << a.size << ", \"Flags\": " << a.resourceFlags;
    if (a.pendingFree) o << ", \"PendingFree\": true";
    if (a.aliased) o << ", \"Aliased\": true";
    o << ", \"Name\": ";
    JsonString(o, a.name);
    o << "}";
}

void JsonPool(std::ostringstream& o, const MemoryPool& p, bool detailed) {
    o << "{\"Name\": ";
    JsonString(o, p.Desc().name);
    o << ", \"HeapType\": \"" << HeapKindName(p.Desc().heap) << "\", \"Algorithm\": \""
      << (p.Desc().algorithm == PoolAlgorithm::Linear ? "linear" : "tlsf") << "\", \"BlockSize\": " << p.PreferredBlockSize()
      << ", \"FixedBlockSize\": " << (p.Desc().blockSize ? "true" : "false") << ", \"MinBlocks\": " << p.Desc().minBlocks
      << ", \"MaxBlocks\": " << p.Desc().maxBlocks << ", \"Stats\": ";
    JsonStats(o, p.Stats());
    if (detailed) {
        std::vector<BlockSnapshot> blocks;
        std::vector<AllocationInfo> committed;
        p.Snapshot(blocks, committed);
        o << ", \"Blocks\": [";
        for (size_t i = 0; i < blocks.size(); ++i) {
            const BlockSnapshot& b = blocks[i];
            uint64_t unusedBytes = 0;
            for (const auto& u : b.unused) unusedBytes += u.second;
            o << (i ? ", " : "") << "{\"Id\": " << b.id << ", \"TotalBytes\": " << b.size << ", \"UnusedBytes\": " << unusedBytes
              << ", \"ResourceClass\": \"" << ResourceClassName(b.cls) << "\", \"HeapAlignment\": " << b.heapAlignment
              << ", \"Allocations\": " << b.allocations.size() << ", \"UnusedRanges\": " << b.unused.size() << ", \"Suballocations\": [";
            // Allocations and free ranges merged in address order; padding that is neither (a
            // linear block's released space) is not listed.
            size_t ai = 0, ui = 0;
            bool first = true;
            while (ai < b.allocations.size() || ui < b.unused.size()) {
                const bool takeAlloc = ui >= b.unused.size() || (ai < b.allocations.size() && b.allocations[ai].offset < b.unused[ui].first);
                o << (first ? "" : ", ");
                first = false;
                if (takeAlloc) JsonAllocation(o, b.allocations[ai++], true);
                else {
                    o << "{\"Offset\": " << b.unused[ui].first << ", \"Type\": \"free\", \"Size\": " << b.unused[ui].second << "}";
                    ++ui;
                }
            }
            o << "]}";
        }
        o << "], \"DedicatedAllocations\": [";
        for (size_t i = 0; i < committed.size(); ++i) {
            o << (i ? ", " : "");
            JsonAllocation(o, committed[i], false);
        }
        o << "]";
    }
    o << "}";
}

}  // namespace

std::string MemoryManager::BuildJson(bool detailed, const std::string& adapterName) const {
    m_Fork.Check("memory_json");
    std::ostringstream o;
    const TotalMemoryStats t = Stats();
    o << "{\"General\": {\"API\": \"Direct3D 12\", \"Backend\": \"" << DX12KIT_BACKEND_NAME << "\", \"GPU\": ";
    JsonString(o, adapterName);
    o << ", \"ResourceHeapTier\": " << (m_Tier1 ? 1 : 2) << ", \"UMA\": " << (m_Uma ? "true" : "false")
      << ", \"CacheCoherentUMA\": " << (m_CacheCoherentUma ? "true" : "false") << ", \"LocalMemoryBytes\": " << m_LocalBytes
      << ", \"PreferredBlockSize\": " << m_Options.preferredBlockSize << "}, \"Total\": ";
    JsonStats(o, t.total);
    o << ", \"MemoryInfo\": {";
    for (int seg = 0; seg < 2; ++seg) {
        const BudgetInfo b = Budget(seg == 0);
        o << (seg ? ", " : "") << (seg == 0 ? "\"Local\"" : "\"NonLocal\"") << ": {\"BudgetBytes\": " << b.budgetBytes
          << ", \"UsageBytes\": " << b.usageBytes << ", \"BlockBytes\": " << b.blockBytes << ", \"AllocationBytes\": " << b.allocationBytes << "}";
    }
    o << "}, \"HeapTypes\": {";
    for (int k = 0; k < kHeapKindCount; ++k) {
        o << (k ? ", " : "") << "\"" << HeapKindName(static_cast<HeapKind>(k)) << "\": ";
        JsonStats(o, t.heapKinds[k]);
    }
    o << "}, \"DefaultPools\": {";
    bool first = true;
    for (int k = 0; k < kHeapKindCount; ++k) {
        if (!m_DefaultPools[k]) continue;
        o << (first ? "" : ", ") << "\"" << HeapKindName(static_cast<HeapKind>(k)) << "\": ";
        first = false;
        JsonPool(o, *m_DefaultPools[k], detailed);
    }
    o << "}, \"CustomPools\": [";
    std::vector<std::shared_ptr<MemoryPool>> custom;
    {
        std::lock_guard<std::mutex> lock(m_PoolsMutex);
        for (const auto& w : m_CustomPools)
            if (auto p = w.lock()) custom.push_back(std::move(p));
    }
    for (size_t i = 0; i < custom.size(); ++i) {
        o << (i ? ", " : "");
        JsonPool(o, *custom[i], detailed);
    }
    o << "]}";
    return o.str();
}

}  // namespace dx12kit::memory
