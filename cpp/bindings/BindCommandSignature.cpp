// dx12core: CommandSignature (Device.create_command_signature; run by CommandList.execute_indirect).
// Only conversions live here; behaviour is in cpp/src/gpu/CommandSignature.cpp.
#include "docs/CommandSignatureDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

namespace dx12kit::bindings {

void BindCommandSignature(Classes& c) {
    Documented(c.commandSignature, docs::CommandSignature::class_)
        .def_property_readonly(
            "arguments",
            [](const CommandSignature& s) {
                py::list out;
                for (const auto& d : s.Arguments()) out.append(IndirectArgument{d});
                return out;
            },
            docs::CommandSignature::arguments)
        .def_property_readonly("byte_stride", &CommandSignature::ByteStride, docs::CommandSignature::byte_stride)
        .def_property_readonly("argument_bytes", &CommandSignature::ArgumentBytes, docs::CommandSignature::argument_bytes)
        .def_property_readonly("is_compute", &CommandSignature::IsCompute, docs::CommandSignature::is_compute)
        .def_property(
            "name", &CommandSignature::Name, [](CommandSignature& s, NameArg n) { s.SetName(Str(n, "CommandSignature.name", "name")); },
            docs::CommandSignature::name)
        .def("__repr__", [](const CommandSignature& s) {
            return "<dx12kit.CommandSignature '" + s.Name() + "' " + indirectrules::KindName(s.Work()) +
                   " byte_stride=" + std::to_string(s.ByteStride()) + ">";
        });
    InstallForkLeak<CommandSignature>(+[](const CommandSignature& s) { return s.Context().Forked(); });
}

}  // namespace dx12kit::bindings
