// What a device can do with one format, as plain values (Device.format_support in Python).
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace dx12kit {

class DeviceContext;

struct FormatCapabilities {
    std::string format;  ///< the format's dx12kit name
    bool buffer = false, texture2d = false, texture3d = false, texture_cube = false, shader_load = false, shader_sample = false,
         render_target = false, blendable = false, depth_stencil = false, typed_uav = false, uav_typed_load = false, uav_typed_store = false,
         mip_autogen = false;
    std::vector<uint32_t> msaa;  ///< supported MSAA sample counts
};

/// `format`'s capabilities on `core`'s device (the cached CheckFeatureSupport answers). texture3d and
/// texture_cube say what create_texture3d / create_texture_cube accept, typed_uav is false for sRGB
/// formats (D3D12 has no sRGB UAVs), mip_autogen is exactly what GenerateMips (GenerateMips.hpp) accepts.
/// ForkedDevice in a forked child.
FormatCapabilities QueryFormatCapabilities(DeviceContext& core, DXGI_FORMAT format);

}  // namespace dx12kit
