// Root signatures and pipeline state objects.
//
// RootSignature keeps, beside the native object, a description of every root parameter so the
// command list can check bindings (index in range, right kind, right constant count) and the
// dynamic descriptor heap knows each descriptor table's heap type and size.
#pragma once

#include "dx12kit/descriptors/DescriptorAllocation.hpp"
#include "dx12kit/descriptors/DynamicDescriptorHeap.hpp"
#include "dx12kit/gpu/PipelineDesc.hpp"
#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"
#include "dx12kit/platform/VulkanPipelineFixes.hpp"

#include <memory>
#include <string>
#include <vector>

namespace dx12kit {

class DeviceContext;
struct PipelineRootUse;
struct DxbcReflection;

enum class RootParamKind : uint8_t { Constants, Cbv, Srv, Uav, Table };
/// "root constants", "a root CBV", ... for messages.
const char* RootParamKindName(RootParamKind kind);
enum class RangeKind : uint8_t { Srv, Uav, Cbv, Sampler };

/// Count of an unbounded range (numDescriptors = unbounded in the root-signature language).
constexpr uint32_t kUnboundedRange = 0xFFFFFFFFu;
/// Offset of a range that follows the previous one (D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND).
constexpr uint32_t kAppendRange = 0xFFFFFFFFu;
/// Table slots staged for an unbounded range (the dynamic descriptor heap needs a finite size).
constexpr uint32_t kUnboundedTableSlots = 4096;

struct DescriptorRangeDesc {
    RangeKind kind;
    uint32_t shaderRegister;
    uint32_t count = 1;  ///< kUnboundedRange: to the end of the table
    uint32_t space = 0;
    uint32_t offset = kAppendRange;  ///< descriptors from the table start, or kAppendRange
    uint32_t flags = 0;              ///< D3D12_DESCRIPTOR_RANGE_FLAGS (root signature 1.1)
};

struct RootParameterDesc {
    RootParamKind kind;
    uint32_t shaderRegister = 0;
    uint32_t space = 0;
    uint32_t num32BitValues = 0;              ///< Constants only
    std::vector<DescriptorRangeDesc> ranges;  ///< Table only
    D3D12_SHADER_VISIBILITY visibility = D3D12_SHADER_VISIBILITY_ALL;
    uint32_t flags = 0;  ///< Cbv/Srv/Uav: D3D12_ROOT_DESCRIPTOR_FLAGS (1.1)
};

struct StaticSamplerDesc {
    uint32_t shaderRegister;
    D3D12_FILTER filter = D3D12_FILTER_MIN_MAG_MIP_LINEAR;
    D3D12_TEXTURE_ADDRESS_MODE address = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    uint32_t space = 0;
    D3D12_SHADER_VISIBILITY visibility = D3D12_SHADER_VISIBILITY_ALL;
    D3D12_TEXTURE_ADDRESS_MODE addressV = static_cast<D3D12_TEXTURE_ADDRESS_MODE>(0);  ///< 0: as `address`
    D3D12_TEXTURE_ADDRESS_MODE addressW = static_cast<D3D12_TEXTURE_ADDRESS_MODE>(0);  ///< 0: as `address`
    float mipLodBias = 0.0f;
    uint32_t maxAnisotropy = 16;
    /// 0: not given (a comparison filter compares LESS_EQUAL, as the HLSL text's default; other
    /// filters get NEVER, which D3D12 ignores): CheckStaticSamplerDesc, SamplerRules.hpp.
    D3D12_COMPARISON_FUNC comparison = static_cast<D3D12_COMPARISON_FUNC>(0);
    D3D12_STATIC_BORDER_COLOR borderColor = D3D12_STATIC_BORDER_COLOR_TRANSPARENT_BLACK;  ///< (HLSL text: OPAQUE_WHITE)
    float minLod = 0.0f;
    float maxLod = 3.402823466e+38f;
};

class RootSignature {
public:
    /// Static samplers are checked by CheckStaticSamplerDesc (SamplerRules.hpp) against D3D12's
    /// rules and what the device samples right (InvalidArgument naming the sampler), and their
    /// comparison completed; StaticSamplers() holds them so.
    /// `flags`: D3D12_ROOT_SIGNATURE_FLAGS. Parameter lists built in Python get
    /// ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT; root signatures from HLSL text get what the text says.
    /// Throws InvalidArgument for flags (root signature, root descriptor, descriptor range) that are
    /// not D3D12's, that vkd3d 1.2 cannot honour, or whose combination D3D12 refuses
    /// (CheckRootSignatureFlags and its siblings, RootSignatureCheck.hpp), naming the parameter.
    RootSignature(std::shared_ptr<DeviceContext> core, std::vector<RootParameterDesc> params, std::vector<StaticSamplerDesc> samplers,
                  uint32_t flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    ID3D12RootSignature* D3D12RootSignature() const { return m_d3d12RootSignature.Get(); }
    const DeviceContext* Context() const { return m_Context.get(); }
    const std::vector<RootParameterDesc>& Parameters() const { return m_Params; }
    const std::vector<StaticSamplerDesc>& StaticSamplers() const { return m_Samplers; }
    uint32_t Flags() const { return m_Flags; }
    const std::vector<DescriptorTableLayout>& Tables() const { return m_Tables; }
    /// Bit i set when root parameter i is a root constant or root view: set one by one, so every
    /// draw or dispatch needs each set since the root signature was bound (tables are not here:
    /// the dynamic descriptor heap writes them).
    uint64_t ArgumentsMask() const { return m_ArgumentsMask; }
    /// Throws InvalidArgument unless root parameter `index` exists and is of `kind`.
    const RootParameterDesc& Require(uint32_t index, RootParamKind kind, const char* what) const;
    /// Debug name: shown by repr() and given to the D3D12 object (SetName). Not thread-safe.
    const std::string& Name() const { return m_Name; }
    void SetName(std::string name);

private:
    std::shared_ptr<DeviceContext> m_Context;
    std::string m_Name = "root_signature";
    ComPtr<ID3D12RootSignature> m_d3d12RootSignature;
    std::vector<RootParameterDesc> m_Params;
    std::vector<StaticSamplerDesc> m_Samplers;
    uint32_t m_Flags;
    std::vector<DescriptorTableLayout> m_Tables;
    uint64_t m_ArgumentsMask = 0;
};

class PipelineState {
public:
    /// A compute pipeline.
    PipelineState(std::shared_ptr<DeviceContext> core, const std::vector<uint8_t>& cs, std::shared_ptr<RootSignature> rootSignature);
    /// A graphics pipeline.
    PipelineState(std::shared_ptr<DeviceContext> core, const GraphicsPipelineDesc& desc, std::shared_ptr<RootSignature> rootSignature);

