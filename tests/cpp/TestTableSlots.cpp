// Descriptor-table slots a pipeline reads must be set for its bind point (CommandList::CheckTableSlots),
// for C++ callers as for Python ones: D3D12 keeps graphics and compute root arguments apart, so views
// set while a graphics pipeline of the same root signature was bound are not the compute pipeline's.
#include <doctest.h>

#include "TestSupport.hpp"
#include "data/Shaders.generated.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <vector>

using namespace dx12kit;

namespace {
std::vector<uint8_t> ShaderBytes(const uint8_t* data, size_t size) {
    return std::vector<uint8_t>(data, data + size);
}
}  // namespace

TEST_CASE("device: a dispatch refuses table slots set only for the graphics bind point, then runs once they are set again") {
    auto dev = dx12kit_test::SharedDevice();
    auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    // One root signature for both: 4 constants (ps_constant's colour, cs_table's bias and count), a table of t0 and u0.
    auto rs =
        std::make_shared<RootSignature>(dev->Context(),
                                        std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 4, {}},
                                                                       {RootParamKind::Table, 0, 0, 0, {{RangeKind::Srv, 0}, {RangeKind::Uav, 0}}}},
                                        std::vector<StaticSamplerDesc>{});
    GraphicsPipelineDesc g;
    g.vs = ShaderBytes(dx12kit_test::shaders::vs_fullscreen, sizeof dx12kit_test::shaders::vs_fullscreen);
    g.ps = ShaderBytes(dx12kit_test::shaders::ps_constant, sizeof dx12kit_test::shaders::ps_constant);
    g.rtvFormats = {DXGI_FORMAT_R8G8B8A8_UNORM};
    auto gfx = std::make_shared<PipelineState>(dev->Context(), g, rs);
    auto cs =
        std::make_shared<PipelineState>(dev->Context(), ShaderBytes(dx12kit_test::shaders::cs_table, sizeof dx12kit_test::shaders::cs_table), rs);
    const uint32_t n = 4;
    auto src = dev->CreateBuffer(n * 4, false, D3D12_HEAP_TYPE_DEFAULT, "src");
    auto dst = dev->CreateBuffer(n * 4, true, D3D12_HEAP_TYPE_DEFAULT, "dst");
    auto rt = dev->CreateTexture2D(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, true, false, false, "rt");
    const uint32_t in[n] = {1, 2, 3, 4}, zeros[n] = {0, 0, 0, 0};
    auto cl = q->CreateCommandList(q);
    cl->Upload(src, in, n * 4, 0, 0);
    cl->Upload(dst, zeros, n * 4, 0, 0);
    cl->SetPipelineState(gfx);
    cl->SetRenderTargets({rt}, nullptr, 0);
    const uint32_t params[4] = {11, n, 0, 0};
    cl->SetConstants(0, params, 4, 0);
    cl->SetShaderResourceView(1, 0, src, 0, 0, DXGI_FORMAT_UNKNOWN);
    cl->SetUnorderedAccessView(1, 1, dst, 0);
    cl->Draw(3, 1, 0, 0);
    cl->SetPipelineState(cs);
    cl->SetConstants(0, params, 4, 0);
    CHECK_THROWS_WITH_AS(
        cl->Dispatch(1, 1, 1),
        doctest::Contains("which was set only while a graphics pipeline was bound: D3D12 keeps graphics and compute root arguments apart"),
        InvalidArgument);
    cl->SetShaderResourceView(1, 0, src, 0, 0, DXGI_FORMAT_UNKNOWN);
    cl->SetUnorderedAccessView(1, 1, dst, 0);
    cl->Dispatch(1, 1, 1);
    q->Wait(q->Execute({cl}));
    std::vector<uint32_t> out(n);
    q->ReadBuffer(q, dst, out.data(), n * 4);
    CHECK(out == std::vector<uint32_t>{14, 17, 20, 23});
}
