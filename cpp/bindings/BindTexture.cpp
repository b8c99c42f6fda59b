// dx12core: Texture (2D, array, cube and 3D).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "docs/TextureDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

namespace dx12kit::bindings {

void BindTexture(Classes& c) {
    Documented(c.texture, docs::Texture::class_)
        .def_property_readonly(
            "width", [](const Texture& t) { return t.Width(); }, docs::Texture::width)
        .def_property_readonly(
            "height", [](const Texture& t) { return t.Height(); }, docs::Texture::height)
        .def_property_readonly("format", &Texture::ViewFormat, docs::Texture::format)
        .def_property_readonly("mip_levels", &Texture::MipLevels, docs::Texture::mip_levels)
        .def_property_readonly("array_size", &Texture::ArraySize, docs::Texture::array_size)
        .def_property_readonly("sample_count", &Texture::SampleCount, docs::Texture::sample_count)
        .def_property_readonly(
            "shape",
            [](const Texture& t) -> py::typing::Tuple<int, py::ellipsis> {
                return py::typing::Tuple<int, py::ellipsis>(TextureShape(t, RequireFormat(t.ViewFormat(), "shape"), 0));
            },
            docs::Texture::shape)
        .def("__repr__",
             [](const Texture& t) {
                 const FormatInfo* fi = FindFormat(t.ViewFormat());
                 return "<dx12kit.Texture '" + t.Name() + "' " + std::to_string(t.Width()) + "x" + std::to_string(t.Height()) + " " +
                        (fi ? fi->name : "?") + ">";
             })
        .def_property_readonly(
            "depth", [](const Texture& t) { return t.Depth(); }, docs::Texture::depth)
        .def_property_readonly(
            "dimension", [](const Texture& t) { return t.Is3D()     ? "3d"
                                                       : t.IsCube() ? "cube"
                                                                    : "2d"; }, docs::Texture::dimension);
    InstallForkLeak<Texture>(+[](const Texture& r) { return r.Context().Forked(); });
}

}  // namespace dx12kit::bindings
