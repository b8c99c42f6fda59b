// Vulkan pipeline fixes under vkd3d (dx12kit/platform/VulkanPipelineFixes.hpp).
#include "dx12kit/platform/VulkanPipelineFixes.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/platform/HResult.hpp"

#if !defined(_WIN32)
#  include <vulkan/vulkan.h>
#endif

#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace dx12kit::platform {

#if defined(_WIN32)

PipelineFixScope::PipelineFixScope(const PipelineFix& fix) : m_Fix(fix) {}
PipelineFixScope::~PipelineFixScope() = default;

#else

namespace {

/// The real device functions the wrappers call, per VkDevice.
struct RealDeviceFunctions {
    PFN_vkCreateShaderModule createShaderModule = nullptr;
    PFN_vkDestroyShaderModule destroyShaderModule = nullptr;
    PFN_vkCreateGraphicsPipelines createGraphicsPipelines = nullptr;
};

struct Registry {
    std::mutex mutex;
    PFN_vkGetDeviceProcAddr realGetDeviceProcAddr = nullptr;
    std::map<VkDevice, RealDeviceFunctions> devices;
    std::map<std::pair<VkDevice, uint64_t>, PipelineFix> modules;  // (device, shader module) -> fix
    std::atomic<size_t> moduleCount{0};
};

Registry& Reg() {
    static Registry* r = new Registry();  // leaked: vkd3d may call the wrappers during static destruction
    return *r;
}

thread_local const PipelineFix* t_Pending = nullptr;

uint64_t ModuleKey(VkShaderModule m) {
    uint64_t k = 0;
    std::memcpy(&k, &m, sizeof m < sizeof k ? sizeof m : sizeof k);
    return k;
}

RealDeviceFunctions RealFor(VkDevice device) {
    Registry& r = Reg();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.devices.find(device);
    return it == r.devices.end() ? RealDeviceFunctions{} : it->second;
}

VkPrimitiveTopology VulkanAdjacency(D3D_PRIMITIVE_TOPOLOGY t) {
    switch (t) {
        case D3D_PRIMITIVE_TOPOLOGY_LINELIST_ADJ: return VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY;
        case D3D_PRIMITIVE_TOPOLOGY_LINESTRIP_ADJ: return VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY;
        case D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST_ADJ: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY;
        case D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY;
        default: return VK_PRIMITIVE_TOPOLOGY_MAX_ENUM;
    }
}

VKAPI_ATTR VkResult VKAPI_CALL HookCreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* info, const VkAllocationCallbacks* alloc,
                                                      VkShaderModule* module) {
    const RealDeviceFunctions real = RealFor(device);
    const VkResult vr = real.createShaderModule(device, info, alloc, module);
    if (vr == VK_SUCCESS && t_Pending) {
        Registry& r = Reg();
        std::lock_guard<std::mutex> lock(r.mutex);
        r.modules[{device, ModuleKey(*module)}] = *t_Pending;
        r.moduleCount.store(r.modules.size(), std::memory_order_release);
    }
    return vr;
}

VKAPI_ATTR void VKAPI_CALL HookDestroyShaderModule(VkDevice device, VkShaderModule module, const VkAllocationCallbacks* alloc) {
    const RealDeviceFunctions real = RealFor(device);
    if (module != VK_NULL_HANDLE && Reg().moduleCount.load(std::memory_order_acquire)) {
        Registry& r = Reg();
        std::lock_guard<std::mutex> lock(r.mutex);
        r.modules.erase({device, ModuleKey(module)});
        r.moduleCount.store(r.modules.size(), std::memory_order_release);
    }
    real.destroyShaderModule(device, module, alloc);
}

