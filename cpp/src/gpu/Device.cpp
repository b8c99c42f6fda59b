#include "dx12kit/gpu/Device.hpp"

#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/platform/D3dx12Lite.hpp"
#include "dx12kit/platform/HResult.hpp"
#include "dx12kit/resources/Formats.hpp"
#include "dx12kit/resources/Resource.hpp"
#include "dx12kit/resources/UploadBuffer.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace dx12kit {

DeviceCore::DeviceCore(const DeviceOptions& options) : m_Options(options) {
    if (options.samplerHeapSize == 0 || options.samplerHeapSize > 2048)
        throw InvalidArgument("sampler heap size " + std::to_string(options.samplerHeapSize) + " must be 1..2048 (D3D12's limit)");
    if (options.staticDescriptors >= options.cbvSrvUavHeapSize)
        throw InvalidArgument("static descriptors must be fewer than the shader-visible heap size");
    if (options.staticSamplers >= options.samplerHeapSize)
        throw InvalidArgument("static samplers must be fewer than the sampler heap size");
    if (options.dynamicChunkSize == 0 || options.samplerChunkSize == 0)
        throw InvalidArgument("dynamic chunk sizes must be positive");
    m_d3d12Device = ComPtr<ID3D12Device>(platform::CreateDefaultDevice(D3D_FEATURE_LEVEL_11_0));
    ID3D12Device* dev = m_d3d12Device.Get();
    for (int t = 0; t < D3D12_DESCRIPTOR_HEAP_TYPE_NUM_TYPES; ++t)
        m_CpuAllocators[t] = std::make_unique<CpuDescriptorAllocator>(
            dev, static_cast<D3D12_DESCRIPTOR_HEAP_TYPE>(t), options.cpuDescriptorPageSize, &m_LastSerial);
    m_ViewHeap = std::make_unique<ShaderVisibleHeap>(dev, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV,
                                                     options.cbvSrvUavHeapSize, options.staticDescriptors,
                                                     options.dynamicChunkSize);
    m_SamplerHeap = std::make_unique<ShaderVisibleHeap>(dev, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER,
                                                        options.samplerHeapSize, options.staticSamplers,
                                                        options.samplerChunkSize);
    m_UploadPages = std::make_unique<UploadPagePool>(*this);
}

DeviceCore::~DeviceCore() = default;

void DeviceCore::OnSerialCompleted(uint64_t completed) {
    uint64_t prev = m_CompletedSerial.load(std::memory_order_acquire);
    while (completed > prev && !m_CompletedSerial.compare_exchange_weak(prev, completed)) {}
    completed = std::max(completed, prev);
    for (auto& a : m_CpuAllocators) a->ReleaseStaleDescriptors(completed);
    m_ViewHeap->ReleaseStale(completed);
    m_SamplerHeap->ReleaseStale(completed);
    m_UploadPages->ReleaseStale(completed);
}

std::shared_ptr<Device> Device::Create(const DeviceOptions& options, void (*deleter)(Device*)) {
    if (deleter) return std::shared_ptr<Device>(new Device(options), deleter);
    return std::shared_ptr<Device>(new Device(options));
}

Device::Device(const DeviceOptions& options) : m_Core(std::make_shared<DeviceCore>(options)) {
    m_AdapterName = platform::AdapterName(m_Core->D3D12Device());
    static const D3D_FEATURE_LEVEL kLevels[] = {D3D_FEATURE_LEVEL_12_1, D3D_FEATURE_LEVEL_12_0,
                                                D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0};
    D3D12_FEATURE_DATA_FEATURE_LEVELS fl{};
    fl.NumFeatureLevels = 4;
    fl.pFeatureLevelsRequested = kLevels;
    if (SUCCEEDED(m_Core->D3D12Device()->CheckFeatureSupport(D3D12_FEATURE_FEATURE_LEVELS, &fl, sizeof fl)))
        m_FeatureLevel = fl.MaxSupportedFeatureLevel;
    // All three queues exist for the device's lifetime, so Poll/WaitIdle read m_Queues without a lock.
    for (D3D12_COMMAND_LIST_TYPE t : {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY})
        m_Queues[static_cast<int>(t)] = std::make_unique<CommandQueue>(*this, t);
}

