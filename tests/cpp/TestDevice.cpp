// The core on a real D3D12 device, without Python: vkd3d 1.2 over lavapipe natively on Linux, and
// Wine's d3d12 (vkd3d 1.6 over lavapipe) for the mingw-w64 build. Shaders are DXBC compiled on
// Linux (data/Shaders.generated.hpp; regenerate with data/regenerate.sh).
#include <doctest.h>

#include "TestSupport.hpp"
#include "data/Shaders.generated.hpp"

#include "dx12kit/devicecontext/UploadBuffer.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace dx12kit;
using dx12kit_test::Pattern;
using dx12kit_test::SharedDevice;

namespace {

std::vector<uint8_t> Bytes(const uint8_t* data, size_t size) {
    return std::vector<uint8_t>(data, data + size);
}

std::shared_ptr<CommandQueue> Direct(Device& dev) {
    return dev.Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
}

std::vector<uint32_t> ReadUints(const std::shared_ptr<CommandQueue>& q, const std::shared_ptr<Buffer>& b) {
    std::vector<uint32_t> out(b->Size() / 4);
    q->ReadBuffer(q, b, out.data(), b->Size());
    return out;
}

std::shared_ptr<PipelineState> RootUavPipeline(Device& dev) {
    auto rs = std::make_shared<RootSignature>(
        dev.Context(), std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 3, {}}, {RootParamKind::Uav, 0, 0, 0, {}}},
        std::vector<StaticSamplerDesc>{});
    return std::make_shared<PipelineState>(dev.Context(), Bytes(dx12kit_test::shaders::cs_root_uav, sizeof dx12kit_test::shaders::cs_root_uav), rs);
}

}  // namespace

