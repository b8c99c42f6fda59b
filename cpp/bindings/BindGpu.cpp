// Bindings of the D3D12 layer: Device, CommandQueue, CommandList, resources, pipelines.
// Only conversions live here (strings -> enums, numpy <-> bytes); behaviour is in cpp/src/.
#include "Bindings.hpp"

#include "dx12kit/core/Errors.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
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
        const std::string name = Lower(h.cast<std::string>());
        if (const FormatInfo* f = FindFormat(name.c_str())) return f->format;
        throw InvalidArgument(std::string(what) + ": unsupported format '" + name + "'; supported: " + FormatNames());
    }
    if (py::isinstance<py::int_>(h) || py::hasattr(h, "value")) {
        const int v = py::int_(py::reinterpret_borrow<py::object>(h)).cast<int>();
        if (const FormatInfo* f = FindFormat(static_cast<DXGI_FORMAT>(v))) return f->format;
        throw InvalidArgument(std::string(what) + ": unsupported format " + std::to_string(v) + "; supported: " + FormatNames());
    }
    throw InvalidArgument(std::string(what) + ": a format is a string such as 'rgba8_unorm' or a dx12kit.Format");
}

template <typename T>
T ParseChoice(py::handle h, const char* what, std::initializer_list<std::pair<const char*, T>> choices) {
    if (!py::isinstance<py::str>(h)) {
        if (py::isinstance<py::int_>(h)) return static_cast<T>(h.cast<int>());
        throw InvalidArgument(std::string(what) + ": expected a string");
    }
    const std::string s = Lower(h.cast<std::string>());
    std::string names;
    for (const auto& c : choices) {
        if (s == c.first) return c.second;
        names += (names.empty() ? "" : ", ") + std::string(c.first);
    }
    throw InvalidArgument(std::string(what) + ": '" + s + "' is not one of " + names);
}

D3D12_SHADER_VISIBILITY ParseVisibility(py::handle h) {
    return ParseChoice<D3D12_SHADER_VISIBILITY>(h, "visibility",
                                                {{"all", D3D12_SHADER_VISIBILITY_ALL}, {"vertex", D3D12_SHADER_VISIBILITY_VERTEX},
                                                 {"pixel", D3D12_SHADER_VISIBILITY_PIXEL}, {"vs", D3D12_SHADER_VISIBILITY_VERTEX},
                                                 {"ps", D3D12_SHADER_VISIBILITY_PIXEL}});
}

D3D12_FILTER ParseFilter(py::handle h) {
    return ParseChoice<D3D12_FILTER>(h, "filter",
                                     {{"point", D3D12_FILTER_MIN_MAG_MIP_POINT}, {"linear", D3D12_FILTER_MIN_MAG_MIP_LINEAR},
                                      {"bilinear", D3D12_FILTER_MIN_MAG_LINEAR_MIP_POINT}, {"anisotropic", D3D12_FILTER_ANISOTROPIC}});
}

D3D12_TEXTURE_ADDRESS_MODE ParseAddress(py::handle h) {
    return ParseChoice<D3D12_TEXTURE_ADDRESS_MODE>(h, "address",
                                                   {{"clamp", D3D12_TEXTURE_ADDRESS_MODE_CLAMP}, {"wrap", D3D12_TEXTURE_ADDRESS_MODE_WRAP},
                                                    {"mirror", D3D12_TEXTURE_ADDRESS_MODE_MIRROR}, {"border", D3D12_TEXTURE_ADDRESS_MODE_BORDER}});
}

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

std::vector<uint8_t> Bytecode(py::handle h, const char* what) {
    py::object obj = py::reinterpret_borrow<py::object>(h);
    if (py::hasattr(obj, "bytecode")) obj = obj.attr("bytecode");
    if (!py::isinstance<py::bytes>(obj) && !py::isinstance<py::bytearray>(obj) && !py::isinstance<py::memoryview>(obj))
        throw InvalidArgument(std::string(what) + ": expected a dx12kit.Shader or DXBC bytes");
    py::buffer_info info = py::reinterpret_borrow<py::buffer>(obj).request();
    const auto* p = static_cast<const uint8_t*>(info.ptr);
    return std::vector<uint8_t>(p, p + info.size * info.itemsize);
}

/// Contiguous bytes of any buffer-protocol object; InvalidArgument names `what` otherwise.
struct Bytes {
    py::buffer_info info;
    const void* data;
    uint64_t size;
};
Bytes GetBytes(py::handle h, const char* what) {
    if (!PyObject_CheckBuffer(h.ptr())) throw InvalidArgument(std::string(what) + ": expected a numpy array or bytes-like object");
    py::buffer_info info = py::reinterpret_borrow<py::buffer>(h).request();
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
    for (py::handle v : values) {
        if (py::isinstance<py::float_>(v)) {
            float f = v.cast<float>();
            uint32_t u;
            std::memcpy(&u, &f, 4);
            out.push_back(u);
        } else if (py::isinstance<py::int_>(v)) {
            long long i = v.cast<long long>();
            if (i < INT32_MIN || i > UINT32_MAX) throw InvalidArgument(std::string(what) + ": integer out of 32-bit range");
            out.push_back(static_cast<uint32_t>(i));
        } else {
            throw InvalidArgument(std::string(what) + ": values must be ints or floats");
        }
    }
    return out;
}

