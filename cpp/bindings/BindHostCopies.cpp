// dx12core: the process-wide host copies (set_copy_threads, copy_threads, copy_stats): module functions,
// no class. Only conversions live here; behaviour is in cpp/src/base/HostCopy.cpp.
#include "docs/HostCopiesDocs.hpp"
#include "Args.hpp"
#include "Bindings.hpp"
#include "StatsDicts.hpp"

#include "dx12kit/base/HostCopy.hpp"

namespace dx12kit::bindings {

namespace py = pybind11;
using namespace py::literals;

void BindHostCopies(py::module_& m) {
    // ---- host copies (process-wide: every device's uploads and readbacks) ----------------------
    m.def(
        "set_copy_threads",
        [](py::handle threads) {
            if (threads.is_none()) return host::SetCopyThreads(0);
            if (PyBool_Check(threads.ptr()))  // True would pass as 1: a bool is not a count
                throw py::type_error("set_copy_threads: threads must be an int (1..64) or None, not bool");
            host::SetCopyThreads(static_cast<unsigned>(detail::Ranged(threads, "set_copy_threads", "threads", 1, 64)));
        },
        "threads"_a, docs::dx12core::set_copy_threads);
    m.def("copy_threads", &host::CopyThreads, docs::dx12core::copy_threads);
    m.def("copy_stats", &CopyStatsDict, docs::dx12core::copy_stats);
}

}  // namespace dx12kit::bindings