TEST_SUITE("device") {

TEST_CASE("device: created, with an adapter name and three queues") {
    auto dev = SharedDevice();
    REQUIRE(dev.get() != nullptr);
    const std::string runtime = dx12kit_test::UnderWine() ? std::string("Wine ") + dx12kit_test::WineVersion() : "native";
    MESSAGE("adapter: " << dev->AdapterName() << " (" << runtime << ")");
    CHECK(!dev->AdapterName().empty());
    for (auto type : {D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY}) {
        auto q = dev->Queue(type);
        REQUIRE(q.get() != nullptr);
        CHECK(q->Type() == type);
        q->Flush();
    }
}

TEST_CASE("device: buffer upload and readback round trip (whole buffer and at an offset)") {
    auto dev = SharedDevice();
    auto q = Direct(*dev);
    const uint64_t size = (1u << 20) + 12;  // not a page multiple
    auto buf = dev->CreateBuffer(size, false, D3D12_HEAP_TYPE_DEFAULT, "roundtrip");
    const auto data = Pattern(size, 1);
    const auto patch = Pattern(1000, 2);
    auto cl = q->CreateCommandList(q);
    cl->Upload(buf, data.data(), size, 0, 0, 0);
    cl->Upload(buf, patch.data(), patch.size(), 0, 0, 4096 + 4);
    q->Wait(q->Execute({cl}));
    std::vector<uint8_t> back(size);
    q->ReadBuffer(q, buf, back.data(), size);
    auto expected = data;
    std::memcpy(expected.data() + 4096 + 4, patch.data(), patch.size());
    CHECK(back == expected);
}

TEST_CASE("device: texture upload and readback round trip, every mip and array slice") {
    auto dev = SharedDevice();
    auto q = Direct(*dev);
    const uint32_t w = 60, h = 34, mips = 3, slices = 2;  // rows not 256-byte multiples
    auto tex = dev->CreateTexture2D(w, h, DXGI_FORMAT_R8G8B8A8_UNORM, mips, slices, false, false, false, "tex");
    auto cl = q->CreateCommandList(q);
    std::vector<std::vector<uint8_t>> sent;
    for (uint32_t s = 0; s < slices; ++s)
        for (uint32_t m = 0; m < mips; ++m) {
            sent.push_back(Pattern(size_t(tex->Width(m)) * tex->Height(m) * 4, 10 * s + m));
            cl->Upload(tex, sent.back().data(), sent.back().size(), m, s);
        }
    q->Wait(q->Execute({cl}));
    size_t i = 0;
    for (uint32_t s = 0; s < slices; ++s)
        for (uint32_t m = 0; m < mips; ++m, ++i) {
            CAPTURE(s);
            CAPTURE(m);
            std::vector<uint8_t> back(sent[i].size());
            q->ReadTexture(q, tex, m, s, back.data(), back.size());
            CHECK(back == sent[i]);
        }
}

TEST_CASE("device: compute dispatch with root constants and a root UAV") {
    auto dev = SharedDevice();
    auto q = Direct(*dev);
    const uint32_t n = 1000;
    auto pso = RootUavPipeline(*dev);
    auto buf = dev->CreateBuffer(n * 4, true, D3D12_HEAP_TYPE_DEFAULT, "data");
    std::vector<uint32_t> in(n);
    for (uint32_t i = 0; i < n; ++i) in[i] = i * 7;
    auto cl = q->CreateCommandList(q);
    cl->Upload(buf, in.data(), n * 4, 0, 0);
    cl->SetPipelineState(pso);
    const uint32_t params[3] = {3, 5, n};
    cl->SetConstants(0, params, 3, 0);
    cl->SetRootView(RootParamKind::Uav, 1, buf, 0);
    cl->Dispatch((n + 63) / 64, 1, 1);
    q->Wait(q->Execute({cl}));
    const auto out = ReadUints(q, buf);
    size_t wrong = 0;
    for (uint32_t i = 0; i < n; ++i) wrong += out[i] != in[i] * 3 + 5 + i;
    CHECK(wrong == 0);
}

TEST_CASE("device: compute dispatch through a descriptor table (SRV + UAV)" *
          DX12KIT_WINE_DEFECT("W1",
                              "descriptor-table bindings, 'Invalid heap for base descriptor' "
                              "(tests/cpp/wine_repros/descriptor_table.cpp)")) {
    auto dev = SharedDevice();
    auto q = Direct(*dev);
    const uint32_t n = 700;
    auto rs =
        std::make_shared<RootSignature>(dev->Context(),
                                        std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 2, {}},
                                                                       {RootParamKind::Table, 0, 0, 0, {{RangeKind::Srv, 0}, {RangeKind::Uav, 0}}}},
                                        std::vector<StaticSamplerDesc>{});
    auto pso = std::make_shared<PipelineState>(dev->Context(), Bytes(dx12kit_test::shaders::cs_table, sizeof dx12kit_test::shaders::cs_table), rs);
    auto src = dev->CreateBuffer(n * 4, false, D3D12_HEAP_TYPE_DEFAULT, "src");
    auto dst = dev->CreateBuffer(n * 4, true, D3D12_HEAP_TYPE_DEFAULT, "dst");
    std::vector<uint32_t> in(n), zeros(n, 0);
    for (uint32_t i = 0; i < n; ++i) in[i] = i + 1;
    auto cl = q->CreateCommandList(q);
    cl->Upload(src, in.data(), n * 4, 0, 0);
    cl->Upload(dst, zeros.data(), n * 4, 0, 0);
    cl->SetPipelineState(pso);
    const uint32_t params[2] = {11, n};
    cl->SetConstants(0, params, 2, 0);
    cl->SetShaderResourceView(1, 0, src, 0, 0, DXGI_FORMAT_UNKNOWN);
    cl->SetUnorderedAccessView(1, 1, dst, 0);
    cl->Dispatch((n + 63) / 64, 1, 1);
    q->Wait(q->Execute({cl}));
    const auto out = ReadUints(q, dst);
    size_t wrong = 0;
    for (uint32_t i = 0; i < n; ++i) wrong += out[i] != in[i] * 3 + 11;
    CHECK(wrong == 0);
}

