#include "dx12kit/gpu/RootSignatureCheck.hpp"
#include "dx12kit/gpu/SamplerRules.hpp"

#include "dx12kit/base/Errors.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

namespace dx12kit {

namespace {

constexpr uint64_t kInfinity = uint64_t(1) << 40;  // past every 32-bit register

const char* VisibilityName(D3D12_SHADER_VISIBILITY v) {
    switch (v) {
        case D3D12_SHADER_VISIBILITY_ALL: return "all";
        case D3D12_SHADER_VISIBILITY_VERTEX: return "vertex";
        case D3D12_SHADER_VISIBILITY_HULL: return "hull";
        case D3D12_SHADER_VISIBILITY_DOMAIN: return "domain";
        case D3D12_SHADER_VISIBILITY_GEOMETRY: return "geometry";
        case D3D12_SHADER_VISIBILITY_PIXEL: return "pixel";
        default: return "?";
    }
}

/// The visibility value of a graphics stage, and the root-signature flag denying it root access.
void StageVisibility(ShaderStage stage, D3D12_SHADER_VISIBILITY& vis, uint32_t& denyFlag) {
    switch (stage) {
        case ShaderStage::Vertex:
            vis = D3D12_SHADER_VISIBILITY_VERTEX;
            denyFlag = D3D12_ROOT_SIGNATURE_FLAG_DENY_VERTEX_SHADER_ROOT_ACCESS;
            return;
        case ShaderStage::Hull:
            vis = D3D12_SHADER_VISIBILITY_HULL;
            denyFlag = D3D12_ROOT_SIGNATURE_FLAG_DENY_HULL_SHADER_ROOT_ACCESS;
            return;
        case ShaderStage::Domain:
            vis = D3D12_SHADER_VISIBILITY_DOMAIN;
            denyFlag = D3D12_ROOT_SIGNATURE_FLAG_DENY_DOMAIN_SHADER_ROOT_ACCESS;
            return;
        case ShaderStage::Geometry:
            vis = D3D12_SHADER_VISIBILITY_GEOMETRY;
            denyFlag = D3D12_ROOT_SIGNATURE_FLAG_DENY_GEOMETRY_SHADER_ROOT_ACCESS;
            return;
        case ShaderStage::Pixel:
            vis = D3D12_SHADER_VISIBILITY_PIXEL;
            denyFlag = D3D12_ROOT_SIGNATURE_FLAG_DENY_PIXEL_SHADER_ROOT_ACCESS;
            return;
        default:
            vis = D3D12_SHADER_VISIBILITY_ALL;
            denyFlag = 0;
            return;
    }
}

BindingKind KindOfRange(RangeKind k) {
    switch (k) {
        case RangeKind::Srv: return BindingKind::Srv;
        case RangeKind::Uav: return BindingKind::Uav;
        case RangeKind::Cbv: return BindingKind::Cbv;
        case RangeKind::Sampler: return BindingKind::Sampler;
    }
    return BindingKind::Srv;
}

const char* RegisterClassOf(BindingKind k) {
    switch (k) {
        case BindingKind::Cbv: return "b";
        case BindingKind::Srv: return "t";
        case BindingKind::Uav: return "u";
        case BindingKind::Sampler: return "s";
    }
    return "?";
}

std::string Registers(BindingKind k, uint32_t base, uint32_t count, uint32_t space) {
    std::string s = RegisterClassOf(k) + std::to_string(base);
    if (count == kUnboundedRange) s += "..unbounded";
    else if (count > 1) s += std::string("..") + RegisterClassOf(k) + std::to_string(uint64_t(base) + count - 1);
    return s + " space" + std::to_string(space);
}

/// One root-signature entry that could provide registers: a parameter, a range or a sampler.
struct Cover {
    BindingKind kind;
    uint64_t lo, hi;  // registers [lo, hi)
    uint32_t space;
    D3D12_SHADER_VISIBILITY visibility;
    bool rootDescriptor;     // root CBV/SRV/UAV (rule 2)
    uint32_t rootConstants;  // 32-bit values, when root constants (rule 4)
    std::string name;        // "root parameter 2 (DescriptorTable range 0)"
};

std::vector<Cover> Covers(const std::vector<RootParameterDesc>& params, const std::vector<StaticSamplerDesc>& samplers) {
    std::vector<Cover> out;
    for (size_t i = 0; i < params.size(); ++i) {
        const RootParameterDesc& p = params[i];
        const std::string at = "root parameter " + std::to_string(i);
        switch (p.kind) {
            case RootParamKind::Constants:
                out.push_back({BindingKind::Cbv, p.shaderRegister, uint64_t(p.shaderRegister) + 1, p.space, p.visibility, false, p.num32BitValues,
                               at + " (RootConstants)"});
                break;
            case RootParamKind::Cbv:
            case RootParamKind::Srv:
            case RootParamKind::Uav: {
                const BindingKind k = p.kind == RootParamKind::Cbv   ? BindingKind::Cbv
                                      : p.kind == RootParamKind::Srv ? BindingKind::Srv
                                                                     : BindingKind::Uav;
                const char* n = p.kind == RootParamKind::Cbv ? " (root CBV)" : p.kind == RootParamKind::Srv ? " (root SRV)" : " (root UAV)";
                out.push_back({k, p.shaderRegister, uint64_t(p.shaderRegister) + 1, p.space, p.visibility, true, 0, at + n});
                break;
            }
            case RootParamKind::Table:
                for (size_t r = 0; r < p.ranges.size(); ++r) {
                    const DescriptorRangeDesc& d = p.ranges[r];
                    const uint64_t hi = d.count == kUnboundedRange ? kInfinity : uint64_t(d.shaderRegister) + d.count;
                    out.push_back({KindOfRange(d.kind), d.shaderRegister, hi, d.space, p.visibility, false, 0,
                                   at + " (DescriptorTable range " + std::to_string(r) + ")"});
                }
                break;
        }
    }
    for (size_t i = 0; i < samplers.size(); ++i)
        out.push_back({BindingKind::Sampler, samplers[i].shaderRegister, uint64_t(samplers[i].shaderRegister) + 1, samplers[i].space,
                       samplers[i].visibility, false, 0, "static sampler " + std::to_string(i)});
    return out;
}

std::string Lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string ElementName(const SignatureElement& e) {
    return e.semantic + (e.semanticIndex ? std::to_string(e.semanticIndex) : std::string());
}

}  // namespace

std::string DescribeRootSignature(const RootSignature& rs) {
    std::string s;
    const auto& params = rs.Parameters();
    for (size_t i = 0; i < params.size(); ++i) {
        const RootParameterDesc& p = params[i];
        s += "\n  [" + std::to_string(i) + "] ";
        switch (p.kind) {
            case RootParamKind::Constants:
                s += "RootConstants " + Registers(BindingKind::Cbv, p.shaderRegister, 1, p.space) + " (" + std::to_string(p.num32BitValues) +
                     " values)";
                break;
            case RootParamKind::Cbv: s += "RootCBV " + Registers(BindingKind::Cbv, p.shaderRegister, 1, p.space); break;
            case RootParamKind::Srv: s += "RootSRV " + Registers(BindingKind::Srv, p.shaderRegister, 1, p.space); break;
            case RootParamKind::Uav: s += "RootUAV " + Registers(BindingKind::Uav, p.shaderRegister, 1, p.space); break;
            case RootParamKind::Table:
                s += "DescriptorTable(";
                for (size_t r = 0; r < p.ranges.size(); ++r) {
                    const DescriptorRangeDesc& d = p.ranges[r];
                    static const char* const kNames[] = {"SRV", "UAV", "CBV", "Sampler"};
                    s +=
                        (r ? ", " : "") + std::string(kNames[int(d.kind)]) + " " + Registers(KindOfRange(d.kind), d.shaderRegister, d.count, d.space);
                }
                s += ")";
                break;
        }
        s += std::string(", visibility ") + VisibilityName(p.visibility);
    }
    const auto& samplers = rs.StaticSamplers();
    for (size_t i = 0; i < samplers.size(); ++i)
        s += "\n  StaticSampler " + Registers(BindingKind::Sampler, samplers[i].shaderRegister, 1, samplers[i].space) + ", visibility " +
             VisibilityName(samplers[i].visibility);
    if (params.empty() && samplers.empty()) s += " nothing (no parameters, no static samplers)";
    return s;
}

void CheckShaderBindings(const char* what, const DxbcReflection& shader, const RootSignature& rs) {
    const bool compute = shader.stage == ShaderStage::Compute;
    D3D12_SHADER_VISIBILITY stageVis;
    uint32_t denyFlag;
    StageVisibility(shader.stage, stageVis, denyFlag);
    const bool denied = !compute && denyFlag && (rs.Flags() & denyFlag);
    const std::vector<Cover> covers = Covers(rs.Parameters(), rs.StaticSamplers());
    const std::string stageName = std::string(shader.StageName()) + " shader";
    for (const ShaderBinding& b : shader.bindings) {
        const uint64_t lo = b.shaderRegister;
        const uint64_t hi = b.count == 0 ? kInfinity : lo + b.count;
        auto fail = [&](uint64_t reg, const std::string& why) {
            const std::string regName = RegisterClassOf(b.kind) + std::to_string(reg) + " space" + std::to_string(b.space);
            throw InvalidArgument(std::string(what) + ": the " + stageName + " uses " + regName + " (" + b.TypeName() + " '" + b.name + "'" +
                                  (b.count != 1 ? ", registers " + b.RegisterName() : std::string()) + "), but " + why +
                                  ". The root signature has:" + DescribeRootSignature(rs));
        };
        // The covers usable here, as intervals; the notes explain near misses.
        std::vector<std::pair<uint64_t, uint64_t>> good;
        std::string note;
        for (const Cover& c : covers) {
            if (c.kind != b.kind || c.space != b.space || c.hi <= lo || c.lo >= hi) continue;
            const bool visible = compute || (!denied && (c.visibility == D3D12_SHADER_VISIBILITY_ALL || c.visibility == stageVis));
            if (!visible) {
                if (note.empty())
                    note = denied ? "the root signature's flags deny the " + stageName + " root access"
                                  : c.name + " provides it but is visible to the " + VisibilityName(c.visibility) + " stage only";
                continue;
            }
            if (c.rootDescriptor && !b.CanBeRootDescriptor()) {
                note = c.name + " provides it, but D3D12 allows only constant buffers and raw or structured buffers as root descriptors; put the " +
                       b.TypeName() + " in a DescriptorTable range instead";
                continue;
            }
            if (c.rootConstants && b.cbufferUsedBytes > uint64_t(c.rootConstants) * 4) {
                throw InvalidArgument(std::string(what) + ": the " + stageName + "'s cbuffer '" + b.name + "' at " + b.RegisterName() + " uses " +
                                      std::to_string(b.cbufferUsedBytes) + " bytes, but " + c.name + " holds " + std::to_string(c.rootConstants) +
                                      " 32-bit values (" + std::to_string(uint64_t(c.rootConstants) * 4) + " bytes)");
            }
            good.push_back({std::max(c.lo, lo), std::min(c.hi, hi)});
        }
        std::sort(good.begin(), good.end());
        uint64_t next = lo;
        for (const auto& g : good) {
            if (g.first > next) break;
            next = std::max(next, g.second);
        }
        if (next < hi) fail(next, note.empty() ? "no root parameter, descriptor range or static sampler visible to it provides it" : note);
    }
}

// ---- flags ---------------------------------------------------------------------------------
// D3D12's values (d3d12.h). Bits the D3D12 of vkd3d 1.2 (its headers stop at ID3D12Device1 /
// root signature 1.1) does not define are refused by name rather than passed on.

const FlagBit kRootSignatureFlagBits[] = {
    {0x1, "ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT", nullptr},
    {0x2, "DENY_VERTEX_SHADER_ROOT_ACCESS", nullptr},
    {0x4, "DENY_HULL_SHADER_ROOT_ACCESS", nullptr},
    {0x8, "DENY_DOMAIN_SHADER_ROOT_ACCESS", nullptr},
    {0x10, "DENY_GEOMETRY_SHADER_ROOT_ACCESS", nullptr},
    {0x20, "DENY_PIXEL_SHADER_ROOT_ACCESS", nullptr},
    {0x40, "ALLOW_STREAM_OUTPUT", nullptr},
    {0x80, "LOCAL_ROOT_SIGNATURE", "a DirectX Raytracing flag; vkd3d 1.2 has no raytracing"},
    {0x100, "DENY_AMPLIFICATION_SHADER_ROOT_ACCESS", "mesh-shader pipelines (D3D12 Ultimate) are not in vkd3d 1.2"},
    {0x200, "DENY_MESH_SHADER_ROOT_ACCESS", "mesh-shader pipelines (D3D12 Ultimate) are not in vkd3d 1.2"},
    {0x400, "CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED", "shader model 6.6 dynamic resources need DXIL, which vkd3d 1.2 does not run"},
    {0x800, "SAMPLER_HEAP_DIRECTLY_INDEXED", "shader model 6.6 dynamic resources need DXIL, which vkd3d 1.2 does not run"},
    {0, nullptr, nullptr},
};
const FlagBit kDescriptorRangeFlagBits[] = {
    {0x1, "DESCRIPTORS_VOLATILE", nullptr},
    {0x2, "DATA_VOLATILE", nullptr},
    {0x4, "DATA_STATIC_WHILE_SET_AT_EXECUTE", nullptr},
    {0x8, "DATA_STATIC", nullptr},
    {0x10000, "DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS", "a later D3D12 flag (root signature 1.1 of vkd3d 1.2 does not define it)"},
    {0, nullptr, nullptr},
};
const FlagBit kRootDescriptorFlagBits[] = {
    {0x2, "DATA_VOLATILE", nullptr},
    {0x4, "DATA_STATIC_WHILE_SET_AT_EXECUTE", nullptr},
    {0x8, "DATA_STATIC", nullptr},
    {0, nullptr, nullptr},
};

namespace {
uint32_t CheckFlagBits(uint32_t flags, const FlagBit* table, const char* kind, const char* what) {
    uint32_t known = 0;
    for (const FlagBit* f = table; f->name; ++f) {
        known |= f->bit;
        if ((flags & f->bit) && f->refused)
            throw InvalidArgument(std::string(what) + ": " + kind + " " + f->name + " is not supported: " + f->refused);
    }
    if (flags & ~known) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%X", flags & ~known);
        std::string names;
        for (const FlagBit* f = table; f->name; ++f)
            if (!f->refused) names += (names.empty() ? "" : ", ") + std::string(f->name);
        throw InvalidArgument(std::string(what) + ": " + kind + " bits " + hex + " are not D3D12 " + kind + "s (known: " + names + ")");
    }
    return flags;
}
constexpr uint32_t kDataFlags = 0x2 | 0x4 | 0x8;
uint32_t CheckOneDataFlag(uint32_t flags, const char* what) {
    const uint32_t data = flags & kDataFlags;
    if (data & (data - 1))
        throw InvalidArgument(std::string(what) +
                              ": DATA_VOLATILE, DATA_STATIC_WHILE_SET_AT_EXECUTE and DATA_STATIC exclude each other "
                              "(D3D12 takes at most one)");
    return flags;
}
}  // namespace

