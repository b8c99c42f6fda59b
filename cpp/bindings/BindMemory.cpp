// dx12core: Memory (GPU memory to place resources in: Device.allocate_memory).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "docs/MemoryDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"
#include "StatsDicts.hpp"

namespace dx12kit::bindings {

void BindMemory(Classes& c) {
    Documented(c.memory, docs::Memory::class_)
        .def_property_readonly("size", [](const memory::MemoryRegion& r) { return r.allocation.Size(); })
        .def_property_readonly(
            "allocation", [](const memory::MemoryRegion& r) { return AllocationDict(r.allocation); }, docs::Memory::allocation)
        .def_property_readonly("heap", [](const memory::MemoryRegion& r) { return memory::HeapKindName(r.heap); })
        .def_property_readonly("name", [](const memory::MemoryRegion& r) { return r.name; })
        .def("__repr__", [](const memory::MemoryRegion& r) {
            return "<dx12kit.Memory '" + r.name + "' " + std::to_string(r.allocation.Size()) + " bytes heap=" + memory::HeapKindName(r.heap) +
                   " block=" + std::to_string(r.allocation.BlockId()) + " offset=" + std::to_string(r.allocation.Offset()) + ">";
        });
    // A memory region does not know its device: leaked in any forked child.
    InstallForkLeak<memory::MemoryRegion>(nullptr);
}

}  // namespace dx12kit::bindings
