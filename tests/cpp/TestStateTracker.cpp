// The state tracker's fast paths: a whole-resource request of a resource in a uniform state is one
// ALL_SUBRESOURCES barrier however many subresources it has (recorded, and resolved at execute), per
// subresource only where the states differ; and StateEpoch, which command lists compare once per draw
// to skip re-requesting unchanged bindings, moves exactly when a request could change something.
#include <doctest.h>

#include "TestSupport.hpp"

#include "dx12kit/devicecontext/DeviceContext.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/resources/Resource.hpp"
#include "dx12kit/resources/ResourceStateTracker.hpp"

using namespace dx12kit;
using dx12kit_test::SharedDevice;

namespace {

constexpr uint32_t kMips = 9, kSlices = 256;  // 2,304 subresources

std::shared_ptr<Texture> ManySubresources(Device& dev, const char* name) {
    auto t = dev.CreateTexture2D(256, 1, DXGI_FORMAT_R8G8B8A8_UNORM, kMips, kSlices, false, false, false, name);
    REQUIRE(t->NumSubresources() == kMips * kSlices);
    return t;
}

std::vector<InsertedBarrier> ExecuteTransition(const std::shared_ptr<CommandQueue>& q, const std::shared_ptr<Resource>& r,
                                               D3D12_RESOURCE_STATES state, uint32_t sub = kAllSubresources) {
    auto cl = q->CreateCommandList(q);
    cl->TransitionBarrier(r, state, sub);
    q->Wait(q->Execute({cl}));
    return q->LastInsertedBarriers();
}

}  // namespace

TEST_SUITE("device") {

TEST_CASE("state tracker: a list's first use of a texture in a uniform state resolves to one ALL_SUBRESOURCES barrier") {
    auto dev = SharedDevice();
    auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    auto tex = ManySubresources(*dev, "uniform");
    ExecuteTransition(q, tex, D3D12_RESOURCE_STATE_COPY_DEST);
    const auto inserted = ExecuteTransition(q, tex, D3D12_RESOURCE_STATE_COPY_SOURCE);
    REQUIRE(inserted.size() == 1);
    CHECK(inserted[0].subresource == kAllSubresources);
    CHECK(inserted[0].before == D3D12_RESOURCE_STATE_COPY_DEST);
    CHECK(inserted[0].after == D3D12_RESOURCE_STATE_COPY_SOURCE);
    CHECK(tex->GlobalState().IsUniform());

    // The tracker alone, against the same global state: one pending entry, one barrier.
    ResourceStateTracker tracker(dev->Context()->Barriers());
    tracker.Transition(tex, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
    CHECK(tracker.PendingCount() == 1);
    ExecuteStates states;
    const auto barriers = tracker.ResolvePendingBarriers(states);
    REQUIRE(barriers.size() == 1);
    CHECK(barriers[0].Transition.Subresource == kAllSubresources);
    tracker.ApplyFinalStates(states);
    CHECK(states.Get(tex.get()).IsUniform());
    CHECK(states.Get(tex.get()).All() == D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
}

TEST_CASE("state tracker: a texture whose subresources differ gets one barrier per differing subresource") {
    auto dev = SharedDevice();
    auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    auto tex = ManySubresources(*dev, "mixed");
    ExecuteTransition(q, tex, D3D12_RESOURCE_STATE_COPY_DEST);
    ExecuteTransition(q, tex, D3D12_RESOURCE_STATE_COPY_SOURCE, 5);  // subresource 5 apart
    CHECK(!tex->GlobalState().IsUniform());
    const auto inserted = ExecuteTransition(q, tex, D3D12_RESOURCE_STATE_COPY_SOURCE);
    REQUIRE(inserted.size() == kMips * kSlices - 1);
    for (const auto& b : inserted) {
        REQUIRE(b.subresource != 5);
        REQUIRE(b.before == D3D12_RESOURCE_STATE_COPY_DEST);
    }
    CHECK(tex->GlobalState().IsUniform());  // every subresource agrees again
}

TEST_CASE("state tracker: StateEpoch moves when a request changes something, not when it finds the state in place") {
    auto dev = SharedDevice();
    auto tex = ManySubresources(*dev, "epoch");
    auto buf = dev->CreateBuffer(256, true, D3D12_HEAP_TYPE_DEFAULT, "epoch uav");
    ResourceStateTracker tracker(dev->Context()->Barriers());
    uint64_t e = tracker.StateEpoch();
    tracker.Transition(tex, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);  // first use: pending
    CHECK(tracker.StateEpoch() != e);
    e = tracker.StateEpoch();
    tracker.Transition(tex, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);  // in place already
    tracker.Transition(tex, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE, 7);
    CHECK(tracker.StateEpoch() == e);
    tracker.Transition(tex, D3D12_RESOURCE_STATE_COPY_DEST, 7);  // one subresource moves
    CHECK(tracker.StateEpoch() != e);
    e = tracker.StateEpoch();
    tracker.Transition(buf, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    e = tracker.StateEpoch();
    tracker.NoteUavWrite(buf.get());  // the next use needs a UAV barrier
    CHECK(tracker.StateEpoch() != e);
    e = tracker.StateEpoch();
    tracker.NoteUavWrite(buf.get());  // already written: nothing new
    CHECK(tracker.StateEpoch() == e);
    tracker.UavHazard(buf);  // the barrier is recorded
    CHECK(tracker.StateEpoch() != e);
    e = tracker.StateEpoch();
    tracker.UavHazard(buf);  // none due
    CHECK(tracker.StateEpoch() == e);
}

}  // TEST_SUITE
