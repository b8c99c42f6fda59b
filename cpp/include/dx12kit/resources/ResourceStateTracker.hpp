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
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"
#include "dx12kit/resources/ResourceState.hpp"

#include <memory>
#include <unordered_map>
#include <vector>

namespace dx12kit {

class Resource;
struct BarrierStats;

/// The resource states during one CommandQueue::Execute (caller holds the submission mutex): a
/// copy of each touched resource's global state, advanced list by list, written back only by
/// Commit once the whole call is known to be valid (so a failing execute changes nothing).
class ExecuteStates {
public:
    /// The state of `r` as the lists resolved so far leave it (its global state at first).
    SubresourceStates& Get(Resource* r);
    /// D3D12's implicit decay at the end of the ExecuteCommandLists call (d3d12rules rule 5).
    void Decay(D3D12_COMMAND_LIST_TYPE queueType);
    /// Writes every state into the resources' global states.
    void Commit();

private:
    std::unordered_map<Resource*, SubresourceStates> m_States;
};

class ResourceStateTracker {
public:
    explicit ResourceStateTracker(BarrierStats& stats) : m_Stats(stats) {}

    /// Requests `state` for `sub` (or every subresource). Keeps the resource alive. Every entry
    /// point that takes a resource throws UseAfterFree when it was closed (Resource::Close).
    void Transition(const std::shared_ptr<Resource>& resource, D3D12_RESOURCE_STATES state,
                    uint32_t sub = kAllSubresources);
    /// A UAV barrier on `resource` (nullptr: every UAV access).
    void UavBarrier(const std::shared_ptr<Resource>& resource);
    void AliasingBarrier(const std::shared_ptr<Resource>& before, const std::shared_ptr<Resource>& after);
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
    /// Every resource this list touched (kept alive until the list's fence completes).
    void MoveResourcesTo(std::vector<std::shared_ptr<void>>& out);
    size_t PendingCount() const { return m_Pending.size(); }
    void Reset();

private:
    struct Local {
        std::shared_ptr<Resource> resource;
        SubresourceStates states;   // kUnknownState where the list has not touched it
        bool uavWritten = false;
    };
    struct Pending {
        Resource* resource;
        uint32_t sub;
        D3D12_RESOURCE_STATES state;
    };
    Local& Lookup(const std::shared_ptr<Resource>& resource);
    void Push(const D3D12_RESOURCE_BARRIER& b);

    BarrierStats& m_Stats;
    std::unordered_map<Resource*, Local> m_Locals;
    std::vector<Pending> m_Pending;
    std::vector<D3D12_RESOURCE_BARRIER> m_Barriers;
    struct Raw {
        SubresourceStates believed, actual;  // kUnknownState where no raw transition happened
    };
    std::unordered_map<Resource*, Raw> m_Raw;
};

}  // namespace dx12kit