TEST_CASE("device: the state tracker carries texture states across lists and executes") {
    auto dev = SharedDevice();
    auto q = Direct(*dev);
    const uint32_t w = 16, h = 8;
    auto rt = dev->CreateTexture2D(w, h, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, true, false, false, "rt");
    const uint64_t pitch = 256;
    auto rb = dev->CreateBuffer(pitch * h, false, D3D12_HEAP_TYPE_READBACK, "rb");

    // One Execute, two lists: A clears (RENDER_TARGET), B copies (COPY_SOURCE). Neither list wrote
    // a barrier; execute inserts COMMON -> RENDER_TARGET before A and RENDER_TARGET -> COPY_SOURCE before B.
    auto a = q->CreateCommandList(q);
    const float red[4] = {1.0f, 0.0f, 0.0f, 1.0f};
    a->ClearRenderTarget(rt, red, 0);
    auto b = q->CreateCommandList(q);
    const auto fp = b->CopyTextureToBuffer(rb, rt, 0, 0);
    CHECK(fp.Footprint.RowPitch == pitch);
    q->Wait(q->Execute({a, b}));
    auto inserted = q->LastInsertedBarriers();
    REQUIRE(inserted.size() == 2);
    CHECK(inserted[0].listIndex == 0);
    CHECK(inserted[0].before == D3D12_RESOURCE_STATE_COMMON);
    CHECK(inserted[0].after == D3D12_RESOURCE_STATE_RENDER_TARGET);
    CHECK(inserted[1].listIndex == 1);
    CHECK(inserted[1].before == D3D12_RESOURCE_STATE_RENDER_TARGET);
    CHECK(inserted[1].after == D3D12_RESOURCE_STATE_COPY_SOURCE);
    {
        void* p = nullptr;
        D3D12_RANGE range{0, static_cast<SIZE_T>(pitch * h)};
        REQUIRE(SUCCEEDED(rb->D3D12Resource()->Map(0, &range, &p)));
        const uint8_t* px = static_cast<const uint8_t*>(p);
        size_t wrong = 0;
        for (uint32_t y = 0; y < h; ++y)
            for (uint32_t x = 0; x < w; ++x) {
                const uint8_t* t = px + y * pitch + x * 4;
                wrong += !(t[0] == 255 && t[1] == 0 && t[2] == 0 && t[3] == 255);
            }
        D3D12_RANGE none{0, 0};
        rb->D3D12Resource()->Unmap(0, &none);
        CHECK(wrong == 0);
    }

    // A later execute starts from the global state the last one left (COPY_SOURCE).
    auto c = q->CreateCommandList(q);
    const float blue[4] = {0.0f, 0.0f, 1.0f, 1.0f};
    c->ClearRenderTarget(rt, blue, 0);
    q->Wait(q->Execute({c}));
    inserted = q->LastInsertedBarriers();
    REQUIRE(inserted.size() == 1);
    CHECK(inserted[0].before == D3D12_RESOURCE_STATE_COPY_SOURCE);
    CHECK(inserted[0].after == D3D12_RESOURCE_STATE_RENDER_TARGET);
    std::vector<uint8_t> back(size_t(w) * h * 4);
    q->ReadTexture(q, rt, 0, 0, back.data(), back.size());
    for (size_t i = 0; i < back.size(); i += 4) {
        CAPTURE(i);
        REQUIRE((back[i] == 0 && back[i + 1] == 0 && back[i + 2] == 255 && back[i + 3] == 255));
    }
}

TEST_CASE("device: copy, compute and direct queues ordered by GPU waits") {
    auto dev = SharedDevice();
    auto copy = dev->Queue(D3D12_COMMAND_LIST_TYPE_COPY);
    auto compute = dev->Queue(D3D12_COMMAND_LIST_TYPE_COMPUTE);
    auto direct = Direct(*dev);
    const uint32_t n = 256;
    auto pso = RootUavPipeline(*dev);
    auto buf = dev->CreateBuffer(n * 4, true, D3D12_HEAP_TYPE_DEFAULT, "xq");
    std::vector<uint32_t> in(n);
    for (uint32_t i = 0; i < n; ++i) in[i] = 1000 + i;
    auto up = copy->CreateCommandList(copy);
    up->Upload(buf, in.data(), n * 4, 0, 0);
    const uint64_t uploaded = copy->Execute({up});
    compute->WaitFor(*copy, uploaded);
    auto cl = compute->CreateCommandList(compute);
    cl->SetPipelineState(pso);
    const uint32_t params[3] = {2, 1, n};
    cl->SetConstants(0, params, 3, 0);
    cl->SetRootView(RootParamKind::Uav, 1, buf, 0);
    cl->Dispatch(n / 64, 1, 1);
    const uint64_t computed = compute->Execute({cl});
    direct->WaitFor(*compute, computed);
    const auto out = ReadUints(direct, buf);
    size_t wrong = 0;
    for (uint32_t i = 0; i < n; ++i) wrong += out[i] != in[i] * 2 + 1 + i;
    CHECK(wrong == 0);
}

