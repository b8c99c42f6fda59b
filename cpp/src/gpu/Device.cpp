#include "dx12kit/gpu/Device.hpp"

#include "dx12kit/devicecontext/FormatSupport.hpp"
#include "dx12kit/devicecontext/Formats.hpp"
#include "dx12kit/devicecontext/UploadBuffer.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/FenceChecks.hpp"
#include "dx12kit/gpu/PassBuffers.hpp"
#include "dx12kit/gpu/UmaAccess.hpp"
#include "d3dx12/D3dx12Lite.hpp"
#include "dx12kit/platform/HResult.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <cstdio>
#include <limits>

namespace dx12kit {

std::shared_ptr<Device> Device::Create(const DeviceOptions& options, void (*deleter)(Device*)) {
    if (deleter) return std::shared_ptr<Device>(new Device(options), deleter);
    return std::shared_ptr<Device>(new Device(options));
}

Device::Device(const DeviceOptions& options)
    : m_Context(std::make_shared<DeviceContext>(options)), m_FenceChecks(std::make_shared<FenceCheckSink>()) {
    m_PassBuffers = std::make_shared<PassBufferPool>(*this);
    m_AdapterName = platform::AdapterName(m_Context->D3D12Device());
    static const D3D_FEATURE_LEVEL kLevels[] = {D3D_FEATURE_LEVEL_12_1, D3D_FEATURE_LEVEL_12_0, D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0};
    D3D12_FEATURE_DATA_FEATURE_LEVELS fl{};
    fl.NumFeatureLevels = 4;
    fl.pFeatureLevelsRequested = kLevels;
    if (SUCCEEDED(m_Context->D3D12Device()->CheckFeatureSupport(D3D12_FEATURE_FEATURE_LEVELS, &fl, sizeof fl)))
        m_FeatureLevel = fl.MaxSupportedFeatureLevel;
    // All three queues exist for the device's lifetime, so Poll/WaitIdle read m_Queues without a lock.
    for (D3D12_COMMAND_LIST_TYPE t : {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY})
        m_Queues[static_cast<int>(t)] = std::make_unique<CommandQueue>(*this, t);
}

namespace {
/// Moves `v` into a heap object that is never destroyed.
template <class T>
void Leak(T& v) {
    (void)new T(std::move(v));
}
}  // namespace

Device::~Device() {
    if (m_Context->Forked()) {
        // A forked child's copy of a device (dx12kit/platform/Fork.hpp): its GPU work runs in the
        // parent, and releasing its D3D12 objects or taking its locks could block forever here.
        // Nothing is waited for and nothing is released: every member is leaked on purpose.
        for (auto& q : m_Queues) (void)q.release();
        Leak(m_ZeroBuffer);
        Leak(m_Builtins);
        Leak(m_Context);
        return;
    }
    if (m_Context->Closed()) {  // Close() waited for every queue, and nothing was submitted since
        for (auto& q : m_Queues) q.reset();
        return;
    }
    try {
        WaitIdle();
    } catch (...) {
        // Interrupted (or a failed wait): the GPU may still run submitted work. Freeing its
        // memory, allocators or queues now would pull them from under the GPU, so the queues and
        // everything they keep in flight are leaked on purpose. A destructor cannot report.
        for (auto& q : m_Queues) (void)q.release();
        return;
    }
    for (auto& q : m_Queues) q.reset();
}

std::shared_ptr<CommandQueue> Device::Queue(D3D12_COMMAND_LIST_TYPE type) {
    m_Context->CheckNotForked("queue");
    if (type != D3D12_COMMAND_LIST_TYPE_DIRECT && type != D3D12_COMMAND_LIST_TYPE_COMPUTE && type != D3D12_COMMAND_LIST_TYPE_COPY)
        throw InvalidArgument("queue type must be direct, compute or copy");
    // Aliasing pointer: holding the queue keeps the whole Device alive.
    return std::shared_ptr<CommandQueue>(shared_from_this(), m_Queues[static_cast<int>(type)].get());
}

CommandQueue* Device::PollQueues(uint64_t& oldestInFlight) {
    std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
    oldestInFlight = std::numeric_limits<uint64_t>::max();
    CommandQueue* oldestQueue = nullptr;
    for (auto& q : m_Queues) {
        if (!q) continue;
        const uint64_t s = q->Poll();
        if (s < oldestInFlight) {
            oldestInFlight = s;
            oldestQueue = q.get();
        }
    }
    return oldestQueue;
}

uint64_t Device::PollAndApply(CommandQueue** oldestQueue) {
    m_Context->CheckNotForked("poll");
    std::lock_guard<std::recursive_mutex> lock(m_Context->SubmitMutex());
    uint64_t oldest;
    CommandQueue* q = PollQueues(oldest);
    // Every completion PollQueues observed (the records it popped) is applied here, under the same
    // lock: the serial it implies is published and the allocators release what it freed.
    const uint64_t completed = q ? oldest - 1 : m_Context->LastSerial();
    m_Context->OnSerialCompleted(completed);
    if (oldestQueue) *oldestQueue = q;
    return completed;
}

uint64_t Device::Poll() {
    return PollAndApply(nullptr);
}

bool Device::WaitForProgress() {
    const uint64_t before = m_Context->CompletedSerial();
    CommandQueue* oldestQueue = nullptr;
    const uint64_t completed = PollAndApply(&oldestQueue);
    // Nothing in flight: every completion has just been applied, so what the caller still cannot
    // get, no wait would free. The caller looks once more before reporting it.
    if (!oldestQueue) return false;
    // Work completed since the caller's last look: it may have freed what the caller needs.
    if (completed > before) return true;
    oldestQueue->WaitOldest();  // false when another thread retired it meanwhile: progress anyway
    Poll();
    return true;
}

void Device::WaitForSerial(uint64_t serial, double timeoutSeconds) {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    for (;;) {
        // Applies what each look sees (a timeout below must not leave popped completions unapplied).
        CommandQueue* q = nullptr;
        const uint64_t completed = PollAndApply(&q);
        if (!q || completed >= serial) break;
        double left = -1.0;
        if (timeoutSeconds >= 0) left = std::max(0.0, timeoutSeconds - std::chrono::duration<double>(Clock::now() - start).count());
        q->WaitOldest(left);  // false when another thread retired it meanwhile: look again
    }
    Poll();
}

bool Device::AnySignalPending() const {
    bool any = false;
    for (const auto& q : m_Queues)  // every queue: each checks its own stall (CommandQueue::HealIfStalled)
        if (q && q->SignalPending()) any = true;
    return any;
}

void Device::WaitIdle() {
    m_Context->CheckNotForked("wait_idle");
    for (auto& q : m_Queues)
        if (q) q->Flush(-1.0, false);  // every queue idle first: raising on the first would leave the others running
    Poll();
    m_FenceChecks->ThrowIfAny("wait_idle");
}

std::map<std::string, std::string> Device::Info() const {
    std::map<std::string, std::string> info;
    info["backend"] = DX12KIT_BACKEND_NAME;
    info["adapter"] = m_AdapterName;
    char buf[16];
    std::snprintf(buf, sizeof buf, "%d_%d", (m_FeatureLevel >> 12) & 0xF, (m_FeatureLevel >> 8) & 0xF);
    info["feature_level"] = buf;
    D3D12_FEATURE_DATA_D3D12_OPTIONS o{};
    if (SUCCEEDED(m_Context->D3D12Device()->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS, &o, sizeof o))) {
        info["resource_binding_tier"] = std::to_string(static_cast<int>(o.ResourceBindingTier));
        info["resource_heap_tier"] = std::to_string(static_cast<int>(o.ResourceHeapTier));
        info["tiled_resources_tier"] = std::to_string(static_cast<int>(o.TiledResourcesTier));
    }
    return info;
}

}  // namespace dx12kit

