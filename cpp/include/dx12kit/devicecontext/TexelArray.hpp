// The host array of one texture subresource, device-independent: what CommandQueue.write_texture and
// Device.create_texture2d(data=) take and read_texture returns (its shape and element type), and its tightly
// packed row pitch and size. The bindings turn it into numpy shapes and dtypes; C++ callers lay their data out by it.
#pragma once

#include "dx12kit/devicecontext/Formats.hpp"

#include <cstddef>
#include <cstdint>

namespace dx12kit {

struct TexelArrayLayout {
    uint32_t ndim = 3;          ///< 3, or 4 for a 3D texture (depth first)
    uint32_t shape[4] = {};     ///< (depth,) rows, texels per row, channels; block formats: block rows, blocks per row, bytes per block
    char elementKind = 'u';     ///< 'u' unsigned (unorm too), 'i' signed, 'f' float (numpy's dtype.kind); block formats: 'u'
    uint32_t elementBytes = 1;  ///< bytes of one channel (1 for block formats: raw bytes)
    uint64_t rowPitch = 0;      ///< bytes of one row of texels (of 4x4 blocks), tightly packed: RowBytes
    uint64_t bytes = 0;         ///< bytes of the subresource: SubresourceBytes
};

/// The layout of a `width` x `height` (x `depth`) subresource of a texture of format `f` (RequireTextureFormat's:
/// Texel or Block layout); `is3D`: a 3D texture (depth first in the shape).
TexelArrayLayout SubresourceArrayLayout(const FormatInfo& f, uint32_t width, uint32_t height, uint32_t depth, bool is3D);

/// True when an array of `shape` (`ndim` dimensions) has the layout's shape, or, for a one-channel Texel format,
/// that shape without its channel axis ((H, W) for (H, W, 1)).
bool ArrayShapeFits(const TexelArrayLayout& layout, const FormatInfo& f, const int64_t* shape, size_t ndim);

}  // namespace dx12kit
