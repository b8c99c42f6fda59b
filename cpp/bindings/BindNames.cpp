// dx12core._close_names: the "did you mean" helper (dx12kit/base/CloseNames.hpp) for the Python
// layer's own parsers (dx12kit/_names.py), so that Python and C++ suggest names by one rule.
#include "Bindings.hpp"
#include "docs/NamesDocs.hpp"

#include "dx12kit/base/CloseNames.hpp"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace pybind11::literals;

namespace dx12kit::bindings {

void BindNames(py::module_& m) {
    m.def(
        "_close_names", [](const std::string& word, const std::vector<std::string>& names, size_t n) { return CloseNames(word, names, n); }, "word"_a,
        "names"_a, "n"_a = 3, docs::dx12core::close_names);
}

}  // namespace dx12kit::bindings