    ID3D12PipelineState* D3D12PipelineState() const { return m_d3d12Pipeline.Get(); }
    const DeviceContext* Context() const { return m_Context.get(); }
    const std::shared_ptr<RootSignature>& GetRootSignature() const { return m_RootSignature; }
    bool IsCompute() const { return m_IsCompute; }
    D3D_PRIMITIVE_TOPOLOGY Topology() const { return m_Topology; }
    const std::vector<DXGI_FORMAT>& RtvFormats() const { return m_RtvFormats; }
    DXGI_FORMAT DsvFormat() const { return m_DsvFormat; }
    /// Whether it has hull and domain shaders (draws use a patch-list topology).
    bool Tessellated() const { return m_Tessellated; }
    /// Samples per pixel of its render targets (1 for compute pipelines).
    uint32_t SampleCount() const { return m_SampleCount; }
    /// Whether its draws access the depth plane (DepthEnable) / the stencil plane (StencilEnable)
    /// of the bound depth buffer (validation of D3D12Rules rule 6d, per plane).
    bool DepthTest() const { return m_DepthTest; }
    bool StencilTest() const { return m_StencilTest; }
    /// Whether a blend state of it reads the command list's blend factor (BLEND_FACTOR or
    /// INV_BLEND_FACTOR with blending on): its draws read CommandList::SetBlendFactor's value (zeros if unset).
    bool UsesBlendFactor() const { return m_UsesBlendFactor; }
    /// Bit k set when the vertex shader reads an input-layout element of vertex-buffer slot k (0 for
    /// compute pipelines and layout-free graphics ones): every such slot needs a vertex buffer before
    /// a draw. Elements the shader does not read fetch nothing and need none.
    uint32_t InputSlots() const { return m_InputSlots; }
    /// Its input layout (empty for compute pipelines), for messages.
    const std::vector<InputElementDesc>& InputLayout() const { return m_InputLayout; }
    /// What its shaders read through the root signature: which root parameters must be set before
    /// a draw or dispatch, and the SRV/UAV each table slot declares (buffer views take their kind,
    /// stride and format from it).
    const PipelineRootUse& RootUse() const { return *m_RootUse; }
    /// The descriptor-table slots (root index << 32 | slot) whose UAVs its shaders count through
    /// (UAV counters: Append, Consume, IncrementCounter, DecrementCounter), with the register (u#).
    /// Each needs a view with a counter resource at draw or dispatch.
    const std::vector<std::pair<uint64_t, uint32_t>>& CounterSlots() const { return m_CounterSlots; }
    bool UsesUavCounters() const { return !m_CounterSlots.empty(); }
    /// The reflection of each of its shaders, in pipeline order (cs; or vs, hs, ds, gs, ps as present):
    /// what binding by name resolves against.
    const std::vector<DxbcReflection>& ShaderReflections() const { return *m_Stages; }
    /// Debug name: shown by repr() and given to the D3D12 object (SetName). Not thread-safe.
    const std::string& Name() const { return m_Name; }
    void SetName(std::string name);

private:
    /// What vkd3d's Vulkan pipeline needs changed to draw `g` as D3D12 does (VulkanPipelineFixes.hpp).
    platform::PipelineFix BackendFix(const GraphicsPipelineDesc& g);
    /// Adds the table slots `code` counts through to m_CounterSlots (after m_RootUse is noted);
    /// InvalidArgument naming `what` and `stage` for a counter not reached through a table.
    void NoteCounterSlots(const char* what, const char* stage, const std::vector<uint8_t>& code);
    std::vector<std::pair<uint64_t, uint32_t>> m_CounterSlots;

