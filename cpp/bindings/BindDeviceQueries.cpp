// dx12core: Device.create_query_heap (a helper of BindDevice; the class is BindQueryHeap.cpp).
#include "GpuArgs.hpp"

namespace dx12kit::bindings {

void BindDeviceQueries(Classes& c) {
    c.device.def("create_query_heap", [](Device& d, Choice<QueryHeapKindChoice> kind, Int count, py::object name) {
        const char* fn = "create_query_heap";
        d.Core()->CheckNotForked(fn);
        auto heap = std::make_shared<QueryHeap>(d.Core(), Parse(kind, "create_query_heap: kind"), U32(count, fn, "count"));
        heap->SetName(name.is_none() ? std::string(queryrules::HeapTypeName(heap->Type())) + " queries" : Str(name, fn, "name"));
        return heap;
    }, "kind"_a, "count"_a, py::kw_only(), "name"_a = py::none(),
       "A heap of `count` queries of one kind (ID3D12Device::CreateQueryHeap).\n\n"
       "Args:\n"
       "    kind: 'occlusion' (holds 'occlusion' and 'binary_occlusion' queries; 'binary_occlusion' names the same kind),\n"
       "        'timestamp' (direct and compute lists), 'pipeline_statistics', or 'copy_queue_timestamp' (copy lists'\n"
       "        timestamps; refused on vkd3d 1.2, which cannot create that heap).\n"
       "    count: how many queries (at least 1).\n"
       "    name: debug name (default: '<kind> queries').\n\n"
       "Returns:\n"
       "    A QueryHeap.\n\n"
       "Raises:\n"
       "    InvalidArgumentError: count 0, an unknown kind, or a kind this device cannot create.")
        .def_property_readonly("query_support", [](const Device& d) {
            const platform::QuerySupport& q = d.Core()->Queries();
            return py::dict("binary_occlusion_01"_a = q.binaryOcclusion01, "predicate64"_a = q.predicate64,
                            "predicates_copies_and_clears"_a = q.predicatesCopiesAndClears, "copy_queue_timestamps"_a = q.copyQueueTimestamps);
        }, "Which query and predication behaviours this device has as D3D12 says (False: dx12kit makes up for it or refuses;\n"
           "docs/guides/shader-gaps.rst). binary_occlusion_01: binary occlusion resolves to 0/1 (vkd3d 1.2 resolves sample counts:\n"
           "dx12kit adds a built-in pass); predicate64: predicates are 64-bit (vkd3d 1.2 reads 32 bits: dx12kit predicates on a 0/1\n"
           "copy); predicates_copies_and_clears: copies, clears and resolves are predicated (vkd3d 1.2 runs them: refused while a\n"
           "predicate is set); copy_queue_timestamps: 'copy_queue_timestamp' heaps (refused on vkd3d 1.2).");
}

}  // namespace dx12kit::bindings
