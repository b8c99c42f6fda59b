// dx12core: IndirectArgument (one argument of a command signature: Device.create_command_signature).
// Only conversions live here; the rules are in cpp/src/gpu/CommandSignature.cpp.
#include "docs/IndirectArgumentDocs.hpp"
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
    Documented(c.indirectArgument, docs::IndirectArgument::class_)
        .def_static(
            "draw", [] { return Make(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW); }, docs::IndirectArgument::draw)
        .def_static(
            "draw_indexed", [] { return Make(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED); }, docs::IndirectArgument::draw_indexed)
        .def_static(
            "dispatch", [] { return Make(D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH); }, docs::IndirectArgument::dispatch)
        .def_static(
            "vertex_buffer_view",
            [](Int slot) {
                IndirectArgument a = Make(D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW);
                a.desc.VertexBuffer.Slot = U32(slot, "IndirectArgument.vertex_buffer_view", "slot");
                return a;
            },
            "slot"_a, docs::IndirectArgument::vertex_buffer_view)
        .def_static(
            "index_buffer_view", [] { return Make(D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW); }, docs::IndirectArgument::index_buffer_view)
        .def_static(
            "constant",
            [](Int rootIndex, Int destOffset, Int count) {
                const char* fn = "IndirectArgument.constant";
                IndirectArgument a = Make(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT);
                a.desc.Constant.RootParameterIndex = U32(rootIndex, fn, "root_index");
                a.desc.Constant.DestOffsetIn32BitValues = U32(destOffset, fn, "dest_offset");
                a.desc.Constant.Num32BitValuesToSet = U32(count, fn, "count");
                return a;
            },
            "root_index"_a, "dest_offset"_a, "count"_a, docs::IndirectArgument::constant)
        .def_static(
            "constant_buffer_view",
            [](Int rootIndex) {
                return RootView(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, rootIndex, "IndirectArgument.constant_buffer_view");
            },
            "root_index"_a, docs::IndirectArgument::constant_buffer_view)
        .def_static(
            "shader_resource_view",
            [](Int rootIndex) {
                return RootView(D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, rootIndex, "IndirectArgument.shader_resource_view");
            },
            "root_index"_a, docs::IndirectArgument::shader_resource_view)
        .def_static(
            "unordered_access_view",
            [](Int rootIndex) {
                return RootView(D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, rootIndex, "IndirectArgument.unordered_access_view");
            },
            "root_index"_a, docs::IndirectArgument::unordered_access_view)
        .def_property_readonly(
            "kind", [](const IndirectArgument& a) { return std::string(indirectrules::KindName(a.desc.Type)); }, docs::IndirectArgument::kind)
        .def_property_readonly(
            "byte_size", [](const IndirectArgument& a) { return indirectrules::ArgumentBytes(a.desc); }, docs::IndirectArgument::byte_size)
        .def("__eq__",
             [](const IndirectArgument& a, py::handle other) {
                 if (!py::isinstance<IndirectArgument>(other)) return false;
                 return indirectrules::Describe(a.desc) == indirectrules::Describe(other.cast<const IndirectArgument&>().desc);
             })
        .def("__hash__", [](const IndirectArgument& a) { return py::hash(py::str(indirectrules::Describe(a.desc))); })
        .def("__repr__", [](const IndirectArgument& a) { return "IndirectArgument." + indirectrules::Describe(a.desc); });
}

}  // namespace dx12kit::bindings
