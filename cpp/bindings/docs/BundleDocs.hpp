// The Python docstrings of Bundle members bound in their own files (pybind11 doc arguments) and of the
// recording methods Bundle shares with CommandList (SharedRecording.hpp); the older members keep theirs in
// BindBundle.cpp. Each constant is named docs::<PythonClass>::<member>.
#pragma once

namespace dx12kit::bindings::docs {

namespace Bundle {
inline constexpr const char set_root_cbv[] =
    "Records CommandList.set_root_cbv.\n\n"
    "Args:\n"
    "    root_index: a RootCBV parameter of the root signature set in the bundle.\n"
    "    buffer: the Buffer bound.\n"
    "    offset: byte offset in buffer (a multiple of 256).\n\n"
    "Raises:\n"
    "    InvalidArgumentError: no pipeline set in the bundle yet, not a RootCBV parameter, a texture.";
inline constexpr const char set_root_srv[] =
    "Records CommandList.set_root_srv.\n\n"
    "Args:\n"
    "    root_index: a RootSRV parameter of the root signature set in the bundle.\n"
    "    buffer: the Buffer bound.\n"
    "    offset: byte offset in buffer.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: no pipeline set in the bundle yet, not a RootSRV parameter, a texture.";
inline constexpr const char set_root_uav[] =
    "Records CommandList.set_root_uav.\n\n"
    "Args:\n"
    "    root_index: a RootUAV parameter of the root signature set in the bundle.\n"
    "    buffer: the Buffer bound.\n"
    "    offset: byte offset in buffer.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: no pipeline set in the bundle yet, not a RootUAV parameter, a texture.";
inline constexpr const char set_shader_resource_view[] =
    "Records CommandList.set_shader_resource_view (the view is written into the calling list's table at each execution).\n\n"
    "Args:\n"
    "    root_index: a DescriptorTable parameter of the root signature set in the bundle.\n"
    "    descriptor_offset: the slot in that table.\n"
    "    resource: a Texture or Buffer.\n"
    "    mip, format, stride, raw, first_element, num_elements: as CommandList.set_shader_resource_view.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: no pipeline set in the bundle yet, not a table parameter; the view's own checks run at\n"
    "        execute_bundle.";
inline constexpr const char set_unordered_access_view[] =
    "Records CommandList.set_unordered_access_view.\n\n"
    "Args:\n"
    "    root_index: a DescriptorTable parameter of the root signature set in the bundle.\n"
    "    descriptor_offset: the slot in that table.\n"
    "    resource: a Texture or Buffer created with uav=True.\n"
    "    mip, format, stride, raw, first_element, num_elements, counter, counter_offset: as\n"
    "        CommandList.set_unordered_access_view.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: no pipeline set in the bundle yet, not a table parameter, a resource without uav=True.";
inline constexpr const char set_constant_buffer_view[] =
    "Records CommandList.set_constant_buffer_view.\n\n"
    "Args:\n"
    "    root_index: a DescriptorTable parameter of the root signature set in the bundle.\n"
    "    descriptor_offset: the slot in that table.\n"
    "    buffer: the Buffer viewed.\n"
    "    offset, size: as CommandList.set_constant_buffer_view.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: no pipeline set in the bundle yet, not a table parameter.";
inline constexpr const char set_sampler[] =
    "Records CommandList.set_sampler.\n\n"
    "Args:\n"
    "    root_index: a sampler DescriptorTable parameter of the root signature set in the bundle.\n"
    "    descriptor_offset: the slot in that table.\n"
    "    sampler: a SamplerState.\n\n"
    "Raises:\n"
    "    TypeError: sampler is not a SamplerState.";
inline constexpr const char set_vertex_buffer[] =
    "Records CommandList.set_vertex_buffer (it stays bound in the calling list afterwards).\n\n"
    "Args:\n"
    "    slot: the input slot (0..31).\n"
    "    buffer: the Buffer read.\n"
    "    stride: bytes per vertex.\n"
    "    offset: byte offset of the first vertex.";
inline constexpr const char set_index_buffer[] =
    "Records CommandList.set_index_buffer.\n\n"
    "Args:\n"
    "    buffer: the Buffer read.\n"
    "    format: an IndexFormat or its name.\n"
    "    offset: byte offset of the first index.";
inline constexpr const char set_dynamic_constant_buffer[] =
    "Records CommandList.set_dynamic_constant_buffer: the data is copied now, and each execution copies it into the\n"
    "calling list's upload memory.\n\n"
    "Args:\n"
    "    root_index: a RootCBV parameter of the root signature set in the bundle.\n"
    "    data: bytes, a numpy array or anything with the buffer protocol (at most 65536 bytes).";
inline constexpr const char set_dynamic_vertex_buffer[] =
    "Records CommandList.set_dynamic_vertex_buffer (the array is copied now).\n\n"
    "Args:\n"
    "    slot: the input slot.\n"
    "    array: the vertices (a numpy array).\n"
    "    stride: bytes per vertex; None takes the array's row size (2-D arrays).";
inline constexpr const char set_dynamic_index_buffer[] =
    "Records CommandList.set_dynamic_index_buffer (the array is copied now).\n\n"
    "Args:\n"
    "    array: uint16 or uint32 indices.";
inline constexpr const char set_stencil_ref[] =
    "Records CommandList.set_stencil_ref.\n\n"
    "Args:\n"
    "    ref: 0..255.";
inline constexpr const char set_blend_factor[] =
    "Records CommandList.set_blend_factor.\n\n"
    "Args:\n"
    "    rgba: 4 finite numbers.";
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
