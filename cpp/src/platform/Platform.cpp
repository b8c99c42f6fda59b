// Platform layer: device creation, fence events and HRESULT names for Windows and vkd3d.
#define INITGUID  // this translation unit defines the D3D12 IIDs on Linux
#include "dx12kit/base/Errors.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"
#include "dx12kit/platform/FenceEvent.hpp"
#include "dx12kit/platform/HResult.hpp"
#include "dx12kit/platform/VulkanPipelineFixes.hpp"

#if !defined(_WIN32)
#  include <stdlib.h>
#  include <vulkan/vulkan.h>
#endif
#if defined(__GLIBC__)
#  include <malloc.h>
#endif

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

namespace dx12kit {

std::string HResultName(HRESULT hr) {
    switch (static_cast<uint32_t>(hr)) {
        case 0x00000000u: return "S_OK";
        case 0x00000001u: return "S_FALSE";
        case 0x80004001u: return "E_NOTIMPL";
        case 0x80004002u: return "E_NOINTERFACE";
        case 0x80004003u: return "E_POINTER";
        case 0x80004005u: return "E_FAIL";
        case 0x8000FFFFu: return "E_UNEXPECTED";
        case 0x8007000Eu: return "E_OUTOFMEMORY";
        case 0x80070057u: return "E_INVALIDARG";
        case 0x887A0001u: return "DXGI_ERROR_INVALID_CALL";
        case 0x887A0002u: return "DXGI_ERROR_NOT_FOUND";
        case 0x887A0004u: return "DXGI_ERROR_UNSUPPORTED";
        case 0x887A0005u: return "DXGI_ERROR_DEVICE_REMOVED";
        case 0x887A0006u: return "DXGI_ERROR_DEVICE_HUNG";
        case 0x887A0007u: return "DXGI_ERROR_DEVICE_RESET";
        case 0x887A0020u: return "DXGI_ERROR_DRIVER_INTERNAL_ERROR";
        case 0x887E0001u: return "D3D12_ERROR_ADAPTER_NOT_FOUND";
        case 0x887E0002u: return "D3D12_ERROR_DRIVER_VERSION_MISMATCH";
        default: break;
    }
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", static_cast<unsigned>(hr));
    return buf;
}

void ThrowHResult(HRESULT hr, const char* what) {
    const std::string name = HResultName(hr);
    const std::string msg = std::string(what) + " failed: " + name;
    if (static_cast<uint32_t>(hr) == 0x8007000Eu) throw OutOfMemory(msg);
    if (static_cast<uint32_t>(hr) == 0x80070057u) throw DeviceError(msg + " (invalid argument)", hr, name);
    throw DeviceError(msg, hr, name);
}

#if defined(_WIN32)
FenceEvent::FenceEvent() : m_Event(CreateEventW(nullptr, FALSE, FALSE, nullptr)) {
    if (!m_Event) throw DeviceError("CreateEvent failed", static_cast<int32_t>(GetLastError()), "GetLastError");
}
FenceEvent::~FenceEvent() {
    CloseHandle(m_Event);
}
void FenceEvent::Arm(ID3D12Fence* fence, uint64_t value) {
    ThrowIfFailed(fence->SetEventOnCompletion(value, m_Event), "ID3D12Fence::SetEventOnCompletion");
}
bool FenceEvent::WaitSignal(uint32_t timeoutMs) {
    const DWORD r = WaitForSingleObject(m_Event, timeoutMs);
    if (r == WAIT_FAILED) throw DeviceError("WaitForSingleObject failed", static_cast<int32_t>(GetLastError()), "GetLastError");
    return r == WAIT_OBJECT_0;
}
void FenceEvent::Signal() {
    SetEvent(m_Event);
}

FenceWaiter::~FenceWaiter() {
    for (FenceEvent* e : m_Events) delete e;
}

bool FenceWaiter::WaitFor(uint64_t value, uint32_t timeoutMs) {
    if (m_Fence->GetCompletedValue() >= value) return true;
    FenceEvent* ev = nullptr;
    {
        std::lock_guard<std::mutex> lock(m_Mutex);
        if (!m_Events.empty()) {
            ev = m_Events.back();
            m_Events.pop_back();
        }
    }
    if (!ev) ev = new FenceEvent();
    bool done = false;
    try {
        ev->Arm(m_Fence, value);
        ev->WaitSignal(timeoutMs);
        done = m_Fence->GetCompletedValue() >= value;
    } catch (...) {
        std::lock_guard<std::mutex> lock(m_Mutex);
        m_Events.push_back(ev);
        throw;
    }
    std::lock_guard<std::mutex> lock(m_Mutex);
    m_Events.push_back(ev);
    return done;
}
#else
FenceEvent::FenceEvent() : m_Event(vkd3d_create_event()) {
    if (!m_Event) throw DeviceError("vkd3d_create_event failed", -1, "E_FAIL");
}
FenceEvent::~FenceEvent() {
    vkd3d_destroy_event(m_Event);
}
void FenceEvent::Arm(ID3D12Fence* fence, uint64_t value) {
    ThrowIfFailed(fence->SetEventOnCompletion(value, m_Event), "ID3D12Fence::SetEventOnCompletion");
}
bool FenceEvent::WaitSignal(uint32_t) {
    // vkd3d 1.2 implements only 0 and infinite timeouts.
    const unsigned r = vkd3d_wait_event(m_Event, VKD3D_INFINITE);
    if (r == VKD3D_WAIT_FAILED) throw DeviceError("vkd3d_wait_event failed", -1, "E_FAIL");
    return r == VKD3D_WAIT_OBJECT_0;
}
void FenceEvent::Signal() {
    vkd3d_signal_event(m_Event);
}

FenceWaiter::~FenceWaiter() {
    if (m_Thread.joinable()) {
        {
            std::lock_guard<std::mutex> lock(m_Mutex);
            m_Stop = true;
        }
        m_Work.notify_all();
        m_Event->Signal();
        m_Thread.join();
    }
    delete m_Event;
}

// The watcher: waits (infinitely, which vkd3d supports) for the smallest value a waiter wants that
// the fence has not reached, then wakes every waiter. A waiter wanting a smaller value than the
// one armed signals the event, so the watcher re-arms for it.
void FenceWaiter::Watch() {
    std::unique_lock<std::mutex> lock(m_Mutex);
    for (;;) {
        const uint64_t completed = m_Fence->GetCompletedValue();
        auto next = m_Targets.upper_bound(completed);
        if (m_Stop) return;
        if (next == m_Targets.end()) {
            m_Work.wait(lock);
            continue;
        }
        m_Armed = *next;
        lock.unlock();
        try {
            m_Event->Arm(m_Fence, m_Armed);
            m_Event->WaitSignal(0);
        } catch (...) {
            // A failing event: waiters still see progress through their own slices.
        }
        lock.lock();
        m_Armed = 0;
        m_Progress.notify_all();
    }
}

bool FenceWaiter::WaitFor(uint64_t value, uint32_t timeoutMs) {
    if (m_Fence->GetCompletedValue() >= value) return true;
    std::unique_lock<std::mutex> lock(m_Mutex);
    if (!m_Thread.joinable()) {
        if (!m_Event) m_Event = new FenceEvent();
        m_Thread = std::thread([this] { Watch(); });
    }
    m_Targets.insert(value);
    if (m_Armed == 0) m_Work.notify_one();
    else if (value < m_Armed) m_Event->Signal();  // re-arm the watcher for the smaller value
    const bool done = m_Progress.wait_for(lock, std::chrono::milliseconds(timeoutMs), [&] { return m_Fence->GetCompletedValue() >= value; });
    m_Targets.erase(m_Targets.find(value));
    return done;
}
#endif

namespace platform {

ID3D12Device* CreateDefaultDevice(D3D_FEATURE_LEVEL minimumLevel) {
#if !defined(_WIN32)
    // vkd3d-utils' D3D12CreateDevice, with dx12kit's Vulkan pipeline fixes (VulkanPipelineFixes.hpp).
    return CreateHookedVkd3dDevice(minimumLevel);
#else
    ID3D12Device* device = nullptr;
    HRESULT hr = D3D12CreateDevice(nullptr, minimumLevel, IID_ID3D12Device, reinterpret_cast<void**>(&device));
    ThrowIfFailed(hr, "D3D12CreateDevice");
    return device;
#endif
}

#if defined(_WIN32)
namespace {
/// The DXGI description of the adapter `device` runs on; false when DXGI cannot tell.
bool AdapterDesc(ID3D12Device* device, DXGI_ADAPTER_DESC1& desc) {
    bool found = false;
    IDXGIFactory4* factory = nullptr;
    if (SUCCEEDED(CreateDXGIFactory1(IID_PPV_ARGS(&factory)))) {
        IDXGIAdapter1* adapter = nullptr;
        if (SUCCEEDED(factory->EnumAdapterByLuid(device->GetAdapterLuid(), IID_PPV_ARGS(&adapter)))) {
            found = SUCCEEDED(adapter->GetDesc1(&desc));
            adapter->Release();
        }
        factory->Release();
    }
    return found;
}
}  // namespace
#endif

const char* AdapterName(ID3D12Device* device) {
    static thread_local std::string name;
#if defined(_WIN32)
    name = "D3D12 adapter";
    DXGI_ADAPTER_DESC1 desc{};
    if (AdapterDesc(device, desc)) {
        char buf[256];
        WideCharToMultiByte(CP_UTF8, 0, desc.Description, -1, buf, sizeof buf, nullptr, nullptr);
        name = buf;
    }
#else
    VkPhysicalDevice pd = vkd3d_get_vk_physical_device(device);
    VkPhysicalDeviceProperties props{};
    vkGetPhysicalDeviceProperties(pd, &props);
    name = props.deviceName;
#endif
    return name.c_str();
}

uint64_t LocalMemoryBytes(ID3D12Device* device, bool uma) {
#if defined(_WIN32)
    DXGI_ADAPTER_DESC1 desc{};
    if (!AdapterDesc(device, desc)) return 0;
    // On UMA the GPU's memory is shared system memory (D3D12MA's GetMemoryCapacity does the same).
    return desc.DedicatedVideoMemory + (uma ? desc.SharedSystemMemory : 0);
#else
    (void)uma;
    VkPhysicalDevice pd = vkd3d_get_vk_physical_device(device);
    VkPhysicalDeviceMemoryProperties props{};
    vkGetPhysicalDeviceMemoryProperties(pd, &props);
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < props.memoryHeapCount; ++i)
        if (props.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) bytes += props.memoryHeaps[i].size;
    return bytes;
#endif
}

uint64_t TotalMemoryBytes(ID3D12Device* device) {
#if defined(_WIN32)
    DXGI_ADAPTER_DESC1 desc{};
    if (!AdapterDesc(device, desc)) return 0;
    return desc.DedicatedVideoMemory + desc.DedicatedSystemMemory + desc.SharedSystemMemory;
#else
    VkPhysicalDevice pd = vkd3d_get_vk_physical_device(device);
    VkPhysicalDeviceMemoryProperties props{};
    vkGetPhysicalDeviceMemoryProperties(pd, &props);
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < props.memoryHeapCount; ++i) bytes += props.memoryHeaps[i].size;
    return bytes;
#endif
}

