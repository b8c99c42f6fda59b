// D3D12's resource-state rules, written down once. vkd3d (over Vulkan) enforces none of them and
// accepts what Windows D3D12 rejects, so dx12kit checks them itself; every check in the library
// that concerns a state, a queue type or implicit promotion/decay calls into this header.
//
// References (Microsoft Direct3D 12 documentation):
//   [STATES]   "D3D12_RESOURCE_STATES enumeration (d3d12.h)"
//              https://learn.microsoft.com/windows/win32/api/d3d12/ne-d3d12-d3d12_resource_states
//   [BARRIERS] "Using Resource Barriers to Synchronize Resource States in Direct3D 12", sections
//              "Resource states", "Implicit State Transitions" (promotion and decay)
//              https://learn.microsoft.com/windows/win32/direct3d12/using-resource-barriers-to-synchronize-resource-states-in-direct3d-12
//   [BLOG]     "A Look Inside D3D12 Resource State Barriers" (DirectX developer blog): read-only
//              states may be combined, a write state may not be combined with any other state.
//
// The rules:
//  1. Valid values [STATES]: a state is COMMON (0) or an OR of the bits 0x1..0x2000 below (the
//     ones vkd3d 1.2's headers define; raytracing/video/shading-rate states are not supported).
//  2. Combinations [STATES][BLOG]: the write states (RENDER_TARGET, UNORDERED_ACCESS, DEPTH_WRITE,
//     STREAM_OUT, COPY_DEST, RESOLVE_DEST) stand alone; read-only states combine freely
//     (GENERIC_READ is such a combination).
//  3. Per queue type [STATES] (remarks on compute and copy engines) and [BARRIERS] ("Resource states"):
//       copy queue:    COMMON, COPY_SOURCE, COPY_DEST only;
//       compute queue: COMMON, VERTEX_AND_CONSTANT_BUFFER, UNORDERED_ACCESS,
//                      NON_PIXEL_SHADER_RESOURCE, INDIRECT_ARGUMENT, COPY_DEST, COPY_SOURCE
//                      (no RENDER_TARGET, DEPTH_WRITE/READ, PIXEL_SHADER_RESOURCE, INDEX_BUFFER,
//                       STREAM_OUT, RESOLVE_SOURCE/DEST);
//       direct queue:  every state.
//     A transition barrier recorded on a list of a queue type must have both its before and after
//     states supported there; a transition the executing queue cannot record (a compute queue
//     leaving RENDER_TARGET) is recorded on the direct queue, which the executing queue then
//     waits for on the GPU (CommandQueue::Execute).
//  4. Implicit promotion [BARRIERS] "Common state promotion": a buffer (or simultaneous-access
//     texture) in COMMON is promoted on first use to whatever state that use needs, without a
//     barrier. (Non-simultaneous textures are promoted only to read/copy states; dx12kit records
//     explicit barriers for textures.)
//  5. Implicit decay [BARRIERS] "State decay to common": when an ExecuteCommandLists call
//     completes (not between the lists of one call), buffers, and every resource accessed on a copy
//     queue, are back in COMMON. Between the lists of one call the states carry over, so a buffer
//     written as UAV in list 0 and copied in list 1 needs a UAV -> COPY_SOURCE barrier.
//  6. Aliasing [PLACED] (remarks, "Simple Model", "Notes on the aliasing barrier", "Notes on the
//     required resource initialization") and [ALIASING]:
//     a. Between the uses of two resources sharing physical memory an aliasing barrier is needed
//        (before = the resource used last, or NULL when several or unknown; after = the one used
//        now). dx12kit records one on the first use of a placed resource after another resource
//        overlapping it was used (in the same list, or in lists executed earlier), and before any
//        transition of the new resource. (ExecuteCommandLists boundaries would do in the advanced
//        model; the simple model, which tools check, wants the activation barrier every time.)
//     b. Aliasing barriers carry no states and are legal in lists of every queue type, copy queues
//        included (the per-queue rules of 3 concern transition states only).
//     c. States: the legacy barrier model keeps one state per resource, and an aliasing barrier
//        changes none ([BARRIERS] "Resource states": only transitions change a state), so a
//        resource re-activated is in the state it was last left in: its creation state (COMMON)
//        the first time, COMMON again for buffers and for anything last used on a copy queue
//        (rule 5). When a resource is first used in a list after an overlapping one in the same
//        list, its state at that point must be known while recording: dx12kit parks it in COMMON
//        (or in the state the caller of aliasing_barrier says it was left in, so that no detour
//        through COMMON is recorded when it is already there) before the list (activating it for that first, when it is not the active one) and moves
//        it from COMMON after the aliasing barrier.
//     d. Contents are undefined after activation. A resource with ALLOW_RENDER_TARGET or
//        ALLOW_DEPTH_STENCIL must first be initialized by a Clear (ClearRenderTargetView /
//        ClearDepthStencilView), DiscardResource or a full-subresource copy, before any other
//        operation; validation mode raises ResourceStateError when it is not.
//  7. Queues [SYNC]: queues run concurrently; a resource written on one queue and used on another
//     (or read on one and written on another) needs the second queue to wait on the GPU for the
//     first one's fence (ID3D12CommandQueue::Wait) before the list using it; a transition counts as
//     a write (a resource may not change state while another queue uses it). Reads on several
//     queues may overlap. dx12kit inserts these waits at execute (CommandQueue.hpp), whole
//     resource granularity, once per other queue and value, none for work already complete.
//   [SYNC]     "Multi-engine synchronization"
//              https://learn.microsoft.com/windows/win32/direct3d12/user-mode-heap-synchronization
//   [PLACED]   "ID3D12Device::CreatePlacedResource method (d3d12.h)", Remarks
//              https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12device-createplacedresource
//   [ALIASING] "Memory Aliasing and Data Inheritance"
//              https://learn.microsoft.com/windows/win32/direct3d12/memory-aliasing-and-data-inheritance
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdint>

