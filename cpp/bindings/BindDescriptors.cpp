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
#include "docs/DescriptorsDocs.hpp"
#include "Args.hpp"
#include "ForkSafety.hpp"
#include "Bindings.hpp"
#include "ChoiceTables.hpp"
#include "DescriptorBindings.hpp"
#include "StatsDicts.hpp"

#include "dx12kit/base/Errors.hpp"
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
    PyShaderVisibleHeap(std::shared_ptr<DeviceContext> c, D3D12_DESCRIPTOR_HEAP_TYPE type, uint32_t n, uint32_t s, uint32_t chunk)
        : core(std::move(c)), heap(core->D3D12Device(), type, n, s, chunk) {}
    std::shared_ptr<DeviceContext> core;
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

/// ShaderVisibleHeap: the GPU-visible descriptor heap, its static range and per-frame chunks.
void BindShaderVisibleHeap(py::module_& m) {
    py::class_<PyShaderVisibleHeap, std::shared_ptr<PyShaderVisibleHeap>>(m, "ShaderVisibleHeap", docs::ShaderVisibleHeap::class_)
        .def(py::init([](std::shared_ptr<Device> device, Choice<DescriptorHeapTypeChoice> heapType, Int n, Int staticCount, Int chunk) {
                 const char* fn = "ShaderVisibleHeap";
                 if (!device) throw InvalidArgument("ShaderVisibleHeap: device is None");
                 return std::make_shared<PyShaderVisibleHeap>(device->Context(), Parse(heapType, "heap_type"), U32(n, fn, "num_descriptors"),
                                                              U32(staticCount, fn, "static_count"), U32(chunk, fn, "chunk_size"));
             }),
             "device"_a, "heap_type"_a, "num_descriptors"_a, py::kw_only(), "static_count"_a, "chunk_size"_a, docs::ShaderVisibleHeap::init)
        .def(
            "allocate_static", [](PyShaderVisibleHeap& h, Int count) { return h.heap.AllocateStatic(U32(count, "allocate_static", "count")); },
            "count"_a, docs::ShaderVisibleHeap::allocate_static)
        .def(
            "free_static",
            [](PyShaderVisibleHeap& h, Int first, Int serial) {
                h.heap.FreeStatic(U32(first, "free_static", "first"), U64(serial, "free_static", "serial"));
            },
            "first"_a, "serial"_a, docs::ShaderVisibleHeap::free_static)
        .def(
            "try_acquire_chunk",
            [](PyShaderVisibleHeap& h) -> py::object {
                uint32_t first = 0;
                if (!h.heap.TryAcquireChunk(first)) return py::none();
                return py::int_(first);
            },
            docs::ShaderVisibleHeap::try_acquire_chunk)
        .def(
            "retire_chunk",
            [](PyShaderVisibleHeap& h, Int first, Int serial) {
                h.heap.RetireChunk(U32(first, "retire_chunk", "first"), U64(serial, "retire_chunk", "serial"));
            },
            "first"_a, "serial"_a, docs::ShaderVisibleHeap::retire_chunk)
        .def(
            "release_stale", [](PyShaderVisibleHeap& h, Int completed) { h.heap.ReleaseStale(U64(completed, "release_stale", "completed_serial")); },
            "completed_serial"_a, docs::ShaderVisibleHeap::release_stale)
        .def(
            "cpu_handle",
            [](const PyShaderVisibleHeap& h, Int i) { return static_cast<uint64_t>(h.heap.CpuHandle(U32(i, "cpu_handle", "index")).ptr); }, "index"_a,
            docs::ShaderVisibleHeap::cpu_handle)
        .def(
            "gpu_handle", [](const PyShaderVisibleHeap& h, Int i) { return h.heap.GpuHandle(U32(i, "gpu_handle", "index")).ptr; }, "index"_a,
            docs::ShaderVisibleHeap::gpu_handle)
        .def(
            "stats", [](const PyShaderVisibleHeap& h) { return ShaderVisibleHeapStatsDict(h.heap.GetStats()); }, docs::ShaderVisibleHeap::stats)
        .def(
            "validate", [](const PyShaderVisibleHeap& h) { h.heap.Validate(); }, docs::ShaderVisibleHeap::validate)
        .def("__repr__",
             [](const PyShaderVisibleHeap& h) {
                 return "<dx12kit.descriptors.ShaderVisibleHeap " + LowerName(h.heap.Type()) +
                        " descriptors=" + std::to_string(h.heap.NumDescriptors()) + " chunks=" + std::to_string(h.heap.ChunkCount()) + "x" +
                        std::to_string(h.heap.ChunkSize()) + ">";
             })
        .def_property_readonly(
            "chunk_count", [](const PyShaderVisibleHeap& h) { return h.heap.ChunkCount(); }, docs::ShaderVisibleHeap::chunk_count)
        .def_property_readonly(
            "descriptor_size", [](const PyShaderVisibleHeap& h) { return h.heap.DescriptorSize(); }, docs::ShaderVisibleHeap::descriptor_size);
}

