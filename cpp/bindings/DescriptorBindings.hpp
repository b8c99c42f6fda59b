// Types the descriptor bindings share between dx12core (BindDescriptors.cpp, which registers them)
// and the benchmark module dx12kit_bench (cpp/bench/BindBench.cpp, which takes them as arguments).
// Named namespace, not an anonymous one: pybind11 finds a type registered by another module by its
// C++ type identity.
#pragma once

#include "dx12kit/descriptors/CpuDescriptorAllocator.hpp"
#include "dx12kit/gpu/Device.hpp"

#include <atomic>
#include <cstdint>
#include <memory>

namespace dx12kit::bindings {

/// The allocator plus what it borrows: the device core (keeps the ID3D12Device alive) and the serial.
struct PyCpuAllocator {
    PyCpuAllocator(std::shared_ptr<DeviceContext> c, D3D12_DESCRIPTOR_HEAP_TYPE type, uint32_t pageSize)
        : core(std::move(c)), allocator(core->D3D12Device(), type, pageSize, &serial) {}
    std::shared_ptr<DeviceContext> core;
    std::atomic<uint64_t> serial{0};
    CpuDescriptorAllocator allocator;
};

}  // namespace dx12kit::bindings
