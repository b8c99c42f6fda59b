// GenerateMips (CommandList.generate_mips) and its per-device state (dx12kit/features/GenerateMips.hpp).
#include "dx12kit/features/GenerateMips.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/FormatSupport.hpp"
#include "dx12kit/devicecontext/Formats.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "d3dx12/D3dx12Lite.hpp"
#include "dx12kit/resources/D3D12Rules.hpp"

#include "../builtin/GenerateMips.generated.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace dx12kit {

namespace {

/// The 8-bit four-channel UNORM formats the aliased route serves (through an rgba8_unorm alias).
bool AliasableThroughRgba8(DXGI_FORMAT format) {
    return format == DXGI_FORMAT_R8G8B8A8_UNORM || format == DXGI_FORMAT_R8G8B8A8_UNORM_SRGB || format == DXGI_FORMAT_B8G8R8A8_UNORM ||
           format == DXGI_FORMAT_B8G8R8A8_UNORM_SRGB;
}

DXGI_FORMAT NativeFormat(DXGI_FORMAT format) {
    const DXGI_FORMAT family = TypelessFamily(format);
    return family != DXGI_FORMAT_UNKNOWN ? family : format;
}

uint32_t FloatBits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

uint32_t TrailingZeros(uint32_t v) {
    uint32_t n = 0;
    while (v && !(v & 1u)) {
        v >>= 1;
        ++n;
    }
    return n;
}

}  // namespace

std::string MipAutogenRefusal(FormatSupportCache& formats, DXGI_FORMAT format) {
    const FormatInfo* fi = FindFormat(format);
    if (!fi) return "unsupported format " + FormatName(format);
    const std::string name = fi->name;
    if (fi->IsBlock())
        return name +
               " is block-compressed: generate_mips writes mips through unordered access views, which block-compressed formats "
               "cannot have; upload every mip's blocks (a DDS file with mips, load_texture) instead";
    if (fi->layout == FormatLayout::Other) return name + " is a video, planar, palette or opaque format";
    if (fi->depth) return name + " is a depth format: generate_mips averages colours with filtered samples, which depth formats do not allow";
    if (IsInteger(format)) return name + " is an integer format: integer textures cannot be sampled with a filter, so no mips are averaged";
    const FormatSupportInfo& s = formats.Get(format);
    if (!s.Has(D3D12_FORMAT_SUPPORT1_TEXTURE2D) || !s.Has(D3D12_FORMAT_SUPPORT1_MIP))
        return name + " textures cannot have mips on this device (D3D12_FORMAT_SUPPORT1_MIP)";
    if (!s.Has(D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE))
        return "this device cannot sample " + name + " with a filter (D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE)";
    if (s.TypedUav(format)) return "";
    if (AliasableThroughRgba8(format) && formats.Get(DXGI_FORMAT_R8G8B8A8_UNORM).TypedUav(DXGI_FORMAT_R8G8B8A8_UNORM)) return "";
    return "this device has no typed unordered access views of " + name +
           " (D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW) and generate_mips has no UAV-capable alias for it";
}

MipRoute ChooseMipRoute(FormatSupportCache& formats, DXGI_FORMAT format, bool hasUav) {
    if (formats.Get(format).TypedUav(format)) return hasUav ? MipRoute::InPlace : MipRoute::Staged;
    return MipRoute::Aliased;
}

MipPipeline::MipPipeline(const std::shared_ptr<DeviceContext>& core) {
    std::vector<RootParameterDesc> params(3);
    params[kRootConstants].kind = RootParamKind::Constants;
    params[kRootConstants].num32BitValues = kNumConstants;
    params[kRootSrv].kind = RootParamKind::Table;
    params[kRootSrv].ranges = {DescriptorRangeDesc{RangeKind::Srv, 0, 1, 0, 0}};
    params[kRootUavs].kind = RootParamKind::Table;
    params[kRootUavs].ranges = {DescriptorRangeDesc{RangeKind::Uav, 0, kMaxMipsPerDispatch, 0, 0}};
    StaticSamplerDesc linear{};
    linear.shaderRegister = 0;
    linear.filter = D3D12_FILTER_MIN_MAG_MIP_LINEAR;
    linear.address = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    auto rs = std::make_shared<RootSignature>(core, params, std::vector<StaticSamplerDesc>{linear}, 0u);
    rs->SetName("generate_mips");
    const std::vector<uint8_t> cs(builtin::GenerateMips, builtin::GenerateMips + sizeof builtin::GenerateMips);
    m_Pipeline = std::make_shared<PipelineState>(core, cs, std::move(rs));
    m_Pipeline->SetName("generate_mips");
    m_NullUav = core->CpuDescriptors(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV).Allocate(1);
    D3D12_UNORDERED_ACCESS_VIEW_DESC d{};
    d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    d.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2DARRAY;
    d.Texture2DArray.ArraySize = 1;
    core->D3D12Device()->CreateUnorderedAccessView(nullptr, nullptr, &d, m_NullUav.Handle());
}

