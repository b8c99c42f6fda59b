// dx12core: Bundle.execute_indirect (behaviour in cpp/src/gpu/Bundle.cpp, rules in dx12kit/gpu/Bundle.hpp
// and dx12kit/gpu/CommandSignature.hpp).
#include "IndirectArgs.hpp"
#include "docs/BundleDocs.hpp"

#include "dx12kit/gpu/Bundle.hpp"

namespace dx12kit::bindings {

void BindBundleIndirect(Classes& c) {
    c.bundle.def(
        "execute_indirect",
        [](Bundle& b, CommandSignatureArg signature, Int maxCount, BufferArg argumentBuffer, Int argumentOffset, OptBufferArg countBuffer,
           Int countOffset, BuffersArg referenced) {
            const IndirectCall a = IndirectCallArgs(signature, maxCount, argumentBuffer, argumentOffset, countBuffer, countOffset, referenced);
            b.ExecuteIndirect(a.signature, a.maxCount, a.arguments, a.argumentOffset, a.count, a.countOffset, a.referenced);
        },
        "signature"_a, "max_count"_a, "argument_buffer"_a, "argument_offset"_a = 0, "count_buffer"_a = py::none(), "count_offset"_a = 0,
        py::kw_only(), "referenced"_a = py::tuple(), docs::Bundle::execute_indirect);
}

}  // namespace dx12kit::bindings
