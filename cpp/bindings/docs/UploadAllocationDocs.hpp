// The Python docstrings of UploadAllocation (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace UploadAllocation {
inline constexpr const char class_[] =
    "Upload memory owned by a command list. Fill .array() in place, then CommandList.copy_from_upload.\n"
    "Fill it before the list is executed: .array() then raises, and writes through an older view\n"
    "race with the GPU's copy. The memory stays reserved (never reused) while any view of it exists.";
inline constexpr const char size[] = "Bytes reserved.";
inline constexpr const char gpu_address[] = "GPU virtual address of the first byte.";
inline constexpr const char offset[] = "Offset of the first byte in its upload page.";
inline constexpr const char array[] =
    "A writable numpy view of the upload memory (no copy).\n\n"
    "Args:\n"
    "    dtype: the item dtype (fixed size).\n"
    "    shape: the array's shape (an int or a tuple of ints); None: as many items as fit.\n\n"
    "Returns:\n"
    "    A writable numpy view of the memory.\n\n"
    "Raises:\n"
    "    UseAfterFreeError: the command list was already executed.\n"
    "    InvalidArgumentError: a shape larger than the allocation.\n"
    "    TypeError: a shape that is not ints.";
}  // namespace UploadAllocation

}  // namespace dx12kit::bindings::docs
