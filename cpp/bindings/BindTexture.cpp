// dx12core: Texture (2D, array, cube and 3D).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

namespace dx12kit::bindings {

void BindTexture(Classes& c) {
    Documented(c.texture, "A 2D texture (array). Create with Device.create_texture2d.")
        .def_property_readonly("width", [](const Texture& t) { return t.Width(); }, "Width in texels of mip 0.")
        .def_property_readonly("height", [](const Texture& t) { return t.Height(); }, "Height in texels of mip 0.")
        .def_property_readonly("format", &Texture::ViewFormat, "The format views and reads use (a dx12kit.Format).")
        .def_property_readonly("mip_levels", &Texture::MipLevels, "Number of mip levels.")
        .def_property_readonly("array_size", &Texture::ArraySize, "Number of array slices.")
        .def_property_readonly("sample_count", &Texture::SampleCount, "Samples per pixel (1, or the MSAA count of a multisampled texture).")
        .def_property_readonly("shape", [](const Texture& t) -> py::typing::Tuple<int, py::ellipsis> {
            return py::typing::Tuple<int, py::ellipsis>(TextureShape(t, RequireFormat(t.ViewFormat(), "shape"), 0));
        }, "(height, width, channels) of mip 0 ((depth, height, width, channels) for 3D textures), as read_texture returns it;\n"
           "(block rows, blocks per row, bytes per block) for a block-compressed format.")
        .def("__repr__", [](const Texture& t) {
            const FormatInfo* fi = FindFormat(t.ViewFormat());
            return "<dx12kit.Texture '" + t.Name() + "' " + std::to_string(t.Width()) + "x" + std::to_string(t.Height()) + " " +
                   (fi ? fi->name : "?") + ">";
        })
        .def_property_readonly("depth", [](const Texture& t) { return t.Depth(); }, "Depth in texels of mip 0 (1 unless a 3D texture).")
        .def_property_readonly("dimension", [](const Texture& t) { return t.Is3D() ? "3d" : t.IsCube() ? "cube" : "2d"; },
                               "'2d' (a 2D texture or array), 'cube' (6 faces: +X, -X, +Y, -Y, +Z, -Z) or '3d'.");
    InstallForkLeak<Texture>(+[](const Texture& r) { return r.Core().Forked(); });
}

}  // namespace dx12kit::bindings
