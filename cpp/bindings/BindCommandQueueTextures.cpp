// dx12core: CommandQueue.write_texture (called by BindCommandQueue). Conversions in InitialData.hpp.
#include "docs/CommandQueueDocs.hpp"
#include "InitialData.hpp"

namespace dx12kit::bindings {

void BindCommandQueueTextures(Classes& c) {
    c.commandQueue.def(
        "write_texture",
        [](std::shared_ptr<CommandQueue> q, TextureArg texture, TexelsArg array, Int mipArg, std::optional<Int> sliceArg,
           std::optional<Int> sliceAlias) {
            const char* fn = "write_texture";
            auto r = AsResource(texture, fn);
            return WriteTexture(q, r, array, U32(mipArg, fn, "mip"), ArraySliceArg(sliceArg, "slice", sliceAlias, "array_slice", fn), fn);
        },
        "texture"_a, "array"_a, "mip"_a = 0, "slice"_a = py::none(), py::kw_only(), "array_slice"_a = py::none(), docs::CommandQueue::write_texture);
}

}  // namespace dx12kit::bindings
