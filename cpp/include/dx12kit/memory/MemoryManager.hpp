// MemoryManager: the device's GPU memory, in the class of D3D12MA.
//
//   MemoryManager
//   +-- default pools, one per heap kind:  default | upload | readback | custom (cache-coherent UMA)
//   |     blocks grow 8 -> 16 -> 32 -> 64 MiB (preferred block size); on resource heap tier 1 each
//   |     block holds one resource class (buffers | textures | RT/DS textures)
//   +-- custom pools (CreatePool): fixed or growing block size, min/max blocks, TLSF or linear
//   +-- MemoryBudget: block bytes of every pool against the budget (80% of device-local memory
//   |   when the platform reports no budget: vkd3d has neither DXGI nor VK_EXT_memory_budget)
//   +-- CreateResource: size and alignment from GetResourceAllocationInfo (small textures at
//       4 KiB when the device grants it), placed resource in a pool block, or a committed
//       resource when asked for, or when the request is over half the preferred block size. MSAA
//       textures are placed too: blocks that may hold render targets (tier 2: every 'default' or
//       'custom' block; tier 1: the RT/DS blocks) are heaps of 4 MiB alignment (HeapAlignmentFor)
//
// Placement checks: vkd3d does not check placed offsets, so every CreatePlacedResource goes through
// CheckPlacement (offset a multiple of the resource's alignment, range inside the heap), which
// throws InvalidArgument before D3D12 sees a bad placement.
//
// Frees: see MemoryPool (deferred to the device's submission serial, empty blocks released after a
// grace period). ReleaseStale(completed) is called by the device whenever it learns progress.
//
// Ownership: owned by the DeviceContext; the ID3D12Device is borrowed. Pools are shared with the
// allocations made from them. Thread-safety: every public method is thread-safe; pools lock
// themselves, the manager locks only its list of custom pools.
#pragma once

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/memory/AliasMap.hpp"
#include "dx12kit/memory/MemoryPool.hpp"
#include "dx12kit/memory/MemoryTypes.hpp"
#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"
#include "dx12kit/platform/Fork.hpp"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dx12kit::memory {

/// The device refused a resource description (GetResourceAllocationInfo gave no size): creators
/// catch it to say which resource and why.
class UnsupportedDescription : public InvalidArgument {
public:
    using InvalidArgument::InvalidArgument;
};

struct MemoryOptions {
    uint64_t preferredBlockSize = uint64_t(64) << 20;  ///< block size of the default pools
    uint64_t budgetBytes = 0;                          ///< 0 = 80% of the device-local memory
    bool forceTier1 = false;                           ///< behave as on resource heap tier 1
    uint32_t emptyBlockGraceMs = 1000;                 ///< how long an empty block is kept
};

/// One resource to create.
struct ResourceRequest {
    D3D12_RESOURCE_DESC desc{};
    D3D12_RESOURCE_STATES initialState = D3D12_RESOURCE_STATE_COMMON;
    const D3D12_CLEAR_VALUE* clearValue = nullptr;
    HeapKind heap = HeapKind::Default;
    std::shared_ptr<MemoryPool> pool;  ///< nullptr: the default pool of `heap`
    bool committed = false;            ///< its own memory (CreateCommittedResource)
    bool withinBudget = false;         ///< OutOfMemory rather than exceed the budget
    AllocationKind kind = AllocationKind::Buffer;
    std::string name;
};

/// Raw memory users place resources in themselves (Device.allocate_memory). Resources placed in it
/// hold it, so it returns to its pool only after the last of them is gone.
struct MemoryRegion {
    std::shared_ptr<void> device;  ///< keeps the device (its serial counter) alive while the memory lives
    MemoryAllocation allocation;
    HeapKind heap = HeapKind::Default;
    std::string name;
    /// Which resource last used each range, as the executed command lists left it (guarded by
    /// the device's submission mutex; CommandQueue::Execute reads and advances it).
    AliasMap aliases;
};

struct CreatedResource {
    ComPtr<ID3D12Resource> resource;
    MemoryAllocation allocation;
};

/// Budget of one memory segment, as D3D12MA's Budget (bytes).
struct BudgetInfo {
    uint64_t budgetBytes = 0;
    uint64_t usageBytes = 0;  ///< the project's own bookkeeping (no DXGI here): block bytes
    uint64_t blockBytes = 0;
    uint64_t allocationBytes = 0;
};

struct TotalMemoryStats {
    MemoryStats total;
    std::array<MemoryStats, kHeapKindCount> heapKinds;
};

class MemoryManager {
public:
    MemoryManager(ID3D12Device* device, const std::atomic<uint64_t>& lastSerial, const MemoryOptions& options);
    ~MemoryManager();
    MemoryManager(const MemoryManager&) = delete;
    MemoryManager& operator=(const MemoryManager&) = delete;