uint32_t CheckRootSignatureFlags(uint32_t flags, const char* what) {
    return CheckFlagBits(flags, kRootSignatureFlagBits, "root signature flag", what);
}

uint32_t CheckDescriptorRangeFlags(uint32_t flags, RangeKind kind, const char* what) {
    CheckFlagBits(flags, kDescriptorRangeFlagBits, "descriptor range flag", what);
    if (kind == RangeKind::Sampler && (flags & kDataFlags))
        throw InvalidArgument(std::string(what) +
                              ": a sampler range takes DESCRIPTORS_VOLATILE only (samplers have no data; D3D12 refuses DATA_* flags there)");
    // D3D12's root-signature validation (and DXC's): descriptors that may change while the list
    // runs cannot promise static data ("Descriptor range flags cannot specify DESCRIPTORS_VOLATILE
    // with the DATA_STATIC flag at the same time").
    if ((flags & 0x1) && (flags & 0x8))
        throw InvalidArgument(std::string(what) +
                              ": DESCRIPTORS_VOLATILE and DATA_STATIC exclude each other (D3D12 refuses the "
                              "root signature: volatile descriptors cannot promise static data)");
    return CheckOneDataFlag(flags, what);
}

uint32_t CheckRootDescriptorFlags(uint32_t flags, const char* what) {
    return CheckOneDataFlag(CheckFlagBits(flags, kRootDescriptorFlagBits, "root descriptor flag", what), what);
}