VKAPI_ATTR VkResult VKAPI_CALL HookCreateGraphicsPipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                           const VkGraphicsPipelineCreateInfo* infos, const VkAllocationCallbacks* alloc,
                                                           VkPipeline* pipelines) {
    const RealDeviceFunctions real = RealFor(device);
    if (!Reg().moduleCount.load(std::memory_order_acquire)) return real.createGraphicsPipelines(device, cache, count, infos, alloc, pipelines);
    // Copies of the create infos and of the states a fix changes (the originals are vkd3d's).
    std::vector<VkGraphicsPipelineCreateInfo> fixed(infos, infos + count);
    std::vector<VkPipelineInputAssemblyStateCreateInfo> ia(count);
    std::vector<VkPipelineRasterizationStateCreateInfo> rs(count);
    {
        Registry& r = Reg();
        std::lock_guard<std::mutex> lock(r.mutex);
        for (uint32_t i = 0; i < count; ++i) {
            VkGraphicsPipelineCreateInfo& ci = fixed[i];
            const PipelineFix* fix = nullptr;
            for (uint32_t s = 0; s < ci.stageCount && !fix; ++s) {
                auto it = r.modules.find({device, ModuleKey(ci.pStages[s].module)});
                if (it != r.modules.end()) fix = &it->second;
            }
            if (!fix) continue;
            const VkPrimitiveTopology adj = VulkanAdjacency(fix->adjacency);
            // vkd3d 1.2 falls back to POINT_LIST for the topologies it does not map.
            if (adj != VK_PRIMITIVE_TOPOLOGY_MAX_ENUM && ci.pInputAssemblyState &&
                ci.pInputAssemblyState->topology == VK_PRIMITIVE_TOPOLOGY_POINT_LIST) {
                ia[i] = *ci.pInputAssemblyState;
                ia[i].topology = adj;
                ia[i].primitiveRestartEnable = VK_FALSE;  // D3D12 has no strip cut for dx12kit's pipelines (IBStripCutValue 0)
                ci.pInputAssemblyState = &ia[i];
            }
            if (fix->depthBiasScale != 1.0f && ci.pRasterizationState && ci.pRasterizationState->depthBiasEnable) {
                rs[i] = *ci.pRasterizationState;
                rs[i].depthBiasConstantFactor *= fix->depthBiasScale;
                ci.pRasterizationState = &rs[i];
            }
        }
    }
    return real.createGraphicsPipelines(device, cache, count, fixed.data(), alloc, pipelines);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL HookGetDeviceProcAddr(VkDevice device, const char* name) {
    Registry& r = Reg();
    const PFN_vkVoidFunction real = r.realGetDeviceProcAddr(device, name);
    if (!real || !name) return real;
    std::lock_guard<std::mutex> lock(r.mutex);
    RealDeviceFunctions& fns = r.devices[device];
    if (std::strcmp(name, "vkCreateShaderModule") == 0) {
        fns.createShaderModule = reinterpret_cast<PFN_vkCreateShaderModule>(real);
        return reinterpret_cast<PFN_vkVoidFunction>(&HookCreateShaderModule);
    }
    if (std::strcmp(name, "vkDestroyShaderModule") == 0) {
        fns.destroyShaderModule = reinterpret_cast<PFN_vkDestroyShaderModule>(real);
        return reinterpret_cast<PFN_vkVoidFunction>(&HookDestroyShaderModule);
    }
    if (std::strcmp(name, "vkCreateGraphicsPipelines") == 0) {
        fns.createGraphicsPipelines = reinterpret_cast<PFN_vkCreateGraphicsPipelines>(real);
        return reinterpret_cast<PFN_vkVoidFunction>(&HookCreateGraphicsPipelines);
    }
    return real;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL HookGetInstanceProcAddr(VkInstance instance, const char* name) {
    const PFN_vkVoidFunction real = vkGetInstanceProcAddr(instance, name);
    if (real && name && std::strcmp(name, "vkGetDeviceProcAddr") == 0) {
        Registry& r = Reg();
        std::lock_guard<std::mutex> lock(r.mutex);
        r.realGetDeviceProcAddr = reinterpret_cast<PFN_vkGetDeviceProcAddr>(real);
        return reinterpret_cast<PFN_vkVoidFunction>(&HookGetDeviceProcAddr);
    }
    return real;
}

}  // namespace

/// The device creation of vkd3d-utils' D3D12CreateDevice (same instance and device extensions,
/// API version 1.0, vkd3d-utils' event signalling), with dx12kit's vkGetInstanceProcAddr.
ID3D12Device* CreateHookedVkd3dDevice(D3D_FEATURE_LEVEL minimumLevel) {
    static const char* const instanceExtensions[] = {VK_KHR_SURFACE_EXTENSION_NAME};
    static const char* const optionalInstanceExtensions[] = {"VK_KHR_xcb_surface", "VK_MVK_macos_surface"};
    static const char* const deviceExtensions[] = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
    vkd3d_application_info app{};
    app.type = VKD3D_STRUCTURE_TYPE_APPLICATION_INFO;
    app.api_version = VKD3D_API_VERSION_1_0;
    vkd3d_optional_instance_extensions_info optional{};
    optional.type = VKD3D_STRUCTURE_TYPE_OPTIONAL_INSTANCE_EXTENSIONS_INFO;
    optional.next = &app;
    optional.extensions = optionalInstanceExtensions;
    optional.extension_count = 2;
    vkd3d_instance_create_info instance{};
    instance.type = VKD3D_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    instance.next = &optional;
    instance.pfn_signal_event = vkd3d_signal_event;
    instance.wchar_size = sizeof(WCHAR);
    instance.pfn_vkGetInstanceProcAddr = &HookGetInstanceProcAddr;
    instance.instance_extensions = instanceExtensions;
    instance.instance_extension_count = 1;
    vkd3d_device_create_info info{};
    info.type = VKD3D_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    info.minimum_feature_level = minimumLevel;
    info.instance_create_info = &instance;
    info.device_extensions = deviceExtensions;
    info.device_extension_count = 1;
    ID3D12Device* device = nullptr;
    ThrowIfFailed(vkd3d_create_device(&info, IID_ID3D12Device, reinterpret_cast<void**>(&device)), "vkd3d_create_device");
    return device;
}

PipelineFixScope::PipelineFixScope(const PipelineFix& fix) : m_Fix(fix), m_Previous(t_Pending) {
    if (m_Fix.Any()) t_Pending = &m_Fix;
}

PipelineFixScope::~PipelineFixScope() {
    t_Pending = m_Previous;
}

#endif

}  // namespace dx12kit::platform
