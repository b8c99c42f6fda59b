// dx12core._close_names: the "did you mean" helper (dx12kit/core/CloseNames.hpp) for the Python
// layer's own parsers (dx12kit/_names.py), so that Python and C++ suggest names by one rule.
#include "Bindings.hpp"

#include "dx12kit/core/CloseNames.hpp"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace pybind11::literals;

namespace dx12kit::bindings {

void BindNames(py::module_& m) {
    m.def("_close_names", [](const std::string& word, const std::vector<std::string>& names, size_t n) { return CloseNames(word, names, n); },
          "word"_a, "names"_a, "n"_a = 3,
          "Up to n of `names` closest to `word` (difflib.get_close_matches' rule: similarity >= 0.6, best first; compared in\n"
          "lower case). Used by dx12kit._names.did_you_mean.");
}

}  // namespace dx12kit::bindings
