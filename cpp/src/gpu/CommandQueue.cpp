#include "dx12kit/gpu/CommandQueue.hpp"

#include "dx12kit/core/CopyRows.hpp"

#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/UmaAccess.hpp"
#include "dx12kit/platform/FenceEvent.hpp"
#include "dx12kit/platform/HResult.hpp"
#include "dx12kit/resources/Formats.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace dx12kit {

CommandQueue::CommandQueue(Device& device, D3D12_COMMAND_LIST_TYPE type)
    : m_Device(device), m_Core(device.Core()), m_Type(type) {
    D3D12_COMMAND_QUEUE_DESC d{};
    d.Type = type;
    d.Priority = D3D12_COMMAND_QUEUE_PRIORITY_NORMAL;
    d.Flags = D3D12_COMMAND_QUEUE_FLAG_NONE;
    ID3D12Device* dev = m_Core->D3D12Device();
    ThrowIfFailed(dev->CreateCommandQueue(&d, IID_ID3D12CommandQueue, m_d3d12Queue.ReleaseAndGetVoidAddress()),
                  "CreateCommandQueue");
    ThrowIfFailed(dev->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_ID3D12Fence, m_d3d12Fence.ReleaseAndGetVoidAddress()),
                  "CreateFence");
}

CommandQueue::~CommandQueue() {
    try {
        Flush();
    } catch (...) {
    }
    m_InFlight.clear();
}

std::vector<InsertedBarrier> CommandQueue::LastInsertedBarriers() const {
    std::lock_guard<std::recursive_mutex> lock(m_Core->SubmitMutex());
    return m_LastInserted;
}

uint64_t CommandQueue::LastSubmittedValue() const {
    std::lock_guard<std::recursive_mutex> lock(m_Core->SubmitMutex());
    return m_LastSignalled;
}

ComPtr<ID3D12CommandAllocator> CommandQueue::AcquireAllocator() {
    if (!m_AllocatorPool.empty()) {
        ComPtr<ID3D12CommandAllocator> a = std::move(m_AllocatorPool.front());
        m_AllocatorPool.pop_front();
        ThrowIfFailed(a->Reset(), "ID3D12CommandAllocator::Reset");
        return a;
    }
    ComPtr<ID3D12CommandAllocator> a;
    ThrowIfFailed(m_Core->D3D12Device()->CreateCommandAllocator(m_Type, IID_ID3D12CommandAllocator, a.ReleaseAndGetVoidAddress()),
                  "CreateCommandAllocator");
    return a;
}

ComPtr<ID3D12GraphicsCommandList> CommandQueue::AcquireList(ID3D12CommandAllocator* allocator) {
    if (!m_ListPool.empty()) {
        ComPtr<ID3D12GraphicsCommandList> l = std::move(m_ListPool.back());
        m_ListPool.pop_back();
        ThrowIfFailed(l->Reset(allocator, nullptr), "ID3D12GraphicsCommandList::Reset");
        return l;
    }
    ComPtr<ID3D12GraphicsCommandList> l;
    ThrowIfFailed(m_Core->D3D12Device()->CreateCommandList(0, m_Type, allocator, nullptr, IID_ID3D12GraphicsCommandList,
                                                           l.ReleaseAndGetVoidAddress()),
                  "CreateCommandList");
    return l;
}

void CommandQueue::ReturnUnused(ComPtr<ID3D12CommandAllocator> allocator, ComPtr<ID3D12GraphicsCommandList> list) {
    std::lock_guard<std::recursive_mutex> lock(m_Core->SubmitMutex());
    // A list that was never executed: its allocator holds no GPU work, so it is free at once.
    if (allocator) m_AllocatorPool.push_back(std::move(allocator));
    if (list) m_ListPool.push_back(std::move(list));
}

