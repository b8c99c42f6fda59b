// BarrierBatch: a list of barrier requests built once and recorded into many command lists with one
// call (a render graph's per-pass barriers, planned at compile time). Recording one goes through the
// list's public barrier calls in order (TransitionBarrier, UavBarrier, AliasingBarrier), so the state
// tracker, the queue-type checks and validation see exactly what separate calls would give them.
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <memory>
#include <string>
#include <vector>

namespace dx12kit {

class CommandList;

class BarrierBatch {
public:
    enum class Kind : uint8_t { Transition, Uav, Aliasing };
    struct Entry {
        Kind kind;
        std::shared_ptr<Resource> first;   // Transition, Uav: the resource; Aliasing: before (may be null)
        std::shared_ptr<Resource> second;  // Aliasing: after (may be null)
        D3D12_RESOURCE_STATES state;       // Transition: the state requested
        // Transition: one subresource index, or all of them
        uint32_t subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    };

    /// A transition of `subresource` (one subresource index, or D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES);
    /// an index out of range throws InvalidArgument now.
    void AddTransition(std::shared_ptr<Resource> r, D3D12_RESOURCE_STATES state, uint32_t subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES);
    void AddUav(std::shared_ptr<Resource> r);  // null: every UAV access
    /// `parkState`: see CommandList::AliasingBarrier.
    void AddAliasing(std::shared_ptr<Resource> before, std::shared_ptr<Resource> after,
                     D3D12_RESOURCE_STATES parkState = D3D12_RESOURCE_STATE_COMMON);

    /// Records every entry into `list`, in order. An entry that fails (another device, a state the
    /// list's queue type may not use) throws; the entries before it stay recorded.
    void Record(CommandList& list) const;

    const std::vector<Entry>& Entries() const { return m_Entries; }
    size_t Size() const { return m_Entries.size(); }
    std::string Describe() const;

private:
    std::vector<Entry> m_Entries;
};

}  // namespace dx12kit
