// The Python docstrings of PipelineState (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace PipelineState {
inline constexpr const char class_[] = "A compute or graphics pipeline state object.";
inline constexpr const char is_compute[] = "True for a compute pipeline, False for a graphics one.";
inline constexpr const char root_signature[] = "The root signature the pipeline was created with (given, or derived from the shaders when left out).";
inline constexpr const char name[] = "Debug name (also the D3D12 object's name).";
inline constexpr const char shader_reflections[] =
    "The ShaderReflection of each of its shaders, in pipeline order (cs; or vs, hs, ds, gs, ps as present).";
}  // namespace PipelineState

}  // namespace dx12kit::bindings::docs
