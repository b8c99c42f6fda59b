// PassBufferPool (dx12kit/gpu/PassBuffers.hpp): a pass buffer comes back once its lease is released
// (its list's work completed) and is handed out again instead of a new one; never while leased.
#include <doctest.h>

#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/PassBuffers.hpp"
#include "dx12kit/resources/Resource.hpp"

#include "TestSupport.hpp"

using namespace dx12kit;

TEST_SUITE("pass buffers") {

TEST_CASE("device: a released pass buffer is reused, a leased one never") {
    auto dev = dx12kit::Device::Create(DeviceOptions());
    PassBufferPool& pool = dev->PassBuffers();
    const uint64_t created = pool.Created();
    Resource* first = nullptr;
    {
        auto a = pool.Acquire(1000, D3D12_HEAP_TYPE_DEFAULT, "test scratch");
        first = a.get();
        CHECK(a->Size() == (uint64_t(64) << 10));
        CHECK(a->AllowsUav());
        auto b = pool.Acquire(1000, D3D12_HEAP_TYPE_DEFAULT, "test scratch");
        CHECK(b.get() != first);  // a is still leased
        CHECK(pool.Created() == created + 2);
    }
    CHECK(pool.FreeCount() == 2);
    auto again = pool.Acquire(65536, D3D12_HEAP_TYPE_DEFAULT, "test scratch");  // the same size class
    CHECK(pool.Created() == created + 2);
    auto readback = pool.Acquire(8, D3D12_HEAP_TYPE_READBACK, "test check");
    CHECK(readback->HeapType() == D3D12_HEAP_TYPE_READBACK);
    CHECK(readback->Size() == 256);
    CHECK(pool.Created() == created + 3);
    auto bigger = pool.Acquire(65537, D3D12_HEAP_TYPE_DEFAULT, "test scratch");  // the next class: made
    CHECK(bigger->Size() == (uint64_t(128) << 10));
    CHECK(pool.Created() == created + 4);
}

TEST_CASE("device: a pass buffer released after the device closed is destroyed, not kept") {
    auto dev = dx12kit::Device::Create(DeviceOptions());
    PassBufferPool& pool = dev->PassBuffers();
    auto held = pool.Acquire(100, D3D12_HEAP_TYPE_DEFAULT, "test scratch");  // a list dropped unexecuted after close
    { auto returned = pool.Acquire(100, D3D12_HEAP_TYPE_DEFAULT, "test scratch"); }
    CHECK(pool.FreeCount() == 1);
    dev->Close();
    CHECK(pool.FreeCount() == 0);
    held.reset();
    CHECK(pool.FreeCount() == 0);
}

}  // TEST_SUITE
