// dx12core: CommandList's queries and predication (a helper of BindCommandList; behaviour in
// cpp/src/gpu/CommandListQueries.cpp, rules in dx12kit/gpu/QueryHeap.hpp).
#include "docs/CommandListDocs.hpp"
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
        .def(
            "begin_query",
            [](CommandList& cl, QueryHeapArg heap, Choice<QueryKindChoice> kind, Int index) {
                const char* fn = "begin_query";
                cl.BeginQuery(AsQueryHeap(heap, fn), Parse(kind, "begin_query: kind"), U32(index, fn, "index"));
            },
            "heap"_a, "kind"_a, "index"_a, docs::CommandList::begin_query)
        .def(
            "end_query",
            [](CommandList& cl, QueryHeapArg heap, Choice<QueryKindChoice> kind, Int index) {
                const char* fn = "end_query";
                cl.EndQuery(AsQueryHeap(heap, fn), Parse(kind, "end_query: kind"), U32(index, fn, "index"));
            },
            "heap"_a, "kind"_a, "index"_a, docs::CommandList::end_query)
        .def(
            "resolve_query_data",
            [](CommandList& cl, QueryHeapArg heap, Choice<QueryKindChoice> kind, Int start, Int count, BufferArg buffer, Int offset) {
                const char* fn = "resolve_query_data";
                cl.ResolveQueryData(AsQueryHeap(heap, fn), Parse(kind, "resolve_query_data: kind"), U32(start, fn, "start"), U32(count, fn, "count"),
                                    AsResource(buffer, fn), U64(offset, fn, "offset"));
            },
            "heap"_a, "kind"_a, "start"_a, "count"_a, "buffer"_a, "offset"_a = 0, docs::CommandList::resolve_query_data)
        .def(
            "set_predication",
            [](CommandList& cl, OptBufferArg buffer, Int offset, Choice<PredicationOpChoice> op) {
                const char* fn = "set_predication";
                cl.SetPredication(buffer.is_none() ? nullptr : AsResource(buffer, fn), U64(offset, fn, "offset"), Parse(op, "set_predication: op"));
            },
            "buffer"_a, "offset"_a = 0, "op"_a = "equal_zero", docs::CommandList::set_predication);
}

}  // namespace dx12kit::bindings
