// The Python docstrings of HostCopies (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace dx12core {
inline constexpr const char set_copy_threads[] =
    "How many threads share a large host copy (uploads, read_buffer, read_texture, upload pages), the caller included.\n"
    "1..64; 1: every copy is one memcpy on the calling thread. None: the default, DX12KIT_COPY_THREADS if set (1..64;\n"
    "another value raises InvalidArgumentError, here, in copy_threads() and in Device()), else the hardware threads the\n"
    "process may run on (its CPU affinity), at most 4. Copies under 2 MiB always\n"
    "run on the calling thread.\n\n"
    "Args:\n"
    "    threads: 1..64, or None for the default.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: a count outside 1..64.\n"
    "    TypeError: a bool or a non-integer.";
inline constexpr const char copy_threads[] = "The number of threads a large host copy is split over (set_copy_threads).";
inline constexpr const char copy_stats[] =
    "Host copies since the process started: copies, bytes, and of them those split over several threads\n"
    "(parallel_copies, parallel_bytes). Process-wide, for every device.";
}  // namespace dx12core

}  // namespace dx12kit::bindings::docs
