// DeviceContext: the device's own state, which resources, pipelines and command lists need from the
// device. Its layer, device/ (with the format table, format support and the upload pages it owns),
// sits above memory/ and descriptors/, whose allocators it holds, and below resources/ and the
// gpu/ folder (Device, queues, command lists) that owns it.
//
//   Device (gpu/Device.hpp: owns the queues and what they have in flight)
//        |  shared_ptr
//        v
//   DeviceContext (ID3D12Device, CPU descriptor allocators, shader-visible heaps, upload pages,
//               memory manager, format support, the submission lock and serials, statistics)
//                                                     <-- shared_ptr from every Resource,
//                                                         pipeline and command list
//
// The split breaks a cycle: queues keep resources alive until their work completes, and
// resources keep the core alive; if resources kept the Device (which owns the queues) alive, a
// dropped device would never be destroyed. It also keeps the layers going one way: resources/
// include this header, never gpu/Device.hpp (tests/test_layering.py checks it).
//
// Submission serials: every ExecuteCommandLists on any queue gets the next device-wide serial.
// CompletedSerial() is the largest serial s such that every submission <= s has completed. All
// fence-deferred frees in dx12kit (descriptors, dynamic descriptor chunks, upload pages, memory)
// are tagged with serials, so one number orders work across the direct, compute and copy queues.
//
// Ownership: owns the ID3D12Device (ComPtr) and every allocator it hands out by reference; the
// references are valid while the core lives. Thread safety: every member is thread-safe. The
// submission lock (recursive, SubmitMutex()) orders executes on all queues with the global
// resource states they resolve and commit; counters are atomics.
#pragma once

