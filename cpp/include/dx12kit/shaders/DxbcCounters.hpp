// DxbcCounters: whether a program uses a UAV counter (IncrementCounter/DecrementCounter, Append/Consume:
// imm_atomic_alloc, imm_atomic_consume), and through which UAV registers (fxc output; vkd3d-shader 2.1
// does not compile these methods). Pipeline creation maps those registers to table slots, which must
// hold views with a counter resource (CommandList::SetUnorderedAccessView's counter).
// Device-independent (no D3D12 include).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dx12kit {

/// The first instruction of the container's program that uses a UAV counter, as
/// "imm_atomic_alloc on u3" ("imm_atomic_consume on u1 (range 0)" in shader model 5.1), or "" when
/// none does. Throws InvalidArgument for a container DxbcContainerProblem refuses.
std::string UavCounterUse(const uint8_t* data, size_t size);

/// The UAV registers (u#) the program counts through, in order of first use. Shader model 5.0 only
/// (a constant register index): InvalidArgument for a counting instruction it cannot name.
std::vector<uint32_t> UavCounterRegisters(const uint8_t* data, size_t size);

}  // namespace dx12kit
