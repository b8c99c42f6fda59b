// dx12core: IndirectArgument (one argument of a command signature: Device.create_command_signature).
// Only conversions live here; the rules are in cpp/src/gpu/CommandSignature.cpp.
#include "GpuArgs.hpp"

namespace dx12kit::bindings {

namespace {

IndirectArgument Make(D3D12_INDIRECT_ARGUMENT_TYPE type) {
    IndirectArgument a;
    a.desc.Type = type;
    return a;
}

IndirectArgument RootView(D3D12_INDIRECT_ARGUMENT_TYPE type, const Int& rootIndex, const char* fn) {
    IndirectArgument a = Make(type);
    a.desc.ConstantBufferView.RootParameterIndex = U32(rootIndex, fn, "root_index");
    return a;
}

}  // namespace

void BindIndirectArgument(Classes& c) {
    Documented(c.indirectArgument,
        "One argument of each command in an ExecuteIndirect argument buffer (D3D12_INDIRECT_ARGUMENT_DESC). Make them\n"
        "with the static methods (IndirectArgument.draw(), .constant(0, 0, 4), ...) and pass a list to\n"
        "Device.create_command_signature; the list ends with the one draw, draw_indexed or dispatch argument.")
        .def_static("draw", [] { return Make(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW); },
                    "A draw: 16 bytes (vertex_count, instance_count, start_vertex, start_instance as uint32; D3D12_DRAW_ARGUMENTS).")
        .def_static("draw_indexed", [] { return Make(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED); },
                    "An indexed draw: 20 bytes (index_count, instance_count, start_index as uint32, base_vertex as int32,\n"
                    "start_instance as uint32; D3D12_DRAW_INDEXED_ARGUMENTS).")
        .def_static("dispatch", [] { return Make(D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH); },
                    "A dispatch: 12 bytes (x, y, z thread-group counts as uint32; D3D12_DISPATCH_ARGUMENTS).")
        .def_static("vertex_buffer_view", [](Int slot) {
            IndirectArgument a = Make(D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW);
            a.desc.VertexBuffer.Slot = U32(slot, "IndirectArgument.vertex_buffer_view", "slot");
            return a;
        }, "slot"_a,
           "Changes the vertex buffer of input slot `slot`: 16 bytes (D3D12_VERTEX_BUFFER_VIEW). Refused on vkd3d 1.2, which\n"
           "ignores it.\n\n"
           "Args:\n"
           "    slot: the input slot (0..31).")
        .def_static("index_buffer_view", [] { return Make(D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW); },
                    "Changes the index buffer: 16 bytes (D3D12_INDEX_BUFFER_VIEW). Refused on vkd3d 1.2, which ignores it.")
        .def_static("constant", [](Int rootIndex, Int destOffset, Int count) {
            const char* fn = "IndirectArgument.constant";
            IndirectArgument a = Make(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT);
            a.desc.Constant.RootParameterIndex = U32(rootIndex, fn, "root_index");
            a.desc.Constant.DestOffsetIn32BitValues = U32(destOffset, fn, "dest_offset");
            a.desc.Constant.Num32BitValuesToSet = U32(count, fn, "count");
            return a;
        }, "root_index"_a, "dest_offset"_a, "count"_a,
           "Sets `count` root constants of root parameter `root_index` from `dest_offset`: 4 bytes each. Refused on vkd3d 1.2,\n"
           "which ignores it.\n\n"
           "Args:\n"
           "    root_index: a root-constants parameter of the signature's root signature.\n"
           "    dest_offset: the first constant set (in 32-bit values).\n"
           "    count: how many constants (at least 1).")
        .def_static("constant_buffer_view", [](Int rootIndex) { return RootView(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, rootIndex, "IndirectArgument.constant_buffer_view"); },
                    "root_index"_a,
                    "Changes root CBV `root_index` to a GPU virtual address: 8 bytes. Refused on vkd3d 1.2, which ignores it.\n\n"
                    "Args:\n"
                    "    root_index: a root CBV parameter of the signature's root signature.")
        .def_static("shader_resource_view", [](Int rootIndex) { return RootView(D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, rootIndex, "IndirectArgument.shader_resource_view"); },
                    "root_index"_a,
                    "Changes root SRV `root_index` to a GPU virtual address: 8 bytes. Refused on vkd3d 1.2, which ignores it.\n\n"
                    "Args:\n"
                    "    root_index: a root SRV parameter of the signature's root signature.")
        .def_static("unordered_access_view", [](Int rootIndex) { return RootView(D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, rootIndex, "IndirectArgument.unordered_access_view"); },
                    "root_index"_a,
                    "Changes root UAV `root_index` to a GPU virtual address: 8 bytes. Refused on vkd3d 1.2, which ignores it.\n\n"
                    "Args:\n"
                    "    root_index: a root UAV parameter of the signature's root signature.")
        .def_property_readonly("kind", [](const IndirectArgument& a) { return std::string(indirectrules::KindName(a.desc.Type)); },
                               "'draw', 'draw_indexed', 'dispatch', 'vertex_buffer_view', 'index_buffer_view', 'constant',\n"
                               "'constant_buffer_view', 'shader_resource_view' or 'unordered_access_view'.")
        .def_property_readonly("byte_size", [](const IndirectArgument& a) { return indirectrules::ArgumentBytes(a.desc); },
                               "The bytes it takes in each command.")
        .def("__eq__", [](const IndirectArgument& a, py::handle other) {
            if (!py::isinstance<IndirectArgument>(other)) return false;
            return indirectrules::Describe(a.desc) == indirectrules::Describe(other.cast<const IndirectArgument&>().desc);
        })
        .def("__hash__", [](const IndirectArgument& a) { return py::hash(py::str(indirectrules::Describe(a.desc))); })
        .def("__repr__", [](const IndirectArgument& a) { return "IndirectArgument." + indirectrules::Describe(a.desc); });
}

}  // namespace dx12kit::bindings
