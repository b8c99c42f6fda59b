#include "dx12kit/features/FormatCapabilities.hpp"

#include "dx12kit/devicecontext/DeviceContext.hpp"
#include "dx12kit/devicecontext/FormatSupport.hpp"
#include "dx12kit/features/GenerateMips.hpp"

namespace dx12kit {

FormatCapabilities QueryFormatCapabilities(DeviceContext& core, DXGI_FORMAT format) {
    core.CheckNotForked("format_support");  // the cache's lock and the device
    FormatSupportCache& cache = core.FormatSupport();
    const FormatSupportInfo& s = cache.Get(format);
    FormatCapabilities v;
    v.format = FormatName(format);
    v.buffer = s.Has(D3D12_FORMAT_SUPPORT1_BUFFER);
    v.texture2d = s.Has(D3D12_FORMAT_SUPPORT1_TEXTURE2D);
    v.texture3d = cache.Texture3DAllowed(format);
    v.texture_cube = cache.CubeAllowed(format);
    v.shader_load = s.Has(D3D12_FORMAT_SUPPORT1_SHADER_LOAD);
    v.shader_sample = s.Has(D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE);
    v.render_target = s.Has(D3D12_FORMAT_SUPPORT1_RENDER_TARGET);
    v.blendable = s.Has(D3D12_FORMAT_SUPPORT1_BLENDABLE);
    v.depth_stencil = s.Has(D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL);
    v.typed_uav = s.TypedUav(format);
    v.uav_typed_load = s.Has2(D3D12_FORMAT_SUPPORT2_UAV_TYPED_LOAD);
    v.uav_typed_store = s.Has2(D3D12_FORMAT_SUPPORT2_UAV_TYPED_STORE);
    v.mip_autogen = MipAutogenRefusal(cache, format).empty();
    v.msaa = s.msaa;
    return v;
}

}  // namespace dx12kit
