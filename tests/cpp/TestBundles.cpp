// Bundles (dx12kit/gpu/Bundle.hpp): the table of calls a bundle may not record, the checks made while
// recording, and a compute bundle replayed from direct lists (numbers read back). Also measures what
// the backend's native ExecuteBundle does (vkd3d 1.2: a stub, which is why dx12kit replays bundles).
#include <doctest.h>

#include "TestSupport.hpp"
#include "data/Shaders.generated.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/gpu/Bundle.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <functional>
#include <set>
#include <string>
#include <vector>

using namespace dx12kit;
using dx12kit_test::SharedDevice;

namespace {

std::shared_ptr<PipelineState> RootUavPipeline(Device& dev) {
    auto rs = std::make_shared<RootSignature>(
        dev.Context(), std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 3, {}}, {RootParamKind::Uav, 0, 0, 0, {}}},
        std::vector<StaticSamplerDesc>{});
    return std::make_shared<PipelineState>(
        dev.Context(), std::vector<uint8_t>(std::begin(dx12kit_test::shaders::cs_root_uav), std::end(dx12kit_test::shaders::cs_root_uav)), rs);
}

std::vector<uint32_t> ReadUints(const std::shared_ptr<CommandQueue>& q, const std::shared_ptr<Buffer>& b) {
    std::vector<uint32_t> out(b->Size() / 4);
    q->ReadBuffer(q, b, out.data(), b->Size());
    return out;
}

