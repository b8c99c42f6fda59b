// dx12core: CommandQueue (execute, waits, reads back).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "docs/CommandQueueDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"
#include "InitialData.hpp"

namespace dx12kit::bindings {

namespace {

using QueueClass = py::class_<CommandQueue, std::shared_ptr<CommandQueue>>;

/// Reading results back: queries, buffers, textures; fence values.
void DefReadbacks(QueueClass& cls) {
    cls.def(
           "read_queries",
           [](std::shared_ptr<CommandQueue> q, QueryHeapArg heapArg, Choice<QueryKindChoice> kind, Int startArg, py::object countArg,
              std::optional<double> timeout) {
               const char* fn = "read_queries";
               if (!py::isinstance<QueryHeap>(heapArg))
                   throw py::type_error("read_queries: heap must be a dx12kit.QueryHeap (Device.create_query_heap), not " +
                                        detail::TypeName(heapArg));
               auto heap = heapArg.cast<std::shared_ptr<QueryHeap>>();
               const D3D12_QUERY_TYPE type = Parse(kind, "read_queries: kind");
               const uint32_t start = U32(startArg, fn, "start");
               uint32_t count = 0;
               if (countArg.is_none()) {
                   if (start >= heap->Count())
                       throw InvalidArgument("read_queries: start " + std::to_string(start) + " is past the last query of query heap '" +
                                             heap->Name() + "'");
                   count = heap->Count() - start;
               } else {
                   count = U32(Int{countArg}, fn, "count");
               }
               const double t = Timeout(timeout, fn);
               heap->CheckRange(type, start, count ? count : 1, fn);
               if (count == 0) throw InvalidArgument("read_queries: count must be at least 1");
               py::dtype dt("<u8");
               if (type == D3D12_QUERY_TYPE_PIPELINE_STATISTICS) {
                   py::list fields;
                   for (const char* name : {"IAVertices", "IAPrimitives", "VSInvocations", "GSInvocations", "GSPrimitives", "CInvocations",
                                            "CPrimitives", "PSInvocations", "HSInvocations", "DSInvocations", "CSInvocations"})
                       fields.append(py::make_tuple(name, "<u8"));
                   dt = py::dtype::from_args(fields);
               }
               py::array out = NewArray(dt, py::make_tuple(count));
               void* dst = out.mutable_data();
               const uint64_t size = uint64_t(count) * queryrules::ResultBytes(type);
               {
                   ReleaseGil release;
                   q->ReadQueries(q, heap, type, start, count, dst, size, t);
               }
               return out;
           },
           "heap"_a, "kind"_a, "start"_a = 0, "count"_a = py::none(), py::kw_only(), "timeout"_a = py::none(), docs::CommandQueue::read_queries)
        .def_property_readonly("completed_value", &CommandQueue::CompletedValue, docs::CommandQueue::completed_value)
        .def_property_readonly("last_submitted_value", &CommandQueue::LastSubmittedValue, docs::CommandQueue::last_submitted_value)
        .def(
            "read_buffer",
            [](std::shared_ptr<CommandQueue> q, BufferArg b, py::object dtype, std::optional<double> timeout, py::object outArg,
               OptShapeArg shapeArg) {
                const double t = Timeout(timeout, "read_buffer");
                auto r = AsResource(b, "read_buffer");
                const uint64_t size = r->Size();
                py::array out;
                if (!outArg.is_none()) {
                    // Into the caller's array: no new memory to fault in (the numpy out= convention).
                    if (!py::isinstance<py::array>(outArg))
                        throw py::type_error("read_buffer: out must be a numpy array, not " + detail::TypeName(outArg));
                    out = outArg.cast<py::array>();
                    if (!(out.flags() & py::array::c_style) || !out.writeable())
                        throw InvalidArgument("read_buffer: out must be a writable C-contiguous array");
                    if (out.dtype().attr("hasobject").cast<bool>()) throw InvalidArgument("read_buffer: out holds Python objects");
                    RefuseForeignOrder(out.dtype(), "read_buffer: out");
                    if (!dtype.is_none()) {
                        py::dtype dt = FixedSizeDtype(dtype, "read_buffer");
                        if (!dt.equal(out.dtype()))
                            throw InvalidArgument("read_buffer: dtype " + std::string(py::str(dt)) + " disagrees with out's dtype " +
                                                  std::string(py::str(out.dtype())) + " (give dtype= or out=, or the same dtype in both)");
                    }
                    if (static_cast<uint64_t>(out.nbytes()) != size)
                        throw InvalidArgument("read_buffer: out has " + std::to_string(out.nbytes()) + " bytes, the buffer " + std::to_string(size));
                    if (!shapeArg.is_none()) throw InvalidArgument("read_buffer: give shape= or out= (out's shape is the result's), not both");
                } else if (!shapeArg.is_none()) {
                    py::dtype dt = dtype.is_none() ? py::dtype("uint8") : FixedSizeDtype(dtype, "read_buffer");
                    out = NewArray(dt, ReadShape(shapeArg, size, dt, r->Name()));
                } else {
                    py::dtype dt = dtype.is_none() ? py::dtype("uint8") : FixedSizeDtype(dtype, "read_buffer");
                    if (size % dt.itemsize())
                        throw InvalidArgument("read_buffer: buffer size " + std::to_string(size) + " is not a multiple of the dtype size");
                    out = NewArray(dt, py::make_tuple(size / dt.itemsize()));
                }
                void* dst = out.mutable_data();
                {
                    ReleaseGil release;
                    q->ReadBuffer(q, r, dst, size, t);
                }
                return out;
            },
            "buffer"_a, "dtype"_a = py::none(), py::kw_only(), "timeout"_a = py::none(), "out"_a = py::none(), "shape"_a = py::none(),
            docs::CommandQueue::read_buffer)
        .def(
            "read_texture",
            [](std::shared_ptr<CommandQueue> q, TextureArg t, Int mipArg, std::optional<Int> sliceArg, std::optional<double> timeout,
               std::optional<Int> sliceAlias) {
                const double seconds = Timeout(timeout, "read_texture");
                auto r = AsResource(t, "read_texture");
                const uint32_t mip = U32(mipArg, "read_texture", "mip");
                const uint32_t slice = ArraySliceArg(sliceArg, "array_slice", sliceAlias, "slice", "read_texture");
                if (r->IsBuffer()) throw InvalidArgument("read_texture: resource '" + r->Name() + "' is a buffer; use read_buffer");
                const auto& tex = static_cast<const Texture&>(*r);
                tex.CheckMipSlice(mip, slice, "read_texture");
                const FormatInfo& fi = RequireTextureFormat(r->ViewFormat(), "read_texture");
                py::array out = NewArray(DtypeFor(fi), TextureShape(tex, fi, mip));
                void* dst = out.mutable_data();
                const uint64_t nbytes = static_cast<uint64_t>(out.nbytes());  // (touches the dtype: needs the GIL)
                {
                    ReleaseGil release;
                    q->ReadTexture(q, r, mip, slice, dst, nbytes, seconds);
                }
                return out;
            },
            "texture"_a, "mip"_a = 0, "array_slice"_a = py::none(), py::kw_only(), "timeout"_a = py::none(), "slice"_a = py::none(),
            docs::CommandQueue::read_texture);
}

}  // namespace

void BindCommandQueue(Classes& c) {
    // ---- queue ----------------------------------------------------------------------------------
    Documented(c.commandQueue, docs::CommandQueue::class_)
        .def_property_readonly(
            "kind", [](const CommandQueue& q) { return QueueKindName(q.Type()); }, docs::CommandQueue::kind)
        .def("__repr__",
             [](CommandQueue& q) {
                 const std::string name = q.Name();
                 return std::string("<dx12kit.CommandQueue ") + QueueKindName(q.Type()) + (name != QueueKindName(q.Type()) ? " '" + name + "'" : "") +
                        " completed=" + std::to_string(q.CompletedValue()) + ">";
             })
        .def_property(
            "name", &CommandQueue::Name, [](CommandQueue& q, NameArg name) { q.SetName(Str(name, "CommandQueue.name", "name")); },
            docs::CommandQueue::name)
        .def(
            "command_list",
            [](std::shared_ptr<CommandQueue> q, OptNameArg name) {
                std::shared_ptr<CommandList> cl;
                {
                    ReleaseGil release;  // pure C++: waits for the submission mutex, resets a pooled allocator and list
                    cl = q->CreateCommandList(q);
                }
                if (!name.is_none()) cl->SetName(Str(name, "command_list", "name"));
                return cl;
            },
            py::kw_only(), "name"_a = py::none(), docs::CommandQueue::command_list)
        .def(
            "execute",
            [](CommandQueue& q, py::object lists) {
                std::vector<std::shared_ptr<CommandList>> v;
                if (py::isinstance<CommandList>(lists)) v.push_back(lists.cast<std::shared_ptr<CommandList>>());
                else if (!py::isinstance<py::iterable>(lists))
                    throw py::type_error("execute: command_lists must be a CommandList or a list of them, not " + detail::TypeName(lists));
                else
                    for (py::handle h : lists) {
                        if (!py::isinstance<CommandList>(h))
                            throw py::type_error("execute: expected CommandList objects, not " + detail::TypeName(h));
                        v.push_back(h.cast<std::shared_ptr<CommandList>>());
                    }
                ReleaseGil release;
                return q.Execute(v);
            },
            "command_lists"_a, docs::CommandQueue::execute)
        .def(
            "write_buffer",
            [](std::shared_ptr<CommandQueue> q, BufferArg res, py::handle array, Int offsetArg) {
                auto r = AsResource(res, "write_buffer");
                const uint64_t offset = U64(offsetArg, "write_buffer", "offset");
                Bytes b = GetBytes(array, "write_buffer");
                if (b.size >= (uint64_t(1) << 20)) {  // a long copy: other Python threads may run meanwhile
                    ReleaseGil release;
                    return q->WriteBuffer(q, r, b.data, b.size, offset);
                }
                return q->WriteBuffer(q, r, b.data, b.size, offset);
            },
            "buffer"_a, "array"_a, "offset"_a = 0, docs::CommandQueue::write_buffer)
        .def(
            "wait",
            [](CommandQueue& q, uint64_t value, std::optional<double> timeout) {
                const double t = Timeout(timeout, "wait");
                ReleaseGil release;
                q.Wait(value, t);
            },
            "fence_value"_a, "timeout"_a = py::none(), docs::CommandQueue::wait)
        .def(
            "flush",
            [](CommandQueue& q, std::optional<double> timeout) {
                const double t = Timeout(timeout, "flush");
                ReleaseGil release;
                return q.Flush(t);
            },
            "timeout"_a = py::none(), docs::CommandQueue::flush)
        .def(
            "wait_for",
            [](CommandQueue& q, CommandQueue& other, uint64_t value) {
                // vkd3d 1.2 blocks the calling thread in a GPU Wait on a value not reached yet
                // (docs/guides/threads.rst): other Python threads run meanwhile.
                ReleaseGil release;
                q.WaitFor(other, value);
            },
            "other"_a, "fence_value"_a, docs::CommandQueue::wait_for)
        .def(
            "stats", [](const CommandQueue& q) { return CrossQueueStatsDict(q); }, docs::CommandQueue::stats)
        .def_property_readonly(
            "last_inserted_barriers",
            [](const CommandQueue& q) {
                py::list out;
                for (const auto& b : q.LastInsertedBarriers()) out.append(py::make_tuple(b.listIndex, b.resource, b.subresource, b.before, b.after));
                return out;
            },
            docs::CommandQueue::last_inserted_barriers)
        .def_property_readonly(
            "last_direct_queue_barriers",
            [](const CommandQueue& q) {
                py::list out;
                for (const auto& b : q.LastInsertedBarriers())
                    if (b.onDirectQueue) out.append(py::make_tuple(b.listIndex, b.resource, b.subresource, b.before, b.after));
                return out;
            },
            docs::CommandQueue::last_direct_queue_barriers)
        .def_property_readonly("timestamp_frequency", &CommandQueue::TimestampFrequency, docs::CommandQueue::timestamp_frequency);
    DefReadbacks(c.commandQueue);
    BindCommandQueueTextures(c);
    InstallForkLeak<CommandQueue>(+[](const CommandQueue& q) { return q.Context()->Forked(); });
}

}  // namespace dx12kit::bindings
