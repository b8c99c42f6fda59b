// dx12core: QueryHeap (Device.create_query_heap; recorded by CommandList.begin_query/end_query,
// read by resolve_query_data and CommandQueue.read_queries).
// Only conversions live here; behaviour is in cpp/src/gpu/QueryHeap.cpp.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

namespace dx12kit::bindings {

void BindQueryHeap(Classes& c) {
    Documented(c.queryHeap,
        "A heap of GPU queries (ID3D12QueryHeap). Create with Device.create_query_heap; record with\n"
        "CommandList.begin_query / end_query; read with CommandQueue.read_queries or CommandList.resolve_query_data.\n"
        "It stays alive while command lists using it are in flight.")
        .def_property_readonly("kind", [](const QueryHeap& h) { return std::string(queryrules::HeapTypeName(h.Type())); },
                               "The heap's kind: 'occlusion' (holds 'occlusion' and 'binary_occlusion' queries), 'timestamp',\n"
                               "'pipeline_statistics' or 'copy_queue_timestamp'.")
        .def_property_readonly("count", &QueryHeap::Count, "How many queries it holds (indices 0 .. count-1).")
        .def_property("name", &QueryHeap::Name, [](QueryHeap& h, py::handle n) { h.SetName(Str(n, "QueryHeap.name", "name")); },
                      "Debug name, shown by repr and in error messages.")
        .def("__repr__", [](const QueryHeap& h) {
            return "<dx12kit.QueryHeap '" + h.Name() + "' kind=" + queryrules::HeapTypeName(h.Type()) + " count=" + std::to_string(h.Count()) + ">";
        });
    InstallForkLeak<QueryHeap>(+[](const QueryHeap& h) { return h.Core().Forked(); });
}

}  // namespace dx12kit::bindings
