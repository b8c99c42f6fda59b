// dx12core: Device.close, Device.closed and the context manager (called by BindDevice).
#include "docs/DeviceDocs.hpp"
#include "GpuArgs.hpp"

namespace dx12kit::bindings {

void BindDeviceLifetime(Classes& c) {
    c.device
        .def(
            "close",
            [](Device& d) {
                ReleaseGil release;  // waits for the GPU
                d.Close();
            },
            docs::Device::close)
        .def_property_readonly("closed", &Device::Closed, docs::Device::closed)
        .def(
            "__enter__", [](std::shared_ptr<Device> self) { return self; }, docs::Device::enter)
        .def(
            "__exit__",
            [](Device& d, const py::args&) {
                ReleaseGil release;
                d.Close();
            },
            docs::Device::exit);
}

}  // namespace dx12kit::bindings