std::shared_ptr<CommandList> CommandQueue::CreateCommandList(const std::shared_ptr<CommandQueue>& self) {
    ComPtr<ID3D12CommandAllocator> alloc;
    ComPtr<ID3D12GraphicsCommandList> list;
    {
        std::lock_guard<std::recursive_mutex> lock(m_Core->SubmitMutex());
        // Device-wide: publishes the completed serial, so upload pages and descriptor chunks of
        // finished work are reused even by a loop that never waits.
        m_Device.Poll();
        alloc = AcquireAllocator();
        list = AcquireList(alloc.Get());
    }
    return std::make_shared<CommandList>(m_Device.shared_from_this(), self, std::move(alloc), std::move(list));
}

uint64_t CommandQueue::Execute(const std::vector<std::shared_ptr<CommandList>>& lists) {
    if (lists.empty()) throw InvalidArgument("execute: no command lists given");
    // Checked under the submission mutex: two threads executing the same list must not both pass.
    std::lock_guard<std::recursive_mutex> lock(m_Core->SubmitMutex());
    for (const auto& l : lists) {
        if (!l) throw InvalidArgument("execute: None is not a command list");
        if (&l->Queue() != this) throw InvalidArgument("execute: a command list was created for another queue");
        if (l->IsClosed()) throw InvalidArgument("execute: a command list was already executed; record a new one with queue.command_list()");
        l->Tracker().CheckDirectWrites("execute");
    }
    for (size_t i = 0; i < lists.size(); ++i)
        for (size_t j = i + 1; j < lists.size(); ++j)
            if (lists[i] == lists[j]) throw InvalidArgument("execute: the same command list is given twice");

    // New resources read as zeros: their zeroing runs first (on the direct queue), except for
    // resources whose first use in these lists overwrites them completely.
    m_Device.InitializeNewResources(*this, [&lists](const Resource* r) {
            for (const auto& l : lists)
                if (l->Tracker().Touches(r)) return l->FullyWrites(r);
            return false;
        });

    for (const auto& l : lists) l->Close();

    InFlight record;
    record.serial = m_Core->NextSerial();
    std::vector<ID3D12CommandList*> natives;
    std::vector<ComPtr<ID3D12GraphicsCommandList>> preLists;
    m_LastInserted.clear();
    std::vector<Resource*> owners;
    for (size_t li = 0; li < lists.size(); ++li) {
        const auto& l = lists[li];
        owners.clear();
        std::vector<D3D12_RESOURCE_BARRIER> barriers = l->Tracker().ResolvePendingBarriers(&owners);
        for (size_t i = 0; i < barriers.size(); ++i) {
            const D3D12_RESOURCE_TRANSITION_BARRIER& t = barriers[i].Transition;
            m_LastInserted.push_back({static_cast<uint32_t>(li), owners[i]->Name(), t.Subresource, t.StateBefore, t.StateAfter});
        }
        if (!barriers.empty()) {
            ComPtr<ID3D12CommandAllocator> a = AcquireAllocator();
            ComPtr<ID3D12GraphicsCommandList> pre = AcquireList(a.Get());
            pre->ResourceBarrier(static_cast<UINT>(barriers.size()), barriers.data());
            ThrowIfFailed(pre->Close(), "Close (barrier list)");
            natives.push_back(pre.Get());
            record.allocators.push_back(std::move(a));
            preLists.push_back(std::move(pre));
            m_Core->Barriers().batches.fetch_add(1, std::memory_order_relaxed);
        }
        natives.push_back(l->D3D12List());
        l->Tracker().CommitFinalStates(m_Type == D3D12_COMMAND_LIST_TYPE_COPY);
    }
    m_d3d12Queue->ExecuteCommandLists(static_cast<UINT>(natives.size()), natives.data());
    const uint64_t value = ++m_LastSignalled;
    // The lists are on the GPU now: whatever happens next, their record must be kept, or their
    // memory would be reused under the GPU. A failed Signal leaves the record unfinished forever
    // (a leak, never an early free) and is reported after the record is stored.
    const HRESULT signalled = m_d3d12Queue->Signal(m_d3d12Fence.Get(), value);
    record.fenceValue = value;

    for (const auto& l : lists) {
        ComPtr<ID3D12CommandAllocator> a;
        ComPtr<ID3D12GraphicsCommandList> native;
        l->Retire(record.serial, record.tracked, a, native);
        record.allocators.push_back(std::move(a));
        m_ListPool.push_back(std::move(native));  // a list may be reset once submitted
    }
    for (auto& p : preLists) m_ListPool.push_back(std::move(p));
    m_InFlight.push_back(std::move(record));
    ThrowIfFailed(signalled, "ID3D12CommandQueue::Signal");
    return value;
}

