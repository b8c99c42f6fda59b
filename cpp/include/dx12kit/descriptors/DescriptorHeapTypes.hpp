// Small helpers about D3D12_DESCRIPTOR_HEAP_TYPE shared by the descriptor classes: validity,
// printable names for error messages, shader-visibility and D3D12's size limits.
// Stateless, header-only, thread-safe; every function is O(1).
//
//   type            name           shader-visible   max shader-visible descriptors
//   CBV_SRV_UAV     "CBV_SRV_UAV"  yes              1,000,000 (tier 1/2; tier 3 may allow more)
//   SAMPLER         "SAMPLER"      yes              2,048
//   RTV, DSV        "RTV", "DSV"   no               -
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdint>

namespace dx12kit {

/// D3D12's limit for a shader-visible sampler heap.
inline constexpr uint32_t kMaxShaderVisibleSamplers = 2048;
/// D3D12's limit for a shader-visible CBV/SRV/UAV heap at resource binding tiers 1 and 2.
inline constexpr uint32_t kMaxShaderVisibleCbvSrvUav = 1000000;

inline bool IsValidDescriptorHeapType(D3D12_DESCRIPTOR_HEAP_TYPE type) noexcept {
    return type == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV || type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER || type == D3D12_DESCRIPTOR_HEAP_TYPE_RTV ||
           type == D3D12_DESCRIPTOR_HEAP_TYPE_DSV;
}

inline bool IsShaderVisibleHeapType(D3D12_DESCRIPTOR_HEAP_TYPE type) noexcept {
    return type == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV || type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER;
}

inline const char* DescriptorHeapTypeName(D3D12_DESCRIPTOR_HEAP_TYPE type) noexcept {
    switch (type) {
        case D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV: return "CBV_SRV_UAV";
        case D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER: return "SAMPLER";
        case D3D12_DESCRIPTOR_HEAP_TYPE_RTV: return "RTV";
        case D3D12_DESCRIPTOR_HEAP_TYPE_DSV: return "DSV";
        default: return "unknown";
    }
}

}  // namespace dx12kit
