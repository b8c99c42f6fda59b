// Device (DeviceContext, what resources need from the device, is in dx12kit/devicecontext/DeviceContext.hpp).
//
//   Python / C++ user
//        |
//        v
//   Device (owns the queues and what they have in flight)
//        |  shared_ptr
//        v
//   DeviceContext (ID3D12Device, CPU descriptor allocators, shader-visible heaps, upload pages,
//               the submission mutex and serials)      <-- shared_ptr from every Resource,
//                                                          pipeline and command list
//
// The split breaks a cycle: queues keep resources alive until their work completes, and
// resources keep the core alive; if resources kept the Device (which owns the queues) alive, a
// dropped device would never be destroyed. Destroying the Device waits for every queue to go idle.
//
// Submission serials: every ExecuteCommandLists on any queue gets the next device-wide serial.
// CompletedSerial() is the largest serial s such that every submission <= s has completed. All
// fence-deferred frees in dx12kit (descriptors, dynamic descriptor chunks, upload pages) are
// tagged with serials, so one number orders work across the direct, compute and copy queues.
//
// Thread safety: Device and DeviceContext are thread-safe. The submission mutex (recursive) orders
// executes on all queues with the global resource states they resolve and commit.
#pragma once

#include "dx12kit/descriptors/CpuDescriptorAllocator.hpp"
#include "dx12kit/descriptors/ShaderVisibleHeap.hpp"
#include "dx12kit/devicecontext/DeviceContext.hpp"
#include "dx12kit/memory/MemoryManager.hpp"
#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <array>
#include <functional>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace dx12kit {

class CommandQueue;
class FenceCheckSink;
class PassBufferPool;
class FormatSupportCache;
class UploadPagePool;
class Buffer;
class Texture;
class Resource;

/// Where a new resource's memory comes from (Python: heap=, pool=, committed=, within_budget=).
struct ResourcePlacement {
    memory::HeapKind heap = memory::HeapKind::Default;
    std::shared_ptr<memory::MemoryPool> pool;  ///< nullptr: the default pool of `heap`
    bool committed = false;
    bool withinBudget = false;
    std::shared_ptr<memory::MemoryRegion> memory;  ///< place at `offset` of this memory (aliasing)
    uint64_t offset = 0;
};

class Device : public std::enable_shared_from_this<Device> {
public:
    /// `deleter` (optional) destroys the device when the last reference goes; it must `delete` it.
    /// (The Python bindings use it to release the GIL while ~Device waits for the GPU.)
    static std::shared_ptr<Device> Create(const DeviceOptions& options, void (*deleter)(Device*) = nullptr);
    /// Waits for every queue to go idle, then releases everything. When the wait is interrupted
    /// (WaitHooks::keepWaiting said stop), whatever is still in flight is leaked instead of freed
    /// under the GPU; the destructor itself never throws.
    ~Device();

    /// Waits for every queue to go idle, releases what the device keeps for itself (idle upload
    /// pages, empty memory blocks, built-in pipelines, the zeroing buffer), and marks it closed: any
    /// later use of the device or of its queues, lists, resources and pipelines raises DeviceClosed
    /// (their memory goes when they are dropped). Holds the submission mutex throughout, so no
    /// execute slips in between the wait and the mark. Closing again does nothing (DeviceClose.cpp).
    void Close();
    bool Closed() const { return m_Context->Closed(); }

    const std::shared_ptr<DeviceContext>& Context() const { return m_Context; }
    ID3D12Device* D3D12Device() const { return m_Context->D3D12Device(); }

    /// The queue of `type` (all three exist from the start). The returned pointer keeps the Device alive.
    std::shared_ptr<CommandQueue> Queue(D3D12_COMMAND_LIST_TYPE type);
    /// The queue of `type`, borrowed (for the queues themselves, e.g. a compute queue's execute
    /// recording transitions on the direct queue).
    CommandQueue& QueueRef(D3D12_COMMAND_LIST_TYPE type) { return *m_Queues[static_cast<int>(type)]; }

