// Resource, Buffer and Texture: an ID3D12Resource with what dx12kit tracks about it.
//
// Ownership: a Resource holds a shared_ptr to its DeviceContext (so Python's collection order cannot
// destroy the device first). Command lists hold shared_ptrs to every resource they use until
// their fence completes, so destroying the last user-visible reference never frees memory the GPU
// still reads: by the time ~Resource runs, no submitted work uses it.
//
// Global state: the state every subresource is in once all executed command lists have run, in
// execution order. Guarded by the device's submission mutex (Device::SubmitMutex()); only the
// queue's execute (and the validation checks) read or write it.
//
// Views: SRV/UAV/RTV/DSV/CBV descriptors are created on first request from the device's CPU
// descriptor allocators and cached per view description, so binding a texture a thousand times
// creates one view. Thread-safe (a mutex per resource guards the cache).
#pragma once

#include "dx12kit/descriptors/DescriptorAllocation.hpp"
#include "dx12kit/memory/MemoryPool.hpp"
#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"
#include "dx12kit/resources/BufferView.hpp"
#include "dx12kit/resources/ResourceState.hpp"

#include <atomic>
#include <memory>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace dx12kit {

namespace memory {
struct MemoryRegion;
}
class DeviceContext;

enum class ViewKind : uint8_t { SRV, UAV, RTV, DSV, CBV };

class Resource : public std::enable_shared_from_this<Resource> {
public:
    Resource(std::shared_ptr<DeviceContext> core, ComPtr<ID3D12Resource> resource, D3D12_HEAP_TYPE heapType, D3D12_RESOURCE_STATES initialState,
             std::string name);
    virtual ~Resource();
    Resource(const Resource&) = delete;
    Resource& operator=(const Resource&) = delete;

    /// The native resource (borrowed: does not AddRef).
    ID3D12Resource* D3D12Resource() const { return m_d3d12Resource.Get(); }
    const D3D12_RESOURCE_DESC& Desc() const { return m_Desc; }
    const std::string& Name() const { return m_Name; }
    DeviceContext& Context() const { return *m_Context; }
    const std::shared_ptr<DeviceContext>& CorePtr() const { return m_Context; }
    /// The size in bytes the user asked for (buffers); the native resource may be larger.
    uint64_t Size() const { return m_LogicalSize; }
    void SetLogicalSize(uint64_t size) { m_LogicalSize = size; }
    /// The format views use by default (a texture created TYPELESS keeps the format it was asked for).
    void SetViewFormat(DXGI_FORMAT format) { m_ViewFormat = format; }
    D3D12_HEAP_TYPE HeapType() const { return m_HeapType; }
    bool IsBuffer() const { return m_Desc.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER; }
    uint32_t NumSubresources() const { return m_NumSubresources; }
    uint32_t MipLevels() const { return m_Desc.MipLevels; }
    /// Array slices: 1 for buffers and 3D textures (whose DepthOrArraySize is their depth), 6 for a cube.
    uint32_t ArraySize() const { return Is3D() ? 1u : m_Desc.DepthOrArraySize; }
    bool Is3D() const { return m_Desc.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D; }
    /// A cube texture: a 2D array of 6 faces (+X, -X, +Y, -Y, +Z, -Z) whose shader resource views
    /// are TEXTURECUBE; its unordered access and render target views are those of the 2D array.
    bool IsCube() const { return m_Cube; }
    void SetCube(bool cube) { m_Cube = cube; }
    /// Depth slices of `mip` (3D textures; 1 otherwise).
    uint32_t Depth(uint32_t mip = 0) const { return Is3D() ? std::max<uint32_t>(1u, uint32_t(m_Desc.DepthOrArraySize) >> mip) : 1u; }
    /// Planes: 2 for depth-stencil formats (depth, stencil), else 1. D3D12 numbers subresources
    /// mip + slice * mips + plane * mips * arraySize, and tracks (and transitions) each plane.
    uint32_t PlaneCount() const { return m_PlaneCount; }
    uint32_t Subresource(uint32_t mip, uint32_t slice, uint32_t plane = 0) const {
        return mip + slice * MipLevels() + plane * MipLevels() * ArraySize();
    }
    /// Samples per pixel (1, or the MSAA count of a multisampled texture).
    uint32_t SampleCount() const { return m_Desc.SampleDesc.Count; }
    bool AllowsUav() const { return m_Desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS; }
    bool AllowsRenderTarget() const { return m_Desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET; }
    bool AllowsDepthStencil() const { return m_Desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL; }
    D3D12_GPU_VIRTUAL_ADDRESS GpuAddress() const { return m_GpuAddress; }
    /// The format views use by default (the depth format for typeless depth textures).
    DXGI_FORMAT ViewFormat() const { return m_ViewFormat; }

