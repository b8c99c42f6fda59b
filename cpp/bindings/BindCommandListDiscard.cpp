// dx12core: CommandList.discard_resource (behaviour and D3D12's state rules in
// cpp/src/gpu/CommandListDiscard.cpp).
#include "GpuArgs.hpp"

namespace dx12kit::bindings {

namespace {

constexpr const char* kDiscardDoc =
    "Discards a texture's contents (ID3D12GraphicsCommandList::DiscardResource): they become undefined, and the\n"
    "texture counts as initialised, which a placed render target or depth buffer needs at its first use after it\n"
    "takes over memory. The list moves the texture to the state D3D12 requires: on a direct list RENDER_TARGET for a\n"
    "render target, DEPTH_WRITE for a depth-stencil texture, else UNORDERED_ACCESS; on a compute list\n"
    "UNORDERED_ACCESS. Not predicated.\n\n"
    "Args:\n"
    "    texture: a Texture of this device.\n"
    "    mip: one mip level, or None for all.\n"
    "    array_slice: one array slice (cube face), or None for all.\n\n"
    "Raises:\n"
    "    TypeError: texture is not a Texture.\n"
    "    InvalidArgumentError: a buffer, a copy-queue list, a texture D3D12 cannot discard on this list's queue (no\n"
    "        render-target, depth-stencil or unordered-access flag; on a compute list no unordered-access flag),\n"
    "        or a mip or slice out of range.\n"
    "    UseAfterFreeError: the list was executed already.";

}  // namespace

void BindCommandListDiscard(Classes& c) {
    c.commandList.def(
        "discard_resource",
        [](CommandList& cl, TextureArg t, OptIndex mip, OptIndex slice) {
            const char* fn = "discard_resource";
            auto res = AsResource(t, fn);
            cl.DiscardResource(res, IndexOrAll(mip, CommandList::kAllMips, fn, "mip"), IndexOrAll(slice, CommandList::kAllSlices, fn, "array_slice"));
        },
        "texture"_a, py::kw_only(), "mip"_a = py::none(), "array_slice"_a = py::none(), kDiscardDoc);
}

}  // namespace dx12kit::bindings
