// dx12core: CommandList.execute_indirect (a helper of BindCommandList; behaviour in
// cpp/src/gpu/CommandListIndirect.cpp, rules in dx12kit/gpu/CommandSignature.hpp).
#include "GpuArgs.hpp"

namespace dx12kit::bindings {

void BindCommandListIndirect(Classes& c) {
    c.commandList.def("execute_indirect", [](CommandList& cl, py::handle signature, Int maxCount, py::handle argumentBuffer, Int argumentOffset,
                                             py::handle countBuffer, Int countOffset) {
        const char* fn = "execute_indirect";
        if (!py::isinstance<CommandSignature>(signature))
            throw py::type_error(std::string(fn) + ": signature must be a dx12kit.CommandSignature (Device.create_command_signature), not " +
                                 detail::TypeName(signature));
        std::shared_ptr<Resource> count;
        if (!countBuffer.is_none()) count = AsResource(countBuffer, "execute_indirect: count_buffer");
        cl.ExecuteIndirect(signature.cast<std::shared_ptr<CommandSignature>>(), U32(maxCount, fn, "max_count"), AsResource(argumentBuffer, "execute_indirect: argument_buffer"),
                           U64(argumentOffset, fn, "argument_offset"), count, U64(countOffset, fn, "count_offset"));
    }, "signature"_a, "max_count"_a, "argument_buffer"_a, "argument_offset"_a = 0, "count_buffer"_a = py::none(), "count_offset"_a = 0,
       "Runs up to `max_count` commands whose arguments the GPU reads from `argument_buffer`\n"
       "(ID3D12GraphicsCommandList::ExecuteIndirect): command i at argument_offset + i * signature.byte_stride. With a\n"
       "count_buffer, the uint32 there says how many run (at most max_count). Both buffers go to INDIRECT_ARGUMENT\n"
       "through the state tracker, so a compute pass may write them earlier in the same list. Draws and dispatches use\n"
       "what is bound, as draw and dispatch do (pipeline, root arguments, tables, targets, vertex and index buffers).\n\n"
       "Args:\n"
       "    signature: a CommandSignature of this device; a draw signature needs a graphics pipeline bound (direct\n"
       "        lists), a dispatch signature a compute pipeline; one that changes root arguments needs its root\n"
       "        signature bound.\n"
       "    max_count: the most commands run (0 runs nothing).\n"
       "    argument_buffer: the Buffer holding the commands.\n"
       "    argument_offset: where the first command starts (a multiple of 4).\n"
       "    count_buffer: a Buffer holding the command count as uint32, or None to run max_count commands.\n"
       "    count_offset: where the count is in count_buffer (a multiple of 4).\n\n"
       "Raises:\n"
       "    InvalidArgumentError: misaligned offsets, buffers too small for max_count commands (or the count), a\n"
       "        pipeline or root signature that does not match the signature, a buffer also bound for another use,\n"
       "        what draw or dispatch refuse, or a count buffer with a dispatch signature on vkd3d 1.2 (which ignores it).\n"
       "    TypeError: arguments of the wrong type.");
}

}  // namespace dx12kit::bindings