void BindDescriptors(py::module_& parent) {
    py::module_ m = parent.def_submodule("descriptors", docs::descriptors::module_);

    py::class_<PyAllocation>(m, "DescriptorAllocation", docs::DescriptorAllocation::class_)
        .def(
            "handle",
            [](const PyAllocation& a, Int i) { return static_cast<uint64_t>(a.allocation.Handle(U32(i, "DescriptorAllocation.handle", "i")).ptr); },
            "i"_a = 0, docs::DescriptorAllocation::handle)
        .def(
            "handles",
            [](const PyAllocation& a) {
                if (a.allocation.IsNull()) a.allocation.Handle(0);  // raises UseAfterFree
                std::vector<uint64_t> out;
                for (uint32_t i = 0; i < a.allocation.Count(); ++i) out.push_back(a.allocation.Handle(i).ptr);
                return out;
            },
            docs::DescriptorAllocation::handles)
        .def_property_readonly(
            "count", [](const PyAllocation& a) { return a.allocation.Count(); }, docs::DescriptorAllocation::count)
        .def_property_readonly(
            "is_null", [](const PyAllocation& a) { return a.allocation.IsNull(); }, docs::DescriptorAllocation::is_null)
        .def_property_readonly(
            "page_offset", [](const PyAllocation& a) { return a.allocation.PageOffset(); }, docs::DescriptorAllocation::page_offset)
        .def(
            "free",
            [](PyAllocation& a) {
                ReleaseGil release;
                a.allocation.Free();
            },
            docs::DescriptorAllocation::free)
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](PyAllocation& a, py::args) { a.allocation.Free(); })
        .def("__bool__", [](const PyAllocation& a) { return !a.allocation.IsNull(); })
        .def("__repr__", [](const PyAllocation& a) {
            if (a.allocation.IsNull()) return std::string("<DescriptorAllocation null>");
            return "<DescriptorAllocation " + std::to_string(a.allocation.Count()) + " descriptors at " + std::to_string(a.allocation.Handle(0).ptr) +
                   ">";
        });

    py::class_<PyCpuAllocator, std::shared_ptr<PyCpuAllocator>>(m, "CpuDescriptorAllocator", docs::CpuDescriptorAllocator::class_)
        .def(py::init([](std::shared_ptr<Device> device, Choice<DescriptorHeapTypeChoice> heapType, Int pageSize) {
                 if (!device) throw InvalidArgument("CpuDescriptorAllocator: device is None");
                 return std::make_shared<PyCpuAllocator>(device->Context(), Parse(heapType, "heap_type"),
                                                         U32(pageSize, "CpuDescriptorAllocator", "page_size"));
             }),
             "device"_a, "heap_type"_a = "cbv_srv_uav", py::kw_only(), "page_size"_a = 256, docs::CpuDescriptorAllocator::init)
        .def(
            "allocate",
            [](std::shared_ptr<PyCpuAllocator> self, Int countArg) {
                const uint32_t count = U32(countArg, "CpuDescriptorAllocator.allocate", "count");
                DescriptorAllocation a;
                {
                    ReleaseGil release;
                    a = self->allocator.Allocate(count);
                }
                return PyAllocation{std::move(self), std::move(a)};
            },
            "count"_a = 1, docs::CpuDescriptorAllocator::allocate)
        .def(
            "release_stale_descriptors",
            [](PyCpuAllocator& self, Int completedArg) {
                const uint64_t completed = U64(completedArg, "CpuDescriptorAllocator.release_stale_descriptors", "completed_serial");
                ReleaseGil release;
                self.allocator.ReleaseStaleDescriptors(completed);
            },
            "completed_serial"_a, docs::CpuDescriptorAllocator::release_stale_descriptors)
        .def_property(
            "current_serial", [](const PyCpuAllocator& self) { return self.serial.load(); },
            [](PyCpuAllocator& self, Int value) {
                const uint64_t v = U64(value, "CpuDescriptorAllocator", "current_serial");
                if (v < self.serial.load())
                    throw InvalidArgument("current_serial only moves forward (it is " + std::to_string(self.serial.load()) + ")");
                self.serial.store(v);
            },
            docs::CpuDescriptorAllocator::current_serial)
        .def(
            "stats", [](const PyCpuAllocator& self) { return CpuDescriptorStatsDict(self.allocator.GetStats()); },
            docs::CpuDescriptorAllocator::stats)
        .def(
            "validate", [](const PyCpuAllocator& self) { self.allocator.Validate(); }, docs::CpuDescriptorAllocator::validate)
        .def_property_readonly(
            "descriptor_size", [](const PyCpuAllocator& self) { return self.allocator.DescriptorSize(); },
            docs::CpuDescriptorAllocator::descriptor_size)
        .def_property_readonly(
            "page_size", [](const PyCpuAllocator& self) { return self.allocator.PageSize(); }, docs::CpuDescriptorAllocator::page_size)
        .def_property_readonly(
            "heap_type", [](const PyCpuAllocator& self) { return LowerName(self.allocator.Type()); }, docs::CpuDescriptorAllocator::heap_type)
        .def("__repr__", [](const PyCpuAllocator& self) {
            return "<dx12kit.descriptors.CpuDescriptorAllocator " + LowerName(self.allocator.Type()) +
                   " page_size=" + std::to_string(self.allocator.PageSize()) + " in_use=" + std::to_string(self.allocator.GetStats().inUse) + ">";
        });

    BindShaderVisibleHeap(m);
    InstallForkLeak<PyCpuAllocator>(+[](const PyCpuAllocator& a) { return a.core->Forked(); });
    InstallForkLeak<PyShaderVisibleHeap>(+[](const PyShaderVisibleHeap& h) { return h.core->Forked(); });
    InstallForkLeak<PyAllocation, std::unique_ptr<PyAllocation>>(+[](const PyAllocation& a) { return a.owner->core->Forked(); });
}

}  // namespace dx12kit::bindings