uint64_t CommandQueue::ExecuteInternal(ComPtr<ID3D12GraphicsCommandList> list, ComPtr<ID3D12CommandAllocator> allocator,
                                       std::vector<std::shared_ptr<void>> tracked) {
    std::lock_guard<std::recursive_mutex> lock(m_Core->SubmitMutex());
    InFlight record;
    record.serial = m_Core->NextSerial();
    ID3D12CommandList* native = list.Get();
    m_d3d12Queue->ExecuteCommandLists(1, &native);
    const uint64_t value = ++m_LastSignalled;
    const HRESULT signalled = m_d3d12Queue->Signal(m_d3d12Fence.Get(), value);
    record.fenceValue = value;
    record.allocators.push_back(std::move(allocator));
    record.tracked = std::move(tracked);
    m_ListPool.push_back(std::move(list));
    m_InFlight.push_back(std::move(record));
    ThrowIfFailed(signalled, "ID3D12CommandQueue::Signal");
    return value;
}

uint64_t CommandQueue::Poll() {
    std::lock_guard<std::recursive_mutex> lock(m_Core->SubmitMutex());
    const uint64_t done = m_d3d12Fence->GetCompletedValue();
    while (!m_InFlight.empty() && m_InFlight.front().fenceValue <= done) {
        InFlight rec = std::move(m_InFlight.front());
        m_InFlight.pop_front();
        for (auto& a : rec.allocators) m_AllocatorPool.push_back(std::move(a));  // their work is done
        // rec.tracked is released here: the GPU no longer uses those objects.
    }
    return m_InFlight.empty() ? std::numeric_limits<uint64_t>::max() : m_InFlight.front().serial;
}

bool CommandQueue::WaitOldest() {
    uint64_t value;
    {
        std::lock_guard<std::recursive_mutex> lock(m_Core->SubmitMutex());
        if (m_InFlight.empty()) return false;
        value = m_InFlight.front().fenceValue;
    }
    FenceEvent ev;
    ev.Wait(m_d3d12Fence.Get(), value);
    return true;
}

void CommandQueue::Wait(uint64_t value) {
    {
        std::lock_guard<std::recursive_mutex> lock(m_Core->SubmitMutex());
        if (value > m_LastSignalled)
            throw InvalidArgument("wait: fence value " + std::to_string(value) + " was never submitted on this queue (last is " +
                                  std::to_string(m_LastSignalled) + ")");
    }
    FenceEvent ev;
    ev.Wait(m_d3d12Fence.Get(), value);
    m_Device.Poll();
}

uint64_t CommandQueue::Flush() {
    uint64_t value;
    {
        std::lock_guard<std::recursive_mutex> lock(m_Core->SubmitMutex());
        value = ++m_LastSignalled;
        ThrowIfFailed(m_d3d12Queue->Signal(m_d3d12Fence.Get(), value), "ID3D12CommandQueue::Signal");
    }
    FenceEvent ev;
    ev.Wait(m_d3d12Fence.Get(), value);
    m_Device.Poll();
    return value;
}

void CommandQueue::WaitFor(CommandQueue& other, uint64_t value) {
    if (other.m_Core != m_Core) throw InvalidArgument("wait_for: the other queue belongs to another device");
    if (value > other.LastSubmittedValue())
        throw InvalidArgument("wait_for: fence value " + std::to_string(value) + " was never submitted on the other queue");
    ThrowIfFailed(m_d3d12Queue->Wait(other.D3D12Fence(), value), "ID3D12CommandQueue::Wait");
}

}  // namespace dx12kit

// ------------------------------------------------------------------------------- readback

