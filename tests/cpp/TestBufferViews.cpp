// Buffer views (resources/BufferView.hpp) against D3D12's rules for each kind, built through the
// same functions the command list uses (ResolveBufferView, then BufferSrvDesc / BufferUavDesc):
//   structured: Format UNKNOWN, StructureByteStride = the shader's structure size, no RAW flag
//   raw:        Format R32_TYPELESS, RAW flag, 4-byte elements (FirstElement counts 4-byte words)
//   typed:      the format (the natural 32-bit one unless given), StructureByteStride 0, no RAW flag
// and every view inside its buffer. The declarations are what the reflection of vkd3d-compiler's
// DXBC gives (input type, return type, component bits, structure stride; see DxbcReflection.hpp).
// The device part writes the descriptors through Resource::BufferView on a real device.
#include <doctest.h>

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/resources/BufferView.hpp"
#include "dx12kit/resources/Resource.hpp"

#include "TestSupport.hpp"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

using namespace dx12kit;

namespace {

ShaderBinding Declared(uint32_t inputType, uint32_t returnType, uint32_t components, uint32_t stride, BindingKind kind) {
    ShaderBinding b;
    b.name = "x";
    b.kind = kind;
    b.inputType = inputType;
    b.returnType = returnType;
    b.dimension = 1;  // D3D_SRV_DIMENSION_BUFFER
    b.flags = (components - 1) << 2;
    b.structureStride = stride;
    return b;
}

BufferViewDesc Resolve(bool uav, const BufferViewArgs& a, const ShaderBinding* d, uint64_t bytes, bool validate = false) {
    return ResolveBufferView("test", 0, 0, uav, a, d, bytes, validate, nullptr);
}

}  // namespace

