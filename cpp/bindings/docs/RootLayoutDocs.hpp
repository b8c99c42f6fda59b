// The Python docstrings of RootLayout (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace dx12core {
inline constexpr const char refused_flags[] =
    "The D3D12 flags dx12kit refuses, and why (vkd3d 1.2 cannot honour them): the core's own table, which the\n"
    "RootSignature constructor applies (the flag enums hold the supported flags of the same table).\n\n"
    "Returns:\n"
    "    {'RootSignatureFlags' | 'DescriptorRangeFlags' | 'RootDescriptorFlags': {flag name without the D3D12 prefix: why}}.";
inline constexpr const char RootConstants[] =
    "32-bit root constants (a cbuffer at register b<register>).\n\n"
    "Args:\n"
    "    register: the b register of the cbuffer.\n"
    "    count: 32-bit values (> 0).\n"
    "    space: the register space.\n"
    "    visibility: a Visibility or its name ('all', 'vertex', 'pixel', ...).\n\n"
    "Returns:\n"
    "    A RootParameter for create_root_signature.\n\n"
    "Raises:\n"
    "    TypeError: an argument of the wrong type.\n"
    "    InvalidArgumentError: count 0, a negative value, or an unknown visibility.";
inline constexpr const char DescriptorTable[] =
    "A descriptor table: a list of SRV/UAV/CBV ranges, or of Sampler ranges.\n\n"
    "Args:\n"
    "    ranges: DescriptorRange objects (made by SRV, UAV, CBV), or sampler ranges (SamplerRange) only.\n"
    "    visibility: a Visibility or its name ('all', 'vertex', 'pixel', ...).\n\n"
    "Returns:\n"
    "    A RootParameter for create_root_signature.\n\n"
    "Raises:\n"
    "    TypeError: ranges not a list of DescriptorRange.\n"
    "    InvalidArgumentError: no ranges, or an unknown visibility.";
inline constexpr const char StaticSampler[] =
    "A static sampler: filter 'point' | 'linear' | 'bilinear' | 'anisotropic' or a D3D12_FILTER name without its prefix\n"
    "('comparison_min_mag_mip_linear'); address 'clamp' | 'wrap' | 'mirror' | 'mirror_once' | 'border' (address_v/address_w\n"
    "default to address); comparison 'never' | 'less' | 'less_equal' | ...; border_color 'transparent_black' |\n"
    "'opaque_black' | 'opaque_white'.\n\n"
    "Args:\n"
    "    register: the s register.\n"
    "    filter: a Filter or its name.\n"
    "    address: an AddressMode or its name, for u (and v, w unless given).\n"
    "    space: the register space.\n"
    "    visibility: a Visibility or its name.\n"
    "    address_v: the v address mode, or None (address).\n"
    "    address_w: the w address mode, or None (address).\n"
    "    mip_lod_bias: added to the computed mip level, within [-16, 15.99].\n"
    "    max_anisotropy: 1 to 16 (anisotropic filters).\n"
    "    comparison: a ComparisonFunc or its name (comparison filters). None: 'less_equal' for a comparison filter\n"
    "        (the root-signature language's default), never 'never'; other filters ignore it, as in D3D12.\n"
    "    border_color: a BorderColor or its name (address 'border'). Devices whose Device.sampler_support['border_colors']\n"
    "        is False (vkd3d 1.2) refuse all but 'transparent_black' with a 'border' address at create_root_signature.\n"
    "    min_lod: the lowest mip level used.\n"
    "    max_lod: the highest mip level used (at least min_lod).\n\n"
    "Returns:\n"
    "    A StaticSamplerDesc for create_root_signature.\n\n"
    "Raises:\n"
    "    TypeError: an argument of the wrong type.\n"
    "    InvalidArgumentError: an unknown choice, max_anisotropy outside 1..16, min_lod above max_lod, mip_lod_bias outside\n"
    "        [-16, 15.99] (D3D12's rules, dx12kit/gpu/SamplerRules.hpp).";
}  // namespace dx12core

namespace DescriptorRange {
inline constexpr const char class_[] = "One range of a DescriptorTable (made by SRV, UAV, CBV, Sampler).";
inline constexpr const char offset[] = "Descriptors from the table start, or None (appended after the previous range).";
inline constexpr const char flags[] = "The range's DescriptorRangeFlags (root signature 1.1).";
}  // namespace DescriptorRange

namespace RootParameter {
inline constexpr const char class_[] = "A root parameter (made by RootConstants, RootCBV, RootSRV, RootUAV, DescriptorTable).";
inline constexpr const char flags[] = "Root CBV/SRV/UAV: its RootDescriptorFlags (root signature 1.1).";
inline constexpr const char visibility[] = "D3D12_SHADER_VISIBILITY value.";
}  // namespace RootParameter

namespace StaticSamplerDesc {
inline constexpr const char class_[] = "A static sampler of a root signature (made by StaticSampler).";
}  // namespace StaticSamplerDesc

}  // namespace dx12kit::bindings::docs
