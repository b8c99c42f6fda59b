// DxbcCounters: whether a program uses a UAV counter (IncrementCounter/DecrementCounter, Append/Consume:
// imm_atomic_alloc, imm_atomic_consume). dx12kit creates no UAV with a counter resource, so pipeline
// creation refuses such bytecode (fxc output; vkd3d-shader 2.1 does not compile these methods).
// Device-independent (no D3D12 include).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace dx12kit {

/// The first instruction of the container's program that uses a UAV counter, as
/// "imm_atomic_alloc on u3" ("imm_atomic_consume on u1 (range 0)" in shader model 5.1), or "" when
/// none does. Throws InvalidArgument for a container DxbcContainerProblem refuses.
std::string UavCounterUse(const uint8_t* data, size_t size);

}  // namespace dx12kit
