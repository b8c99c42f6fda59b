// Placing multisampled textures: D3D12's heap rule (a heap holding MSAA textures is created with
// 4 MiB alignment, D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT, and allows render-target and
// depth textures) and offset rule (a multiple of GetResourceAllocationInfo's alignment). vkd3d
// checks neither, so dx12kit does; the first cases need no device.
#include <doctest.h>

#include "TestSupport.hpp"

#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/memory/MemoryManager.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <string>

using namespace dx12kit;
using memory::HeapKind;
using memory::ResourceClass;

namespace {
constexpr uint64_t KiB64 = 65536, MiB4 = uint64_t(4) << 20;

std::string MessageOf(uint64_t heapAlignment, ResourceClass cls, uint32_t samples) {
    try {
        memory::CheckMsaaHeap(heapAlignment, cls, samples, "t");
    } catch (const InvalidArgument& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("msaa placement: heaps that may hold render targets get 4 MiB alignment, others 64 KiB") {
    CHECK(memory::HeapAlignmentFor(HeapKind::Default, ResourceClass::Any) == MiB4);          // tier 2
    CHECK(memory::HeapAlignmentFor(HeapKind::Default, ResourceClass::RtDsTexture) == MiB4);  // tier 1 RT/DS heap
    CHECK(memory::HeapAlignmentFor(HeapKind::Custom, ResourceClass::Any) == MiB4);
    CHECK(memory::HeapAlignmentFor(HeapKind::Default, ResourceClass::Buffer) == KiB64);
    CHECK(memory::HeapAlignmentFor(HeapKind::Default, ResourceClass::Texture) == KiB64);
    CHECK(memory::HeapAlignmentFor(HeapKind::Upload, ResourceClass::Any) == KiB64);
    CHECK(memory::HeapAlignmentFor(HeapKind::Readback, ResourceClass::Any) == KiB64);
}

TEST_CASE("msaa placement: an MSAA texture needs a 4 MiB-aligned heap that allows RT/DS textures") {
    CHECK(MessageOf(MiB4, ResourceClass::Any, 4).empty());
    CHECK(MessageOf(MiB4, ResourceClass::RtDsTexture, 4).empty());
    CHECK(MessageOf(KiB64, ResourceClass::Any, 1).empty());  // single-sampled: any heap
    const std::string aligned = MessageOf(KiB64, ResourceClass::Any, 4);
    CHECK(aligned.find("D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT") != std::string::npos);
    CHECK(aligned.find("65536") != std::string::npos);
    CHECK(MessageOf(MiB4, ResourceClass::Buffer, 4).find("ALLOW_ONLY_RT_DS_TEXTURES") != std::string::npos);
    CHECK(MessageOf(MiB4, ResourceClass::Texture, 2).find("ALLOW_ONLY_RT_DS_TEXTURES") != std::string::npos);
}

TEST_CASE("msaa placement: offsets must be multiples of the resource's alignment and fit the heap") {
    CHECK_NOTHROW(memory::CheckPlacement(MiB4, KiB64, KiB64, KiB64, "t"));                        // small MSAA alignment
    CHECK_THROWS_AS(memory::CheckPlacement(8 * MiB4, KiB64, KiB64, MiB4, "t"), InvalidArgument);  // 4 MiB alignment
    CHECK_NOTHROW(memory::CheckPlacement(8 * MiB4, MiB4, KiB64, MiB4, "t"));
    CHECK_THROWS_AS(memory::CheckPlacement(MiB4, MiB4, KiB64, KiB64, "t"), InvalidArgument);  // past the end
}

TEST_SUITE("device") {

TEST_CASE("msaa placement: MSAA render targets are placed in 4 MiB-aligned heaps, at their alignment") {
    if (dx12kit_test::UnderWine()) return;  // sample counts differ there; the rule is checked above
    auto dev = dx12kit_test::SharedDevice();
    Device::Placement placed;
    auto t = dev->CreateTexture2D(64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, true, false, false, "msaa rt", placed, 4);
    const memory::MemoryAllocation& a = t->Memory();
    CHECK(!a.IsCommitted());
    CHECK(a.HeapAlignment() == MiB4);
    CHECK(a.Offset() % a.Alignment() == 0);
    CHECK((a.Alignment() == MiB4 || a.Alignment() == KiB64));

    // Allocated memory: placed at a multiple of the texture's alignment; elsewhere refused.
    auto mem = dev->AllocateMemory(4 * a.Alignment(), a.Alignment(), Device::Placement(), "msaa memory");
    CHECK(mem->allocation.HeapAlignment() == MiB4);
    Device::Placement in;
    in.memory = mem;
    in.offset = a.Alignment();
    auto u = dev->CreateTexture2D(64, 64, DXGI_FORMAT_R16G16B16A16_FLOAT, 1, 1, true, false, false, "msaa in memory", in, 4);
    CHECK(u->SampleCount() == 4);
    in.offset = 4096;
    CHECK_THROWS_AS(dev->CreateTexture2D(32, 32, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, true, false, false, "misplaced", in, 4), InvalidArgument);
}
}
