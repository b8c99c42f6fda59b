// Argument conversion shared by the D3D12-layer bindings (BindResources, BindRootLayout,
// BindCommandList, BindQueue, BindDevice): strings and dx12kit.enums members -> D3D12 enums,
// bytecode and array data -> bytes, statistics -> dicts. Only conversions; behaviour is in cpp/src/.
#pragma once

#include "Args.hpp"
#include "Bindings.hpp"
#include "ChoiceTables.hpp"
#include "Classes.hpp"
#include "StatsDicts.hpp"
#include "TypedArgs.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/base/HostBlocks.hpp"
#include "dx12kit/devicecontext/FormatSupport.hpp"
#include "dx12kit/devicecontext/Formats.hpp"
#include "dx12kit/devicecontext/TexelArray.hpp"
#include "dx12kit/devicecontext/UploadBuffer.hpp"
#include "dx12kit/features/FormatCapabilities.hpp"
#include "dx12kit/features/GenerateMips.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/gpu/RootSignatureCheck.hpp"
#include "dx12kit/gpu/SamplerRules.hpp"
#include "dx12kit/resources/D3D12Rules.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <cmath>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dx12kit::bindings {

namespace py = pybind11;
using namespace py::literals;

inline std::string Lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

inline DXGI_FORMAT ParseFormat(py::handle h, const char* what) {
    if (py::isinstance<py::str>(h)) return ParseFormatName(Str(h, what, "format"), what).format;  // "did you mean" when unknown
    if (PyIndex_Check(h.ptr())) {                                                                 // dx12kit.Format (an IntEnum) or a plain int
        py::int_ v = detail::Index(h, what, "format");
        int overflow = 0;
        const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
        if (overflow == 0 && x > 0 && x <= INT32_MAX)
            if (const FormatInfo* f = FindFormat(static_cast<DXGI_FORMAT>(x))) return f->format;
        if (overflow == 0 && x == 0)  // dx12kit.Format.UNKNOWN (DXGI_FORMAT_UNKNOWN) or a plain 0
            throw InvalidArgument(std::string(what) +
                                  ": Format.UNKNOWN (0, DXGI_FORMAT_UNKNOWN) stands for no format; give one of "
                                  "dx12kit.Format or its name ('rgba8_unorm', 'BC7_UNORM')");
        throw InvalidArgument(std::string(what) + ": unsupported format " + std::string(py::str(v)) +
                              ": no DXGI format has that value (dx12kit.Format lists them all)");
    }
    throw py::type_error(std::string(what) + ": a format is a str such as 'rgba8_unorm' or a dx12kit.Format, not " + detail::TypeName(h));
}

/// A typed buffer view's format: dx12kit's formats plus the typed-buffer-only ones (BufferView.hpp),
/// by name, dx12kit.Format or DXGI value.
inline DXGI_FORMAT ParseBufferFormat(py::handle h, const char* what) {
    if (py::isinstance<py::str>(h)) {
        const std::string name = Lower(Str(h, what, "format"));
        const DXGI_FORMAT f = TypedBufferFormat(name);
        if (f != DXGI_FORMAT_UNKNOWN) return f;
        throw InvalidArgument(std::string(what) + ": '" + name + "' is not a typed buffer format; one of: " + TypedBufferFormatNames());
    }
    if (PyIndex_Check(h.ptr())) {
        py::int_ v = detail::Index(h, what, "format");
        int overflow = 0;
        const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
        if (overflow == 0 && x > 0 && x <= INT32_MAX && TypedBufferFormatBytes(static_cast<DXGI_FORMAT>(x))) return static_cast<DXGI_FORMAT>(x);
        throw InvalidArgument(std::string(what) + ": format " + std::string(py::str(v)) +
                              " is not a typed buffer format; one of: " + TypedBufferFormatNames());
    }
    throw py::type_error(std::string(what) + ": a format is a str such as 'rgba32_float' or a dx12kit.Format, not " + detail::TypeName(h));
}

/// stride= / raw= / first_element= / num_elements= of set_shader_resource_view and
/// set_unordered_access_view (None: not given), converted; CommandList refuses them for a texture.
inline BufferViewArgs BufferViewArguments(py::handle stride, py::handle raw, py::handle first, py::handle num, const char* fn) {
    BufferViewArgs a;
    if (!stride.is_none()) {
        a.stride = U32(stride, fn, "stride");
        if (a.stride == 0) throw InvalidArgument(std::string(fn) + ": stride must be positive (a structured view's structure size in bytes)");
    }
    if (!raw.is_none()) {
        if (!PyBool_Check(raw.ptr())) throw py::type_error(std::string(fn) + ": raw must be True, False or None, not " + detail::TypeName(raw));
        a.raw = raw.ptr() == Py_True ? 1 : 0;
    }
    if (!first.is_none()) a.firstElement = U64(first, fn, "first_element");
    if (!num.is_none()) a.numElements = U32(num, fn, "num_elements");
    return a;
}

