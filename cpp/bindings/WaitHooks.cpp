// The Python side of dx12kit's blocking waits (WaitHooks in dx12kit/gpu/Device.hpp): no wait for
// the GPU (or for a command list another thread holds) keeps the GIL, and a signal interrupts a
// wait within one slice. The core stays free of Python: it calls these through std::function.
#include "Bindings.hpp"

#include "dx12kit/gpu/Device.hpp"

namespace dx12kit::bindings {

namespace {

/// The Python exception a signal handler raised during a wait on this thread, kept from the wait
/// hook (which runs deep inside C++) to the exception translator (Errors.cpp) or the device deleter.
struct SavedError {
    PyObject* type = nullptr;
    PyObject* value = nullptr;
    PyObject* traceback = nullptr;
    bool Empty() const { return type == nullptr; }
};
thread_local SavedError t_Interruption;

bool Finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsFinalizing();
#else
    return _Py_IsFinalizing();
#endif
}

bool HoldsGil() { return Py_IsInitialized() && PyGILState_Check(); }

void Blocking(const std::function<void()>& block) {
    if (!HoldsGil()) {
        block();
        return;
    }
    PyThreadState* state = PyEval_SaveThread();
    try {
        block();
    } catch (...) {
        PyEval_RestoreThread(state);
        throw;
    }
    PyEval_RestoreThread(state);
}

bool KeepWaiting() {
    if (!Py_IsInitialized()) return true;
    PyGILState_STATE gil = PyGILState_Ensure();
    bool keep = true;
    if (Finalizing()) {
        // A device destroyed at interpreter exit waits for the GPU. No Python handler runs any
        // more, but Ctrl-C still trips SIGINT: then stop waiting (the device leaks its in-flight
        // work rather than free it under the GPU) and let the process exit.
        keep = !PyOS_InterruptOccurred();
    } else if (PyErr_CheckSignals() != 0) {  // a handler raised (KeyboardInterrupt for Ctrl-C)
        if (t_Interruption.Empty()) PyErr_Fetch(&t_Interruption.type, &t_Interruption.value, &t_Interruption.traceback);
        else PyErr_Clear();
        keep = false;
    }
    PyGILState_Release(gil);
    return keep;
}

}  // namespace

WaitHooks PythonWaitHooks() {
    WaitHooks h;
    h.blocking = Blocking;
    h.keepWaiting = KeepWaiting;
    h.sliceMs = 50;
    return h;
}

void RaiseInterruption() {
    if (t_Interruption.Empty()) {
        PyErr_SetNone(PyExc_KeyboardInterrupt);
        return;
    }
    PyErr_Restore(t_Interruption.type, t_Interruption.value, t_Interruption.traceback);
    t_Interruption = SavedError{};
}

void DestroyDevice(Device* device) {
    if (!HoldsGil()) {
        delete device;
        return;
    }
    // The last reference went away with the GIL held (a Python object's dealloc): ~Device waits
    // for the GPU, so release the GIL meanwhile.
    PyThreadState* state = PyEval_SaveThread();
    delete device;
    PyEval_RestoreThread(state);
    if (t_Interruption.Empty()) return;
    // Ctrl-C during teardown: the GPU work still in flight was leaked, not freed under the GPU.
    // A dealloc cannot raise, so the interrupt is raised again at the next bytecode.
    const bool keyboard = PyErr_GivenExceptionMatches(t_Interruption.type, PyExc_KeyboardInterrupt);
    PyObject* saved[3] = {t_Interruption.type, t_Interruption.value, t_Interruption.traceback};
    t_Interruption = SavedError{};
    if (keyboard) {
        Py_XDECREF(saved[0]);
        Py_XDECREF(saved[1]);
        Py_XDECREF(saved[2]);
        PyErr_SetInterrupt();
    } else {
        PyObject* old[3];
        PyErr_Fetch(&old[0], &old[1], &old[2]);
        PyErr_Restore(saved[0], saved[1], saved[2]);
        PyErr_WriteUnraisable(nullptr);
        PyErr_Restore(old[0], old[1], old[2]);
    }
}

}  // namespace dx12kit::bindings
