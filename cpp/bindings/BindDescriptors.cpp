// Bindings of the descriptor subsystem's standalone parts, in the submodule dx12core.descriptors:
//
//   CpuDescriptorAllocator   a CPU descriptor allocator of its own on a Device's ID3D12Device, with
//                            a serial the caller controls (tests play the device's submissions)
//   DescriptorAllocation     the move-only handle it returns (free() / context manager)
//   ShaderVisibleHeap        a shader-visible heap of its own (static part + dynamic chunks), for
//                            tests of its bookkeeping; serials are plain ints the caller passes
//
// The C++ timing loops of benchmarks/bench_descriptors.py (measure_*) and the native-thread stress
// loop of the tests (stress_cpu_allocator) live in the benchmark module dx12kit_bench (cpp/bench/).
//
// The device's own allocators and heaps are reached through the Device and CommandList classes
// (BindDevice.cpp, BindCommandList.cpp); this file only converts. Allocation, free, release and the loops run with the
// GIL released: the allocator locks itself, so Python threads really race in it.
#include "Args.hpp"
#include "ForkSafety.hpp"
#include "Bindings.hpp"
#include "ChoiceTables.hpp"
#include "DescriptorBindings.hpp"
#include "StatsDicts.hpp"

#include "dx12kit/core/Errors.hpp"
#include "dx12kit/descriptors/CpuDescriptorAllocator.hpp"
#include "dx12kit/descriptors/DescriptorHeapTypes.hpp"
#include "dx12kit/descriptors/ShaderVisibleHeap.hpp"
#include "dx12kit/gpu/Device.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <memory>
#include <string>

namespace py = pybind11;
using namespace pybind11::literals;

namespace dx12kit::bindings {

namespace {

/// A ShaderVisibleHeap plus the device core that keeps its ID3D12Device alive.
struct PyShaderVisibleHeap {
    PyShaderVisibleHeap(std::shared_ptr<DeviceCore> c, D3D12_DESCRIPTOR_HEAP_TYPE type, uint32_t n, uint32_t s, uint32_t chunk)
        : core(std::move(c)), heap(core->D3D12Device(), type, n, s, chunk) {}
    std::shared_ptr<DeviceCore> core;
    ShaderVisibleHeap heap;
};

/// A DescriptorAllocation that keeps its allocator alive (members die in reverse order: the
/// allocation is freed before the owner can go).
struct PyAllocation {
    std::shared_ptr<PyCpuAllocator> owner;
    DescriptorAllocation allocation;
};

std::string LowerName(D3D12_DESCRIPTOR_HEAP_TYPE type) {
    std::string s = DescriptorHeapTypeName(type);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

void BindDescriptors(py::module_& parent) {
    py::module_ m = parent.def_submodule(
        "descriptors",
        "Standalone descriptor allocators and the descriptor benchmarks (the device's own descriptors are managed "
        "for you by Device and CommandList).");

    py::class_<PyAllocation>(m, "DescriptorAllocation",
                             "Consecutive CPU descriptors from a CpuDescriptorAllocator. Freed (deferred) by free(), "
                             "at the end of a with-block, or when garbage-collected.")
        .def("handle", [](const PyAllocation& a, Int i) { return static_cast<uint64_t>(a.allocation.Handle(U32(i, "DescriptorAllocation.handle", "i")).ptr); },
             "i"_a = 0,
             "CPU handle of descriptor i as an int.\n\nArgs:\n    i: the descriptor's index in the allocation.\n\nReturns:\n    The CPU descriptor handle (D3D12_CPU_DESCRIPTOR_HANDLE.ptr).\n\nRaises:\n    UseAfterFreeError: the allocation was freed.\n"
             "    InvalidArgumentError: i >= count.")
        .def("handles", [](const PyAllocation& a) {
            if (a.allocation.IsNull()) a.allocation.Handle(0);  // raises UseAfterFree
            std::vector<uint64_t> out;
            for (uint32_t i = 0; i < a.allocation.Count(); ++i) out.push_back(a.allocation.Handle(i).ptr);
            return out;
        }, "Every CPU handle of the range, as ints (raises UseAfterFreeError once freed).")
        .def_property_readonly("count", [](const PyAllocation& a) { return a.allocation.Count(); }, "0 once freed.")
        .def_property_readonly("is_null", [](const PyAllocation& a) { return a.allocation.IsNull(); }, "True for an empty allocation (freed, or never allocated).")
        .def_property_readonly("page_offset", [](const PyAllocation& a) { return a.allocation.PageOffset(); }, "Index of the first descriptor within its page.")
        .def("free", [](PyAllocation& a) {
            ReleaseGil release;
            a.allocation.Free();
        }, "Deferred free, tagged with the allocator's current serial. Freeing twice does nothing.")
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](PyAllocation& a, py::args) { a.allocation.Free(); })
        .def("__bool__", [](const PyAllocation& a) { return !a.allocation.IsNull(); })
        .def("__repr__", [](const PyAllocation& a) {
            if (a.allocation.IsNull()) return std::string("<DescriptorAllocation null>");
            return "<DescriptorAllocation " + std::to_string(a.allocation.Count()) + " descriptors at " +
                   std::to_string(a.allocation.Handle(0).ptr) + ">";
        });