    /// Creates the resource placed in a pool block or committed (see the header comment).
    CreatedResource CreateResource(const ResourceRequest& request);
    /// Raw memory for placing resources yourself (aliasing): a range of a pool block, or with
    /// `committed`, a heap of its own. `alignment` a power of two >= 4096.
    MemoryAllocation AllocateMemory(uint64_t size, uint64_t alignment, HeapKind heap, const std::shared_ptr<MemoryPool>& pool, bool withinBudget,
                                    const std::string& name);
    /// A resource placed at `offset` of `memory` (checked by CheckPlacement). The resource does not
    /// own the memory.
    /// `info` receives the resource's size and alignment.
    ComPtr<ID3D12Resource> CreatePlacedResource(const MemoryAllocation& memory, uint64_t offset, const D3D12_RESOURCE_DESC& desc,
                                                D3D12_RESOURCE_STATES initialState, const D3D12_CLEAR_VALUE* clearValue,
                                                D3D12_RESOURCE_ALLOCATION_INFO* info = nullptr);
    /// Size and alignment D3D12 needs for `desc` (small-texture alignment when granted).
    D3D12_RESOURCE_ALLOCATION_INFO AllocationInfo(D3D12_RESOURCE_DESC& desc) const;

    /// CreatePool, Stats, Budget, BuildJson and Validate throw ForkedDevice in a process forked
    /// since the manager (its device) was created: the pools' locks may have been copied held.
    std::shared_ptr<MemoryPool> CreatePool(const PoolDesc& desc);
    const std::shared_ptr<MemoryPool>& DefaultPool(HeapKind kind) const { return m_DefaultPools[static_cast<int>(kind)]; }

    void ReleaseStale(uint64_t completed);
    /// Releases every empty block above each pool's minimum now.
    void Trim(uint64_t completed);

    TotalMemoryStats Stats() const;
    /// Local and non-local segments (UMA: everything is local).
    BudgetInfo Budget(bool local) const;
    /// A JSON document in the spirit of D3D12MA's BuildStatsString(detailed).
    std::string BuildJson(bool detailed, const std::string& adapterName) const;
    /// Validates every pool (throws dx12kit::Error naming the first broken invariant).
    void Validate() const;

    bool Tier1() const { return m_Tier1; }
    bool CacheCoherentUma() const { return m_CacheCoherentUma; }
    bool Uma() const { return m_Uma; }
    uint64_t LocalMemoryBytes() const { return m_LocalBytes; }
    uint64_t PreferredBlockSize() const { return m_Options.preferredBlockSize; }
    const MemoryOptions& Options() const { return m_Options; }

    /// D3D12_HEAP_PROPERTIES of a heap kind (Custom: WRITE_BACK in L0; InvalidArgument when the
    /// adapter is not cache-coherent UMA).
    D3D12_HEAP_PROPERTIES HeapPropertiesOf(HeapKind kind) const;

private:
    std::vector<std::shared_ptr<MemoryPool>> AllPools() const;

    ID3D12Device* m_Device;
    platform::ForkStamp m_Fork;
    const std::atomic<uint64_t>& m_LastSerial;
    MemoryOptions m_Options;
    bool m_Tier1 = false;
    bool m_Uma = false;
    bool m_CacheCoherentUma = false;
    bool m_Msaa64KbAlignment = false;
    uint64_t m_LocalBytes = 0;
    std::shared_ptr<MemoryBudget> m_Budget;
    std::array<std::shared_ptr<MemoryPool>, kHeapKindCount> m_DefaultPools;
    mutable std::mutex m_PoolsMutex;
    std::vector<std::weak_ptr<MemoryPool>> m_CustomPools;
};

/// Throws InvalidArgument unless [offset, offset + size) lies in a heap of `heapSize` bytes and
/// offset is a multiple of `alignment` (D3D12: CreatePlacedResource's HeapOffset must be a
/// multiple of the resource's alignment and the resource must fit the heap; vkd3d checks neither).
void CheckPlacement(uint64_t heapSize, uint64_t offset, uint64_t size, uint64_t alignment, const char* what);

/// Throws InvalidArgument naming the rule unless a resource with `sampleCount` samples may be placed
/// in a heap created with `heapAlignment` whose flags allow `heapClass`: MSAA textures need a heap of
/// 4 MiB alignment (D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT) that allows render-target and
/// depth textures (tier 2: any heap of textures; tier 1: D3D12_HEAP_FLAG_ALLOW_ONLY_RT_DS_TEXTURES).
/// vkd3d checks neither. Single-sampled resources pass.
void CheckMsaaHeap(uint64_t heapAlignment, ResourceClass heapClass, uint32_t sampleCount, const char* what);

}  // namespace dx12kit::memory
