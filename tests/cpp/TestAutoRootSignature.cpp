// The automatic root signature's layout (dx12kit/gpu/AutoRootSignature.hpp) from hand-made
// reflections: a pure function, no device.
#include <doctest.h>

#include "dx12kit/gpu/AutoRootSignature.hpp"
#include "dx12kit/gpu/RootSignatureCheck.hpp"

#include <string>

using namespace dx12kit;

namespace {

ShaderBinding Binding(const char* name, BindingKind kind, uint32_t reg, uint32_t count = 1, uint32_t cbufferSize = 0) {
    ShaderBinding b;
    b.name = name;
    b.kind = kind;
    b.inputType = kind == BindingKind::Cbv ? 0u : kind == BindingKind::Sampler ? 3u : kind == BindingKind::Uav ? 4u : 2u;
    b.dimension = kind == BindingKind::Srv || kind == BindingKind::Uav ? 4u : 0u;
    b.shaderRegister = reg;
    b.count = count;
    b.cbufferSize = cbufferSize;
    return b;
}

DxbcReflection Stage(ShaderStage s, std::vector<ShaderBinding> bindings) {
    DxbcReflection r;
    r.stage = s;
    r.majorVersion = 5;
    r.bindings = std::move(bindings);
    return r;
}

}  // namespace

TEST_SUITE("host") {
TEST_CASE("automatic root signature: constants, root CBVs, then tables per visibility") {
    const DxbcReflection vs = Stage(ShaderStage::Vertex, {Binding("Scene", BindingKind::Cbv, 0, 1, 96), Binding("shared", BindingKind::Srv, 1)});
    const DxbcReflection ps = Stage(ShaderStage::Pixel, {Binding("Params", BindingKind::Cbv, 1, 1, 32), Binding("tex", BindingKind::Srv, 0),
                                                         Binding("shared", BindingKind::Srv, 1), Binding("smp", BindingKind::Sampler, 0)});
    const AutoRootLayout l = DeriveRootLayout({&vs, &ps}, false);
    REQUIRE(l.parameters.size() == 5);
    CHECK(l.parameters[0].kind == RootParamKind::Constants);
    CHECK(l.parameters[0].num32BitValues == 8);
    CHECK(l.parameters[0].visibility == D3D12_SHADER_VISIBILITY_PIXEL);
    CHECK(l.parameters[1].kind == RootParamKind::Cbv);
    CHECK(l.parameters[1].visibility == D3D12_SHADER_VISIBILITY_VERTEX);
    // 'shared' (t1 in both stages): one table visible to all; 'tex' in the pixel table; the sampler table last.
    CHECK(l.parameters[2].kind == RootParamKind::Table);
    CHECK(l.parameters[2].visibility == D3D12_SHADER_VISIBILITY_ALL);
    CHECK(l.parameters[2].ranges.size() == 1);
    CHECK(l.parameters[2].ranges[0].shaderRegister == 1);
    CHECK(l.parameters[3].visibility == D3D12_SHADER_VISIBILITY_PIXEL);
    CHECK(l.parameters[3].ranges[0].kind == RangeKind::Srv);
    CHECK(l.parameters[4].ranges[0].kind == RangeKind::Sampler);
    CHECK(l.flags == D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    CHECK_NOTHROW(CheckRootSignatureOverlaps(l.parameters, {}));
}

TEST_CASE("automatic root signature: different cbuffers at one register stay per stage; over 64 DWORDs constants become CBVs") {
    const DxbcReflection vs = Stage(ShaderStage::Vertex, {Binding("A", BindingKind::Cbv, 0, 1, 64)});
    const DxbcReflection ps = Stage(ShaderStage::Pixel, {Binding("B", BindingKind::Cbv, 0, 1, 64)});
    AutoRootLayout l = DeriveRootLayout({&vs, &ps}, false);
    REQUIRE(l.parameters.size() == 2);
    CHECK(l.parameters[0].visibility == D3D12_SHADER_VISIBILITY_VERTEX);
    CHECK(l.parameters[1].visibility == D3D12_SHADER_VISIBILITY_PIXEL);
    std::vector<ShaderBinding> many;
    for (uint32_t i = 0; i < 5; ++i) many.push_back(Binding(("C" + std::to_string(i)).c_str(), BindingKind::Cbv, i, 1, 64));
    const DxbcReflection cs = Stage(ShaderStage::Compute, many);
    l = DeriveRootLayout({&cs}, true);  // 5 x 16 = 80 DWORDs as constants: over 64
    REQUIRE(l.parameters.size() == 5);
    for (const RootParameterDesc& p : l.parameters) CHECK(p.kind == RootParamKind::Cbv);
    CHECK(l.flags == 0);
}
}  // TEST_SUITE
