// The pipeline description of dx12kit/gpu/PipelineDesc.hpp as a C++ engine uses it: presets,
// topology types and the checks PipelineState makes before it creates anything (the same on every
// platform). Pixels of each state are checked by the Python suite (tests/device/test_pipeline_states.py).
#include <doctest.h>

#include "TestSupport.hpp"
#include "data/Shaders.generated.hpp"

#include "dx12kit/core/Errors.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/gpu/PipelineDesc.hpp"

#include <string>
#include <vector>

using namespace dx12kit;

TEST_SUITE("host") {

TEST_CASE("pipeline description: presets and topology types") {
    CHECK(BlendPreset(BlendMode::None) == BlendStateDesc{});
    const BlendStateDesc alpha = BlendPreset(BlendMode::Alpha);
    CHECK(alpha.blendEnable);
    CHECK(alpha.srcBlend == D3D12_BLEND_SRC_ALPHA);
    CHECK(alpha.destBlend == D3D12_BLEND_INV_SRC_ALPHA);
    CHECK(alpha.destBlendAlpha == D3D12_BLEND_INV_SRC_ALPHA);
    CHECK(BlendPreset(BlendMode::Additive).destBlend == D3D12_BLEND_ONE);
    CHECK(TopologyType(D3D_PRIMITIVE_TOPOLOGY_POINTLIST) == D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT);
    CHECK(TopologyType(D3D_PRIMITIVE_TOPOLOGY_LINESTRIP_ADJ) == D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE);
    CHECK(TopologyType(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST_ADJ) == D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE);
    CHECK(TopologyType(D3D_PRIMITIVE_TOPOLOGY_32_CONTROL_POINT_PATCHLIST) == D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH);
    CHECK(TopologyType(static_cast<D3D_PRIMITIVE_TOPOLOGY>(65)) == D3D12_PRIMITIVE_TOPOLOGY_TYPE_UNDEFINED);
    CHECK(PatchControlPoints(D3D_PRIMITIVE_TOPOLOGY_4_CONTROL_POINT_PATCHLIST) == 4);
    CHECK(PatchControlPoints(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST) == 0);
}

}  // TEST_SUITE("host")

TEST_SUITE("device") {

TEST_CASE("pipeline description: D3D12's rules are checked before anything is created") {
    auto dev = dx12kit_test::SharedDevice();
    auto rs = std::make_shared<RootSignature>(dev->Core(), std::vector<RootParameterDesc>{
        {RootParamKind::Constants, 0, 0, 4, {}, D3D12_SHADER_VISIBILITY_PIXEL}}, std::vector<StaticSamplerDesc>{});
    GraphicsPipelineDesc g;
    g.vs.assign(dx12kit_test::shaders::vs_fullscreen, dx12kit_test::shaders::vs_fullscreen + sizeof dx12kit_test::shaders::vs_fullscreen);
    g.ps.assign(dx12kit_test::shaders::ps_constant, dx12kit_test::shaders::ps_constant + sizeof dx12kit_test::shaders::ps_constant);
    g.rtvFormats = {DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM};
    auto message = [&](const GraphicsPipelineDesc& desc) {
        try {
            PipelineState p(dev->Core(), desc, rs);
        } catch (const InvalidArgument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    GraphicsPipelineDesc three = g;
    three.blend = {BlendPreset(BlendMode::Alpha), BlendStateDesc{}, BlendStateDesc{}};
    CHECK(message(three).find("blend has 3 states for 2 render targets") != std::string::npos);
    GraphicsPipelineDesc colorAlpha = g;
    colorAlpha.blend = {BlendStateDesc{}, BlendPreset(BlendMode::Alpha)};
    colorAlpha.blend[1].srcBlendAlpha = D3D12_BLEND_SRC_COLOR;
    CHECK(message(colorAlpha).find("blend[1]: src_blend_alpha") != std::string::npos);
    GraphicsPipelineDesc hullOnly = g;
    hullOnly.hs = g.vs;
    CHECK(message(hullOnly).find("hs without ds") != std::string::npos);
    GraphicsPipelineDesc patches = g;
    patches.topology = D3D_PRIMITIVE_TOPOLOGY_3_CONTROL_POINT_PATCHLIST;
    CHECK(message(patches).find("a patch-list topology needs hs and ds") != std::string::npos);
    GraphicsPipelineDesc slots = g;
    slots.inputLayout = {{"A", 0, DXGI_FORMAT_R32_FLOAT, 0}, {"B", 0, DXGI_FORMAT_R32_FLOAT, 0, D3D12_APPEND_ALIGNED_ELEMENT, true, 1}};
    CHECK(message(slots).find("share slot 0") != std::string::npos);
    GraphicsPipelineDesc ok = g;
    ok.blend = {BlendPreset(BlendMode::Additive), BlendStateDesc{}};
    ok.blend[1].writeMask = D3D12_COLOR_WRITE_ENABLE_RED;  // ps_constant writes SV_Target0 only: target 1 is left undefined
    CHECK(message(ok).find("does not write SV_Target1") != std::string::npos);
    ok.blend[1].writeMask = 0;
    CHECK(message(ok).empty());
}

}  // TEST_SUITE("device")
