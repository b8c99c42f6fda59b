#include "dx12kit/devicecontext/FormatSupport.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/Formats.hpp"

#include <initializer_list>

namespace dx12kit {

namespace {

struct Family {
    DXGI_FORMAT typeless;
    std::initializer_list<DXGI_FORMAT> members;
};

// The DXGI cast families (DXGI_FORMAT documentation: formats sharing a TYPELESS format share a bit
// layout and may be cast to each other through views of a TYPELESS resource). Video and palette
// formats have none: dx12kit does not create them.
// clang-format off
const Family kFamilies[] = {
    {DXGI_FORMAT_R32G32B32A32_TYPELESS, {DXGI_FORMAT_R32G32B32A32_FLOAT, DXGI_FORMAT_R32G32B32A32_UINT, DXGI_FORMAT_R32G32B32A32_SINT}},
    {DXGI_FORMAT_R32G32B32_TYPELESS,    {DXGI_FORMAT_R32G32B32_FLOAT, DXGI_FORMAT_R32G32B32_UINT, DXGI_FORMAT_R32G32B32_SINT}},
    {DXGI_FORMAT_R16G16B16A16_TYPELESS, {DXGI_FORMAT_R16G16B16A16_FLOAT, DXGI_FORMAT_R16G16B16A16_UNORM, DXGI_FORMAT_R16G16B16A16_UINT,
                                         DXGI_FORMAT_R16G16B16A16_SNORM, DXGI_FORMAT_R16G16B16A16_SINT}},
    {DXGI_FORMAT_R32G32_TYPELESS,       {DXGI_FORMAT_R32G32_FLOAT, DXGI_FORMAT_R32G32_UINT, DXGI_FORMAT_R32G32_SINT}},
    {DXGI_FORMAT_R32G8X24_TYPELESS,     {DXGI_FORMAT_D32_FLOAT_S8X24_UINT, DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS, DXGI_FORMAT_X32_TYPELESS_G8X24_UINT}},
    {DXGI_FORMAT_R10G10B10A2_TYPELESS,  {DXGI_FORMAT_R10G10B10A2_UNORM, DXGI_FORMAT_R10G10B10A2_UINT}},
    {DXGI_FORMAT_R8G8B8A8_TYPELESS,     {DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, DXGI_FORMAT_R8G8B8A8_UINT,
                                         DXGI_FORMAT_R8G8B8A8_SNORM, DXGI_FORMAT_R8G8B8A8_SINT}},
    {DXGI_FORMAT_R16G16_TYPELESS,       {DXGI_FORMAT_R16G16_FLOAT, DXGI_FORMAT_R16G16_UNORM, DXGI_FORMAT_R16G16_UINT, DXGI_FORMAT_R16G16_SNORM,
                                         DXGI_FORMAT_R16G16_SINT}},
    {DXGI_FORMAT_R32_TYPELESS,          {DXGI_FORMAT_D32_FLOAT, DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_R32_UINT, DXGI_FORMAT_R32_SINT}},
    {DXGI_FORMAT_R24G8_TYPELESS,        {DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_R24_UNORM_X8_TYPELESS, DXGI_FORMAT_X24_TYPELESS_G8_UINT}},
    {DXGI_FORMAT_R8G8_TYPELESS,         {DXGI_FORMAT_R8G8_UNORM, DXGI_FORMAT_R8G8_UINT, DXGI_FORMAT_R8G8_SNORM, DXGI_FORMAT_R8G8_SINT}},
    {DXGI_FORMAT_R16_TYPELESS,          {DXGI_FORMAT_R16_FLOAT, DXGI_FORMAT_D16_UNORM, DXGI_FORMAT_R16_UNORM, DXGI_FORMAT_R16_UINT,
                                         DXGI_FORMAT_R16_SNORM, DXGI_FORMAT_R16_SINT}},
    {DXGI_FORMAT_R8_TYPELESS,           {DXGI_FORMAT_R8_UNORM, DXGI_FORMAT_R8_UINT, DXGI_FORMAT_R8_SNORM, DXGI_FORMAT_R8_SINT}},
    {DXGI_FORMAT_B8G8R8A8_TYPELESS,     {DXGI_FORMAT_B8G8R8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM_SRGB}},
    {DXGI_FORMAT_B8G8R8X8_TYPELESS,     {DXGI_FORMAT_B8G8R8X8_UNORM, DXGI_FORMAT_B8G8R8X8_UNORM_SRGB}},
    {DXGI_FORMAT_BC1_TYPELESS,          {DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_BC1_UNORM_SRGB}},
    {DXGI_FORMAT_BC2_TYPELESS,          {DXGI_FORMAT_BC2_UNORM, DXGI_FORMAT_BC2_UNORM_SRGB}},
    {DXGI_FORMAT_BC3_TYPELESS,          {DXGI_FORMAT_BC3_UNORM, DXGI_FORMAT_BC3_UNORM_SRGB}},
    {DXGI_FORMAT_BC4_TYPELESS,          {DXGI_FORMAT_BC4_UNORM, DXGI_FORMAT_BC4_SNORM}},
    {DXGI_FORMAT_BC5_TYPELESS,          {DXGI_FORMAT_BC5_UNORM, DXGI_FORMAT_BC5_SNORM}},
    {DXGI_FORMAT_BC6H_TYPELESS,         {DXGI_FORMAT_BC6H_UF16, DXGI_FORMAT_BC6H_SF16}},
    {DXGI_FORMAT_BC7_TYPELESS,          {DXGI_FORMAT_BC7_UNORM, DXGI_FORMAT_BC7_UNORM_SRGB}},
};
// clang-format on

const Family* FindFamily(DXGI_FORMAT format) {
    for (const Family& f : kFamilies) {
        if (f.typeless == format) return &f;
        for (DXGI_FORMAT m : f.members)
            if (m == format) return &f;
    }
    return nullptr;
}

std::string FamilyList(DXGI_FORMAT format) {
    std::string s;
    for (DXGI_FORMAT m : FamilyMembers(format))
        if (FindFormat(m)) s += (s.empty() ? "" : ", ") + FormatName(m);
    return s;
}

}  // namespace

DXGI_FORMAT TypelessFamily(DXGI_FORMAT format) {
    const Family* f = FindFamily(format);
    return f ? f->typeless : DXGI_FORMAT_UNKNOWN;
}

std::vector<DXGI_FORMAT> FamilyMembers(DXGI_FORMAT format) {
    const Family* f = FindFamily(format);
    if (!f) return {format};
    return std::vector<DXGI_FORMAT>(f->members.begin(), f->members.end());
}

bool IsSrgb(DXGI_FORMAT f) {
    return f == DXGI_FORMAT_R8G8B8A8_UNORM_SRGB || f == DXGI_FORMAT_B8G8R8A8_UNORM_SRGB || f == DXGI_FORMAT_B8G8R8X8_UNORM_SRGB ||
           f == DXGI_FORMAT_BC1_UNORM_SRGB || f == DXGI_FORMAT_BC2_UNORM_SRGB || f == DXGI_FORMAT_BC3_UNORM_SRGB || f == DXGI_FORMAT_BC7_UNORM_SRGB;
}

bool IsDepth(DXGI_FORMAT f) {
    return f == DXGI_FORMAT_D32_FLOAT || f == DXGI_FORMAT_D24_UNORM_S8_UINT || f == DXGI_FORMAT_D16_UNORM || f == DXGI_FORMAT_D32_FLOAT_S8X24_UINT;
}

bool IsInteger(DXGI_FORMAT f) {
    switch (f) {
        case DXGI_FORMAT_R32G32B32A32_UINT:
        case DXGI_FORMAT_R32G32B32A32_SINT:
        case DXGI_FORMAT_R32G32B32_UINT:
        case DXGI_FORMAT_R32G32B32_SINT:
        case DXGI_FORMAT_R16G16B16A16_UINT:
        case DXGI_FORMAT_R16G16B16A16_SINT:
        case DXGI_FORMAT_R32G32_UINT:
        case DXGI_FORMAT_R32G32_SINT:
        case DXGI_FORMAT_R10G10B10A2_UINT:
        case DXGI_FORMAT_R8G8B8A8_UINT:
        case DXGI_FORMAT_R8G8B8A8_SINT:
        case DXGI_FORMAT_R16G16_UINT:
        case DXGI_FORMAT_R16G16_SINT:
        case DXGI_FORMAT_R32_UINT:
        case DXGI_FORMAT_R32_SINT:
        case DXGI_FORMAT_R8G8_UINT:
        case DXGI_FORMAT_R8G8_SINT:
        case DXGI_FORMAT_R16_UINT:
        case DXGI_FORMAT_R16_SINT:
        case DXGI_FORMAT_R8_UINT:
        case DXGI_FORMAT_R8_SINT:
        case DXGI_FORMAT_X32_TYPELESS_G8X24_UINT:
        case DXGI_FORMAT_X24_TYPELESS_G8_UINT: return true;
        default: return false;
    }
}

DXGI_FORMAT LinearMember(DXGI_FORMAT f) {
    switch (f) {
        case DXGI_FORMAT_R8G8B8A8_UNORM_SRGB: return DXGI_FORMAT_R8G8B8A8_UNORM;
        case DXGI_FORMAT_B8G8R8A8_UNORM_SRGB: return DXGI_FORMAT_B8G8R8A8_UNORM;
        case DXGI_FORMAT_B8G8R8X8_UNORM_SRGB: return DXGI_FORMAT_B8G8R8X8_UNORM;
        case DXGI_FORMAT_BC1_UNORM_SRGB: return DXGI_FORMAT_BC1_UNORM;
        case DXGI_FORMAT_BC2_UNORM_SRGB: return DXGI_FORMAT_BC2_UNORM;
        case DXGI_FORMAT_BC3_UNORM_SRGB: return DXGI_FORMAT_BC3_UNORM;
        case DXGI_FORMAT_BC7_UNORM_SRGB: return DXGI_FORMAT_BC7_UNORM;
        default: return f;
    }
}

bool IsBgra(DXGI_FORMAT f) {
    return f == DXGI_FORMAT_B8G8R8A8_UNORM || f == DXGI_FORMAT_B8G8R8A8_UNORM_SRGB || f == DXGI_FORMAT_B8G8R8A8_TYPELESS ||
           f == DXGI_FORMAT_B8G8R8X8_UNORM || f == DXGI_FORMAT_B8G8R8X8_UNORM_SRGB || f == DXGI_FORMAT_B8G8R8X8_TYPELESS;
}

bool CastCompatible(DXGI_FORMAT resource, DXGI_FORMAT view) {
    if (resource == view) return true;
    const DXGI_FORMAT family = TypelessFamily(resource);
    return family != DXGI_FORMAT_UNKNOWN && family == TypelessFamily(view);
}

std::string FormatName(DXGI_FORMAT format) {
    if (const FormatInfo* f = FindFormat(format)) return f->name;
    return "DXGI format " + std::to_string(static_cast<int>(format));
}

const FormatSupportInfo& FormatSupportCache::Get(DXGI_FORMAT format) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    auto it = m_Cache.find(static_cast<uint32_t>(format));
    if (it != m_Cache.end()) return it->second;
    FormatSupportInfo info;
    D3D12_FEATURE_DATA_FORMAT_SUPPORT fs{};
    fs.Format = format;
    if (SUCCEEDED(m_Device->CheckFeatureSupport(D3D12_FEATURE_FORMAT_SUPPORT, &fs, sizeof fs))) {
        info.support1 = static_cast<uint32_t>(fs.Support1);
        info.support2 = static_cast<uint32_t>(fs.Support2);
    }
    // A colour texture the device says it supports but cannot create: vkd3d 1.2 reports the stencil
    // families' other members (r24g8_typeless, x24_typeless_g8_uint, r32g8x24_typeless...) like the
    // depth-stencil formats they share a Vulkan format with, yet creates them only with the
    // depth-stencil usage, which D3D12 gives depth formats alone. One GetResourceAllocationInfo of a
    // 4x4 texture (as dx12kit creates it: its family's TYPELESS format) decides, once per format;
    // depth formats keep their answers (created with depth_stencil=True, they work).
    const uint32_t dims = D3D12_FORMAT_SUPPORT1_TEXTURE2D | D3D12_FORMAT_SUPPORT1_TEXTURE3D | D3D12_FORMAT_SUPPORT1_TEXTURECUBE;
    if ((info.support1 & dims) && !IsDepth(format)) {
        const DXGI_FORMAT family = TypelessFamily(format);
        D3D12_RESOURCE_DESC d{};
        d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
        d.Width = 4;
        d.Height = 4;
        d.DepthOrArraySize = 1;
        d.MipLevels = 1;
        d.Format = family != DXGI_FORMAT_UNKNOWN ? family : format;
        d.SampleDesc.Count = 1;
        d.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
        const D3D12_RESOURCE_ALLOCATION_INFO a = m_Device->GetResourceAllocationInfo(0, 1, &d);
        if (a.SizeInBytes == UINT64_MAX || a.SizeInBytes == 0) info.support1 &= ~dims;
    }
    for (uint32_t count : {1u, 2u, 4u, 8u, 16u, 32u}) {
        D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS q{};
        q.Format = format;
        q.SampleCount = count;
        if (SUCCEEDED(m_Device->CheckFeatureSupport(D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &q, sizeof q)) && q.NumQualityLevels > 0)
            info.msaa.push_back(count);
    }
    return m_Cache.emplace(static_cast<uint32_t>(format), std::move(info)).first->second;
}

