#include "dx12kit/device/Formats.hpp"

#include "dx12kit/core/Errors.hpp"

#include <cstring>
#include <string>

namespace dx12kit {

namespace {
// clang-format off
const FormatInfo kFormats[] = {
    {DXGI_FORMAT_R8G8B8A8_UNORM,       "rgba8_unorm",       4, 4, 'u', false},
    {DXGI_FORMAT_R8G8B8A8_UNORM_SRGB,  "rgba8_unorm_srgb",  4, 4, 'u', false},
    {DXGI_FORMAT_R8G8B8A8_UINT,        "rgba8_uint",        4, 4, 'u', false},
    {DXGI_FORMAT_R8G8B8A8_SNORM,       "rgba8_snorm",       4, 4, 'i', false},
    {DXGI_FORMAT_B8G8R8A8_UNORM,       "bgra8_unorm",       4, 4, 'u', false},
    {DXGI_FORMAT_B8G8R8A8_UNORM_SRGB,  "bgra8_unorm_srgb",  4, 4, 'u', false},
    {DXGI_FORMAT_R8_UNORM,             "r8_unorm",          1, 1, 'u', false},
    {DXGI_FORMAT_R8_UINT,              "r8_uint",           1, 1, 'u', false},
    {DXGI_FORMAT_R8G8_UNORM,           "rg8_unorm",         2, 2, 'u', false},
    {DXGI_FORMAT_R16_FLOAT,            "r16_float",         2, 1, 'h', false},
    {DXGI_FORMAT_R16_UNORM,            "r16_unorm",         2, 1, 'u', false},
    {DXGI_FORMAT_R16_UINT,             "r16_uint",          2, 1, 'u', false},
    {DXGI_FORMAT_R16G16_FLOAT,         "rg16_float",        4, 2, 'h', false},
    {DXGI_FORMAT_R16G16_UNORM,         "rg16_unorm",        4, 2, 'u', false},
    {DXGI_FORMAT_R16G16B16A16_FLOAT,   "rgba16_float",      8, 4, 'h', false},
    {DXGI_FORMAT_R16G16B16A16_UNORM,   "rgba16_unorm",      8, 4, 'u', false},
    {DXGI_FORMAT_R32_FLOAT,            "r32_float",         4, 1, 'f', false},
    {DXGI_FORMAT_R32_UINT,             "r32_uint",          4, 1, 'u', false},
    {DXGI_FORMAT_R32_SINT,             "r32_sint",          4, 1, 'i', false},
    {DXGI_FORMAT_R32G32_FLOAT,         "rg32_float",        8, 2, 'f', false},
    {DXGI_FORMAT_R32G32_UINT,          "rg32_uint",         8, 2, 'u', false},
    {DXGI_FORMAT_R32G32B32A32_FLOAT,   "rgba32_float",     16, 4, 'f', false},
    {DXGI_FORMAT_R32G32B32A32_UINT,    "rgba32_uint",      16, 4, 'u', false},
    {DXGI_FORMAT_R10G10B10A2_UNORM,    "rgb10a2_unorm",     4, 1, 'u', false},
    {DXGI_FORMAT_R11G11B10_FLOAT,      "rg11b10_float",     4, 1, 'u', false},
    {DXGI_FORMAT_D32_FLOAT,            "d32_float",         4, 1, 'f', true},
    {DXGI_FORMAT_D24_UNORM_S8_UINT,    "d24_unorm_s8_uint", 4, 1, 'u', true},
    {DXGI_FORMAT_D16_UNORM,            "d16_unorm",         2, 1, 'u', true},
    // Two planes; texel size and reads are those of the depth plane (plane 0, R32 float).
    {DXGI_FORMAT_D32_FLOAT_S8X24_UINT, "d32_float_s8x24_uint", 4, 1, 'f', true},
};
// clang-format on
}  // namespace

const FormatInfo* FindFormat(DXGI_FORMAT format) {
    for (const FormatInfo& f : kFormats) if (f.format == format) return &f;
    return nullptr;
}

const FormatInfo* FindFormat(const char* name) {
    for (const FormatInfo& f : kFormats) if (std::strcmp(f.name, name) == 0) return &f;
    return nullptr;
}

const FormatInfo& RequireFormat(DXGI_FORMAT format, const char* what) {
    if (const FormatInfo* f = FindFormat(format)) return *f;
    throw InvalidArgument(std::string(what) + ": unsupported format " + std::to_string(static_cast<int>(format)));
}

const FormatInfo* AllFormats(size_t& count) {
    count = sizeof kFormats / sizeof kFormats[0];
    return kFormats;
}

DXGI_FORMAT DepthSrvFormat(DXGI_FORMAT format) {
    switch (format) {
        case DXGI_FORMAT_D32_FLOAT: return DXGI_FORMAT_R32_FLOAT;
        case DXGI_FORMAT_D24_UNORM_S8_UINT: return DXGI_FORMAT_R24_UNORM_X8_TYPELESS;
        case DXGI_FORMAT_D16_UNORM: return DXGI_FORMAT_R16_UNORM;
        case DXGI_FORMAT_D32_FLOAT_S8X24_UINT: return DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS;
        default: return format;
    }
}

DXGI_FORMAT DepthTypelessFormat(DXGI_FORMAT format) {
    switch (format) {
        case DXGI_FORMAT_D32_FLOAT: return DXGI_FORMAT_R32_TYPELESS;
        case DXGI_FORMAT_D24_UNORM_S8_UINT: return DXGI_FORMAT_R24G8_TYPELESS;
        case DXGI_FORMAT_D16_UNORM: return DXGI_FORMAT_R16_TYPELESS;
        case DXGI_FORMAT_D32_FLOAT_S8X24_UINT: return DXGI_FORMAT_R32G8X24_TYPELESS;
        default: return format;
    }
}

}  // namespace dx12kit
