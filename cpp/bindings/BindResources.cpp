// dx12core: Format and ResourceState enums, Resource, Buffer, Texture, FormatSupport.
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

#include <pybind11/native_enum.h>

namespace dx12kit::bindings {

void BindResources(py::module_& m, Classes& c) {
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

    // ---- resources ----------------------------------------------------------------------------
    Documented(c.resource, "A GPU resource (Buffer or Texture).")
        .def_property_readonly("name", &Resource::Name, "Debug name given at creation (also the D3D12 object's name).")
        .def_property_readonly("num_subresources", &Resource::NumSubresources, "Number of subresources (1 for a buffer; mips x array slices for a texture).")
        .def_property_readonly("uav", &Resource::AllowsUav, "True when the resource allows unordered access (created with uav=True).")
        .def_property_readonly("cached_views", &Resource::CachedViewCount, "Number of descriptor views created for it (cached).")
        .def("close", &Resource::Close,
             "Marks the resource closed: any later use (barriers, bindings, copies, reads) raises UseAfterFreeError.\n"
             "Work already recorded or submitted still completes; the memory is released once the last reference\n"
             "(this object, command lists in flight) is gone. Closing twice is allowed.")
        .def_property_readonly("closed", &Resource::IsClosed, "True once close() was called (any later use raises UseAfterFreeError).")
        .def("__repr__", [](const Resource& r) {
            return "<dx12kit.Resource '" + r.Name() + "' subresources=" + std::to_string(r.NumSubresources()) + (r.IsClosed() ? " closed>" : ">");
        })
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](Resource& r, py::args) { r.Close(); })
        .def("global_state", [](Resource& r, Int subArg) {
            const uint32_t sub = U32(subArg, "global_state", "subresource");
            r.Core().CheckNotForked("global_state");  // the submission lock
            std::lock_guard<std::recursive_mutex> lock(r.Core().SubmitMutex());
            r.CheckSubresource(sub);
            if (sub == kAllSubresources) {
                if (!r.GlobalState().IsUniform()) throw InvalidArgument("global_state: subresources differ; ask for one subresource");
                return r.GlobalState().All();
            }
            return r.GlobalState().Get(sub);
        }, "subresource"_a = kAllSubresources,
           "The state the resource is in once every executed command list has run (what execute resolves against).");
    Documented(c.buffer, "A GPU buffer. Create with Device.create_buffer.")
        .def_property_readonly("size", &Buffer::Size, "Size in bytes.")
        .def_property_readonly("gpu_address", &Buffer::GpuAddress, "GPU virtual address of the first byte (for root CBV/SRV/UAV arguments).")
        .def("__repr__", [](const Buffer& b) { return "<dx12kit.Buffer '" + b.Name() + "' " + std::to_string(b.Size()) + " bytes>"; });
    Documented(c.texture, "A 2D texture (array). Create with Device.create_texture2d.")
        .def_property_readonly("width", [](const Texture& t) { return t.Width(); }, "Width in texels of mip 0.")
        .def_property_readonly("height", [](const Texture& t) { return t.Height(); }, "Height in texels of mip 0.")
        .def_property_readonly("format", &Texture::ViewFormat, "The format views and reads use (a dx12kit.Format).")
        .def_property_readonly("mip_levels", &Texture::MipLevels, "Number of mip levels.")
        .def_property_readonly("array_size", &Texture::ArraySize, "Number of array slices.")
        .def_property_readonly("sample_count", &Texture::SampleCount, "Samples per pixel (1, or the MSAA count of a multisampled texture).")
        .def_property_readonly("shape", [](const Texture& t) -> py::typing::Tuple<int, py::ellipsis> {
            const FormatInfo& fi = RequireFormat(t.ViewFormat(), "shape");
            if (t.Is3D()) return py::make_tuple(t.Depth(), t.Height(), t.Width(), fi.channels);
            return py::make_tuple(t.Height(), t.Width(), fi.channels);
        }, "(height, width, channels) of mip 0 ((depth, height, width, channels) for 3D textures), as read_texture returns it.")
        .def("__repr__", [](const Texture& t) {
            const FormatInfo* fi = FindFormat(t.ViewFormat());
            return "<dx12kit.Texture '" + t.Name() + "' " + std::to_string(t.Width()) + "x" + std::to_string(t.Height()) + " " +
                   (fi ? fi->name : "?") + ">";
        });

    py::class_<FormatSupportView> formatSupport(m, "FormatSupport",
                                  "What the device supports for one format (Device.format_support): a read-only mapping\n"
                                  "(a collections.abc.Mapping: fs['render_target'], fs.get(...), fs.items(), fs == {...}, dict(fs)) whose\n"
                                  "keys are also attributes (fs.render_target). typed_uav is False for sRGB formats whatever the driver\n"
                                  "says (D3D12 has no sRGB UAVs); msaa lists the supported sample counts.");
    formatSupport
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
        .def_readonly("mip_autogen", &FormatSupportView::mip_autogen, "Whether CommandList.generate_mips accepts textures of it (not depth, integer or UAV-less formats\n"
                      "other than the rgba8/bgra8 UNORM and sRGB ones, which go through an rgba8_unorm alias).")
        .def_readonly("msaa", &FormatSupportView::msaa, "Supported MSAA sample counts (list of ints).")
        // A read-only mapping too (the "dict of booleans"): fs["render_target"], dict(fs), "msaa" in fs.
        .def("keys", [](const FormatSupportView& v) { return FormatSupportDict(v).attr("keys")(); },
             "The keys, in order (every field but format), as a dict's keys view.")
        .def("__getitem__", [](const FormatSupportView& v, const std::string& key) {
                 py::dict d = FormatSupportDict(v);
                 if (!d.contains(key)) throw py::key_error(key);
                 return py::object(d[key.c_str()]);
             },
             "key"_a, "The value of one key (KeyError for unknown keys).")
        .def("__contains__", [](const FormatSupportView& v, py::object key) { return FormatSupportDict(v).contains(key); }, "key"_a,
             "Whether `key` is one of the keys.")
        .def("__iter__", [](const FormatSupportView&) { return py::iter(FormatSupportKeys()); }, "Iterates over the keys.")
        .def("__len__", [](const FormatSupportView&) { return FormatSupportKeys().size(); }, "The number of keys.")
        .def("get", [](const FormatSupportView& v, py::object key, py::object fallback) {
                 py::dict d = FormatSupportDict(v);
                 return d.contains(key) ? py::object(d[key]) : fallback;
             },
             "key"_a, "default"_a = py::none(), "The value of `key`, or `default` when it is not one of the keys.")
        .def("items", [](const FormatSupportView& v) { return FormatSupportDict(v).attr("items")(); },
             "(key, value) pairs, in key order, as a dict's items view.")
        .def("values", [](const FormatSupportView& v) { return FormatSupportDict(v).attr("values")(); },
             "The values, in key order, as a dict's values view.")
        .def("__eq__", [](const FormatSupportView& v, py::object other) -> py::object {
                 if (py::isinstance<FormatSupportView>(other)) return py::bool_(FormatSupportDict(v).equal(FormatSupportDict(other.cast<const FormatSupportView&>())));
                 if (!py::isinstance(other, py::module_::import("collections.abc").attr("Mapping"))) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                 return py::bool_(FormatSupportDict(v).equal(py::dict(other)));
             },
             "other"_a, "Equal to any mapping with the same keys and values (a dict, another FormatSupport).")
        .def("as_dict", &FormatSupportDict, "Every key and value as a new dict (booleans, and msaa as a list of ints).")
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
    InstallForkLeak<Resource>(+[](const Resource& r) { return r.Core().Forked(); });
    InstallForkLeak<Buffer>(+[](const Buffer& r) { return r.Core().Forked(); });
    InstallForkLeak<Texture>(+[](const Texture& r) { return r.Core().Forked(); });
    formatSupport.attr("__hash__") = py::none();  // a mapping with __eq__: unhashable, as dict
    py::module_::import("collections.abc").attr("Mapping").attr("register")(formatSupport);
}

}  // namespace dx12kit::bindings
