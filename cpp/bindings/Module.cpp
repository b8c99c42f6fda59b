// dx12core: the extension module. Only calls the Bind*() functions, one per concept.
#include "Bindings.hpp"

#if defined(DX12KIT_HAS_GPU_BINDINGS)
#  include "Classes.hpp"
#  include "dx12kit/platform/D3D12Platform.hpp"
#endif

PYBIND11_MODULE(dx12core, m) {
    m.doc() = "dx12kit's C++ core (see the dx12kit package for the documented Python API)";
    m.attr("__version__") = DX12KIT_VERSION;
    dx12kit::bindings::InstallExitHook(m);
    dx12kit::bindings::BindErrors(m);
    dx12kit::bindings::BindAlloc(m);
    dx12kit::bindings::BindShaders(m);
#if defined(DX12KIT_HAS_GPU_BINDINGS)
    // Before any device (and any lavapipe thread) exists: see the function's comment.
    dx12kit::platform::QuietBackendMessagesByDefault();
    // Every class first (names and bases), then the methods: any method may name any class. The
    // enums (Format, ResourceState) come with BindResources, which therefore runs first.
    dx12kit::bindings::Classes classes(m);
    dx12kit::bindings::BindResources(m, classes);
    dx12kit::bindings::BindPipelines(m, classes);
    dx12kit::bindings::BindPipelineStates(m);  // before BindDevice: create_graphics_pipeline names its classes
    dx12kit::bindings::BindCommandList(m, classes);
    dx12kit::bindings::BindBarrierBatch(m, classes);
    dx12kit::bindings::BindQueue(m, classes);
    dx12kit::bindings::BindDevice(m, classes);
    dx12kit::bindings::BindMemory(m, classes);
    dx12kit::bindings::BindTextures(m, classes);
    dx12kit::bindings::BindDescriptors(m);
#endif
}