    std::shared_ptr<DeviceContext> m_Context;
    std::string m_Name = "pipeline";
    ComPtr<ID3D12PipelineState> m_d3d12Pipeline;
    std::shared_ptr<RootSignature> m_RootSignature;
    bool m_IsCompute;
    D3D_PRIMITIVE_TOPOLOGY m_Topology = D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST;
    std::vector<DXGI_FORMAT> m_RtvFormats;
    DXGI_FORMAT m_DsvFormat = DXGI_FORMAT_UNKNOWN;
    uint32_t m_SampleCount = 1;
    bool m_DepthTest = false, m_StencilTest = false, m_Tessellated = false, m_UsesBlendFactor = false;
    uint32_t m_InputSlots = 0;
    std::vector<InputElementDesc> m_InputLayout;
    std::shared_ptr<PipelineRootUse> m_RootUse;
    std::shared_ptr<std::vector<DxbcReflection>> m_Stages;
};

/// A sampler: a CPU descriptor in the SAMPLER allocator, staged with CommandList::SetSampler.
class Sampler {
public:
    /// Checks `desc` by CheckSamplerDesc (SamplerRules.hpp: D3D12's rules, then what this device
    /// samples right; InvalidArgument otherwise) and completes it: ComparisonFunc 0 (not given)
    /// becomes LESS_EQUAL for a comparison filter, NEVER for others. Desc() is the completed desc.
    Sampler(std::shared_ptr<DeviceContext> core, const D3D12_SAMPLER_DESC& desc);
    D3D12_CPU_DESCRIPTOR_HANDLE Handle() const { return m_Descriptor.Handle(); }
    const DeviceContext* Context() const { return m_Context.get(); }
    const D3D12_SAMPLER_DESC& Desc() const { return m_Desc; }
    /// Debug name, shown by repr() (a descriptor has no D3D12 object to name). Not thread-safe.
    const std::string& Name() const { return m_Name; }
    void SetName(std::string name) { m_Name = std::move(name); }

private:
    std::shared_ptr<DeviceContext> m_Context;
    D3D12_SAMPLER_DESC m_Desc;
    std::string m_Name = "sampler";
    DescriptorAllocation m_Descriptor;
};

}  // namespace dx12kit
