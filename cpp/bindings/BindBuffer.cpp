// dx12core: Buffer.
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "docs/BufferDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

namespace dx12kit::bindings {

void BindBuffer(Classes& c) {
    Documented(c.buffer, docs::Buffer::class_)
        .def_property_readonly("size", &Buffer::Size, docs::Buffer::size)
        .def_property_readonly("gpu_address", &Buffer::GpuAddress, docs::Buffer::gpu_address)
        .def("__repr__", [](const Buffer& b) { return "<dx12kit.Buffer '" + b.Name() + "' " + std::to_string(b.Size()) + " bytes>"; })
        .def(
            "map",
            [](py::object self, py::object dtype) {
                py::dtype dt = FixedSizeDtype(dtype, "map");  // no object, sizeless or byte-swapped dtypes
                const uint64_t item = static_cast<uint64_t>(dt.itemsize());
                uint8_t* data = self.cast<const Buffer&>().HostView(item, "map");
                // The array's base is the Buffer object, so the memory stays mapped while the array lives
                // (and in place: CPU-visible buffers never move, Device::AdoptPlacement).
                const auto count = static_cast<py::ssize_t>(self.cast<const Buffer&>().Size() / item);
                return py::array(dt, {count}, {static_cast<py::ssize_t>(item)}, data, self);
            },
            "dtype"_a = py::dtype::of<uint8_t>(), docs::Buffer::map);
    InstallForkLeak<Buffer>(+[](const Buffer& r) { return r.Context().Forked(); });
}

}  // namespace dx12kit::bindings
