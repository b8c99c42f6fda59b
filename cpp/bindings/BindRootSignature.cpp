// dx12core: RootSignature (made by Device.create_root_signature from BindRootLayout.cpp's layout).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "docs/RootSignatureDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

#include <pybind11/stl.h>

namespace dx12kit::bindings {

void BindRootSignature(Classes& c) {
    Documented(c.rootSignature, docs::RootSignature::class_)
        .def_property_readonly(
            "num_parameters", [](const RootSignature& r) { return r.Parameters().size(); }, docs::RootSignature::num_parameters)
        .def_property_readonly(
            "parameters", [](const RootSignature& r) { return r.Parameters(); }, docs::RootSignature::parameters)
        .def_property_readonly(
            "static_samplers", [](const RootSignature& r) { return r.StaticSamplers(); }, docs::RootSignature::static_samplers)
        .def_property(
            "name", &RootSignature::Name, [](RootSignature& r, NameArg n) { r.SetName(Str(n, "RootSignature.name", "name")); },
            docs::RootSignature::name)
        .def("__repr__", [](const RootSignature& r) {
            return "<dx12kit.RootSignature '" + r.Name() + "' parameters=" + std::to_string(r.Parameters().size()) +
                   " static_samplers=" + std::to_string(r.StaticSamplers().size()) + ">";
        });
    InstallForkLeak<RootSignature>(+[](const RootSignature& r) { return r.Context()->Forked(); });
}

}  // namespace dx12kit::bindings
