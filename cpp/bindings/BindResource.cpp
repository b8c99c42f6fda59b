// dx12core: Resource (the base of Buffer and Texture) and the ResourceState enum.
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"
#include "StatsDicts.hpp"

#include <pybind11/native_enum.h>

namespace dx12kit::bindings {

/// ResourceState before any method: Resource.global_state returns it.
void BindResourceStateEnum(py::module_& m) {
    py::native_enum<D3D12_RESOURCE_STATES>(m, "ResourceState", "enum.IntFlag", "D3D12_RESOURCE_STATES as flags.")
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
    m.def("queue_states", [] {
        py::dict out;
        for (auto type : {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY})
            out[py::str(d3d12rules::QueueTypeName(type))] = d3d12rules::QueueStates(type);
        return out;
    }, "The resource-state bits a list of each queue type may hold, before and after its transitions (D3D12's\n"
       "queue-type rules, the core's table): {'direct': bits, 'compute': bits, 'copy': bits}. COMMON (0) is legal on all.");
}

void BindResource(Classes& c) {
    Documented(c.resource, "A GPU resource (Buffer or Texture).")
        .def_property_readonly("name", &Resource::Name, "Debug name given at creation (also the D3D12 object's name).")
        .def_property_readonly("num_subresources", &Resource::NumSubresources, "Number of subresources (1 for a buffer; mips x array slices for a texture).")
        .def_property_readonly("uav", &Resource::AllowsUav, "True when the resource allows unordered access (created with uav=True).")
        .def_property_readonly("cached_views", &Resource::CachedViewCount, "Number of descriptor views created for it (cached).")
        .def("close", &Resource::Close,
             "Marks the resource closed: any later use (barriers, bindings, copies, reads) raises UseAfterFreeError.\n"
             "Work already recorded or submitted still completes; the memory is released once the last reference\n"
             "(this object, command lists in flight) is gone. Closing twice is allowed.")
        .def_property_readonly("closed", &Resource::IsClosed, "True once close() was called (any later use raises UseAfterFreeError).")
        .def("__repr__", [](const Resource& r) {
            return "<dx12kit.Resource '" + r.Name() + "' subresources=" + std::to_string(r.NumSubresources()) + (r.IsClosed() ? " closed>" : ">");
        })
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](Resource& r, py::args) { r.Close(); })
        .def("global_state", [](Resource& r, Int subArg) {
            return r.SettledState(U32(subArg, "global_state", "subresource"), "global_state");
        }, "subresource"_a = kAllSubresources,
           "The state the resource is in once every executed command list has run (what execute resolves against).\n\n"
           "Args:\n"
           "    subresource: one subresource index (mip + array_slice * mip_levels), or ALL_SUBRESOURCES.\n\n"
           "Returns:\n"
           "    The ResourceState that subresource is in after every executed command list has run.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a subresource out of range, or ALL_SUBRESOURCES while subresources differ.")
        .def_property_readonly("allocation", [](const Resource& r) -> py::object {
        const memory::MemoryAllocation& a = r.Memory();
        if (a.IsNull()) return py::none();
        return AllocationDict(a);
    }, "Where the resource's memory lies: dict with heap_type, committed, block (None when committed), offset (in the\n"
       "block), size, alignment, pool (its name, None for the device's default pools); 'aliased': True for a resource\n"
       "placed with memory= (it lies in that memory, which other resources may share).");
    InstallForkLeak<Resource>(+[](const Resource& r) { return r.Core().Forked(); });
}

}  // namespace dx12kit::bindings
