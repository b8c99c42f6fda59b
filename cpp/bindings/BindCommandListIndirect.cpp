// dx12core: CommandList.execute_indirect (a helper of BindCommandList; behaviour in
// cpp/src/gpu/CommandListIndirect.cpp, rules in dx12kit/gpu/CommandSignature.hpp).
#include "docs/CommandListDocs.hpp"
#include "GpuArgs.hpp"
#include "IndirectArgs.hpp"

namespace dx12kit::bindings {

IndirectCall IndirectCallArgs(CommandSignatureArg signature, Int maxCount, BufferArg argumentBuffer, Int argumentOffset, OptBufferArg countBuffer,
                              Int countOffset, BuffersArg referenced) {
    const char* fn = "execute_indirect";
    if (!py::isinstance<CommandSignature>(signature))
        throw py::type_error(std::string(fn) + ": signature must be a dx12kit.CommandSignature (Device.create_command_signature), not " +
                             detail::TypeName(signature));
    if (!py::isinstance<py::sequence>(referenced) || py::isinstance<py::str>(referenced))
        throw py::type_error(std::string(fn) + ": referenced must be a sequence of Buffers, not " + detail::TypeName(referenced));
    IndirectCall call;
    const py::sequence seq = py::reinterpret_borrow<py::sequence>(referenced);
    for (size_t i = 0; i < seq.size(); ++i)
        call.referenced.push_back(AsResource(seq[i], ("execute_indirect: referenced[" + std::to_string(i) + "]").c_str()));
    if (!countBuffer.is_none()) call.count = AsResource(countBuffer, "execute_indirect: count_buffer");
    call.signature = signature.cast<std::shared_ptr<CommandSignature>>();
    call.maxCount = U32(maxCount, fn, "max_count");
    call.arguments = AsResource(argumentBuffer, "execute_indirect: argument_buffer");
    call.argumentOffset = U64(argumentOffset, fn, "argument_offset");
    call.countOffset = U64(countOffset, fn, "count_offset");
    return call;
}

void BindCommandListIndirect(Classes& c) {
    c.commandList.def(
        "execute_indirect",
        [](CommandList& cl, CommandSignatureArg signature, Int maxCount, BufferArg argumentBuffer, Int argumentOffset, OptBufferArg countBuffer,
           Int countOffset, BuffersArg referenced) {
            const IndirectCall a = IndirectCallArgs(signature, maxCount, argumentBuffer, argumentOffset, countBuffer, countOffset, referenced);
            cl.ExecuteIndirect(a.signature, a.maxCount, a.arguments, a.argumentOffset, a.count, a.countOffset, a.referenced);
        },
        "signature"_a, "max_count"_a, "argument_buffer"_a, "argument_offset"_a = 0, "count_buffer"_a = py::none(), "count_offset"_a = 0,
        py::kw_only(), "referenced"_a = py::tuple(), docs::CommandList::execute_indirect);
}

}  // namespace dx12kit::bindings
