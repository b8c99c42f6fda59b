#include "dx12kit/gpu/CommandList.hpp"

#include "dx12kit/gpu/RootSignatureCheck.hpp"
#include "dx12kit/gpu/SamplerRules.hpp"

#include "dx12kit/base/HostCopy.hpp"

#include "dx12kit/devicecontext/FormatSupport.hpp"
#include "dx12kit/devicecontext/Formats.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/UmaAccess.hpp"
#include "d3dx12/D3dx12Lite.hpp"
#include "dx12kit/platform/HResult.hpp"
#include "dx12kit/resources/D3D12Rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>

namespace dx12kit {

namespace {
std::string Who(const Resource& r) {
    return "resource '" + r.Name() + "'";
}
/// SetShaderResourceView / SetUnorderedAccessView on a texture: a texture's view takes none of the
/// buffer-view arguments, so any of them given is refused rather than ignored. ("Given" is a value
/// other than BufferViewArgs' default: an explicit first_element 0 is indistinguishable from none.)
void RefuseBufferViewArgs(const Resource& texture, const BufferViewArgs& a, const char* what) {
    if (a.stride || a.raw != -1 || a.firstElement || a.numElements != -1)
        throw InvalidArgument(std::string(what) + ": " + Who(texture) +
                              " is a texture; stride=, raw=, first_element= and num_elements= apply to buffers");
    if (a.format != DXGI_FORMAT_UNKNOWN) throw InvalidArgument(std::string(what) + ": format= applies to buffers (typed views)");
}
}  // namespace

CommandList::CommandList(std::shared_ptr<Device> device, std::shared_ptr<CommandQueue> queue, ComPtr<ID3D12CommandAllocator> allocator,
                         ComPtr<ID3D12GraphicsCommandList> list)
    : m_Device(std::move(device)),
      m_Context(m_Device->Context()),
      m_Queue(std::move(queue)),
      m_Allocator(std::move(allocator)),
      m_d3d12List(std::move(list)),
      m_Validate(m_Context->Options().validate),
      m_Tracker(m_Context->Barriers()),
      m_Upload(m_Context->UploadPages()),
      m_ViewDescriptors(m_Context->D3D12Device(), m_Context->ViewHeap(), [dev = m_Device.get()] { return dev->WaitForProgress(); }),
      m_SamplerDescriptors(m_Context->D3D12Device(), m_Context->SamplerHeap(), [dev = m_Device.get()] { return dev->WaitForProgress(); }) {
    m_Tracker.SetValidate(m_Validate);
    m_Tracker.SetDirectWrites(uma::DirectBuffers(*m_Context));
    m_PredicatesCopies = m_Context->Queries().predicatesCopiesAndClears;
    m_CounterOffsets = platform::BackendUavCounterSupport().offsets;
}

void CommandList::SetName(std::string name) {
    m_Name = std::move(name);
    const std::wstring wide(m_Name.begin(), m_Name.end());
    m_d3d12List->SetName(wide.c_str());
}

CommandList::~CommandList() {
    EndUses();
    if (!m_Executed.load() && m_d3d12List) {
        // Never executed: nothing reached the GPU, so everything is reusable at once.
        // (the dynamic descriptor heaps hand their chunks back in their own destructors)
        if (!m_Closed.load()) m_d3d12List->Close();
        m_Queue->ReturnUnused(std::move(m_Allocator), m_Dead ? nullptr : std::move(m_d3d12List));
    }
}

void CommandList::CheckOpen(const char* what) const {
    if (m_Executed.load(std::memory_order_acquire))
        throw UseAfterFree(std::string(what) + ": this command list was already executed; record a new one with queue.command_list()");
    if (m_Dead) throw UseAfterFree(std::string(what) + ": this command list failed to close and cannot be used; record a new one");
    if (m_Closed.load(std::memory_order_acquire))
        throw UseAfterFree(std::string(what) + ": this command list was closed by an execute that failed; execute it again or record a new one");
}

std::unique_lock<OwnerMutex> CommandList::LockRecording() {
    std::unique_lock<OwnerMutex> lock(m_RecordMutex, std::try_to_lock);
    // Held by another thread (recording, or executing this list): wait without holding the GIL.
    if (!lock.owns_lock()) m_Context->Blocking([&] { lock.lock(); });
    return lock;
}

std::unique_lock<OwnerMutex> CommandList::LockForExecute() {
    m_ExecuteWaiting.fetch_add(1, std::memory_order_acq_rel);
    std::unique_lock<OwnerMutex> lock;
    try {
        lock = LockRecording();
    } catch (...) {
        m_ExecuteWaiting.fetch_sub(1, std::memory_order_acq_rel);
        throw;
    }
    m_ExecuteWaiting.fetch_sub(1, std::memory_order_acq_rel);
    return lock;
}

std::unique_lock<OwnerMutex> CommandList::Begin(const char* what) {
    m_Context->CheckNotForked(what);
    // Once per recording call (twice per draw from Python: set_constants, draw): the uncontended
    // case in line (no execute waiting, the lock free or this thread's, the list open); the rest as below.
    if (!m_ExecuteWaiting.load(std::memory_order_acquire) && m_RecordMutex.try_lock()) {
        std::unique_lock<OwnerMutex> lock(m_RecordMutex, std::adopt_lock);
        if (m_Executed.load(std::memory_order_acquire) || m_Dead || m_Closed.load(std::memory_order_acquire)) CheckOpen(what);
        return lock;
    }
    // Recording calls let an execute that waits for the lock go first, except on a thread that holds
    // the lock already (a recording call inside another, e.g. upload -> copy, or inside an execute):
    // the waiting execute could never get the lock that thread holds. The recursive OwnerMutex knows
    // its owner, so "is it me?" is asked only while an execute waits.
    if (m_ExecuteWaiting.load(std::memory_order_acquire) && !m_RecordMutex.HeldByMe())
        m_Context->Blocking([&] {
            while (m_ExecuteWaiting.load(std::memory_order_acquire)) std::this_thread::yield();
        });
    std::unique_lock<OwnerMutex> lock = LockRecording();
    CheckOpen(what);
    return lock;
}

void CommandList::CheckQueueState(D3D12_RESOURCE_STATES state, const Resource& r, const char* what) const {
    if (const char* why = d3d12rules::InvalidStateReason(state))
        throw InvalidArgument(std::string(what) + ": state " + StateName(state) + " for " + Who(r) + " " + why);
    const D3D12_COMMAND_LIST_TYPE t = m_Queue->Type();
    if (!d3d12rules::QueueSupportsState(t, state))
        throw InvalidArgument(std::string(what) + ": a " + d3d12rules::QueueTypeName(t) + "-queue list cannot put " + Who(r) + " in state " +
                              StateName(state) + " (D3D12 allows only " + StateName(D3D12_RESOURCE_STATES(d3d12rules::QueueStates(t))) +
                              " and COMMON there)");
}

void CommandList::CheckNotCopy(const char* what) const {
    if (m_Queue->Type() == D3D12_COMMAND_LIST_TYPE_COPY)
        throw InvalidArgument(std::string(what) + ": a copy-queue list records only copies (use a direct or compute queue)");
}

void CommandList::CheckSameDevice(const Resource& r, const char* what) const {
    r.CheckNotClosed(what);  // before any state changes (the tracker checks again as a backstop)
    if (&r.Context() != m_Context.get()) throw InvalidArgument(std::string(what) + ": " + Who(r) + " belongs to another device");
    NoteUse(r);
}

void CommandList::NoteUse(const Resource& r) const {
    // Defragmentation moves no resource an open list uses (Resource::BeginUse/TryBeginMove).
    if (m_Users.count(&r)) return;
    r.BeginUse();
    m_Users.emplace(&r, r.shared_from_this());
}

void CommandList::EndUses() {
    for (auto& kv : m_Users) kv.second->EndUse();
    m_Users.clear();
}

void CommandList::CheckCopyDest(const Resource& r, const char* what) const {
    if (r.HeapType() == D3D12_HEAP_TYPE_UPLOAD)
        throw InvalidArgument(std::string(what) + ": " + Who(r) + " is in an UPLOAD heap, which the GPU cannot write");
}

void CommandList::CheckCopySource(const Resource& r, const char* what) const {
    if (r.HeapType() == D3D12_HEAP_TYPE_READBACK)
        throw InvalidArgument(std::string(what) + ": " + Who(r) + " is in a READBACK heap, which the GPU cannot read from");
}

void CommandList::CheckGraphics(const char* what) const {
    if (m_Queue->Type() != D3D12_COMMAND_LIST_TYPE_DIRECT)
        throw InvalidArgument(std::string(what) + ": graphics work needs a list of the direct queue (this one is for the " +
                              d3d12rules::QueueTypeName(m_Queue->Type()) + " queue)");
}

void CommandList::CheckSingleSample(const Resource& r, const char* what) const {
    // D3D12 CopyTextureRegion: multisampled subresources cannot be copied to or from buffers.
    if (!r.IsBuffer() && r.SampleCount() > 1)
        throw InvalidArgument(std::string(what) + ": " + Who(r) + " is multisampled (" + std::to_string(r.SampleCount()) +
                              " samples); resolve it into a single-sample texture first (CommandList.resolve)");
}

// ---------------------------------------------------------------------------------- copies

void CommandList::NoteFullWrite(const Resource& r, bool whole) {
    // Only a first use counts: an earlier use in this list might have read the zeros.
    if (whole && !m_Tracker.Touches(&r)) m_FullyWritten.insert(&r);
}

void CommandList::ContentsInitialized(const Resource& r, uint32_t sub) {
    if (m_Tracker.TracksContents(r)) m_Tracker.NoteInitialized(&r, sub);
}

void CommandList::ContentsUsed(const Resource& r, uint32_t firstMip, uint32_t mipCount, uint32_t planes, const char* op) {
    if (r.IsBuffer() || !m_Tracker.TracksContents(r)) return;
    const uint32_t end = mipCount == 0 ? r.MipLevels() : std::min(r.MipLevels(), firstMip + mipCount);
    for (uint32_t plane = 0; plane < r.PlaneCount(); ++plane) {
        if (!((planes >> plane) & 1u)) continue;
        for (uint32_t slice = 0; slice < r.ArraySize(); ++slice)
            for (uint32_t m = firstMip; m < end; ++m) m_Tracker.NoteContentsUse(&r, r.Subresource(m, slice, plane), op);
    }
}

void CommandList::Upload(const std::shared_ptr<Resource>& dst, const void* data, uint64_t bytes, uint32_t mip, uint32_t arraySlice,
                         uint64_t dstOffset, const char* what) {
    const auto recording = Begin(what);
    CheckPredicatable(what);
    CheckSameDevice(*dst, what);
    if (bytes == 0) throw InvalidArgument(std::string(what) + ": no data (0 bytes) for " + Who(*dst));
    if (dst->HeapType() == D3D12_HEAP_TYPE_UPLOAD || dst->HeapType() == D3D12_HEAP_TYPE_READBACK)
        throw InvalidArgument(std::string(what) + ": " + Who(*dst) + " is not in a DEFAULT heap");
    if (dst->IsBuffer()) {
        if (dstOffset > dst->Size() || bytes > dst->Size() - dstOffset)
            throw InvalidArgument(std::string(what) + ": " + std::to_string(bytes) + " bytes at offset " + std::to_string(dstOffset) +
                                  " do not fit " + Who(*dst) + " of " + std::to_string(dst->Size()) + " bytes");
        UploadAllocation a = m_Upload.Allocate(bytes, 16);
        host::Copy(a.cpu, data, static_cast<size_t>(bytes));
        if (uma::ReadsDirectly(*dst)) {
            // Written at execute (UmaAccess.hpp) when nothing in this list used the buffer before,
            // or only earlier pending writes did (then they all come first, in order).
            const uint64_t stamp = m_Tracker.UseStamp(dst.get());
            auto it = m_PendingStamps.find(dst.get());
            if (stamp == 0 || (it != m_PendingStamps.end() && it->second == stamp)) {
                // COPY_DEST before the list: the state the GPU copy of the fallback needs (and
                // what a staged upload would leave); later uses in the list transition from it.
                m_Tracker.Transition(dst, D3D12_RESOURCE_STATE_COPY_DEST);
                m_PendingWrites.push_back(PendingWrite{dst, dstOffset, a});
                m_PendingStamps[dst.get()] = m_Tracker.UseStamp(dst.get());
                return;
            }
        }
        NoteFullWrite(*dst, dstOffset == 0 && bytes == dst->Desc().Width);  // the D3D12 buffer is rounded up to 256 bytes
        CopyFromUpload(dst, a, 0, 0, dstOffset);
        return;
    }
    CheckSingleSample(*dst, what);
    auto& tex = static_cast<Texture&>(*dst);
    tex.CheckMipSlice(mip, arraySlice, what);
    const FormatInfo& fi = RequireTextureFormat(tex.ViewFormat(), what);
    const uint64_t expected = SubresourceBytes(fi, tex.Width(mip), tex.Height(mip), tex.Depth(mip));
    if (bytes != expected)
        throw InvalidArgument(std::string(what) + ": " + Who(*dst) + " mip " + std::to_string(mip) + " is " + std::to_string(tex.Width(mip)) + "x" +
                              std::to_string(tex.Height(mip)) + (tex.Is3D() ? "x" + std::to_string(tex.Depth(mip)) : std::string()) + " " + fi.name +
                              " = " + std::to_string(expected) + " bytes" +
                              (fi.IsBlock()
                                   ? " (" + std::to_string(RowCount(fi, tex.Height(mip))) + " rows of " + std::to_string((tex.Width(mip) + 3) / 4) +
                                         " 4x4 blocks of " + std::to_string(fi.blockBytes) + " bytes)"
                                   : std::string()) +
                              ", got " + std::to_string(bytes));
    const TextureFootprint f = tex.Footprint(mip, arraySlice);
    UploadAllocation a = m_Upload.Allocate(f.totalBytes, D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT);
    host::CopyRows(a.cpu, f.placed.Footprint.RowPitch, data, f.rowBytes, f.rowBytes, f.rows);
    NoteFullWrite(*dst, tex.NumSubresources() == 1);
    CopyFromUpload(dst, a, mip, arraySlice, 0);
}

void CommandList::CopyFromUpload(const std::shared_ptr<Resource>& dst, const UploadAllocation& src, uint32_t mip, uint32_t arraySlice,
                                 uint64_t dstOffset) {
    const auto recording = Begin("copy");
    CheckPredicatable("copy");
    CheckSameDevice(*dst, "copy");
    CheckCopyDest(*dst, "copy");
    if (!dst->IsBuffer()) dst->CheckMipSlice(mip, arraySlice, "copy");
    CheckSingleSample(*dst, "copy");
    if (dst->IsBuffer()) {
        if (dstOffset > dst->Size() || src.size > dst->Size() - dstOffset) throw InvalidArgument("copy: data does not fit " + Who(*dst));
        m_Tracker.Transition(dst, D3D12_RESOURCE_STATE_COPY_DEST);
        Flush();
        if (m_Validate) ValidateResource("copy", dst.get());
        m_d3d12List->CopyBufferRegion(dst->D3D12Resource(), dstOffset, src.resource, src.offset, src.size);
        return;
    }
    auto& tex = static_cast<Texture&>(*dst);
    const uint32_t sub = d3dx::CalcSubresource(mip, arraySlice, tex.MipLevels());
    const TextureFootprint f = tex.Footprint(mip, arraySlice, src.offset);
    const D3D12_PLACED_SUBRESOURCE_FOOTPRINT& fp = f.placed;
    if (f.totalBytes > src.size)
        throw InvalidArgument("copy: the upload allocation is smaller than " + Who(*dst) + " mip " + std::to_string(mip) +
                              " with 256-byte row pitch");
    m_Tracker.Transition(dst, D3D12_RESOURCE_STATE_COPY_DEST, sub);
    ContentsInitialized(*dst, sub);  // the whole subresource
    Flush();
    if (m_Validate) ValidateResource("copy", dst.get());
    D3D12_TEXTURE_COPY_LOCATION d = d3dx::SubresourceLocation(dst->D3D12Resource(), sub);
    D3D12_TEXTURE_COPY_LOCATION s = d3dx::FootprintLocation(src.resource, fp);
    m_d3d12List->CopyTextureRegion(&d, 0, 0, 0, &s, nullptr);
}

void CommandList::CopyResource(const std::shared_ptr<Resource>& dst, const std::shared_ptr<Resource>& src) {
    const auto recording = Begin("copy_resource");
    CheckPredicatable("copy_resource");
    CheckSameDevice(*dst, "copy_resource");
    CheckSameDevice(*src, "copy_resource");
    if (dst == src) throw InvalidArgument("copy_resource: source and destination are the same " + Who(*dst));
    CheckCopyDest(*dst, "copy_resource");
    CheckCopySource(*src, "copy_resource");
    const auto& a = dst->Desc();
    const auto& b = src->Desc();
    if (a.Dimension != b.Dimension || a.Width != b.Width || a.Height != b.Height || a.DepthOrArraySize != b.DepthOrArraySize ||
        a.MipLevels != b.MipLevels || a.Format != b.Format || a.SampleDesc.Count != b.SampleDesc.Count)
        throw InvalidArgument("copy_resource: " + Who(*dst) + " and " + Who(*src) + " differ in size, format or layout");
    NoteFullWrite(*dst, true);
    m_Tracker.Transition(dst, D3D12_RESOURCE_STATE_COPY_DEST);
    m_Tracker.Transition(src, D3D12_RESOURCE_STATE_COPY_SOURCE);
    ContentsUsed(*src, 0, 0, ~0u, "copy_resource (source)");
    for (uint32_t i = 0; i < dst->NumSubresources(); ++i) ContentsInitialized(*dst, i);
    Flush();
    if (m_Validate) {
        ValidateResource("copy_resource", dst.get());
        ValidateResource("copy_resource", src.get());
    }
    m_d3d12List->CopyResource(dst->D3D12Resource(), src->D3D12Resource());
}

void CommandList::CopyBufferRegion(const std::shared_ptr<Resource>& dst, uint64_t dstOffset, const std::shared_ptr<Resource>& src, uint64_t srcOffset,
                                   uint64_t bytes) {
    const auto recording = Begin("copy_buffer_region");
    CheckPredicatable("copy_buffer_region");
    CheckSameDevice(*dst, "copy_buffer_region");
    CheckSameDevice(*src, "copy_buffer_region");
    if (!dst->IsBuffer() || !src->IsBuffer()) throw InvalidArgument("copy_buffer_region: both resources must be buffers");
    if (bytes == 0) throw InvalidArgument("copy_buffer_region: 0 bytes");
    if (dstOffset > dst->Size() || bytes > dst->Size() - dstOffset || srcOffset > src->Size() || bytes > src->Size() - srcOffset)
        throw InvalidArgument("copy_buffer_region: range out of bounds of " + Who(*dst) + " or " + Who(*src));
    if (dst == src) throw InvalidArgument("copy_buffer_region: source and destination are the same buffer");
    CheckCopyDest(*dst, "copy_buffer_region");
    CheckCopySource(*src, "copy_buffer_region");
    m_Tracker.Transition(dst, D3D12_RESOURCE_STATE_COPY_DEST);
    m_Tracker.Transition(src, D3D12_RESOURCE_STATE_COPY_SOURCE);
    Flush();
    if (m_Validate) {
        ValidateResource("copy_buffer_region", dst.get());
        ValidateResource("copy_buffer_region", src.get());
    }
    m_d3d12List->CopyBufferRegion(dst->D3D12Resource(), dstOffset, src->D3D12Resource(), srcOffset, bytes);
}

D3D12_PLACED_SUBRESOURCE_FOOTPRINT CommandList::CopyTextureToBuffer(const std::shared_ptr<Resource>& dstBuffer, const std::shared_ptr<Resource>& src,
                                                                    uint32_t mip, uint32_t arraySlice) {
    const auto recording = Begin("copy_texture_to_buffer");
    CheckPredicatable("copy_texture_to_buffer");
    if (src->IsBuffer()) throw InvalidArgument("copy_texture_to_buffer: " + Who(*src) + " is not a texture");
    src->CheckMipSlice(mip, arraySlice, "read");
    CheckSingleSample(*src, "read_texture");
    const uint32_t sub = d3dx::CalcSubresource(mip, arraySlice, src->MipLevels());
    const TextureFootprint f = static_cast<const Texture&>(*src).Footprint(mip, arraySlice);
    const D3D12_PLACED_SUBRESOURCE_FOOTPRINT& fp = f.placed;
    if (f.totalBytes > dstBuffer->Desc().Width) throw InvalidArgument("copy_texture_to_buffer: buffer too small");
    m_Tracker.Transition(src, D3D12_RESOURCE_STATE_COPY_SOURCE, sub);
    m_Tracker.Transition(dstBuffer, D3D12_RESOURCE_STATE_COPY_DEST);
    if (m_Tracker.TracksContents(*src)) m_Tracker.NoteContentsUse(src.get(), sub, "read_texture");
    Flush();
    if (m_Validate) {
        ValidateResource("read_texture", src.get());
        ValidateResource("read_texture", dstBuffer.get());
    }
    D3D12_TEXTURE_COPY_LOCATION d = d3dx::FootprintLocation(dstBuffer->D3D12Resource(), fp);
    D3D12_TEXTURE_COPY_LOCATION s = d3dx::SubresourceLocation(src->D3D12Resource(), sub);
    m_d3d12List->CopyTextureRegion(&d, 0, 0, 0, &s, nullptr);
    return fp;
}

void CommandList::Resolve(const std::shared_ptr<Resource>& dst, const std::shared_ptr<Resource>& src, uint32_t dstSub, uint32_t srcSub,
                          DXGI_FORMAT format) {
    const auto recording = Begin("resolve");
    CheckPredicatable("resolve");
    CheckGraphics("resolve");
    CheckSameDevice(*dst, "resolve");
    CheckSameDevice(*src, "resolve");
    // ID3D12GraphicsCommandList::ResolveSubresource: src multisampled, dst single-sample, same
    // subresource size, `Format` compatible with both (a member of both families; typed when
    // either resource is typeless, which dx12kit's textures are) and supporting MULTISAMPLE_RESOLVE.
    if (dst->IsBuffer() || src->IsBuffer()) throw InvalidArgument("resolve: both resources must be textures");
    if (dst == src) throw InvalidArgument("resolve: source and destination are the same " + Who(*dst));
    if (src->SampleCount() < 2) throw InvalidArgument("resolve: the source " + Who(*src) + " is not multisampled (create it with sample_count > 1)");
    if (dst->SampleCount() != 1)
        throw InvalidArgument("resolve: the destination " + Who(*dst) + " is multisampled (" + std::to_string(dst->SampleCount()) +
                              " samples); it must have sample_count=1");
    CheckCopyDest(*dst, "resolve");
    if (dstSub >= dst->NumSubresources() || srcSub >= src->NumSubresources())
        throw InvalidArgument("resolve: subresource out of range (dst_subresource " + std::to_string(dstSub) + " of " +
                              std::to_string(dst->NumSubresources()) + ", src_subresource " + std::to_string(srcSub) + " of " +
                              std::to_string(src->NumSubresources()) + ")");
    const auto& d = static_cast<const Texture&>(*dst);
    const auto& sTex = static_cast<const Texture&>(*src);
    const uint32_t dstMip = dstSub % dst->MipLevels(), srcMip = srcSub % src->MipLevels();
    if (d.Width(dstMip) != sTex.Width(srcMip) || d.Height(dstMip) != sTex.Height(srcMip))
        throw InvalidArgument("resolve: sizes differ: " + Who(*src) + " is " + std::to_string(sTex.Width(srcMip)) + "x" +
                              std::to_string(sTex.Height(srcMip)) + ", " + Who(*dst) + " subresource " + std::to_string(dstSub) + " is " +
                              std::to_string(d.Width(dstMip)) + "x" + std::to_string(d.Height(dstMip)));
    if (format == DXGI_FORMAT_UNKNOWN) format = src->ViewFormat();
    const DXGI_FORMAT srcFormat = src->ViewFormat(), dstFormat = dst->ViewFormat();
    if (!CastCompatible(srcFormat, format) || !CastCompatible(dstFormat, format))
        throw InvalidArgument("resolve: format " + FormatName(format) + " must be compatible with both " + Who(*src) + " (" + FormatName(srcFormat) +
                              ") and " + Who(*dst) + " (" + FormatName(dstFormat) + ")");
    // D3D12's format support tables list MULTISAMPLE_RESOLVE for no depth and no integer format,
    // whatever a driver reports (vkd3d 1.2 claims it for d32_float, then cannot do it).
    if (IsDepth(format) || IsInteger(format) || !m_Context->FormatSupport().Get(format).Has(D3D12_FORMAT_SUPPORT1_MULTISAMPLE_RESOLVE))
        throw InvalidArgument("resolve: format " + FormatName(format) +
                              " cannot be resolved on this device (no MULTISAMPLE_RESOLVE "
                              "support; depth and integer formats never can)");
    NoteFullWrite(*dst, dst->NumSubresources() == 1);
    m_Tracker.Transition(dst, D3D12_RESOURCE_STATE_RESOLVE_DEST, dstSub);
    m_Tracker.Transition(src, D3D12_RESOURCE_STATE_RESOLVE_SOURCE, srcSub);
    if (m_Tracker.TracksContents(*src)) m_Tracker.NoteContentsUse(src.get(), srcSub, "resolve (source)");
    ContentsInitialized(*dst, dstSub);  // every texel of the subresource
    Flush();
    if (m_Validate) {
        ValidateResource("resolve", dst.get());
        ValidateResource("resolve", src.get());
    }
    m_d3d12List->ResolveSubresource(dst->D3D12Resource(), dstSub, src->D3D12Resource(), srcSub, format);
}

// ---------------------------------------------------------------------------------- barriers

void CommandList::TransitionBarrier(const std::shared_ptr<Resource>& r, D3D12_RESOURCE_STATES state, uint32_t sub) {
    const auto recording = Begin("transition_barrier");
    CheckSameDevice(*r, "transition_barrier");
    r->CheckSubresource(sub);
    CheckQueueState(state, *r, "transition_barrier");
    m_Tracker.Transition(r, state, sub, /*exact=*/true);  // what the caller asked for, even a narrower read
}

void CommandList::UavBarrier(const std::shared_ptr<Resource>& r) {
    const auto recording = Begin("uav_barrier");
    if (r) CheckSameDevice(*r, "uav_barrier");
    m_Tracker.UavBarrier(r);
}

void CommandList::AliasingBarrier(const std::shared_ptr<Resource>& before, const std::shared_ptr<Resource>& after, D3D12_RESOURCE_STATES parkState) {
    const auto recording = Begin("aliasing_barrier");
    if (before) CheckSameDevice(*before, "aliasing_barrier");
    if (after) CheckSameDevice(*after, "aliasing_barrier");
    m_Tracker.AliasingBarrier(before, after, parkState);
}

void CommandList::RawTransition(const std::shared_ptr<Resource>& r, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after, uint32_t sub) {
    const auto recording = Begin("raw_transition");
    CheckSameDevice(*r, "raw_transition");
    r->CheckSubresource(sub);
    CheckQueueState(before, *r, "raw_transition (before)");
    CheckQueueState(after, *r, "raw_transition (after)");
    Flush();
    m_Tracker.Transition(r, m_Tracker.KnownState(r.get(), sub) == kUnknownState ? before : m_Tracker.KnownState(r.get(), sub), sub);
    Flush();
    // At execute the GPU's state (after), not the tracker's belief, becomes the global state.
    const D3D12_RESOURCE_STATES believed = m_Tracker.KnownState(r.get(), sub);
    if (believed != kUnknownState) m_Tracker.NoteRawTransition(r.get(), sub, believed, after);
    // Record the barrier behind the tracker's back: the tracker still believes `before`.
    D3D12_RESOURCE_BARRIER b = d3dx::TransitionBarrier(r->D3D12Resource(), before, after, sub);
    m_d3d12List->ResourceBarrier(1, &b);
    auto it = m_Shadow.find(r.get());
    if (it == m_Shadow.end()) it = m_Shadow.emplace(r.get(), SubresourceStates(r->NumSubresources(), kUnknownState)).first;
    it->second.Set(sub, after);
    m_Tracked.push_back(r);
}

// ----------------------------------------------------------------------- pipeline and root

void CommandList::SetPipelineState(const std::shared_ptr<PipelineState>& pso) {
    const auto recording = Begin("set_pipeline_state");
    if (!pso) throw InvalidArgument("set_pipeline_state: None");
    if (pso == m_Pipeline) return;
    if (pso->Context() != m_Context.get()) throw InvalidArgument("set_pipeline_state: the pipeline belongs to another device");
    if (m_Queue->Type() == D3D12_COMMAND_LIST_TYPE_COPY) throw InvalidArgument("set_pipeline_state: a copy-queue list cannot bind pipelines");
    if (!pso->IsCompute()) CheckGraphics("set_pipeline_state (graphics pipeline)");
    const bool newRoot = !m_Pipeline || m_Pipeline->GetRootSignature() != pso->GetRootSignature() || m_Compute != pso->IsCompute();
    // Same root signature, other bind point: the table slots set so far belong to the bind point left
    // (noted for CheckTableSlots' message only).
    const bool otherBindPoint = m_Pipeline && m_Pipeline->GetRootSignature() == pso->GetRootSignature() && m_Compute != pso->IsCompute();
    if (otherBindPoint) NoteSlotsLeftOnBindPoint();
    else if (newRoot) m_SlotsLeftOnBindPoint = {};
    if (m_Pipeline) m_PipelineUnboundBy = nullptr;  // kept only while set_pipeline_state follows a built-in's unbinding
    m_Pipeline = pso;
    m_TargetsMatch = false;
    m_SlotChecks = kCheckAllSlots;
    m_Tracked.push_back(pso);
    m_Compute = pso->IsCompute();
    m_d3d12List->SetPipelineState(pso->D3D12PipelineState());
    if (!m_Compute) m_d3d12List->IASetPrimitiveTopology(pso->Topology());
    if (newRoot) {
        const RootSignature& rs = *pso->GetRootSignature();
        m_RootSignature = &rs;
        if (m_Compute) m_d3d12List->SetComputeRootSignature(rs.D3D12RootSignature());
        else m_d3d12List->SetGraphicsRootSignature(rs.D3D12RootSignature());
        m_ViewDescriptors.ParseRootSignature(rs.Tables());
        m_SamplerDescriptors.ParseRootSignature(rs.Tables());
        ForgetRootArguments("set_pipeline_state");
    } else {
        FollowDeclaredBufferViews();
    }
}

void CommandList::NoteSlotsLeftOnBindPoint() {
    std::vector<uint64_t>& left = m_SlotsLeftOnBindPoint[m_Compute ? 1 : 0];
    left.clear();
    for (const auto& kv : m_Bindings)
        if ((kv.first >> 32) < 64 && uint32_t(kv.first) != 0xFFFFFFFFu && !(uint32_t(kv.first) & kCounterSlotBit)) left.push_back(kv.first);
}

void CommandList::ForgetRootArguments(const char* by) {
    // Root arguments are gone with the old root signature (D3D12: "root signature changes clear
    // all root arguments"); vertex and index buffers stay bound.
    m_RootArgsClearedBy = by;
    m_SlotChecks = kCheckAllSlots;
    m_TableSamplers.clear();  // (the sampler tables' staged descriptors went with the root signature)
    m_RootArgsSet = 0;
    m_RootViewsNulled = 0;
    m_ConstantsSet.fill(0);
    m_LastConstants = ConstantsCall{};
    for (auto it = m_Bindings.begin(); it != m_Bindings.end();) {
        if ((it->first >> 32) < 64) it = m_Bindings.erase(it);
        else ++it;
    }
}

void CommandList::UnbindPipeline(const char* by) {
    m_Pipeline.reset();
    m_TargetsMatch = false;
    m_RootSignature = nullptr;
    m_PipelineUnboundBy = by;
    ForgetRootArguments(by);
}

std::string CommandList::RootArgumentsClearedBy() const {
    // Which call cleared the root arguments, for CheckRootArguments' errors (built only on error).
    const std::string by = m_RootArgsClearedBy;
    if (by == "set_pipeline_state") {
        if (m_PipelineUnboundBy)
            return std::string("since set_pipeline_state bound the root signature again after ") + m_PipelineUnboundBy +
                   " (which runs its own pipeline and leaves none bound; a root signature change clears every root argument)";
        return "since set_pipeline_state bound the root signature (a root signature change clears every root argument)";
    }
    return "since " + by +
           " bound the pipeline's root signature again after its built-in compute pass (on a list whose bound "
           "pipeline is a compute pipeline this clears every root argument, as a root signature change does); set it again after " +
           by;
}

const RootSignature& CommandList::BoundRootSignature(const char* what) const {
    if (!m_RootSignature) throw InvalidArgument(std::string(what) + ": no pipeline is set; call set_pipeline_state first");
    return *m_RootSignature;
}

void CommandList::CheckConstants(uint32_t rootIndex, uint32_t count, uint32_t offset, const char* what) const {
    const RootParameterDesc& p = BoundRootSignature(what).Require(rootIndex, RootParamKind::Constants, what);
    if (count == 0) throw InvalidArgument(std::string(what) + ": no values");
    // Overflow-safe form of offset + count > num32BitValues (offset and count come from the user).
    if (count > p.num32BitValues || offset > p.num32BitValues - count)
        throw InvalidArgument(std::string(what) + ": " + std::to_string(count) + " values at offset " + std::to_string(offset) + " exceed the " +
                              std::to_string(p.num32BitValues) + " constants of root parameter " + std::to_string(rootIndex));
}

void CommandList::SetConstants(uint32_t rootIndex, const uint32_t* values, uint32_t count, uint32_t offset) {
    const auto recording = Begin("set_constants");
    const bool same = rootIndex == m_LastConstants.rootIndex && count == m_LastConstants.count && offset == m_LastConstants.offset;
    if (!same) CheckConstants(rootIndex, count, offset, "set_constants");
    if (m_Compute) m_d3d12List->SetComputeRoot32BitConstants(rootIndex, count, values, offset);
    else m_d3d12List->SetGraphicsRoot32BitConstants(rootIndex, count, values, offset);
    if (!same) {
        NoteConstants(rootIndex, count, offset);
        m_LastConstants = ConstantsCall{rootIndex, count, offset};
    }
}

void CommandList::SetRootView(RootParamKind kind, uint32_t rootIndex, const std::shared_ptr<Resource>& buffer, uint64_t offset) {
    const char* what = kind == RootParamKind::Cbv ? "set_root_cbv" : kind == RootParamKind::Srv ? "set_root_srv" : "set_root_uav";
    const auto recording = Begin(what);
    BoundRootSignature(what).Require(rootIndex, kind, what);
    CheckSameDevice(*buffer, what);
    if (!buffer->IsBuffer()) throw InvalidArgument(std::string(what) + ": " + Who(*buffer) + " is a texture; root views take buffers");
    if (offset >= buffer->Desc().Width) throw InvalidArgument(std::string(what) + ": offset past the end of " + Who(*buffer));
    if (kind == RootParamKind::Cbv && (offset % 256)) throw InvalidArgument(std::string(what) + ": offset must be a multiple of 256");
    if (kind == RootParamKind::Uav && !buffer->AllowsUav())
        throw InvalidArgument(std::string(what) + ": " + Who(*buffer) + " was not created with uav=True");
    D3D12_RESOURCE_STATES state = kind == RootParamKind::Cbv   ? D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER
                                  : kind == RootParamKind::Srv ? SrvState(rootIndex)
                                                               : D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    if (buffer->HeapType() == D3D12_HEAP_TYPE_UPLOAD) state = D3D12_RESOURCE_STATE_GENERIC_READ;
    PutBinding((uint64_t(rootIndex) << 32) | 0xFFFFFFFFu, Binding{buffer, state, 0, 0, kind == RootParamKind::Uav});
    if (kind == RootParamKind::Cbv && rootIndex < 64)
        m_RootCbvBytes[rootIndex] = uint32_t(std::min<uint64_t>(buffer->Size() > offset ? buffer->Size() - offset : 0, UINT32_MAX));
    NoteRootArgument(rootIndex);
    const D3D12_GPU_VIRTUAL_ADDRESS va = buffer->GpuAddress() + offset;
    if (m_Compute) {
        if (kind == RootParamKind::Cbv) m_d3d12List->SetComputeRootConstantBufferView(rootIndex, va);
        else if (kind == RootParamKind::Srv) m_d3d12List->SetComputeRootShaderResourceView(rootIndex, va);
        else m_d3d12List->SetComputeRootUnorderedAccessView(rootIndex, va);
    } else {
        if (kind == RootParamKind::Cbv) m_d3d12List->SetGraphicsRootConstantBufferView(rootIndex, va);
        else if (kind == RootParamKind::Srv) m_d3d12List->SetGraphicsRootShaderResourceView(rootIndex, va);
        else m_d3d12List->SetGraphicsRootUnorderedAccessView(rootIndex, va);
    }
}

D3D12_RESOURCE_STATES CommandList::SrvState(uint32_t rootIndex) const {
    if (m_Compute) return D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE;
    if (m_RootSignature && rootIndex < m_RootSignature->Parameters().size() &&
        m_RootSignature->Parameters()[rootIndex].visibility == D3D12_SHADER_VISIBILITY_PIXEL)
        return D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE;
    return D3D12_RESOURCE_STATES(D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE | D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
}

// -------------------------------------------------------------------------- descriptor tables

BufferViewDesc CommandList::ResolveBufferViewAt(bool uav, uint32_t rootIndex, uint32_t offset, const Resource& buffer, const BufferViewArgs& args,
                                                const char* what) const {
    const ShaderBinding* declared = m_Pipeline ? m_Pipeline->RootUse().SlotDeclaration(rootIndex, offset) : nullptr;
    auto where = [&] { return std::string(what) + " (root parameter " + std::to_string(rootIndex) + ", slot " + std::to_string(offset) + "): "; };
    if (declared && declared->kind != (uav ? BindingKind::Uav : BindingKind::Srv))
        throw InvalidArgument(where() + "the bound pipeline's shader reads " + declared->RegisterName() + " there");
    if (declared && !declared->IsStructuredBuffer() && !declared->IsRawBuffer() && !declared->IsTypedBuffer())
        throw InvalidArgument(where() + "the bound pipeline's shader declares " + declared->TypeName() + " '" + declared->name + "' at " +
                              declared->RegisterName() + " there, which is not a buffer");
    return ResolveBufferView(what, rootIndex, offset, uav, args, declared, buffer.Size(), m_Validate, &m_Context->FormatSupport());
}

void CommandList::SetShaderResourceView(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& r, uint32_t mip, uint32_t mipCount,
                                        DXGI_FORMAT format, const BufferViewArgs& buffer) {
    const auto recording = Begin("set_shader_resource_view");
    BoundRootSignature("set_shader_resource_view");
    CheckSameDevice(*r, "set_shader_resource_view");
    D3D12_CPU_DESCRIPTOR_HANDLE h;
    if (r->IsBuffer()) {
        if (mip || mipCount) throw InvalidArgument("set_shader_resource_view: " + Who(*r) + " is a buffer; mip= applies to textures");
        BufferViewArgs args = buffer;
        if (format != DXGI_FORMAT_UNKNOWN) args.format = format;
        StageBufferView(false, rootIndex, offset, r, args, SrvState(rootIndex), "set_shader_resource_view");
        return;
    }
    RefuseBufferViewArgs(*r, buffer, "set_shader_resource_view");
    h = r->Srv(mip, mipCount, format);  // the resource's own checks (mips, uav=True, format) first
    const std::string problem = TextureDeclarationProblem(false, rootIndex, offset, *r);
    if (!problem.empty())
        throw InvalidArgument("set_shader_resource_view (root parameter " + std::to_string(rootIndex) + ", slot " + std::to_string(offset) +
                              "): " + problem);
    m_ViewDescriptors.StageDescriptors(rootIndex, offset, 1, h);
    PutBinding((uint64_t(rootIndex) << 32) | offset, Binding{r, SrvState(rootIndex), mip, mipCount, false});
}

void CommandList::SetUnorderedAccessView(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& r, uint32_t mip,
                                         const BufferViewArgs& buffer) {
    const auto recording = Begin("set_unordered_access_view");
    BoundRootSignature("set_unordered_access_view");
    CheckSameDevice(*r, "set_unordered_access_view");
    D3D12_CPU_DESCRIPTOR_HANDLE h;
    if (buffer.counter) CheckUavCounter(*r, buffer);
    if (r->IsBuffer()) {
        if (mip) throw InvalidArgument("set_unordered_access_view: " + Who(*r) + " is a buffer; mip= applies to textures");
        StageBufferView(true, rootIndex, offset, r, buffer, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, "set_unordered_access_view");
        if (buffer.counter) {
            // The counter is a UAV access of its buffer: requested in UNORDERED_ACCESS with the view.
            m_HasCounterBindings = true;
            PutBinding((uint64_t(rootIndex) << 32) | kCounterSlotBit | offset,
                       Binding{buffer.counter, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, 0, 0, true});
        }
        return;
    }
    RefuseBufferViewArgs(*r, buffer, "set_unordered_access_view");
    h = r->Uav(mip);  // the resource's own checks (mips, uav=True, format) first
    const std::string problem = TextureDeclarationProblem(true, rootIndex, offset, *r);
    if (!problem.empty())
        throw InvalidArgument("set_unordered_access_view (root parameter " + std::to_string(rootIndex) + ", slot " + std::to_string(offset) +
                              "): " + problem);
    m_ViewDescriptors.StageDescriptors(rootIndex, offset, 1, h);
    PutBinding((uint64_t(rootIndex) << 32) | offset, Binding{r, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, mip, 1u, true});
}

void CommandList::CheckUavCounter(const Resource& r, const BufferViewArgs& args) const {
    // D3D12 (D3D12_BUFFER_UAV, CreateUnorderedAccessView): a counter resource only for a buffer
    // view with a structure stride; the counter is 4 bytes at a multiple of
    // D3D12_UAV_COUNTER_PLACEMENT_ALIGNMENT in a buffer the GPU accesses as a UAV.
    const char* fn = "set_unordered_access_view";
    const Resource& c = *args.counter;
    CheckSameDevice(c, fn);
    if (!r.IsBuffer())
        throw InvalidArgument(std::string(fn) + ": counter= applies to structured buffer views, and " + Who(r) +
                              " is a texture (D3D12: only buffer UAVs with a structure stride have a counter)");
    if (args.format != DXGI_FORMAT_UNKNOWN || args.raw == 1)
        throw InvalidArgument(std::string(fn) + ": counter= needs a structured view (stride=), not a " + (args.raw == 1 ? "raw" : "typed") +
                              " one (D3D12: a counter resource only with a structure stride)");
    if (!c.IsBuffer()) throw InvalidArgument(std::string(fn) + ": counter " + Who(c) + " is a texture; the counter lives in a buffer");
    if (!c.AllowsUav())
        throw InvalidArgument(std::string(fn) + ": counter " + Who(c) +
                              " was not created with uav=True (D3D12: the counter is accessed as an unordered access view)");
    if (args.counterOffset % D3D12_UAV_COUNTER_PLACEMENT_ALIGNMENT != 0)
        throw InvalidArgument(std::string(fn) + ": counter_offset=" + std::to_string(args.counterOffset) + " must be a multiple of " +
                              std::to_string(D3D12_UAV_COUNTER_PLACEMENT_ALIGNMENT) + " (D3D12_UAV_COUNTER_PLACEMENT_ALIGNMENT)");
    if (args.counterOffset + 4 > c.Size())
        throw InvalidArgument(std::string(fn) + ": the counter's 4 bytes at counter_offset=" + std::to_string(args.counterOffset) +
                              " do not fit in counter " + Who(c) + " (" + std::to_string(c.Size()) + " bytes)");
    if (args.counterOffset != 0 && !m_CounterOffsets)
        throw InvalidArgument(std::string(fn) + ": counter_offset=" + std::to_string(args.counterOffset) +
                              ": this backend (vkd3d 1.2) counts only at offset 0 of the counter buffer (docs/guides/shader-gaps.rst); "
                              "use a counter buffer of its own at counter_offset=0");
}

void CommandList::CheckUavCounters(const char* what) const {
    // A pipeline that counts needs a counter resource on each view it counts through (D3D12: counting
    // through a view without one is undefined; vkd3d 1.2 would write through a null Vulkan view).
    for (const auto& c : m_Pipeline->CounterSlots()) {
        if (m_Bindings.count(c.first | kCounterSlotBit)) continue;
        const uint32_t rootIndex = uint32_t(c.first >> 32), slot = uint32_t(c.first);
        throw InvalidArgument(std::string(what) + ": pipeline '" + m_Pipeline->Name() + "' uses the UAV counter of u" + std::to_string(c.second) +
                              " (Append, Consume, IncrementCounter or DecrementCounter) through descriptor table root parameter " +
                              std::to_string(rootIndex) + ", slot " + std::to_string(slot) +
                              ", but the view set there has no counter resource; "
                              "call set_unordered_access_view(" +
                              std::to_string(rootIndex) + ", " + std::to_string(slot) + ", buffer, stride=..., counter=counter_buffer)");
    }
}

D3D12_CPU_DESCRIPTOR_HANDLE CommandList::BufferViewHandle(bool uav, Resource& r, const BufferViewArgs& args, const BufferViewDesc& view) const {
    return uav && args.counter ? r.CounterBufferView(view, args.counter, args.counterOffset) : r.BufferView(uav, view);
}

void CommandList::StageBufferView(bool uav, uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& r, const BufferViewArgs& args,
                                  D3D12_RESOURCE_STATES state, const char* what) {
    const bool explicitKind = args.stride || args.format != DXGI_FORMAT_UNKNOWN || args.raw == 1;
    Binding b{r, state, 0, 0, uav, uint8_t(explicitKind ? kViewExplicit : kViewDeclared), args, BufferViewDesc{}};
    if (!explicitKind && !(m_Pipeline && m_Pipeline->RootUse().SlotDeclaration(rootIndex, offset))) {
        // No kind given and the bound pipeline does not read the slot: the view waits for a pipeline
        // that does (FollowDeclaredBufferViews); meanwhile the slot holds the null descriptor, which
        // nothing reads. Its range is checked once the kind is known.
        if (uav && !r->AllowsUav())
            throw InvalidArgument(Who(*r) + " was not created with uav=True, so it cannot be bound as an unordered access view");
        m_ViewDescriptors.StageDescriptors(rootIndex, offset, 1, m_Context->ViewHeap().NullDescriptor());
    } else {
        b.view = ResolveBufferViewAt(uav, rootIndex, offset, *r, args, what);
        m_ViewDescriptors.StageDescriptors(rootIndex, offset, 1, BufferViewHandle(uav, *r, args, b.view));
    }
    PutBinding((uint64_t(rootIndex) << 32) | offset, std::move(b));
}

void CommandList::FollowDeclaredBufferViews() {
    for (auto& kv : m_Bindings) {
        Binding& b = kv.second;
        if (kv.first < kInputAssemblerKeys && uint32_t(kv.first) != 0xFFFFFFFFu && !b.resource->IsBuffer()) {
            // A texture view in a table: the new pipeline's declaration there must take it, else the
            // next draw or dispatch raises (ThrowUnusableBinding says why).
            const bool bad = !TextureDeclarationProblem(b.uav, uint32_t(kv.first >> 32), uint32_t(kv.first), *b.resource).empty();
            b.bufferView = bad ? kTextureMismatch : 0;
            m_AllBindingsDirty |= bad;  // the next draw or dispatch looks at every binding (and raises)
            continue;
        }
        if (b.bufferView != kViewDeclared && b.bufferView != kViewUnresolvable) continue;
        const uint32_t rootIndex = uint32_t(kv.first >> 32), offset = uint32_t(kv.first);
        const ShaderBinding* declared = m_Pipeline->RootUse().SlotDeclaration(rootIndex, offset);
        if (!declared) continue;  // not read there: keep the view (or the null descriptor) as it is
        BufferViewDesc view;
        try {
            view = ResolveBufferViewAt(b.uav, rootIndex, offset, *b.resource, b.viewArgs, "set_pipeline_state");
            if (b.viewArgs.counter && view.kind != BufferViewKind::Structured)
                throw InvalidArgument("a view with a UAV counter must be structured");  // ThrowUnusableBinding says it in full
        } catch (const InvalidArgument&) {
            b.bufferView = kViewUnresolvable;  // the next draw or dispatch raises, saying why
            m_AllBindingsDirty = true;
            continue;
        }
        b.bufferView = kViewDeclared;
        if (view == b.view) continue;
        m_ViewDescriptors.StageDescriptors(rootIndex, offset, 1, BufferViewHandle(b.uav, *b.resource, b.viewArgs, view));
        b.view = view;
    }
}

void CommandList::ValidateBufferViews(const char* op) {
    for (auto& kv : m_Bindings) {
        const Binding& b = kv.second;
        if (!b.bufferView || b.bufferView >= kViewUnresolvable || b.view.numElements == 0) continue;  // PrepareWork's loop / unread
        const uint32_t rootIndex = uint32_t(kv.first >> 32), offset = uint32_t(kv.first);
        if (!m_Pipeline->RootUse().SlotDeclaration(rootIndex, offset)) continue;
        // The view as explicit arguments: ResolveBufferViewAt (validation on) compares it with the declaration.
        BufferViewArgs args;
        args.stride = b.view.kind == BufferViewKind::Structured ? b.view.stride : 0;
        args.format = b.view.kind == BufferViewKind::Typed ? b.view.format : DXGI_FORMAT_UNKNOWN;
        args.raw = b.view.kind == BufferViewKind::Raw ? 1 : -1;
        args.firstElement = b.view.firstElement;
        args.numElements = b.view.numElements;
        (void)ResolveBufferViewAt(b.uav, rootIndex, offset, *b.resource, args, op);
    }
}

namespace {
/// The D3D_SRV_DIMENSION of the view dx12kit makes of texture `r` (Resource::WriteView,
/// WriteCubeOr3DView): a shader resource view, or an unordered access view (`uav`: a cube's is
/// the 2D array of its faces; multisampled textures have none).
uint32_t TextureViewDimension(const Resource& r, bool uav) {
    if (r.Is3D()) return 8;  // TEXTURE3D
    const bool array = r.Desc().DepthOrArraySize > 1;
    if (!uav && r.IsCube()) return r.Desc().DepthOrArraySize == 6 ? 9 : 10;  // TEXTURECUBE(ARRAY)
    if (!uav && r.SampleCount() > 1) return array ? 7 : 6;                   // TEXTURE2DMS(ARRAY)
    return array ? 5 : 4;                                                    // TEXTURE2D(ARRAY)
}
const char* DimensionName(uint32_t d) {
    static const char* const kNames[] = {"?",           "Buffer",           "Texture1D", "Texture1DArray", "Texture2D",       "Texture2DArray",
                                         "Texture2DMS", "Texture2DMSArray", "Texture3D", "TextureCube",    "TextureCubeArray"};
    return d < 11 ? kNames[d] : "?";
}
/// What makes dx12kit give a texture a view of dimension `d`.
std::string TextureOfDimension(uint32_t d, bool uav) {
    switch (d) {
        case 4: return "a 2D texture with one array slice and one sample";
        case 5: return uav ? "a 2D texture with array_size > 1 (or a cube)" : "a 2D texture with array_size > 1 (not a cube)";
        case 6: return "a multisampled 2D texture (sample_count > 1) with one array slice";
        case 7: return "a multisampled 2D texture with array_size > 1";
        case 8: return "a 3D texture (create_texture3d)";
        case 9: return "a cube texture (create_texture_cube)";
        default: return std::string("no texture dx12kit creates (") + DimensionName(d) + " views are not made)";
    }
}
}  // namespace

std::string CommandList::TextureDeclarationProblem(bool uav, uint32_t rootIndex, uint32_t offset, const Resource& texture) const {
    const ShaderBinding* d = m_Pipeline ? m_Pipeline->RootUse().SlotDeclaration(rootIndex, offset) : nullptr;
    if (!d) return std::string();
    const std::string declares = "the bound pipeline's shader declares " + d->TypeName() + " '" + d->name + "' at " + d->RegisterName() + " there";
    if (d->kind != (uav ? BindingKind::Uav : BindingKind::Srv))
        return declares + ", which takes " +
               (uav ? "a shader resource view: use set_shader_resource_view" : "an unordered access view: use set_unordered_access_view");
    const uint32_t have = TextureViewDimension(texture, uav);
    const std::string view = std::string(uav ? "RW" : "") + DimensionName(have);
    if (!d->IsTexture())
        return declares + ", which is " + (d->IsBufferKind() ? "a buffer" : "not a texture") + ", but " + Who(texture) +
               " is a texture (its view is a " + view +
               "). D3D12 needs the view's dimension to be the one the shader declares (a texture view at a buffer declaration reads "
               "nothing useful): bind a buffer there, or declare " +
               view + " in the shader";
    if (d->dimension != have)
        return declares + ", but " + Who(texture) + " gives a " + view + " view (D3D12: a view's dimension must be the one the shader declares; a " +
               "mismatch reads undefined data): bind " + TextureOfDimension(d->dimension, uav) + ", or declare " + view + " in the shader";
    return std::string();
}

std::string CommandList::DescribeBinding(uint64_t key, const Binding& b) const {
    const uint32_t hi = uint32_t(key >> 32), lo = uint32_t(key);
    std::string s;
    if (hi == 0xFFFFFFFFu) s = "set_index_buffer";
    else if (key < kInputAssemblerKeys && lo != 0xFFFFFFFFu && (lo & kCounterSlotBit))
        s = "set_unordered_access_view(" + std::to_string(hi) + ", " + std::to_string(lo & ~kCounterSlotBit) + ", counter=)";
    else if (key >= kInputAssemblerKeys) s = "set_vertex_buffer(" + std::to_string(hi & 0xFFFFu) + ")";
    else if (lo == 0xFFFFFFFFu) {
        const RootParamKind k = m_RootSignature && hi < m_RootSignature->Parameters().size() ? m_RootSignature->Parameters()[hi].kind
                                : b.uav                                                      ? RootParamKind::Uav
                                                                                             : RootParamKind::Srv;
        s = std::string(k == RootParamKind::Cbv   ? "set_root_cbv("
                        : k == RootParamKind::Uav ? "set_root_uav("
                                                  : "set_root_srv(") +
            std::to_string(hi) + ")";
    } else {
        s = std::string(b.uav                                                        ? "set_unordered_access_view("
                        : b.state == D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER ? "set_constant_buffer_view("
                                                                                     : "set_shader_resource_view(") +
            std::to_string(hi) + ", " + std::to_string(lo) + ")";
    }
    return s + (b.uav ? " (state UNORDERED_ACCESS)" : " (state " + StateName(b.state) + ")");
}

void CommandList::ThrowUnusableBinding(uint64_t key, const Binding& b, const char* what) const {
    const uint32_t rootIndex = uint32_t(key >> 32), offset = uint32_t(key);
    if (b.bufferView == kViewUnresolvable) (void)ResolveBufferViewAt(b.uav, rootIndex, offset, *b.resource, b.viewArgs, what);  // says why
    const std::string problem = b.resource->IsBuffer() ? std::string(b.viewArgs.counter ? "the view has a UAV counter (counter=), so the pipeline "
                                                                                          "must declare a structured buffer there"
                                                                                        : "the view no longer fits the bound pipeline's declaration")
                                                       : TextureDeclarationProblem(b.uav, rootIndex, offset, *b.resource);
    throw InvalidArgument(std::string(what) + " (root parameter " + std::to_string(rootIndex) + ", slot " + std::to_string(offset) + ", set with " +
                          (b.uav ? "set_unordered_access_view" : "set_shader_resource_view") + " before pipeline '" + m_Pipeline->Name() +
                          "' was bound): " + problem);
}

void CommandList::CheckBindingHazards(bool dispatch, const char* what) {
    // Every binding this work uses: the shader bindings (a dispatch leaves out vertex and index
    // buffers) and, for draws, the render targets and depth buffer.
    struct Use {
        const Binding* b;
        uint64_t key;
        int target;  // -1: m_Bindings[key]; else m_TargetBindings[target]
    };
    // Only a write can conflict: without one (the common read-only bindings of a draw) nothing is
    // gathered or compared.
    bool writes = !dispatch && !m_TargetBindings.empty();
    for (const auto& kv : m_Bindings)
        if (!(dispatch && kv.first >= kInputAssemblerKeys)) writes |= (uint32_t(kv.second.state) & d3d12rules::kWriteStates) != 0;
    if (writes) {
        std::vector<Use> uses;
        uses.reserve(m_Bindings.size() + m_TargetBindings.size());
        for (const auto& kv : m_Bindings)
            if (!(dispatch && kv.first >= kInputAssemblerKeys)) uses.push_back({&kv.second, kv.first, -1});
        if (!dispatch)
            for (size_t i = 0; i < m_TargetBindings.size(); ++i) uses.push_back({&m_TargetBindings[i], 0, int(i)});
        auto mipEnd = [](const Binding& b) { return b.mipCount == 0 || b.resource->IsBuffer() ? UINT32_MAX : b.firstMip + b.mipCount; };
        auto mipBegin = [](const Binding& b) { return b.resource->IsBuffer() ? 0u : b.firstMip; };
        auto describe = [&](const Use& u) {
            if (u.target < 0) return DescribeBinding(u.key, *u.b);
            const bool depth = uint32_t(u.target) >= m_RtvCount;
            return std::string("set_render_targets (") +
                   (depth ? "the depth buffer, state DEPTH_WRITE)" : "render target " + std::to_string(u.target) + ", state RENDER_TARGET)");
        };
        for (const Use& w : uses) {
            if (!(uint32_t(w.b->state) & d3d12rules::kWriteStates)) continue;
            for (const Use& o : uses) {
                if (o.b == w.b || o.b->resource != w.b->resource || o.b->state == w.b->state) continue;
                if (mipBegin(*o.b) >= mipEnd(*w.b) || mipBegin(*w.b) >= mipEnd(*o.b)) continue;  // other mips of a texture: other subresources
                const Resource& r = *w.b->resource;
                std::string mips;
                if (!r.IsBuffer()) {
                    const uint32_t from = std::max(mipBegin(*o.b), mipBegin(*w.b)), to = std::min({mipEnd(*o.b), mipEnd(*w.b), r.MipLevels()});
                    mips = " mip" + (to - from > 1 ? "s " + std::to_string(from) + ".." + std::to_string(to - 1) : " " + std::to_string(from));
                }
                throw InvalidArgument(std::string(what) + ": " + (r.IsBuffer() ? "buffer '" : "texture '") + r.Name() + "'" + mips +
                                      " is bound twice: by " + describe(w) + " and by " + describe(o) +
                                      ". D3D12 holds each subresource in one state during a draw or dispatch, and a write state (UNORDERED_ACCESS, "
                                      "RENDER_TARGET, DEPTH_WRITE) cannot be combined with another" +
                                      (r.IsBuffer() ? " (a buffer is one subresource, so disjoint windows of it do not help)" : std::string()) +
                                      ": read and write two different resources (copy one with copy_resource / copy_buffer_region), or "
                                      "use one binding that does both (an unordered access view reads too)");
            }
        }
    }
    m_HazardsChecked |= dispatch ? 2u : 1u;
}

void CommandList::ValidateConstantBuffers(const char* what) const {
    for (const auto& kv : m_Pipeline->RootUse().cbuffers) {
        const ShaderBinding& cb = kv.second;
        const uint64_t need = cb.cbufferUsedBytes ? cb.cbufferUsedBytes : cb.cbufferSize;
        const uint32_t rootIndex = uint32_t(kv.first >> 32), slot = uint32_t(kv.first);
        uint64_t have = 0;
        std::string how;
        auto it = m_Bindings.find(kv.first);
        if (slot == 0xFFFFFFFFu) {
            if (rootIndex >= 64 || !((m_RootArgsSet >> rootIndex) & 1u)) continue;  // unset: CheckRootArguments' error
            have = m_RootCbvBytes[rootIndex];
            how = it != m_Bindings.end()
                      ? "set_root_cbv(" + std::to_string(rootIndex) + ", ...) with " + Who(*it->second.resource) + " from its offset"
                      : "set_dynamic_constant_buffer(" + std::to_string(rootIndex) + ", ...)";
        } else {
            if (it == m_Bindings.end() || it->second.uav || it->second.state != D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER) continue;
            have = it->second.cbvBytes ? it->second.cbvBytes : it->second.resource->Size();
            how = "set_constant_buffer_view(" + std::to_string(rootIndex) + ", " + std::to_string(slot) + ", ...) with " + Who(*it->second.resource) +
                  (it->second.cbvBytes ? std::string(" (a view of ") + std::to_string(it->second.cbvBytes) + " bytes)" : std::string());
        }
        if (have >= need) continue;
        throw InvalidArgument(std::string(what) + ": pipeline '" + m_Pipeline->Name() + "' reads cbuffer '" + cb.name + "' at " + cb.RegisterName() +
                              ", whose variables span " + std::to_string(need) + " bytes, but the constant buffer bound there by " + how + " holds " +
                              std::to_string(have) + " bytes: the shader would read " + std::to_string(need - have) +
                              " bytes past what was given (stale or undefined data; D3D12 does not report it). Bind at least " +
                              std::to_string(need) + " bytes (validation mode check)");
    }
}

void CommandList::SetConstantBufferView(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& buffer, uint64_t bufferOffset,
                                        uint32_t size) {
    const char* what = "set_constant_buffer_view";
    const auto recording = Begin(what);
    BoundRootSignature(what);
    CheckSameDevice(*buffer, what);
    D3D12_CPU_DESCRIPTOR_HANDLE h;
    uint32_t bytes = 0;
    if (bufferOffset == 0 && size == 0) {
        h = buffer->Cbv();
    } else {
        if (size == 0) {
            // The rest of the buffer (its 256-byte rounded width).
            const uint64_t width = buffer->Desc().Width;
            if (bufferOffset >= width)
                throw InvalidArgument(std::string(what) + ": offset=" + std::to_string(bufferOffset) + " is past the end of buffer '" +
                                      buffer->Name() + "' of " + std::to_string(buffer->Size()) + " bytes");
            if (width - bufferOffset > 65536)
                throw InvalidArgument(std::string(what) + ": the rest of buffer '" + buffer->Name() +
                                      "' from offset=" + std::to_string(bufferOffset) + " is " + std::to_string(width - bufferOffset) +
                                      " bytes, more than a constant buffer view covers (D3D12: at "
                                      "most 65536 bytes, 4096 float4); pass size=");
            size = static_cast<uint32_t>(width - bufferOffset);
        }
        h = buffer->CbvRange(bufferOffset, size, what);
        bytes = size;
    }
    m_ViewDescriptors.StageDescriptors(rootIndex, offset, 1, h);
    Binding b{buffer, D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER, 0, 0, false};
    b.cbvBytes = bytes;
    PutBinding((uint64_t(rootIndex) << 32) | offset, std::move(b));
}

void CommandList::SetSampler(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Sampler>& sampler) {
    const auto recording = Begin("set_sampler");
    BoundRootSignature("set_sampler");
    if (!sampler) throw InvalidArgument("set_sampler: None");
    if (sampler->Context() != m_Context.get()) throw InvalidArgument("set_sampler: the sampler belongs to another device");
    m_SamplerDescriptors.StageDescriptors(rootIndex, offset, 1, sampler->Handle());
    const Sampler*& slot = m_TableSamplers[(uint64_t(rootIndex) << 32) | offset];
    if (slot == sampler.get()) return;  // already held (and kept alive) by this list
    m_Tracked.push_back(sampler);
    slot = sampler.get();
    m_SlotChecks |= kCheckSamplers;
}

void CommandList::CheckTableSamplers(const char* what) const {
    for (const auto& kv : m_Pipeline->RootUse().samplerSlots) {
        auto it = m_TableSamplers.find(kv.first);
        if (it == m_TableSamplers.end()) continue;  // never set: the slot holds what the heap held (not checked here)
        const ShaderBinding& b = kv.second.binding;
        const D3D12_FILTER filter = it->second->Desc().Filter;
        if (IsComparisonFilter(filter) == b.IsComparisonSampler()) continue;
        const uint32_t rootIndex = uint32_t(kv.first >> 32), slot = uint32_t(kv.first);
        const std::string reg = "s" + std::to_string(b.shaderRegister + kv.second.element) + (b.space ? " space" + std::to_string(b.space) : "");
        const std::string name = b.count == 1 ? b.name : b.name + "[" + std::to_string(kv.second.element) + "]";
        throw InvalidArgument(
            std::string(what) + ": pipeline '" + m_Pipeline->Name() + "' declares " + b.TypeName() + " '" + name + "' at " + reg +
            ", read through sampler table root parameter " + std::to_string(rootIndex) + ", slot " + std::to_string(slot) + ", but sampler '" +
            it->second->Name() + "' set there has filter " + FilterName(filter) + ", " +
            (b.IsComparisonSampler() ? "not a comparison filter" : "a comparison filter") + ". D3D12 requires " +
            (b.IsComparisonSampler() ? "a comparison filter for a SamplerComparisonState" : "a non-comparison filter for a SamplerState") +
            " (the result is undefined otherwise; vkd3d returns " +
            (b.IsComparisonSampler() ? "the unfiltered texels, not comparisons" : "comparisons, not texels") + "): call set_sampler(" +
            std::to_string(rootIndex) + ", " + std::to_string(slot) + ", ...) with a sampler made with " +
            (b.IsComparisonSampler() ? "a comparison filter (create_sampler(filter='comparison_min_mag_mip_point', comparison=...))"
                                     : "a non-comparison filter (create_sampler(filter='point'), 'linear', ...)") +
            ", or declare " + (b.IsComparisonSampler() ? "a SamplerState" : "a SamplerComparisonState") + " in the shader");
    }
}

void CommandList::BindDescriptorHeaps() {
    if (m_HeapsBound) return;
    ID3D12DescriptorHeap* heaps[2] = {m_Context->ViewHeap().D3D12Heap(), m_Context->SamplerHeap().D3D12Heap()};
    m_d3d12List->SetDescriptorHeaps(2, heaps);
    m_HeapsBound = true;
}

D3D12_GPU_DESCRIPTOR_HANDLE CommandList::PrepareUavClear(const std::shared_ptr<Resource>& r, D3D12_CPU_DESCRIPTOR_HANDLE& cpu, bool floats) {
    const auto recording = Begin("clear_unordered_access_view");
    CheckNotCopy("clear_unordered_access_view");
    CheckSameDevice(*r, "clear_unordered_access_view");
    if (floats && r->IsBuffer()) {
        // D3D12 allows ClearUnorderedAccessViewUint on a raw (R32_TYPELESS) buffer view, which is what
        // Uav(0) is for a buffer, but ClearUnorderedAccessViewFloat needs a typed view whose format is
        // a float one: the whole buffer as R32_FLOAT elements (values[0] in each 4 bytes).
        if (!r->AllowsUav()) throw InvalidArgument("clear_unordered_access_view: buffer '" + r->Name() + "' was not created with uav=True");
        if (r->Size() < 4)
            throw InvalidArgument("clear_unordered_access_view: buffer '" + r->Name() + "' has " + std::to_string(r->Size()) +
                                  " bytes; a float clear writes 4-byte R32_FLOAT elements");
        BufferViewDesc view;
        view.kind = BufferViewKind::Typed;
        view.format = DXGI_FORMAT_R32_FLOAT;
        view.elementBytes = 4;
        view.numElements = static_cast<uint32_t>(std::min<uint64_t>(r->Size() / 4, UINT32_MAX));
        cpu = r->BufferView(true, view);
    } else {
        cpu = r->Uav(0);
    }
    m_Tracker.UavHazard(r);
    RequireState(r, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, 0, 1);  // what Uav(0) covers: mip 0 of every array slice
    ContentsUsed(*r, 0, 1, 1u, "clear_unordered_access_view");     // not an initializing clear (rule 6d)
    Flush();
    if (m_Validate) ValidateResource("clear_unordered_access_view", r.get());
    BindDescriptorHeaps();
    // The clear needs the view both in a CPU-only heap and in the bound shader-visible heap.
    return m_ViewDescriptors.CopyDescriptor(m_d3d12List.Get(), cpu);
}

void CommandList::ClearUnorderedAccessViewFloat(const std::shared_ptr<Resource>& r, const float values[4]) {
    const auto recording = Begin("clear_unordered_access_view");
    CheckPredicatable("clear_unordered_access_view");
    D3D12_CPU_DESCRIPTOR_HANDLE cpu;
    D3D12_GPU_DESCRIPTOR_HANDLE gpu = PrepareUavClear(r, cpu, true);
    m_d3d12List->ClearUnorderedAccessViewFloat(gpu, cpu, r->D3D12Resource(), values, 0, nullptr);
    m_Tracker.NoteUavWrite(r.get());
}

void CommandList::ClearUnorderedAccessViewUint(const std::shared_ptr<Resource>& r, const uint32_t values[4]) {
    const auto recording = Begin("clear_unordered_access_view");
    CheckPredicatable("clear_unordered_access_view");
    D3D12_CPU_DESCRIPTOR_HANDLE cpu;
    D3D12_GPU_DESCRIPTOR_HANDLE gpu = PrepareUavClear(r, cpu, false);
    m_d3d12List->ClearUnorderedAccessViewUint(gpu, cpu, r->D3D12Resource(), values, 0, nullptr);
    m_Tracker.NoteUavWrite(r.get());
}

// ---------------------------------------------------------------- output merger, input assembler

void CommandList::SetRenderTargets(const std::vector<std::shared_ptr<Resource>>& targets, const std::shared_ptr<Resource>& depth, uint32_t mip) {
    const auto recording = Begin("set_render_targets");
    CheckGraphics("set_render_targets");
    if (targets.size() > D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT) throw InvalidArgument("set_render_targets: at most 8 targets");
    D3D12_CPU_DESCRIPTOR_HANDLE rtvs[D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT];
    m_TargetBindings.clear();
    m_RtvCount = 0;
    m_TargetsMatch = false;
    m_HazardsChecked = 0;
    m_AllBindingsDirty = true;
    uint32_t w = 0, h = 0;
    for (size_t i = 0; i < targets.size(); ++i) {
        const auto& t = targets[i];
        if (!t) throw InvalidArgument("set_render_targets: None in the target list");
        CheckSameDevice(*t, "set_render_targets");
        if (t->IsBuffer()) throw InvalidArgument("set_render_targets: " + Who(*t) + " is a buffer");
        if (t->SampleCount() != targets[0]->SampleCount())
            throw InvalidArgument("set_render_targets: " + Who(*t) + " has " + std::to_string(t->SampleCount()) + " sample(s), " + Who(*targets[0]) +
                                  " " + std::to_string(targets[0]->SampleCount()) + " (D3D12: all bound targets share one sample count)");
        rtvs[i] = t->Rtv(mip, 0);
        m_TargetBindings.push_back(Binding{t, D3D12_RESOURCE_STATE_RENDER_TARGET, mip, 1, false});
        m_RtvCount = uint32_t(m_TargetBindings.size());
        w = static_cast<Texture&>(*t).Width(mip);
        h = static_cast<Texture&>(*t).Height(mip);
    }
    D3D12_CPU_DESCRIPTOR_HANDLE dsv{};
    if (depth) {
        CheckSameDevice(*depth, "set_render_targets");
        if (!targets.empty() && depth->SampleCount() != targets[0]->SampleCount())
            throw InvalidArgument("set_render_targets: depth " + Who(*depth) + " has " + std::to_string(depth->SampleCount()) + " sample(s), " +
                                  Who(*targets[0]) + " " + std::to_string(targets[0]->SampleCount()) +
                                  " (D3D12: all bound targets share one sample count)");
        dsv = depth->Dsv(0);
        m_TargetBindings.push_back(Binding{depth, D3D12_RESOURCE_STATE_DEPTH_WRITE, 0, 0, false});
        if (targets.empty()) {
            w = static_cast<Texture&>(*depth).Width();
            h = static_cast<Texture&>(*depth).Height();
        }
    }
    m_d3d12List->OMSetRenderTargets(static_cast<UINT>(targets.size()), targets.empty() ? nullptr : rtvs, FALSE, depth ? &dsv : nullptr);
    if (w && h) {
        SetViewport(0, 0, float(w), float(h), 0.0f, 1.0f);
        SetScissor(0, 0, int32_t(w), int32_t(h));
    }
}

namespace {
// D3D12_VIEWPORT / D3D11.3 functional spec (viewports): finite values, Width and Height >= 0,
// TopLeftX/Y and TopLeft + size within [D3D12_VIEWPORT_BOUNDS_MIN, D3D12_VIEWPORT_BOUNDS_MAX],
// MinDepth and MaxDepth in [0, 1], MinDepth <= MaxDepth (the debug layer's rule).
void CheckViewport(const D3D12_VIEWPORT& vp, const std::string& what) {
    const float v[6] = {vp.TopLeftX, vp.TopLeftY, vp.Width, vp.Height, vp.MinDepth, vp.MaxDepth};
    const char* names[6] = {"x", "y", "width", "height", "min_depth", "max_depth"};
    for (int i = 0; i < 6; ++i)
        if (!std::isfinite(v[i])) throw InvalidArgument(what + ": " + names[i] + " must be finite, got " + std::to_string(v[i]));
    if (vp.Width < 0 || vp.Height < 0)
        throw InvalidArgument(what + ": width and height must be >= 0, got " + std::to_string(vp.Width) + " x " + std::to_string(vp.Height));
    const float lo = float(D3D12_VIEWPORT_BOUNDS_MIN), hi = float(D3D12_VIEWPORT_BOUNDS_MAX);
    if (vp.TopLeftX < lo || vp.TopLeftY < lo || vp.TopLeftX + vp.Width > hi || vp.TopLeftY + vp.Height > hi)
        throw InvalidArgument(what + ": the viewport must lie within [" + std::to_string(D3D12_VIEWPORT_BOUNDS_MIN) + ", " +
                              std::to_string(D3D12_VIEWPORT_BOUNDS_MAX) + "]");
    if (!(vp.MinDepth >= 0.0f && vp.MaxDepth <= 1.0f && vp.MinDepth <= vp.MaxDepth))
        throw InvalidArgument(what + ": depths must satisfy 0 <= min_depth <= max_depth <= 1, got " + std::to_string(vp.MinDepth) + ", " +
                              std::to_string(vp.MaxDepth));
}

// D3D12: a scissor rectangle with left > right or top > bottom is invalid (RSSetScissorRects).
void CheckScissor(const D3D12_RECT& r, const std::string& what) {
    if (r.left > r.right || r.top > r.bottom)
        throw InvalidArgument(what + ": left <= right and top <= bottom are required, got (" + std::to_string(r.left) + ", " + std::to_string(r.top) +
                              ", " + std::to_string(r.right) + ", " + std::to_string(r.bottom) + ")");
}

// RSSetViewports / RSSetScissorRects: 1..D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE (16).
void CheckCount(size_t n, const char* what) {
    if (n == 0 || n > D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE)
        throw InvalidArgument(std::string(what) + ": 1 to " + std::to_string(D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE) +
                              " entries are allowed, got " + std::to_string(n));
}
}  // namespace

void CommandList::SetViewport(float x, float y, float w, float h, float minDepth, float maxDepth) {
    const auto recording = Begin("set_viewport");
    CheckGraphics("set_viewport");
    D3D12_VIEWPORT vp{x, y, w, h, minDepth, maxDepth};
    CheckViewport(vp, "set_viewport");
    m_d3d12List->RSSetViewports(1, &vp);
}

void CommandList::SetScissor(int32_t left, int32_t top, int32_t right, int32_t bottom) {
    const auto recording = Begin("set_scissor");
    CheckGraphics("set_scissor");
    D3D12_RECT r{left, top, right, bottom};
    CheckScissor(r, "set_scissor");
    m_d3d12List->RSSetScissorRects(1, &r);
}

void CommandList::SetViewports(const std::vector<D3D12_VIEWPORT>& viewports) {
    const auto recording = Begin("set_viewports");
    CheckGraphics("set_viewports");
    CheckCount(viewports.size(), "set_viewports");
    for (size_t i = 0; i < viewports.size(); ++i) CheckViewport(viewports[i], "set_viewports: viewport " + std::to_string(i));
    m_d3d12List->RSSetViewports(static_cast<UINT>(viewports.size()), viewports.data());
}

void CommandList::SetScissors(const std::vector<D3D12_RECT>& rects) {
    const auto recording = Begin("set_scissors");
    CheckGraphics("set_scissors");
    CheckCount(rects.size(), "set_scissors");
    for (size_t i = 0; i < rects.size(); ++i) CheckScissor(rects[i], "set_scissors: rectangle " + std::to_string(i));
    m_d3d12List->RSSetScissorRects(static_cast<UINT>(rects.size()), rects.data());
}

void CommandList::SetStencilRef(uint32_t ref) {
    const auto recording = Begin("set_stencil_ref");
    CheckGraphics("set_stencil_ref");
    if (ref > 255) throw InvalidArgument("set_stencil_ref: the reference is 8-bit (0..255), got " + std::to_string(ref));
    m_d3d12List->OMSetStencilRef(ref);
}

void CommandList::SetBlendFactor(const float rgba[4]) {
    const auto recording = Begin("set_blend_factor");
    CheckGraphics("set_blend_factor");
    for (int i = 0; i < 4; ++i)
        if (!std::isfinite(rgba[i])) throw InvalidArgument("set_blend_factor: component " + std::to_string(i) + " is not finite");
    m_d3d12List->OMSetBlendFactor(rgba);
    m_BlendFactorSet = true;
}

void CommandList::ClearRenderTarget(const std::shared_ptr<Resource>& target, const float rgba[4], uint32_t mip, uint32_t arraySlice) {
    const auto recording = Begin("clear_render_target");
    CheckPredicatable("clear_render_target");
    CheckGraphics("clear_render_target");
    CheckSameDevice(*target, "clear_render_target");
    // A 3D texture's render-target view covers every depth slice of the mip; array textures (and
    // cube faces) get one view per slice: every slice unless one is named.
    const bool all = arraySlice == kAllSlices;
    const uint32_t first = all ? 0 : arraySlice, count = all ? target->ArraySize() : 1;
    target->Rtv(mip, first);  // checks the mip, the slice and the render-target flag before anything is recorded
    for (uint32_t s = first; s < first + count; ++s) {
        m_Tracker.Transition(target, D3D12_RESOURCE_STATE_RENDER_TARGET, d3dx::CalcSubresource(mip, s, target->MipLevels()));
        ContentsInitialized(*target, d3dx::CalcSubresource(mip, s, target->MipLevels()));  // D3D12Rules rule 6d
    }
    Flush();
    if (m_Validate) ValidateResource("clear_render_target", target.get());
    for (uint32_t s = first; s < first + count; ++s) m_d3d12List->ClearRenderTargetView(target->Rtv(mip, s), rgba, 0, nullptr);
}

void CommandList::ClearDepthStencil(const std::shared_ptr<Resource>& depth, float d, uint8_t stencil, bool clearDepth, bool clearStencil,
                                    uint32_t mip, uint32_t arraySlice) {
    const auto recording = Begin("clear_depth_stencil");
    CheckPredicatable("clear_depth_stencil");
    // D3D12 ClearDepthStencilView: the depth must be in [0, 1] (the debug layer rejects others); NaN too.
    if (!(d >= 0.0f && d <= 1.0f)) throw InvalidArgument("clear_depth_stencil: depth must be in [0, 1], got " + std::to_string(d));
    CheckGraphics("clear_depth_stencil");
    CheckSameDevice(*depth, "clear_depth_stencil");
    if (depth->IsBuffer() || !depth->AllowsDepthStencil())
        throw InvalidArgument("clear_depth_stencil: " + Who(*depth) + " is not a depth-stencil texture (depth_stencil=True)");
    const bool all = arraySlice == kAllSlices;
    depth->CheckMipSlice(mip, all ? 0 : arraySlice, "clear_depth_stencil");
    const bool hasStencil = depth->PlaneCount() > 1;
    // ClearFlags must not be 0; a stencil clear needs a format with stencil (d24_unorm_s8_uint,
    // d32_float_s8x24_uint). With both asked for, a depth-only format clears its depth.
    if (!clearDepth && !clearStencil) throw InvalidArgument("clear_depth_stencil: clear_depth and clear_stencil are both False: nothing to clear");
    if (!clearDepth && !hasStencil)
        throw InvalidArgument("clear_depth_stencil: " + Who(*depth) + " (" + FormatName(depth->ViewFormat()) + ") has no stencil to clear");
    D3D12_CLEAR_FLAGS flags = D3D12_CLEAR_FLAGS(0);
    if (clearDepth) flags = D3D12_CLEAR_FLAGS(flags | D3D12_CLEAR_FLAG_DEPTH);
    if (clearStencil && hasStencil) flags = D3D12_CLEAR_FLAGS(flags | D3D12_CLEAR_FLAG_STENCIL);
    // Dsv(mip) covers every slice of the mip; Dsv(mip, slice) one of them.
    const bool wholeView = all || depth->ArraySize() == 1;
    D3D12_CPU_DESCRIPTOR_HANDLE dsv = wholeView ? depth->Dsv(mip) : depth->Dsv(mip, arraySlice);
    // The view covers both planes of each (mip, slice) it holds: all must be in DEPTH_WRITE.
    const uint32_t first = wholeView ? 0 : arraySlice, count = wholeView ? depth->ArraySize() : 1;
    for (uint32_t s = first; s < first + count; ++s)
        for (uint32_t plane = 0; plane < depth->PlaneCount(); ++plane)
            m_Tracker.Transition(depth, D3D12_RESOURCE_STATE_DEPTH_WRITE, depth->Subresource(mip, s, plane));
    // D3D12Rules rule 6d: only the planes cleared are initialized.
    for (uint32_t s = first; s < first + count; ++s) {
        if (clearDepth) ContentsInitialized(*depth, depth->Subresource(mip, s, 0));
        if (clearStencil && hasStencil) ContentsInitialized(*depth, depth->Subresource(mip, s, 1));
    }
    Flush();
    if (m_Validate) ValidateResource("clear_depth_stencil", depth.get());
    m_d3d12List->ClearDepthStencilView(dsv, flags, d, stencil, 0, nullptr);
}

void CommandList::SetVertexBuffer(uint32_t slot, const std::shared_ptr<Resource>& buffer, uint32_t stride, uint64_t offset) {
    const auto recording = Begin("set_vertex_buffer");
    CheckGraphics("set_vertex_buffer");
    CheckSameDevice(*buffer, "set_vertex_buffer");
    if (!buffer->IsBuffer()) throw InvalidArgument("set_vertex_buffer: " + Who(*buffer) + " is not a buffer");
    if (stride == 0) throw InvalidArgument("set_vertex_buffer: stride 0");
    if (slot >= D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)
        throw InvalidArgument("set_vertex_buffer: slot " + std::to_string(slot) + " out of range (0..31)");
    if (offset >= buffer->Size()) throw InvalidArgument("set_vertex_buffer: offset past the end of " + Who(*buffer));
    D3D12_VERTEX_BUFFER_VIEW v{buffer->GpuAddress() + offset, static_cast<UINT>(std::min<uint64_t>(buffer->Size() - offset, 0xFFFFFFFFu)), stride};
    m_d3d12List->IASetVertexBuffers(slot, 1, &v);
    m_VertexSlotsSet |= uint32_t(1) << slot;
    PutBinding(uint64_t(0xFFFF0000u | slot) << 32, Binding{buffer, D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER, 0, 0, false});
}

void CommandList::SetIndexBuffer(const std::shared_ptr<Resource>& buffer, DXGI_FORMAT format, uint64_t offset) {
    const auto recording = Begin("set_index_buffer");
    CheckGraphics("set_index_buffer");
    CheckSameDevice(*buffer, "set_index_buffer");
    if (format != DXGI_FORMAT_R16_UINT && format != DXGI_FORMAT_R32_UINT)
        throw InvalidArgument("set_index_buffer: format must be r16_uint or r32_uint");
    if (offset >= buffer->Size()) throw InvalidArgument("set_index_buffer: offset past the end of " + Who(*buffer));
    D3D12_INDEX_BUFFER_VIEW v{buffer->GpuAddress() + offset, static_cast<UINT>(std::min<uint64_t>(buffer->Size() - offset, 0xFFFFFFFFu)), format};
    m_d3d12List->IASetIndexBuffer(&v);
    m_IndexBufferSet = true;
    PutBinding(uint64_t(0xFFFFFFFFu) << 32, Binding{buffer, D3D12_RESOURCE_STATE_INDEX_BUFFER, 0, 0, false});
}

// --------------------------------------------------------------------------- dynamic uploads

UploadAllocation CommandList::AllocateUpload(uint64_t bytes, uint64_t alignment) {
    const auto recording = Begin("allocate_upload");
    return m_Upload.Allocate(bytes, alignment);
}

void CommandList::SetDynamicConstantBuffer(uint32_t rootIndex, const void* data, uint64_t bytes) {
    const auto recording = Begin("set_dynamic_constant_buffer");
    BoundRootSignature("set_dynamic_constant_buffer").Require(rootIndex, RootParamKind::Cbv, "set_dynamic_constant_buffer");
    if (bytes == 0) throw InvalidArgument("set_dynamic_constant_buffer: 0 bytes");
    if (bytes > 65536)
        throw InvalidArgument("set_dynamic_constant_buffer: " + std::to_string(bytes) + " bytes exceed the 65536-byte constant buffer limit");
    UploadAllocation a = m_Upload.Allocate(bytes, D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT);
    std::memcpy(a.cpu, data, bytes);
    if (m_Compute) m_d3d12List->SetComputeRootConstantBufferView(rootIndex, a.gpu);
    else m_d3d12List->SetGraphicsRootConstantBufferView(rootIndex, a.gpu);
    if (rootIndex < 64) m_RootCbvBytes[rootIndex] = uint32_t(bytes);
    NoteRootArgument(rootIndex);
    m_Bindings.erase((uint64_t(rootIndex) << 32) | 0xFFFFFFFFu);
}

void CommandList::SetDynamicVertexBuffer(uint32_t slot, const void* data, uint64_t bytes, uint32_t stride) {
    const auto recording = Begin("set_dynamic_vertex_buffer");
    CheckGraphics("set_dynamic_vertex_buffer");
    if (bytes == 0) throw InvalidArgument("set_dynamic_vertex_buffer: 0 bytes");
    if (slot >= D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)
        throw InvalidArgument("set_dynamic_vertex_buffer: slot " + std::to_string(slot) + " out of range (0..31)");
    if (stride == 0 || bytes % stride) throw InvalidArgument("set_dynamic_vertex_buffer: size is not a multiple of the stride");
    if (bytes > 0xFFFFFFFFull) throw InvalidArgument("set_dynamic_vertex_buffer: larger than 4 GiB");
    UploadAllocation a = m_Upload.Allocate(bytes, 16);
    std::memcpy(a.cpu, data, bytes);
    D3D12_VERTEX_BUFFER_VIEW v{a.gpu, static_cast<UINT>(bytes), stride};
    m_d3d12List->IASetVertexBuffers(slot, 1, &v);
    m_VertexSlotsSet |= uint32_t(1) << slot;
    m_Bindings.erase(uint64_t(0xFFFF0000u | slot) << 32);
}

void CommandList::SetDynamicIndexBuffer(const void* data, uint64_t bytes, DXGI_FORMAT format) {
    const auto recording = Begin("set_dynamic_index_buffer");
    CheckGraphics("set_dynamic_index_buffer");
    if (bytes == 0) throw InvalidArgument("set_dynamic_index_buffer: 0 bytes");
    if (format != DXGI_FORMAT_R16_UINT && format != DXGI_FORMAT_R32_UINT)
        throw InvalidArgument("set_dynamic_index_buffer: indices must be uint16 or uint32");
    if (bytes > 0xFFFFFFFFull)
        throw InvalidArgument("set_dynamic_index_buffer: larger than 4 GiB (an index buffer view holds at most 4 GiB - 1 bytes)");
    UploadAllocation a = m_Upload.Allocate(bytes, 16);
    std::memcpy(a.cpu, data, bytes);
    D3D12_INDEX_BUFFER_VIEW v{a.gpu, static_cast<UINT>(bytes), format};
    m_d3d12List->IASetIndexBuffer(&v);
    m_IndexBufferSet = true;
    m_Bindings.erase(uint64_t(0xFFFFFFFFu) << 32);
}

void CommandList::SetDynamicStructuredBuffer(uint32_t rootIndex, const void* data, uint64_t bytes) {
    const auto recording = Begin("set_dynamic_structured_buffer");
    BoundRootSignature("set_dynamic_structured_buffer").Require(rootIndex, RootParamKind::Srv, "set_dynamic_structured_buffer");
    if (bytes == 0) throw InvalidArgument("set_dynamic_structured_buffer: 0 bytes");
    UploadAllocation a = m_Upload.Allocate(bytes, 16);
    std::memcpy(a.cpu, data, bytes);
    if (m_Compute) m_d3d12List->SetComputeRootShaderResourceView(rootIndex, a.gpu);
    else m_d3d12List->SetGraphicsRootShaderResourceView(rootIndex, a.gpu);
    NoteRootArgument(rootIndex);
    m_Bindings.erase((uint64_t(rootIndex) << 32) | 0xFFFFFFFFu);
}

// ------------------------------------------------------------------------------------ work

void CommandList::RequireState(const std::shared_ptr<Resource>& r, D3D12_RESOURCE_STATES state, uint32_t firstMip, uint32_t mipCount) {
    if (mipCount == 0 || r->IsBuffer() || (firstMip == 0 && mipCount >= r->MipLevels())) {
        m_Tracker.Transition(r, state, kAllSubresources);
        return;
    }
    const uint32_t mips = r->MipLevels();
    const uint32_t end = std::min(mips, firstMip + mipCount);
    // Every plane: the stencil plane of a depth-stencil format moves with its depth plane.
    for (uint32_t plane = 0; plane < r->PlaneCount(); ++plane)
        for (uint32_t slice = 0; slice < r->ArraySize(); ++slice)
            for (uint32_t m = firstMip; m < end; ++m) m_Tracker.Transition(r, state, r->Subresource(m, slice, plane));
}

void CommandList::CheckRootArguments(const char* what) const {
    // D3D12: root arguments are undefined until set after the root signature was bound (a root
    // signature change clears them all). Root constants and root views are set one by one, so an
    // unset one is an error here; descriptor tables are written by the dynamic descriptor heap.
    // Only what a shader of the bound pipeline reads must be set (D3D12: "root arguments the
    // shaders do not reference may be left unset"; reflection says which ones they reference).
    const uint64_t missing = m_RootSignature->ArgumentsMask() & m_Pipeline->RootUse().readParameters & ~m_RootArgsSet;
    if (!missing) return;
    const std::vector<RootParameterDesc>& params = m_RootSignature->Parameters();
    for (uint32_t i = 0; i < params.size(); ++i) {
        if (!((missing >> i) & 1u)) continue;
        if (params[i].kind == RootParamKind::Constants && m_ConstantsSet[i]) {
            // Partly set: enough when every value the pipeline's cbuffer declares is set.
            const uint32_t read = m_Pipeline->RootUse().constantsRead[i];
            const uint64_t need = read >= 64 ? ~uint64_t(0) : (uint64_t(1) << read) - 1;
            const uint64_t unset = need & ~m_ConstantsSet[i];
            if (!unset) continue;
            std::string list;
            for (uint32_t j = 0; j < 64; ++j)
                if ((unset >> j) & 1u) list += (list.empty() ? "" : ", ") + std::to_string(j);
            throw InvalidArgument(std::string(what) + ": root parameter " + std::to_string(i) + " (root constants) is only partly set: constant(s) " +
                                  list + " of its " + std::to_string(params[i].num32BitValues) + " values, read by pipeline '" + m_Pipeline->Name() +
                                  "' (its cbuffer declares " + std::to_string(read) + "), were never set " + RootArgumentsClearedBy() +
                                  "; set them with set_constants first");
        }
        throw InvalidArgument(std::string(what) + ": root parameter " + std::to_string(i) + " (" + RootParamKindName(params[i].kind) +
                              ") of the bound root signature is read by pipeline '" + m_Pipeline->Name() + "' but not set " +
                              ((m_RootViewsNulled >> i) & 1u ? std::string("since execute_indirect, whose command signature changes it, left it a "
                                                                           "null view (D3D12: root views a command signature sets are NULL after "
                                                                           "ExecuteIndirect)")
                                                             : RootArgumentsClearedBy()) +
                              "; set it first");
    }
}

void CommandList::CheckIndexBuffer(const char* what) const {
    if (!m_IndexBufferSet)
        throw InvalidArgument(std::string(what) +
                              (m_IndexBufferNulled ? ": the index buffer is NULL: execute_indirect, whose command signature sets it "
                                                     "(index_buffer_view), left it NULL (D3D12: an index buffer a command signature "
                                                     "sets is NULL after ExecuteIndirect)"
                                                   : ": no index buffer is set on this list") +
                              "; call set_index_buffer (or set_dynamic_index_buffer) first");
}

void CommandList::ThrowMissingVertexBuffer(const char* what, uint32_t covered) const {
    // A list starts with no vertex buffer bound (ID3D12GraphicsCommandList::ClearState: a list's
    // state at creation, "all currently bound resources are unbound"), and bindings persist across
    // SetPipelineState, so "set since the list opened" is what counts. D3D12 itself only warns
    // (debug layer: D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_VERTEX_BUFFER_NOT_SET) and documents no
    // value for such a fetch; a fetch through a slot vkd3d binds to no buffer is undefined in
    // Vulkan (VUID-vkCmdDraw-None-04007): a silent wrong number, so refused.
    // Only slots of elements the vertex shader reads count (PipelineState::InputSlots): vkd3d leaves
    // an unread element out of the Vulkan pipeline, and D3D12 fetches nothing for it, so a depth
    // pre-pass may share a full layout and bind only the position stream.
    const uint32_t missing = m_Pipeline->InputSlots() & ~(m_VertexSlotsSet | covered);
    uint32_t slot = 0;
    while (!((missing >> slot) & 1u)) ++slot;
    std::string semantics;
    for (const InputElementDesc& e : m_Pipeline->InputLayout())  // (unread elements named too: they share the slot)
        if (e.slot == slot)
            semantics += (semantics.empty() ? "'" : ", '") + e.semantic + (e.semanticIndex ? std::to_string(e.semanticIndex) : std::string()) + "'";
    throw InvalidArgument(std::string(what) + ": pipeline '" + m_Pipeline->Name() + "' reads vertex-buffer slot " + std::to_string(slot) +
                          " (input_layout " + semantics + ") but " +
                          ((m_VertexSlotsNulled >> slot) & 1u
                               ? std::string("execute_indirect, whose command signature sets that slot (vertex_buffer_view), "
                                             "left a NULL vertex buffer there (D3D12: a vertex buffer a command "
                                             "signature sets is NULL after ExecuteIndirect)")
                               : std::string("no vertex buffer was set there on this list")) +
                          "; call set_vertex_buffer(" + std::to_string(slot) + ", ...) (or set_dynamic_vertex_buffer) first");
}

void CommandList::CheckTableSlots(const char* what) const {
    // A table slot never written holds the null descriptor (reads give zeros, writes vanish, no
    // error): an SRV/UAV the pipeline reads there must have been set. Arrays may be indexed partly,
    // so only single-register declarations are required.
    for (const auto& kv : m_Pipeline->RootUse().tableSlots) {
        const ShaderBinding& b = kv.second;
        if (b.count != 1 || m_Bindings.count(kv.first)) continue;
        const uint32_t rootIndex = uint32_t(kv.first >> 32), slot = uint32_t(kv.first);
        const bool uav = b.kind == BindingKind::Uav;
        const std::string setCall = std::string(uav ? "set_unordered_access_view(" : "set_shader_resource_view(") + std::to_string(rootIndex) + ", " +
                                    std::to_string(slot) + ", ...)";
        const auto leftOn = [&](bool compute) {
            const std::vector<uint64_t>& left = m_SlotsLeftOnBindPoint[compute ? 1 : 0];
            return std::find(left.begin(), left.end(), kv.first) != left.end();
        };
        const char* here = m_Compute ? "compute" : "graphics";
        const char* other = m_Compute ? "graphics" : "compute";
        std::string why;
        if (leftOn(m_Compute)) {
            why = std::string(", which was set while a ") + here + " pipeline was bound, but set_pipeline_state with a " + other +
                  " pipeline since then cleared it (a list holds the root arguments of the bind point of its bound pipeline only; "
                  "moving between graphics and compute clears them); call " +
                  setCall + " again after set_pipeline_state bound this " + here + " pipeline";
        } else if (leftOn(!m_Compute)) {
            why = std::string(", which was set only while a ") + other +
                  " pipeline was bound: D3D12 keeps graphics and compute root arguments apart (Set" + (m_Compute ? "Graphics" : "Compute") +
                  "RootDescriptorTable does not set the " + here + " bind point's tables); call " + setCall +
                  " again after set_pipeline_state bound this " + here + " pipeline";
        } else if (m_PipelineUnboundBy || std::strcmp(m_RootArgsClearedBy, "set_pipeline_state") != 0) {
            why = ", which is not set " + RootArgumentsClearedBy() + "; call " + setCall;
        } else {
            why = ", which was never set on this list; call " + setCall + " first";
        }
        throw InvalidArgument(std::string(what) + ": pipeline '" + m_Pipeline->Name() + "' reads " + (uav ? "u" : "t") +
                              std::to_string(b.shaderRegister) + (b.space ? " (space " + std::to_string(b.space) + ")" : std::string()) + " ('" +
                              b.name + "') through descriptor table root parameter " + std::to_string(rootIndex) + ", slot " + std::to_string(slot) +
                              why + " (an unset slot holds the null descriptor: reads give zeros, writes are lost)");
    }
    // A sampler-table slot never written holds whatever the shader-visible sampler heap held there
    // (D3D12: undefined; static samplers are always defined). Arrays alike: single registers only.
    for (const auto& kv : m_Pipeline->RootUse().samplerSlots) {
        const ShaderBinding& b = kv.second.binding;
        if (b.count != 1 || m_TableSamplers.count(kv.first)) continue;
        const uint32_t rootIndex = uint32_t(kv.first >> 32), slot = uint32_t(kv.first);
        throw InvalidArgument(std::string(what) + ": pipeline '" + m_Pipeline->Name() + "' reads s" + std::to_string(b.shaderRegister) +
                              (b.space ? " (space " + std::to_string(b.space) + ")" : std::string()) + " ('" + b.name + "', a " + b.TypeName() +
                              ") through sampler table root parameter " + std::to_string(rootIndex) + ", slot " + std::to_string(slot) +
                              ", which was never set on this list (it holds whatever the descriptor heap held there: D3D12 leaves the "
                              "sampling undefined); call set_sampler(" +
                              std::to_string(rootIndex) + ", " + std::to_string(slot) + ", ...) first, or use a static sampler");
    }
}

void CommandList::PrepareWork(bool dispatch, const char* what) {
    if (!m_Pipeline) throw InvalidArgument(dispatch ? "dispatch: no pipeline is set" : "draw: no pipeline is set");
    if (dispatch != m_Compute)
        throw InvalidArgument(dispatch ? "dispatch: the bound pipeline is a graphics pipeline" : "draw: the bound pipeline is a compute pipeline");
    // Checked again only after a change (one compare per draw otherwise): the targets against the
    // pipeline's formats, the bindings against each other.
    if (!dispatch && !m_TargetsMatch) CheckTargetFormats(what);
    if (!(m_HazardsChecked & (dispatch ? 2u : 1u))) CheckBindingHazards(dispatch, what);
    if (m_SlotChecks) {  // again only after the pipeline, a view or a sampler slot changed
        if ((m_SlotChecks & kCheckUavCounters) && m_Pipeline->UsesUavCounters()) CheckUavCounters(what);
        if ((m_SlotChecks & kCheckSamplers) && !m_Pipeline->RootUse().samplerSlots.empty()) CheckTableSamplers(what);
        if ((m_SlotChecks & kCheckTableSlots) && !m_BuiltinPass) CheckTableSlots(what);
        m_SlotChecks = 0;
    }
    if (!dispatch && m_Pipeline->UsesBlendFactor() && !m_BlendFactorSet) {
        // D3D12 starts a list with the blend factor at zeros (ID3D12GraphicsCommandList::ClearState: "the
        // state it was in when the command list was created ... blend factor set to empty values (all
        // zeros)"). Recorded once, so the value does not depend on what the backend starts with.
        static const float kZeros[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        m_d3d12List->OMSetBlendFactor(kZeros);
        m_BlendFactorSet = true;
    }
    if (m_RootSignature->ArgumentsMask() & m_Pipeline->RootUse().readParameters & ~m_RootArgsSet)  // (its first test, in line)
        CheckRootArguments(dispatch ? "dispatch" : "draw");
    if (m_Validate) {
        ValidateBufferViews(dispatch ? "dispatch" : "draw");
        ValidateConstantBuffers(what);
    }
    // Every bound resource in the state this work needs (a UAV written by earlier work first gets its
    // UAV barrier). All of them when anything may have moved one since the last draw or dispatch
    // (the header's m_DirtyKeys note says what counts), else only the bindings put since: in a steady
    // loop of draws nothing at all.
    const uint8_t kind = dispatch ? 2 : 1;
    const uint64_t closes = m_Context->ResourceCloses();
    if (m_Validate || m_AllBindingsDirty || m_SettledFor != kind || m_SettledEpoch != m_Tracker.StateEpoch() || m_SettledAutoUav != AutoUavBarriers ||
        m_SettledCloses != closes) {
        RequestAllBindings(dispatch, what);
    } else if (!m_DirtyKeys.empty()) {
        const uint64_t before = m_Tracker.StateEpoch();
        for (uint64_t key : m_DirtyKeys) {
            auto it = m_Bindings.find(key);
            if (it == m_Bindings.end()) continue;  // erased since
            RequestBinding(key, it->second, dispatch, what);
            m_HasUavBindings |= it->second.uav;
        }
        // A state moved: when another binding holds the same resource, request them all (in the
        // order a full pass takes, as before).
        if (m_Tracker.StateEpoch() != before && DirtyResourceBoundElsewhere(dispatch)) RequestAllBindings(dispatch, what);
    }
    m_DirtyKeys.clear();
    m_AllBindingsDirty = false;
    m_SettledFor = kind;
    m_SettledAutoUav = AutoUavBarriers;
    m_SettledCloses = closes;
    m_SettledEpoch = m_Tracker.StateEpoch();
    if (m_Validate) {
        // D3D12Rules rule 6d: what the work reads or writes must hold defined contents. Shader
        // views read plane 0 (dx12kit's depth SRVs); a depth buffer's planes count only when the
        // pipeline tests them.
        const char* op = dispatch ? "dispatch" : "draw";
        for (auto& kv : m_Bindings) ContentsUsed(*kv.second.resource, kv.second.firstMip, kv.second.mipCount, 1u, op);
        if (!dispatch)
            for (auto& b : m_TargetBindings) {
                if (!b.resource->AllowsDepthStencil()) {
                    ContentsUsed(*b.resource, b.firstMip, 1, 1u, "draw (render target)");
                    continue;
                }
                if (m_Pipeline->DepthTest()) ContentsUsed(*b.resource, b.firstMip, 1, 1u, "draw (depth test)");
                if (m_Pipeline->StencilTest()) ContentsUsed(*b.resource, b.firstMip, 1, 2u, "draw (stencil test)");
            }
    }
    Flush();
    if (m_Validate) ValidateBindings(dispatch ? "dispatch" : "draw", !dispatch);
    if (m_ViewDescriptors.StaleMask() || m_SamplerDescriptors.StaleMask()) {
        BindDescriptorHeaps();
        if (dispatch) {
            m_ViewDescriptors.CommitStagedDescriptorsForDispatch(m_d3d12List.Get());
            m_SamplerDescriptors.CommitStagedDescriptorsForDispatch(m_d3d12List.Get());
        } else {
            m_ViewDescriptors.CommitStagedDescriptorsForDraw(m_d3d12List.Get());
            m_SamplerDescriptors.CommitStagedDescriptorsForDraw(m_d3d12List.Get());
        }
    }
}

void CommandList::RequestBinding(uint64_t key, Binding& b, bool dispatch, const char* what) {
    if (b.bufferView >= kViewUnresolvable) ThrowUnusableBinding(key, b, what);  // FollowDeclaredBufferViews marked it
    // A dispatch uses no vertex or index buffer: requesting their states would fight a UAV of the
    // same buffer (the last request wins).
    if (dispatch && key >= kInputAssemblerKeys) return;
    if (b.uav && AutoUavBarriers) m_Tracker.UavHazard(b.resource);
    RequireState(b.resource, b.state, b.firstMip, b.mipCount);
}

void CommandList::RequestAllBindings(bool dispatch, const char* what) {
    bool uavs = false;
    for (auto& kv : m_Bindings) {
        RequestBinding(kv.first, kv.second, dispatch, what);
        uavs |= kv.second.uav;
    }
    if (!dispatch)
        for (auto& b : m_TargetBindings) RequireState(b.resource, b.state, b.firstMip, b.mipCount);
    m_HasUavBindings = uavs;
}

bool CommandList::DirtyResourceBoundElsewhere(bool dispatch) const {
    for (uint64_t key : m_DirtyKeys) {
        auto it = m_Bindings.find(key);
        if (it == m_Bindings.end()) continue;
        const Resource* r = it->second.resource.get();
        for (const auto& kv : m_Bindings)
            if (kv.first != key && kv.second.resource.get() == r) return true;
        if (!dispatch)
            for (const auto& b : m_TargetBindings)
                if (b.resource.get() == r) return true;
    }
    return false;
}

namespace {
std::string FormatOrNone(DXGI_FORMAT f) {
    return f == DXGI_FORMAT_UNKNOWN ? std::string("none") : FormatName(f);
}
std::string FormatList(const std::vector<DXGI_FORMAT>& formats) {
    std::string s = "[";
    for (size_t i = 0; i < formats.size(); ++i) s += (i ? ", '" : "'") + FormatName(formats[i]) + "'";
    return s + "]";
}
}  // namespace

void CommandList::CheckTargetFormats(const char* what) {
    const PipelineState& p = *m_Pipeline;
    // D3D12_GRAPHICS_PIPELINE_STATE_DESC.SampleDesc must match the bound render targets' and
    // depth buffer's sample count (the debug layer rejects the draw; drivers misrender).
    const uint32_t want = p.SampleCount();
    for (const auto& b : m_TargetBindings)
        if (b.resource->SampleCount() != want)
            throw InvalidArgument(std::string(what) + ": pipeline '" + p.Name() + "' renders with sample_count=" + std::to_string(want) + " but " +
                                  Who(*b.resource) + " has " + std::to_string(b.resource->SampleCount()) +
                                  " sample(s); create the pipeline with sample_count=" + std::to_string(b.resource->SampleCount()));
    // RTVFormats / NumRenderTargets and DSVFormat: the pipeline is compiled for them (its outputs'
    // encoding, blending, the depth format). D3D12's debug layer refuses a draw whose bound targets
    // differ (RENDER_TARGET_FORMAT_MISMATCH_PIPELINE_STATE, DEPTH_STENCIL_FORMAT_MISMATCH_PIPELINE_STATE);
    // vkd3d draws anyway, converting to whatever the target holds. A view's format is what counts
    // (an sRGB view is its sRGB format); dx12kit's render-target and depth views take the
    // texture's view format.
    const std::vector<DXGI_FORMAT>& rtv = p.RtvFormats();
    std::vector<DXGI_FORMAT> bound;
    for (uint32_t i = 0; i < m_RtvCount; ++i) bound.push_back(m_TargetBindings[i].resource->ViewFormat());
    const Resource* depth = m_TargetBindings.size() > m_RtvCount ? m_TargetBindings.back().resource.get() : nullptr;
    const DXGI_FORMAT dsv = depth ? depth->ViewFormat() : DXGI_FORMAT_UNKNOWN;
    if (bound == rtv && dsv == p.DsvFormat()) {
        m_TargetsMatch = true;
        return;
    }
    std::string head = std::string(what) + ": pipeline '" + p.Name() + "' was created for rtv_formats=" + FormatList(rtv) + ", dsv_format " +
                       FormatOrNone(p.DsvFormat()) + ", but ";
    const std::string rule =
        " (D3D12 refuses a draw whose bound render-target formats, their count, or depth format differ from the pipeline's "
        "RTVFormats / DSVFormat; a view's format counts, e.g. an sRGB view is its sRGB format)";
    if (bound != rtv) {
        std::string why;
        for (size_t i = 0; i < std::max(bound.size(), rtv.size()); ++i) {
            const Resource* r = i < bound.size() ? m_TargetBindings[i].resource.get() : nullptr;
            if (i >= rtv.size()) {
                why = "render target " + std::to_string(i) + " (" + Who(*r) + ", " + FormatName(bound[i]) +
                      ") is bound where the pipeline has no rtv_formats[" + std::to_string(i) + "]";
                break;
            }
            if (i >= bound.size()) {
                why = "no render target is bound at slot " + std::to_string(i) + ", where the pipeline writes rtv_formats[" + std::to_string(i) +
                      "] = " + FormatName(rtv[i]);
                break;
            }
            if (bound[i] != rtv[i]) {
                why = "render target " + std::to_string(i) + " (" + Who(*r) + ") is " + FormatName(bound[i]) +
                      " where the pipeline has rtv_formats[" + std::to_string(i) + "] = " + FormatName(rtv[i]);
                break;
            }
        }
        throw InvalidArgument(head + why + rule + ": bind render targets of formats " + FormatList(rtv) +
                              " with set_render_targets, or create the pipeline with rtv_formats=" + FormatList(bound));
    }
    const std::string boundDepth = depth ? "the depth buffer " + Who(*depth) + " is " + FormatName(dsv) : std::string("no depth buffer is bound");
    throw InvalidArgument(head + boundDepth + rule + ": " +
                          (p.DsvFormat() == DXGI_FORMAT_UNKNOWN
                               ? std::string("call set_render_targets without depth")
                               : "bind a " + FormatName(p.DsvFormat()) + " depth buffer (set_render_targets(..., depth=...))") +
                          ", or create the pipeline with dsv_format=" + (depth ? "'" + FormatName(dsv) + "'" : std::string("None")));
}

void CommandList::NoteUavWrites() {
    if (!m_HasUavBindings) return;
    for (auto& kv : m_Bindings)
        if (kv.second.uav) m_Tracker.NoteUavWrite(kv.second.resource.get());
}

void CommandList::Draw(uint32_t vertexCount, uint32_t instanceCount, uint32_t startVertex, uint32_t startInstance) {
    const auto recording = Begin("draw");
    CheckGraphics("draw");
    CheckVertexBuffers("draw");
    PrepareWork(false, "draw");
    m_d3d12List->DrawInstanced(vertexCount, instanceCount, startVertex, startInstance);
    NoteUavWrites();
}

void CommandList::DrawIndexed(uint32_t indexCount, uint32_t instanceCount, uint32_t startIndex, int32_t baseVertex, uint32_t startInstance) {
    const auto recording = Begin("draw_indexed");
    CheckGraphics("draw_indexed");
    CheckIndexBuffer("draw_indexed");
    CheckVertexBuffers("draw_indexed");
    PrepareWork(false, "draw_indexed");
    m_d3d12List->DrawIndexedInstanced(indexCount, instanceCount, startIndex, baseVertex, startInstance);
    NoteUavWrites();
}

void CommandList::Dispatch(uint32_t x, uint32_t y, uint32_t z) {
    const auto recording = Begin("dispatch");
    CheckNotCopy("dispatch");
    if (x == 0 || y == 0 || z == 0) throw InvalidArgument("dispatch: thread group counts must be positive");
    if (x > 65535 || y > 65535 || z > 65535) throw InvalidArgument("dispatch: at most 65535 thread groups per dimension");
    PrepareWork(true, "dispatch");
    m_d3d12List->Dispatch(x, y, z);
    NoteUavWrites();
}

template <typename Record>
void CommandList::RecordMany(const char* what, bool dispatch, const uint32_t* constants, uint32_t rows, uint32_t k, uint32_t rootIndex,
                             Record&& record) {
    // Caller: Begin(what) held and the operation's own checks done.
    CheckConstants(rootIndex, k, 0, what);
    if (dispatch != m_Compute)
        throw InvalidArgument(std::string(what) +
                              (dispatch ? ": the bound pipeline is a graphics pipeline" : ": the bound pipeline is a compute pipeline"));
    if (rows == 0) return;
    // Between two rows only root constants change, so what PrepareWork settles at the first row
    // stays settled, except a UAV written by the previous row (automatic UAV barrier) and what
    // validation mode checks: then every row runs it, as the single calls would.
    bool uavs = false;
    for (const auto& kv : m_Bindings) uavs |= kv.second.uav;
    const bool everyRow = m_Validate || (uavs && AutoUavBarriers);
    ID3D12GraphicsCommandList* list = m_d3d12List.Get();
    for (uint32_t i = 0; i < rows; ++i) {
        const uint32_t* row = constants + size_t(i) * k;
        if (dispatch) list->SetComputeRoot32BitConstants(rootIndex, k, row, 0);
        else list->SetGraphicsRoot32BitConstants(rootIndex, k, row, 0);
        if (i == 0) {
            NoteConstants(rootIndex, k, 0);
            PrepareWork(dispatch, what);
        } else if (everyRow) {
            PrepareWork(dispatch, what);
        }
        record(list, i);
        if (everyRow && uavs) NoteUavWrites();
    }
    if (!everyRow && uavs) NoteUavWrites();
}

void CommandList::DrawMany(uint32_t vertexCount, uint32_t instanceCount, const uint32_t* constants, uint32_t rows, uint32_t k, uint32_t rootIndex) {
    const auto recording = Begin("draw_many");
    CheckGraphics("draw_many");
    CheckVertexBuffers("draw_many");
    RecordMany("draw_many", false, constants, rows, k, rootIndex,
               [&](ID3D12GraphicsCommandList* l, uint32_t) { l->DrawInstanced(vertexCount, instanceCount, 0, 0); });
}

void CommandList::DrawIndexedMany(uint32_t indexCount, uint32_t instanceCount, const uint32_t* constants, uint32_t rows, uint32_t k,
                                  uint32_t rootIndex) {
    const auto recording = Begin("draw_indexed_many");
    CheckGraphics("draw_indexed_many");
    CheckIndexBuffer("draw_indexed_many");
    CheckVertexBuffers("draw_indexed_many");
    RecordMany("draw_indexed_many", false, constants, rows, k, rootIndex,
               [&](ID3D12GraphicsCommandList* l, uint32_t) { l->DrawIndexedInstanced(indexCount, instanceCount, 0, 0, 0); });
}

void CommandList::DispatchMany(const uint32_t* groups, bool perRowGroups, const uint32_t* constants, uint32_t rows, uint32_t k, uint32_t rootIndex) {
    const auto recording = Begin("dispatch_many");
    CheckNotCopy("dispatch_many");
    const uint32_t sets = perRowGroups ? rows : 1;
    for (uint32_t i = 0; i < sets; ++i)
        for (uint32_t d = 0; d < 3; ++d) {
            const uint32_t g = groups[size_t(i) * 3 + d];
            if (g == 0 || g > 65535)
                throw InvalidArgument("dispatch_many: thread group counts must be 1..65535, got " + std::to_string(g) +
                                      (perRowGroups ? " in row " + std::to_string(i) : std::string()) + " of groups");
        }
    RecordMany("dispatch_many", true, constants, rows, k, rootIndex, [&](ID3D12GraphicsCommandList* l, uint32_t i) {
        const uint32_t* g = groups + (perRowGroups ? size_t(i) * 3 : 0);
        l->Dispatch(g[0], g[1], g[2]);
    });
}

void CommandList::ValidateBindings(const char* op, bool targets) {
    if (m_Shadow.empty()) return;
    for (const auto& kv : m_Bindings) ValidateResource(op, kv.second.resource.get());
    if (targets)
        for (const auto& b : m_TargetBindings) ValidateResource(op, b.resource.get());
}

void CommandList::ValidateResource(const char* op, const Resource* resource) {
    // Only raw transitions can make the tracker's belief differ from what was recorded, and only
    // the resources the operation touches matter to it.
    auto it = m_Shadow.find(const_cast<Resource*>(resource));
    if (it == m_Shadow.end()) return;
    {
        const auto& kv = *it;
        Resource* r = kv.first;
        for (uint32_t s = 0; s < r->NumSubresources(); ++s) {
            const D3D12_RESOURCE_STATES actual = kv.second.Get(s);
            if (actual == kUnknownState) continue;
            const D3D12_RESOURCE_STATES believed = m_Tracker.KnownState(r, s);
            if (believed != kUnknownState && believed != actual)
                throw ResourceStateError(std::string(op) + ": resource '" + r->Name() + "' subresource " + std::to_string(s) + " must be in state " +
                                         StateName(believed) + " but is in state " + StateName(actual) +
                                         " (changed by a raw transition the state tracker does not know about)");
        }
    }
}

// ------------------------------------------------------------------------------- lifecycle

void CommandList::Close() {
    if (m_Closed.load()) return;
    Flush();
    const HRESULT hr = m_d3d12List->Close();
    m_Closed.store(true, std::memory_order_release);
    if (FAILED(hr)) m_Dead = true;  // never executable; the error names why
    ThrowIfFailed(hr, "ID3D12GraphicsCommandList::Close");
}

void CommandList::Retire(uint64_t serial, std::vector<std::shared_ptr<void>>& tracked, ComPtr<ID3D12CommandAllocator>& allocator,
                         ComPtr<ID3D12GraphicsCommandList>& list) {
    m_Tracker.MarkExecuted(serial);
    EndUses();
    m_Tracker.MoveResourcesTo(tracked);
    for (auto& t : m_Tracked) tracked.push_back(std::move(t));
    m_Tracked.clear();
    for (auto& kv : m_Bindings) tracked.push_back(std::move(kv.second.resource));
    m_Bindings.clear();
    m_TableSamplers.clear();
    m_SlotChecks = kCheckAllSlots;
    m_SlotsLeftOnBindPoint = {};
    m_TargetBindings.clear();
    m_DirtyKeys.clear();
    m_AllBindingsDirty = true;
    if (m_Pipeline) tracked.push_back(std::move(m_Pipeline));
    m_Upload.Retire(serial);
    m_PendingWrites.clear();
    m_PendingStamps.clear();
    m_ViewDescriptors.Retire(serial);
    m_SamplerDescriptors.Retire(serial);
    m_Shadow.clear();
    m_Tracker.Reset();
    m_Executed.store(true, std::memory_order_release);
    allocator = std::move(m_Allocator);
    list = std::move(m_d3d12List);
}

}  // namespace dx12kit
