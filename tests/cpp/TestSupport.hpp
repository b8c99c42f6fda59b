// Helpers shared by the C++ tests.
#pragma once

#include "dx12kit/gpu/Device.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace dx12kit_test {

/// Wine's version string when the process runs under Wine (ntdll's wine_get_version), else null.
const char* WineVersion();
bool UnderWine();

/// True when running under Wine and the reproduction of Wine defect `id` (tests/cpp/wine_repros)
/// printed WRONG on this Wine: `id` is a word of DX12KIT_WINE_DEFECTS (set by
/// scripts/test-windows.sh). False natively, and when the variable is unset.
bool WineDefectPresent(const char* id);

/// One device for the whole run (created on first use).
std::shared_ptr<dx12kit::Device> SharedDevice();

/// `n` pseudo-random bytes (xorshift), the same for the same seed.
std::vector<uint8_t> Pattern(size_t n, uint32_t seed);

}  // namespace dx12kit_test

/// Decorator for a test that hits a known defect of Wine's D3D12 (listed in
/// tests/cpp/wine_repros/README.md by `id`, each with a raw-D3D12 reproduction): expected to fail
/// where the defect is present, and to pass everywhere else. Whether it is present is not assumed
/// from "this is Wine" (Wine 10's vkd3d fixed W1, Wine 8's has it): scripts/test-windows.sh runs each
/// reproduction under the same Wine first and lists the ids that printed WRONG in
/// DX12KIT_WINE_DEFECTS (WineDefectPresent). A Wine that fixes a defect thus needs no change here.
#define DX12KIT_WINE_DEFECT(id, what) \
  doctest::should_fail(dx12kit_test::WineDefectPresent(id)) * doctest::description("known Wine defect " id ": " what)