    /// Throws InvalidArgument naming the resource when `sub` is not a subresource of it
    /// (kAllSubresources is accepted).
    void CheckSubresource(uint32_t sub) const;
    /// Throws InvalidArgument naming `what` and the resource when `mip` or `arraySlice` is out of range.
    void CheckMipSlice(uint32_t mip, uint32_t arraySlice, const char* what) const;

    // ---- memory -------------------------------------------------------------------------------
    /// The memory the resource lies in (null for resources the memory layer did not create).
    /// Released with the resource, which itself dies only after the GPU is done with it.
    const memory::MemoryAllocation& Memory() const { return m_Memory; }
    void AttachMemory(memory::MemoryAllocation&& m) { m_Memory = std::move(m); }
    /// Keeps `owner` (the memory the resource was placed in by the user) alive as long as the resource.
    void SetMemoryOwner(std::shared_ptr<void> owner) { m_MemoryOwner = std::move(owner); }
    const std::shared_ptr<void>& MemoryOwner() const { return m_MemoryOwner; }
    /// Placed by the user at [begin, end) of `region`, which other resources may share: the state
    /// tracker then records aliasing barriers by itself (ResourceStateTracker, D3D12Rules rule 6).
    void SetAliasRange(memory::MemoryRegion* region, uint64_t begin, uint64_t end) {
        m_AliasRegion = region;
        m_AliasBegin = begin;
        m_AliasEnd = end;
    }
    memory::MemoryRegion* AliasRegion() const { return m_AliasRegion; }
    uint64_t AliasBegin() const { return m_AliasBegin; }
    uint64_t AliasEnd() const { return m_AliasEnd; }
    /// Maps a CPU-visible buffer for the resource's lifetime (UPLOAD, READBACK, CUSTOM heaps).
    void MapPersistently();
    /// The persistent mapping, or nullptr.
    uint8_t* Mapped() const { return m_Mapped; }

    // ---- CPU access without staging (cache-coherent UMA, dx12kit/gpu/UmaAccess.hpp) -----------
    /// The serial of the latest execute whose lists used the resource (0: never used).
    uint64_t LastUseSerial() const { return m_LastUseSerial.load(std::memory_order_acquire); }
    void NoteUse(uint64_t serial) {
        uint64_t prev = m_LastUseSerial.load(std::memory_order_relaxed);
        while (serial > prev && !m_LastUseSerial.compare_exchange_weak(prev, serial, std::memory_order_acq_rel)) {}
    }
    /// A compute-queue list used the resource (noted at execute). The state tracker then keeps no
    /// wider read state holding PIXEL_SHADER_RESOURCE that a read did not ask for (a compute queue
    /// can neither use nor leave that state: the next compute list would need a direct-queue fix-up).
    bool UsedOnComputeQueue() const { return m_UsedOnCompute.load(std::memory_order_relaxed); }
    void NoteComputeQueueUse() { m_UsedOnCompute.store(true, std::memory_order_relaxed); }
    // ---- moving (defragmentation) -----------------------------------------------------------
    /// A command list being recorded uses the resource: it is not moved until EndUse. Waits while
    /// a move is in progress (a few microseconds).
    void BeginUse() const;
    void EndUse() const;
    /// Claims the resource for a move when no open list uses it and no pin holds it; EndMove
    /// releases the claim.
    bool TryBeginMove();
    void EndMove();
    /// Keeps the resource where it is while the returned token lives: dx12kit's own CPU pointer into
    /// a uma_direct buffer's mapping (uma::ReadDirect) stays valid, since Defragment (features/Defragment.hpp) moves no
    /// pinned resource. Counts as a use (BeginUse), so it waits while a move is in progress (a few
    /// microseconds); take the pointer (Mapped()) after pinning.
    std::shared_ptr<void> PinInPlace() const;
    /// Swaps in `resource` (a copy of this one, lying in `memory`) and re-creates every cached
    /// view at its existing descriptor. The old native resource and memory come back in the out
    /// parameters, to be released once the GPU copy that read them has completed. A persistently
    /// mapped resource passes `mapped`, the new resource's mapping (its old mapping goes with it).
    void Repoint(ComPtr<ID3D12Resource> resource, memory::MemoryAllocation&& memory, ComPtr<ID3D12Resource>& oldResource,
                 memory::MemoryAllocation& oldMemory, uint8_t* mapped = nullptr);