const MipPipeline& MipGenerator::Pipeline() {
    std::call_once(m_Once, [this] { m_Pipeline = std::make_unique<MipPipeline>(m_Context); });
    return *m_Pipeline;
}

MipGenerator& MipGeneratorOf(Device& device) {
    device.Context()->CheckNotForked("generate_mips");
    // Kept in the device's extension slot with the other built-in objects: made once, on first use.
    return *std::static_pointer_cast<MipGenerator>(
        device.BuiltinObject("GenerateMips", [&device] { return std::static_pointer_cast<void>(std::make_shared<MipGenerator>(device.Context())); }));
}

namespace {

/// The dispatches of one pass chain over `work`: mip firstMip down to the last, up to four mips a
/// dispatch, the SRV in `srvFormat` and the UAVs in `uavFormat`.
void RecordMipPasses(CommandList& list, MipGenerator& generator, const std::shared_ptr<Texture>& work, uint32_t firstMip, DXGI_FORMAT srvFormat,
                     DXGI_FORMAT uavFormat, bool srgb) {
    const MipPipeline& mp = generator.Pipeline();
    list.SetPipelineState(mp.Pipeline());
    // The mips past `count` stay null UAVs on purpose (the shader writes only `count` of them).
    const CommandList::BuiltinPassScope builtin(list);
    DeviceContext& core = *list.Context();
    ID3D12Device* dev = core.D3D12Device();
    const uint32_t mips = work->MipLevels(), slices = work->ArraySize();
    MipStats& stats = generator.Stats();
    for (uint32_t src = firstMip; src + 1 < mips;) {
        const uint32_t srcW = work->Width(src), srcH = work->Height(src);
        const uint32_t dstW = work->Width(src + 1), dstH = work->Height(src + 1);
        // Mips after the first output halve exactly while both sizes stay even (a size of 1 stays
        // 1): the trailing zero bits of the sizes, an axis of size 1 counting as the other axis.
        const uint32_t bits = (dstW == 1 ? dstH : dstW) | (dstH == 1 ? dstW : dstH);
        const uint32_t count = std::min({1 + TrailingZeros(bits), MipPipeline::kMaxMipsPerDispatch, mips - src - 1});

        // Views of this dispatch, in CPU descriptors copied into the shader-visible heap at the
        // dispatch (kept with the list until its fence all the same).
        auto views = std::make_shared<DescriptorAllocation>(core.CpuDescriptors(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV).Allocate(1 + count));
        D3D12_SHADER_RESOURCE_VIEW_DESC sd{};
        sd.Format = srvFormat;
        sd.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2DARRAY;
        sd.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        sd.Texture2DArray.MostDetailedMip = src;
        sd.Texture2DArray.MipLevels = 1;
        sd.Texture2DArray.ArraySize = slices;
        dev->CreateShaderResourceView(work->D3D12Resource(), &sd, views->Handle(0));
        list.StageView(MipPipeline::kRootSrv, 0, views->Handle(0), work, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE, src, 1, false);
        for (uint32_t i = 0; i < MipPipeline::kMaxMipsPerDispatch; ++i) {
            if (i < count) {
                D3D12_UNORDERED_ACCESS_VIEW_DESC ud{};
                ud.Format = uavFormat;
                ud.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2DARRAY;
                ud.Texture2DArray.MipSlice = src + 1 + i;
                ud.Texture2DArray.ArraySize = slices;
                dev->CreateUnorderedAccessView(work->D3D12Resource(), nullptr, &ud, views->Handle(1 + i));
                list.StageView(MipPipeline::kRootUavs, i, views->Handle(1 + i), work, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, src + 1 + i, 1, true);
            } else {
                list.StageNullView(MipPipeline::kRootUavs, i, mp.NullUav());
            }
        }
        const uint32_t constants[MipPipeline::kNumConstants] = {
            count, (srcW & 1u) | ((srcH & 1u) << 1), srgb ? 1u : 0u, dstW, FloatBits(1.0f / float(dstW)), FloatBits(1.0f / float(dstH)), dstH};
        list.SetConstants(MipPipeline::kRootConstants, constants, MipPipeline::kNumConstants, 0);
        list.Dispatch((dstW + MipPipeline::kGroupSize - 1) / MipPipeline::kGroupSize, (dstH + MipPipeline::kGroupSize - 1) / MipPipeline::kGroupSize,
                      slices);
        list.Keep(std::move(views));
        stats.dispatches.fetch_add(1, std::memory_order_relaxed);
        src += count;
    }
    // Leave no pipeline bound: the caller's next draw or dispatch must set its own (the mips
    // pipeline stays alive with the list's tracked objects).
    list.UnbindPipeline("generate_mips");
}

/// The in-place route on `texture`: the source mip is read (it must hold defined contents, rule 6d,
/// named as generate_mips' use in the state the first dispatch reads it in), and the mips below it,
/// written in full, are discarded first when they need an initialization.
void PrepareInPlace(CommandList& list, const std::shared_ptr<Texture>& texture, uint32_t firstMip, const char* what) {
    for (uint32_t s = 0; s < texture->ArraySize(); ++s)
        list.NoteContentsRead(texture, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE, texture->Subresource(firstMip, s), what);
    // Placed render targets (and depth buffers) in memory other resources share must be initialized
    // after each activation by a clear, a DiscardResource or a full copy, before any other use (D3D12
    // CreatePlacedResource; dx12kit/resources/D3D12Rules.hpp rule 6d). The dispatches write the mips
    // below the source in full, so a discard of them first is the initialization, whatever the list
    // did before (the in-place route has the UAV flag, so a compute list may discard too).
    if (texture->AliasRegion() && d3d12rules::NeedsInitAfterActivation(texture->Desc().Flags)) list.DiscardMips(texture, firstMip + 1, what);
}

/// The texture generate_mips works on, checked: a 2D texture (array), single-sample, of a format
/// with mips on this device, firstMip in range.
std::shared_ptr<Texture> CheckMipTarget(CommandList& list, const std::shared_ptr<Resource>& resource, uint32_t firstMip, const char* what) {
    // D3D12: mips are made by a compute shader; a copy queue runs no shaders.
    if (list.Queue().Type() == D3D12_COMMAND_LIST_TYPE_COPY)
        throw InvalidArgument("generate_mips: a copy-queue list cannot generate mips (it runs no shaders); use a direct or compute queue list");
    if (!resource) throw InvalidArgument("generate_mips: None");
    list.CheckSameDevice(*resource, what);
    const std::string who = "texture '" + resource->Name() + "'";
    const D3D12_RESOURCE_DESC& desc = resource->Desc();
    if (resource->IsBuffer()) throw InvalidArgument("generate_mips: resource '" + resource->Name() + "' is a buffer, not a texture");
    if (desc.Dimension != D3D12_RESOURCE_DIMENSION_TEXTURE2D)
        throw InvalidArgument("generate_mips: " + who + " is not a 2D texture or 2D texture array");
    if (desc.SampleDesc.Count > 1) throw InvalidArgument("generate_mips: " + who + " is multisampled (multisampled textures have one mip)");
    auto texture = std::static_pointer_cast<Texture>(resource);
    const uint32_t mips = texture->MipLevels();
    if (firstMip >= mips)
        throw InvalidArgument("generate_mips: first_mip " + std::to_string(firstMip) + " out of range for " + who + " (it has " +
                              std::to_string(mips) + " mip" + (mips == 1 ? "" : "s") + ", 0.." + std::to_string(mips - 1) + ")");
    const std::string refusal = MipAutogenRefusal(list.Context()->FormatSupport(), texture->ViewFormat());
    if (!refusal.empty()) throw InvalidArgument("generate_mips: " + who + ": " + refusal);
    return texture;
}

}  // namespace

