// Per-subresource resource states, used both for the global state kept on each resource and for
// the state a command list knows locally.
//
//   SubresourceStates
//   +-----------+------------------------------+
//   | m_All     | state of every subresource   |  valid when m_PerSub is empty
//   | m_PerSub  | [s0][s1][s2]...              |  one state per subresource when they differ
//   +-----------+------------------------------+
//
// Setting a single subresource splits "all" into per-subresource entries; when they agree again
// they collapse back to "all" (so a whole-resource barrier can be used).
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <string>
#include <vector>

namespace dx12kit {

/// A state value no D3D12 state uses: "not known yet" in a command list's local view. Every bit
/// from VERTEX_AND_CONSTANT_BUFFER to RESOLVE_SOURCE: an impossible mix of write states, and (unlike
/// -1) inside the value range of the enum, so loading it is defined behaviour (UBSan checks that).
inline constexpr D3D12_RESOURCE_STATES kUnknownState = static_cast<D3D12_RESOURCE_STATES>(0x3FFF);
inline constexpr uint32_t kAllSubresources = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;

class SubresourceStates {
public:
    SubresourceStates() = default;
    SubresourceStates(uint32_t numSubresources, D3D12_RESOURCE_STATES state) : m_NumSubresources(numSubresources), m_All(state) {}

    uint32_t NumSubresources() const { return m_NumSubresources; }
    bool IsUniform() const { return m_PerSub.empty(); }
    /// The state shared by every subresource; only meaningful when IsUniform().
    D3D12_RESOURCE_STATES All() const { return m_All; }
    D3D12_RESOURCE_STATES Get(uint32_t sub) const { return m_PerSub.empty() ? m_All : m_PerSub[sub]; }

    void SetAll(D3D12_RESOURCE_STATES s) {
        m_All = s;
        m_PerSub.clear();
    }
    void Set(uint32_t sub, D3D12_RESOURCE_STATES s) {
        if (sub == kAllSubresources) {
            SetAll(s);
            return;
        }
        if (m_PerSub.empty()) {
            if (m_All == s) return;
            if (m_NumSubresources == 1) {
                m_All = s;
                return;
            }
            m_PerSub.assign(m_NumSubresources, m_All);
        }
        m_PerSub[sub] = s;
        Collapse();
    }
    /// Folds per-subresource states back into one when they all agree.
    void Collapse() {
        if (m_PerSub.empty()) return;
        for (D3D12_RESOURCE_STATES s : m_PerSub)
            if (s != m_PerSub[0]) return;
        m_All = m_PerSub[0];
        m_PerSub.clear();
    }

private:
    uint32_t m_NumSubresources = 1;
    D3D12_RESOURCE_STATES m_All = D3D12_RESOURCE_STATE_COMMON;
    std::vector<D3D12_RESOURCE_STATES> m_PerSub;
};

/// Short text of a state combination ("RENDER_TARGET", "PIXEL_SHADER_RESOURCE|COPY_SOURCE").
std::string StateName(D3D12_RESOURCE_STATES state);

}  // namespace dx12kit
