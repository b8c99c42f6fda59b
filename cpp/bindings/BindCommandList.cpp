// dx12core: CommandList (recording; its zero-copy UploadAllocation is BindUploadAllocation.cpp).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "docs/CommandListDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"
#include "SharedRecording.hpp"

#include "dx12kit/features/PanoToCubemap.hpp"
#include "dx12kit/gpu/PinnedUpload.hpp"

namespace dx12kit::bindings {

namespace {

/// An array_slice argument of the clears: None for every slice (CommandList::kAllSlices), else one.
uint32_t SliceArg(py::handle slice, const char* fn) {
    return IndexOrAll(slice, CommandList::kAllSlices, fn, "array_slice");
}


// ---- per-call fast entries ------------------------------------------------------------
// set_constants, draw, draw_indexed and dispatch run once per draw from Python: they are CPython
// METH_FASTCALL methods rather than pybind11 functions. pybind11's dispatcher builds a
// function_call (two std::vectors: a malloc/free pair each) and an object per Int argument on
// every call; here the arguments arrive as a C array, plain ints convert in place, and a float32 /
// int32 / uint32 numpy row is copied straight into a stack array (no buffer_info, no std::vector). Anything
// unusual (numpy integers, other dtypes, bytes, out-of-range values) takes the ordinary checked
// conversions of Args.hpp / GpuArgs.hpp, so the errors and their messages are the same as
// before. C++ exceptions become Python ones through pybind11's translators (ExceptionTranslation.cpp).

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
void ParseKeywordArgs(const char* fn, const char* const (&names)[N], size_t required, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
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
                if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) {
                    slot = i;
                    break;
                }
            if (slot == N) throw py::type_error(std::string(fn) + "() got an unexpected keyword argument '" + py::str(key).cast<std::string>() + "'");
            if (out[slot]) throw py::type_error(std::string(fn) + "() got multiple values for argument '" + names[slot] + "'");
            out[slot] = args[nargs + j];
        }
    }
    for (size_t i = 0; i < required; ++i)
        if (!out[i]) throw py::type_error(std::string(fn) + "() missing required argument '" + names[i] + "'");
}