void FormatSupportCache::CheckTexture2D(DXGI_FORMAT format, bool renderTarget, bool depthStencil, bool uav, const char* what) {
    if (!Get(format).Has(D3D12_FORMAT_SUPPORT1_TEXTURE2D))
        throw InvalidArgument(std::string(what) + ": " + FormatName(format) + " cannot be a 2D texture on this device");
    CheckUsage(format, renderTarget, depthStencil, uav, what);
}

void FormatSupportCache::CheckUsage(DXGI_FORMAT format, bool renderTarget, bool depthStencil, bool uav, const char* what) {
    const FormatSupportInfo& s = Get(format);
    auto fail = [&](const std::string& why) { throw InvalidArgument(std::string(what) + ": " + why); };
    auto name = [&] { return FormatName(format); };  // built on the error paths only
    const FormatInfo* fi = FindFormat(format);
    if (fi && fi->IsBlock() && (renderTarget || depthStencil || uav))
        fail(name() +
             " is block-compressed: D3D12 makes no render targets, depth-stencil targets or unordered access views of "
             "block-compressed formats; create it without render_target/depth_stencil/uav, upload its blocks, and render into "
             "an uncompressed texture instead");
    if (renderTarget && !s.Has(D3D12_FORMAT_SUPPORT1_RENDER_TARGET)) fail(name() + " cannot be a render target on this device");
    if (depthStencil && !s.Has(D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL)) fail(name() + " cannot be a depth-stencil target on this device");
    if (uav) {
        if (IsSrgb(format)) {
            std::string partner;
            for (DXGI_FORMAT m : FamilyMembers(format))
                if (m != format && FindFormat(m) && Get(m).TypedUav(m)) {
                    partner = FormatName(m);
                    break;
                }
            fail(name() + " is an sRGB format: D3D12 has no unordered access views of sRGB formats" +
                 (partner.empty() ? std::string()
                                  : "; create the texture as " + partner + " with uav=True and read it through views with format='" + name() + "'"));
        }
        if (!s.TypedUav(format))
            fail(name() + " textures cannot have uav=True: this device has no typed unordered access views of " + name() +
                 " (D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW)" + (IsBgra(format) ? "; use rgba8_unorm for UAV work" : ""));
    }
}

