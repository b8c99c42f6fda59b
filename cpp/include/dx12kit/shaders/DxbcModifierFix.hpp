// Float source modifiers that vkd3d-shader folded into instructions which do not read the operand
// as a float (docs/guides/shader-gaps.rst).
//
// Concept
//   vkd3d-shader 2.1 folds a float negation or abs() that feeds asuint()/asint() into whatever
//   instruction uses the result, as the source modifier -x, |x| or -|x|:
//
//     o[0] = asuint(-f)          ->  store_structured u0.x, l(0), l(0), -cb0[0].x
//     asuint(-f) ^ 1u            ->  xor r0.x, -cb0[0].x, l(1)
//     InterlockedMax(o[1], asuint(abs(f)))  ->  atomic_umax u0, l(1, 0, 0, 0), |cb0[0].x|
//     if (asuint(-f)), switch, buffer addresses, ld coordinates, countbits, ...
//
//   A modifier means float negation/abs only on an operand the instruction reads as a float. On an
//   integer instruction `-` is two's-complement negation (and |x| undefined); stores and atomics
//   move raw bits and vkd3d 1.2 ignores the modifier there. So the shader computes with the bits
//   of +f. This compiler never uses a modifier for integer negation (it emits ineg), so in its
//   output every modifier on a non-float operand is such a fold.
//
//   FixFoldedFloatModifiers makes these shaders right: for each such operand it inserts, just
//   before the instruction, a float `mov rT, <operand with its modifier>` into a fresh temporary
//   (a float mov applies the modifier as the float operation the HLSL asked for: sign bit flipped
//   or cleared), and the instruction reads rT without a modifier. dcl_temps is raised by the most
//   operands fixed in one instruction (or inserted). Applied to bytecode whose RDEF creator is
//   vkd3d-shader; the result is right on any conforming D3D implementation (Windows too).
//
//   Bytecode from another compiler (fxc writes `iadd r0, r1, -r2` for subtraction) keeps its
//   modifiers where DXBC defines them: `-` on an integer arithmetic, compare or condition operand
//   is integer negation, which vkd3d 1.2 computes right. A modifier there that DXBC leaves
//   undefined or vkd3d 1.2 does not honour (|x| on an integer operand; any modifier on a store,
//   atomic, load address or other resource-access operand) is refused: InvalidArgument naming the
//   instruction. So is a fold this pass cannot undo (a modifier inside a relative index, or in a
//   hull shader, whose temporaries are per phase).
//
// Device-independent: no D3D12 include. Thread-safety: a pure function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dx12kit {

/// What FixFoldedFloatModifiers changed.
struct DxbcModifierFixResult {
    std::vector<uint8_t> bytecode;          ///< the rewritten container (a copy of the input when nothing changed)
    uint32_t fixed = 0;                     ///< operands whose modifier was moved into a float mov
    std::vector<std::string> instructions;  ///< the names of the instructions fixed, in program order
    bool Changed() const { return fixed != 0; }
};

/// Moves float modifiers off operands that are not read as floats (see above). Throws
/// InvalidArgument when the container or its program is malformed, or for the refusals above.
DxbcModifierFixResult FixFoldedFloatModifiers(const uint8_t* data, size_t size);

/// The name of a DXBC opcode ("store_structured"), or "opcode N".
std::string DxbcOpcodeName(uint32_t opcode);

}  // namespace dx12kit
