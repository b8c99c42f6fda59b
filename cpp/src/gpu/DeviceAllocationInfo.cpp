// Device: the checked descriptions of CreateTexture2D / CreateBuffer resources, and their size and
// alignment once placed (Device.texture_allocation_info / buffer_allocation_info), asked without
// creating anything: D3D12's ID3D12Device::GetResourceAllocationInfo, answered the way the memory
// layer places the resource (MemoryManager::AllocationInfo: small-texture alignment when granted).
#include "dx12kit/gpu/Device.hpp"

#include "dx12kit/devicecontext/FormatSupport.hpp"
#include "dx12kit/devicecontext/Formats.hpp"
#include "d3dx12/D3dx12Lite.hpp"

#include <algorithm>
#include <string>

namespace dx12kit {

D3D12_RESOURCE_DESC Device::Texture2DDesc(uint32_t width, uint32_t height, DXGI_FORMAT format, uint32_t& mipLevels, uint32_t arraySize,
                                          bool renderTarget, bool depthStencil, bool uav, uint32_t sampleCount, const char* what) const {
    const std::string fn(what);
    const FormatInfo* fi = &RequireTextureFormat(format, what);
    if (width == 0 || height == 0) throw InvalidArgument(fn + ": width and height must be positive");
    if (width > D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION || height > D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION)
        throw InvalidArgument(fn + ": " + std::to_string(width) + "x" + std::to_string(height) + " exceeds 16384");
    if (arraySize == 0 || arraySize > 2048) throw InvalidArgument(fn + ": array_size must be 1..2048");
    uint32_t maxMips = 1;
    while ((std::max(width, height) >> maxMips) > 0) ++maxMips;
    if (mipLevels == 0) mipLevels = maxMips;
    if (mipLevels > maxMips)
        throw InvalidArgument(fn + ": " + std::to_string(mipLevels) + " mips requested, a " + std::to_string(width) + "x" + std::to_string(height) +
                              " texture has at most " + std::to_string(maxMips));
    if (fi->depth && (renderTarget || uav)) throw InvalidArgument(fn + ": " + fi->name + " is a depth format; it cannot be a render target or UAV");
    if (!fi->depth && depthStencil) throw InvalidArgument(fn + ": depth_stencil=True needs a depth format, not " + fi->name);
    m_Context->FormatSupport().CheckTexture2D(format, renderTarget, depthStencil, uav, what);
    m_Context->FormatSupport().CheckBlockSize(format, width, height, what);
    if (sampleCount != 1) {
        // D3D12_RESOURCE_DESC rules for multisampled textures: 2D only, MipLevels 1, a render
        // target or depth-stencil flag, no ALLOW_UNORDERED_ACCESS; and a count the device reports
        // quality levels for (CheckFeatureSupport MULTISAMPLE_QUALITY_LEVELS).
        m_Context->FormatSupport().CheckSampleCount(format, sampleCount, what);
        if (!renderTarget && !depthStencil)
            throw InvalidArgument(fn + ": a multisampled texture (sample_count=" + std::to_string(sampleCount) +
                                  ") must be a render target or depth buffer (render_target=True or depth_stencil=True)");
        if (uav) throw InvalidArgument(fn + ": a multisampled texture cannot have uav=True (D3D12 has no MSAA UAVs)");
        if (mipLevels != 1)
            throw InvalidArgument(fn + ": a multisampled texture has exactly one mip (mip_levels=1), got " + std::to_string(mipLevels));
    }
    D3D12_RESOURCE_FLAGS flags = D3D12_RESOURCE_FLAG_NONE;
    if (renderTarget) flags |= D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    if (depthStencil) flags |= D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    if (uav) flags |= D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    // Created with the family's TYPELESS format (when the format has a family), so views may use
    // any format of the family (FormatSupport.hpp); the requested format is the default view format.
    const DXGI_FORMAT family = TypelessFamily(format);
    const DXGI_FORMAT nativeFormat = fi->depth ? DepthTypelessFormat(format) : family != DXGI_FORMAT_UNKNOWN ? family : format;
    D3D12_RESOURCE_DESC desc =
        d3dx::Tex2DDesc(nativeFormat, width, height, static_cast<uint16_t>(arraySize), static_cast<uint16_t>(mipLevels), flags);
    desc.SampleDesc.Count = sampleCount;
    desc.SampleDesc.Quality = 0;
    return desc;
}

InvalidArgument Device::RefusedTexture(const D3D12_RESOURCE_DESC& desc, DXGI_FORMAT format, const char* what) {
    // The device refused the description itself: say which texture. (vkd3d 1.2 refuses the
    // stencil formats without depth_stencil=True, which D3D12 allows: Vulkan needs the
    // depth-stencil usage to create such an image.)
    const FormatInfo* fi = FindFormat(format);
    const bool rt = desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, ds = desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    const bool uav = desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    const bool stencil = format == DXGI_FORMAT_D24_UNORM_S8_UINT || format == DXGI_FORMAT_D32_FLOAT_S8X24_UINT;
    return InvalidArgument(std::string(what) + ": this device cannot create a " + std::to_string(desc.Width) + "x" + std::to_string(desc.Height) +
                           " " + (fi ? fi->name : "?") + " texture" + (rt ? " render target" : "") + (ds ? " depth buffer" : "") +
                           (uav ? " with uav=True" : "") + " (GetResourceAllocationInfo refused it)" +
                           (stencil && !ds ? "; create it with depth_stencil=True" : ""));
}

D3D12_RESOURCE_DESC Device::BufferDesc(uint64_t size, bool uav, const char* what) {
    if (size == 0) throw InvalidArgument(std::string(what) + ": size must be positive (got 0)");
    constexpr uint64_t kMax = uint64_t(1) << 40;
    if (size > kMax) throw InvalidArgument(std::string(what) + ": size " + std::to_string(size) + " exceeds 1 TiB");
    // Rounded to 256 bytes so constant buffer views and raw views of the whole buffer are legal.
    const uint64_t native = (size + 255) & ~uint64_t(255);
    return d3dx::BufferDesc(native, uav ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE);
}

D3D12_RESOURCE_ALLOCATION_INFO Device::TextureAllocationInfo(uint32_t width, uint32_t height, DXGI_FORMAT format, uint32_t mipLevels,
                                                             uint32_t arraySize, bool renderTarget, bool depthStencil, bool uav, uint32_t sampleCount,
                                                             const char* what) {
    m_Context->CheckNotForked(what);
    D3D12_RESOURCE_DESC desc = Texture2DDesc(width, height, format, mipLevels, arraySize, renderTarget, depthStencil, uav, sampleCount, what);
    try {
        return m_Context->Memory().AllocationInfo(desc);
    } catch (const memory::UnsupportedDescription&) {
        throw RefusedTexture(desc, format, what);
    }
}

D3D12_RESOURCE_ALLOCATION_INFO Device::BufferAllocationInfo(uint64_t size, bool uav, const char* what) {
    m_Context->CheckNotForked(what);
    D3D12_RESOURCE_DESC desc = BufferDesc(size, uav, what);
    return m_Context->Memory().AllocationInfo(desc);
}

}  // namespace dx12kit
