// dx12core: SamplerState (Device.create_sampler).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "docs/SamplerStateDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

namespace dx12kit::bindings {

void BindSamplerState(Classes& c) {
    Documented(c.samplerState, docs::SamplerState::class_)
        .def_property(
            "name", &Sampler::Name, [](Sampler& s, NameArg n) { s.SetName(Str(n, "SamplerState.name", "name")); }, docs::SamplerState::name)
        .def_property_readonly(
            "desc", [](const Sampler& s) { return SamplerDescDict(s.Desc()); }, docs::SamplerState::desc)
        .def("__repr__", [](const Sampler& s) {
            // Every setting, by name: a setting left at its default is shown too, so two reprs compare settings.
            py::dict d = SamplerDescDict(s.Desc());
            std::string out = "<dx12kit.SamplerState '" + s.Name() + "'";
            for (auto item : d) out += " " + std::string(py::str(item.first)) + "=" + std::string(py::repr(item.second));
            return out + ">";
        });
    InstallForkLeak<Sampler>(+[](const Sampler& s) { return s.Context()->Forked(); });
}

}  // namespace dx12kit::bindings
