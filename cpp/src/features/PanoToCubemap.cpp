// PanoToCubemap (CommandList.pano_to_cubemap): an equirectangular panorama into every mip of a cube texture.
//
// One compute dispatch per cube mip, each generated from the panorama itself (not by
// downsampling the mip above): texel (x, y) of face f at mip m averages S x S samples of the
// panorama spread evenly over the texel, taken at panorama mip L, where
//
//   ratio = panorama width / (4 x face size at m)   panorama texels per cube texel at the equator
//   L     = min(log2(ratio) - 1, panorama mips - 1)  (0 when ratio <= 2)
//   S     = clamp(ceil(ratio / 2^L), 1, 8)            samples about one texel of mip L apart
//
// so a panorama with mips is read through them (2 x 2 samples of the mip one finer than the
// texel's footprint) and one without is box-filtered by supersampling (up to 8 x 8 samples). Face order and the panorama layout: cpp/src/builtin/PanoToCubemap.hlsl.
//
// Formats: the shader writes float4 through a typed UAV of the cube's format. sRGB cubes (D3D12
// has no sRGB UAVs) are written through the UNORM member of their family with the shader
// encoding linear -> sRGB. A cube without uav=True (or an sRGB one) is written in a UAV-capable
// staging cube of the same TYPELESS family, then copied (CopyResource needs the same resource
// format: both are created with the family's TYPELESS format). Formats whose family has no typed
// UAV on the device (bgra8 on vkd3d) and integer formats are refused.
#include "dx12kit/features/PanoToCubemap.hpp"

#include "dx12kit/gpu/CommandList.hpp"

#include "../builtin/PanoToCubemap.generated.hpp"
#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/FormatSupport.hpp"
#include "dx12kit/devicecontext/Formats.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/features/TextureKinds.hpp"
#include "dx12kit/gpu/Device.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <string>

