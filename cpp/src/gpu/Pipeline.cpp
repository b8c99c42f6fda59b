#include "dx12kit/gpu/Pipeline.hpp"

#include "dx12kit/devicecontext/DepthBiasUnits.hpp"
#include "dx12kit/devicecontext/FormatSupport.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/RootSignatureCheck.hpp"
#include "dx12kit/gpu/SamplerRules.hpp"
#include "dx12kit/platform/HResult.hpp"
#include "dx12kit/platform/VulkanPipelineFixes.hpp"
#include "dx12kit/shaders/DxbcCounters.hpp"
#include "dx12kit/shaders/DxbcModifierFix.hpp"
#include "dx12kit/shaders/DxbcRewrite.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
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
/// computes right. Windows drivers follow D3D's rules: the bytecode goes unchanged.
/// Float modifiers that vkd3d-shader folded into integer, store and atomic operands
/// (DxbcModifierFix.hpp) are a compiler fault, so they are fixed on every platform first.
std::vector<uint8_t> RuntimeBytecode(const char* what, const char* stage, const std::vector<uint8_t>& bytecode) {
    std::vector<uint8_t> fixed;
    try {
        // UAV counters (DxbcCounters.hpp): vkd3d 1.2 counts only in compute pipelines (state.c: "UAV
        // counters not implemented for graphics pipelines"; the counter would not exist).
        if (std::string(stage) != "cs" && !platform::BackendUavCounterSupport().graphics) {
            const std::string counter = UavCounterUse(bytecode.data(), bytecode.size());
            if (!counter.empty())
                throw InvalidArgument("the shader uses a UAV counter (" + counter +
                                      ": IncrementCounter, DecrementCounter, Append or Consume), and this backend (vkd3d 1.2) counts only in "
                                      "compute pipelines. Workaround: keep the count in a RWStructuredBuffer<uint> and take slots with "
                                      "InterlockedAdd(count[0], 1, slot), or count in a compute pass (docs/guides/shader-gaps.rst)");
        }
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

namespace {
/// The flags of the root signature, of each root descriptor and of each table range (the tables and
/// rules of RootSignatureCheck.cpp; the Python layer reads the same tables, dx12core.refused_flags).
void CheckRootFlags(const std::vector<RootParameterDesc>& params, uint32_t flags) {
    // Flags: D3D12's bits only, none that vkd3d 1.2 cannot honour, valid combinations.
    CheckRootSignatureFlags(flags, "create_root_signature");
    for (size_t i = 0; i < params.size(); ++i) {
        const RootParameterDesc& p = params[i];
        const std::string where = "create_root_signature: root parameter " + std::to_string(i);
        if (p.kind == RootParamKind::Cbv || p.kind == RootParamKind::Srv || p.kind == RootParamKind::Uav)
            CheckRootDescriptorFlags(p.flags, where.c_str());
        else if (p.kind == RootParamKind::Table)
            for (size_t j = 0; j < p.ranges.size(); ++j)
                CheckDescriptorRangeFlags(p.ranges[j].flags, p.ranges[j].kind, (where + ", range " + std::to_string(j)).c_str());
        else if (p.flags) throw InvalidArgument(where + ": root constants take no flags (D3D12 defines none for them)");
    }
}

/// Root parameter `i`, a descriptor table: its native ranges appended to `out`; returns the table
/// slots its ranges span (staged per table). `v11` becomes true when a range has flags.
uint64_t NativeTableRanges(size_t i, const RootParameterDesc& p, std::vector<D3D12_DESCRIPTOR_RANGE1>& out, bool& v11) {
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
        out.push_back(dr);
        const uint64_t start = r.offset == kAppendRange ? next : r.offset;
        const uint64_t end = start + (r.count == kUnboundedRange ? kUnboundedTableSlots : r.count);
        if (end > slots) slots = end;
        next = r.count == kUnboundedRange ? end : start + r.count;
    }
    if (slots > UINT32_MAX) throw InvalidArgument("root parameter " + std::to_string(i) + ": the table's ranges exceed 2^32 descriptors");
    return slots;
}

/// The static samplers, checked against D3D12's rules and what the device supports (and completed
/// there, CheckStaticSamplerDesc), as native descs.
std::vector<D3D12_STATIC_SAMPLER_DESC> NativeStaticSamplers(std::vector<StaticSamplerDesc>& samplers, const platform::SamplerSupport& support) {
    // D3D12: a root signature holds at most 2032 static samplers ("Root signature limits",
    // learn.microsoft.com/windows/win32/direct3d12/root-signature-limits).
    constexpr size_t kMaxStaticSamplers = 2032;
    if (samplers.size() > kMaxStaticSamplers)
        throw InvalidArgument("root signature: " + std::to_string(samplers.size()) + " static samplers exceed D3D12's limit of " +
                              std::to_string(kMaxStaticSamplers));
    std::vector<D3D12_STATIC_SAMPLER_DESC> ss(samplers.size());
    for (size_t i = 0; i < samplers.size(); ++i) {
        StaticSamplerDesc& in = samplers[i];
        CheckStaticSamplerDesc(in, &support,
                               "create_root_signature: static sampler " + std::to_string(i) + " (s" + std::to_string(in.shaderRegister) + " space" +
                                   std::to_string(in.space) + ")");
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
    return ss;
}

/// Serializes the root signature: version 1.1 when `v11` (some range or root descriptor has flags),
/// else version 1.0 with the same parameters.
ComPtr<ID3DBlob> SerializeRootSignature(const std::vector<D3D12_ROOT_PARAMETER1>& native,
                                        const std::vector<std::vector<D3D12_DESCRIPTOR_RANGE1>>& ranges,
                                        const std::vector<D3D12_STATIC_SAMPLER_DESC>& ss, uint32_t flags, bool v11) {
    ComPtr<ID3DBlob> blob, error;
    HRESULT hr;
    if (v11) {
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC desc{};
        desc.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
        desc.Desc_1_1.NumParameters = static_cast<UINT>(native.size());
        desc.Desc_1_1.pParameters = native.data();
        desc.Desc_1_1.NumStaticSamplers = static_cast<UINT>(ss.size());
        desc.Desc_1_1.pStaticSamplers = ss.data();
        desc.Desc_1_1.Flags = static_cast<D3D12_ROOT_SIGNATURE_FLAGS>(flags);
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
                    ranges10[i].push_back(
                        {r.RangeType, r.NumDescriptors, r.BaseShaderRegister, r.RegisterSpace, r.OffsetInDescriptorsFromTableStart});
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
        desc.Flags = static_cast<D3D12_ROOT_SIGNATURE_FLAGS>(flags);
        hr = D3D12SerializeRootSignature(&desc, D3D_ROOT_SIGNATURE_VERSION_1, blob.ReleaseAndGetAddressOf(), error.ReleaseAndGetAddressOf());
    }
    if (FAILED(hr)) {
        std::string msg = "D3D12SerializeRootSignature failed: " + HResultName(hr);
        if (error) msg += ": " + std::string(static_cast<const char*>(error->GetBufferPointer()), error->GetBufferSize());
        throw InvalidArgument(msg);
    }
    return blob;
}
}  // namespace

RootSignature::RootSignature(std::shared_ptr<DeviceContext> core, std::vector<RootParameterDesc> params, std::vector<StaticSamplerDesc> samplers,
                             uint32_t flags)
    : m_Context(std::move(core)), m_Params(std::move(params)), m_Samplers(std::move(samplers)), m_Flags(flags) {
    m_Context->CheckNotForked("create_root_signature");
    if (m_Params.size() > 64) throw InvalidArgument("root signature: at most 64 root parameters");
    CheckRootFlags(m_Params, m_Flags);
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
                const uint64_t slots = NativeTableRanges(i, p, ranges[i], v11);
                const bool sampler = p.ranges[0].kind == RangeKind::Sampler;
                n.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
                n.DescriptorTable.NumDescriptorRanges = static_cast<UINT>(ranges[i].size());
                n.DescriptorTable.pDescriptorRanges = ranges[i].data();
                m_Tables.push_back({static_cast<uint32_t>(i), sampler ? D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER : D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV,
                                    static_cast<uint32_t>(slots)});
                dwords += 1;
                break;
            }
        }
    }
    if (dwords > 64) throw InvalidArgument("root signature: " + std::to_string(dwords) + " DWORDs exceed the 64-DWORD limit");
    const std::vector<D3D12_STATIC_SAMPLER_DESC> ss = NativeStaticSamplers(m_Samplers, m_Context->Samplers());
    const ComPtr<ID3DBlob> blob = SerializeRootSignature(native, ranges, ss, m_Flags, v11);
    bool unbounded = false;
    for (const RootParameterDesc& p : m_Params)
        for (const DescriptorRangeDesc& r : p.ranges) unbounded |= r.count == kUnboundedRange;
    ThrowIfFailed(m_Context->D3D12Device()->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_ID3D12RootSignature,
                                                                m_d3d12RootSignature.ReleaseAndGetVoidAddress()),
                  unbounded ? "CreateRootSignature (with an unbounded descriptor range, which vkd3d 1.2 does not implement; give a count)"
                            : "CreateRootSignature");
}

