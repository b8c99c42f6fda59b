// Device::TextureAllocationInfo / BufferAllocationInfo: a resource's size and alignment before it
// exists (GetResourceAllocationInfo as the memory layer places it) equal what the created resource's
// allocation reports, a placement at that alignment is accepted, and bad descriptions get the
// creators' errors under the asking function's name.
#include <doctest.h>

#include "TestSupport.hpp"

#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <string>

using namespace dx12kit;

TEST_SUITE("device") {

TEST_CASE("allocation info: equals the created resource's allocation, and places it") {
    auto dev = dx12kit_test::SharedDevice();
    struct Case {
        uint32_t w, h;
        DXGI_FORMAT f;
        uint32_t mips, slices;
        bool rt, ds;
    };
    const Case cases[] = {{16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, false, false},
                          {256, 256, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, false, false},
                          {64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 3, false, false},
                          {32, 32, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, true, false},
                          {32, 32, DXGI_FORMAT_D32_FLOAT, 1, 1, false, true}};
    for (const Case& c : cases) {
        const D3D12_RESOURCE_ALLOCATION_INFO info = dev->TextureAllocationInfo(c.w, c.h, c.f, c.mips, c.slices, c.rt, c.ds, false, 1);
        auto t = dev->CreateTexture2D(c.w, c.h, c.f, c.mips, c.slices, c.rt, c.ds, false, "pooled");
        CHECK(t->Memory().Size() == info.SizeInBytes);
        CHECK(t->Memory().Alignment() == info.Alignment);
        Device::Placement in;
        in.memory = dev->AllocateMemory(info.Alignment + info.SizeInBytes, std::max<uint64_t>(info.Alignment, 65536), Device::Placement(), "m");
        in.offset = info.Alignment;
        auto p = dev->CreateTexture2D(c.w, c.h, c.f, c.mips, c.slices, c.rt, c.ds, false, "placed", in);
        CHECK(p->Memory().Size() == info.SizeInBytes);
    }
    CHECK(dev->TextureAllocationInfo(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, false, false, false, 1).Alignment == 4096);
    const D3D12_RESOURCE_ALLOCATION_INFO b = dev->BufferAllocationInfo(1, false);
    CHECK(b.SizeInBytes == 65536);
    CHECK(b.Alignment == 65536);
    CHECK(dev->CreateBuffer(1, false, Device::Placement(), "b")->Memory().Size() == b.SizeInBytes);
}

TEST_CASE("allocation info: bad descriptions raise the creators' errors, named for the caller") {
    auto dev = dx12kit_test::SharedDevice();
    auto message = [&](auto&& call) -> std::string {
        try {
            call();
        } catch (const InvalidArgument& e) {
            return e.what();
        }
        return "";
    };
    const std::string zero = message([&] { dev->TextureAllocationInfo(0, 16, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, false, false, false, 1); });
    CHECK(zero.rfind("texture_allocation_info: width and height must be positive", 0) == 0);
    const std::string depth = message([&] { dev->TextureAllocationInfo(16, 16, DXGI_FORMAT_D32_FLOAT, 1, 1, true, false, false, 1); });
    CHECK(depth.find("depth format") != std::string::npos);
    const std::string msaa = message([&] { dev->TextureAllocationInfo(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, false, false, false, 4); });
    CHECK(msaa.find("must be a render target or depth buffer") != std::string::npos);
    CHECK(message([&] { dev->BufferAllocationInfo(0, false); }) == "buffer_allocation_info: size must be positive (got 0)");
    CHECK(message([&] { dev->CreateBuffer(0, false, Device::Placement(), "b"); }) == "create_buffer: size must be positive (got 0)");
}
}
