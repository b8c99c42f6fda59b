// The device-independent allocators: FreeList (address-ordered best fit), TLSF and Linear.
// Basics, bad input, deferred frees, and random workloads checked against a shadow model of the
// live ranges (no overlap, inside capacity, aligned) with each allocator's own Validate().
#include <doctest.h>

#include "dx12kit/alloc/FreeListAllocator.hpp"
#include "dx12kit/alloc/LinearAllocator.hpp"
#include "dx12kit/alloc/TlsfAllocator.hpp"
#include "dx12kit/base/Errors.hpp"

#include <map>
#include <random>
#include <vector>

using dx12kit::alloc::FreeListAllocator;
using dx12kit::alloc::kInvalidOffset;
using dx12kit::alloc::LinearAllocator;
using dx12kit::alloc::TlsfAllocator;

namespace {

// Random allocate/free (and deferred free + release) against a model: `occupied` holds every
// range the allocator must not hand out (live ones and deferred frees whose fence is pending),
// `live` the ones that may be freed.
template <class A>
void RandomWorkload(A& a, uint64_t capacity, uint32_t seed, int steps) {
    std::mt19937 rng(seed);
    std::map<uint64_t, uint64_t> occupied;               // offset -> size
    std::vector<uint64_t> live;                          // offsets
    std::vector<std::pair<uint64_t, uint64_t>> pending;  // (fence, offset)
    uint64_t fence = 0;
    for (int step = 0; step < steps; ++step) {
        const uint32_t op = rng() % 10;
        if (op < 5 || live.empty()) {
            const uint64_t size = 1 + rng() % (op == 0 ? capacity / 8 : 64);
            const uint64_t alignment = uint64_t(1) << (rng() % 4);
            const uint64_t off = a.Allocate(size, alignment);
            if (off == kInvalidOffset) continue;
            REQUIRE(off % alignment == 0);
            REQUIRE(off + size <= capacity);
            auto next = occupied.lower_bound(off);
            if (next != occupied.end()) REQUIRE(off + size <= next->first);
            if (next != occupied.begin()) {
                auto prev = std::prev(next);
                REQUIRE(prev->first + prev->second <= off);
            }
            occupied[off] = size;
            live.push_back(off);
        } else {
            const size_t i = rng() % live.size();
            const uint64_t off = live[i];
            live[i] = live.back();
            live.pop_back();
            if (op == 9) {
                a.FreeDeferred(off, ++fence);
                pending.emplace_back(fence, off);
            } else {
                a.Free(off);
                occupied.erase(off);
            }
        }
        if (step % 50 == 0 && fence) {
            const uint64_t done = fence - rng() % 3;
            a.ReleaseStale(done);
            std::vector<std::pair<uint64_t, uint64_t>> still;
            for (auto& p : pending) {
                if (p.first <= done) occupied.erase(p.second);
                else still.push_back(p);
            }
            pending.swap(still);
        }
        if (step % 97 == 0) a.Validate();
    }
    a.Validate();
    // Deferred frees count as allocations until released.
    CHECK(a.GetStats().allocations == live.size() + pending.size());
    a.ReleaseStale(fence);
    CHECK(a.GetStats().allocations == live.size());
    for (uint64_t off : live) a.Free(off);
    a.Validate();
    const auto s = a.GetStats();
    CHECK(s.used == 0);
    CHECK(s.freeBlocks == 1);
    CHECK(s.largestFreeBlock == capacity);
}

}  // namespace

