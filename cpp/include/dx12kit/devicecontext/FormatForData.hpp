// The format a texture made from texel data takes, chosen from the data's element type and channel count:
// the one table of Device.create_texture2d(data=) and load_texture (dx12kit.textures.texture_format_for,
// through dx12core._texture_format_for_data).
//
//   element    1 channel    2 channels    4 channels
//   uint8      r8_unorm     rg8_unorm     rgba8_unorm   (srgb: rgba8_unorm_srgb)
//   uint16     r16_unorm    rg16_unorm    rgba16_unorm
//   float16    r16_float    rg16_float    rgba16_float
//   float32    r32_float    rg32_float    rgba32_float
//   uint32     r32_uint     rg32_uint     rgba32_uint
//   int32      r32_sint     rg32_sint     rgba32_sint
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdint>

namespace dx12kit {

/// The format of the table above for elements of `kind` ('u' unsigned integer, 'i' signed integer, 'f' float:
/// numpy's dtype.kind) and `itemBytes` bytes, `channels` per texel (1, 2 or 4); with `srgb` the table's sRGB
/// format (8-bit data with 4 channels only). DXGI_FORMAT_UNKNOWN where the table has none: the caller, which knows
/// what it was given, says why (another element type, 3 channels, srgb for data other than 8-bit RGBA).
DXGI_FORMAT FormatForTexelData(char kind, uint32_t itemBytes, uint32_t channels, bool srgb = false);

}  // namespace dx12kit
