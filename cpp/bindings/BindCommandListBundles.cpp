// dx12core: CommandList.execute_bundle (a helper of BindCommandList; behaviour in cpp/src/gpu/Bundle.cpp,
// rules in dx12kit/gpu/Bundle.hpp).
#include "GpuArgs.hpp"

#include "dx12kit/gpu/Bundle.hpp"

namespace dx12kit::bindings {

void BindCommandListBundles(Classes& c) {
    c.commandList.def(
        "execute_bundle",
        [](CommandList& cl, py::handle bundle) {
            if (!py::isinstance<Bundle>(bundle))
                throw py::type_error("execute_bundle: bundle must be a dx12kit.Bundle (Device.create_bundle), not " + detail::TypeName(bundle));
            cl.ExecuteBundle(bundle.cast<std::shared_ptr<Bundle>>());
        },
        "bundle"_a,
        "Executes a closed bundle here (ID3D12GraphicsCommandList::ExecuteBundle): its calls run as if recorded at this\n"
        "point. The bundle inherits this list's state except the pipeline (render targets, viewports, vertex/index buffers,\n"
        "predication, and the root arguments while the bundle binds the same root signature), and what it sets stays set\n"
        "here afterwards. The state tracker puts what its draws use in their states here. The list keeps the bundle alive\n"
        "until its work completes. On vkd3d 1.2 the calls are replayed into this list (docs/guides/shader-gaps.rst).\n\n"
        "Args:\n"
        "    bundle: a closed Bundle of this device.\n\n"
        "Raises:\n"
        "    TypeError: bundle is not a Bundle.\n"
        "    InvalidArgumentError: a list of the compute or copy queue (bundles run on direct lists only), a bundle not\n"
        "        closed or of another device; a call of the bundle that fails against this list's state (the error names\n"
        "        the bundle and the call; the calls before it stay recorded).\n"
        "    UseAfterFreeError: the list was already executed.");
}

}  // namespace dx12kit::bindings
