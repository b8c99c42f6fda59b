// dx12core: Device's texture methods (create_texture_cube, create_texture3d, load_texture), called by
// BindDevice. Only conversions live here; behaviour is in cpp/src/features/ (and python/dx12kit/textures.py
// for reading image files and arrays).
#include "GpuArgs.hpp"

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
        .def("create_texture_cube", [](Device& d, Int sizeArg, py::handle format, Int mipsArg, bool uav, bool rt, py::object name,
                                       OptChoice<HeapTypeChoice> heap, py::handle pool, bool committed, bool withinBudget, py::handle memory, Int offset) {
            const char* fn = "create_texture_cube";
            const uint32_t size = U32(sizeArg, fn, "size"), mips = U32(mipsArg, fn, "mip_levels");
            const ResourcePlacement p = ParsePlacement(heap.value, pool, committed, withinBudget, memory, U64(offset, fn, "offset"), fn);
            const DXGI_FORMAT f = ParseFormat(format, fn);
            const std::string n = name.is_none() ? "cube" : Str(name, fn, "name");
            ReleaseGil release;
            return d.CreateTextureCube(size, f, mips, rt, uav, n, p);
        }, "size"_a, "format"_a, py::kw_only(), "mip_levels"_a = 1, "uav"_a = false, "render_target"_a = false, "name"_a = py::none(),
           "heap"_a = py::none(), "pool"_a = py::none(), "committed"_a = false, "within_budget"_a = false, "memory"_a = py::none(),
           "offset"_a = 0,
           "A cube texture: 6 square faces of size x size texels, in D3D12's order +X, -X, +Y, -Y, +Z, -Z (+Y up), reading as\n"
           "zeros. Shader resource views (set_shader_resource_view) are TextureCube, sampled with a direction vector; its\n"
           "unordered access view (uav=True) and render target views are those of the 2D array of faces\n"
           "(RWTexture2DArray, slice = face). Faces upload and read back as array slices: upload(cube, data, mip,\n"
           "array_slice=face), read_texture(cube, mip, array_slice=face).\n\n"
           "Args:\n"
           "    size: texels per face side (1..16384).\n"
           "    format: a dx12kit.Format or its name; the device must support it for cube textures\n"
           "        (format_support(format).texture_cube), and for uav=True typed UAVs (never sRGB).\n"
           "    mip_levels: 0 for the full chain.\n"
           "    uav, render_target: allowed uses.\n"
           "    name, heap, pool, committed, within_budget, memory, offset: as for create_texture2d.\n\n"
           "Raises:\n    InvalidArgumentError: a size, format or use the device does not allow (the message says which).")
        .def("create_texture3d", [](Device& d, Int wArg, Int hArg, Int dArg, py::handle format, Int mipsArg, bool uav, bool rt, py::object name,
                                    OptChoice<HeapTypeChoice> heap, py::handle pool, bool committed, bool withinBudget, py::handle memory, Int offset) {
            const char* fn = "create_texture3d";
            const uint32_t w = U32(wArg, fn, "width"), h = U32(hArg, fn, "height"), depth = U32(dArg, fn, "depth");
            const uint32_t mips = U32(mipsArg, fn, "mip_levels");
            const ResourcePlacement p = ParsePlacement(heap.value, pool, committed, withinBudget, memory, U64(offset, fn, "offset"), fn);
            const DXGI_FORMAT f = ParseFormat(format, fn);
            const std::string n = name.is_none() ? "texture3d" : Str(name, fn, "name");
            ReleaseGil release;
            return d.CreateTexture3D(w, h, depth, f, mips, rt, uav, n, p);
        }, "width"_a, "height"_a, "depth"_a, "format"_a, py::kw_only(), "mip_levels"_a = 1, "uav"_a = false, "render_target"_a = false,
           "name"_a = py::none(), "heap"_a = py::none(), "pool"_a = py::none(), "committed"_a = false, "within_budget"_a = false,
           "memory"_a = py::none(), "offset"_a = 0,
           "A 3D (volume) texture of width x height x depth texels, reading as zeros. Views: Texture3D (shader resource),\n"
           "RWTexture3D (uav=True, every depth slice of a mip); as a render target (render_target=True) a mip's view covers\n"
           "all its depth slices: clear_render_target clears them all, a draw writes the slice its SV_RenderTargetArrayIndex\n"
           "names. Each mip is one subresource: upload takes and read_texture returns an array of shape (depth, height,\n"
           "width, channels).\n\n"
           "Args:\n"
           "    width, height, depth: texels (1..2048 each).\n"
           "    format: a dx12kit.Format or its name; the device must support it for 3D textures\n"
           "        (format_support(format).texture3d), and for uav=True typed UAVs (never sRGB).\n"
           "    mip_levels: 0 for the full chain (each mip halves width, height and depth).\n"
           "    uav, render_target: allowed uses.\n"
           "    name, heap, pool, committed, within_budget, memory, offset: as for create_texture2d.\n\n"
           "Raises:\n    InvalidArgumentError: a size, format or use the device does not allow (the message says which).")
        .def("load_texture", [](py::object self, py::object source, py::object srgb, py::object generateMips, py::object name,
                                py::object progress) {
            // A forked child's copy of the device: refused before textures.py takes any of its locks.
            self.cast<Device&>().Core()->CheckNotForked("load_texture");
            // Reading files and arrays is Python's part (dx12kit/textures.py); it uploads through this API
            // and checks every argument's type (srgb / generate_mips as objects: pybind11's bool would take None).
            py::object tex = py::module_::import("dx12kit.textures")
                                 .attr("load_texture")(self, source, "srgb"_a = srgb, "generate_mips"_a = generateMips, "name"_a = name,
                                                      "progress"_a = progress);
            return py::reinterpret_steal<TextureObject>(tex.release());
        }, "path_or_array"_a, py::kw_only(), "srgb"_a = py::bool_(false), "generate_mips"_a = py::bool_(true), "name"_a = py::none(),
           "progress"_a = py::none(),
           "A texture from an image file (PNG, JPEG, BMP, TGA, read by Pillow; DDS, read by dx12kit.dds) or a numpy array,\n"
           "uploaded and ready to sample.\n\n"
           "Formats: uint8 arrays and 8-bit images give r8_unorm (1 channel), rg8_unorm (2) or rgba8_unorm (3, 4; RGB gets\n"
           "alpha 255); uint16 give r16_unorm / rg16_unorm / rgba16_unorm (alpha 65535); float16 give r16_float / rg16_float /\n"
           "rgba16_float and float32 r32_float / rg32_float / rgba32_float (alpha 1.0). Arrays are (H, W) or (H, W, 1..4).\n"
           "srgb=True picks rgba8_unorm_srgb (8-bit data only; 1- and 2-channel 8-bit data is expanded to RGBA: there are no\n"
           "one- or two-channel sRGB formats). generate_mips=True gives the full mip chain, built on the GPU by\n"
           "CommandList.generate_mips. The upload has completed when the call returns.\n\n"
           "16-bit PNGs (grey, grey+alpha, RGB, RGBA) keep their 16 bits. DDS files keep their format (DX10 header or legacy\n"
           "FourCC/masks; BC1-BC7 included), mips, array slices, cube faces (a cube texture) and volume (a 3D texture);\n"
           "srgb=True picks the format's sRGB member, generate_mips applies to single-mip uncompressed 2D files only. Files are cached per device, resolved path and\n"
           "content (SHA-256 of the bytes; and srgb / generate_mips): loading the same unchanged file again returns the same\n"
           "Texture object while it is alive (a weak cache; thread-safe). name: debug name (default: the file name, or\n"
           "'texture' for arrays).\n\n"
           "Args:\n    path_or_array: an image file's path (str, os.PathLike) or a numpy array.\n    srgb: make an rgba8_unorm_srgb texture (8-bit data only).\n    generate_mips: build the full mip chain on the GPU.\n    name: a debug name, or None.\n"
           "    progress: None (a bar when stderr is a terminal and the image has 2**20 texels or more), False, True (a bar),\n"
           "        or a callable(done, total) called after decoding (1, 3), the upload (2, 3) and the mips (3, 3) (total 2\n"
           "        without mips); DDS files report nothing.\n\nReturns:\n    The Texture, uploaded.\n\nRaises:\n"
           "    FileNotFoundError: no such file.\n"
           "    InvalidArgumentError: a file that cannot be read or is not a PNG, JPEG, BMP or TGA image (the message names\n"
           "        the file); a DDS file with a feature load_texture does not read (named); an array of a wrong shape;\n"
           "        srgb=True for data that is not 8-bit (or a DDS format without an sRGB form).\n"
           "    TypeError: path_or_array is neither a path (str, os.PathLike) nor a numpy array, or an unsupported dtype.");

}

}  // namespace dx12kit::bindings