    // ---- closing ------------------------------------------------------------------------------
    /// Marks the resource closed: every later use by a command list or queue throws UseAfterFree.
    /// Work recorded or submitted before is unaffected: the C++ object, the native resource and
    /// its views live on until the last reference (the Python object, command lists and their
    /// in-flight records) goes away, so the GPU never reads freed memory. Idempotent.
    /// Marks the resource closed. In a forked child (the device predates the fork) throws ForkedDevice:
    /// the parent's resource is not the child's to close.
    void Close();
    bool IsClosed() const { return m_Closed.load(std::memory_order_acquire); }
    /// Throws UseAfterFree naming `what` and the resource when it was closed.
    void CheckNotClosed(const char* what) const {
        if (IsClosed()) ThrowClosed(what);
    }

    /// The state subresource `sub` (kAllSubresources: every one, which must then agree; InvalidArgument
    /// otherwise) is in once every executed command list has run. Takes the submission mutex itself;
    /// `what` names the caller in errors (a forked child's copy of the device raises ForkedDevice).
    D3D12_RESOURCE_STATES SettledState(uint32_t sub, const char* what);

    // ---- global state (caller holds Device::SubmitMutex()) ---------------------------------
    SubresourceStates& GlobalState() { return m_GlobalState; }
    /// Validation of D3D12Rules rule 6d (placed render targets and depth buffers only): per
    /// subresource (planes included), 1 when an initializing write (clear, full copy) defined its
    /// contents since the resource's last activation, else 0. Written at execute like GlobalState.
    std::vector<uint8_t>& DefinedContents() {
        if (m_Defined.size() != m_NumSubresources) m_Defined.assign(m_NumSubresources, 0);
        return m_Defined;
    }

    // ---- cross-queue hazards (caller holds Device::SubmitMutex(); CommandQueue::Execute) -------
    /// The last submission that wrote the resource (queue type and fence value; value 0: none) and,
    /// per queue type, the last submission that read it since. A write made later waited for every
    /// read recorded here (or ran on the same queue), so a write clears them.
    struct QueueUses {
        uint64_t writeValue = 0;
        uint8_t writeQueue = 0;
        uint64_t readValue[4] = {0, 0, 0, 0};  // by D3D12_COMMAND_LIST_TYPE (0, 2, 3)
    };
    QueueUses& CrossQueueUses() { return m_QueueUses; }