bool FormatSupportCache::UnalignedBlockTextures() {
    std::lock_guard<std::mutex> lock(m_Mutex);
    if (m_UnalignedBlocks < 0) {
#if defined(_WIN32)
        // D3D12_FEATURE_D3D12_OPTIONS8 (36): { BOOL UnalignedBlockTexturesSupported; }.
        BOOL options8 = FALSE;
        m_UnalignedBlocks = SUCCEEDED(m_Device->CheckFeatureSupport(static_cast<D3D12_FEATURE>(36), &options8, sizeof options8)) && options8 ? 1 : 0;
#else
        m_UnalignedBlocks = 0;  // vkd3d 1.2 knows no OPTIONS8 (its headers stop at ID3D12Device1): not supported
#endif
    }
    return m_UnalignedBlocks == 1;
}

void FormatSupportCache::CheckBlockSize(DXGI_FORMAT format, uint32_t width, uint32_t height, const char* what) {
    const FormatInfo* fi = FindFormat(format);
    if (!fi || !fi->IsBlock() || (width % 4 == 0 && height % 4 == 0)) return;
    if (UnalignedBlockTextures()) return;
    throw InvalidArgument(std::string(what) + ": a " + FormatName(format) + " texture of " + std::to_string(width) + "x" + std::to_string(height) +
                          ": a block-compressed texture's mip 0 must be a multiple of 4 texels wide and high (D3D12 needs it unless "
                          "D3D12_FEATURE_DATA_D3D12_OPTIONS8.UnalignedBlockTexturesSupported, which this device lacks; smaller mips may "
                          "be any size); pad the image to " +
                          std::to_string((width + 3) / 4 * 4) + "x" + std::to_string((height + 3) / 4 * 4));
}

