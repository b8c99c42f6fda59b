// DeviceContext (dx12kit/devicecontext/DeviceContext.hpp): the device's allocators, serials and statistics.
#include "dx12kit/devicecontext/DeviceContext.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/DepthBiasUnits.hpp"
#include "dx12kit/devicecontext/FormatSupport.hpp"
#include "dx12kit/devicecontext/UploadBuffer.hpp"
#include "dx12kit/platform/HResult.hpp"

#include <algorithm>
#include <iterator>
#include <string>

namespace dx12kit {

namespace {
uint32_t WatchedForkGeneration() {
    platform::WatchForks();  // before the device exists: a fork at any later time is counted
    return platform::ForkGeneration();
}
}  // namespace

DeviceContext::DeviceContext(const DeviceOptions& options)
    : m_ForkGeneration(WatchedForkGeneration()), m_UsableGeneration(m_ForkGeneration), m_CreatorPid(platform::ProcessId()), m_Options(options) {
    if (options.samplerHeapSize == 0 || options.samplerHeapSize > 2048)
        throw InvalidArgument("sampler heap size " + std::to_string(options.samplerHeapSize) + " must be 1..2048 (D3D12's limit)");
    if (options.dynamicChunkSize == 0 || options.samplerChunkSize == 0) throw InvalidArgument("dynamic chunk sizes must be positive");
    platform::KeepFreedRecordingMemory();
    m_d3d12Device = ComPtr<ID3D12Device>(platform::CreateDefaultDevice(D3D_FEATURE_LEVEL_11_0));
    ID3D12Device* dev = m_d3d12Device.Get();
    for (int t = 0; t < D3D12_DESCRIPTOR_HEAP_TYPE_NUM_TYPES; ++t)
        m_CpuAllocators[t] =
            std::make_unique<CpuDescriptorAllocator>(dev, static_cast<D3D12_DESCRIPTOR_HEAP_TYPE>(t), options.cpuDescriptorPageSize, &m_LastSerial);
    // The whole shader-visible heaps are dynamic chunks: the device reserves no static part
    // (nothing allocated long-lived tables from it).
    m_ViewHeap =
        std::make_unique<ShaderVisibleHeap>(dev, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, options.cbvSrvUavHeapSize, 0, options.dynamicChunkSize);
    m_SamplerHeap =
        std::make_unique<ShaderVisibleHeap>(dev, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, options.samplerHeapSize, 0, options.samplerChunkSize);
    m_Memory = std::make_unique<memory::MemoryManager>(dev, m_LastSerial, options.memory);
    m_UploadPages = std::make_unique<UploadPagePool>(*this);
    m_FormatSupport = std::make_unique<FormatSupportCache>(dev);
    m_Samplers = platform::BackendSamplerSupport();
    D3D12_FEATURE_DATA_D3D12_OPTIONS o{};
    if (FAILED(dev->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS, &o, sizeof o)) || o.TiledResourcesTier < D3D12_TILED_RESOURCES_TIER_2)
        m_Samplers.minMaxFiltering = false;
    m_DepthBias = std::make_unique<DepthBiasUnits>(dev, [this](const std::function<void()>& block) { Blocking(block); });
}

void DeviceContext::QueueZeroInit(const std::shared_ptr<Resource>& r) {
    std::lock_guard<std::mutex> lock(m_ZeroInitMutex);
    // Resources dropped before any execute leave expired entries: pruned whenever the list has
    // doubled since the last prune, so a create/drop loop that never executes stays bounded.
    if (m_ZeroInits.size() >= m_ZeroInitPruneAt) {
        m_ZeroInits.erase(std::remove_if(m_ZeroInits.begin(), m_ZeroInits.end(), [](const auto& w) { return w.expired(); }), m_ZeroInits.end());
        m_ZeroInitPruneAt = std::max<size_t>(64, m_ZeroInits.size() * 2);
    }
    m_ZeroInits.push_back(r);
    m_HasZeroInits.store(true, std::memory_order_release);
}

std::vector<std::weak_ptr<Resource>> DeviceContext::TakeZeroInits() {
    std::lock_guard<std::mutex> lock(m_ZeroInitMutex);
    m_HasZeroInits.store(false, std::memory_order_release);
    return std::move(m_ZeroInits);
}

DeviceContext::~DeviceContext() = default;

void DeviceContext::ThrowForked(const char* what) const {
    if (Closed() && !Forked())
        throw DeviceClosed(std::string(what) +
                           ": the device was closed (Device.close(), or the end of its `with` block); "
                           "its queues, lists, resources and pipelines can no longer be used: create a new Device");
    platform::ThrowForked(what, m_CreatorPid);
}

void DeviceContext::OnSerialCompleted(uint64_t completed) {
    uint64_t prev = m_CompletedSerial.load(std::memory_order_acquire);
    while (completed > prev && !m_CompletedSerial.compare_exchange_weak(prev, completed)) {}
    completed = std::max(completed, prev);
    for (auto& a : m_CpuAllocators) a->ReleaseStaleDescriptors(completed);
    m_ViewHeap->ReleaseStale(completed);
    m_SamplerHeap->ReleaseStale(completed);
    m_UploadPages->ReleaseStale(completed);
    m_Memory->ReleaseStale(completed);
    std::vector<std::shared_ptr<void>> done;  // destroyed outside the lock (frees take the pools' locks)
    {
        std::lock_guard<std::mutex> lock(m_ReleaseMutex);
        size_t n = 0;
        while (n < m_Releases.size() && m_Releases[n].first <= completed) {
            for (auto& o : m_Releases[n].second) done.push_back(std::move(o));
            ++n;
        }
        m_Releases.erase(m_Releases.begin(), m_Releases.begin() + static_cast<std::ptrdiff_t>(n));
    }
}

void DeviceContext::ReleaseAfter(uint64_t serial, std::vector<std::shared_ptr<void>> objects) {
    if (objects.empty()) return;
    std::lock_guard<std::mutex> lock(m_ReleaseMutex);
    // Callers hold the submission lock, under which serials are handed out, so this appends; the
    // search keeps the order for any caller that does not.
    auto at = m_Releases.end();
    while (at != m_Releases.begin() && std::prev(at)->first > serial) --at;
    m_Releases.emplace(at, serial, std::move(objects));
}

}  // namespace dx12kit
