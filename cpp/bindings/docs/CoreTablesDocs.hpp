// The Python docstrings of BindCoreTables.cpp, kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace dx12core {
inline constexpr const char flag_tables[] =
    "The members of every IntFlag of dx12kit.enums: {enum name: (((member name, value), ...), docstring)}.\n\n"
    "dx12kit.enums makes its IntFlags (ColorWriteEnable) from this table, so the flags and the D3D12 bits the\n"
    "core uses cannot differ.";
inline constexpr const char format_info[] =
    "What the core's format table says of a format: {'name', 'dxgi_name', 'layout', 'bytes_per_texel',\n"
    "'packed_texel_bytes', 'block_bytes', 'channels', 'depth'}.\n\n"
    "Args:\n"
    "    name: a format name (dx12kit's short name or DXGI's, any case, with or without DXGI_FORMAT_).\n\n"
    "layout is 'texel' (bytes_per_texel bytes per texel, channels per read_texture element), 'block' (4x4\n"
    "blocks of block_bytes bytes: BC1-BC7) or 'other' (video, planar, palette and packed formats: known by name\n"
    "only). bytes_per_texel is what uploads and readbacks use (the depth plane's 4 for d32_float_s8x24_uint);\n"
    "packed_texel_bytes is a texel's size with every plane in one allocation, as DDS files store it (8 there).\n\n"
    "Raises:\n"
    "    InvalidArgumentError: a name that is no DXGI format (the message names the closest).";
}  // namespace dx12core

}  // namespace dx12kit::bindings::docs
