// dx12core: the process-wide host copies (set_copy_threads, copy_threads, copy_stats): module functions,
// no class. Only conversions live here; behaviour is in cpp/src/core/HostCopy.cpp.
#include "Args.hpp"
#include "Bindings.hpp"
#include "StatsDicts.hpp"

#include "dx12kit/core/HostCopy.hpp"

namespace dx12kit::bindings {

namespace py = pybind11;
using namespace py::literals;

void BindHostCopies(py::module_& m) {
    // ---- host copies (process-wide: every device's uploads and readbacks) ----------------------
    m.def("set_copy_threads", [](py::handle threads) {
        if (threads.is_none()) return host::SetCopyThreads(0);
        if (PyBool_Check(threads.ptr()))  // True would pass as 1: a bool is not a count
            throw py::type_error("set_copy_threads: threads must be an int (1..64) or None, not bool");
        host::SetCopyThreads(static_cast<unsigned>(detail::Ranged(threads, "set_copy_threads", "threads", 1, 64)));
    }, "threads"_a,
          "How many threads share a large host copy (uploads, read_buffer, read_texture, upload pages), the caller included.\n"
          "1..64; 1: every copy is one memcpy on the calling thread. None: the default, DX12KIT_COPY_THREADS if set (1..64;\n"
          "another value raises InvalidArgumentError, here, in copy_threads() and in Device()), else the hardware threads the\n"
          "process may run on (its CPU affinity), at most 4. Copies under 2 MiB always\n"
          "run on the calling thread.\n\n"
       "Args:\n"
       "    threads: 1..64, or None for the default.\n\n"
       "Raises:\n"
       "    InvalidArgumentError: a count outside 1..64.\n"
       "    TypeError: a bool or a non-integer.");
    m.def("copy_threads", &host::CopyThreads, "The number of threads a large host copy is split over (set_copy_threads).");
    m.def("copy_stats", &CopyStatsDict,
          "Host copies since the process started: copies, bytes, and of them those split over several threads\n"
       "(parallel_copies, parallel_bytes). Process-wide, for every device.");
}

}  // namespace dx12kit::bindings
