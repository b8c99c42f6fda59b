// dx12core: PipelineState (Device.create_compute_pipeline / create_graphics_pipeline).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

#include "dx12kit/shaders/DxbcReflection.hpp"

#include <pybind11/stl.h>

namespace dx12kit::bindings {

void BindPipelineState(Classes& c) {
    Documented(c.pipelineState, "A compute or graphics pipeline state object.")
        .def_property_readonly("is_compute", &PipelineState::IsCompute, "True for a compute pipeline, False for a graphics one.")
        .def_property_readonly("root_signature", &PipelineState::GetRootSignature,
                               "The root signature the pipeline was created with (given, or derived from the shaders when left out).")
        .def_property_readonly("shader_reflections", [](const PipelineState& p) { return p.ShaderReflections(); },
                               "The ShaderReflection of each of its shaders, in pipeline order (cs; or vs, hs, ds, gs, ps as present).")
        .def_property("name", &PipelineState::Name, [](PipelineState& p, py::handle n) { p.SetName(Str(n, "PipelineState.name", "name")); },
                      "Debug name (also the D3D12 object's name).")
        .def("__repr__", [](const PipelineState& p) {
            return "<dx12kit.PipelineState '" + p.Name() + "' " + (p.IsCompute() ? "compute" : "graphics") + " root_signature='" +
                   p.GetRootSignature()->Name() + "'>";
        });
    InstallForkLeak<PipelineState>(+[](const PipelineState& p) { return p.Core()->Forked(); });
}

}  // namespace dx12kit::bindings
