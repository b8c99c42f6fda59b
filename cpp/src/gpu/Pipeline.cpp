#include "dx12kit/gpu/Pipeline.hpp"

#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/platform/HResult.hpp"

#include <string>

namespace dx12kit {

namespace {
const char* KindName(RootParamKind k) {
    switch (k) {
        case RootParamKind::Constants: return "root constants";
        case RootParamKind::Cbv: return "a root CBV";
        case RootParamKind::Srv: return "a root SRV";
        case RootParamKind::Uav: return "a root UAV";
        case RootParamKind::Table: return "a descriptor table";
    }
    return "?";
}
}  // namespace

RootSignature::RootSignature(std::shared_ptr<DeviceCore> core, std::vector<RootParameterDesc> params,
                             std::vector<StaticSamplerDesc> samplers)
    : m_Core(std::move(core)), m_Params(std::move(params)) {
    if (m_Params.size() > 64) throw InvalidArgument("root signature: at most 64 root parameters");
    std::vector<D3D12_ROOT_PARAMETER> native(m_Params.size());
    std::vector<std::vector<D3D12_DESCRIPTOR_RANGE>> ranges(m_Params.size());
    uint32_t dwords = 0;
    for (size_t i = 0; i < m_Params.size(); ++i) {
        const RootParameterDesc& p = m_Params[i];
        D3D12_ROOT_PARAMETER& n = native[i];
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
                n.Descriptor = {p.shaderRegister, p.space};
                dwords += 2;
                break;
            case RootParamKind::Table: {
                if (p.ranges.empty()) throw InvalidArgument("root parameter " + std::to_string(i) + ": empty DescriptorTable");
                const bool sampler = p.ranges[0].kind == RangeKind::Sampler;
                uint32_t total = 0;
                for (const DescriptorRangeDesc& r : p.ranges) {
                    if ((r.kind == RangeKind::Sampler) != sampler)
                        throw InvalidArgument("root parameter " + std::to_string(i) + ": a DescriptorTable cannot mix samplers with SRV/UAV/CBV ranges");
                    if (r.count == 0) throw InvalidArgument("root parameter " + std::to_string(i) + ": a range with count 0");
                    D3D12_DESCRIPTOR_RANGE dr{};
                    dr.RangeType = r.kind == RangeKind::Srv   ? D3D12_DESCRIPTOR_RANGE_TYPE_SRV
                                   : r.kind == RangeKind::Uav ? D3D12_DESCRIPTOR_RANGE_TYPE_UAV
                                   : r.kind == RangeKind::Cbv ? D3D12_DESCRIPTOR_RANGE_TYPE_CBV
                                                              : D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER;
                    dr.NumDescriptors = r.count;
                    dr.BaseShaderRegister = r.shaderRegister;
                    dr.RegisterSpace = r.space;
                    dr.OffsetInDescriptorsFromTableStart = D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND;
                    ranges[i].push_back(dr);
                    total += r.count;
                }
                n.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
                n.DescriptorTable.NumDescriptorRanges = static_cast<UINT>(ranges[i].size());
                n.DescriptorTable.pDescriptorRanges = ranges[i].data();
                m_Tables.push_back({static_cast<uint32_t>(i),
                                    sampler ? D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER : D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, total});
                dwords += 1;
                break;
            }
        }
    }
    if (dwords > 64) throw InvalidArgument("root signature: " + std::to_string(dwords) + " DWORDs exceed the 64-DWORD limit");
    std::vector<D3D12_STATIC_SAMPLER_DESC> ss(samplers.size());
    for (size_t i = 0; i < samplers.size(); ++i) {
        D3D12_STATIC_SAMPLER_DESC& s = ss[i];
        s.Filter = samplers[i].filter;
        s.AddressU = s.AddressV = s.AddressW = samplers[i].address;
        s.MipLODBias = 0;
        s.MaxAnisotropy = 16;
        s.ComparisonFunc = D3D12_COMPARISON_FUNC_NEVER;
        s.BorderColor = D3D12_STATIC_BORDER_COLOR_TRANSPARENT_BLACK;
        s.MinLOD = 0;
        s.MaxLOD = 3.402823466e+38f;
        s.ShaderRegister = samplers[i].shaderRegister;
        s.RegisterSpace = samplers[i].space;
        s.ShaderVisibility = samplers[i].visibility;
    }
    D3D12_ROOT_SIGNATURE_DESC desc{};
    desc.NumParameters = static_cast<UINT>(native.size());
    desc.pParameters = native.data();
    desc.NumStaticSamplers = static_cast<UINT>(ss.size());
    desc.pStaticSamplers = ss.data();
    desc.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
    ComPtr<ID3DBlob> blob, error;
    HRESULT hr = D3D12SerializeRootSignature(&desc, D3D_ROOT_SIGNATURE_VERSION_1, blob.ReleaseAndGetAddressOf(), error.ReleaseAndGetAddressOf());
    if (FAILED(hr)) {
        std::string msg = "D3D12SerializeRootSignature failed: " + HResultName(hr);
        if (error) msg += ": " + std::string(static_cast<const char*>(error->GetBufferPointer()), error->GetBufferSize());
        throw InvalidArgument(msg);
    }
    ThrowIfFailed(m_Core->D3D12Device()->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(),
                                                             IID_ID3D12RootSignature, m_d3d12RootSignature.ReleaseAndGetVoidAddress()),
                  "CreateRootSignature");
}

