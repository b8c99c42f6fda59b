#include "dx12kit/gpu/SamplerRules.hpp"

#include "dx12kit/base/Errors.hpp"

#include <cmath>
#include <cstdio>

namespace dx12kit {

namespace {

// D3D12_MIP_LOD_BIAS_MIN / D3D12_MIP_LOD_BIAS_MAX (d3d12.h; vkd3d 1.2's headers lack them) and
// D3D12_MAX_MAXANISOTROPY.
constexpr float kMipLodBiasMin = -16.0f;
constexpr float kMipLodBiasMax = 15.99f;
constexpr uint32_t kMaxAnisotropy = 16;
#if defined(_WIN32)
#  define DX12KIT_MINMAX_BACKEND_NOTE ""
#else
#  define DX12KIT_MINMAX_BACKEND_NOTE ", and vkd3d 1.2 would average the texels instead"
#endif

std::string Num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string Hex(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", v);
    return buf;
}

std::string Color(const float c[4]) {
    return "(" + Num(c[0]) + ", " + Num(c[1]) + ", " + Num(c[2]) + ", " + Num(c[3]) + ")";
}

const char* AddressName(D3D12_TEXTURE_ADDRESS_MODE m) {
    switch (m) {
        case D3D12_TEXTURE_ADDRESS_MODE_WRAP: return "wrap";
        case D3D12_TEXTURE_ADDRESS_MODE_MIRROR: return "mirror";
        case D3D12_TEXTURE_ADDRESS_MODE_CLAMP: return "clamp";
        case D3D12_TEXTURE_ADDRESS_MODE_BORDER: return "border";
        case D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE: return "mirror_once";
        default: break;
    }
    return nullptr;
}

/// Rule 1: the point/linear combinations (min << 4 | mag << 2 | mip) and ANISOTROPIC (0x55), in one
/// of the four reductions (bits 7-8).
bool IsD3D12Filter(uint32_t f) {
    if (f >> 9) return false;
    switch (f & 0x7f) {
        case 0x00:
        case 0x01:
        case 0x04:
        case 0x05:
        case 0x10:
        case 0x11:
        case 0x14:
        case 0x15:
        case 0x55: return true;
        default: return false;
    }
}

uint32_t Reduction(D3D12_FILTER f) {
    return (static_cast<uint32_t>(f) >> D3D12_FILTER_REDUCTION_TYPE_SHIFT) & 3;
}

}  // namespace

bool IsComparisonFilter(D3D12_FILTER filter) {
    return Reduction(filter) == D3D12_FILTER_REDUCTION_TYPE_COMPARISON;
}

std::string FilterName(D3D12_FILTER filter) {
    const uint32_t f = static_cast<uint32_t>(filter);
    if (!IsD3D12Filter(f)) return Hex(f);
    static const char* const kReductions[4] = {"", "comparison_", "minimum_", "maximum_"};
    std::string name = kReductions[Reduction(filter)];
    if ((f & 0x7f) == 0x55) return name + "anisotropic";
    auto part = [](uint32_t bit) { return bit ? "linear" : "point"; };
    const uint32_t min = (f >> 4) & 1, mag = (f >> 2) & 1, mip = f & 1;
    // Neighbours with the same mode share one word: min_mag_mip_point, min_point_mag_mip_linear, ...
    if (min == mag && mag == mip) return name + "min_mag_mip_" + part(min);
    if (min == mag) return name + "min_mag_" + part(min) + "_mip_" + part(mip);
    if (mag == mip) return name + "min_" + part(min) + "_mag_mip_" + part(mag);
    return name + "min_" + part(min) + "_mag_" + part(mag) + "_mip_" + part(mip);
}

std::array<float, 4> StaticBorderColorValue(D3D12_STATIC_BORDER_COLOR color, const std::string& what) {
    switch (color) {
        case D3D12_STATIC_BORDER_COLOR_TRANSPARENT_BLACK: return {0.0f, 0.0f, 0.0f, 0.0f};
        case D3D12_STATIC_BORDER_COLOR_OPAQUE_BLACK: return {0.0f, 0.0f, 0.0f, 1.0f};
        case D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE: return {1.0f, 1.0f, 1.0f, 1.0f};
        default: break;  // later SDKs' *_UINT colours: not in vkd3d 1.2's D3D12
    }
    throw InvalidArgument(what + ": border_color " + std::to_string(static_cast<int>(color)) +
                          " is not a D3D12_STATIC_BORDER_COLOR (transparent_black 0, opaque_black 1, opaque_white 2)");
}

void CheckSamplerDesc(D3D12_SAMPLER_DESC& d, const platform::SamplerSupport* support, const std::string& what) {
    // 1. Filter and address modes.
    if (!IsD3D12Filter(static_cast<uint32_t>(d.Filter)))
        throw InvalidArgument(what + ": filter " + Hex(static_cast<uint32_t>(d.Filter)) + " is not a D3D12_FILTER");
    const struct {
        const char* name;
        D3D12_TEXTURE_ADDRESS_MODE mode;
    } addresses[] = {{"address", d.AddressU}, {"address_v", d.AddressV}, {"address_w", d.AddressW}};
    for (const auto& a : addresses)
        if (!AddressName(a.mode))
            throw InvalidArgument(what + ": " + a.name + " " + std::to_string(static_cast<int>(a.mode)) +
                                  " is not a D3D12_TEXTURE_ADDRESS_MODE (wrap 1, mirror 2, clamp 3, border 4, mirror_once 5)");
    // 2. MaxAnisotropy.
    if (d.MaxAnisotropy < 1 || d.MaxAnisotropy > kMaxAnisotropy)
        throw InvalidArgument(what + ": max_anisotropy " + std::to_string(d.MaxAnisotropy) +
                              " is outside 1..16 (D3D12_SAMPLER_DESC: valid values are between 1 and 16)");
    // 3. MipLODBias.
    if (!(d.MipLODBias >= kMipLodBiasMin && d.MipLODBias <= kMipLodBiasMax))
        throw InvalidArgument(what + ": mip_lod_bias " + Num(d.MipLODBias) + " is outside [-16, 15.99] (D3D12_MIP_LOD_BIAS_MIN/MAX)");
    // 4. MinLOD <= MaxLOD.
    if (std::isnan(d.MinLOD) || std::isnan(d.MaxLOD) || d.MinLOD > d.MaxLOD)
        throw InvalidArgument(what +
                              ": min_lod <= max_lod is required (D3D12_SAMPLER_DESC: MaxLOD must be greater than or equal to "
                              "MinLOD), got min_lod " +
                              Num(d.MinLOD) + ", max_lod " + Num(d.MaxLOD));
    // 5. BorderColor.
    for (float c : d.BorderColor)
        if (!(c >= 0.0f && c <= 1.0f))
            throw InvalidArgument(what + ": border_color " + Color(d.BorderColor) +
                                  " has a component outside [0, 1] (D3D12_SAMPLER_DESC: between 0.0 and 1.0 inclusive)");
    // 6. ComparisonFunc; 0: not given.
    const uint32_t func = static_cast<uint32_t>(d.ComparisonFunc);
    if (func > static_cast<uint32_t>(D3D12_COMPARISON_FUNC_ALWAYS))
        throw InvalidArgument(what + ": comparison " + std::to_string(func) + " is not a D3D12_COMPARISON_FUNC (never 1 .. always 8)");
    if (func == 0) d.ComparisonFunc = IsComparisonFilter(d.Filter) ? D3D12_COMPARISON_FUNC_LESS_EQUAL : D3D12_COMPARISON_FUNC_NEVER;
    if (!support) return;
    // 7-9. What the backend samples differently.
    const bool transparentBlack = d.BorderColor[0] == 0.0f && d.BorderColor[1] == 0.0f && d.BorderColor[2] == 0.0f && d.BorderColor[3] == 0.0f;
    for (const auto& a : addresses) {
        if (a.mode == D3D12_TEXTURE_ADDRESS_MODE_BORDER && !transparentBlack && !support->borderColors)
            throw InvalidArgument(what + ": border_color " + Color(d.BorderColor) + " with " + a.name +
                                  " 'border': this backend (" DX12KIT_BACKEND_NAME
                                  " 1.2) samples every border as transparent black "
                                  "(0, 0, 0, 0), whatever the colour, so coordinates outside [0, 1] would read other values than D3D12's; "
                                  "refused (Device.sampler_support['border_colors'] is False). Use border_color 'transparent_black', "
                                  "which it samples right, or another address mode, or give the colour from the shader for "
                                  "coordinates outside [0, 1]");
        if (a.mode == D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE && !support->mirrorOnce)
            throw InvalidArgument(what + ": " + a.name +
                                  " 'mirror_once': this backend (" DX12KIT_BACKEND_NAME
                                  " 1.2) samples it as 'wrap', "
                                  "so coordinates outside [0, 1] would read other texels than D3D12's; refused "
                                  "(Device.sampler_support['mirror_once'] is False). Use 'mirror' or 'clamp', or sample at abs(uv) "
                                  "with 'clamp' (what mirror_once does)");
    }
    const uint32_t reduction = Reduction(d.Filter);
    if ((reduction == D3D12_FILTER_REDUCTION_TYPE_MINIMUM || reduction == D3D12_FILTER_REDUCTION_TYPE_MAXIMUM) && !support->minMaxFiltering)
        throw InvalidArgument(what + ": filter " + Hex(static_cast<uint32_t>(d.Filter)) + " is a " +
                              (reduction == D3D12_FILTER_REDUCTION_TYPE_MINIMUM ? "minimum_" : "maximum_") +
                              "* (min/max reduction) filter, which this device does not support: D3D12 needs tiled resources tier 2 "
                              "for it (Device.info['tiled_resources_tier'])" DX12KIT_MINMAX_BACKEND_NOTE
                              "; refused "
                              "(Device.sampler_support['min_max_filtering'] is False). Use a standard filter and take the "
                              "min/max of Gather or Load results in the shader");
}

void CheckStaticSamplerDesc(StaticSamplerDesc& s, const platform::SamplerSupport* support, const std::string& what) {
    D3D12_SAMPLER_DESC d{};
    d.Filter = s.filter;
    d.AddressU = s.address;
    d.AddressV = s.addressV ? s.addressV : s.address;
    d.AddressW = s.addressW ? s.addressW : s.address;
    d.MipLODBias = s.mipLodBias;
    d.MaxAnisotropy = s.maxAnisotropy;
    d.ComparisonFunc = s.comparison;
    const std::array<float, 4> color = StaticBorderColorValue(s.borderColor, what);
    for (int i = 0; i < 4; ++i) d.BorderColor[i] = color[i];
    d.MinLOD = s.minLod;
    d.MaxLOD = s.maxLod;
    CheckSamplerDesc(d, support, what);
    s.comparison = d.ComparisonFunc;
}

}  // namespace dx12kit
