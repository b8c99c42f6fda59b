// Device::CreateTextureFromDesc: a texture of any description through the memory layer (the cube
// and 3D shapes over it are features: cpp/src/features/TextureKinds.cpp).
#include "dx12kit/gpu/Device.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <string>

namespace dx12kit {

std::shared_ptr<Texture> Device::CreateTextureFromDesc(const D3D12_RESOURCE_DESC& desc, DXGI_FORMAT viewFormat, bool cube, const std::string& name,
                                                       const Placement& placement, const char* what) {
    m_Context->CheckNotForked("create_texture");
    CheckPlacementArgs(placement, what);
    const memory::HeapKind kind = placement.memory ? placement.memory->heap : placement.pool ? placement.pool->Desc().heap : placement.heap;
    if (kind != memory::HeapKind::Default)
        throw InvalidArgument(std::string(what) + ": textures live in the 'default' heap (got '" + memory::HeapKindName(kind) +
                              "'); upload and read them back with CommandList.upload / CommandQueue.read_texture");
    const bool renderTarget = desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    D3D12_CLEAR_VALUE clear{};
    clear.Format = viewFormat;
    memory::ResourceRequest rq;
    rq.desc = desc;
    rq.initialState = D3D12_RESOURCE_STATE_COMMON;
    rq.clearValue = renderTarget ? &clear : nullptr;
    rq.heap = kind;
    rq.pool = placement.pool;
    rq.committed = placement.committed;
    rq.withinBudget = placement.withinBudget;
    rq.kind = renderTarget ? memory::AllocationKind::RenderTarget : memory::AllocationKind::Texture;
    rq.name = name;
    memory::CreatedResource created = placement.memory ? PlaceInMemory(rq, placement, what) : m_Context->Memory().CreateResource(rq);
    auto t = std::make_shared<Texture>(m_Context, std::move(created.resource), D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COMMON, name);
    t->SetViewFormat(viewFormat);
    t->SetCube(cube);
    t->AttachMemory(std::move(created.allocation));
    AdoptPlacement(t, placement, kind);
    if (!placement.memory) m_Context->QueueZeroInit(t);
    return t;
}

}  // namespace dx12kit
