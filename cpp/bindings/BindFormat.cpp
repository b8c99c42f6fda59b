// dx12core: the formats: the Format enum and FormatSupport (Device.format_support's answer).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "docs/FormatDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

#include <pybind11/native_enum.h>

namespace dx12kit::bindings {

/// Format first of all (Module.cpp): methods of other classes name it in their signatures.
void BindFormatEnum(py::module_& m) {
    {
        py::native_enum<DXGI_FORMAT> fmt(m, "Format", "enum.IntEnum", docs::Format::class_);
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
    auto& formatSupport = Documented(c.formatSupport, docs::FormatSupport::class_);
    formatSupport.def_readonly("format", &FormatCapabilities::format, docs::FormatSupport::format)
        .def_readonly("buffer", &FormatCapabilities::buffer, docs::FormatSupport::buffer)
        .def_readonly("texture2d", &FormatCapabilities::texture2d, docs::FormatSupport::texture2d)
        .def_readonly("texture3d", &FormatCapabilities::texture3d, docs::FormatSupport::texture3d)
        .def_readonly("texture_cube", &FormatCapabilities::texture_cube, docs::FormatSupport::texture_cube)
        .def_readonly("shader_load", &FormatCapabilities::shader_load, docs::FormatSupport::shader_load)
        .def_readonly("shader_sample", &FormatCapabilities::shader_sample, docs::FormatSupport::shader_sample)
        .def_readonly("render_target", &FormatCapabilities::render_target, docs::FormatSupport::render_target)
        .def_readonly("blendable", &FormatCapabilities::blendable, docs::FormatSupport::blendable)
        .def_readonly("depth_stencil", &FormatCapabilities::depth_stencil, docs::FormatSupport::depth_stencil)
        .def_readonly("typed_uav", &FormatCapabilities::typed_uav, docs::FormatSupport::typed_uav)
        .def_readonly("uav_typed_load", &FormatCapabilities::uav_typed_load, docs::FormatSupport::uav_typed_load)
        .def_readonly("uav_typed_store", &FormatCapabilities::uav_typed_store, docs::FormatSupport::uav_typed_store)
        .def_readonly("mip_autogen", &FormatCapabilities::mip_autogen, docs::FormatSupport::mip_autogen)
        .def_readonly("msaa", &FormatCapabilities::msaa, docs::FormatSupport::msaa)
        // A read-only mapping too (the "dict of booleans"): fs["render_target"], dict(fs), "msaa" in fs.
        .def(
            "keys", [](const FormatCapabilities& v) { return FormatSupportDict(v).attr("keys")(); }, docs::FormatSupport::keys)
        .def(
            "__getitem__",
            [](const FormatCapabilities& v, const std::string& key) {
                py::dict d = FormatSupportDict(v);
                if (!d.contains(key)) throw py::key_error(key);
                return py::object(d[key.c_str()]);
            },
            "key"_a, docs::FormatSupport::getitem)
        .def(
            "__contains__", [](const FormatCapabilities& v, py::object key) { return FormatSupportDict(v).contains(key); }, "key"_a,
            docs::FormatSupport::contains)
        .def(
            "__iter__", [](const FormatCapabilities&) { return py::iter(FormatSupportKeys()); }, docs::FormatSupport::iter)
        .def(
            "__len__", [](const FormatCapabilities&) { return FormatSupportKeys().size(); }, docs::FormatSupport::len)
        .def(
            "get",
            [](const FormatCapabilities& v, py::object key, py::object fallback) {
                py::dict d = FormatSupportDict(v);
                return d.contains(key) ? py::object(d[key]) : fallback;
            },
            "key"_a, "default"_a = py::none(), docs::FormatSupport::get)
        .def(
            "items", [](const FormatCapabilities& v) { return FormatSupportDict(v).attr("items")(); }, docs::FormatSupport::items)
        .def(
            "values", [](const FormatCapabilities& v) { return FormatSupportDict(v).attr("values")(); }, docs::FormatSupport::values)
        .def(
            "__eq__",
            [](const FormatCapabilities& v, py::object other) -> py::object {
                if (py::isinstance<FormatCapabilities>(other))
                    return py::bool_(FormatSupportDict(v).equal(FormatSupportDict(other.cast<const FormatCapabilities&>())));
                if (!py::isinstance(other, py::module_::import("collections.abc").attr("Mapping")))
                    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                return py::bool_(FormatSupportDict(v).equal(py::dict(other)));
            },
            "other"_a, docs::FormatSupport::eq)
        .def("as_dict", &FormatSupportDict, docs::FormatSupport::as_dict)
        .def("__repr__", [](const FormatCapabilities& v) {
            std::string s = "<dx12kit.FormatSupport " + v.format + ":";
            const std::pair<const char*, bool> flags[] = {{"buffer", v.buffer},
                                                          {"texture2d", v.texture2d},
                                                          {"texture3d", v.texture3d},
                                                          {"texture_cube", v.texture_cube},
                                                          {"shader_load", v.shader_load},
                                                          {"shader_sample", v.shader_sample},
                                                          {"render_target", v.render_target},
                                                          {"blendable", v.blendable},
                                                          {"depth_stencil", v.depth_stencil},
                                                          {"typed_uav", v.typed_uav},
                                                          {"uav_typed_load", v.uav_typed_load},
                                                          {"uav_typed_store", v.uav_typed_store},
                                                          {"mip_autogen", v.mip_autogen}};
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
