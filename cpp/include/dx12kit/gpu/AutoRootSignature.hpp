// Root signatures derived from the shaders' reflection (create_*_pipeline without a root signature).
//
// The layout (documented in docs/guides/binding.rst), from every binding each stage declares:
//  - A declaration seen by one stage is visible to that stage; one that several stages declare
//    alike (same register class, space, register, array size and name) is visible to ALL. When two
//    stages declare different things at overlapping registers, each stage's declaration is visible
//    to that stage only (rule 0 of RootSignatureCheck.hpp: no overlap within a visibility). Compute
//    pipelines use ALL throughout (D3D12: the compute side sees every parameter).
//  - A cbuffer (not an array) of at most kAutoRootConstantsMax 32-bit values (its declared size / 4)
//    becomes root constants of that size; other cbuffers become root CBVs.
//  - SRVs, UAVs and cbuffer arrays go into one CBV_SRV_UAV descriptor table per visibility (ranges
//    in register order; an unbounded array gets a table of its own); samplers into one sampler
//    table per visibility. No static samplers.
//  - Order: root constants, root CBVs, view tables, sampler tables; each by visibility, space and
//    register, so that the layout depends only on the shaders.
//  - D3D12 allows 64 DWORDs of root arguments (constants: 1 per value, root descriptors: 2, tables: 1):
//    when over, root constants become root CBVs, then root CBVs move into the tables.
//  - Flags: ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT for graphics pipelines, none for compute.
// Pure function of the reflections: no device, thread-safe.
#pragma once

#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/shaders/DxbcReflection.hpp"

#include <cstdint>
#include <vector>

namespace dx12kit {

/// A cbuffer of at most this many 32-bit values (declared size / 4) becomes root constants.
constexpr uint32_t kAutoRootConstantsMax = 16;

struct AutoRootLayout {
    std::vector<RootParameterDesc> parameters;
    uint32_t flags = 0;  ///< D3D12_ROOT_SIGNATURE_FLAGS
};

/// The layout above for the pipeline whose stages reflect as `stages` (a compute shader alone, or
/// the graphics stages). Throws InvalidArgument when a stage declares something no root signature
/// can hold.
AutoRootLayout DeriveRootLayout(const std::vector<const DxbcReflection*>& stages, bool compute);

}  // namespace dx12kit
