// The Python docstrings of SamplerState (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace SamplerState {
inline constexpr const char class_[] = "A sampler descriptor. Create with Device.create_sampler.";
inline constexpr const char name[] = "Debug name, shown by repr.";
inline constexpr const char desc[] =
    "The settings, by create_sampler's argument names (create_sampler given these as keywords makes the same sampler):\n"
    "filter, address, "
    "address_v, address_w, mip_lod_bias, max_anisotropy, comparison (completed: 'less_equal' for a comparison filter\n"
    "created without one), border_color (r, g, b, a), min_lod, max_lod.";
}  // namespace SamplerState

}  // namespace dx12kit::bindings::docs