#include "dx12kit/descriptors/CpuDescriptorAllocator.hpp"
#include "dx12kit/descriptors/ShaderVisibleHeap.hpp"
#include "dx12kit/memory/MemoryManager.hpp"
#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"
#include "dx12kit/platform/Fork.hpp"

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace dx12kit {

class FormatSupportCache;
class DepthBiasUnits;
class UploadPagePool;
class Resource;

/// How blocking waits behave (every CPU wait for the GPU, and waits for a command list another
/// thread is recording or executing). The core knows nothing of Python; the bindings set these so
/// that no wait holds the GIL and Ctrl-C interrupts a wait within a slice.
struct WaitHooks {
    /// Runs `block`, which may block for up to one slice. Default: runs it.
    /// (Python: releases the GIL around it when the calling thread holds it.)
    std::function<void(const std::function<void()>& block)> blocking;
    /// Called between slices of a GPU wait; false abandons the wait with Interrupted.
    /// Default: always true. (Python: PyErr_CheckSignals, so KeyboardInterrupt stops the wait.)
    std::function<bool()> keepWaiting;
    uint32_t sliceMs = 50;  ///< longest uninterrupted block of a GPU wait
};

struct DeviceOptions {
    bool validate = false;               ///< check states before each draw/dispatch/copy
    uint32_t cbvSrvUavHeapSize = 65536;  ///< shader-visible CBV/SRV/UAV descriptors
    uint32_t samplerHeapSize = 2048;     ///< shader-visible samplers (D3D12 allows 2048)
    uint32_t dynamicChunkSize = 256;     ///< descriptors a command list takes at a time
    uint32_t samplerChunkSize = 64;
    uint32_t cpuDescriptorPageSize = 256;
    uint64_t uploadPageSize = 2u << 20;  ///< CPU-writable UPLOAD pages
    /// Bytes of retired large (dedicated) upload pages kept for reuse instead of destroyed; first
    /// touch of fresh upload memory costs more than the copy itself, so large uploads repeated
    /// every frame reuse their pages. 0 destroys every large page after its fence.
    uint64_t largePageCacheBytes = 256u << 20;
    /// On a cache-coherent UMA adapter, 'default' buffers live in CPU-visible device memory: uploads
    /// into them land at execute without a GPU copy, read_buffer is one memcpy
    /// (dx12kit/gpu/UmaAccess.hpp). On by default; no effect on other adapters.
    bool umaDirect = true;
    /// vkd3d: a queue signals its fence only when no signal of the device is pending or a wait
    /// needs it (CommandQueue.hpp, "lazy signals"); false signals after every execute. Windows
    /// always signals after every execute.
    bool lazyFenceSignals = true;
    /// GPU memory: block size of the default pools, budget (0 = 80% of device-local memory),
    /// resource heap tier 1 behaviour forced, grace period of empty blocks.
    memory::MemoryOptions memory;
    WaitHooks hooks;
};

struct ZeroInitStats {
    std::atomic<uint64_t> resources{0};  ///< new resources zeroed before their first use
    std::atomic<uint64_t> bytes{0};      ///< bytes written by those copies (clears not counted)
};

struct BarrierStats {
    std::atomic<uint64_t> recorded{0};           ///< transitions recorded inside command lists
    std::atomic<uint64_t> batches{0};            ///< ResourceBarrier calls (flushes)
    std::atomic<uint64_t> insertedAtExecute{0};  ///< transitions resolved at execute
    std::atomic<uint64_t> uav{0};
    std::atomic<uint64_t> aliasing{0};           ///< aliasing barriers, explicit and automatic
    std::atomic<uint64_t> aliasingAutomatic{0};  ///< of which the state tracker recorded by itself
};

/// Submissions and fence signals (lazy fence signals issue fewer signals than submissions).
struct SubmitStats {
    std::atomic<uint64_t> submissions{0};  ///< ExecuteCommandLists calls (the user's, and dx12kit's own work)
    std::atomic<uint64_t> signals{0};      ///< ID3D12CommandQueue::Signal calls
    /// Signals issued while an earlier signal of the same queue was not yet seen reached (two pending
    /// at once: the case in which vkd3d 1.2 can lose a value, CommandQueue.hpp).
    std::atomic<uint64_t> overlappingSignals{0};
    std::atomic<uint64_t> reissuedSignals{0};  ///< signals issued again by the stall cure (CommandQueue::HealIfStalled)
    std::atomic<uint64_t> umaCpuWrites{0};     ///< pending uploads into CPU-visible buffers written by the CPU at execute
    std::atomic<uint64_t> umaGpuWrites{0};     ///< ... copied on the GPU before their list (the buffer was still in use)
};

class DeviceContext {
public:
    explicit DeviceContext(const DeviceOptions& options);
    ~DeviceContext();

    ID3D12Device* D3D12Device() const { return m_d3d12Device.Get(); }
    const DeviceOptions& Options() const { return m_Options; }

    /// Whether this process was forked since the device was created: the device is then unusable
    /// here (dx12kit/platform/Fork.hpp). A relaxed atomic load and a compare.
    bool Forked() const noexcept { return m_ForkGeneration != platform::ForkGeneration(); }
    /// Throws ForkedDevice naming `what` when Forked(). Every entry point that reaches the GPU or
    /// the device's locks calls it first.
    /// It also refuses a closed device (Device::Close; DeviceClosed): closing makes the generation
    /// the check compares against one no process has, so the check stays one load and a compare.
    void CheckNotForked(const char* what) const {
        if (m_UsableGeneration.load(std::memory_order_relaxed) != platform::ForkGeneration()) ThrowForked(what);
    }
    /// Whether Device::Close ran: every later use of the device or its objects raises DeviceClosed.
    /// (The usable generation is kClosedGeneration exactly then: no process is that many forks deep.)
    bool Closed() const noexcept { return m_UsableGeneration.load(std::memory_order_acquire) == kClosedGeneration; }
    /// Marks the device closed (Device::Close, with the submission mutex held).
    void MarkClosed() noexcept { m_UsableGeneration.store(kClosedGeneration, std::memory_order_release); }

    CpuDescriptorAllocator& CpuDescriptors(D3D12_DESCRIPTOR_HEAP_TYPE type) { return *m_CpuAllocators[type]; }
    ShaderVisibleHeap& ViewHeap() { return *m_ViewHeap; }
    ShaderVisibleHeap& SamplerHeap() { return *m_SamplerHeap; }
    UploadPagePool& UploadPages() { return *m_UploadPages; }
    /// Which sampler settings sample as D3D12 says on this device (set at creation): the backend's
    /// (platform::BackendSamplerSupport), and min/max filtering only at tiled resources tier 2 (D3D12:
    /// "Min/max reduction filtering is supported" from Tier 2). dx12kit/gpu/SamplerRules.hpp refuses the rest.
    const platform::SamplerSupport& Samplers() const { return m_Samplers; }
    /// Queries and predication the backend does as D3D12 says (platform::QuerySupport).
    const platform::QuerySupport& Queries() const { return m_Queries; }
    /// The device's format support, queried once per format (dx12kit/devicecontext/FormatSupport.hpp).
    FormatSupportCache& FormatSupport() { return *m_FormatSupport; }
    /// The backend's depth-bias unit per depth format, probed once (dx12kit/devicecontext/DepthBiasUnits.hpp).
    DepthBiasUnits& DepthBias() { return *m_DepthBias; }
    memory::MemoryManager& Memory() { return *m_Memory; }

    /// New DEFAULT-heap resources are zeroed (D3D12 committed resources read as zeros; vkd3d does
    /// not always zero, and placed resources reuse memory): Device queues them here and the next
    /// execute on any queue records the zeroing first (Device::InitializeNewResources).
    void QueueZeroInit(const std::shared_ptr<Resource>& r);
    std::vector<std::weak_ptr<Resource>> TakeZeroInits();
    bool HasZeroInits() const { return m_HasZeroInits.load(std::memory_order_acquire); }

    std::recursive_mutex& SubmitMutex() { return m_SubmitMutex; }
    const std::atomic<uint64_t>& LastSerialRef() const { return m_LastSerial; }
    uint64_t LastSerial() const { return m_LastSerial.load(std::memory_order_acquire); }
    uint64_t CompletedSerial() const { return m_CompletedSerial.load(std::memory_order_acquire); }
    /// Hands out the next serial (caller holds SubmitMutex()).
    uint64_t NextSerial() { return m_LastSerial.fetch_add(1, std::memory_order_acq_rel) + 1; }
    /// Records progress and releases everything deferred up to `completed`.
    void OnSerialCompleted(uint64_t completed);
    /// Keeps `objects` alive until every submission up to `serial`, on every queue, has completed
    /// (not only the queue that ran the work). dx12kit's own submissions (zeroing, defragmentation
    /// copies) release what they replace this way: a resource moved by defragmentation may still be
    /// in use by lists submitted earlier on other queues, and the release must not depend on the
    /// GPU-side waits between queues alone.
    void ReleaseAfter(uint64_t serial, std::vector<std::shared_ptr<void>> objects);

    /// Runs a blocking call through WaitHooks::blocking (see there).
    void Blocking(const std::function<void()>& block) const {
        if (m_Options.hooks.blocking) m_Options.hooks.blocking(block);
        else block();
    }
    /// WaitHooks::keepWaiting, or true.
    bool KeepWaiting() const { return !m_Options.hooks.keepWaiting || m_Options.hooks.keepWaiting(); }
    uint32_t WaitSliceMs() const { return m_Options.hooks.sliceMs ? m_Options.hooks.sliceMs : 50; }

    BarrierStats& Barriers() { return m_Barriers; }
    /// Resource::Close calls on this device so far: a command list that skips re-requesting unchanged
    /// bindings compares it once per draw, so a closed bound resource still raises at the next draw.
    uint64_t ResourceCloses() const { return m_ResourceCloses.load(std::memory_order_relaxed); }
    void NoteResourceClosed() { m_ResourceCloses.fetch_add(1, std::memory_order_relaxed); }
    SubmitStats& Submits() { return m_Submits; }
    ZeroInitStats& ZeroInitCounters() { return m_ZeroInit; }
    std::atomic<int64_t>& LiveResources() { return m_LiveResources; }

private:
    [[noreturn]] void ThrowForked(const char* what) const;
    uint32_t m_ForkGeneration;  // platform::ForkGeneration() when the device was created
    /// m_UsableGeneration once the device is closed: a fork generation no process has.
    static constexpr uint32_t kClosedGeneration = UINT32_MAX;
    std::atomic<uint32_t> m_UsableGeneration;  // m_ForkGeneration; kClosedGeneration once closed (Closed, CheckNotForked)
    uint64_t m_CreatorPid;                     // the process that created it (for the message)
    DeviceOptions m_Options;
    ComPtr<ID3D12Device> m_d3d12Device;
    std::array<std::unique_ptr<CpuDescriptorAllocator>, D3D12_DESCRIPTOR_HEAP_TYPE_NUM_TYPES> m_CpuAllocators;
    std::unique_ptr<ShaderVisibleHeap> m_ViewHeap;
    std::unique_ptr<ShaderVisibleHeap> m_SamplerHeap;
    std::unique_ptr<FormatSupportCache> m_FormatSupport;
    platform::SamplerSupport m_Samplers;
    std::unique_ptr<DepthBiasUnits> m_DepthBias;
    platform::QuerySupport m_Queries = platform::BackendQuerySupport();
    std::atomic<uint64_t> m_LastSerial{0};
    std::unique_ptr<memory::MemoryManager> m_Memory;  // before the upload pages, which use it
    std::unique_ptr<UploadPagePool> m_UploadPages;
    std::mutex m_ZeroInitMutex;
    std::vector<std::weak_ptr<Resource>> m_ZeroInits;
    size_t m_ZeroInitPruneAt = 64;
    std::atomic<bool> m_HasZeroInits{false};
    std::recursive_mutex m_SubmitMutex;
    std::atomic<uint64_t> m_CompletedSerial{0};
    std::mutex m_ReleaseMutex;
    std::vector<std::pair<uint64_t, std::vector<std::shared_ptr<void>>>> m_Releases;  // in serial order
    BarrierStats m_Barriers;
    std::atomic<uint64_t> m_ResourceCloses{0};
    SubmitStats m_Submits;
    ZeroInitStats m_ZeroInit;
    std::atomic<int64_t> m_LiveResources{0};
};

}  // namespace dx12kit
