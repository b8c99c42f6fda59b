// The Python docstrings of Buffer (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace Buffer {
inline constexpr const char class_[] = "A GPU buffer. Create with Device.create_buffer.";
inline constexpr const char size[] = "Size in bytes.";
inline constexpr const char gpu_address[] = "GPU virtual address of the first byte (for root CBV/SRV/UAV arguments).";
inline constexpr const char map[] =
    "A numpy view of a CPU-visible buffer's memory (heap 'upload', 'readback' or 'custom'), valid while the array lives\n"
    "(it keeps the buffer alive). Writes to upload memory are seen by the GPU work submitted after them; read readback\n"
    "memory after the GPU work that wrote it has completed (queue.wait). CPU-visible buffers never move\n"
    "(Device.defragment leaves them in place), so the array stays valid as long as it lives.\n\n"
    "Args:\n"
    "    dtype: the numpy dtype of the items (fixed size, native byte order); the buffer's size must be a multiple of it.\n\n"
    "Returns:\n"
    "    A 1-D numpy array over the buffer's memory (no copy).\n\n"
    "Raises:\n"
    "    InvalidArgumentError: a GPU-only buffer (heap 'default'), or a size that is not a whole number of items.\n"
    "    UseAfterFreeError: the buffer was closed.\n"
    "    TypeError: dtype is not a fixed-size numpy dtype.";
}  // namespace Buffer

}  // namespace dx12kit::bindings::docs