void QuietBackendMessagesByDefault() {
#if !defined(_WIN32)
    // vkd3d's levels: none, err, fixme (its default), warn, trace. libvkd3d and libvkd3d-utils read
    // VKD3D_DEBUG, libvkd3d-shader VKD3D_SHADER_DEBUG; each caches the level at its first message.
    setenv("VKD3D_DEBUG", "err", 0);
    setenv("VKD3D_SHADER_DEBUG", "err", 0);
#endif
}

SamplerSupport BackendSamplerSupport() {
    SamplerSupport s;
#if !defined(_WIN32)
    // vkd3d 1.2's d3d12_create_sampler (libs/vkd3d/resource.c), measured by tests/cpp/TestSamplers.cpp.
    s.borderColors = false;
    s.mirrorOnce = false;
    s.minMaxFiltering = false;
#endif
    return s;
}

QuerySupport BackendQuerySupport() {
    QuerySupport q;
#if !defined(_WIN32)
    // vkd3d 1.2's command.c (its FIXME strings), measured by tests/device/test_queries.py.
    q.binaryOcclusion01 = false;
    q.predicate64 = false;
    q.predicatesCopiesAndClears = false;
    q.copyQueueTimestamps = false;
#endif
    return q;
}

void KeepFreedRecordingMemory() {
#if defined(__GLIBC__)
    // lavapipe allocates every recorded Vulkan command with malloc and frees them all when vkd3d
    // resets the list's allocator; glibc then hands the freed top of each arena back to the kernel
    // (M_TRIM_THRESHOLD, 128 KiB by default) and the next list faults the same pages in again, zeroed.
    // Measured (benchmarks/bench_parallel_recording.py, draw_many of 10,000 rows): ~800 page faults
    // per list, 40% of the recording's CPU time, and two recording threads fault against each other
    // (CPU per list 2.5 ms alone, 3.4 ms with two threads). A 64 MiB threshold keeps that memory:
    // 1.5 ms per list, alone or with two threads. The user's own threshold (MALLOC_TRIM_THRESHOLD_,
    // GLIBC_TUNABLES=glibc.malloc.trim_threshold=...) wins; DX12KIT_KEEP_RECORDING_MEMORY=0 leaves
    // malloc alone (docs/guides/threads.rst).
    static std::once_flag once;
    std::call_once(once, [] {
        const char* keep = getenv("DX12KIT_KEEP_RECORDING_MEMORY");
        const std::string k = keep ? keep : "";
        if (k != "" && k != "0" && k != "1")
            throw InvalidArgument("DX12KIT_KEEP_RECORDING_MEMORY='" + k +
                                  "' must be 0 (leave glibc's malloc trim threshold alone) or 1 (the default: raise it to 64 MiB)");
        if (k == "0") return;
        const char* tunables = getenv("GLIBC_TUNABLES");
        if (getenv("MALLOC_TRIM_THRESHOLD_") || (tunables && std::string(tunables).find("glibc.malloc.trim_threshold") != std::string::npos)) return;
        mallopt(M_TRIM_THRESHOLD, 64 << 20);
    });
#endif
}

UavCounterSupport BackendUavCounterSupport() {
    UavCounterSupport c;
#if !defined(_WIN32)
    c.graphics = false;
#endif
    return c;
}

IndirectSupport BackendIndirectSupport() {
    IndirectSupport s;
#if !defined(_WIN32)
    s.rootArguments = false;
    s.bufferViews = false;
    s.drawIndexed = false;
    s.dispatchCount = false;
    s.dispatchMaxCount = false;
#endif
    return s;
}

}  // namespace platform
}  // namespace dx12kit
