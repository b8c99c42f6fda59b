// Bindings of the D3D12 layer: Device, CommandQueue, CommandList, resources, pipelines.
// Only conversions live here (strings -> enums, numpy <-> bytes); behaviour is in cpp/src/.
#include "Args.hpp"
#include "Bindings.hpp"

#include "dx12kit/core/Errors.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/resources/FormatSupport.hpp"
#include "dx12kit/resources/Formats.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <optional>
#include <string>

namespace py = pybind11;
using namespace py::literals;

namespace dx12kit::bindings {

namespace {

std::string Lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string FormatNames() {
    size_t n;
    const FormatInfo* all = AllFormats(n);
    std::string s;
    for (size_t i = 0; i < n; ++i) s += (i ? ", " : "") + std::string(all[i].name);
    return s;
}

DXGI_FORMAT ParseFormat(py::handle h, const char* what) {
    if (py::isinstance<py::str>(h)) {
        const std::string name = Lower(Str(h, what, "format"));
        if (const FormatInfo* f = FindFormat(name.c_str())) return f->format;
        throw InvalidArgument(std::string(what) + ": unsupported format '" + name + "'; supported: " + FormatNames());
    }
    if (PyIndex_Check(h.ptr())) {  // dx12kit.Format (an IntEnum) or a plain int
        py::int_ v = detail::Index(h, what, "format");
        int overflow = 0;
        const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
        if (overflow == 0 && x > 0 && x <= INT32_MAX)
            if (const FormatInfo* f = FindFormat(static_cast<DXGI_FORMAT>(x))) return f->format;
        throw InvalidArgument(std::string(what) + ": unsupported format " + std::string(py::str(v)) + "; supported: " + FormatNames());
    }
    throw py::type_error(std::string(what) + ": a format is a str such as 'rgba8_unorm' or a dx12kit.Format, not " + detail::TypeName(h));
}

/// The one parser of enum-like choices ("what" names the function and argument, e.g.
/// "create_sampler: filter"). Accepts the documented (case-insensitive) strings and the members of
/// the matching dx12kit.enums enum (str-valued; python/dx12kit/enums.py); with `ints`, also
/// an int (or IntEnum) equal to the value of one of the choices (the D3D12 enum value). Anything
/// else: InvalidArgument for an unknown str or int, TypeError for another type.
template <typename T>
T ParseChoice(py::handle hArg, const char* what, std::initializer_list<std::pair<const char*, T>> choices, bool ints = true) {
    // dx12kit.enums members are str subclasses and pass as strings; a plain enum.Enum member with a
    // str value passes as its value.
    py::object h = py::reinterpret_borrow<py::object>(hArg);
    if (h && !py::isinstance<py::str>(h) && !PyIndex_Check(h.ptr()) && py::hasattr(h, "value") && py::isinstance<py::str>(h.attr("value")))
        h = h.attr("value");
    std::string names;
    for (const auto& c : choices) names += (names.empty() ? "" : ", ") + std::string(c.first);
    if (!py::isinstance<py::str>(h)) {
        if (PyIndex_Check(h.ptr()) && !py::isinstance<py::float_>(h)) {
            py::int_ v = detail::Index(h, what, "value");
            int overflow = 0;
            const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
            if (ints && overflow == 0)
                for (const auto& c : choices)
                    if (static_cast<long long>(c.second) == x) return c.second;
            throw InvalidArgument(std::string(what) + ": " + std::string(py::str(v)) + " is not " +
                                  (ints ? "the value of one of " : "one of ") + names);
        }
        throw py::type_error(std::string(what) + ": expected a str (one of " + names + "), not " + detail::TypeName(h));
    }
    const std::string s = Lower(Str(h, what, "value"));
    for (const auto& c : choices)
        if (s == c.first) return c.second;
    throw InvalidArgument(std::string(what) + ": '" + s + "' is not one of " + names);
}

D3D12_SHADER_VISIBILITY ParseVisibility(py::handle h, const std::string& fn) {
    return ParseChoice<D3D12_SHADER_VISIBILITY>(h, (fn + ": visibility").c_str(),
                                                {{"all", D3D12_SHADER_VISIBILITY_ALL}, {"vertex", D3D12_SHADER_VISIBILITY_VERTEX},
                                                 {"pixel", D3D12_SHADER_VISIBILITY_PIXEL}, {"vs", D3D12_SHADER_VISIBILITY_VERTEX},
                                                 {"ps", D3D12_SHADER_VISIBILITY_PIXEL}, {"hull", D3D12_SHADER_VISIBILITY_HULL},
                                                 {"domain", D3D12_SHADER_VISIBILITY_DOMAIN}, {"geometry", D3D12_SHADER_VISIBILITY_GEOMETRY}});
}

D3D12_FILTER ParseFilter(py::handle h, const std::string& fn) {
    return ParseChoice<D3D12_FILTER>(h, (fn + ": filter").c_str(),
                                     {{"point", D3D12_FILTER_MIN_MAG_MIP_POINT}, {"linear", D3D12_FILTER_MIN_MAG_MIP_LINEAR},
                                      {"bilinear", D3D12_FILTER_MIN_MAG_LINEAR_MIP_POINT}, {"anisotropic", D3D12_FILTER_ANISOTROPIC},
// The D3D12_FILTER names without the prefix, lower case (the root-signature language's FILTER_* values).
#define DX12KIT_FILTERS(P, N) {N "min_mag_mip_point", D3D12_FILTER_##P##MIN_MAG_MIP_POINT}, \
    {N "min_mag_point_mip_linear", D3D12_FILTER_##P##MIN_MAG_POINT_MIP_LINEAR}, \
    {N "min_point_mag_linear_mip_point", D3D12_FILTER_##P##MIN_POINT_MAG_LINEAR_MIP_POINT}, \
    {N "min_point_mag_mip_linear", D3D12_FILTER_##P##MIN_POINT_MAG_MIP_LINEAR}, \
    {N "min_linear_mag_mip_point", D3D12_FILTER_##P##MIN_LINEAR_MAG_MIP_POINT}, \
    {N "min_linear_mag_point_mip_linear", D3D12_FILTER_##P##MIN_LINEAR_MAG_POINT_MIP_LINEAR}, \
    {N "min_mag_linear_mip_point", D3D12_FILTER_##P##MIN_MAG_LINEAR_MIP_POINT}, \
    {N "min_mag_mip_linear", D3D12_FILTER_##P##MIN_MAG_MIP_LINEAR}
                                      DX12KIT_FILTERS(, ""), DX12KIT_FILTERS(COMPARISON_, "comparison_"),
                                      DX12KIT_FILTERS(MINIMUM_, "minimum_"), DX12KIT_FILTERS(MAXIMUM_, "maximum_"),
#undef DX12KIT_FILTERS
                                      {"comparison_anisotropic", D3D12_FILTER_COMPARISON_ANISOTROPIC},
                                      {"minimum_anisotropic", D3D12_FILTER_MINIMUM_ANISOTROPIC},
                                      {"maximum_anisotropic", D3D12_FILTER_MAXIMUM_ANISOTROPIC}});
}

D3D12_TEXTURE_ADDRESS_MODE ParseAddress(py::handle h, const std::string& fn) {
    return ParseChoice<D3D12_TEXTURE_ADDRESS_MODE>(h, (fn + ": address").c_str(),
                                                   {{"clamp", D3D12_TEXTURE_ADDRESS_MODE_CLAMP}, {"wrap", D3D12_TEXTURE_ADDRESS_MODE_WRAP},
                                                    {"mirror", D3D12_TEXTURE_ADDRESS_MODE_MIRROR}, {"border", D3D12_TEXTURE_ADDRESS_MODE_BORDER},
                                                    {"mirror_once", D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE}});
}

D3D12_COMPARISON_FUNC ParseComparison(py::handle h, const std::string& fn) {
    return ParseChoice<D3D12_COMPARISON_FUNC>(h, (fn + ": comparison").c_str(),
                                              {{"never", D3D12_COMPARISON_FUNC_NEVER}, {"less", D3D12_COMPARISON_FUNC_LESS},
                                               {"equal", D3D12_COMPARISON_FUNC_EQUAL}, {"less_equal", D3D12_COMPARISON_FUNC_LESS_EQUAL},
                                               {"greater", D3D12_COMPARISON_FUNC_GREATER}, {"not_equal", D3D12_COMPARISON_FUNC_NOT_EQUAL},
                                               {"greater_equal", D3D12_COMPARISON_FUNC_GREATER_EQUAL}, {"always", D3D12_COMPARISON_FUNC_ALWAYS}});
}

D3D12_STATIC_BORDER_COLOR ParseBorderColor(py::handle h, const std::string& fn) {
    return ParseChoice<D3D12_STATIC_BORDER_COLOR>(h, (fn + ": border_color").c_str(),
                                                  {{"transparent_black", D3D12_STATIC_BORDER_COLOR_TRANSPARENT_BLACK},
                                                   {"opaque_black", D3D12_STATIC_BORDER_COLOR_OPAQUE_BLACK},
                                                   {"opaque_white", D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE}});
}

/// D3D12_DESCRIPTOR_RANGE_FLAGS / D3D12_ROOT_DESCRIPTOR_FLAGS bits (root signature 1.1).
uint32_t CheckFlags(uint32_t flags, uint32_t allowed, const char* what) {
    if (flags & ~allowed) throw InvalidArgument(std::string(what) + ": flags " + std::to_string(flags) + " has bits outside " + std::to_string(allowed));
    return flags;
}
constexpr uint32_t kRangeFlags = 0x1 | 0x2 | 0x4 | 0x8 | 0x10000;  // DESCRIPTORS_VOLATILE .. DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS
constexpr uint32_t kRootDescriptorFlags = 0x2 | 0x4 | 0x8;        // DATA_VOLATILE, DATA_STATIC_WHILE_SET_AT_EXECUTE, DATA_STATIC
constexpr uint32_t kRootSignatureFlags = 0x7F;                    // ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT .. ALLOW_STREAM_OUTPUT

/// A timeout argument in seconds: None (forever, -1) or a non-negative finite number.
double Timeout(const std::optional<double>& t, const char* what) {
    if (!t) return -1.0;
    if (!(*t >= 0.0) || *t > 1e9) throw InvalidArgument(std::string(what) + ": timeout must be None or seconds >= 0, got " + std::to_string(*t));
    return *t;
}

D3D12_COMMAND_LIST_TYPE ParseQueueKind(const std::string& kind) {
    const std::string k = Lower(kind);
    if (k == "direct" || k == "graphics") return D3D12_COMMAND_LIST_TYPE_DIRECT;
    if (k == "compute") return D3D12_COMMAND_LIST_TYPE_COMPUTE;
    if (k == "copy") return D3D12_COMMAND_LIST_TYPE_COPY;
    throw InvalidArgument("queue: kind must be 'direct', 'compute' or 'copy', not '" + kind + "'");
}

const char* QueueKindName(D3D12_COMMAND_LIST_TYPE t) {
    return t == D3D12_COMMAND_LIST_TYPE_DIRECT ? "direct" : t == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "compute" : "copy";
}

/// True when a buffer-protocol struct format holds a Python object ('O'), field names skipped
/// (numpy exposes a structured dtype as "T{<i:a:O:b:}").
bool FormatHasObject(const char* fmt) {
    for (bool name = false; fmt && *fmt; ++fmt) {
        if (*fmt == ':') name = !name;
        else if (!name && *fmt == 'O') return true;
    }
    return false;
}

/// Refuses arrays whose items hold Python objects: raw bytes must never become (or come from)
/// PyObject pointers. Numpy arrays are asked directly (dtype.hasobject), other buffers by format.
void RefuseObjects(py::handle h, const char* format, const char* what) {
    bool objects = format && FormatHasObject(format);
    if (!objects && py::isinstance<py::array>(h)) objects = py::reinterpret_borrow<py::array>(h).dtype().attr("hasobject").cast<bool>();
    if (objects)
        throw InvalidArgument(std::string(what) + ": the array holds Python objects (dtype object, or a structured dtype with object "
                              "fields); only plain numeric data can be copied to or from GPU memory");
}

/// The bytes of a DXBC blob: a dx12kit.Shader (its .bytecode) or a bytes-like object. A
/// non-contiguous buffer (a strided memoryview) is copied element by element in C order.
std::vector<uint8_t> Bytecode(py::handle h, const char* what) {
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

/// Contiguous bytes of any buffer-protocol object; InvalidArgument names `what` otherwise.
struct Bytes {
    py::buffer_info info;
    const void* data;
    uint64_t size;
};
Bytes GetBytes(py::handle h, const char* what) {
    if (!PyObject_CheckBuffer(h.ptr()))
        throw py::type_error(std::string(what) + ": expected a numpy array or bytes-like object, not " + detail::TypeName(h));
    py::buffer_info info = py::reinterpret_borrow<py::buffer>(h).request();
    RefuseObjects(h, info.format.c_str(), what);
    // C-contiguity check
    py::ssize_t expect = info.itemsize;
    for (py::ssize_t d = info.ndim - 1; d >= 0; --d) {
        if (info.shape[d] != 1 && info.strides[d] != expect)
            throw InvalidArgument(std::string(what) + ": the array is not C-contiguous (use numpy.ascontiguousarray)");
        expect *= info.shape[d];
    }
    const uint64_t size = uint64_t(info.size) * info.itemsize;
    const void* data = info.ptr;
    return Bytes{std::move(info), data, size};
}

py::dtype DtypeFor(const FormatInfo& fi) {
    const uint32_t comp = fi.bytesPerTexel / fi.channels;
    std::string code;
    switch (fi.componentKind) {
        case 'f': code = "float32"; break;
        case 'h': code = "float16"; break;
        case 'i': code = comp == 1 ? "int8" : comp == 2 ? "int16" : "int32"; break;
        default: code = comp == 1 ? "uint8" : comp == 2 ? "uint16" : "uint32"; break;
    }
    return py::dtype(code);
}

void CheckTextureArray(const Texture& tex, const Bytes& b, uint32_t mip) {
    const FormatInfo& fi = RequireFormat(tex.ViewFormat(), "upload");
    const auto& info = b.info;
    const uint32_t w = tex.Width(mip), h = tex.Height(mip);
    const uint32_t comp = fi.bytesPerTexel / fi.channels;
    std::string want = "(" + std::to_string(h) + ", " + std::to_string(w) + ", " + std::to_string(fi.channels) + ")";
    bool ok = info.ndim >= 2 && info.shape[0] == h && info.shape[1] == w &&
              ((info.ndim == 3 && info.shape[2] == fi.channels && uint32_t(info.itemsize) == comp) ||
               (info.ndim == 2 && uint32_t(info.itemsize) == fi.bytesPerTexel) ||
               (info.ndim == 2 && fi.channels == 1 && uint32_t(info.itemsize) == comp));
    if (!ok) {
        std::string got = "(";
        for (py::ssize_t d = 0; d < info.ndim; ++d) got += (d ? ", " : "") + std::to_string(info.shape[d]);
        got += ") with " + std::to_string(info.itemsize) + "-byte items";
        throw InvalidArgument("upload: resource '" + tex.Name() + "' mip " + std::to_string(mip) + " (" + fi.name + ") needs an array of shape " +
                              want + " with " + std::to_string(comp) + "-byte items, got " + got);
    }
}

std::vector<uint32_t> Dwords(py::handle values, const char* what) {
    std::vector<uint32_t> out;
    if (PyObject_CheckBuffer(values.ptr())) {
        Bytes b = GetBytes(values, what);
        if (b.size % 4) throw InvalidArgument(std::string(what) + ": values must be 32-bit (size " + std::to_string(b.size) + " bytes is not a multiple of 4)");
        out.resize(b.size / 4);
        std::memcpy(out.data(), b.data, b.size);
        return out;
    }
    if (!py::isinstance<py::iterable>(values))
        throw py::type_error(std::string(what) + ": values must be a numpy array, bytes or a list of ints/floats, not " + detail::TypeName(values));
    for (py::handle v : values) {
        if (py::isinstance<py::float_>(v)) {
            float f = v.cast<float>();
            uint32_t u;
            std::memcpy(&u, &f, 4);
            out.push_back(u);
        } else if (py::isinstance<py::int_>(v)) {
            // A signed (int32) or unsigned (uint32) DWORD: -2**31 .. 2**32-1.
            const long long i = detail::Ranged(v, what, "values item", INT32_MIN, UINT32_MAX);
            out.push_back(static_cast<uint32_t>(i));
        } else {
            throw py::type_error(std::string(what) + ": values must be ints or floats, not " + detail::TypeName(v));
        }
    }
    return out;
}

/// A numpy dtype with a fixed, non-zero item size (not 'S', 'U' or 'V' without a size).
/// Also refuses dtypes holding Python objects (object, or structured with object fields): raw
/// GPU bytes must never be read as PyObject pointers.
py::dtype FixedSizeDtype(const py::object& dtype, const char* what) {
    py::dtype dt;
    try {
        dt = py::dtype::from_args(dtype);
    } catch (py::error_already_set& e) {
        if (!e.matches(PyExc_TypeError) && !e.matches(PyExc_ValueError)) throw;
        throw py::type_error(std::string(what) + ": dtype " + std::string(py::repr(dtype)) + " is not a numpy dtype (" + e.what() + ")");
    }
    if (dt.itemsize() <= 0) throw InvalidArgument("dtype " + std::string(py::str(dt)) + " has no fixed item size");
    if (dt.attr("hasobject").cast<bool>())
        throw InvalidArgument(std::string(what) + ": dtype " + std::string(py::str(dt)) +
                              " holds Python objects; raw GPU bytes can only be viewed as plain numeric dtypes");
    return dt;
}

/// A new, writable, C-contiguous numpy array (numpy.empty).
py::array NewArray(const py::dtype& dtype, const py::tuple& shape) {
    return py::module_::import("numpy").attr("empty")(shape, dtype).cast<py::array>();
}

std::shared_ptr<Resource> AsResource(py::handle h, const char* what) {
    if (h.is_none()) throw py::type_error(std::string(what) + ": None is not a resource");
    if (!py::isinstance<Resource>(h))
        throw py::type_error(std::string(what) + ": expected a dx12kit Buffer or Texture, not " + detail::TypeName(h));
    return h.cast<std::shared_ptr<Resource>>();
}

py::dict UploadStatsDict(const UploadPoolStats& s) {
    py::dict d;
    const char* names[kUploadKinds] = {"cpu"};
    for (int k = 0; k < kUploadKinds; ++k) {
        d[names[k]] = py::dict("pages_in_use"_a = s.pagesInUse[k], "pages_retired"_a = s.pagesRetired[k], "pages_free"_a = s.pagesFree[k],
                               "peak_pages"_a = s.peakPages[k]);
    }
    d["dedicated_in_use"] = s.dedicatedInUse;
    d["dedicated_bytes"] = s.dedicatedBytes;
    d["bytes_allocated"] = s.bytesAllocated;
    d["pages_created"] = s.pagesCreated;
    d["large_cached"] = s.largeCached;
    d["large_cached_bytes"] = s.largeCachedBytes;
    d["large_reused"] = s.largeReused;
    return d;
}

/// Device.format_support(format): what the device can do with a format, as plain values.
struct FormatSupportView {
    std::string format;
    bool buffer, texture2d, texture3d, texture_cube, shader_load, shader_sample, render_target, blendable, depth_stencil, typed_uav,
        uav_typed_load, uav_typed_store, mip_autogen;
    std::vector<uint32_t> msaa;
};

FormatSupportView QueryFormatSupport(DeviceCore& core, DXGI_FORMAT format) {
    FormatSupportCache& cache = core.FormatSupport();
    const FormatSupportInfo& s = cache.Get(format);
    FormatSupportView v;
    v.format = FormatName(format);
    v.buffer = s.Has(D3D12_FORMAT_SUPPORT1_BUFFER);
    v.texture2d = s.Has(D3D12_FORMAT_SUPPORT1_TEXTURE2D);
    v.texture3d = s.Has(D3D12_FORMAT_SUPPORT1_TEXTURE3D);
    v.texture_cube = s.Has(D3D12_FORMAT_SUPPORT1_TEXTURECUBE);
    v.shader_load = s.Has(D3D12_FORMAT_SUPPORT1_SHADER_LOAD);
    v.shader_sample = s.Has(D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE);
    v.render_target = s.Has(D3D12_FORMAT_SUPPORT1_RENDER_TARGET);
    v.blendable = s.Has(D3D12_FORMAT_SUPPORT1_BLENDABLE);
    v.depth_stencil = s.Has(D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL);
    v.typed_uav = s.TypedUav(format);
    v.uav_typed_load = s.Has2(D3D12_FORMAT_SUPPORT2_UAV_TYPED_LOAD);
    v.uav_typed_store = s.Has2(D3D12_FORMAT_SUPPORT2_UAV_TYPED_STORE);
    // Whether mips could be generated by a compute pass: a typed UAV of the format, or (sRGB,
    // BGRA) of a cast partner in its family. TODO: dx12kit has no mip generation yet; when it
    // comes, this must say exactly what it supports.
    bool partner = false;
    if (IsSrgb(format) || IsBgra(format))
        for (DXGI_FORMAT m : FamilyMembers(format))
            if (m != format && FindFormat(m) && cache.Get(m).TypedUav(m)) partner = true;
    v.mip_autogen = v.shader_sample && (v.typed_uav || partner);
    v.msaa = s.msaa;
    return v;
}

py::dict DescriptorStatsDict(DeviceCore& core) {
    py::dict d;
    const std::pair<const char*, D3D12_DESCRIPTOR_HEAP_TYPE> types[] = {{"cbv_srv_uav", D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV},
                                                                        {"sampler", D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER},
                                                                        {"rtv", D3D12_DESCRIPTOR_HEAP_TYPE_RTV},
                                                                        {"dsv", D3D12_DESCRIPTOR_HEAP_TYPE_DSV}};
    for (const auto& t : types) {
        py::dict e = CpuDescriptorStatsDict(core.CpuDescriptors(t.second).GetStats());
        if (t.second == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV)
            e["shader_visible"] = ShaderVisibleHeapStatsDict(core.ViewHeap().GetStats());
        else if (t.second == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER)
            e["shader_visible"] = ShaderVisibleHeapStatsDict(core.SamplerHeap().GetStats());
        d[t.first] = e;
    }
    return d;
}

}  // namespace

void BindGpu(py::module_& m) {
    // ---- enums -------------------------------------------------------------------------------
    {
        py::native_enum<DXGI_FORMAT> fmt(m, "Format", "enum.IntEnum", "DXGI formats dx12kit supports (also accepted as lower-case strings).");
        size_t n;
        const FormatInfo* all = AllFormats(n);
        for (size_t i = 0; i < n; ++i) {
            std::string up = all[i].name;
            for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            fmt.value(up.c_str(), all[i].format);
        }
        fmt.value("UNKNOWN", DXGI_FORMAT_UNKNOWN);
        fmt.finalize();
    }
    py::native_enum<D3D12_RESOURCE_STATES>(m, "ResourceState", "enum.IntFlag", "D3D12_RESOURCE_STATES as flags.")
        .value("COMMON", D3D12_RESOURCE_STATE_COMMON)
        .value("VERTEX_AND_CONSTANT_BUFFER", D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER)
        .value("INDEX_BUFFER", D3D12_RESOURCE_STATE_INDEX_BUFFER)
        .value("RENDER_TARGET", D3D12_RESOURCE_STATE_RENDER_TARGET)
        .value("UNORDERED_ACCESS", D3D12_RESOURCE_STATE_UNORDERED_ACCESS)
        .value("DEPTH_WRITE", D3D12_RESOURCE_STATE_DEPTH_WRITE)
        .value("DEPTH_READ", D3D12_RESOURCE_STATE_DEPTH_READ)
        .value("NON_PIXEL_SHADER_RESOURCE", D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE)
        .value("PIXEL_SHADER_RESOURCE", D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE)
        .value("STREAM_OUT", D3D12_RESOURCE_STATE_STREAM_OUT)
        .value("INDIRECT_ARGUMENT", D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT)
        .value("COPY_DEST", D3D12_RESOURCE_STATE_COPY_DEST)
        .value("COPY_SOURCE", D3D12_RESOURCE_STATE_COPY_SOURCE)
        .value("RESOLVE_DEST", D3D12_RESOURCE_STATE_RESOLVE_DEST)
        .value("RESOLVE_SOURCE", D3D12_RESOURCE_STATE_RESOLVE_SOURCE)
        .value("GENERIC_READ", D3D12_RESOURCE_STATE_GENERIC_READ)
        .finalize();
    m.attr("ALL_SUBRESOURCES") = kAllSubresources;

    // ---- root signature descriptions ------------------------------------------------------
    py::class_<DescriptorRangeDesc>(m, "DescriptorRange", "One range of a DescriptorTable (made by SRV, UAV, CBV, Sampler).")
        .def_readonly("register", &DescriptorRangeDesc::shaderRegister)
        .def_readonly("count", &DescriptorRangeDesc::count)
        .def_readonly("space", &DescriptorRangeDesc::space)
        .def_property_readonly("offset", [](const DescriptorRangeDesc& r) -> py::object {
            return r.offset == kAppendRange ? py::object(py::none()) : py::object(py::int_(r.offset));
        }, "Descriptors from the table start, or None (appended after the previous range).")
        .def_readonly("flags", &DescriptorRangeDesc::flags, "D3D12_DESCRIPTOR_RANGE_FLAGS (root signature 1.1).")
        .def_property_readonly("kind", [](const DescriptorRangeDesc& r) {
            const char* k[] = {"srv", "uav", "cbv", "sampler"};
            return k[int(r.kind)];
        })
        .def("__eq__", [](const DescriptorRangeDesc& a, py::object o) {
            if (!py::isinstance<DescriptorRangeDesc>(o)) return false;
            const auto& b = o.cast<const DescriptorRangeDesc&>();
            return a.kind == b.kind && a.shaderRegister == b.shaderRegister && a.count == b.count && a.space == b.space && a.offset == b.offset &&
                   a.flags == b.flags;
        })
        .def("__repr__", [](const DescriptorRangeDesc& r) {
            const char* k[] = {"SRV", "UAV", "CBV", "SamplerRange"};
            std::string s = std::string(k[int(r.kind)]) + "(" + std::to_string(r.shaderRegister) + ", count=" +
                            (r.count == kUnboundedRange ? std::string("UNBOUNDED") : std::to_string(r.count));
            if (r.space) s += ", space=" + std::to_string(r.space);
            if (r.offset != kAppendRange) s += ", offset=" + std::to_string(r.offset);
            if (r.flags) s += ", flags=" + std::to_string(r.flags);
            return s + ")";
        });
    py::setattr(py::type::of<DescriptorRangeDesc>(), "__hash__", py::none());
    m.attr("UNBOUNDED") = kUnboundedRange;
    auto range = [&m](const char* name, RangeKind kind, const char* doc) {
        m.def(name, [kind, name](Int reg, Int count, Int space, py::object offset, Int flags) {
            const uint32_t n = U32(count, name, "count");
            if (n == 0) throw InvalidArgument(std::string(name) + ": count must be positive");
            DescriptorRangeDesc r{kind, U32(reg, name, "register"), n, U32(space, name, "space")};
            if (!offset.is_none()) r.offset = U32(offset, name, "offset");
            r.flags = CheckFlags(U32(flags, name, "flags"), kRangeFlags, "descriptor range");
            return r;
        }, "register"_a, "count"_a = 1, "space"_a = 0, py::kw_only(), "offset"_a = py::none(), "flags"_a = 0, doc);
    };
    range("SRV", RangeKind::Srv, "A range of shader resource views (t registers) in a DescriptorTable.\n"
                                 "count=UNBOUNDED for an unbounded range; offset= descriptors from the table start (default: after the\n"
                                 "previous range); flags= D3D12_DESCRIPTOR_RANGE_FLAGS bits (root signature 1.1).");
    range("UAV", RangeKind::Uav, "A range of unordered access views (u registers) in a DescriptorTable.");
    range("CBV", RangeKind::Cbv, "A range of constant buffer views (b registers) in a DescriptorTable.");
    range("SamplerRange", RangeKind::Sampler, "A range of samplers (s registers) in a DescriptorTable (the sampler objects\n"
                                              "themselves are SamplerState, made by Device.create_sampler). Sampler is an alias.");
    m.attr("Sampler") = m.attr("SamplerRange");  // the name before issue 12

    py::class_<RootParameterDesc>(m, "RootParameter", "A root parameter (made by RootConstants, RootCBV, RootSRV, RootUAV, DescriptorTable).")
        .def_readonly("register", &RootParameterDesc::shaderRegister)
        .def_readonly("space", &RootParameterDesc::space)
        .def_readonly("count", &RootParameterDesc::num32BitValues)
        .def_readonly("ranges", &RootParameterDesc::ranges)
        .def_readonly("flags", &RootParameterDesc::flags, "Root CBV/SRV/UAV: D3D12_ROOT_DESCRIPTOR_FLAGS (root signature 1.1).")
        .def_property_readonly("kind", [](const RootParameterDesc& p) {
            const char* k[] = {"constants", "cbv", "srv", "uav", "table"};
            return k[int(p.kind)];
        })
        .def_property_readonly("visibility", [](const RootParameterDesc& p) { return int(p.visibility); }, "D3D12_SHADER_VISIBILITY value.")
        .def("__eq__", [](const RootParameterDesc& a, py::object o) {
            if (!py::isinstance<RootParameterDesc>(o)) return false;
            const auto& b = o.cast<const RootParameterDesc&>();
            if (a.kind != b.kind || a.shaderRegister != b.shaderRegister || a.space != b.space || a.num32BitValues != b.num32BitValues ||
                a.visibility != b.visibility || a.flags != b.flags || a.ranges.size() != b.ranges.size())
                return false;
            for (size_t i = 0; i < a.ranges.size(); ++i) {
                const auto &x = a.ranges[i], &y = b.ranges[i];
                if (x.kind != y.kind || x.shaderRegister != y.shaderRegister || x.count != y.count || x.space != y.space || x.offset != y.offset ||
                    x.flags != y.flags)
                    return false;
            }
            return true;
        })
        .def("__repr__", [](const RootParameterDesc& p) {
            const char* k[] = {"RootConstants", "RootCBV", "RootSRV", "RootUAV", "DescriptorTable"};
            std::string s = std::string(k[int(p.kind)]) + "(";
            if (p.kind == RootParamKind::Table) s += std::to_string(p.ranges.size()) + " ranges";
            else s += std::to_string(p.shaderRegister) + (p.kind == RootParamKind::Constants ? ", " + std::to_string(p.num32BitValues) : std::string());
            return s + ", visibility=" + std::to_string(int(p.visibility)) + ")";
        });
    py::setattr(py::type::of<RootParameterDesc>(), "__hash__", py::none());
    m.def("RootConstants", [](Int reg, Int count, Int space, py::handle vis) {
        const char* fn = "RootConstants";
        const uint32_t n = U32(count, fn, "count");
        if (n == 0) throw InvalidArgument("RootConstants: count must be positive");
        RootParameterDesc p{RootParamKind::Constants, U32(reg, fn, "register"), U32(space, fn, "space"), n, {}, ParseVisibility(vis, fn)};
        return p;
    }, "register"_a, "count"_a, "space"_a = 0, "visibility"_a = "all", "32-bit root constants (a cbuffer at register b<register>).");
    auto rootView = [&m](const char* name, RootParamKind kind, const char* doc) {
        m.def(name, [kind, name](Int reg, Int space, py::handle vis, Int flags) {
            return RootParameterDesc{kind, U32(reg, name, "register"), U32(space, name, "space"), 0, {}, ParseVisibility(vis, name),
                                     CheckFlags(U32(flags, name, "flags"), kRootDescriptorFlags, "root descriptor")};
        }, "register"_a, "space"_a = 0, "visibility"_a = "all", py::kw_only(), "flags"_a = 0, doc);
    };
    rootView("RootCBV", RootParamKind::Cbv, "A root constant buffer view (GPU address of a buffer).");
    rootView("RootSRV", RootParamKind::Srv, "A root shader resource view (a buffer, e.g. StructuredBuffer).");
    rootView("RootUAV", RootParamKind::Uav, "A root unordered access view (a buffer, e.g. RWStructuredBuffer).");
    m.def("DescriptorTable", [](std::vector<DescriptorRangeDesc> ranges, py::handle vis) {
        if (ranges.empty()) throw InvalidArgument("DescriptorTable: at least one range");
        return RootParameterDesc{RootParamKind::Table, 0, 0, 0, std::move(ranges), ParseVisibility(vis, "DescriptorTable")};
    }, "ranges"_a, "visibility"_a = "all", "A descriptor table: a list of SRV/UAV/CBV ranges, or of Sampler ranges.");
    py::class_<StaticSamplerDesc>(m, "StaticSamplerDesc", "A static sampler of a root signature (made by StaticSampler).")
        .def_readonly("register", &StaticSamplerDesc::shaderRegister)
        .def_readonly("space", &StaticSamplerDesc::space)
        .def("__eq__", [](const StaticSamplerDesc& a, py::object o) {
            if (!py::isinstance<StaticSamplerDesc>(o)) return false;
            const auto& b = o.cast<const StaticSamplerDesc&>();
            auto v = [](const StaticSamplerDesc& s, D3D12_TEXTURE_ADDRESS_MODE m) { return m ? m : s.address; };
            return a.shaderRegister == b.shaderRegister && a.filter == b.filter && a.address == b.address && a.space == b.space &&
                   a.visibility == b.visibility && v(a, a.addressV) == v(b, b.addressV) && v(a, a.addressW) == v(b, b.addressW) &&
                   a.mipLodBias == b.mipLodBias && a.maxAnisotropy == b.maxAnisotropy && a.comparison == b.comparison &&
                   a.borderColor == b.borderColor && a.minLod == b.minLod && a.maxLod == b.maxLod;
        })
        .def("__repr__", [](const StaticSamplerDesc& s) {
            return "StaticSampler(" + std::to_string(s.shaderRegister) + ", filter=" + std::to_string(int(s.filter)) + ", address=" +
                   std::to_string(int(s.address)) + ", space=" + std::to_string(s.space) + ")";
        });
    py::setattr(py::type::of<StaticSamplerDesc>(), "__hash__", py::none());
    m.def("StaticSampler", [](Int reg, py::handle filter, py::handle address, Int space, py::handle vis, py::handle addressV,
                              py::handle addressW, Float mipLodBias, Int maxAnisotropyArg, py::handle comparison, py::handle borderColor,
                              Float minLod, Float maxLod) {
        const char* fn = "StaticSampler";
        StaticSamplerDesc s{U32(reg, fn, "register"), ParseFilter(filter, fn), ParseAddress(address, fn), U32(space, fn, "space"),
                            ParseVisibility(vis, fn)};
        if (!addressV.is_none()) s.addressV = ParseAddress(addressV, "StaticSampler (address_v)");
        if (!addressW.is_none()) s.addressW = ParseAddress(addressW, "StaticSampler (address_w)");
        const uint32_t maxAnisotropy = U32(maxAnisotropyArg, fn, "max_anisotropy");
        if (maxAnisotropy > 16) throw InvalidArgument("StaticSampler: max_anisotropy " + std::to_string(maxAnisotropy) + " is above 16");
        s.mipLodBias = Finite(mipLodBias, fn, "mip_lod_bias");
        s.maxAnisotropy = maxAnisotropy;
        s.comparison = ParseComparison(comparison, fn);
        s.borderColor = ParseBorderColor(borderColor, fn);
        s.minLod = F32(minLod, fn, "min_lod");
        s.maxLod = F32(maxLod, fn, "max_lod");
        if (std::isnan(s.minLod) || std::isnan(s.maxLod) || s.minLod > s.maxLod)
            throw InvalidArgument("StaticSampler: min_lod <= max_lod is required, got " + std::to_string(s.minLod) + ", " + std::to_string(s.maxLod));
        return s;
    }, "register"_a, "filter"_a = "linear", "address"_a = "clamp", "space"_a = 0, "visibility"_a = "all", py::kw_only(),
          "address_v"_a = py::none(), "address_w"_a = py::none(), "mip_lod_bias"_a = 0.0f, "max_anisotropy"_a = 16,
          "comparison"_a = "never", "border_color"_a = "transparent_black", "min_lod"_a = 0.0f, "max_lod"_a = 3.402823466e+38f,
          "A static sampler: filter 'point' | 'linear' | 'bilinear' | 'anisotropic' or a D3D12_FILTER name without its prefix\n"
          "('comparison_min_mag_mip_linear'); address 'clamp' | 'wrap' | 'mirror' | 'mirror_once' | 'border' (address_v/address_w\n"
          "default to address); comparison 'never' | 'less' | 'less_equal' | ...; border_color 'transparent_black' |\n"
          "'opaque_black' | 'opaque_white'.");

    // ---- resources ----------------------------------------------------------------------------
    py::class_<Resource, std::shared_ptr<Resource>>(m, "Resource", "A GPU resource (Buffer or Texture).")
        .def_property_readonly("name", &Resource::Name, "Debug name given at creation (also the D3D12 object's name).")
        .def_property_readonly("num_subresources", &Resource::NumSubresources, "Number of subresources (1 for a buffer; mips x array slices for a texture).")
        .def_property_readonly("uav", &Resource::AllowsUav, "True when the resource allows unordered access (created with uav=True).")
        .def_property_readonly("cached_views", &Resource::CachedViewCount, "Number of descriptor views created for it (cached).")
        .def("close", &Resource::Close,
             "Marks the resource closed: any later use (barriers, bindings, copies, reads) raises UseAfterFreeError.\n"
             "Work already recorded or submitted still completes; the memory is released once the last reference\n"
             "(this object, command lists in flight) is gone. Closing twice is allowed.")
        .def_property_readonly("closed", &Resource::IsClosed, "True once close() was called (any later use raises UseAfterFreeError).")
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](Resource& r, py::args) { r.Close(); })
        .def("global_state", [](Resource& r, Int subArg) {
            const uint32_t sub = U32(subArg, "global_state", "subresource");
            std::lock_guard<std::recursive_mutex> lock(r.Core().SubmitMutex());
            r.CheckSubresource(sub);
            if (sub == kAllSubresources) {
                if (!r.GlobalState().IsUniform()) throw InvalidArgument("global_state: subresources differ; ask for one subresource");
                return r.GlobalState().All();
            }
            return r.GlobalState().Get(sub);
        }, "subresource"_a = kAllSubresources,
           "The state the resource is in once every executed command list has run (what execute resolves against).");
    py::class_<Buffer, Resource, std::shared_ptr<Buffer>>(m, "Buffer", "A GPU buffer. Create with Device.create_buffer.")
        .def_property_readonly("size", &Buffer::Size, "Size in bytes.")
        .def_property_readonly("gpu_address", &Buffer::GpuAddress, "GPU virtual address of the first byte (for root CBV/SRV/UAV arguments).")
        .def("__repr__", [](const Buffer& b) { return "<dx12kit.Buffer '" + b.Name() + "' " + std::to_string(b.Size()) + " bytes>"; });
    py::class_<Texture, Resource, std::shared_ptr<Texture>>(m, "Texture", "A 2D texture (array). Create with Device.create_texture2d.")
        .def_property_readonly("width", [](const Texture& t) { return t.Width(); }, "Width in texels of mip 0.")
        .def_property_readonly("height", [](const Texture& t) { return t.Height(); }, "Height in texels of mip 0.")
        .def_property_readonly("format", &Texture::ViewFormat, "The format views and reads use (a dx12kit.Format).")
        .def_property_readonly("mip_levels", &Texture::MipLevels, "Number of mip levels.")
        .def_property_readonly("array_size", &Texture::ArraySize, "Number of array slices.")
        .def_property_readonly("shape", [](const Texture& t) {
            const FormatInfo& fi = RequireFormat(t.ViewFormat(), "shape");
            return py::make_tuple(t.Height(), t.Width(), fi.channels);
        }, "(height, width, channels) of mip 0, as read_texture returns it.")
        .def("__repr__", [](const Texture& t) {
            const FormatInfo* fi = FindFormat(t.ViewFormat());
            return "<dx12kit.Texture '" + t.Name() + "' " + std::to_string(t.Width()) + "x" + std::to_string(t.Height()) + " " +
                   (fi ? fi->name : "?") + ">";
        });

    py::class_<FormatSupportView>(m, "FormatSupport",
                                  "What the device supports for one format (Device.format_support). typed_uav is False for sRGB\n"
                                  "formats whatever the driver says (D3D12 has no sRGB UAVs); msaa lists the supported sample counts.")
        .def_readonly("format", &FormatSupportView::format, "The format queried (a dx12kit.Format).")
        .def_readonly("buffer", &FormatSupportView::buffer, "Usable in typed buffer views.")
        .def_readonly("texture2d", &FormatSupportView::texture2d, "Usable for 2D textures.")
        .def_readonly("texture3d", &FormatSupportView::texture3d, "Usable for 3D textures.")
        .def_readonly("texture_cube", &FormatSupportView::texture_cube, "Usable for cube textures.")
        .def_readonly("shader_load", &FormatSupportView::shader_load, "Readable with Load in shaders.")
        .def_readonly("shader_sample", &FormatSupportView::shader_sample, "Readable with Sample (filtered) in shaders.")
        .def_readonly("render_target", &FormatSupportView::render_target, "Usable as a render target.")
        .def_readonly("blendable", &FormatSupportView::blendable, "Render targets of this format blend.")
        .def_readonly("depth_stencil", &FormatSupportView::depth_stencil, "Usable as a depth-stencil target.")
        .def_readonly("typed_uav", &FormatSupportView::typed_uav, "Usable in typed UAVs (never for sRGB formats).")
        .def_readonly("uav_typed_load", &FormatSupportView::uav_typed_load, "Typed UAV loads supported (D3D12 Support2 bit).")
        .def_readonly("uav_typed_store", &FormatSupportView::uav_typed_store, "Typed UAV stores supported (D3D12 Support2 bit).")
        .def_readonly("mip_autogen", &FormatSupportView::mip_autogen, "Whether mips can be generated for it on the GPU.")
        .def_readonly("msaa", &FormatSupportView::msaa, "Supported MSAA sample counts (list of ints).")
        .def("__repr__", [](const FormatSupportView& v) {
            std::string s = "<dx12kit.FormatSupport " + v.format + ":";
            const std::pair<const char*, bool> flags[] = {
                {"buffer", v.buffer}, {"texture2d", v.texture2d}, {"texture3d", v.texture3d}, {"texture_cube", v.texture_cube},
                {"shader_load", v.shader_load}, {"shader_sample", v.shader_sample}, {"render_target", v.render_target},
                {"blendable", v.blendable}, {"depth_stencil", v.depth_stencil}, {"typed_uav", v.typed_uav},
                {"uav_typed_load", v.uav_typed_load}, {"uav_typed_store", v.uav_typed_store}, {"mip_autogen", v.mip_autogen}};
            for (const auto& f : flags)
                if (f.second) s += std::string(" ") + f.first;
            s += " msaa=[";
            for (size_t i = 0; i < v.msaa.size(); ++i) s += (i ? ", " : "") + std::to_string(v.msaa[i]);
            return s + "]>";
        });

    py::class_<RootSignature, std::shared_ptr<RootSignature>>(m, "RootSignature", "A root signature. Create with Device.create_root_signature.")
        .def_property_readonly("num_parameters", [](const RootSignature& r) { return r.Parameters().size(); }, "Number of root parameters.")
        .def_property("name", &RootSignature::Name, [](RootSignature& r, py::handle n) { r.SetName(Str(n, "RootSignature.name", "name")); },
                      "Debug name (also the D3D12 object's name).")
        .def("__repr__", [](const RootSignature& r) {
            return "<dx12kit.RootSignature '" + r.Name() + "' parameters=" + std::to_string(r.Parameters().size()) +
                   " static_samplers=" + std::to_string(r.StaticSamplers().size()) + ">";
        });
    py::class_<PipelineState, std::shared_ptr<PipelineState>>(m, "PipelineState", "A compute or graphics pipeline state object.")
        .def_property_readonly("is_compute", &PipelineState::IsCompute, "True for a compute pipeline, False for a graphics one.")
        .def_property_readonly("root_signature", &PipelineState::GetRootSignature, "The root signature the pipeline was created with.")
        .def_property("name", &PipelineState::Name, [](PipelineState& p, py::handle n) { p.SetName(Str(n, "PipelineState.name", "name")); },
                      "Debug name (also the D3D12 object's name).")
        .def("__repr__", [](const PipelineState& p) {
            return "<dx12kit.PipelineState '" + p.Name() + "' " + (p.IsCompute() ? "compute" : "graphics") + " root_signature='" +
                   p.GetRootSignature()->Name() + "'>";
        });
    py::class_<Sampler, std::shared_ptr<Sampler>>(m, "SamplerState", "A sampler descriptor. Create with Device.create_sampler.")
        .def_property("name", &Sampler::Name, [](Sampler& s, py::handle n) { s.SetName(Str(n, "SamplerState.name", "name")); },
                      "Debug name, shown by repr.")
        .def("__repr__", [](const Sampler& s) {
            return "<dx12kit.SamplerState '" + s.Name() + "' filter=" + std::to_string(int(s.Desc().Filter)) +
                   " address=" + std::to_string(int(s.Desc().AddressU)) + ">";
        });

    // ---- upload allocations (zero-copy path) ------------------------------------------------
    struct PyUpload {
        UploadAllocation alloc;
        std::shared_ptr<CommandList> list;
        std::shared_ptr<UploadPage> pin;  // keeps the page out of reuse while views may exist
        PyUpload(UploadAllocation a, std::shared_ptr<CommandList> l) : alloc(a), list(std::move(l)) {
            alloc.page->pins.fetch_add(1, std::memory_order_acq_rel);
            pin = std::shared_ptr<UploadPage>(alloc.page, [](UploadPage* p) { p->pins.fetch_sub(1, std::memory_order_acq_rel); });
        }
    };
    py::class_<PyUpload>(m, "UploadAllocation",
                         "Upload memory owned by a command list. Fill .array() in place, then CommandList.copy_from_upload.\n"
                         "Fill it before the list is executed: .array() then raises, and writes through an older view\n"
                         "race with the GPU's copy. The memory stays reserved (never reused) while any view of it exists.")
        .def_property_readonly("size", [](const PyUpload& u) { return u.alloc.size; }, "Bytes reserved.")
        .def_property_readonly("gpu_address", [](const PyUpload& u) { return u.alloc.gpu; }, "GPU virtual address of the first byte.")
        .def_property_readonly("offset", [](const PyUpload& u) { return u.alloc.offset; }, "Offset of the first byte in its upload page.")
        .def("__repr__", [](const PyUpload& u) {
            return "<dx12kit.UploadAllocation size=" + std::to_string(u.alloc.size) + " offset=" + std::to_string(u.alloc.offset) +
                   (u.list->IsClosed() ? " (list executed)" : "") + ">";
        })
        .def("array", [](py::object self, py::object dtype, py::object shape) {
            PyUpload& u = self.cast<PyUpload&>();
            if (u.list->IsClosed()) throw UseAfterFree("UploadAllocation.array: the command list was already executed");
            const char* fn = "UploadAllocation.array";
            py::dtype dt = FixedSizeDtype(dtype, fn);
            const uint64_t item = static_cast<uint64_t>(dt.itemsize());
            const uint64_t n = u.alloc.size / item;
            std::vector<py::ssize_t> shp;
            if (shape.is_none()) shp = {static_cast<py::ssize_t>(n)};
            else {
                if (PyIndex_Check(shape.ptr())) shape = py::make_tuple(shape);
                if (!py::isinstance<py::sequence>(shape) || py::isinstance<py::str>(shape))
                    throw py::type_error(std::string(fn) + ": shape must be a tuple of ints, not " + detail::TypeName(shape));
                for (py::handle d : shape) shp.push_back(static_cast<py::ssize_t>(detail::Ranged(d, fn, "shape item", 0, INT64_MAX)));
            }
            // Overflow-safe: count * item <= size, checked one factor at a time.
            uint64_t bytes = item;
            for (auto d : shp) {
                if (d != 0 && bytes > u.alloc.size / uint64_t(d))
                    throw InvalidArgument(std::string(fn) + ": shape larger than the allocation of " + std::to_string(u.alloc.size) + " bytes");
                bytes *= uint64_t(d);
            }
            if (bytes > u.alloc.size) throw InvalidArgument(std::string(fn) + ": shape larger than the allocation of " + std::to_string(u.alloc.size) + " bytes");
            return py::array(dt, shp, u.alloc.cpu, self);  // the view keeps the allocation (and its list) alive
        }, "dtype"_a = py::dtype("uint8"), "shape"_a = py::none(), "A writable numpy view of the upload memory (no copy).");

    // ---- command list -------------------------------------------------------------------------
    py::class_<CommandList, std::shared_ptr<CommandList>>(m, "CommandList",
        "Records GPU work for one queue. Resource states, descriptor copies and upload memory are handled automatically.\n"
        "Create with CommandQueue.command_list(); submit with CommandQueue.execute().")
        .def_property_readonly("closed", &CommandList::IsClosed,
                               "True once executed (no more recording). A failed execute leaves its lists open, unless a list\n"
                               "failed to close (then execute raises DeviceError and that list can never run).")
        .def_readwrite("auto_uav_barriers", &CommandList::AutoUavBarriers,
                       "Insert a UAV barrier when a UAV written by an earlier draw/dispatch is used again (default True).")
        .def_property_readonly("upload_pages", &CommandList::UploadPageCount, "Upload pages this list holds.")
        .def("__repr__", [](const CommandList& cl) {
            return std::string("<dx12kit.CommandList ") + QueueKindName(cl.Queue().Type()) + (cl.IsClosed() ? " executed" : " recording") + ">";
        })
        .def("upload", [](CommandList& cl, py::handle res, py::handle array, Int mipArg, Int sliceArg, Int offsetArg) {
            auto r = AsResource(res, "upload");
            const uint32_t mip = U32(mipArg, "upload", "mip"), slice = U32(sliceArg, "upload", "array_slice");
            const uint64_t offset = U64(offsetArg, "upload", "offset");
            Bytes b = GetBytes(array, "upload");
            if (!r->IsBuffer()) {
                r->CheckMipSlice(mip, slice, "upload");
                CheckTextureArray(static_cast<Texture&>(*r), b, mip);
            }
            cl.Upload(r, b.data, b.size, mip, slice, offset);
        }, "resource"_a, "array"_a, "mip"_a = 0, "array_slice"_a = 0, "offset"_a = 0,
           "Copies a numpy array into a buffer (at byte `offset`) or a texture subresource through upload memory.\n"
           "Textures take shape (height, width, channels) matching the format.")
        .def("copy_resource", [](CommandList& cl, py::handle dst, py::handle src) {
            cl.CopyResource(AsResource(dst, "copy_resource"), AsResource(src, "copy_resource"));
        }, "dst"_a, "src"_a, "Copies the whole of `src` into `dst` (same size and format); both states are tracked.")
        .def("copy_buffer_region", [](CommandList& cl, py::handle dst, Int dstOffset, py::handle src, Int srcOffset, Int size) {
            const char* fn = "copy_buffer_region";
            cl.CopyBufferRegion(AsResource(dst, fn), U64(dstOffset, fn, "dst_offset"), AsResource(src, fn), U64(srcOffset, fn, "src_offset"),
                                U64(size, fn, "size"));
        }, "dst"_a, "dst_offset"_a, "src"_a, "src_offset"_a, "size"_a, "Copies `size` bytes from `src` at `src_offset` to `dst` at `dst_offset`; bounds are checked.")
        .def("allocate_upload", [](std::shared_ptr<CommandList> cl, Int size, Int alignment) {
            return PyUpload{cl->AllocateUpload(U64(size, "allocate_upload", "size"), U64(alignment, "allocate_upload", "alignment")), cl};
        }, "size"_a, "alignment"_a = 256, "Upload memory for the zero-copy path (see UploadAllocation).")
        .def("allocate_texture_upload", [](std::shared_ptr<CommandList> cl, py::handle tex, Int mipArg) {
            auto r = AsResource(tex, "allocate_texture_upload");
            const uint32_t mip = U32(mipArg, "allocate_texture_upload", "mip");
            if (r->IsBuffer()) throw InvalidArgument("allocate_texture_upload: not a texture");
            auto& t = static_cast<Texture&>(*r);
            t.CheckMipSlice(mip, 0, "allocate_texture_upload");
            return PyUpload{cl->AllocateUpload(t.Footprint(mip, 0).PaddedBytes(), D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT), cl};
        }, "texture"_a, "mip"_a = 0, "Upload memory laid out for a texture mip (rows 256-byte aligned): fill .array(), then copy_from_upload.")
        .def("copy_from_upload", [](CommandList& cl, py::handle dst, const PyUpload& u, Int mip, Int slice, Int offset) {
            const char* fn = "copy_from_upload";
            if (u.list.get() != &cl) throw InvalidArgument("copy_from_upload: the allocation belongs to another command list");
            cl.CopyFromUpload(AsResource(dst, fn), u.alloc, U32(mip, fn, "mip"), U32(slice, fn, "array_slice"), U64(offset, fn, "offset"));
        }, "dst"_a, "allocation"_a, "mip"_a = 0, "array_slice"_a = 0, "offset"_a = 0, "Copies an UploadAllocation (filled through .array()) into a buffer at `offset` or a texture subresource (mip, array_slice).")
        .def("transition_barrier", [](CommandList& cl, py::handle r, D3D12_RESOURCE_STATES s, Int sub) {
            cl.TransitionBarrier(AsResource(r, "transition_barrier"), s, U32(sub, "transition_barrier", "subresource"));
        }, "resource"_a, "state"_a, "subresource"_a = kAllSubresources,
           "Requests a state explicitly (goes through the state tracker; rarely needed).")
        .def("uav_barrier", [](CommandList& cl, py::handle r) {
            cl.UavBarrier(r.is_none() ? nullptr : AsResource(r, "uav_barrier"));
        }, "resource"_a = py::none(), "Records a UAV barrier on `resource` (None: on every UAV access), ordering UAV writes before later accesses.")
        .def("aliasing_barrier", [](CommandList& cl, py::handle before, py::handle after) {
            cl.AliasingBarrier(before.is_none() ? nullptr : AsResource(before, "aliasing_barrier"),
                               after.is_none() ? nullptr : AsResource(after, "aliasing_barrier"));
        }, "before"_a = py::none(), "after"_a = py::none(), "Records an aliasing barrier between two placed resources sharing memory (either may be None).")
        .def("raw_transition", [](CommandList& cl, py::handle r, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after, Int sub) {
            cl.RawTransition(AsResource(r, "raw_transition"), before, after, U32(sub, "raw_transition", "subresource"));
        }, "resource"_a, "before"_a, "after"_a, "subresource"_a = kAllSubresources,
           "Escape hatch: records a transition barrier directly, without the state tracker. Device(validate=True) reports\n"
           "uses that then find the resource in a state the tracker did not expect.")
        .def("set_pipeline_state", &CommandList::SetPipelineState, "pso"_a,
             "Binds a pipeline and its root signature; later set_* calls apply to its side (graphics or compute).")
        .def("set_constants", [](CommandList& cl, Int root, py::handle values, Int offset) {
            const char* fn = "set_constants";
            const uint32_t rootIndex = U32(root, fn, "root_index"), first = U32(offset, fn, "offset");
            std::vector<uint32_t> v = Dwords(values, fn);
            if (v.size() > UINT32_MAX) throw InvalidArgument("set_constants: too many values");
            cl.SetConstants(rootIndex, v.data(), static_cast<uint32_t>(v.size()), first);
        }, "root_index"_a, "values"_a, "offset"_a = 0, "Sets 32-bit root constants (numpy array, bytes, or a list of ints/floats).")
        .def("set_root_cbv", [](CommandList& cl, Int root, py::handle b, Int off) {
            cl.SetRootView(RootParamKind::Cbv, U32(root, "set_root_cbv", "root_index"), AsResource(b, "set_root_cbv"), U64(off, "set_root_cbv", "offset"));
        },
             "root_index"_a, "buffer"_a, "offset"_a = 0, "Binds buffer + offset as the root constant-buffer view `root_index` (offset 256-byte aligned).")
        .def("set_root_srv", [](CommandList& cl, Int root, py::handle b, Int off) {
            cl.SetRootView(RootParamKind::Srv, U32(root, "set_root_srv", "root_index"), AsResource(b, "set_root_srv"), U64(off, "set_root_srv", "offset"));
        },
             "root_index"_a, "buffer"_a, "offset"_a = 0, "Binds buffer + offset as the root shader-resource view `root_index`.")
        .def("set_root_uav", [](CommandList& cl, Int root, py::handle b, Int off) {
            cl.SetRootView(RootParamKind::Uav, U32(root, "set_root_uav", "root_index"), AsResource(b, "set_root_uav"), U64(off, "set_root_uav", "offset"));
        },
             "root_index"_a, "buffer"_a, "offset"_a = 0, "Binds buffer + offset as the root unordered-access view `root_index`; the buffer moves to UNORDERED_ACCESS.")
        .def("set_shader_resource_view", [](CommandList& cl, Int root, Int offset, py::handle r, py::object mip, py::object format) {
            const char* fn = "set_shader_resource_view";
            const uint32_t rootIndex = U32(root, fn, "root_index"), slot = U32(offset, fn, "descriptor_offset");
            auto res = AsResource(r, fn);
            uint32_t first = 0, count = 0;
            if (!mip.is_none()) { first = U32(mip, fn, "mip"); count = 1; }
            DXGI_FORMAT f = format.is_none() ? DXGI_FORMAT_UNKNOWN : ParseFormat(format, "set_shader_resource_view");
            cl.SetShaderResourceView(rootIndex, slot, res, first, count, f);
        }, "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = py::none(), "format"_a = py::none(),
           "Stages an SRV of `resource` (all mips, or only `mip`) into slot `descriptor_offset` of the table at `root_index`.")
        .def("set_unordered_access_view", [](CommandList& cl, Int root, Int offset, py::handle r, Int mip) {
            const char* fn = "set_unordered_access_view";
            cl.SetUnorderedAccessView(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), AsResource(r, fn), U32(mip, fn, "mip"));
        }, "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = 0, "Stages a UAV of `resource` (one mip of a texture) into slot `offset` of descriptor table `root_index`.")
        .def("set_constant_buffer_view", [](CommandList& cl, Int root, Int offset, py::handle b) {
            const char* fn = "set_constant_buffer_view";
            cl.SetConstantBufferView(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), AsResource(b, fn));
        }, "root_index"_a, "descriptor_offset"_a, "buffer"_a, "Stages a CBV of `buffer` into slot `offset` of descriptor table `root_index`.")
        .def("set_sampler", [](CommandList& cl, Int root, Int offset, py::handle sampler) {
            const char* fn = "set_sampler";
            if (!py::isinstance<Sampler>(sampler))
                throw py::type_error("set_sampler: sampler must be a dx12kit.SamplerState (Device.create_sampler), not " + detail::TypeName(sampler));
            cl.SetSampler(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), sampler.cast<std::shared_ptr<Sampler>>());
        }, "root_index"_a, "descriptor_offset"_a, "sampler"_a, "Stages a SamplerState into slot `offset` of sampler descriptor table `root_index`.")
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
        }, "resource"_a, "values"_a, "Clears a UAV-capable resource to 4 values (floats: float clear; ints: uint clear).")
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
           "Binds render targets (and depth); also sets a full-size viewport and scissor.")
        .def("set_viewport", [](CommandList& cl, Float x, Float y, Float w, Float h, Float minDepth, Float maxDepth) {
            const char* fn = "set_viewport";
            cl.SetViewport(F32(x, fn, "x"), F32(y, fn, "y"), F32(w, fn, "width"), F32(h, fn, "height"), F32(minDepth, fn, "min_depth"),
                           F32(maxDepth, fn, "max_depth"));
        }, "x"_a, "y"_a, "width"_a, "height"_a, "min_depth"_a = 0.0f, "max_depth"_a = 1.0f,
           "Sets the viewport. D3D12's rules are checked: finite values, width and height >= 0, corners within\n"
           "[-32768, 32767], 0 <= min_depth <= max_depth <= 1.")
        .def("set_scissor", [](CommandList& cl, Int l, Int t, Int r, Int b) {
            const char* fn = "set_scissor";
            cl.SetScissor(I32(l, fn, "left"), I32(t, fn, "top"), I32(r, fn, "right"), I32(b, fn, "bottom"));
        }, "left"_a, "top"_a, "right"_a, "bottom"_a, "Sets the scissor rectangle (left <= right, top <= bottom).")
        .def("set_stencil_ref", [](CommandList& cl, Int ref) {
            const uint32_t v = U32(ref, "set_stencil_ref", "ref");
            if (v > 255) throw InvalidArgument("set_stencil_ref: ref must be 0..255, got " + std::to_string(v));
            cl.SetStencilRef(v);
        }, "ref"_a, "The stencil reference value (0..255) of the stencil test.")
        .def("clear_render_target", [](CommandList& cl, py::handle t, py::object rgbaObj, Int mip) {
            const char* fn = "clear_render_target";
            auto res = AsResource(t, fn);
            if (!py::isinstance<py::sequence>(rgbaObj) || py::isinstance<py::str>(rgbaObj))
                throw py::type_error(std::string(fn) + ": rgba must be a sequence of 4 numbers, not " + detail::TypeName(rgbaObj));
            py::sequence seq = rgbaObj;
            if (py::len(seq) != 4) throw InvalidArgument(std::string(fn) + ": rgba needs 4 values, got " + std::to_string(py::len(seq)));
            std::array<float, 4> rgba;
            for (int i = 0; i < 4; ++i) rgba[i] = F32(seq[i], fn, "rgba item");
            cl.ClearRenderTarget(res, rgba.data(), U32(mip, fn, "mip"));
        }, "texture"_a, "rgba"_a, py::kw_only(), "mip"_a = 0, "Clears one mip of a render-target texture to `rgba` (four floats).")
        .def("clear_depth_stencil", [](CommandList& cl, py::handle t, Float d, Int s) {
            const char* fn = "clear_depth_stencil";
            auto res = AsResource(t, fn);
            cl.ClearDepthStencil(res, F32(d, fn, "depth"), U8(s, fn, "stencil"));
        }, "texture"_a, "depth"_a = 1.0f, "stencil"_a = 0, "Clears a depth-stencil texture: depth in [0, 1], stencil 0..255.")
        .def("set_vertex_buffer", [](CommandList& cl, Int slot, py::handle b, Int stride, Int off) {
            const char* fn = "set_vertex_buffer";
            cl.SetVertexBuffer(U32(slot, fn, "slot"), AsResource(b, fn), U32(stride, fn, "stride"), U64(off, fn, "offset"));
        }, "slot"_a, "buffer"_a, "stride"_a, "offset"_a = 0, "Binds `buffer` as vertex buffer `slot` with `stride` bytes per vertex, from `offset`.")
        .def("set_index_buffer", [](CommandList& cl, py::handle b, py::handle format, Int off) {
            DXGI_FORMAT f = ParseChoice<DXGI_FORMAT>(format, "set_index_buffer: format", {{"uint16", DXGI_FORMAT_R16_UINT}, {"uint32", DXGI_FORMAT_R32_UINT},
                                                                                          {"r16_uint", DXGI_FORMAT_R16_UINT}, {"r32_uint", DXGI_FORMAT_R32_UINT}});
            cl.SetIndexBuffer(AsResource(b, "set_index_buffer"), f, U64(off, "set_index_buffer", "offset"));
        }, "buffer"_a, "format"_a = "uint32", "offset"_a = 0, "Binds `buffer` as the index buffer; format is a dx12kit.IndexFormat ('uint16' or 'uint32').")
        .def("set_dynamic_constant_buffer", [](CommandList& cl, Int root, py::handle data) {
            const uint32_t rootIndex = U32(root, "set_dynamic_constant_buffer", "root_index");
            Bytes b = GetBytes(data, "set_dynamic_constant_buffer");
            cl.SetDynamicConstantBuffer(rootIndex, b.data, b.size);
        }, "root_index"_a, "data"_a, "Copies `data` into upload memory (256-byte aligned) and binds it as the root CBV `root_index`.")
        .def("set_dynamic_vertex_buffer", [](CommandList& cl, Int slotArg, py::handle data, py::object stride) {
            const uint32_t slot = U32(slotArg, "set_dynamic_vertex_buffer", "slot");
            Bytes b = GetBytes(data, "set_dynamic_vertex_buffer");
            uint32_t st;
            if (!stride.is_none()) st = U32(stride, "set_dynamic_vertex_buffer", "stride");
            else if (b.info.ndim >= 2) st = static_cast<uint32_t>(b.info.strides[0]);
            else throw InvalidArgument("set_dynamic_vertex_buffer: give stride= for a 1-D array (or pass shape (vertices, components))");
            cl.SetDynamicVertexBuffer(slot, b.data, b.size, st);
        }, "slot"_a, "array"_a, "stride"_a = py::none(), "Copies an array into upload memory and binds it as vertex buffer `slot` (stride: the row size unless given).")
        .def("set_dynamic_index_buffer", [](CommandList& cl, py::handle data) {
            Bytes b = GetBytes(data, "set_dynamic_index_buffer");
            const std::string fmt = b.info.format;
            const bool u16 = b.info.itemsize == 2 && (fmt == "H");
            const bool u32 = b.info.itemsize == 4 && (fmt == "I" || fmt == "L");
            if (!u16 && !u32) throw InvalidArgument("set_dynamic_index_buffer: indices must be a uint16 or uint32 array, got format '" + fmt + "'");
            cl.SetDynamicIndexBuffer(b.data, b.size, u16 ? DXGI_FORMAT_R16_UINT : DXGI_FORMAT_R32_UINT);
        }, "array"_a, "Copies a uint16 or uint32 array into upload memory and binds it as the index buffer.")
        .def("set_dynamic_structured_buffer", [](CommandList& cl, Int root, py::handle data) {
            const uint32_t rootIndex = U32(root, "set_dynamic_structured_buffer", "root_index");
            Bytes b = GetBytes(data, "set_dynamic_structured_buffer");
            cl.SetDynamicStructuredBuffer(rootIndex, b.data, b.size);
        }, "root_index"_a, "array"_a, "Copies `array` into upload memory and binds it as the root SRV `root_index`.")
        .def("draw", [](CommandList& cl, Int n, Int instances, Int start, Int startInstance) {
            const char* fn = "draw";
            cl.Draw(U32(n, fn, "vertex_count"), U32(instances, fn, "instance_count"), U32(start, fn, "start_vertex"),
                    U32(startInstance, fn, "start_instance"));
        }, "vertex_count"_a, "instance_count"_a = 1, "start_vertex"_a = 0, "start_instance"_a = 0, "Draws `vertex_count` vertices (instanced); staged descriptors and pending transitions are committed first.")
        .def("draw_indexed", [](CommandList& cl, Int n, Int instances, Int start, Int baseVertex, Int startInstance) {
            const char* fn = "draw_indexed";
            cl.DrawIndexed(U32(n, fn, "index_count"), U32(instances, fn, "instance_count"), U32(start, fn, "start_index"),
                           I32(baseVertex, fn, "base_vertex"), U32(startInstance, fn, "start_instance"));
        }, "index_count"_a, "instance_count"_a = 1, "start_index"_a = 0, "base_vertex"_a = 0, "start_instance"_a = 0, "Draws `index_count` indices of the bound index buffer (instanced).")
        .def("dispatch", [](CommandList& cl, Int x, Int y, Int z) {
            cl.Dispatch(U32(x, "dispatch", "x"), U32(y, "dispatch", "y"), U32(z, "dispatch", "z"));
        }, "x"_a, "y"_a = 1, "z"_a = 1, "Dispatches x * y * z thread groups of the compute pipeline; staged descriptors and barriers are committed first.");

    // ---- queue ----------------------------------------------------------------------------------
    py::class_<CommandQueue, std::shared_ptr<CommandQueue>>(m, "CommandQueue", "A direct, compute or copy queue. Get one with Device.queue(kind).")
        .def_property_readonly("kind", [](const CommandQueue& q) { return QueueKindName(q.Type()); },
                               "'direct', 'compute' or 'copy' (a dx12kit.QueueKind value).")
        .def("__repr__", [](const CommandQueue& q) {
            return std::string("<dx12kit.CommandQueue ") + QueueKindName(q.Type()) + " completed=" + std::to_string(q.CompletedValue()) + ">";
        })
        .def("command_list", [](std::shared_ptr<CommandQueue> q) { return q->CreateCommandList(q); }, "A new CommandList for this queue.")
        .def("execute", [](CommandQueue& q, py::object lists) {
            std::vector<std::shared_ptr<CommandList>> v;
            if (py::isinstance<CommandList>(lists)) v.push_back(lists.cast<std::shared_ptr<CommandList>>());
            else if (!py::isinstance<py::iterable>(lists))
                throw py::type_error("execute: command_lists must be a CommandList or a list of them, not " + detail::TypeName(lists));
            else for (py::handle h : lists) {
                if (!py::isinstance<CommandList>(h)) throw py::type_error("execute: expected CommandList objects, not " + detail::TypeName(h));
                v.push_back(h.cast<std::shared_ptr<CommandList>>());
            }
            py::gil_scoped_release release;
            return q.Execute(v);
        }, "command_lists"_a, "Executes one list or a list of lists in order; returns the fence value marking their completion.")
        .def("wait", [](CommandQueue& q, uint64_t value, std::optional<double> timeout) {
            const double t = Timeout(timeout, "wait");
            py::gil_scoped_release release;
            q.Wait(value, t);
        }, "fence_value"_a, "timeout"_a = py::none(),
           "Blocks until the fence reaches `fence_value`, without holding the GIL; Ctrl-C interrupts it (KeyboardInterrupt).\n"
           "timeout: seconds, None waits forever; WaitTimeoutError (a TimeoutError) when it expires.")
        .def("flush", [](CommandQueue& q, std::optional<double> timeout) {
            const double t = Timeout(timeout, "flush");
            py::gil_scoped_release release;
            return q.Flush(t);
        }, "timeout"_a = py::none(), "Waits until everything submitted has completed (interruptible; timeout as for wait).")
        .def("wait_for", &CommandQueue::WaitFor, "other"_a, "fence_value"_a,
             "Makes this queue wait on the GPU until `other` reaches `fence_value` (no CPU wait).")
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
        .def_property_readonly("completed_value", &CommandQueue::CompletedValue, "The queue fence's completed value: every submission with a value <= it has finished.")
        .def_property_readonly("last_submitted_value", &CommandQueue::LastSubmittedValue, "The fence value of the latest execute on this queue.")
        .def("read_buffer", [](std::shared_ptr<CommandQueue> q, py::handle b, py::object dtype, std::optional<double> timeout) {
            const double t = Timeout(timeout, "read_buffer");
            auto r = AsResource(b, "read_buffer");
            py::dtype dt = FixedSizeDtype(dtype, "read_buffer");
            const uint64_t size = r->Size();
            if (size % dt.itemsize())
                throw InvalidArgument("read_buffer: buffer size " + std::to_string(size) + " is not a multiple of the dtype size");
            py::array out = NewArray(dt, py::make_tuple(size / dt.itemsize()));
            void* dst = out.mutable_data();
            {
                py::gil_scoped_release release;
                q->ReadBuffer(q, r, dst, size, t);
            }
            return out;
        }, "buffer"_a, "dtype"_a = py::dtype("uint8"), py::kw_only(), "timeout"_a = py::none(),
           "Copies a buffer back into a new numpy array (waits for the GPU; interruptible, timeout as for wait).")
        .def("read_texture", [](std::shared_ptr<CommandQueue> q, py::handle t, Int mipArg, Int sliceArg, std::optional<double> timeout) {
            const double seconds = Timeout(timeout, "read_texture");
            auto r = AsResource(t, "read_texture");
            const uint32_t mip = U32(mipArg, "read_texture", "mip"), slice = U32(sliceArg, "read_texture", "array_slice");
            if (r->IsBuffer()) throw InvalidArgument("read_texture: resource '" + r->Name() + "' is a buffer; use read_buffer");
            const auto& tex = static_cast<const Texture&>(*r);
            tex.CheckMipSlice(mip, slice, "read_texture");
            const FormatInfo& fi = RequireFormat(r->ViewFormat(), "read_texture");
            py::array out = NewArray(DtypeFor(fi), py::make_tuple(tex.Height(mip), tex.Width(mip), fi.channels));
            void* dst = out.mutable_data();
            {
                py::gil_scoped_release release;
                q->ReadTexture(q, r, mip, slice, dst, static_cast<uint64_t>(out.nbytes()), seconds);
            }
            return out;
        }, "texture"_a, "mip"_a = 0, "array_slice"_a = 0, py::kw_only(), "timeout"_a = py::none(),
           "Copies a texture subresource back as an array of shape (height, width, channels); depth-stencil formats\n"
           "give their depth plane. Waits for the GPU (interruptible, timeout as for wait).");

    // ---- device ----------------------------------------------------------------------------------
    py::class_<Device, std::shared_ptr<Device>>(m, "Device",
        "A D3D12 device (vkd3d over Vulkan on Linux). Factory of queues, resources and pipelines.")
        .def(py::init([](bool validate, Int heapSize, Int samplerHeapSize, py::object staticDescriptors, Int chunk,
                         Int samplerChunk, Int cpuPage, Int uploadPage, py::object gpuPage,
                         Int largeCache, py::object memoryBudget, Int blockSize, py::object heapTier, double grace) {
                 const char* fn = "Device";
                 DeviceOptions o;
                 o.validate = validate;
                 o.cbvSrvUavHeapSize = U32(heapSize, fn, "descriptor_heap_size");
                 o.samplerHeapSize = U32(samplerHeapSize, fn, "sampler_heap_size");
                 // Removed options: a clear error instead of a silent no-op (see docs/api.md, "Device").
                 if (!staticDescriptors.is_none())
                     throw InvalidArgument("Device: static_descriptors was removed: the shader-visible heaps have no static part "
                                           "any more (nothing allocated from it); drop the argument");
                 if (!gpuPage.is_none())
                     throw InvalidArgument("Device: gpu_page_size was removed: there are no GPU-exclusive upload pages any more "
                                           "(nothing used them); drop the argument");
                 o.dynamicChunkSize = U32(chunk, fn, "dynamic_chunk_size");
                 o.samplerChunkSize = U32(samplerChunk, fn, "sampler_chunk_size");
                 o.cpuDescriptorPageSize = U32(cpuPage, fn, "cpu_descriptor_page_size");
                 o.uploadPageSize = U64(uploadPage, fn, "upload_page_size");
                 o.largePageCacheBytes = U64(largeCache, fn, "large_page_cache_size");
                 // Page sizes: positive, and within what one committed buffer (and a LinearAllocator) holds.
                 if (o.uploadPageSize == 0 || o.uploadPageSize > (uint64_t(4) << 30))
                     throw InvalidArgument("Device: upload_page_size must be 1..4 GiB, got " + std::to_string(o.uploadPageSize));
                 if (o.cpuDescriptorPageSize == 0) throw InvalidArgument("Device: cpu_descriptor_page_size must be positive");
                 if (!memoryBudget.is_none()) {
                     const long long b = detail::Ranged(memoryBudget, fn, "memory_budget", 1, INT64_MAX);
                     o.memory.budgetBytes = static_cast<uint64_t>(b);
                 }
                 o.memory.preferredBlockSize = U64(blockSize, fn, "memory_block_size");
                 if (!heapTier.is_none()) {
                     const long long t = detail::Ranged(heapTier, fn, "resource_heap_tier", INT32_MIN, INT32_MAX);
                     if (t != 1 && t != 2) throw InvalidArgument("Device: resource_heap_tier must be 1, 2 or None (got " + std::to_string(t) + ")");
                     o.memory.forceTier1 = t == 1;
                 }
                 if (!(grace >= 0.0 && grace <= 3600.0)) throw InvalidArgument("Device: memory_grace must be 0..3600 seconds");
                 o.memory.emptyBlockGraceMs = static_cast<uint32_t>(grace * 1000.0);
                 o.hooks = PythonWaitHooks();
                 auto dev = Device::Create(o, DestroyDevice);
                 if (!heapTier.is_none() && detail::Ranged(heapTier, fn, "resource_heap_tier", INT32_MIN, INT32_MAX) == 2 && dev->Core()->Memory().Tier1())
                     throw InvalidArgument("Device: resource_heap_tier=2, but the adapter supports tier 1 only");
                 return dev;
             }),
             py::kw_only(), "validate"_a = false, "descriptor_heap_size"_a = 65536, "sampler_heap_size"_a = 2048,
             "static_descriptors"_a = py::none(), "dynamic_chunk_size"_a = 256, "sampler_chunk_size"_a = 64,
             "cpu_descriptor_page_size"_a = 256, "upload_page_size"_a = 2u << 20, "gpu_page_size"_a = py::none(),
             "large_page_cache_size"_a = uint64_t(256) << 20, "memory_budget"_a = py::none(),
             "memory_block_size"_a = uint64_t(64) << 20, "resource_heap_tier"_a = py::none(), "memory_grace"_a = 1.0,
             "Options: validate (check states before each draw/dispatch/copy), shader-visible heap sizes and the\n"
             "dynamic chunk sizes, CPU descriptor page size, upload page size, and the bytes of large upload pages\n"
             "kept for reuse after their fence (large_page_cache_size; 0 destroys them).\n"
             "GPU memory: memory_budget (bytes; None = 80% of device-local memory), memory_block_size (bytes of the\n"
             "default pools' heaps, a multiple of 65536), resource_heap_tier (1 forces tier-1 heaps: buffers, textures\n"
             "and render-target/depth textures in separate heaps), memory_grace (seconds an empty heap is kept).\n"
             "static_descriptors and gpu_page_size were removed (nothing used them): passing either raises\n"
             "InvalidArgumentError.")
        .def_property_readonly("info", [](const Device& d) {
            py::dict out;
            for (const auto& kv : d.Info()) {
                if (kv.first == "resource_binding_tier" || kv.first == "resource_heap_tier" || kv.first == "tiled_resources_tier")
                    out[kv.first.c_str()] = std::stoi(kv.second);
                else out[kv.first.c_str()] = kv.second;
            }
            return out;
        }, "backend ('vkd3d' or 'd3d12'), adapter, feature_level ('11_0'...), resource_binding_tier, resource_heap_tier.")
        .def("__repr__", [](const Device& d) {
            std::string backend, adapter;
            for (const auto& kv : d.Info()) {
                if (kv.first == "backend") backend = kv.second;
                else if (kv.first == "adapter") adapter = kv.second;
            }
            return "<dx12kit.Device " + backend + " '" + adapter + "'" + (d.Core()->Options().validate ? " validate" : "") + ">";
        })
        .def_property_readonly("validate", [](const Device& d) { return d.Core()->Options().validate; }, "True when the device checks resource states before each draw, dispatch and copy.")
        .def("queue", [](Device& d, const std::string& kind) { return d.Queue(ParseQueueKind(kind)); }, "kind"_a = "direct",
             "The device's queue of `kind`: 'direct', 'compute' or 'copy'.")
        .def("create_buffer", [](Device& d, Int sizeArg, bool uav, py::object name, py::handle heap, py::handle pool, bool committed,
                                 bool withinBudget, py::handle memory, Int offset) {
            const char* fn = "create_buffer";
            const uint64_t size = U64(sizeArg, fn, "size");
            const std::string n = name.is_none() ? "buffer" : Str(name, fn, "name");
            const ResourcePlacement p = ParsePlacement(heap, pool, committed, withinBudget, memory, U64(offset, fn, "offset"), "create_buffer");
            std::shared_ptr<Buffer> b;
            {
                py::gil_scoped_release release;
                b = d.CreateBuffer(size, uav, p, n);
            }
            return b;
        }, "size"_a, py::kw_only(), "uav"_a = false, "name"_a = py::none(), "heap"_a = "default", "pool"_a = py::none(),
           "committed"_a = false, "within_budget"_a = false, "memory"_a = py::none(), "offset"_a = 0,
           "A buffer of `size` bytes (> 0), reading as zeros. uav=True allows unordered access. heap: 'default' (GPU memory),\n"
           "'upload' / 'readback' (CPU-visible, persistently mapped: Buffer.map), 'custom' (CPU-visible device memory on a\n"
           "cache-coherent UMA adapter). pool: a dx12kit.Pool to allocate from. committed=True gives the buffer its own\n"
           "memory; within_budget=True raises OutOfMemoryError rather than exceed the device's memory budget.\n"
           "memory=, offset=: place the buffer at `offset` of a dx12kit.Memory (Device.allocate_memory), where other\n"
           "resources may alias it; its contents are then undefined until written.")
        .def("create_texture2d", [](Device& d, Int wArg, Int hArg, py::handle format, Int mipsArg, Int arrayArg, bool rt, bool ds,
                                    bool uav, py::object name, py::handle heap, py::handle pool, bool committed, bool withinBudget,
                                    py::handle memory, Int offset) {
            const char* fn = "create_texture2d";
            const uint32_t w = U32(wArg, fn, "width"), h = U32(hArg, fn, "height");
            const uint32_t mips = U32(mipsArg, fn, "mip_levels"), arraySize = U32(arrayArg, fn, "array_size");
            const ResourcePlacement p = ParsePlacement(heap, pool, committed, withinBudget, memory, U64(offset, fn, "offset"), "create_texture2d");
            const DXGI_FORMAT f = ParseFormat(format, "create_texture2d");
            const std::string n = name.is_none() ? "texture" : Str(name, fn, "name");
            std::shared_ptr<Texture> t;
            {
                py::gil_scoped_release release;
                t = d.CreateTexture2D(w, h, f, mips, arraySize, rt, ds, uav, n, p);
            }
            return t;
        }, "width"_a, "height"_a, "format"_a = "rgba8_unorm", py::kw_only(), "mip_levels"_a = 1, "array_size"_a = 1,
           "render_target"_a = false, "depth_stencil"_a = false, "uav"_a = false, "name"_a = py::none(), "heap"_a = "default",
           "pool"_a = py::none(), "committed"_a = false, "within_budget"_a = false, "memory"_a = py::none(), "offset"_a = 0,
           "A 2D texture, reading as zeros (render targets and depth buffers start cleared to 0). mip_levels=0 means a\n"
           "full chain. pool, committed, within_budget, memory, offset: as for create_buffer.")
        .def("create_root_signature", [](Device& d, py::object parametersOrText, std::vector<StaticSamplerDesc> samplers, py::object flags,
                                         py::object name) {
            std::vector<RootParameterDesc> params;
            uint32_t f = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
            if (py::isinstance<py::str>(parametersOrText)) {
                // The HLSL root-signature language, parsed in Python (dx12kit/rootsig.py).
                py::tuple parsed = py::module_::import("dx12kit.rootsig").attr("parse_root_signature")(parametersOrText);
                params = parsed[0].cast<std::vector<RootParameterDesc>>();
                auto textSamplers = parsed[1].cast<std::vector<StaticSamplerDesc>>();
                textSamplers.insert(textSamplers.end(), samplers.begin(), samplers.end());
                samplers = std::move(textSamplers);
                f = parsed[2].cast<uint32_t>();
            } else {
                try {
                    params = parametersOrText.cast<std::vector<RootParameterDesc>>();
                } catch (const py::cast_error&) {
                    throw py::type_error("create_root_signature: expected a list of root parameters (RootConstants, RootCBV, RootSRV, "
                                         "RootUAV, DescriptorTable) or root-signature text, got " +
                                         std::string(py::str(py::type::of(parametersOrText).attr("__name__"))));
                }
            }
            if (!flags.is_none()) f = CheckFlags(U32(flags, "create_root_signature", "flags"), kRootSignatureFlags, "create_root_signature flags");
            auto rs = std::make_shared<RootSignature>(d.Core(), std::move(params), std::move(samplers), f);
            if (!name.is_none()) rs->SetName(Str(name, "create_root_signature", "name"));
            return rs;
        }, "parameters_or_text"_a, "static_samplers"_a = std::vector<StaticSamplerDesc>{}, py::kw_only(), "flags"_a = py::none(),
           "name"_a = py::none(),
           "A root signature from a list of root parameters (RootConstants, RootCBV, RootSRV, RootUAV, DescriptorTable) or from\n"
           "text in the HLSL root-signature language (as in [RootSignature(...)]; see dx12kit.rootsig). static_samplers are\n"
           "added to the text's. flags: D3D12_ROOT_SIGNATURE_FLAGS (default: ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT for parameter\n"
           "lists, the text's RootFlags for text). name: debug name (repr, D3D12 SetName).\n\n"
           "Raises:\n    InvalidArgumentError: bad parameters, or text that does not parse (the message shows the column).")
        .def("create_compute_pipeline", [](Device& d, py::handle cs, std::shared_ptr<RootSignature> rs, py::object name) {
            auto p = std::make_shared<PipelineState>(d.Core(), Bytecode(cs, "create_compute_pipeline"), std::move(rs));
            if (!name.is_none()) p->SetName(Str(name, "create_compute_pipeline", "name"));
            return p;
        }, "cs"_a, "root_signature"_a, py::kw_only(), "name"_a = py::none(),
           "A compute pipeline from compute-shader bytecode (DXBC: bytes, a Shader or anything with the buffer protocol)\n"
           "and the root signature it runs with. name: debug name (repr, D3D12 SetName).\n\n"
           "Raises:\n    InvalidArgumentError: bytecode that is not valid DXBC, or bindings the root signature lacks.")
        .def("create_graphics_pipeline", [](Device& d, py::handle vs, py::handle ps, std::shared_ptr<RootSignature> rs, py::object rtvFormats,
                                            py::object dsvFormat, py::object inputLayout, py::handle topology, py::handle cull, py::object blend,
                                            bool depthTest, bool depthWrite, py::object stencilFunc, py::handle stencilPassOp, py::object name) {
            const char* fn = "create_graphics_pipeline";
            GraphicsPipelineDesc g;
            g.vs = Bytecode(vs, "create_graphics_pipeline (vs)");
            if (!ps.is_none()) g.ps = Bytecode(ps, "create_graphics_pipeline (ps)");
            if (py::isinstance<py::str>(rtvFormats) || PyIndex_Check(rtvFormats.ptr()))
                g.rtvFormats.push_back(ParseFormat(rtvFormats, "create_graphics_pipeline: rtv_formats"));
            else if (py::isinstance<py::iterable>(rtvFormats))
                for (py::handle f : rtvFormats) g.rtvFormats.push_back(ParseFormat(f, "create_graphics_pipeline: rtv_formats"));
            else throw py::type_error("create_graphics_pipeline: rtv_formats must be a format or a list of formats, not " + detail::TypeName(rtvFormats));
            if (!dsvFormat.is_none()) g.dsvFormat = ParseFormat(dsvFormat, "create_graphics_pipeline: dsv_format");
            if (!inputLayout.is_none()) {
                if (!py::isinstance<py::iterable>(inputLayout))
                    throw py::type_error("create_graphics_pipeline: input_layout must be a list of tuples, not " + detail::TypeName(inputLayout));
                for (py::handle e : inputLayout) {
                    if (!py::isinstance<py::tuple>(e) && !py::isinstance<py::list>(e))
                        throw py::type_error("create_graphics_pipeline: input_layout entries are tuples, not " + detail::TypeName(e));
                    py::tuple t = py::tuple(py::reinterpret_borrow<py::object>(e));
                    if (t.size() < 2 || t.size() > 5)
                        throw InvalidArgument("input_layout: entries are (semantic, format[, slot[, offset[, semantic_index]]])");
                    InputElementDesc ie;
                    ie.semantic = Str(t[0], fn, "input_layout semantic");
                    ie.format = ParseChoice<DXGI_FORMAT>(t[1], "create_graphics_pipeline: input_layout format",
                                                         {{"float", DXGI_FORMAT_R32_FLOAT}, {"float2", DXGI_FORMAT_R32G32_FLOAT},
                                                          {"float3", DXGI_FORMAT_R32G32B32_FLOAT}, {"float4", DXGI_FORMAT_R32G32B32A32_FLOAT},
                                                          {"uint", DXGI_FORMAT_R32_UINT}, {"rgba8_unorm", DXGI_FORMAT_R8G8B8A8_UNORM}});
                    if (t.size() > 2) ie.slot = U32(t[2], fn, "input_layout slot");
                    if (t.size() > 3) ie.offset = U32(t[3], fn, "input_layout offset");
                    if (t.size() > 4) ie.semanticIndex = U32(t[4], fn, "input_layout semantic_index");
                    if (ie.slot >= D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)
                        throw InvalidArgument("create_graphics_pipeline: input_layout slot " + std::to_string(ie.slot) + " out of range (0..31)");
                    g.inputLayout.push_back(ie);
                }
            }
            g.topology = ParseChoice<D3D_PRIMITIVE_TOPOLOGY>(topology, "create_graphics_pipeline: topology",
                                                             {{"triangle", D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST},
                                                              {"triangle_list", D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST},
                                                              {"triangle_strip", D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP},
                                                              {"line", D3D_PRIMITIVE_TOPOLOGY_LINELIST}, {"line_list", D3D_PRIMITIVE_TOPOLOGY_LINELIST},
                                                              {"point", D3D_PRIMITIVE_TOPOLOGY_POINTLIST}, {"point_list", D3D_PRIMITIVE_TOPOLOGY_POINTLIST}});
            g.topologyType = g.topology == D3D_PRIMITIVE_TOPOLOGY_POINTLIST  ? D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT
                             : g.topology == D3D_PRIMITIVE_TOPOLOGY_LINELIST ? D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE
                                                                             : D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
            g.cull = ParseChoice<D3D12_CULL_MODE>(cull, "create_graphics_pipeline: cull",
                                                  {{"none", D3D12_CULL_MODE_NONE}, {"front", D3D12_CULL_MODE_FRONT}, {"back", D3D12_CULL_MODE_BACK}});
            // Blend modes are dx12kit's presets, not a D3D12 enum: strings only.
            g.blend = blend.is_none() ? BlendMode::None
                                      : ParseChoice<BlendMode>(blend, "create_graphics_pipeline: blend",
                                                               {{"none", BlendMode::None}, {"alpha", BlendMode::Alpha},
                                                                {"additive", BlendMode::Additive}, {"premultiplied", BlendMode::Premultiplied}},
                                                               false);
            g.depthTest = depthTest;
            g.depthWrite = depthWrite;
            if (!stencilFunc.is_none()) {
                g.stencilTest = true;
                g.stencilFunc = ParseChoice<D3D12_COMPARISON_FUNC>(stencilFunc, "stencil_func",
                    {{"never", D3D12_COMPARISON_FUNC_NEVER}, {"less", D3D12_COMPARISON_FUNC_LESS}, {"equal", D3D12_COMPARISON_FUNC_EQUAL},
                     {"less_equal", D3D12_COMPARISON_FUNC_LESS_EQUAL}, {"greater", D3D12_COMPARISON_FUNC_GREATER},
                     {"not_equal", D3D12_COMPARISON_FUNC_NOT_EQUAL}, {"greater_equal", D3D12_COMPARISON_FUNC_GREATER_EQUAL},
                     {"always", D3D12_COMPARISON_FUNC_ALWAYS}});
                g.stencilPassOp = ParseChoice<D3D12_STENCIL_OP>(stencilPassOp, "stencil_pass_op",
                    {{"keep", D3D12_STENCIL_OP_KEEP}, {"zero", D3D12_STENCIL_OP_ZERO}, {"replace", D3D12_STENCIL_OP_REPLACE},
                     {"incr_sat", D3D12_STENCIL_OP_INCR_SAT}, {"decr_sat", D3D12_STENCIL_OP_DECR_SAT}, {"invert", D3D12_STENCIL_OP_INVERT},
                     {"incr", D3D12_STENCIL_OP_INCR}, {"decr", D3D12_STENCIL_OP_DECR}});
            }
            if (depthTest && g.dsvFormat == DXGI_FORMAT_UNKNOWN) throw InvalidArgument("create_graphics_pipeline: depth_test=True needs dsv_format");
            auto p = std::make_shared<PipelineState>(d.Core(), g, std::move(rs));
            if (!name.is_none()) p->SetName(Str(name, fn, "name"));
            return p;
        }, "vs"_a, "ps"_a, "root_signature"_a, "rtv_formats"_a, "dsv_format"_a = py::none(), "input_layout"_a = py::none(),
           "topology"_a = "triangle", "cull"_a = "none", "blend"_a = py::none(), "depth_test"_a = false, "depth_write"_a = true,
           "stencil_func"_a = py::none(), "stencil_pass_op"_a = "keep", py::kw_only(), "name"_a = py::none(),
           "A graphics pipeline.\n\n"
           "Args:\n"
           "    vs, ps: vertex and pixel shader bytecode (ps may be None).\n"
           "    rtv_formats: a format or a list of formats (dx12kit.Format or names such as 'rgba8_unorm').\n"
           "    dsv_format: depth-stencil format, or None.\n"
           "    input_layout: [(semantic, dx12kit.VertexFormat, slot, offset, semantic_index), ...] (the last three optional).\n"
           "    topology: dx12kit.Topology; cull: dx12kit.CullMode; blend: dx12kit.BlendMode or None (strings accepted).\n"
           "    depth_test, depth_write: depth state (depth_test needs dsv_format).\n"
           "    stencil_func: a dx12kit.ComparisonFunc (None: no stencil test) comparing CommandList.set_stencil_ref's value\n"
           "        with the stencil plane; needs a dsv_format with stencil (d24_unorm_s8_uint, d32_float_s8x24_uint).\n"
           "    stencil_pass_op: a dx12kit.StencilOp ('keep', 'zero', 'replace', 'incr_sat', 'decr_sat', 'invert', 'incr',\n"
           "        'decr'), applied where depth and stencil pass.\n"
           "    name: debug name (repr, D3D12 SetName).")
        .def("create_sampler", [](Device& d, py::handle filter, py::handle address, py::object name) {
            D3D12_SAMPLER_DESC s{};
            s.Filter = ParseFilter(filter, "create_sampler");
            s.AddressU = s.AddressV = s.AddressW = ParseAddress(address, "create_sampler");
            s.MaxAnisotropy = 16;
            s.ComparisonFunc = D3D12_COMPARISON_FUNC_NEVER;
            s.MaxLOD = 3.402823466e+38f;
            auto sampler = std::make_shared<Sampler>(d.Core(), s);
            if (!name.is_none()) sampler->SetName(Str(name, "create_sampler", "name"));
            return sampler;
        }, py::kw_only(), "filter"_a = "linear", "address"_a = "clamp", "name"_a = py::none(),
           "A sampler (a SamplerState) to bind with CommandList.set_sampler. filter: dx12kit.Filter; address: dx12kit.AddressMode\n"
           "for u, v and w (strings accepted); name: debug name shown by repr.")
        .def("format_support", [](Device& d, py::handle format) { return QueryFormatSupport(*d.Core(), ParseFormat(format, "format_support")); },
             "format"_a, "What this device supports for `format` (queried once per format and cached): a FormatSupport.")
        .def("poll", &Device::Poll, py::call_guard<py::gil_scoped_release>(),
             "Releases completed work; returns the completed submission serial.")
        .def("wait_idle", &Device::WaitIdle, py::call_guard<py::gil_scoped_release>(), "Waits until every queue is idle.")
        .def("descriptor_stats", [](Device& d) { return DescriptorStatsDict(*d.Core()); },
             "Per heap type: in_use, pages, peak, stale, capacity; shader_visible: static/dynamic use for CBV_SRV_UAV and SAMPLER.")
        .def("stats", [](Device& d) {
            DeviceCore& c = *d.Core();
            BarrierStats& b = c.Barriers();
            py::dict out;
            out["upload"] = UploadStatsDict(c.UploadPages().GetStats());
            out["barriers"] = py::dict("recorded"_a = b.recorded.load(), "batches"_a = b.batches.load(),
                                       "inserted_at_execute"_a = b.insertedAtExecute.load(), "uav"_a = b.uav.load(),
                                       "aliasing"_a = b.aliasing.load());
            out["descriptors"] = DescriptorStatsDict(c);
            out["live_resources"] = c.LiveResources().load();
            out["memory"] = TotalMemoryStatsDict(c.Memory().Stats());
            out["zero_init"] = py::dict("resources"_a = c.ZeroInitCounters().resources.load(), "bytes"_a = c.ZeroInitCounters().bytes.load());
            out["last_serial"] = c.LastSerial();
            out["completed_serial"] = c.CompletedSerial();
            return out;
        }, "Statistics as a plain dict: upload pages, barriers, descriptors, live resources, memory (as memory_stats()),\n"
   "zero_init (new resources zeroed before first use, and the bytes copied for it).");
}

}  // namespace dx12kit::bindings
