// The Python docstrings of RootSignature (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace RootSignature {
inline constexpr const char class_[] = "A root signature. Create with Device.create_root_signature.";
inline constexpr const char num_parameters[] = "Number of root parameters.";
inline constexpr const char name[] = "Debug name (also the D3D12 object's name).";
inline constexpr const char parameters[] =
    "The root parameters (RootParameter: kind, register, space, count, ranges, visibility), in root-index order.";
inline constexpr const char static_samplers[] = "The static samplers (StaticSamplerDesc).";
}  // namespace RootSignature

}  // namespace dx12kit::bindings::docs
