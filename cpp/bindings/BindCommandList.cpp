// dx12core: CommandList (recording; its zero-copy UploadAllocation is BindUploadAllocation.cpp).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

#include "dx12kit/gpu/PinnedUpload.hpp"

namespace dx12kit::bindings {

namespace {

/// An array_slice argument of the clears: None for every slice (CommandList::kAllSlices), else one.
uint32_t SliceArg(const py::object& slice, const char* fn) {
    if (slice.is_none()) return CommandList::kAllSlices;
    const uint32_t s = U32(Int{slice}, fn, "array_slice");
    if (s == CommandList::kAllSlices) throw InvalidArgument(std::string(fn) + ": array_slice " + std::to_string(s) + " out of range");
    return s;
}


// ---- per-call fast entries ------------------------------------------------------------
// set_constants, draw, draw_indexed and dispatch run once per draw from Python: they are CPython
// METH_FASTCALL methods rather than pybind11 functions. pybind11's dispatcher builds a
// function_call (two std::vectors: a malloc/free pair each) and an object per Int argument on
// every call; here the arguments arrive as a C array, plain ints convert in place, and a float32 /
// int32 / uint32 numpy row is copied straight into a stack array (no buffer_info, no std::vector). Anything
// unusual (numpy integers, other dtypes, bytes, out-of-range values) takes the ordinary checked
// conversions of Args.hpp / GpuArgs.hpp, so the errors and their messages are the same as
// before. C++ exceptions become Python ones through pybind11's translators (Errors.cpp).

/// The CommandList of `self` (the method descriptor has checked its type already).
CommandList& SelfList(PyObject* self) {
    auto* inst = reinterpret_cast<py::detail::instance*>(self);
    if (inst->simple_layout && inst->simple_holder_constructed && inst->simple_value_holder[0])
        return *static_cast<CommandList*>(inst->simple_value_holder[0]);
    return py::handle(self).cast<CommandList&>();  // raises for an uninitialised instance
}

/// Matches positional + keyword arguments to `names` (the first `required` needed); TypeError as
/// Python's own for unknown, repeated or missing ones. Unset optional slots stay null.
template <size_t N>
void ParseFastArgs(const char* fn, const char* const (&names)[N], size_t required, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                   PyObject* (&out)[N]) {
    for (auto& o : out) o = nullptr;
    if (size_t(nargs) > N)
        throw py::type_error(std::string(fn) + "() takes at most " + std::to_string(N) + " arguments (" + std::to_string(nargs) + " given)");
    for (Py_ssize_t i = 0; i < nargs; ++i) out[i] = args[i];
    if (kwnames) {
        const Py_ssize_t nk = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t j = 0; j < nk; ++j) {
            PyObject* key = PyTuple_GET_ITEM(kwnames, j);
            size_t slot = N;
            for (size_t i = 0; i < N; ++i)
                if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) { slot = i; break; }
            if (slot == N)
                throw py::type_error(std::string(fn) + "() got an unexpected keyword argument '" + py::str(key).cast<std::string>() + "'");
            if (out[slot]) throw py::type_error(std::string(fn) + "() got multiple values for argument '" + names[slot] + "'");
            out[slot] = args[nargs + j];
        }
    }
    for (size_t i = 0; i < required; ++i)
        if (!out[i]) throw py::type_error(std::string(fn) + "() missing required argument '" + names[i] + "'");
}

/// An unsigned 32-bit argument: an exact int in range converts here; anything else goes through U32
/// (numpy integers via __index__; TypeError / InvalidArgument with the usual message).
inline uint32_t FastU32(PyObject* o, uint32_t fallback, const char* fn, const char* arg) {
    if (!o) return fallback;
    if (PyLong_CheckExact(o)) {
        int overflow = 0;
        const long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (!overflow && x >= 0 && x <= static_cast<long long>(UINT32_MAX)) return static_cast<uint32_t>(x);
    }
    return U32(py::handle(o), fn, arg);
}
inline int32_t FastI32(PyObject* o, const char* fn, const char* arg) {
    if (!o) return 0;
    if (PyLong_CheckExact(o)) {
        int overflow = 0;
        const long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (!overflow && x >= INT32_MIN && x <= INT32_MAX) return static_cast<int32_t>(x);
    }
    return I32(Int{py::reinterpret_borrow<py::object>(o)}, fn, arg);
}

/// The 32-bit values of set_constants without conversion, when they are a C-contiguous numpy array
/// of at most 64 float32/int32/uint32 in the host's order, or a list/tuple of at most 64 exact ints
/// and floats (into `buf`; 64 DWORDs is a whole root signature). False: the caller takes the general path (Dwords).
bool FastDwords(PyObject* o, const uint32_t*& data, uint32_t& count, uint32_t (&buf)[64]) {
    if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) {
        const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        if (n > 64) return false;
        PyObject** items = PySequence_Fast_ITEMS(o);
        for (Py_ssize_t i = 0; i < n; ++i) {
            PyObject* v = items[i];
            if (PyFloat_CheckExact(v)) {
                const double d = PyFloat_AS_DOUBLE(v);
                const float f = static_cast<float>(d);
                if (std::isinf(f) && std::isfinite(d)) return false;  // out of float32 range: the general path says so
                std::memcpy(&buf[i], &f, 4);
            } else if (PyLong_CheckExact(v)) {
                int overflow = 0;
                const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
                if (overflow || x < INT32_MIN || x > static_cast<long long>(UINT32_MAX)) return false;  // the general path says why
                buf[i] = static_cast<uint32_t>(x);
            } else {
                return false;
            }
        }
        data = buf;
        count = static_cast<uint32_t>(n);
        return true;
    }
    const auto& api = py::detail::npy_api::get();
    if (!api.PyArray_Check_(o)) return false;
    const auto* a = py::detail::array_proxy(o);
    if (!(a->flags & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_)) return false;
    const py::dtype dt = py::reinterpret_borrow<py::dtype>(reinterpret_cast<PyObject*>(a->descr));
    const char k = dt.kind(), order = dt.byteorder();
    if (!(k == 'f' || k == 'i' || k == 'u') || dt.itemsize() != 4) return false;
    if (!(order == '=' || order == '|' || order == (IsLittleEndianHost() ? '<' : '>'))) return false;
    Py_ssize_t n = 1;
    for (int d = 0; d < a->nd; ++d) n *= a->dimensions[d];
    if (n > 64) return false;  // more than any root signature holds: the general path (and its message)
    // Copied out (16 bytes for a float4): SetConstants may wait for the recording lock with the GIL
    // released, while another thread could resize the array.
    if (n) std::memcpy(buf, a->data, size_t(n) * 4);
    data = buf;
    count = static_cast<uint32_t>(n);
    return true;
}

template <typename F>
PyObject* Guarded(F&& body) {
    try {
        body();
        Py_RETURN_NONE;
    } catch (py::error_already_set& e) {
        e.restore();
        return nullptr;
    } catch (...) {
        py::detail::try_translate_exceptions();
        return nullptr;
    }
}

PyObject* FastSetConstants(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    return Guarded([&] {
        static const char* const names[] = {"root_index", "values", "offset"};
        PyObject* a[3];
        const char* fn = "set_constants";
        ParseFastArgs(fn, names, 2, args, nargs, kwnames, a);
        CommandList& cl = SelfList(self);
        const uint32_t rootIndex = FastU32(a[0], 0, fn, "root_index"), first = FastU32(a[2], 0, fn, "offset");
        uint32_t buf[64];
        const uint32_t* data = nullptr;
        uint32_t count = 0;
        if (FastDwords(a[1], data, count, buf)) {
            cl.SetConstants(rootIndex, data, count, first);
            return;
        }
        std::vector<uint32_t> v = Dwords(a[1], fn);
        if (v.size() > UINT32_MAX) throw InvalidArgument("set_constants: too many values");
        cl.SetConstants(rootIndex, v.data(), static_cast<uint32_t>(v.size()), first);
    });
}

PyObject* FastDraw(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    return Guarded([&] {
        static const char* const names[] = {"vertex_count", "instance_count", "start_vertex", "start_instance"};
        PyObject* a[4];
        const char* fn = "draw";
        ParseFastArgs(fn, names, 1, args, nargs, kwnames, a);
        CommandList& cl = SelfList(self);
        cl.Draw(FastU32(a[0], 0, fn, "vertex_count"), FastU32(a[1], 1, fn, "instance_count"), FastU32(a[2], 0, fn, "start_vertex"),
                FastU32(a[3], 0, fn, "start_instance"));
    });
}

PyObject* FastDrawIndexed(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    return Guarded([&] {
        static const char* const names[] = {"index_count", "instance_count", "start_index", "base_vertex", "start_instance"};
        PyObject* a[5];
        const char* fn = "draw_indexed";
        ParseFastArgs(fn, names, 1, args, nargs, kwnames, a);
        CommandList& cl = SelfList(self);
        cl.DrawIndexed(FastU32(a[0], 0, fn, "index_count"), FastU32(a[1], 1, fn, "instance_count"), FastU32(a[2], 0, fn, "start_index"),
                       FastI32(a[3], fn, "base_vertex"), FastU32(a[4], 0, fn, "start_instance"));
    });
}

