// dx12core: Device's texture methods (create_texture_cube, create_texture3d, load_texture), called by
// BindDevice. Only conversions live here; behaviour is in cpp/src/features/ (and python/dx12kit/textures.py
// for reading image files and arrays).
#include "docs/DeviceDocs.hpp"
#include "GpuArgs.hpp"

#include "dx12kit/features/TextureKinds.hpp"

namespace dx12kit::bindings {
/// A Python object that is a dx12kit Texture, returned as is: load_texture hands back the very object
/// its cache refers to (converting to std::shared_ptr<Texture> and back would let that object die
/// in between, the cache holding only a weak reference). Typed "Texture" in signatures and stubs.
class TextureObject : public py::object {
public:
    using py::object::object;
};
}  // namespace dx12kit::bindings

namespace pybind11::detail {
template <>
struct handle_type_name<dx12kit::bindings::TextureObject> {
    static constexpr auto name = const_name("Texture");
};
}  // namespace pybind11::detail

namespace dx12kit::bindings {

void BindDeviceTextures(Classes& c) {
    c.device
        .def(
            "create_texture_cube",
            [](Device& d, Int sizeArg, FormatArg format, Int mipsArg, bool uav, bool rt, OptNameArg name, OptChoice<HeapTypeChoice> heap,
               OptPoolArg pool, bool committed, bool withinBudget, OptMemoryArg memory, Int offset) {
                const char* fn = "create_texture_cube";
                const uint32_t size = U32(sizeArg, fn, "size"), mips = U32(mipsArg, fn, "mip_levels");
                const ResourcePlacement p = ParsePlacement(heap.value, pool, committed, withinBudget, memory, U64(offset, fn, "offset"), fn);
                const DXGI_FORMAT f = ParseFormat(format, fn);
                const std::string n = name.is_none() ? "cube" : Str(name, fn, "name");
                ReleaseGil release;
                return CreateTextureCube(d, size, f, mips, rt, uav, n, p);
            },
            "size"_a, "format"_a, py::kw_only(), "mip_levels"_a = 1, "uav"_a = false, "render_target"_a = false, "name"_a = py::none(),
            "heap"_a = py::none(), "pool"_a = py::none(), "committed"_a = false, "within_budget"_a = false, "memory"_a = py::none(), "offset"_a = 0,
            docs::Device::create_texture_cube)
        .def(
            "create_texture3d",
            [](Device& d, Int wArg, Int hArg, Int dArg, FormatArg format, Int mipsArg, bool uav, bool rt, OptNameArg name,
               OptChoice<HeapTypeChoice> heap, OptPoolArg pool, bool committed, bool withinBudget, OptMemoryArg memory, Int offset) {
                const char* fn = "create_texture3d";
                const uint32_t w = U32(wArg, fn, "width"), h = U32(hArg, fn, "height"), depth = U32(dArg, fn, "depth");
                const uint32_t mips = U32(mipsArg, fn, "mip_levels");
                const ResourcePlacement p = ParsePlacement(heap.value, pool, committed, withinBudget, memory, U64(offset, fn, "offset"), fn);
                const DXGI_FORMAT f = ParseFormat(format, fn);
                const std::string n = name.is_none() ? "texture3d" : Str(name, fn, "name");
                ReleaseGil release;
                return CreateTexture3D(d, w, h, depth, f, mips, rt, uav, n, p);
            },
            "width"_a, "height"_a, "depth"_a, "format"_a, py::kw_only(), "mip_levels"_a = 1, "uav"_a = false, "render_target"_a = false,
            "name"_a = py::none(), "heap"_a = py::none(), "pool"_a = py::none(), "committed"_a = false, "within_budget"_a = false,
            "memory"_a = py::none(), "offset"_a = 0, docs::Device::create_texture3d)
        .def(
            "load_texture",
            [](py::object self, ImageSourceArg source, BoolArg srgb, BoolArg generateMips, OptNameArg name, ProgressArg progress) {
                // A forked child's copy of the device: refused before textures.py takes any of its locks.
                self.cast<Device&>().Context()->CheckNotForked("load_texture");
                // Reading files and arrays is Python's part (dx12kit/textures.py); it uploads through this API
                // and checks every argument's type (srgb / generate_mips as objects: pybind11's bool would take None).
                py::object tex = py::module_::import("dx12kit.textures")
                                     .attr("load_texture")(self, source, "srgb"_a = srgb, "generate_mips"_a = generateMips, "name"_a = name,
                                                           "progress"_a = progress);
                return py::reinterpret_steal<TextureObject>(tex.release());
            },
            "path_or_array"_a, py::kw_only(), "srgb"_a = py::bool_(false), "generate_mips"_a = py::bool_(true), "name"_a = py::none(),
            "progress"_a = py::none(), docs::Device::load_texture);
}

}  // namespace dx12kit::bindings
