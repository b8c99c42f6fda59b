#include "dx12kit/resources/ResourceStateTracker.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/DeviceContext.hpp"
#include "dx12kit/memory/MemoryManager.hpp"
#include "d3dx12/D3dx12Lite.hpp"
#include "dx12kit/resources/D3D12Rules.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <algorithm>

namespace dx12kit {

namespace {
bool FixedStateHeap(const Resource& r) {
    return r.HeapType() == D3D12_HEAP_TYPE_UPLOAD || r.HeapType() == D3D12_HEAP_TYPE_READBACK;
}

// D3D12Rules rule 6d, per subresource: "subresource 5 (mip 1, array slice 0, stencil plane)".
std::string SubresourceName(const Resource& r, uint32_t sub) {
    const uint32_t mips = r.MipLevels(), slices = r.ArraySize();
    const uint32_t mip = sub % mips, slice = (sub / mips) % slices, plane = sub / (mips * slices);
    std::string s = "subresource " + std::to_string(sub) + " (mip " + std::to_string(mip);
    if (slices > 1) s += ", array slice " + std::to_string(slice);
    if (r.PlaneCount() > 1) s += plane == 0 ? ", depth plane" : ", stencil plane";
    return s + ")";
}

[[noreturn]] void ThrowUndefinedContents(const Resource& r, uint32_t sub, const char* op, const std::string& when) {
    const bool depth = r.AllowsDepthStencil();
    throw ResourceStateError(std::string(op) + ": resource '" + r.Name() + "' is a " + (depth ? "depth buffer" : "render target") +
                             " placed in memory other resources share, and " + when + ": its " + SubresourceName(r, sub) +
                             " holds undefined contents. D3D12 requires each subresource (mip, slice and plane) to be initialized "
                             "after activation, before any other use, by a clear of it" +
                             (depth ? " (clear_depth_stencil, clear_depth / clear_stencil for each plane)" : " (clear_render_target of that mip)") +
                             " or a copy of the whole subresource (copy_resource, a full upload) (CreatePlacedResource, required "
                             "resource initialization)");
}
}  // namespace

ResourceStateTracker::Local& ResourceStateTracker::Lookup(const std::shared_ptr<Resource>& resource) {
    resource->CheckNotClosed("command list");
    auto it = m_Locals.find(resource.get());
    if (it != m_Locals.end()) {
        Local& l = it->second;
        // Aliased and not the last user of its range in this list (or just activated explicitly);
        // never true for other resources (Create).
        if (!l.aliasActive || l.needsInit) AliasUse(resource, &l, false);
        l.stamp = ++m_UseCount;
        return l;
    }
    if (resource->AliasRegion()) {
        AliasUse(resource, nullptr, false);
        Local& l = m_Locals.find(resource.get())->second;
        l.stamp = ++m_UseCount;
        return l;
    }
    Local& l = Create(resource);
    l.stamp = ++m_UseCount;
    return l;
}

ResourceStateTracker::Local& ResourceStateTracker::Create(const std::shared_ptr<Resource>& resource) {
    Local& l = m_Locals[resource.get()];
    ++m_StateEpoch;
    l.resource = resource;
    l.stamp = ++m_UseCount;
    l.states = SubresourceStates(resource->NumSubresources(), kUnknownState);
    l.aliasActive = !resource->AliasRegion();
    if (TracksContents(*resource)) l.contents.assign(resource->NumSubresources(), kAsBegun);
    return l;
}

void ResourceStateTracker::PushTransition(Local& l, const D3D12_RESOURCE_BARRIER& b) {
    l.writes = true;  // rule 7: a state change while another queue uses the resource is a hazard
    Push(b);
}

void ResourceStateTracker::Push(const D3D12_RESOURCE_BARRIER& b) {
    m_Barriers.push_back(b);
    m_Stats.recorded.fetch_add(1, std::memory_order_relaxed);
}

void ResourceStateTracker::Transition(const std::shared_ptr<Resource>& resource, D3D12_RESOURCE_STATES state, uint32_t sub, bool exact) {
    Local& l = Lookup(resource);
    if (FixedStateHeap(*resource)) {  // kept alive only; its state never changes
        // D3D12: an UPLOAD heap resource stays in GENERIC_READ (vertex, index, constant buffer, shader
        // resource, indirect argument, copy source), a READBACK one in COPY_DEST, for life; a use that
        // needs another state is invalid there (vkd3d runs it anyway). COMMON is what dx12kit's own
        // bookkeeping may ask for: nothing to do.
        const bool readback = resource->HeapType() == D3D12_HEAP_TYPE_READBACK;
        const auto allowed = static_cast<uint32_t>(readback ? D3D12_RESOURCE_STATE_COPY_DEST : D3D12_RESOURCE_STATE_GENERIC_READ);
        if (static_cast<uint32_t>(state) & ~allowed)
            throw ResourceStateError("resource '" + resource->Name() + "' is in " + (readback ? "a READBACK" : "an UPLOAD") +
                                     " heap, which D3D12 keeps in " + (readback ? "COPY_DEST" : "GENERIC_READ") + " for life: it cannot be used as " +
                                     StateName(state) +
                                     (readback ? " (a readback buffer is only a copy destination; copy into a 'default' "
                                                 "buffer to read it on the GPU)"
                                               : " (write into a 'default' buffer instead)"));
        l.writes |= readback;  // a copy destination
        return;
    }
    // Rule 7: a write state, or (below) a transition recorded now, is a write for other queues.
    l.writes |= (static_cast<uint32_t>(state) & d3d12rules::kWriteStates) != 0;
    // With one subresource, "subresource 0" and "all" are the same state.
    if (resource->NumSubresources() == 1) sub = kAllSubresources;
    ID3D12Resource* native = resource->D3D12Resource();
    SubresourceStates& s = l.states;

    if (sub == kAllSubresources && s.IsUniform()) {
        const D3D12_RESOURCE_STATES before = s.All();
        if (before == state) return;  // already there: nothing recorded, nothing changes
        // A read the known (not pending) read-only state already allows needs no barrier: the wider
        // state is kept (d3d12rules::ReadCovered). Only whole-resource requests of a resource in one
        // state; a pending first use keeps its exact state (what execute resolves against). Not for a
        // resource a compute queue uses when the kept state would hold PIXEL_SHADER_RESOURCE the read
        // did not ask for: a list ending so would cost the next compute-queue list a direct-queue
        // fix-up (a submission, a signal and a GPU wait) where this barrier costs one in the list.
        if (!exact && before != kUnknownState && d3d12rules::ReadCovered(before, state) &&
            !((uint32_t(before) & ~uint32_t(state) & D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE) && resource->UsedOnComputeQueue()))
            return;
        ++m_StateEpoch;
        if (before == kUnknownState) {
            m_Pending.push_back({resource.get(), kAllSubresources, state});
        } else if (before != state) {
            PushTransition(l, d3dx::TransitionBarrier(native, before, state, kAllSubresources));
        }
        s.SetAll(state);
        return;
    }
    if (sub == kAllSubresources) {
        ++m_StateEpoch;
        // Mixed local states: one barrier (or pending entry) per subresource that differs.
        for (uint32_t i = 0; i < s.NumSubresources(); ++i) {
            const D3D12_RESOURCE_STATES before = s.Get(i);
            if (before == kUnknownState) m_Pending.push_back({resource.get(), i, state});
            else if (before != state) PushTransition(l, d3dx::TransitionBarrier(native, before, state, i));
        }
        s.SetAll(state);
        return;
    }
    const D3D12_RESOURCE_STATES before = s.Get(sub);
    if (before == state) return;
    ++m_StateEpoch;
    if (before == kUnknownState) m_Pending.push_back({resource.get(), sub, state});
    else if (before != state) PushTransition(l, d3dx::TransitionBarrier(native, before, state, sub));
    s.Set(sub, state);
}

void ResourceStateTracker::UavBarrier(const std::shared_ptr<Resource>& resource) {
    ++m_StateEpoch;
    if (resource) {
        Local& l = Lookup(resource);
        l.uavWritten = false;
        l.writes = true;
        Push(d3dx::UavBarrier(resource->D3D12Resource()));
    } else {
        for (auto& kv : m_Locals) kv.second.uavWritten = false;
        Push(d3dx::UavBarrier(nullptr));
    }
    m_Stats.uav.fetch_add(1, std::memory_order_relaxed);
}

void ResourceStateTracker::AliasingBarrier(const std::shared_ptr<Resource>& before, const std::shared_ptr<Resource>& after,
                                           D3D12_RESOURCE_STATES parkState) {
    // Kept alive; naming `before` here is not a use of it (no activation of its own).
    if (before) {
        before->CheckNotClosed("command list");
        if (!m_Locals.count(before.get())) Create(before);
    }
    if (after) {
        after->CheckNotClosed("command list");
        auto it = m_Locals.find(after.get());
        if (after->AliasRegion()) AliasUse(after, it == m_Locals.end() ? nullptr : &it->second, true, parkState);
        else (it == m_Locals.end() ? Create(after) : it->second).writes = true;  // rule 7
    }
    Push(d3dx::AliasingBarrier(before ? before->D3D12Resource() : nullptr, after ? after->D3D12Resource() : nullptr));
    m_Stats.aliasing.fetch_add(1, std::memory_order_relaxed);
    ++m_StateEpoch;
}

bool ResourceStateTracker::TracksContents(const Resource& r) const {
    return m_Validate && r.AliasRegion() && d3d12rules::NeedsInitAfterActivation(r.Desc().Flags);
}

void ResourceStateTracker::NoteInitialized(const Resource* resource, uint32_t sub) {
    auto it = m_Locals.find(const_cast<Resource*>(resource));
    if (it == m_Locals.end() || it->second.contents.empty()) return;
    it->second.contents[sub] = kDefined;
}

void ResourceStateTracker::NoteContentsUse(const Resource* resource, uint32_t sub, const char* op) {
    auto it = m_Locals.find(const_cast<Resource*>(resource));
    if (it == m_Locals.end() || it->second.contents.empty()) return;
    Local& l = it->second;
    if (l.contents[sub] == kUndefined)
        ThrowUndefinedContents(*resource, sub, op,
                               l.activatedByBarrier
                                   ? "it was activated by aliasing_barrier in this command list, and nothing initialized that subresource since"
                                   : "an overlapping resource was used earlier in the same command list (activating it again), and "
                                     "nothing initialized that subresource since");
    if (l.contents[sub] == kAsBegun) {
        for (const auto& u : l.usesAsBegun)
            if (u.first == sub) return;
        l.usesAsBegun.emplace_back(sub, op);
    }
}

memory::AliasMap& ResourceStateTracker::LocalAliases(memory::MemoryRegion* region) {
    for (auto& kv : m_AliasMaps)
        if (kv.first == region) return kv.second;
    m_AliasMaps.emplace_back(region, memory::AliasMap());
    return m_AliasMaps.back().second;
}


void ResourceStateTracker::AliasUse(const std::shared_ptr<Resource>& resource, Local* local, bool explicitBarrier, D3D12_RESOURCE_STATES parkState) {
    ++m_StateEpoch;
    Resource* r = resource.get();
    memory::AliasMap& map = LocalAliases(r->AliasRegion());
    const memory::AliasMap::Overlap o = map.Query(r, r->AliasBegin(), r->AliasEnd());
    const bool mustInit = d3d12rules::NeedsInitAfterActivation(r->Desc().Flags);
    if (!explicitBarrier && !o.others) {
        if (local && local->needsInit) {  // the first use after an explicit activation
            local->needsInit = false;
            if (local->aliasActive) return;
        }
        if (!local) {
            // Nothing else used its memory in this list: whether another resource did before is
            // known at execute (ResolvePendingBarriers), where its activation barrier goes into
            // the pre-list ahead of its transitions.
            local = &Create(resource);
            m_Pending.push_back({r, kAllSubresources, D3D12_RESOURCE_STATE_COMMON, PendingKind::Activate});
        }
        local->aliasActive = true;
        map.Use(r, resource, r->AliasBegin(), r->AliasEnd());
        return;
    }
    // Activated inside this list: by the user's barrier, or here (an overlapping resource was used
    // earlier in this list). D3D12Rules rule 6; its contents are undefined from here (6d).
    if (!local) local = &Create(resource);
    std::fill(local->contents.begin(), local->contents.end(), uint8_t(kUndefined));
    local->activatedByBarrier = explicitBarrier;
    if (!FixedStateHeap(*r)) {
        // Parked (rule 6c): what the list does not know of its state yet (all of it, for a resource
        // new to the list) is put in parkState (COMMON unless the caller named the state it was left
        // in) before the list, and moves from there after the barrier.
        bool unknown = false;
        for (uint32_t i = 0; i < local->states.NumSubresources() && !unknown; ++i) unknown = local->states.Get(i) == kUnknownState;
        if (unknown) {
            for (uint32_t i = 0; i < local->states.NumSubresources(); ++i)
                if (local->states.Get(i) == kUnknownState) local->states.Set(i, parkState);
            local->states.Collapse();
            m_Pending.push_back({r, kAllSubresources, parkState, PendingKind::Park});
        }
    }
    for (const auto& p : map.Pieces()) {  // whoever it displaces is no longer active in this list
        if (p.end <= r->AliasBegin() || p.begin >= r->AliasEnd() || p.user == r) continue;
        auto it = m_Locals.find(static_cast<Resource*>(const_cast<void*>(p.user)));
        if (it != m_Locals.end()) it->second.aliasActive = false;
    }
    map.Use(r, resource, r->AliasBegin(), r->AliasEnd());
    local->aliasActive = true;
    local->writes = true;  // rule 7: activated inside the list
    local->needsInit = explicitBarrier && mustInit;
    if (!explicitBarrier) {
        Push(d3dx::AliasingBarrier(o.single ? static_cast<Resource*>(o.single.get())->D3D12Resource() : nullptr, r->D3D12Resource()));
        m_Stats.aliasing.fetch_add(1, std::memory_order_relaxed);
        m_Stats.aliasingAutomatic.fetch_add(1, std::memory_order_relaxed);
    }
}

void ResourceStateTracker::NoteUavWrite(Resource* resource) {
    auto it = m_Locals.find(resource);
    if (it == m_Locals.end()) return;
    if (!it->second.uavWritten) ++m_StateEpoch;  // the next use needs a UAV barrier now
    it->second.uavWritten = it->second.writes = true;
}

void ResourceStateTracker::UavHazard(const std::shared_ptr<Resource>& resource) {
    auto it = m_Locals.find(resource.get());
    if (it != m_Locals.end() && it->second.uavWritten) {
        ++m_StateEpoch;
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

memory::AliasMap& ExecuteStates::Aliases(memory::MemoryRegion* region) {
    auto it = m_Aliases.find(region);
    if (it == m_Aliases.end()) it = m_Aliases.emplace(region, region->aliases).first;
    return it->second;
}

std::vector<uint8_t>& ExecuteStates::Defined(Resource* r) {
    auto it = m_Defined.find(r);
    if (it == m_Defined.end()) it = m_Defined.emplace(r, r->DefinedContents()).first;
    return it->second;
}

void ExecuteStates::Commit() {
    for (auto& kv : m_Defined) kv.first->DefinedContents() = std::move(kv.second);
    for (auto& kv : m_States) kv.first->GlobalState() = kv.second;
    for (auto& kv : m_Aliases) kv.first->aliases = std::move(kv.second);
}

void ResourceStateTracker::ResolveActivation(Resource* r, bool park, D3D12_RESOURCE_STATES parkState, ExecuteStates& states,
                                             std::vector<D3D12_RESOURCE_BARRIER>& out, std::vector<Resource*>* owners) {
    SubresourceStates& g = states.Get(r);
    // Parked (rule 6c): nothing to do when it is in its parking state already (buffers always are in
    // COMMON here).
    if (park && g.IsUniform() && g.All() == parkState) return;
    memory::AliasMap& map = states.Aliases(r->AliasRegion());
    memory::AliasMap::Overlap o = map.Query(r, r->AliasBegin(), r->AliasEnd());
    // Activated by its parking just before: the list's first use is still its activation.
    const bool parkedFirst = !park && std::find(m_ParkActivated.begin(), m_ParkActivated.end(), r) != m_ParkActivated.end();
    if (!park && TracksContents(*r)) {
        // Rule 6d: the subresources this list used before defining them.
        const bool activated = o.others || o.uncovered || parkedFirst;
        if (activated) m_ActivatedAtStart.insert(r);
        const auto local = m_Locals.find(r);
        if (local != m_Locals.end()) {
            const std::vector<uint8_t>& defined = states.Defined(r);
            for (const auto& u : local->second.usesAsBegun)
                if (activated || !defined[u.first])
                    ThrowUndefinedContents(*r, u.first, u.second,
                                           !activated ? "it was activated in an earlier command list, and nothing initialized that subresource since"
                                           : o.uncovered && !o.others
                                               ? "this command list is the first to use it, and uses that subresource before initializing it"
                                               : "this command list uses it after another resource used its memory, and uses that subresource "
                                                 "before initializing it");
        }
    }
    if (park && (o.others || o.uncovered)) m_ParkActivated.push_back(r);
    if (o.others) {
        out.push_back(d3dx::AliasingBarrier(o.single ? static_cast<Resource*>(o.single.get())->D3D12Resource() : nullptr, r->D3D12Resource()));
        if (owners) owners->push_back(r);
        if (o.single) states.keep.push_back(o.single);
        ++states.aliasingBarriers;
    }
    map.Use(r, r->weak_from_this(), r->AliasBegin(), r->AliasEnd());
    if (!park) return;
    ID3D12Resource* native = r->D3D12Resource();
    if (g.IsUniform()) {
        out.push_back(d3dx::TransitionBarrier(native, g.All(), parkState, kAllSubresources));
        if (owners) owners->push_back(r);
    } else {
        for (uint32_t i = 0; i < g.NumSubresources(); ++i)
            if (g.Get(i) != parkState) {
                out.push_back(d3dx::TransitionBarrier(native, g.Get(i), parkState, i));
                if (owners) owners->push_back(r);
            }
    }
    g.SetAll(parkState);
}

std::vector<D3D12_RESOURCE_BARRIER> ResourceStateTracker::ResolvePendingBarriers(ExecuteStates& states, std::vector<Resource*>* owners) {
    std::vector<D3D12_RESOURCE_BARRIER> out;
    m_ParkActivated.clear();
    m_ActivatedAtStart.clear();
    // Parked resources first: their activation for the parking transition must precede the
    // activations of the resources this list uses before them (rule 6c).
    if (!m_AliasMaps.empty())
        for (const Pending& p : m_Pending)
            if (p.kind == PendingKind::Park) ResolveActivation(p.resource, true, p.state, states, out, owners);
    for (const Pending& p : m_Pending) {
        if (p.kind != PendingKind::State) {
            if (p.kind == PendingKind::Activate) ResolveActivation(p.resource, false, p.state, states, out, owners);
            continue;
        }
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
    for (const auto& kv : m_AliasMaps) states.Aliases(kv.first).Overwrite(kv.second);
    for (const auto& kv : m_Locals) {
        if (FixedStateHeap(*kv.first)) continue;
        if (!kv.second.contents.empty()) {  // rule 6d: what this list leaves defined
            std::vector<uint8_t>& defined = states.Defined(kv.first);
            const bool activated = m_ActivatedAtStart.count(kv.first) != 0;
            for (size_t i = 0; i < defined.size(); ++i) {
                const uint8_t c = kv.second.contents[i];
                defined[i] = c == kDefined ? 1 : c == kUndefined ? 0 : activated ? 0 : defined[i];
            }
        }
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
    ++m_StateEpoch;
    auto it = m_Raw.find(resource);
    if (it == m_Raw.end())
        it = m_Raw
                 .emplace(resource, Raw{SubresourceStates(resource->NumSubresources(), kUnknownState),
                                        SubresourceStates(resource->NumSubresources(), kUnknownState)})
                 .first;
    it->second.believed.Set(sub, believed);
    it->second.actual.Set(sub, actual);
}

D3D12_RESOURCE_STATES ResourceStateTracker::KnownState(Resource* resource, uint32_t sub) const {
    auto it = m_Locals.find(resource);
    if (it == m_Locals.end()) return kUnknownState;
    return sub == kAllSubresources ? (it->second.states.IsUniform() ? it->second.states.All() : kUnknownState) : it->second.states.Get(sub);
}

ResourceStateTracker::~ResourceStateTracker() = default;

void ResourceStateTracker::MarkExecuted(uint64_t serial) {
    if (!m_DirectWritesPossible) return;
    for (auto& kv : m_Locals) kv.first->NoteUse(serial);
}

void ResourceStateTracker::MoveResourcesTo(std::vector<std::shared_ptr<void>>& out) {
    out.reserve(out.size() + m_Locals.size());
    for (auto& kv : m_Locals) out.push_back(std::move(kv.second.resource));
    m_Locals.clear();
}

void ResourceStateTracker::Reset() {
    m_UseCount = 0;
    ++m_StateEpoch;
    m_Locals.clear();
    m_Pending.clear();
    m_Barriers.clear();
    m_Raw.clear();
    m_ActivatedAtStart.clear();
    m_AliasMaps.clear();
}

}  // namespace dx12kit
