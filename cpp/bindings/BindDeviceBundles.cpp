// dx12core: Device.create_bundle (a helper of BindDevice; the class is BindBundle.cpp, the rules dx12kit/gpu/Bundle.hpp).
#include "GpuArgs.hpp"

#include "dx12kit/gpu/Bundle.hpp"

namespace dx12kit::bindings {

void BindDeviceBundles(Classes& c) {
    c.device.def(
        "create_bundle",
        [](Device& d, py::handle pipeline, py::object name) {
            const char* fn = "create_bundle";
            d.Context()->CheckNotForked(fn);
            std::shared_ptr<PipelineState> initial;
            if (!pipeline.is_none()) {
                if (!py::isinstance<PipelineState>(pipeline))
                    throw py::type_error(std::string(fn) + ": pipeline must be a dx12kit.PipelineState or None, not " + detail::TypeName(pipeline));
                initial = pipeline.cast<std::shared_ptr<PipelineState>>();
            }
            auto bundle = std::make_shared<Bundle>(d.Context(), std::move(initial));
            if (!name.is_none()) bundle->SetName(Str(name, fn, "name"));
            return bundle;
        },
        py::kw_only(), "pipeline"_a = py::none(), "name"_a = py::none(),
        "A new bundle to record (D3D12: a command list of type BUNDLE): record draw-time calls on it, close() it, then run it\n"
        "with CommandList.execute_bundle from direct lists, as often as needed (docs/guides/bundles.rst).\n\n"
        "Args:\n"
        "    pipeline: the bundle's initial pipeline state (CreateCommandList's pInitialState), or None: a bundle does not\n"
        "        inherit the calling list's pipeline, so it draws with this one or one it sets.\n"
        "    name: debug name (default 'bundle').\n\n"
        "Returns:\n"
        "    A Bundle, open for recording.\n\n"
        "Raises:\n"
        "    TypeError: pipeline is not a PipelineState.\n"
        "    InvalidArgumentError: a pipeline of another device.");
}

}  // namespace dx12kit::bindings
