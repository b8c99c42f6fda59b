// The project's own small d3dx12-style helpers, used on every platform (external/d3dx12/README.md).
// (On Linux, Microsoft's d3dx12.h cannot be used with vkd3d's headers; see PLATFORM.md. Keeping one
// set of helpers means the same code paths are tested everywhere.) Included as
// "d3dx12/D3dx12Lite.hpp" (the include path has external/); it needs only the platform header.
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

namespace dx12kit::d3dx {

inline D3D12_HEAP_PROPERTIES HeapProperties(D3D12_HEAP_TYPE type) {
    D3D12_HEAP_PROPERTIES p{};
    p.Type = type;
    p.CPUPageProperty = D3D12_CPU_PAGE_PROPERTY_UNKNOWN;
    p.MemoryPoolPreference = D3D12_MEMORY_POOL_UNKNOWN;
    p.CreationNodeMask = 1;
    p.VisibleNodeMask = 1;
    return p;
}

inline D3D12_RESOURCE_DESC BufferDesc(uint64_t size, D3D12_RESOURCE_FLAGS flags = D3D12_RESOURCE_FLAG_NONE) {
    D3D12_RESOURCE_DESC d{};
    d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    d.Alignment = 0;
    d.Width = size;
    d.Height = 1;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.Format = DXGI_FORMAT_UNKNOWN;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    d.Flags = flags;
    return d;
}

inline D3D12_RESOURCE_DESC Tex2DDesc(DXGI_FORMAT format, uint64_t width, uint32_t height,
                                     uint16_t arraySize, uint16_t mipLevels,
                                     D3D12_RESOURCE_FLAGS flags) {
    D3D12_RESOURCE_DESC d{};
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Width = width;
    d.Height = height;
    d.DepthOrArraySize = arraySize;
    d.MipLevels = mipLevels;
    d.Format = format;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    d.Flags = flags;
    return d;
}

inline D3D12_RESOURCE_BARRIER TransitionBarrier(ID3D12Resource* r, D3D12_RESOURCE_STATES before,
                                                D3D12_RESOURCE_STATES after, uint32_t subresource) {
    D3D12_RESOURCE_BARRIER b{};
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    b.Transition.pResource = r;
    b.Transition.StateBefore = before;
    b.Transition.StateAfter = after;
    b.Transition.Subresource = subresource;
    return b;
}

inline D3D12_RESOURCE_BARRIER UavBarrier(ID3D12Resource* r) {
    D3D12_RESOURCE_BARRIER b{};
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    b.UAV.pResource = r;
    return b;
}

inline D3D12_RESOURCE_BARRIER AliasingBarrier(ID3D12Resource* before, ID3D12Resource* after) {
    D3D12_RESOURCE_BARRIER b{};
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_ALIASING;
    b.Aliasing.pResourceBefore = before;
    b.Aliasing.pResourceAfter = after;
    return b;
}

inline uint32_t CalcSubresource(uint32_t mip, uint32_t arraySlice, uint32_t mipLevels) {
    return mip + arraySlice * mipLevels;
}

inline D3D12_TEXTURE_COPY_LOCATION SubresourceLocation(ID3D12Resource* r, uint32_t subresource) {
    D3D12_TEXTURE_COPY_LOCATION l{};
    l.pResource = r;
    l.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    l.SubresourceIndex = subresource;
    return l;
}

inline D3D12_TEXTURE_COPY_LOCATION FootprintLocation(ID3D12Resource* r,
                                                     const D3D12_PLACED_SUBRESOURCE_FOOTPRINT& fp) {
    D3D12_TEXTURE_COPY_LOCATION l{};
    l.pResource = r;
    l.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    l.PlacedFootprint = fp;
    return l;
}

}  // namespace dx12kit::d3dx
