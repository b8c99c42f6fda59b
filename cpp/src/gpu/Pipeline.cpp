#include "dx12kit/gpu/Pipeline.hpp"

#include "dx12kit/device/FormatSupport.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/RootSignatureCheck.hpp"
#include "dx12kit/platform/HResult.hpp"
#include "dx12kit/shaders/DxbcModifierFix.hpp"
#include "dx12kit/shaders/DxbcRewrite.hpp"

#include <string>

namespace dx12kit {

const char* RootParamKindName(RootParamKind k) {
    switch (k) {
        case RootParamKind::Constants: return "root constants";
        case RootParamKind::Cbv: return "a root CBV";
        case RootParamKind::Srv: return "a root SRV";
        case RootParamKind::Uav: return "a root UAV";
        case RootParamKind::Table: return "a descriptor table";
    }
    return "?";
}

namespace {
/// Validates and reflects `bytecode` (DXBC: size, chunks, checksum), naming the call and stage.
DxbcReflection ReflectShader(const char* what, const char* stage, const std::vector<uint8_t>& bytecode) {
    try {
        return ReflectDxbc(bytecode.data(), bytecode.size());
    } catch (const InvalidArgument& e) {
        throw InvalidArgument(std::string(what) + " (" + stage + "): " + e.what());
    }
}

/// The bytecode handed to the runtime. vkd3d 1.2 converts floats to integers and answers
/// firstbit_hi(0) against D3D's rules; DxbcRewrite.hpp replaces those instructions by sequences it
/// computes right (issue 22). Windows drivers follow D3D's rules: the bytecode goes unchanged.
/// Float modifiers that vkd3d-shader folded into integer, store and atomic operands
/// (DxbcModifierFix.hpp) are a compiler fault, so they are fixed on every platform first.
std::vector<uint8_t> RuntimeBytecode(const char* what, const char* stage, const std::vector<uint8_t>& bytecode) {
    std::vector<uint8_t> fixed;
    try {
        fixed = FixFoldedFloatModifiers(bytecode.data(), bytecode.size()).bytecode;
    } catch (const InvalidArgument& e) {
        throw InvalidArgument(std::string(what) + " (" + stage + "): " + e.what());
    }
#if defined(_WIN32)
    return fixed;
#else
    return RewriteDxbcForVkd3d(fixed.data(), fixed.size()).bytecode;
#endif
}
}  // namespace

RootSignature::RootSignature(std::shared_ptr<DeviceCore> core, std::vector<RootParameterDesc> params,
                             std::vector<StaticSamplerDesc> samplers, uint32_t flags)
    : m_Core(std::move(core)), m_Params(std::move(params)), m_Samplers(std::move(samplers)), m_Flags(flags) {
    m_Core->CheckNotForked("create_root_signature");
    if (m_Params.size() > 64) throw InvalidArgument("root signature: at most 64 root parameters");
    CheckRootSignatureOverlaps(m_Params, m_Samplers);
    for (size_t i = 0; i < m_Params.size(); ++i)
        if (m_Params[i].kind != RootParamKind::Table) m_ArgumentsMask |= uint64_t(1) << i;
    // Built as version 1.1; serialized as 1.0 unless a range or root descriptor has flags (the
    // 1.1 defaults for "no flags" differ from 1.0's, so 1.0 keeps what parameter lists meant).
    bool v11 = false;
    std::vector<D3D12_ROOT_PARAMETER1> native(m_Params.size());
    std::vector<std::vector<D3D12_DESCRIPTOR_RANGE1>> ranges(m_Params.size());
    uint64_t dwords = 0;  // 64-bit sum: counts come from the user and must not wrap past the limit
    for (size_t i = 0; i < m_Params.size(); ++i) {
        const RootParameterDesc& p = m_Params[i];
        D3D12_ROOT_PARAMETER1& n = native[i];
        n.ShaderVisibility = p.visibility;
        switch (p.kind) {
            case RootParamKind::Constants:
                if (p.num32BitValues == 0) throw InvalidArgument("root parameter " + std::to_string(i) + ": RootConstants count must be positive");
                n.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
                n.Constants = {p.shaderRegister, p.space, p.num32BitValues};
                dwords += p.num32BitValues;
                break;
            case RootParamKind::Cbv:
            case RootParamKind::Srv:
            case RootParamKind::Uav:
                n.ParameterType = p.kind == RootParamKind::Cbv   ? D3D12_ROOT_PARAMETER_TYPE_CBV
                                  : p.kind == RootParamKind::Srv ? D3D12_ROOT_PARAMETER_TYPE_SRV
                                                                 : D3D12_ROOT_PARAMETER_TYPE_UAV;
                n.Descriptor = {p.shaderRegister, p.space, static_cast<D3D12_ROOT_DESCRIPTOR_FLAGS>(p.flags)};
                v11 |= p.flags != 0;
                dwords += 2;
                break;
            case RootParamKind::Table: {
                if (p.ranges.empty()) throw InvalidArgument("root parameter " + std::to_string(i) + ": empty DescriptorTable");
                const bool sampler = p.ranges[0].kind == RangeKind::Sampler;
                uint64_t next = 0, slots = 0;  // next appended offset; table slots staged
                for (const DescriptorRangeDesc& r : p.ranges) {
                    if ((r.kind == RangeKind::Sampler) != sampler)
                        throw InvalidArgument("root parameter " + std::to_string(i) + ": a DescriptorTable cannot mix samplers with SRV/UAV/CBV ranges");
                    if (r.count == 0) throw InvalidArgument("root parameter " + std::to_string(i) + ": a range with count 0");
                    D3D12_DESCRIPTOR_RANGE1 dr{};
                    dr.RangeType = r.kind == RangeKind::Srv   ? D3D12_DESCRIPTOR_RANGE_TYPE_SRV
                                   : r.kind == RangeKind::Uav ? D3D12_DESCRIPTOR_RANGE_TYPE_UAV
                                   : r.kind == RangeKind::Cbv ? D3D12_DESCRIPTOR_RANGE_TYPE_CBV
                                                              : D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER;
                    dr.NumDescriptors = r.count;
                    dr.BaseShaderRegister = r.shaderRegister;
                    dr.RegisterSpace = r.space;
                    dr.Flags = static_cast<D3D12_DESCRIPTOR_RANGE_FLAGS>(r.flags);
                    dr.OffsetInDescriptorsFromTableStart = r.offset;
                    v11 |= r.flags != 0;
                    ranges[i].push_back(dr);
                    const uint64_t start = r.offset == kAppendRange ? next : r.offset;
                    const uint64_t end = start + (r.count == kUnboundedRange ? kUnboundedTableSlots : r.count);
                    if (end > slots) slots = end;
                    next = r.count == kUnboundedRange ? end : start + r.count;
                }
                if (slots > UINT32_MAX) throw InvalidArgument("root parameter " + std::to_string(i) + ": the table's ranges exceed 2^32 descriptors");
                n.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
                n.DescriptorTable.NumDescriptorRanges = static_cast<UINT>(ranges[i].size());
                n.DescriptorTable.pDescriptorRanges = ranges[i].data();
                m_Tables.push_back({static_cast<uint32_t>(i),
                                    sampler ? D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER : D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV,
                                    static_cast<uint32_t>(slots)});
                dwords += 1;
                break;
            }
        }
    }
    if (dwords > 64) throw InvalidArgument("root signature: " + std::to_string(dwords) + " DWORDs exceed the 64-DWORD limit");
    // D3D12: a root signature holds at most 2032 static samplers ("Root signature limits",
    // learn.microsoft.com/windows/win32/direct3d12/root-signature-limits).
    constexpr size_t kMaxStaticSamplers = 2032;
    if (m_Samplers.size() > kMaxStaticSamplers)
        throw InvalidArgument("root signature: " + std::to_string(m_Samplers.size()) + " static samplers exceed D3D12's limit of " +
                              std::to_string(kMaxStaticSamplers));
    std::vector<D3D12_STATIC_SAMPLER_DESC> ss(m_Samplers.size());
    for (size_t i = 0; i < m_Samplers.size(); ++i) {
        const StaticSamplerDesc& in = m_Samplers[i];
        D3D12_STATIC_SAMPLER_DESC& s = ss[i];
        s.Filter = in.filter;
        s.AddressU = in.address;
        s.AddressV = in.addressV ? in.addressV : in.address;
        s.AddressW = in.addressW ? in.addressW : in.address;
        s.MipLODBias = in.mipLodBias;
        s.MaxAnisotropy = in.maxAnisotropy;
        s.ComparisonFunc = in.comparison;
        s.BorderColor = in.borderColor;
        s.MinLOD = in.minLod;
        s.MaxLOD = in.maxLod;
        s.ShaderRegister = in.shaderRegister;
        s.RegisterSpace = in.space;
        s.ShaderVisibility = in.visibility;
    }
    ComPtr<ID3DBlob> blob, error;
    HRESULT hr;
    if (v11) {
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc{};
        desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
        desc.Desc_1_1.NumParameters = static_cast<UINT>(native.size());
        desc.Desc_1_1.pParameters = native.data();
        desc.Desc_1_1.NumStaticSamplers = static_cast<UINT>(ss.size());
        desc.Desc_1_1.pStaticSamplers = ss.data();
        desc.Desc_1_1.Flags = static_cast<D3D12_ROOT_SIGNATURE_FLAGS>(m_Flags);
        hr = D3D12SerializeVersionedRootSignature(&desc, blob.ReleaseAndGetAddressOf(), error.ReleaseAndGetAddressOf());
    } else {
        std::vector<D3D12_ROOT_PARAMETER> native10(native.size());
        std::vector<std::vector<D3D12_DESCRIPTOR_RANGE>> ranges10(native.size());
        for (size_t i = 0; i < native.size(); ++i) {
            D3D12_ROOT_PARAMETER& n = native10[i];
            n.ParameterType = native[i].ParameterType;
            n.ShaderVisibility = native[i].ShaderVisibility;
            if (n.ParameterType == D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS) {
                n.Constants = native[i].Constants;
            } else if (n.ParameterType == D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE) {
                for (const D3D12_DESCRIPTOR_RANGE1& r : ranges[i])
                    ranges10[i].push_back({r.RangeType, r.NumDescriptors, r.BaseShaderRegister, r.RegisterSpace, r.OffsetInDescriptorsFromTableStart});
                n.DescriptorTable.NumDescriptorRanges = static_cast<UINT>(ranges10[i].size());
                n.DescriptorTable.pDescriptorRanges = ranges10[i].data();
            } else {
                n.Descriptor = {native[i].Descriptor.ShaderRegister, native[i].Descriptor.RegisterSpace};
            }
        }
        D3D12_ROOT_SIGNATURE_DESC desc{};
        desc.NumParameters = static_cast<UINT>(native10.size());
        desc.pParameters = native10.data();
        desc.NumStaticSamplers = static_cast<UINT>(ss.size());
        desc.pStaticSamplers = ss.data();
        desc.Flags = static_cast<D3D12_ROOT_SIGNATURE_FLAGS>(m_Flags);
        hr = D3D12SerializeRootSignature(&desc, D3D_ROOT_SIGNATURE_VERSION_1, blob.ReleaseAndGetAddressOf(), error.ReleaseAndGetAddressOf());
    }
    if (FAILED(hr)) {
        std::string msg = "D3D12SerializeRootSignature failed: " + HResultName(hr);
        if (error) msg += ": " + std::string(static_cast<const char*>(error->GetBufferPointer()), error->GetBufferSize());
        throw InvalidArgument(msg);
    }
    bool unbounded = false;
    for (const RootParameterDesc& p : m_Params)
        for (const DescriptorRangeDesc& r : p.ranges) unbounded |= r.count == kUnboundedRange;
    ThrowIfFailed(m_Core->D3D12Device()->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(),
                                                             IID_ID3D12RootSignature, m_d3d12RootSignature.ReleaseAndGetVoidAddress()),
                  unbounded ? "CreateRootSignature (with an unbounded descriptor range, which vkd3d 1.2 does not implement; give a count)"
                            : "CreateRootSignature");
}