namespace dx12kit {

namespace {

constexpr uint32_t kRootConstants = 0, kRootPanorama = 1, kRootCube = 2;

std::shared_ptr<PipelineState> MakePanoToCubemapPipeline(const std::shared_ptr<DeviceContext>& core) {
    std::vector<RootParameterDesc> params(3);
    params[kRootConstants].kind = RootParamKind::Constants;
    params[kRootConstants].shaderRegister = 0;
    params[kRootConstants].num32BitValues = 4;
    params[kRootPanorama].kind = RootParamKind::Table;
    params[kRootPanorama].ranges = {DescriptorRangeDesc{RangeKind::Srv, 0}};
    params[kRootCube].kind = RootParamKind::Table;
    params[kRootCube].ranges = {DescriptorRangeDesc{RangeKind::Uav, 0}};
    StaticSamplerDesc sampler{};
    sampler.shaderRegister = 0;
    sampler.filter = D3D12_FILTER_MIN_MAG_MIP_LINEAR;
    sampler.address = D3D12_TEXTURE_ADDRESS_MODE_WRAP;    // longitude wraps around
    sampler.addressV = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;  // latitude stops at the poles
    sampler.addressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    auto rs = std::make_shared<RootSignature>(core, std::move(params), std::vector<StaticSamplerDesc>{sampler}, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    rs->SetName("dx12kit pano_to_cubemap");
    const std::vector<uint8_t> cs(std::begin(builtin::PanoToCubemap), std::end(builtin::PanoToCubemap));
    auto pso = std::make_shared<PipelineState>(core, cs, std::move(rs));
    pso->SetName("dx12kit pano_to_cubemap");
    return pso;
}

std::string Who(const Resource& r) {
    return "resource '" + r.Name() + "'";
}

}  // namespace

void PanoToCubemap(CommandList& list, const std::shared_ptr<Resource>& cube, const std::shared_ptr<Resource>& panorama) {
    const char* what = "pano_to_cubemap";
    const auto recording = list.Begin(what);
    list.CheckPredicatable(what);  // its copies would run, its dispatches not
    if (!cube || !panorama) throw InvalidArgument("pano_to_cubemap: None");
    list.CheckNotCopy(what);
    list.CheckSameDevice(*cube, what);
    list.CheckSameDevice(*panorama, what);
    if (cube == panorama) throw InvalidArgument("pano_to_cubemap: the cube and the panorama are the same " + Who(*cube));
    if (cube->IsBuffer() || !cube->IsCube() || cube->ArraySize() != 6)
        throw InvalidArgument("pano_to_cubemap: " + Who(*cube) + " is not a cube texture (create it with Device.create_texture_cube)");
    if (panorama->IsBuffer() || panorama->Is3D() || panorama->IsCube() || panorama->ArraySize() != 1)
        throw InvalidArgument("pano_to_cubemap: the panorama " + Who(*panorama) + " must be a 2D texture (not a buffer, array, cube or 3D texture)");
    if (panorama->SampleCount() > 1)  // its shader samples a Texture2D; a multisampled one is a Texture2DMS
        throw InvalidArgument("pano_to_cubemap: the panorama " + Who(*panorama) + " is multisampled (sample_count=" +
                              std::to_string(panorama->SampleCount()) + "); resolve it into a single-sample texture first");
    FormatSupportCache& formats = list.Context()->FormatSupport();
    const FormatInfo& panoInfo = RequireFormat(panorama->ViewFormat(), what);
    if (panoInfo.depth || !formats.Get(panoInfo.format).Has(D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE))
        throw InvalidArgument(std::string("pano_to_cubemap: the panorama's format ") + panoInfo.name +
                              " cannot be sampled with filtering (integer and depth formats cannot)");
    const DXGI_FORMAT cubeFormat = cube->ViewFormat();
    const std::string cubeName = FormatName(cubeFormat);
    if (!formats.Get(cubeFormat).Has(D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE))
        throw InvalidArgument("pano_to_cubemap: " + Who(*cube) + " has format " + cubeName +
                              ", which cannot hold filtered colours (integer formats cannot); use a unorm or float format");
    // sRGB: written through the UNORM member of the family, encoded by the shader.
    const bool encodeSrgb = IsSrgb(cubeFormat);
    const DXGI_FORMAT uavFormat = LinearMember(cubeFormat);
    if (!formats.Get(uavFormat).TypedUav(uavFormat))
        throw InvalidArgument("pano_to_cubemap: " + Who(*cube) + " has format " + cubeName +
                              ", and this device has no typed unordered access views of " + FormatName(uavFormat) +
                              " to write it with; use rgba8_unorm, rgba8_unorm_srgb, rgba16_float or rgba32_float");

    const uint32_t size = static_cast<Texture&>(*cube).Width();
    const uint32_t mips = cube->MipLevels();
    std::shared_ptr<Resource> target = cube;
    if (!cube->AllowsUav() || uavFormat != cubeFormat) {
        target = CreateTextureCube(list.DeviceRef(), size, uavFormat, mips, false, true, cube->Name() + " (pano_to_cubemap staging)");
        list.Keep(target);
        list.CheckSameDevice(*target, what);
    }
    list.NoteFullWrite(*target, true);  // every texel of every mip is written below: no zeroing needed

    auto pso = std::static_pointer_cast<PipelineState>(list.DeviceRef().BuiltinObject(
        "PanoToCubemap", [&list] { return std::static_pointer_cast<void>(MakePanoToCubemapPipeline(list.Context())); }));
    list.SetPipelineState(pso);
    list.SetShaderResourceView(kRootPanorama, 0, panorama, 0, 0, DXGI_FORMAT_UNKNOWN);
    const double panoWidth = static_cast<Texture&>(*panorama).Width();
    const uint32_t panoMips = panorama->MipLevels();
    for (uint32_t mip = 0; mip < mips; ++mip) {
        const uint32_t faceSize = std::max(1u, size >> mip);
        const double ratio = panoWidth / (4.0 * faceSize);
        const double lod = std::min(ratio > 2.0 ? std::log2(ratio) - 1.0 : 0.0, double(panoMips - 1));
        const uint32_t samples = static_cast<uint32_t>(std::clamp(std::ceil(ratio / std::exp2(lod) - 1e-9), 1.0, 8.0));
        const float lodF = static_cast<float>(lod);
        uint32_t constants[4] = {faceSize, samples, 0, encodeSrgb ? 1u : 0u};
        std::memcpy(&constants[2], &lodF, 4);
        list.SetConstants(kRootConstants, constants, 4, 0);
        // SetUnorderedAccessView, for one mip of every face (the UAV is the 2D array of faces).
        list.StageView(kRootCube, 0, target->Uav(mip), target, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, mip, 1u, true);
        list.Dispatch((faceSize + 7) / 8, (faceSize + 7) / 8, 6);
    }
    // The user's next work starts from a clean slate: no pipeline, no root arguments.
    list.UnbindPipeline("pano_to_cubemap");
    if (target != cube) list.CopyResource(cube, target);
}

}  // namespace dx12kit
