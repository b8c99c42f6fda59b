// The Python docstrings of the "did you mean" helper (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (dx12core: module functions).
#pragma once

namespace dx12kit::bindings::docs {

namespace dx12core {
inline constexpr const char close_names[] =
    "Up to n of `names` closest to `word` (difflib.get_close_matches' rule: similarity >= 0.6, best first; compared in\n"
    "lower case). Used by dx12kit._names.did_you_mean.";
}  // namespace dx12core

}  // namespace dx12kit::bindings::docs