TEST_CASE("device: a draw with root constants into a render target") {
    auto dev = SharedDevice();
    auto q = Direct(*dev);
    const uint32_t size = 32;
    auto rs = std::make_shared<RootSignature>(dev->Context(),
                                              std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 4, {}, D3D12_SHADER_VISIBILITY_PIXEL}},
                                              std::vector<StaticSamplerDesc>{});
    GraphicsPipelineDesc g;
    g.vs = Bytes(dx12kit_test::shaders::vs_fullscreen, sizeof dx12kit_test::shaders::vs_fullscreen);
    g.ps = Bytes(dx12kit_test::shaders::ps_constant, sizeof dx12kit_test::shaders::ps_constant);
    g.rtvFormats = {DXGI_FORMAT_R8G8B8A8_UNORM};
    auto pso = std::make_shared<PipelineState>(dev->Context(), g, rs);
    auto rt = dev->CreateTexture2D(size, size, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, true, false, false, "target");
    const float colour[4] = {1.0f, 0.6f, 0.2f, 1.0f};
    uint32_t bits[4];
    std::memcpy(bits, colour, sizeof bits);
    auto cl = q->CreateCommandList(q);
    cl->SetPipelineState(pso);
    cl->SetRenderTargets({rt}, nullptr, 0);  // also a full-size viewport and scissor
    const float black[4] = {0, 0, 0, 1};
    cl->ClearRenderTarget(rt, black, 0);
    cl->SetConstants(0, bits, 4, 0);
    cl->Draw(3, 1, 0, 0);
    q->Wait(q->Execute({cl}));
    std::vector<uint8_t> px(size_t(size) * size * 4);
    q->ReadTexture(q, rt, 0, 0, px.data(), px.size());
    size_t wrong = 0;
    for (uint32_t y = 0; y < size; ++y)
        for (uint32_t x = 0; x < size; ++x) {
            const float scale = ((x / 4 + y / 4) & 1) ? 0.5f : 1.0f;
            for (int c = 0; c < 4; ++c) {
                const float want = (c == 3 ? 1.0f : colour[c] * scale) * 255.0f;
                wrong += std::fabs(px[(size_t(y) * size + x) * 4 + c] - want) > 1.0f;  // UNORM rounding
            }
        }
    CHECK(wrong == 0);
}

TEST_CASE("device: four threads record and execute on the direct and compute queues at once") {
    auto dev = SharedDevice();
    auto pso = RootUavPipeline(*dev);
    const uint32_t n = 256, iterations = 12;
    std::atomic<uint32_t> wrong{0}, errors{0};
    std::vector<std::thread> threads;
    for (uint32_t t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            try {
                auto q = dev->Queue(t % 2 ? D3D12_COMMAND_LIST_TYPE_COMPUTE : D3D12_COMMAND_LIST_TYPE_DIRECT);
                auto buf = dev->CreateBuffer(n * 4, true, D3D12_HEAP_TYPE_DEFAULT, "thread" + std::to_string(t));
                for (uint32_t it = 0; it < iterations; ++it) {
                    std::vector<uint32_t> in(n);
                    for (uint32_t i = 0; i < n; ++i) in[i] = t * 100000 + it * 1000 + i;
                    auto cl = q->CreateCommandList(q);
                    cl->Upload(buf, in.data(), n * 4, 0, 0);
                    cl->SetPipelineState(pso);
                    const uint32_t params[3] = {t + 1, it, n};
                    cl->SetConstants(0, params, 3, 0);
                    cl->SetRootView(RootParamKind::Uav, 1, buf, 0);
                    cl->Dispatch(n / 64, 1, 1);
                    q->Wait(q->Execute({cl}));
                    const auto out = ReadUints(q, buf);
                    for (uint32_t i = 0; i < n; ++i) wrong += out[i] != in[i] * (t + 1) + it + i;
                }
            } catch (const std::exception&) {
                ++errors;
            }
        });
    for (auto& th : threads) th.join();
    CHECK(errors.load() == 0);
    CHECK(wrong.load() == 0);
}

