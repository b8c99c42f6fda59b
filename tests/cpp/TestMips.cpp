// GenerateMips(CommandList&, ...) from C++ (the core without Python), on the real device.
#include <doctest.h>

#include "TestSupport.hpp"

#include "dx12kit/devicecontext/FormatSupport.hpp"
#include "dx12kit/features/GenerateMips.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <cstdlib>
#include <vector>

using namespace dx12kit;
using dx12kit_test::SharedDevice;

TEST_SUITE("device") {

TEST_CASE("device: GenerateMips makes 2x2 averages through each route" *
          DX12KIT_WINE_DEFECT("W1",
                              "descriptor-table bindings, 'Invalid heap for base descriptor' "
                              "(tests/cpp/wine_repros/descriptor_table.cpp)")) {
    auto dev = SharedDevice();
    auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    const uint32_t n = 16;
    std::vector<uint8_t> img(n * n * 4);
    for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x)
            for (uint32_t c = 0; c < 4; ++c) img[(y * n + x) * 4 + c] = static_cast<uint8_t>((x * 16 + y * 3 + c * 40) & 0xFF);
    struct Case {
        DXGI_FORMAT format;
        bool uav;
    };
    for (Case k : {Case{DXGI_FORMAT_R8G8B8A8_UNORM, true}, Case{DXGI_FORMAT_R8G8B8A8_UNORM, false}, Case{DXGI_FORMAT_B8G8R8A8_UNORM, false}}) {
        CAPTURE(static_cast<int>(k.format));
        CAPTURE(k.uav);
        REQUIRE(MipAutogenRefusal(dev->Context()->FormatSupport(), k.format).empty());
        auto tex = dev->CreateTexture2D(n, n, k.format, 0, 1, false, false, k.uav, "mips");
        auto cl = q->CreateCommandList(q);
        cl->Upload(tex, img.data(), img.size(), 0, 0);
        GenerateMips(*cl, tex, 0);
        q->Wait(q->Execute({cl}));
        // mip 1 from mip 0 and mip 4 (1x1) as the mean of everything, within rounding
        std::vector<uint8_t> m1(8 * 8 * 4), m4(4);
        q->ReadTexture(q, tex, 1, 0, m1.data(), m1.size());
        q->ReadTexture(q, tex, 4, 0, m4.data(), m4.size());
        for (uint32_t y = 0; y < 8; ++y)
            for (uint32_t x = 0; x < 8; ++x)
                for (uint32_t c = 0; c < 4; ++c) {
                    auto at = [&](uint32_t xx, uint32_t yy) { return int(img[(yy * n + xx) * 4 + c]); };
                    const double want = (at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1)) / 4.0;
                    CHECK(std::abs(m1[(y * 8 + x) * 4 + c] - want) <= 1.0);
                }
        for (uint32_t c = 0; c < 4; ++c) {
            double sum = 0;
            for (uint32_t i = 0; i < n * n; ++i) sum += img[i * 4 + c];
            CHECK(std::abs(m4[c] - sum / (n * n)) <= 1.0);
        }
    }
    CHECK(MipGeneratorOf(*dev).Stats().inPlace.load() >= 1);
    CHECK(MipGeneratorOf(*dev).Stats().staged.load() >= 1);
    CHECK(MipGeneratorOf(*dev).Stats().aliased.load() >= 1);
}

TEST_CASE("device: GenerateMips refuses copy lists, depth and integer formats, and first mips out of range") {
    auto dev = SharedDevice();
    auto copyQueue = dev->Queue(D3D12_COMMAND_LIST_TYPE_COPY);
    auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    auto tex = dev->CreateTexture2D(8, 8, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1, false, false, true, "mips");
    CHECK_THROWS_AS(GenerateMips(*copyQueue->CreateCommandList(copyQueue), tex, 0), InvalidArgument);
    auto cl = q->CreateCommandList(q);
    CHECK_THROWS_AS(GenerateMips(*cl, tex, 4), InvalidArgument);
    CHECK_THROWS_AS(GenerateMips(*cl, dev->CreateTexture2D(8, 8, DXGI_FORMAT_D32_FLOAT, 0, 1, false, true, false, "depth"), 0), InvalidArgument);
    CHECK_THROWS_AS(GenerateMips(*cl, dev->CreateTexture2D(8, 8, DXGI_FORMAT_R32_UINT, 0, 1, false, false, false, "int"), 0), InvalidArgument);
    CHECK_FALSE(MipAutogenRefusal(dev->Context()->FormatSupport(), DXGI_FORMAT_R32_UINT).empty());
}

}  // TEST_SUITE
