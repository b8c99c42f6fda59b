// The Python docstrings of Texture (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace Texture {
inline constexpr const char class_[] = "A 2D texture (array). Create with Device.create_texture2d.";
inline constexpr const char width[] = "Width in texels of mip 0.";
inline constexpr const char height[] = "Height in texels of mip 0.";
inline constexpr const char format[] = "The format views and reads use (a dx12kit.Format).";
inline constexpr const char mip_levels[] = "Number of mip levels.";
inline constexpr const char array_size[] = "Number of array slices.";
inline constexpr const char sample_count[] = "Samples per pixel (1, or the MSAA count of a multisampled texture).";
inline constexpr const char shape[] =
    "(height, width, channels) of mip 0 ((depth, height, width, channels) for 3D textures), as read_texture returns it;\n"
    "(block rows, blocks per row, bytes per block) for a block-compressed format.";
inline constexpr const char depth[] = "Depth in texels of mip 0 (1 unless a 3D texture).";
inline constexpr const char dimension[] = "'2d' (a 2D texture or array), 'cube' (6 faces: +X, -X, +Y, -Y, +Z, -Z) or '3d'.";
}  // namespace Texture

}  // namespace dx12kit::bindings::docs