TEST_CASE("device: upload pages are recycled after their fence, and reuse keeps data intact") {
    DeviceOptions options;
    options.uploadPageSize = 64u << 10;
    options.umaDirect = false;  // the staging path (uma_direct writes CPU-visible buffers without upload copies on the GPU)
    auto dev = Device::Create(options);
    auto q = Direct(*dev);
    const uint64_t size = 40u << 10;  // one upload per page: a page holds only one
    auto buf = dev->CreateBuffer(size, false, D3D12_HEAP_TYPE_DEFAULT, "frames");
    std::vector<uint8_t> last;
    for (uint32_t frame = 0; frame < 40; ++frame) {
        last = Pattern(size, 100 + frame);
        auto cl = q->CreateCommandList(q);
        cl->Upload(buf, last.data(), size, 0, 0);
        const uint64_t v = q->Execute({cl});
        if (frame % 2 == 1) q->Wait(v);  // at most two lists in flight
    }
    q->Flush();
    std::vector<uint8_t> back(size);
    q->ReadBuffer(q, buf, back.data(), size);
    CHECK(back == last);
    const UploadPoolStats s = dev->Context()->UploadPages().GetStats();
    MESSAGE("upload pages created for 40 frames: " << s.pagesCreated);
    CHECK(s.pagesCreated >= 1);
    CHECK(s.pagesCreated <= 3);  // without recycling: 40
    CHECK(s.peakPages <= 3);
}

TEST_CASE("device: a discarded upload page with a pin is neither reused nor trimmed until unpinned") {
    DeviceOptions options;
    options.uploadPageSize = 64u << 10;
    auto dev = Device::Create(options);
    UploadPagePool& pool = dev->Context()->UploadPages();
    std::vector<std::unique_ptr<UploadPage>> pages;
    pages.push_back(pool.Acquire());
    UploadPage* pinned = pages.back().get();
    pinned->pins.fetch_add(1);  // a view into the page outlives its (never executed) list
    pool.Discard(pages);
    CHECK(pages.empty());
    auto next = pool.Acquire();
    CHECK(next.get() != pinned);                          // not handed out again
    CHECK(pool.Trim(dev->Context()->LastSerial()) == 0);  // nor destroyed
    CHECK(pool.GetStats().pagesRetired == 1);
    pinned->pins.fetch_sub(1);
    CHECK(pool.Trim(dev->Context()->LastSerial()) == 1);  // the last pin went: trimmed now
    CHECK(pool.GetStats().pagesRetired == 0);
    std::vector<std::unique_ptr<UploadPage>> rest;
    rest.push_back(std::move(next));
    pool.Discard(rest);
    CHECK(pool.Trim(dev->Context()->LastSerial()) == 1);
}

