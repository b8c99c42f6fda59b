// ResourceStateTracker: the states one command list needs, resolved in two phases.
//
// Phase 1, while recording (no lock): the list keeps what it knows of each resource it touched
// (per subresource). The first use of a subresource in the list cannot know its state, so it
// becomes a *pending* barrier ("must be in state X before this list runs"). Later uses transition
// from the known state; those barriers are batched and flushed before the next draw, dispatch,
// copy, clear or resolve (FlushBarriers). A transition to the state a subresource already has
// records nothing.
//
// Phase 2, at CommandQueue::Execute (under the device's submission mutex): ResolvePendingBarriers
// compares each pending barrier with the resource's state (an ExecuteStates copy of the global
// states, advanced by the earlier lists of the same call) and returns the transitions that are
// really needed, recorded into a small command list executed just before this one; then
// ApplyFinalStates advances the copy. Only when every list resolved does Execute commit it.
//
//   list A records:  T: ? -> RENDER_TARGET (pending) ... T: RENDER_TARGET -> PSR (barrier)
//   execute A:       global T = COPY_DEST  => pre-list gets COPY_DEST -> RENDER_TARGET
//                    global T := PIXEL_SHADER_RESOURCE
//
// Resources in UPLOAD/READBACK heaps keep their fixed states (GENERIC_READ / COPY_DEST) and are
// only kept alive. Not thread-safe: owned by one command list.
//
// Aliasing (D3D12Rules.hpp rule 6): a resource placed in user memory (Resource::AliasRegion) is
// checked at every use that could activate it, i.e. its first use in the list and its first use
// after an overlapping resource was used in the list (an AliasMap per memory says which resource
// last used each range in this list):
//   - an overlapping resource was used earlier in this list: the aliasing barrier is recorded now;
//     a resource new to the list is "parked": a pending entry asks for COMMON before the list and
//     the tracker moves it from COMMON after the barrier (rule 6c);
//   - else its activation is pending: at execute it is compared with the memory's AliasMap (what
//     the executed lists used) and the barrier goes into the pre-list, before its transitions.
// The list's own AliasMaps are written over the memories' maps when it executes.
//
//   list: use A ............ use B ......................... use A
//         pending: activate A  barrier A->B, B parked:       barrier B->A (A's state is known)
//                              pending COMMON, COMMON -> X
//
// Contents after activation (rule 6d, validation mode only; render targets and depth buffers placed
// in user memory): each subresource, planes included, is undefined after an activation until an
// initializing write (NoteInitialized: a clear of that mip and plane, a copy of the whole
// subresource) defines it; any other use (NoteContentsUse: copy source, shader read, UAV access,
// draw into it, depth or stencil test) of an undefined one raises ResourceStateError. Per list each
// subresource is defined, undefined (activated inside the list) or as the list began; a use of one
// "as the list began" is checked at execute, against the activation resolved there (then all are
// undefined) or else the resource's DefinedContents, which execute advances like the states.
#pragma once

#include "dx12kit/memory/AliasMap.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"
#include "dx12kit/resources/ResourceState.hpp"

#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace dx12kit {

class Resource;
struct BarrierStats;
namespace memory {
struct MemoryRegion;
}

/// The resource states during one CommandQueue::Execute (caller holds the submission mutex): a
/// copy of each touched resource's global state, advanced list by list, written back only by
/// Commit once the whole call is known to be valid (so a failing execute changes nothing).
class ExecuteStates {
public:
    /// The state of `r` as the lists resolved so far leave it (its global state at first).
    SubresourceStates& Get(Resource* r);
    /// D3D12's implicit decay at the end of the ExecuteCommandLists call (d3d12rules rule 5).
    void Decay(D3D12_COMMAND_LIST_TYPE queueType);
    /// The aliasing record of `region` as the lists resolved so far leave it (its global one at first).
    memory::AliasMap& Aliases(memory::MemoryRegion* region);
    /// Resource::DefinedContents of `r` as the lists resolved so far leave it (rule 6d, validation).
    std::vector<uint8_t>& Defined(Resource* r);
    /// Writes every state and aliasing record back (resources' global states, regions' maps).
    void Commit();
    /// Resources the resolved barriers name (the "before" of aliasing barriers): kept until the fence.
    std::vector<std::shared_ptr<void>> keep;
    /// Aliasing barriers the resolved pre-lists hold.
    uint64_t aliasingBarriers = 0;

private:
    std::unordered_map<Resource*, SubresourceStates> m_States;
    std::unordered_map<memory::MemoryRegion*, memory::AliasMap> m_Aliases;
    std::unordered_map<Resource*, std::vector<uint8_t>> m_Defined;
};

class ResourceStateTracker {
public:
    explicit ResourceStateTracker(BarrierStats& stats) : m_Stats(stats) {}
    ~ResourceStateTracker();
    ResourceStateTracker(const ResourceStateTracker&) = delete;
    ResourceStateTracker& operator=(const ResourceStateTracker&) = delete;