PyObject* FastDispatch(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    return Guarded([&] {
        static const char* const names[] = {"x", "y", "z"};
        PyObject* a[3];
        if (nargs == 1 && !kwnames && PyTuple_Check(args[0])) {  // dispatch((x, y, z)), as dispatch_many's groups
            PyObject* t = args[0];
            const Py_ssize_t n = PyTuple_GET_SIZE(t);
            if (n < 1 || n > 3)
                throw InvalidArgument("dispatch: a tuple of thread-group counts has 1 to 3 items (x, y, z), got " + std::to_string(n));
            for (Py_ssize_t i = 0; i < 3; ++i) a[i] = i < n ? PyTuple_GET_ITEM(t, i) : nullptr;
        } else {
            ParseFastArgs("dispatch", names, 1, args, nargs, kwnames, a);
        }
        CommandList& cl = SelfList(self);
        cl.Dispatch(FastU32(a[0], 0, "dispatch", "x"), FastU32(a[1], 1, "dispatch", "y"), FastU32(a[2], 1, "dispatch", "z"));
    });
}

#define DX12KIT_FAST(fn) reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(fn))
// Docstrings in pybind11's form (a signature line first): pybind11-stubgen reads the types from it,
// and help() shows them.
PyMethodDef g_FastMethods[] = {
    {"set_constants", DX12KIT_FAST(FastSetConstants), METH_FASTCALL | METH_KEYWORDS,
     "set_constants(self, root_index: typing.SupportsIndex, values: typing.Any, offset: typing.SupportsIndex = 0) -> None\n\n"
     "Sets 32-bit root constants (numpy array, bytes, or a list of ints/floats, Python or numpy scalars).\n\n"
     "Args:\n"
     "    root_index: a root-constants parameter of the bound root signature.\n"
     "    values: float32/int32/uint32 values (other numeric dtypes are converted by value; bytes are raw DWORDs).\n"
     "    offset: the first constant written (offset + len(values) <= the parameter's count).\n\n"
     "Raises:\n"
     "    TypeError: values or an index of the wrong type.\n"
     "    InvalidArgumentError: no pipeline, not a constants parameter, too many values, a value out of 32-bit range.\n"
     "    UseAfterFreeError: the list was already executed."},
    {"draw", DX12KIT_FAST(FastDraw), METH_FASTCALL | METH_KEYWORDS,
     "draw(self, vertex_count: typing.SupportsIndex, instance_count: typing.SupportsIndex = 1, start_vertex: typing.SupportsIndex = 0, "
     "start_instance: typing.SupportsIndex = 0) -> None\n\n"
     "Draws `vertex_count` vertices (instanced); staged descriptors and pending transitions are committed first.\n\n"
     "Args:\n"
     "    vertex_count, instance_count, start_vertex, start_instance: DrawInstanced's arguments (0..2**32-1).\n\n"
     "Raises:\n"
     "    TypeError: a count of the wrong type.\n"
     "    InvalidArgumentError: no graphics pipeline, a vertex-buffer slot its vertex shader reads never set on this list\n"
     "        (set_vertex_buffer), a root argument unset, a value out of range, not a direct-queue list; bound render targets\n"
     "        or depth buffer whose count, view formats or sample count differ from the pipeline's rtv_formats / dsv_format;\n"
     "        one subresource bound for writing (UAV, render target, depth) and through another binding (an SRV and a UAV of\n"
     "        one buffer); in validation mode a constant buffer shorter than its cbuffer.\n"
     "    UseAfterFreeError: the list was already executed."},
    {"draw_indexed", DX12KIT_FAST(FastDrawIndexed), METH_FASTCALL | METH_KEYWORDS,
     "draw_indexed(self, index_count: typing.SupportsIndex, instance_count: typing.SupportsIndex = 1, start_index: typing.SupportsIndex = 0, "
     "base_vertex: typing.SupportsIndex = 0, start_instance: typing.SupportsIndex = 0) -> None\n\n"
     "Draws `index_count` indices of the bound index buffer (instanced).\n\n"
     "Args:\n"
     "    index_count, instance_count, start_index, base_vertex, start_instance: DrawIndexedInstanced's arguments\n"
     "        (base_vertex signed 32-bit, the others 0..2**32-1).\n\n"
     "Raises:\n"
     "    TypeError: a count of the wrong type.\n"
     "    InvalidArgumentError: no graphics pipeline, no index buffer set (set_index_buffer), a vertex-buffer slot its vertex\n"
     "        shader reads never set (set_vertex_buffer), a root argument unset, a value out of range, not a direct-queue list;\n"
     "        the target, binding and constant-buffer checks of draw.\n"
     "    UseAfterFreeError: the list was already executed."},
    {"dispatch", DX12KIT_FAST(FastDispatch), METH_FASTCALL | METH_KEYWORDS,
     "dispatch(self, x: typing.SupportsIndex | tuple[typing.SupportsIndex, ...], y: typing.SupportsIndex = 1, z: typing.SupportsIndex = 1) -> None\n\n"
     "Dispatches x * y * z thread groups of the compute pipeline; staged descriptors and barriers are committed first.\n"
     "The counts may also come as one tuple: dispatch((x, y, z)), dispatch((x, y)) (as dispatch_many's groups).\n\n"
     "Args:\n"
     "    x, y, z: thread groups per dimension (1..65535); or x a tuple of 1 to 3 counts, and no y or z.\n\n"
     "Raises:\n"
     "    TypeError: a count of the wrong type.\n"
     "    InvalidArgumentError: no compute pipeline, a root argument unset, a count out of range, a copy-queue list; one\n"
     "        subresource bound as a UAV and through another binding (an SRV and a UAV of one buffer); in validation mode a\n"
     "        constant buffer shorter than its cbuffer.\n"
     "    UseAfterFreeError: the list was already executed."},
};
#undef DX12KIT_FAST

// ---- recording without the GIL -----------------------------------------------------------------
// Batched recording calls long enough to pay for it run with the GIL released, so threads that
// record separate lists overlap (D3D12's parallel recording) and other Python threads run meanwhile.
// The core needs no Python there: a call that finds the recording lock or the submission mutex held
// waits for it (CommandList::LockRecording, Blocking), and a wait for GPU progress (descriptor or
// upload memory running out) takes the GIL only in KeepWaiting, holding neither lock. What the native
// code reads is the call's own copy: the constants of a batch (16 bytes a row, against ~1 us of
// recording a row); a BarrierBatch never changes once made; an upload's bytes are pinned by the buffer view it
// holds (the copy into upload memory is the call's work; a writer on another thread races, as with
// numpy's own GIL-free copies). Short calls keep the GIL: its release and retake cost more than
// they free (up to a whole switch interval, 5 ms, when another thread is running Python).

/// Rows (draws or dispatches) from which a batched call records without the GIL (~50 us of work).
constexpr uint32_t kNoGilRows = 64;
/// Barriers from which resource_barriers records without the GIL.
constexpr size_t kNoGilBarriers = 64;
/// Bytes from which an upload copies without the GIL.
constexpr uint64_t kNoGilUploadBytes = uint64_t(64) << 10;

/// A 2-D C-contiguous array of 32-bit constants for the batched calls: numpy arrays (or lists of
/// rows) of float32/int32/uint32 as they are, other numeric dtypes converted by value as
/// set_constants converts them.
py::array ConstantRows(py::handle values, const char* fn) {
    py::object obj = py::reinterpret_borrow<py::object>(values);
    if (!py::isinstance<py::array>(obj)) {
        if (!PyList_Check(obj.ptr()) && !PyTuple_Check(obj.ptr()))
            throw py::type_error(std::string(fn) + ": constants must be a numpy array of shape (n, k) (or a list of rows), not " +
                                 detail::TypeName(obj));
        // Rows of different lengths: numpy's ValueError (or an object array) becomes our error.
        const py::ssize_t n = py::len(obj);
        py::ssize_t k = -1;
        for (py::ssize_t i = 0; i < n; ++i) {
            py::object row = obj[py::int_(i)];
            if (!PyList_Check(row.ptr()) && !PyTuple_Check(row.ptr()) && !py::isinstance<py::array>(row)) continue;
            const py::ssize_t len = py::len(row);
            if (k >= 0 && len != k)
                throw InvalidArgument(std::string(fn) + ": the rows of constants differ in length (row 0 has " + std::to_string(k) + " values, row " +
                                      std::to_string(i) + " has " + std::to_string(len) + "); every row needs the same k root constants");
            k = len;
        }
        // Rows of Python numbers mixing ints and floats: each value as set_constants takes it (an int
        // as its 32-bit integer, a float as float32), not as numpy would promote the table (ints to
        // floats), so that the same row means the same bits in set_constants and the batched calls.
        bool mixed = false;
        for (py::ssize_t i = 0; i < n && !mixed; ++i) {
            py::object row = obj[py::int_(i)];
            if (!PyList_Check(row.ptr()) && !PyTuple_Check(row.ptr())) continue;
            bool ints = false, floats = false;
            for (py::handle v : row) {
                ints |= PyLong_Check(v.ptr()) && !PyBool_Check(v.ptr());
                floats |= PyFloat_Check(v.ptr());
            }
            mixed = ints && floats;
        }
        if (mixed && k > 0) {
            py::array_t<uint32_t> table({n, k});
            auto out = table.mutable_unchecked<2>();
            for (py::ssize_t i = 0; i < n; ++i) {
                const std::vector<uint32_t> row = Dwords(obj[py::int_(i)], fn);
                if (static_cast<py::ssize_t>(row.size()) != k)
                    throw InvalidArgument(std::string(fn) + ": row " + std::to_string(i) + " of constants does not hold " + std::to_string(k) + " values");
                for (py::ssize_t j = 0; j < k; ++j) out(i, j) = row[static_cast<size_t>(j)];
            }
            return table;
        }
        try {
            obj = py::module_::import("numpy").attr("asarray")(obj);
        } catch (py::error_already_set& e) {
            if (!e.matches(PyExc_ValueError)) throw;
            throw InvalidArgument(std::string(fn) + ": constants is not an (n, k) table of numbers (" + e.what() + ")");
        }
    }
    py::object converted = DwordArray(obj, fn);
    py::array arr = py::reinterpret_borrow<py::array>(converted);
    const py::dtype dt = arr.dtype();
    const char k = dt.kind();
    if (!(k == 'f' || k == 'i' || k == 'u') || dt.itemsize() != 4)
        throw InvalidArgument(std::string(fn) + ": constants of dtype " + std::string(py::str(dt)) +
                              " cannot be 32-bit root constants (give float32, int32 or uint32)");
    if (arr.ndim() != 2)
        throw InvalidArgument(std::string(fn) + ": constants must have shape (n, k), one row of k root constants per call; got " +
                              std::to_string(arr.ndim()) + " dimension(s) (reshape(-1, 1) for one constant per call)");
    if (arr.shape(0) > Py_ssize_t(UINT32_MAX)) throw InvalidArgument(std::string(fn) + ": too many rows");
    if (!(arr.flags() & py::array::c_style)) arr = py::module_::import("numpy").attr("ascontiguousarray")(arr).cast<py::array>();
    return arr;
}

}  // namespace

