// What dx12kit knows about each DXGI format it supports: texel size, channel count and whether
// it is a depth format. Formats not in the table are rejected with InvalidArgument.
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

namespace dx12kit {

struct FormatInfo {
    DXGI_FORMAT format;
    const char* name;      ///< dx12kit's string name ("rgba8_unorm")
    uint32_t bytesPerTexel;
    uint32_t channels;
    char componentKind;    ///< 'u' unsigned int / unorm bytes, 'f' float, 'h' half, 'i' signed
    bool depth;
};

/// The table entry of `format`, or nullptr when dx12kit does not support it.
const FormatInfo* FindFormat(DXGI_FORMAT format);
/// The entry named `name`, or nullptr.
const FormatInfo* FindFormat(const char* name);
/// The entry of `format`; throws InvalidArgument naming the format when unsupported.
const FormatInfo& RequireFormat(DXGI_FORMAT format, const char* what);
/// All supported formats (for the Python enum and error messages).
const FormatInfo* AllFormats(size_t& count);

/// For a depth format, the format to view it as a shader resource (R32_FLOAT for D32_FLOAT).
DXGI_FORMAT DepthSrvFormat(DXGI_FORMAT format);
/// For a depth format, the typeless format the texture is created with (so SRVs are possible).
DXGI_FORMAT DepthTypelessFormat(DXGI_FORMAT format);

}  // namespace dx12kit