Device::~Device() {
    try {
        WaitIdle();
    } catch (...) {
        // Interrupted (or a failed wait): the GPU may still run submitted work. Freeing its
        // memory, allocators or queues now would pull them from under the GPU, so the queues and
        // everything they keep in flight are leaked on purpose. A destructor cannot report.
        for (auto& q : m_Queues) (void)q.release();
        return;
    }
    for (auto& q : m_Queues) q.reset();
}

std::shared_ptr<CommandQueue> Device::Queue(D3D12_COMMAND_LIST_TYPE type) {
    if (type != D3D12_COMMAND_LIST_TYPE_DIRECT && type != D3D12_COMMAND_LIST_TYPE_COMPUTE && type != D3D12_COMMAND_LIST_TYPE_COPY)
        throw InvalidArgument("queue type must be direct, compute or copy");
    // Aliasing pointer: holding the queue keeps the whole Device alive.
    return std::shared_ptr<CommandQueue>(shared_from_this(), m_Queues[static_cast<int>(type)].get());
}

CommandQueue* Device::PollQueues(uint64_t& oldestInFlight) {
    std::lock_guard<std::recursive_mutex> lock(m_Core->SubmitMutex());
    oldestInFlight = std::numeric_limits<uint64_t>::max();
    CommandQueue* oldestQueue = nullptr;
    for (auto& q : m_Queues) {
        if (!q) continue;
        const uint64_t s = q->Poll();
        if (s < oldestInFlight) { oldestInFlight = s; oldestQueue = q.get(); }
    }
    return oldestQueue;
}

uint64_t Device::Poll() {
    std::lock_guard<std::recursive_mutex> lock(m_Core->SubmitMutex());
    uint64_t oldest;
    const uint64_t completed = PollQueues(oldest) ? oldest - 1 : m_Core->LastSerial();
    m_Core->OnSerialCompleted(completed);
    return completed;
}

void Device::WaitForProgress(const char* what) {
    uint64_t oldest;
    CommandQueue* oldestQueue = PollQueues(oldest);
    if (!oldestQueue) throw OutOfMemory(std::string(what) + ": exhausted, and no submitted work is in flight whose completion would free space");
    oldestQueue->WaitOldest();
    Poll();
}

void Device::WaitIdle() {
    for (auto& q : m_Queues)
        if (q) q->Flush();
    Poll();
}

std::map<std::string, std::string> Device::Info() const {
    std::map<std::string, std::string> info;
    info["backend"] = DX12KIT_BACKEND_NAME;
    info["adapter"] = m_AdapterName;
    char buf[16];
    std::snprintf(buf, sizeof buf, "%d_%d", (m_FeatureLevel >> 12) & 0xF, (m_FeatureLevel >> 8) & 0xF);
    info["feature_level"] = buf;
    D3D12_FEATURE_DATA_D3D12_OPTIONS o{};
    if (SUCCEEDED(m_Core->D3D12Device()->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS, &o, sizeof o))) {
        info["resource_binding_tier"] = std::to_string(static_cast<int>(o.ResourceBindingTier));
        info["resource_heap_tier"] = std::to_string(static_cast<int>(o.ResourceHeapTier));
        info["tiled_resources_tier"] = std::to_string(static_cast<int>(o.TiledResourcesTier));
    }
    return info;
}

}  // namespace dx12kit

// ------------------------------------------------------------------------------- resources

