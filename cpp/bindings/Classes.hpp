// The Python classes of the D3D12 layer, registered (named, with their bases) before any method is
// defined: a pybind11 signature names a class only if the class is registered when the method is
// defined, so declaring them all first (Module.cpp constructs Classes before any Bind*) makes the Bind*() order free
// of hidden contracts. Each Bind*() defines its class's methods on these objects; docstrings are set
// there (Documented). tests/test_package.py checks that no signature shows a C++ type name.
#pragma once

#include "dx12kit/gpu/BarrierBatch.hpp"
#include "dx12kit/gpu/Bundle.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/CommandSignature.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/PinnedUpload.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/gpu/QueryHeap.hpp"
#include "dx12kit/features/FormatCapabilities.hpp"
#include "dx12kit/memory/MemoryManager.hpp"
#include "dx12kit/memory/MemoryPool.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <pybind11/pybind11.h>

#include <memory>

namespace dx12kit::bindings {

struct Classes {
    explicit Classes(pybind11::module_& m)
        : formatSupport(m, "FormatSupport"),
          resource(m, "Resource"),
          buffer(m, "Buffer"),
          texture(m, "Texture"),
          descriptorRange(m, "DescriptorRange"),
          rootParameter(m, "RootParameter"),
          staticSamplerDesc(m, "StaticSamplerDesc"),
          rootSignature(m, "RootSignature"),
          pipelineState(m, "PipelineState"),
          samplerState(m, "SamplerState"),
          barrierBatch(m, "BarrierBatch"),
          commandList(m, "CommandList"),
          uploadAllocation(m, "UploadAllocation"),
          commandQueue(m, "CommandQueue"),
          device(m, "Device"),
          pool(m, "Pool"),
          memory(m, "Memory"),
          queryHeap(m, "QueryHeap"),
          indirectArgument(m, "IndirectArgument"),
          commandSignature(m, "CommandSignature"),
          bundle(m, "Bundle") {}
    // In registration order: a base before its subclasses.
    pybind11::class_<FormatCapabilities> formatSupport;
    pybind11::class_<Resource, std::shared_ptr<Resource>> resource;
    pybind11::class_<Buffer, Resource, std::shared_ptr<Buffer>> buffer;
    pybind11::class_<Texture, Resource, std::shared_ptr<Texture>> texture;
    pybind11::class_<DescriptorRangeDesc> descriptorRange;
    pybind11::class_<RootParameterDesc> rootParameter;
    pybind11::class_<StaticSamplerDesc> staticSamplerDesc;
    pybind11::class_<RootSignature, std::shared_ptr<RootSignature>> rootSignature;
    pybind11::class_<PipelineState, std::shared_ptr<PipelineState>> pipelineState;
    pybind11::class_<Sampler, std::shared_ptr<Sampler>> samplerState;
    pybind11::class_<BarrierBatch, std::shared_ptr<BarrierBatch>> barrierBatch;
    pybind11::class_<CommandList, std::shared_ptr<CommandList>> commandList;
    pybind11::class_<PinnedUpload> uploadAllocation;
    pybind11::class_<CommandQueue, std::shared_ptr<CommandQueue>> commandQueue;
    pybind11::class_<Device, std::shared_ptr<Device>> device;
    pybind11::class_<memory::MemoryPool, std::shared_ptr<memory::MemoryPool>> pool;
    pybind11::class_<memory::MemoryRegion, std::shared_ptr<memory::MemoryRegion>> memory;
    pybind11::class_<QueryHeap, std::shared_ptr<QueryHeap>> queryHeap;
    pybind11::class_<IndirectArgument> indirectArgument;
    pybind11::class_<CommandSignature, std::shared_ptr<CommandSignature>> commandSignature;
    pybind11::class_<Bundle, std::shared_ptr<Bundle>> bundle;
};

/// Sets a declared class's docstring and returns it, to chain its .def() calls.
template <typename Class>
Class& Documented(Class& cls, const char* doc) {
    cls.attr("__doc__") = doc;
    return cls;
}

}  // namespace dx12kit::bindings
