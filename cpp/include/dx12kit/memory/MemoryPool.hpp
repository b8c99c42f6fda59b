// MemoryPool: ID3D12Heap blocks of one heap kind, sub-allocated by the allocation core.
//
//   MemoryPool (one mutex)
//   +-- block 0: ID3D12Heap 8 MiB   [buf a][ free ][tex b][pending c][ free      ]   TlsfAllocator
//   +-- block 1: ID3D12Heap 16 MiB  [rt d ][ free                               ]   (or Linear)
//   +-- committed: resources with their own memory (requests over half a block, committed=True)
//
// Placement: TlsfAllocator over the block's bytes (or LinearAllocator for linear pools: offsets
// only grow, and a block starts again at 0 when its last allocation is released). A request goes
// to the first block of its resource class with room; when none has room a new block is created:
// its size is the pool's fixed block size or, for growing pools (blockSize 0), the preferred size
// divided by 8, 4 or 2 while that is larger than every existing block and at least twice the
// request (D3D12MA's growth rule), so small programs never reserve 64 MiB.
//
// Frees are deferred: MemoryAllocation's destructor (or Release) parks the range with the
// device's current submission serial; ReleaseStale(completed) returns ranges whose serial has
// completed, so memory is never reused while a submitted command list may still touch it. A
// block that becomes empty is released only when it stayed empty for the grace period and the
// pool has more than minBlocks blocks (so a per-frame allocate/free pattern does not create and
// destroy a heap every frame); Trim() releases such blocks at once.
//
// Budget: every block (and committed allocation) is charged to the shared MemoryBudget before it
// is created; a request with withinBudget fails with OutOfMemory instead of exceeding it.
//
// Ownership: pools are shared_ptr; every allocation holds its pool, so a pool lives until its last
// allocation is released. The ID3D12Device is borrowed (the device outlives every pool: resources
// and pools hold the DeviceContext). Thread-safety: every public method is thread-safe (one mutex per
// pool; D3D12 heap creation happens under it, heap destruction outside it).
#pragma once