namespace {
/// The bytes a cbuffer's variables span (its declared size when reflection gives no variables).
uint32_t CbufferBytes(const ShaderBinding& b) {
    return b.cbufferUsedBytes ? b.cbufferUsedBytes : b.cbufferSize;
}
/// PipelineRootUse::cbuffers: keeps the declaration spanning the most bytes at `key`.
void NoteCbuffer(PipelineRootUse& use, uint64_t key, const ShaderBinding& b) {
    auto it = use.cbuffers.find(key);
    if (it == use.cbuffers.end()) use.cbuffers.emplace(key, b);
    else if (CbufferBytes(b) > CbufferBytes(it->second)) it->second = b;
}
/// Rule 6: `later` declares a sampler where `earlier` (another stage's) does; both must be of one
/// kind. `where` names the slot or static sampler (built only on a mismatch).
template <typename Where>
void CheckSamplerKindsAgree(const char* what, const PipelineRootUse::SamplerSlot& earlier, const PipelineRootUse::SamplerSlot& later, Where where) {
    if (earlier.binding.IsComparisonSampler() == later.binding.IsComparisonSampler()) return;
    auto declaration = [](const PipelineRootUse::SamplerSlot& s) {
        const ShaderBinding& b = s.binding;
        const std::string name = b.count == 1 ? b.name : b.name + "[" + std::to_string(s.element) + "]";
        return "the " + std::string(ShaderStageName(s.stage)) + " shader's " + b.TypeName() + " '" + name + "' at s" +
               std::to_string(uint64_t(b.shaderRegister) + s.element) + " space" + std::to_string(b.space);
    };
    throw InvalidArgument(std::string(what) + ": " + declaration(earlier) + " and " + declaration(later) + " both read " + where() +
                          ", but no sampler satisfies both: D3D12 requires a comparison filter for a SamplerComparisonState and a "
                          "non-comparison filter for a SamplerState (the result is undefined otherwise). Declare the same kind in both "
                          "stages, or give each stage a sampler of its own (another register, or a sampler table or static sampler "
                          "visible to that stage only)");
}
}  // namespace

