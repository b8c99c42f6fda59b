// The Python docstrings of IndirectArgument (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace IndirectArgument {
inline constexpr const char class_[] =
    "One argument of each command in an ExecuteIndirect argument buffer (D3D12_INDIRECT_ARGUMENT_DESC). Make them\n"
    "with the static methods (IndirectArgument.draw(), .constant(0, 0, 4), ...) and pass a list to\n"
    "Device.create_command_signature; the list ends with the one draw, draw_indexed or dispatch argument.";
inline constexpr const char draw[] = "A draw: 16 bytes (vertex_count, instance_count, start_vertex, start_instance as uint32; D3D12_DRAW_ARGUMENTS).";
inline constexpr const char draw_indexed[] =
    "An indexed draw: 20 bytes (index_count, instance_count, start_index as uint32, base_vertex as int32,\n"
    "start_instance as uint32; D3D12_DRAW_INDEXED_ARGUMENTS).";
inline constexpr const char dispatch[] = "A dispatch: 12 bytes (x, y, z thread-group counts as uint32; D3D12_DISPATCH_ARGUMENTS).";
inline constexpr const char vertex_buffer_view[] =
    "Changes the vertex buffer of input slot `slot`: 16 bytes (D3D12_VERTEX_BUFFER_VIEW). Refused on vkd3d 1.2, which\n"
    "ignores it.\n\n"
    "Args:\n"
    "    slot: the input slot (0..31).";
inline constexpr const char index_buffer_view[] =
    "Changes the index buffer: 16 bytes (D3D12_INDEX_BUFFER_VIEW). Refused on vkd3d 1.2, which ignores it.";
inline constexpr const char constant[] =
    "Sets `count` root constants of root parameter `root_index` from `dest_offset`: 4 bytes each. Refused on vkd3d 1.2,\n"
    "which ignores it.\n\n"
    "Args:\n"
    "    root_index: a root-constants parameter of the signature's root signature.\n"
    "    dest_offset: the first constant set (in 32-bit values).\n"
    "    count: how many constants (at least 1).";
inline constexpr const char constant_buffer_view[] =
    "Changes root CBV `root_index` to a GPU virtual address: 8 bytes. Refused on vkd3d 1.2, which ignores it.\n\n"
    "Args:\n"
    "    root_index: a root CBV parameter of the signature's root signature.";
inline constexpr const char shader_resource_view[] =
    "Changes root SRV `root_index` to a GPU virtual address: 8 bytes. Refused on vkd3d 1.2, which ignores it.\n\n"
    "Args:\n"
    "    root_index: a root SRV parameter of the signature's root signature.";
inline constexpr const char unordered_access_view[] =
    "Changes root UAV `root_index` to a GPU virtual address: 8 bytes. Refused on vkd3d 1.2, which ignores it.\n\n"
    "Args:\n"
    "    root_index: a root UAV parameter of the signature's root signature.";
inline constexpr const char kind[] =
    "'draw', 'draw_indexed', 'dispatch', 'vertex_buffer_view', 'index_buffer_view', 'constant',\n"
    "'constant_buffer_view', 'shader_resource_view' or 'unordered_access_view'.";
inline constexpr const char byte_size[] = "The bytes it takes in each command.";
}  // namespace IndirectArgument

}  // namespace dx12kit::bindings::docs