bool FormatSupportCache::CubeAllowed(DXGI_FORMAT format) {
    return !IsDepth(format) && Get(format).Has(D3D12_FORMAT_SUPPORT1_TEXTURECUBE);
}

bool FormatSupportCache::Texture3DAllowed(DXGI_FORMAT format) {
    return !IsDepth(format) && Get(format).Has(D3D12_FORMAT_SUPPORT1_TEXTURE3D);
}

void FormatSupportCache::CheckTextureCube(DXGI_FORMAT format, bool renderTarget, bool uav, const char* what) {
    if (IsDepth(format))
        throw InvalidArgument(std::string(what) + ": " + FormatName(format) +
                              " is a depth format; create_texture_cube makes colour cubes only "
                              "(for a depth cube, e.g. an omnidirectional shadow map, create_texture2d(size, size, format, "
                              "depth_stencil=True, array_size=6))");
    if (!CubeAllowed(format))
        throw InvalidArgument(std::string(what) + ": " + FormatName(format) +
                              " cannot be a cube texture on this device (format_support: texture_cube)");
    CheckTexture2D(format, renderTarget, false, uav, what);  // the faces are a 2D array
}

void FormatSupportCache::CheckTexture3D(DXGI_FORMAT format, bool renderTarget, bool uav, const char* what) {
    if (IsDepth(format))
        throw InvalidArgument(std::string(what) + ": " + FormatName(format) + " is a depth format; D3D12 has no 3D depth-stencil textures");
    if (!Texture3DAllowed(format))
        throw InvalidArgument(std::string(what) + ": " + FormatName(format) + " cannot be a 3D texture on this device (format_support: texture3d)");
    CheckUsage(format, renderTarget, false, uav, what);
}

