// Cube and 3D textures (Python Device.create_texture_cube / create_texture3d): the shape rules of
// each kind, over Device::CreateTextureFromDesc (cpp/src/features/TextureKinds.cpp).
#pragma once

#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <memory>
#include <string>

namespace dx12kit {

class Texture;

/// A cube texture: a 2D array of 6 square faces (+X, -X, +Y, -Y, +Z, -Z) of `size` texels whose
/// shader resource views are TEXTURECUBE. mipLevels 0: the full chain.
std::shared_ptr<Texture> CreateTextureCube(Device& device, uint32_t size, DXGI_FORMAT format, uint32_t mipLevels, bool renderTarget, bool uav,
                                           const std::string& name, const ResourcePlacement& placement = ResourcePlacement());
/// A 3D texture of width x height x depth texels. mipLevels 0: the full chain.
std::shared_ptr<Texture> CreateTexture3D(Device& device, uint32_t width, uint32_t height, uint32_t depth, DXGI_FORMAT format, uint32_t mipLevels,
                                         bool renderTarget, bool uav, const std::string& name,
                                         const ResourcePlacement& placement = ResourcePlacement());

}  // namespace dx12kit
