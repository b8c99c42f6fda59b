// dx12core: Device.create_command_signature (a helper of BindDevice; the classes are
// BindCommandSignature.cpp and BindIndirectArgument.cpp).
#include "GpuArgs.hpp"

namespace dx12kit::bindings {

void BindDeviceIndirect(Classes& c) {
    c.device.def("create_command_signature", [](Device& d, py::handle arguments, Int byteStride, py::handle rootSignature, py::object name) {
        const char* fn = "create_command_signature";
        d.Core()->CheckNotForked(fn);
        if (!py::isinstance<py::sequence>(arguments) || py::isinstance<py::str>(arguments))
            throw py::type_error(std::string(fn) + ": arguments must be a list of dx12kit.IndirectArgument, not " + detail::TypeName(arguments));
        std::vector<D3D12_INDIRECT_ARGUMENT_DESC> descs;
        size_t i = 0;
        for (py::handle a : py::reinterpret_borrow<py::sequence>(arguments)) {
            if (!py::isinstance<IndirectArgument>(a))
                throw py::type_error(std::string(fn) + ": arguments[" + std::to_string(i) + "] must be a dx12kit.IndirectArgument (IndirectArgument.draw(), "
                                     "...), not " + detail::TypeName(a));
            descs.push_back(a.cast<const IndirectArgument&>().desc);
            ++i;
        }
        std::shared_ptr<RootSignature> rs;
        if (!rootSignature.is_none()) {
            if (!py::isinstance<RootSignature>(rootSignature))
                throw py::type_error(std::string(fn) + ": root_signature must be a dx12kit.RootSignature or None, not " + detail::TypeName(rootSignature));
            rs = rootSignature.cast<std::shared_ptr<RootSignature>>();
        }
        auto sig = std::make_shared<CommandSignature>(d.Core(), std::move(descs), U32(byteStride, fn, "byte_stride"), std::move(rs));
        sig->SetName(name.is_none() ? std::string(indirectrules::KindName(sig->Work())) + " signature" : Str(name, fn, "name"));
        return sig;
    }, "arguments"_a, py::kw_only(), "byte_stride"_a, "root_signature"_a = py::none(), "name"_a = py::none(),
       "A command signature for CommandList.execute_indirect (ID3D12Device::CreateCommandSignature).\n\n"
       "D3D12's rules are checked: exactly one draw, draw_indexed or dispatch argument, last; byte_stride a multiple of 4\n"
       "and at least the arguments' bytes; root_signature given exactly when an argument changes root arguments\n"
       "(constant, constant_buffer_view, shader_resource_view, unordered_access_view), each naming a parameter of that\n"
       "kind; no vertex or index buffer views in a dispatch signature. On vkd3d 1.2 only signatures of the draw,\n"
       "draw_indexed or dispatch argument alone run right (the others are ignored there): the others are refused\n"
       "(docs/guides/shader-gaps.rst).\n\n"
       "Args:\n"
       "    arguments: a list of IndirectArgument, ending with IndirectArgument.draw(), draw_indexed() or dispatch().\n"
       "    byte_stride: the bytes from one command to the next in the argument buffer.\n"
       "    root_signature: the RootSignature the root-argument changes apply to, or None when there are none.\n"
       "    name: debug name (default: '<draw kind> signature').\n\n"
       "Returns:\n"
       "    A CommandSignature.\n\n"
       "Raises:\n"
       "    InvalidArgumentError: a rule above broken, or a signature this device would not run right.\n"
       "    TypeError: arguments that are not IndirectArgument, a root_signature that is not a RootSignature.");
}

}  // namespace dx12kit::bindings
