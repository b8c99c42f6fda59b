#include "dx12kit/resources/Resource.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/base/HostCopy.hpp"
#include "dx12kit/devicecontext/DeviceContext.hpp"
#include "dx12kit/devicecontext/FormatSupport.hpp"
#include "dx12kit/devicecontext/Formats.hpp"
#include "dx12kit/platform/HResult.hpp"

#include <algorithm>
#include <string>
#include <thread>

namespace dx12kit {

Resource::Resource(std::shared_ptr<DeviceContext> core, ComPtr<ID3D12Resource> resource, D3D12_HEAP_TYPE heapType, D3D12_RESOURCE_STATES initialState,
                   std::string name)
    : m_Context(std::move(core)),
      m_d3d12Resource(std::move(resource)),
      m_Desc(m_d3d12Resource->GetDesc()),
      m_HeapType(heapType),
      m_Name(std::move(name)) {
    // Depth-stencil formats have two planes (depth, stencil), each with its own subresources and
    // states: mips * array size * planes subresources (D3D12 "Subresources", plane slices).
    switch (m_Desc.Format) {
        case DXGI_FORMAT_R24G8_TYPELESS:
        case DXGI_FORMAT_D24_UNORM_S8_UINT:
        case DXGI_FORMAT_R32G8X24_TYPELESS:
        case DXGI_FORMAT_D32_FLOAT_S8X24_UINT: m_PlaneCount = 2; break;
        default: break;
    }
    m_NumSubresources = IsBuffer() ? 1u : uint32_t(m_Desc.MipLevels) * ArraySize() * m_PlaneCount;  // 3D: no array slices
    m_GlobalState = SubresourceStates(m_NumSubresources, initialState);
    m_LogicalSize = IsBuffer() ? m_Desc.Width : 0;
    if (IsBuffer()) m_GpuAddress = m_d3d12Resource->GetGPUVirtualAddress();
    m_ViewFormat = m_Desc.Format;
    switch (m_Desc.Format) {
        case DXGI_FORMAT_R32_TYPELESS: m_ViewFormat = DXGI_FORMAT_D32_FLOAT; break;
        case DXGI_FORMAT_R24G8_TYPELESS: m_ViewFormat = DXGI_FORMAT_D24_UNORM_S8_UINT; break;
        case DXGI_FORMAT_R32G8X24_TYPELESS: m_ViewFormat = DXGI_FORMAT_D32_FLOAT_S8X24_UINT; break;
        case DXGI_FORMAT_R16_TYPELESS: m_ViewFormat = DXGI_FORMAT_D16_UNORM; break;
        default: break;
    }
    m_Context->LiveResources().fetch_add(1);
    if (!m_Name.empty()) {
        std::wstring wide(m_Name.begin(), m_Name.end());
        m_d3d12Resource->SetName(wide.c_str());
    }
}

Resource::~Resource() {
    m_Context->LiveResources().fetch_sub(1);
    std::lock_guard<std::mutex> lock(m_ViewMutex);
    m_Views.clear();  // deferred frees, tagged with the current serial
    m_BufferViews.clear();
    m_CbvRanges.clear();
}

void Resource::MapPersistently() {
    if (m_Mapped) return;
    if (!IsBuffer()) throw InvalidArgument("map: resource '" + m_Name + "' is a texture; only buffers are mapped");
    void* p = nullptr;
    // Readback memory is read by the CPU: the whole range; upload memory is only written.
    D3D12_RANGE read{0, m_HeapType == D3D12_HEAP_TYPE_UPLOAD ? 0 : static_cast<SIZE_T>(m_Desc.Width)};
    ThrowIfFailed(m_d3d12Resource->Map(0, &read, &p), ("ID3D12Resource::Map ('" + m_Name + "')").c_str());
    m_Mapped = static_cast<uint8_t*>(p);
    host::AdviseHugePages(p, static_cast<size_t>(m_Desc.Width));  // before the zeroing faults the pages in
}

D3D12_RESOURCE_STATES Resource::SettledState(uint32_t sub, const char* what) {
    Context().CheckNotForked(what);  // the submission lock
    std::lock_guard<std::recursive_mutex> lock(Context().SubmitMutex());
    CheckSubresource(sub);
    if (sub == kAllSubresources) {
        if (!m_GlobalState.IsUniform()) throw InvalidArgument(std::string(what) + ": subresources differ; ask for one subresource");
        return m_GlobalState.All();
    }
    return m_GlobalState.Get(sub);
}

uint8_t* Buffer::HostView(uint64_t itemSize, const char* what) const {
    Context().CheckNotForked(what);  // the child's copy of the mapping never reaches the GPU
    CheckNotClosed(what);
    if (!Mapped() || HeapType() == D3D12_HEAP_TYPE_DEFAULT)  // uma_direct buffers are mapped for dx12kit only
        throw InvalidArgument(std::string(what) + ": buffer '" + Name() +
                              "' lives in GPU-only memory; create it with heap='upload', "
                              "'readback' or 'custom' to map it");
    if (itemSize == 0 || Size() % itemSize)
        throw InvalidArgument(std::string(what) + ": buffer '" + Name() + "' of " + std::to_string(Size()) + " bytes is not a whole number of " +
                              std::to_string(itemSize) + "-byte items");
    return Mapped();  // never moved: only heap='default' resources are movable (Device::AdoptPlacement)
}

void Resource::CheckSubresource(uint32_t sub) const {
    if (sub != kAllSubresources && sub >= m_NumSubresources)
        throw InvalidArgument("resource '" + m_Name + "': subresource " + std::to_string(sub) + " out of range (it has " +
                              std::to_string(m_NumSubresources) + ")");
}

void Resource::Close() {
    m_Context->CheckNotForked("close");
    m_Closed.store(true, std::memory_order_release);
    m_Context->NoteResourceClosed();
}

void Resource::ThrowClosed(const char* what) const {
    throw UseAfterFree(std::string(what) + ": resource '" + m_Name + "' was closed");
}

void Resource::CheckMipSlice(uint32_t mip, uint32_t arraySlice, const char* what) const {
    if (mip >= MipLevels())
        throw InvalidArgument(std::string(what) + ": mip " + std::to_string(mip) + " out of range for resource '" + m_Name + "' (it has " +
                              std::to_string(MipLevels()) + ")");
    if (arraySlice >= ArraySize())
        throw InvalidArgument(std::string(what) + ": array slice " + std::to_string(arraySlice) + " out of range for resource '" + m_Name +
                              "' (it has " + std::to_string(ArraySize()) + ")");
}

TextureFootprint Texture::Footprint(uint32_t mip, uint32_t arraySlice, uint64_t offset) const {
    TextureFootprint f{};
    D3D12_RESOURCE_DESC desc = m_Desc;
    UINT64 rowBytes = 0, total = 0;
    m_Context->D3D12Device()->GetCopyableFootprints(&desc, mip + arraySlice * MipLevels(), 1, offset, &f.placed, &f.rows, &rowBytes, &total);
    f.rows *= f.placed.Footprint.Depth;  // 3D: every depth slice's rows, one after the other (slice pitch = rows x pitch)
    f.rowBytes = rowBytes;
    f.totalBytes = total;
    // D3D12 takes any row pitch that is a multiple of 256; GetCopyableFootprints gives the smallest.
    // For a texel size that does not divide 256 (the 12-byte rgb32 formats) that pitch is not a whole
    // number of texels, and a backend that turns the pitch into a row length in texels (vkd3d 1.2:
    // Vulkan's bufferRowLength, rounded down) shifts every row. Use a pitch that is a multiple of both
    // 256 and the texel size instead (768 for 12 bytes): the same layout D3D12 defines, exact everywhere.
    const FormatInfo* fi = FindFormat(desc.Format);
    const uint32_t unit = fi ? (fi->IsBlock() ? fi->blockBytes : fi->bytesPerTexel) : 0;
    if (unit != 0 && f.placed.Footprint.RowPitch % unit != 0) {
        const uint32_t a = D3D12_TEXTURE_DATA_PITCH_ALIGNMENT;
        uint32_t g = a, b = unit;
        while (b != 0) {
            const uint32_t t = g % b;
            g = b;
            b = t;
        }
        const uint64_t step = uint64_t(a) / g * unit;  // lcm(256, unit)
        const uint64_t pitch = (rowBytes + step - 1) / step * step;
        f.placed.Footprint.RowPitch = static_cast<UINT>(pitch);
        f.totalBytes = pitch * (f.rows - 1) + rowBytes;
    }
    return f;
}

size_t Resource::CachedViewCount() const {
    std::lock_guard<std::mutex> lock(m_ViewMutex);
    return m_Views.size() + m_BufferViews.size() + m_CbvRanges.size();
}

void Resource::CheckBufferView(bool uav, const BufferViewDesc& view) const {
    if (!IsBuffer()) throw InvalidArgument("resource '" + m_Name + "' is a texture; buffer views take buffers");
    if (uav && !AllowsUav())
        throw InvalidArgument("resource '" + m_Name + "' was not created with uav=True, so it cannot be bound as an unordered access view");
    const std::string problem = BufferViewProblem(view, m_LogicalSize);
    if (!problem.empty()) throw InvalidArgument("buffer view of resource '" + m_Name + "': " + problem);
}

size_t Resource::CounterUserCount() const {
    std::lock_guard<std::mutex> lock(m_ViewMutex);
    return m_CounterUsers.size();
}

D3D12_CPU_DESCRIPTOR_HANDLE Resource::BufferView(bool uav, const BufferViewDesc& view) {
    CheckBufferView(uav, view);
    const BufferViewKey key{
        uav, static_cast<uint8_t>(view.kind), static_cast<uint32_t>(view.format), view.stride, view.firstElement, view.numElements};
    std::lock_guard<std::mutex> lock(m_ViewMutex);
    auto it = m_BufferViews.find(key);
    if (it != m_BufferViews.end()) return it->second.Handle();
    DescriptorAllocation da = m_Context->CpuDescriptors(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV).Allocate(1);
    WriteBufferView(key, da.Handle());
    const D3D12_CPU_DESCRIPTOR_HANDLE h = da.Handle();
    m_BufferViews.emplace(key, std::move(da));
    return h;
}

D3D12_CPU_DESCRIPTOR_HANDLE Resource::CounterBufferView(const BufferViewDesc& view, const std::shared_ptr<Resource>& counter,
                                                        uint64_t counterOffset) {
    if (view.kind != BufferViewKind::Structured)
        throw InvalidArgument("resource '" + m_Name +
                              "': a UAV counter needs a structured view (D3D12: a counter resource only with a structure stride)");
    CheckBufferView(true, view);  // the view's own checks (no plain view is made: only the counter view is used)
    if (counter.get() == this) {
        // The counter in the view's own buffer (the view as resolved, whether its kind was given or
        // declared by the pipeline): its 4 bytes must lie outside the elements the view covers, or
        // appending overwrites the count and counting overwrites the data.
        const uint64_t first = view.firstElement * view.stride, end = first + uint64_t(view.numElements) * view.stride;
        if (counterOffset < end && counterOffset + 4 > first)
            throw InvalidArgument("set_unordered_access_view: counter_offset=" + std::to_string(counterOffset) +
                                  " lies inside the view's own elements (bytes " + std::to_string(first) + ".." + std::to_string(end) +
                                  " of resource '" + m_Name +
                                  "'); put the counter outside them (first_element=/num_elements=) or in a buffer of its own");
    }
    const BufferViewKey key{
        true, static_cast<uint8_t>(view.kind), static_cast<uint32_t>(view.format), view.stride, view.firstElement, view.numElements};
    const auto counterKey = std::make_tuple(key, counter.get(), counterOffset);
    {
        std::lock_guard<std::mutex> lock(m_ViewMutex);
        auto it = m_CounterViews.find(counterKey);
        if (it != m_CounterViews.end()) return it->second.descriptor.Handle();
    }
    DescriptorAllocation da = m_Context->CpuDescriptors(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV).Allocate(1);
    const D3D12_CPU_DESCRIPTOR_HANDLE h = da.Handle();
    {
        // Registered first: a move of the counter from here on rewrites this view too. Once per
        // user (two threads making the same view, or several views on one counter, register once);
        // users gone are dropped here.
        const std::weak_ptr<Resource> self = weak_from_this();
        std::lock_guard<std::mutex> lock(counter->m_ViewMutex);
        auto& users = counter->m_CounterUsers;
        users.erase(std::remove_if(users.begin(), users.end(), [](const std::weak_ptr<Resource>& w) { return w.expired(); }), users.end());
        const bool known =
            std::any_of(users.begin(), users.end(), [&](const std::weak_ptr<Resource>& w) { return !w.owner_before(self) && !self.owner_before(w); });
        if (!known) users.push_back(self);
    }
    std::lock_guard<std::mutex> lock(m_ViewMutex);
    auto it = m_CounterViews.find(counterKey);
    if (it != m_CounterViews.end()) return it->second.descriptor.Handle();  // another thread made it meanwhile
    WriteCounterView(key, *counter, counterOffset, h);
    m_CounterViews.emplace(counterKey, CounterView{std::move(da), counter});
    return h;
}

void Resource::WriteCounterView(const BufferViewKey& key, const Resource& counter, uint64_t offset, D3D12_CPU_DESCRIPTOR_HANDLE dst) const {
    BufferViewDesc v;
    v.kind = static_cast<BufferViewKind>(std::get<1>(key));
    v.format = static_cast<DXGI_FORMAT>(std::get<2>(key));
    v.stride = std::get<3>(key);
    v.firstElement = std::get<4>(key);
    v.numElements = std::get<5>(key);
    D3D12_UNORDERED_ACCESS_VIEW_DESC d = BufferUavDesc(v);
    d.Buffer.CounterOffsetInBytes = offset;
    m_Context->D3D12Device()->CreateUnorderedAccessView(m_d3d12Resource.Get(), counter.m_d3d12Resource.Get(), &d, dst);
}

void Resource::RewriteCounterViews() {
    std::lock_guard<std::mutex> lock(m_ViewMutex);
    for (const auto& kv : m_CounterViews)
        WriteCounterView(std::get<0>(kv.first), *kv.second.counter, std::get<2>(kv.first), kv.second.descriptor.Handle());
}

void Resource::WriteBufferView(const BufferViewKey& key, D3D12_CPU_DESCRIPTOR_HANDLE dst) const {
    BufferViewDesc v;
    v.kind = static_cast<BufferViewKind>(std::get<1>(key));
    v.format = static_cast<DXGI_FORMAT>(std::get<2>(key));
    v.stride = std::get<3>(key);
    v.firstElement = std::get<4>(key);
    v.numElements = std::get<5>(key);
    if (std::get<0>(key)) {
        const D3D12_UNORDERED_ACCESS_VIEW_DESC d = BufferUavDesc(v);
        m_Context->D3D12Device()->CreateUnorderedAccessView(m_d3d12Resource.Get(), nullptr, &d, dst);
    } else {
        const D3D12_SHADER_RESOURCE_VIEW_DESC d = BufferSrvDesc(v);
        m_Context->D3D12Device()->CreateShaderResourceView(m_d3d12Resource.Get(), &d, dst);
    }
}

D3D12_CPU_DESCRIPTOR_HANDLE Resource::Srv(uint32_t mostDetailedMip, uint32_t mipCount, DXGI_FORMAT format) {
    return GetOrCreateView(ViewKind::SRV, mostDetailedMip, mipCount, format);
}
D3D12_CPU_DESCRIPTOR_HANDLE Resource::Uav(uint32_t mip) {
    return GetOrCreateView(ViewKind::UAV, mip, 0, DXGI_FORMAT_UNKNOWN);
}
D3D12_CPU_DESCRIPTOR_HANDLE Resource::Rtv(uint32_t mip, uint32_t slice) {
    return GetOrCreateView(ViewKind::RTV, mip, slice, DXGI_FORMAT_UNKNOWN);
}
// The DSV key's `b` is 0 for every slice, slice + 1 for one slice.
D3D12_CPU_DESCRIPTOR_HANDLE Resource::Dsv(uint32_t mip, uint32_t arraySlice) {
    return GetOrCreateView(ViewKind::DSV, mip, arraySlice == kAllSlices ? 0 : arraySlice + 1, DXGI_FORMAT_UNKNOWN);
}
D3D12_CPU_DESCRIPTOR_HANDLE Resource::CbvRange(uint64_t offset, uint32_t size, const char* what) {
    const std::string head = std::string(what) + ": ";
    if (!IsBuffer()) throw InvalidArgument(head + "resource '" + m_Name + "' is a texture; a constant buffer view needs a buffer");
    const uint64_t width = m_Desc.Width;  // 256-byte multiple (Device::CreateBuffer)
    if (offset % D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT)
        throw InvalidArgument(head + "offset=" + std::to_string(offset) +
                              " is not a multiple of 256 (D3D12: a constant buffer view starts at a "
                              "256-byte boundary); put each constant block at a multiple of 256 bytes");
    if (size == 0 || size % D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT || size > 65536)
        throw InvalidArgument(head + "size=" + std::to_string(size) +
                              " is not a multiple of 256 between 256 and 65536 (D3D12: a constant buffer "
                              "view's SizeInBytes is a multiple of 256, at most 4096 float4 = 65536 bytes)");
    if (offset > width || size > width - offset)
        throw InvalidArgument(head + "bytes [" + std::to_string(offset) + ", " + std::to_string(offset + size) + ") do not fit buffer '" + m_Name +
                              "' of " + std::to_string(m_LogicalSize) + " bytes (" + std::to_string(width) +
                              " with its 256-byte rounding; D3D12: the view lies within the buffer)");
    std::lock_guard<std::mutex> lock(m_ViewMutex);
    const auto key = std::make_pair(offset, size);
    auto it = m_CbvRanges.find(key);
    if (it != m_CbvRanges.end()) return it->second.Handle();
    DescriptorAllocation da = m_Context->CpuDescriptors(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV).Allocate(1);
    WriteCbvRange(offset, size, da.Handle());
    const D3D12_CPU_DESCRIPTOR_HANDLE h = da.Handle();
    m_CbvRanges.emplace(key, std::move(da));
    return h;
}

void Resource::WriteCbvRange(uint64_t offset, uint32_t size, D3D12_CPU_DESCRIPTOR_HANDLE dst) const {
    D3D12_CONSTANT_BUFFER_VIEW_DESC d{};
    d.BufferLocation = m_GpuAddress + offset;
    d.SizeInBytes = size;
    m_Context->D3D12Device()->CreateConstantBufferView(&d, dst);
}

D3D12_CPU_DESCRIPTOR_HANDLE Resource::Cbv() {
    return GetOrCreateView(ViewKind::CBV, 0, 0, DXGI_FORMAT_UNKNOWN);
}

D3D12_CPU_DESCRIPTOR_HANDLE Resource::GetOrCreateView(ViewKind kind, uint32_t a, uint32_t b, DXGI_FORMAT format) {
    if (format != DXGI_FORMAT_UNKNOWN) {
        // A format override: same cast family as the texture, usable for this kind of view on the
        // device (FormatSupportCache::CheckViewFormat); depth formats become their readable formats.
        static const char* const kWhat[] = {"set_shader_resource_view", "set_unordered_access_view", "render target view", "depth-stencil view",
                                            "constant buffer view"};
        static const D3D12_FORMAT_SUPPORT1 kUse[] = {D3D12_FORMAT_SUPPORT1_SHADER_LOAD, D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW,
                                                     D3D12_FORMAT_SUPPORT1_RENDER_TARGET, D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL,
                                                     D3D12_FORMAT_SUPPORT1_BUFFER};
        const int k = static_cast<int>(kind);
        if (IsBuffer() || kind == ViewKind::CBV)
            throw InvalidArgument(std::string(kWhat[k]) + ": resource '" + m_Name + "' is a buffer; format= applies to texture views");
        format = m_Context->FormatSupport().CheckViewFormat(m_ViewFormat, format, kUse[k], kWhat[k], m_Name);
    }
    const uint64_t key = (uint64_t(kind) << 56) | (uint64_t(a & 0xFFFF) << 40) | (uint64_t(b & 0xFFFF) << 24) | uint64_t(format);

    auto who = [this] { return "resource '" + m_Name + "'"; };  // built only on error paths
    if (!IsBuffer() && kind != ViewKind::CBV) {
        const uint32_t mips = m_Desc.MipLevels;
        if (a >= mips) throw InvalidArgument(who() + ": mip " + std::to_string(a) + " out of range (it has " + std::to_string(mips) + ")");
        if (kind == ViewKind::SRV && b != 0 && b > mips - a)  // a + b > mips without overflow (a < mips here)
            throw InvalidArgument(who() + ": mips " + std::to_string(a) + ".." + std::to_string(a + b - 1) + " out of range");
        if (kind == ViewKind::RTV && b >= (Is3D() ? Depth(a) : ArraySize()))
            throw InvalidArgument(who() + (Is3D() ? ": depth slice " : ": array slice ") + std::to_string(b) + " out of range");
        if (kind == ViewKind::DSV && b > m_Desc.DepthOrArraySize)
            throw InvalidArgument(who() + ": array slice " + std::to_string(b - 1) + " out of range");
    }
    // Looked up only after the range checks: the key keeps 16 bits of mip and slice.
    std::lock_guard<std::mutex> lock(m_ViewMutex);
    auto it = m_Views.find(key);
    if (it != m_Views.end()) return it->second.Handle();
    if (format == DXGI_FORMAT_UNKNOWN && !IsBuffer() && kind != ViewKind::CBV) {
        // The texture's own format: still one the device must support for this kind of view
        // (Device.format_support), checked before the driver sees the view.
        static const char* const kWhat[] = {"shader resource view", "unordered access view", "render target view", "depth-stencil view"};
        static const D3D12_FORMAT_SUPPORT1 kUse[] = {D3D12_FORMAT_SUPPORT1_SHADER_LOAD, D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW,
                                                     D3D12_FORMAT_SUPPORT1_RENDER_TARGET, D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL};
        const int k = static_cast<int>(kind);
        (void)m_Context->FormatSupport().CheckViewFormat(m_ViewFormat, m_ViewFormat, kUse[k], kWhat[k], m_Name);
        if (SampleCount() > 1 && kind == ViewKind::SRV &&
            !m_Context->FormatSupport().Get(DepthSrvFormat(m_ViewFormat)).Has(D3D12_FORMAT_SUPPORT1_MULTISAMPLE_LOAD))
            throw InvalidArgument(who() + ": format " + FormatName(m_ViewFormat) +
                                  " cannot be read from a multisampled texture on this device "
                                  "(no MULTISAMPLE_LOAD support); resolve it first");
    }
    static const D3D12_DESCRIPTOR_HEAP_TYPE kHeap[] = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV,
                                                       D3D12_DESCRIPTOR_HEAP_TYPE_RTV, D3D12_DESCRIPTOR_HEAP_TYPE_DSV,
                                                       D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV};
    DescriptorAllocation da = m_Context->CpuDescriptors(kHeap[static_cast<int>(kind)]).Allocate(1);
    WriteView(kind, a, b, format, da.Handle());
    D3D12_CPU_DESCRIPTOR_HANDLE h = da.Handle();
    m_Views.emplace(key, std::move(da));
    return h;
}

