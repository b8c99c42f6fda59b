// dx12core: Buffer.
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

namespace dx12kit::bindings {

void BindBuffer(Classes& c) {
    Documented(c.buffer, "A GPU buffer. Create with Device.create_buffer.")
        .def_property_readonly("size", &Buffer::Size, "Size in bytes.")
        .def_property_readonly("gpu_address", &Buffer::GpuAddress, "GPU virtual address of the first byte (for root CBV/SRV/UAV arguments).")
        .def("__repr__", [](const Buffer& b) { return "<dx12kit.Buffer '" + b.Name() + "' " + std::to_string(b.Size()) + " bytes>"; })
        .def("map", [](py::object self, py::object dtype) {
            py::dtype dt = FixedSizeDtype(dtype, "map");  // no object, sizeless or byte-swapped dtypes
            const uint64_t item = static_cast<uint64_t>(dt.itemsize());
            uint8_t* data = self.cast<const Buffer&>().HostView(item, "map");
            // The array's base is the Buffer object, so the memory stays mapped while the array lives
            // (and in place: CPU-visible buffers never move, Device::AdoptPlacement).
            const auto count = static_cast<py::ssize_t>(self.cast<const Buffer&>().Size() / item);
            return py::array(dt, {count}, {static_cast<py::ssize_t>(item)}, data, self);
        }, "dtype"_a = py::dtype::of<uint8_t>(),
       "A numpy view of a CPU-visible buffer's memory (heap 'upload', 'readback' or 'custom'), valid while the array lives\n"
       "(it keeps the buffer alive). Writes to upload memory are seen by the GPU work submitted after them; read readback\n"
       "memory after the GPU work that wrote it has completed (queue.wait). CPU-visible buffers never move\n"
       "(Device.defragment leaves them in place), so the array stays valid as long as it lives.\n\n"
           "Args:\n"
           "    dtype: the numpy dtype of the items (fixed size, native byte order); the buffer's size must be a multiple of it.\n\n"
           "Returns:\n"
           "    A 1-D numpy array over the buffer's memory (no copy).\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a GPU-only buffer (heap 'default'), or a size that is not a whole number of items.\n"
           "    UseAfterFreeError: the buffer was closed.\n"
           "    TypeError: dtype is not a fixed-size numpy dtype.");
    InstallForkLeak<Buffer>(+[](const Buffer& r) { return r.Core().Forked(); });
}

}  // namespace dx12kit::bindings
