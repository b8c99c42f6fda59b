// dx12core: CommandList.bind (binding by the names the shaders declare) and CommandList.pipeline_state.
// The logic is Python's (python/dx12kit/binding.py: resolving names through the pipeline's reflection and
// root signature, cbuffer packing, the errors); this file forwards to it and keeps which lists hold values
// bound while no pipeline was, so that set_pipeline_state applies them (one set lookup, none when empty).
#include "GpuArgs.hpp"

#include <unordered_set>

namespace dx12kit::bindings {

namespace {

/// Lists with values bound by name while no pipeline was bound. Only touched with the GIL held.
std::unordered_set<const CommandList*>& Pending() {
    static auto* set = new std::unordered_set<const CommandList*>();  // never destroyed: used until exit
    return *set;
}

py::object BindingModuleFunction(const char* name) {
    return py::module_::import("dx12kit.binding").attr(name);
}

}  // namespace

void ApplyPendingNamedBinds(CommandList& cl) {
    auto& pending = Pending();
    if (pending.empty()) return;
    if (pending.erase(&cl) == 0 || !cl.BoundPipeline()) return;
    BindingModuleFunction("_apply_pending")(py::cast(&cl, py::return_value_policy::reference));
}

void BindCommandListNames(Classes& c) {
    c.commandList
        .def_property_readonly(
            "pipeline_state", [](const CommandList& cl) { return cl.BoundPipeline(); },
            "The PipelineState bound by set_pipeline_state, or None (none yet, or a built-in pass such as\n"
            "generate_mips left none bound).")
        .def(
            "bind",
            [](py::object self, py::object name, py::object value, py::kwargs values) {
                CommandList& cl = self.cast<CommandList&>();
                if (!cl.BoundPipeline()) Pending().insert(&cl);
                BindingModuleFunction("_bind")(self, name, value, values);
            },
            py::arg("name") = py::none(), py::arg("value") = py::none(), py::pos_only(),
            "Binds resources and constants by the names the bound pipeline's shaders declare (dx12kit.binding).\n\n"
            "cl.bind('tex', texture) or cl.bind(tex=texture, smp=sampler, Params={'scale': 2.0}). A Texture or Buffer for an\n"
            "SRV or UAV (a list of them for an array), a SamplerState for a sampler; for a cbuffer a Buffer, a numpy array or\n"
            "bytes (its packed contents), or a dict of its variables' names to values (packed by HLSL's rules from the\n"
            "reflection). Works with automatic and hand-written root signatures. With a pipeline bound the values are set at\n"
            "once and hold as root arguments do (until the root signature changes); bound before any pipeline they are kept\n"
            "and set by the next set_pipeline_state. See docs/guides/binding.rst.\n\n"
            "Args:\n"
            "    name: a name the shaders declare (with value), or None.\n"
            "    value: what to bind to it.\n"
            "    values: more names and values.\n\n"
            "Raises:\n"
            "    dx12kit.binding.BindingNameError: a name no shader of the pipeline declares (the message lists the declarations\n"
            "        and a close match).\n"
            "    dx12kit.binding.BindingKindError: a value of the wrong kind for the declaration (a Texture for a cbuffer, a Buffer\n"
            "        for a cbuffer held as root constants); also a TypeError.\n"
            "    dx12kit.binding.CbufferFieldError: a cbuffer dict with a missing or unknown variable, or a value of the wrong shape.\n"
            "    TypeError: neither a name nor keywords given.\n"
            "    UseAfterFreeError: the list was already executed.");
}

}  // namespace dx12kit::bindings
