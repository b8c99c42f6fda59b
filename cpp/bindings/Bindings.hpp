// Declarations of the per-concept binding functions; Module.cpp calls each once.
#pragma once

#include <pybind11/pybind11.h>

namespace dx12kit::bindings {

void BindErrors(pybind11::module_& m);
void BindAlloc(pybind11::module_& m);
void BindGpu(pybind11::module_& m);
void BindBench(pybind11::module_& m);  // hidden _bench_* timing loops for benchmarks/
void BindDescriptors(pybind11::module_& m);

}  // namespace dx12kit::bindings
