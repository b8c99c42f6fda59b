// dx12core: CommandQueue.write_texture (called by BindCommandQueue). Conversions in InitialData.hpp.
#include "docs/CommandQueueDocs.hpp"
#include "InitialData.hpp"

namespace dx12kit::bindings {

void BindCommandQueueTextures(Classes& c) {
    c.commandQueue.def(
        "write_texture",
        [](std::shared_ptr<CommandQueue> q, TextureArg texture, TexelsArg array, Int mipArg, Int sliceArg) {
            const char* fn = "write_texture";
            auto r = AsResource(texture, fn);
            return WriteTexture(q, r, array, U32(mipArg, fn, "mip"), U32(sliceArg, fn, "slice"), fn);
        },
        "texture"_a, "array"_a, "mip"_a = 0, "slice"_a = 0, docs::CommandQueue::write_texture);
}

}  // namespace dx12kit::bindings
