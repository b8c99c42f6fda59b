// Every DXGI format D3D12 defines, by its DXGI name ("R8G8B8A8_UNORM", "DXGI_FORMAT_BC7_UNORM") and
// dx12kit's short name ("rgba8_unorm", "bc7_unorm"), case-insensitive. A format is known whether or
// not the device can use it (FormatSupport.hpp decides that), so errors can say what the device
// cannot do with it rather than "unknown format".
//
//   layout   Texel: one element per texel of bytesPerTexel bytes (uploads and readbacks are
//            (height, width, channels) arrays). Block: 4x4 block-compressed (BC1-BC7): a mip of
//            w x h texels is ceil(w/4) x ceil(h/4) blocks of blockBytes (8 for BC1/BC4, 16 for the
//            rest); uploads and readbacks are the raw block bytes. Other: video, planar, palette,
//            1-bit and 2x1-packed formats, and the sampler-feedback formats: known by name only;
//            dx12kit creates no textures of them.
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace dx12kit {

enum class FormatLayout : uint8_t { Texel, Block, Other };

struct FormatInfo {
    DXGI_FORMAT format;
    const char* name;        ///< dx12kit's short name ("rgba8_unorm")
    uint32_t bytesPerTexel;  ///< Texel layout: bytes of one texel; 0 for Block and Other
    uint32_t channels;       ///< Texel layout: channels of a read_texture array; Block: 1 (bytes)
    char componentKind;      ///< 'u' unsigned int / unorm bytes, 'f' float, 'h' half, 'i' signed
    bool depth;
    const char* dxgiName;  ///< DXGI's name without DXGI_FORMAT_ ("R8G8B8A8_UNORM")
    FormatLayout layout;
    uint32_t blockBytes;  ///< Block layout: bytes of one 4x4 block; else 0

    bool IsBlock() const { return layout == FormatLayout::Block; }
};

/// The table entry of `format`, or nullptr when DXGI defines no such format.
const FormatInfo* FindFormat(DXGI_FORMAT format);
/// The entry named `name`: dx12kit's short name or DXGI's name, with or without "DXGI_FORMAT_", in
/// any case. nullptr when none.
const FormatInfo* FindFormat(const char* name);
/// The entry named `name`; throws InvalidArgument naming `what` and `name`, with the closest names
/// ("did you mean 'rgba8_unorm'?") when there is none.
const FormatInfo& ParseFormatName(const std::string& name, const char* what);
/// Up to `n` known names closest to `name` (short names, in difflib.get_close_matches' order: a
/// Ratcliff/Obershelp similarity of at least 0.6 to the short or DXGI name, best first); spelt as a
/// suggestion by DidYouMean (dx12kit/base/CloseNames.hpp).
std::vector<std::string> CloseFormatNames(const std::string& name, size_t n = 3);
/// The entry of `format`; throws InvalidArgument naming the format when DXGI has no such format.
const FormatInfo& RequireFormat(DXGI_FORMAT format, const char* what);
/// The entry of `format` when dx12kit can make textures of it (Texel or Block layout); throws
/// InvalidArgument naming `what` and the format (a video/planar/palette format) otherwise.
const FormatInfo& RequireTextureFormat(DXGI_FORMAT format, const char* what);
/// All known formats (for the Python enum and error messages).
const FormatInfo* AllFormats(size_t& count);

/// Bytes of one row of `width` texels (Texel), or of one row of 4x4 blocks covering them (Block).
uint64_t RowBytes(const FormatInfo& f, uint32_t width);
/// Rows of a `height`-texel image: `height` for Texel formats, ceil(height/4) block rows for Block.
uint32_t RowCount(const FormatInfo& f, uint32_t height);
/// Tightly packed bytes of a width x height x depth subresource (the size upload takes).
uint64_t SubresourceBytes(const FormatInfo& f, uint32_t width, uint32_t height, uint32_t depth = 1);
/// Texel layout: the bytes of one texel with every plane in one allocation, as DXGI packs the format
/// (DDS files, D3D11): bytesPerTexel, except D32_FLOAT_S8X24_UINT's 8 (R32 depth, 8 stencil bits, 24 unused),
/// whose bytesPerTexel is its depth plane's 4 (D3D12 copies each plane apart).
uint32_t PackedTexelBytes(const FormatInfo& f);

/// For a depth format, the format to view it as a shader resource (R32_FLOAT for D32_FLOAT).
DXGI_FORMAT DepthSrvFormat(DXGI_FORMAT format);
/// For a depth format, the typeless format the texture is created with (so SRVs are possible).
DXGI_FORMAT DepthTypelessFormat(DXGI_FORMAT format);

}  // namespace dx12kit
