// Copies `rows` rows of `rowBytes` between buffers whose rows start every `dstPitch` / `srcPitch`
// bytes: texel data to and from D3D12's 256-byte-aligned copy layouts. One memcpy when both sides
// are tightly packed.
#pragma once

#include <cstdint>
#include <cstring>

namespace dx12kit {

inline void CopyRows(void* dst, uint64_t dstPitch, const void* src, uint64_t srcPitch, uint64_t rowBytes, uint32_t rows) {
    auto* d = static_cast<uint8_t*>(dst);
    const auto* s = static_cast<const uint8_t*>(src);
    if (dstPitch == rowBytes && srcPitch == rowBytes) {
        std::memcpy(d, s, rowBytes * rows);
        return;
    }
    for (uint32_t y = 0; y < rows; ++y) std::memcpy(d + y * dstPitch, s + y * srcPitch, rowBytes);
}

}  // namespace dx12kit
