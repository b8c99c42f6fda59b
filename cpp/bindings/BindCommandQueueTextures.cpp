// dx12core: CommandQueue.write_texture (called by BindCommandQueue). Conversions in InitialData.hpp.
#include "InitialData.hpp"

namespace dx12kit::bindings {

void BindCommandQueueTextures(Classes& c) {
    c.commandQueue.def("write_texture", [](std::shared_ptr<CommandQueue> q, py::handle texture, py::handle array, Int mipArg, Int sliceArg) {
        const char* fn = "write_texture";
        auto r = AsResource(texture, fn);
        return WriteTexture(q, r, array, U32(mipArg, fn, "mip"), U32(sliceArg, fn, "slice"), fn);
    }, "texture"_a, "array"_a, "mip"_a = 0, "slice"_a = 0,
       "Writes a numpy array into one texture subresource as if a command list holding only that upload were executed on\n"
       "this queue now (as write_buffer does for buffers): later executes see the data, earlier ones do not.\n"
       "The array is what read_texture returns for the subresource: its dtype (uint8 for rgba8_unorm, float32 for\n"
       "rgba32_float, ...) and shape (height, width, channels) of the mip ((height, width) allowed for one channel;\n"
       "(depth, height, width, channels) for a 3D texture; raw blocks for block-compressed formats). Bytes-like objects\n"
       "that are not numpy arrays are taken as the subresource's tightly packed rows.\n\n"
       "Args:\n"
       "    texture: a Texture of this device.\n"
       "    array: the texels.\n"
       "    mip: the mip level.\n"
       "    slice: the array slice (a cube's face).\n\n"
       "Returns:\n"
       "    A fence value of this queue after which the data is in place (for wait or wait_for).\n\n"
       "Raises:\n"
       "    TypeError: texture is not a Texture; array of another dtype than the format's.\n"
       "    InvalidArgumentError: a buffer, a mip or slice out of range, an array of the wrong shape or size.\n"
       "    UseAfterFreeError: the texture was closed (DeviceClosedError: its device was).");
}

}  // namespace dx12kit::bindings
