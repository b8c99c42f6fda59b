// ExecuteIndirect and the input assembler (D3D12, "Indirect drawing"): a vertex buffer or index
// buffer a command signature sets per command need not be bound before the call, and is NULL after
// it, so the next draw through it is refused as an unset one is (naming execute_indirect) until it is
// set again. Where the backend ignores vertex/index buffer view arguments (vkd3d 1.2: every command
// would reuse the buffers bound before it; BackendIndirectSupport().bufferViews) the signature itself
// is refused, naming the argument. The Windows build (run under Wine) takes the first path.
#include <doctest.h>

#include "TestSupport.hpp"
#include "data/Shaders.generated.hpp"

#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/CommandSignature.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/resources/Resource.hpp"

using namespace dx12kit;
using dx12kit_test::SharedDevice;

namespace {

D3D12_INDIRECT_ARGUMENT_DESC Argument(D3D12_INDIRECT_ARGUMENT_TYPE type, uint32_t slot = 0) {
    D3D12_INDIRECT_ARGUMENT_DESC a{};
    a.Type = type;
    if (type == D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW) a.VertexBuffer.Slot = slot;
    return a;
}

struct Drawing {
    std::shared_ptr<Device> dev = SharedDevice();
    std::shared_ptr<CommandQueue> q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    std::shared_ptr<PipelineState> pso;
    std::shared_ptr<Texture> rt = dev->CreateTexture2D(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, true, false, false, "indirect ia rt");
    std::shared_ptr<Resource> vertices = dev->CreateBuffer(256, false, D3D12_HEAP_TYPE_DEFAULT, "indirect ia vertices");
    std::shared_ptr<Resource> indices = dev->CreateBuffer(256, false, D3D12_HEAP_TYPE_DEFAULT, "indirect ia indices");
    std::shared_ptr<Resource> args = dev->CreateBuffer(256, false, D3D12_HEAP_TYPE_DEFAULT, "indirect ia arguments");

    Drawing() {
        auto rs = std::make_shared<RootSignature>(dev->Context(), std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 4, {}}},
                                                  std::vector<StaticSamplerDesc>{}, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
        GraphicsPipelineDesc g;
        g.vs.assign(dx12kit_test::shaders::vs_position, dx12kit_test::shaders::vs_position + sizeof dx12kit_test::shaders::vs_position);
        g.ps.assign(dx12kit_test::shaders::ps_constant, dx12kit_test::shaders::ps_constant + sizeof dx12kit_test::shaders::ps_constant);
        InputElementDesc position;
        position.semantic = "POSITION";
        position.format = DXGI_FORMAT_R32G32_FLOAT;
        g.inputLayout = {position};
        g.rtvFormats = {DXGI_FORMAT_R8G8B8A8_UNORM};
        pso = std::make_shared<PipelineState>(dev->Context(), g, rs);
    }
    std::shared_ptr<CommandList> List() {
        auto cl = q->CreateCommandList(q);
        cl->SetPipelineState(pso);
        cl->SetRenderTargets({rt}, nullptr, 0);
        const uint32_t colour[4] = {0x3f800000u, 0, 0, 0x3f800000u};  // red (floats 1, 0, 0, 1)
        cl->SetConstants(0, colour, 4, 0);
        return cl;
    }
};

}  // namespace

TEST_SUITE("device") {

TEST_CASE("execute_indirect: a vertex buffer its signature sets is NULL after it, and the next draw through it is refused until set again") {
    Drawing d;
    std::shared_ptr<CommandSignature> sig;
    const std::vector<D3D12_INDIRECT_ARGUMENT_DESC> arguments{Argument(D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, 0),
                                                              Argument(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW)};
    if (!platform::BackendIndirectSupport().bufferViews) {
        CHECK_THROWS_WITH_AS(std::make_shared<CommandSignature>(d.dev->Context(), arguments, 32, nullptr),
                             doctest::Contains("arguments[0] vertex_buffer_view(slot=0) is not supported"), InvalidArgument);
        return;
    }
    sig = std::make_shared<CommandSignature>(d.dev->Context(), arguments, 32, nullptr);
    auto cl = d.List();
    cl->ExecuteIndirect(sig, 1, d.args, 0, nullptr, 0, {});  // slot 0 comes from the commands: not needed before
    cl->SetVertexBuffer(0, d.vertices, 8, 0);
    cl->Draw(3, 1, 0, 0);
    cl->ExecuteIndirect(sig, 1, d.args, 0, nullptr, 0, {});
    CHECK_THROWS_WITH_AS(cl->Draw(3, 1, 0, 0), doctest::Contains("left a NULL vertex buffer there"), InvalidArgument);
    cl->SetVertexBuffer(0, d.vertices, 8, 0);
    cl->Draw(3, 1, 0, 0);
}

TEST_CASE("execute_indirect: an index buffer its signature sets is NULL after it, and the next indexed draw is refused until set again") {
    Drawing d;
    const std::vector<D3D12_INDIRECT_ARGUMENT_DESC> arguments{Argument(D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW),
                                                              Argument(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED)};
    if (!platform::BackendIndirectSupport().bufferViews) {
        CHECK_THROWS_WITH_AS(std::make_shared<CommandSignature>(d.dev->Context(), arguments, 36, nullptr),
                             doctest::Contains("arguments[0] index_buffer_view() is not supported"), InvalidArgument);
        return;
    }
    auto sig = std::make_shared<CommandSignature>(d.dev->Context(), arguments, 36, nullptr);
    auto cl = d.List();
    cl->SetVertexBuffer(0, d.vertices, 8, 0);
    cl->ExecuteIndirect(sig, 1, d.args, 0, nullptr, 0, {});  // the index buffer comes from the commands
    cl->SetIndexBuffer(d.indices, DXGI_FORMAT_R16_UINT, 0);
    cl->DrawIndexed(3, 1, 0, 0, 0);
    cl->ExecuteIndirect(sig, 1, d.args, 0, nullptr, 0, {});
    CHECK_THROWS_WITH_AS(cl->DrawIndexed(3, 1, 0, 0, 0), doctest::Contains("execute_indirect, whose command signature sets it"), InvalidArgument);
    cl->Draw(3, 1, 0, 0);  // the vertex buffer it does not set stays bound
    cl->SetIndexBuffer(d.indices, DXGI_FORMAT_R16_UINT, 0);
    cl->DrawIndexed(3, 1, 0, 0, 0);
}

}  // TEST_SUITE
