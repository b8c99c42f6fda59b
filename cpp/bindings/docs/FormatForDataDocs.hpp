// The Python docstring of dx12core._texture_format_for_data (pybind11 doc argument), kept apart from the binding
// code: named docs::<PythonClass>::<member> after what it documents (dx12core: module functions).
#pragma once

namespace dx12kit::bindings::docs {

namespace dx12core {
inline constexpr const char texture_format_for_data[] =
    "The short name of the format a texture made from data of `dtype` with `channels` channels (1, 2 or 4) takes, from\n"
    "the core's one table (dx12kit/devicecontext/FormatForData.hpp, which create_texture2d(data=) uses too); with srgb\n"
    "the sRGB format (8-bit data, 4 channels). None where the table has none. Used by\n"
    "dx12kit.textures.texture_format_for.";
}  // namespace dx12core

}  // namespace dx12kit::bindings::docs
