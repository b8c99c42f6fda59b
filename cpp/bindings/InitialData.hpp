// Data given with a creation or a write: Device.create_buffer(data=), Device.create_texture2d(data=),
// CommandQueue.write_texture, and read_buffer's shape= (InitialData.cpp). Conversions and checks
// only: the writes go through CommandQueue::WriteBuffer and CommandList::Upload.
#pragma once

#include "GpuArgs.hpp"

#include <optional>

namespace dx12kit::bindings {

/// read_buffer's shape= (an int or a tuple of ints) as a tuple whose product times the item size is
/// `size` bytes; TypeError / InvalidArgument naming the buffer otherwise.
py::tuple ReadShape(py::handle shape, uint64_t size, const py::dtype& dt, const std::string& bufferName);

/// create_buffer's size: `size` when given (data's bytes must fit in it), else data's byte count. `data`:
/// the bytes of data= (GetBytes, taken once by the caller), null without data=.
uint64_t BufferSizeFor(const std::optional<Int>& size, const Bytes* data, const char* fn);
/// Writes `data` at offset 0 of a new buffer, in queue order on the direct queue (later executes on
/// any queue see it); mapped upload/readback buffers are written by the CPU at once.
void WriteInitialBuffer(Device& d, const std::shared_ptr<Buffer>& b, const Bytes& data);

/// What create_texture2d(data=) infers: the texture's size, slices and format where not given.
struct TextureData {
    uint32_t width = 0, height = 0, arraySize = 1;
    DXGI_FORMAT format = DXGI_FORMAT_R8G8B8A8_UNORM;
};
/// Width, height, array size and format for create_texture2d. `data` None: the arguments as given
/// (width and height required, format default rgba8_unorm). Otherwise data is (H, W), (H, W, C) or
/// (N, H, W, C) (N array slices); a given width/height/array_size must agree with it, and a format
/// not given is chosen from the dtype and channel count (as load_texture: uint8 -> r8/rg8/rgba8_unorm,
/// uint16 -> *16_unorm, float16 -> *16_float, float32 -> *32_float, uint32 -> *32_uint, int32 -> *32_sint).
TextureData InferTexture(const std::optional<Int>& width, const std::optional<Int>& height, py::handle format, const Int& arraySize, py::handle data,
                         const char* fn);
/// Uploads `data` into mip 0 of every slice of a new texture (direct queue, in queue order).
void WriteInitialTexture(Device& d, const std::shared_ptr<Texture>& t, py::handle data, const char* fn);

/// CommandQueue.write_texture: checks `array` against the subresource (dtype and shape of the format,
/// as read_texture returns them) and executes a list holding only its upload on `q`; returns the
/// fence value after which the data is in place.
uint64_t WriteTexture(const std::shared_ptr<CommandQueue>& q, const std::shared_ptr<Resource>& r, py::handle array, uint32_t mip, uint32_t slice,
                      const char* fn);

}  // namespace dx12kit::bindings
