// Placeholder until the allocation core lands.
#include "Bindings.hpp"
namespace dx12kit::bindings { void BindAlloc(pybind11::module_& m) { m.def_submodule("alloc"); } }
