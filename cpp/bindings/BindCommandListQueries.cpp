// dx12core: CommandList's queries and predication (a helper of BindCommandList; behaviour in
// cpp/src/gpu/CommandListQueries.cpp, rules in dx12kit/gpu/QueryHeap.hpp).
#include "GpuArgs.hpp"

namespace dx12kit::bindings {

namespace {

std::shared_ptr<QueryHeap> AsQueryHeap(py::handle h, const char* fn) {
    if (!py::isinstance<QueryHeap>(h))
        throw py::type_error(std::string(fn) + ": heap must be a dx12kit.QueryHeap (Device.create_query_heap), not " + detail::TypeName(h));
    return h.cast<std::shared_ptr<QueryHeap>>();
}

}  // namespace

void BindCommandListQueries(Classes& c) {
    c.commandList
        .def("begin_query", [](CommandList& cl, py::handle heap, Choice<QueryKindChoice> kind, Int index) {
            const char* fn = "begin_query";
            cl.BeginQuery(AsQueryHeap(heap, fn), Parse(kind, "begin_query: kind"), U32(index, fn, "index"));
        }, "heap"_a, "kind"_a, "index"_a,
           "Starts query `index` of `heap` (ID3D12GraphicsCommandList::BeginQuery). End it with end_query in this list.\n\n"
           "Args:\n"
           "    heap: a QueryHeap of this device.\n"
           "    kind: 'occlusion' (samples that pass the depth and stencil tests) or 'binary_occlusion' (0/1) in an\n"
           "        occlusion heap, on direct lists; 'pipeline_statistics' in such a heap, on direct and compute lists.\n"
           "        Timestamps are not begun: end_query writes one.\n"
           "    index: the query, 0 .. heap.count-1.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: an index out of range, a kind that does not belong in the heap or on this list's\n"
           "        queue, 'timestamp', or a query already active.")
        .def("end_query", [](CommandList& cl, py::handle heap, Choice<QueryKindChoice> kind, Int index) {
            const char* fn = "end_query";
            cl.EndQuery(AsQueryHeap(heap, fn), Parse(kind, "end_query: kind"), U32(index, fn, "index"));
        }, "heap"_a, "kind"_a, "index"_a,
           "Ends query `index` begun in this list, or writes timestamp `index` (ID3D12GraphicsCommandList::EndQuery: a\n"
           "timestamp is taken when the GPU has finished the work before it; ticks of queue.timestamp_frequency).\n\n"
           "Args:\n"
           "    heap: a QueryHeap of this device.\n"
           "    kind: as begin_query, or 'timestamp' (a timestamp heap, on direct and compute lists).\n"
           "    index: the query, 0 .. heap.count-1.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: an index out of range, a kind that does not belong in the heap or on this list's\n"
           "        queue, or a query (other than a timestamp) not begun in this list, or begun as another kind.")
        .def("resolve_query_data", [](CommandList& cl, py::handle heap, Choice<QueryKindChoice> kind, Int start, Int count, py::handle buffer,
                                      Int offset) {
            const char* fn = "resolve_query_data";
            cl.ResolveQueryData(AsQueryHeap(heap, fn), Parse(kind, "resolve_query_data: kind"), U32(start, fn, "start"), U32(count, fn, "count"),
                                AsResource(buffer, fn), U64(offset, fn, "offset"));
        }, "heap"_a, "kind"_a, "start"_a, "count"_a, "buffer"_a, "offset"_a = 0,
           "Writes the results of queries [start, start + count) into `buffer` at `offset`\n"
           "(ID3D12GraphicsCommandList::ResolveQueryData): one uint64 per query, or for 'pipeline_statistics' 11 uint64\n"
           "(D3D12_QUERY_DATA_PIPELINE_STATISTICS, 88 bytes). The buffer goes to COPY_DEST through the state tracker.\n"
           "'binary_occlusion' results are 0 or 1 (on vkd3d 1.2, which resolves sample counts, through a built-in pass;\n"
           "in a list whose bound pipeline is a compute pipeline, set its root arguments again after this call).\n\n"
           "Args:\n"
           "    heap: a QueryHeap of this device.\n"
           "    kind: the kind the queries were recorded as.\n"
           "    start: the first query.\n"
           "    count: how many (at least 1).\n"
           "    buffer: the Buffer written (not an upload buffer).\n"
           "    offset: byte offset in buffer, a multiple of 8.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a range outside the heap or the buffer, an offset not a multiple of 8, a kind that\n"
           "        does not belong in the heap or on this list's queue, a query still active, a texture.")
        .def("set_predication", [](CommandList& cl, py::handle buffer, Int offset, Choice<PredicationOpChoice> op) {
            const char* fn = "set_predication";
            cl.SetPredication(buffer.is_none() ? nullptr : AsResource(buffer, fn), U64(offset, fn, "offset"),
                              Parse(op, "set_predication: op"));
        }, "buffer"_a, "offset"_a = 0, "op"_a = "equal_zero",
           "Predicates the work recorded after it on the 64-bit value at `offset` of `buffer`\n"
           "(ID3D12GraphicsCommandList::SetPredication); None ends predication. With 'equal_zero' draws, dispatches,\n"
           "copies, clears and resolves are skipped while the value is 0 (e.g. a 'binary_occlusion' result: skip what\n"
           "was hidden); with 'not_equal_zero' while it is not. The buffer goes to the PREDICATION state through the\n"
           "state tracker. Direct and compute lists.\n"
           "vkd3d 1.2 (docs/guides/shader-gaps.rst): it reads 32 of the 64 bits, so dx12kit predicates on a 0/1 copy of\n"
           "the value taken here by a built-in pass (in a list whose bound pipeline is a compute pipeline, set its root\n"
           "arguments again after this call); it does not predicate copies, clears or resolves, so those raise\n"
           "InvalidArgumentError while a predicate is set.\n\n"
           "Args:\n"
           "    buffer: the Buffer holding the predicate, or None to end predication.\n"
           "    offset: byte offset of the uint64 predicate, a multiple of 8.\n"
           "    op: 'equal_zero' or 'not_equal_zero' (when the work is skipped).\n\n"
           "Raises:\n"
           "    InvalidArgumentError: an offset not a multiple of 8 or outside the buffer, a texture, a copy-queue list.");
}

}  // namespace dx12kit::bindings