TEST_SUITE("buffer views") {

TEST_CASE("structured views from the declaration: format UNKNOWN, the stride, no RAW flag") {
    const ShaderBinding sb = Declared(5, 6, 1, 12, BindingKind::Srv);    // StructuredBuffer<float3>
    const ShaderBinding rwsb = Declared(6, 6, 1, 16, BindingKind::Uav);  // RWStructuredBuffer<float4>
    BufferViewArgs a;
    a.firstElement = 2;
    a.numElements = 5;
    const BufferViewDesc d = Resolve(false, a, &sb, 120);
    CHECK(BufferViewProblem(d, 120).empty());
    const D3D12_SHADER_RESOURCE_VIEW_DESC s = BufferSrvDesc(d);
    CHECK(s.Format == DXGI_FORMAT_UNKNOWN);
    CHECK(s.ViewDimension == D3D12_SRV_DIMENSION_BUFFER);
    CHECK(s.Shader4ComponentMapping == D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING);
    CHECK(s.Buffer.StructureByteStride == 12);
    CHECK(s.Buffer.Flags == D3D12_BUFFER_SRV_FLAG_NONE);
    CHECK(s.Buffer.FirstElement == 2);
    CHECK(s.Buffer.NumElements == 5);
    const D3D12_UNORDERED_ACCESS_VIEW_DESC u = BufferUavDesc(Resolve(true, BufferViewArgs(), &rwsb, 100));
    CHECK(u.Format == DXGI_FORMAT_UNKNOWN);
    CHECK(u.ViewDimension == D3D12_UAV_DIMENSION_BUFFER);
    CHECK(u.Buffer.StructureByteStride == 16);
    CHECK(u.Buffer.Flags == D3D12_BUFFER_UAV_FLAG_NONE);
    CHECK(u.Buffer.CounterOffsetInBytes == 0);
    CHECK(u.Buffer.NumElements == 6);  // 100 bytes hold 6 whole structures of 16
}

TEST_CASE("raw views: R32_TYPELESS, RAW flag, elements of 4 bytes") {
    const ShaderBinding bab = Declared(7, 4, 1, 0, BindingKind::Srv);    // ByteAddressBuffer
    const ShaderBinding rwbab = Declared(8, 4, 1, 0, BindingKind::Uav);  // RWByteAddressBuffer
    BufferViewArgs a;
    a.firstElement = 3;  // byte 12: FirstElement counts 4-byte words, so offsets are multiples of 4 bytes
    const BufferViewDesc d = Resolve(false, a, &bab, 64);
    const D3D12_SHADER_RESOURCE_VIEW_DESC s = BufferSrvDesc(d);
    CHECK(s.Format == DXGI_FORMAT_R32_TYPELESS);
    CHECK(s.Buffer.Flags == D3D12_BUFFER_SRV_FLAG_RAW);
    CHECK(s.Buffer.StructureByteStride == 0);
    CHECK(s.Buffer.FirstElement == 3);
    CHECK(s.Buffer.NumElements == 13);
    CHECK(d.elementBytes == 4);
    const D3D12_UNORDERED_ACCESS_VIEW_DESC u = BufferUavDesc(Resolve(true, BufferViewArgs(), &rwbab, 64));
    CHECK(u.Format == DXGI_FORMAT_R32_TYPELESS);
    CHECK(u.Buffer.Flags == D3D12_BUFFER_UAV_FLAG_RAW);
    CHECK(u.Buffer.StructureByteStride == 0);
    CHECK(u.Buffer.NumElements == 16);
    // raw=True on a buffer no shader reads gives the same view.
    BufferViewArgs raw;
    raw.raw = 1;
    CHECK(Resolve(true, raw, nullptr, 64) == Resolve(true, BufferViewArgs(), &rwbab, 64));
}

TEST_CASE("typed views: the natural 32-bit format, stride 0, no RAW flag; format= overrides") {
    struct Case {
        uint32_t ret, comps;
        DXGI_FORMAT want;
        uint32_t bytes;
    };
    const Case cases[] = {{5, 4, DXGI_FORMAT_R32G32B32A32_FLOAT, 16}, {5, 1, DXGI_FORMAT_R32_FLOAT, 4}, {5, 3, DXGI_FORMAT_R32G32B32_FLOAT, 12},
                          {4, 2, DXGI_FORMAT_R32G32_UINT, 8},         {3, 1, DXGI_FORMAT_R32_SINT, 4},  {3, 4, DXGI_FORMAT_R32G32B32A32_SINT, 16}};
    for (const Case& c : cases) {
        const ShaderBinding tb = Declared(2, c.ret, c.comps, 0, BindingKind::Srv);  // Buffer<T>
        const BufferViewDesc d = Resolve(false, BufferViewArgs(), &tb, 256);
        const D3D12_SHADER_RESOURCE_VIEW_DESC s = BufferSrvDesc(d);
        CHECK(s.Format == c.want);
        CHECK(s.Buffer.StructureByteStride == 0);
        CHECK(s.Buffer.Flags == D3D12_BUFFER_SRV_FLAG_NONE);
        CHECK(s.Buffer.NumElements == 256 / c.bytes);
        CHECK(BufferViewProblem(d, 256).empty());
    }
    const ShaderBinding rwtb = Declared(4, 5, 4, 0, BindingKind::Uav);  // RWBuffer<float4>
    BufferViewArgs a;
    a.format = DXGI_FORMAT_R8G8B8A8_UNORM;
    a.firstElement = 1;
    const D3D12_UNORDERED_ACCESS_VIEW_DESC u = BufferUavDesc(Resolve(true, a, &rwtb, 64, true));  // float-returning: valid
    CHECK(u.Format == DXGI_FORMAT_R8G8B8A8_UNORM);
    CHECK(u.Buffer.StructureByteStride == 0);
    CHECK(u.Buffer.Flags == D3D12_BUFFER_UAV_FLAG_NONE);
    CHECK(u.Buffer.FirstElement == 1);
    CHECK(u.Buffer.NumElements == 15);
    // unorm elements have no natural format: refused, asking for format=.
    const ShaderBinding unorm = Declared(2, 1, 4, 0, BindingKind::Srv);
    CHECK_THROWS_WITH_AS(Resolve(false, BufferViewArgs(), &unorm, 64), doctest::Contains("pass format="), InvalidArgument);
}

TEST_CASE("validation mode: an explicit view unlike the declaration names register and kinds") {
    ShaderBinding sb = Declared(5, 6, 1, 12, BindingKind::Srv);
    sb.name = "particles";
    sb.shaderRegister = 3;
    BufferViewArgs raw;
    raw.raw = 1;
    CHECK_NOTHROW(Resolve(false, raw, &sb, 96, false));  // without validation the caller's view wins
    CHECK_THROWS_WITH_AS(Resolve(false, raw, &sb, 96, true),
                         doctest::Contains("StructuredBuffer 'particles' at t3 space0, which needs a structured view; the arguments give a raw view"),
                         InvalidArgument);
    BufferViewArgs stride;
    stride.stride = 16;
    CHECK_THROWS_WITH_AS(Resolve(false, stride, &sb, 96, true), doctest::Contains("whose structure is 12 bytes"), InvalidArgument);
    const ShaderBinding tb = Declared(2, 4, 1, 0, BindingKind::Srv);  // Buffer<uint>
    BufferViewArgs f;
    f.format = DXGI_FORMAT_R32_FLOAT;
    CHECK_THROWS_WITH_AS(Resolve(false, f, &tb, 96, true), doctest::Contains("reads uint elements"), InvalidArgument);
}

TEST_CASE("refused: two kinds, nothing to decide from, ranges outside the buffer, bad strides, counters") {
    BufferViewArgs two;
    two.stride = 4;
    two.raw = 1;
    CHECK_THROWS_AS(Resolve(false, two, nullptr, 64), InvalidArgument);
    CHECK_THROWS_WITH_AS(Resolve(false, BufferViewArgs(), nullptr, 64), doctest::Contains("no shader of the bound pipeline reads"), InvalidArgument);
    BufferViewArgs pastEnd;
    pastEnd.raw = 1;
    pastEnd.firstElement = 16;
    CHECK_THROWS_AS(Resolve(false, pastEnd, nullptr, 64), InvalidArgument);
    pastEnd.firstElement = 15;
    pastEnd.numElements = 2;
    CHECK_THROWS_AS(Resolve(false, pastEnd, nullptr, 64), InvalidArgument);
    BufferViewArgs odd;
    odd.stride = 6;
    CHECK_THROWS_WITH_AS(Resolve(false, odd, nullptr, 64), doctest::Contains("multiple of 4"), InvalidArgument);
    odd.stride = 4096;
    CHECK_THROWS_AS(Resolve(false, odd, nullptr, 8192), InvalidArgument);
    const ShaderBinding append = Declared(9, 6, 1, 4, BindingKind::Uav);  // AppendStructuredBuffer
    CHECK_THROWS_WITH_AS(Resolve(true, BufferViewArgs(), &append, 64), doctest::Contains("UAV counter"), InvalidArgument);
    // Descriptions that break the rules are named by BufferViewProblem.
    BufferViewDesc bad;
    bad.kind = BufferViewKind::Structured;
    bad.format = DXGI_FORMAT_R32_FLOAT;
    bad.stride = bad.elementBytes = 4;
    bad.numElements = 1;
    CHECK(BufferViewProblem(bad, 64) == "a structured view has format UNKNOWN");
    BufferViewDesc rawStride;
    rawStride.stride = 4;
    rawStride.numElements = 1;
    CHECK(BufferViewProblem(rawStride, 64) == "a raw view has no structure stride");
}

TEST_CASE("device: Resource::BufferView writes and caches one descriptor per view") {
    auto dev = dx12kit_test::SharedDevice();
    auto buffer = dev->CreateBuffer(256, true, D3D12_HEAP_TYPE_DEFAULT, "views");
    const ShaderBinding sb = Declared(6, 6, 1, 16, BindingKind::Uav);
    const BufferViewDesc structured = Resolve(true, BufferViewArgs(), &sb, buffer->Size());
    BufferViewArgs rawArgs;
    rawArgs.raw = 1;
    const BufferViewDesc raw = Resolve(true, rawArgs, nullptr, buffer->Size());
    const size_t before = buffer->CachedViewCount();
    const D3D12_CPU_DESCRIPTOR_HANDLE a = buffer->BufferView(true, structured);
    CHECK(buffer->BufferView(true, structured).ptr == a.ptr);  // cached
    CHECK(buffer->BufferView(true, raw).ptr != a.ptr);
    CHECK(buffer->BufferView(false, raw).ptr != a.ptr);
    CHECK(buffer->CachedViewCount() == before + 3);
    BufferViewDesc outside = raw;
    outside.firstElement = 60;
    outside.numElements = 8;
    CHECK_THROWS_AS(buffer->BufferView(true, outside), InvalidArgument);
}

TEST_CASE("device: a counter view makes no plain view, and its buffer is registered with the counter once, threads racing") {
    auto dev = dx12kit_test::SharedDevice();
    const ShaderBinding sb = Declared(6, 6, 1, 4, BindingKind::Uav);
    for (int round = 0; round < 20; ++round) {
        auto data = dev->CreateBuffer(256, true, D3D12_HEAP_TYPE_DEFAULT, "appended");
        auto counter = dev->CreateBuffer(256, true, D3D12_HEAP_TYPE_DEFAULT, "counter");
        const BufferViewDesc view = Resolve(true, BufferViewArgs(), &sb, data->Size());
        std::atomic<int> ready{0};
        std::vector<std::thread> threads;
        std::vector<uint64_t> handles(4);
        for (size_t t = 0; t < handles.size(); ++t)
            threads.emplace_back([&, t] {
                ready.fetch_add(1);
                while (ready.load() < int(handles.size())) std::this_thread::yield();
                handles[t] = data->CounterBufferView(view, counter, 4 * (t % 2)).ptr;  // two views on one counter
            });
        for (auto& th : threads) th.join();
        CHECK(handles[0] == handles[2]);
        CHECK(handles[1] == handles[3]);
        CHECK(handles[0] != handles[1]);
        CHECK(data->CachedViewCount() == 0);      // only the counter views: no plain UAV made for the checks
        CHECK(counter->CounterUserCount() == 1);  // one user, however many views and threads
    }
}

}  // TEST_SUITE
