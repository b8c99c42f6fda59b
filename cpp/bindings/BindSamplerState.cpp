// dx12core: SamplerState (Device.create_sampler).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

namespace dx12kit::bindings {

void BindSamplerState(Classes& c) {
    Documented(c.samplerState, "A sampler descriptor. Create with Device.create_sampler.")
        .def_property("name", &Sampler::Name, [](Sampler& s, py::handle n) { s.SetName(Str(n, "SamplerState.name", "name")); },
                      "Debug name, shown by repr.")
        .def_property_readonly("desc", [](const Sampler& s) { return SamplerDescDict(s.Desc()); },
            "The settings, by create_sampler's argument names (create_sampler given these as keywords makes the same sampler):\n"
            "filter, address, "
            "address_v, address_w, mip_lod_bias, max_anisotropy, comparison (completed: 'less_equal' for a comparison filter\n"
            "created without one), border_color (r, g, b, a), min_lod, max_lod.")
        .def("__repr__", [](const Sampler& s) {
            // Every setting, by name: a setting left at its default is shown too, so two reprs compare settings.
            py::dict d = SamplerDescDict(s.Desc());
            std::string out = "<dx12kit.SamplerState '" + s.Name() + "'";
            for (auto item : d) out += " " + std::string(py::str(item.first)) + "=" + std::string(py::repr(item.second));
            return out + ">";
        });
    InstallForkLeak<Sampler>(+[](const Sampler& s) { return s.Core()->Forked(); });
}

}  // namespace dx12kit::bindings