const RootParameterDesc& RootSignature::Require(uint32_t index, RootParamKind kind, const char* what) const {
    if (index >= m_Params.size())
        throw InvalidArgument(std::string(what) + ": root index " + std::to_string(index) + " out of range (the root signature has " +
                              std::to_string(m_Params.size()) + " parameters)");
    const RootParameterDesc& p = m_Params[index];
    if (p.kind != kind)
        throw InvalidArgument(std::string(what) + ": root parameter " + std::to_string(index) + " is " + RootParamKindName(p.kind) + ", not " +
                              RootParamKindName(kind));
    return p;
}

PipelineState::PipelineState(std::shared_ptr<DeviceContext> core, const std::vector<uint8_t>& cs, std::shared_ptr<RootSignature> rootSignature)
    : m_Context(std::move(core)), m_RootSignature(std::move(rootSignature)), m_IsCompute(true) {
    m_Context->CheckNotForked("create_compute_pipeline");
    if (!m_RootSignature) throw InvalidArgument("create_compute_pipeline: no root signature");
    if (m_RootSignature->Context() != m_Context.get()) throw InvalidArgument("create_compute_pipeline: the root signature belongs to another device");
    if (cs.empty()) throw InvalidArgument("create_compute_pipeline: empty shader bytecode");
    {
        const DxbcReflection r = ReflectShader("create_compute_pipeline", "cs", cs);
        if (r.stage != ShaderStage::Compute)
            throw InvalidArgument(std::string("create_compute_pipeline: the shader is a ") + r.StageName() + " shader (" + r.Profile() +
                                  "), not a compute shader");
        CheckShaderBindings("create_compute_pipeline", r, *m_RootSignature);
        m_RootUse = std::make_shared<PipelineRootUse>();
        NoteShaderRootUse("create_compute_pipeline", r, *m_RootSignature, *m_RootUse);
        CheckStaticSamplerKinds("create_compute_pipeline", *m_RootUse, *m_RootSignature);
        m_Stages = std::make_shared<std::vector<DxbcReflection>>(1, r);
    }
    NoteCounterSlots("create_compute_pipeline", "cs", cs);
    D3D12_COMPUTE_PIPELINE_STATE_DESC d{};
    d.pRootSignature = m_RootSignature->D3D12RootSignature();
    const std::vector<uint8_t> runtimeCs = RuntimeBytecode("create_compute_pipeline", "cs", cs);
    d.CS = {runtimeCs.data(), runtimeCs.size()};
    ThrowIfFailed(m_Context->D3D12Device()->CreateComputePipelineState(&d, IID_ID3D12PipelineState, m_d3d12Pipeline.ReleaseAndGetVoidAddress()),
                  "CreateComputePipelineState");
}

void PipelineState::NoteCounterSlots(const char* what, const char* stage, const std::vector<uint8_t>& code) {
    std::vector<uint32_t> regs;
    try {
        regs = UavCounterRegisters(code.data(), code.size());
    } catch (const InvalidArgument& e) {
        throw InvalidArgument(std::string(what) + " (" + stage + "): " + e.what());
    }
    for (uint32_t reg : regs) {
        uint64_t key = ~uint64_t(0);
        for (const auto& kv : m_RootUse->tableSlots) {
            const ShaderBinding& b = kv.second;
            if (b.kind == BindingKind::Uav && b.space == 0 && reg >= b.shaderRegister && (b.count == 0 || reg < b.shaderRegister + b.count))
                key = kv.first + (reg - b.shaderRegister);
        }
        if (key == ~uint64_t(0))
            throw InvalidArgument(std::string(what) + " (" + stage + "): the shader uses the UAV counter of u" + std::to_string(reg) +
                                  ", which the root signature does not put in a descriptor table (D3D12: root UAVs have no counter); "
                                  "bind u" +
                                  std::to_string(reg) + " through a DescriptorTable([UAV(...)])");
        bool known = false;
        for (const auto& c : m_CounterSlots) known |= c.first == key;
        if (!known) m_CounterSlots.emplace_back(key, reg);
    }
}