void Resource::WriteView(ViewKind kind, uint32_t a, uint32_t b, DXGI_FORMAT format, D3D12_CPU_DESCRIPTOR_HANDLE dst) const {
    auto who = [this] { return "resource '" + m_Name + "'"; };  // built only on error paths
    if (WriteCubeOr3DView(kind, a, b, format, dst)) return;
    ID3D12Device* dev = m_Context->D3D12Device();
    const bool array = !IsBuffer() && m_Desc.DepthOrArraySize > 1;
    // Multisampled textures have their own view dimensions (TEXTURE2DMS, TEXTURE2DMSARRAY): one
    // mip, no mip fields; HLSL reads them as Texture2DMS<T, N> with Load(pixel, sample).
    const bool ms = !IsBuffer() && m_Desc.SampleDesc.Count > 1;
    switch (kind) {
        case ViewKind::SRV: {
            D3D12_SHADER_RESOURCE_VIEW_DESC d{};
            d.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
            if (IsBuffer()) {
                d.Format = DXGI_FORMAT_R32_TYPELESS;
                d.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
                d.Buffer.NumElements = static_cast<UINT>(m_Desc.Width / 4);
                d.Buffer.Flags = D3D12_BUFFER_SRV_FLAG_RAW;
            } else {
                d.Format = format != DXGI_FORMAT_UNKNOWN ? format : DepthSrvFormat(m_ViewFormat);
                const UINT count = b == 0 ? UINT(-1) : b;
                if (ms && array) {
                    d.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2DMSARRAY;
                    d.Texture2DMSArray.ArraySize = m_Desc.DepthOrArraySize;
                } else if (ms) {
                    d.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2DMS;
                } else if (array) {
                    d.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2DARRAY;
                    d.Texture2DArray.MostDetailedMip = a;
                    d.Texture2DArray.MipLevels = count;
                    d.Texture2DArray.ArraySize = m_Desc.DepthOrArraySize;
                } else {
                    d.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D;
                    d.Texture2D.MostDetailedMip = a;
                    d.Texture2D.MipLevels = count;
                }
            }
            dev->CreateShaderResourceView(m_d3d12Resource.Get(), &d, dst);
            break;
        }
        case ViewKind::UAV: {
            if (!AllowsUav()) throw InvalidArgument(who() + " was not created with uav=True, so it cannot be bound as an unordered access view");
            D3D12_UNORDERED_ACCESS_VIEW_DESC d{};
            if (IsBuffer()) {
                d.Format = DXGI_FORMAT_R32_TYPELESS;
                d.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
                d.Buffer.NumElements = static_cast<UINT>(m_Desc.Width / 4);
                d.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
            } else if (array) {
                d.Format = format != DXGI_FORMAT_UNKNOWN ? format : m_ViewFormat;
                d.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2DARRAY;
                d.Texture2DArray.MipSlice = a;
                d.Texture2DArray.ArraySize = m_Desc.DepthOrArraySize;
            } else {
                d.Format = format != DXGI_FORMAT_UNKNOWN ? format : m_ViewFormat;
                d.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2D;
                d.Texture2D.MipSlice = a;
            }
            dev->CreateUnorderedAccessView(m_d3d12Resource.Get(), nullptr, &d, dst);
            break;
        }
        case ViewKind::RTV: {
            if (!AllowsRenderTarget()) throw InvalidArgument(who() + " was not created with render_target=True");
            D3D12_RENDER_TARGET_VIEW_DESC d{};
            d.Format = format != DXGI_FORMAT_UNKNOWN ? format : m_ViewFormat;
            if (ms && array) {
                d.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DMSARRAY;
                d.Texture2DMSArray.FirstArraySlice = b;
                d.Texture2DMSArray.ArraySize = 1;
            } else if (ms) {
                d.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DMS;
            } else if (array) {
                d.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DARRAY;
                d.Texture2DArray.MipSlice = a;
                d.Texture2DArray.FirstArraySlice = b;
                d.Texture2DArray.ArraySize = 1;
            } else {
                d.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2D;
                d.Texture2D.MipSlice = a;
            }
            dev->CreateRenderTargetView(m_d3d12Resource.Get(), &d, dst);
            break;
        }
        case ViewKind::DSV: {
            if (!AllowsDepthStencil()) throw InvalidArgument(who() + " was not created with depth_stencil=True");
            D3D12_DEPTH_STENCIL_VIEW_DESC d{};
            d.Format = format != DXGI_FORMAT_UNKNOWN ? format : m_ViewFormat;
            // b: 0 = every slice, else slice b - 1 only.
            const UINT first = b ? b - 1 : 0, slices = b ? 1 : m_Desc.DepthOrArraySize;
            if (ms && array) {
                d.ViewDimension = D3D12_DSV_DIMENSION_TEXTURE2DMSARRAY;
                d.Texture2DMSArray.FirstArraySlice = first;
                d.Texture2DMSArray.ArraySize = slices;
            } else if (ms) {
                d.ViewDimension = D3D12_DSV_DIMENSION_TEXTURE2DMS;
            } else if (array) {
                d.ViewDimension = D3D12_DSV_DIMENSION_TEXTURE2DARRAY;
                d.Texture2DArray.MipSlice = a;
                d.Texture2DArray.FirstArraySlice = first;
                d.Texture2DArray.ArraySize = slices;
            } else {
                d.ViewDimension = D3D12_DSV_DIMENSION_TEXTURE2D;
                d.Texture2D.MipSlice = a;
            }
            dev->CreateDepthStencilView(m_d3d12Resource.Get(), &d, dst);
            break;
        }
        case ViewKind::CBV: {
            if (!IsBuffer()) throw InvalidArgument(who() + " is a texture; a constant buffer view needs a buffer");
            if (m_Desc.Width > 65536) throw InvalidArgument(who() + ": a constant buffer view covers at most 65536 bytes");
            D3D12_CONSTANT_BUFFER_VIEW_DESC d{};
            d.BufferLocation = m_GpuAddress;
            d.SizeInBytes = static_cast<UINT>((m_Desc.Width + 255) & ~uint64_t(255));
            dev->CreateConstantBufferView(&d, dst);
            break;
        }
    }
}