void NoteShaderRootUse(const char* what, const DxbcReflection& shader, const RootSignature& rs, PipelineRootUse& use) {
    const bool compute = shader.stage == ShaderStage::Compute;
    D3D12_SHADER_VISIBILITY stageVis;
    uint32_t denyFlag;
    StageVisibility(shader.stage, stageVis, denyFlag);
    if (!compute && denyFlag && (rs.Flags() & denyFlag)) return;  // the stage sees no root parameter
    const std::vector<RootParameterDesc>& params = rs.Parameters();
    for (const ShaderBinding& b : shader.bindings) {
        const uint64_t lo = b.shaderRegister;
        const uint64_t hi = b.count == 0 ? lo + kUnboundedTableSlots : lo + b.count;
        for (uint32_t i = 0; i < params.size() && i < 64; ++i) {
            const RootParameterDesc& p = params[i];
            if (!compute && p.visibility != D3D12_SHADER_VISIBILITY_ALL && p.visibility != stageVis) continue;
            if (p.kind != RootParamKind::Table) {
                const BindingKind k = p.kind == RootParamKind::Constants || p.kind == RootParamKind::Cbv ? BindingKind::Cbv
                                      : p.kind == RootParamKind::Srv                                     ? BindingKind::Srv
                                                                                                         : BindingKind::Uav;
                if (k == b.kind && p.space == b.space && p.shaderRegister >= lo && p.shaderRegister < hi) {
                    use.readParameters |= uint64_t(1) << i;
                    if (p.kind == RootParamKind::Cbv) NoteCbuffer(use, (uint64_t(i) << 32) | 0xFFFFFFFFu, b);
                    if (p.kind == RootParamKind::Constants) {
                        const uint32_t bytes = b.cbufferUsedBytes ? b.cbufferUsedBytes : b.cbufferSize;
                        const uint32_t values = std::min<uint32_t>({(bytes + 3) / 4, p.num32BitValues, 64u});
                        use.constantsRead[i] = uint8_t(std::max<uint32_t>(use.constantsRead[i], values ? values : p.num32BitValues));
                    }
                }
                continue;
            }
            uint64_t next = 0;  // the table offset of an appended range (as RootSignature lays them out)
            for (const DescriptorRangeDesc& r : p.ranges) {
                const uint64_t start = r.offset == kAppendRange ? next : r.offset;
                const uint64_t count = r.count == kUnboundedRange ? kUnboundedTableSlots : r.count;
                next = start + count;
                if (KindOfRange(r.kind) != b.kind || r.space != b.space) continue;
                const uint64_t from = std::max<uint64_t>(lo, r.shaderRegister), to = std::min<uint64_t>(hi, uint64_t(r.shaderRegister) + count);
                if (from >= to) continue;
                use.readParameters |= uint64_t(1) << i;
                for (uint64_t reg = from; reg < to; ++reg) {
                    const uint64_t slot = start + (reg - r.shaderRegister);
                    if (slot > UINT32_MAX) break;
                    if (b.kind == BindingKind::Sampler) {
                        const PipelineRootUse::SamplerSlot declared{b, uint32_t(reg - lo), shader.stage};
                        const auto [it, added] = use.samplerSlots.emplace((uint64_t(i) << 32) | slot, declared);
                        if (!added)
                            CheckSamplerKindsAgree(what, it->second, declared, [&] {
                                return "sampler table root parameter " + std::to_string(i) + ", slot " + std::to_string(slot);
                            });
                    } else if (b.kind == BindingKind::Cbv) NoteCbuffer(use, (uint64_t(i) << 32) | slot, b);
                    else use.tableSlots.emplace((uint64_t(i) << 32) | slot, b);
                }
            }
        }
        if (b.kind != BindingKind::Sampler) continue;
        const std::vector<StaticSamplerDesc>& samplers = rs.StaticSamplers();
        for (uint32_t i = 0; i < samplers.size(); ++i) {
            const StaticSamplerDesc& s = samplers[i];
            if (!compute && s.visibility != D3D12_SHADER_VISIBILITY_ALL && s.visibility != stageVis) continue;
            if (s.space != b.space || s.shaderRegister < lo || s.shaderRegister >= hi) continue;
            const PipelineRootUse::SamplerSlot declared{b, uint32_t(s.shaderRegister - lo), shader.stage};
            const auto [it, added] = use.staticSamplers.emplace(i, declared);
            if (!added) CheckSamplerKindsAgree(what, it->second, declared, [&] { return "static sampler " + std::to_string(i); });
        }
    }
}