    // ---- views (cached) ---------------------------------------------------------------------
    /// SRV of mips [mostDetailedMip, mostDetailedMip + mipCount) (mipCount 0 = all remaining).
    D3D12_CPU_DESCRIPTOR_HANDLE Srv(uint32_t mostDetailedMip = 0, uint32_t mipCount = 0, DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN);
    D3D12_CPU_DESCRIPTOR_HANDLE Uav(uint32_t mip = 0);
    D3D12_CPU_DESCRIPTOR_HANDLE Rtv(uint32_t mip = 0, uint32_t arraySlice = 0);
    /// DSV of `mip`: every array slice (kAllSlices), or the one slice `arraySlice`.
    static constexpr uint32_t kAllSlices = 0xFFFFFFFFu;
    D3D12_CPU_DESCRIPTOR_HANDLE Dsv(uint32_t mip = 0, uint32_t arraySlice = kAllSlices);
    D3D12_CPU_DESCRIPTOR_HANDLE Cbv();
    /// A CBV of bytes [offset, offset + size) of a buffer (D3D12: offset and size multiples of 256,
    /// 0 < size <= 65536, within the buffer; InvalidArgument naming `what` otherwise), cached per range.
    D3D12_CPU_DESCRIPTOR_HANDLE CbvRange(uint64_t offset, uint32_t size, const char* what);
    /// A buffer's SRV (`uav` false) or UAV as `view` describes it (BufferView.hpp; checked with
    /// BufferViewProblem, InvalidArgument when it breaks D3D12's rules), cached per description.
    D3D12_CPU_DESCRIPTOR_HANDLE BufferView(bool uav, const BufferViewDesc& view);
    /// A structured buffer UAV as `view` describes it whose UAV counter is the 4 bytes at
    /// `counterOffset` of buffer `counter` (the caller checked D3D12's counter rules), cached per
    /// (view, counter, offset). The cache keeps the counter alive; either buffer moving rewrites it.
    D3D12_CPU_DESCRIPTOR_HANDLE CounterBufferView(const BufferViewDesc& view, const std::shared_ptr<Resource>& counter, uint64_t counterOffset);
    size_t CachedViewCount() const;
    /// The resources whose counter views name this one as their counter (tests: once per user).
    size_t CounterUserCount() const;
    /// BufferView's checks, without making a view (InvalidArgument).
    void CheckBufferView(bool uav, const BufferViewDesc& view) const;

protected:
    D3D12_CPU_DESCRIPTOR_HANDLE GetOrCreateView(ViewKind kind, uint32_t a, uint32_t b, DXGI_FORMAT format);
    /// Creates the view (kind, a, b, format) of the current native resource at `dst`.
    void WriteView(ViewKind kind, uint32_t a, uint32_t b, DXGI_FORMAT format, D3D12_CPU_DESCRIPTOR_HANDLE dst) const;
    void RewriteViewsLocked();  // caller holds m_ViewMutex
    /// The views of cube and 3D textures (TextureViews.cpp); false for other resources.
    bool WriteCubeOr3DView(ViewKind kind, uint32_t a, uint32_t b, DXGI_FORMAT format, D3D12_CPU_DESCRIPTOR_HANDLE dst) const;

    std::shared_ptr<DeviceContext> m_Context;
    std::shared_ptr<void> m_MemoryOwner;            // user memory the resource lies in (released last)
    memory::MemoryRegion* m_AliasRegion = nullptr;  // that memory (kept alive by m_MemoryOwner)
    uint64_t m_AliasBegin = 0, m_AliasEnd = 0;
    memory::MemoryAllocation m_Memory;  // declared before the resource: released after it
    uint8_t* m_Mapped = nullptr;
    std::atomic<uint64_t> m_LastUseSerial{0};
    std::atomic<bool> m_UsedOnCompute{false};  // UsedOnComputeQueue
    uint64_t m_LogicalSize = 0;
    ComPtr<ID3D12Resource> m_d3d12Resource;
    D3D12_RESOURCE_DESC m_Desc;
    D3D12_HEAP_TYPE m_HeapType;
    std::string m_Name;
    uint32_t m_NumSubresources;
    uint32_t m_PlaneCount = 1;
    bool m_Cube = false;
    D3D12_GPU_VIRTUAL_ADDRESS m_GpuAddress = 0;
    DXGI_FORMAT m_ViewFormat;
    SubresourceStates m_GlobalState;
    QueueUses m_QueueUses;           // CrossQueueUses (guarded by the submission mutex)
    std::vector<uint8_t> m_Defined;  // DefinedContents (sized on first use)
    std::atomic<bool> m_Closed{false};
    static constexpr uint32_t kMoving = 0x80000000u;
    mutable std::atomic<uint32_t> m_Uses{0};  // open command lists and pins using it; kMoving while being moved
    [[noreturn]] void ThrowClosed(const char* what) const;