void GenerateMips(CommandList& list, const std::shared_ptr<Resource>& resource, uint32_t firstMip) {
    const char* what = "generate_mips";
    const auto recording = list.Begin(what);
    list.CheckPredicatable(what);  // its copies would run, its dispatches not
    const std::shared_ptr<Texture> texture = CheckMipTarget(list, resource, firstMip, what);
    const uint32_t mips = texture->MipLevels();
    if (firstMip + 1 == mips) return;  // no mip below it

    MipGenerator& generator = MipGeneratorOf(list.DeviceRef());
    MipStats& stats = generator.Stats();
    const DXGI_FORMAT format = texture->ViewFormat();
    FormatSupportCache& formats = list.Context()->FormatSupport();
    const bool srgb = IsSrgb(format);
    const MipRoute route = ChooseMipRoute(formats, format, texture->AllowsUav());
    if (route == MipRoute::InPlace) {
        stats.inPlace.fetch_add(1, std::memory_order_relaxed);
        PrepareInPlace(list, texture, firstMip, what);
        RecordMipPasses(list, generator, texture, firstMip, format, format, false);
        return;
    }

    // A UAV-capable copy in fresh memory (and, aliased, a texture of the original family over it).
    Device& device = list.DeviceRef();
    const bool aliased = route == MipRoute::Aliased;
    const DXGI_FORMAT workFormat = aliased ? DXGI_FORMAT_R8G8B8A8_UNORM : format;
    // The copy target: the work texture itself when staged; when aliased, of the texture's family,
    // and for the RGBA8 (sRGB) family the very description of the work texture (see the header).
    const bool sameFamilyAsWork = NativeFormat(format) == NativeFormat(workFormat);
    const DXGI_FORMAT copyFormat = sameFamilyAsWork ? workFormat : format;
    const uint32_t width = texture->Width(), height = texture->Height(), slices = texture->ArraySize();
    ID3D12Device* dev = device.D3D12Device();
    auto allocationInfo = [&](DXGI_FORMAT f, bool uav) {
        D3D12_RESOURCE_DESC d = d3dx::Tex2DDesc(NativeFormat(f), width, height, static_cast<uint16_t>(slices), static_cast<uint16_t>(mips),
                                                uav ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE);
        return dev->GetResourceAllocationInfo(0, 1, &d);
    };
    D3D12_RESOURCE_ALLOCATION_INFO info = allocationInfo(workFormat, true);
    if (aliased) {
        const D3D12_RESOURCE_ALLOCATION_INFO other = allocationInfo(copyFormat, sameFamilyAsWork);
        info.SizeInBytes = std::max(info.SizeInBytes, other.SizeInBytes);
        info.Alignment = std::max(info.Alignment, other.Alignment);
    }
    ResourcePlacement from;
    auto memory = device.AllocateMemory(info.SizeInBytes, info.Alignment, from, texture->Name() + " (generate_mips)");
    ResourcePlacement at;
    at.memory = memory;
    std::shared_ptr<Texture> work =
        device.CreateTexture2D(width, height, workFormat, mips, slices, false, false, true, texture->Name() + " (generate_mips work)", at);
    std::shared_ptr<Texture> copy = work;
    if (aliased)
        copy = device.CreateTexture2D(width, height, copyFormat, mips, slices, false, false, sameFamilyAsWork,
                                      texture->Name() + " (generate_mips alias)", at);
    (aliased ? stats.aliased : stats.staged).fetch_add(1, std::memory_order_relaxed);

    // D3D12 aliasing rules ("Memory aliasing and data inheritance"): an aliasing barrier between the
    // uses of two resources sharing memory, and the data handed over in compatible states: both
    // aliases are in COMMON at each hand-over. Requesting COMMON first makes the tracker know the
    // copy's state inside this list (new resources are in COMMON, so nothing is resolved at execute)
    // and record every later transition here, after the aliasing barriers, not before the list. The
    // work texture is activated by the explicit barrier below (the tracker parks it in COMMON then),
    // so the state tracker adds no automatic aliasing barrier of its own (D3D12Rules rule 6).
    if (aliased) {
        list.TransitionBarrier(copy, D3D12_RESOURCE_STATE_COMMON, kAllSubresources);
        list.AliasingBarrier(nullptr, copy);
    }
    for (uint32_t s = 0; s < slices; ++s) list.CopySubresource(copy, texture, texture->Subresource(firstMip, s), what);
    if (aliased) {
        list.TransitionBarrier(copy, D3D12_RESOURCE_STATE_COMMON, kAllSubresources);
        list.AliasingBarrier(copy, work);
    }
    RecordMipPasses(list, generator, work, firstMip, srgb ? DXGI_FORMAT_R8G8B8A8_UNORM_SRGB : workFormat, workFormat, srgb);
    if (aliased) {
        list.TransitionBarrier(work, D3D12_RESOURCE_STATE_COMMON, kAllSubresources);
        list.AliasingBarrier(work, copy);
    }
    for (uint32_t s = 0; s < slices; ++s)
        for (uint32_t m = firstMip + 1; m < mips; ++m) list.CopySubresource(texture, copy, texture->Subresource(m, s), what);
}

}  // namespace dx12kit
