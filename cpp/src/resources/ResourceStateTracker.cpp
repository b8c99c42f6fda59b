#include "dx12kit/resources/ResourceStateTracker.hpp"

#include "dx12kit/resources/DeviceCore.hpp"
#include "dx12kit/platform/D3dx12Lite.hpp"
#include "dx12kit/resources/D3D12Rules.hpp"
#include "dx12kit/resources/Resource.hpp"

namespace dx12kit {

namespace {
bool FixedStateHeap(const Resource& r) {
    return r.HeapType() == D3D12_HEAP_TYPE_UPLOAD || r.HeapType() == D3D12_HEAP_TYPE_READBACK;
}
}  // namespace

ResourceStateTracker::Local& ResourceStateTracker::Lookup(const std::shared_ptr<Resource>& resource) {
    resource->CheckNotClosed("command list");
    auto it = m_Locals.find(resource.get());
    if (it != m_Locals.end()) return it->second;
    Local& l = m_Locals[resource.get()];
    l.resource = resource;
    bool counted = false;  // a resource written directly first was counted then
    for (const auto& r : m_DirectWrites) counted |= r.get() == resource.get();
    if (!counted) resource->AddOpenUser();
    l.states = SubresourceStates(resource->NumSubresources(), kUnknownState);
    return l;
}

void ResourceStateTracker::Push(const D3D12_RESOURCE_BARRIER& b) {
    m_Barriers.push_back(b);
    m_Stats.recorded.fetch_add(1, std::memory_order_relaxed);
}

void ResourceStateTracker::Transition(const std::shared_ptr<Resource>& resource, D3D12_RESOURCE_STATES state, uint32_t sub) {
    Local& l = Lookup(resource);
    if (FixedStateHeap(*resource)) return;  // kept alive only; its state never changes
    // With one subresource, "subresource 0" and "all" are the same state.
    if (resource->NumSubresources() == 1) sub = kAllSubresources;
    ID3D12Resource* native = resource->D3D12Resource();
    SubresourceStates& s = l.states;

    if (sub == kAllSubresources && s.IsUniform()) {
        const D3D12_RESOURCE_STATES before = s.All();
        if (before == kUnknownState) {
            m_Pending.push_back({resource.get(), kAllSubresources, state});
        } else if (before != state) {
            Push(d3dx::TransitionBarrier(native, before, state, kAllSubresources));
        }
        s.SetAll(state);
        return;
    }
    if (sub == kAllSubresources) {
        // Mixed local states: one barrier (or pending entry) per subresource that differs.
        for (uint32_t i = 0; i < s.NumSubresources(); ++i) {
            const D3D12_RESOURCE_STATES before = s.Get(i);
            if (before == kUnknownState) m_Pending.push_back({resource.get(), i, state});
            else if (before != state) Push(d3dx::TransitionBarrier(native, before, state, i));
        }
        s.SetAll(state);
        return;
    }
    const D3D12_RESOURCE_STATES before = s.Get(sub);
    if (before == kUnknownState) m_Pending.push_back({resource.get(), sub, state});
    else if (before != state) Push(d3dx::TransitionBarrier(native, before, state, sub));
    s.Set(sub, state);
}

void ResourceStateTracker::UavBarrier(const std::shared_ptr<Resource>& resource) {
    if (resource) {
        Local& l = Lookup(resource);
        l.uavWritten = false;
        Push(d3dx::UavBarrier(resource->D3D12Resource()));
    } else {
        for (auto& kv : m_Locals) kv.second.uavWritten = false;
        Push(d3dx::UavBarrier(nullptr));
    }
    m_Stats.uav.fetch_add(1, std::memory_order_relaxed);
}

void ResourceStateTracker::AliasingBarrier(const std::shared_ptr<Resource>& before, const std::shared_ptr<Resource>& after) {
    if (before) Lookup(before);
    if (after) Lookup(after);
    Push(d3dx::AliasingBarrier(before ? before->D3D12Resource() : nullptr, after ? after->D3D12Resource() : nullptr));
    m_Stats.aliasing.fetch_add(1, std::memory_order_relaxed);
}

void ResourceStateTracker::NoteUavWrite(Resource* resource) {
    auto it = m_Locals.find(resource);
    if (it != m_Locals.end()) it->second.uavWritten = true;
}

void ResourceStateTracker::UavHazard(const std::shared_ptr<Resource>& resource) {
    auto it = m_Locals.find(resource.get());
    if (it != m_Locals.end() && it->second.uavWritten) {
        it->second.uavWritten = false;
        Push(d3dx::UavBarrier(resource->D3D12Resource()));
        m_Stats.uav.fetch_add(1, std::memory_order_relaxed);
    }
}

void ResourceStateTracker::FlushBarriers(ID3D12GraphicsCommandList* list) {
    if (m_Barriers.empty()) return;
    list->ResourceBarrier(static_cast<UINT>(m_Barriers.size()), m_Barriers.data());
    m_Barriers.clear();
    m_Stats.batches.fetch_add(1, std::memory_order_relaxed);
}

SubresourceStates& ExecuteStates::Get(Resource* r) {
    auto it = m_States.find(r);
    if (it == m_States.end()) it = m_States.emplace(r, r->GlobalState()).first;
    return it->second;
}

void ExecuteStates::Decay(D3D12_COMMAND_LIST_TYPE queueType) {
    for (auto& kv : m_States)
        if (!FixedStateHeap(*kv.first) && d3d12rules::DecaysAtEndOfExecute(kv.first->IsBuffer(), queueType))
            kv.second.SetAll(D3D12_RESOURCE_STATE_COMMON);
}

void ExecuteStates::Commit() {
    for (auto& kv : m_States) kv.first->GlobalState() = kv.second;
}

std::vector<D3D12_RESOURCE_BARRIER> ResourceStateTracker::ResolvePendingBarriers(ExecuteStates& states, std::vector<Resource*>* owners) {
    std::vector<D3D12_RESOURCE_BARRIER> out;
    for (const Pending& p : m_Pending) {
        const size_t first = out.size();
        SubresourceStates& g = states.Get(p.resource);
        ID3D12Resource* native = p.resource->D3D12Resource();
        if (p.resource->IsBuffer() && g.IsUniform() && g.All() == D3D12_RESOURCE_STATE_COMMON) {
            // A buffer in COMMON is promoted implicitly to whatever its first use needs: no barrier.
            g.SetAll(p.state);
            continue;
        }
        if (p.sub == kAllSubresources) {
            if (g.IsUniform()) {
                if (g.All() != p.state) out.push_back(d3dx::TransitionBarrier(native, g.All(), p.state, kAllSubresources));
            } else {
                for (uint32_t i = 0; i < g.NumSubresources(); ++i)
                    if (g.Get(i) != p.state) out.push_back(d3dx::TransitionBarrier(native, g.Get(i), p.state, i));
            }
            // Later pending entries of the same resource see the state this one produced.
            g.SetAll(p.state);
        } else {
            if (g.Get(p.sub) != p.state) out.push_back(d3dx::TransitionBarrier(native, g.Get(p.sub), p.state, p.sub));
            g.Set(p.sub, p.state);
        }
        if (owners) owners->insert(owners->end(), out.size() - first, p.resource);
    }
    return out;
}

void ResourceStateTracker::ApplyFinalStates(ExecuteStates& states) const {
    for (const auto& kv : m_Locals) {
        if (FixedStateHeap(*kv.first)) continue;
        const SubresourceStates& local = kv.second.states;
        SubresourceStates& g = states.Get(kv.first);
        auto raw = m_Raw.find(kv.first);
        if (raw == m_Raw.end() && local.IsUniform()) {
            if (local.All() != kUnknownState) g.SetAll(local.All());
            continue;
        }
        for (uint32_t i = 0; i < local.NumSubresources(); ++i) {
            D3D12_RESOURCE_STATES s = local.Get(i);
            if (raw != m_Raw.end() && raw->second.actual.Get(i) != kUnknownState && raw->second.believed.Get(i) == s)
                s = raw->second.actual.Get(i);  // the GPU is where the raw transition left it
            if (s != kUnknownState) g.Set(i, s);
        }
        g.Collapse();
    }
}

void ResourceStateTracker::NoteRawTransition(Resource* resource, uint32_t sub, D3D12_RESOURCE_STATES believed, D3D12_RESOURCE_STATES actual) {
    auto it = m_Raw.find(resource);
    if (it == m_Raw.end())
        it = m_Raw.emplace(resource, Raw{SubresourceStates(resource->NumSubresources(), kUnknownState),
                                         SubresourceStates(resource->NumSubresources(), kUnknownState)}).first;
    it->second.believed.Set(sub, believed);
    it->second.actual.Set(sub, actual);
}

D3D12_RESOURCE_STATES ResourceStateTracker::KnownState(Resource* resource, uint32_t sub) const {
    auto it = m_Locals.find(resource);
    if (it == m_Locals.end()) return kUnknownState;
    return sub == kAllSubresources ? (it->second.states.IsUniform() ? it->second.states.All() : kUnknownState)
                                   : it->second.states.Get(sub);
}

ResourceStateTracker::~ResourceStateTracker() { ReleaseOpenUses(); }

void ResourceStateTracker::ReleaseOpenUses() {
    for (auto& kv : m_Locals) kv.first->RemoveOpenUser();
    for (auto& r : m_DirectWrites) {  // each counted once: by its direct write, or by its Local
        if (!m_Locals.count(r.get())) r->RemoveOpenUser();
        r->ClearDirectWriter(this);
    }
    m_DirectWrites.clear();
}

void ResourceStateTracker::NoteDirectWrite(const std::shared_ptr<Resource>& resource) {
    if (!UsesOrWrote(resource.get())) {
        resource->AddOpenUser();
        m_DirectWrites.push_back(resource);
    }
    resource->SetDirectWriter(this);
}

bool ResourceStateTracker::UsesOrWrote(const Resource* resource) const {
    if (Touches(resource)) return true;
    for (const auto& r : m_DirectWrites)
        if (r.get() == resource) return true;
    return false;
}

void ResourceStateTracker::MarkExecuted(uint64_t serial) {
    for (auto& kv : m_Locals) kv.first->NoteUse(serial);
    for (auto& r : m_DirectWrites) r->NoteUse(serial);
}

void ResourceStateTracker::CheckDirectWrites(const char* what) const {
    for (const auto& kv : m_Locals) {
        const void* w = kv.first->DirectWriter();
        if (w && w != this)
            throw InvalidArgument(std::string(what) + ": resource '" + kv.first->Name() +
                                  "' was uploaded into directly (CPU-visible memory) by a command list that has not been executed; "
                                  "execute that list first (or create the Device with uma_direct=False)");
    }
}

void ResourceStateTracker::MoveResourcesTo(std::vector<std::shared_ptr<void>>& out) {
    ReleaseOpenUses();
    out.reserve(out.size() + m_Locals.size());
    for (auto& kv : m_Locals) out.push_back(std::move(kv.second.resource));
    m_Locals.clear();
}

void ResourceStateTracker::Reset() {
    ReleaseOpenUses();
    m_Locals.clear();
    m_Pending.clear();
    m_Barriers.clear();
    m_Raw.clear();
}

}  // namespace dx12kit