const RootParameterDesc& RootSignature::Require(uint32_t index, RootParamKind kind, const char* what) const {
    if (index >= m_Params.size())
        throw InvalidArgument(std::string(what) + ": root index " + std::to_string(index) + " out of range (the root signature has " +
                              std::to_string(m_Params.size()) + " parameters)");
    const RootParameterDesc& p = m_Params[index];
    if (p.kind != kind)
        throw InvalidArgument(std::string(what) + ": root parameter " + std::to_string(index) + " is " + RootParamKindName(p.kind) + ", not " + RootParamKindName(kind));
    return p;
}

PipelineState::PipelineState(std::shared_ptr<DeviceCore> core, const std::vector<uint8_t>& cs,
                             std::shared_ptr<RootSignature> rootSignature)
    : m_Core(std::move(core)), m_RootSignature(std::move(rootSignature)), m_IsCompute(true) {
    m_Core->CheckNotForked("create_compute_pipeline");
    if (!m_RootSignature) throw InvalidArgument("create_compute_pipeline: no root signature");
    if (m_RootSignature->Core() != m_Core.get()) throw InvalidArgument("create_compute_pipeline: the root signature belongs to another device");
    if (cs.empty()) throw InvalidArgument("create_compute_pipeline: empty shader bytecode");
    {
        const DxbcReflection r = ReflectShader("create_compute_pipeline", "cs", cs);
        if (r.stage != ShaderStage::Compute)
            throw InvalidArgument(std::string("create_compute_pipeline: the shader is a ") + r.StageName() + " shader (" + r.Profile() + "), not a compute shader");
        CheckShaderBindings("create_compute_pipeline", r, *m_RootSignature);
        m_RootUse = std::make_shared<PipelineRootUse>();
        NoteShaderRootUse(r, *m_RootSignature, *m_RootUse);
    }
    D3D12_COMPUTE_PIPELINE_STATE_DESC d{};
    d.pRootSignature = m_RootSignature->D3D12RootSignature();
    const std::vector<uint8_t> runtimeCs = RuntimeBytecode("create_compute_pipeline", "cs", cs);
    d.CS = {runtimeCs.data(), runtimeCs.size()};
    ThrowIfFailed(m_Core->D3D12Device()->CreateComputePipelineState(&d, IID_ID3D12PipelineState, m_d3d12Pipeline.ReleaseAndGetVoidAddress()),
                  "CreateComputePipelineState");
}

