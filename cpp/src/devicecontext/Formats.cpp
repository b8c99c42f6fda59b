#include "dx12kit/devicecontext/Formats.hpp"
#include "dx12kit/devicecontext/FormatForData.hpp"
#include "dx12kit/devicecontext/TexelArray.hpp"

#include "dx12kit/base/CloseNames.hpp"
#include "dx12kit/base/Errors.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

namespace dx12kit {

namespace {

constexpr FormatLayout T = FormatLayout::Texel, B = FormatLayout::Block, O = FormatLayout::Other;

// DXGI formats the vkd3d 1.2 headers do not name (dxgiformat.h of later Windows SDKs).
constexpr DXGI_FORMAT kP208 = static_cast<DXGI_FORMAT>(130), kV208 = static_cast<DXGI_FORMAT>(131), kV408 = static_cast<DXGI_FORMAT>(132),
                      kFeedbackMinMip = static_cast<DXGI_FORMAT>(189), kFeedbackRegionUsed = static_cast<DXGI_FORMAT>(190),
                      kA4B4G4R4 = static_cast<DXGI_FORMAT>(191);

#define DX12KIT_F(dxgi, shortName, bytes, channels, kind, depth, layout, block) \
  { DXGI_FORMAT_##dxgi, shortName, bytes, channels, kind, depth, #dxgi, layout, block }

// Every format of DXGI_FORMAT but UNKNOWN. The first ones are those dx12kit had from the start, in
// their old order (the Python enum's order); the rest follow in DXGI's numeric order. Short names
// fold equal channel widths (R8G8B8A8 -> rgba8); the others are DXGI's name in lower case.
// clang-format off
const FormatInfo kFormats[] = {
    DX12KIT_F(R8G8B8A8_UNORM,        "rgba8_unorm",          4, 4, 'u', false, T, 0),
    DX12KIT_F(R8G8B8A8_UNORM_SRGB,   "rgba8_unorm_srgb",     4, 4, 'u', false, T, 0),
    DX12KIT_F(R8G8B8A8_UINT,         "rgba8_uint",           4, 4, 'u', false, T, 0),
    DX12KIT_F(R8G8B8A8_SNORM,        "rgba8_snorm",          4, 4, 'i', false, T, 0),
    DX12KIT_F(B8G8R8A8_UNORM,        "bgra8_unorm",          4, 4, 'u', false, T, 0),
    DX12KIT_F(B8G8R8A8_UNORM_SRGB,   "bgra8_unorm_srgb",     4, 4, 'u', false, T, 0),
    DX12KIT_F(R8_UNORM,              "r8_unorm",             1, 1, 'u', false, T, 0),
    DX12KIT_F(R8_UINT,               "r8_uint",              1, 1, 'u', false, T, 0),
    DX12KIT_F(R8G8_UNORM,            "rg8_unorm",            2, 2, 'u', false, T, 0),
    DX12KIT_F(R16_FLOAT,             "r16_float",            2, 1, 'h', false, T, 0),
    DX12KIT_F(R16_UNORM,             "r16_unorm",            2, 1, 'u', false, T, 0),
    DX12KIT_F(R16_UINT,              "r16_uint",             2, 1, 'u', false, T, 0),
    DX12KIT_F(R16G16_FLOAT,          "rg16_float",           4, 2, 'h', false, T, 0),
    DX12KIT_F(R16G16_UNORM,          "rg16_unorm",           4, 2, 'u', false, T, 0),
    DX12KIT_F(R16G16B16A16_FLOAT,    "rgba16_float",         8, 4, 'h', false, T, 0),
    DX12KIT_F(R16G16B16A16_UNORM,    "rgba16_unorm",         8, 4, 'u', false, T, 0),
    DX12KIT_F(R32_FLOAT,             "r32_float",            4, 1, 'f', false, T, 0),
    DX12KIT_F(R32_UINT,              "r32_uint",             4, 1, 'u', false, T, 0),
    DX12KIT_F(R32_SINT,              "r32_sint",             4, 1, 'i', false, T, 0),
    DX12KIT_F(R32G32_FLOAT,          "rg32_float",           8, 2, 'f', false, T, 0),
    DX12KIT_F(R32G32_UINT,           "rg32_uint",            8, 2, 'u', false, T, 0),
    DX12KIT_F(R32G32B32A32_FLOAT,    "rgba32_float",        16, 4, 'f', false, T, 0),
    DX12KIT_F(R32G32B32A32_UINT,     "rgba32_uint",         16, 4, 'u', false, T, 0),
    DX12KIT_F(R10G10B10A2_UNORM,     "rgb10a2_unorm",        4, 1, 'u', false, T, 0),
    DX12KIT_F(R11G11B10_FLOAT,       "rg11b10_float",        4, 1, 'u', false, T, 0),
    DX12KIT_F(D32_FLOAT,             "d32_float",            4, 1, 'f', true,  T, 0),
    DX12KIT_F(D24_UNORM_S8_UINT,     "d24_unorm_s8_uint",    4, 1, 'u', true,  T, 0),
    DX12KIT_F(D16_UNORM,             "d16_unorm",            2, 1, 'u', true,  T, 0),
    // Two planes; texel size and reads are those of the depth plane (plane 0, R32 float).
    DX12KIT_F(D32_FLOAT_S8X24_UINT,  "d32_float_s8x24_uint", 4, 1, 'f', true,  T, 0),

    DX12KIT_F(R32G32B32A32_TYPELESS, "rgba32_typeless",     16, 4, 'u', false, T, 0),
    DX12KIT_F(R32G32B32A32_SINT,     "rgba32_sint",         16, 4, 'i', false, T, 0),
    DX12KIT_F(R32G32B32_TYPELESS,    "rgb32_typeless",      12, 3, 'u', false, T, 0),
    DX12KIT_F(R32G32B32_FLOAT,       "rgb32_float",         12, 3, 'f', false, T, 0),
    DX12KIT_F(R32G32B32_UINT,        "rgb32_uint",          12, 3, 'u', false, T, 0),
    DX12KIT_F(R32G32B32_SINT,        "rgb32_sint",          12, 3, 'i', false, T, 0),
    DX12KIT_F(R16G16B16A16_TYPELESS, "rgba16_typeless",      8, 4, 'u', false, T, 0),
    DX12KIT_F(R16G16B16A16_UINT,     "rgba16_uint",          8, 4, 'u', false, T, 0),
    DX12KIT_F(R16G16B16A16_SNORM,    "rgba16_snorm",         8, 4, 'i', false, T, 0),
    DX12KIT_F(R16G16B16A16_SINT,     "rgba16_sint",          8, 4, 'i', false, T, 0),
    DX12KIT_F(R32G32_TYPELESS,       "rg32_typeless",        8, 2, 'u', false, T, 0),
    DX12KIT_F(R32G32_SINT,           "rg32_sint",            8, 2, 'i', false, T, 0),
    DX12KIT_F(R32G8X24_TYPELESS,     "r32g8x24_typeless",    8, 2, 'u', false, T, 0),
    DX12KIT_F(R32_FLOAT_X8X24_TYPELESS, "r32_float_x8x24_typeless", 8, 2, 'u', false, T, 0),
    DX12KIT_F(X32_TYPELESS_G8X24_UINT,  "x32_typeless_g8x24_uint",  8, 2, 'u', false, T, 0),
    DX12KIT_F(R10G10B10A2_TYPELESS,  "rgb10a2_typeless",     4, 1, 'u', false, T, 0),
    DX12KIT_F(R10G10B10A2_UINT,      "rgb10a2_uint",         4, 1, 'u', false, T, 0),
    DX12KIT_F(R8G8B8A8_TYPELESS,     "rgba8_typeless",       4, 4, 'u', false, T, 0),
    DX12KIT_F(R8G8B8A8_SINT,         "rgba8_sint",           4, 4, 'i', false, T, 0),
    DX12KIT_F(R16G16_TYPELESS,       "rg16_typeless",        4, 2, 'u', false, T, 0),
    DX12KIT_F(R16G16_UINT,           "rg16_uint",            4, 2, 'u', false, T, 0),
    DX12KIT_F(R16G16_SNORM,          "rg16_snorm",           4, 2, 'i', false, T, 0),
    DX12KIT_F(R16G16_SINT,           "rg16_sint",            4, 2, 'i', false, T, 0),
    DX12KIT_F(R32_TYPELESS,          "r32_typeless",         4, 1, 'u', false, T, 0),
    DX12KIT_F(R24G8_TYPELESS,        "r24g8_typeless",       4, 1, 'u', false, T, 0),
    DX12KIT_F(R24_UNORM_X8_TYPELESS, "r24_unorm_x8_typeless", 4, 1, 'u', false, T, 0),
    DX12KIT_F(X24_TYPELESS_G8_UINT,  "x24_typeless_g8_uint", 4, 1, 'u', false, T, 0),
    DX12KIT_F(R8G8_TYPELESS,         "rg8_typeless",         2, 2, 'u', false, T, 0),
    DX12KIT_F(R8G8_UINT,             "rg8_uint",             2, 2, 'u', false, T, 0),
    DX12KIT_F(R8G8_SNORM,            "rg8_snorm",            2, 2, 'i', false, T, 0),
    DX12KIT_F(R8G8_SINT,             "rg8_sint",             2, 2, 'i', false, T, 0),
    DX12KIT_F(R16_TYPELESS,          "r16_typeless",         2, 1, 'u', false, T, 0),
    DX12KIT_F(R16_SNORM,             "r16_snorm",            2, 1, 'i', false, T, 0),
    DX12KIT_F(R16_SINT,              "r16_sint",             2, 1, 'i', false, T, 0),
    DX12KIT_F(R8_TYPELESS,           "r8_typeless",          1, 1, 'u', false, T, 0),
    DX12KIT_F(R8_SNORM,              "r8_snorm",             1, 1, 'i', false, T, 0),
    DX12KIT_F(R8_SINT,               "r8_sint",              1, 1, 'i', false, T, 0),
    DX12KIT_F(A8_UNORM,              "a8_unorm",             1, 1, 'u', false, T, 0),
    DX12KIT_F(R1_UNORM,              "r1_unorm",             0, 1, 'u', false, O, 0),
    DX12KIT_F(R9G9B9E5_SHAREDEXP,    "r9g9b9e5_sharedexp",   4, 1, 'u', false, T, 0),
    DX12KIT_F(R8G8_B8G8_UNORM,       "r8g8_b8g8_unorm",      0, 1, 'u', false, O, 0),
    DX12KIT_F(G8R8_G8B8_UNORM,       "g8r8_g8b8_unorm",      0, 1, 'u', false, O, 0),
    DX12KIT_F(BC1_TYPELESS,          "bc1_typeless",         0, 1, 'u', false, B, 8),
    DX12KIT_F(BC1_UNORM,             "bc1_unorm",            0, 1, 'u', false, B, 8),
    DX12KIT_F(BC1_UNORM_SRGB,        "bc1_unorm_srgb",       0, 1, 'u', false, B, 8),
    DX12KIT_F(BC2_TYPELESS,          "bc2_typeless",         0, 1, 'u', false, B, 16),
    DX12KIT_F(BC2_UNORM,             "bc2_unorm",            0, 1, 'u', false, B, 16),
    DX12KIT_F(BC2_UNORM_SRGB,        "bc2_unorm_srgb",       0, 1, 'u', false, B, 16),
    DX12KIT_F(BC3_TYPELESS,          "bc3_typeless",         0, 1, 'u', false, B, 16),
    DX12KIT_F(BC3_UNORM,             "bc3_unorm",            0, 1, 'u', false, B, 16),
    DX12KIT_F(BC3_UNORM_SRGB,        "bc3_unorm_srgb",       0, 1, 'u', false, B, 16),
    DX12KIT_F(BC4_TYPELESS,          "bc4_typeless",         0, 1, 'u', false, B, 8),
    DX12KIT_F(BC4_UNORM,             "bc4_unorm",            0, 1, 'u', false, B, 8),
    DX12KIT_F(BC4_SNORM,             "bc4_snorm",            0, 1, 'u', false, B, 8),
    DX12KIT_F(BC5_TYPELESS,          "bc5_typeless",         0, 1, 'u', false, B, 16),
    DX12KIT_F(BC5_UNORM,             "bc5_unorm",            0, 1, 'u', false, B, 16),
    DX12KIT_F(BC5_SNORM,             "bc5_snorm",            0, 1, 'u', false, B, 16),
    DX12KIT_F(B5G6R5_UNORM,          "b5g6r5_unorm",         2, 1, 'u', false, T, 0),
    DX12KIT_F(B5G5R5A1_UNORM,        "b5g5r5a1_unorm",       2, 1, 'u', false, T, 0),
    DX12KIT_F(B8G8R8X8_UNORM,        "bgrx8_unorm",          4, 4, 'u', false, T, 0),
    DX12KIT_F(R10G10B10_XR_BIAS_A2_UNORM, "r10g10b10_xr_bias_a2_unorm", 4, 1, 'u', false, T, 0),
    DX12KIT_F(B8G8R8A8_TYPELESS,     "bgra8_typeless",       4, 4, 'u', false, T, 0),
    DX12KIT_F(B8G8R8X8_TYPELESS,     "bgrx8_typeless",       4, 4, 'u', false, T, 0),
    DX12KIT_F(B8G8R8X8_UNORM_SRGB,   "bgrx8_unorm_srgb",     4, 4, 'u', false, T, 0),
    DX12KIT_F(BC6H_TYPELESS,         "bc6h_typeless",        0, 1, 'u', false, B, 16),
    DX12KIT_F(BC6H_UF16,             "bc6h_uf16",            0, 1, 'u', false, B, 16),
    DX12KIT_F(BC6H_SF16,             "bc6h_sf16",            0, 1, 'u', false, B, 16),
    DX12KIT_F(BC7_TYPELESS,          "bc7_typeless",         0, 1, 'u', false, B, 16),
    DX12KIT_F(BC7_UNORM,             "bc7_unorm",            0, 1, 'u', false, B, 16),
    DX12KIT_F(BC7_UNORM_SRGB,        "bc7_unorm_srgb",       0, 1, 'u', false, B, 16),
    DX12KIT_F(AYUV,                  "ayuv",                 0, 1, 'u', false, O, 0),
    DX12KIT_F(Y410,                  "y410",                 0, 1, 'u', false, O, 0),
    DX12KIT_F(Y416,                  "y416",                 0, 1, 'u', false, O, 0),
    DX12KIT_F(NV12,                  "nv12",                 0, 1, 'u', false, O, 0),
    DX12KIT_F(P010,                  "p010",                 0, 1, 'u', false, O, 0),
    DX12KIT_F(P016,                  "p016",                 0, 1, 'u', false, O, 0),
    DX12KIT_F(420_OPAQUE,            "opaque_420",           0, 1, 'u', false, O, 0),  // (a name cannot start with a digit in Python)
    DX12KIT_F(YUY2,                  "yuy2",                 0, 1, 'u', false, O, 0),
    DX12KIT_F(Y210,                  "y210",                 0, 1, 'u', false, O, 0),
    DX12KIT_F(Y216,                  "y216",                 0, 1, 'u', false, O, 0),
    DX12KIT_F(NV11,                  "nv11",                 0, 1, 'u', false, O, 0),
    DX12KIT_F(AI44,                  "ai44",                 0, 1, 'u', false, O, 0),
    DX12KIT_F(IA44,                  "ia44",                 0, 1, 'u', false, O, 0),
    DX12KIT_F(P8,                    "p8",                   0, 1, 'u', false, O, 0),
    DX12KIT_F(A8P8,                  "a8p8",                 0, 1, 'u', false, O, 0),
    DX12KIT_F(B4G4R4A4_UNORM,        "b4g4r4a4_unorm",       2, 1, 'u', false, T, 0),
    {kP208, "p208", 0, 1, 'u', false, "P208", O, 0},
    {kV208, "v208", 0, 1, 'u', false, "V208", O, 0},
    {kV408, "v408", 0, 1, 'u', false, "V408", O, 0},
    {kFeedbackMinMip, "sampler_feedback_min_mip_opaque", 0, 1, 'u', false, "SAMPLER_FEEDBACK_MIN_MIP_OPAQUE", O, 0},
    {kFeedbackRegionUsed, "sampler_feedback_mip_region_used_opaque", 0, 1, 'u', false, "SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE", O, 0},
    {kA4B4G4R4, "a4b4g4r4_unorm", 2, 1, 'u', false, "A4B4G4R4_UNORM", T, 0},
};
// clang-format on
#undef DX12KIT_F

std::string LowerAscii(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// `name` in lower case without a leading "dxgi_format_".
std::string Normalized(const std::string& name) {
    std::string s = LowerAscii(name);
    const std::string prefix = "dxgi_format_";
    if (s.compare(0, prefix.size(), prefix) == 0) s.erase(0, prefix.size());
    return s;
}

bool EqualsLower(const char* table, const std::string& lower) {
    size_t i = 0;
    for (; table[i] && i < lower.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(table[i])) != lower[i]) return false;
    return table[i] == '\0' && i == lower.size();
}

}  // namespace

const FormatInfo* FindFormat(DXGI_FORMAT format) {
    // Indexed by value (O(1): uploads, reads and views look formats up per call).
    static const std::vector<const FormatInfo*> byValue = [] {
        std::vector<const FormatInfo*> v;
        for (const FormatInfo& f : kFormats) {
            const size_t i = static_cast<size_t>(f.format);
            if (i >= v.size()) v.resize(i + 1, nullptr);
            v[i] = &f;
        }
        return v;
    }();
    const size_t i = static_cast<size_t>(static_cast<uint32_t>(format));
    return i < byValue.size() ? byValue[i] : nullptr;
}

const FormatInfo* FindFormat(const char* name) {
    const std::string s = Normalized(name);
    for (const FormatInfo& f : kFormats)
        if (s == f.name || EqualsLower(f.dxgiName, s)) return &f;
    return nullptr;
}

std::vector<std::string> CloseFormatNames(const std::string& name, size_t n) {
    const std::string word = Normalized(name);
    std::vector<std::pair<double, std::string>> scored;
    for (const FormatInfo& f : kFormats) {
        const double r = std::max(NameSimilarity(f.name, word), NameSimilarity(LowerAscii(f.dxgiName), word));
        if (r >= 0.6) scored.emplace_back(r, f.name);
    }
    // heapq.nlargest over (score, name): the highest score first, ties by the larger name (as CloseNames).
    std::sort(scored.begin(), scored.end(), [](const auto& x, const auto& y) { return x > y; });
    std::vector<std::string> out;
    for (size_t i = 0; i < scored.size() && i < n; ++i) out.push_back(scored[i].second);
    return out;
}

const FormatInfo& ParseFormatName(const std::string& name, const char* what) {
    if (const FormatInfo* f = FindFormat(name.c_str())) return *f;
    throw InvalidArgument(std::string(what) + ": unknown format '" + name + "'" + DidYouMean(CloseFormatNames(name, 3)) +
                          " (dx12kit.Format lists them: DXGI's names such as 'R8G8B8A8_UNORM' or 'DXGI_FORMAT_BC7_UNORM', or dx12kit's "
                          "short names such as 'rgba8_unorm', in any case)");
}

const FormatInfo& RequireFormat(DXGI_FORMAT format, const char* what) {
    if (const FormatInfo* f = FindFormat(format)) return *f;
    throw InvalidArgument(std::string(what) + ": unsupported format " + std::to_string(static_cast<int>(format)) +
                          " (no DXGI format has that value)");
}

const FormatInfo& RequireTextureFormat(DXGI_FORMAT format, const char* what) {
    const FormatInfo& f = RequireFormat(format, what);
    if (f.layout == FormatLayout::Other)
        throw InvalidArgument(std::string(what) + ": " + f.name + " (DXGI_FORMAT_" + f.dxgiName +
                              ") is a video, planar, palette, packed or opaque format; dx12kit makes no textures of it "
                              "(format_support(\"" +
                              f.name + "\") says what the device itself reports)");
    return f;
}

const FormatInfo* AllFormats(size_t& count) {
    count = sizeof kFormats / sizeof kFormats[0];
    return kFormats;
}

uint64_t RowBytes(const FormatInfo& f, uint32_t width) {
    return f.IsBlock() ? uint64_t((width + 3) / 4) * f.blockBytes : uint64_t(width) * f.bytesPerTexel;
}

uint32_t RowCount(const FormatInfo& f, uint32_t height) {
    return f.IsBlock() ? (height + 3) / 4 : height;
}

uint64_t SubresourceBytes(const FormatInfo& f, uint32_t width, uint32_t height, uint32_t depth) {
    return RowBytes(f, width) * RowCount(f, height) * depth;
}

uint32_t PackedTexelBytes(const FormatInfo& f) {
    return f.format == DXGI_FORMAT_D32_FLOAT_S8X24_UINT ? 8 : f.bytesPerTexel;
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

DXGI_FORMAT FormatForTexelData(char kind, uint32_t itemBytes, uint32_t channels, bool srgb) {
    struct Family {
        char kind;
        uint32_t itemBytes;
        DXGI_FORMAT formats[3];  // 1, 2 and 4 channels
    };
    static const Family kFamilies[] = {
        {'u', 1, {DXGI_FORMAT_R8_UNORM, DXGI_FORMAT_R8G8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM}},
        {'u', 2, {DXGI_FORMAT_R16_UNORM, DXGI_FORMAT_R16G16_UNORM, DXGI_FORMAT_R16G16B16A16_UNORM}},
        {'f', 2, {DXGI_FORMAT_R16_FLOAT, DXGI_FORMAT_R16G16_FLOAT, DXGI_FORMAT_R16G16B16A16_FLOAT}},
        {'f', 4, {DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_R32G32_FLOAT, DXGI_FORMAT_R32G32B32A32_FLOAT}},
        {'u', 4, {DXGI_FORMAT_R32_UINT, DXGI_FORMAT_R32G32_UINT, DXGI_FORMAT_R32G32B32A32_UINT}},
        {'i', 4, {DXGI_FORMAT_R32_SINT, DXGI_FORMAT_R32G32_SINT, DXGI_FORMAT_R32G32B32A32_SINT}},
    };
    if (channels != 1 && channels != 2 && channels != 4) return DXGI_FORMAT_UNKNOWN;
    for (const Family& f : kFamilies) {
        if (f.kind != kind || f.itemBytes != itemBytes) continue;
        const DXGI_FORMAT format = f.formats[channels == 4 ? 2 : channels - 1];
        if (!srgb) return format;
        return format == DXGI_FORMAT_R8G8B8A8_UNORM ? DXGI_FORMAT_R8G8B8A8_UNORM_SRGB : DXGI_FORMAT_UNKNOWN;
    }
    return DXGI_FORMAT_UNKNOWN;
}

TexelArrayLayout SubresourceArrayLayout(const FormatInfo& f, uint32_t width, uint32_t height, uint32_t depth, bool is3D) {
    TexelArrayLayout l;
    const bool block = f.IsBlock();
    const uint32_t rows = RowCount(f, height), columns = block ? (width + 3) / 4 : width, channels = block ? f.blockBytes : f.channels;
    l.ndim = is3D ? 4 : 3;
    uint32_t* s = l.shape;
    if (is3D) *s++ = depth;
    s[0] = rows;
    s[1] = columns;
    s[2] = channels;
    if (!block) {
        const uint32_t component = f.channels ? f.bytesPerTexel / f.channels : f.bytesPerTexel;
        const uint32_t integerBytes = component == 1 ? 1 : component == 2 ? 2 : 4;
        switch (f.componentKind) {
            case 'f': l.elementKind = 'f', l.elementBytes = 4; break;
            case 'h': l.elementKind = 'f', l.elementBytes = 2; break;
            case 'i': l.elementKind = 'i', l.elementBytes = integerBytes; break;
            default: l.elementKind = 'u', l.elementBytes = integerBytes; break;
        }
    }
    l.rowPitch = RowBytes(f, width);
    l.bytes = SubresourceBytes(f, width, height, depth);
    return l;
}

bool ArrayShapeFits(const TexelArrayLayout& layout, const FormatInfo& f, const int64_t* shape, size_t ndim) {
    const auto same = [&](size_t dims) {
        for (size_t i = 0; i < dims; ++i)
            if (shape[i] != static_cast<int64_t>(layout.shape[i])) return false;
        return true;
    };
    if (ndim == layout.ndim) return same(ndim);
    return !f.IsBlock() && f.channels == 1 && ndim + 1 == layout.ndim && same(ndim);  // one channel: the channel axis may be left out
}

}  // namespace dx12kit