// Choice arguments: Choices.hpp (the converter) and ChoiceTables.hpp (the names and values).
inline D3D12_SHADER_VISIBILITY ParseVisibility(py::handle h, const std::string& fn) {
    return ParseChoice<VisibilityChoice>(h, (fn + ": visibility").c_str());
}
inline D3D12_FILTER ParseFilter(py::handle h, const std::string& fn) {
    return ParseChoice<FilterChoice>(h, (fn + ": filter").c_str());
}
inline D3D12_TEXTURE_ADDRESS_MODE ParseAddress(py::handle h, const std::string& fn) {
    return ParseChoice<AddressModeChoice>(h, (fn + ": address").c_str());
}
inline D3D12_STATIC_BORDER_COLOR ParseBorderColor(py::handle h, const std::string& fn) {
    return ParseChoice<BorderColorChoice>(h, (fn + ": border_color").c_str());
}

/// The name of a choice's value (its first name in the table: 'point' for MIN_MAG_MIP_POINT), or nullptr.
template <typename Tag>
const char* ChoiceName(typename Tag::Value v) {
    for (const auto& c : Tag::kTable)
        if (c.value == v) return c.name;
    return nullptr;
}

/// border_color of Device.create_sampler: a dx12kit.BorderColor or its name, or four numbers (r, g, b, a).
struct BorderColorArg {
    py::handle value;
};

inline std::array<float, 4> ParseBorderColorArg(py::handle h, const char* fn) {
    const std::string what = std::string(fn) + ": border_color";
    if (PyTuple_Check(h.ptr()) || PyList_Check(h.ptr())) {
        py::sequence seq = py::reinterpret_borrow<py::sequence>(h);
        if (seq.size() != 4)
            throw py::type_error(what + " must be a BorderColor name or 4 numbers (r, g, b, a), got a " + detail::TypeName(h) + " of " +
                                 std::to_string(seq.size()));
        std::array<float, 4> c{};
        for (size_t i = 0; i < 4; ++i) c[i] = F32(seq[i], fn, "border_color");
        return c;
    }
    if (PyUnicode_Check(h.ptr()) || PyIndex_Check(h.ptr()) || py::hasattr(h, "value"))
        return StaticBorderColorValue(ParseChoice<BorderColorChoice>(h, what.c_str()), what);
    throw py::type_error(what + " must be a dx12kit.BorderColor, its name (" + detail::ChoiceNames<BorderColorChoice>() +
                         ") or 4 numbers (r, g, b, a), not " + detail::TypeName(h));
}

/// A sampler's settings by create_sampler's argument names (the values it takes back: create_sampler(**desc)).
inline py::dict SamplerDescDict(const D3D12_SAMPLER_DESC& d) {
    auto name = [](const char* n, int v) { return n ? py::object(py::str(n)) : py::object(py::int_(v)); };
    py::dict out;
    out["filter"] = name(ChoiceName<FilterChoice>(d.Filter), d.Filter);
    out["address"] = name(ChoiceName<AddressModeChoice>(d.AddressU), d.AddressU);
    out["address_v"] = name(ChoiceName<AddressModeChoice>(d.AddressV), d.AddressV);
    out["address_w"] = name(ChoiceName<AddressModeChoice>(d.AddressW), d.AddressW);
    out["mip_lod_bias"] = d.MipLODBias;
    out["max_anisotropy"] = d.MaxAnisotropy;
    out["comparison"] = name(ChoiceName<ComparisonFuncChoice>(d.ComparisonFunc), d.ComparisonFunc);
    out["border_color"] = py::make_tuple(d.BorderColor[0], d.BorderColor[1], d.BorderColor[2], d.BorderColor[3]);
    out["min_lod"] = d.MinLOD;
    out["max_lod"] = d.MaxLOD;
    return out;
}

/// A timeout argument in seconds: None (forever, -1) or a non-negative finite number.
inline double Timeout(const std::optional<double>& t, const char* what) {
    if (!t) return -1.0;
    if (!(*t >= 0.0) || *t > 1e9) throw InvalidArgument(std::string(what) + ": timeout must be None or seconds >= 0, got " + std::to_string(*t));
    return *t;
}

inline const char* QueueKindName(D3D12_COMMAND_LIST_TYPE t) {
    return t == D3D12_COMMAND_LIST_TYPE_DIRECT ? "direct" : t == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "compute" : "copy";
}

/// True when a buffer-protocol struct format holds a Python object ('O'), field names skipped
/// (numpy exposes a structured dtype as "T{<i:a:O:b:}").
inline bool FormatHasObject(const char* fmt) {
    for (bool name = false; fmt && *fmt; ++fmt) {
        if (*fmt == ':') name = !name;
        else if (!name && *fmt == 'O') return true;
    }
    return false;
}

/// Refuses arrays whose items hold Python objects: raw bytes must never become (or come from)
/// PyObject pointers. Numpy arrays are asked directly (dtype.hasobject), other buffers by format.
inline void RefuseObjects(py::handle h, const char* format, const char* what) {
    bool objects = format && FormatHasObject(format);
    if (!objects && py::isinstance<py::array>(h)) objects = py::reinterpret_borrow<py::array>(h).dtype().attr("hasobject").cast<bool>();
    if (objects)
        throw InvalidArgument(std::string(what) +
                              ": the array holds Python objects (dtype object, or a structured dtype with object "
                              "fields); only plain numeric data can be copied to or from GPU memory");
}

