// Declarations of the benchmark module's binding functions; BenchModule.cpp calls each once.
#pragma once

#include <pybind11/pybind11.h>

namespace dx12kit::bindings {

void BindBench(pybind11::module_& m);             // GPU hot-path timing loops (BindBench.cpp)
void BindBenchDescriptors(pybind11::module_& m);  // descriptor timing loops, stress loop (BindBench.cpp)
void BindBenchCalls(pybind11::module_& m);        // per-call costs beside raw D3D12, callgrind controls (CallBenchmarks.cpp)
void BindBenchBindings(pybind11::module_& m);     // bound-table draw costs beside raw D3D12 (BindingBenchmarks.cpp)

}  // namespace dx12kit::bindings
