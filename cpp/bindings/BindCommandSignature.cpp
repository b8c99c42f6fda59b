// dx12core: CommandSignature (Device.create_command_signature; run by CommandList.execute_indirect).
// Only conversions live here; behaviour is in cpp/src/gpu/CommandSignature.cpp.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

namespace dx12kit::bindings {

void BindCommandSignature(Classes& c) {
    Documented(c.commandSignature,
        "What each command of an ExecuteIndirect argument buffer holds (ID3D12CommandSignature). Create with\n"
        "Device.create_command_signature; run with CommandList.execute_indirect. It stays alive while command lists using\n"
        "it are in flight.")
        .def_property_readonly("arguments", [](const CommandSignature& s) {
            py::list out;
            for (const auto& d : s.Arguments()) out.append(IndirectArgument{d});
            return out;
        }, "The IndirectArgument list it was created with.")
        .def_property_readonly("byte_stride", &CommandSignature::ByteStride, "The bytes from one command to the next.")
        .def_property_readonly("argument_bytes", &CommandSignature::ArgumentBytes, "The bytes one command's arguments take (<= byte_stride).")
        .def_property_readonly("is_compute", &CommandSignature::IsCompute, "True for a dispatch signature (runs with a compute pipeline).")
        .def_property("name", &CommandSignature::Name, [](CommandSignature& s, py::handle n) { s.SetName(Str(n, "CommandSignature.name", "name")); },
                      "Debug name, shown by repr and in error messages.")
        .def("__repr__", [](const CommandSignature& s) {
            return "<dx12kit.CommandSignature '" + s.Name() + "' " + indirectrules::KindName(s.Work()) + " byte_stride=" + std::to_string(s.ByteStride()) + ">";
        });
    InstallForkLeak<CommandSignature>(+[](const CommandSignature& s) { return s.Core().Forked(); });
}

}  // namespace dx12kit::bindings
