// ExecuteIndirect's referenced=: the buffers the commands' vertex/index buffer views and root
// CBV/SRV/UAV addresses point into go to the states the signature's arguments use them in (the union
// when it has several kinds; indirectrules::ReferencedState is the rule): VERTEX_AND_CONSTANT_BUFFER
// for vertex buffers and root CBVs, INDEX_BUFFER for index buffers, the shader-resource state of the
// root parameter's stages for root SRVs, UNORDERED_ACCESS for root UAVs. A signature that writes
// through root UAVs and reads through other arguments is refused with referenced buffers, naming the
// buffer; a referenced buffer the list also binds for reading gets both read states. Where the
// backend refuses the signature itself (vkd3d 1.2: everything but root CBVs before a draw, which are
// emulated) the test checks the rule alone; the Windows build (run under Wine) records the calls (not
// executed: the argument buffer's contents are not set) and checks the states the list's tracker
// holds for the buffers.
#include <doctest.h>

#include "TestSupport.hpp"
#include "data/Shaders.generated.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/CommandSignature.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/resources/Resource.hpp"
#include "dx12kit/resources/ResourceStateTracker.hpp"

#include <iterator>

using namespace dx12kit;
using dx12kit_test::SharedDevice;

namespace {

constexpr auto kVcb = D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER;
constexpr auto kIb = D3D12_RESOURCE_STATE_INDEX_BUFFER;
constexpr auto kNpsr = D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE;
constexpr auto kPsr = D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE;
constexpr auto kUav = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;

D3D12_INDIRECT_ARGUMENT_DESC Arg(D3D12_INDIRECT_ARGUMENT_TYPE type, uint32_t rootOrSlot = 0) {
    D3D12_INDIRECT_ARGUMENT_DESC a{};
    a.Type = type;
    if (type == D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW) a.VertexBuffer.Slot = rootOrSlot;
    else a.ConstantBufferView.RootParameterIndex = rootOrSlot;
    return a;
}

struct Fixture {
    std::shared_ptr<Device> dev = SharedDevice();
    std::shared_ptr<CommandQueue> q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    std::shared_ptr<Texture> rt = dev->CreateTexture2D(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, true, false, false, "referenced rt");
    std::shared_ptr<Resource> a = dev->CreateBuffer(256, true, D3D12_HEAP_TYPE_DEFAULT, "referenced a");
    std::shared_ptr<Resource> b = dev->CreateBuffer(256, true, D3D12_HEAP_TYPE_DEFAULT, "referenced b");
    std::shared_ptr<Resource> args = dev->CreateBuffer(256, false, D3D12_HEAP_TYPE_DEFAULT, "referenced arguments");
    std::shared_ptr<Resource> vertices = dev->CreateBuffer(256, false, D3D12_HEAP_TYPE_DEFAULT, "referenced vertices");
    // Root parameters: 0 four constants, 1 a CBV, 2 an SRV visible to all stages, 3 an SRV visible to
    // the pixel shader, 4 an SRV visible to the vertex shader, 5 a UAV.
    std::shared_ptr<RootSignature> rs =
        std::make_shared<RootSignature>(dev->Context(),
                                        std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 4, {}},
                                                                       {RootParamKind::Cbv, 1, 0, 0, {}},
                                                                       {RootParamKind::Srv, 0, 0, 0, {}, D3D12_SHADER_VISIBILITY_ALL},
                                                                       {RootParamKind::Srv, 1, 0, 0, {}, D3D12_SHADER_VISIBILITY_PIXEL},
                                                                       {RootParamKind::Srv, 2, 0, 0, {}, D3D12_SHADER_VISIBILITY_VERTEX},
                                                                       {RootParamKind::Uav, 1, 0, 0, {}}},
                                        std::vector<StaticSamplerDesc>{}, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);

    std::shared_ptr<PipelineState> Graphics() const {
        GraphicsPipelineDesc g;
        g.vs.assign(std::begin(dx12kit_test::shaders::vs_position), std::end(dx12kit_test::shaders::vs_position));
        g.ps.assign(std::begin(dx12kit_test::shaders::ps_constant), std::end(dx12kit_test::shaders::ps_constant));
        InputElementDesc position;
        position.semantic = "POSITION";
        position.format = DXGI_FORMAT_R32G32_FLOAT;
        g.inputLayout = {position};
        g.rtvFormats = {DXGI_FORMAT_R8G8B8A8_UNORM};
        return std::make_shared<PipelineState>(dev->Context(), g, rs);
    }
    std::shared_ptr<PipelineState> Compute() const {
        // cs_root_uav: constants b0 and a root UAV u0 (root parameters 0 and 1 of this root signature).
        auto crs = std::make_shared<RootSignature>(
            dev->Context(),
            std::vector<RootParameterDesc>{
                {RootParamKind::Constants, 0, 0, 3, {}}, {RootParamKind::Uav, 0, 0, 0, {}}, {RootParamKind::Srv, 0, 0, 0, {}}},
            std::vector<StaticSamplerDesc>{});
        return std::make_shared<PipelineState>(
            dev->Context(), std::vector<uint8_t>(std::begin(dx12kit_test::shaders::cs_root_uav), std::end(dx12kit_test::shaders::cs_root_uav)), crs);
    }
    std::shared_ptr<CommandList> DrawList() {
        auto cl = q->CreateCommandList(q);
        cl->SetPipelineState(Graphics());
        cl->SetRenderTargets({rt}, nullptr, 0);
        cl->SetVertexBuffer(0, vertices, 8, 0);
        const uint32_t colour[4] = {0x3f800000u, 0, 0, 0x3f800000u};
        cl->SetConstants(0, colour, 4, 0);
        return cl;
    }
    std::shared_ptr<CommandList> DispatchList(const std::shared_ptr<PipelineState>& pso) {
        auto cl = q->CreateCommandList(q);
        cl->SetPipelineState(pso);
        const uint32_t params[3] = {1, 0, 0};
        cl->SetConstants(0, params, 3, 0);
        return cl;
    }
    /// The signature, or null where the backend refuses it (checked to be refused, not to crash).
    std::shared_ptr<CommandSignature> Signature(std::vector<D3D12_INDIRECT_ARGUMENT_DESC> arguments, uint32_t stride,
                                                std::shared_ptr<RootSignature> root) {
        try {
            return std::make_shared<CommandSignature>(dev->Context(), std::move(arguments), stride, std::move(root));
        } catch (const InvalidArgument& e) {
            CHECK(std::string(e.what()).find("is not supported on") != std::string::npos);
            return nullptr;
        }
    }
    D3D12_RESOURCE_STATES Known(const std::shared_ptr<CommandList>& cl, const std::shared_ptr<Resource>& r) {
        return cl->Tracker().KnownState(r.get(), kAllSubresources);
    }
};

}  // namespace

