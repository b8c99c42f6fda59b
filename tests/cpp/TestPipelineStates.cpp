// The pipeline description of dx12kit/gpu/PipelineDesc.hpp as a C++ engine uses it: presets,
// topology types and the checks PipelineState makes before it creates anything (the same on every
// platform). Pixels of each state are checked by the Python suite (tests/device/test_pipeline_states.py).
#include <doctest.h>

#include "TestSupport.hpp"
#include "data/Shaders.generated.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/DepthBiasUnits.hpp"
#include "dx12kit/devicecontext/DeviceContext.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/platform/VulkanPipelineFixes.hpp"
#include "dx12kit/gpu/PipelineDesc.hpp"

#include <cstring>
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
    auto rs = std::make_shared<RootSignature>(dev->Context(),
                                              std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 4, {}, D3D12_SHADER_VISIBILITY_PIXEL}},
                                              std::vector<StaticSamplerDesc>{});
    GraphicsPipelineDesc g;
    g.vs.assign(dx12kit_test::shaders::vs_fullscreen, dx12kit_test::shaders::vs_fullscreen + sizeof dx12kit_test::shaders::vs_fullscreen);
    g.ps.assign(dx12kit_test::shaders::ps_constant, dx12kit_test::shaders::ps_constant + sizeof dx12kit_test::shaders::ps_constant);
    g.rtvFormats = {DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM};
    auto message = [&](const GraphicsPipelineDesc& desc) {
        try {
            PipelineState p(dev->Context(), desc, rs);
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

namespace {
std::vector<uint8_t> Bytes(const uint8_t* data, size_t size) {
    return std::vector<uint8_t>(data, data + size);
}
}  // namespace

TEST_CASE("pipeline states: the depth-bias probe finds a clean unit ratio on every depth format") {
    auto dev = dx12kit_test::SharedDevice();
    for (DXGI_FORMAT f : {DXGI_FORMAT_D16_UNORM, DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_D32_FLOAT, DXGI_FORMAT_D32_FLOAT_S8X24_UINT}) {
        const double ratio = dev->Context()->DepthBias().Ratio(f);
        INFO("format " << int(f) << " ratio " << ratio);
        CHECK((ratio == 1.0 || ratio == 2.0));  // D3D12's unit, or Vulkan's largest allowed (lavapipe on UNORM)
    }
}

TEST_CASE("pipeline states: depth bias on UNORM depth and the sample mask at one sample are D3D12's for C++ callers") {
    auto dev = dx12kit_test::SharedDevice();
    auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    auto rs = std::make_shared<RootSignature>(dev->Context(),
                                              std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 4, {}, D3D12_SHADER_VISIBILITY_PIXEL}},
                                              std::vector<StaticSamplerDesc>{});
    const uint32_t size = 8;
    // vs_fullscreen draws at z = 0: the stored depth is the bias itself, DepthBias steps of the format.
    for (const auto& [format, bits] : {std::pair{DXGI_FORMAT_D16_UNORM, 16u}, std::pair{DXGI_FORMAT_D24_UNORM_S8_UINT, 24u}}) {
        for (int32_t bias : {3, 1000}) {
            GraphicsPipelineDesc g;
            g.vs = Bytes(dx12kit_test::shaders::vs_fullscreen, sizeof dx12kit_test::shaders::vs_fullscreen);
            g.dsvFormat = format;
            g.depthStencil.depthTest = true;
            g.depthStencil.depthFunc = D3D12_COMPARISON_FUNC_ALWAYS;
            g.rasterizer.depthBias = bias;
            std::shared_ptr<PipelineState> pso;
            if (!platform::kPipelineFixes && dev->Context()->DepthBias().Ratio(format) != 1.0) {
                // A driver whose unit differs (Wine's vkd3d over lavapipe) and no fix: refused, never wrong.
                CHECK_THROWS_AS(std::make_shared<PipelineState>(dev->Context(), g, rs), InvalidArgument);
                continue;
            }
            pso = std::make_shared<PipelineState>(dev->Context(), g, rs);
            auto ds = dev->CreateTexture2D(size, size, format, 1, 1, false, true, false, "depth");
            auto cl = q->CreateCommandList(q);
            cl->SetPipelineState(pso);
            cl->SetRenderTargets({}, ds, 0);
            cl->ClearDepthStencil(ds, 1.0f, 0);
            cl->Draw(3, 1, 0, 0);
            q->Wait(q->Execute({cl}));
            std::vector<uint8_t> px(size_t(size) * size * (bits / 8 == 2 ? 2 : 4));
            q->ReadTexture(q, ds, 0, 0, px.data(), px.size());
            uint32_t stored = 0;
            std::memcpy(&stored, px.data(), bits == 16 ? 2 : 4);
            INFO("bits " << bits << " depth_bias " << bias);
            CHECK((stored & 0xFFFFFFu) == uint32_t(bias));
        }
    }
    // Sample mask 0xFFFFFFFE at one sample: bit 0 clear, nothing written.
    GraphicsPipelineDesc g;
    g.vs = Bytes(dx12kit_test::shaders::vs_fullscreen, sizeof dx12kit_test::shaders::vs_fullscreen);
    g.ps = Bytes(dx12kit_test::shaders::ps_constant, sizeof dx12kit_test::shaders::ps_constant);
    g.rtvFormats = {DXGI_FORMAT_R8G8B8A8_UNORM};
    for (uint32_t mask : {0xFFFFFFFEu, 0xFFFFFFFDu}) {
        g.sampleMask = mask;
        auto pso = std::make_shared<PipelineState>(dev->Context(), g, rs);
        auto rt = dev->CreateTexture2D(size, size, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, true, false, false, "target");
        const float white[4] = {1, 1, 1, 1}, black[4] = {0, 0, 0, 0};
        uint32_t bits[4];
        std::memcpy(bits, white, sizeof bits);
        auto cl = q->CreateCommandList(q);
        cl->SetPipelineState(pso);
        cl->SetRenderTargets({rt}, nullptr, 0);
        cl->ClearRenderTarget(rt, black, 0);
        cl->SetConstants(0, bits, 4, 0);
        cl->Draw(3, 1, 0, 0);
        q->Wait(q->Execute({cl}));
        std::vector<uint8_t> px(size_t(size) * size * 4);
        q->ReadTexture(q, rt, 0, 0, px.data(), px.size());
        INFO("sample mask " << mask);
        CHECK(px[0] == ((mask & 1u) ? 255 : 0));
    }
}

}  // TEST_SUITE("device")