void CheckStaticSamplerKinds(const char* what, const PipelineRootUse& use, const RootSignature& rs) {
    for (const auto& kv : use.staticSamplers) {
        const ShaderBinding& b = kv.second.binding;
        const bool comparison = IsComparisonFilter(rs.StaticSamplers()[kv.first].filter);
        if (comparison == b.IsComparisonSampler()) continue;
        throw InvalidArgument(std::string(what) + ": the " + ShaderStageName(kv.second.stage) + " shader's " + b.TypeName() + " '" + b.name +
                              "' at " + b.RegisterName() + " reads static sampler " + std::to_string(kv.first) + ", whose filter is " +
                              (comparison ? "a comparison filter" : "not a comparison filter") + "; D3D12 requires " +
                              (b.IsComparisonSampler() ? "a comparison filter (comparison_min_mag_mip_point, ...) for a SamplerComparisonState"
                                                       : "a non-comparison filter for a SamplerState") +
                              " (the result is undefined otherwise; vkd3d returns unfiltered texels or comparisons)");
    }
}

void CheckRootSignatureOverlaps(const std::vector<RootParameterDesc>& params, const std::vector<StaticSamplerDesc>& samplers) {
    const std::vector<Cover> covers = Covers(params, samplers);
    for (size_t i = 0; i < covers.size(); ++i) {
        for (size_t j = i + 1; j < covers.size(); ++j) {
            const Cover &a = covers[i], &b = covers[j];
            if (a.kind != b.kind || a.space != b.space || a.hi <= b.lo || b.hi <= a.lo) continue;
            if (a.visibility != b.visibility && a.visibility != D3D12_SHADER_VISIBILITY_ALL && b.visibility != D3D12_SHADER_VISIBILITY_ALL) continue;
            const uint64_t reg = std::max(a.lo, b.lo);
            throw InvalidArgument("root signature: " + a.name + " and " + b.name + " both provide " + RegisterClassOf(a.kind) + std::to_string(reg) +
                                  " space" + std::to_string(a.space) +
                                  (a.visibility == D3D12_SHADER_VISIBILITY_ALL && b.visibility == D3D12_SHADER_VISIBILITY_ALL
                                       ? std::string(" to every stage")
                                       : std::string(" to the ") +
                                             VisibilityName(a.visibility == D3D12_SHADER_VISIBILITY_ALL ? b.visibility : a.visibility) + " stage") +
                                  " (D3D12 refuses overlapping register ranges within one visibility)");
        }
    }
}

