// The Python docstrings of Shaders (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace shaders {
inline constexpr const char module_[] = "DXBC validation and reflection (device-free; see dx12kit.Shader.bindings).";
inline constexpr const char reflect_dxbc[] =
    "Validates a DXBC container (size, chunk table, checksum) and reflects it.\n\n"
    "Raises:\n    InvalidArgumentError: the container is malformed, naming what is wrong.\n    TypeError: not bytes-like.";
inline constexpr const char dxbc_problem[] = "What is wrong with a DXBC container ('' when nothing): magic, size, chunks, checksum.";
inline constexpr const char dxbc_checksum[] = "The DXBC checksum of a container (16 bytes), as stored at bytes 4..20 of a valid one.";
inline constexpr const char fix_folded_float_modifiers[] =
    "The bytecode with float negate/abs modifiers that vkd3d-shader folded into operands not read as floats (stores,\n"
    "atomics, integer instructions, addresses, conditions) moved into float movs (dx12kit/shaders/DxbcModifierFix.hpp),\n"
    "as pipeline creation does on every platform. Returns (bytecode, names of the instructions fixed).\n\n"
    "Raises:\n    InvalidArgumentError: malformed, or a modifier that can be neither fixed nor run right.";
inline constexpr const char rewrite_dxbc_for_vkd3d[] =
    "The bytecode as pipeline creation hands it to vkd3d: ftoi/ftou and firstbit_hi/shi replaced by sequences that\n"
    "vkd3d 1.2 computes by D3D's rules, and partial movs with an identity swizzle (which vkd3d 1.2 turns into a\n"
    "copy of the whole register) given a swizzle it translates right (dx12kit/shaders/DxbcRewrite.hpp). Returns\n"
    "(bytecode, counts of changed instructions by kind); the bytecode is the input unchanged when nothing changed.";
}  // namespace shaders

namespace ShaderBinding {
inline constexpr const char class_[] = "A resource a shader binds: a constant buffer, texture, buffer, UAV or sampler.";
inline constexpr const char name[] = "The HLSL name (the cbuffer's name for constant buffers).";
inline constexpr const char kind[] = "'cbv', 'srv', 'uav' or 'sampler'.";
inline constexpr const char register_[] = "The first register (t3 -> 3).";
inline constexpr const char space[] = "The register space.";
inline constexpr const char count[] = "Registers used (array size); 0 for an unbounded array.";
inline constexpr const char type[] = "The HLSL type: 'cbuffer', 'Texture2D', 'StructuredBuffer', ...";
inline constexpr const char dimension[] = "D3D_SRV_DIMENSION value (1 buffer, 4 texture2d, ...; 0 when not a view).";
inline constexpr const char input_type[] = "D3D_SHADER_INPUT_TYPE value.";
inline constexpr const char return_type[] = "D3D_RESOURCE_RETURN_TYPE value (5 float, 4 uint, ...; 0 if none).";
inline constexpr const char cbuffer_size[] = "Constant buffers: declared size in bytes.";
inline constexpr const char cbuffer_used_bytes[] = "Constant buffers: one past the last byte the shader reads.";
inline constexpr const char register_name[] = "As error messages write it: 't3 space0'.";
inline constexpr const char root_descriptor_ok[] = "True when D3D12 allows it as a root CBV/SRV/UAV (constant, raw or structured buffers).";
inline constexpr const char variables[] = "Constant buffers: their variables (CbufferVariable), in declaration order.";
}  // namespace ShaderBinding

namespace SignatureElement {
inline constexpr const char class_[] = "One element of a shader's input or output signature.";
inline constexpr const char semantic[] = "Semantic name as written (TEXCOORD, SV_Position, SV_Target).";
inline constexpr const char register_[] = "The v#/o# register.";
inline constexpr const char system_value[] = "D3D_NAME value (0 none, 1 position, 64 target, ...).";
inline constexpr const char component_type[] = "'float32', 'uint32', 'int32' or 'unknown'.";
inline constexpr const char mask[] = "Components present, e.g. 'xyzw'.";
inline constexpr const char used_mask[] = "Inputs: components read; outputs: components never written.";
}  // namespace SignatureElement

namespace ShaderReflection {
inline constexpr const char class_[] = "What a DXBC container declares: stage, bindings, signatures, numthreads.";
inline constexpr const char stage[] = "'vertex', 'pixel', 'compute', ...";
inline constexpr const char profile[] = "For example 'cs_5_0'.";
inline constexpr const char numthreads[] = "(x, y, z) of [numthreads] for compute shaders; (0, 0, 0) otherwise.";
inline constexpr const char creator[] = "The compiler's name as stored in the bytecode.";
}  // namespace ShaderReflection

}  // namespace dx12kit::bindings::docs
