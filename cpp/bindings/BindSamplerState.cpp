// dx12core: SamplerState (Device.create_sampler).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

namespace dx12kit::bindings {

void BindSamplerState(Classes& c) {
    Documented(c.samplerState, "A sampler descriptor. Create with Device.create_sampler.")
        .def_property("name", &Sampler::Name, [](Sampler& s, py::handle n) { s.SetName(Str(n, "SamplerState.name", "name")); },
                      "Debug name, shown by repr.")
        .def("__repr__", [](const Sampler& s) {
            return "<dx12kit.SamplerState '" + s.Name() + "' filter=" + std::to_string(int(s.Desc().Filter)) +
                   " address=" + std::to_string(int(s.Desc().AddressU)) + ">";
        });
    InstallForkLeak<Sampler>(+[](const Sampler& s) { return s.Core()->Forked(); });
}

}  // namespace dx12kit::bindings