/// The bytes of a DXBC blob: a dx12kit.Shader (its .bytecode) or a bytes-like object. A
/// non-contiguous buffer (a strided memoryview) is copied element by element in C order.
inline std::vector<uint8_t> Bytecode(py::handle h, const char* what) {
    py::object obj = py::reinterpret_borrow<py::object>(h);
    if (py::hasattr(obj, "bytecode")) obj = obj.attr("bytecode");
    if (!py::isinstance<py::bytes>(obj) && !py::isinstance<py::bytearray>(obj) && !py::isinstance<py::memoryview>(obj))
        throw py::type_error(std::string(what) + ": expected a dx12kit.Shader or DXBC bytes, not " + detail::TypeName(obj));
    Py_buffer view;
    if (PyObject_GetBuffer(obj.ptr(), &view, PyBUF_RECORDS_RO) != 0) {
        PyErr_Clear();
        throw InvalidArgument(std::string(what) + ": the bytecode object does not expose its bytes");
    }
    struct Release {
        Py_buffer* v;
        ~Release() { PyBuffer_Release(v); }
    } release{&view};
    RefuseObjects(obj, view.format, what);
    std::vector<uint8_t> out(static_cast<size_t>(view.len));
    if (view.len == 0) return out;
    if (PyBuffer_IsContiguous(&view, 'C')) {
        std::memcpy(out.data(), view.buf, out.size());
    } else if (PyBuffer_ToContiguous(out.data(), &view, view.len, 'C') != 0) {
        PyErr_Clear();
        throw InvalidArgument(std::string(what) + ": cannot copy the non-contiguous bytecode buffer");
    }
    return out;
}

/// The bytes of array data for the GPU, from any buffer-protocol object: the one door through which
/// numpy arrays and other buffers enter (uploads, set_constants, the dynamic buffers). `keep` holds a
/// converted copy when one was made, and must live as long as `data` is used.
struct Bytes {
    py::object keep;
    py::buffer_info info;
    const void* data;
    uint64_t size;
};

inline bool IsLittleEndianHost() {
    const uint16_t probe = 1;
    unsigned char first;
    std::memcpy(&first, &probe, 1);
    return first == 1;
}

/// True when a buffer-protocol format string states a byte order other than the host's for items
/// wider than a byte ('>' or '!' on a little-endian host, '<' on a big-endian one).
inline bool FormatIsForeignOrder(const std::string& format, py::ssize_t itemsize) {
    if (itemsize <= 1) return false;
    const bool little = IsLittleEndianHost();
    for (char c : format)
        if (c == '!' || c == (little ? '>' : '<')) return true;
    return false;
}

/// Contiguous bytes of `h` for the GPU (D3D12 data is little-endian, as every host D3D12 runs on):
/// - TypeError: not a buffer-protocol object;
/// - InvalidArgumentError: items holding Python objects, a dtype the buffer protocol cannot export
///   (numpy's datetime64/timedelta64: view them as int64 first), or a non-C-contiguous array;
/// - an array of the other byte order (numpy '>u4', or a buffer whose format says so) is converted
///   to the host's order (a copy; values are kept, never the raw bytes).
inline Bytes GetBytes(py::handle h, const char* what) {
    if (!PyObject_CheckBuffer(h.ptr()))
        throw py::type_error(std::string(what) + ": expected a numpy array or bytes-like object, not " + detail::TypeName(h));
    py::object obj = py::reinterpret_borrow<py::object>(h);
    auto request = [&](const py::object& o) {
        try {
            return py::reinterpret_borrow<py::buffer>(o).request();
        } catch (py::error_already_set& e) {
            if (!e.matches(PyExc_ValueError) && !e.matches(PyExc_TypeError) && !e.matches(PyExc_BufferError)) throw;
            std::string kind = py::isinstance<py::array>(o)
                                   ? "an array of dtype " + std::string(py::str(py::reinterpret_borrow<py::array>(o).dtype()))
                                   : "a " + detail::TypeName(o);
            throw InvalidArgument(std::string(what) + ": cannot take the bytes of " + kind + " (" + e.what() +
                                  "); give plain numeric data (e.g. datetime64 as array.view(numpy.int64))");
        }
    };
    py::buffer_info info = request(obj);
    RefuseObjects(obj, info.format.c_str(), what);
    // C-contiguity check
    py::ssize_t expect = info.itemsize;
    for (py::ssize_t d = info.ndim - 1; d >= 0; --d) {
        if (info.shape[d] != 1 && info.strides[d] != expect)
            throw InvalidArgument(std::string(what) + ": the array is not C-contiguous (use numpy.ascontiguousarray)");
        expect *= info.shape[d];
    }
    bool foreign;
    if (py::isinstance<py::array>(obj)) foreign = !py::reinterpret_borrow<py::array>(obj).dtype().attr("isnative").cast<bool>();
    else foreign = FormatIsForeignOrder(info.format, info.itemsize);
    py::object keep;
    if (foreign) {
        // Values in the host's byte order: numpy converts item by item (structured dtypes field by field).
        py::module_ np = py::module_::import("numpy");
        py::object arr;
        try {
            arr = np.attr("asarray")(obj);
        } catch (py::error_already_set& e) {
            throw InvalidArgument(std::string(what) + ": the buffer's items are in the other byte order (format '" + info.format +
                                  "') and numpy cannot convert them (" + e.what() + ")");
        }
        py::object native = arr.attr("dtype").attr("newbyteorder")("=");
        // Zeroed first, then filled value by value: a structured dtype's padding bytes, which
        // astype would leave as whatever the allocator held, are zeros (never stale memory).
        keep = np.attr("zeros")(arr.attr("shape"), native);
        np.attr("copyto")(keep, arr);
        info = request(keep);
    }
    const uint64_t size = uint64_t(info.size) * info.itemsize;
    const void* data = info.ptr;
    return Bytes{std::move(keep), std::move(info), data, size};
}