// ------------------------------------------------------------------------------- resources

namespace dx12kit {

namespace {

memory::HeapKind HeapKindOf(D3D12_HEAP_TYPE heap) {
    switch (heap) {
        case D3D12_HEAP_TYPE_UPLOAD: return memory::HeapKind::Upload;
        case D3D12_HEAP_TYPE_READBACK: return memory::HeapKind::Readback;
        case D3D12_HEAP_TYPE_CUSTOM: return memory::HeapKind::Custom;
        default: return memory::HeapKind::Default;
    }
}

D3D12_HEAP_TYPE HeapTypeOf(memory::HeapKind kind) {
    switch (kind) {
        case memory::HeapKind::Upload: return D3D12_HEAP_TYPE_UPLOAD;
        case memory::HeapKind::Readback: return D3D12_HEAP_TYPE_READBACK;
        case memory::HeapKind::Custom: return D3D12_HEAP_TYPE_CUSTOM;
        default: return D3D12_HEAP_TYPE_DEFAULT;
    }
}

}  // namespace

void Device::CheckPlacementArgs(const Placement& p, const char* what) const {
    ID3D12Device* device = D3D12Device();
    if (p.pool && p.pool->D3D12Device() != device) throw InvalidArgument(std::string(what) + ": the pool belongs to another device");
    if (p.memory) {
        const memory::MemoryPool* pool = p.memory->allocation.Pool();
        if (!pool || pool->D3D12Device() != device) throw InvalidArgument(std::string(what) + ": the memory belongs to another device");
        if (p.pool || p.committed)
            throw InvalidArgument(std::string(what) + ": memory= places the resource itself; pool= and committed= do not apply");
    }
}

void Device::AdoptPlacement(const std::shared_ptr<Resource>& r, const Placement& p, memory::HeapKind kind) {
    if (p.memory) {
        r->SetMemoryOwner(p.memory);  // contents undefined until written
        r->SetAliasRange(p.memory.get(), p.offset, p.offset + r->Memory().Size());
    } else if ((kind == memory::HeapKind::Default || (kind == memory::HeapKind::Custom && r->HeapType() == D3D12_HEAP_TYPE_DEFAULT)) &&
               !r->Memory().IsCommitted() && r->SampleCount() == 1) {
        // Movable by defragmentation: GPU memory as the user sees it (heap='default', which
        // uma_direct places in CPU-visible device memory, touched by the CPU only through dx12kit's
        // own move-safe paths: features/Defragment.cpp). Never what the user may hold CPU pointers
        // into (heap='custom', Buffer.map), nor upload / readback memory (fixed GENERIC_READ / COPY_DEST).
        // Nor MSAA textures: their moves would need multisampled copies, which are not tested here.
        r->Memory().Pool()->SetOwner(r->Memory(), r);
    }
}

memory::CreatedResource Device::PlaceInMemory(const memory::ResourceRequest& rq, const ResourcePlacement& p, const char* what) {
    memory::CreatedResource out;
    D3D12_RESOURCE_ALLOCATION_INFO info{};
    try {
        out.resource = m_Context->Memory().CreatePlacedResource(p.memory->allocation, p.offset, rq.desc, rq.initialState, rq.clearValue, &info);
    } catch (const memory::UnsupportedDescription& e) {
        throw memory::UnsupportedDescription(std::string(what) + ": " + e.what());
    } catch (const InvalidArgument& e) {
        throw InvalidArgument(std::string(what) + ": " + e.what());
    }
    out.allocation = p.memory->allocation.Pool()->AddAlias(p.memory->allocation, p.memory->allocation.Offset() + p.offset, info.SizeInBytes,
                                                           info.Alignment, rq.kind, static_cast<uint32_t>(rq.desc.Flags), rq.name);
    return out;
}

std::shared_ptr<memory::MemoryRegion> Device::AllocateMemory(uint64_t size, uint64_t alignment, const ResourcePlacement& from,
                                                             const std::string& name) {
    m_Context->CheckNotForked("allocate_memory");
    CheckPlacementArgs(from, "allocate_memory");
    auto region = std::make_shared<memory::MemoryRegion>();
    region->device = m_Context;
    region->heap = from.pool ? from.pool->Desc().heap : from.heap;
    region->name = name;
    region->allocation = m_Context->Memory().AllocateMemory(size, alignment, region->heap, from.pool, from.withinBudget, name);
    return region;
}

std::shared_ptr<Buffer> Device::CreateBuffer(uint64_t size, bool uav, D3D12_HEAP_TYPE heap, const std::string& name) {
    Placement p;
    p.heap = HeapKindOf(heap);
    return CreateBuffer(size, uav, p, name);
}

std::shared_ptr<Buffer> Device::CreateBuffer(uint64_t size, bool uav, const Placement& placement, const std::string& name) {
    m_Context->CheckNotForked("create_buffer");
    const D3D12_RESOURCE_DESC desc = BufferDesc(size, uav, "create_buffer");
    CheckPlacementArgs(placement, "create_buffer");
    const memory::HeapKind asked = placement.memory ? placement.memory->heap : placement.pool ? placement.pool->Desc().heap : placement.heap;
    // uma_direct: a 'default' buffer of the default pools lives in CPU-visible memory (UmaAccess.hpp);
    // it stays a DEFAULT buffer in every other respect (states, uses, heap reported).
    const bool cpuVisibleDefault = asked == memory::HeapKind::Default && !placement.memory && !placement.pool && uma::DirectBuffers(*m_Context);
    const memory::HeapKind kind = cpuVisibleDefault ? memory::HeapKind::Custom : asked;
    if (uav && (kind == memory::HeapKind::Upload || kind == memory::HeapKind::Readback))
        throw InvalidArgument(std::string("create_buffer: uav=True needs GPU-writable memory (heap 'default' or 'custom'), not '") +
                              memory::HeapKindName(kind) + "'");
    const uint64_t native = desc.Width;  // rounded to 256 bytes (BufferDesc)
    memory::ResourceRequest rq;
    rq.desc = desc;
    rq.initialState = kind == memory::HeapKind::Upload     ? D3D12_RESOURCE_STATE_GENERIC_READ
                      : kind == memory::HeapKind::Readback ? D3D12_RESOURCE_STATE_COPY_DEST
                                                           : D3D12_RESOURCE_STATE_COMMON;
    rq.heap = kind;
    rq.pool = placement.pool;
    rq.committed = placement.committed;
    rq.withinBudget = placement.withinBudget;
    rq.kind = memory::AllocationKind::Buffer;
    rq.name = name;
    memory::CreatedResource created = placement.memory ? PlaceInMemory(rq, placement, "create_buffer") : m_Context->Memory().CreateResource(rq);
    auto b = std::make_shared<Buffer>(m_Context, std::move(created.resource), HeapTypeOf(asked), rq.initialState, name);
    b->AttachMemory(std::move(created.allocation));
    b->SetLogicalSize(size);
    if (!placement.memory && kind != memory::HeapKind::Default) {
        // CPU-visible memory: mapped for the buffer's lifetime, and zeroed through the mapping, both
        // before AdoptPlacement makes it movable (uma_direct buffers): a defragment on another thread
        // must not move it between the map and the memset (the zeros went to the old place, or the
        // mapping was of a resource already replaced).
        b->MapPersistently();
        std::memset(b->Mapped(), 0, native);
    }
    AdoptPlacement(b, placement, kind);
    if (placement.memory) {
        // Placed by the user over memory other resources may use: contents undefined until written.
        if (kind != memory::HeapKind::Default) b->MapPersistently();
    } else if (kind == memory::HeapKind::Default) {
        m_Context->QueueZeroInit(b);  // moved before it runs: the zeroing follows the copy, on the new place
    }
    return b;
}

std::shared_ptr<Texture> Device::CreateTexture2D(uint32_t width, uint32_t height, DXGI_FORMAT format, uint32_t mipLevels, uint32_t arraySize,
                                                 bool renderTarget, bool depthStencil, bool uav, const std::string& name, const Placement& placement,
                                                 uint32_t sampleCount) {
    m_Context->CheckNotForked("create_texture2d");
    CheckPlacementArgs(placement, "create_texture2d");
    const memory::HeapKind kind = placement.memory ? placement.memory->heap : placement.pool ? placement.pool->Desc().heap : placement.heap;
    const D3D12_RESOURCE_DESC desc =
        Texture2DDesc(width, height, format, mipLevels, arraySize, renderTarget, depthStencil, uav, sampleCount, "create_texture2d");
    if (kind != memory::HeapKind::Default)
        throw InvalidArgument(std::string("create_texture2d: textures live in the 'default' heap (got '") + memory::HeapKindName(kind) +
                              "'); upload and read them back with CommandList.upload / CommandQueue.read_texture");
    D3D12_CLEAR_VALUE clear{};
    clear.Format = format;
    if (depthStencil) clear.DepthStencil.Depth = 1.0f;
    memory::ResourceRequest rq;
    rq.desc = desc;
    rq.initialState = D3D12_RESOURCE_STATE_COMMON;
    rq.clearValue = (renderTarget || depthStencil) ? &clear : nullptr;
    rq.heap = kind;
    rq.pool = placement.pool;
    rq.committed = placement.committed;
    rq.withinBudget = placement.withinBudget;
    rq.kind = depthStencil   ? memory::AllocationKind::DepthStencil
              : renderTarget ? memory::AllocationKind::RenderTarget
                             : memory::AllocationKind::Texture;
    rq.name = name;
    memory::CreatedResource created;
    try {
        created = placement.memory ? PlaceInMemory(rq, placement, "create_texture2d") : m_Context->Memory().CreateResource(rq);
    } catch (const memory::UnsupportedDescription&) {
        throw RefusedTexture(desc, format, "create_texture2d");
    }
    auto t = std::make_shared<Texture>(m_Context, std::move(created.resource), D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COMMON, name);
    t->SetViewFormat(format);
    t->AttachMemory(std::move(created.allocation));
    AdoptPlacement(t, placement, kind);
    if (!placement.memory) m_Context->QueueZeroInit(t);
    return t;
}

void Device::InitializeNewResources(CommandQueue& executing, const std::function<bool(const Resource*)>& skip) {
    m_Context->CheckNotForked("execute");
    ZeroNewResources(executing, skip);
    // Work dx12kit submits on its own (zeroing, defragmentation copies) must precede every later
    // execute on every queue, not only the one that triggered it: a GPU wait on each producing
    // queue's fence, once per value, skipped when that work has already completed.
    for (int p = 0; p < 4; ++p) {
        const uint64_t value = m_Follow[p];
        uint64_t& waited = m_Followed[executing.Type()][p];
        if (!value || value <= waited || p == static_cast<int>(executing.Type())) continue;
        CommandQueue& producer = *m_Queues[p];
        if (producer.CompletedValue() < value) ThrowIfFailed(executing.IssueWait(producer, value), "ID3D12CommandQueue::Wait (dx12kit's own work)");
        executing.NoteGpuWait(producer, value);  // cross-queue hazards (CommandQueue.hpp) need not wait for it again
        waited = value;
    }
}

void Device::FollowInternalWork(CommandQueue& producer, uint64_t value) {
    uint64_t& v = m_Follow[producer.Type()];
    v = std::max(v, value);
}

void Device::ZeroNewResources(CommandQueue& executing, const std::function<bool(const Resource*)>& skip) {
    (void)executing;
    if (!m_Context->HasZeroInits()) return;
    std::vector<std::weak_ptr<Resource>> batch = m_Context->TakeZeroInits();
    std::vector<std::shared_ptr<Resource>> todo;
    todo.reserve(batch.size());
    for (auto& w : batch) {
        std::shared_ptr<Resource> r = w.lock();
        // Dropped before first use: nothing can read it. Closed: nothing may use it any more.
        if (!r || r->IsClosed() || (skip && skip(r.get()))) continue;
        todo.push_back(std::move(r));
    }
    if (todo.empty()) return;
    // Zeroing runs on the direct queue (clears of render targets and depth buffers need it); every
    // resource is new, so its global state is COMMON before and after (explicit barriers for
    // textures; buffers are promoted to COPY_DEST and decay back when the call completes).
    if (!m_ZeroBuffer) {
        Placement p;
        p.heap = memory::HeapKind::Upload;
        m_ZeroBuffer = CreateBuffer(kZeroBufferBytes, false, p, "zeros");  // mapped and zeroed by CreateBuffer
    }
    CommandQueue& direct = *m_Queues[D3D12_COMMAND_LIST_TYPE_DIRECT];
    ComPtr<ID3D12CommandAllocator> allocator = direct.AcquireAllocator();
    ComPtr<ID3D12GraphicsCommandList> list = direct.AcquireList(allocator.Get());
    std::vector<D3D12_RESOURCE_BARRIER> before, after;
    for (const auto& r : todo) {
        if (r->IsBuffer()) continue;
        const D3D12_RESOURCE_STATES s = r->AllowsDepthStencil()   ? D3D12_RESOURCE_STATE_DEPTH_WRITE
                                        : r->AllowsRenderTarget() ? D3D12_RESOURCE_STATE_RENDER_TARGET
                                                                  : D3D12_RESOURCE_STATE_COPY_DEST;
        before.push_back(d3dx::TransitionBarrier(r->D3D12Resource(), D3D12_RESOURCE_STATE_COMMON, s, kAllSubresources));
        after.push_back(d3dx::TransitionBarrier(r->D3D12Resource(), s, D3D12_RESOURCE_STATE_COMMON, kAllSubresources));
    }
    if (!before.empty()) list->ResourceBarrier(static_cast<UINT>(before.size()), before.data());
    ID3D12Resource* zeros = m_ZeroBuffer->D3D12Resource();
    uint64_t bytes = 0;
    for (const auto& r : todo) {
        if (r->IsBuffer()) {
            const uint64_t size = r->Desc().Width;
            for (uint64_t off = 0; off < size; off += kZeroBufferBytes) {
                const uint64_t n = std::min<uint64_t>(kZeroBufferBytes, size - off);
                list->CopyBufferRegion(r->D3D12Resource(), off, zeros, 0, n);
            }
            bytes += size;
            continue;
        }
        auto& tex = static_cast<Texture&>(*r);
        if (r->AllowsDepthStencil()) {
            const DXGI_FORMAT f = r->ViewFormat();
            const bool stencil = f == DXGI_FORMAT_D24_UNORM_S8_UINT || f == DXGI_FORMAT_D32_FLOAT_S8X24_UINT;
            for (uint32_t mip = 0; mip < r->MipLevels(); ++mip)
                list->ClearDepthStencilView(r->Dsv(mip),
                                            stencil ? D3D12_CLEAR_FLAGS(D3D12_CLEAR_FLAG_DEPTH | D3D12_CLEAR_FLAG_STENCIL) : D3D12_CLEAR_FLAG_DEPTH,
                                            0.0f, 0, 0, nullptr);
            continue;
        }
        if (r->AllowsRenderTarget()) {
            const float black[4] = {0, 0, 0, 0};
            for (uint32_t slice = 0; slice < r->ArraySize(); ++slice)
                for (uint32_t mip = 0; mip < r->MipLevels(); ++mip) list->ClearRenderTargetView(r->Rtv(mip, slice), black, 0, nullptr);
            continue;
        }
        // Other textures: each subresource copied from the zero buffer in bands of whole rows (of
        // 4x4 blocks for a block-compressed format: a footprint row is then 4 texel rows).
        const FormatInfo* fi = FindFormat(r->ViewFormat());
        const uint32_t texelRowsPerRow = fi && fi->IsBlock() ? 4 : 1;
        for (uint32_t slice = 0; slice < r->ArraySize(); ++slice) {
            for (uint32_t mip = 0; mip < r->MipLevels(); ++mip) {
                const TextureFootprint f = tex.Footprint(mip, slice);
                const uint32_t pitch = f.placed.Footprint.RowPitch;
                const uint32_t bandRows = static_cast<uint32_t>(std::max<uint64_t>(1, kZeroBufferBytes / pitch)) * texelRowsPerRow;
                const uint32_t sub = d3dx::CalcSubresource(mip, slice, r->MipLevels());
                D3D12_TEXTURE_COPY_LOCATION dst = d3dx::SubresourceLocation(r->D3D12Resource(), sub);
                for (uint32_t z = 0; z < f.placed.Footprint.Depth; ++z) {  // 3D: band by band in each depth slice
                    for (uint32_t y = 0; y < f.placed.Footprint.Height; y += bandRows) {
                        D3D12_PLACED_SUBRESOURCE_FOOTPRINT band = f.placed;
                        band.Offset = 0;
                        band.Footprint.Height = std::min(bandRows, f.placed.Footprint.Height - y);
                        band.Footprint.Depth = 1;
                        D3D12_TEXTURE_COPY_LOCATION src = d3dx::FootprintLocation(zeros, band);
                        list->CopyTextureRegion(&dst, 0, y, z, &src, nullptr);
                    }
                }
                bytes += f.totalBytes;
            }
        }
    }
    if (!after.empty()) list->ResourceBarrier(static_cast<UINT>(after.size()), after.data());
    ThrowIfFailed(list->Close(), "Close (zero-initialisation list)");
    m_Context->ZeroInitCounters().resources += todo.size();
    m_Context->ZeroInitCounters().bytes += bytes;
    std::vector<std::shared_ptr<void>> tracked(todo.begin(), todo.end());
    tracked.push_back(m_ZeroBuffer);
    FollowInternalWork(direct, direct.ExecuteInternal(std::move(list), std::move(allocator), std::move(tracked)));
}

void Device::TrimMemory() {
    m_Context->CheckNotForked("trim_memory");
    Poll();
    // Idle upload pages first: their memory is in upload blocks that can then empty and go.
    m_Context->UploadPages().Trim(m_Context->CompletedSerial());
    m_PassBuffers->Trim();  // free ones only: a lease still held keeps its buffer
    m_Context->Memory().Trim(m_Context->CompletedSerial());
}

void* Device::BuiltinObject(const std::string& key, const std::function<std::shared_ptr<void>()>& make, BuiltinId id) {
    void* object = BuiltinObject(key, make).get();  // kept in m_Builtins for the device's life
    m_BuiltinFast[size_t(id)].store(object, std::memory_order_release);
    return object;
}

std::shared_ptr<void> Device::BuiltinObject(const std::string& key, const std::function<std::shared_ptr<void>()>& make) {
    m_Context->CheckNotForked("builtin pipeline");
    std::lock_guard<std::mutex> lock(m_BuiltinMutex);
    auto it = m_Builtins.find(key);
    if (it != m_Builtins.end()) return it->second;
    std::shared_ptr<void> object = make();
    m_Builtins.emplace(key, object);
    return object;
}

}  // namespace dx12kit
