// dx12core: Device.close, Device.closed and the context manager (called by BindDevice).
#include "GpuArgs.hpp"

namespace dx12kit::bindings {

void BindDeviceLifetime(Classes& c) {
    c.device
        .def("close", [](Device& d) {
            ReleaseGil release;  // waits for the GPU
            d.Close();
        },
             "Waits for all the device's work to finish, then frees what the device holds itself (idle upload pages, empty\n"
             "memory blocks, built-in pipelines). Any later use of the device or of its queues, command lists, resources and\n"
             "pipelines raises DeviceClosedError (a UseAfterFreeError); their memory is freed as they are dropped. Closing\n"
             "twice is fine. `with dx12kit.Device() as dev:` closes at the end of the block.\n\n"
             "Raises:\n"
             "    ForkedDeviceError: a device of the parent used in a forked child.")
        .def_property_readonly("closed", &Device::Closed, "True once close() was called (any later use raises DeviceClosedError).")
        .def("__enter__", [](py::object self) { return self; }, "The device itself (closed by __exit__).")
        .def("__exit__", [](Device& d, py::args) {
            ReleaseGil release;
            d.Close();
        }, "Closes the device (close()); exceptions propagate.");
}

}  // namespace dx12kit::bindings