/// The layout of the host array of subresource `mip` of `tex` (the core's: dx12kit/devicecontext/TexelArray.hpp).
inline TexelArrayLayout ArrayLayout(const Texture& tex, const FormatInfo& fi, uint32_t mip) {
    return SubresourceArrayLayout(fi, tex.Width(mip), tex.Height(mip), tex.Depth(mip), tex.Is3D());
}

/// The numpy dtype of a layout's elements (float16, float32, uint8, ..., int32).
inline py::dtype DtypeFor(const TexelArrayLayout& l) {
    return py::dtype(std::string(1, l.elementKind) + std::to_string(l.elementBytes));
}
/// The numpy dtype of the texels of format `fi` (the element type depends on the format alone).
inline py::dtype DtypeFor(const FormatInfo& fi) {
    return DtypeFor(SubresourceArrayLayout(fi, 1, 1, 1, false));
}

/// What read_texture returns and Texture.shape says for `mip`: (height, width, channels), with depth
/// first for 3D; for a block-compressed format (block rows, blocks per row, bytes per block).
inline py::tuple TextureShape(const TexelArrayLayout& l) {
    py::tuple shape(l.ndim);
    for (uint32_t d = 0; d < l.ndim; ++d) shape[d] = py::int_(l.shape[d]);
    return shape;
}
inline py::tuple TextureShape(const Texture& tex, const FormatInfo& fi, uint32_t mip) {
    return TextureShape(ArrayLayout(tex, fi, mip));
}

inline void CheckTextureArray(const Texture& tex, const Bytes& b, uint32_t mip) {
    const FormatInfo& fi = RequireTextureFormat(tex.ViewFormat(), "upload");
    const auto& info = b.info;
    // Raw bytes (bytes, bytearray, 1-D uint8): the subresource's tightly packed rows, as a file holds
    // them; block-compressed formats take their blocks in any shape. CommandList::Upload checks the count.
    if (fi.IsBlock() || (info.ndim == 1 && info.itemsize == 1)) return;
    const uint32_t w = tex.Width(mip), h = tex.Height(mip);
    const uint32_t comp = fi.bytesPerTexel / fi.channels;
    std::string want = "(" + std::to_string(h) + ", " + std::to_string(w) + ", " + std::to_string(fi.channels) + ")";
    bool ok =
        info.ndim >= 2 && info.shape[0] == h && info.shape[1] == w &&
        ((info.ndim == 3 && info.shape[2] == fi.channels && uint32_t(info.itemsize) == comp) ||
         (info.ndim == 2 && uint32_t(info.itemsize) == fi.bytesPerTexel) || (info.ndim == 2 && fi.channels == 1 && uint32_t(info.itemsize) == comp));
    if (tex.Is3D()) {  // (depth, height, width, channels), or (depth, height, width) for whole texels / one channel
        const uint32_t dz = tex.Depth(mip);
        want = "(" + std::to_string(dz) + ", " + std::to_string(h) + ", " + std::to_string(w) + ", " + std::to_string(fi.channels) + ")";
        ok = info.ndim >= 3 && info.shape[0] == dz && info.shape[1] == h && info.shape[2] == w &&
             ((info.ndim == 4 && info.shape[3] == fi.channels && uint32_t(info.itemsize) == comp) ||
              (info.ndim == 3 && uint32_t(info.itemsize) == fi.bytesPerTexel) ||
              (info.ndim == 3 && fi.channels == 1 && uint32_t(info.itemsize) == comp));
    }
    if (!ok) {
        std::string got = "(";
        for (py::ssize_t d = 0; d < info.ndim; ++d) got += (d ? ", " : "") + std::to_string(info.shape[d]);
        got += ") with " + std::to_string(info.itemsize) + "-byte items";
        throw InvalidArgument("upload: resource '" + tex.Name() + "' mip " + std::to_string(mip) + " (" + fi.name + ") needs an array of shape " +
                              want + " with " + std::to_string(comp) + "-byte items, got " + got);
    }
}