    /// Requests `state` for `sub` (or every subresource). Keeps the resource alive. Every entry
    /// point that takes a resource throws UseAfterFree when it was closed (Resource::Close).
    /// Unless `exact` (an explicit transition_barrier), a whole-resource read request of a resource
    /// whose known state in this list is a read-only combination holding every requested bit
    /// (d3d12rules::ReadCovered: PIXEL | NON_PIXEL_SHADER_RESOURCE asked for NON_PIXEL) records
    /// nothing and keeps the wider state, except a PIXEL_SHADER_RESOURCE not asked for on a resource
    /// a compute queue uses (Resource::UsedOnComputeQueue). Pending (first) uses, per-subresource
    /// requests, write states and COMMON are always exact.
    void Transition(const std::shared_ptr<Resource>& resource, D3D12_RESOURCE_STATES state, uint32_t sub = kAllSubresources, bool exact = false);
    /// A UAV barrier on `resource` (nullptr: every UAV access).
    void UavBarrier(const std::shared_ptr<Resource>& resource);
    /// An explicit aliasing barrier: `after` becomes the active resource of its range (no automatic
    /// barrier for it then). What the list does not know yet of `after`'s state is parked in
    /// `parkState` (rule 6c; COMMON unless the caller knows the state it was left in).
    void AliasingBarrier(const std::shared_ptr<Resource>& before, const std::shared_ptr<Resource>& after,
                         D3D12_RESOURCE_STATES parkState = D3D12_RESOURCE_STATE_COMMON);
    /// Validation (rule 6d): `sub` of `resource` (already transitioned for the operation) was
    /// written whole by an initializing operation (a clear of it, a copy of the whole subresource).
    void NoteInitialized(const Resource* resource, uint32_t sub);
    /// Validation (rule 6d): `op` uses the contents of `sub` (read, or written other than by an
    /// initializing operation): raises ResourceStateError when they are undefined, here or, when
    /// that depends on what runs before the list, at execute.
    void NoteContentsUse(const Resource* resource, uint32_t sub, const char* op);
    /// Whether NoteInitialized / NoteContentsUse matter for `resource` (validation mode, and a render
    /// target or depth buffer placed in user memory).
    bool TracksContents(const Resource& resource) const;
    /// Validation mode: uses of undefined contents of activated render targets and depth buffers
    /// raise ResourceStateError (rule 6d, per subresource and plane).
    void SetValidate(bool validate) { m_Validate = validate; }
    /// Marks that a UAV-state resource was written by a draw or dispatch (for automatic UAV
    /// barriers between dependent dispatches).
    void NoteUavWrite(Resource* resource);
    /// Emits a UAV barrier when `resource` was written as UAV since the last one.
    void UavHazard(const std::shared_ptr<Resource>& resource);

    /// Records the batched barriers into `list` (one ResourceBarrier call).
    void FlushBarriers(ID3D12GraphicsCommandList* list);
    bool HasBatchedBarriers() const { return !m_Barriers.empty(); }

    /// Phase 2 (caller holds the submission mutex): the barriers needed before this list, resolved
    /// against `states` (the global states as the earlier lists of the same execute call leave
    /// them); updates `states` and changes no global state, so an execute can still be abandoned.
    /// When `owners` is given, it receives the Resource of each returned barrier (same order).
    std::vector<D3D12_RESOURCE_BARRIER> ResolvePendingBarriers(ExecuteStates& states, std::vector<Resource*>* owners = nullptr);
    /// Phase 2: writes this list's final states into `states` (no decay: D3D12 decays only when
    /// the whole ExecuteCommandLists call completes, see ExecuteStates::Decay). A subresource a raw
    /// transition changed, and that the tracker did not move afterwards, gets the raw transition's state.
    void ApplyFinalStates(ExecuteStates& states) const;
    /// A raw transition recorded behind the tracker's back: `believed` is what the tracker thinks
    /// `sub` is in (and keeps thinking), `actual` what the GPU will have.
    void NoteRawTransition(Resource* resource, uint32_t sub, D3D12_RESOURCE_STATES believed, D3D12_RESOURCE_STATES actual);

    /// The locally known state of `sub`, or kUnknownState.
    D3D12_RESOURCE_STATES KnownState(Resource* resource, uint32_t sub) const;
    /// Whether this list used `resource` at all.
    bool Touches(const Resource* resource) const { return m_Locals.count(const_cast<Resource*>(resource)) != 0; }
    /// Cross-queue hazards (D3D12Rules rule 7, CommandQueue::Execute): calls f(resource, writes)
    /// for every resource this list uses; `writes` when the list may change its contents or its
    /// state: a write state requested (render target, UAV, depth write, copy or resolve
    /// destination, stream out), a transition or UAV barrier recorded, an aliasing activation, a
    /// raw transition, a READBACK buffer (a copy destination). Transitions resolved at execute are
    /// the caller's to add (ResolvePendingBarriers' owners).
    template <class F>
    void ForEachUse(F&& f) const {
        for (const auto& kv : m_Locals) f(kv.first, kv.second.writes || m_Raw.count(kv.first) != 0);
    }
    /// Every resource this list touched (kept alive until the list's fence completes).
    void MoveResourcesTo(std::vector<std::shared_ptr<void>>& out);
    size_t PendingCount() const { return m_Pending.size(); }
    void Reset();

