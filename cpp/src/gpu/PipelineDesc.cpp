#include "dx12kit/gpu/PipelineDesc.hpp"

namespace dx12kit {

BlendStateDesc BlendPreset(BlendMode mode) {
    BlendStateDesc b;
    if (mode == BlendMode::None) return b;
    b.blendEnable = true;
    b.srcBlend = mode == BlendMode::Alpha ? D3D12_BLEND_SRC_ALPHA : D3D12_BLEND_ONE;
    b.destBlend = mode == BlendMode::Additive ? D3D12_BLEND_ONE : D3D12_BLEND_INV_SRC_ALPHA;
    b.srcBlendAlpha = D3D12_BLEND_ONE;
    b.destBlendAlpha = mode == BlendMode::Additive ? D3D12_BLEND_ONE : D3D12_BLEND_INV_SRC_ALPHA;
    return b;
}

D3D12_PRIMITIVE_TOPOLOGY_TYPE TopologyType(D3D_PRIMITIVE_TOPOLOGY topology) {
    switch (topology) {
        case D3D_PRIMITIVE_TOPOLOGY_POINTLIST: return D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT;
        case D3D_PRIMITIVE_TOPOLOGY_LINELIST:
        case D3D_PRIMITIVE_TOPOLOGY_LINESTRIP:
        case D3D_PRIMITIVE_TOPOLOGY_LINELIST_ADJ:
        case D3D_PRIMITIVE_TOPOLOGY_LINESTRIP_ADJ: return D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE;
        case D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST:
        case D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP:
        case D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST_ADJ:
        case D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ: return D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
        default: return PatchControlPoints(topology) ? D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH : D3D12_PRIMITIVE_TOPOLOGY_TYPE_UNDEFINED;
    }
}

uint32_t PatchControlPoints(D3D_PRIMITIVE_TOPOLOGY topology) {
    const int n = int(topology) - int(D3D_PRIMITIVE_TOPOLOGY_1_CONTROL_POINT_PATCHLIST) + 1;
    return n >= 1 && n <= 32 ? uint32_t(n) : 0;
}

}  // namespace dx12kit
