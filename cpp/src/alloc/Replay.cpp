// Replay: trace validation (the replay loop is a template in the header).
#include "dx12kit/alloc/Replay.hpp"

#include <algorithm>
#include <string>

namespace dx12kit::alloc {

size_t ValidateTrace(const int64_t* rows, size_t count, uint64_t capacity, bool supportsDeferred) {
    int64_t maxSlot = -1;
    for (size_t i = 0; i < count; ++i) {
        const int64_t* row = rows + 3 * i;
        const int64_t kind = row[0], slot = row[1];
        auto bad = [&](const std::string& why) {
            throw InvalidArgument("replay: row " + std::to_string(i) + " [" + std::to_string(kind) + ", " + std::to_string(slot) + ", " +
                                  std::to_string(row[2]) + "]: " + why);
        };
        if (kind < kReplayAllocate || kind > kReplayReset) bad("kind must be 0..4");
        if (!supportsDeferred && (kind == kReplayFreeDeferred || kind == kReplayReleaseStale))
            bad("this allocator has no deferred frees (kinds 2 and 3)");
        if (kind == kReplayAllocate || kind == kReplayFree || kind == kReplayFreeDeferred) {
            bool discard = kind == kReplayAllocate && slot == -1;
            if (!discard && (slot < 0 || slot > kReplayMaxSlot))
                bad("slot must be 0.." + std::to_string(kReplayMaxSlot) + (kind == kReplayAllocate ? " (or -1 to discard the offset)" : ""));
            maxSlot = std::max(maxSlot, slot);
        }
        if (kind == kReplayAllocate && (row[2] < 1 || static_cast<uint64_t>(row[2]) > capacity)) bad("size must be 1.." + std::to_string(capacity));
        if ((kind == kReplayFreeDeferred || kind == kReplayReleaseStale) && row[2] < 0) bad("fence value must be >= 0");
    }
    // Second pass: an allocation into a slot that still holds one would lose track of it.
    std::vector<bool> held(static_cast<size_t>(maxSlot + 1), false);
    for (size_t i = 0; i < count; ++i) {
        const int64_t* row = rows + 3 * i;
        switch (row[0]) {
            case kReplayAllocate:
                if (row[1] < 0) break;
                if (held[row[1]])
                    throw InvalidArgument("replay: row " + std::to_string(i) + " allocates into slot " + std::to_string(row[1]) +
                                          ", which still holds an allocation");
                held[row[1]] = true;
                break;
            case kReplayFree:
            case kReplayFreeDeferred: held[row[1]] = false; break;
            case kReplayReset: std::fill(held.begin(), held.end(), false); break;
            default: break;
        }
    }
    return static_cast<size_t>(maxSlot + 1);
}

}  // namespace dx12kit::alloc
