// The Python side of dx12kit's blocking waits (WaitHooks in dx12kit/gpu/Device.hpp): no wait for
// the GPU (or for a command list another thread holds) keeps the GIL, and a signal interrupts a
// wait within one slice. The core stays free of Python: it calls these through std::function.
#include "Bindings.hpp"

#include "dx12kit/gpu/Device.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#if !defined(_WIN32)
#  include <pthread.h>
#endif

namespace dx12kit::bindings {

namespace {

/// The Python exception a signal handler raised during a wait on this thread, kept from the wait
/// hook (which runs deep inside C++) to the exception translator (ExceptionTranslation.cpp) or the device deleter.
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

bool HoldsGil() {
    return Py_IsInitialized() && PyGILState_Check();
}

// Interpreter exit (Bindings.hpp). g_Exiting is set by the atexit hook, which runs on the thread
// that finalizes, before the interpreter is marked finalizing. g_Reacquiring counts the threads
// between their look at g_Exiting and the GIL in hand: the hook lets them through before it
// returns, so no thread is still waiting for the GIL when finalization starts (then Python would
// end it with pthread_exit). Sequentially consistent: a thread either sees g_Exiting or is counted.
std::atomic<bool> g_Exiting{false};
std::atomic<int> g_Reacquiring{0};
std::atomic<std::thread::id> g_ExitThread{};

[[noreturn]] void ParkForever() {
    for (;;) std::this_thread::sleep_for(std::chrono::hours(24));
}

bool MustPark() {
    return g_Exiting.load() && std::this_thread::get_id() != g_ExitThread.load();
}

void OnInterpreterExit() {
    g_ExitThread.store(std::this_thread::get_id());
    g_Exiting.store(true);
    if (g_Reacquiring.load() == 0) return;
    // Threads already on their way to the GIL: let them have it (they run on until their next
    // release of it, then park), bounded in case one never gets there.
    PyThreadState* state = PyEval_SaveThread();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (g_Reacquiring.load() != 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    PyEval_RestoreThread(state);
}

void Blocking(const std::function<void()>& block) {
    if (!HoldsGil()) {
        block();
        return;
    }
    PyThreadState* state = PyEval_SaveThread();
    try {
        block();
    } catch (...) {
        ReacquireGil(state);
        throw;
    }
    ReacquireGil(state);
}

// An exit that waits for long GPU work (say after a Ctrl-C interrupted a wait and ended the
// script) says so once it has lasted about two seconds (40 slices), instead of hanging silently.
void NoteWaitAtExit() {
    static std::atomic<int> slices{0};
    if (slices.fetch_add(1) == 40)
        std::fprintf(stderr,
                     "dx12kit: the interpreter is exiting and waits for GPU work still running before it frees "
                     "the device (Ctrl-C ends the process now)\n");
}

bool KeepWaiting() {
    if (!Py_IsInitialized()) {
        // Interpreter teardown (objects freed after Py_FinalizeEx marked it uninitialized): no
        // Python call is safe, so the wait goes on; SIGINT's default action is back by then, and a
        // Ctrl-C ends the process.
        NoteWaitAtExit();
        return true;
    }
    // At interpreter exit a thread other than the exiting one does not take the GIL to check for
    // signals (it would be ended, or park holding dx12kit's locks): it waits on for the GPU.
    g_Reacquiring.fetch_add(1);
    if (MustPark()) {
        g_Reacquiring.fetch_sub(1);
        return true;
    }
    PyGILState_STATE gil = PyGILState_Ensure();
    g_Reacquiring.fetch_sub(1);
    bool keep = true;
    if (Finalizing()) {
        // A device destroyed at interpreter exit waits for the GPU. No Python handler runs any
        // more, but Ctrl-C still trips SIGINT: then stop waiting (the device leaks its in-flight
        // work rather than free it under the GPU) and let the process exit.
        keep = !PyOS_InterruptOccurred();
        if (keep) NoteWaitAtExit();
    } else if (PyErr_CheckSignals() != 0) {  // a handler raised (KeyboardInterrupt for Ctrl-C)
        if (t_Interruption.Empty()) PyErr_Fetch(&t_Interruption.type, &t_Interruption.value, &t_Interruption.traceback);
        else PyErr_Clear();
        keep = false;
    }
    PyGILState_Release(gil);
    return keep;
}

}  // namespace

void ReacquireGil(PyThreadState* state) {
    g_Reacquiring.fetch_add(1);
    if (MustPark()) {
        g_Reacquiring.fetch_sub(1);
        ParkForever();
    }
    PyEval_RestoreThread(state);
    g_Reacquiring.fetch_sub(1);
}

namespace {
// A forked child has only the thread that forked: the parent's threads counted in g_Reacquiring
// (waiting for the GIL at the fork) do not exist there, and the child's own exit hook would wait
// for them (10 s per child). The forking thread itself is never counted (os.fork holds the GIL;
// a fork from C code is not between the count and the GIL either), so the child starts from zero.
// Atomic stores only: async-signal-safe, as a pthread_atfork child handler must be.
void ResetExitStateInChild() {
    g_Reacquiring.store(0);
    g_Exiting.store(false);
    g_ExitThread.store(std::thread::id{});
}
}  // namespace

void InstallExitHook(pybind11::module_& m) {
    (void)m;
#if !defined(_WIN32)
    pthread_atfork(nullptr, nullptr, &ResetExitStateInChild);
#endif
    pybind11::module_::import("atexit").attr("register")(pybind11::cpp_function(&OnInterpreterExit));
}

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
    ReacquireGil(state);
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
