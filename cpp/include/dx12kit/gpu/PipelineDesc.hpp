// The description of a graphics pipeline: shader stages, input layout and the fixed-function
// states (blend, rasterizer, depth-stencil), as D3D12_GRAPHICS_PIPELINE_STATE_DESC has them.
//
// Concept
//   Plain value types with D3D12's defaults where dx12kit has no other (a default-constructed
//   GraphicsPipelineDesc draws solid, unculled triangles without blending or depth). A C++ engine
//   fills one and hands it to PipelineState; the Python binding converts its arguments into one.
//   PipelineState checks the description against D3D12's rules and against what the backend
//   implements (vkd3d 1.2 ignores logic operations, conservative rasterization, antialiased lines,
//   MultisampleEnable and ForcedSampleCount: those are refused there, naming the field, rather
//   than giving other pixels than D3D12 would). Three fields are made to give D3D12's pixels where the
//   backend would not (docs/guides/shader-gaps.rst, "Fixed-function gaps"): depthBias (applied in
//   D3D12's unit of the depth format: the backend's is measured, DepthBiasUnits.hpp), sampleMask at
//   one sample (only bit 0 counts) and the *_ADJ topologies (VulkanPipelineFixes.hpp).
//
//   GraphicsPipelineDesc::blend
//     empty       no blending, every channel written (D3D12's default)
//     one state   every render target alike (IndependentBlendEnable = FALSE)
//     N states    one per render target (IndependentBlendEnable = TRUE; N = rtvFormats.size())
//
// Thread-safety: values; no shared state. No D3D12 object is created here.
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace dx12kit {

/// dx12kit's blend presets (render target 0's BlendState, all targets alike).
enum class BlendMode : uint8_t { None, Alpha, Additive, Premultiplied };

/// One render target's blend state (D3D12_RENDER_TARGET_BLEND_DESC).
struct BlendStateDesc {
    bool blendEnable = false;
    D3D12_BLEND srcBlend = D3D12_BLEND_ONE;
    D3D12_BLEND destBlend = D3D12_BLEND_ZERO;
    D3D12_BLEND_OP blendOp = D3D12_BLEND_OP_ADD;
    D3D12_BLEND srcBlendAlpha = D3D12_BLEND_ONE;
    D3D12_BLEND destBlendAlpha = D3D12_BLEND_ZERO;
    D3D12_BLEND_OP blendOpAlpha = D3D12_BLEND_OP_ADD;
    bool logicOpEnable = false;
    UINT logicOp = 4;                                  // D3D12_LOGIC_OP's value (NOOP) as UINT: vkd3d 1.2's enum cannot hold 5..15
    uint8_t writeMask = D3D12_COLOR_WRITE_ENABLE_ALL;  ///< D3D12_COLOR_WRITE_ENABLE bits

    bool operator==(const BlendStateDesc& o) const {
        return blendEnable == o.blendEnable && srcBlend == o.srcBlend && destBlend == o.destBlend && blendOp == o.blendOp &&
               srcBlendAlpha == o.srcBlendAlpha && destBlendAlpha == o.destBlendAlpha && blendOpAlpha == o.blendOpAlpha &&
               logicOpEnable == o.logicOpEnable && logicOp == o.logicOp && writeMask == o.writeMask;
    }
    bool operator!=(const BlendStateDesc& o) const { return !(*this == o); }
};

/// The state a preset stands for: Alpha src*a + dst*(1-a) (alpha: a + dst_a*(1-a)), Additive src + dst,
/// Premultiplied src + dst*(1-a); None: blending off.
BlendStateDesc BlendPreset(BlendMode mode);

/// D3D12_RASTERIZER_DESC. dx12kit's default cull mode is NONE (D3D12's helper default is BACK).
struct RasterizerStateDesc {
    D3D12_FILL_MODE fill = D3D12_FILL_MODE_SOLID;
    D3D12_CULL_MODE cull = D3D12_CULL_MODE_NONE;
    bool frontCounterClockwise = false;
    int32_t depthBias = 0;
    float depthBiasClamp = 0.0f;
    float slopeScaledDepthBias = 0.0f;
    bool depthClip = true;
    bool multisample = false;        ///< MultisampleEnable (line rasterization on MSAA targets)
    bool antialiasedLines = false;   ///< AntialiasedLineEnable
    uint32_t forcedSampleCount = 0;  ///< ForcedSampleCount (UAV-only rendering)
    bool conservative = false;       ///< ConservativeRaster ON

    bool operator==(const RasterizerStateDesc& o) const {
        return fill == o.fill && cull == o.cull && frontCounterClockwise == o.frontCounterClockwise && depthBias == o.depthBias &&
               depthBiasClamp == o.depthBiasClamp && slopeScaledDepthBias == o.slopeScaledDepthBias && depthClip == o.depthClip &&
               multisample == o.multisample && antialiasedLines == o.antialiasedLines && forcedSampleCount == o.forcedSampleCount &&
               conservative == o.conservative;
    }
    bool operator!=(const RasterizerStateDesc& o) const { return !(*this == o); }
};

/// D3D12_DEPTH_STENCILOP_DESC: what one face does to the stencil plane.
struct StencilFaceDesc {
    D3D12_STENCIL_OP failOp = D3D12_STENCIL_OP_KEEP;
    D3D12_STENCIL_OP depthFailOp = D3D12_STENCIL_OP_KEEP;
    D3D12_STENCIL_OP passOp = D3D12_STENCIL_OP_KEEP;
    D3D12_COMPARISON_FUNC func = D3D12_COMPARISON_FUNC_ALWAYS;

    bool operator==(const StencilFaceDesc& o) const {
        return failOp == o.failOp && depthFailOp == o.depthFailOp && passOp == o.passOp && func == o.func;
    }
    bool operator!=(const StencilFaceDesc& o) const { return !(*this == o); }
};

/// D3D12_DEPTH_STENCIL_DESC. The stencil reference value is CommandList::SetStencilRef.
struct DepthStencilStateDesc {
    bool depthTest = false;  ///< DepthEnable
    bool depthWrite = true;  ///< DepthWriteMask ALL (false: ZERO)
    D3D12_COMPARISON_FUNC depthFunc = D3D12_COMPARISON_FUNC_LESS;
    bool stencil = false;  ///< StencilEnable
    uint8_t readMask = 0xFF;
    uint8_t writeMask = 0xFF;
    StencilFaceDesc front, back;

    bool operator==(const DepthStencilStateDesc& o) const {
        return depthTest == o.depthTest && depthWrite == o.depthWrite && depthFunc == o.depthFunc && stencil == o.stencil && readMask == o.readMask &&
               writeMask == o.writeMask && front == o.front && back == o.back;
    }
    bool operator!=(const DepthStencilStateDesc& o) const { return !(*this == o); }
};

/// D3D12_INPUT_ELEMENT_DESC. perInstance: D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA, advancing
/// every `stepRate` instances (InstanceDataStepRate; per-vertex elements pass 0 to D3D12).
struct InputElementDesc {
    std::string semantic;
    uint32_t semanticIndex = 0;
    DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
    uint32_t slot = 0;
    uint32_t offset = D3D12_APPEND_ALIGNED_ELEMENT;
    bool perInstance = false;
    uint32_t stepRate = 1;

    bool operator==(const InputElementDesc& o) const {
        return semantic == o.semantic && semanticIndex == o.semanticIndex && format == o.format && slot == o.slot && offset == o.offset &&
               perInstance == o.perInstance && stepRate == o.stepRate;
    }
    bool operator!=(const InputElementDesc& o) const { return !(*this == o); }
};

/// Everything a graphics pipeline is made of. vs is required; gs, hs, ds and ps may be empty
/// (hs and ds together: tessellation, with a patch-list topology of the hull shader's input
/// control-point count).
struct GraphicsPipelineDesc {
    std::vector<uint8_t> vs, ps, gs, hs, ds;
    std::vector<DXGI_FORMAT> rtvFormats;
    DXGI_FORMAT dsvFormat = DXGI_FORMAT_UNKNOWN;
    std::vector<InputElementDesc> inputLayout;
    /// The topology draws use (IASetPrimitiveTopology); the pipeline's topology type follows from it.
    D3D_PRIMITIVE_TOPOLOGY topology = D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST;
    std::vector<BlendStateDesc> blend;  ///< see the header comment
    bool alphaToCoverage = false;
    RasterizerStateDesc rasterizer;
    DepthStencilStateDesc depthStencil;
    uint32_t sampleMask = 0xFFFFFFFFu;  ///< bit k keeps sample k; at sampleCount 1 only bit 0 counts (D3D12)
    /// Samples per pixel of the render targets it draws into (D3D12: must equal theirs).
    uint32_t sampleCount = 1;
};

/// The D3D12_PRIMITIVE_TOPOLOGY_TYPE of a topology (PATCH for the control-point patch lists);
/// UNDEFINED for a value that is no D3D_PRIMITIVE_TOPOLOGY.
D3D12_PRIMITIVE_TOPOLOGY_TYPE TopologyType(D3D_PRIMITIVE_TOPOLOGY topology);

/// Control points of a patch-list topology (1..32); 0 for the others.
uint32_t PatchControlPoints(D3D_PRIMITIVE_TOPOLOGY topology);

}  // namespace dx12kit
