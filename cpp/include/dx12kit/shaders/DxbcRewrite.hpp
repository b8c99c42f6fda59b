// DXBC bytecode rewrites that make vkd3d 1.2's runtime compute what D3D specifies.
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
//     f16tof32  vkd3d emits GLSL.std.450 UnpackHalf2x16 (and PackHalf2x16 for f32tof16); Mesa 25's
//           lavapipe folds unpack(pack(x)) to x, so f16tof32(f32tof16(f)) returns f unrounded
//           (68538.98 instead of +inf). Mesa 22.3 computes it right. Not vkd3d's fault, but fixed
//           here: with no UnpackHalf2x16 left, there is no pair for any driver to fold.
//     mov   a partial write whose source swizzle is the identity (`mov r0.yzw, r3.xyzw`: the
//           written components from the same components) becomes OpCopyMemory of the whole register:
//           vkd3d 1.2's mov shortcut (source and destination registers of one type and declared mask,
//           no modifiers, swizzle the identity over the register's mask) ignores the instruction's
//           write mask, so the unwritten components are overwritten too (r0.x above gets r3.x).
//           Seen in vkd3d's SPIR-V for temporaries, indexable temporaries, inputs, outputs and
//           constant buffers as either operand. vkd3d-shader 2.1 writes such a swizzle when a 2- or
//           3-component value sits at the same components of two registers (nBody's particle vertex
//           shader: the corner index in r0.x, the position in r0.yzw, the rotated position built in
//           r3.yzw; the index then reads r3.x and the uvs come from the wrong corner).
//
//   RewriteDxbcForVkd3d replaces each of the first four by a short sequence of instructions
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
//   f16tof32 d, s  ->  and b, s, 0x7FFF;  uge a, b, 0x7C00;  movc a, a, 0x70000000, 0x38000000;
//                  ishl b, b, 13;  iadd a, a, b;                       (normals, inf, NaN: exp + 112/224)
//                  ult b, 0x7F800000, a;  and b, b, 0x400000;  or a, a, b;   (NaN: quiet bit set)
//                  ult b, a, 0x38800000;  and b, b, 0x800000;  iadd a, a, b;
//                  movc b, b, -2^-14, 0.0;  add a, a, b;      (zero/subnormal: 2^-14(1+m/1024) - 2^-14)
//                  and b, s, 0x8000;  ishl b, b, 16;  or d, a, b       (sign; _sat: or a + mov_sat d, a)
//     exact for all 65,536 inputs: no float32 denormal is ever an operand (a driver flushing them
//     changes nothing), the subtraction is exact (Sterbenz), subnormal halves come out as normal
//     floats; signalling NaNs come out quiet with their payload, as IEEE conversion and Mesa 22 do.
//
//   mov d.m, s.xyzw (m partial)  ->  the same mov with each unwritten swizzle position selecting the
//     first written component (`mov r0.yzw, r3.yyzw`): the same instruction in DXBC, not the identity
//     over any mask wider than m, so vkd3d 1.2 takes its per-component path. In place; no temporaries.
//
//   (a and b carry the destination's write mask; a NaN is caught by `eq s, s` whatever min/max
//   make of it.) The container's sizes, chunk offsets and checksum are rewritten; other chunks
//   are copied unchanged. Hull shaders (per-phase temporaries) get only the partial-mov change.
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
    uint32_t f16tof32 = 0;          ///< f16tof32 instructions replaced
    uint32_t partialMov = 0;        ///< partial movs whose source swizzle was changed
    bool Changed() const { return ftoi + ftou + firstbitHigh + f16tof32 + partialMov != 0; }
};

/// Rewrites the float-to-integer conversions, firstbit_hi/shi, f16tof32 and partial movs of a DXBC container (see above).
/// Throws InvalidArgument when the container or its program is malformed.
DxbcRewriteResult RewriteDxbcForVkd3d(const uint8_t* data, size_t size);

}  // namespace dx12kit
