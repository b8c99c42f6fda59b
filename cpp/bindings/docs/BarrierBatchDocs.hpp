// The Python docstrings of BarrierBatch (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace BarrierBatch {
inline constexpr const char class_[] =
    "Barrier requests built once and recorded into command lists with one call, "
    "CommandList.resource_barriers(batch).\n\n"
    "Recording a batch is the same as calling transition_barrier, uav_barrier and aliasing_barrier for\n"
    "its entries in order (the state tracker batches them into one ResourceBarrier at the next work),\n"
    "at the cost of one call. The batch keeps its resources alive.\n\n"
    "Args:\n"
    "    barriers: tuples (\"transition\", resource, state), (\"transition\", resource, state, subresource)\n"
    "        (one subresource: mip + array_slice * mip_levels), (\"uav\", resource or None) or\n"
    "        (\"aliasing\", before or None, after or None[, state]). An aliasing barrier's state is the\n"
    "        state ``after`` was left in: a list that activates ``after`` before knowing its state takes\n"
    "        it to be there (dx12kit puts it there before the list when it is not) instead of COMMON, so\n"
    "        no detour through COMMON is recorded (default COMMON).\n\n"
    "Raises:\n"
    "    TypeError: an entry that is not such a tuple, or a resource that is not a Buffer or Texture.\n"
    "    InvalidArgumentError: an unknown kind, a state with bits outside D3D12_RESOURCE_STATES, or a\n"
    "        subresource out of range.";
inline constexpr const char len[] = "The number of barrier requests.";
inline constexpr const char entries[] =
    "The barrier requests as tuples, in order: (\"transition\", resource, state) (all subresources) or\n"
    "(\"transition\", resource, state, subresource), (\"uav\", resource or None),\n"
    "(\"aliasing\", before or None, after or None), or with the state when it is not COMMON.";
}  // namespace BarrierBatch

}  // namespace dx12kit::bindings::docs
