// The one translation table from C++ errors (dx12kit/base/Errors.hpp) to Python exceptions
// (dx12kit/errors.py). The Python classes are looked up once, at import.
#include "Bindings.hpp"

#include "dx12kit/base/Errors.hpp"

namespace py = pybind11;

namespace dx12kit::bindings {

void BindErrors(py::module_& m) {
    py::module_ errors = py::module_::import("dx12kit.errors");
    // Kept alive for the life of the interpreter by the module attributes below.
    m.attr("_errors") = errors;
    py::register_exception_translator([](std::exception_ptr p) {
        if (!p) return;
        py::module_ e = py::module_::import("dx12kit.errors");
        auto raise = [&](const char* cls, const std::exception& ex) {
            py::object type = e.attr(cls);
            PyErr_SetString(type.ptr(), ex.what());
        };
        try {
            std::rethrow_exception(p);
        } catch (const DeviceClosed& ex) {
            raise("DeviceClosedError", ex);
        } catch (const UseAfterFree& ex) {
            raise("UseAfterFreeError", ex);
        } catch (const InvalidArgument& ex) {
            raise("InvalidArgumentError", ex);
        } catch (const OutOfMemory& ex) {
            raise("OutOfMemoryError", ex);
        } catch (const ShaderCompileError& ex) {
            raise("ShaderCompileError", ex);
        } catch (const ResourceStateError& ex) {
            raise("ResourceStateError", ex);
        } catch (const dx12kit::Timeout& ex) {  // (bindings::Timeout, GpuArgs.hpp, is a function)
            raise("WaitTimeoutError", ex);
        } catch (const Interrupted&) {
            RaiseInterruption();  // what the signal handler raised (KeyboardInterrupt)
        } catch (const ForkedDevice& ex) {
            raise("ForkedDeviceError", ex);
        } catch (const DeviceError& ex) {
            py::object inst = e.attr("DeviceError")(ex.what(), ex.HResult(), ex.HResultName());
            PyErr_SetObject(e.attr("DeviceError").ptr(), inst.ptr());
        } catch (const Error& ex) {
            raise("Dx12Error", ex);
        }
    });
}

}  // namespace dx12kit::bindings
