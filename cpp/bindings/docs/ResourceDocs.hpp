// The Python docstrings of Resource (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace ResourceState {
inline constexpr const char class_[] = "D3D12_RESOURCE_STATES as flags.";
}  // namespace ResourceState

namespace dx12core {
inline constexpr const char queue_states[] =
    "The resource-state bits a list of each queue type may hold, before and after its transitions (D3D12's\n"
    "queue-type rules, the core's table): {'direct': bits, 'compute': bits, 'copy': bits}. COMMON (0) is legal on all.";
}  // namespace dx12core

namespace Resource {
inline constexpr const char class_[] = "A GPU resource (Buffer or Texture).";
inline constexpr const char name[] = "Debug name given at creation (also the D3D12 object's name).";
inline constexpr const char num_subresources[] = "Number of subresources (1 for a buffer; mips x array slices for a texture).";
inline constexpr const char uav[] = "True when the resource allows unordered access (created with uav=True).";
inline constexpr const char cached_views[] = "Number of descriptor views created for it (cached).";
inline constexpr const char close[] =
    "Marks the resource closed: any later use (barriers, bindings, copies, reads) raises UseAfterFreeError.\n"
    "Work already recorded or submitted still completes; the memory is released once the last reference\n"
    "(this object, command lists in flight) is gone. Closing twice is allowed.";
inline constexpr const char closed[] = "True once close() was called (any later use raises UseAfterFreeError).";
inline constexpr const char global_state[] =
    "The state the resource is in once every executed command list has run (what execute resolves against).\n\n"
    "Args:\n"
    "    subresource: one subresource index (mip + array_slice * mip_levels), or ALL_SUBRESOURCES.\n\n"
    "Returns:\n"
    "    The ResourceState that subresource is in after every executed command list has run.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: a subresource out of range, or ALL_SUBRESOURCES while subresources differ.";
inline constexpr const char allocation[] =
    "Where the resource's memory lies: dict with heap_type, committed, block (None when committed), offset (in the\n"
    "block), size, alignment, pool (its name, None for the device's default pools); 'aliased': True for a resource\n"
    "placed with memory= (it lies in that memory, which other resources may share).";
}  // namespace Resource

}  // namespace dx12kit::bindings::docs
