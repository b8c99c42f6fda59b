#include "dx12kit/gpu/BarrierBatch.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/resources/D3D12Rules.hpp"

namespace dx12kit {

void BarrierBatch::AddTransition(std::shared_ptr<Resource> r, D3D12_RESOURCE_STATES state, uint32_t subresource) {
    if (!r) throw InvalidArgument("BarrierBatch: a transition needs a resource");
    r->CheckSubresource(subresource);
    m_Entries.push_back(Entry{Kind::Transition, std::move(r), nullptr, state, subresource});
}

void BarrierBatch::AddUav(std::shared_ptr<Resource> r) {
    m_Entries.push_back(Entry{Kind::Uav, std::move(r), nullptr, D3D12_RESOURCE_STATE_COMMON});
}

void BarrierBatch::AddAliasing(std::shared_ptr<Resource> before, std::shared_ptr<Resource> after, D3D12_RESOURCE_STATES parkState) {
    if (const char* why = d3d12rules::InvalidStateReason(parkState))
        throw InvalidArgument(std::string("BarrierBatch: an aliasing barrier's state (the state 'after' is parked in) ") + why);
    m_Entries.push_back(Entry{Kind::Aliasing, std::move(before), std::move(after), parkState});
}

void BarrierBatch::Record(CommandList& list) const {
    for (const Entry& e : m_Entries) {
        switch (e.kind) {
            case Kind::Transition: list.TransitionBarrier(e.first, e.state, e.subresource); break;
            case Kind::Uav: list.UavBarrier(e.first); break;
            case Kind::Aliasing: list.AliasingBarrier(e.first, e.second, e.state); break;
        }
    }
}

std::string BarrierBatch::Describe() const {
    size_t n[3] = {0, 0, 0};
    for (const Entry& e : m_Entries) ++n[static_cast<int>(e.kind)];
    return std::to_string(n[0]) + " transition(s), " + std::to_string(n[1]) + " UAV, " + std::to_string(n[2]) + " aliasing";
}

}  // namespace dx12kit
