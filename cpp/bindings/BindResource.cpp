// dx12core: Resource (the base of Buffer and Texture) and the ResourceState enum.
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "docs/ResourceDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"
#include "StatsDicts.hpp"

#include <pybind11/native_enum.h>

namespace dx12kit::bindings {

/// ResourceState before any method: Resource.global_state returns it.
void BindResourceStateEnum(py::module_& m) {
    py::native_enum<D3D12_RESOURCE_STATES>(m, "ResourceState", "enum.IntFlag", docs::ResourceState::class_)
        .value("COMMON", D3D12_RESOURCE_STATE_COMMON)
        .value("VERTEX_AND_CONSTANT_BUFFER", D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER)
        .value("INDEX_BUFFER", D3D12_RESOURCE_STATE_INDEX_BUFFER)
        .value("RENDER_TARGET", D3D12_RESOURCE_STATE_RENDER_TARGET)
        .value("UNORDERED_ACCESS", D3D12_RESOURCE_STATE_UNORDERED_ACCESS)
        .value("DEPTH_WRITE", D3D12_RESOURCE_STATE_DEPTH_WRITE)
        .value("DEPTH_READ", D3D12_RESOURCE_STATE_DEPTH_READ)
        .value("NON_PIXEL_SHADER_RESOURCE", D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE)
        .value("PIXEL_SHADER_RESOURCE", D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE)
        .value("STREAM_OUT", D3D12_RESOURCE_STATE_STREAM_OUT)
        .value("INDIRECT_ARGUMENT", D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT)
        .value("COPY_DEST", D3D12_RESOURCE_STATE_COPY_DEST)
        .value("COPY_SOURCE", D3D12_RESOURCE_STATE_COPY_SOURCE)
        .value("RESOLVE_DEST", D3D12_RESOURCE_STATE_RESOLVE_DEST)
        .value("RESOLVE_SOURCE", D3D12_RESOURCE_STATE_RESOLVE_SOURCE)
        .value("GENERIC_READ", D3D12_RESOURCE_STATE_GENERIC_READ)
        .finalize();
    m.attr("ALL_SUBRESOURCES") = kAllSubresources;
    m.def(
        "queue_states",
        [] {
            py::dict out;
            for (auto type : {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY})
                out[py::str(d3d12rules::QueueTypeName(type))] = d3d12rules::QueueStates(type);
            return out;
        },
        docs::dx12core::queue_states);
}

void BindResource(Classes& c) {
    Documented(c.resource, docs::Resource::class_)
        .def_property_readonly("name", &Resource::Name, docs::Resource::name)
        .def_property_readonly("num_subresources", &Resource::NumSubresources, docs::Resource::num_subresources)
        .def_property_readonly("uav", &Resource::AllowsUav, docs::Resource::uav)
        .def_property_readonly("cached_views", &Resource::CachedViewCount, docs::Resource::cached_views)
        .def("close", &Resource::Close, docs::Resource::close)
        .def_property_readonly("closed", &Resource::IsClosed, docs::Resource::closed)
        .def("__repr__",
             [](const Resource& r) {
                 return "<dx12kit.Resource '" + r.Name() + "' subresources=" + std::to_string(r.NumSubresources()) +
                        (r.IsClosed() ? " closed>" : ">");
             })
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](Resource& r, py::args) { r.Close(); })
        .def(
            "global_state", [](Resource& r, Int subArg) { return r.SettledState(U32(subArg, "global_state", "subresource"), "global_state"); },
            "subresource"_a = kAllSubresources, docs::Resource::global_state)
        .def_property_readonly(
            "allocation",
            [](const Resource& r) -> py::object {
                const memory::MemoryAllocation& a = r.Memory();
                if (a.IsNull()) return py::none();
                return AllocationDict(a);
            },
            docs::Resource::allocation);
    InstallForkLeak<Resource>(+[](const Resource& r) { return r.Context().Forked(); });
}

}  // namespace dx12kit::bindings