/// A Python float as a 32-bit constant's bits. A finite value float32 cannot hold (|x| > 3.4028235e38)
/// is refused: storing +/-inf would be a different number (inf and nan given as such stay).
inline uint32_t Float32Bits(double d, const char* what) {
    const float f = static_cast<float>(d);
    if (std::isinf(f) && std::isfinite(d)) {
        char value[32];
        std::snprintf(value, sizeof value, "%.6g", d);
        throw InvalidArgument(std::string(what) + ": value " + value + " is out of float32 range (|x| <= 3.4028235e38); root constants are 32-bit");
    }
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

/// A numpy array or scalar given as 32-bit constants, converted by value: float16/float64 to float32,
/// other integer widths to int32/uint32 (refused when a value does not fit), bool to 0/1. Their raw
/// bytes would be wrong constants (a float64 1.5 sent as two DWORDs reads as 0 and 1.9375 in the
/// shader). Other kinds (complex, datetime, strings, structured) are refused. Non-numpy buffers
/// (bytes, bytearray, memoryview) stay raw bytes.
inline py::object DwordArray(py::handle values, const char* what) {
    // set_constants runs per draw: the common inputs leave before any numpy attribute lookup. A list
    // or tuple is no buffer; a C-order float32/int32/uint32 array in the host's order goes on as it is.
    const bool isArray = py::isinstance<py::array>(values);
    if (!isArray && !PyObject_CheckBuffer(values.ptr())) return py::reinterpret_borrow<py::object>(values);
    if (isArray) {
        const py::dtype dt = py::reinterpret_borrow<py::array>(values).dtype();
        const char k = dt.kind(), order = dt.byteorder();
        if ((k == 'f' || k == 'i' || k == 'u') && dt.itemsize() == 4 && (order == '=' || order == '|' || order == (IsLittleEndianHost() ? '<' : '>')))
            return py::reinterpret_borrow<py::object>(values);
    }
    py::module_ np = py::module_::import("numpy");
    if (!isArray && !py::isinstance(values, np.attr("generic"))) return py::reinterpret_borrow<py::object>(values);
    py::object arr = np.attr("asarray")(values);
    py::object dt = arr.attr("dtype");
    const std::string kind = py::str(dt.attr("kind"));
    // Objects, datetimes and structured items go on as they are: GetBytes refuses the first two with
    // their own message, and a structured array's bytes are what the caller laid out.
    if (kind == "O" || kind == "M" || kind == "m" || kind == "V") return py::reinterpret_borrow<py::object>(values);
    const int itemsize = dt.attr("itemsize").cast<int>();
    const bool native = dt.attr("isnative").cast<bool>();
    if ((kind == "f" || kind == "i" || kind == "u") && itemsize == 4 && native) return arr;
    if (kind == "f") {
        // float64/float16 values by value; a finite one float32 cannot hold would become inf.
        // (Checked before the cast: 2**128 - 2**103 is the smallest magnitude that rounds to inf.)
        const bool lost = itemsize > 4 && np.attr("any")(np.attr("logical_and")(np.attr("isfinite")(arr),
                                                                                np.attr("greater_equal")(np.attr("abs")(arr), 3.4028235677973366e38)))
                                              .cast<bool>();
        if (lost)
            throw InvalidArgument(std::string(what) + ": a value of the " + std::string(py::str(dt)) +
                                  " array is out of float32 range (|x| <= 3.4028235e38); root constants are 32-bit");
        return arr.attr("astype")(np.attr("float32"));
    }
    if (kind == "b") return arr.attr("astype")(np.attr("uint32"));
    if (kind == "i" || kind == "u") {
        const char* target = kind == "i" ? "int32" : "uint32";
        if (arr.attr("size").cast<py::ssize_t>() > 0) {
            py::object info = np.attr("iinfo")(np.attr(target));
            const bool fits =
                np.attr("all")(np.attr("logical_and")(np.attr("greater_equal")(arr, info.attr("min")), np.attr("less_equal")(arr, info.attr("max"))))
                    .cast<bool>();
            if (!fits)
                throw InvalidArgument(std::string(what) + ": a value of the " + std::string(py::str(dt)) + " array does not fit " + target +
                                      " (root constants are 32-bit)");
        }
        return arr.attr("astype")(np.attr(target));
    }
    throw InvalidArgument(std::string(what) + ": values of dtype " + std::string(py::str(dt)) +
                          " cannot be 32-bit constants (give float32, int32 or uint32 values; other numeric dtypes are converted)");
}

inline std::vector<uint32_t> Dwords(py::handle valuesIn, const char* what) {
    std::vector<uint32_t> out;
    py::object converted = DwordArray(valuesIn, what);
    py::handle values = converted;
    if (PyObject_CheckBuffer(values.ptr())) {
        Bytes b = GetBytes(values, what);
        if (b.size % 4)
            throw InvalidArgument(std::string(what) + ": values must be 32-bit (size " + std::to_string(b.size) + " bytes is not a multiple of 4)");
        out.resize(b.size / 4);
        std::memcpy(out.data(), b.data, b.size);
        return out;
    }
    if (!py::isinstance<py::iterable>(values))
        throw py::type_error(std::string(what) + ": values must be a numpy array, bytes or a list of ints/floats, not " + detail::TypeName(values));
    for (py::handle v : values) {
        if (py::isinstance<py::float_>(v)) {
            out.push_back(Float32Bits(v.cast<double>(), what));
        } else if (py::isinstance<py::int_>(v)) {
            // A signed (int32) or unsigned (uint32) DWORD: -2**31 .. 2**32-1.
            const long long i = detail::Ranged(v, what, "values item", INT32_MIN, UINT32_MAX);
            out.push_back(static_cast<uint32_t>(i));
        } else if (PyIndex_Check(v.ptr())) {
            // numpy integer scalars (np.uint32(7), ...): their int value, ranged as an int's.
            out.push_back(static_cast<uint32_t>(detail::Ranged(v, what, "values item", INT32_MIN, UINT32_MAX)));
        } else if (py::isinstance(v, py::module_::import("numpy").attr("floating"))) {
            // numpy float scalars (np.float32(1.0), ...) as a float's float32 bits.
            out.push_back(Float32Bits(py::float_(py::reinterpret_borrow<py::object>(v)).cast<double>(), what));
        } else {
            throw py::type_error(std::string(what) + ": values must be ints or floats (Python or numpy scalars), not " + detail::TypeName(v));
        }
    }
    return out;
}

/// Refuses a dtype in the other byte order for arrays that receive or view raw GPU bytes (read_buffer,
/// Buffer.map, UploadAllocation.array): those bytes are little-endian, and a '>u4' view would read
/// or write every value byte-swapped.
inline void RefuseForeignOrder(const py::dtype& dt, const char* what) {
    if (dt.attr("isnative").cast<bool>()) return;
    throw InvalidArgument(std::string(what) + ": dtype " + std::string(py::repr(dt)) +
                          " is not in the host's byte order, but GPU memory holds little-endian data; use " +
                          std::string(py::repr(dt.attr("newbyteorder")("="))) + " and convert with .astype() afterwards");
}

/// A numpy dtype with a fixed, non-zero item size (not 'S', 'U' or 'V' without a size).
/// Also refuses dtypes holding Python objects (object, or structured with object fields): raw
/// GPU bytes must never be read as PyObject pointers; and dtypes in the other byte order.
inline py::dtype FixedSizeDtype(const py::object& dtype, const char* what) {
    py::dtype dt;
    try {
        dt = py::dtype::from_args(dtype);
    } catch (py::error_already_set& e) {
        if (!e.matches(PyExc_TypeError) && !e.matches(PyExc_ValueError)) throw;
        throw py::type_error(std::string(what) + ": dtype " + std::string(py::repr(dtype)) + " is not a numpy dtype (" + e.what() + ")");
    }
    if (dt.itemsize() <= 0) throw InvalidArgument(std::string(what) + ": dtype " + std::string(py::str(dt)) + " has no fixed item size");
    if (dt.kind() == 'M' || dt.kind() == 'm')
        throw InvalidArgument(std::string(what) + ": dtype " + std::string(py::str(dt)) +
                              " (datetime/timedelta) is not GPU data; read as numpy.int64 and view it as " + std::string(py::str(dt)) +
                              " afterwards");
    if (dt.attr("hasobject").cast<bool>())
        throw InvalidArgument(std::string(what) + ": dtype " + std::string(py::str(dt)) +
                              " holds Python objects; raw GPU bytes can only be viewed as plain numeric dtypes");
    RefuseForeignOrder(dt, what);
    return dt;
}

/// A new, writable, C-contiguous numpy array (numpy.empty), to be overwritten whole by the caller.
/// Arrays of host::HostBlocks::kMinBytes or more take recycled blocks (HostBlocks.hpp: the pages of
/// a fresh allocation fault and are zeroed by the kernel on first write, as long as the copy).
inline py::array NewArray(const py::dtype& dtype, const py::tuple& shape) {
    size_t count = 1;
    for (py::handle d : shape) count *= d.cast<size_t>();
    const size_t bytes = count * static_cast<size_t>(dtype.itemsize());
    if (bytes < host::HostBlocks::kMinBytes) return py::module_::import("numpy").attr("empty")(shape, dtype).cast<py::array>();
    struct Block {
        void* data;
        size_t capacity;
    };
    auto* block = new Block{nullptr, 0};
    block->data = host::HostBlocks::Take(bytes, block->capacity);
    py::capsule owner(block, [](void* p) {
        auto* b = static_cast<Block*>(p);
        host::HostBlocks::Give(b->data, b->capacity);
        delete b;
    });
    std::vector<py::ssize_t> dims;
    for (py::handle d : shape) dims.push_back(d.cast<py::ssize_t>());
    return py::array(dtype, dims, block->data, owner);
}

/// A D3D12_RESOURCE_STATES argument (a dx12kit.ResourceState or an int) for resource `r`. Bits outside
/// D3D12_RESOURCE_STATES are refused here, before the value becomes the enum type: an enum value
/// outside the enum's range is undefined behaviour (UBSan: "not a valid value for type").
/// A member of some enum other than `expected` (by class name) given where `expected`'s bits or a
/// plain int belong: TypeError, since another enum's bits mean something else
/// (DescriptorRangeFlags.DATA_STATIC and RootSignatureFlags.DENY_HULL_SHADER_ROOT_ACCESS are both 0x8).
inline void RefuseOtherEnum(py::handle h, const char* expected, const char* fn, const char* arg) {
    if (!PyLong_Check(h.ptr()) || PyLong_CheckExact(h.ptr()) || PyBool_Check(h.ptr())) return;
    // The expected class (the common case: a ResourceState member per transition) costs one string
    // compare of the type's name, no attribute lookups or imports.
    const char* tpName = Py_TYPE(h.ptr())->tp_name;
    const char* dot = std::strrchr(tpName, '.');
    const std::string type = dot ? dot + 1 : tpName;
    if (type != expected && py::isinstance(h, py::module_::import("enum").attr("Enum")))
        throw py::type_error(std::string(fn) + ": " + arg + " must be " + expected + " flags or an int, not a " + type +
                             " member (its bits mean something else)");
}

/// Flag bits of the enum `expected` (or a plain int); see RefuseOtherEnum.
inline uint32_t FlagsArg(py::handle h, const char* expected, const char* fn, const char* arg) {
    RefuseOtherEnum(h, expected, fn, arg);
    return U32(h, fn, arg);
}

/// D3D12_RESOURCE_STATES by name (the ResourceState enum's members, BindResource.cpp), for state
/// arguments given as strings.
inline constexpr std::pair<const char*, uint32_t> kStateNames[] = {
    {"COMMON", D3D12_RESOURCE_STATE_COMMON},
    {"VERTEX_AND_CONSTANT_BUFFER", D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER},
    {"INDEX_BUFFER", D3D12_RESOURCE_STATE_INDEX_BUFFER},
    {"RENDER_TARGET", D3D12_RESOURCE_STATE_RENDER_TARGET},
    {"UNORDERED_ACCESS", D3D12_RESOURCE_STATE_UNORDERED_ACCESS},
    {"DEPTH_WRITE", D3D12_RESOURCE_STATE_DEPTH_WRITE},
    {"DEPTH_READ", D3D12_RESOURCE_STATE_DEPTH_READ},
    {"NON_PIXEL_SHADER_RESOURCE", D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE},
    {"PIXEL_SHADER_RESOURCE", D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE},
    {"STREAM_OUT", D3D12_RESOURCE_STATE_STREAM_OUT},
    {"INDIRECT_ARGUMENT", D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT},
    {"COPY_DEST", D3D12_RESOURCE_STATE_COPY_DEST},
    {"COPY_SOURCE", D3D12_RESOURCE_STATE_COPY_SOURCE},
    {"RESOLVE_DEST", D3D12_RESOURCE_STATE_RESOLVE_DEST},
    {"RESOLVE_SOURCE", D3D12_RESOURCE_STATE_RESOLVE_SOURCE},
    {"GENERIC_READ", D3D12_RESOURCE_STATE_GENERIC_READ},
    // D3D12's other names for the same bits (D3D12_RESOURCE_STATE_PRESENT, _PREDICATION).
    {"PRESENT", D3D12_RESOURCE_STATE_COMMON},
    {"PREDICATION", D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT},
};

/// A state name ("pixel_shader_resource", "COPY_SOURCE|PIXEL_SHADER_RESOURCE", with or without the
/// D3D12_RESOURCE_STATE_ prefix, any case) as its bits.
inline uint32_t StateFromName(const std::string& text, const char* fn, const char* arg) {
    uint32_t bits = 0;
    size_t start = 0;
    for (;;) {
        const size_t bar = text.find('|', start);
        std::string part = text.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
        std::string key;
        for (char ch : part)
            if (!std::isspace(static_cast<unsigned char>(ch))) key += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        if (key.rfind("D3D12_RESOURCE_STATE_", 0) == 0) key.erase(0, 21);
        if (key.empty())
            throw InvalidArgument(std::string(fn) + ": " + arg + " '" + text +
                                  "' has an empty state name (names joined by '|', e.g. "
                                  "'copy_source|pixel_shader_resource')");
        bool found = false;
        for (const auto& [name, value] : kStateNames)
            if (key == name) bits |= value, found = true;
        if (!found) {
            std::string names;
            std::vector<std::string> known;
            for (const auto& [name, value] : kStateNames) names += std::string(names.empty() ? "" : ", ") + name, known.emplace_back(name);
            throw InvalidArgument(std::string(fn) + ": " + arg + " '" + part + "' is not a resource state (names, any case, joined by '|': " + names +
                                  ")" + DidYouMean(key, known));
        }
        if (bar == std::string::npos) return bits;
        start = bar + 1;
    }
}

/// A resource-state argument: a ResourceState, an int of D3D12_RESOURCE_STATES bits, or a state name.
/// A member of another flag enum (RootSignatureFlags, ...) is refused: its bits mean something else.
inline D3D12_RESOURCE_STATES StateArg(py::handle h, const char* fn, const char* arg, const Resource& r) {
    uint32_t v = 0;
    if (py::isinstance<py::str>(h)) {
        v = StateFromName(h.cast<std::string>(), fn, arg);
    } else {
        v = FlagsArg(h, "ResourceState", fn, arg);
    }
    if (v & ~d3d12rules::kKnownStateBits) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%X", v);
        throw InvalidArgument(std::string(fn) + ": " + arg + " " + hex + " for '" + r.Name() + "' has bits outside D3D12_RESOURCE_STATES");
    }
    return static_cast<D3D12_RESOURCE_STATES>(v);
}