TEST_CASE("device: the command list refuses buffer-view arguments for a texture (C++ callers too)") {
    auto dev = SharedDevice();
    auto q = Direct(*dev);
    auto rs =
        std::make_shared<RootSignature>(dev->Context(),
                                        std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 2, {}},
                                                                       {RootParamKind::Table, 0, 0, 0, {{RangeKind::Srv, 0}, {RangeKind::Uav, 0}}}},
                                        std::vector<StaticSamplerDesc>{});
    auto pso = std::make_shared<PipelineState>(dev->Context(), Bytes(dx12kit_test::shaders::cs_table, sizeof dx12kit_test::shaders::cs_table), rs);
    auto tex = dev->CreateTexture2D(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, false, false, true, "tex");
    auto cl = q->CreateCommandList(q);
    cl->SetPipelineState(pso);
    BufferViewArgs stride, typed;
    stride.stride = 4;
    typed.format = DXGI_FORMAT_R32_FLOAT;
    CHECK_THROWS_WITH_AS(cl->SetShaderResourceView(1, 0, tex, 0, 0, DXGI_FORMAT_UNKNOWN, stride),
                         "set_shader_resource_view: resource 'tex' is a texture; stride=, raw=, first_element= and num_elements= apply to buffers",
                         InvalidArgument);
    CHECK_THROWS_WITH_AS(cl->SetUnorderedAccessView(1, 1, tex, 0, stride), doctest::Contains("is a texture"), InvalidArgument);
    CHECK_THROWS_WITH_AS(cl->SetUnorderedAccessView(1, 1, tex, 0, typed), "set_unordered_access_view: format= applies to buffers (typed views)",
                         InvalidArgument);
}

TEST_CASE("device: draws and dispatches refuse bindings D3D12 refuses (C++ callers too)") {
    auto dev = SharedDevice();
    auto q = Direct(*dev);
    // A pipeline made for rgba16_float drawing into an rgba8_unorm target: refused at the draw.
    auto grs = std::make_shared<RootSignature>(dev->Context(),
                                               std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 4, {}, D3D12_SHADER_VISIBILITY_PIXEL}},
                                               std::vector<StaticSamplerDesc>{});
    GraphicsPipelineDesc g;
    g.vs = Bytes(dx12kit_test::shaders::vs_fullscreen, sizeof dx12kit_test::shaders::vs_fullscreen);
    g.ps = Bytes(dx12kit_test::shaders::ps_constant, sizeof dx12kit_test::shaders::ps_constant);
    g.rtvFormats = {DXGI_FORMAT_R16G16B16A16_FLOAT};
    auto gpso = std::make_shared<PipelineState>(dev->Context(), g, grs);
    auto rt = dev->CreateTexture2D(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, true, false, false, "rt");
    auto cl = q->CreateCommandList(q);
    cl->SetPipelineState(gpso);
    cl->SetRenderTargets({rt}, nullptr, 0);
    const uint32_t zeros[4] = {0, 0, 0, 0};
    cl->SetConstants(0, zeros, 4, 0);
    CHECK_THROWS_WITH_AS(cl->Draw(3, 1, 0, 0),
                         doctest::Contains("render target 0 (resource 'rt') is rgba8_unorm where the pipeline has "
                                           "rtv_formats[0] = rgba16_float"),
                         InvalidArgument);
    // cs_table declares ByteAddressBuffer t0 and RWByteAddressBuffer u0.
    auto rs =
        std::make_shared<RootSignature>(dev->Context(),
                                        std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 2, {}},
                                                                       {RootParamKind::Table, 0, 0, 0, {{RangeKind::Srv, 0}, {RangeKind::Uav, 0}}}},
                                        std::vector<StaticSamplerDesc>{});
    auto pso = std::make_shared<PipelineState>(dev->Context(), Bytes(dx12kit_test::shaders::cs_table, sizeof dx12kit_test::shaders::cs_table), rs);
    auto tex = dev->CreateTexture2D(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, false, false, true, "tex");
    auto buf = dev->CreateBuffer(256, true, D3D12_HEAP_TYPE_DEFAULT, "buf");
    cl->SetPipelineState(pso);
    // A texture where the shader declares a buffer (the opposite was refused already).
    CHECK_THROWS_WITH_AS(cl->SetShaderResourceView(1, 0, tex, 0, 0, DXGI_FORMAT_UNKNOWN),
                         doctest::Contains("declares ByteAddressBuffer 'src' at t0 space0 there, which is a buffer, but resource 'tex' is a texture"),
                         InvalidArgument);
    CHECK_THROWS_WITH_AS(cl->SetUnorderedAccessView(1, 1, tex, 0), doctest::Contains("RWByteAddressBuffer 'dst'"), InvalidArgument);
    // One buffer read and written by one dispatch, even through disjoint windows.
    const uint32_t params[2] = {0, 4};
    cl->SetConstants(0, params, 2, 0);
    BufferViewArgs low, high;
    low.numElements = 8;
    high.firstElement = 8;
    high.numElements = 8;
    cl->SetShaderResourceView(1, 0, buf, 0, 0, DXGI_FORMAT_UNKNOWN, low);
    cl->SetUnorderedAccessView(1, 1, buf, 0, high);
    CHECK_THROWS_WITH_AS(cl->Dispatch(1, 1, 1), doctest::Contains("dispatch: buffer 'buf' is bound twice"), InvalidArgument);
}

