// CommandList: the hooks built-in passes record through (dx12kit/gpu/CommandList.hpp, "for built-in
// passes"). The passes themselves are features (cpp/src/features/GenerateMips.cpp, PanoToCubemap.cpp).
#include "dx12kit/gpu/CommandList.hpp"

#include "d3dx12/D3dx12Lite.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"

namespace dx12kit {

void CommandList::CopySubresource(const std::shared_ptr<Resource>& dst, const std::shared_ptr<Resource>& src, uint32_t sub, const char* what) {
    m_Tracker.Transition(dst, D3D12_RESOURCE_STATE_COPY_DEST, sub);
    m_Tracker.Transition(src, D3D12_RESOURCE_STATE_COPY_SOURCE, sub);
    if (m_Tracker.TracksContents(*src)) m_Tracker.NoteContentsUse(src.get(), sub, what);
    ContentsInitialized(*dst, sub);  // a copy of the whole subresource (D3D12Rules rule 6d)
    Flush();
    if (m_Validate) {
        ValidateResource(what, dst.get());
        ValidateResource(what, src.get());
    }
    D3D12_TEXTURE_COPY_LOCATION d = d3dx::SubresourceLocation(dst->D3D12Resource(), sub);
    D3D12_TEXTURE_COPY_LOCATION s = d3dx::SubresourceLocation(src->D3D12Resource(), sub);
    m_d3d12List->CopyTextureRegion(&d, 0, 0, 0, &s, nullptr);
}

void CommandList::NoteContentsRead(const std::shared_ptr<Resource>& r, D3D12_RESOURCE_STATES state, uint32_t sub, const char* what) {
    // The tracker knows a resource once it is used: the state first, then the read.
    if (!m_Tracker.TracksContents(*r)) return;
    m_Tracker.Transition(r, state, sub);
    m_Tracker.NoteContentsUse(r.get(), sub, what);
}

void CommandList::DiscardMips(const std::shared_ptr<Texture>& texture, uint32_t firstMip, const char* what) {
    const uint32_t mips = texture->MipLevels(), slices = texture->ArraySize();
    if (firstMip >= mips) return;
    // DiscardResource's state: RENDER_TARGET for a render target on a direct list, UNORDERED_ACCESS
    // on a compute list. Recorded on every backend; vkd3d 1.2 implements it as a no-op (a "stub"
    // fixme), which is all a discard promises.
    const D3D12_RESOURCE_STATES state =
        m_Queue->Type() == D3D12_COMMAND_LIST_TYPE_DIRECT ? D3D12_RESOURCE_STATE_RENDER_TARGET : D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    for (uint32_t s = 0; s < slices; ++s)
        for (uint32_t m = firstMip; m < mips; ++m) {
            m_Tracker.Transition(texture, state, texture->Subresource(m, s));
            ContentsInitialized(*texture, texture->Subresource(m, s));
        }
    Flush();
    if (m_Validate) ValidateResource(what, texture.get());
    for (uint32_t s = 0; s < slices; ++s) {
        // The mips firstMip .. mips - 1 of one slice are consecutive subresources.
        D3D12_DISCARD_REGION region{};
        region.FirstSubresource = texture->Subresource(firstMip, s);
        region.NumSubresources = mips - firstMip;
        m_d3d12List->DiscardResource(texture->D3D12Resource(), &region);
    }
}

void CommandList::StageView(uint32_t rootIndex, uint32_t offset, D3D12_CPU_DESCRIPTOR_HANDLE cpu, const std::shared_ptr<Resource>& r,
                            D3D12_RESOURCE_STATES state, uint32_t firstMip, uint32_t mipCount, bool uav) {
    m_ViewDescriptors.StageDescriptors(rootIndex, offset, 1, cpu);
    PutBinding((uint64_t(rootIndex) << 32) | offset, Binding{r, state, firstMip, mipCount, uav});
}

void CommandList::StageNullView(uint32_t rootIndex, uint32_t offset, D3D12_CPU_DESCRIPTOR_HANDLE cpu) {
    m_ViewDescriptors.StageDescriptors(rootIndex, offset, 1, cpu);
    m_Bindings.erase((uint64_t(rootIndex) << 32) | offset);
    m_SlotChecks |= kCheckUavCounters | kCheckTableSlots;
}

}  // namespace dx12kit