std::string Message(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_SUITE("device") {

TEST_CASE("bundle rules: each refused call names its D3D12 restriction; the calls a bundle records are not refused") {
    std::set<std::string> names;
    for (const bundlerules::Refusal& r : bundlerules::Refusals()) {
        CHECK(names.insert(r.call).second);  // each call once
        CHECK(std::string(r.rule).find("D3D12") != std::string::npos);
        CHECK(bundlerules::RefusalRule(r.call) == r.rule);
    }
    const std::pair<const char*, const char*> named[] = {
        {"transition_barrier", "ResourceBarrier"},
        {"uav_barrier", "ResourceBarrier"},
        {"resource_barriers", "ResourceBarrier"},
        {"clear_render_target", "ClearRenderTargetView"},
        {"clear_depth_stencil", "ClearDepthStencilView"},
        {"clear_unordered_access_view", "ClearUnorderedAccessView"},
        {"copy_resource", "CopyResource"},
        {"copy_buffer_region", "CopyBufferRegion"},
        {"upload", "copy"},
        {"resolve", "ResolveSubresource"},
        {"set_render_targets", "OMSetRenderTargets"},
        {"set_viewport", "RSSetViewports"},
        {"set_viewports", "RSSetViewports"},
        {"set_scissor", "RSSetScissorRects"},
        {"set_scissors", "RSSetScissorRects"},
        {"set_predication", "SetPredication"},
        {"begin_query", "BeginQuery"},
        {"end_query", "EndQuery"},
        {"resolve_query_data", "ResolveQueryData"},
        {"execute_bundle", "ExecuteBundle"},
    };
    for (const auto& [call, api] : named) {
        CAPTURE(call);
        const char* rule = bundlerules::RefusalRule(call);
        REQUIRE(rule != nullptr);
        CHECK(std::string(rule).find(api) != std::string::npos);
    }
    for (const char* allowed : {"set_pipeline_state", "set_constants", "set_root_cbv", "set_root_srv", "set_root_uav", "set_shader_resource_view",
                                "set_unordered_access_view", "set_constant_buffer_view", "set_sampler", "set_vertex_buffer", "set_index_buffer",
                                "set_dynamic_constant_buffer", "set_stencil_ref", "set_blend_factor", "draw", "draw_indexed", "dispatch"}) {
        CAPTURE(allowed);
        CHECK(bundlerules::RefusalRule(allowed) == nullptr);
    }
}

TEST_CASE("bundle: recording refuses work without a pipeline set in the bundle, root arguments before it, and calls once closed") {
    auto dev = SharedDevice();
    auto pso = RootUavPipeline(*dev);
    auto buf = dev->CreateBuffer(256, true, D3D12_HEAP_TYPE_DEFAULT, "data");
    Bundle b(dev->Context(), nullptr);
    const uint32_t c[3] = {1, 2, 3};
    // Rule 4: no inherited pipeline; root arguments change only after the bundle set the root signature.
    CHECK(Message([&] { b.Dispatch(1, 1, 1); }).find("does not inherit the calling list's pipeline state") != std::string::npos);
    CHECK_THROWS_AS(b.SetConstants(0, c, 3, 0), InvalidArgument);
    CHECK_THROWS_AS(b.SetRootView(RootParamKind::Uav, 1, buf, 0), InvalidArgument);
    CHECK(Message([&] { b.Refuse("clear_render_target"); }).find("ClearRenderTargetView") != std::string::npos);
    CHECK_THROWS_AS(b.Refuse("execute_bundle"), InvalidArgument);
    b.SetPipelineState(pso);
    CHECK_THROWS_AS(b.Draw(3, 1, 0, 0), InvalidArgument);                            // a compute pipeline
    CHECK_THROWS_AS(b.SetConstants(0, c, 3, 1), InvalidArgument);                    // 3 values at offset 1 of 3
    CHECK_THROWS_AS(b.SetRootView(RootParamKind::Cbv, 1, buf, 0), InvalidArgument);  // parameter 1 is a UAV
    b.SetConstants(0, c, 3, 0);
    b.Dispatch(1, 1, 1);
    CHECK(b.CommandCount() == 3);
    b.Close();
    CHECK(b.IsClosed());
    CHECK_THROWS_AS(b.Dispatch(1, 1, 1), UseAfterFree);
    // A bundle created with an initial pipeline records work at once.
    Bundle withInitial(dev->Context(), pso);
    withInitial.Dispatch(1, 1, 1);
    CHECK(withInitial.CommandCount() == 2);
}

TEST_CASE("bundle: replayed from two direct lists, twice in one, root constants inherited from the calling list") {
    auto dev = SharedDevice();
    auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    auto pso = RootUavPipeline(*dev);
    const uint32_t n = 100;
    auto buf = dev->CreateBuffer(n * 4, true, D3D12_HEAP_TYPE_DEFAULT, "data");
    auto bundle = std::make_shared<Bundle>(dev->Context(), nullptr);
    bundle->SetPipelineState(pso);  // the calling list's root signature: its root constants are inherited
    bundle->SetRootView(RootParamKind::Uav, 1, buf, 0);
    bundle->Dispatch((n + 63) / 64, 1, 1);

    auto cl = q->CreateCommandList(q);
    std::vector<uint32_t> in(n, 1);
    cl->Upload(buf, in.data(), n * 4, 0, 0);
    cl->SetPipelineState(pso);
    const uint32_t first[3] = {2, 1, n}, second[3] = {1, 100, n};
    cl->SetConstants(0, first, 3, 0);
    CHECK_THROWS_AS(cl->ExecuteBundle(bundle), InvalidArgument);  // not closed
    bundle->Close();
    cl->ExecuteBundle(bundle);
    cl->SetConstants(0, second, 3, 0);
    cl->ExecuteBundle(bundle);
    q->Wait(q->Execute({cl}));
    auto out = ReadUints(q, buf);
    size_t wrong = 0;
    for (uint32_t i = 0; i < n; ++i) wrong += out[i] != (1 * 2 + 1 + i) + 100 + i;
    CHECK(wrong == 0);

    // Another list, another frame: the same bundle, constants {1, 0, n}: data[i] += i.
    auto cl2 = q->CreateCommandList(q);
    cl2->SetPipelineState(pso);
    const uint32_t third[3] = {1, 0, n};
    cl2->SetConstants(0, third, 3, 0);
    cl2->ExecuteBundle(bundle);
    q->Wait(q->Execute({cl2}));
    out = ReadUints(q, buf);
    wrong = 0;
    for (uint32_t i = 0; i < n; ++i) wrong += out[i] != (1 * 2 + 1 + i) + 100 + i + i;
    CHECK(wrong == 0);

    // Rule 2: direct lists only.
    auto cq = dev->Queue(D3D12_COMMAND_LIST_TYPE_COMPUTE);
    auto ccl = cq->CreateCommandList(cq);
    CHECK(Message([&] { ccl->ExecuteBundle(bundle); }).find("direct command lists only") != std::string::npos);
}

TEST_CASE("bundle: the backend's native ExecuteBundle (measured; dx12kit replays bundles instead)") {
    // A native bundle dispatching the same shader, executed from a direct list. vkd3d 1.2 prints
    // "stub!" and records nothing: the buffer keeps its contents.
    auto dev = SharedDevice();
    auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    auto pso = RootUavPipeline(*dev);
    const uint32_t n = 64;
    auto buf = dev->CreateBuffer(n * 4, true, D3D12_HEAP_TYPE_DEFAULT, "data");
    ID3D12Device* d = dev->D3D12Device();
    ComPtr<ID3D12CommandAllocator> alloc;
    ComPtr<ID3D12GraphicsCommandList> native;
    HRESULT hr = d->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_BUNDLE, IID_ID3D12CommandAllocator, alloc.ReleaseAndGetVoidAddress());
    if (SUCCEEDED(hr))
        hr = d->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_BUNDLE, alloc.Get(), pso->D3D12PipelineState(), IID_ID3D12GraphicsCommandList,
                                  native.ReleaseAndGetVoidAddress());
    if (FAILED(hr)) {
        MESSAGE("native bundles: CreateCommandList(BUNDLE) failed, hr=" << hr);
        return;
    }
    const uint32_t params[3] = {1, 7, n};
    native->SetComputeRootSignature(pso->GetRootSignature()->D3D12RootSignature());
    native->SetComputeRoot32BitConstants(0, 3, params, 0);
    native->SetComputeRootUnorderedAccessView(1, buf->GpuAddress());
    native->Dispatch(1, 1, 1);
    REQUIRE(SUCCEEDED(native->Close()));
    auto cl = q->CreateCommandList(q);
    std::vector<uint32_t> in(n, 5);
    cl->Upload(buf, in.data(), n * 4, 0, 0);
    // (the tracker's barrier to UNORDERED_ACCESS may be batched past the native call: buffers have no layout on vkd3d)
    cl->TransitionBarrier(buf, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES);
    cl->RecordNative("execute_bundle (native)", [&](ID3D12GraphicsCommandList* l) { l->ExecuteBundle(native.Get()); });
    q->Wait(q->Execute({cl}));
    const auto out = ReadUints(q, buf);
    size_t ran = 0, untouched = 0;
    for (uint32_t i = 0; i < n; ++i) {
        ran += out[i] == 5 + 7 + i;
        untouched += out[i] == 5;
    }
    MESSAGE("native ExecuteBundle: " << ran << " of " << n << " values written as D3D12 says, " << untouched << " untouched");
    CHECK(ran + untouched == n);  // one or the other, never other numbers
}

}  // TEST_SUITE
