#include "dx12kit/gpu/AutoRootSignature.hpp"

#include "dx12kit/base/Errors.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace dx12kit {

namespace {

D3D12_SHADER_VISIBILITY VisibilityOf(ShaderStage s) {
    switch (s) {
        case ShaderStage::Vertex: return D3D12_SHADER_VISIBILITY_VERTEX;
        case ShaderStage::Hull: return D3D12_SHADER_VISIBILITY_HULL;
        case ShaderStage::Domain: return D3D12_SHADER_VISIBILITY_DOMAIN;
        case ShaderStage::Geometry: return D3D12_SHADER_VISIBILITY_GEOMETRY;
        case ShaderStage::Pixel: return D3D12_SHADER_VISIBILITY_PIXEL;
        default: return D3D12_SHADER_VISIBILITY_ALL;
    }
}

/// One declaration, merged over the stages that declare it alike.
struct Entry {
    BindingKind kind;
    uint32_t space, reg, count;  // count 0: unbounded
    std::string name;
    uint32_t cbufferSize = 0;  // the largest of the stages' declared sizes
    std::vector<D3D12_SHADER_VISIBILITY> stages;
    bool split = false;  // overlaps another entry: one parameter per stage
};

uint64_t End(const Entry& e) {
    return e.count == 0 ? uint64_t(UINT32_MAX) + 1 : uint64_t(e.reg) + e.count;
}

RangeKind RangeOf(BindingKind k) {
    switch (k) {
        case BindingKind::Cbv: return RangeKind::Cbv;
        case BindingKind::Srv: return RangeKind::Srv;
        case BindingKind::Uav: return RangeKind::Uav;
        case BindingKind::Sampler: return RangeKind::Sampler;
    }
    return RangeKind::Srv;
}

/// A placed declaration: one entry at one visibility.
struct Placed {
    BindingKind kind;
    uint32_t space, reg, count, cbufferSize;
    D3D12_SHADER_VISIBILITY vis;
    auto Key() const { return std::make_tuple(int(vis), space, int(kind), reg); }
};

}  // namespace

AutoRootLayout DeriveRootLayout(const std::vector<const DxbcReflection*>& stages, bool compute) {
    std::vector<Entry> entries;
    for (const DxbcReflection* r : stages) {
        if (!r) continue;
        const D3D12_SHADER_VISIBILITY vis = compute ? D3D12_SHADER_VISIBILITY_ALL : VisibilityOf(r->stage);
        for (const ShaderBinding& b : r->bindings) {
            auto same = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) {
                return e.kind == b.kind && e.space == b.space && e.reg == b.shaderRegister && e.count == b.count && e.name == b.name;
            });
            if (same == entries.end()) {
                entries.push_back({b.kind, b.space, b.shaderRegister, b.count, b.name, b.cbufferSize, {vis}});
            } else {
                same->cbufferSize = std::max(same->cbufferSize, b.cbufferSize);
                if (std::find(same->stages.begin(), same->stages.end(), vis) == same->stages.end()) same->stages.push_back(vis);
            }
        }
    }
    // Different declarations at overlapping registers (two stages using b0 for different cbuffers):
    // each stays visible to its own stage only, so that no two parameters of one visibility overlap.
    for (size_t i = 0; i < entries.size(); ++i)
        for (size_t j = i + 1; j < entries.size(); ++j) {
            const Entry& a = entries[i];
            const Entry& b = entries[j];
            if (a.kind == b.kind && a.space == b.space && a.reg < End(b) && b.reg < End(a)) entries[i].split = entries[j].split = true;
        }
    std::vector<Placed> placed;
    for (const Entry& e : entries) {
        if (compute || (e.stages.size() > 1 && !e.split)) {
            placed.push_back({e.kind, e.space, e.reg, e.count, e.cbufferSize, D3D12_SHADER_VISIBILITY_ALL});
        } else {
            for (D3D12_SHADER_VISIBILITY v : e.stages) placed.push_back({e.kind, e.space, e.reg, e.count, e.cbufferSize, v});
        }
    }
    std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) { return a.Key() < b.Key(); });

    // Classify: root constants, root CBVs, table members.
    auto constantsOf = [](const Placed& p) { return std::max<uint32_t>(1, (p.cbufferSize + 3) / 4); };
    bool constantsAllowed = true, rootCbvsAllowed = true;
    auto isConstants = [&](const Placed& p) {
        return constantsAllowed && p.kind == BindingKind::Cbv && p.count == 1 && constantsOf(p) <= kAutoRootConstantsMax;
    };
    auto isRootCbv = [&](const Placed& p) { return rootCbvsAllowed && p.kind == BindingKind::Cbv && p.count == 1 && !isConstants(p); };
    auto build = [&]() {
        std::vector<RootParameterDesc> params;
        for (const Placed& p : placed)
            if (isConstants(p)) {
                RootParameterDesc d{RootParamKind::Constants};
                d.shaderRegister = p.reg;
                d.space = p.space;
                d.num32BitValues = constantsOf(p);
                d.visibility = p.vis;
                params.push_back(d);
            }
        for (const Placed& p : placed)
            if (isRootCbv(p)) {
                RootParameterDesc d{RootParamKind::Cbv};
                d.shaderRegister = p.reg;
                d.space = p.space;
                d.visibility = p.vis;
                params.push_back(d);
            }
        // Tables: per visibility, the views (bounded ranges together; an unbounded one alone), then the samplers.
        for (bool samplers : {false, true}) {
            std::map<int, RootParameterDesc> tables;  // by visibility
            for (const Placed& p : placed) {
                if ((p.kind == BindingKind::Sampler) != samplers || isConstants(p) || isRootCbv(p)) continue;
                DescriptorRangeDesc r{RangeOf(p.kind), p.reg, p.count == 0 ? kUnboundedRange : p.count, p.space};
                if (p.count == 0) {
                    RootParameterDesc d{RootParamKind::Table};
                    d.visibility = p.vis;
                    d.ranges.push_back(r);
                    tables.emplace(1000 + int(tables.size()), d);  // after the bounded tables
                    continue;
                }
                auto it = tables.find(int(p.vis));
                if (it == tables.end()) {
                    RootParameterDesc d{RootParamKind::Table};
                    d.visibility = p.vis;
                    it = tables.emplace(int(p.vis), d).first;
                }
                it->second.ranges.push_back(r);
            }
            for (auto& t : tables) params.push_back(std::move(t.second));
        }
        return params;
    };
    auto cost = [](const std::vector<RootParameterDesc>& params) {
        uint32_t n = 0;
        for (const RootParameterDesc& p : params) n += p.kind == RootParamKind::Constants ? p.num32BitValues : p.kind == RootParamKind::Table ? 1 : 2;
        return n;
    };
    AutoRootLayout out;
    out.parameters = build();
    if (cost(out.parameters) > 64) {
        constantsAllowed = false;
        out.parameters = build();
    }
    if (cost(out.parameters) > 64) {
        rootCbvsAllowed = false;
        out.parameters = build();
    }
    if (cost(out.parameters) > 64)
        throw InvalidArgument("automatic root signature: the shaders need " + std::to_string(cost(out.parameters)) +
                              " DWORDs of root arguments even with every constant buffer in a descriptor table (D3D12's limit is 64); "
                              "write the root signature by hand");
    out.flags = compute ? 0u : uint32_t(D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    return out;
}

}  // namespace dx12kit
