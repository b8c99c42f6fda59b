// dx12core: the formats: the Format enum and FormatSupport (Device.format_support's answer).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

#include <pybind11/native_enum.h>

namespace dx12kit::bindings {

/// Format first of all (Module.cpp): methods of other classes name it in their signatures.
void BindFormatEnum(py::module_& m) {
    {
        py::native_enum<DXGI_FORMAT> fmt(m, "Format", "enum.IntEnum",
            "Every DXGI format, named by dx12kit's short name in upper case (RGBA8_UNORM, BC7_UNORM); DXGI's own name is an\n"
            "alias where it differs (Format.R8G8B8A8_UNORM is Format.RGBA8_UNORM). Strings name them too, in any case: 'rgba8_unorm',\n"
            "'R8G8B8A8_UNORM', 'DXGI_FORMAT_R8G8B8A8_UNORM'. Whether the device can use one: Device.format_support.");
        size_t n;
        const FormatInfo* all = AllFormats(n);
        for (size_t i = 0; i < n; ++i) {
            std::string up = all[i].name;
            for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            fmt.value(up.c_str(), all[i].format);
        }
        for (size_t i = 0; i < n; ++i) {  // DXGI's names as aliases (those that are Python names)
            const std::string dxgi = all[i].dxgiName;
            std::string up = all[i].name;
            for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            if (dxgi != up && !std::isdigit(static_cast<unsigned char>(dxgi[0]))) fmt.value(dxgi.c_str(), all[i].format);
        }
        fmt.value("UNKNOWN", DXGI_FORMAT_UNKNOWN);
        fmt.finalize();
    }
}

void BindFormatSupport(Classes& c) {
    auto& formatSupport = Documented(c.formatSupport, "What the device supports for one format (Device.format_support): a read-only mapping\n"
        "(a collections.abc.Mapping: fs['render_target'], fs.get(...), fs.items(), fs == {...}, dict(fs)) whose\n"
        "keys are also attributes (fs.render_target). typed_uav is False for sRGB formats whatever the driver\n"
        "says (D3D12 has no sRGB UAVs); msaa lists the supported sample counts.");
    formatSupport
        .def_readonly("format", &FormatCapabilities::format, "The format queried (a dx12kit.Format).")
        .def_readonly("buffer", &FormatCapabilities::buffer, "Usable in typed buffer views.")
        .def_readonly("texture2d", &FormatCapabilities::texture2d, "Usable for 2D textures.")
        .def_readonly("texture3d", &FormatCapabilities::texture3d, "Usable for 3D textures.")
        .def_readonly("texture_cube", &FormatCapabilities::texture_cube, "Usable for cube textures.")
        .def_readonly("shader_load", &FormatCapabilities::shader_load, "Readable with Load in shaders.")
        .def_readonly("shader_sample", &FormatCapabilities::shader_sample, "Readable with Sample (filtered) in shaders.")
        .def_readonly("render_target", &FormatCapabilities::render_target, "Usable as a render target.")
        .def_readonly("blendable", &FormatCapabilities::blendable, "Render targets of this format blend.")
        .def_readonly("depth_stencil", &FormatCapabilities::depth_stencil, "Usable as a depth-stencil target.")
        .def_readonly("typed_uav", &FormatCapabilities::typed_uav, "Usable in typed UAVs (never for sRGB formats).")
        .def_readonly("uav_typed_load", &FormatCapabilities::uav_typed_load, "Typed UAV loads supported (D3D12 Support2 bit).")
        .def_readonly("uav_typed_store", &FormatCapabilities::uav_typed_store, "Typed UAV stores supported (D3D12 Support2 bit).")
        .def_readonly("mip_autogen", &FormatCapabilities::mip_autogen, "Whether CommandList.generate_mips accepts textures of it (not depth, integer or UAV-less formats\n"
                      "other than the rgba8/bgra8 UNORM and sRGB ones, which go through an rgba8_unorm alias).")
        .def_readonly("msaa", &FormatCapabilities::msaa, "Supported MSAA sample counts (list of ints).")
        // A read-only mapping too (the "dict of booleans"): fs["render_target"], dict(fs), "msaa" in fs.
        .def("keys", [](const FormatCapabilities& v) { return FormatSupportDict(v).attr("keys")(); },
             "The keys, in order (every field but format), as a dict's keys view.")
        .def("__getitem__", [](const FormatCapabilities& v, const std::string& key) {
                 py::dict d = FormatSupportDict(v);
                 if (!d.contains(key)) throw py::key_error(key);
                 return py::object(d[key.c_str()]);
             },
             "key"_a, "The value of one key (KeyError for unknown keys).")
        .def("__contains__", [](const FormatCapabilities& v, py::object key) { return FormatSupportDict(v).contains(key); }, "key"_a,
             "Whether `key` is one of the keys.")
        .def("__iter__", [](const FormatCapabilities&) { return py::iter(FormatSupportKeys()); }, "Iterates over the keys.")
        .def("__len__", [](const FormatCapabilities&) { return FormatSupportKeys().size(); }, "The number of keys.")
        .def("get", [](const FormatCapabilities& v, py::object key, py::object fallback) {
                 py::dict d = FormatSupportDict(v);
                 return d.contains(key) ? py::object(d[key]) : fallback;
             },
             "key"_a, "default"_a = py::none(), "The value of `key`, or `default` when it is not one of the keys.\n\n"
           "Args:\n"
           "    key: one of the keys.\n"
           "    default: the value when key is not one of them.\n\n"
           "Returns:\n"
           "    The key's value, or default.")
        .def("items", [](const FormatCapabilities& v) { return FormatSupportDict(v).attr("items")(); },
             "(key, value) pairs, in key order, as a dict's items view.")
        .def("values", [](const FormatCapabilities& v) { return FormatSupportDict(v).attr("values")(); },
             "The values, in key order, as a dict's values view.")
        .def("__eq__", [](const FormatCapabilities& v, py::object other) -> py::object {
                 if (py::isinstance<FormatCapabilities>(other)) return py::bool_(FormatSupportDict(v).equal(FormatSupportDict(other.cast<const FormatCapabilities&>())));
                 if (!py::isinstance(other, py::module_::import("collections.abc").attr("Mapping"))) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                 return py::bool_(FormatSupportDict(v).equal(py::dict(other)));
             },
             "other"_a, "Equal to any mapping with the same keys and values (a dict, another FormatSupport).")
        .def("as_dict", &FormatSupportDict, "Every key and value as a new dict (booleans, and msaa as a list of ints).")
        .def("__repr__", [](const FormatCapabilities& v) {
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
    formatSupport.attr("__hash__") = py::none();  // a mapping with __eq__: unhashable, as dict
    py::module_::import("collections.abc").attr("Mapping").attr("register")(formatSupport);
}

}  // namespace dx12kit::bindings
