// dx12core: CommandQueue (execute, waits, reads back).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"
#include "InitialData.hpp"

namespace dx12kit::bindings {

void BindCommandQueue(Classes& c) {
    // ---- queue ----------------------------------------------------------------------------------
    Documented(c.commandQueue, "A direct, compute or copy queue. Get one with Device.queue(kind).")
        .def_property_readonly("kind", [](const CommandQueue& q) { return QueueKindName(q.Type()); },
                               "'direct', 'compute' or 'copy' (a dx12kit.QueueKind value).")
        .def("__repr__", [](CommandQueue& q) {
            const std::string name = q.Name();
            return std::string("<dx12kit.CommandQueue ") + QueueKindName(q.Type()) + (name != QueueKindName(q.Type()) ? " '" + name + "'" : "") +
                   " completed=" + std::to_string(q.CompletedValue()) + ">";
        })
        .def_property("name", &CommandQueue::Name, [](CommandQueue& q, py::handle name) { q.SetName(Str(name, "CommandQueue.name", "name")); },
                      "The queue's name (its kind unless set), also given to the native queue for debuggers.")
        .def("command_list", [](std::shared_ptr<CommandQueue> q, py::object name) {
            std::shared_ptr<CommandList> cl;
            {
                ReleaseGil release;  // pure C++: waits for the submission mutex, resets a pooled allocator and list
                cl = q->CreateCommandList(q);
            }
            if (!name.is_none()) cl->SetName(Str(name, "command_list", "name"));
            return cl;
        }, py::kw_only(), "name"_a = py::none(),
           "A new CommandList for this queue. name: for messages, repr and debuggers (also set on the native list).\n\n"
           "Args:\n"
           "    name: a str, or None ('command list').\n\n"
           "Returns:\n"
           "    A CommandList recording for this queue's type.")
        .def("execute", [](CommandQueue& q, py::object lists) {
            std::vector<std::shared_ptr<CommandList>> v;
            if (py::isinstance<CommandList>(lists)) v.push_back(lists.cast<std::shared_ptr<CommandList>>());
            else if (!py::isinstance<py::iterable>(lists))
                throw py::type_error("execute: command_lists must be a CommandList or a list of them, not " + detail::TypeName(lists));
            else for (py::handle h : lists) {
                if (!py::isinstance<CommandList>(h)) throw py::type_error("execute: expected CommandList objects, not " + detail::TypeName(h));
                v.push_back(h.cast<std::shared_ptr<CommandList>>());
            }
            ReleaseGil release;
            return q.Execute(v);
        }, "command_lists"_a, "Executes one list or a list of lists in order; returns the fence value marking their completion.\n\n"
           "Args:\n"
           "    command_lists: a CommandList or a list of them, each recorded for this queue's type.\n\n"
           "Returns:\n"
           "    The fence value that marks their completion (pass it to wait).\n\n"
           "Raises:\n"
           "    TypeError: something that is not a CommandList.\n"
           "    InvalidArgumentError: a list already executed, or of another queue type.")
        .def("write_buffer", [](std::shared_ptr<CommandQueue> q, py::handle res, py::handle array, Int offsetArg) {
            auto r = AsResource(res, "write_buffer");
            const uint64_t offset = U64(offsetArg, "write_buffer", "offset");
            Bytes b = GetBytes(array, "write_buffer");
            if (b.size >= (uint64_t(1) << 20)) {  // a long copy: other Python threads may run meanwhile
                ReleaseGil release;
                return q->WriteBuffer(q, r, b.data, b.size, offset);
            }
            return q->WriteBuffer(q, r, b.data, b.size, offset);
        }, "buffer"_a, "array"_a, "offset"_a = 0,
           "Writes a numpy array into a buffer at byte `offset` as if a command list holding only that upload were\n"
           "executed on this queue now (as wgpu's queue.write_buffer): later executes see the data, earlier ones do not.\n"
           "On a cache-coherent UMA device (Device.uma_direct) a buffer no unfinished work uses is written by one memcpy\n"
           "and nothing is submitted; otherwise the upload list is executed.\n\n"
           "Args:\n"
           "    buffer: a buffer of this device (not an upload/readback heap buffer: map those).\n"
           "    array: a C-contiguous array or other buffer-protocol object, its bytes written as they are.\n"
           "    offset: byte offset in the buffer.\n\n"
           "Returns:\n"
           "    A fence value of this queue after which the data is in place (for wait or wait_for).\n\n"
           "Raises:\n"
           "    TypeError: buffer is not a Buffer, or array does not expose bytes.\n"
           "    InvalidArgumentError: a texture, no data, the bytes do not fit at offset, another device's buffer.\n"
           "    UseAfterFreeError: the buffer was closed.")
        .def("wait", [](CommandQueue& q, uint64_t value, std::optional<double> timeout) {
            const double t = Timeout(timeout, "wait");
            ReleaseGil release;
            q.Wait(value, t);
        }, "fence_value"_a, "timeout"_a = py::none(),
           "Blocks until the fence reaches `fence_value`, without holding the GIL; Ctrl-C interrupts it (KeyboardInterrupt).\n"
           "timeout: seconds, None waits forever; WaitTimeoutError (a TimeoutError) when it expires.\n\n"
           "Args:\n"
           "    fence_value: a value execute returned.\n"
           "    timeout: seconds, or None.\n\n"
           "Raises:\n"
           "    WaitTimeoutError: the timeout expired.")
        .def("flush", [](CommandQueue& q, std::optional<double> timeout) {
            const double t = Timeout(timeout, "flush");
            ReleaseGil release;
            return q.Flush(t);
        }, "timeout"_a = py::none(), "Waits until everything submitted has completed (interruptible; timeout as for wait).\n\n"
           "Args:\n"
           "    timeout: seconds, or None.\n\n"
           "Returns:\n"
           "    The fence value waited for.\n\n"
           "Raises:\n"
           "    WaitTimeoutError: the timeout expired.")
        .def("wait_for", [](CommandQueue& q, CommandQueue& other, uint64_t value) {
            // vkd3d 1.2 blocks the calling thread in a GPU Wait on a value not reached yet
            // (docs/guides/threads.rst): other Python threads run meanwhile.
            ReleaseGil release;
            q.WaitFor(other, value);
        }, "other"_a, "fence_value"_a,
             "Makes this queue wait on the GPU until `other` reaches `fence_value` (no CPU wait).\n\n"
           "Args:\n"
           "    other: another CommandQueue of the same device.\n"
           "    fence_value: a value other's execute returned.")
        .def("stats", [](const CommandQueue& q) { return CrossQueueStatsDict(q); },
           "Cross-queue hazards of this queue's executes, as a plain dict: cross_queue_waits (GPU waits execute inserted\n"
           "because a list used a resource that unfinished work on another queue wrote, or read while the list writes it),\n"
           "cross_queue_waits_on (of which per other queue: {'direct'|'compute'|'copy': n}), cross_queue_completed (such\n"
           "dependencies on work already complete at execute: no wait), cross_queue_already_waited (dependencies this\n"
           "queue already waited for: wait_for, or an earlier inserted wait).")
        .def_property_readonly("last_inserted_barriers", [](const CommandQueue& q) {
            py::list out;
            for (const auto& b : q.LastInsertedBarriers())
                out.append(py::make_tuple(b.listIndex, b.resource, b.subresource, b.before, b.after));
            return out;
        }, "The transitions the last execute() inserted before its lists, resolved against the global states:\n"
           "[(list_index, resource_name, subresource, before, after)], subresource ALL_SUBRESOURCES for the whole resource.")
        .def_property_readonly("last_direct_queue_barriers", [](const CommandQueue& q) {
            py::list out;
            for (const auto& b : q.LastInsertedBarriers())
                if (b.onDirectQueue) out.append(py::make_tuple(b.listIndex, b.resource, b.subresource, b.before, b.after));
            return out;
        }, "Those of last_inserted_barriers that this queue type may not record (a compute queue leaving RENDER_TARGET):\n"
           "execute recorded them on the direct queue, which this queue waited for on the GPU.")
        .def_property_readonly("timestamp_frequency", &CommandQueue::TimestampFrequency,
            "Ticks per second of the timestamps written on this queue (ID3D12CommandQueue::GetTimestampFrequency):\n"
            "(t1 - t0) / timestamp_frequency seconds. Raises InvalidArgumentError on a copy queue of a device without\n"
            "copy-queue timestamps (vkd3d 1.2).")
        .def("read_queries", [](std::shared_ptr<CommandQueue> q, py::handle heapArg, Choice<QueryKindChoice> kind, Int startArg, py::object countArg,
                                std::optional<double> timeout) {
            const char* fn = "read_queries";
            if (!py::isinstance<QueryHeap>(heapArg))
                throw py::type_error("read_queries: heap must be a dx12kit.QueryHeap (Device.create_query_heap), not " + detail::TypeName(heapArg));
            auto heap = heapArg.cast<std::shared_ptr<QueryHeap>>();
            const D3D12_QUERY_TYPE type = Parse(kind, "read_queries: kind");
            const uint32_t start = U32(startArg, fn, "start");
            uint32_t count = 0;
            if (countArg.is_none()) {
                if (start >= heap->Count())
                    throw InvalidArgument("read_queries: start " + std::to_string(start) + " is past the last query of query heap '" + heap->Name() + "'");
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
        }, "heap"_a, "kind"_a, "start"_a = 0, "count"_a = py::none(), py::kw_only(), "timeout"_a = py::none(),
           "Resolves queries [start, start + count) of `heap` on this queue, waits, and returns their results in one\n"
           "numpy array: uint64 values ('occlusion': samples that passed; 'binary_occlusion': 0 or 1; 'timestamp': ticks\n"
           "of timestamp_frequency), or for 'pipeline_statistics' a structured array with D3D12's field names\n"
           "(IAVertices, IAPrimitives, VSInvocations, GSInvocations, GSPrimitives, CInvocations, CPrimitives,\n"
           "PSInvocations, HSInvocations, DSInvocations, CSInvocations). Execute the lists that wrote the queries on\n"
           "this queue first (or make it wait for them). The resolve follows resolve_query_data's rules for this\n"
           "queue's lists (occlusion queries: a direct queue).\n\n"
           "Args:\n"
           "    heap: a QueryHeap of this device.\n"
           "    kind: the kind the queries were recorded as.\n"
           "    start: the first query.\n"
           "    count: how many (None: to the end of the heap).\n"
           "    timeout: seconds to wait for the GPU, None forever.\n\n"
           "Returns:\n"
           "    A numpy array of `count` results.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a range outside the heap, a kind that does not belong in it or on this queue.")
        .def_property_readonly("completed_value", &CommandQueue::CompletedValue, "The queue fence's completed value: every submission with a value <= it has finished. It never goes back (the highest value read: vkd3d 1.2 can lower a fence's value until its next signal).")
        .def_property_readonly("last_submitted_value", &CommandQueue::LastSubmittedValue, "The fence value of the latest execute on this queue.")
        .def("read_buffer", [](std::shared_ptr<CommandQueue> q, py::handle b, py::object dtype, std::optional<double> timeout,
                               py::object outArg, py::object shapeArg) {
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
        }, "buffer"_a, "dtype"_a = py::none(), py::kw_only(), "timeout"_a = py::none(), "out"_a = py::none(), "shape"_a = py::none(),
           "Copies a buffer back into a new numpy array of `dtype` (None: uint8) and `shape` (None: one dimension; an int or a\n"
           "tuple of ints whose product times the item size is the buffer's size), or into `out` (a writable C-contiguous\n"
           "array of the buffer's size, returned; a dtype given with it must be out's). Dtypes in the other byte order\n"
           "(e.g. '>u4') are refused: GPU data is little-endian. Waits for the GPU; interruptible, timeout as for wait.\n"
           "New arrays of 1 MiB or more reuse the memory of such arrays freed earlier (no fresh pages to fault in).\n\n"
           "Args:\n"
           "    buffer: a buffer of this device.\n"
           "    dtype: the new array's dtype (None: uint8); the buffer's size must be a multiple of its item size.\n"
           "    timeout: seconds to wait for the GPU, None forever.\n"
           "    out: a writable C-contiguous array of exactly the buffer's size to fill instead.\n"
           "    shape: the new array's shape (an int or a tuple of ints), or None for 1-D; not with out.\n\n"
           "Returns:\n"
           "    The new array, or `out`.\n\n"
           "Raises:\n"
           "    TypeError: buffer is not a Buffer, out not a numpy array, shape not an int or a tuple of ints.\n"
           "    InvalidArgumentError: sizes, shapes or dtypes that do not fit the buffer, another device's buffer, a texture.\n"
           "    WaitTimeoutError: the GPU work was not done within `timeout`.")
        .def("read_texture", [](std::shared_ptr<CommandQueue> q, py::handle t, Int mipArg, Int sliceArg, std::optional<double> timeout) {
            const double seconds = Timeout(timeout, "read_texture");
            auto r = AsResource(t, "read_texture");
            const uint32_t mip = U32(mipArg, "read_texture", "mip"), slice = U32(sliceArg, "read_texture", "array_slice");
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
        }, "texture"_a, "mip"_a = 0, "array_slice"_a = 0, py::kw_only(), "timeout"_a = py::none(),
           "Copies a texture subresource back as an array of shape (height, width, channels) ((depth, height, width,\n"
           "channels) for a 3D texture; array_slice = face for a cube); depth-stencil formats give their depth plane; block-compressed\n"
           "formats give their raw blocks as uint8 of shape (ceil(height/4), ceil(width/4), bytes per block). Waits for the GPU (interruptible, timeout as for wait).\n\n"
           "Args:\n"
           "    texture: the Texture read.\n"
           "    mip: the mip level.\n"
           "    array_slice: the array slice (cube face).\n"
           "    timeout: seconds, or None.\n\n"
           "Returns:\n"
           "    A numpy array of the subresource's texels.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a mip or slice out of range, or a multisampled texture (resolve it first).\n"
           "    WaitTimeoutError: the timeout expired.");
    BindCommandQueueTextures(c);
    InstallForkLeak<CommandQueue>(+[](const CommandQueue& q) { return q.Core()->Forked(); });
}

}  // namespace dx12kit::bindings
