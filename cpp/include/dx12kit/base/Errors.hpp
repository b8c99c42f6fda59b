// dx12kit error types.
//
// Every C++ failure that a user can cause is one of these types. The Python bindings translate
// them in one table (cpp/bindings/ExceptionTranslation.cpp) into the classes of dx12kit/errors.py:
//
//   Error               -> dx12kit.Dx12Error
//   InvalidArgument     -> dx12kit.InvalidArgumentError (also ValueError)
//   OutOfMemory         -> dx12kit.OutOfMemoryError     (also MemoryError)
//   UseAfterFree        -> dx12kit.UseAfterFreeError    (InvalidArgumentError)
//   DeviceClosed        -> dx12kit.DeviceClosedError    (UseAfterFreeError)
//   DeviceError         -> dx12kit.DeviceError          (.hresult, .hresult_name)
//   ShaderCompileError  -> dx12kit.ShaderCompileError
//   ResourceStateError  -> dx12kit.ResourceStateError
//   Timeout             -> dx12kit.WaitTimeoutError     (also the built-in TimeoutError)
//   Interrupted         -> the Python exception a signal handler raised (KeyboardInterrupt)
//
// Expected failures (an allocator without room) are reported by return value, not by exception.
// A broken contract (size 0, alignment not a power of two, double free) throws before any state
// changes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace dx12kit {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class InvalidArgument : public Error {
public:
    using Error::Error;
};

class OutOfMemory : public Error {
public:
    using Error::Error;
};

class UseAfterFree : public InvalidArgument {
public:
    using InvalidArgument::InvalidArgument;
};

class ShaderCompileError : public Error {
public:
    using Error::Error;
};

class ResourceStateError : public Error {
public:
    using Error::Error;
};

/// A wait for the GPU did not finish within its timeout.
class Timeout : public Error {
public:
    using Error::Error;
};

/// A wait for the GPU was abandoned because the wait hook (DeviceOptions::hooks) asked to stop,
/// for instance because a signal arrived; the bindings re-raise what the signal handler raised.
class Interrupted : public Error {
public:
    using Error::Error;
};

/// A device, or an object of it, used after Device::Close.
class DeviceClosed : public UseAfterFree {
public:
    using UseAfterFree::UseAfterFree;
};

/// A device used in a process forked after the device was created (dx12kit/platform/Fork.hpp).
class ForkedDevice : public Error {
public:
    using Error::Error;
};

/// A failed D3D12 call: carries the HRESULT and its symbolic name.
class DeviceError : public Error {
public:
    DeviceError(const std::string& message, int32_t hresult, std::string hresultName)
        : Error(message), m_HResult(hresult), m_HResultName(std::move(hresultName)) {}
    int32_t HResult() const noexcept { return m_HResult; }
    const std::string& HResultName() const noexcept { return m_HResultName; }

private:
    int32_t m_HResult;
    std::string m_HResultName;
};

}  // namespace dx12kit
