"""dx12kit: Direct3D 12 from Python, with memory, descriptors and resource states handled.

Quick start::

    import numpy as np, dx12kit as dx
    dev = dx.Device()
    q = dev.queue()
    buf = dev.create_buffer(1024, uav=True)
    cl = q.command_list()
    cl.upload(buf, np.arange(256, dtype=np.float32))
    q.wait(q.execute(cl))
    print(q.read_buffer(buf, dtype=np.float32)[:4])

On Linux dx12kit runs on vkd3d (D3D12 over Vulkan), so it works on machines without a GPU through
Mesa's lavapipe. See README.md for the full picture.
"""
from __future__ import annotations

from . import errors
from .errors import (
    DeviceClosedError,
    DeviceError,
    Dx12Error,
    ForkedDeviceError,
    InvalidArgumentError,
    OutOfMemoryError,
    ResourceStateError,
    ShaderCompileError,
    UseAfterFreeError,
    WaitTimeoutError,
)
from . import dx12core
from .dx12core import (
    ALL_SUBRESOURCES,
    CBV,
    SRV,
    UAV,
    UNBOUNDED,
    BarrierBatch,
    BlendState,
    Buffer,
    Bundle,
    CommandList,
    CommandQueue,
    CommandSignature,
    DepthStencilState,
    DescriptorRangeFlags,
    DescriptorTable,
    Device,
    Format,
    FormatSupport,
    IndirectArgument,
    InputElement,
    PipelineState,
    QueryHeap,
    Pool,
    Resource,
    ResourceState,
    RootCBV,
    RootConstants,
    RootDescriptorFlags,
    RootSignature,
    RootSignatureFlags,
    RootSRV,
    RasterizerState,
    RootUAV,
    Sampler,
    SamplerRange,
    SamplerState,
    StaticSampler,
    StencilFace,
    Texture,
    UploadAllocation,
    copy_stats,
    copy_threads,
    set_copy_threads,
)
from .shaders import (
    CompileMessage,
    Shader,
    ShaderAccuracyWarning,
    ShaderIncludeWarning,
    compile_hlsl,
    compile_hlsl_file,
    find_compiler,
    reflect,
)
from . import alloc, binding, descriptors, enums, matrices, memory, rootsig
from .binding import BindingError, BindingKindError, BindingNameError, CbufferFieldError
from .enums import (
    AddressMode,
    Blend,
    BlendMode,
    BlendOp,
    BorderColor,
    ColorWriteEnable,
    ComparisonFunc,
    CullMode,
    DefragAlgorithm,
    DescriptorHeapType,
    FillMode,
    Filter,
    HeapType,
    IndexFormat,
    LogicOp,
    PoolAlgorithm,
    PredicationOp,
    QueryHeapKind,
    QueryKind,
    QueueKind,
    StencilOp,
    Topology,
    VertexFormat,
    Visibility,
)
from .images import save_image
from .graph import GraphError, GraphResource, GraphSubresource, HistoryStore, RenderGraph

enums._print_names(Format)
enums._print_names(ResourceState)
enums._print_names(RootSignatureFlags)
enums._print_names(DescriptorRangeFlags)
enums._print_names(RootDescriptorFlags)

__version__: str = dx12core.__version__

__all__ = [
    "ALL_SUBRESOURCES", "CBV", "SRV", "UAV", "Buffer", "CommandList", "CommandQueue", "DescriptorTable",
    "Device", "Format", "FormatSupport", "PipelineState", "Pool", "Resource", "ResourceState", "RootCBV", "RootConstants",
    "RootSignature", "RootSRV", "RootUAV", "Sampler", "SamplerRange", "SamplerState", "Shader", "StaticSampler", "Texture",
    "UploadAllocation", "alloc", "descriptors", "compile_hlsl", "errors", "find_compiler", "__version__",
    "UNBOUNDED", "CompileMessage", "ShaderAccuracyWarning", "ShaderIncludeWarning", "compile_hlsl_file", "reflect", "rootsig",
    "memory", "matrices", "save_image", "enums", "copy_stats", "copy_threads", "set_copy_threads",
    "AddressMode", "BlendMode", "BorderColor", "ComparisonFunc", "CullMode", "DefragAlgorithm", "DescriptorHeapType", "Filter",
    "HeapType", "IndexFormat", "PoolAlgorithm", "PredicationOp", "QueryHeapKind", "QueryKind", "QueueKind", "StencilOp", "Topology", "VertexFormat", "Visibility",
    "Blend", "BlendOp", "ColorWriteEnable", "FillMode", "LogicOp",
    "BlendState", "DepthStencilState", "InputElement", "RasterizerState", "StencilFace",
    "DeviceClosedError", "DeviceError", "Dx12Error", "InvalidArgumentError", "OutOfMemoryError", "ResourceStateError",
    "ShaderCompileError", "UseAfterFreeError", "WaitTimeoutError",
    "ForkedDeviceError", "RenderGraph", "GraphResource", "GraphSubresource", "GraphError", "HistoryStore", "BarrierBatch", "QueryHeap",
    "IndirectArgument", "CommandSignature", "Bundle",
    "RootSignatureFlags", "DescriptorRangeFlags", "RootDescriptorFlags",
    "binding", "BindingError", "BindingKindError", "BindingNameError", "CbufferFieldError",
]