inline std::shared_ptr<Resource> AsResource(py::handle h, const char* what) {
    if (h.is_none()) throw py::type_error(std::string(what) + ": None is not a resource");
    if (!py::isinstance<Resource>(h)) throw py::type_error(std::string(what) + ": expected a dx12kit Buffer or Texture, not " + detail::TypeName(h));
    return h.cast<std::shared_ptr<Resource>>();
}

/// set_unordered_access_view's arguments after root_index and descriptor_offset, as CommandList and Bundle take
/// them: the resource, its mip (textures) and the buffer view with its counter.
struct UavArguments {
    std::shared_ptr<Resource> resource;
    uint32_t mip = 0;
    BufferViewArgs view;
};
inline UavArguments ParseUavArguments(py::handle r, py::handle mip, py::handle format, py::handle stride, py::handle raw, py::handle first,
                                      py::handle num, py::handle counter, const Int& counterOffset) {
    const char* fn = "set_unordered_access_view";
    UavArguments a;
    a.resource = AsResource(r, fn);
    a.view = BufferViewArguments(stride, raw, first, num, fn);
    if (!counter.is_none()) a.view.counter = AsResource(counter, fn);
    a.view.counterOffset = U64(counterOffset, fn, "counter_offset");
    // A texture's format= is refused by the core (SetUnorderedAccessView), whatever format it names.
    if (!format.is_none()) a.view.format = a.resource->IsBuffer() ? ParseBufferFormat(format, fn) : ParseFormat(format, fn);
    if (a.resource->IsBuffer() && !mip.is_none())
        throw InvalidArgument("set_unordered_access_view: resource '" + a.resource->Name() + "' is a buffer; mip= applies to textures");
    if (!mip.is_none()) a.mip = U32(mip, fn, "mip");
    return a;
}

