// dx12core: PipelineState (Device.create_compute_pipeline / create_graphics_pipeline).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "docs/PipelineStateDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

#include "dx12kit/shaders/DxbcReflection.hpp"

#include <pybind11/stl.h>

namespace dx12kit::bindings {

void BindPipelineState(Classes& c) {
    Documented(c.pipelineState, docs::PipelineState::class_)
        .def_property_readonly("is_compute", &PipelineState::IsCompute, docs::PipelineState::is_compute)
        .def_property_readonly("root_signature", &PipelineState::GetRootSignature, docs::PipelineState::root_signature)
        .def_property_readonly(
            "shader_reflections", [](const PipelineState& p) { return p.ShaderReflections(); }, docs::PipelineState::shader_reflections)
        .def_property(
            "name", &PipelineState::Name, [](PipelineState& p, NameArg n) { p.SetName(Str(n, "PipelineState.name", "name")); },
            docs::PipelineState::name)
        .def("__repr__", [](const PipelineState& p) {
            return "<dx12kit.PipelineState '" + p.Name() + "' " + (p.IsCompute() ? "compute" : "graphics") + " root_signature='" +
                   p.GetRootSignature()->Name() + "'>";
        });
    InstallForkLeak<PipelineState>(+[](const PipelineState& p) { return p.Context()->Forked(); });
}

}  // namespace dx12kit::bindings
