// The state tracker's fast paths: a whole-resource request of a resource in a uniform state is one
// ALL_SUBRESOURCES barrier however many subresources it has (recorded, and resolved at execute), per
// subresource only where the states differ; and StateEpoch, which command lists compare once per draw
// to skip re-requesting unchanged bindings, moves exactly when a request could change something.
// A read that the known read-only state already allows (PIXEL | NON_PIXEL_SHADER_RESOURCE asked for
// NON_PIXEL) records nothing and keeps the wider state; writes, COMMON, pending first uses,
// per-subresource requests and explicit transition_barrier calls stay exact.
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

namespace {
constexpr auto kPsr = D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE;
constexpr auto kNpsr = D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE;
const auto kBothSrv = D3D12_RESOURCE_STATES(uint32_t(kPsr) | uint32_t(kNpsr));

std::shared_ptr<Texture> SmallTexture(Device& dev, const char* name, uint32_t mips = 1) {
    return dev.CreateTexture2D(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, mips, 1, false, false, false, name);
}
}  // namespace

TEST_CASE("state tracker: a read the known read-only state already allows records no barrier and keeps the wider state") {
    auto dev = SharedDevice();
    auto tex = SmallTexture(*dev, "both srv");
    ResourceStateTracker tracker(dev->Context()->Barriers());
    tracker.Transition(tex, D3D12_RESOURCE_STATE_COPY_DEST);  // first use: pending
    tracker.Transition(tex, kBothSrv);                        // a recorded barrier
    const uint64_t recorded = dev->Context()->Barriers().recorded.load();
    const uint64_t epoch = tracker.StateEpoch();
    tracker.Transition(tex, kNpsr);
    tracker.Transition(tex, kPsr);
    CHECK(dev->Context()->Barriers().recorded.load() == recorded);
    CHECK(tracker.StateEpoch() == epoch);
    CHECK(tracker.KnownState(tex.get(), kAllSubresources) == kBothSrv);
    // GENERIC_READ holds COPY_SOURCE and INDIRECT_ARGUMENT: no barrier either.
    tracker.Transition(tex, D3D12_RESOURCE_STATE_GENERIC_READ);
    const uint64_t recorded2 = dev->Context()->Barriers().recorded.load();
    tracker.Transition(tex, D3D12_RESOURCE_STATE_COPY_SOURCE);
    tracker.Transition(tex, D3D12_RESOURCE_STATES(uint32_t(D3D12_RESOURCE_STATE_COPY_SOURCE) | uint32_t(kNpsr)));
    CHECK(dev->Context()->Barriers().recorded.load() == recorded2);
    CHECK(tracker.KnownState(tex.get(), kAllSubresources) == D3D12_RESOURCE_STATE_GENERIC_READ);
    // The list's final state is the wider one, and its first need (pending) is unchanged.
    CHECK(tracker.PendingCount() == 1);
    ExecuteStates states;
    tracker.ResolvePendingBarriers(states);
    tracker.ApplyFinalStates(states);
    CHECK(states.Get(tex.get()).All() == D3D12_RESOURCE_STATE_GENERIC_READ);
}

TEST_CASE("state tracker: writes, COMMON, a read outside the state, one subresource and an explicit barrier still transition") {
    auto dev = SharedDevice();
    auto tex = SmallTexture(*dev, "exact", 3);
    ResourceStateTracker tracker(dev->Context()->Barriers());
    auto& stats = dev->Context()->Barriers();
    tracker.Transition(tex, D3D12_RESOURCE_STATE_COPY_DEST);
    tracker.Transition(tex, kBothSrv);
    auto expectBarrier = [&](D3D12_RESOURCE_STATES state, uint32_t sub, bool exact, D3D12_RESOURCE_STATES known) {
        const uint64_t before = stats.recorded.load();
        tracker.Transition(tex, state, sub, exact);
        CHECK(stats.recorded.load() == before + 1);
        CHECK(tracker.KnownState(tex.get(), sub) == known);
    };
    expectBarrier(kNpsr, 1, false, kNpsr);  // one subresource: exact
    CHECK(tracker.KnownState(tex.get(), 0) == kBothSrv);
    expectBarrier(kBothSrv, 1, false, kBothSrv);
    CHECK(tracker.KnownState(tex.get(), kAllSubresources) == kBothSrv);
    expectBarrier(kNpsr, kAllSubresources, true, kNpsr);  // transition_barrier: what the caller asked for
    expectBarrier(kBothSrv, kAllSubresources, false, kBothSrv);
    expectBarrier(D3D12_RESOURCE_STATE_COPY_SOURCE, kAllSubresources, false, D3D12_RESOURCE_STATE_COPY_SOURCE);  // not held
    expectBarrier(kBothSrv, kAllSubresources, false, kBothSrv);
    expectBarrier(D3D12_RESOURCE_STATE_COMMON, kAllSubresources, false, D3D12_RESOURCE_STATE_COMMON);  // COMMON: exact
    expectBarrier(kNpsr, kAllSubresources, false, kNpsr);  // from COMMON: a barrier (textures are not promoted here)
    expectBarrier(D3D12_RESOURCE_STATE_RENDER_TARGET, kAllSubresources, false, D3D12_RESOURCE_STATE_RENDER_TARGET);
    expectBarrier(kNpsr, kAllSubresources, false, kNpsr);  // from a write state
}

