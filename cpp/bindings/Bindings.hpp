// The binding functions; Module.cpp calls each once, in an explicit order.
//
// Layout rule (cpp/bindings/README.md says the same at more length):
// - Each Python class is bound in exactly one file, Bind<Class>.cpp, by one function Bind<Class>()
//   (e.g. Buffer: BindBuffer.cpp). A class whose methods fall into concepts of their own may split them
//   into helpers named Bind<Class><Concept>.cpp (BindDeviceMemory.cpp, BindDeviceTextures.cpp), which
//   only Bind<Class>() calls: the class keeps one entry point.
// - Small classes of one concept may share a file named for that concept: BindFormat.cpp (Format,
//   FormatSupport), BindRootLayout.cpp (the root-signature layout), BindDescriptors.cpp, BindShaders.cpp,
//   BindAlloc.cpp (submodules), ExceptionTranslation.cpp.
// - A file holds argument conversion and the call; logic that C++ users need too lives in cpp/src/.
//   Shared conversions: Args.hpp, GpuArgs.hpp, Choices.hpp/ChoiceTables.hpp, PlacementArgs.cpp,
//   StatsDicts.hpp (every statistics struct -> dict, one converter each).
// - Classes.hpp registers the D3D12 layer's classes before any method is defined.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace dx12kit {
class Device;
class CommandList;
class PipelineState;
class RootSignature;
struct WaitHooks;
struct ResourcePlacement;
}  // namespace dx12kit

namespace dx12kit::bindings {

void BindErrors(pybind11::module_& m);       // ExceptionTranslation.cpp: the exception classes
void BindAlloc(pybind11::module_& m);        // dx12core.alloc: the device-free range allocators
void BindShaders(pybind11::module_& m);      // dx12core.shaders: DXBC validation and reflection
void BindHostCopies(pybind11::module_& m);   // set_copy_threads, copy_threads, copy_stats (module functions)
void BindNames(pybind11::module_& m);        // _close_names: the "did you mean" helper for the Python layer
void BindDescriptors(pybind11::module_& m);  // dx12core.descriptors: the standalone descriptor allocators

// The D3D12 layer: its classes are declared first (Classes.hpp, constructed first in Module.cpp), so the
// methods each function defines can name any of them; GpuArgs.hpp: their shared argument conversion.
struct Classes;
void BindFormatEnum(pybind11::module_& m);         // BindFormat.cpp: Format (before any method: signatures name it)
void BindResourceStateEnum(pybind11::module_& m);  // BindResource.cpp: ResourceState, ALL_SUBRESOURCES (idem)
void BindFormatSupport(Classes& c);                // BindFormat.cpp
void BindFormatForData(pybind11::module_& m);      // _texture_format_for_data: the format table of texture data
void BindResource(Classes& c);
void BindBuffer(Classes& c);
void BindTexture(Classes& c);
void BindChoiceTables(pybind11::module_& m);            // choice_tables(): the names of every choice (dx12kit.enums is made from them)
void BindCoreTables(pybind11::module_& m);              // flag_tables(), format_info(): the core tables dx12kit.enums and dx12kit.dds read
void BindArgumentRoles(pybind11::module_& m);           // resource_arguments(): each CommandList method's resource arguments and their roles
void BindRootLayout(pybind11::module_& m, Classes& c);  // the root-signature layout: DescriptorRange, RootParameter, StaticSamplerDesc
void BindRootSignature(Classes& c);
void BindPipelineState(Classes& c);
void BindPipelineStates(
    pybind11::module_& m);  // BlendState, RasterizerState, DepthStencilState, StencilFace, InputElement (one concept: the fixed-function states)
void BindSamplerState(Classes& c);
void BindCommandList(pybind11::module_& m, Classes& c);  // calls BindCommandListQueries
void BindCommandListQueries(Classes& c);                 // begin_query, end_query, resolve_query_data, set_predication (BindCommandListQueries.cpp)
void BindCommandListDiscard(Classes& c);                 // discard_resource (BindCommandListDiscard.cpp)
void BindQueryHeap(Classes& c);
void BindCommandListIndirect(Classes& c);  // execute_indirect (BindCommandListIndirect.cpp)
void BindCommandListNames(Classes& c);     // bind (by the shaders' names), pipeline_state (BindCommandListNames.cpp)
/// Applies what CommandList.bind kept while no pipeline was bound (set_pipeline_state calls it; O(1) when nothing is pending).
void ApplyPendingNamedBinds(CommandList& cl);
/// create_*_pipeline's root_signature argument: the RootSignature given, or (None) one derived from the
/// shaders' reflection (dx12kit/gpu/AutoRootSignature.hpp). PipelineRootArgs.cpp.
std::shared_ptr<RootSignature> PipelineRootSignatureArg(Device& device, pybind11::handle rootSignature, const char* what,
                                                        const std::vector<const std::vector<uint8_t>*>& shaders, bool compute);
void BindIndirectArgument(Classes& c);
void BindCommandSignature(Classes& c);
void BindBundle(Classes& c);
void BindBundleIndirect(Classes& c);      // Bundle.execute_indirect (BindBundleIndirect.cpp)
void BindCommandListBundles(Classes& c);  // execute_bundle (BindCommandListBundles.cpp)
void BindDeviceBundles(Classes& c);       // Device.create_bundle (BindDeviceBundles.cpp)
void BindBarrierBatch(Classes& c);        // BarrierBatch (CommandList.resource_barriers is in BindCommandList.cpp)
void BindUploadAllocation(Classes& c);
void BindCommandQueue(Classes& c);
void BindCommandQueueSubmission(Classes& c);        // CommandQueue.submission_stats and its test hook (BindCommandQueueSubmission.cpp)
void BindCommandQueueTextures(Classes& c);          // CommandQueue.write_texture (BindCommandQueueTextures.cpp)
void BindDevice(pybind11::module_& m, Classes& c);  // calls BindDeviceMemory and BindDeviceTextures
void BindDeviceMemory(Classes& c);                  // Device's memory methods (BindDeviceMemory.cpp)
void BindDeviceTextures(Classes& c);                // Device's cube/3D textures and load_texture (BindDeviceTextures.cpp)
void BindDeviceQueries(Classes& c);                 // Device.create_query_heap (BindDeviceQueries.cpp)
void BindDeviceIndirect(Classes& c);                // Device.create_command_signature (BindDeviceIndirect.cpp)
void BindDeviceLifetime(Classes& c);                // Device.close, closed, __enter__/__exit__ (BindDeviceLifetime.cpp)
void BindDeviceAllocationInfo(Classes& c);          // Device.texture_allocation_info, buffer_allocation_info (BindDeviceAllocationInfo.cpp)
void BindPool(Classes& c);
void BindMemory(Classes& c);

// The heap=/pool=/committed=/within_budget=/memory=/offset= arguments (PlacementArgs.cpp).
ResourcePlacement ParsePlacement(pybind11::handle heap, pybind11::handle pool, bool committed, bool withinBudget, pybind11::handle memory,
                                 uint64_t offset, const char* what);

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

}  // namespace dx12kit::bindings
