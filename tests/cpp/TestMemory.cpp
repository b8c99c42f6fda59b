// The memory layer on a real device, without Python (natively on vkd3d and, in the mingw-w64
// build, under Wine): resources placed in pooled heaps, committed placement, statistics and the
// pools' invariants, and a defragmentation that keeps every byte.
#include <doctest.h>

#include "TestSupport.hpp"

#include "dx12kit/features/Defragment.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/memory/MemoryManager.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <cstring>
#include <string>
#include <vector>

using namespace dx12kit;
using dx12kit_test::Pattern;

namespace {

// The default pools' 'default' buffers (uma_direct, on by default, puts them in CPU-visible
// memory on a cache-coherent UMA adapter: the custom heap's pool, and other statistics).
DeviceOptions StagingOptions() {
    DeviceOptions o;
    o.umaDirect = false;
    return o;
}

memory::MemoryStats DefaultHeapStats(Device& dev) {
    return dev.Context()->Memory().Stats().heapKinds[static_cast<int>(memory::HeapKind::Default)];
}

struct Filled {
    std::shared_ptr<Device> dev = Device::Create(StagingOptions());  // its own device: exact statistics
    std::shared_ptr<CommandQueue> q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    std::vector<std::shared_ptr<Buffer>> bufs;
    std::vector<std::vector<uint8_t>> data;

    explicit Filled(uint32_t n) {
        Device::Placement placed;
        auto cl = q->CreateCommandList(q);
        for (uint32_t i = 0; i < n; ++i) {
            const uint64_t size = (1 + i % 7) * 4096 + 12;
            bufs.push_back(dev->CreateBuffer(size, false, placed, "b" + std::to_string(i)));
            data.push_back(Pattern(size, i));
            cl->Upload(bufs.back(), data.back().data(), size, 0, 0, 0);
        }
        q->Wait(q->Execute({cl}));
    }
    void CheckContents() {
        for (size_t i = 0; i < bufs.size(); ++i) {
            std::vector<uint8_t> back(data[i].size());
            q->ReadBuffer(q, bufs[i], back.data(), back.size());
            CHECK_MESSAGE(back == data[i], bufs[i]->Name());
        }
    }
};

}  // namespace

TEST_SUITE("device") {

TEST_CASE("memory: small buffers are placed together in pooled heaps and read back") {
    Filled f(64);
    const memory::MemoryStats s = DefaultHeapStats(*f.dev);
    CHECK(s.allocationCount == 64);
    CHECK(s.blockCount <= 2);  // 64 buffers of 64 KiB placement each: one or two heaps, not 64
    for (const auto& b : f.bufs) CHECK(!b->Memory().IsCommitted());
    f.CheckContents();
    f.dev->Context()->Memory().Validate();
}

TEST_CASE("memory: committed placement on request, freed by fence") {
    auto dev = Device::Create(StagingOptions());
    Device::Placement committed;
    committed.committed = true;
    auto b = dev->CreateBuffer(65536, false, committed, "committed");
    CHECK(b->Memory().IsCommitted());
    CHECK(DefaultHeapStats(*dev).allocationCount == 1);
    b.reset();
    dev->Poll();
    CHECK(DefaultHeapStats(*dev).allocationCount == 0);
    dev->Context()->Memory().Validate();
}

TEST_CASE("memory: defragmentation after freeing half keeps every byte and frees space") {
    Filled f(96);
    for (size_t i = f.bufs.size(); i-- > 0;)
        if (i % 2 == 0) {
            f.bufs.erase(f.bufs.begin() + static_cast<std::ptrdiff_t>(i));
            f.data.erase(f.data.begin() + static_cast<std::ptrdiff_t>(i));
        }
    f.dev->WaitIdle();
    f.dev->Poll();
    const memory::MemoryStats before = DefaultHeapStats(*f.dev);
    const DefragmentStats st = Defragment(*f.dev, nullptr, memory::DefragAlgorithm::Full, 0, 0);
    CHECK(st.moves > 0);
    CHECK(st.bytesMoved > 0);
    const memory::MemoryStats after = DefaultHeapStats(*f.dev);
    CHECK(after.allocationCount == before.allocationCount);
    CHECK(after.unusedRangeCount <= before.unusedRangeCount);
    f.CheckContents();
    f.dev->Context()->Memory().Validate();
}

TEST_CASE("memory: defragmentation never moves a heap='custom' buffer, pinned or not; uma_direct buffers beside them move") {
    auto dev = Device::Create(DeviceOptions{});
    if (!dev->Context()->Memory().CacheCoherentUma()) return;  // no custom heap (e.g. Wine's adapter)
    auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    Device::Placement custom;
    std::vector<std::shared_ptr<Buffer>> bufs;  // even: heap='default' (uma_direct: custom pool), odd: heap='custom'
    for (int i = 0; i < 16; ++i) {
        custom.heap = i % 2 ? memory::HeapKind::Custom : memory::HeapKind::Default;
        bufs.push_back(dev->CreateBuffer(65536, false, custom, "b" + std::to_string(i)));
    }
    for (size_t i = 1; i < bufs.size(); i += 2) std::memset(bufs[i]->HostView(1, "test"), int(i + 1), 65536);
    bufs.erase(bufs.begin(), bufs.begin() + 6);
    dev->WaitIdle();
    dev->Poll();
    std::vector<uint64_t> at;
    for (const auto& b : bufs) at.push_back(b->Memory().Offset());
    uint8_t* held = bufs[1]->HostView(1, "test");  // b7: a raw pointer the caller keeps
    const DefragmentStats st = Defragment(*dev, nullptr, memory::DefragAlgorithm::Full, 0, 0);
    Defragment(*dev, nullptr, memory::DefragAlgorithm::Full, 0, 0);
    for (size_t i = 1; i < bufs.size(); i += 2) CHECK(bufs[i]->Memory().Offset() == at[i]);  // heap='custom': never
    if (dev->Context()->Memory().DefaultPool(memory::HeapKind::Custom) &&
        bufs[0]->Memory().Pool() == dev->Context()->Memory().DefaultPool(memory::HeapKind::Custom).get())
        CHECK(st.moves >= 1);  // uma_direct buffers share the pool, and move into the holes
    std::memset(held, 0xCD, 65536);
    std::vector<uint8_t> back(65536);
    q->ReadBuffer(q, bufs[1], back.data(), back.size());
    CHECK(back == std::vector<uint8_t>(65536, 0xCD));
    dev->Context()->Memory().Validate();
}

}  // TEST_SUITE