    mutable std::mutex m_ViewMutex;
    std::unordered_map<uint64_t, DescriptorAllocation> m_Views;
    /// BufferView's descriptors: (uav, kind, format, stride, first element, count) -> descriptor.
    using BufferViewKey = std::tuple<bool, uint8_t, uint32_t, uint32_t, uint64_t, uint32_t>;
    std::map<BufferViewKey, DescriptorAllocation> m_BufferViews;
    void WriteBufferView(const BufferViewKey& key, D3D12_CPU_DESCRIPTOR_HANDLE dst) const;
    /// CbvRange's descriptors: (offset, size) -> descriptor.
    std::map<std::pair<uint64_t, uint32_t>, DescriptorAllocation> m_CbvRanges;
    void WriteCbvRange(uint64_t offset, uint32_t size, D3D12_CPU_DESCRIPTOR_HANDLE dst) const;
    /// CounterBufferView's descriptors: (view, counter, counter offset) -> descriptor and the counter.
    struct CounterView {
        DescriptorAllocation descriptor;
        std::shared_ptr<Resource> counter;
    };
    std::map<std::tuple<BufferViewKey, const Resource*, uint64_t>, CounterView> m_CounterViews;
    void WriteCounterView(const BufferViewKey& key, const Resource& counter, uint64_t offset, D3D12_CPU_DESCRIPTOR_HANDLE dst) const;
    /// The buffers whose counter views name this one as their counter (rewritten when this one moves).
    std::vector<std::weak_ptr<Resource>> m_CounterUsers;
    void RewriteCounterViews();
    void RepointLocked(ComPtr<ID3D12Resource> resource, memory::MemoryAllocation&& memory, ComPtr<ID3D12Resource>& oldResource,
                       memory::MemoryAllocation& oldMemory, uint8_t* mapped);  // caller holds m_ViewMutex
};

class Buffer : public Resource {
public:
    using Resource::Resource;
    /// The CPU address of a CPU-visible buffer (heap upload, readback or custom) to view as items of
    /// `itemSize` bytes: InvalidArgument for a GPU-only buffer (uma_direct buffers included: they are
    /// mapped for dx12kit only) or a size that is not a whole number of items, UseAfterFree once
    /// closed, ForkedDevice in a forked child. `what` names the caller in errors.
    /// The address stays valid while the buffer lives: CPU-visible buffers never move (only
    /// heap='default' resources are movable, Device::AdoptPlacement).
    uint8_t* HostView(uint64_t itemSize, const char* what) const;
};

/// Where subresource (mip, slice) lies in a buffer, as D3D12's copies lay it out (rows 256-byte aligned).
struct TextureFootprint {
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT placed;
    uint32_t rows;        ///< rows of every depth slice (3D: height x depth; slices follow each other at rows x pitch)
    uint64_t rowBytes;    ///< bytes of one tightly packed row
    uint64_t totalBytes;  ///< bytes the layout spans from placed.Offset (the last row is not padded)
    /// Bytes when every row, the last one included, is padded to the row pitch: what a caller who
    /// views the memory as (rows, pitch) needs.
    uint64_t PaddedBytes() const { return uint64_t(placed.Footprint.RowPitch) * rows; }
};

class Texture : public Resource {
public:
    using Resource::Resource;
    /// The layout of (mip, arraySlice) at `offset` in a buffer, from GetCopyableFootprints: the one
    /// place uploads, zero-copy allocations and readbacks take their row pitch from.
    TextureFootprint Footprint(uint32_t mip, uint32_t arraySlice, uint64_t offset = 0) const;
    uint32_t Width(uint32_t mip = 0) const { return std::max<uint32_t>(1u, static_cast<uint32_t>(m_Desc.Width >> mip)); }
    uint32_t Height(uint32_t mip = 0) const { return std::max<uint32_t>(1u, m_Desc.Height >> mip); }
    /// Texels of one array slice of `mip` (width x height x depth).
    uint64_t Texels(uint32_t mip = 0) const { return uint64_t(Width(mip)) * Height(mip) * Depth(mip); }
    DXGI_FORMAT Format() const { return m_Desc.Format; }
};

}  // namespace dx12kit
