// dx12core: Device.create_query_heap (a helper of BindDevice; the class is BindQueryHeap.cpp).
#include "docs/DeviceDocs.hpp"
#include "GpuArgs.hpp"

namespace dx12kit::bindings {

void BindDeviceQueries(Classes& c) {
    c.device
        .def(
            "create_query_heap",
            [](Device& d, Choice<QueryHeapKindChoice> kind, Int count, OptNameArg name) {
                const char* fn = "create_query_heap";
                d.Context()->CheckNotForked(fn);
                auto heap = std::make_shared<QueryHeap>(d.Context(), Parse(kind, "create_query_heap: kind"), U32(count, fn, "count"));
                heap->SetName(name.is_none() ? std::string(queryrules::HeapTypeName(heap->Type())) + " queries" : Str(name, fn, "name"));
                return heap;
            },
            "kind"_a, "count"_a, py::kw_only(), "name"_a = py::none(), docs::Device::create_query_heap)
        .def_property_readonly(
            "query_support",
            [](const Device& d) {
                const platform::QuerySupport& q = d.Context()->Queries();
                return py::dict("binary_occlusion_01"_a = q.binaryOcclusion01, "predicate64"_a = q.predicate64,
                                "predicates_copies_and_clears"_a = q.predicatesCopiesAndClears, "copy_queue_timestamps"_a = q.copyQueueTimestamps);
            },
            docs::Device::query_support);
}

}  // namespace dx12kit::bindings