namespace {
constexpr const char* kGraphics = "create_graphics_pipeline";

bool IsColorFactor(D3D12_BLEND f) {
    return f == D3D12_BLEND_SRC_COLOR || f == D3D12_BLEND_INV_SRC_COLOR || f == D3D12_BLEND_DEST_COLOR || f == D3D12_BLEND_INV_DEST_COLOR ||
           f == D3D12_BLEND_SRC1_COLOR || f == D3D12_BLEND_INV_SRC1_COLOR;
}
bool IsDualSourceFactor(D3D12_BLEND f) {
    return f == D3D12_BLEND_SRC1_COLOR || f == D3D12_BLEND_INV_SRC1_COLOR || f == D3D12_BLEND_SRC1_ALPHA || f == D3D12_BLEND_INV_SRC1_ALPHA;
}

/// "blend" for one state for every target, "blend[i]" for independent blend.
std::string BlendField(const GraphicsPipelineDesc& g, size_t i) {
    return g.blend.size() > 1 ? "blend[" + std::to_string(i) + "]" : std::string("blend");
}

/// D3D12's rules for the blend state of render target `i` (D3D12_RENDER_TARGET_BLEND_DESC,
/// D3D12_BLEND_DESC), and what vkd3d 1.2 implements of it.
void CheckBlendState(const GraphicsPipelineDesc& g, const BlendStateDesc& b, size_t i) {
    const std::string field = std::string(kGraphics) + ": " + BlendField(g, i);
    if (b.writeMask > D3D12_COLOR_WRITE_ENABLE_ALL)
        throw InvalidArgument(field + ".write_mask " + std::to_string(b.writeMask) + " has bits other than red|green|blue|alpha (0..15)");
    if (b.blendEnable && (IsColorFactor(b.srcBlendAlpha) || IsColorFactor(b.destBlendAlpha)))
        throw InvalidArgument(field +
                              ": src_blend_alpha and dest_blend_alpha cannot be *_color factors (D3D12 allows only alpha factors "
                              "for the alpha channel)");
    if (b.blendEnable &&
        (IsDualSourceFactor(b.srcBlend) || IsDualSourceFactor(b.destBlend) || IsDualSourceFactor(b.srcBlendAlpha) ||
         IsDualSourceFactor(b.destBlendAlpha)) &&
        (i != 0 || g.rtvFormats.size() != 1))
        throw InvalidArgument(field + ": src1_* factors (dual-source blending) need exactly one render target, blended as target 0");
    if (b.logicOpEnable) {
        if (b.blendEnable) throw InvalidArgument(field + ": blending and logic_op cannot both be on (D3D12_RENDER_TARGET_BLEND_DESC)");
        if (g.blend.size() > 1)
            throw InvalidArgument(field + ": logic_op needs one blend state for all render targets (D3D12: no independent blend)");
#if !defined(_WIN32)
        throw InvalidArgument(field +
                              ".logic_op: vkd3d 1.2 does not implement logic operations (it ignores LogicOpEnable and would write "
                              "the shader's colour unchanged); refused");
#endif
    }
}

/// D3D12_RASTERIZER_DESC fields vkd3d 1.2 ignores (FIXME "Ignoring ...") are refused there.
void CheckRasterizerState(const RasterizerStateDesc& r) {
    const std::string field = std::string(kGraphics) + ": rasterizer.";
    if (r.fill != D3D12_FILL_MODE_SOLID && r.fill != D3D12_FILL_MODE_WIREFRAME)
        throw InvalidArgument(field + "fill: " + std::to_string(int(r.fill)) + " is not a D3D12_FILL_MODE");
    if (r.forcedSampleCount != 0 && r.forcedSampleCount != 1 && r.forcedSampleCount != 4 && r.forcedSampleCount != 8 && r.forcedSampleCount != 16)
        throw InvalidArgument(field + "forced_sample_count must be 0, 1, 4, 8 or 16, got " + std::to_string(r.forcedSampleCount));
#if !defined(_WIN32)
    const char* ignored = r.multisample         ? "multisample"
                          : r.antialiasedLines  ? "antialiased_lines"
                          : r.conservative      ? "conservative"
                          : r.forcedSampleCount ? "forced_sample_count"
                                                : nullptr;
    if (ignored)
        throw InvalidArgument(field + ignored +
                              ": vkd3d 1.2 does not implement it (it ignores the D3D12_RASTERIZER_DESC field, so the "
                              "pixels would differ from D3D12's); refused");
#endif
}

/// Whether a geometry shader's input primitive (DxbcReflection::gsInputPrimitive) takes the
/// primitives of `topology`.
bool GsInputMatches(uint32_t primitive, D3D_PRIMITIVE_TOPOLOGY topology) {
    switch (primitive) {
        case 1: return topology == D3D_PRIMITIVE_TOPOLOGY_POINTLIST;
        case 2: return topology == D3D_PRIMITIVE_TOPOLOGY_LINELIST || topology == D3D_PRIMITIVE_TOPOLOGY_LINESTRIP;
        case 3: return topology == D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST || topology == D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP;
        case 6: return topology == D3D_PRIMITIVE_TOPOLOGY_LINELIST_ADJ || topology == D3D_PRIMITIVE_TOPOLOGY_LINESTRIP_ADJ;
        case 7: return topology == D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST_ADJ || topology == D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ;
        default: return primitive >= 8 && PatchControlPoints(topology) == primitive - 7;
    }
}

const char* GsInputName(uint32_t primitive) {
    switch (primitive) {
        case 1: return "point";
        case 2: return "line";
        case 3: return "triangle";
        case 6: return "lineadj";
        case 7: return "triangleadj";
        default: return "patch";
    }
}

/// D3D_REGISTER_COMPONENT_TYPE a shader sees for `format`'s data: 1 uint32 for *_UINT, 2 sint32
/// for *_SINT, 3 float32 for every other colour or vertex format (UNORM, SNORM, FLOAT, sRGB).
uint32_t ShaderComponentType(DXGI_FORMAT f) {
    switch (f) {
        case DXGI_FORMAT_R32G32B32A32_SINT:
        case DXGI_FORMAT_R32G32B32_SINT:
        case DXGI_FORMAT_R16G16B16A16_SINT:
        case DXGI_FORMAT_R32G32_SINT:
        case DXGI_FORMAT_R8G8B8A8_SINT:
        case DXGI_FORMAT_R16G16_SINT:
        case DXGI_FORMAT_R32_SINT:
        case DXGI_FORMAT_R8G8_SINT:
        case DXGI_FORMAT_R16_SINT:
        case DXGI_FORMAT_R8_SINT: return 2;
        default: return IsInteger(f) ? 1 : 3;
    }
}

const char* ComponentTypeName(uint32_t t) {
    return t == 1 ? "uint" : t == 2 ? "int" : t == 3 ? "float" : "unknown-type";
}

/// Bytes of one component of a vertex format (packed 32-bit formats such as rgb10a2 count as one
/// 4-byte component); 1 for formats this table does not know (no alignment rule applied).
uint32_t ComponentBytes(DXGI_FORMAT f) {
    if (f >= DXGI_FORMAT_R32G32B32A32_TYPELESS && f <= DXGI_FORMAT_R32G32B32_SINT) return 4;
    if (f >= DXGI_FORMAT_R16G16B16A16_TYPELESS && f <= DXGI_FORMAT_R16G16B16A16_SINT) return 2;
    if (f >= DXGI_FORMAT_R32G32_TYPELESS && f <= DXGI_FORMAT_R11G11B10_FLOAT) return 4;
    if (f >= DXGI_FORMAT_R8G8B8A8_TYPELESS && f <= DXGI_FORMAT_R8G8B8A8_SINT) return 1;
    if (f >= DXGI_FORMAT_R16G16_TYPELESS && f <= DXGI_FORMAT_R16G16_SINT) return 2;
    if (f >= DXGI_FORMAT_R32_TYPELESS && f <= DXGI_FORMAT_R32_SINT) return 4;
    if (f >= DXGI_FORMAT_R8G8_TYPELESS && f <= DXGI_FORMAT_R8G8_SINT) return 1;
    if (f >= DXGI_FORMAT_R16_TYPELESS && f <= DXGI_FORMAT_R16_SINT) return 2;
    if (f == DXGI_FORMAT_R9G9B9E5_SHAREDEXP) return 4;
    if (f == DXGI_FORMAT_B5G6R5_UNORM || f == DXGI_FORMAT_B5G5R5A1_UNORM) return 2;
    return 1;
}

/// "TEXCOORD1" for (TEXCOORD, 1), "COLOR" for (COLOR, 0).
std::string SemanticName(const std::string& name, uint32_t index) {
    return name + (index ? std::to_string(index) : std::string());
}

/// The input layout against the vertex shader's input signature. D3D12's own rules (the pipeline
/// fails with E_INVALIDARG): every non-system-value input needs an element of the same semantic
/// (case-insensitive) and index; semantics are unique and end in no digit; explicit offsets are
/// aligned to min(4, component size). Elements the shader does not read are allowed.
/// Stricter than D3D12, on purpose: a format giving float components to a uint/int input (or the
/// reverse) is only a warning in D3D (the shader reinterprets the bits), but Vulkan leaves such a
/// mismatch undefined, and vkd3d over lavapipe read 255s where Windows reads the bit pattern: a
/// silent wrong number on this backend, so it is refused, saying so.
/// Returns the mask of the vertex-buffer slots the shader reads (the slots of the elements that
/// match one of its non-system-value inputs).
uint32_t CheckInputLayout(const std::vector<InputElementDesc>& layout, const DxbcReflection& vs) {
    const std::string fn = kGraphics;
    uint32_t slotsRead = 0;
    auto lower = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    auto elementName = [&](size_t i) {
        return "input_layout[" + std::to_string(i) + "] (" + SemanticName(layout[i].semantic, layout[i].semanticIndex) + ")";
    };
    for (size_t i = 0; i < layout.size(); ++i) {
        const InputElementDesc& e = layout[i];
        if (e.semantic.empty()) throw InvalidArgument(fn + ": input_layout[" + std::to_string(i) + "] has an empty semantic name");
        if (std::isdigit(static_cast<unsigned char>(e.semantic.back()))) {
            size_t k = e.semantic.size();
            while (k > 0 && std::isdigit(static_cast<unsigned char>(e.semantic[k - 1]))) --k;
            throw InvalidArgument(fn + ": input_layout[" + std::to_string(i) + "] semantic '" + e.semantic +
                                  "' ends in a digit, which D3D12 refuses: give the name without it and the number as semantic_index "
                                  "(InputElement('" +
                                  e.semantic.substr(0, k) + "', ..., semantic_index=" + e.semantic.substr(k) + "))");
        }
        for (size_t j = 0; j < i; ++j)
            if (layout[j].semanticIndex == e.semanticIndex && lower(layout[j].semantic) == lower(e.semantic))
                throw InvalidArgument(fn + ": " + elementName(i) + " repeats the semantic of " + elementName(j) +
                                      ": D3D12 needs each semantic name and index once in an input layout");
        const uint32_t align = std::min<uint32_t>(4, ComponentBytes(e.format));
        if (e.offset != D3D12_APPEND_ALIGNED_ELEMENT && e.offset % align != 0)
            throw InvalidArgument(fn + ": " + elementName(i) + ".offset " + std::to_string(e.offset) + " is not a multiple of " +
                                  std::to_string(align) + " (D3D12 aligns an element to min(4, its component size); " + FormatName(e.format) +
                                  " has " + std::to_string(ComponentBytes(e.format)) + "-byte components)");
    }
    for (const SignatureElement& in : vs.inputs) {
        if (in.systemValue != 0) continue;  // SV_VertexID, SV_InstanceID: made by the input assembler
        const std::string head = fn + ": the vertex shader's input " + SemanticName(in.semantic, in.semanticIndex) + " (v" +
                                 std::to_string(in.shaderRegister) + ", " + ComponentTypeName(in.componentType) + ")";
        size_t match = layout.size();
        for (size_t i = 0; i < layout.size(); ++i)
            if (layout[i].semanticIndex == in.semanticIndex && lower(layout[i].semantic) == lower(in.semantic)) match = i;
        if (match == layout.size()) {
            std::string have;
            for (size_t i = 0; i < layout.size(); ++i) have += (have.empty() ? "" : ", ") + SemanticName(layout[i].semantic, layout[i].semanticIndex);
            throw InvalidArgument(head + " has no input_layout element (D3D12 refuses the pipeline: E_INVALIDARG): add InputElement('" + in.semantic +
                                  "', <format>" + (in.semanticIndex ? ", semantic_index=" + std::to_string(in.semanticIndex) : std::string()) +
                                  ") (the layout has: " + (have.empty() ? std::string("nothing") : have) + ")");
        }
        const uint32_t given = ShaderComponentType(layout[match].format);
        const bool floatIn = in.componentType == 3, floatGiven = given == 3;
        if (in.componentType != 0 && floatIn != floatGiven)
            throw InvalidArgument(head + " reads " + ComponentTypeName(in.componentType) + " components, but " + elementName(match) + " is " +
                                  FormatName(layout[match].format) + ", which gives " + ComponentTypeName(given) + " components: use a " +
                                  (floatIn                 ? "float/unorm/snorm"
                                   : in.componentType == 1 ? "*_uint"
                                                           : "*_sint") +
                                  " format or change the shader's input type (D3D12 would reinterpret the bits; vkd3d over Vulkan "
                                  "gives undefined values instead, so dx12kit refuses the mismatch)");
        slotsRead |= uint32_t(1) << layout[match].slot;
    }
    return slotsRead;
}

/// The pixel shader's SV_Target outputs against the render targets (`ps` null: no pixel shader).
/// A target with a non-zero write mask must be written, with the kind of component its format
/// takes (float for UNORM/SNORM/FLOAT, uint, int); dual-source blend factors need SV_Target1.
/// Outputs beyond the bound targets are allowed (D3D12 drops them).
void CheckPixelOutputs(const GraphicsPipelineDesc& g, const DxbcReflection* ps, const std::function<const BlendStateDesc&(size_t)>& blendOf) {
    const std::string fn = kGraphics;
    // OSGN marks SV_Target with system value 0 or 64 (D3D_NAME_TARGET) depending on the compiler.
    auto isTarget = [](const SignatureElement& o) {
        if (o.systemValue == 64) return true;
        if (o.systemValue != 0 || o.semantic.size() != 9) return false;
        std::string n = o.semantic;
        for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return n == "sv_target";
    };
    auto target = [&](uint32_t index) -> const SignatureElement* {
        if (!ps) return nullptr;
        for (const SignatureElement& o : ps->outputs)
            if (isTarget(o) && o.semanticIndex == index) return &o;
        return nullptr;
    };
    auto written = [&]() {
        std::string s;
        if (ps)
            for (const SignatureElement& o : ps->outputs)
                if (isTarget(o)) s += (s.empty() ? "" : ", ") + std::string("SV_Target") + std::to_string(o.semanticIndex);
        return s.empty() ? std::string("none") : s;
    };
    for (size_t i = 0; i < g.rtvFormats.size(); ++i) {
        const BlendStateDesc& b = blendOf(i);
        if (b.writeMask == 0 || g.rtvFormats[i] == DXGI_FORMAT_UNKNOWN) continue;
        const std::string rt = "render target " + std::to_string(i) + " (" + FormatName(g.rtvFormats[i]) + ")";
        const SignatureElement* o = target(static_cast<uint32_t>(i));
        if (!o)
            throw InvalidArgument(fn + ": " +
                                  (ps ? "the pixel shader does not write SV_Target" + std::to_string(i) + " (its targets: " + written() + ")"
                                      : std::string("there is no pixel shader")) +
                                  ", so " + rt +
                                  " would receive undefined values: " + (ps ? "write SV_Target" + std::to_string(i) : std::string("pass a ps")) +
                                  " or give that target write_mask=0 in its BlendState");
        const uint32_t want = ShaderComponentType(g.rtvFormats[i]);
        if (o->componentType != 0 && o->componentType != want)
            throw InvalidArgument(fn + ": the pixel shader writes " + ComponentTypeName(o->componentType) + " to SV_Target" + std::to_string(i) +
                                  ", but " + rt + " takes " + ComponentTypeName(want) + " values (" +
                                  (want == 3   ? "UNORM, SNORM and FLOAT formats take float"
                                   : want == 1 ? "a *_UINT format takes uint"
                                               : "a *_SINT format takes int") +
                                  "): return " + ComponentTypeName(want) + "4 or use a matching format");
    }
    if (!g.blend.empty()) {
        const BlendStateDesc& b = blendOf(0);
        const bool dual = b.blendEnable && (IsDualSourceFactor(b.srcBlend) || IsDualSourceFactor(b.destBlend) ||
                                            IsDualSourceFactor(b.srcBlendAlpha) || IsDualSourceFactor(b.destBlendAlpha));
        if (dual && !target(1))
            throw InvalidArgument(fn + ": " + BlendField(g, 0) +
                                  " uses src1_* factors (dual-source blending), which read the pixel shader's "
                                  "SV_Target1, but " +
                                  (ps ? "it writes none (its targets: " + written() + ")" : std::string("there is no pixel shader")) +
                                  ": write SV_Target1 or use factors without src1");
    }
}

DxbcReflection ReflectStage(const std::vector<uint8_t>& bytecode, const char* arg, ShaderStage want, const char* wantName, const RootSignature& rs,
                            PipelineRootUse& rootUse) {
    const DxbcReflection r = ReflectShader(kGraphics, arg, bytecode);
    if (r.stage != want)
        throw InvalidArgument(std::string(kGraphics) + ": " + arg + " is a " + r.StageName() + " shader (" + r.Profile() + "), not a " + wantName +
                              " shader");
    // Every stage's reads count (a root argument any of them reads must be set); noted first, so
    // that stages declaring different sampler kinds at one slot are refused naming both (rule 6).
    NoteShaderRootUse(kGraphics, r, rs, rootUse);
    CheckShaderBindings(kGraphics, r, rs);
    return r;
}

/// D3D12: a pipeline with an input layout needs a root signature with
/// ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT (CreateGraphicsPipelineState fails with E_INVALIDARG otherwise).
void CheckInputLayoutFlag(const GraphicsPipelineDesc& g, const RootSignature& rs) {
    if (g.inputLayout.empty() || (rs.Flags() & D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT)) return;
    throw InvalidArgument(std::string(kGraphics) + ": input_layout has " + std::to_string(g.inputLayout.size()) + " element(s) but root signature '" +
                          rs.Name() +
                          "' lacks the ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT flag (RootSignatureFlags.ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT); "
                          "create the root signature with it, or drop the input layout");
}
}  // namespace