DXGI_FORMAT FormatSupportCache::CheckViewFormat(DXGI_FORMAT resourceFormat, DXGI_FORMAT requested, D3D12_FORMAT_SUPPORT1 use, const char* what,
                                                const std::string& resourceName) {
    const std::string who = "resource '" + resourceName + "'";
    if (IsDepth(resourceFormat)) {
        // A depth texture is created TYPELESS; shaders read it through its readable format only.
        const DXGI_FORMAT readable = DepthSrvFormat(resourceFormat);
        if (use == D3D12_FORMAT_SUPPORT1_SHADER_LOAD && (requested == resourceFormat || requested == readable)) return readable;
        if (use == D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL && requested == resourceFormat) return requested;
        throw InvalidArgument(std::string(what) + ": format " + FormatName(requested) + " is not compatible with " + who + " of format " +
                              FormatName(resourceFormat) + " (a depth texture is read as " + FormatName(readable) + ")");
    }
    if (!CastCompatible(resourceFormat, requested))
        throw InvalidArgument(std::string(what) + ": format " + FormatName(requested) + " is not compatible with " + who + " of format " +
                              FormatName(resourceFormat) + "; a view must use a format of the same family (" + FamilyList(resourceFormat) + ")");
    const FormatSupportInfo& s = Get(requested);
    const bool ok = use == D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW ? s.TypedUav(requested) : s.Has(use);
    if (!ok) {
        const char* useName = use == D3D12_FORMAT_SUPPORT1_SHADER_LOAD     ? "shader resource view"
                              : use == D3D12_FORMAT_SUPPORT1_RENDER_TARGET ? "render target view"
                              : use == D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL ? "depth-stencil view"
                                                                           : "unordered access view";
        throw InvalidArgument(std::string(what) + ": format " + FormatName(requested) + " cannot be used for a " + useName + " of " + who +
                              " of format " + FormatName(resourceFormat) + " on this device");
    }
    return requested;
}

