// dx12core: UploadAllocation, the zero-copy upload memory of a CommandList (CommandList.allocate_upload);
// the pinning is the core's (dx12kit/gpu/PinnedUpload.hpp). Only conversions live here.
#include "docs/UploadAllocationDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

#include "dx12kit/gpu/PinnedUpload.hpp"

namespace dx12kit::bindings {

void BindUploadAllocation(Classes& c) {
    Documented(c.uploadAllocation, docs::UploadAllocation::class_)
        .def_property_readonly(
            "size", [](const PinnedUpload& u) { return u.Allocation().size; }, docs::UploadAllocation::size)
        .def_property_readonly(
            "gpu_address", [](const PinnedUpload& u) { return u.Allocation().gpu; }, docs::UploadAllocation::gpu_address)
        .def_property_readonly(
            "offset", [](const PinnedUpload& u) { return u.Allocation().offset; }, docs::UploadAllocation::offset)
        .def("__repr__",
             [](const PinnedUpload& u) {
                 return "<dx12kit.UploadAllocation size=" + std::to_string(u.Allocation().size) + " offset=" + std::to_string(u.Allocation().offset) +
                        (u.List().IsClosed() ? " (list executed)" : "") + ">";
             })
        .def(
            "array",
            [](py::object self, py::object dtype, py::object shape) {
                const PinnedUpload& u = self.cast<const PinnedUpload&>();
                const char* fn = "UploadAllocation.array";
                uint8_t* cpu = u.Writable(fn);
                const uint64_t size = u.Allocation().size;
                py::dtype dt = FixedSizeDtype(dtype, fn);
                const uint64_t item = static_cast<uint64_t>(dt.itemsize());
                const uint64_t n = size / item;
                std::vector<py::ssize_t> shp;
                if (shape.is_none()) shp = {static_cast<py::ssize_t>(n)};
                else {
                    if (PyIndex_Check(shape.ptr())) shape = py::make_tuple(shape);
                    if (!py::isinstance<py::sequence>(shape) || py::isinstance<py::str>(shape))
                        throw py::type_error(std::string(fn) + ": shape must be a tuple of ints, not " + detail::TypeName(shape));
                    for (py::handle d : shape) shp.push_back(static_cast<py::ssize_t>(detail::Ranged(d, fn, "shape item", 0, INT64_MAX)));
                }
                // Overflow-safe: count * item <= size, checked one factor at a time.
                uint64_t bytes = item;
                for (auto d : shp) {
                    if (d != 0 && bytes > size / uint64_t(d))
                        throw InvalidArgument(std::string(fn) + ": shape larger than the allocation of " + std::to_string(size) + " bytes");
                    bytes *= uint64_t(d);
                }
                if (bytes > size) throw InvalidArgument(std::string(fn) + ": shape larger than the allocation of " + std::to_string(size) + " bytes");
                return py::array(dt, shp, cpu, self);  // the view keeps the allocation (and its list) alive
            },
            "dtype"_a = py::dtype("uint8"), "shape"_a = py::none(), docs::UploadAllocation::array);
    InstallForkLeak<PinnedUpload, std::unique_ptr<PinnedUpload>>(+[](const PinnedUpload& u) { return u.List().Context()->Forked(); });
}

}  // namespace dx12kit::bindings