TEST_CASE("device: the RootSignature constructor refuses flags by the core's table") {
    auto dev = SharedDevice();
    const std::vector<StaticSamplerDesc> none;
    CHECK_THROWS_WITH_AS(RootSignature(dev->Context(), {}, none, 0x80),
                         "create_root_signature: root signature flag LOCAL_ROOT_SIGNATURE is not supported: a DirectX Raytracing flag; "
                         "vkd3d 1.2 has no raytracing",
                         InvalidArgument);
    CHECK_THROWS_WITH_AS(RootSignature(dev->Context(), {}, none, 0x1000), doctest::Contains("bits 0x1000 are not D3D12 root signature flags"),
                         InvalidArgument);
    RootParameterDesc view{RootParamKind::Cbv, 0, 0, 0, {}};
    view.flags = D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE | D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC;
    CHECK_THROWS_WITH_AS(RootSignature(dev->Context(), {RootParameterDesc{RootParamKind::Constants, 0, 0, 1, {}}, view}, none),
                         doctest::Contains("create_root_signature: root parameter 1: DATA_VOLATILE, DATA_STATIC_WHILE_SET_AT_EXECUTE and "
                                           "DATA_STATIC exclude each other"),
                         InvalidArgument);
    DescriptorRangeDesc later{RangeKind::Uav, 0};
    later.flags = 0x10000;  // DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS
    CHECK_THROWS_WITH_AS(
        RootSignature(dev->Context(), {RootParameterDesc{RootParamKind::Table, 0, 0, 0, {DescriptorRangeDesc{RangeKind::Srv, 0}, later}}}, none),
        doctest::Contains("create_root_signature: root parameter 0, range 1: descriptor range flag "
                          "DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS is not supported"),
        InvalidArgument);
    DescriptorRangeDesc samplerData{RangeKind::Sampler, 0};
    samplerData.flags = D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC;
    CHECK_THROWS_WITH_AS(RootSignature(dev->Context(), {RootParameterDesc{RootParamKind::Table, 0, 0, 0, {samplerData}}}, none),
                         doctest::Contains("a sampler range takes DESCRIPTORS_VOLATILE only"), InvalidArgument);
    // Supported flags build.
    view.flags = D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC;
    RootSignature ok(dev->Context(), {view}, none,
                     D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT | D3D12_ROOT_SIGNATURE_FLAG_DENY_HULL_SHADER_ROOT_ACCESS);
    CHECK(ok.D3D12RootSignature() != nullptr);
}

TEST_CASE("device: a thread holding the recording lock records on while an execute waits for it") {
    // Begin lets a waiting execute go first only on threads that do not hold the lock (OwnerMutex::HeldByMe):
    // here the holder's recording call must go through, or neither thread would ever proceed.
    auto dev = SharedDevice();
    auto q = Direct(*dev);
    auto cl = q->CreateCommandList(q);
    std::atomic<bool> executeHasLock{false};
    {
        auto held = cl->LockRecording();
        std::thread executor([&] {
            auto lock = cl->LockForExecute();
            executeHasLock = true;
        });
        // Give the executor time to announce itself (if it has not yet, the call below passes anyway).
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        cl->SetViewport(0, 0, 4, 4, 0, 1);
        CHECK_FALSE(executeHasLock.load());
        held.unlock();
        executor.join();
    }
    CHECK(executeHasLock.load());
    cl->SetScissor(0, 0, 4, 4);  // the lock is free again: recording goes on
}

}  // TEST_SUITE