/// ParseKeywordArgs, with positional-only calls (a hot loop's) matched in line.
template <size_t N>
inline void ParseFastArgs(const char* fn, const char* const (&names)[N], size_t required, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                          PyObject* (&out)[N]) {
    if (!kwnames && size_t(nargs) >= required && size_t(nargs) <= N) {
        for (size_t i = 0; i < N; ++i) out[i] = Py_ssize_t(i) < nargs ? args[i] : nullptr;
        return;
    }
    ParseKeywordArgs(fn, names, required, args, nargs, kwnames, out);
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
    // The dtype's checks once per descriptor: the last one that passed is kept (with a reference, so
    // its address cannot be reused by another); numpy's float32 / int32 / uint32 rows share one each.
    static PyObject* s_Passed = nullptr;
    if (a->descr != s_Passed) {
        const py::dtype dt = py::reinterpret_borrow<py::dtype>(reinterpret_cast<PyObject*>(a->descr));
        const char k = dt.kind(), order = dt.byteorder();
        if (!(k == 'f' || k == 'i' || k == 'u') || dt.itemsize() != 4) return false;
        if (!(order == '=' || order == '|' || order == (IsLittleEndianHost() ? '<' : '>'))) return false;
        Py_INCREF(a->descr);
        Py_XDECREF(s_Passed);
        s_Passed = a->descr;
    }
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
// Docstrings (docs::CommandList) in pybind11's form, a signature line first: pybind11-stubgen reads the types from it,
// and help() shows them.
PyMethodDef g_FastMethods[] = {
    {"set_constants", DX12KIT_FAST(FastSetConstants), METH_FASTCALL | METH_KEYWORDS, docs::CommandList::set_constants},
    {"draw", DX12KIT_FAST(FastDraw), METH_FASTCALL | METH_KEYWORDS, docs::CommandList::draw},
    {"draw_indexed", DX12KIT_FAST(FastDrawIndexed), METH_FASTCALL | METH_KEYWORDS, docs::CommandList::draw_indexed},
    {"dispatch", DX12KIT_FAST(FastDispatch), METH_FASTCALL | METH_KEYWORDS, docs::CommandList::dispatch},
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
                    throw InvalidArgument(std::string(fn) + ": row " + std::to_string(i) + " of constants does not hold " + std::to_string(k) +
                                          " values");
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

// ---- CommandList's methods, by concept (BindCommandList calls each once) ----------------------
using ListClass = py::class_<CommandList, std::shared_ptr<CommandList>>;

/// Uploads and copies: upload, copy_resource, copy_buffer_region, the zero-copy upload path.
void DefCopies(ListClass& cls) {
    cls.def(
           "upload",
           [](CommandList& cl, ResourceArg res, py::handle array, Int mipArg, Int sliceArg, Int offsetArg) {
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
           },
           "resource"_a, "array"_a, "mip"_a = 0, "array_slice"_a = 0, "offset"_a = 0, docs::CommandList::upload)
        .def(
            "copy_resource",
            [](CommandList& cl, ResourceArg dst, ResourceArg src) {
                cl.CopyResource(AsResource(dst, "copy_resource"), AsResource(src, "copy_resource"));
            },
            "dst"_a, "src"_a, docs::CommandList::copy_resource)
        .def(
            "copy_buffer_region",
            [](CommandList& cl, BufferArg dst, Int dstOffset, BufferArg src, Int srcOffset, Int size) {
                const char* fn = "copy_buffer_region";
                cl.CopyBufferRegion(AsResource(dst, fn), U64(dstOffset, fn, "dst_offset"), AsResource(src, fn), U64(srcOffset, fn, "src_offset"),
                                    U64(size, fn, "size"));
            },
            "dst"_a, "dst_offset"_a, "src"_a, "src_offset"_a, "size"_a, docs::CommandList::copy_buffer_region)
        .def(
            "allocate_upload",
            [](std::shared_ptr<CommandList> cl, Int size, Int alignment) {
                return PinnedUpload(std::move(cl), U64(size, "allocate_upload", "size"), U64(alignment, "allocate_upload", "alignment"));
            },
            "size"_a, "alignment"_a = 256, docs::CommandList::allocate_upload)
        .def(
            "allocate_texture_upload",
            [](std::shared_ptr<CommandList> cl, TextureArg tex, Int mipArg) {
                const char* fn = "allocate_texture_upload";
                return PinnedUpload::ForTexture(std::move(cl), AsResource(tex, fn), U32(mipArg, fn, "mip"), fn);
            },
            "texture"_a, "mip"_a = 0, docs::CommandList::allocate_texture_upload)
        .def(
            "copy_from_upload",
            [](CommandList& cl, ResourceArg dst, const PinnedUpload& u, Int mip, Int slice, Int offset) {
                const char* fn = "copy_from_upload";
                if (&u.List() != &cl) throw InvalidArgument("copy_from_upload: the allocation belongs to another command list");
                cl.CopyFromUpload(AsResource(dst, fn), u.Allocation(), U32(mip, fn, "mip"), U32(slice, fn, "array_slice"), U64(offset, fn, "offset"));
            },
            "dst"_a, "allocation"_a, "mip"_a = 0, "array_slice"_a = 0, "offset"_a = 0, docs::CommandList::copy_from_upload);
}

/// Barriers: transitions, UAV and aliasing barriers, raw transitions.
void DefBarriers(ListClass& cls) {
    cls.def(
           "transition_barrier",
           [](CommandList& cl, ResourceArg r, StateArgT s, Int sub) {
               auto res = AsResource(r, "transition_barrier");
               cl.TransitionBarrier(res, StateArg(s, "transition_barrier", "state", *res), U32(sub, "transition_barrier", "subresource"));
           },
           "resource"_a, "state"_a, "subresource"_a = kAllSubresources, docs::CommandList::transition_barrier)
        .def(
            "uav_barrier", [](CommandList& cl, OptResourceArg r) { cl.UavBarrier(r.is_none() ? nullptr : AsResource(r, "uav_barrier")); },
            "resource"_a = py::none(), docs::CommandList::uav_barrier)
        .def(
            "aliasing_barrier",
            [](CommandList& cl, OptResourceArg before, OptResourceArg after) {
                cl.AliasingBarrier(before.is_none() ? nullptr : AsResource(before, "aliasing_barrier"),
                                   after.is_none() ? nullptr : AsResource(after, "aliasing_barrier"));
            },
            "before"_a = py::none(), "after"_a = py::none(), docs::CommandList::aliasing_barrier)
        .def(
            "raw_transition",
            [](CommandList& cl, ResourceArg r, StateArgT before, StateArgT after, Int sub) {
                auto res = AsResource(r, "raw_transition");
                cl.RawTransition(res, StateArg(before, "raw_transition", "before", *res), StateArg(after, "raw_transition", "after", *res),
                                 U32(sub, "raw_transition", "subresource"));
            },
            "resource"_a, "before"_a, "after"_a, "subresource"_a = kAllSubresources, docs::CommandList::raw_transition);
}

/// The pipeline and UAV clears (root views, descriptor-table views and samplers: SharedRecording.hpp).
void DefRootArguments(ListClass& cls) {
    cls.def(
           "set_pipeline_state",
           [](CommandList& cl, const std::shared_ptr<PipelineState>& pso) {
               cl.SetPipelineState(pso);
               ApplyPendingNamedBinds(cl);  // values bound by name before any pipeline (BindCommandListNames.cpp)
           },
           "pso"_a, docs::CommandList::set_pipeline_state)
        .def(
            "clear_unordered_access_view",
            [](CommandList& cl, ResourceArg r, FourArg valuesArg) {
                const py::object valuesObj = py::reinterpret_borrow<py::object>(valuesArg.value);
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
            },
            "resource"_a, "values"_a, docs::CommandList::clear_unordered_access_view);
}

/// Render targets, viewports, scissors, clears and resolve (stencil reference, blend factor: SharedRecording.hpp).
void DefOutputMerger(ListClass& cls) {
    cls.def(
           "set_render_targets",
           [](CommandList& cl, TargetsArg targetsArg, OptTextureArg depth, Int mipArg) {
               const py::handle targets = targetsArg;
               const uint32_t mip = U32(mipArg, "set_render_targets", "mip");
               std::vector<std::shared_ptr<Resource>> ts;
               if (!targets.is_none()) {
                   if (py::isinstance<Resource>(targets)) ts.push_back(AsResource(targets, "set_render_targets"));
                   else if (py::isinstance<py::iterable>(targets) && !py::isinstance<py::str>(targets))
                       for (py::handle t : targets) ts.push_back(AsResource(t, "set_render_targets"));
                   else throw py::type_error("set_render_targets: textures must be a Texture or a list of them, not " + detail::TypeName(targets));
               }
               cl.SetRenderTargets(ts, depth.is_none() ? nullptr : AsResource(depth, "set_render_targets"), mip);
           },
           "textures"_a, "depth"_a = py::none(), py::kw_only(), "mip"_a = 0, docs::CommandList::set_render_targets)
        .def(
            "set_viewport",
            [](CommandList& cl, Float x, Float y, Float w, Float h, Float minDepth, Float maxDepth) {
                const char* fn = "set_viewport";
                cl.SetViewport(F32(x, fn, "x"), F32(y, fn, "y"), F32(w, fn, "width"), F32(h, fn, "height"), F32(minDepth, fn, "min_depth"),
                               F32(maxDepth, fn, "max_depth"));
            },
            "x"_a, "y"_a, "width"_a, "height"_a, "min_depth"_a = 0.0f, "max_depth"_a = 1.0f, docs::CommandList::set_viewport)
        .def(
            "set_scissor",
            [](CommandList& cl, Int l, Int t, Int r, Int b) {
                const char* fn = "set_scissor";
                cl.SetScissor(I32(l, fn, "left"), I32(t, fn, "top"), I32(r, fn, "right"), I32(b, fn, "bottom"));
            },
            "left"_a, "top"_a, "right"_a, "bottom"_a, docs::CommandList::set_scissor)
        .def(
            "set_viewports",
            [](CommandList& cl, py::object list) {
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
                    if (py::len(t) == 6) {
                        vp.MinDepth = F32(t[4], fn, "min_depth");
                        vp.MaxDepth = F32(t[5], fn, "max_depth");
                    }
                    vps.push_back(vp);
                }
                cl.SetViewports(vps);
            },
            "viewports"_a, docs::CommandList::set_viewports)
        .def(
            "set_scissors",
            [](CommandList& cl, py::object list) {
                const char* fn = "set_scissors";
                if (!py::isinstance<py::sequence>(list) || py::isinstance<py::str>(list))
                    throw py::type_error("set_scissors: expected a list of (left, top, right, bottom) tuples, not " + detail::TypeName(list));
                std::vector<D3D12_RECT> rects;
                for (py::handle item : list) {
                    if (!py::isinstance<py::sequence>(item) || py::isinstance<py::str>(item))
                        throw py::type_error("set_scissors: each rectangle is a tuple (left, top, right, bottom), not " + detail::TypeName(item));
                    py::sequence t = py::reinterpret_borrow<py::sequence>(item);
                    if (py::len(t) != 4)
                        throw InvalidArgument("set_scissors: each rectangle is (left, top, right, bottom), got " + std::to_string(py::len(t)) +
                                              " values");
                    rects.push_back(D3D12_RECT{I32(Int{py::object(t[0])}, fn, "left"), I32(Int{py::object(t[1])}, fn, "top"),
                                               I32(Int{py::object(t[2])}, fn, "right"), I32(Int{py::object(t[3])}, fn, "bottom")});
                }
                cl.SetScissors(rects);
            },
            "rects"_a, docs::CommandList::set_scissors)
        .def(
            "clear_render_target",
            [](CommandList& cl, TextureArg t, FourArg rgbaArg, Int mip, OptIndex slice) {
                const char* fn = "clear_render_target";
                auto res = AsResource(t, fn);
                const std::array<float, 4> rgba = Rgba4(rgbaArg, fn);
                cl.ClearRenderTarget(res, rgba.data(), U32(mip, fn, "mip"), SliceArg(slice, fn));
            },
            "texture"_a, "rgba"_a, py::kw_only(), "mip"_a = 0, "array_slice"_a = py::none(), docs::CommandList::clear_render_target)
        .def(
            "clear_depth_stencil",
            [](CommandList& cl, TextureArg t, Float d, Int s, bool clearDepth, bool clearStencil, Int mip, OptIndex slice) {
                const char* fn = "clear_depth_stencil";
                auto res = AsResource(t, fn);
                cl.ClearDepthStencil(res, F32(d, fn, "depth"), U8(s, fn, "stencil"), clearDepth, clearStencil, U32(mip, fn, "mip"),
                                     SliceArg(slice, fn));
            },
            "texture"_a, "depth"_a = 1.0f, "stencil"_a = 0, py::kw_only(), "clear_depth"_a = true, "clear_stencil"_a = true, "mip"_a = 0,
            "array_slice"_a = 0, docs::CommandList::clear_depth_stencil)
        .def(
            "resolve",
            [](CommandList& cl, TextureArg dst, TextureArg src, OptFormatArg format, Int dstSub, Int srcSub) {
                const char* fn = "resolve";
                DXGI_FORMAT f = format.is_none() ? DXGI_FORMAT_UNKNOWN : ParseFormat(format, fn);
                cl.Resolve(AsResource(dst, fn), AsResource(src, fn), U32(dstSub, fn, "dst_subresource"), U32(srcSub, fn, "src_subresource"), f);
            },
            "dst"_a, "src"_a, py::kw_only(), "format"_a = py::none(), "dst_subresource"_a = 0, "src_subresource"_a = 0, docs::CommandList::resolve);
}

/// Per-call structured buffers (vertex, index and the other dynamic buffers: SharedRecording.hpp).
void DefGeometry(ListClass& cls) {
    cls.def(
        "set_dynamic_structured_buffer",
        [](CommandList& cl, Int root, py::handle data) {
            const uint32_t rootIndex = U32(root, "set_dynamic_structured_buffer", "root_index");
            Bytes b = GetBytes(data, "set_dynamic_structured_buffer");
            cl.SetDynamicStructuredBuffer(rootIndex, b.data, b.size);
        },
        "root_index"_a, "array"_a, docs::CommandList::set_dynamic_structured_buffer);
}

/// The calling thread's copy of `count` words of root-constant rows (batched calls record from it
/// without the GIL): one buffer per thread, reused, so a call allocates nothing once it has grown.
/// A call made while the thread's buffer is in use (Python code run by a wait hook) gets its own.
class RowCopy {
public:
    RowCopy(const uint32_t* data, size_t count) : m_Nested(Busy()) {
        m_Rows = m_Nested ? &m_Own : &Shared();
        m_Rows->assign(data, data + count);
        Busy() = true;
    }
    ~RowCopy() {
        if (!m_Nested) Busy() = false;
    }
    RowCopy(const RowCopy&) = delete;
    RowCopy& operator=(const RowCopy&) = delete;
    const uint32_t* data() const { return m_Rows->data(); }
    bool empty() const { return m_Rows->empty(); }

private:
    static std::vector<uint32_t>& Shared() {
        thread_local std::vector<uint32_t> rows;
        return rows;
    }
    static bool& Busy() {
        thread_local bool busy = false;
        return busy;
    }
    bool m_Nested;
    std::vector<uint32_t> m_Own;
    std::vector<uint32_t>* m_Rows;
};

/// Calls record(rows, row_count, row_width) with the constant rows; from kNoGilRows rows on without the
/// GIL, on a copy of the rows (unchanged by other threads meanwhile).
template <class Record>
void WithConstantRows(py::handle constants, const char* fn, Record&& record) {
    const py::array rows = ConstantRows(constants, fn);
    const uint32_t n = static_cast<uint32_t>(rows.shape(0)), k = static_cast<uint32_t>(rows.shape(1));
    const auto* data = static_cast<const uint32_t*>(rows.data());
    if (n >= kNoGilRows) {
        const RowCopy own(data, size_t(n) * k);
        ReleaseGil release;
        record(own.empty() ? data : own.data(), n, k);
        return;
    }
    record(data, n, k);
}

/// Batched draws and dispatches (one call, many rows of root constants).
void DefBatches(ListClass& cls) {
    cls.def(
           "draw_many",
           [](CommandList& cl, Int vertexCount, py::handle constants, Int root, Int instances) {
               const char* fn = "draw_many";
               const uint32_t vc = U32(vertexCount, fn, "vertex_count"), ic = U32(instances, fn, "instance_count"), ri = U32(root, fn, "root_index");
               WithConstantRows(constants, fn, [&](const uint32_t* d, uint32_t n, uint32_t k) { cl.DrawMany(vc, ic, d, n, k, ri); });
           },
           "vertex_count"_a, "constants"_a, py::kw_only(), "root_index"_a = 0, "instance_count"_a = 1, docs::CommandList::draw_many)
        .def(
            "draw_indexed_many",
            [](CommandList& cl, Int indexCount, py::handle constants, Int root, Int instances) {
                const char* fn = "draw_indexed_many";
                const uint32_t n = U32(indexCount, fn, "index_count"), ic = U32(instances, fn, "instance_count"), ri = U32(root, fn, "root_index");
                WithConstantRows(constants, fn, [&](const uint32_t* d, uint32_t count, uint32_t k) { cl.DrawIndexedMany(n, ic, d, count, k, ri); });
            },
            "index_count"_a, "constants"_a, py::kw_only(), "root_index"_a = 0, "instance_count"_a = 1, docs::CommandList::draw_indexed_many)
        .def(
            "dispatch_many",
            [](CommandList& cl, py::handle groups, py::handle constants, Int root) {
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
                    if (k != 'i' && k != 'u')
                        throw py::type_error(std::string(fn) + ": groups must hold integers, not dtype " + std::string(py::str(g.dtype())));
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
                    const RowCopy own(data, size_t(n) * k);
                    const std::vector<uint32_t> ownGroups =
                        byRow ? std::vector<uint32_t>(perRow.data(), perRow.data() + size_t(n) * 3) : std::vector<uint32_t>(one.begin(), one.end());
                    ReleaseGil release;
                    cl.DispatchMany(ownGroups.data(), byRow, own.empty() ? data : own.data(), n, k, ri);
                    return;
                }
                cl.DispatchMany(byRow ? perRow.data() : one.data(), byRow, data, n, k, ri);
            },
            "groups"_a, "constants"_a, py::kw_only(), "root_index"_a = 0, docs::CommandList::dispatch_many);
}