#include "dx12kit/alloc/LinearAllocator.hpp"
#include "dx12kit/alloc/TlsfAllocator.hpp"
#include "dx12kit/memory/MemoryTypes.hpp"
#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"
#include "dx12kit/platform/Fork.hpp"

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace dx12kit::memory {

class MemoryPool;
struct MemoryBlock;

/// D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT: the alignment a heap holding MSAA textures must
/// be created with (D3D12_HEAP_DESC), even where OPTIONS4 grants the textures themselves 64 KiB.
inline constexpr uint64_t kMsaaHeapAlignment = uint64_t(4) << 20;
/// D3D12_HEAP_DESC.Alignment dx12kit gives a block of `kind` holding `cls` (ResourceClass::Any on
/// tier 2): 4 MiB when the heap may hold MSAA textures (render targets or depth buffers in 'default'
/// or 'custom' memory), else 64 KiB. D3D12MA chooses the same way.
uint64_t HeapAlignmentFor(HeapKind kind, ResourceClass cls);

/// The device's memory budget and what counts against it (bytes; lock-free counters).
struct MemoryBudget {
    uint64_t budgetBytes = 0;  ///< 0 = no limit
    /// All the memory the device can use, every segment together (0 = unknown). No single heap or
    /// committed resource can be larger, whatever `withinBudget` says: drivers differ in whether
    /// they refuse such a request (Mesa 22's lavapipe did) or grant it lazily (Mesa 25's lavapipe
    /// gave a 1 TiB heap), so dx12kit refuses it itself (CheckCapacity).
    uint64_t capacityBytes = 0;
    std::atomic<uint64_t> blockBytes{0};       ///< heaps + committed resources
    std::atomic<uint64_t> allocationBytes{0};  ///< bytes handed out of them
    /// Reserves `bytes` of block memory; false (nothing reserved) when `withinBudget` and the budget
    /// would be exceeded.
    bool Reserve(uint64_t bytes, bool withinBudget);
    void Unreserve(uint64_t bytes) { blockBytes.fetch_sub(bytes, std::memory_order_relaxed); }
    /// Throws OutOfMemory naming `what` when `bytes` exceeds capacityBytes.
    void CheckCapacity(uint64_t bytes, const std::string& what) const;
};

/// One range of a pool block, or a committed resource's own memory. Move-only handle: releasing
/// it (destructor or Release()) frees the range when the device's current submission serial has
/// completed. A default-constructed allocation is null.
class MemoryAllocation {
public:
    MemoryAllocation() = default;
    ~MemoryAllocation() { Release(); }
    MemoryAllocation(MemoryAllocation&& o) noexcept { *this = std::move(o); }
    MemoryAllocation& operator=(MemoryAllocation&& o) noexcept;
    MemoryAllocation(const MemoryAllocation&) = delete;
    MemoryAllocation& operator=(const MemoryAllocation&) = delete;

    void Release() noexcept;
    bool IsNull() const noexcept { return !m_Pool; }
    bool IsCommitted() const noexcept { return m_Committed; }
    /// A resource placed by the user in memory it allocated (MemoryManager::AllocateMemory): the
    /// record shows where it lies; releasing it frees nothing.
    bool IsAlias() const noexcept { return m_Alias; }
    /// The heap the range lies in (borrowed); nullptr for a committed allocation.
    ID3D12Heap* Heap() const noexcept;
    uint64_t Offset() const noexcept { return m_Offset; }
    uint64_t Size() const noexcept { return m_Size; }
    uint64_t Alignment() const noexcept { return m_Alignment; }
    /// The block's id within its pool (stable while the block lives); 0 for committed memory.
    uint64_t BlockId() const noexcept;
    uint64_t BlockSize() const noexcept;
    /// D3D12_HEAP_DESC.Alignment of the block's heap (64 KiB or 4 MiB); 0 for committed memory.
    uint64_t HeapAlignment() const noexcept;
    /// The resource class the block's heap allows (Any on tier 2); Any for committed memory.
    ResourceClass HeapClass() const noexcept;
    MemoryPool* Pool() const noexcept { return m_Pool.get(); }
    const std::shared_ptr<MemoryPool>& PoolPtr() const noexcept { return m_Pool; }

private:
    friend class MemoryPool;
    std::shared_ptr<MemoryPool> m_Pool;
    MemoryBlock* m_Block = nullptr;  // owned by m_Pool; nullptr when committed
    uint64_t m_Offset = 0;
    uint64_t m_Size = 0;
    uint64_t m_Alignment = 0;
    uint64_t m_CommittedId = 0;  // committed allocations and aliases: their record's id
    bool m_Committed = false;
    bool m_Alias = false;
};

/// What the pool remembers of each live allocation (statistics, JSON, heap map).
struct AllocationInfo {
    uint64_t offset = 0;
    uint64_t size = 0;
    uint64_t alignment = 0;
    AllocationKind kind = AllocationKind::Buffer;
    uint32_t resourceFlags = 0;  ///< D3D12_RESOURCE_FLAGS of the resource
    bool pendingFree = false;    ///< released, waiting for its serial to complete
    bool aliased = false;        ///< placed by the user in allocated memory (overlaps it)
    bool moving = false;         ///< chosen as the source of a defragmentation move
    std::string name;
    std::weak_ptr<void> owner;  ///< the resource that lives here, if it may be moved
};

enum class DefragAlgorithm : uint8_t {
    Fast = 0,      ///< empty the least-used blocks into free space of fuller ones
    Balanced = 1,  ///< Fast, and move allocations no larger than the block's average down within blocks
    Full = 2,      ///< Fast, and move every allocation to the lowest free range that holds it
};

/// One planned move: `owner`'s memory goes from (srcBlockId, srcOffset) to `dst`, a live
/// allocation reserved for it that overlaps nothing. The caller copies the resource, re-points
/// it to `dst` and releases the old allocation (deferred, as every free).
struct DefragMove {
    std::shared_ptr<void> owner;
    uint64_t srcBlockId = 0;
    uint64_t srcOffset = 0;
    uint64_t size = 0;
    MemoryAllocation dst;
};

/// A snapshot of one block, for the JSON dump.
struct BlockSnapshot {
    uint64_t id = 0;
    uint64_t size = 0;
    ResourceClass cls = ResourceClass::Any;
    uint64_t heapAlignment = 0;                         ///< D3D12_HEAP_DESC.Alignment
    std::vector<AllocationInfo> allocations;            // address order
    std::vector<std::pair<uint64_t, uint64_t>> unused;  // (offset, size), address order
};

class MemoryPool : public std::enable_shared_from_this<MemoryPool> {
public:
    /// `heapProperties` of every block; `preferredBlockSize` is used when desc.blockSize is 0.
    /// `isDefault`: one of the device's own pools (committed fallbacks allowed).
    MemoryPool(ID3D12Device* device, const std::atomic<uint64_t>& lastSerial, std::shared_ptr<MemoryBudget> budget, const PoolDesc& desc,
               const D3D12_HEAP_PROPERTIES& heapProperties, bool tier1, uint64_t preferredBlockSize, bool isDefault,
               std::chrono::milliseconds emptyGrace);
    ~MemoryPool();
    MemoryPool(const MemoryPool&) = delete;
    MemoryPool& operator=(const MemoryPool&) = delete;

    const PoolDesc& Desc() const { return m_Desc; }
    ID3D12Device* D3D12Device() const { return m_Device.Get(); }
    bool IsDefault() const { return m_IsDefault; }
    const D3D12_HEAP_PROPERTIES& HeapProperties() const { return m_HeapProperties; }
    uint64_t PreferredBlockSize() const { return m_Desc.blockSize ? m_Desc.blockSize : m_Preferred; }

    /// Places `size` bytes at a multiple of `alignment` in a block of class `cls` (Any on tier 2),
    /// creating a block when none has room. Throws OutOfMemory (nothing changed) at the block
    /// limit, over the budget with `withinBudget`, or when the heap cannot be created; throws
    /// InvalidArgument when the request cannot fit a block of a fixed-size pool.
    MemoryAllocation Allocate(uint64_t size, uint64_t alignment, ResourceClass cls, AllocationKind kind, uint32_t resourceFlags,
                              const std::string& name, bool withinBudget);
    /// Accounts a committed resource of `size` bytes to this pool (charged to the budget;
    /// OutOfMemory with `withinBudget` over it). The returned handle uncharges it when released.
    MemoryAllocation AddCommitted(uint64_t size, uint64_t alignment, AllocationKind kind, uint32_t resourceFlags, const std::string& name,
                                  bool withinBudget);

    /// Records that a resource now lies at [offset, offset + size) of the block `memory` lies in
    /// (an alias: it takes no space of its own). The returned handle removes the record.
    MemoryAllocation AddAlias(const MemoryAllocation& memory, uint64_t offset, uint64_t size, uint64_t alignment, AllocationKind kind,
                              uint32_t resourceFlags, const std::string& name);

    /// Remembers which resource lives in `a` (a placed allocation of this pool), so that
    /// defragmentation can move it.
    void SetOwner(const MemoryAllocation& a, std::weak_ptr<void> owner);
    /// Plans at most `maxMoves` moves of at most `maxBytes` bytes in all (0: no limit) of
    /// allocations whose owner is alive and accepted by `movable`. Linear pools throw InvalidArgument.
    std::vector<DefragMove> PlanDefragmentation(DefragAlgorithm algorithm, uint64_t maxBytes, uint64_t maxMoves,
                                                const std::function<bool(const std::shared_ptr<void>&)>& movable);
    /// Forgets the `moving` mark of a planned move that was not carried out (its dst is released by the caller).
    void CancelMove(uint64_t srcBlockId, uint64_t srcOffset);

    /// Returns ranges freed at serials <= completed; releases blocks that stayed empty for the
    /// grace period (above minBlocks).
    void ReleaseStale(uint64_t completed);
    /// Releases every empty block above minBlocks now (after ReleaseStale(completed)).
    void Trim(uint64_t completed);

    /// Stats, Validate and BlockCount take the pool's lock: in a process forked since the pool was
    /// created (its lock may have been copied held) they throw ForkedDevice instead.
    MemoryStats Stats() const;
    /// Per block: its allocations and unused ranges; and the committed allocations.
    void Snapshot(std::vector<BlockSnapshot>& blocks, std::vector<AllocationInfo>& committed) const;
    /// Throws dx12kit::Error naming the first broken invariant (blocks, allocators, records, budget).
    void Validate() const;
    size_t BlockCount() const;
    /// The pool's lock, for a caller that must see several pools at one instant (MemoryManager::Validate).
    std::unique_lock<std::mutex> Lock() const;
    /// Bytes of blocks and committed resources (caller holds Lock()).
    uint64_t BlockBytesLocked() const;

private:
    friend class MemoryAllocation;
    void Free(MemoryAllocation& a) noexcept;
    MemoryBlock* CreateBlockLocked(uint64_t size, ResourceClass cls, bool withinBudget);
    uint64_t NewBlockSizeLocked(uint64_t request) const;
    MemoryBlock* NewBlockForLocked(uint64_t request, ResourceClass cls, bool withinBudget);
    bool TryPlaceLocked(MemoryBlock& b, uint64_t size, uint64_t alignment, uint64_t& offset);
    void ReleaseStaleLocked(uint64_t completed);
    void CollectEmptyLocked(bool all, std::vector<std::unique_ptr<MemoryBlock>>& out);

    ComPtr<ID3D12Device> m_Device;              // a reference: a pool (held by Python) may outlive the Device object
    const std::atomic<uint64_t>& m_LastSerial;  // the device's; every allocation's holder keeps the device alive
    std::shared_ptr<MemoryBudget> m_Budget;
    PoolDesc m_Desc;
    D3D12_HEAP_PROPERTIES m_HeapProperties;
    bool m_Tier1;
    uint64_t m_Preferred;
    bool m_IsDefault;
    std::chrono::milliseconds m_EmptyGrace;

    platform::ForkStamp m_Fork;
    mutable std::mutex m_Mutex;
    std::vector<std::unique_ptr<MemoryBlock>> m_Blocks;
    uint64_t m_NextBlockId = 1;
    struct PendingFree {
        uint64_t serial;  // the device's last submission serial when the range was released
        MemoryBlock* block;
        uint64_t offset;
    };
    std::deque<PendingFree> m_Pending;  // in serial order (serials are read under m_Mutex)
    uint64_t m_LiveBytes = 0;           // bytes of live + pending allocations in blocks
    uint64_t m_LiveCount = 0;
    std::unordered_map<uint64_t, AllocationInfo> m_Committed;  // id -> info
    uint64_t m_CommittedBytes = 0;
    uint64_t m_NextCommittedId = 1;
};

}  // namespace dx12kit::memory
