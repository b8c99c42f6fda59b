// dx12core: RootSignature (made by Device.create_root_signature from BindRootLayout.cpp's layout).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

#include <pybind11/stl.h>

namespace dx12kit::bindings {

void BindRootSignature(Classes& c) {
    Documented(c.rootSignature, "A root signature. Create with Device.create_root_signature.")
        .def_property_readonly("num_parameters", [](const RootSignature& r) { return r.Parameters().size(); }, "Number of root parameters.")
        .def_property_readonly("parameters", [](const RootSignature& r) { return r.Parameters(); },
                               "The root parameters (RootParameter: kind, register, space, count, ranges, visibility), in root-index order.")
        .def_property_readonly("static_samplers", [](const RootSignature& r) { return r.StaticSamplers(); }, "The static samplers (StaticSamplerDesc).")
        .def_property("name", &RootSignature::Name, [](RootSignature& r, py::handle n) { r.SetName(Str(n, "RootSignature.name", "name")); },
                      "Debug name (also the D3D12 object's name).")
        .def("__repr__", [](const RootSignature& r) {
            return "<dx12kit.RootSignature '" + r.Name() + "' parameters=" + std::to_string(r.Parameters().size()) +
                   " static_samplers=" + std::to_string(r.StaticSamplers().size()) + ">";
        });
InstallForkLeak<RootSignature>(+[](const RootSignature& r) { return r.Core()->Forked(); });
}

}  // namespace dx12kit::bindings
