// The random trace builder (RandomTrace.hpp).
#include "RandomTrace.hpp"

#include "dx12kit/alloc/Replay.hpp"

#include <algorithm>
#include <vector>

namespace dx12kit::bench {

using alloc::kReplayAllocate;
using alloc::kReplayFree;

void BuildRandomTrace(const double* uAlloc, const double* uPick, const int64_t* sizes, size_t count, uint64_t maxLive, double pAlloc, int64_t* out) {
    std::vector<int64_t> live, freeSlots;
    int64_t nextSlot = 0;
    for (size_t i = 0; i < count; ++i) {
        int64_t* row = out + 3 * i;
        if (live.empty() || (live.size() < maxLive && uAlloc[i] < pAlloc)) {
            int64_t slot;
            if (freeSlots.empty()) {
                slot = nextSlot++;
            } else {
                slot = freeSlots.back();
                freeSlots.pop_back();
            }
            live.push_back(slot);
            row[0] = kReplayAllocate;
            row[1] = slot;
            row[2] = sizes[i];
        } else {
            size_t k = std::min(static_cast<size_t>(uPick[i] * static_cast<double>(live.size())), live.size() - 1);
            int64_t slot = live[k];
            live[k] = live.back();
            live.pop_back();
            freeSlots.push_back(slot);
            row[0] = kReplayFree;
            row[1] = slot;
            row[2] = 0;
        }
    }
}

}  // namespace dx12kit::bench