const RootParameterDesc& RootSignature::Require(uint32_t index, RootParamKind kind, const char* what) const {
    if (index >= m_Params.size())
        throw InvalidArgument(std::string(what) + ": root index " + std::to_string(index) + " out of range (the root signature has " +
                              std::to_string(m_Params.size()) + " parameters)");
    const RootParameterDesc& p = m_Params[index];
    if (p.kind != kind)
        throw InvalidArgument(std::string(what) + ": root parameter " + std::to_string(index) + " is " + KindName(p.kind) + ", not " + KindName(kind));
    return p;
}

PipelineState::PipelineState(std::shared_ptr<DeviceCore> core, const std::vector<uint8_t>& cs,
                             std::shared_ptr<RootSignature> rootSignature)
    : m_Core(std::move(core)), m_RootSignature(std::move(rootSignature)), m_IsCompute(true) {
    if (!m_RootSignature) throw InvalidArgument("create_compute_pipeline: no root signature");
    if (m_RootSignature->Core() != m_Core.get()) throw InvalidArgument("create_compute_pipeline: the root signature belongs to another device");
    if (cs.empty()) throw InvalidArgument("create_compute_pipeline: empty shader bytecode");
    D3D12_COMPUTE_PIPELINE_STATE_DESC d{};
    d.pRootSignature = m_RootSignature->D3D12RootSignature();
    d.CS = {cs.data(), cs.size()};
    ThrowIfFailed(m_Core->D3D12Device()->CreateComputePipelineState(&d, IID_ID3D12PipelineState, m_d3d12Pipeline.ReleaseAndGetVoidAddress()),
                  "CreateComputePipelineState");
}

PipelineState::PipelineState(std::shared_ptr<DeviceCore> core, const GraphicsPipelineDesc& g,
                             std::shared_ptr<RootSignature> rootSignature)
    : m_Core(std::move(core)), m_RootSignature(std::move(rootSignature)), m_IsCompute(false), m_Topology(g.topology),
      m_RtvFormats(g.rtvFormats), m_DsvFormat(g.dsvFormat) {
    if (!m_RootSignature) throw InvalidArgument("create_graphics_pipeline: no root signature");
    if (m_RootSignature->Core() != m_Core.get()) throw InvalidArgument("create_graphics_pipeline: the root signature belongs to another device");
    if (g.vs.empty()) throw InvalidArgument("create_graphics_pipeline: empty vertex shader bytecode");
    if (g.rtvFormats.size() > 8) throw InvalidArgument("create_graphics_pipeline: at most 8 render target formats");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d{};
    d.pRootSignature = m_RootSignature->D3D12RootSignature();
    d.VS = {g.vs.data(), g.vs.size()};
    if (!g.ps.empty()) d.PS = {g.ps.data(), g.ps.size()};
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
    d.SampleDesc.Count = 1;
    ThrowIfFailed(m_Core->D3D12Device()->CreateGraphicsPipelineState(&d, IID_ID3D12PipelineState, m_d3d12Pipeline.ReleaseAndGetVoidAddress()),
                  "CreateGraphicsPipelineState");
}

Sampler::Sampler(std::shared_ptr<DeviceCore> core, const D3D12_SAMPLER_DESC& desc)
    : m_Core(std::move(core)), m_Descriptor(m_Core->CpuDescriptors(D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER).Allocate(1)) {
    m_Core->D3D12Device()->CreateSampler(&desc, m_Descriptor.Handle());
}

}  // namespace dx12kit
