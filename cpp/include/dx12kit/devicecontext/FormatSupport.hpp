// What a format may be used for: its cast family (a DXGI rule, the same on every device) and what
// the device supports for it (CheckFeatureSupport, queried once per format and cached). Every
// format rule of dx12kit is decided here.
//
//   family      DXGI groups formats by bit layout under one TYPELESS format (R8G8B8A8_TYPELESS:
//               rgba8_unorm, rgba8_unorm_srgb, rgba8_uint, rgba8_snorm, rgba8_sint). A resource
//               created with the TYPELESS format may be viewed as any member; a fully typed one
//               only as itself (the DXGI_FORMAT documentation on TYPELESS formats; D3D12 relaxes
//               this only with RelaxedFormatCastingSupported and a list of castable formats,
//               which vkd3d 1.2 lacks). dx12kit therefore creates textures with their family's
//               TYPELESS format and keeps the requested format as the default view format.
//   support     D3D12_FEATURE_FORMAT_SUPPORT (Support1: TEXTURE2D, SHADER_LOAD, SHADER_SAMPLE,
//               RENDER_TARGET, BLENDABLE, DEPTH_STENCIL, TYPED_UNORDERED_ACCESS_VIEW...) and
//               D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS. Support2's UAV_TYPED_LOAD/STORE read 0
//               for every format on vkd3d 1.2, so no rule depends on them.
//   sRGB        D3D12 has no unordered access views of sRGB formats (the format support tables
//               list no typed UAV for any *_SRGB format), whatever a driver reports.
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace dx12kit {

/// The TYPELESS format of `format`'s cast family (itself for a TYPELESS format), or
/// DXGI_FORMAT_UNKNOWN when the format has no family (R11G11B10_FLOAT, R9G9B9E5...).
DXGI_FORMAT TypelessFamily(DXGI_FORMAT format);
/// The formats of `format`'s family other than the TYPELESS one (just `format` when it has none).
std::vector<DXGI_FORMAT> FamilyMembers(DXGI_FORMAT format);
bool IsSrgb(DXGI_FORMAT format);
bool IsBgra(DXGI_FORMAT format);
bool IsDepth(DXGI_FORMAT format);
/// An integer format (*_UINT, *_SINT, and the depth-stencil formats' stencil views): never
/// filtered, averaged or resolved.
bool IsInteger(DXGI_FORMAT format);
/// The non-sRGB UNORM member of an sRGB format's family (rgba8_unorm_srgb -> rgba8_unorm), else
/// `format` itself.
DXGI_FORMAT LinearMember(DXGI_FORMAT format);
/// True when a view of format `view` may be created on a resource whose format (as created,
/// TYPELESS or not) is in the family of `resource`: the same format, or the same family.
bool CastCompatible(DXGI_FORMAT resource, DXGI_FORMAT view);
/// dx12kit's name of a format ("rgba8_unorm"), or its number when dx12kit has no name for it.
std::string FormatName(DXGI_FORMAT format);

/// What the device supports for one format.
struct FormatSupportInfo {
    uint32_t support1 = 0;       ///< D3D12_FORMAT_SUPPORT1 bits
    uint32_t support2 = 0;       ///< D3D12_FORMAT_SUPPORT2 bits
    std::vector<uint32_t> msaa;  ///< sample counts with at least one quality level
    bool Has(D3D12_FORMAT_SUPPORT1 bit) const { return (support1 & bit) != 0; }
    bool Has2(D3D12_FORMAT_SUPPORT2 bit) const { return (support2 & bit) != 0; }
    /// Whether dx12kit may create a typed UAV of the format: D3D12 allows none for sRGB, and
    /// otherwise the device must report TYPED_UNORDERED_ACCESS_VIEW.
    bool TypedUav(DXGI_FORMAT format) const { return !IsSrgb(format) && Has(D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW); }
};

/// The device's answers, queried on first use of each format. Thread-safe; references stay valid
/// for the cache's life.
class FormatSupportCache {
public:
    explicit FormatSupportCache(ID3D12Device* device) : m_Device(device) {}
    const FormatSupportInfo& Get(DXGI_FORMAT format);

    /// Throws InvalidArgument naming `what` and the format unless a 2D texture of `format` with
    /// these usages is allowed (by D3D12's rules and by the device).
    void CheckTexture2D(DXGI_FORMAT format, bool renderTarget, bool depthStencil, bool uav, const char* what);
    /// Whether create_texture_cube / create_texture3d accept `format`: the device's TEXTURECUBE /
    /// TEXTURE3D bit, and not a depth format (D3D12 has no 3D depth-stencil textures; dx12kit's
    /// cubes are colour cubes: a depth cube is a 6-slice depth array, create_texture2d with
    /// depth_stencil=True and array_size=6). format_support reports these.
    bool CubeAllowed(DXGI_FORMAT format);
    /// Throws InvalidArgument unless a texture of `format` may have a mip 0 of width x height: a
    /// block-compressed format needs multiples of 4 (D3D12_RESOURCE_DESC; lower mips may be any size)
    /// unless the device reports OPTIONS8 UnalignedBlockTexturesSupported.
    void CheckBlockSize(DXGI_FORMAT format, uint32_t width, uint32_t height, const char* what);
    /// OPTIONS8 UnalignedBlockTexturesSupported, queried once (false on vkd3d 1.2, which lacks OPTIONS8).
    bool UnalignedBlockTextures();
    bool Texture3DAllowed(DXGI_FORMAT format);
    /// As CheckTexture2D for cube and 3D textures (CubeAllowed, Texture3DAllowed).
    void CheckTextureCube(DXGI_FORMAT format, bool renderTarget, bool uav, const char* what);
    void CheckTexture3D(DXGI_FORMAT format, bool renderTarget, bool uav, const char* what);
    /// The format to put in a view description when the user asks for `requested` on a texture
    /// whose default view format is `resourceFormat` (its family's TYPELESS format is what the
    /// texture was created with). Depth formats map to their readable formats (d32_float ->
    /// r32_float) for shader resource views. Throws InvalidArgument naming both formats when they
    /// are not cast-compatible or the device cannot use the view format that way.
    DXGI_FORMAT CheckViewFormat(DXGI_FORMAT resourceFormat, DXGI_FORMAT requested, D3D12_FORMAT_SUPPORT1 use, const char* what,
                                const std::string& resourceName);
    /// Throws InvalidArgument unless `format` can be render target `index` of a pipeline (not a
    /// depth format, RENDER_TARGET support, BLENDABLE when `blend`).
    void CheckRenderTargetFormat(DXGI_FORMAT format, uint32_t index, bool blend, const char* what);
    /// Throws InvalidArgument naming `what`, the format and the supported counts unless the device
    /// supports `count` samples per pixel for `format`.
    void CheckSampleCount(DXGI_FORMAT format, uint32_t count, const char* what);
    /// Throws InvalidArgument unless `format` is a depth-stencil format the device supports.
    void CheckDepthStencilFormat(DXGI_FORMAT format, const char* what);

private:
    /// The render-target, depth-stencil and UAV checks shared by every texture dimension.
    void CheckUsage(DXGI_FORMAT format, bool renderTarget, bool depthStencil, bool uav, const char* what);
    ID3D12Device* m_Device;
    std::mutex m_Mutex;
    std::unordered_map<uint32_t, FormatSupportInfo> m_Cache;
    int m_UnalignedBlocks = -1;  ///< OPTIONS8 answer: -1 not asked yet
};

}  // namespace dx12kit
