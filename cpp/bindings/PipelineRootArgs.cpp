// create_compute_pipeline / create_graphics_pipeline's root_signature argument (Bindings.hpp:
// PipelineRootSignatureArg): a RootSignature, or None for one derived from the shaders' reflection
// (the layout: dx12kit/gpu/AutoRootSignature.hpp). Argument conversion only.
#include "GpuArgs.hpp"

#include "dx12kit/gpu/AutoRootSignature.hpp"
#include "dx12kit/shaders/DxbcReflection.hpp"

namespace dx12kit::bindings {

std::shared_ptr<RootSignature> PipelineRootSignatureArg(Device& device, py::handle rootSignature, const char* what,
                                                        const std::vector<const std::vector<uint8_t>*>& shaders, bool compute) {
    if (py::isinstance<RootSignature>(rootSignature)) return rootSignature.cast<std::shared_ptr<RootSignature>>();
    if (!rootSignature.is_none())
        throw py::type_error(std::string(what) + ": root_signature must be a dx12kit.RootSignature or None (derived from the shaders), not " +
                             detail::TypeName(rootSignature) +
                             (compute ? std::string() : std::string(" (leaving the root signature out, give rtv_formats= by keyword)")));
    std::vector<DxbcReflection> reflections;
    for (const std::vector<uint8_t>* code : shaders) {
        if (!code || code->empty()) continue;
        try {
            reflections.push_back(ReflectDxbc(code->data(), code->size()));
        } catch (const InvalidArgument& e) {
            throw InvalidArgument(std::string(what) + ": " + e.what());
        }
    }
    std::vector<const DxbcReflection*> stages;
    for (const DxbcReflection& r : reflections) stages.push_back(&r);
    AutoRootLayout layout = DeriveRootLayout(stages, compute);
    auto rs = std::make_shared<RootSignature>(device.Context(), std::move(layout.parameters), std::vector<StaticSamplerDesc>{}, layout.flags);
    rs->SetName("automatic");
    return rs;
}

}  // namespace dx12kit::bindings
