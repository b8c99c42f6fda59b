// Defragmentation (Python Device.defragment): moves placed resources so that memory blocks empty
// and can be released (how: cpp/src/features/Defragment.cpp).
#pragma once

#include "dx12kit/memory/MemoryPool.hpp"

#include <cstdint>
#include <functional>
#include <memory>

namespace dx12kit {

class Device;

struct DefragmentStats {
    uint64_t moves = 0;
    uint64_t bytesMoved = 0;
    uint64_t blocksFreed = 0;
    uint32_t passes = 0;
    double seconds = 0;
};

/// Moves placed resources of `pool` (a 'default' heap pool; nullptr: the default pools of the
/// default heap and, on a cache-coherent UMA adapter, of the custom heap, where uma_direct buffers
/// live) so that blocks empty: plans with the memory layer, copies on the GPU (copy queue when every
/// source is in COMMON), re-points each Resource (same object, same cached descriptors, mapped again
/// in its new place), frees the old memory after the copy. maxBytes/maxMoves (0: none, else summed
/// over the pools) make it incremental: one bounded pass without waiting; otherwise passes run until
/// nothing moves, then empty blocks are released. Only heap='default' resources move
/// (Device::AdoptPlacement); never CPU-visible memory the user may hold pointers into
/// (heap='custom', upload, readback), resources used by a command list still being recorded, or
/// resources pinned by dx12kit's own CPU access (PinInPlace). InvalidArgument for a
/// custom/upload/readback or linear pool, or one of another device.
/// `progress` (optional) is called with (moves done, moves planned so far) once per moved
/// allocation, after the copies of its pass have completed on the GPU (an incremental pass: have
/// been submitted), with no lock of the device held (it may take a language runtime's lock, e.g.
/// Python's GIL); what it throws ends the defragmentation after that pass (every move done so far
/// is complete and consistent).
DefragmentStats Defragment(Device& device, const std::shared_ptr<memory::MemoryPool>& pool, memory::DefragAlgorithm algorithm, uint64_t maxBytes,
                           uint64_t maxMoves, const std::function<void(uint64_t done, uint64_t total)>& progress = nullptr);

}  // namespace dx12kit
