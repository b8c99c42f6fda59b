// Samplers: D3D12's rules for C++ callers (dx12kit/gpu/SamplerRules.hpp), and a measurement of what
// the backend samples for the settings platform::SamplerSupport marks: each is written into a
// sampler descriptor by ID3D12Device::CreateSampler directly (past dx12kit's refusal), sampled in a
// compute shader, and compared with D3D12's numbers. SamplerSupport must say true exactly where the
// backend gives D3D12's numbers; a backend that starts honouring one fails here until it says so.
#include <doctest.h>

#include "TestSupport.hpp"
#include "data/Shaders.generated.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/gpu/SamplerRules.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <array>
#include <cstring>
#include <vector>

using namespace dx12kit;
using dx12kit_test::SharedDevice;

namespace {

D3D12_SAMPLER_DESC PointClamp() {
    D3D12_SAMPLER_DESC d{};
    d.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    d.AddressU = d.AddressV = d.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    d.MaxAnisotropy = 1;
    d.MaxLOD = D3D12_FLOAT32_MAX;
    return d;
}

using Texel = std::array<float, 4>;

/// A 2x1 RGBA8 texture (red, green) sampled at u = u0 + du * i, i < 8, through a sampler descriptor
/// that ID3D12Device::CreateSampler writes from `raw` (dx12kit's checks are not asked).
std::vector<Texel> SampleRaw(const D3D12_SAMPLER_DESC& raw, float u0, float du) {
    auto dev = SharedDevice();
    auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    auto rs = std::make_shared<RootSignature>(dev->Context(),
                                              std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 2, {}},
                                                                             {RootParamKind::Table, 0, 0, 0, {{RangeKind::Srv, 0}}},
                                                                             {RootParamKind::Table, 0, 0, 0, {{RangeKind::Uav, 0}}},
                                                                             {RootParamKind::Table, 0, 0, 0, {{RangeKind::Sampler, 0}}}},
                                              std::vector<StaticSamplerDesc>{});
    auto pso = std::make_shared<PipelineState>(
        dev->Context(), std::vector<uint8_t>(std::begin(dx12kit_test::shaders::cs_sample), std::end(dx12kit_test::shaders::cs_sample)), rs);
    auto tex = dev->CreateTexture2D(2, 1, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, false, false, false, "red-green");
    auto out = dev->CreateBuffer(8 * 16, true, D3D12_HEAP_TYPE_DEFAULT, "texels");
    auto sampler = std::make_shared<Sampler>(dev->Context(), PointClamp());
    dev->D3D12Device()->CreateSampler(&raw, sampler->Handle());
    const uint8_t texels[8] = {255, 0, 0, 255, 0, 255, 0, 255};
    auto cl = q->CreateCommandList(q);
    cl->Upload(tex, texels, sizeof texels, 0, 0);
    cl->SetPipelineState(pso);
    uint32_t params[2];
    std::memcpy(&params[0], &u0, 4);
    std::memcpy(&params[1], &du, 4);
    cl->SetConstants(0, params, 2, 0);
    cl->SetShaderResourceView(1, 0, tex, 0, 1, DXGI_FORMAT_UNKNOWN);
    cl->SetUnorderedAccessView(2, 0, out, 0);
    cl->SetSampler(3, 0, sampler);
    cl->Dispatch(1, 1, 1);
    q->Wait(q->Execute({cl}));
    std::vector<Texel> back(8);
    q->ReadBuffer(q, out, back.data(), 8 * 16);
    return back;
}

constexpr Texel kRed{1, 0, 0, 1}, kGreen{0, 1, 0, 1}, kNone{0, 0, 0, 0};

}  // namespace

