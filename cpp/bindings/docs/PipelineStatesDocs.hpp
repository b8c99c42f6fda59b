// The Python docstrings of PipelineStates (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace AnyState {
inline constexpr const char eq[] = "Equal when every field is.";
}  // namespace AnyState

namespace BlendState {
inline constexpr const char class_[] =
    "One render target's blend state (D3D12_RENDER_TARGET_BLEND_DESC), for create_graphics_pipeline(blend=...).\n\n"
    "The result is (src times src_blend) blend_op (dest times dest_blend) for red, green and blue, and the same with\n"
    "the alpha settings for alpha. Give one BlendState for all render targets, or a list of them, one per render target\n"
    "(independent blend).\n\n"
    "Args:\n"
    "    blend_enable: whether blending is on; None (the default): on when any factor or operation is given.\n"
    "    src_blend, dest_blend: dx12kit.Blend factors of the colour (default 'one' and 'zero').\n"
    "    blend_op: dx12kit.BlendOp of the colour (default 'add').\n"
    "    src_blend_alpha, dest_blend_alpha, blend_op_alpha: the same for alpha (alpha factors only, no colour factors).\n"
    "    logic_op: a dx12kit.LogicOp instead of blending (UINT targets), None for none. vkd3d 1.2 does not implement\n"
    "        logic operations: a pipeline with one raises InvalidArgumentError there.\n"
    "    write_mask: the channels written, dx12kit.ColorWriteEnable bits (default ALL = 15).\n\n"
    "Raises:\n"
    "    TypeError: an argument of the wrong type.\n"
    "    InvalidArgumentError: a name that is no choice, or a write_mask outside 0..15.\n\n"
    "blend_factor / inv_blend_factor factors read CommandList.set_blend_factor's value; a list starts with zeros, as\n"
    "D3D12 documents for a new list.";
inline constexpr const char blend_enable[] = "Whether blending is on.";
inline constexpr const char src_blend[] = "The colour's source factor.";
inline constexpr const char dest_blend[] = "The colour's destination factor.";
inline constexpr const char blend_op[] = "The colour's operation.";
inline constexpr const char src_blend_alpha[] = "Alpha's source factor.";
inline constexpr const char dest_blend_alpha[] = "Alpha's destination factor.";
inline constexpr const char blend_op_alpha[] = "Alpha's operation.";
inline constexpr const char logic_op[] = "The logic operation, or None.";
inline constexpr const char write_mask[] = "The channels written (ColorWriteEnable bits).";
inline constexpr const char preset[] =
    "The BlendState a dx12kit.BlendMode preset stands for.\n\n"
    "Args:\n    mode: a dx12kit.BlendMode or its name.\n\n"
    "Returns:\n    A BlendState ('none': blending off).\n\n"
    "Raises:\n    InvalidArgumentError: a name that is no preset.";
}  // namespace BlendState

namespace RasterizerState {
inline constexpr const char class_[] =
    "The rasterizer state of a graphics pipeline (D3D12_RASTERIZER_DESC), for create_graphics_pipeline(rasterizer=...).\n\n"
    "Args:\n"
    "    fill: dx12kit.FillMode, 'solid' (default) or 'wireframe'.\n"
    "    cull: dx12kit.CullMode (default 'none', as create_graphics_pipeline's cull=).\n"
    "    front_ccw: True when counter-clockwise triangles face the front (D3D12's FrontCounterClockwise; default clockwise).\n"
    "    depth_bias: an int added to the depth, in units of the depth format's smallest difference (DepthBias; D3D12's\n"
    "        unit on every backend: dx12kit measures vkd3d's per depth format and scales).\n"
    "    depth_bias_clamp: the largest bias (0: no clamp). slope_scaled_depth_bias: times the depth slope.\n"
    "    depth_clip: clip against the near and far planes (default True; False clamps depth instead).\n"
    "    multisample, antialiased_lines, forced_sample_count, conservative: D3D12's MultisampleEnable,\n"
    "        AntialiasedLineEnable, ForcedSampleCount and ConservativeRaster. vkd3d 1.2 ignores all four:\n"
    "        create_graphics_pipeline raises InvalidArgumentError there for any but the default.\n\n"
    "Raises:\n"
    "    TypeError: an argument of the wrong type.\n"
    "    InvalidArgumentError: a name that is no choice, or a number out of range.";
inline constexpr const char fill[] = "'solid' or 'wireframe'.";
inline constexpr const char cull[] = "The culled faces.";
inline constexpr const char front_ccw[] = "Whether counter-clockwise triangles face the front.";
inline constexpr const char depth_bias[] = "DepthBias.";
inline constexpr const char depth_bias_clamp[] = "DepthBiasClamp.";
inline constexpr const char slope_scaled_depth_bias[] = "SlopeScaledDepthBias.";
inline constexpr const char depth_clip[] = "DepthClipEnable.";
inline constexpr const char multisample[] = "MultisampleEnable.";
inline constexpr const char antialiased_lines[] = "AntialiasedLineEnable.";
inline constexpr const char forced_sample_count[] = "ForcedSampleCount.";
inline constexpr const char conservative[] = "ConservativeRaster ON.";
}  // namespace RasterizerState

