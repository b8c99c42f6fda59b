// dx12core: Device.create_command_signature (a helper of BindDevice; the classes are
// BindCommandSignature.cpp and BindIndirectArgument.cpp).
#include "docs/DeviceDocs.hpp"
#include "GpuArgs.hpp"

namespace dx12kit::bindings {

void BindDeviceIndirect(Classes& c) {
    c.device.def(
        "create_command_signature",
        [](Device& d, py::handle arguments, Int byteStride, py::handle rootSignature, OptNameArg name) {
            const char* fn = "create_command_signature";
            d.Context()->CheckNotForked(fn);
            if (!py::isinstance<py::sequence>(arguments) || py::isinstance<py::str>(arguments))
                throw py::type_error(std::string(fn) + ": arguments must be a list of dx12kit.IndirectArgument, not " + detail::TypeName(arguments));
            std::vector<D3D12_INDIRECT_ARGUMENT_DESC> descs;
            size_t i = 0;
            for (py::handle a : py::reinterpret_borrow<py::sequence>(arguments)) {
                if (!py::isinstance<IndirectArgument>(a))
                    throw py::type_error(std::string(fn) + ": arguments[" + std::to_string(i) +
                                         "] must be a dx12kit.IndirectArgument (IndirectArgument.draw(), "
                                         "...), not " +
                                         detail::TypeName(a));
                descs.push_back(a.cast<const IndirectArgument&>().desc);
                ++i;
            }
            std::shared_ptr<RootSignature> rs;
            if (!rootSignature.is_none()) {
                if (!py::isinstance<RootSignature>(rootSignature))
                    throw py::type_error(std::string(fn) + ": root_signature must be a dx12kit.RootSignature or None, not " +
                                         detail::TypeName(rootSignature));
                rs = rootSignature.cast<std::shared_ptr<RootSignature>>();
            }
            auto sig = std::make_shared<CommandSignature>(d.Context(), std::move(descs), U32(byteStride, fn, "byte_stride"), std::move(rs));
            sig->SetName(name.is_none() ? std::string(indirectrules::KindName(sig->Work())) + " signature" : Str(name, fn, "name"));
            return sig;
        },
        "arguments"_a, py::kw_only(), "byte_stride"_a, "root_signature"_a = py::none(), "name"_a = py::none(),
        docs::Device::create_command_signature);
}

}  // namespace dx12kit::bindings