/// The keys of FormatSupport as a mapping, in the order.
inline py::list FormatSupportKeys() {
    py::list keys;
    for (const char* k : {"buffer", "texture2d", "texture3d", "texture_cube", "shader_load", "shader_sample", "render_target", "blendable",
                          "depth_stencil", "typed_uav", "uav_typed_load", "uav_typed_store", "mip_autogen", "msaa"})
        keys.append(k);
    return keys;
}

inline py::dict FormatSupportDict(const FormatCapabilities& v) {
    return py::dict("buffer"_a = v.buffer, "texture2d"_a = v.texture2d, "texture3d"_a = v.texture3d, "texture_cube"_a = v.texture_cube,
                    "shader_load"_a = v.shader_load, "shader_sample"_a = v.shader_sample, "render_target"_a = v.render_target,
                    "blendable"_a = v.blendable, "depth_stencil"_a = v.depth_stencil, "typed_uav"_a = v.typed_uav,
                    "uav_typed_load"_a = v.uav_typed_load, "uav_typed_store"_a = v.uav_typed_store, "mip_autogen"_a = v.mip_autogen,
                    "msaa"_a = v.msaa);
}

/// An index argument where None means every one (`all`: CommandList::kAllSlices, kAllMips); `all` itself
/// is out of range. The clears' and discard_resource's mip / array_slice.
inline uint32_t IndexOrAll(py::handle value, uint32_t all, const char* fn, const char* name) {
    if (value.is_none()) return all;
    const uint32_t v = U32(value, fn, name);
    if (v == all) throw InvalidArgument(std::string(fn) + ": " + name + " " + std::to_string(v) + " out of range");
    return v;
}