/// A numpy dtype with a fixed, non-zero item size (not 'S', 'U' or 'V' without a size).
py::dtype FixedSizeDtype(const py::object& dtype) {
    py::dtype dt = py::dtype::from_args(dtype);
    if (dt.itemsize() <= 0) throw InvalidArgument("dtype " + std::string(py::str(dt)) + " has no fixed item size");
    return dt;
}

/// A new, writable, C-contiguous numpy array (numpy.empty).
py::array NewArray(const py::dtype& dtype, const py::tuple& shape) {
    return py::module_::import("numpy").attr("empty")(shape, dtype).cast<py::array>();
}

std::shared_ptr<Resource> AsResource(py::handle h, const char* what) {
    if (h.is_none()) throw InvalidArgument(std::string(what) + ": None is not a resource");
    try {
        return h.cast<std::shared_ptr<Resource>>();
    } catch (const py::cast_error&) {
        throw InvalidArgument(std::string(what) + ": expected a dx12kit Buffer or Texture");
    }
}

py::dict UploadStatsDict(const UploadPoolStats& s) {
    py::dict d;
    const char* names[2] = {"cpu", "gpu"};
    for (int k = 0; k < 2; ++k) {
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
        .def("__repr__", [](const DescriptorRangeDesc& r) {
            const char* k[] = {"SRV", "UAV", "CBV", "Sampler"};
            return std::string(k[int(r.kind)]) + "(" + std::to_string(r.shaderRegister) + ", count=" + std::to_string(r.count) + ")";
        });
    auto range = [&m](const char* name, RangeKind kind, const char* doc) {
        m.def(name, [kind](uint32_t reg, uint32_t count, uint32_t space) {
            if (count == 0) throw InvalidArgument("descriptor range count must be positive");
            return DescriptorRangeDesc{kind, reg, count, space};
        }, "register"_a, "count"_a = 1, "space"_a = 0, doc);
    };
    range("SRV", RangeKind::Srv, "A range of shader resource views (t registers) in a DescriptorTable.");
    range("UAV", RangeKind::Uav, "A range of unordered access views (u registers) in a DescriptorTable.");
    range("CBV", RangeKind::Cbv, "A range of constant buffer views (b registers) in a DescriptorTable.");
    range("Sampler", RangeKind::Sampler, "A range of samplers (s registers) in a DescriptorTable.");

    py::class_<RootParameterDesc>(m, "RootParameter", "A root parameter (made by RootConstants, RootCBV, RootSRV, RootUAV, DescriptorTable).")
        .def_readonly("register", &RootParameterDesc::shaderRegister)
        .def_readonly("space", &RootParameterDesc::space)
        .def_readonly("count", &RootParameterDesc::num32BitValues)
        .def_readonly("ranges", &RootParameterDesc::ranges);
    m.def("RootConstants", [](uint32_t reg, uint32_t count, uint32_t space, py::handle vis) {
        if (count == 0) throw InvalidArgument("RootConstants: count must be positive");
        RootParameterDesc p{RootParamKind::Constants, reg, space, count, {}, ParseVisibility(vis)};
        return p;
    }, "register"_a, "count"_a, "space"_a = 0, "visibility"_a = "all", "32-bit root constants (a cbuffer at register b<register>).");
    auto rootView = [&m](const char* name, RootParamKind kind, const char* doc) {
        m.def(name, [kind](uint32_t reg, uint32_t space, py::handle vis) {
            return RootParameterDesc{kind, reg, space, 0, {}, ParseVisibility(vis)};
        }, "register"_a, "space"_a = 0, "visibility"_a = "all", doc);
    };
    rootView("RootCBV", RootParamKind::Cbv, "A root constant buffer view (GPU address of a buffer).");
    rootView("RootSRV", RootParamKind::Srv, "A root shader resource view (a buffer, e.g. StructuredBuffer).");
    rootView("RootUAV", RootParamKind::Uav, "A root unordered access view (a buffer, e.g. RWStructuredBuffer).");
    m.def("DescriptorTable", [](std::vector<DescriptorRangeDesc> ranges, py::handle vis) {
        if (ranges.empty()) throw InvalidArgument("DescriptorTable: at least one range");
        return RootParameterDesc{RootParamKind::Table, 0, 0, 0, std::move(ranges), ParseVisibility(vis)};
    }, "ranges"_a, "visibility"_a = "all", "A descriptor table: a list of SRV/UAV/CBV ranges, or of Sampler ranges.");
    py::class_<StaticSamplerDesc>(m, "StaticSamplerDesc", "A static sampler of a root signature (made by StaticSampler).")
        .def_readonly("register", &StaticSamplerDesc::shaderRegister);
    m.def("StaticSampler", [](uint32_t reg, py::handle filter, py::handle address, uint32_t space, py::handle vis) {
        return StaticSamplerDesc{reg, ParseFilter(filter), ParseAddress(address), space, ParseVisibility(vis)};
    }, "register"_a, "filter"_a = "linear", "address"_a = "clamp", "space"_a = 0, "visibility"_a = "all",
          "A static sampler: filter 'point' | 'linear' | 'bilinear' | 'anisotropic'; address 'clamp' | 'wrap' | 'mirror' | 'border'.");

    // ---- resources ----------------------------------------------------------------------------
    py::class_<Resource, std::shared_ptr<Resource>>(m, "Resource", "A GPU resource (Buffer or Texture).")
        .def_property_readonly("name", &Resource::Name)
        .def_property_readonly("num_subresources", &Resource::NumSubresources)
        .def_property_readonly("uav", &Resource::AllowsUav)
        .def_property_readonly("cached_views", &Resource::CachedViewCount, "Number of descriptor views created for it (cached).")
        .def("close", &Resource::Close,
             "Marks the resource closed: any later use (barriers, bindings, copies, reads) raises UseAfterFreeError.\n"
             "Work already recorded or submitted still completes; the memory is released once the last reference\n"
             "(this object, command lists in flight) is gone. Closing twice is allowed.")
        .def_property_readonly("closed", &Resource::IsClosed)
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](Resource& r, py::args) { r.Close(); })
        .def("global_state", [](Resource& r, uint32_t sub) {
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
        .def_property_readonly("size", &Buffer::Size)
        .def_property_readonly("gpu_address", &Buffer::GpuAddress)
        .def("__repr__", [](const Buffer& b) { return "<dx12kit.Buffer '" + b.Name() + "' " + std::to_string(b.Size()) + " bytes>"; });
    py::class_<Texture, Resource, std::shared_ptr<Texture>>(m, "Texture", "A 2D texture (array). Create with Device.create_texture2d.")
        .def_property_readonly("width", [](const Texture& t) { return t.Width(); })
        .def_property_readonly("height", [](const Texture& t) { return t.Height(); })
        .def_property_readonly("format", &Texture::ViewFormat)
        .def_property_readonly("mip_levels", &Texture::MipLevels)
        .def_property_readonly("array_size", &Texture::ArraySize)
        .def_property_readonly("shape", [](const Texture& t) {
            const FormatInfo& fi = RequireFormat(t.ViewFormat(), "shape");
            return py::make_tuple(t.Height(), t.Width(), fi.channels);
        })
        .def("__repr__", [](const Texture& t) {
            const FormatInfo* fi = FindFormat(t.ViewFormat());
            return "<dx12kit.Texture '" + t.Name() + "' " + std::to_string(t.Width()) + "x" + std::to_string(t.Height()) + " " +
                   (fi ? fi->name : "?") + ">";
        });

    py::class_<RootSignature, std::shared_ptr<RootSignature>>(m, "RootSignature", "A root signature. Create with Device.create_root_signature.")
        .def_property_readonly("num_parameters", [](const RootSignature& r) { return r.Parameters().size(); });
    py::class_<PipelineState, std::shared_ptr<PipelineState>>(m, "PipelineState", "A compute or graphics pipeline state object.")
        .def_property_readonly("is_compute", &PipelineState::IsCompute)
        .def_property_readonly("root_signature", &PipelineState::GetRootSignature);
    py::class_<Sampler, std::shared_ptr<Sampler>>(m, "SamplerState", "A sampler descriptor. Create with Device.create_sampler.");

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
        .def_property_readonly("size", [](const PyUpload& u) { return u.alloc.size; })
        .def_property_readonly("gpu_address", [](const PyUpload& u) { return u.alloc.gpu; })
        .def_property_readonly("offset", [](const PyUpload& u) { return u.alloc.offset; })
        .def("array", [](py::object self, py::object dtype, py::object shape) {
            PyUpload& u = self.cast<PyUpload&>();
            if (u.list->IsClosed()) throw UseAfterFree("UploadAllocation.array: the command list was already executed");
            py::dtype dt = FixedSizeDtype(dtype);
            const uint64_t n = u.alloc.size / dt.itemsize();
            std::vector<py::ssize_t> shp;
            if (shape.is_none()) shp = {static_cast<py::ssize_t>(n)};
            else shp = shape.cast<std::vector<py::ssize_t>>();
            uint64_t count = 1;
            for (auto s : shp) count *= uint64_t(s);
            if (count * dt.itemsize() > u.alloc.size) throw InvalidArgument("UploadAllocation.array: shape larger than the allocation");
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
        .def_property_readonly("upload_pages", &CommandList::UploadPageCount)
        .def("upload", [](CommandList& cl, py::handle res, py::handle array, uint32_t mip, uint32_t slice, uint64_t offset) {
            auto r = AsResource(res, "upload");
            Bytes b = GetBytes(array, "upload");
            if (!r->IsBuffer()) CheckTextureArray(static_cast<Texture&>(*r), b, mip);
            cl.Upload(r, b.data, b.size, mip, slice, offset);
        }, "resource"_a, "array"_a, "mip"_a = 0, "array_slice"_a = 0, "offset"_a = 0,
           "Copies a numpy array into a buffer (at byte `offset`) or a texture subresource through upload memory.\n"
           "Textures take shape (height, width, channels) matching the format.")
        .def("copy_resource", [](CommandList& cl, py::handle dst, py::handle src) {
            cl.CopyResource(AsResource(dst, "copy_resource"), AsResource(src, "copy_resource"));
        }, "dst"_a, "src"_a)
        .def("copy_buffer_region", [](CommandList& cl, py::handle dst, uint64_t dstOffset, py::handle src, uint64_t srcOffset, uint64_t size) {
            cl.CopyBufferRegion(AsResource(dst, "copy_buffer_region"), dstOffset, AsResource(src, "copy_buffer_region"), srcOffset, size);
        }, "dst"_a, "dst_offset"_a, "src"_a, "src_offset"_a, "size"_a)
        .def("allocate_upload", [](std::shared_ptr<CommandList> cl, uint64_t size, uint64_t alignment) {
            return PyUpload{cl->AllocateUpload(size, alignment), cl};
        }, "size"_a, "alignment"_a = 256, "Upload memory for the zero-copy path (see UploadAllocation).")
        .def("allocate_texture_upload", [](std::shared_ptr<CommandList> cl, py::handle tex, uint32_t mip) {
            auto r = AsResource(tex, "allocate_texture_upload");
            if (r->IsBuffer()) throw InvalidArgument("allocate_texture_upload: not a texture");
            auto& t = static_cast<Texture&>(*r);
            t.CheckMipSlice(mip, 0, "allocate_texture_upload");
            return PyUpload{cl->AllocateUpload(t.Footprint(mip, 0).PaddedBytes(), D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT), cl};
        }, "texture"_a, "mip"_a = 0, "Upload memory laid out for a texture mip (rows 256-byte aligned): fill .array(), then copy_from_upload.")
        .def("copy_from_upload", [](CommandList& cl, py::handle dst, const PyUpload& u, uint32_t mip, uint32_t slice, uint64_t offset) {
            if (u.list.get() != &cl) throw InvalidArgument("copy_from_upload: the allocation belongs to another command list");
            cl.CopyFromUpload(AsResource(dst, "copy_from_upload"), u.alloc, mip, slice, offset);
        }, "dst"_a, "allocation"_a, "mip"_a = 0, "array_slice"_a = 0, "offset"_a = 0)
        .def("transition_barrier", [](CommandList& cl, py::handle r, D3D12_RESOURCE_STATES s, uint32_t sub) {
            cl.TransitionBarrier(AsResource(r, "transition_barrier"), s, sub);
        }, "resource"_a, "state"_a, "subresource"_a = kAllSubresources,
           "Requests a state explicitly (goes through the state tracker; rarely needed).")
        .def("uav_barrier", [](CommandList& cl, py::handle r) {
            cl.UavBarrier(r.is_none() ? nullptr : AsResource(r, "uav_barrier"));
        }, "resource"_a = py::none())
        .def("aliasing_barrier", [](CommandList& cl, py::handle before, py::handle after) {
            cl.AliasingBarrier(before.is_none() ? nullptr : AsResource(before, "aliasing_barrier"),
                               after.is_none() ? nullptr : AsResource(after, "aliasing_barrier"));
        }, "before"_a = py::none(), "after"_a = py::none())
        .def("raw_transition", [](CommandList& cl, py::handle r, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after, uint32_t sub) {
            cl.RawTransition(AsResource(r, "raw_transition"), before, after, sub);
        }, "resource"_a, "before"_a, "after"_a, "subresource"_a = kAllSubresources,
           "Escape hatch: records a transition barrier directly, without the state tracker. Device(validate=True) reports\n"
           "uses that then find the resource in a state the tracker did not expect.")
        .def("set_pipeline_state", &CommandList::SetPipelineState, "pso"_a,
             "Binds a pipeline and its root signature; later set_* calls apply to its side (graphics or compute).")
        .def("set_constants", [](CommandList& cl, uint32_t root, py::handle values, uint32_t offset) {
            std::vector<uint32_t> v = Dwords(values, "set_constants");
            cl.SetConstants(root, v.data(), static_cast<uint32_t>(v.size()), offset);
        }, "root_index"_a, "values"_a, "offset"_a = 0, "Sets 32-bit root constants (numpy array, bytes, or a list of ints/floats).")
        .def("set_root_cbv", [](CommandList& cl, uint32_t root, py::handle b, uint64_t off) { cl.SetRootView(RootParamKind::Cbv, root, AsResource(b, "set_root_cbv"), off); },
             "root_index"_a, "buffer"_a, "offset"_a = 0)
        .def("set_root_srv", [](CommandList& cl, uint32_t root, py::handle b, uint64_t off) { cl.SetRootView(RootParamKind::Srv, root, AsResource(b, "set_root_srv"), off); },
             "root_index"_a, "buffer"_a, "offset"_a = 0)
        .def("set_root_uav", [](CommandList& cl, uint32_t root, py::handle b, uint64_t off) { cl.SetRootView(RootParamKind::Uav, root, AsResource(b, "set_root_uav"), off); },
             "root_index"_a, "buffer"_a, "offset"_a = 0)
        .def("set_shader_resource_view", [](CommandList& cl, uint32_t root, uint32_t offset, py::handle r, py::object mip, py::object format) {
            auto res = AsResource(r, "set_shader_resource_view");
            uint32_t first = 0, count = 0;
            if (!mip.is_none()) { first = mip.cast<uint32_t>(); count = 1; }
            DXGI_FORMAT f = format.is_none() ? DXGI_FORMAT_UNKNOWN : ParseFormat(format, "set_shader_resource_view");
            cl.SetShaderResourceView(root, offset, res, first, count, f);
        }, "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = py::none(), "format"_a = py::none(),
           "Stages an SRV of `resource` (all mips, or only `mip`) into slot `descriptor_offset` of the table at `root_index`.")
        .def("set_unordered_access_view", [](CommandList& cl, uint32_t root, uint32_t offset, py::handle r, uint32_t mip) {
            cl.SetUnorderedAccessView(root, offset, AsResource(r, "set_unordered_access_view"), mip);
        }, "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = 0)
        .def("set_constant_buffer_view", [](CommandList& cl, uint32_t root, uint32_t offset, py::handle b) {
            cl.SetConstantBufferView(root, offset, AsResource(b, "set_constant_buffer_view"));
        }, "root_index"_a, "descriptor_offset"_a, "buffer"_a)
        .def("set_sampler", &CommandList::SetSampler, "root_index"_a, "descriptor_offset"_a, "sampler"_a)
        .def("clear_unordered_access_view", [](CommandList& cl, py::handle r, py::sequence values) {
            auto res = AsResource(r, "clear_unordered_access_view");
            if (py::len(values) != 4) throw InvalidArgument("clear_unordered_access_view: 4 values expected");
            bool floats = false;
            for (py::handle v : values) floats |= py::isinstance<py::float_>(v);
            if (floats) {
                float f[4];
                for (int i = 0; i < 4; ++i) f[i] = values[i].cast<float>();
                cl.ClearUnorderedAccessViewFloat(res, f);
            } else {
                uint32_t u[4];
                for (int i = 0; i < 4; ++i) u[i] = values[i].cast<uint32_t>();
                cl.ClearUnorderedAccessViewUint(res, u);
            }
        }, "resource"_a, "values"_a, "Clears a UAV-capable resource to 4 values (floats: float clear; ints: uint clear).")
        .def("set_render_targets", [](CommandList& cl, py::object targets, py::object depth, uint32_t mip) {
            std::vector<std::shared_ptr<Resource>> ts;
            if (!targets.is_none()) {
                if (py::isinstance<Resource>(targets)) ts.push_back(AsResource(targets, "set_render_targets"));
                else for (py::handle t : targets) ts.push_back(AsResource(t, "set_render_targets"));
            }
            cl.SetRenderTargets(ts, depth.is_none() ? nullptr : AsResource(depth, "set_render_targets"), mip);
        }, "textures"_a, "depth"_a = py::none(), py::kw_only(), "mip"_a = 0,
           "Binds render targets (and depth); also sets a full-size viewport and scissor.")
        .def("set_viewport", &CommandList::SetViewport, "x"_a, "y"_a, "width"_a, "height"_a, "min_depth"_a = 0.0f, "max_depth"_a = 1.0f)
        .def("set_scissor", &CommandList::SetScissor, "left"_a, "top"_a, "right"_a, "bottom"_a)
        .def("set_stencil_ref", &CommandList::SetStencilRef, "ref"_a, "The stencil reference value (0..255) of the stencil test.")
        .def("clear_render_target", [](CommandList& cl, py::handle t, std::array<float, 4> rgba, uint32_t mip) {
            cl.ClearRenderTarget(AsResource(t, "clear_render_target"), rgba.data(), mip);
        }, "texture"_a, "rgba"_a, py::kw_only(), "mip"_a = 0)
        .def("clear_depth_stencil", [](CommandList& cl, py::handle t, float d, uint8_t s) {
            cl.ClearDepthStencil(AsResource(t, "clear_depth_stencil"), d, s);
        }, "texture"_a, "depth"_a = 1.0f, "stencil"_a = 0)
        .def("set_vertex_buffer", [](CommandList& cl, uint32_t slot, py::handle b, uint32_t stride, uint64_t off) {
            cl.SetVertexBuffer(slot, AsResource(b, "set_vertex_buffer"), stride, off);
        }, "slot"_a, "buffer"_a, "stride"_a, "offset"_a = 0)
        .def("set_index_buffer", [](CommandList& cl, py::handle b, py::handle format, uint64_t off) {
            DXGI_FORMAT f = ParseChoice<DXGI_FORMAT>(format, "set_index_buffer format", {{"uint16", DXGI_FORMAT_R16_UINT}, {"uint32", DXGI_FORMAT_R32_UINT},
                                                                                         {"r16_uint", DXGI_FORMAT_R16_UINT}, {"r32_uint", DXGI_FORMAT_R32_UINT}});
            cl.SetIndexBuffer(AsResource(b, "set_index_buffer"), f, off);
        }, "buffer"_a, "format"_a = "uint32", "offset"_a = 0)
        .def("set_dynamic_constant_buffer", [](CommandList& cl, uint32_t root, py::handle data) {
            Bytes b = GetBytes(data, "set_dynamic_constant_buffer");
            cl.SetDynamicConstantBuffer(root, b.data, b.size);
        }, "root_index"_a, "data"_a, "Copies `data` into upload memory (256-byte aligned) and binds it as the root CBV `root_index`.")
        .def("set_dynamic_vertex_buffer", [](CommandList& cl, uint32_t slot, py::handle data, py::object stride) {
            Bytes b = GetBytes(data, "set_dynamic_vertex_buffer");
            uint32_t st;
            if (!stride.is_none()) st = stride.cast<uint32_t>();
            else if (b.info.ndim >= 2) st = static_cast<uint32_t>(b.info.strides[0]);
            else throw InvalidArgument("set_dynamic_vertex_buffer: give stride= for a 1-D array (or pass shape (vertices, components))");
            cl.SetDynamicVertexBuffer(slot, b.data, b.size, st);
        }, "slot"_a, "array"_a, "stride"_a = py::none())
        .def("set_dynamic_index_buffer", [](CommandList& cl, py::handle data) {
            Bytes b = GetBytes(data, "set_dynamic_index_buffer");
            const std::string fmt = b.info.format;
            const bool u16 = b.info.itemsize == 2 && (fmt == "H");
            const bool u32 = b.info.itemsize == 4 && (fmt == "I" || fmt == "L");
            if (!u16 && !u32) throw InvalidArgument("set_dynamic_index_buffer: indices must be a uint16 or uint32 array, got format '" + fmt + "'");
            cl.SetDynamicIndexBuffer(b.data, b.size, u16 ? DXGI_FORMAT_R16_UINT : DXGI_FORMAT_R32_UINT);
        }, "array"_a)
        .def("set_dynamic_structured_buffer", [](CommandList& cl, uint32_t root, py::handle data) {
            Bytes b = GetBytes(data, "set_dynamic_structured_buffer");
            cl.SetDynamicStructuredBuffer(root, b.data, b.size);
        }, "root_index"_a, "array"_a, "Copies `array` into upload memory and binds it as the root SRV `root_index`.")
        .def("draw", &CommandList::Draw, "vertex_count"_a, "instance_count"_a = 1, "start_vertex"_a = 0, "start_instance"_a = 0)
        .def("draw_indexed", &CommandList::DrawIndexed, "index_count"_a, "instance_count"_a = 1, "start_index"_a = 0, "base_vertex"_a = 0,
             "start_instance"_a = 0)
        .def("dispatch", &CommandList::Dispatch, "x"_a, "y"_a = 1, "z"_a = 1);

    // ---- queue ----------------------------------------------------------------------------------
    py::class_<CommandQueue, std::shared_ptr<CommandQueue>>(m, "CommandQueue", "A direct, compute or copy queue. Get one with Device.queue(kind).")
        .def_property_readonly("kind", [](const CommandQueue& q) { return QueueKindName(q.Type()); })
        .def("command_list", [](std::shared_ptr<CommandQueue> q) { return q->CreateCommandList(q); }, "A new CommandList for this queue.")
        .def("execute", [](CommandQueue& q, py::object lists) {
            std::vector<std::shared_ptr<CommandList>> v;
            if (py::isinstance<CommandList>(lists)) v.push_back(lists.cast<std::shared_ptr<CommandList>>());
            else for (py::handle h : lists) {
                if (!py::isinstance<CommandList>(h)) throw InvalidArgument("execute: expected CommandList objects");
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
        .def_property_readonly("completed_value", &CommandQueue::CompletedValue)
        .def_property_readonly("last_submitted_value", &CommandQueue::LastSubmittedValue)
        .def("read_buffer", [](std::shared_ptr<CommandQueue> q, py::handle b, py::object dtype, std::optional<double> timeout) {
            const double t = Timeout(timeout, "read_buffer");
            auto r = AsResource(b, "read_buffer");
            py::dtype dt = FixedSizeDtype(dtype);
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
        .def("read_texture", [](std::shared_ptr<CommandQueue> q, py::handle t, uint32_t mip, uint32_t slice, std::optional<double> timeout) {
            const double seconds = Timeout(timeout, "read_texture");
            auto r = AsResource(t, "read_texture");
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
        .def(py::init([](bool validate, uint32_t heapSize, uint32_t samplerHeapSize, uint32_t staticDescriptors, uint32_t chunk,
                         uint32_t samplerChunk, uint32_t cpuPage, uint64_t uploadPage, uint64_t gpuPage,
                         uint64_t largeCache) {
                 DeviceOptions o;
                 o.validate = validate;
                 o.cbvSrvUavHeapSize = heapSize;
                 o.samplerHeapSize = samplerHeapSize;
                 o.staticDescriptors = staticDescriptors;
                 o.staticSamplers = std::min<uint32_t>(o.staticSamplers, samplerHeapSize / 4);
                 o.dynamicChunkSize = chunk;
                 o.samplerChunkSize = samplerChunk;
                 o.cpuDescriptorPageSize = cpuPage;
                 o.uploadPageSize = uploadPage;
                 o.largePageCacheBytes = largeCache;
                 o.gpuPageSize = gpuPage;
                 o.hooks = PythonWaitHooks();
                 return Device::Create(o, DestroyDevice);
             }),
             py::kw_only(), "validate"_a = false, "descriptor_heap_size"_a = 65536, "sampler_heap_size"_a = 2048,
             "static_descriptors"_a = 4096, "dynamic_chunk_size"_a = 256, "sampler_chunk_size"_a = 64,
             "cpu_descriptor_page_size"_a = 256, "upload_page_size"_a = 2u << 20, "gpu_page_size"_a = 64u << 10,
             "large_page_cache_size"_a = uint64_t(256) << 20,
             "Options: validate (check states before each draw/dispatch/copy), shader-visible heap sizes and the\n"
             "dynamic chunk sizes, CPU descriptor page size, upload page sizes, and the bytes of large upload pages\n"
             "kept for reuse after their fence (large_page_cache_size; 0 destroys them).")
        .def_property_readonly("info", [](const Device& d) {
            py::dict out;
            for (const auto& kv : d.Info()) {
                if (kv.first == "resource_binding_tier" || kv.first == "resource_heap_tier" || kv.first == "tiled_resources_tier")
                    out[kv.first.c_str()] = std::stoi(kv.second);
                else out[kv.first.c_str()] = kv.second;
            }
            return out;
        }, "backend ('vkd3d' or 'd3d12'), adapter, feature_level ('11_0'...), resource_binding_tier, resource_heap_tier.")
        .def_property_readonly("validate", [](const Device& d) { return d.Core()->Options().validate; })
        .def("queue", [](Device& d, const std::string& kind) { return d.Queue(ParseQueueKind(kind)); }, "kind"_a = "direct",
             "The device's queue of `kind`: 'direct', 'compute' or 'copy'.")
        .def("create_buffer", [](Device& d, uint64_t size, bool uav, py::object name, const std::string& heap) {
            D3D12_HEAP_TYPE h = ParseChoice<D3D12_HEAP_TYPE>(py::str(heap), "create_buffer heap",
                                                             {{"default", D3D12_HEAP_TYPE_DEFAULT}, {"upload", D3D12_HEAP_TYPE_UPLOAD},
                                                              {"readback", D3D12_HEAP_TYPE_READBACK}});
            return d.CreateBuffer(size, uav, h, name.is_none() ? "buffer" : name.cast<std::string>());
        }, "size"_a, py::kw_only(), "uav"_a = false, "name"_a = py::none(), "heap"_a = "default",
           "A buffer of `size` bytes (> 0). uav=True allows unordered access.")
        .def("create_texture2d", [](Device& d, uint32_t w, uint32_t h, py::handle format, uint32_t mips, uint32_t arraySize, bool rt, bool ds,
                                    bool uav, py::object name) {
            return d.CreateTexture2D(w, h, ParseFormat(format, "create_texture2d"), mips, arraySize, rt, ds, uav,
                                     name.is_none() ? "texture" : name.cast<std::string>());
        }, "width"_a, "height"_a, "format"_a = "rgba8_unorm", py::kw_only(), "mip_levels"_a = 1, "array_size"_a = 1,
           "render_target"_a = false, "depth_stencil"_a = false, "uav"_a = false, "name"_a = py::none(),
           "A 2D texture. mip_levels=0 means a full chain.")
        .def("create_root_signature", [](Device& d, std::vector<RootParameterDesc> params, std::vector<StaticSamplerDesc> samplers) {
            return std::make_shared<RootSignature>(d.Core(), std::move(params), std::move(samplers));
        }, "parameters"_a, "static_samplers"_a = std::vector<StaticSamplerDesc>{})
        .def("create_compute_pipeline", [](Device& d, py::handle cs, std::shared_ptr<RootSignature> rs) {
            return std::make_shared<PipelineState>(d.Core(), Bytecode(cs, "create_compute_pipeline"), std::move(rs));
        }, "cs"_a, "root_signature"_a)
        .def("create_graphics_pipeline", [](Device& d, py::handle vs, py::handle ps, std::shared_ptr<RootSignature> rs, py::object rtvFormats,
                                            py::object dsvFormat, py::object inputLayout, py::handle topology, py::handle cull, py::object blend,
                                            bool depthTest, bool depthWrite, py::object stencilFunc, py::handle stencilPassOp) {
            GraphicsPipelineDesc g;
            g.vs = Bytecode(vs, "create_graphics_pipeline (vs)");
            if (!ps.is_none()) g.ps = Bytecode(ps, "create_graphics_pipeline (ps)");
            if (py::isinstance<py::str>(rtvFormats)) g.rtvFormats.push_back(ParseFormat(rtvFormats, "rtv_formats"));
            else for (py::handle f : rtvFormats) g.rtvFormats.push_back(ParseFormat(f, "rtv_formats"));
            if (!dsvFormat.is_none()) g.dsvFormat = ParseFormat(dsvFormat, "dsv_format");
            if (!inputLayout.is_none()) {
                for (py::handle e : inputLayout) {
                    py::tuple t = py::tuple(py::reinterpret_borrow<py::object>(e));
                    if (t.size() < 2) throw InvalidArgument("input_layout: entries are (semantic, format[, slot[, offset[, semantic_index]]])");
                    InputElementDesc ie;
                    ie.semantic = t[0].cast<std::string>();
                    ie.format = ParseChoice<DXGI_FORMAT>(t[1], "input_layout format",
                                                         {{"float", DXGI_FORMAT_R32_FLOAT}, {"float2", DXGI_FORMAT_R32G32_FLOAT},
                                                          {"float3", DXGI_FORMAT_R32G32B32_FLOAT}, {"float4", DXGI_FORMAT_R32G32B32A32_FLOAT},
                                                          {"uint", DXGI_FORMAT_R32_UINT}, {"rgba8_unorm", DXGI_FORMAT_R8G8B8A8_UNORM}});
                    if (t.size() > 2) ie.slot = t[2].cast<uint32_t>();
                    if (t.size() > 3) ie.offset = t[3].cast<uint32_t>();
                    if (t.size() > 4) ie.semanticIndex = t[4].cast<uint32_t>();
                    g.inputLayout.push_back(ie);
                }
            }
            const std::string topo = Lower(py::str(topology));
            if (topo == "triangle" || topo == "triangle_list") { g.topologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE; g.topology = D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST; }
            else if (topo == "triangle_strip") { g.topologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE; g.topology = D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP; }
            else if (topo == "line" || topo == "line_list") { g.topologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE; g.topology = D3D_PRIMITIVE_TOPOLOGY_LINELIST; }
            else if (topo == "point" || topo == "point_list") { g.topologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT; g.topology = D3D_PRIMITIVE_TOPOLOGY_POINTLIST; }
            else throw InvalidArgument("topology: '" + topo + "' is not one of triangle, triangle_strip, line, point");
            g.cull = ParseChoice<D3D12_CULL_MODE>(cull, "cull", {{"none", D3D12_CULL_MODE_NONE}, {"front", D3D12_CULL_MODE_FRONT}, {"back", D3D12_CULL_MODE_BACK}});
            g.blend = blend.is_none() ? BlendMode::None
                                      : ParseChoice<BlendMode>(blend, "blend", {{"none", BlendMode::None}, {"alpha", BlendMode::Alpha},
                                                                                {"additive", BlendMode::Additive}, {"premultiplied", BlendMode::Premultiplied}});
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
            return std::make_shared<PipelineState>(d.Core(), g, std::move(rs));
        }, "vs"_a, "ps"_a, "root_signature"_a, "rtv_formats"_a, "dsv_format"_a = py::none(), "input_layout"_a = py::none(),
           "topology"_a = "triangle", "cull"_a = "none", "blend"_a = py::none(), "depth_test"_a = false, "depth_write"_a = true,
           "stencil_func"_a = py::none(), "stencil_pass_op"_a = "keep",
           "A graphics pipeline. input_layout: [(semantic, 'float2'|'float3'|..., slot, offset), ...].\n"
           "stencil_func ('never', 'less', 'equal', 'less_equal', 'greater', 'not_equal', 'greater_equal', 'always'; None: no\n"
           "stencil test) compares CommandList.set_stencil_ref's value with the stencil plane; where depth and stencil pass,\n"
           "stencil_pass_op ('keep', 'zero', 'replace', 'incr_sat', 'decr_sat', 'invert', 'incr', 'decr') updates it.\n"
           "The stencil test needs a dsv_format with stencil (d24_unorm_s8_uint, d32_float_s8x24_uint).")
        .def("create_sampler", [](Device& d, py::handle filter, py::handle address) {
            D3D12_SAMPLER_DESC s{};
            s.Filter = ParseFilter(filter);
            s.AddressU = s.AddressV = s.AddressW = ParseAddress(address);
            s.MaxAnisotropy = 16;
            s.ComparisonFunc = D3D12_COMPARISON_FUNC_NEVER;
            s.MaxLOD = 3.402823466e+38f;
            return std::make_shared<Sampler>(d.Core(), s);
        }, py::kw_only(), "filter"_a = "linear", "address"_a = "clamp")
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
            out["last_serial"] = c.LastSerial();
            out["completed_serial"] = c.CompletedSerial();
            return out;
        }, "Statistics as a plain dict: upload pages, barriers, descriptors, live resources.");
}

}  // namespace dx12kit::bindings