    py::class_<PyCpuAllocator, std::shared_ptr<PyCpuAllocator>>(
        m, "CpuDescriptorAllocator",
        "CPU-only descriptors of one heap type in pages of page_size, with deferred frees: a free is tagged with\n"
        "current_serial and handed out again only after release_stale_descriptors(completed >= that serial).\n"
        "Thread-safe. This is the allocator the device uses for views and samplers; one made here has its own\n"
        "pages and its own serial, which the caller advances (as the device does at each submission).")
        .def(py::init([](std::shared_ptr<Device> device, Choice<DescriptorHeapTypeChoice> heapType, Int pageSize) {
                 if (!device) throw InvalidArgument("CpuDescriptorAllocator: device is None");
                 return std::make_shared<PyCpuAllocator>(device->Core(), Parse(heapType, "heap_type"), U32(pageSize, "CpuDescriptorAllocator", "page_size"));
             }),
             "device"_a, "heap_type"_a = "cbv_srv_uav", py::kw_only(), "page_size"_a = 256,
           "A standalone CPU descriptor allocator.\n\n"
           "Args:\n"
           "    device: the Device whose descriptor heaps back it.\n"
           "    heap_type: a DescriptorHeapType or its name.\n"
           "    page_size: descriptors per page (one D3D12 heap each).\n\n"
           "Raises:\n"
           "    InvalidArgumentError: device is None or page_size is 0.")
        .def("allocate", [](std::shared_ptr<PyCpuAllocator> self, Int countArg) {
            const uint32_t count = U32(countArg, "CpuDescriptorAllocator.allocate", "count");
            DescriptorAllocation a;
            {
                ReleaseGil release;
                a = self->allocator.Allocate(count);
            }
            return PyAllocation{std::move(self), std::move(a)};
        }, "count"_a = 1,
           "`count` consecutive descriptors (a request larger than a page gets a page of its own).\n\n"
           "Args:\n    count: contiguous descriptors.\n\nReturns:\n    A DescriptorAllocation.\n\nRaises:\n    InvalidArgumentError: count is 0.")
        .def("release_stale_descriptors", [](PyCpuAllocator& self, Int completedArg) {
            const uint64_t completed = U64(completedArg, "CpuDescriptorAllocator.release_stale_descriptors", "completed_serial");
            ReleaseGil release;
            self.allocator.ReleaseStaleDescriptors(completed);
        }, "completed_serial"_a, "Makes every range freed with serial <= completed_serial reusable.\n\n"
           "Args:\n"
           "    completed_serial: the highest completed serial.")
        .def_property("current_serial", [](const PyCpuAllocator& self) { return self.serial.load(); },
                      [](PyCpuAllocator& self, Int value) {
                          const uint64_t v = U64(value, "CpuDescriptorAllocator", "current_serial");
                          if (v < self.serial.load())
                              throw InvalidArgument("current_serial only moves forward (it is " +
                                                    std::to_string(self.serial.load()) + ")");
                          self.serial.store(v);
                      },
                      "The serial frees are tagged with (plays the device's last submission serial).")
        .def("stats", [](const PyCpuAllocator& self) { return CpuDescriptorStatsDict(self.allocator.GetStats()); },
             "in_use, pages, peak, stale and capacity, in descriptors (pages: in pages).")
        .def("validate", [](const PyCpuAllocator& self) { self.allocator.Validate(); },
             "Checks every internal invariant; raises Dx12Error naming a broken one.")
        .def_property_readonly("descriptor_size", [](const PyCpuAllocator& self) { return self.allocator.DescriptorSize(); },
                               "Bytes between consecutive descriptors of this heap type.")
        .def_property_readonly("page_size", [](const PyCpuAllocator& self) { return self.allocator.PageSize(); }, "Descriptors per page.")
        .def_property_readonly("heap_type", [](const PyCpuAllocator& self) { return LowerName(self.allocator.Type()); },
                               "'cbv_srv_uav', 'sampler', 'rtv' or 'dsv' (a dx12kit.DescriptorHeapType value).")
        .def("__repr__", [](const PyCpuAllocator& self) {
            return "<dx12kit.descriptors.CpuDescriptorAllocator " + LowerName(self.allocator.Type()) + " page_size=" +
                   std::to_string(self.allocator.PageSize()) + " in_use=" + std::to_string(self.allocator.GetStats().inUse) + ">";
        });