/// Recorded features: mip generation, panorama to cubemap.
void DefFeatures(ListClass& cls) {
    cls.def(
           "generate_mips",
           [](CommandList& cl, TextureArg texture, Int firstMip) {
               auto tex = AsResource(texture, "generate_mips");
               const uint32_t first = U32(firstMip, "generate_mips", "first_mip");
               ReleaseGil release;  // pure C++ from here (the first call creates the device's pipeline)
               GenerateMips(cl, tex, first);
           },
           "texture"_a, py::kw_only(), "first_mip"_a = 0, docs::CommandList::generate_mips)
        .def(
            "pano_to_cubemap",
            [](CommandList& cl, TextureArg cube, TextureArg panorama) {
                PanoToCubemap(cl, AsResource(cube, "pano_to_cubemap"), AsResource(panorama, "pano_to_cubemap"));
            },
            "cubemap"_a, "panorama"_a, docs::CommandList::pano_to_cubemap);
}

}  // namespace

void BindCommandList(py::module_& m, Classes& c) {
    // ---- command list -------------------------------------------------------------------------
    Documented(c.commandList, docs::CommandList::class_)
        .def_property_readonly("closed", &CommandList::IsClosed, docs::CommandList::closed)
        .def_readwrite("auto_uav_barriers", &CommandList::AutoUavBarriers, docs::CommandList::auto_uav_barriers)
        .def_property_readonly("upload_pages", &CommandList::UploadPageCount, docs::CommandList::upload_pages)
        .def("__repr__",
             [](const CommandList& cl) {
                 return std::string("<dx12kit.CommandList ") + QueueKindName(cl.Queue().Type()) +
                        (cl.Name() != "command list" ? " '" + cl.Name() + "'" : "") + (cl.IsClosed() ? " executed" : " recording") + ">";
             })
        .def_property_readonly("name", &CommandList::Name, docs::CommandList::name);
    DefCopies(c.commandList);
    DefBarriers(c.commandList);
    DefRootArguments(c.commandList);
    DefOutputMerger(c.commandList);
    DefGeometry(c.commandList);
    DefSharedRecording(c.commandList, DX12KIT_SHARED_RECORDING_DOCS(CommandList));
    DefBatches(c.commandList);
    DefFeatures(c.commandList);
    // The fast per-call entries (above): method descriptors of CommandList, set after the pybind11 methods.
    for (PyMethodDef& def : g_FastMethods) {
        py::object descr = py::reinterpret_steal<py::object>(PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(c.commandList.ptr()), &def));
        if (!descr) throw py::error_already_set();
        if (PyObject_SetAttrString(c.commandList.ptr(), def.ml_name, descr.ptr()) != 0) throw py::error_already_set();
    }
    InstallForkLeak<CommandList>(+[](const CommandList& l) { return l.Context()->Forked(); });
    c.commandList.def(
        "resource_barriers",
        [](CommandList& cl, const BarrierBatch& batch) {
            if (batch.Size() < kNoGilBarriers) {
                batch.Record(cl);
                return;
            }
            ReleaseGil release;  // a BarrierBatch never changes after construction; the call holds it alive
            batch.Record(cl);
        },
        "batch"_a, docs::CommandList::resource_barriers);
    BindCommandListQueries(c);
    BindCommandListDiscard(c);
    BindCommandListIndirect(c);
    BindCommandListNames(c);
    BindCommandListBundles(c);
}

}  // namespace dx12kit::bindings
