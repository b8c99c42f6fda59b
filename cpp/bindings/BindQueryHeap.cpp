// dx12core: QueryHeap (Device.create_query_heap; recorded by CommandList.begin_query/end_query,
// read by resolve_query_data and CommandQueue.read_queries).
// Only conversions live here; behaviour is in cpp/src/gpu/QueryHeap.cpp.
#include "docs/QueryHeapDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

namespace dx12kit::bindings {

void BindQueryHeap(Classes& c) {
    Documented(c.queryHeap, docs::QueryHeap::class_)
        .def_property_readonly(
            "kind", [](const QueryHeap& h) { return std::string(queryrules::HeapTypeName(h.Type())); }, docs::QueryHeap::kind)
        .def_property_readonly("count", &QueryHeap::Count, docs::QueryHeap::count)
        .def_property(
            "name", &QueryHeap::Name, [](QueryHeap& h, NameArg n) { h.SetName(Str(n, "QueryHeap.name", "name")); }, docs::QueryHeap::name)
        .def("__repr__", [](const QueryHeap& h) {
            return "<dx12kit.QueryHeap '" + h.Name() + "' kind=" + queryrules::HeapTypeName(h.Type()) + " count=" + std::to_string(h.Count()) + ">";
        });
    InstallForkLeak<QueryHeap>(+[](const QueryHeap& h) { return h.Context().Forked(); });
}

}  // namespace dx12kit::bindings