/// Four floats from a sequence of 4 numbers (an RGBA colour, a blend factor): TypeError for anything
/// else, InvalidArgumentError for another length or a value F32 refuses.
inline std::array<float, 4> Rgba4(py::handle obj, const char* fn) {
    if (!py::isinstance<py::sequence>(obj) || py::isinstance<py::str>(obj))
        throw py::type_error(std::string(fn) + ": rgba must be a sequence of 4 numbers, not " + detail::TypeName(obj));
    const auto seq = py::reinterpret_borrow<py::sequence>(obj);
    if (py::len(seq) != 4) throw InvalidArgument(std::string(fn) + ": rgba needs 4 values, got " + std::to_string(py::len(seq)));
    std::array<float, 4> rgba;
    for (int i = 0; i < 4; ++i) rgba[i] = F32(seq[i], fn, "rgba item");
    return rgba;
}

}  // namespace dx12kit::bindings

namespace pybind11::detail {

// Any object loads (ParseBorderColorArg checks it and names the argument); the signature names both forms.
template <>
struct type_caster<dx12kit::bindings::BorderColorArg> {
    PYBIND11_TYPE_CASTER(dx12kit::bindings::BorderColorArg, const_name("dx12kit.enums.BorderColor | tuple[float, float, float, float]"));
    bool load(handle src, bool) {
        if (!src) return false;
        value.value = src;
        return true;
    }
    static handle cast(const dx12kit::bindings::BorderColorArg& v, return_value_policy, handle) { return v.value.inc_ref(); }
};

}  // namespace pybind11::detail
