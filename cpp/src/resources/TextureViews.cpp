// Views of cube and 3D textures (Resource::WriteView hands them here).
//
//   cube  SRV: TEXTURECUBE (TEXTURECUBEARRAY for 6n faces), sampled with a direction vector.
//         UAV / RTV: the 2D array of faces (D3D12 has no cube UAV or RTV dimension), so a compute
//         shader writes a face as RWTexture2DArray slice `face`.
//   3D    SRV: TEXTURE3D; UAV: TEXTURE3D over every depth slice of the mip (FirstWSlice 0,
//         WSize = the mip's depth); RTV: depth slices b.. of the mip (so clear_render_target and the zeroing clear
//         the whole mip; a draw writes slice b + SV_RenderTargetArrayIndex). No depth-stencil
//         views (D3D12 allows depth-stencil 1D and 2D textures only).
#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/DeviceContext.hpp"
#include "dx12kit/devicecontext/Formats.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <string>

namespace dx12kit {

bool Resource::WriteCubeOr3DView(ViewKind kind, uint32_t a, uint32_t b, DXGI_FORMAT format, D3D12_CPU_DESCRIPTOR_HANDLE dst) const {
    if (IsBuffer() || (!Is3D() && !m_Cube)) return false;
    // A cube's UAV and RTV are those of the 2D array of its faces: WriteView's own.
    if (m_Cube && (kind == ViewKind::UAV || kind == ViewKind::RTV)) return false;
    auto who = [this] { return "resource '" + m_Name + "'"; };  // built only on error paths
    ID3D12Device* dev = m_Context->D3D12Device();
    const DXGI_FORMAT viewFormat = format != DXGI_FORMAT_UNKNOWN ? format : m_ViewFormat;
    switch (kind) {
        case ViewKind::SRV: {
            D3D12_SHADER_RESOURCE_VIEW_DESC d{};
            d.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
            d.Format = viewFormat;
            const UINT count = b == 0 ? UINT(-1) : b;
            if (Is3D()) {
                d.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE3D;
                d.Texture3D.MostDetailedMip = a;
                d.Texture3D.MipLevels = count;
            } else if (m_Desc.DepthOrArraySize == 6) {
                d.ViewDimension = D3D12_SRV_DIMENSION_TEXTURECUBE;
                d.TextureCube.MostDetailedMip = a;
                d.TextureCube.MipLevels = count;
            } else {
                d.ViewDimension = D3D12_SRV_DIMENSION_TEXTURECUBEARRAY;
                d.TextureCubeArray.MostDetailedMip = a;
                d.TextureCubeArray.MipLevels = count;
                d.TextureCubeArray.NumCubes = m_Desc.DepthOrArraySize / 6;
            }
            dev->CreateShaderResourceView(m_d3d12Resource.Get(), &d, dst);
            return true;
        }
        case ViewKind::UAV: {
            if (!AllowsUav()) throw InvalidArgument(who() + " was not created with uav=True, so it cannot be bound as an unordered access view");
            D3D12_UNORDERED_ACCESS_VIEW_DESC d{};
            d.Format = viewFormat;
            d.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE3D;
            d.Texture3D.MipSlice = a;
            d.Texture3D.FirstWSlice = 0;
            d.Texture3D.WSize = Depth(a);  // every slice (explicit: see the RTV below)
            dev->CreateUnorderedAccessView(m_d3d12Resource.Get(), nullptr, &d, dst);
            return true;
        }
        case ViewKind::RTV: {
            if (!AllowsRenderTarget()) throw InvalidArgument(who() + " was not created with render_target=True");
            D3D12_RENDER_TARGET_VIEW_DESC d{};
            d.Format = viewFormat;
            d.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE3D;
            d.Texture3D.MipSlice = a;
            d.Texture3D.FirstWSlice = b;
            // To the last slice: clears cover the mip, draws pick a slice by SV_RenderTargetArrayIndex.
            // An explicit count: vkd3d 1.2 crashes clearing a view with WSize -1 (D3D12's "all").
            d.Texture3D.WSize = Depth(a) - b;
            dev->CreateRenderTargetView(m_d3d12Resource.Get(), &d, dst);
            return true;
        }
        case ViewKind::DSV:
            throw InvalidArgument(who() + (Is3D() ? " is a 3D texture" : " is a cube texture") + "; depth-stencil views need a 2D texture");
        case ViewKind::CBV: return false;  // WriteView explains
    }
    return false;
}

}  // namespace dx12kit