    // ---- execute-time CPU writes (cache-coherent UMA; dx12kit/gpu/UmaAccess.hpp) -------------
    // On a device whose 'default' buffers are CPU-visible (SetDirectWrites), every resource the list
    // used gets the list's serial as its last-use serial at execute: a later execute writes such a
    // buffer on the CPU only once that serial has completed. Other devices skip it.
    void SetDirectWrites(bool possible) { m_DirectWritesPossible = possible; }
    /// At execute: sets the last-use serial of every resource the list used.
    void MarkExecuted(uint64_t serial);
    /// A counter that changes whenever anything this tracker knows may have changed in a way a later
    /// request could depend on: a local state (a transition, a pending entry, a first use), a UAV
    /// write or barrier, an aliasing activation, a raw transition. A command list compares it once per
    /// draw to know that the states its bindings requested at the last draw still hold (so it need not
    /// request them again). Requests that find the state already in place leave it unchanged.
    uint64_t StateEpoch() const { return m_StateEpoch; }
    /// A stamp that changes at every use of `resource` in this list (0: not used): a command list
    /// compares stamps to know that nothing used a resource since its own last look.
    uint64_t UseStamp(const Resource* resource) const {
        auto it = m_Locals.find(const_cast<Resource*>(resource));
        return it == m_Locals.end() ? 0 : it->second.stamp;
    }

private:
    struct Local {
        std::shared_ptr<Resource> resource;
        SubresourceStates states;  // kUnknownState where the list has not touched it
        bool uavWritten = false;
        bool writes = false;       // ForEachUse: the list may write it or change its state
        bool aliasActive = false;  // aliased: the last user of its whole range in this list
        bool needsInit = false;    // activated by an explicit barrier (its next use completes the activation)
        // Rule 6d (TracksContents only): per subresource kAsBegun, kDefined or kUndefined, and the
        // uses of subresources still kAsBegun, checked at execute.
        std::vector<uint8_t> contents;
        std::vector<std::pair<uint32_t, const char*>> usesAsBegun;
        bool activatedByBarrier = false;  // the last activation inside the list was aliasing_barrier's
        uint64_t stamp = 0;               // UseStamp: the list's use count at its latest use
    };
    enum : uint8_t { kAsBegun = 0, kDefined = 1, kUndefined = 2 };
    enum class PendingKind : uint8_t { State, Activate, Park };
    struct Pending {
        Resource* resource;
        uint32_t sub;
        D3D12_RESOURCE_STATES state;
        PendingKind kind = PendingKind::State;
    };
    Local& Lookup(const std::shared_ptr<Resource>& resource);
    Local& Create(const std::shared_ptr<Resource>& resource);
    /// A use of an aliased resource: records its activation (see the header comment).
    void AliasUse(const std::shared_ptr<Resource>& resource, Local* local, bool explicitBarrier,
                  D3D12_RESOURCE_STATES parkState = D3D12_RESOURCE_STATE_COMMON);
    memory::AliasMap& LocalAliases(memory::MemoryRegion* region);
    void ResolveActivation(Resource* r, bool park, D3D12_RESOURCE_STATES parkState, ExecuteStates& states, std::vector<D3D12_RESOURCE_BARRIER>& out,
                           std::vector<Resource*>* owners);
    void Push(const D3D12_RESOURCE_BARRIER& b);
    void PushTransition(Local& l, const D3D12_RESOURCE_BARRIER& b);

    BarrierStats& m_Stats;
    std::unordered_map<Resource*, Local> m_Locals;
    std::vector<Pending> m_Pending;
    std::vector<D3D12_RESOURCE_BARRIER> m_Barriers;
    struct Raw {
        SubresourceStates believed, actual;  // kUnknownState where no raw transition happened
    };
    std::unordered_map<Resource*, Raw> m_Raw;

    bool m_Validate = false;
    bool m_DirectWritesPossible = false;
    uint64_t m_UseCount = 0;                                                      // UseStamp
    uint64_t m_StateEpoch = 0;                                                    // StateEpoch
    std::unordered_set<const Resource*> m_ActivatedAtStart;                       // at execute: activated before the list (rule 6d)
    std::vector<std::pair<memory::MemoryRegion*, memory::AliasMap>> m_AliasMaps;  // what this list used
    std::vector<Resource*> m_ParkActivated;                                       // at execute: activated by their parking
};

}  // namespace dx12kit