namespace dx12kit {

std::shared_ptr<Buffer> Device::CreateBuffer(uint64_t size, bool uav, D3D12_HEAP_TYPE heap, const std::string& name) {
    if (size == 0) throw InvalidArgument("create_buffer: size must be positive (got 0)");
    constexpr uint64_t kMax = uint64_t(1) << 40;
    if (size > kMax) throw InvalidArgument("create_buffer: size " + std::to_string(size) + " exceeds 1 TiB");
    if (uav && heap != D3D12_HEAP_TYPE_DEFAULT) throw InvalidArgument("create_buffer: uav=True needs the DEFAULT heap");
    // Rounded to 256 bytes so constant buffer views and raw views of the whole buffer are legal.
    const uint64_t native = (size + 255) & ~uint64_t(255);
    D3D12_HEAP_PROPERTIES hp = d3dx::HeapProperties(heap);
    D3D12_RESOURCE_DESC rd = d3dx::BufferDesc(native, uav ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE);
    const D3D12_RESOURCE_STATES initial = heap == D3D12_HEAP_TYPE_UPLOAD     ? D3D12_RESOURCE_STATE_GENERIC_READ
                                          : heap == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
                                                                             : D3D12_RESOURCE_STATE_COMMON;
    ComPtr<ID3D12Resource> r;
    ThrowIfFailed(m_Core->D3D12Device()->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &rd, initial, nullptr, IID_ID3D12Resource,
                                                                 r.ReleaseAndGetVoidAddress()),
                  ("create_buffer(" + std::to_string(size) + " bytes)").c_str());
    auto b = std::make_shared<Buffer>(m_Core, std::move(r), heap, initial, name);
    b->SetLogicalSize(size);
    return b;
}

std::shared_ptr<Texture> Device::CreateTexture2D(uint32_t width, uint32_t height, DXGI_FORMAT format, uint32_t mipLevels,
                                                 uint32_t arraySize, bool renderTarget, bool depthStencil, bool uav,
                                                 const std::string& name) {
    const FormatInfo* fi = FindFormat(format);
    if (!fi) throw InvalidArgument("create_texture2d: unsupported format " + std::to_string(static_cast<int>(format)));
    if (width == 0 || height == 0) throw InvalidArgument("create_texture2d: width and height must be positive");
    if (width > D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION || height > D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION)
        throw InvalidArgument("create_texture2d: " + std::to_string(width) + "x" + std::to_string(height) + " exceeds 16384");
    if (arraySize == 0 || arraySize > 2048) throw InvalidArgument("create_texture2d: array_size must be 1..2048");
    uint32_t maxMips = 1;
    while ((std::max(width, height) >> maxMips) > 0) ++maxMips;
    if (mipLevels == 0) mipLevels = maxMips;
    if (mipLevels > maxMips)
        throw InvalidArgument("create_texture2d: " + std::to_string(mipLevels) + " mips requested, a " + std::to_string(width) + "x" +
                              std::to_string(height) + " texture has at most " + std::to_string(maxMips));
    if (fi->depth && (renderTarget || uav)) throw InvalidArgument(std::string("create_texture2d: ") + fi->name + " is a depth format; it cannot be a render target or UAV");
    if (!fi->depth && depthStencil) throw InvalidArgument(std::string("create_texture2d: depth_stencil=True needs a depth format, not ") + fi->name);
    D3D12_RESOURCE_FLAGS flags = D3D12_RESOURCE_FLAG_NONE;
    if (renderTarget) flags |= D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    if (depthStencil) flags |= D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    if (uav) flags |= D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    const DXGI_FORMAT nativeFormat = fi->depth ? DepthTypelessFormat(format) : format;
    D3D12_RESOURCE_DESC rd = d3dx::Tex2DDesc(nativeFormat, width, height, static_cast<uint16_t>(arraySize),
                                             static_cast<uint16_t>(mipLevels), flags);
    D3D12_HEAP_PROPERTIES hp = d3dx::HeapProperties(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_CLEAR_VALUE clear{};
    clear.Format = format;
    if (depthStencil) clear.DepthStencil.Depth = 1.0f;
    const bool useClear = renderTarget || depthStencil;
    ComPtr<ID3D12Resource> r;
    ThrowIfFailed(m_Core->D3D12Device()->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &rd, D3D12_RESOURCE_STATE_COMMON,
                                                                 useClear ? &clear : nullptr, IID_ID3D12Resource,
                                                                 r.ReleaseAndGetVoidAddress()),
                  "create_texture2d");
    return std::make_shared<Texture>(m_Core, std::move(r), D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COMMON, name);
}

}  // namespace dx12kit