void FormatSupportCache::CheckRenderTargetFormat(DXGI_FORMAT format, uint32_t index, bool blend, const char* what) {
    const std::string where = std::string(what) + ": rtv_formats[" + std::to_string(index) + "] " + FormatName(format);
    if (IsDepth(format)) throw InvalidArgument(where + " is a depth format; pass it as dsv_format");
    const FormatSupportInfo& s = Get(format);
    if (!s.Has(D3D12_FORMAT_SUPPORT1_RENDER_TARGET)) throw InvalidArgument(where + " cannot be a render target on this device");
    if (blend && !s.Has(D3D12_FORMAT_SUPPORT1_BLENDABLE))
        throw InvalidArgument(where + " is not blendable (integer formats never are); use blend=None for it");
}

void FormatSupportCache::CheckSampleCount(DXGI_FORMAT format, uint32_t count, const char* what) {
    const FormatSupportInfo& s = Get(format);
    for (uint32_t c : s.msaa)
        if (c == count) return;
    std::string list;
    for (uint32_t c : s.msaa) list += (list.empty() ? "" : ", ") + std::to_string(c);
    throw InvalidArgument(std::string(what) + ": sample_count=" + std::to_string(count) + " is not supported for " + FormatName(format) +
                          " on this device (supported: " + (list.empty() ? "none" : list) + ")");
}

void FormatSupportCache::CheckDepthStencilFormat(DXGI_FORMAT format, const char* what) {
    if (!IsDepth(format))
        throw InvalidArgument(std::string(what) + ": dsv_format " + FormatName(format) +
                              " is not a depth format (d32_float, d24_unorm_s8_uint, d16_unorm)");
    if (!Get(format).Has(D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL))
        throw InvalidArgument(std::string(what) + ": dsv_format " + FormatName(format) + " cannot be a depth-stencil target on this device");
}

}  // namespace dx12kit