void Resource::RewriteViewsLocked() {
    for (const auto& kv : m_Views) {
        const uint64_t key = kv.first;
        WriteView(static_cast<ViewKind>(key >> 56), static_cast<uint32_t>((key >> 40) & 0xFFFF), static_cast<uint32_t>((key >> 24) & 0xFFFF),
                  static_cast<DXGI_FORMAT>(key & 0xFFFFFF), kv.second.Handle());
    }
    for (const auto& kv : m_BufferViews) WriteBufferView(kv.first, kv.second.Handle());
    for (const auto& kv : m_CbvRanges) WriteCbvRange(kv.first.first, kv.first.second, kv.second.Handle());
    for (const auto& kv : m_CounterViews)
        WriteCounterView(std::get<0>(kv.first), *kv.second.counter, std::get<2>(kv.first), kv.second.descriptor.Handle());
}

// ------------------------------------------------------------------------------------ moving

void Resource::BeginUse() const {
    for (;;) {
        uint32_t v = m_Uses.load(std::memory_order_acquire);
        if (v & kMoving) {  // a defragmentation is re-pointing the resource: a few microseconds
            std::this_thread::yield();
            continue;
        }
        if (m_Uses.compare_exchange_weak(v, v + 1, std::memory_order_acq_rel)) return;
    }
}

