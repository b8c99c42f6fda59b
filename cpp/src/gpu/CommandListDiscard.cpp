// CommandList::DiscardResource with D3D12's state rules (ID3D12GraphicsCommandList::DiscardResource):
// on a direct list a render-target texture is discarded in RENDER_TARGET and a depth-stencil one in
// DEPTH_WRITE; on a compute list the texture needs the UAV flag and is discarded in UNORDERED_ACCESS;
// a copy list cannot discard. A discard initialises what it covers (dx12kit/resources/D3D12Rules.hpp
// rule 6d), which is how a placed render target first written on a compute queue is initialised.
#include "dx12kit/gpu/CommandList.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"

#include <string>

namespace dx12kit {

namespace {

D3D12_RESOURCE_STATES DiscardState(D3D12_COMMAND_LIST_TYPE type, const Resource& r, const std::string& who) {
    const char* fn = "discard_resource";
    if (type == D3D12_COMMAND_LIST_TYPE_COPY)
        throw InvalidArgument(std::string(fn) + ": a copy-queue list cannot discard (D3D12 allows it on direct and compute lists)");
    if (type == D3D12_COMMAND_LIST_TYPE_DIRECT) {
        if (r.AllowsRenderTarget()) return D3D12_RESOURCE_STATE_RENDER_TARGET;
        if (r.AllowsDepthStencil()) return D3D12_RESOURCE_STATE_DEPTH_WRITE;
    }
    if (r.AllowsUav()) return D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    if (type == D3D12_COMMAND_LIST_TYPE_DIRECT)
        throw InvalidArgument(std::string(fn) + ": " + who +
                              " is neither a render target, a depth-stencil texture nor an unordered-access texture: "
                              "D3D12 discards only those");
    throw InvalidArgument(std::string(fn) + ": " + who +
                          " has no unordered access: a compute-queue list discards only textures created with "
                          "uav=True (in UNORDERED_ACCESS); discard it on a direct-queue list");
}

}  // namespace

void CommandList::DiscardResource(const std::shared_ptr<Resource>& texture, uint32_t mip, uint32_t arraySlice) {
    const char* what = "discard_resource";
    const auto recording = Begin(what);
    if (!texture) throw InvalidArgument("discard_resource: None");
    CheckSameDevice(*texture, what);
    const std::string who = "texture '" + texture->Name() + "'";
    if (texture->IsBuffer()) throw InvalidArgument("discard_resource: " + who + " is a buffer; D3D12 discards textures");
    const D3D12_RESOURCE_STATES state = DiscardState(m_Queue->Type(), *texture, who);
    const bool allMips = mip == kAllMips, allSlices = arraySlice == kAllSlices;
    texture->CheckMipSlice(allMips ? 0 : mip, allSlices ? 0 : arraySlice, what);
    const uint32_t mips = texture->MipLevels();
    const uint32_t firstMip = allMips ? 0 : mip, mipCount = allMips ? mips : 1;
    const uint32_t firstSlice = allSlices ? 0 : arraySlice, sliceCount = allSlices ? texture->ArraySize() : 1;
    const uint32_t planes = texture->PlaneCount();
    for (uint32_t p = 0; p < planes; ++p)
        for (uint32_t s = firstSlice; s < firstSlice + sliceCount; ++s)
            for (uint32_t m = firstMip; m < firstMip + mipCount; ++m) {
                const uint32_t sub = texture->Subresource(m, s, p);
                m_Tracker.Transition(texture, state, sub);
                ContentsInitialized(*texture, sub);
            }
    Flush();
    if (m_Validate) ValidateResource(what, texture.get());
    // One region per (plane, slice): the chosen mips of a slice are consecutive subresources.
    for (uint32_t p = 0; p < planes; ++p)
        for (uint32_t s = firstSlice; s < firstSlice + sliceCount; ++s) {
            D3D12_DISCARD_REGION region{};
            region.FirstSubresource = texture->Subresource(firstMip, s, p);
            region.NumSubresources = mipCount;
            m_d3d12List->DiscardResource(texture->D3D12Resource(), &region);
        }
}

}  // namespace dx12kit