TEST_CASE("execute_indirect referenced=: the rule maps each argument type to the state its buffers are used in") {
    using indirectrules::ReferencedState;
    const auto all = D3D12_SHADER_VISIBILITY_ALL;
    CHECK(ReferencedState(D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, all, false) == kVcb);
    CHECK(ReferencedState(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, all, false) == kVcb);
    CHECK(ReferencedState(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, all, true) == kVcb);
    CHECK(ReferencedState(D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW, all, false) == kIb);
    CHECK(ReferencedState(D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, all, false) == (kNpsr | kPsr));
    CHECK(ReferencedState(D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, D3D12_SHADER_VISIBILITY_PIXEL, false) == kPsr);
    CHECK(ReferencedState(D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, D3D12_SHADER_VISIBILITY_VERTEX, false) == kNpsr);
    CHECK(ReferencedState(D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, all, true) == kNpsr);
    CHECK(ReferencedState(D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, all, true) == kUav);
    CHECK(ReferencedState(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, all, false) == D3D12_RESOURCE_STATE_COMMON);
    CHECK(ReferencedState(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW, all, false) == D3D12_RESOURCE_STATE_COMMON);
}

TEST_SUITE("device") {

TEST_CASE("execute_indirect referenced=: vertex and index buffers go to VERTEX_AND_CONSTANT_BUFFER, INDEX_BUFFER, or both for a signature of both") {
    Fixture f;
    auto vb = f.Signature({Arg(D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, 0), Arg(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW)}, 32, nullptr);
    auto ib = f.Signature({Arg(D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW), Arg(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED)}, 36, nullptr);
    auto both = f.Signature({Arg(D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, 0), Arg(D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW),
                             Arg(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED)},
                            52, nullptr);
    if (!vb || !ib || !both) return;  // refused by the backend (checked in Signature)
    CHECK(vb->ReferencedStates() == kVcb);
    CHECK(ib->ReferencedStates() == kIb);
    CHECK(both->ReferencedStates() == (kVcb | kIb));
    auto cl = f.DrawList();
    cl->ExecuteIndirect(vb, 1, f.args, 0, nullptr, 0, {f.a});
    CHECK(f.Known(cl, f.a) == kVcb);
    cl->SetVertexBuffer(0, f.vertices, 8, 0);  // (the vb signature left slot 0 NULL)
    cl->ExecuteIndirect(ib, 1, f.args, 0, nullptr, 0, {f.a});
    CHECK(f.Known(cl, f.a) == kIb);
    // A referenced index buffer the list also binds as a vertex buffer: both read states.
    cl->ExecuteIndirect(ib, 1, f.args, 0, nullptr, 0, {f.vertices});
    CHECK(f.Known(cl, f.vertices) == (kVcb | kIb));
    cl->ExecuteIndirect(both, 1, f.args, 0, nullptr, 0, {f.a, f.b});
    CHECK(f.Known(cl, f.a) == (kVcb | kIb));
    CHECK(f.Known(cl, f.b) == (kVcb | kIb));
}

TEST_CASE("execute_indirect referenced=: root SRVs go to the shader-resource state of their stages, root CBVs to VERTEX_AND_CONSTANT_BUFFER") {
    Fixture f;
    auto srvAll = f.Signature({Arg(D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, 2), Arg(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW)}, 24, f.rs);
    auto srvPixel = f.Signature({Arg(D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, 3), Arg(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW)}, 24, f.rs);
    auto srvVertexCbv = f.Signature({Arg(D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, 4),
                                     Arg(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, 1), Arg(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW)},
                                    32, f.rs);
    auto cbv = f.Signature({Arg(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, 1), Arg(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW)}, 24, f.rs);
    REQUIRE(static_cast<bool>(cbv));  // emulated where the backend ignores root CBVs
    CHECK(cbv->ReferencedStates() == kVcb);
    auto cl = f.DrawList();
    cl->ExecuteIndirect(cbv, 1, f.args, 0, nullptr, 0, {f.a});
    // (the emulation's pass also reads it: NON_PIXEL_SHADER_RESOURCE with it)
    CHECK(f.Known(cl, f.a) == (cbv->EmulatesCbvs() ? (kVcb | kNpsr) : kVcb));
    if (srvAll && srvPixel && srvVertexCbv) {
        CHECK(srvAll->ReferencedStates() == (kNpsr | kPsr));
        CHECK(srvPixel->ReferencedStates() == kPsr);
        CHECK(srvVertexCbv->ReferencedStates() == (kNpsr | kVcb));
        cl->ExecuteIndirect(srvAll, 1, f.args, 0, nullptr, 0, {f.a});
        CHECK(f.Known(cl, f.a) == (kNpsr | kPsr));
        cl->ExecuteIndirect(srvPixel, 1, f.args, 0, nullptr, 0, {f.b});
        CHECK(f.Known(cl, f.b) == kPsr);
        cl->ExecuteIndirect(srvVertexCbv, 1, f.args, 0, nullptr, 0, {f.a});
        CHECK(f.Known(cl, f.a) == (kNpsr | kVcb));
    }
}

TEST_CASE("execute_indirect referenced=: root UAVs go to UNORDERED_ACCESS, and a buffer both written and read by one signature is refused") {
    Fixture f;
    auto pso = f.Compute();
    auto root = pso->GetRootSignature();
    auto uav = f.Signature({Arg(D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, 1), Arg(D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH)}, 20, root);
    auto srv = f.Signature({Arg(D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, 2), Arg(D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH)}, 20, root);
    auto mixed = f.Signature({Arg(D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, 2), Arg(D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, 1),
                              Arg(D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH)},
                             28, root);
    if (!uav || !srv || !mixed) return;  // refused by the backend (checked in Signature)
    CHECK(uav->ReferencedStates() == kUav);
    CHECK(srv->ReferencedStates() == kNpsr);
    CHECK(mixed->ReferencedStates() == (kUav | kNpsr));
    auto cl = f.DispatchList(pso);
    cl->SetRootView(RootParamKind::Uav, 1, f.b, 0);  // what the shader writes where the srv signature does not set it
    cl->ExecuteIndirect(srv, 1, f.args, 0, nullptr, 0, {f.a});
    CHECK(f.Known(cl, f.a) == kNpsr);
    cl->ExecuteIndirect(uav, 1, f.args, 0, nullptr, 0, {f.a});
    CHECK(f.Known(cl, f.a) == kUav);
    CHECK_THROWS_WITH_AS(cl->ExecuteIndirect(mixed, 1, f.args, 0, nullptr, 0, {f.b}),
                         doctest::Contains("referenced[0] buffer 'referenced b' would be written through the root UAV arguments"), InvalidArgument);
    auto upload = f.dev->CreateBuffer(256, false, D3D12_HEAP_TYPE_UPLOAD, "referenced upload");
    CHECK_THROWS_WITH_AS(cl->ExecuteIndirect(uav, 1, f.args, 0, nullptr, 0, {upload}), doctest::Contains("is in an upload heap"), InvalidArgument);
}

}  // TEST_SUITE