void Resource::EndUse() const {
    m_Uses.fetch_sub(1, std::memory_order_acq_rel);
}

bool Resource::TryBeginMove() {
    uint32_t idle = 0;
    return m_Uses.compare_exchange_strong(idle, kMoving, std::memory_order_acq_rel);
}

void Resource::EndMove() {
    m_Uses.fetch_and(~kMoving, std::memory_order_acq_rel);
}

namespace {
struct InPlacePin {
    explicit InPlacePin(std::shared_ptr<const Resource> r) : resource(std::move(r)) { resource->BeginUse(); }
    ~InPlacePin() { resource->EndUse(); }
    InPlacePin(const InPlacePin&) = delete;
    InPlacePin& operator=(const InPlacePin&) = delete;
    std::shared_ptr<const Resource> resource;  // the pinned resource lives as long as the pin
};
}  // namespace

std::shared_ptr<void> Resource::PinInPlace() const {
    return std::make_shared<InPlacePin>(shared_from_this());
}

void Resource::Repoint(ComPtr<ID3D12Resource> resource, memory::MemoryAllocation&& memory, ComPtr<ID3D12Resource>& oldResource,
                       memory::MemoryAllocation& oldMemory, uint8_t* mapped) {
    std::vector<std::weak_ptr<Resource>> counterUsers;
    {
        std::lock_guard<std::mutex> lock(m_ViewMutex);
        RepointLocked(std::move(resource), std::move(memory), oldResource, oldMemory, mapped);
        counterUsers = m_CounterUsers;
    }
    // Views of other buffers that count in this one (their locks are taken after this one's is released).
    for (const auto& w : counterUsers)
        if (auto user = w.lock())
            if (user.get() != this) user->RewriteCounterViews();
}

void Resource::RepointLocked(ComPtr<ID3D12Resource> resource, memory::MemoryAllocation&& memory, ComPtr<ID3D12Resource>& oldResource,
                             memory::MemoryAllocation& oldMemory, uint8_t* mapped) {
    oldResource = std::move(m_d3d12Resource);
    oldMemory = std::move(m_Memory);
    m_d3d12Resource = std::move(resource);
    m_Memory = std::move(memory);
    // Only uma_direct buffers are both mapped and movable, and only dx12kit holds their mapping: its
    // accesses read Mapped() under the submission mutex or after pinning, so they see the new one.
    if (m_Mapped) m_Mapped = mapped;
    if (IsBuffer()) m_GpuAddress = m_d3d12Resource->GetGPUVirtualAddress();
    // Same descriptors, new resource: every CPU handle handed out (cached views, handles staged by
    // lists) now describes the moved resource.
    RewriteViewsLocked();
}

}  // namespace dx12kit
