// D3D12's rules for a sampler's fields, written once for table samplers (D3D12_SAMPLER_DESC: the
// Sampler constructor, Device.create_sampler) and static samplers (StaticSamplerDesc: StaticSampler
// and the RootSignature constructor), and the settings the backend does not sample as D3D12 says.
//
// D3D12 (D3D12_SAMPLER_DESC, D3D12_STATIC_SAMPLER_DESC and D3D12_FILTER on learn.microsoft.com):
//  1. Filter is a D3D12_FILTER: the point/linear combinations or ANISOTROPIC, each in the standard,
//     COMPARISON_, MINIMUM_ or MAXIMUM_ reduction. AddressU/V/W are D3D12_TEXTURE_ADDRESS_MODEs.
//  2. MaxAnisotropy: "Valid values are between 1 and 16" (D3D12_MAX_MAXANISOTROPY).
//  3. MipLODBias: within [D3D12_MIP_LOD_BIAS_MIN, D3D12_MIP_LOD_BIAS_MAX] = [-16, 15.99].
//  4. MinLOD and MaxLOD: not NaN; MaxLOD "must be greater than or equal to MinLOD".
//  5. BorderColor: each component "between 0.0 and 1.0 inclusive"; a static sampler's is one of
//     D3D12_STATIC_BORDER_COLOR.
//  6. ComparisonFunc: a D3D12_COMPARISON_FUNC. D3D12_SAMPLER_DESC has no default for it; 0 (a zeroed
//     desc; D3D12_COMPARISON_FUNC_NONE in later SDKs) means "not given": a comparison filter then
//     compares LESS_EQUAL, the default of D3D12's root-signature language (StaticSampler in
//     "Specifying Root Signatures in HLSL") and of CD3DX12_STATIC_SAMPLER_DESC - never NEVER, which
//     makes every SampleCmp return 0. Other filters get NEVER, which D3D12 ignores. A function given
//     with a non-comparison filter is kept as given: D3D12 ignores it ("This is OK, as the
//     ComparisonFunc will simply be ignored", debug-layer warning CREATE_SAMPLER_COMPARISON_FUNC_IGNORED).
// The backend (platform::SamplerSupport, as DeviceContext::Samplers() holds it for a device):
//  7. A border colour other than transparent black (0, 0, 0, 0) with a BORDER address mode, where
//     borderColors is false (vkd3d 1.2 samples every border as transparent black).
//  8. MIRROR_ONCE where mirrorOnce is false (vkd3d 1.2 samples it as WRAP).
//  9. A MINIMUM_/MAXIMUM_ filter where minMaxFiltering is false (D3D12 needs tiled resources tier 2;
//     vkd3d 1.2 filters them as standard filters).
// Each violation throws InvalidArgument naming the call (`what`) and the field by its Python name
// (filter, address, address_v, address_w, mip_lod_bias, max_anisotropy, comparison, border_color,
// min_lod, max_lod). All O(1); samplers and root signatures are checked once, at creation.
#pragma once

#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <array>
#include <string>

namespace dx12kit {

/// Whether `filter` is a COMPARISON_ filter (D3D12_DECODE_IS_COMPARISON_FILTER).
bool IsComparisonFilter(D3D12_FILTER filter);

/// `filter`'s name as the root-signature language spells it, lower case and without FILTER_
/// ("min_mag_mip_point", "comparison_anisotropic", ...: what Device.create_sampler takes); its value
/// in hex when it is not a D3D12_FILTER.
std::string FilterName(D3D12_FILTER filter);

/// The colour of a D3D12_STATIC_BORDER_COLOR. Throws InvalidArgument (naming `what`) for other values.
std::array<float, 4> StaticBorderColorValue(D3D12_STATIC_BORDER_COLOR color, const std::string& what);

/// Rules 1-6 on `desc`, completing its ComparisonFunc (rule 6), then rules 7-9 when `support` is
/// given (nullptr: D3D12's rules only, for a sampler not yet tied to a device).
void CheckSamplerDesc(D3D12_SAMPLER_DESC& desc, const platform::SamplerSupport* support, const std::string& what);

/// The same for a static sampler (addressV/addressW 0 stand for `address`).
void CheckStaticSamplerDesc(StaticSamplerDesc& desc, const platform::SamplerSupport* support, const std::string& what);

}  // namespace dx12kit
