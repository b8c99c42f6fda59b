// Cube and 3D textures (dx12kit/features/TextureKinds.hpp): their shape rules, over
// Device::CreateTextureFromDesc.
//
// Both kinds go through the memory layer like 2D textures (placed in the default pools, a pool,
// committed, or at an offset of user memory), are created with their format family's TYPELESS
// format (views may use any member, FormatSupport.hpp) and read as zeros before their first write
// (Device::ZeroNewResources, which clears or copies every depth slice of a 3D texture).
//
//   cube  D3D12 has no cube resource: a TEXTURE2D array of 6 faces (+X, -X, +Y, -Y, +Z, -Z),
//         square; Resource::IsCube makes its shader resource views TEXTURECUBE.
//   3D    D3D12_RESOURCE_DIMENSION_TEXTURE3D: DepthOrArraySize is the depth, one subresource per
//         mip (each mip halves width, height and depth); at most 2048 texels a side
//         (D3D12_REQ_TEXTURE3D_U_V_OR_W_DIMENSION); no depth-stencil use.
#include "dx12kit/features/TextureKinds.hpp"

#include "dx12kit/gpu/Device.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/FormatSupport.hpp"
#include "dx12kit/devicecontext/Formats.hpp"
#include "d3dx12/D3dx12Lite.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <algorithm>
#include <string>

namespace dx12kit {

namespace {

uint32_t FullChain(uint32_t largest) {
    uint32_t mips = 1;
    while ((largest >> mips) > 0) ++mips;
    return mips;
}

uint32_t CheckMips(uint32_t mipLevels, uint32_t largest, const std::string& size, const char* what) {
    const uint32_t maxMips = FullChain(largest);
    if (mipLevels == 0) return maxMips;
    if (mipLevels > maxMips)
        throw InvalidArgument(std::string(what) + ": " + std::to_string(mipLevels) + " mips requested, a " + size + " texture has at most " +
                              std::to_string(maxMips));
    return mipLevels;
}

}  // namespace

std::shared_ptr<Texture> CreateTextureCube(Device& device, uint32_t size, DXGI_FORMAT format, uint32_t mipLevels, bool renderTarget, bool uav,
                                           const std::string& name, const ResourcePlacement& placement) {
    const char* what = "create_texture_cube";
    RequireTextureFormat(format, what);
    if (size == 0) throw InvalidArgument("create_texture_cube: size must be positive");
    if (size > D3D12_REQ_TEXTURECUBE_DIMENSION)
        throw InvalidArgument("create_texture_cube: size " + std::to_string(size) + " exceeds " + std::to_string(D3D12_REQ_TEXTURECUBE_DIMENSION));
    mipLevels = CheckMips(mipLevels, size, std::to_string(size) + "x" + std::to_string(size) + " cube", what);
    device.Context()->FormatSupport().CheckTextureCube(format, renderTarget, uav, what);
    device.Context()->FormatSupport().CheckBlockSize(format, size, size, what);
    D3D12_RESOURCE_FLAGS flags = D3D12_RESOURCE_FLAG_NONE;
    if (renderTarget) flags |= D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    if (uav) flags |= D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    const DXGI_FORMAT family = TypelessFamily(format);
    const D3D12_RESOURCE_DESC desc =
        d3dx::Tex2DDesc(family != DXGI_FORMAT_UNKNOWN ? family : format, size, size, 6, static_cast<uint16_t>(mipLevels), flags);
    return device.CreateTextureFromDesc(desc, format, true, name, placement, what);
}

std::shared_ptr<Texture> CreateTexture3D(Device& device, uint32_t width, uint32_t height, uint32_t depth, DXGI_FORMAT format, uint32_t mipLevels,
                                         bool renderTarget, bool uav, const std::string& name, const ResourcePlacement& placement) {
    const char* what = "create_texture3d";
    RequireTextureFormat(format, what);
    if (width == 0 || height == 0 || depth == 0) throw InvalidArgument("create_texture3d: width, height and depth must be positive");
    const std::string size = std::to_string(width) + "x" + std::to_string(height) + "x" + std::to_string(depth);
    constexpr uint32_t kMax = D3D12_REQ_TEXTURE3D_U_V_OR_W_DIMENSION;
    if (width > kMax || height > kMax || depth > kMax)
        throw InvalidArgument("create_texture3d: " + size + " exceeds " + std::to_string(kMax) + " texels a side");
    mipLevels = CheckMips(mipLevels, std::max({width, height, depth}), size, what);
    device.Context()->FormatSupport().CheckTexture3D(format, renderTarget, uav, what);
    device.Context()->FormatSupport().CheckBlockSize(format, width, height, what);  // the depth may be any size
    D3D12_RESOURCE_FLAGS flags = D3D12_RESOURCE_FLAG_NONE;
    if (renderTarget) flags |= D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    if (uav) flags |= D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    const DXGI_FORMAT family = TypelessFamily(format);
    D3D12_RESOURCE_DESC desc = d3dx::Tex2DDesc(family != DXGI_FORMAT_UNKNOWN ? family : format, width, height, static_cast<uint16_t>(depth),
                                               static_cast<uint16_t>(mipLevels), flags);
    desc.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE3D;
    return device.CreateTextureFromDesc(desc, format, false, name, placement, what);
}

}  // namespace dx12kit