namespace StencilFace {
inline constexpr const char class_[] =
    "What the stencil test does for one face (D3D12_DEPTH_STENCILOP_DESC), for DepthStencilState(front=, back=).\n\n"
    "Args:\n"
    "    fail_op: dx12kit.StencilOp where the stencil test fails (default 'keep').\n"
    "    depth_fail_op: where the stencil test passes and the depth test fails (default 'keep').\n"
    "    pass_op: where both pass (default 'keep').\n"
    "    func: dx12kit.ComparisonFunc of (reference & read_mask) against (stencil & read_mask) (default 'always'); the\n"
    "        reference is CommandList.set_stencil_ref's.\n\n"
    "Raises:\n"
    "    TypeError: an argument of the wrong type.\n"
    "    InvalidArgumentError: a name that is no choice.";
inline constexpr const char fail_op[] = "StencilFailOp.";
inline constexpr const char depth_fail_op[] = "StencilDepthFailOp.";
inline constexpr const char pass_op[] = "StencilPassOp.";
inline constexpr const char func[] = "StencilFunc.";
}  // namespace StencilFace

namespace DepthStencilState {
inline constexpr const char class_[] =
    "The depth-stencil state of a graphics pipeline (D3D12_DEPTH_STENCIL_DESC), for create_graphics_pipeline(depth_stencil=...).\n"
    "Both tests need the pipeline's dsv_format (the stencil test one with a stencil plane: d24_unorm_s8_uint,\n"
    "d32_float_s8x24_uint).\n\n"
    "Args:\n"
    "    depth_test: the depth test (DepthEnable); None (the default): on when depth_func is given.\n"
    "    depth_write: write depth where the test passes (default True).\n"
    "    depth_func: dx12kit.ComparisonFunc of the incoming depth against the stored one (default 'less').\n"
    "    stencil: the stencil test (StencilEnable); None (the default): on when front or back is given.\n"
    "    read_mask, write_mask: stencil bits read and written (0..255, default 255).\n"
    "    front, back: StencilFace of front- and back-facing triangles (default: StencilFace()).\n\n"
    "Raises:\n"
    "    TypeError: an argument of the wrong type.\n"
    "    InvalidArgumentError: a name that is no choice, or a mask outside 0..255.";
inline constexpr const char depth_test[] = "DepthEnable.";
inline constexpr const char depth_write[] = "DepthWriteMask ALL (True) or ZERO.";
inline constexpr const char depth_func[] = "DepthFunc.";
inline constexpr const char stencil[] = "StencilEnable.";
inline constexpr const char read_mask[] = "StencilReadMask.";
inline constexpr const char write_mask[] = "StencilWriteMask.";
inline constexpr const char front[] = "FrontFace.";
inline constexpr const char back[] = "BackFace.";
}  // namespace DepthStencilState

namespace InputElement {
inline constexpr const char class_[] =
    "One element of a graphics pipeline's input layout (D3D12_INPUT_ELEMENT_DESC), for\n"
    "create_graphics_pipeline(input_layout=[...]). Tuples (semantic, format, slot, offset, semantic_index) are still accepted.\n\n"
    "Args:\n"
    "    semantic: the vertex shader input's semantic name ('POSITION', 'TEXCOORD').\n"
    "    format: a dx12kit.VertexFormat ('float3', ...) or any dx12kit.Format (or its name).\n"
    "    slot: the vertex buffer slot (0..31).\n"
    "    offset: bytes from the vertex's start; None: right after the slot's previous element (D3D12_APPEND_ALIGNED_ELEMENT).\n"
    "    semantic_index: the semantic's index (TEXCOORD1: 1).\n"
    "    per_instance: True for per-instance data (D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA).\n"
    "    step_rate: per-instance elements advance every step_rate instances (InstanceDataStepRate, default 1; 0: every\n"
    "        instance reads the first element).\n\n"
    "Raises:\n"
    "    TypeError: an argument of the wrong type.\n"
    "    InvalidArgumentError: an unknown format, a slot outside 0..31, or step_rate on a per-vertex element.";
inline constexpr const char semantic[] = "SemanticName.";
inline constexpr const char format[] = "The format's name: a dx12kit.VertexFormat value ('float3') or a dx12kit.Format name ('rg16_float').";
inline constexpr const char slot[] = "InputSlot.";
inline constexpr const char offset[] = "AlignedByteOffset, or None (appended).";
inline constexpr const char semantic_index[] = "SemanticIndex.";
inline constexpr const char per_instance[] = "Whether it is per-instance data.";
inline constexpr const char step_rate[] = "InstanceDataStepRate of per-instance data.";
}  // namespace InputElement

}  // namespace dx12kit::bindings::docs
