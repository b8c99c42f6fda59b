// Statistics as plain dicts: one converter per statistics struct of the core, each used wherever that
// struct is returned (Device.stats() and the narrower getters, Pool.stats(), the descriptor classes).
#pragma once

#include <pybind11/pybind11.h>

namespace dx12kit {
class CommandQueue;
class Device;
class DeviceContext;
struct CpuDescriptorStats;
struct ShaderVisibleHeapStats;
struct UploadPoolStats;
struct DefragmentStats;
namespace memory {
struct MemoryStats;
struct TotalMemoryStats;
struct BudgetInfo;
class MemoryAllocation;
}  // namespace memory
}  // namespace dx12kit

namespace dx12kit::bindings {

pybind11::dict MemoryStatsDict(const memory::MemoryStats& s);
pybind11::dict TotalMemoryStatsDict(const memory::TotalMemoryStats& t);
pybind11::dict BudgetDict(const memory::BudgetInfo& b);
/// Resource.allocation / Memory.allocation: where an allocation lies.
pybind11::dict AllocationDict(const memory::MemoryAllocation& a);
pybind11::dict UploadStatsDict(const UploadPoolStats& s);
pybind11::dict CpuDescriptorStatsDict(const CpuDescriptorStats& s);
pybind11::dict ShaderVisibleHeapStatsDict(const ShaderVisibleHeapStats& s);
/// Device.descriptor_stats(): every CPU descriptor heap type, with the shader-visible heaps' use.
pybind11::dict DescriptorStatsDict(DeviceContext& core);
pybind11::dict DefragmentStatsDict(const DefragmentStats& s);
/// Device.stats(): every statistic of the device in one dict.
pybind11::dict DeviceStatsDict(Device& device);
/// CommandQueue.stats(): the queue's cross-queue hazards (waits on each other queue type).
pybind11::dict CrossQueueStatsDict(const CommandQueue& q);
/// copy_stats(): the process's host copies.
pybind11::dict CopyStatsDict();

}  // namespace dx12kit::bindings
