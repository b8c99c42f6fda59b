// The Python docstrings of Bundle members bound in their own files (pybind11 doc arguments); the older
// members keep theirs in BindBundle.cpp. Each constant is named docs::<PythonClass>::<member>.
#pragma once

namespace dx12kit::bindings::docs {

namespace Bundle {
inline constexpr const char execute_indirect[] =
    "Records an ExecuteIndirect (D3D12 allows it in a bundle: it is not among the bundle restrictions); it runs, when\n"
    "the bundle is executed, as CommandList.execute_indirect with the same arguments would at that point of the calling\n"
    "list, with the same checks and the same results (root CBV arguments included).\n\n"
    "D3D12's bundle rules apply: the bundle must have set a pipeline of the signature's kind (bundles do not inherit\n"
    "the pipeline), and a signature that changes root arguments needs its root signature set in the bundle (with\n"
    "set_pipeline_state). D3D12 wants the argument and count buffers in INDIRECT_ARGUMENT when the bundle runs (a bundle\n"
    "records no barrier); dx12kit's calling list puts them there. Root views the signature sets are NULL views in the\n"
    "calling list afterwards (what a bundle sets stays set).\n\n"
    "Args:\n"
    "    signature, max_count, argument_buffer, argument_offset, count_buffer, count_offset, referenced: as\n"
    "        CommandList.execute_indirect.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: now, no pipeline of the signature's kind set in the bundle, a signature whose root\n"
    "        signature is not the one the bundle set, objects of another device; at execute_bundle, what\n"
    "        CommandList.execute_indirect refuses (the error names the bundle and the call).\n"
    "    UseAfterFreeError: the bundle is closed, or a buffer was closed.\n"
    "    TypeError: arguments of the wrong type.";
}  // namespace Bundle

}  // namespace dx12kit::bindings::docs
