// HRESULT names and the one ThrowIfFailed every D3D12 call goes through.
#pragma once

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <string>

namespace dx12kit {

/// Symbolic name of an HRESULT ("E_OUTOFMEMORY"), or its hex form when unknown.
std::string HResultName(HRESULT hr);

/// Throws OutOfMemory for E_OUTOFMEMORY, InvalidArgument for E_INVALIDARG and DeviceError
/// otherwise; the message names what was being done and the HRESULT.
[[noreturn]] void ThrowHResult(HRESULT hr, const char* what);

inline void ThrowIfFailed(HRESULT hr, const char* what) {
    if (FAILED(hr)) ThrowHResult(hr, what);
}

}  // namespace dx12kit
