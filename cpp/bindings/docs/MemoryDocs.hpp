// The Python docstrings of Memory (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace Memory {
inline constexpr const char class_[] =
    "GPU memory to place resources in yourself (aliasing): Device.allocate_memory, then create_buffer /\n"
    "create_texture2d with memory= and offset=. Resources placed in it keep it alive.";
inline constexpr const char allocation[] = "Where the memory lies (as Resource.allocation).";
}  // namespace Memory

}  // namespace dx12kit::bindings::docs