TEST_SUITE("alloc") {

TEST_CASE("FreeList: best fit, lowest address among equals, coalescing") {
    FreeListAllocator a(16);
    CHECK(a.Allocate(2) == 0);  // A [0,2)
    CHECK(a.Allocate(3) == 2);  // B [2,5)
    CHECK(a.Allocate(1) == 5);  // C [5,6)
    CHECK(a.Allocate(3) == 6);  // D [6,9)
    a.Free(2);                  // free [2,5) (3 units) and [9,16) (7 units)
    CHECK(a.GetStats().freeBlocks == 2);
    CHECK(a.Allocate(3) == 2);  // exact fit beats the larger, later block
    a.Free(2);
    a.Free(5);  // [2,6) merges: 4 units
    CHECK(a.GetStats().freeBlocks == 2);
    CHECK(a.GetStats().largestFreeBlock == 7);
    a.Free(0);
    a.Free(6);  // everything merges back into one block
    const auto s = a.GetStats();
    CHECK(s.freeBlocks == 1);
    CHECK(s.largestFreeBlock == 16);
    CHECK(s.used == 0);
    a.Validate();
}

TEST_CASE("FreeList: alignment and a full heap") {
    FreeListAllocator a(64);
    CHECK(a.Allocate(1) == 0);
    CHECK(a.Allocate(4, 16) == 16);
    CHECK(a.Allocate(64) == kInvalidOffset);  // no room: a signal, not an error
    CHECK(a.GetStats().allocations == 2);
    a.Validate();
}

TEST_CASE("FreeList: bad input throws InvalidArgument, state unchanged") {
    FreeListAllocator a(32);
    const uint64_t off = a.Allocate(8);
    CHECK_THROWS_AS(a.Allocate(0), dx12kit::InvalidArgument);
    CHECK_THROWS_AS(a.Allocate(33), dx12kit::InvalidArgument);
    CHECK_THROWS_AS(a.Allocate(4, 3), dx12kit::InvalidArgument);
    CHECK_THROWS_AS(a.Free(off + 1), dx12kit::InvalidArgument);
    a.Free(off);
    CHECK_THROWS_AS(a.Free(off), dx12kit::InvalidArgument);  // double free
    CHECK_THROWS_AS(FreeListAllocator(0), dx12kit::InvalidArgument);
    CHECK(a.GetStats().used == 0);
    a.Validate();
}

TEST_CASE("FreeList: a deferred free stays used until its fence completes") {
    FreeListAllocator a(8);
    const uint64_t x = a.Allocate(8);
    a.FreeDeferred(x, 5);
    CHECK(a.Allocate(1) == kInvalidOffset);
    CHECK(a.PendingFrees() == 1);
    a.ReleaseStale(4);
    CHECK(a.Allocate(1) == kInvalidOffset);
    a.ReleaseStale(5);
    CHECK(a.PendingFrees() == 0);
    CHECK(a.Allocate(8) == 0);
}

TEST_CASE("FreeList: random workloads keep every invariant (both bin kinds)") {
    for (uint32_t bitmapBins : {FreeListAllocator::kAutoBitmapBins, 1u}) {
        CAPTURE(bitmapBins);
        FreeListAllocator a(4096, bitmapBins);
        RandomWorkload(a, 4096, 7 + bitmapBins % 13, 3000);
    }
}

TEST_CASE("TLSF: basics, bad input, deferred frees") {
    TlsfAllocator a(1024);
    const uint64_t x = a.Allocate(100);
    const uint64_t y = a.Allocate(100, 64);
    REQUIRE(x != kInvalidOffset);
    REQUIRE(y != kInvalidOffset);
    CHECK(y % 64 == 0);
    CHECK((x + 100 <= y || y + 100 <= x));
    CHECK_THROWS_AS(a.Allocate(0), dx12kit::InvalidArgument);
    CHECK_THROWS_AS(a.Free(x + 1), dx12kit::InvalidArgument);
    a.FreeDeferred(x, 3);
    CHECK_THROWS_AS(a.Free(x), dx12kit::InvalidArgument);  // already passed to FreeDeferred
    a.ReleaseStale(3);
    a.Free(y);
    a.Validate();
    CHECK(a.GetStats().used == 0);
    CHECK(a.GetStats().largestFreeBlock == 1024);
}

TEST_CASE("TLSF: random workloads keep every invariant") {
    TlsfAllocator a(1 << 16);
    RandomWorkload(a, 1 << 16, 11, 3000);
}

TEST_CASE("Linear: bump allocation, alignment, undo of the last allocation, reset") {
    LinearAllocator a(1024);
    CHECK(a.Allocate(10) == 0);
    CHECK(a.Allocate(16, 256) == 256);
    CHECK(a.Head() == 272);
    CHECK_THROWS_AS(a.Free(0), dx12kit::InvalidArgument);  // only the most recent one
    a.Free(256);                                           // undo: head back to 10
    CHECK(a.Head() == 10);
    CHECK_THROWS_AS(a.Free(256), dx12kit::InvalidArgument);  // one level only
    CHECK(a.Allocate(1014) == 10);
    CHECK(a.Allocate(1) == kInvalidOffset);  // page full
    a.Validate();
    a.Reset();
    CHECK(a.Head() == 0);
    CHECK(a.GetStats().used == 0);
    CHECK(a.Allocate(1024) == 0);
}

}  // TEST_SUITE