void BindCommandList(py::module_& m, Classes& c) {
    // ---- command list -------------------------------------------------------------------------
    Documented(c.commandList,
        "Records GPU work for one queue. Resource states, descriptor copies and upload memory are handled automatically.\n"
        "Create with CommandQueue.command_list(); submit with CommandQueue.execute().")
        .def_property_readonly("closed", &CommandList::IsClosed,
                               "True once executed (no more recording). A failed execute leaves its lists open, unless a list\n"
                               "failed to close (then execute raises DeviceError and that list can never run).")
        .def_readwrite("auto_uav_barriers", &CommandList::AutoUavBarriers,
                       "Insert a UAV barrier when a UAV written by an earlier draw/dispatch is used again (default True).")
        .def_property_readonly("upload_pages", &CommandList::UploadPageCount, "Upload pages this list holds.")
        .def("__repr__", [](const CommandList& cl) {
            return std::string("<dx12kit.CommandList ") + QueueKindName(cl.Queue().Type()) + (cl.Name() != "command list" ? " '" + cl.Name() + "'" : "") +
                   (cl.IsClosed() ? " executed" : " recording") + ">";
        })
        .def_property_readonly("name", &CommandList::Name, "The name given to queue.command_list(name=...), else 'command list'.")
        .def("upload", [](CommandList& cl, py::handle res, py::handle array, Int mipArg, Int sliceArg, Int offsetArg) {
            auto r = AsResource(res, "upload");
            const uint32_t mip = U32(mipArg, "upload", "mip"), slice = U32(sliceArg, "upload", "array_slice");
            const uint64_t offset = U64(offsetArg, "upload", "offset");
            Bytes b = GetBytes(array, "upload");
            if (!r->IsBuffer()) {
                r->CheckMipSlice(mip, slice, "upload");
                CheckTextureArray(static_cast<Texture&>(*r), b, mip);
            }
            if (b.size >= kNoGilUploadBytes) {  // a long copy: other Python threads may run meanwhile
                ReleaseGil release;
                cl.Upload(r, b.data, b.size, mip, slice, offset);
                return;
            }
            cl.Upload(r, b.data, b.size, mip, slice, offset);
        }, "resource"_a, "array"_a, "mip"_a = 0, "array_slice"_a = 0, "offset"_a = 0,
           "Copies a numpy array into a buffer (at byte `offset`) or a texture subresource through upload memory.\n"
           "Textures take shape (height, width, channels) matching the format, or raw bytes (bytes, bytearray, 1-D uint8) of the\n"
           "subresource's tightly packed rows; block-compressed textures take their 4x4 blocks' bytes (rows of blocks). The array is copied now (change it freely\n"
           "afterwards); the data reaches the resource when the list executes, in execution order. On a cache-coherent UMA\n"
           "device (Device.uma_direct) execute writes a buffer's bytes on the CPU when no GPU work still uses it, else\n"
           "copies them on the GPU just before the list; see also CommandQueue.write_buffer.\n\n"
           "Args:\n"
           "    resource: a buffer or texture of this device in a 'default' or 'custom' heap.\n"
           "    array: the data (buffer protocol); for a texture, C-contiguous, the subresource's exact size.\n"
           "    mip, array_slice: the texture subresource (ignored for buffers).\n"
           "    offset: byte offset in a buffer.\n\n"
           "Raises:\n"
           "    TypeError: resource or array of the wrong type.\n"
           "    InvalidArgumentError: no data, data that does not fit, an upload/readback heap resource, another device's.\n"
           "    UseAfterFreeError: the list was executed, or the resource closed.")
        .def("copy_resource", [](CommandList& cl, py::handle dst, py::handle src) {
            cl.CopyResource(AsResource(dst, "copy_resource"), AsResource(src, "copy_resource"));
        }, "dst"_a, "src"_a, "Copies the whole of `src` into `dst` (same size and format); both states are tracked.\n\n"
           "Args:\n"
           "    dst: the Buffer or Texture written.\n"
           "    src: the Buffer or Texture read (same size and format as dst).\n\n"
           "Raises:\n"
           "    InvalidArgumentError: resources that differ in size or format, or a closed one.")
        .def("copy_buffer_region", [](CommandList& cl, py::handle dst, Int dstOffset, py::handle src, Int srcOffset, Int size) {
            const char* fn = "copy_buffer_region";
            cl.CopyBufferRegion(AsResource(dst, fn), U64(dstOffset, fn, "dst_offset"), AsResource(src, fn), U64(srcOffset, fn, "src_offset"),
                                U64(size, fn, "size"));
        }, "dst"_a, "dst_offset"_a, "src"_a, "src_offset"_a, "size"_a, "Copies `size` bytes from `src` at `src_offset` to `dst` at `dst_offset`; bounds are checked.\n\n"
           "Args:\n"
           "    dst: the Buffer written.\n"
           "    dst_offset: byte offset in dst.\n"
           "    src: the Buffer read.\n"
           "    src_offset: byte offset in src.\n"
           "    size: bytes to copy.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a range outside either buffer, or a texture given.")
        .def("allocate_upload", [](std::shared_ptr<CommandList> cl, Int size, Int alignment) {
            return PinnedUpload(std::move(cl), U64(size, "allocate_upload", "size"), U64(alignment, "allocate_upload", "alignment"));
        }, "size"_a, "alignment"_a = 256, "Upload memory for the zero-copy path (see UploadAllocation).\n\n"
           "Args:\n"
           "    size: bytes to reserve.\n"
           "    alignment: alignment of the first byte in the upload page (a power of two).\n\n"
           "Returns:\n"
           "    An UploadAllocation of this list, to fill through .array().\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a zero size or an alignment that is not a power of two.")
        .def("allocate_texture_upload", [](std::shared_ptr<CommandList> cl, py::handle tex, Int mipArg) {
            const char* fn = "allocate_texture_upload";
            return PinnedUpload::ForTexture(std::move(cl), AsResource(tex, fn), U32(mipArg, fn, "mip"), fn);
        }, "texture"_a, "mip"_a = 0, "Upload memory laid out for a texture mip (rows 256-byte aligned): fill .array(), then copy_from_upload.\n\n"
           "Args:\n"
           "    texture: the Texture whose mip (array slice 0) the memory is laid out for.\n"
           "    mip: the mip level.\n\n"
           "Returns:\n"
           "    An UploadAllocation of the mip's padded size (every row at the 256-byte row pitch).\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a buffer given, or a mip out of range.")
        .def("copy_from_upload", [](CommandList& cl, py::handle dst, const PinnedUpload& u, Int mip, Int slice, Int offset) {
            const char* fn = "copy_from_upload";
            if (&u.List() != &cl) throw InvalidArgument("copy_from_upload: the allocation belongs to another command list");
            cl.CopyFromUpload(AsResource(dst, fn), u.Allocation(), U32(mip, fn, "mip"), U32(slice, fn, "array_slice"), U64(offset, fn, "offset"));
        }, "dst"_a, "allocation"_a, "mip"_a = 0, "array_slice"_a = 0, "offset"_a = 0, "Copies an UploadAllocation (filled through .array()) into a buffer at `offset` or a texture subresource (mip, array_slice).\n\n"
           "Args:\n"
           "    dst: the Buffer or Texture written.\n"
           "    allocation: an UploadAllocation of this list, filled through .array().\n"
           "    mip, array_slice: the texture subresource written (ignored for buffers).\n"
           "    offset: byte offset in a buffer dst.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: an allocation of another list, or a range outside dst.")
        .def("transition_barrier", [](CommandList& cl, py::handle r, py::handle s, Int sub) {
            auto res = AsResource(r, "transition_barrier");
            cl.TransitionBarrier(res, StateArg(s, "transition_barrier", "state", *res), U32(sub, "transition_barrier", "subresource"));
        }, "resource"_a, "state"_a, "subresource"_a = kAllSubresources,
           "Requests a state explicitly (goes through the state tracker; rarely needed).\n\n"
           "Args:\n"
           "    resource: the Buffer or Texture.\n"
           "    state: the ResourceState (or its name) it moves to.\n"
           "    subresource: one subresource, or ALL_SUBRESOURCES.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a state the resource cannot take, or a subresource out of range.")
        .def("uav_barrier", [](CommandList& cl, py::handle r) {
            cl.UavBarrier(r.is_none() ? nullptr : AsResource(r, "uav_barrier"));
        }, "resource"_a = py::none(), "Records a UAV barrier on `resource` (None: on every UAV access), ordering UAV writes before later accesses.\n\n"
           "Args:\n"
           "    resource: a Buffer or Texture with uav=True, or None for every UAV access.")
        .def("aliasing_barrier", [](CommandList& cl, py::handle before, py::handle after) {
            cl.AliasingBarrier(before.is_none() ? nullptr : AsResource(before, "aliasing_barrier"),
                               after.is_none() ? nullptr : AsResource(after, "aliasing_barrier"));
        }, "before"_a = py::none(), "after"_a = py::none(), "Records an aliasing barrier between two placed resources sharing memory (either may be None). Not needed for\n"
           "resources placed in Device.allocate_memory memory: the first use of one after an overlapping one was used records\n"
           "that barrier by itself; an explicit one hands the memory to `after` and makes the automatic one unnecessary.\n\n"
           "Args:\n"
           "    before: the placed resource that used the memory so far, or None.\n"
           "    after: the placed resource that uses it next, or None.")
        .def("raw_transition", [](CommandList& cl, py::handle r, py::handle before, py::handle after, Int sub) {
            auto res = AsResource(r, "raw_transition");
            cl.RawTransition(res, StateArg(before, "raw_transition", "before", *res), StateArg(after, "raw_transition", "after", *res),
                             U32(sub, "raw_transition", "subresource"));
        }, "resource"_a, "before"_a, "after"_a, "subresource"_a = kAllSubresources,
           "Escape hatch: records a transition barrier directly, without the state tracker. Device(validate=True) reports\n"
           "uses that then find the resource in a state the tracker did not expect.\n\n"
           "Args:\n"
           "    resource: the Buffer or Texture.\n"
           "    before: the ResourceState it is in (the caller's claim; not checked against the tracker here).\n"
           "    after: the ResourceState it moves to.\n"
           "    subresource: one subresource, or ALL_SUBRESOURCES.")
        .def("set_pipeline_state", &CommandList::SetPipelineState, "pso"_a,
             "Binds a pipeline and its root signature; the root arguments set after it apply to its side (graphics or compute).\n\n"
             "Args:\n"
             "    pso: the PipelineState (from create_compute_pipeline or create_graphics_pipeline).\n\n"
             "Raises:\n"
             "    TypeError: pso not a PipelineState.\n"
             "    InvalidArgumentError: a pipeline of another device, or a graphics pipeline on a compute-queue list.\n"
             "    UseAfterFreeError: the list was already executed.")
        .def("set_root_cbv", [](CommandList& cl, Int root, py::handle b, Int off) {
            cl.SetRootView(RootParamKind::Cbv, U32(root, "set_root_cbv", "root_index"), AsResource(b, "set_root_cbv"), U64(off, "set_root_cbv", "offset"));
        },
             "root_index"_a, "buffer"_a, "offset"_a = 0, "Binds buffer + offset as the root constant-buffer view `root_index` (offset 256-byte aligned).\n\n"
           "Args:\n"
           "    root_index: a RootCBV root parameter of the bound root signature.\n"
           "    buffer: the Buffer bound.\n"
           "    offset: byte offset in buffer (a multiple of 256).\n\n"
           "Raises:\n"
           "    TypeError: buffer not a Buffer.\n"
           "    InvalidArgumentError: root_index not a RootCBV parameter, an offset outside the buffer or misaligned, a texture given.\n"
           "    UseAfterFreeError: the list was already executed, or the buffer closed.")
        .def("set_root_srv", [](CommandList& cl, Int root, py::handle b, Int off) {
            cl.SetRootView(RootParamKind::Srv, U32(root, "set_root_srv", "root_index"), AsResource(b, "set_root_srv"), U64(off, "set_root_srv", "offset"));
        },
             "root_index"_a, "buffer"_a, "offset"_a = 0, "Binds buffer + offset as the root shader-resource view `root_index`.\n\n"
           "Args:\n"
           "    root_index: a RootSRV root parameter of the bound root signature.\n"
           "    buffer: the Buffer bound.\n"
           "    offset: byte offset in buffer.\n\n"
           "Raises:\n"
           "    TypeError: buffer not a Buffer.\n"
           "    InvalidArgumentError: root_index not a RootSRV parameter, an offset outside the buffer, a texture given.\n"
           "    UseAfterFreeError: the list was already executed, or the buffer closed.")
        .def("set_root_uav", [](CommandList& cl, Int root, py::handle b, Int off) {
            cl.SetRootView(RootParamKind::Uav, U32(root, "set_root_uav", "root_index"), AsResource(b, "set_root_uav"), U64(off, "set_root_uav", "offset"));
        },
             "root_index"_a, "buffer"_a, "offset"_a = 0, "Binds buffer + offset as the root unordered-access view `root_index`; the buffer moves to UNORDERED_ACCESS.\n\n"
           "Args:\n"
           "    root_index: a RootUAV root parameter of the bound root signature.\n"
           "    buffer: the Buffer bound.\n"
           "    offset: byte offset in buffer.\n\n"
           "Raises:\n"
           "    TypeError: buffer not a Buffer.\n"
           "    InvalidArgumentError: root_index not a RootUAV parameter, an offset outside the buffer, a texture given.\n"
           "    UseAfterFreeError: the list was already executed, or the buffer closed.")
        .def("set_shader_resource_view", [](CommandList& cl, Int root, Int offset, py::handle r, py::object mip, py::object format,
                                            py::object stride, py::object raw, py::object first, py::object num) {
            const char* fn = "set_shader_resource_view";
            const uint32_t rootIndex = U32(root, fn, "root_index"), slot = U32(offset, fn, "descriptor_offset");
            auto res = AsResource(r, fn);
            const BufferViewArgs view = BufferViewArguments(stride, raw, first, num, fn);
            uint32_t firstMip = 0, count = 0;
            if (!mip.is_none()) { firstMip = U32(mip, fn, "mip"); count = 1; }
            DXGI_FORMAT f = format.is_none() ? DXGI_FORMAT_UNKNOWN
                            : res->IsBuffer() ? ParseBufferFormat(format, fn) : ParseFormat(format, fn);
            if (res->IsBuffer() && !mip.is_none()) throw InvalidArgument("set_shader_resource_view: resource '" + res->Name() + "' is a buffer; mip= applies to textures");
            cl.SetShaderResourceView(rootIndex, slot, res, firstMip, count, f, view);
        }, "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = py::none(), "format"_a = py::none(),
           "stride"_a = py::none(), "raw"_a = py::none(), "first_element"_a = py::none(), "num_elements"_a = py::none(),
           "Stages an SRV of `resource` into slot `descriptor_offset` of the descriptor table at `root_index`.\n\n"
           "Textures: all mips, or only `mip`, in the texture's format or `format`. Buffers: a view valid in D3D12's terms,\n"
           "of the kind the bound pipeline's shader declares at that slot unless given: StructuredBuffer<T> -> structured\n"
           "(format UNKNOWN, stride sizeof(T)), ByteAddressBuffer -> raw (R32_TYPELESS, RAW flag, 4-byte elements),\n"
           "Buffer<T> -> typed (T's natural 32-bit format: float4 -> rgba32_float, uint2 -> rg32_uint, int -> r32_sint).\n"
           "Without a kind at a slot the bound pipeline does not read, the view waits (null descriptor) for a pipeline\n"
           "that reads it; views taken from a declaration follow the next pipeline bound under the same root signature.\n\n"
           "Args:\n"
           "    root_index: a DescriptorTable root parameter of the bound root signature.\n"
           "    descriptor_offset: the slot in that table.\n"
           "    resource: a Texture or Buffer.\n"
           "    mip: textures only: view this one mip.\n"
           "    format: textures: the view format (same family); buffers: a typed view in this format.\n"
           "    stride: buffers: a structured view with this structure size in bytes.\n"
           "    raw: buffers: True for a raw view.\n"
           "    first_element: buffers: the view's first element (in elements of the view: stride, 4 bytes or the format's size).\n"
           "    num_elements: buffers: its element count (default: to the end of the buffer).\n\n"
           "Raises:\n"
           "    InvalidArgumentError: not a table slot; buffer arguments for a texture or mip= for a buffer; two view kinds given;\n"
           "        a buffer where the shader declares a texture, a texture where it declares a buffer or a texture of another\n"
           "        dimension (Texture2DArray, TextureCube, ...); a range outside the buffer; a format the device cannot view\n"
           "        buffers in; in validation mode (Device(validate=True)) a kind, stride or format\n"
           "        that differs from the shader's declaration (naming the register, what it declares and what was given).\n"
           "    TypeError: arguments of the wrong type.")
        .def("set_unordered_access_view", [](CommandList& cl, Int root, Int offset, py::handle r, py::object mip, py::object format,
                                             py::object stride, py::object raw, py::object first, py::object num) {
            const char* fn = "set_unordered_access_view";
            const uint32_t rootIndex = U32(root, fn, "root_index"), slot = U32(offset, fn, "descriptor_offset");
            auto res = AsResource(r, fn);
            BufferViewArgs view = BufferViewArguments(stride, raw, first, num, fn);
            // A texture's format= is refused by the core (SetUnorderedAccessView), whatever format it names.
            if (!format.is_none()) view.format = res->IsBuffer() ? ParseBufferFormat(format, fn) : ParseFormat(format, fn);
            if (res->IsBuffer() && !mip.is_none()) throw InvalidArgument("set_unordered_access_view: resource '" + res->Name() + "' is a buffer; mip= applies to textures");
            cl.SetUnorderedAccessView(rootIndex, slot, res, mip.is_none() ? 0u : U32(mip, fn, "mip"), view);
        }, "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = py::none(), "format"_a = py::none(),
           "stride"_a = py::none(), "raw"_a = py::none(), "first_element"_a = py::none(), "num_elements"_a = py::none(),
           "Stages a UAV of `resource` into slot `descriptor_offset` of the descriptor table at `root_index`.\n\n"
           "Textures: one mip (default 0). Buffers: as set_shader_resource_view, from the shader's declaration unless given:\n"
           "RWStructuredBuffer<T> -> structured, RWByteAddressBuffer -> raw, RWBuffer<T> -> typed (formats with typed-UAV\n"
           "support only). The buffer must have been created with uav=True.\n\n"
           "Args:\n"
           "    root_index: a DescriptorTable root parameter of the bound root signature.\n"
           "    descriptor_offset: the slot in that table.\n"
           "    resource: a Texture or Buffer created with uav=True.\n"
           "    mip: textures only: the mip to view (default 0).\n"
           "    format: buffers: a typed view in this format.\n"
           "    stride: buffers: a structured view with this structure size in bytes.\n"
           "    raw: buffers: True for a raw view.\n"
           "    first_element: buffers: the view's first element (in elements of the view).\n"
           "    num_elements: buffers: its element count (default: to the end of the buffer).\n\n"
           "Raises:\n"
           "    InvalidArgumentError: as set_shader_resource_view; a resource without uav=True.\n"
           "    TypeError: arguments of the wrong type.")
        .def("set_constant_buffer_view", [](CommandList& cl, Int root, Int offset, py::handle b, Int bufferOffset, py::handle size) {
            const char* fn = "set_constant_buffer_view";
            uint32_t bytes = 0;
            if (!size.is_none()) {
                bytes = U32(size, fn, "size");
                if (bytes == 0) throw InvalidArgument("set_constant_buffer_view: size=0; a constant buffer view covers 256 to 65536 bytes (a multiple of 256)");
            }
            cl.SetConstantBufferView(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), AsResource(b, fn), U64(bufferOffset, fn, "offset"), bytes);
        }, "root_index"_a, "descriptor_offset"_a, "buffer"_a, "offset"_a = 0, "size"_a = py::none(),
           "Stages a CBV of `buffer` (bytes [offset, offset + size)) into slot `descriptor_offset` of descriptor table `root_index`.\n\n"
           "Many constant blocks can share one buffer, each draw viewing its own block.\n\n"
           "Args:\n"
           "    root_index: the descriptor table's root parameter index.\n"
           "    descriptor_offset: the slot in that table.\n"
           "    buffer: the Buffer viewed.\n"
           "    offset: the view's first byte in the buffer (a multiple of 256; default 0).\n"
           "    size: the bytes viewed (a multiple of 256, at most 65536 = 4096 float4). None: the whole buffer (its size\n"
           "        rounded up to 256 bytes) when offset is 0, else the rest of it.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: offset or size not a multiple of 256, a size over 65536 or 0, a view past the\n"
           "        buffer's end, a texture, or no root signature bound.\n"
           "    TypeError: arguments of the wrong type.")
        .def("set_sampler", [](CommandList& cl, Int root, Int offset, py::handle sampler) {
            const char* fn = "set_sampler";
            if (!py::isinstance<Sampler>(sampler))
                throw py::type_error("set_sampler: sampler must be a dx12kit.SamplerState (Device.create_sampler), not " + detail::TypeName(sampler));
            cl.SetSampler(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), sampler.cast<std::shared_ptr<Sampler>>());
        }, "root_index"_a, "descriptor_offset"_a, "sampler"_a, "Stages a SamplerState into slot `offset` of sampler descriptor table `root_index`.\n\n"
           "Args:\n"
           "    root_index: the sampler descriptor table's root parameter index.\n"
           "    descriptor_offset: the slot in that table.\n"
           "    sampler: a SamplerState (Device.create_sampler).\n\n"
           "Raises:\n"
           "    TypeError: sampler is not a SamplerState.")
        .def("clear_unordered_access_view", [](CommandList& cl, py::handle r, py::object valuesObj) {
            const char* fn = "clear_unordered_access_view";
            auto res = AsResource(r, fn);
            if (!py::isinstance<py::sequence>(valuesObj) || py::isinstance<py::str>(valuesObj))
                throw py::type_error(std::string(fn) + ": values must be a sequence of 4 numbers, not " + detail::TypeName(valuesObj));
            py::sequence values = valuesObj;
            if (py::len(values) != 4) throw InvalidArgument("clear_unordered_access_view: 4 values expected");
            bool floats = false;
            for (py::handle v : values) floats |= py::isinstance<py::float_>(v);
            if (floats) {
                float f[4];
                for (int i = 0; i < 4; ++i) f[i] = F32(values[i], fn, "values item");
                cl.ClearUnorderedAccessViewFloat(res, f);
            } else {
                uint32_t u[4];
                for (int i = 0; i < 4; ++i) u[i] = U32(values[i], fn, "values item");
                cl.ClearUnorderedAccessViewUint(res, u);
            }
        }, "resource"_a, "values"_a, "Clears a UAV-capable resource to 4 values (floats: float clear; ints: uint clear). A texture's clear covers mip 0\n"
           "of every array slice. A buffer's float clear writes values[0] as a 32-bit float into every 4 bytes (a typed\n"
           "R32_FLOAT view, as D3D12 requires for float clears), its uint clear values[0] as a uint32 (the raw view).\n\n"
           "Args:\n"
           "    resource: a Buffer or Texture created with uav=True.\n"
           "    values: 4 numbers: floats for float and normalized formats, unsigned ints for integer formats and raw buffers.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: not 4 values, a resource without uav=True, or a float clear of a buffer under 4 bytes.")
        .def("set_render_targets", [](CommandList& cl, py::object targets, py::object depth, Int mipArg) {
            const uint32_t mip = U32(mipArg, "set_render_targets", "mip");
            std::vector<std::shared_ptr<Resource>> ts;
            if (!targets.is_none()) {
                if (py::isinstance<Resource>(targets)) ts.push_back(AsResource(targets, "set_render_targets"));
                else if (py::isinstance<py::iterable>(targets) && !py::isinstance<py::str>(targets))
                    for (py::handle t : targets) ts.push_back(AsResource(t, "set_render_targets"));
                else throw py::type_error("set_render_targets: textures must be a Texture or a list of them, not " + detail::TypeName(targets));
            }
            cl.SetRenderTargets(ts, depth.is_none() ? nullptr : AsResource(depth, "set_render_targets"), mip);
        }, "textures"_a, "depth"_a = py::none(), py::kw_only(), "mip"_a = 0,
           "Binds render targets (and depth); also sets a full-size viewport and scissor.\n\n"
           "Args:\n"
           "    textures: a Texture or a list of them (render_target=True), in SV_Target order.\n"
           "    depth: a depth-stencil Texture, or None.\n"
           "    mip: the mip level of every target bound.\n\n"
           "Raises:\n"
           "    TypeError: textures is neither a Texture nor a list of them.")
        .def("set_viewport", [](CommandList& cl, Float x, Float y, Float w, Float h, Float minDepth, Float maxDepth) {
            const char* fn = "set_viewport";
            cl.SetViewport(F32(x, fn, "x"), F32(y, fn, "y"), F32(w, fn, "width"), F32(h, fn, "height"), F32(minDepth, fn, "min_depth"),
                           F32(maxDepth, fn, "max_depth"));
        }, "x"_a, "y"_a, "width"_a, "height"_a, "min_depth"_a = 0.0f, "max_depth"_a = 1.0f,
           "Sets the viewport. D3D12's rules are checked: finite values, width and height >= 0, corners within\n"
           "[-32768, 32767], 0 <= min_depth <= max_depth <= 1.\n\n"
           "Args:\n"
           "    x, y: the top-left corner in pixels.\n"
           "    width, height: the size in pixels.\n"
           "    min_depth, max_depth: the depth range.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: values outside D3D12's rules above.")
        .def("set_scissor", [](CommandList& cl, Int l, Int t, Int r, Int b) {
            const char* fn = "set_scissor";
            cl.SetScissor(I32(l, fn, "left"), I32(t, fn, "top"), I32(r, fn, "right"), I32(b, fn, "bottom"));
        }, "left"_a, "top"_a, "right"_a, "bottom"_a, "Sets the scissor rectangle (left <= right, top <= bottom).\n\n"
           "Args:\n"
           "    left, top, right, bottom: the rectangle in pixels.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: left > right or top > bottom.")
        .def("set_viewports", [](CommandList& cl, py::object list) {
            const char* fn = "set_viewports";
            if (!py::isinstance<py::sequence>(list) || py::isinstance<py::str>(list))
                throw py::type_error("set_viewports: expected a list of (x, y, width, height[, min_depth, max_depth]) tuples, not " +
                                     detail::TypeName(list));
            std::vector<D3D12_VIEWPORT> vps;
            for (py::handle item : list) {
                if (!py::isinstance<py::sequence>(item) || py::isinstance<py::str>(item))
                    throw py::type_error("set_viewports: each viewport is a tuple (x, y, width, height[, min_depth, max_depth]), not " +
                                         detail::TypeName(item));
                py::sequence t = py::reinterpret_borrow<py::sequence>(item);
                if (py::len(t) != 4 && py::len(t) != 6)
                    throw InvalidArgument("set_viewports: each viewport is (x, y, width, height[, min_depth, max_depth]), got " +
                                          std::to_string(py::len(t)) + " values");
                D3D12_VIEWPORT vp{F32(t[0], fn, "x"), F32(t[1], fn, "y"), F32(t[2], fn, "width"), F32(t[3], fn, "height"), 0.0f, 1.0f};
                if (py::len(t) == 6) { vp.MinDepth = F32(t[4], fn, "min_depth"); vp.MaxDepth = F32(t[5], fn, "max_depth"); }
                vps.push_back(vp);
            }
            cl.SetViewports(vps);
        }, "viewports"_a,
           "Sets viewports 0..n-1 (1 <= n <= 16) from (x, y, width, height[, min_depth, max_depth]) tuples; a shader picks\n"
           "one with SV_ViewportArrayIndex (else viewport 0 is used). Each is checked as set_viewport checks one.\n\n"
           "Args:\n"
           "    viewports: a list of 1..16 (x, y, width, height[, min_depth, max_depth]) tuples.\n\n"
           "Raises:\n"
           "    TypeError: viewports is not a list of tuples.\n"
           "    InvalidArgumentError: a tuple of the wrong length, or values outside D3D12's rules.")
        .def("set_scissors", [](CommandList& cl, py::object list) {
            const char* fn = "set_scissors";
            if (!py::isinstance<py::sequence>(list) || py::isinstance<py::str>(list))
                throw py::type_error("set_scissors: expected a list of (left, top, right, bottom) tuples, not " + detail::TypeName(list));
            std::vector<D3D12_RECT> rects;
            for (py::handle item : list) {
                if (!py::isinstance<py::sequence>(item) || py::isinstance<py::str>(item))
                    throw py::type_error("set_scissors: each rectangle is a tuple (left, top, right, bottom), not " + detail::TypeName(item));
                py::sequence t = py::reinterpret_borrow<py::sequence>(item);
                if (py::len(t) != 4)
                    throw InvalidArgument("set_scissors: each rectangle is (left, top, right, bottom), got " + std::to_string(py::len(t)) + " values");
                rects.push_back(D3D12_RECT{I32(Int{py::object(t[0])}, fn, "left"), I32(Int{py::object(t[1])}, fn, "top"),
                                           I32(Int{py::object(t[2])}, fn, "right"), I32(Int{py::object(t[3])}, fn, "bottom")});
            }
            cl.SetScissors(rects);
        }, "rects"_a,
           "Sets scissor rectangles 0..n-1 (1 <= n <= 16) from (left, top, right, bottom) tuples; rectangle i clips what\n"
           "viewport i draws.\n\n"
           "Args:\n"
           "    rects: a list of 1..16 (left, top, right, bottom) tuples.\n\n"
           "Raises:\n"
           "    TypeError: rects is not a list of tuples.\n"
           "    InvalidArgumentError: a tuple of the wrong length or an inverted rectangle.")
        .def("set_stencil_ref", [](CommandList& cl, Int ref) {
            const uint32_t v = U32(ref, "set_stencil_ref", "ref");
            if (v > 255) throw InvalidArgument("set_stencil_ref: ref must be 0..255, got " + std::to_string(v));
            cl.SetStencilRef(v);
        }, "ref"_a, "The stencil reference value (0..255) of the stencil test.\n\n"
           "Args:\n"
           "    ref: 0..255.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: ref above 255.")
        .def("set_blend_factor", [](CommandList& cl, py::handle rgbaObj) {
            const char* fn = "set_blend_factor";
            if (!py::isinstance<py::sequence>(rgbaObj) || py::isinstance<py::str>(rgbaObj))
                throw py::type_error(std::string(fn) + ": rgba must be a sequence of 4 numbers, not " + detail::TypeName(rgbaObj));
            py::sequence seq = py::reinterpret_borrow<py::sequence>(rgbaObj);
            if (py::len(seq) != 4) throw InvalidArgument(std::string(fn) + ": rgba needs 4 values, got " + std::to_string(py::len(seq)));
            float rgba[4];
            for (int i = 0; i < 4; ++i) rgba[i] = F32(seq[i], fn, "rgba item");
            cl.SetBlendFactor(rgba);
        }, "rgba"_a,
           "Sets the blend factor (D3D12 OMSetBlendFactor) that blend states with the 'blend_factor' / 'inv_blend_factor'\n"
           "factors read: the factor is (r, g, b, a) for colour and a for alpha, inv_blend_factor is 1 minus it. A list starts\n"
           "with zeros, as D3D12 documents for a new list (ClearState).\n\n"
           "Args:\n"
           "    rgba: 4 finite numbers (r, g, b, a).\n\n"
           "Raises:\n"
           "    TypeError: rgba is not a sequence of numbers.\n"
           "    InvalidArgumentError: not 4 values, a value that is not finite, or a list of a compute or copy queue.\n"
           "    UseAfterFreeError: the list was already executed.")
        .def("clear_render_target", [](CommandList& cl, py::handle t, py::object rgbaObj, Int mip, py::object slice) {
            const char* fn = "clear_render_target";
            auto res = AsResource(t, fn);
            if (!py::isinstance<py::sequence>(rgbaObj) || py::isinstance<py::str>(rgbaObj))
                throw py::type_error(std::string(fn) + ": rgba must be a sequence of 4 numbers, not " + detail::TypeName(rgbaObj));
            py::sequence seq = rgbaObj;
            if (py::len(seq) != 4) throw InvalidArgument(std::string(fn) + ": rgba needs 4 values, got " + std::to_string(py::len(seq)));
            std::array<float, 4> rgba;
            for (int i = 0; i < 4; ++i) rgba[i] = F32(seq[i], fn, "rgba item");
            cl.ClearRenderTarget(res, rgba.data(), U32(mip, fn, "mip"), SliceArg(slice, fn));
        }, "texture"_a, "rgba"_a, py::kw_only(), "mip"_a = 0, "array_slice"_a = py::none(),
           "Clears one mip of a render-target texture to `rgba` (four floats): every array slice (cube face) of it, or\n"
           "only `array_slice`; a 3D texture's mip with all its depth slices.\n\n"
           "Args:\n"
           "    texture: a Texture created with render_target=True.\n"
           "    rgba: four floats.\n"
           "    mip: the mip level cleared.\n"
           "    array_slice: one array slice (cube face), or None for all.\n\n"
           "Raises:\n"
           "    TypeError: rgba is not a sequence.\n"
           "    InvalidArgumentError: not 4 values, or a mip or slice out of range.")
        .def("clear_depth_stencil", [](CommandList& cl, py::handle t, Float d, Int s, bool clearDepth, bool clearStencil, Int mip, py::object slice) {
            const char* fn = "clear_depth_stencil";
            auto res = AsResource(t, fn);
            cl.ClearDepthStencil(res, F32(d, fn, "depth"), U8(s, fn, "stencil"), clearDepth, clearStencil, U32(mip, fn, "mip"),
                                 SliceArg(slice, fn));
        }, "texture"_a, "depth"_a = 1.0f, "stencil"_a = 0, py::kw_only(), "clear_depth"_a = true, "clear_stencil"_a = true, "mip"_a = 0,
           "array_slice"_a = 0,
           "Clears (mip, array_slice) of a depth-stencil texture, or every slice of the mip with array_slice=None (a\n"
           "cascaded or cube shadow map at once); depth in [0, 1] (clear_depth), stencil 0..255 (clear_stencil; formats\n"
           "without stencil ignore it unless it is the only thing asked for, which raises).\n\n"
           "Args:\n"
           "    texture: a Texture created with depth_stencil=True.\n"
           "    depth: the depth value, 0..1.\n"
           "    stencil: the stencil value, 0..255.\n"
           "    clear_depth, clear_stencil: which planes to clear.\n"
           "    mip: the mip level cleared.\n"
           "    array_slice: one array slice, or None for all.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: values out of range, or a stencil-only clear of a format without stencil.")
        .def("resolve", [](CommandList& cl, py::handle dst, py::handle src, py::object format, Int dstSub, Int srcSub) {
            const char* fn = "resolve";
            DXGI_FORMAT f = format.is_none() ? DXGI_FORMAT_UNKNOWN : ParseFormat(format, fn);
            cl.Resolve(AsResource(dst, fn), AsResource(src, fn), U32(dstSub, fn, "dst_subresource"), U32(srcSub, fn, "src_subresource"), f);
        }, "dst"_a, "src"_a, py::kw_only(), "format"_a = py::none(), "dst_subresource"_a = 0, "src_subresource"_a = 0,
           "Resolves multisampled `src` into single-sample `dst` (ResolveSubresource: each pixel the average of its\n"
           "samples). States are tracked (RESOLVE_SOURCE / RESOLVE_DEST). format: the format to resolve as (default:\n"
           "src's), a member of both textures' format families with MULTISAMPLE_RESOLVE support; subresources are\n"
           "mip + array_slice * mip_levels. Direct-queue lists only.\n\n"
           "Args:\n"
           "    dst: a single-sample Texture.\n"
           "    src: a multisampled Texture.\n"
           "    format: the format to resolve as (None: src's).\n"
           "    dst_subresource, src_subresource: the subresources.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: textures or a format that cannot be resolved, or a list of another queue type.")
        .def("set_vertex_buffer", [](CommandList& cl, Int slot, py::handle b, Int stride, Int off) {
            const char* fn = "set_vertex_buffer";
            cl.SetVertexBuffer(U32(slot, fn, "slot"), AsResource(b, fn), U32(stride, fn, "stride"), U64(off, fn, "offset"));
        }, "slot"_a, "buffer"_a, "stride"_a, "offset"_a = 0, "Binds `buffer` as vertex buffer `slot` with `stride` bytes per vertex, from `offset`.\n\n"
           "Args:\n"
           "    slot: the input slot (0..31).\n"
           "    buffer: the Buffer read.\n"
           "    stride: bytes per vertex.\n"
           "    offset: byte offset of the first vertex.")
        .def("set_index_buffer", [](CommandList& cl, py::handle b, Choice<IndexFormatChoice> format, Int off) {
            const DXGI_FORMAT f = Parse(format, "set_index_buffer: format");
            cl.SetIndexBuffer(AsResource(b, "set_index_buffer"), f, U64(off, "set_index_buffer", "offset"));
        }, "buffer"_a, "format"_a = "uint32", "offset"_a = 0, "Binds `buffer` as the index buffer; format is a dx12kit.IndexFormat ('uint16' or 'uint32').\n\n"
           "Args:\n"
           "    buffer: the Buffer read.\n"
           "    format: an IndexFormat or its name.\n"
           "    offset: byte offset of the first index.")
        .def("set_dynamic_constant_buffer", [](CommandList& cl, Int root, py::handle data) {
            const uint32_t rootIndex = U32(root, "set_dynamic_constant_buffer", "root_index");
            Bytes b = GetBytes(data, "set_dynamic_constant_buffer");
            cl.SetDynamicConstantBuffer(rootIndex, b.data, b.size);
        }, "root_index"_a, "data"_a, "Copies `data` into upload memory (256-byte aligned) and binds it as the root CBV `root_index`.\n\n"
           "Args:\n"
           "    root_index: the root CBV parameter index.\n"
           "    data: bytes, a numpy array or anything with the buffer protocol.")
        .def("set_dynamic_vertex_buffer", [](CommandList& cl, Int slotArg, py::handle data, py::object stride) {
            const uint32_t slot = U32(slotArg, "set_dynamic_vertex_buffer", "slot");
            Bytes b = GetBytes(data, "set_dynamic_vertex_buffer");
            uint32_t st;
            if (!stride.is_none()) st = U32(stride, "set_dynamic_vertex_buffer", "stride");
            else if (b.info.ndim >= 2) st = static_cast<uint32_t>(b.info.strides[0]);
            else throw InvalidArgument("set_dynamic_vertex_buffer: give stride= for a 1-D array (or pass shape (vertices, components))");
            cl.SetDynamicVertexBuffer(slot, b.data, b.size, st);
        }, "slot"_a, "array"_a, "stride"_a = py::none(), "Copies an array into upload memory and binds it as vertex buffer `slot` (stride: the row size unless given).\n\n"
           "Args:\n"
           "    slot: the input slot.\n"
           "    array: the vertices (a numpy array).\n"
           "    stride: bytes per vertex; None takes the array's row size (2-D arrays).\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a 1-D array without stride.")
        .def("set_dynamic_index_buffer", [](CommandList& cl, py::handle data) {
            Bytes b = GetBytes(data, "set_dynamic_index_buffer");
            const std::string fmt = b.info.format;
            const bool u16 = b.info.itemsize == 2 && (fmt == "H");
            const bool u32 = b.info.itemsize == 4 && (fmt == "I" || fmt == "L");
            if (!u16 && !u32) throw InvalidArgument("set_dynamic_index_buffer: indices must be a uint16 or uint32 array, got format '" + fmt + "'");
            cl.SetDynamicIndexBuffer(b.data, b.size, u16 ? DXGI_FORMAT_R16_UINT : DXGI_FORMAT_R32_UINT);
        }, "array"_a, "Copies a uint16 or uint32 array into upload memory and binds it as the index buffer.\n\n"
           "Args:\n"
           "    array: uint16 or uint32 indices.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: another dtype.")
        .def("set_dynamic_structured_buffer", [](CommandList& cl, Int root, py::handle data) {
            const uint32_t rootIndex = U32(root, "set_dynamic_structured_buffer", "root_index");
            Bytes b = GetBytes(data, "set_dynamic_structured_buffer");
            cl.SetDynamicStructuredBuffer(rootIndex, b.data, b.size);
        }, "root_index"_a, "array"_a, "Copies `array` into upload memory and binds it as the root SRV `root_index`.\n\n"
           "Args:\n"
           "    root_index: a RootSRV root parameter of the bound root signature.\n"
           "    array: the data (buffer protocol), copied now.\n\n"
           "Raises:\n"
           "    TypeError: array without the buffer protocol.\n"
           "    InvalidArgumentError: empty data, or root_index not a RootSRV parameter.\n"
           "    UseAfterFreeError: the list was already executed.")
        .def("draw_many", [](CommandList& cl, Int vertexCount, py::handle constants, Int root, Int instances) {
            const char* fn = "draw_many";
            const uint32_t vc = U32(vertexCount, fn, "vertex_count"), ic = U32(instances, fn, "instance_count"), ri = U32(root, fn, "root_index");
            const py::array rows = ConstantRows(constants, fn);
            const uint32_t n = static_cast<uint32_t>(rows.shape(0)), k = static_cast<uint32_t>(rows.shape(1));
            const auto* data = static_cast<const uint32_t*>(rows.data());
            if (n >= kNoGilRows) {
                const std::vector<uint32_t> own(data, data + size_t(n) * k);  // unchanged by other threads meanwhile
                ReleaseGil release;
                cl.DrawMany(vc, ic, own.empty() ? data : own.data(), n, k, ri);
                return;
            }
            cl.DrawMany(vc, ic, data, n, k, ri);
        }, "vertex_count"_a, "constants"_a, py::kw_only(), "root_index"_a = 0, "instance_count"_a = 1,
           "Records one draw per row of `constants`: the row is set as the root constants of `root_index`, then\n"
           "DrawInstanced(vertex_count, instance_count, 0, 0). The same checks and state tracking as set_constants + draw per\n"
           "row, at a fraction of the cost (one call for the whole batch).\n\n"
           "Args:\n"
           "    vertex_count: vertices per draw.\n"
           "    constants: an (n, k) array of 32-bit values (float32, int32 or uint32; other numeric dtypes are converted by\n"
           "        value, as set_constants converts them): n draws, each with its row as root constants [0, k).\n"
           "    root_index: the root-constants parameter the rows go to (k <= its count).\n"
           "    instance_count: instances per draw.\n\n"
           "Raises:\n"
           "    TypeError: constants not an array (or list of rows), or a count of the wrong type.\n"
           "    InvalidArgumentError: constants not 2-D or of a dtype that is no 32-bit number; k larger than the parameter;\n"
           "        no graphics pipeline, a vertex-buffer slot its vertex shader reads never set on this list (set_vertex_buffer),\n"
           "        a root argument unset, not a direct-queue list; the target, binding and constant-buffer checks of draw.\n"
           "    UseAfterFreeError: the list was already executed.")
        .def("draw_indexed_many", [](CommandList& cl, Int indexCount, py::handle constants, Int root, Int instances) {
            const char* fn = "draw_indexed_many";
            const uint32_t n = U32(indexCount, fn, "index_count"), ic = U32(instances, fn, "instance_count"), ri = U32(root, fn, "root_index");
            const py::array rows = ConstantRows(constants, fn);
            const uint32_t count = static_cast<uint32_t>(rows.shape(0)), k = static_cast<uint32_t>(rows.shape(1));
            const auto* data = static_cast<const uint32_t*>(rows.data());
            if (count >= kNoGilRows) {
                const std::vector<uint32_t> own(data, data + size_t(count) * k);  // unchanged by other threads meanwhile
                ReleaseGil release;
                cl.DrawIndexedMany(n, ic, own.empty() ? data : own.data(), count, k, ri);
                return;
            }
            cl.DrawIndexedMany(n, ic, data, count, k, ri);
        }, "index_count"_a, "constants"_a, py::kw_only(), "root_index"_a = 0, "instance_count"_a = 1,
           "Records one indexed draw per row of `constants` (as draw_many): the row as root constants of `root_index`, then\n"
           "DrawIndexedInstanced(index_count, instance_count, 0, 0, 0) on the bound index buffer.\n\n"
           "Args:\n"
           "    index_count: indices per draw.\n"
           "    constants: an (n, k) array of 32-bit values, one row per draw (see draw_many).\n"
           "    root_index: the root-constants parameter the rows go to.\n"
           "    instance_count: instances per draw.\n\n"
           "Raises:\n"
           "    TypeError: constants not an array (or list of rows), or a count of the wrong type.\n"
           "    InvalidArgumentError: as draw_many, or no index buffer set (set_index_buffer).\n"
           "    UseAfterFreeError: the list was already executed.")
        .def("dispatch_many", [](CommandList& cl, py::handle groups, py::handle constants, Int root) {
            const char* fn = "dispatch_many";
            const uint32_t ri = U32(root, fn, "root_index");
            const py::array rows = ConstantRows(constants, fn);
            const uint32_t n = static_cast<uint32_t>(rows.shape(0));
            std::array<uint32_t, 3> one{};
            py::array_t<uint32_t, py::array::c_style> perRow;
            bool byRow = false;
            if (py::isinstance<py::array>(groups)) {
                py::array g = py::reinterpret_borrow<py::array>(groups);
                const char k = g.dtype().kind();
                if (k != 'i' && k != 'u') throw py::type_error(std::string(fn) + ": groups must hold integers, not dtype " + std::string(py::str(g.dtype())));
                if (g.ndim() == 2 && g.shape(1) == 3) {
                    if (g.shape(0) != Py_ssize_t(n))
                        throw InvalidArgument(std::string(fn) + ": groups has " + std::to_string(g.shape(0)) + " rows but constants has " +
                                              std::to_string(n));
                    py::module_ np = py::module_::import("numpy");
                    // The core refuses counts outside 1..65535; a value no uint32 holds is refused here (by its
                    // value), so that none wraps around into that range.
                    py::array bad = np.attr("flatnonzero")(np.attr("logical_or")(np.attr("less")(g, 0), np.attr("greater")(g, UINT32_MAX)));
                    if (bad.size() > 0) {
                        const py::object first = bad[py::int_(0)];
                        const py::ssize_t at = first.cast<py::ssize_t>();
                        throw InvalidArgument(std::string(fn) + ": thread group counts must be 1..65535, got " +
                                              std::string(py::str(g.attr("reshape")(-1)[py::int_(at)])) + " in row " + std::to_string(at / 3) +
                                              " of groups");
                    }
                    perRow = np.attr("ascontiguousarray")(g, "dtype"_a = "uint32").cast<py::array_t<uint32_t, py::array::c_style>>();
                    byRow = true;
                } else if (g.ndim() == 1 && g.shape(0) == 3) {
                    for (py::ssize_t d = 0; d < 3; ++d) one[size_t(d)] = U32(py::object(g[py::int_(d)]), fn, "groups item");
                } else {
                    throw InvalidArgument(std::string(fn) + ": groups must be one (x, y, z) or an (n, 3) array");
                }
            } else {
                if (!PyList_Check(groups.ptr()) && !PyTuple_Check(groups.ptr()))
                    throw py::type_error(std::string(fn) + ": groups must be an (x, y, z) tuple or an (n, 3) integer array, not " +
                                         detail::TypeName(groups));
                py::sequence seq = py::reinterpret_borrow<py::sequence>(groups);
                if (py::len(seq) != 3) throw InvalidArgument(std::string(fn) + ": groups must be one (x, y, z) or an (n, 3) array");
                for (size_t d = 0; d < 3; ++d) one[d] = U32(py::object(seq[d]), fn, "groups item");
            }
            const uint32_t k = static_cast<uint32_t>(rows.shape(1));
            const auto* data = static_cast<const uint32_t*>(rows.data());
            if (n >= kNoGilRows) {
                // Copies of both tables: neither changes under the native code when another thread writes them.
                const std::vector<uint32_t> own(data, data + size_t(n) * k);
                const std::vector<uint32_t> ownGroups = byRow ? std::vector<uint32_t>(perRow.data(), perRow.data() + size_t(n) * 3)
                                                              : std::vector<uint32_t>(one.begin(), one.end());
                ReleaseGil release;
                cl.DispatchMany(ownGroups.data(), byRow, own.empty() ? data : own.data(), n, k, ri);
                return;
            }
            cl.DispatchMany(byRow ? perRow.data() : one.data(), byRow, data, n, k, ri);
        }, "groups"_a, "constants"_a, py::kw_only(), "root_index"_a = 0,
           "Records one dispatch per row of `constants`: the row is set as the root constants of `root_index`, then\n"
           "Dispatch(x, y, z). The same checks, state tracking and automatic UAV barriers as set_constants + dispatch per row.\n\n"
           "Args:\n"
           "    groups: thread groups (x, y, z) for every dispatch, or an (n, 3) integer array, one row per dispatch\n"
           "        (each 1..65535).\n"
           "    constants: an (n, k) array of 32-bit values (see draw_many), one row per dispatch.\n"
           "    root_index: the root-constants parameter the rows go to.\n\n"
           "Raises:\n"
           "    TypeError: constants or groups of the wrong type (groups not integers).\n"
           "    InvalidArgumentError: constants not 2-D or not 32-bit numbers; groups of the wrong shape or out of range;\n"
           "        no compute pipeline, a root argument unset, a copy-queue list.\n"
           "    UseAfterFreeError: the list was already executed.")
        .def("generate_mips", [](CommandList& cl, py::handle texture, Int firstMip) {
            auto tex = AsResource(texture, "generate_mips");
            const uint32_t first = U32(firstMip, "generate_mips", "first_mip");
            ReleaseGil release;   // pure C++ from here (the first call creates the device's pipeline)
            cl.GenerateMips(tex, first);
        }, "texture"_a, py::kw_only(), "first_mip"_a = 0,
           "Fills mips first_mip+1.. of every array slice of a 2D texture (array) from mip first_mip on the GPU.\n\n"
           "A compute pass writes up to 4 mips per dispatch (8x8 thread groups, 2x2 averages in groupshared memory);\n"
           "an odd size takes 2 or 4 bilinear taps per texel, so a constant image stays constant and the mean is kept.\n"
           "sRGB textures are averaged in linear light. Textures without uav=True go through a UAV-capable copy, and\n"
           "formats without typed UAVs (sRGB, BGRA) through an rgba8_unorm alias placed in the same memory, with\n"
           "aliasing barriers; Device.stats()['mips'] counts each route. States are tracked; temporaries live until\n"
           "the list's work completes. Device.format_support(format)['mip_autogen'] says which formats work.\n"
           "The pass binds its own pipeline and leaves none bound, its root arguments cleared: set your pipeline and root\n"
           "arguments again before the next draw or dispatch (one left unset raises).\n\n"
           "Args:\n"
           "    texture: a 2D texture or 2D texture array (not multisampled).\n"
           "    first_mip: the mip the others are made from (0..mip_levels-1); mips above it are left alone.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: on a copy-queue list; a buffer, 3D or multisampled texture; first_mip out of range;\n"
           "        a depth, integer or otherwise unsupported format (the message says why).\n"
           "    UseAfterFreeError: the texture was closed or the list already executed.")
        .def("pano_to_cubemap", [](CommandList& cl, py::handle cube, py::handle panorama) {
            cl.PanoToCubemap(AsResource(cube, "pano_to_cubemap"), AsResource(panorama, "pano_to_cubemap"));
        }, "cubemap"_a, "panorama"_a,
           "Fills every mip of a cube texture from an equirectangular panorama (a 2D texture) with a compute pass; direct or\n"
           "compute lists (a copy list raises).\n\n"
           "Faces: +X, -X, +Y, -Y, +Z, -Z, +Y up, as TextureCube sampling expects. Panorama layout: u = 0.5 + atan2(x, -z) / 2pi,\n"
           "v = acos(y) / pi for a direction (x, y, z): row 0 looks straight up, the centre column along -Z, u = 0.75 along +X.\n"
           "Every mip is made from the panorama itself (not by downsampling the mip above): each texel averages samples of\n"
           "the panorama about one panorama texel apart, read through the panorama's mips when it has them (so a panorama\n"
           "with mips is faster at small cube mips, one without is box-filtered).\n\n"
           "Formats: the cube's format must be writable through a typed UAV: rgba8_unorm, rgba16_float, rgba32_float... sRGB\n"
           "cubes (rgba8_unorm_srgb) are written through rgba8_unorm with the colours encoded to sRGB by the shader. A cube\n"
           "without uav=True (or an sRGB one) is written through a staging cube and copied. Afterwards no pipeline is set\n"
           "on the list and root arguments are unbound: set them again before the next draw or dispatch.\n\n"
           "Args:\n    cubemap: the cube Texture written (every mip).\n    panorama: the equirectangular 2D Texture read.\n\nRaises:\n"
           "    InvalidArgumentError: `cubemap` is not a cube texture, `panorama` not a 2D texture, a format that cannot be\n"
           "        sampled or written (integer formats; bgra8 on devices without bgra8 UAVs), or a copy-queue list.");
    // The fast per-call entries (above): method descriptors of CommandList, set after the pybind11 methods.
    for (PyMethodDef& def : g_FastMethods) {
        py::object descr = py::reinterpret_steal<py::object>(PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(c.commandList.ptr()), &def));
        if (!descr) throw py::error_already_set();
        if (PyObject_SetAttrString(c.commandList.ptr(), def.ml_name, descr.ptr()) != 0) throw py::error_already_set();
    }
    InstallForkLeak<CommandList>(+[](const CommandList& l) { return l.Core()->Forked(); });
    c.commandList.def(
        "resource_barriers", [](CommandList& cl, const BarrierBatch& batch) {
            if (batch.Size() < kNoGilBarriers) {
                batch.Record(cl);
                return;
            }
            ReleaseGil release;  // a BarrierBatch never changes after construction; the call holds it alive
            batch.Record(cl);
        }, "batch"_a,
        "Records every barrier of a BarrierBatch, in order, as the separate calls would.\n\n"
        "Args:\n"
        "    batch: the BarrierBatch.\n\n"
        "Raises:\n"
        "    InvalidArgumentError: a resource of another device, or a state this list's queue type may not\n"
        "        use (the entries before it stay recorded).\n"
        "    UseAfterFreeError: the list was executed already.");
    BindCommandListQueries(c);
    BindCommandListIndirect(c);
}

}  // namespace dx12kit::bindings