namespace {
/// Rule 5 over one pair of signatures: `outs` of the stage `from`, `ins` of the stage `to`.
void CheckSignatureLinkage(const char* what, const char* from, const std::vector<SignatureElement>& outs, const char* to,
                           const std::vector<SignatureElement>& ins, const char* kind) {
    auto outputs = [&]() {
        std::string s;
        for (const SignatureElement& o : outs) s += (s.empty() ? "" : ", ") + ElementName(o) + " (o" + std::to_string(o.shaderRegister) + ")";
        return s.empty() ? std::string("none") : s;
    };
    for (const SignatureElement& in : ins) {
        // Generated by the rasterizer or input assembler when no earlier stage writes them.
        if (in.systemValue == 4 || in.systemValue == 5 || in.systemValue == 7 || in.systemValue == 9 || in.systemValue == 10) continue;
        const SignatureElement* match = nullptr;
        for (const SignatureElement& o : outs)
            if (o.semanticIndex == in.semanticIndex && o.stream == 0 && Lower(o.semantic) == Lower(in.semantic)) match = &o;
        const std::string head =
            std::string(what) + ": the " + to + " shader's " + kind + "input " + ElementName(in) + " (v" + std::to_string(in.shaderRegister) + ") ";
        if (!match)
            throw InvalidArgument(head + "is not an " + kind + "output of the " + from + " shader (its " + kind + "outputs: " + outputs() + ")");
        if (match->shaderRegister != in.shaderRegister)
            throw InvalidArgument(head + "is in a different register than the " + from + " shader's output (o" +
                                  std::to_string(match->shaderRegister) + "); D3D12 links stages by register: declare the " + to +
                                  " shader's inputs in the order of the " + from + " shader's outputs (its outputs: " + outputs() + ")");
        if (match->systemValue != in.systemValue || match->componentType != in.componentType)
            throw InvalidArgument(head + "has another type or system value than the " + from + " shader's output " + ElementName(*match));
        const uint8_t unwritten = static_cast<uint8_t>(~match->mask | match->rwMask) & 0xF;
        if (in.rwMask & unwritten)
            throw InvalidArgument(head + "reads components the " + from + " shader's output " + ElementName(*match) + " does not write");
    }
}
}  // namespace

void CheckStageLinkage(const char* what, const DxbcReflection& producer, const DxbcReflection& consumer) {
    CheckSignatureLinkage(what, producer.StageName(), producer.outputs, consumer.StageName(), consumer.inputs, "");
    // A domain shader's patch constants are the hull shader's (its PCSG chunk both times).
    if (producer.stage == ShaderStage::Hull && consumer.stage == ShaderStage::Domain)
        CheckSignatureLinkage(what, producer.StageName(), producer.patchConstants, consumer.StageName(), consumer.patchConstants, "patch-constant ");
}

}  // namespace dx12kit
