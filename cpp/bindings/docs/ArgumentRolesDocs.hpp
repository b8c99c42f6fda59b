// The Python docstrings of ArgumentRoles (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace dx12core {
inline constexpr const char resource_arguments[] =
    "What each CommandList method does with each resource it takes: {method: [(argument, position, role, many)]}.\n\n"
    "Roles: the render graph's use names ('read', 'write', 'render_target', 'depth_stencil', 'copy_from', 'copy_to',\n"
    "'resolve_from', 'resolve_to'; several joined by '|': any of them); 'states' (the method changes states or memory ownership itself: transitions,\n"
    "aliasing); 'barriers' (a BarrierBatch, each entry as its barrier method); 'layout' (only the description is read).\n"
    "position: the argument's index after self; many: a sequence of resources.";
}  // namespace dx12core

}  // namespace dx12kit::bindings::docs