TEST_SUITE("samplers") {

TEST_CASE("samplers: D3D12's rules hold for C++ callers of Sampler and StaticSamplerDesc") {
    auto dev = SharedDevice();
    auto make = [&](void (*edit)(D3D12_SAMPLER_DESC&)) {
        D3D12_SAMPLER_DESC d = PointClamp();
        edit(d);
        return std::make_shared<Sampler>(dev->Context(), d);
    };
    CHECK_THROWS_AS(make([](D3D12_SAMPLER_DESC& d) { d.MaxAnisotropy = 0; }), InvalidArgument);
    CHECK_THROWS_AS(make([](D3D12_SAMPLER_DESC& d) { d.MaxAnisotropy = 17; }), InvalidArgument);
    CHECK_THROWS_AS(make([](D3D12_SAMPLER_DESC& d) { d.MipLODBias = 16.0f; }), InvalidArgument);
    CHECK_THROWS_AS(make([](D3D12_SAMPLER_DESC& d) { d.MipLODBias = -16.5f; }), InvalidArgument);
    CHECK_THROWS_AS(make([](D3D12_SAMPLER_DESC& d) {
                        d.MinLOD = 3;
                        d.MaxLOD = 2;
                    }),
                    InvalidArgument);
    CHECK_THROWS_AS(make([](D3D12_SAMPLER_DESC& d) { d.BorderColor[2] = 1.5f; }), InvalidArgument);
    CHECK_THROWS_AS(make([](D3D12_SAMPLER_DESC& d) { d.Filter = static_cast<D3D12_FILTER>(0x2); }), InvalidArgument);
    CHECK_THROWS_AS(make([](D3D12_SAMPLER_DESC& d) { d.ComparisonFunc = static_cast<D3D12_COMPARISON_FUNC>(9); }), InvalidArgument);
    CHECK(make([](D3D12_SAMPLER_DESC& d) {
              d.MipLODBias = 15.99f;
              d.MaxAnisotropy = 16;
          })
              ->Desc()
              .MipLODBias == 15.99f);
    // ComparisonFunc 0 (a zeroed desc): LESS_EQUAL for a comparison filter, never NEVER.
    CHECK(make([](D3D12_SAMPLER_DESC& d) { d.Filter = D3D12_FILTER_COMPARISON_MIN_MAG_MIP_POINT; })->Desc().ComparisonFunc ==
          D3D12_COMPARISON_FUNC_LESS_EQUAL);
    CHECK(make([](D3D12_SAMPLER_DESC&) {})->Desc().ComparisonFunc == D3D12_COMPARISON_FUNC_NEVER);
    CHECK(make([](D3D12_SAMPLER_DESC& d) {
              d.Filter = D3D12_FILTER_COMPARISON_MIN_MAG_MIP_POINT;
              d.ComparisonFunc = D3D12_COMPARISON_FUNC_GREATER;
          })
              ->Desc()
              .ComparisonFunc == D3D12_COMPARISON_FUNC_GREATER);

    StaticSamplerDesc s{};
    s.filter = D3D12_FILTER_COMPARISON_MIN_MAG_MIP_LINEAR;
    RootSignature rs(dev->Context(), {}, {s}, 0u);
    CHECK(rs.StaticSamplers()[0].comparison == D3D12_COMPARISON_FUNC_LESS_EQUAL);
    s.maxLod = -1.0f;
    CHECK_THROWS_AS(RootSignature(dev->Context(), {}, {s}, 0u), InvalidArgument);
    // A border colour the device does not sample right is refused at creation, transparent black never.
    s = StaticSamplerDesc{};
    s.address = D3D12_TEXTURE_ADDRESS_MODE_BORDER;
    CHECK_NOTHROW(RootSignature(dev->Context(), {}, {s}, 0u));
    s.borderColor = D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE;
    if (dev->Context()->Samplers().borderColors) CHECK_NOTHROW(RootSignature(dev->Context(), {}, {s}, 0u));
    else CHECK_THROWS_AS(RootSignature(dev->Context(), {}, {s}, 0u), InvalidArgument);
}

TEST_CASE("samplers: the backend samples border colours, mirror_once and min/max filters as SamplerSupport says" *
          DX12KIT_WINE_DEFECT("W1",
                              "descriptor-table bindings, 'Invalid heap for base descriptor' "
                              "(tests/cpp/wine_repros/descriptor_table.cpp)")) {
    const platform::SamplerSupport& support = SharedDevice()->Context()->Samplers();
    // u = -0.75, -0.25, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75: texel centres of the 2-texel row at 0.25, 0.75.
    const float u0 = -0.75f, du = 0.5f;

    D3D12_SAMPLER_DESC border = PointClamp();
    border.AddressU = D3D12_TEXTURE_ADDRESS_MODE_BORDER;
    const Texel white{1, 1, 1, 1};
    for (int i = 0; i < 4; ++i) border.BorderColor[i] = white[i];
    const std::vector<Texel> borderWant{white, white, kRed, kGreen, white, white, white, white};
    const std::vector<Texel> borderGot = SampleRaw(border, u0, du);
    CHECK(borderGot[2] == kRed);  // inside: the texture
    CHECK((borderGot == borderWant) == support.borderColors);
    if (!support.borderColors) CHECK(borderGot[0] == kNone);  // vkd3d 1.2: transparent black
    // Transparent black, which every backend here gives: what dx12kit allows everywhere.
    for (float& c : border.BorderColor) c = 0.0f;
    CHECK(SampleRaw(border, u0, du) == std::vector<Texel>{kNone, kNone, kRed, kGreen, kNone, kNone, kNone, kNone});

    // MIRROR_ONCE: |u|, then clamped to [0, 1].
    D3D12_SAMPLER_DESC once = PointClamp();
    once.AddressU = D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE;
    const std::vector<Texel> onceWant{kGreen, kRed, kRed, kGreen, kGreen, kGreen, kGreen, kGreen};
    CHECK((SampleRaw(once, u0, du) == onceWant) == support.mirrorOnce);

    // MINIMUM with linear min/mag: halfway between red and green, the component-wise minimum (0, 0, 0, 1).
    D3D12_SAMPLER_DESC minimum = PointClamp();
    minimum.Filter = D3D12_FILTER_MINIMUM_MIN_MAG_LINEAR_MIP_POINT;
    const std::vector<Texel> minGot = SampleRaw(minimum, 0.5f, 0.0f);
    CHECK((minGot[0] == Texel{0, 0, 0, 1}) == support.minMaxFiltering);
}

TEST_CASE("samplers: a sampler set by slot must match the shader's SamplerState / SamplerComparisonState at draws and dispatches") {
    CHECK(FilterName(D3D12_FILTER_MIN_MAG_MIP_POINT) == "min_mag_mip_point");
    CHECK(FilterName(D3D12_FILTER_COMPARISON_MIN_POINT_MAG_LINEAR_MIP_POINT) == "comparison_min_point_mag_linear_mip_point");
    CHECK(FilterName(D3D12_FILTER_MAXIMUM_ANISOTROPIC) == "maximum_anisotropic");
    CHECK(!IsComparisonFilter(D3D12_FILTER_MINIMUM_MIN_MAG_MIP_LINEAR));  // min/max reductions are not comparisons

    auto dev = SharedDevice();
    auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    auto rs = std::make_shared<RootSignature>(dev->Context(),
                                              std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 2, {}},
                                                                             {RootParamKind::Table, 0, 0, 0, {{RangeKind::Srv, 0}}},
                                                                             {RootParamKind::Table, 0, 0, 0, {{RangeKind::Uav, 0}}},
                                                                             {RootParamKind::Table, 0, 0, 0, {{RangeKind::Sampler, 0}}}},
                                              std::vector<StaticSamplerDesc>{});
    auto pso = std::make_shared<PipelineState>(
        dev->Context(), std::vector<uint8_t>(std::begin(dx12kit_test::shaders::cs_sample), std::end(dx12kit_test::shaders::cs_sample)), rs);
    pso->SetName("sample");
    auto tex = dev->CreateTexture2D(2, 1, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, false, false, false, "red-green");
    auto out = dev->CreateBuffer(8 * 16, true, D3D12_HEAP_TYPE_DEFAULT, "texels");
    D3D12_SAMPLER_DESC cmpDesc = PointClamp();
    cmpDesc.Filter = D3D12_FILTER_COMPARISON_MIN_MAG_MIP_POINT;
    auto compare = std::make_shared<Sampler>(dev->Context(), cmpDesc);
    auto point = std::make_shared<Sampler>(dev->Context(), PointClamp());
    const uint8_t texels[8] = {255, 0, 0, 255, 0, 255, 0, 255};
    auto cl = q->CreateCommandList(q);
    cl->Upload(tex, texels, sizeof texels, 0, 0);
    cl->SetPipelineState(pso);
    const float u[2] = {0.25f, 0.5f};  // texel 0 (red), then texel 1 (green) and past it (clamped)
    uint32_t params[2];
    std::memcpy(params, u, sizeof u);
    cl->SetConstants(0, params, 2, 0);
    cl->SetShaderResourceView(1, 0, tex, 0, 1, DXGI_FORMAT_UNKNOWN);
    cl->SetUnorderedAccessView(2, 0, out, 0);
    cl->SetSampler(3, 0, compare);
    CHECK_THROWS_WITH_AS(cl->Dispatch(1, 1, 1),
                         doctest::Contains("dispatch: pipeline 'sample' declares SamplerState 'smp' at s0, read through sampler table root "
                                           "parameter 3, slot 0, but sampler 'sampler' set there has filter comparison_min_mag_mip_point"),
                         InvalidArgument);
    CHECK_THROWS_AS(cl->Dispatch(1, 1, 1), InvalidArgument);  // still refused: nothing changed
    cl->SetSampler(3, 0, point);
    cl->Dispatch(1, 1, 1);
    q->Wait(q->Execute({cl}));
    std::vector<Texel> back(8);
    q->ReadBuffer(q, out, back.data(), 8 * 16);
    CHECK(back[0] == kRed);
    CHECK(back[1] == kGreen);
}

}  // TEST_SUITE