namespace dx12kit::d3d12rules {

/// Rule 1: every state bit dx12kit knows (D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER .. RESOLVE_SOURCE).
inline constexpr uint32_t kKnownStateBits = 0x3FFFu;

/// Rule 2: the write states, each of which must stand alone.
inline constexpr uint32_t kWriteStates = uint32_t(D3D12_RESOURCE_STATE_RENDER_TARGET) | uint32_t(D3D12_RESOURCE_STATE_UNORDERED_ACCESS) |
                                         uint32_t(D3D12_RESOURCE_STATE_DEPTH_WRITE) | uint32_t(D3D12_RESOURCE_STATE_STREAM_OUT) |
                                         uint32_t(D3D12_RESOURCE_STATE_COPY_DEST) | uint32_t(D3D12_RESOURCE_STATE_RESOLVE_DEST);

/// Rule 3: the states a list of each queue type may hold (before and after of its transitions).
inline constexpr uint32_t kCopyQueueStates = uint32_t(D3D12_RESOURCE_STATE_COPY_SOURCE) | uint32_t(D3D12_RESOURCE_STATE_COPY_DEST);
inline constexpr uint32_t kComputeQueueStates =
    uint32_t(D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER) | uint32_t(D3D12_RESOURCE_STATE_UNORDERED_ACCESS) |
    uint32_t(D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE) | uint32_t(D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT) |
    uint32_t(D3D12_RESOURCE_STATE_COPY_DEST) | uint32_t(D3D12_RESOURCE_STATE_COPY_SOURCE);

/// Rules 1 and 2: nullptr when `state` is a legal D3D12 state, else why not.
inline const char* InvalidStateReason(D3D12_RESOURCE_STATES state) {
    const uint32_t s = static_cast<uint32_t>(state);
    if (s & ~kKnownStateBits) return "has bits outside D3D12_RESOURCE_STATES";
    const uint32_t writes = s & kWriteStates;
    if (writes && s != writes) return "combines a write state with other states (only read-only states may be combined)";
    if (writes & (writes - 1)) return "combines two write states (a write state must stand alone)";
    return nullptr;
}

/// Rule 2: a resource in `current` may be used for the read `requested` without a barrier: both are
/// read-only (no write state, not COMMON) and `current` holds every bit of `requested` (a read-only
/// combination allows each of its reads at once).
inline constexpr bool ReadCovered(D3D12_RESOURCE_STATES current, D3D12_RESOURCE_STATES requested) {
    const uint32_t c = static_cast<uint32_t>(current), r = static_cast<uint32_t>(requested);
    return r != 0 && c != 0 && ((c | r) & kWriteStates) == 0 && (c & r) == r && (c & ~kKnownStateBits) == 0;
}

/// Rule 3: the states a queue type supports (COMMON, 0, is supported everywhere).
inline uint32_t QueueStates(D3D12_COMMAND_LIST_TYPE type) {
    switch (type) {
        case D3D12_COMMAND_LIST_TYPE_COPY: return kCopyQueueStates;
        case D3D12_COMMAND_LIST_TYPE_COMPUTE: return kComputeQueueStates;
        default: return kKnownStateBits;
    }
}

/// Rule 3: can a list of queue `type` hold (transition to or from) `state`?
inline bool QueueSupportsState(D3D12_COMMAND_LIST_TYPE type, D3D12_RESOURCE_STATES state) {
    return (static_cast<uint32_t>(state) & ~QueueStates(type)) == 0;
}

/// Rule 3: can a list of queue `type` record the transition before -> after?
inline bool QueueCanTransition(D3D12_COMMAND_LIST_TYPE type, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after) {
    return QueueSupportsState(type, before) && QueueSupportsState(type, after);
}

inline const char* QueueTypeName(D3D12_COMMAND_LIST_TYPE type) {
    return type == D3D12_COMMAND_LIST_TYPE_DIRECT ? "direct" : type == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "compute" : "copy";
}

/// Rule 5: does this resource decay to COMMON when the ExecuteCommandLists call completes?
inline bool DecaysAtEndOfExecute(bool isBuffer, D3D12_COMMAND_LIST_TYPE queueType) {
    return isBuffer || queueType == D3D12_COMMAND_LIST_TYPE_COPY;
}

/// Rule 6b: may a list of queue `type` record an aliasing barrier? (Every type may.)
inline constexpr bool QueueCanAlias(D3D12_COMMAND_LIST_TYPE) {
    return true;
}

/// Rule 6d: must the resource be initialized (clear, discard or full copy) after its activation?
inline bool NeedsInitAfterActivation(D3D12_RESOURCE_FLAGS flags) {
    return (flags & (D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET | D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL)) != 0;
}

}  // namespace dx12kit::d3d12rules
