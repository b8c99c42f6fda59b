// Corrections to the Vulkan pipelines vkd3d 1.2 builds for a D3D12 pipeline state, where vkd3d's
// translation gives other pixels than D3D12 and no D3D12-level setting can say it (Linux only).
//
//   adjacency      vkd3d 1.2 maps no *_ADJ topology to Vulkan (vk_topology_from_d3d12_topology:
//                  "Unhandled primitive topology", then POINT_LIST): adjacency draws came out as
//                  points, and a geometry shader taking lineadj/triangleadj input got points.
//                  Vulkan's *_WITH_ADJACENCY topologies are D3D12's (same vertex order, the
//                  adjacent vertices seen only by a geometry shader), so the fix names the Vulkan
//                  topology vkd3d should have chosen.
//   depth bias     Vulkan lets an implementation apply the constant depth bias in units of up to
//                  twice the format's step on fixed-point formats (lavapipe does); D3D12 says one
//                  step. The fix multiplies depthBiasConstantFactor (a float, so any DepthBias
//                  scales exactly) by the ratio the device's probe measured (DepthBiasUnits.hpp).
//
// How: the device is created through vkd3d_create_device with a vkGetInstanceProcAddr of
// dx12kit's own, which hands vkd3d wrappers of vkCreateShaderModule, vkDestroyShaderModule and
// vkCreateGraphicsPipelines (everything else is the loader's). While a PipelineFixScope is alive on
// a thread, the shader modules vkd3d creates on that thread (CreateGraphicsPipelineState compiles
// every stage there) are recorded with the scope's fix; a Vulkan pipeline built later (vkd3d builds
// them at the first draw, for the bound topology and depth format) from a recorded module gets the
// fix. A dx12kit pipeline always draws with its own topology (CommandList sets it with the
// pipeline), so one fix per pipeline state is exact.
//
// Windows: the D3D12 runtime follows D3D12's rules; everything here is a no-op there.
// Thread safety: the record is guarded by a mutex; scopes are per thread.
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

namespace dx12kit::platform {

struct PipelineFix {
    /// An *_ADJ topology the Vulkan pipeline must use instead of vkd3d's POINT_LIST; UNDEFINED: none.
    D3D_PRIMITIVE_TOPOLOGY adjacency = D3D_PRIMITIVE_TOPOLOGY_UNDEFINED;
    /// Factor on the constant depth bias vkd3d passes (DepthBias as a float); 1: none.
    float depthBiasScale = 1.0f;
    bool Any() const { return adjacency != D3D_PRIMITIVE_TOPOLOGY_UNDEFINED || depthBiasScale != 1.0f; }
};

/// Whether fixes apply: true under vkd3d (every device is made by CreateDefaultDevice, with the
/// hooks), false on Windows.
constexpr bool kPipelineFixes =
#if defined(_WIN32)
    false;
#else
    true;
#endif

#if !defined(_WIN32)
/// The device creation of vkd3d-utils' D3D12CreateDevice with the hooks (CreateDefaultDevice's).
ID3D12Device* CreateHookedVkd3dDevice(D3D_FEATURE_LEVEL minimumLevel);
#endif

/// Records `fix` for the shader modules vkd3d creates on this thread while the scope lives (wrap
/// CreateGraphicsPipelineState in it). Does nothing when !fix.Any().
class PipelineFixScope {
public:
    explicit PipelineFixScope(const PipelineFix& fix);
    ~PipelineFixScope();
    PipelineFixScope(const PipelineFixScope&) = delete;
    PipelineFixScope& operator=(const PipelineFixScope&) = delete;

private:
    PipelineFix m_Fix;
    const PipelineFix* m_Previous = nullptr;
};

}  // namespace dx12kit::platform