namespace {
const BlendStateDesc& BlendOf(const GraphicsPipelineDesc& g, size_t i) {
    static const BlendStateDesc noBlend;
    return g.blend.empty() ? noBlend : g.blend.size() == 1 ? g.blend[0] : g.blend[i];
}

/// The description's own rules: shaders present, topology against tessellation, blend states,
/// rasterizer, depth-stencil state against the depth format. Returns the topology type.
D3D12_PRIMITIVE_TOPOLOGY_TYPE CheckGraphicsShape(const GraphicsPipelineDesc& g, bool tessellated) {
    const std::string fn = kGraphics;
    if (g.vs.empty()) throw InvalidArgument(fn + ": empty vertex shader bytecode");
    if (g.rtvFormats.size() > 8) throw InvalidArgument(fn + ": at most 8 render target formats");
    if (g.hs.empty() != g.ds.empty())
        throw InvalidArgument(fn + ": " + (g.hs.empty() ? "ds" : "hs") + " without " + (g.hs.empty() ? "hs" : "ds") +
                              ": tessellation needs both a hull and a domain shader");
    const D3D12_PRIMITIVE_TOPOLOGY_TYPE topologyType = TopologyType(g.topology);
    if (topologyType == D3D12_PRIMITIVE_TOPOLOGY_TYPE_UNDEFINED)
        throw InvalidArgument(fn + ": topology " + std::to_string(int(g.topology)) + " is not a D3D_PRIMITIVE_TOPOLOGY");
    if ((topologyType == D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH) != tessellated)
        throw InvalidArgument(fn + (tessellated ? ": hs and ds need a patch-list topology ('patch_list_<control points>'), not topology " +
                                                      std::to_string(int(g.topology))
                                                : ": a patch-list topology needs hs and ds (tessellation)"));
    // Blend: none, one state for all targets, or one per target.
    if (g.blend.size() > 1 && g.blend.size() != g.rtvFormats.size())
        throw InvalidArgument(fn + ": blend has " + std::to_string(g.blend.size()) + " states for " + std::to_string(g.rtvFormats.size()) +
                              " render targets: give one state (all targets alike) or one per render target");
    for (size_t i = 0; i < std::max<size_t>(g.rtvFormats.size(), g.blend.empty() ? 0 : 1); ++i) CheckBlendState(g, BlendOf(g, i), i);
    CheckRasterizerState(g.rasterizer);
    const DepthStencilStateDesc& dss = g.depthStencil;
    if (dss.depthTest && g.dsvFormat == DXGI_FORMAT_UNKNOWN) throw InvalidArgument(fn + ": depth_test=True needs dsv_format");
    if (dss.stencil && g.dsvFormat != DXGI_FORMAT_D24_UNORM_S8_UINT && g.dsvFormat != DXGI_FORMAT_D32_FLOAT_S8X24_UINT)
        throw InvalidArgument(fn + ": a stencil test needs a depth-stencil dsv_format (d24_unorm_s8_uint or d32_float_s8x24_uint)");
    return topologyType;
}

/// The targets' formats and sample count, and the input layout, against what the device supports.
void CheckGraphicsFormats(const GraphicsPipelineDesc& g, FormatSupportCache& formats) {
    const std::string fn = kGraphics;
    // Targets by kind: colour formats as render targets (blendable when blending), depth formats
    // only as the depth-stencil format (FormatSupport.hpp).
    for (size_t i = 0; i < g.rtvFormats.size(); ++i)
        formats.CheckRenderTargetFormat(g.rtvFormats[i], static_cast<uint32_t>(i), BlendOf(g, i).blendEnable, kGraphics);
    if (g.dsvFormat != DXGI_FORMAT_UNKNOWN) formats.CheckDepthStencilFormat(g.dsvFormat, kGraphics);
    // D3D12_GRAPHICS_PIPELINE_STATE_DESC.SampleDesc: a count every target format supports.
    if (g.sampleCount != 1) {
        for (DXGI_FORMAT f : g.rtvFormats) formats.CheckSampleCount(f, g.sampleCount, kGraphics);
        if (g.dsvFormat != DXGI_FORMAT_UNKNOWN) formats.CheckSampleCount(g.dsvFormat, g.sampleCount, kGraphics);
        if (g.rtvFormats.empty() && g.dsvFormat == DXGI_FORMAT_UNKNOWN)
            formats.CheckSampleCount(DXGI_FORMAT_R8G8B8A8_UNORM, g.sampleCount, kGraphics);
    }
    // Input layout: D3D12 gives each slot one classification and step rate.
    for (size_t i = 0; i < g.inputLayout.size(); ++i) {
        const InputElementDesc& e = g.inputLayout[i];
        if (e.slot >= D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)
            throw InvalidArgument(fn + ": input_layout[" + std::to_string(i) + "].slot " + std::to_string(e.slot) + " out of range (0..31)");
        if (!formats.Get(e.format).Has(D3D12_FORMAT_SUPPORT1_IA_VERTEX_BUFFER))
            throw InvalidArgument(fn + ": input_layout[" + std::to_string(i) + "] (" + e.semantic + "): " + FormatName(e.format) +
                                  " is not a vertex-buffer format on this device (D3D12_FORMAT_SUPPORT1_IA_VERTEX_BUFFER)");
        if (!e.perInstance && e.stepRate != 1 && e.stepRate != 0)
            throw InvalidArgument(fn + ": input_layout[" + std::to_string(i) + "] (" + e.semantic +
                                  "): step_rate applies to per_instance elements only");
        for (size_t j = 0; j < i; ++j) {
            const InputElementDesc& o = g.inputLayout[j];
            if (o.slot == e.slot && (o.perInstance != e.perInstance || (e.perInstance && o.stepRate != e.stepRate)))
                throw InvalidArgument(fn + ": input_layout[" + std::to_string(i) + "] (" + e.semantic + ") and input_layout[" + std::to_string(j) +
                                      "] (" + o.semantic + ") share slot " + std::to_string(e.slot) +
                                      " with different per_instance/step_rate (D3D12: one classification and step rate per slot)");
        }
    }
}

/// Every stage: its kind, its bindings against the root signature (noted in `rootUse`), and its link
/// to the stage before; each stage's reflection appended to `stages` in pipeline order. Returns the
/// input slots the vertex shader's input layout reads.
uint32_t ReflectGraphicsStages(const GraphicsPipelineDesc& g, const RootSignature& rs, PipelineRootUse& rootUse, bool tessellated,
                               std::vector<DxbcReflection>& stages) {
    const std::string fn = kGraphics;
    auto blendOf = [&g](size_t i) -> const BlendStateDesc& { return BlendOf(g, i); };
    const DxbcReflection vs = ReflectStage(g.vs, "vs", ShaderStage::Vertex, "vertex", rs, rootUse);
    const uint32_t inputSlots = CheckInputLayout(g.inputLayout, vs);  // slots checked before: all < 32
    const DxbcReflection* last = &vs;
    DxbcReflection hs, ds, gs;
    if (tessellated) {
        hs = ReflectStage(g.hs, "hs", ShaderStage::Hull, "hull", rs, rootUse);
        ds = ReflectStage(g.ds, "ds", ShaderStage::Domain, "domain", rs, rootUse);
        if (hs.inputControlPoints && hs.inputControlPoints != PatchControlPoints(g.topology))
            throw InvalidArgument(fn + ": the hull shader takes patches of " + std::to_string(hs.inputControlPoints) +
                                  " control points (InputPatch), the topology has " + std::to_string(PatchControlPoints(g.topology)) +
                                  ": use topology 'patch_list_" + std::to_string(hs.inputControlPoints) + "'");
        if (ds.inputControlPoints && hs.outputControlPoints && ds.inputControlPoints != hs.outputControlPoints)
            throw InvalidArgument(fn + ": the domain shader's OutputPatch has " + std::to_string(ds.inputControlPoints) +
                                  " control points, the hull shader outputs " + std::to_string(hs.outputControlPoints));
        CheckStageLinkage(kGraphics, vs, hs);
        CheckStageLinkage(kGraphics, hs, ds);
        last = &ds;
    }
    if (!g.gs.empty()) {
        gs = ReflectStage(g.gs, "gs", ShaderStage::Geometry, "geometry", rs, rootUse);
        if (!tessellated && gs.gsInputPrimitive && !GsInputMatches(gs.gsInputPrimitive, g.topology))
            throw InvalidArgument(fn + ": the geometry shader takes " + GsInputName(gs.gsInputPrimitive) + " primitives, which topology " +
                                  std::to_string(int(g.topology)) + " does not make");
        CheckStageLinkage(kGraphics, *last, gs);
        last = &gs;
    }
    stages.push_back(vs);
    if (tessellated) {
        stages.push_back(hs);
        stages.push_back(ds);
    }
    if (!g.gs.empty()) stages.push_back(gs);
    if (!g.ps.empty()) {
        const DxbcReflection ps = ReflectStage(g.ps, "ps", ShaderStage::Pixel, "pixel", rs, rootUse);
        CheckStageLinkage(kGraphics, *last, ps);
        CheckPixelOutputs(g, &ps, blendOf);
        stages.push_back(ps);
    } else {
        CheckPixelOutputs(g, nullptr, blendOf);
    }
    CheckStaticSamplerKinds(kGraphics, rootUse, rs);  // after every stage was noted (rule 6 first)
    return inputSlots;
}

/// The fixed-function half of the native description (blend, rasterizer, depth-stencil, input
/// layout in `elems`, which must outlive `d`, target formats).
void FillGraphicsStates(const GraphicsPipelineDesc& g, D3D12_GRAPHICS_PIPELINE_STATE_DESC& d, std::vector<D3D12_INPUT_ELEMENT_DESC>& elems) {
    const DepthStencilStateDesc& dss = g.depthStencil;
    const BlendStateDesc noBlend;
    d.BlendState.AlphaToCoverageEnable = g.alphaToCoverage ? TRUE : FALSE;
    d.BlendState.IndependentBlendEnable = g.blend.size() > 1 ? TRUE : FALSE;
    for (uint32_t i = 0; i < 8; ++i) {
        const BlendStateDesc& in = i < g.blend.size() ? g.blend[i] : g.blend.size() == 1 ? g.blend[0] : noBlend;
        D3D12_RENDER_TARGET_BLEND_DESC& b = d.BlendState.RenderTarget[i];
        b.BlendEnable = in.blendEnable ? TRUE : FALSE;
        b.LogicOpEnable = in.logicOpEnable ? TRUE : FALSE;
        b.SrcBlend = in.srcBlend;
        b.DestBlend = in.destBlend;
        b.BlendOp = in.blendOp;
        b.SrcBlendAlpha = in.srcBlendAlpha;
        b.DestBlendAlpha = in.destBlendAlpha;
        b.BlendOpAlpha = in.blendOpAlpha;
        b.LogicOp = static_cast<D3D12_LOGIC_OP>(in.logicOp);  // 5..15 reach here on Windows only (refused on vkd3d above)
        b.RenderTargetWriteMask = in.writeMask;
    }
    // D3D12 applies the sample mask with or without multisampling: at one sample per pixel only bit
    // 0 counts, and with it clear nothing is written (colour, depth, stencil). lavapipe drops a
    // single-sample pixel only for a mask of 0 (0xFFFFFFFE wrote every pixel), so the one bit that
    // counts is spread over the whole mask: the same pixels on a backend that reads bit 0.
    d.SampleMask = g.sampleCount == 1 ? ((g.sampleMask & 1u) ? 0xFFFFFFFFu : 0u) : g.sampleMask;
    const RasterizerStateDesc& r = g.rasterizer;
    d.RasterizerState.FillMode = r.fill;
    d.RasterizerState.CullMode = r.cull;
    d.RasterizerState.FrontCounterClockwise = r.frontCounterClockwise ? TRUE : FALSE;
    d.RasterizerState.DepthBias = r.depthBias;
    d.RasterizerState.DepthBiasClamp = r.depthBiasClamp;
    d.RasterizerState.SlopeScaledDepthBias = r.slopeScaledDepthBias;
    d.RasterizerState.DepthClipEnable = r.depthClip ? TRUE : FALSE;
    d.RasterizerState.MultisampleEnable = r.multisample ? TRUE : FALSE;
    d.RasterizerState.AntialiasedLineEnable = r.antialiasedLines ? TRUE : FALSE;
    d.RasterizerState.ForcedSampleCount = r.forcedSampleCount;
    d.RasterizerState.ConservativeRaster = r.conservative ? D3D12_CONSERVATIVE_RASTERIZATION_MODE_ON : D3D12_CONSERVATIVE_RASTERIZATION_MODE_OFF;
    d.DepthStencilState.DepthEnable = dss.depthTest ? TRUE : FALSE;
    d.DepthStencilState.DepthWriteMask = dss.depthWrite ? D3D12_DEPTH_WRITE_MASK_ALL : D3D12_DEPTH_WRITE_MASK_ZERO;
    d.DepthStencilState.DepthFunc = dss.depthFunc;
    d.DepthStencilState.StencilEnable = dss.stencil ? TRUE : FALSE;
    d.DepthStencilState.StencilReadMask = dss.readMask;
    d.DepthStencilState.StencilWriteMask = dss.writeMask;
    d.DepthStencilState.FrontFace = {dss.front.failOp, dss.front.depthFailOp, dss.front.passOp, dss.front.func};
    d.DepthStencilState.BackFace = {dss.back.failOp, dss.back.depthFailOp, dss.back.passOp, dss.back.func};
    elems.resize(g.inputLayout.size());
    for (size_t i = 0; i < elems.size(); ++i) {
        const InputElementDesc& e = g.inputLayout[i];
        elems[i] = {e.semantic.c_str(),
                    e.semanticIndex,
                    e.format,
                    e.slot,
                    e.offset,
                    e.perInstance ? D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA : D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA,
                    e.perInstance ? e.stepRate : 0};
    }
    d.InputLayout = {elems.empty() ? nullptr : elems.data(), static_cast<UINT>(elems.size())};
    d.NumRenderTargets = static_cast<UINT>(g.rtvFormats.size());
    for (size_t i = 0; i < g.rtvFormats.size(); ++i) d.RTVFormats[i] = g.rtvFormats[i];
    d.DSVFormat = g.dsvFormat;
    d.SampleDesc.Count = g.sampleCount;
}
}  // namespace

