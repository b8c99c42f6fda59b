// dx12core: the extension module. Only calls the Bind*() functions, one per class or concept (Bindings.hpp).
#include "Bindings.hpp"

#if defined(DX12KIT_HAS_GPU_BINDINGS)
#  include "Classes.hpp"
#  include "dx12kit/platform/D3D12Platform.hpp"
#endif

PYBIND11_MODULE(dx12core, m) {
    m.doc() = "dx12kit's C++ core (see the dx12kit package for the documented Python API)";
    m.attr("__version__") = DX12KIT_VERSION;
    using namespace dx12kit::bindings;
    InstallExitHook(m);
    BindErrors(m);
    BindAlloc(m);
    BindShaders(m);
    BindHostCopies(m);
    BindNames(m);
#if defined(DX12KIT_HAS_GPU_BINDINGS)
    // Before any device (and any lavapipe thread) exists: see the function's comment.
    dx12kit::platform::QuietBackendMessagesByDefault();
    // Every class first (names and bases), then the enums that signatures name, then the methods:
    // any method may name any class. One Bind<Class>() per class (Bindings.hpp states the rule).
    Classes classes(m);
    BindFormatEnum(m);
    BindFormatForData(m);
    BindResourceStateEnum(m);
    BindFormatSupport(classes);
    BindResource(classes);
    BindBuffer(classes);
    BindTexture(classes);
    BindRootLayout(m, classes);
    BindRootSignature(classes);
    BindPipelineState(classes);
    BindSamplerState(classes);
    BindPipelineStates(m);  // before BindDevice: create_graphics_pipeline names its classes
    BindQueryHeap(classes);
    BindIndirectArgument(classes);
    BindCommandSignature(classes);
    BindBundle(classes);
    BindBundleIndirect(classes);
    BindCommandList(m, classes);
    BindArgumentRoles(m);
    BindChoiceTables(m);
    BindCoreTables(m);
    BindBarrierBatch(classes);
    BindUploadAllocation(classes);
    BindCommandQueue(classes);
    BindCommandQueueSubmission(classes);
    BindDevice(m, classes);
    BindPool(classes);
    BindMemory(classes);
    BindDescriptors(m);
#endif
}