    py::class_<PyShaderVisibleHeap, std::shared_ptr<PyShaderVisibleHeap>>(
        m, "ShaderVisibleHeap",
        "A shader-visible descriptor heap split into a static part [0, static_count) (free list, deferred frees) and\n"
        "dynamic chunks of chunk_size (acquired, retired with a serial, free again after release_stale). The device\n"
        "owns one per type; one made here is for experiments and tests. Thread-safe.")
        .def(py::init([](std::shared_ptr<Device> device, Choice<DescriptorHeapTypeChoice> heapType, Int n, Int staticCount, Int chunk) {
                 const char* fn = "ShaderVisibleHeap";
                 if (!device) throw InvalidArgument("ShaderVisibleHeap: device is None");
                 return std::make_shared<PyShaderVisibleHeap>(device->Core(), Parse(heapType, "heap_type"), U32(n, fn, "num_descriptors"),
                                                              U32(staticCount, fn, "static_count"), U32(chunk, fn, "chunk_size"));
             }),
             "device"_a, "heap_type"_a, "num_descriptors"_a, py::kw_only(), "static_count"_a, "chunk_size"_a,
           "A standalone shader-visible descriptor heap.\n\n"
           "Args:\n"
           "    device: the Device that creates the heap.\n"
           "    heap_type: 'cbv_srv_uav' or 'sampler' (a DescriptorHeapType).\n"
           "    num_descriptors: the heap's size.\n"
           "    static_count: descriptors of the static part (allocate_static).\n"
           "    chunk_size: descriptors per dynamic chunk.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: device is None, or sizes that do not fit.")
        .def("allocate_static", [](PyShaderVisibleHeap& h, Int count) { return h.heap.AllocateStatic(U32(count, "allocate_static", "count")); }, "count"_a,
             "First index of `count` consecutive static descriptors.\n\nArgs:\n    count: contiguous descriptors.\n\nReturns:\n    The first descriptor's heap index.\n\nRaises:\n    OutOfMemoryError: no such room.")
        .def("free_static", [](PyShaderVisibleHeap& h, Int first, Int serial) {
                h.heap.FreeStatic(U32(first, "free_static", "first"), U64(serial, "free_static", "serial"));
            },
             "first"_a, "serial"_a, "Deferred free: reusable after release_stale(completed >= serial).\n\n"
           "Args:\n"
           "    first: the heap index allocate_static returned.\n"
           "    serial: the serial after which the range may be reused.")
        .def("try_acquire_chunk", [](PyShaderVisibleHeap& h) -> py::object {
            uint32_t first = 0;
            if (!h.heap.TryAcquireChunk(first)) return py::none();
            return py::int_(first);
        }, "First heap index of a free chunk, or None when every chunk is in use or retired.")
        .def("retire_chunk", [](PyShaderVisibleHeap& h, Int first, Int serial) {
                h.heap.RetireChunk(U32(first, "retire_chunk", "first"), U64(serial, "retire_chunk", "serial"));
            },
             "first"_a, "serial"_a, "Hands back a chunk taken with try_acquire_chunk, reusable once release_stale sees `serial` completed.\n\n"
           "Args:\n"
           "    first: the chunk's first heap index (from try_acquire_chunk).\n"
           "    serial: the serial after which it may be reused.")
        .def("release_stale", [](PyShaderVisibleHeap& h, Int completed) { h.heap.ReleaseStale(U64(completed, "release_stale", "completed_serial")); },
             "completed_serial"_a, "Frees the retired chunks and deferred static ranges whose serial <= completed_serial.\n\n"
           "Args:\n"
           "    completed_serial: the highest completed serial.")
        .def("cpu_handle", [](const PyShaderVisibleHeap& h, Int i) { return static_cast<uint64_t>(h.heap.CpuHandle(U32(i, "cpu_handle", "index")).ptr); },
             "index"_a, "CPU descriptor handle of heap index `index` (as an int).\n\n"
           "Args:\n"
           "    index: a heap index.\n\n"
           "Returns:\n"
           "    The CPU descriptor handle (an int).")
        .def("gpu_handle", [](const PyShaderVisibleHeap& h, Int i) { return h.heap.GpuHandle(U32(i, "gpu_handle", "index")).ptr; }, "index"_a, "GPU descriptor handle of heap index `index` (as an int).\n\n"
           "Args:\n"
           "    index: a heap index.\n\n"
           "Returns:\n"
           "    The GPU descriptor handle (an int).")
        .def("stats", [](const PyShaderVisibleHeap& h) { return ShaderVisibleHeapStatsDict(h.heap.GetStats()); }, "capacity, static/dynamic capacity and use, chunk size and counts (a dict).")
        .def("validate", [](const PyShaderVisibleHeap& h) { h.heap.Validate(); }, "Checks every internal invariant; raises Dx12Error naming a broken one.")
        .def("__repr__", [](const PyShaderVisibleHeap& h) {
            return "<dx12kit.descriptors.ShaderVisibleHeap " + LowerName(h.heap.Type()) + " descriptors=" + std::to_string(h.heap.NumDescriptors()) +
                   " chunks=" + std::to_string(h.heap.ChunkCount()) + "x" + std::to_string(h.heap.ChunkSize()) + ">";
        })
        .def_property_readonly("chunk_count", [](const PyShaderVisibleHeap& h) { return h.heap.ChunkCount(); }, "Number of dynamic chunks.")
        .def_property_readonly("descriptor_size", [](const PyShaderVisibleHeap& h) { return h.heap.DescriptorSize(); }, "Bytes between consecutive descriptors of this heap type.");
    InstallForkLeak<PyCpuAllocator>(+[](const PyCpuAllocator& a) { return a.core->Forked(); });
    InstallForkLeak<PyShaderVisibleHeap>(+[](const PyShaderVisibleHeap& h) { return h.core->Forked(); });
    InstallForkLeak<PyAllocation, std::unique_ptr<PyAllocation>>(+[](const PyAllocation& a) { return a.owner->core->Forked(); });
}

}  // namespace dx12kit::bindings
