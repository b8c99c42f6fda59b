// Mip generation on the GPU (CommandList::GenerateMips, Python CommandList.generate_mips).
//
// A compute pass (cpp/src/builtin/GenerateMips.hlsl) writes up to four mips per dispatch from the
// mip above them, for every array slice. It needs a typed UAV of the texture's format, so a texture
// reaches it by one of three routes:
//
//   in place   uav=True and the device has typed UAVs of the format: the pass runs on the texture.
//   staged     typed UAVs of the format but no uav=True (e.g. textures made by load_texture): a
//              UAV-capable copy placed in fresh memory; source mip copied in, mips copied back.
//   aliased    rgba8/bgra8 UNORM and sRGB formats (no typed UAV here: D3D12 has none for sRGB,
//              vkd3d none for BGRA): DX12Lib's scheme. Fresh memory holds two placed textures
//              at the same offset, one of the texture's own family (the copy target) and one
//              rgba8_unorm with a UAV (the pass target):
//
//                 memory  [=========================================]
//                 copyAlias (own family)    work (rgba8_unorm + UAV)
//
//                 copy source mip -> copyAlias | aliasing barrier copyAlias -> work | passes on
//                 work | aliasing barrier work -> copyAlias | copy new mips -> texture
//
//              (both aliases are in COMMON at each aliasing barrier)
//
//              For the sRGB family both aliases have the same description (R8G8B8A8_TYPELESS +
//              UAV), the case where D3D12 documents data inheritance across aliases ("Memory
//              aliasing and data inheritance": identical resource descriptions at the same
//              offset). For BGRA the descriptions differ in format only (same size, same 32-bit
//              texels), the case DX12Lib relies on; D3D12 leaves it to the hardware's layout.
//              Channels are averaged independently, so reading BGRA bytes as RGBA is harmless.
//              sRGB data is read through an sRGB view (linear light) and re-encoded by the shader.
//
// Temporaries ride with the command list (kept alive until its fence); every state goes through the
// list's state tracker. The root signature and pipeline are created once per device
// (Device::Mips(), thread-safe).
#pragma once

#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <memory>
#include <string>

namespace dx12kit {

class DeviceCore;
class FormatSupportCache;

enum class MipRoute : uint8_t { InPlace, Staged, Aliased };

/// Why generate_mips cannot make mips of textures of `format` on this device ("" when it can).
/// Format support's mip_autogen is exactly `MipAutogenRefusal(...).empty()`.
std::string MipAutogenRefusal(FormatSupportCache& formats, DXGI_FORMAT format);
/// The route a texture of view format `format` takes (the format must be supported).
MipRoute ChooseMipRoute(FormatSupportCache& formats, DXGI_FORMAT format, bool hasUav);

/// The per-device objects of the pass: root signature (6 root constants b0, SRV table t0, UAV table
/// u0-u3, static linear clamp sampler s0), compute pipeline and a null UAV for unused slots.
class MipPipeline {
public:
    explicit MipPipeline(const std::shared_ptr<DeviceCore>& core);
    const std::shared_ptr<PipelineState>& Pipeline() const { return m_Pipeline; }
    /// A null RWTexture2DArray<float4> UAV (rgba8_unorm) for output slots a dispatch does not write.
    D3D12_CPU_DESCRIPTOR_HANDLE NullUav() const { return m_NullUav.Handle(); }

    static constexpr uint32_t kRootConstants = 0, kRootSrv = 1, kRootUavs = 2;
    static constexpr uint32_t kNumConstants = 7;
    static constexpr uint32_t kMaxMipsPerDispatch = 4;
    static constexpr uint32_t kGroupSize = 8;

private:
    std::shared_ptr<PipelineState> m_Pipeline;
    DescriptorAllocation m_NullUav;
};

}  // namespace dx12kit
