// DXBC bytecode rewrites that make vkd3d 1.2's runtime compute what D3D specifies (issue 22).
//
// Concept
//   vkd3d 1.2 translates a few DXBC instructions to SPIR-V whose results differ from D3D's rules
//   for some inputs, without a word (measured on lavapipe; docs/guides/shader-gaps.rst):
//
//     ftoi  NaN, +-Inf and values out of range give 0x80000000; D3D: NaN -> 0, clamp to the
//           int range, truncate toward zero.
//     ftou  the same, and values in [2^31, 2^32) (in range!) give 0x80000000 too; D3D: NaN -> 0,
//           negative -> 0, clamp to 0xFFFFFFFF.
//     firstbit_hi / firstbit_shi  "no bit found" (0, and -1 for the signed form) gives 32;
//           D3D: 0xFFFFFFFF.
//
//   RewriteDxbcForVkd3d replaces each of these instructions by a short sequence of instructions
//   that vkd3d 1.2 translates right (compares, min/max, movc, and ftoi only on values it converts
//   correctly), computing into two fresh temporary registers (dcl_temps is raised by 2) and writing
//   the original destination last, so a destination that is also the source is read intact. The
//   sequences follow D3D's rules on any conforming implementation, so the rewritten shader is
//   right everywhere; dx12kit applies it where the runtime is vkd3d (pipeline creation).
//
//   ftoi d, s  ->  max b, s, -2^31;  min b, b, 2147483520.0;  ftoi b, b;  ge a, s, 2^31;
//                  movc b, a, 0x7FFFFFFF, b;  eq a, s, s;  movc d, a, b, 0
//   ftou d, s  ->  max b, s, 0.0;  min b, b, 4294967040.0;  ge a, b, 2^31;  and a, a, bits(-2^31);
//                  add b, b, a;  ftoi b, b;  and a, a, 0x80000000;  or b, b, a;  ge a, s, 2^32;
//                  movc b, a, 0xFFFFFFFF, b;  eq a, s, s;  movc d, a, b, 0
//   firstbit_hi d, s (and _shi)  ->  firstbit_hi b, s;  ult a, b, 32;  movc d, a, b, 0xFFFFFFFF
//
//   (a and b carry the destination's write mask; a NaN is caught by `eq s, s` whatever min/max
//   make of it.) The container's sizes, chunk offsets and checksum are rewritten; other chunks
//   are copied unchanged. Hull shaders (per-phase temporaries) are left alone.
//
// Device-independent: no D3D12 include. Thread-safety: a pure function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dx12kit {

/// What RewriteDxbcForVkd3d changed.
struct DxbcRewriteResult {
    std::vector<uint8_t> bytecode;  ///< the rewritten container (a copy of the input when nothing changed)
    uint32_t ftoi = 0;              ///< ftoi instructions replaced
    uint32_t ftou = 0;              ///< ftou instructions replaced
    uint32_t firstbitHigh = 0;      ///< firstbit_hi / firstbit_shi instructions replaced
    bool Changed() const { return ftoi + ftou + firstbitHigh != 0; }
};

/// Rewrites the float-to-integer conversions and firstbit_hi/shi of a DXBC container (see above).
/// Throws InvalidArgument when the container or its program is malformed.
DxbcRewriteResult RewriteDxbcForVkd3d(const uint8_t* data, size_t size);

}  // namespace dx12kit
