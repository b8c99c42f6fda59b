// Declarations of the per-concept binding functions; Module.cpp calls each once.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

namespace dx12kit {
class Device;
struct WaitHooks;
struct CpuDescriptorStats;
struct ResourcePlacement;
namespace memory {
struct MemoryStats;
struct TotalMemoryStats;
}
struct ShaderVisibleHeapStats;
}  // namespace dx12kit

namespace dx12kit::bindings {

void BindErrors(pybind11::module_& m);
void BindAlloc(pybind11::module_& m);
// The D3D12 layer: its classes are declared first (Classes.hpp, constructed first in Module.cpp), so the
// methods each function defines can name any of them; GpuArgs.hpp: their shared argument conversion.
struct Classes;
void BindResources(pybind11::module_& m, Classes& c);    // Format, ResourceState, Resource, Buffer, Texture, FormatSupport
void BindPipelines(pybind11::module_& m, Classes& c);    // root parameters, ranges, static samplers, RootSignature, PipelineState, SamplerState
void BindPipelineStates(pybind11::module_& m);           // BlendState, RasterizerState, DepthStencilState, StencilFace, InputElement
void BindCommandList(pybind11::module_& m, Classes& c);  // CommandList, UploadAllocation
void BindBarrierBatch(pybind11::module_& m, Classes& c);  // BarrierBatch, CommandList.resource_barriers
void BindQueue(pybind11::module_& m, Classes& c);        // CommandQueue
void BindDevice(pybind11::module_& m, Classes& c);       // Device: construction, queues, resources, pipelines, samplers
void BindMemory(pybind11::module_& m, Classes& c);       // Pool, Memory; Device's, Resource's and Buffer's memory methods
void BindTextures(pybind11::module_& m, Classes& c);     // Device's cube/3D textures and load_texture, CommandList.pano_to_cubemap
void BindDescriptors(pybind11::module_& m);
void BindShaders(pybind11::module_& m);  // dx12core.shaders: DXBC validation and reflection
void BindMemory(pybind11::module_& m);  // after BindDevice: adds to Device, Resource, Buffer
void BindTextures(pybind11::module_& m);  // after BindDevice: cube/3D textures, load_texture, pano_to_cubemap

// Memory statistics as dicts and the heap=/pool=/committed=/within_budget= arguments (BindMemory.cpp).
pybind11::dict MemoryStatsDict(const memory::MemoryStats& s);
pybind11::dict TotalMemoryStatsDict(const memory::TotalMemoryStats& t);
ResourcePlacement ParsePlacement(pybind11::handle heap, pybind11::handle pool, bool committed, bool withinBudget,
                                 pybind11::handle memory, uint64_t offset, const char* what);

// Blocking waits (WaitHooks.cpp): hooks that release the GIL and check for signals, the
// translation of an interrupted wait back into the signal handler's exception, and the deleter
// every Python-created Device gets (releases the GIL while ~Device waits for the GPU).
WaitHooks PythonWaitHooks();
void RaiseInterruption();
void DestroyDevice(Device* device);

// Interpreter exit (WaitHooks.cpp). On Python < 3.14 a thread that takes the GIL back once the
// interpreter is finalizing is ended with pthread_exit, whose forced unwind aborts the process
// ("terminate called without an active exception") when it meets a noexcept frame, such as the
// destructor of a GIL guard. So every GIL reacquisition in dx12core goes through ReacquireGil:
// once the interpreter exits (an atexit hook, InstallExitHook), a thread other than the exiting
// one parks there forever instead (what Python 3.14 does itself). A parked thread keeps every
// object its frames hold, so nothing it used is freed under the GPU; the process then ends.
void ReacquireGil(PyThreadState* state);
void InstallExitHook(pybind11::module_& m);

/// Releases the GIL for its scope; takes it back through ReacquireGil (use instead of
/// py::gil_scoped_release, also as py::call_guard<ReleaseGil>).
class ReleaseGil {
public:
    ReleaseGil() : m_State(PyEval_SaveThread()) {}
    ~ReleaseGil() { ReacquireGil(m_State); }
    ReleaseGil(const ReleaseGil&) = delete;
    ReleaseGil& operator=(const ReleaseGil&) = delete;

private:
    PyThreadState* m_State;
};

// Statistics as dicts, one definition each (BindDescriptors.cpp), shared by the standalone
// descriptor classes and Device.descriptor_stats().
pybind11::dict CpuDescriptorStatsDict(const CpuDescriptorStats& s);
pybind11::dict ShaderVisibleHeapStatsDict(const ShaderVisibleHeapStats& s);

}  // namespace dx12kit::bindings
