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

/// One device for the whole run (created on first use).
std::shared_ptr<dx12kit::Device> SharedDevice();

/// `n` pseudo-random bytes (xorshift), the same for the same seed.
std::vector<uint8_t> Pattern(size_t n, uint32_t seed);

}  // namespace dx12kit_test

/// Decorator for a test that hits a known defect of Wine's D3D12 (listed in
/// tests/cpp/wine_repros/README.md, each with a raw-D3D12 reproduction): under Wine the test must
/// fail, so a Wine that fixed the defect shows up as a failure ("should have failed") that asks
/// for the marker to be removed. Elsewhere the test runs normally.
#define DX12KIT_WINE_DEFECT(what) \
    doctest::should_fail(dx12kit_test::UnderWine()) * doctest::description("known Wine defect: " what)