    /// Polls every queue's fence, releases completed work, and publishes the completed serial.
    uint64_t Poll();
    /// For an allocator that found no room (dynamic descriptor chunks): applies every completion
    /// already visible (as Poll); returns true at once when that advanced the completed serial,
    /// otherwise blocks until the oldest in-flight submission on any queue completes, applies it,
    /// and returns true. Returns false when nothing is in flight: every completion has been
    /// applied and waiting cannot free anything more. The caller then looks once more (what the
    /// poll released) before reporting that it is out of memory; it never decides so from a poll
    /// whose completions were not applied.
    bool WaitForProgress();
    /// Waits until every queue is idle (interruptible, see WaitHooks), then raises the errors the GPU
    /// found in any queue's work (FenceChecks.hpp), once.
    void WaitIdle();
    /// Errors the GPU found in the work of every queue of this device (FenceChecks.hpp): one sink,
    /// so whichever wait or read comes next raises them, on any queue.
    const std::shared_ptr<FenceCheckSink>& FenceChecks() const { return m_FenceChecks; }
    /// Waits until all work with serial <= `serial` has completed on every queue, then polls
    /// (Timeout when `timeoutSeconds` >= 0 expires first).
    void WaitForSerial(uint64_t serial, double timeoutSeconds = -1.0);
    /// Whether a fence signal of any queue has not been reached yet (lazy signals, CommandQueue.hpp).
    /// Asks every queue, and each re-issues a signal that has stalled. Caller holds the submission mutex.
    bool AnySignalPending() const;

    using Placement = ResourcePlacement;
    /// A buffer of `size` bytes placed by the memory layer. UPLOAD/READBACK/CUSTOM buffers are
    /// persistently mapped (Resource::Mapped()). New buffers read as zeros.
    std::shared_ptr<Buffer> CreateBuffer(uint64_t size, bool uav, const Placement& placement, const std::string& name);
    std::shared_ptr<Buffer> CreateBuffer(uint64_t size, bool uav, D3D12_HEAP_TYPE heap, const std::string& name);
    /// A 2D texture (array); depth formats are created typeless so they can also be sampled. New
    /// textures read as zeros (render targets and depth buffers are cleared to 0).
    /// `sampleCount` > 1: a multisampled render target or depth buffer (one mip, no UAV); the
    /// count must be one the device supports for the format (FormatSupportInfo::msaa).
    std::shared_ptr<Texture> CreateTexture2D(uint32_t width, uint32_t height, DXGI_FORMAT format, uint32_t mipLevels, uint32_t arraySize,
                                             bool renderTarget, bool depthStencil, bool uav, const std::string& name,
                                             const Placement& placement = Placement(), uint32_t sampleCount = 1);
    /// Size and alignment (bytes) of the resource CreateTexture2D / CreateBuffer make of these
    /// arguments once placed: what their MemoryAllocation reports and what a placement offset
    /// (memory=, offset=) must be a multiple of (small-texture alignment where granted, 64 KiB,
    /// MSAA 4 MiB or 64 KiB where OPTIONS4 grants small MSAA alignment). The creators' checks and
    /// errors, named `what`; nothing is created.
    D3D12_RESOURCE_ALLOCATION_INFO TextureAllocationInfo(uint32_t width, uint32_t height, DXGI_FORMAT format, uint32_t mipLevels, uint32_t arraySize,
                                                         bool renderTarget, bool depthStencil, bool uav, uint32_t sampleCount,
                                                         const char* what = "texture_allocation_info");
    D3D12_RESOURCE_ALLOCATION_INFO BufferAllocationInfo(uint64_t size, bool uav, const char* what = "buffer_allocation_info");

    /// A texture of description `desc` (TEXTURE2D arrays and TEXTURE3D; the caller checked the
    /// shape: cube and 3D textures, dx12kit/features/TextureKinds.hpp) with view format `viewFormat`,
    /// TEXTURECUBE views when `cube`, placed as `placement` says (textures live in the 'default' heap),
    /// reading as zeros. `what` names the call in errors.
    std::shared_ptr<Texture> CreateTextureFromDesc(const D3D12_RESOURCE_DESC& desc, DXGI_FORMAT viewFormat, bool cube, const std::string& name,
                                                   const Placement& placement, const char* what);
    /// The extension slot: an object a feature keeps per device (built-in pipelines, a feature's
    /// state), made by `make` on first use of `key` and kept for the device's life. Thread-safe.
    std::shared_ptr<void> BuiltinObject(const std::string& key, const std::function<std::shared_ptr<void>()>& make);
    /// Built-in objects a hot path reaches without the key's lookup and the mutex: after the first
    /// BuiltinObject(key, make, id), BuiltinFast(id) is the object (kept for the device's life).
    enum class BuiltinId : uint8_t { ExpandIndirectCbv, Count };
    void* BuiltinFast(BuiltinId id) const { return m_BuiltinFast[size_t(id)].load(std::memory_order_acquire); }
    void* BuiltinObject(const std::string& key, const std::function<std::shared_ptr<void>()>& make, BuiltinId id);
    /// The buffers dx12kit's own passes use per call, reused after their work completed (PassBuffers.hpp).
    PassBufferPool& PassBuffers() const { return *m_PassBuffers; }

