// The heap=/pool=/committed=/within_budget=/memory=/offset= arguments of the resource factories
// (Bindings.hpp: ParsePlacement): argument conversion only.
#include "GpuArgs.hpp"

#include "dx12kit/memory/MemoryManager.hpp"

namespace dx12kit::bindings {

ResourcePlacement ParsePlacement(py::handle heap, py::handle pool, bool committed, bool withinBudget, py::handle memoryRegion, uint64_t offset,
                                 const char* what) {
    ResourcePlacement p;
    if (!memoryRegion.is_none()) {
        if (!py::isinstance<memory::MemoryRegion>(memoryRegion))
            throw py::type_error(std::string(what) + ": memory must be a dx12kit.Memory (from Device.allocate_memory) or None");
        p.memory = memoryRegion.cast<std::shared_ptr<memory::MemoryRegion>>();
        p.offset = offset;
    } else if (offset != 0) {
        throw InvalidArgument(std::string(what) + ": offset= needs memory= (the memory to place the resource in)");
    }
    // heap=None (the default): the default heap, or the heap of pool= / memory=. A heap named
    // explicitly must be that heap: a pool or a memory region brings its own.
    const bool heapGiven = !heap.is_none();
    p.heap = heapGiven ? ParseChoice<HeapTypeChoice>(heap, (std::string(what) + ": heap").c_str()) : memory::HeapKind::Default;
    if (!pool.is_none()) {
        if (!py::isinstance<memory::MemoryPool>(pool)) throw py::type_error(std::string(what) + ": pool must be a dx12kit.Pool or None");
        p.pool = pool.cast<std::shared_ptr<memory::MemoryPool>>();
        if (heapGiven && p.heap != p.pool->Desc().heap)
            throw InvalidArgument(std::string(what) + ": heap '" + memory::HeapKindName(p.heap) + "' differs from the pool's heap '" +
                                  memory::HeapKindName(p.pool->Desc().heap) + "' (leave heap= out with pool=)");
        p.heap = p.pool->Desc().heap;
    }
    p.committed = committed;
    p.withinBudget = withinBudget;
    if (p.memory) {
        if (heapGiven && p.heap != p.memory->heap)
            throw InvalidArgument(std::string(what) + ": heap '" + memory::HeapKindName(p.heap) + "' differs from the heap of memory= ('" +
                                  memory::HeapKindName(p.memory->heap) + "'; leave heap= out with memory=)");
        p.heap = p.memory->heap;
    }
    return p;
}

}  // namespace dx12kit::bindings