PipelineState::PipelineState(std::shared_ptr<DeviceContext> core, const GraphicsPipelineDesc& g, std::shared_ptr<RootSignature> rootSignature)
    : m_Context(std::move(core)),
      m_RootSignature(std::move(rootSignature)),
      m_IsCompute(false),
      m_Topology(g.topology),
      m_RtvFormats(g.rtvFormats),
      m_DsvFormat(g.dsvFormat),
      m_SampleCount(g.sampleCount),
      m_DepthTest(g.depthStencil.depthTest),
      m_StencilTest(g.depthStencil.stencil),
      m_Tessellated(!g.hs.empty()) {
    for (const BlendStateDesc& b : g.blend)
        for (D3D12_BLEND f : {b.srcBlend, b.destBlend, b.srcBlendAlpha, b.destBlendAlpha})
            m_UsesBlendFactor |= b.blendEnable && (f == D3D12_BLEND_BLEND_FACTOR || f == D3D12_BLEND_INV_BLEND_FACTOR);
    const std::string fn = kGraphics;
    m_Context->CheckNotForked(kGraphics);
    if (!m_RootSignature) throw InvalidArgument(fn + ": no root signature");
    if (m_RootSignature->Context() != m_Context.get()) throw InvalidArgument(fn + ": the root signature belongs to another device");
    CheckInputLayoutFlag(g, *m_RootSignature);
    const D3D12_PRIMITIVE_TOPOLOGY_TYPE topologyType = CheckGraphicsShape(g, m_Tessellated);
    CheckGraphicsFormats(g, m_Context->FormatSupport());
    m_RootUse = std::make_shared<PipelineRootUse>();
    m_Stages = std::make_shared<std::vector<DxbcReflection>>();
    m_InputSlots = ReflectGraphicsStages(g, *m_RootSignature, *m_RootUse, m_Tessellated, *m_Stages);
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d{};
    d.pRootSignature = m_RootSignature->D3D12RootSignature();
    auto runtime = [](const std::vector<uint8_t>& code, const char* stage) {
        return code.empty() ? std::vector<uint8_t>() : RuntimeBytecode(kGraphics, stage, code);
    };
    if (platform::BackendUavCounterSupport().graphics)
        for (const auto& [code, stage] : {std::make_pair(&g.vs, "vs"), std::make_pair(&g.hs, "hs"), std::make_pair(&g.ds, "ds"),
                                          std::make_pair(&g.gs, "gs"), std::make_pair(&g.ps, "ps")})
            if (!code->empty()) NoteCounterSlots(kGraphics, stage, *code);
    const std::vector<uint8_t> runtimeVs = runtime(g.vs, "vs"), runtimePs = runtime(g.ps, "ps"), runtimeGs = runtime(g.gs, "gs"),
                               runtimeHs = runtime(g.hs, "hs"), runtimeDs = runtime(g.ds, "ds");
    auto bytecode = [](const std::vector<uint8_t>& code) {
        return code.empty() ? D3D12_SHADER_BYTECODE{nullptr, 0} : D3D12_SHADER_BYTECODE{code.data(), code.size()};
    };
    d.VS = bytecode(runtimeVs);
    d.PS = bytecode(runtimePs);
    d.GS = bytecode(runtimeGs);
    d.HS = bytecode(runtimeHs);
    d.DS = bytecode(runtimeDs);
    std::vector<D3D12_INPUT_ELEMENT_DESC> elems;
    FillGraphicsStates(g, d, elems);
    m_InputLayout = g.inputLayout;
    d.PrimitiveTopologyType = topologyType;
    const platform::PipelineFix fix = BackendFix(g);
    platform::PipelineFixScope fixScope(fix);  // the Vulkan shader modules vkd3d makes below carry the fix
    ThrowIfFailed(m_Context->D3D12Device()->CreateGraphicsPipelineState(&d, IID_ID3D12PipelineState, m_d3d12Pipeline.ReleaseAndGetVoidAddress()),
                  "CreateGraphicsPipelineState");
}

