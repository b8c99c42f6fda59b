// The Python docstrings of Format (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace Format {
inline constexpr const char class_[] =
    "Every DXGI format, named by dx12kit's short name in upper case (RGBA8_UNORM, BC7_UNORM); DXGI's own name is an\n"
    "alias where it differs (Format.R8G8B8A8_UNORM is Format.RGBA8_UNORM). Strings name them too, in any case: 'rgba8_unorm',\n"
    "'R8G8B8A8_UNORM', 'DXGI_FORMAT_R8G8B8A8_UNORM'. Whether the device can use one: Device.format_support.";
}  // namespace Format

namespace FormatSupport {
inline constexpr const char class_[] =
    "What the device supports for one format (Device.format_support): a read-only mapping\n"
    "(a collections.abc.Mapping: fs['render_target'], fs.get(...), fs.items(), fs == {...}, dict(fs)) whose\n"
    "keys are also attributes (fs.render_target). typed_uav is False for sRGB formats whatever the driver\n"
    "says (D3D12 has no sRGB UAVs); msaa lists the supported sample counts.";
inline constexpr const char format[] = "The format queried (a dx12kit.Format).";
inline constexpr const char buffer[] = "Usable in typed buffer views.";
inline constexpr const char texture2d[] = "Usable for 2D textures.";
inline constexpr const char texture3d[] = "Usable for 3D textures.";
inline constexpr const char texture_cube[] = "Usable for cube textures.";
inline constexpr const char shader_load[] = "Readable with Load in shaders.";
inline constexpr const char shader_sample[] = "Readable with Sample (filtered) in shaders.";
inline constexpr const char render_target[] = "Usable as a render target.";
inline constexpr const char blendable[] = "Render targets of this format blend.";
inline constexpr const char depth_stencil[] = "Usable as a depth-stencil target.";
inline constexpr const char typed_uav[] = "Usable in typed UAVs (never for sRGB formats).";
inline constexpr const char uav_typed_load[] = "Typed UAV loads supported (D3D12 Support2 bit).";
inline constexpr const char uav_typed_store[] = "Typed UAV stores supported (D3D12 Support2 bit).";
inline constexpr const char mip_autogen[] =
    "Whether CommandList.generate_mips accepts textures of it (not depth, integer or UAV-less formats\n"
    "other than the rgba8/bgra8 UNORM and sRGB ones, which go through an rgba8_unorm alias).";
inline constexpr const char msaa[] = "Supported MSAA sample counts (list of ints).";
inline constexpr const char keys[] = "The keys, in order (every field but format), as a dict's keys view.";
inline constexpr const char getitem[] = "The value of one key (KeyError for unknown keys).";
inline constexpr const char contains[] = "Whether `key` is one of the keys.";
inline constexpr const char iter[] = "Iterates over the keys.";
inline constexpr const char len[] = "The number of keys.";
inline constexpr const char get[] =
    "The value of `key`, or `default` when it is not one of the keys.\n\n"
    "Args:\n"
    "    key: one of the keys.\n"
    "    default: the value when key is not one of them.\n\n"
    "Returns:\n"
    "    The key's value, or default.";
inline constexpr const char items[] = "(key, value) pairs, in key order, as a dict's items view.";
inline constexpr const char values[] = "The values, in key order, as a dict's values view.";
inline constexpr const char eq[] = "Equal to any mapping with the same keys and values (a dict, another FormatSupport).";
inline constexpr const char as_dict[] = "Every key and value as a new dict (booleans, and msaa as a list of ints).";
}  // namespace FormatSupport

}  // namespace dx12kit::bindings::docs