namespace dx12kit {

std::shared_ptr<Resource> CommandQueue::ReadbackBuffer(uint64_t size) {
    if (!m_Readback || m_Readback->Size() < size) {
        uint64_t cap = m_Readback ? std::max(size, m_Readback->Size() * 2) : std::max<uint64_t>(size, 1u << 20);
        m_Readback = m_Device.CreateBuffer(cap, false, D3D12_HEAP_TYPE_READBACK, "readback");
    }
    return m_Readback;
}

namespace {
/// Maps a READBACK/UPLOAD buffer for reading and unmaps it when done.
struct ReadMapping {
    ID3D12Resource* resource;
    const uint8_t* data = nullptr;
    ReadMapping(ID3D12Resource* r, uint64_t bytes) : resource(r) {
        D3D12_RANGE range{0, static_cast<SIZE_T>(bytes)};
        void* p = nullptr;
        ThrowIfFailed(r->Map(0, &range, &p), "ID3D12Resource::Map (readback)");
        data = static_cast<const uint8_t*>(p);
    }
    ~ReadMapping() {
        D3D12_RANGE none{0, 0};
        resource->Unmap(0, &none);
    }
};
}  // namespace

void CommandQueue::ReadBuffer(const std::shared_ptr<CommandQueue>& self, const std::shared_ptr<Resource>& buffer, void* dst, uint64_t size) {
    if (!buffer->IsBuffer()) throw InvalidArgument("read_buffer: resource '" + buffer->Name() + "' is a texture; use read_texture");
    buffer->CheckNotClosed("read_buffer");
    if (&buffer->Core() != m_Core.get()) throw InvalidArgument("read_buffer: the buffer belongs to another device");
    if (size != buffer->Size()) throw InvalidArgument("read_buffer: destination size does not match the buffer");
    if (uma::ReadsDirectly(*buffer)) return uma::ReadDirect(m_Device, *buffer, dst, size);  // one memcpy (UmaAccess.hpp)
    if (buffer->HeapType() != D3D12_HEAP_TYPE_DEFAULT) {
        m_Device.WaitIdle();  // an UPLOAD/READBACK buffer: read directly once every queue is idle
        ReadMapping map(buffer->D3D12Resource(), size);
        std::memcpy(dst, map.data, size);
        return;
    }
    std::lock_guard<std::mutex> lock(m_ReadbackMutex);
    auto rb = ReadbackBuffer(size);
    auto list = CreateCommandList(self);
    list->CopyBufferRegion(rb, 0, buffer, 0, size);
    Wait(Execute({list}));
    ReadMapping map(rb->D3D12Resource(), size);
    std::memcpy(dst, map.data, size);
}

void CommandQueue::ReadTexture(const std::shared_ptr<CommandQueue>& self, const std::shared_ptr<Resource>& texture,
                               uint32_t mip, uint32_t arraySlice, void* dst, uint64_t size) {
    if (texture->IsBuffer()) throw InvalidArgument("read_texture: resource '" + texture->Name() + "' is a buffer; use read_buffer");
    texture->CheckNotClosed("read_texture");
    if (&texture->Core() != m_Core.get()) throw InvalidArgument("read_texture: the texture belongs to another device");
    auto& tex = static_cast<Texture&>(*texture);
    tex.CheckMipSlice(mip, arraySlice, "read_texture");
    const TextureFootprint f = tex.Footprint(mip, arraySlice);
    if (size != f.rowBytes * f.rows) throw InvalidArgument("read_texture: destination size does not match the subresource");
    std::lock_guard<std::mutex> lock(m_ReadbackMutex);
    auto rb = ReadbackBuffer(f.totalBytes);
    auto list = CreateCommandList(self);
    list->CopyTextureToBuffer(rb, texture, mip, arraySlice);
    Wait(Execute({list}));
    ReadMapping map(rb->D3D12Resource(), f.placed.Offset + f.totalBytes);
    CopyRows(dst, f.rowBytes, map.data + f.placed.Offset, f.placed.Footprint.RowPitch, f.rowBytes, f.rows);
}

}  // namespace dx12kit