namespace {
D3D12_SAMPLER_DESC CheckedSamplerDesc(D3D12_SAMPLER_DESC desc, const DeviceContext& core) {
    core.CheckNotForked("create_sampler");
    CheckSamplerDesc(desc, &core.Samplers(), "create_sampler");
    return desc;
}
}  // namespace

platform::PipelineFix PipelineState::BackendFix(const GraphicsPipelineDesc& g) {
    platform::PipelineFix fix;
    // Without the Vulkan-side fixes (Windows builds) the driver's unit is measured all the same: a
    // driver whose unit differs from D3D12's (Wine's vkd3d over lavapipe does) gets depth_bias refused.
    if (!platform::kPipelineFixes) {
        if (g.rasterizer.depthBias != 0 && g.dsvFormat != DXGI_FORMAT_UNKNOWN && m_Context->DepthBias().Ratio(g.dsvFormat) != 1.0)
            throw InvalidArgument(std::string(kGraphics) + ": rasterizer.depth_bias " + std::to_string(g.rasterizer.depthBias) + " on " +
                                  FormatName(g.dsvFormat) + ": this driver's depth-bias unit on that format is " +
                                  std::to_string(m_Context->DepthBias().Raw(g.dsvFormat)) +
                                  " times D3D12's, so the stored depth would not be D3D12's; refused. Use depth_bias=0 "
                                  "(slope_scaled_depth_bias works)");
        return fix;
    }
    // vkd3d 1.2 maps no adjacency topology to Vulkan (it draws points): the fix names Vulkan's.
    switch (g.topology) {
        case D3D_PRIMITIVE_TOPOLOGY_LINELIST_ADJ:
        case D3D_PRIMITIVE_TOPOLOGY_LINESTRIP_ADJ:
        case D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST_ADJ:
        case D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ: fix.adjacency = g.topology; break;
        default: break;
    }
    // The constant depth bias in D3D12's unit: the backend's unit for the format, measured once per
    // device (DepthBiasUnits.hpp), divides it (exactly: Vulkan takes it as a float).
    if (g.rasterizer.depthBias != 0 && g.dsvFormat != DXGI_FORMAT_UNKNOWN) {
        const double ratio = m_Context->DepthBias().Ratio(g.dsvFormat);
        if (ratio <= 0)
            throw InvalidArgument(std::string(kGraphics) + ": rasterizer.depth_bias " + std::to_string(g.rasterizer.depthBias) + " on " +
                                  FormatName(g.dsvFormat) +
                                  ": the backend's depth-bias unit on that format could not be measured (the probe's "
                                  "ratio to D3D12's unit was " +
                                  std::to_string(m_Context->DepthBias().Raw(g.dsvFormat)) +
                                  "), so the stored depth would not be D3D12's; refused. Use depth_bias=0 (slope_scaled_depth_bias works)");
        if (ratio != 1.0) fix.depthBiasScale = static_cast<float>(1.0 / ratio);
    }
    return fix;
}

Sampler::Sampler(std::shared_ptr<DeviceContext> core, const D3D12_SAMPLER_DESC& desc)
    : m_Context(std::move(core)),
      m_Desc(CheckedSamplerDesc(desc, *m_Context)),
      m_Descriptor(m_Context->CpuDescriptors(D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER).Allocate(1)) {
    m_Context->D3D12Device()->CreateSampler(&m_Desc, m_Descriptor.Handle());
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