    /// Records and submits the zeroing of resources created since the last execute (see
    /// DeviceContext::QueueZeroInit) on the direct queue; when `executing` is another queue, it waits
    /// on the GPU for that work. `skip` lists resources the caller's lists overwrite completely
    /// before reading them. Caller holds the submission mutex.
    void InitializeNewResources(CommandQueue& executing, const std::function<bool(const Resource*)>& skip);
    /// Raw memory to place resources in (ResourcePlacement::memory): `size` bytes at `alignment`.
    std::shared_ptr<memory::MemoryRegion> AllocateMemory(uint64_t size, uint64_t alignment, const ResourcePlacement& from, const std::string& name);
    /// Destroys idle upload pages, then releases every empty memory block above each pool's
    /// minimum now.
    void TrimMemory();

    // ---- for features that submit work of their own (defragmentation) -------------------------
    /// Records and submits the zeroing of resources created since the last execute (as
    /// InitializeNewResources does, without the waits). Caller holds the submission mutex.
    void ZeroNewResources(CommandQueue& executing, const std::function<bool(const Resource*)>& skip);
    /// Later executes on every queue follow `value` of `producer` (dx12kit's own submissions).
    /// Caller holds the submission mutex.
    void FollowInternalWork(CommandQueue& producer, uint64_t value);

    std::map<std::string, std::string> Info() const;
    std::string AdapterName() const { return m_AdapterName; }
    D3D_FEATURE_LEVEL FeatureLevel() const { return m_FeatureLevel; }

private:
    explicit Device(const DeviceOptions& options);
    std::array<uint64_t, 4> m_Follow{};                   // per producing queue type: its latest own-work fence value
    std::array<std::array<uint64_t, 4>, 4> m_Followed{};  // [consumer][producer]: the value already waited for
    memory::CreatedResource PlaceInMemory(const memory::ResourceRequest& rq, const ResourcePlacement& p, const char* what);
    /// The checked description of a CreateTexture2D / CreateBuffer resource (its placement aside):
    /// throws InvalidArgument / UnsupportedError as the creators do, naming `what`
    /// (DeviceAllocationInfo.cpp).
    D3D12_RESOURCE_DESC Texture2DDesc(uint32_t width, uint32_t height, DXGI_FORMAT format, uint32_t& mipLevels, uint32_t arraySize, bool renderTarget,
                                      bool depthStencil, bool uav, uint32_t sampleCount, const char* what) const;
    static D3D12_RESOURCE_DESC BufferDesc(uint64_t size, bool uav, const char* what);
    /// The error for a texture description the device refused (GetResourceAllocationInfo gave no size).
    static InvalidArgument RefusedTexture(const D3D12_RESOURCE_DESC& desc, DXGI_FORMAT format, const char* what);
    /// Refuses a pool or memory of another device, and memory= combined with pool= or committed=.
    void CheckPlacementArgs(const Placement& p, const char* what) const;
    /// What every creation does once its resource exists: a resource in a DEFAULT pool block
    /// becomes movable by defragmentation; one placed in user memory (memory=) keeps that memory
    /// alive and gets its aliasing range (automatic aliasing barriers, D3D12Rules rule 6).
    void AdoptPlacement(const std::shared_ptr<Resource>& r, const Placement& p, memory::HeapKind kind);
    /// Polls every queue; returns the queue whose oldest in-flight submission is the oldest of all
    /// (nullptr when idle) and that submission's serial in `oldestInFlight`.
    CommandQueue* PollQueues(uint64_t& oldestInFlight);
    /// PollQueues, then applies what it saw (DeviceContext::OnSerialCompleted) under the same lock.
    /// Returns the completed serial; `oldestQueue` (optional) gets PollQueues' result.
    uint64_t PollAndApply(CommandQueue** oldestQueue);
    std::shared_ptr<DeviceContext> m_Context;
    std::shared_ptr<FenceCheckSink> m_FenceChecks;          // shared by the queues (made before them)
    std::array<std::unique_ptr<CommandQueue>, 4> m_Queues;  // by D3D12_COMMAND_LIST_TYPE (0,2,3); [1] unused
    static constexpr uint64_t kZeroBufferBytes = uint64_t(4) << 20;
    std::shared_ptr<Buffer> m_ZeroBuffer;  // zeros in upload memory, the source of every zeroing copy
    std::string m_AdapterName;
    std::mutex m_BuiltinMutex;
    std::map<std::string, std::shared_ptr<void>> m_Builtins;                   // BuiltinObject
    std::array<std::atomic<void*>, size_t(BuiltinId::Count)> m_BuiltinFast{};  // BuiltinFast
    std::shared_ptr<PassBufferPool> m_PassBuffers;
    D3D_FEATURE_LEVEL m_FeatureLevel = D3D_FEATURE_LEVEL_11_0;
};

}  // namespace dx12kit
