// Mip generation on the GPU (GenerateMips(CommandList&, ...), Python CommandList.generate_mips).
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
// list's state tracker. The per-device state (the pass's root signature and pipeline, made on first
// use, and the route counters) is a MipGenerator the device keeps in its extension slot
// (Device::BuiltinObject), reached through MipGeneratorOf; thread-safe.
#pragma once

#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace dx12kit {

class CommandList;
class Device;
class DeviceContext;
class FormatSupportCache;
class Resource;

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
    explicit MipPipeline(const std::shared_ptr<DeviceContext>& core);
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

/// GenerateMips calls by route and their dispatches (Device.stats()["mips"]).
struct MipStats {
    std::atomic<uint64_t> inPlace{0};
    std::atomic<uint64_t> staged{0};
    std::atomic<uint64_t> aliased{0};
    std::atomic<uint64_t> dispatches{0};
};

/// What generate_mips keeps per device: the pipeline, made on first use, and the counters.
class MipGenerator {
public:
    explicit MipGenerator(std::shared_ptr<DeviceContext> core) : m_Context(std::move(core)) {}
    /// The pass's pipeline objects, made on the first call (thread-safe).
    const MipPipeline& Pipeline();
    MipStats& Stats() { return m_Stats; }

private:
    std::shared_ptr<DeviceContext> m_Context;
    std::once_flag m_Once;
    std::unique_ptr<MipPipeline> m_Pipeline;
    MipStats m_Stats;
};

/// `device`'s MipGenerator (made on first use, kept for the device's life). ForkedDevice in a forked child.
MipGenerator& MipGeneratorOf(Device& device);

/// Fills mips firstMip+1.. of every array slice of `texture` from mip `firstMip` with a compute
/// pass recorded on `list` (Python CommandList.generate_mips). Direct and compute lists only. Leaves
/// no pipeline bound and every root argument cleared: set both again before the next draw or
/// dispatch (an unset root constant or root view then raises).
void GenerateMips(CommandList& list, const std::shared_ptr<Resource>& texture, uint32_t firstMip);

}  // namespace dx12kit