TEST_CASE("state tracker: a list's first use stays its exact state, resolved at execute against a wider one") {
    auto dev = SharedDevice();
    auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    auto tex = SmallTexture(*dev, "pending");
    ExecuteTransition(q, tex, kBothSrv);
    // First use NON_PIXEL: the list's later barriers start from it, so execute must put it there.
    ResourceStateTracker tracker(dev->Context()->Barriers());
    tracker.Transition(tex, kNpsr);
    tracker.Transition(tex, D3D12_RESOURCE_STATE_COPY_SOURCE);
    ExecuteStates states;
    const auto barriers = tracker.ResolvePendingBarriers(states);
    REQUIRE(barriers.size() == 1);
    CHECK(barriers[0].Transition.StateBefore == kBothSrv);
    CHECK(barriers[0].Transition.StateAfter == kNpsr);
    // Through a command list: the same, and the resource ends where the list left it.
    auto cl = q->CreateCommandList(q);
    cl->TransitionBarrier(tex, kNpsr, kAllSubresources);
    q->Wait(q->Execute({cl}));
    const auto inserted = q->LastInsertedBarriers();
    REQUIRE(inserted.size() == 1);
    CHECK(inserted[0].before == kBothSrv);
    CHECK(tex->GlobalState().All() == kNpsr);
}

TEST_CASE("state tracker: a list ending in the wider read state it kept, then a compute-queue read, is put right on the direct queue") {
    // The direct list reads the texture as PIXEL | NON_PIXEL (a draw's SRV), then as NON_PIXEL (a dispatch): the
    // second read records nothing (ReadCovered), so the list ends in the wider state. D3D12 forbids
    // PIXEL_SHADER_RESOURCE on compute queues (transitions from it included): the compute list's read
    // must be preceded by the transition on the direct queue, and the texture ends in NON_PIXEL.
    auto dev = SharedDevice();
    auto direct = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    auto compute = dev->Queue(D3D12_COMMAND_LIST_TYPE_COMPUTE);
    auto tex = SmallTexture(*dev, "wide then compute");
    ExecuteTransition(direct, tex, D3D12_RESOURCE_STATE_COPY_DEST);
    auto cl = direct->CreateCommandList(direct);
    cl->Tracker().Transition(tex, kBothSrv);
    const uint64_t recorded = dev->Context()->Barriers().recorded.load();
    cl->Tracker().Transition(tex, kNpsr);
    CHECK(dev->Context()->Barriers().recorded.load() == recorded);  // kept: nothing recorded
    direct->Wait(direct->Execute({cl}));
    CHECK(tex->GlobalState().All() == kBothSrv);  // what the list left on the GPU
    auto ccl = compute->CreateCommandList(compute);
    ccl->Tracker().Transition(tex, kNpsr);
    compute->Wait(compute->Execute({ccl}));
    const auto inserted = compute->LastInsertedBarriers();
    REQUIRE(inserted.size() == 1);
    CHECK(inserted[0].before == kBothSrv);
    CHECK(inserted[0].after == kNpsr);
    CHECK(inserted[0].onDirectQueue);  // never recorded on the compute queue
    CHECK(tex->GlobalState().All() == kNpsr);
}

TEST_CASE("state tracker: a read covered by the wider state is recorded exactly for a texture a compute queue uses") {
    // Once a compute queue used the texture, a direct list asking for PIXEL | NON_PIXEL then NON_PIXEL records the
    // narrowing (one barrier in the list) instead of keeping PIXEL_SHADER_RESOURCE, so the next compute-queue list
    // needs no direct-queue fix-up (a submission, a signal and a GPU wait).
    auto dev = SharedDevice();
    auto direct = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    auto compute = dev->Queue(D3D12_COMMAND_LIST_TYPE_COMPUTE);
    auto tex = SmallTexture(*dev, "compute reads it");
    ExecuteTransition(compute, tex, kNpsr);
    CHECK(tex->UsedOnComputeQueue());
    auto cl = direct->CreateCommandList(direct);
    cl->Tracker().Transition(tex, kBothSrv);  // pending (first use)
    cl->Tracker().Transition(tex, kBothSrv);
    const uint64_t recorded = dev->Context()->Barriers().recorded.load();
    cl->Tracker().Transition(tex, kNpsr);
    CHECK(dev->Context()->Barriers().recorded.load() == recorded + 1);
    CHECK(cl->Tracker().KnownState(tex.get(), kAllSubresources) == kNpsr);
    direct->Wait(direct->Execute({cl}));
    CHECK(tex->GlobalState().All() == kNpsr);
    auto ccl = compute->CreateCommandList(compute);
    ccl->Tracker().Transition(tex, kNpsr);
    compute->Wait(compute->Execute({ccl}));
    CHECK(compute->LastInsertedBarriers().empty());
    // A texture no compute queue used keeps the wider state (no barrier), as before.
    auto other = SmallTexture(*dev, "direct only");
    ExecuteTransition(direct, other, kBothSrv);
    CHECK(!other->UsedOnComputeQueue());
    ResourceStateTracker tracker(dev->Context()->Barriers());
    tracker.Transition(other, kBothSrv);
    tracker.Transition(other, kBothSrv);
    const uint64_t recorded2 = dev->Context()->Barriers().recorded.load();
    tracker.Transition(other, kNpsr);
    CHECK(dev->Context()->Barriers().recorded.load() == recorded2);
    CHECK(tracker.KnownState(other.get(), kAllSubresources) == kBothSrv);
}

}  // TEST_SUITE