PipelineState::PipelineState(std::shared_ptr<DeviceCore> core, const GraphicsPipelineDesc& g,
                             std::shared_ptr<RootSignature> rootSignature)
    : m_Core(std::move(core)), m_RootSignature(std::move(rootSignature)), m_IsCompute(false), m_Topology(g.topology),
      m_RtvFormats(g.rtvFormats), m_DsvFormat(g.dsvFormat), m_SampleCount(g.sampleCount), m_DepthTest(g.depthTest),
      m_StencilTest(g.stencilTest) {
    m_Core->CheckNotForked("create_graphics_pipeline");
    if (!m_RootSignature) throw InvalidArgument("create_graphics_pipeline: no root signature");
    if (m_RootSignature->Core() != m_Core.get()) throw InvalidArgument("create_graphics_pipeline: the root signature belongs to another device");
    if (g.vs.empty()) throw InvalidArgument("create_graphics_pipeline: empty vertex shader bytecode");
    if (g.rtvFormats.size() > 8) throw InvalidArgument("create_graphics_pipeline: at most 8 render target formats");
    // Targets by kind: colour formats as render targets (blendable when blending), depth formats
    // only as the depth-stencil format (FormatSupport.hpp).
    FormatSupportCache& formats = m_Core->FormatSupport();
    for (size_t i = 0; i < g.rtvFormats.size(); ++i)
        formats.CheckRenderTargetFormat(g.rtvFormats[i], static_cast<uint32_t>(i), g.blend != BlendMode::None, "create_graphics_pipeline");
    if (g.dsvFormat != DXGI_FORMAT_UNKNOWN) formats.CheckDepthStencilFormat(g.dsvFormat, "create_graphics_pipeline");
    // D3D12_GRAPHICS_PIPELINE_STATE_DESC.SampleDesc: a count every target format supports.
    if (g.sampleCount != 1) {
        for (DXGI_FORMAT f : g.rtvFormats) formats.CheckSampleCount(f, g.sampleCount, "create_graphics_pipeline");
        if (g.dsvFormat != DXGI_FORMAT_UNKNOWN) formats.CheckSampleCount(g.dsvFormat, g.sampleCount, "create_graphics_pipeline");
        if (g.rtvFormats.empty() && g.dsvFormat == DXGI_FORMAT_UNKNOWN)
            formats.CheckSampleCount(DXGI_FORMAT_R8G8B8A8_UNORM, g.sampleCount, "create_graphics_pipeline");
    }
    {
        const DxbcReflection vs = ReflectShader("create_graphics_pipeline", "vs", g.vs);
        if (vs.stage != ShaderStage::Vertex)
            throw InvalidArgument(std::string("create_graphics_pipeline: vs is a ") + vs.StageName() + " shader (" + vs.Profile() + "), not a vertex shader");
        CheckShaderBindings("create_graphics_pipeline", vs, *m_RootSignature);
        m_RootUse = std::make_shared<PipelineRootUse>();
        NoteShaderRootUse(vs, *m_RootSignature, *m_RootUse);
        if (!g.ps.empty()) {
            const DxbcReflection ps = ReflectShader("create_graphics_pipeline", "ps", g.ps);
            if (ps.stage != ShaderStage::Pixel)
                throw InvalidArgument(std::string("create_graphics_pipeline: ps is a ") + ps.StageName() + " shader (" + ps.Profile() + "), not a pixel shader");
            CheckShaderBindings("create_graphics_pipeline", ps, *m_RootSignature);
            NoteShaderRootUse(ps, *m_RootSignature, *m_RootUse);
            CheckStageLinkage("create_graphics_pipeline", vs, ps);
        }
    }
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d{};
    d.pRootSignature = m_RootSignature->D3D12RootSignature();
    const std::vector<uint8_t> runtimeVs = RuntimeBytecode("create_graphics_pipeline", "vs", g.vs);
    const std::vector<uint8_t> runtimePs = g.ps.empty() ? std::vector<uint8_t>() : RuntimeBytecode("create_graphics_pipeline", "ps", g.ps);
    d.VS = {runtimeVs.data(), runtimeVs.size()};
    if (!g.ps.empty()) d.PS = {runtimePs.data(), runtimePs.size()};
    for (uint32_t i = 0; i < 8; ++i) {
        D3D12_RENDER_TARGET_BLEND_DESC& b = d.BlendState.RenderTarget[i];
        b.RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
        b.LogicOp = D3D12_LOGIC_OP_NOOP;
        b.SrcBlend = b.SrcBlendAlpha = D3D12_BLEND_ONE;
        b.DestBlend = b.DestBlendAlpha = D3D12_BLEND_ZERO;
        b.BlendOp = b.BlendOpAlpha = D3D12_BLEND_OP_ADD;
        if (g.blend != BlendMode::None) {
            b.BlendEnable = TRUE;
            b.SrcBlend = g.blend == BlendMode::Alpha ? D3D12_BLEND_SRC_ALPHA : D3D12_BLEND_ONE;
            b.DestBlend = g.blend == BlendMode::Additive ? D3D12_BLEND_ONE : D3D12_BLEND_INV_SRC_ALPHA;
            b.SrcBlendAlpha = D3D12_BLEND_ONE;
            b.DestBlendAlpha = g.blend == BlendMode::Additive ? D3D12_BLEND_ONE : D3D12_BLEND_INV_SRC_ALPHA;
        }
    }
    d.SampleMask = 0xFFFFFFFFu;
    d.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    d.RasterizerState.CullMode = g.cull;
    d.RasterizerState.FrontCounterClockwise = FALSE;
    d.RasterizerState.DepthClipEnable = TRUE;
    d.DepthStencilState.DepthEnable = g.depthTest ? TRUE : FALSE;
    d.DepthStencilState.DepthWriteMask = g.depthWrite ? D3D12_DEPTH_WRITE_MASK_ALL : D3D12_DEPTH_WRITE_MASK_ZERO;
    d.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_LESS;
    if (g.stencilTest) {
        if (g.dsvFormat != DXGI_FORMAT_D24_UNORM_S8_UINT && g.dsvFormat != DXGI_FORMAT_D32_FLOAT_S8X24_UINT)
            throw InvalidArgument("create_graphics_pipeline: a stencil test needs a depth-stencil dsv_format (d24_unorm_s8_uint or d32_float_s8x24_uint)");
        d.DepthStencilState.StencilEnable = TRUE;
        d.DepthStencilState.StencilReadMask = 0xFF;
        d.DepthStencilState.StencilWriteMask = 0xFF;
        const D3D12_DEPTH_STENCILOP_DESC face{D3D12_STENCIL_OP_KEEP, D3D12_STENCIL_OP_KEEP, g.stencilPassOp, g.stencilFunc};
        d.DepthStencilState.FrontFace = face;
        d.DepthStencilState.BackFace = face;
    }
    std::vector<D3D12_INPUT_ELEMENT_DESC> elems(g.inputLayout.size());
    for (size_t i = 0; i < elems.size(); ++i) {
        const InputElementDesc& e = g.inputLayout[i];
        elems[i] = {e.semantic.c_str(), e.semanticIndex, e.format, e.slot, e.offset, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0};
    }
    d.InputLayout = {elems.empty() ? nullptr : elems.data(), static_cast<UINT>(elems.size())};
    d.PrimitiveTopologyType = g.topologyType;
    d.NumRenderTargets = static_cast<UINT>(g.rtvFormats.size());
    for (size_t i = 0; i < g.rtvFormats.size(); ++i) d.RTVFormats[i] = g.rtvFormats[i];
    d.DSVFormat = g.dsvFormat;
    d.SampleDesc.Count = g.sampleCount;
    ThrowIfFailed(m_Core->D3D12Device()->CreateGraphicsPipelineState(&d, IID_ID3D12PipelineState, m_d3d12Pipeline.ReleaseAndGetVoidAddress()),
                  "CreateGraphicsPipelineState");
}

Sampler::Sampler(std::shared_ptr<DeviceCore> core, const D3D12_SAMPLER_DESC& desc)
    : m_Core(std::move(core)), m_Desc(desc), m_Descriptor(m_Core->CpuDescriptors(D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER).Allocate(1)) {
    m_Core->CheckNotForked("create_sampler");
    m_Core->D3D12Device()->CreateSampler(&desc, m_Descriptor.Handle());
}

namespace {
void SetNativeName(ID3D12Object* object, const std::string& name) {
    if (!object) return;
    const std::wstring wide(name.begin(), name.end());
    object->SetName(wide.c_str());
}
}  // namespace

void RootSignature::SetName(std::string name) {
    m_Name = std::move(name);
    SetNativeName(m_d3d12RootSignature.Get(), m_Name);
}

void PipelineState::SetName(std::string name) {
    m_Name = std::move(name);
    SetNativeName(m_d3d12Pipeline.Get(), m_Name);
}

}  // namespace dx12kit
