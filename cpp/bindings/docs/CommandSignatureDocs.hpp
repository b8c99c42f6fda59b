// The Python docstrings of CommandSignature (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace CommandSignature {
inline constexpr const char class_[] =
    "What each command of an ExecuteIndirect argument buffer holds (ID3D12CommandSignature). Create with\n"
    "Device.create_command_signature; run with CommandList.execute_indirect. It stays alive while command lists using\n"
    "it are in flight.";
inline constexpr const char arguments[] = "The IndirectArgument list it was created with.";
inline constexpr const char byte_stride[] = "The bytes from one command to the next.";
inline constexpr const char argument_bytes[] = "The bytes one command's arguments take (<= byte_stride).";
inline constexpr const char is_compute[] = "True for a dispatch signature (runs with a compute pipeline).";
inline constexpr const char name[] = "Debug name, shown by repr and in error messages.";
}  // namespace CommandSignature

}  // namespace dx12kit::bindings::docs
