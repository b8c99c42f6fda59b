"""
dx12kit's C++ core (see the dx12kit package for the documented Python API)
"""
from __future__ import annotations
import collections.abc
from dx12kit import errors as _errors
import enum
import numpy
import typing
import typing_extensions
from . import alloc
from . import descriptors
__all__: list[str] = ['ALL_SUBRESOURCES', 'Buffer', 'CBV', 'CommandList', 'CommandQueue', 'DescriptorRange', 'DescriptorTable', 'Device', 'Format', 'PipelineState', 'Resource', 'ResourceState', 'RootCBV', 'RootConstants', 'RootParameter', 'RootSRV', 'RootSignature', 'RootUAV', 'SRV', 'Sampler', 'SamplerState', 'StaticSampler', 'StaticSamplerDesc', 'Texture', 'UAV', 'UploadAllocation', 'alloc', 'descriptors']
class Format(enum.IntEnum):
    """
    DXGI formats dx12kit supports (also accepted as lower-case strings).
    """
    BGRA8_UNORM = 87
    BGRA8_UNORM_SRGB = 91
    D16_UNORM = 55
    D24_UNORM_S8_UINT = 45
    D32_FLOAT = 40
    D32_FLOAT_S8X24_UINT = 20
    R16_FLOAT = 54
    R16_UINT = 57
    R16_UNORM = 56
    R32_FLOAT = 41
    R32_SINT = 43
    R32_UINT = 42
    R8_UINT = 62
    R8_UNORM = 61
    RG11B10_FLOAT = 26
    RG16_FLOAT = 34
    RG32_FLOAT = 16
    RG32_UINT = 17
    RG8_UNORM = 49
    RGB10A2_UNORM = 24
    RGBA16_FLOAT = 10
    RGBA16_UNORM = 11
    RGBA32_FLOAT = 2
    RGBA32_UINT = 3
    RGBA8_SNORM = 31
    RGBA8_UINT = 30
    RGBA8_UNORM = 28
    RGBA8_UNORM_SRGB = 29
    UNKNOWN = 0
    @classmethod
    def __new__(cls, value):
        ...
    def __format__(self, format_spec):
        ...
class ResourceState(enum.IntFlag):
    """
    D3D12_RESOURCE_STATES as flags.
    """
    COMMON = 0
    COPY_DEST = 1024
    COPY_SOURCE = 2048
    DEPTH_READ = 32
    DEPTH_WRITE = 16
    GENERIC_READ = 2755
    INDEX_BUFFER = 2
    INDIRECT_ARGUMENT = 512
    NON_PIXEL_SHADER_RESOURCE = 64
    PIXEL_SHADER_RESOURCE = 128
    RENDER_TARGET = 4
    RESOLVE_DEST = 4096
    RESOLVE_SOURCE = 8192
    STREAM_OUT = 256
    UNORDERED_ACCESS = 8
    VERTEX_AND_CONSTANT_BUFFER = 1
    @classmethod
    def __new__(cls, value):
        ...
    def __and__(self, other):
        ...
    def __format__(self, format_spec):
        ...
    def __invert__(self):
        ...
    def __or__(self, other):
        ...
    def __rand__(self, other):
        ...
    def __ror__(self, other):
        ...
    def __rxor__(self, other):
        ...
    def __xor__(self, other):
        ...
class DescriptorRange:
    """
    One range of a DescriptorTable (made by SRV, UAV, CBV, Sampler).
    """
    def __repr__(self) -> str:
        ...
    @property
    def count(self) -> int:
        ...
    @property
    def register(self) -> int:
        ...
    @property
    def space(self) -> int:
        ...
class RootParameter:
    """
    A root parameter (made by RootConstants, RootCBV, RootSRV, RootUAV, DescriptorTable).
    """
    @property
    def count(self) -> int:
        ...
    @property
    def ranges(self) -> list[DescriptorRange]:
        ...
    @property
    def register(self) -> int:
        ...
    @property
    def space(self) -> int:
        ...
class StaticSamplerDesc:
    """
    A static sampler of a root signature (made by StaticSampler).
    """
    @property
    def register(self) -> int:
        ...
class Resource:
    """
    A GPU resource (Buffer or Texture).
    """
    def __enter__(self) -> typing.Any:
        ...
    def __exit__(self, *args) -> None:
        ...
    def close(self) -> None:
        """
        Marks the resource closed: any later use (barriers, bindings, copies, reads) raises UseAfterFreeError.
        Work already recorded or submitted still completes; the memory is released once the last reference
        (this object, command lists in flight) is gone. Closing twice is allowed.
        """
    def global_state(self, subresource: typing.SupportsInt | typing.SupportsIndex = 4294967295) -> ResourceState:
        """
        The state the resource is in once every executed command list has run (what execute resolves against).
        """
    @property
    def cached_views(self) -> int:
        """
        Number of descriptor views created for it (cached).
        """
    @property
    def closed(self) -> bool:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def num_subresources(self) -> int:
        ...
    @property
    def uav(self) -> bool:
        ...
class Buffer(Resource):
    """
    A GPU buffer. Create with Device.create_buffer.
    """
    def __repr__(self: typing_extensions.Buffer) -> str:
        ...
    @property
    def gpu_address(self) -> int:
        ...
    @property
    def size(self) -> int:
        ...
class Texture(Resource):
    """
    A 2D texture (array). Create with Device.create_texture2d.
    """
    def __repr__(self) -> str:
        ...
    @property
    def array_size(self) -> int:
        ...
    @property
    def format(self) -> Format:
        ...
    @property
    def height(self) -> int:
        ...
    @property
    def mip_levels(self) -> int:
        ...
    @property
    def shape(self) -> tuple[int, int, int]:
        ...
    @property
    def width(self) -> int:
        ...
class RootSignature:
    """
    A root signature. Create with Device.create_root_signature.
    """
    @property
    def num_parameters(self) -> int:
        ...
class PipelineState:
    """
    A compute or graphics pipeline state object.
    """
    @property
    def is_compute(self) -> bool:
        ...
    @property
    def root_signature(self) -> RootSignature:
        ...
class SamplerState:
    """
    A sampler descriptor. Create with Device.create_sampler.
    """
class UploadAllocation:
    """
    Upload memory owned by a command list. Fill .array() in place, then CommandList.copy_from_upload.
    Fill it before the list is executed: .array() then raises, and writes through an older view
    race with the GPU's copy. The memory stays reserved (never reused) while any view of it exists.
    """
    def array(self, dtype: typing.Any = ..., shape: typing.Any = None) -> numpy.ndarray:
        """
        A writable numpy view of the upload memory (no copy).
        """
    @property
    def gpu_address(self) -> int:
        ...
    @property
    def offset(self) -> int:
        ...
    @property
    def size(self) -> int:
        ...
class CommandList:
    """
    Records GPU work for one queue. Resource states, descriptor copies and upload memory are handled automatically.
    Create with CommandQueue.command_list(); submit with CommandQueue.execute().
    """
    def aliasing_barrier(self, before: typing.Any = None, after: typing.Any = None) -> None:
        ...
    def allocate_texture_upload(self, texture: typing.Any, mip: typing.SupportsInt | typing.SupportsIndex = 0) -> UploadAllocation:
        """
        Upload memory laid out for a texture mip (rows 256-byte aligned): fill .array(), then copy_from_upload.
        """
    def allocate_upload(self, size: typing.SupportsInt | typing.SupportsIndex, alignment: typing.SupportsInt | typing.SupportsIndex = 256) -> UploadAllocation:
        """
        Upload memory for the zero-copy path (see UploadAllocation).
        """
    def clear_depth_stencil(self, texture: typing.Any, depth: typing.SupportsFloat | typing.SupportsIndex = 1.0, stencil: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def clear_render_target(self, texture: typing.Any, rgba: typing.Annotated[collections.abc.Sequence[typing.SupportsFloat | typing.SupportsIndex], "FixedSize(4)"], *, mip: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def clear_unordered_access_view(self, resource: typing.Any, values: collections.abc.Sequence) -> None:
        """
        Clears a UAV-capable resource to 4 values (floats: float clear; ints: uint clear).
        """
    def copy_buffer_region(self, dst: typing.Any, dst_offset: typing.SupportsInt | typing.SupportsIndex, src: typing.Any, src_offset: typing.SupportsInt | typing.SupportsIndex, size: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def copy_from_upload(self, dst: typing.Any, allocation: UploadAllocation, mip: typing.SupportsInt | typing.SupportsIndex = 0, array_slice: typing.SupportsInt | typing.SupportsIndex = 0, offset: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def copy_resource(self, dst: typing.Any, src: typing.Any) -> None:
        ...
    def dispatch(self, x: typing.SupportsInt | typing.SupportsIndex, y: typing.SupportsInt | typing.SupportsIndex = 1, z: typing.SupportsInt | typing.SupportsIndex = 1) -> None:
        ...
    def draw(self, vertex_count: typing.SupportsInt | typing.SupportsIndex, instance_count: typing.SupportsInt | typing.SupportsIndex = 1, start_vertex: typing.SupportsInt | typing.SupportsIndex = 0, start_instance: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def draw_indexed(self, index_count: typing.SupportsInt | typing.SupportsIndex, instance_count: typing.SupportsInt | typing.SupportsIndex = 1, start_index: typing.SupportsInt | typing.SupportsIndex = 0, base_vertex: typing.SupportsInt | typing.SupportsIndex = 0, start_instance: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def raw_transition(self, resource: typing.Any, before: ResourceState, after: ResourceState, subresource: typing.SupportsInt | typing.SupportsIndex = 4294967295) -> None:
        """
        Escape hatch: records a transition barrier directly, without the state tracker. Device(validate=True) reports
        uses that then find the resource in a state the tracker did not expect.
        """
    def set_constant_buffer_view(self, root_index: typing.SupportsInt | typing.SupportsIndex, descriptor_offset: typing.SupportsInt | typing.SupportsIndex, buffer: typing.Any) -> None:
        ...
    def set_constants(self, root_index: typing.SupportsInt | typing.SupportsIndex, values: typing.Any, offset: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        """
        Sets 32-bit root constants (numpy array, bytes, or a list of ints/floats).
        """
    def set_dynamic_constant_buffer(self, root_index: typing.SupportsInt | typing.SupportsIndex, data: typing.Any) -> None:
        """
        Copies `data` into upload memory (256-byte aligned) and binds it as the root CBV `root_index`.
        """
    def set_dynamic_index_buffer(self, array: typing.Any) -> None:
        ...
    def set_dynamic_structured_buffer(self, root_index: typing.SupportsInt | typing.SupportsIndex, array: typing.Any) -> None:
        """
        Copies `array` into upload memory and binds it as the root SRV `root_index`.
        """
    def set_dynamic_vertex_buffer(self, slot: typing.SupportsInt | typing.SupportsIndex, array: typing.Any, stride: typing.Any = None) -> None:
        ...
    def set_index_buffer(self, buffer: typing.Any, format: typing.Any = 'uint32', offset: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def set_pipeline_state(self, pso: PipelineState) -> None:
        """
        Binds a pipeline and its root signature; later set_* calls apply to its side (graphics or compute).
        """
    def set_render_targets(self, textures: typing.Any, depth: typing.Any = None, *, mip: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        """
        Binds render targets (and depth); also sets a full-size viewport and scissor.
        """
    def set_root_cbv(self, root_index: typing.SupportsInt | typing.SupportsIndex, buffer: typing.Any, offset: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def set_root_srv(self, root_index: typing.SupportsInt | typing.SupportsIndex, buffer: typing.Any, offset: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def set_root_uav(self, root_index: typing.SupportsInt | typing.SupportsIndex, buffer: typing.Any, offset: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def set_sampler(self, root_index: typing.SupportsInt | typing.SupportsIndex, descriptor_offset: typing.SupportsInt | typing.SupportsIndex, sampler: SamplerState) -> None:
        ...
    def set_scissor(self, left: typing.SupportsInt | typing.SupportsIndex, top: typing.SupportsInt | typing.SupportsIndex, right: typing.SupportsInt | typing.SupportsIndex, bottom: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def set_shader_resource_view(self, root_index: typing.SupportsInt | typing.SupportsIndex, descriptor_offset: typing.SupportsInt | typing.SupportsIndex, resource: typing.Any, *, mip: typing.Any = None, format: typing.Any = None) -> None:
        """
        Stages an SRV of `resource` (all mips, or only `mip`) into slot `descriptor_offset` of the table at `root_index`.
        """
    def set_stencil_ref(self, ref: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        The stencil reference value (0..255) of the stencil test.
        """
    def set_unordered_access_view(self, root_index: typing.SupportsInt | typing.SupportsIndex, descriptor_offset: typing.SupportsInt | typing.SupportsIndex, resource: typing.Any, *, mip: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def set_vertex_buffer(self, slot: typing.SupportsInt | typing.SupportsIndex, buffer: typing.Any, stride: typing.SupportsInt | typing.SupportsIndex, offset: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        ...
    def set_viewport(self, x: typing.SupportsFloat | typing.SupportsIndex, y: typing.SupportsFloat | typing.SupportsIndex, width: typing.SupportsFloat | typing.SupportsIndex, height: typing.SupportsFloat | typing.SupportsIndex, min_depth: typing.SupportsFloat | typing.SupportsIndex = 0.0, max_depth: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> None:
        ...
    def transition_barrier(self, resource: typing.Any, state: ResourceState, subresource: typing.SupportsInt | typing.SupportsIndex = 4294967295) -> None:
        """
        Requests a state explicitly (goes through the state tracker; rarely needed).
        """
    def uav_barrier(self, resource: typing.Any = None) -> None:
        ...
    def upload(self, resource: typing.Any, array: typing.Any, mip: typing.SupportsInt | typing.SupportsIndex = 0, array_slice: typing.SupportsInt | typing.SupportsIndex = 0, offset: typing.SupportsInt | typing.SupportsIndex = 0) -> None:
        """
        Copies a numpy array into a buffer (at byte `offset`) or a texture subresource through upload memory.
        Textures take shape (height, width, channels) matching the format.
        """
    @property
    def auto_uav_barriers(self) -> bool:
        """
        Insert a UAV barrier when a UAV written by an earlier draw/dispatch is used again (default True).
        """
    @auto_uav_barriers.setter
    def auto_uav_barriers(self, arg0: bool) -> None:
        ...
    @property
    def closed(self) -> bool:
        """
        True once executed (no more recording). A failed execute leaves its lists open, unless a list
        failed to close (then execute raises DeviceError and that list can never run).
        """
    @property
    def upload_pages(self) -> int:
        ...
class CommandQueue:
    """
    A direct, compute or copy queue. Get one with Device.queue(kind).
    """
    def command_list(self) -> CommandList:
        """
        A new CommandList for this queue.
        """
    def execute(self, command_lists: typing.Any) -> int:
        """
        Executes one list or a list of lists in order; returns the fence value marking their completion.
        """
    def flush(self, timeout: typing.SupportsFloat | typing.SupportsIndex | None = None) -> int:
        """
        Waits until everything submitted has completed (interruptible; timeout as for wait).
        """
    def read_buffer(self, buffer: typing.Any, dtype: typing.Any = ..., *, timeout: typing.SupportsFloat | typing.SupportsIndex | None = None) -> numpy.ndarray:
        """
        Copies a buffer back into a new numpy array (waits for the GPU; interruptible, timeout as for wait).
        """
    def read_texture(self, texture: typing.Any, mip: typing.SupportsInt | typing.SupportsIndex = 0, array_slice: typing.SupportsInt | typing.SupportsIndex = 0, *, timeout: typing.SupportsFloat | typing.SupportsIndex | None = None) -> numpy.ndarray:
        """
        Copies a texture subresource back as an array of shape (height, width, channels); depth-stencil formats
        give their depth plane. Waits for the GPU (interruptible, timeout as for wait).
        """
    def wait(self, fence_value: typing.SupportsInt | typing.SupportsIndex, timeout: typing.SupportsFloat | typing.SupportsIndex | None = None) -> None:
        """
        Blocks until the fence reaches `fence_value`, without holding the GIL; Ctrl-C interrupts it (KeyboardInterrupt).
        timeout: seconds, None waits forever; WaitTimeoutError (a TimeoutError) when it expires.
        """
    def wait_for(self, other: CommandQueue, fence_value: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Makes this queue wait on the GPU until `other` reaches `fence_value` (no CPU wait).
        """
    @property
    def completed_value(self) -> int:
        ...
    @property
    def kind(self) -> str:
        ...
    @property
    def last_direct_queue_barriers(self) -> list:
        """
        Those of last_inserted_barriers that this queue type may not record (a compute queue leaving RENDER_TARGET):
        execute recorded them on the direct queue, which this queue waited for on the GPU.
        """
    @property
    def last_inserted_barriers(self) -> list:
        """
        The transitions the last execute() inserted before its lists, resolved against the global states:
        [(list_index, resource_name, subresource, before, after)], subresource ALL_SUBRESOURCES for the whole resource.
        """
    @property
    def last_submitted_value(self) -> int:
        ...
class Device:
    """
    A D3D12 device (vkd3d over Vulkan on Linux). Factory of queues, resources and pipelines.
    """
    def __init__(self, *, validate: bool = False, descriptor_heap_size: typing.SupportsInt | typing.SupportsIndex = 65536, sampler_heap_size: typing.SupportsInt | typing.SupportsIndex = 2048, static_descriptors: typing.SupportsInt | typing.SupportsIndex = 4096, dynamic_chunk_size: typing.SupportsInt | typing.SupportsIndex = 256, sampler_chunk_size: typing.SupportsInt | typing.SupportsIndex = 64, cpu_descriptor_page_size: typing.SupportsInt | typing.SupportsIndex = 256, upload_page_size: typing.SupportsInt | typing.SupportsIndex = 2097152, gpu_page_size: typing.SupportsInt | typing.SupportsIndex = 65536, large_page_cache_size: typing.SupportsInt | typing.SupportsIndex = 268435456) -> None:
        """
        Options: validate (check states before each draw/dispatch/copy), shader-visible heap sizes and the
        dynamic chunk sizes, CPU descriptor page size, upload page sizes, and the bytes of large upload pages
        kept for reuse after their fence (large_page_cache_size; 0 destroys them).
        """
    def create_buffer(self, size: typing.SupportsInt | typing.SupportsIndex, *, uav: bool = False, name: typing.Any = None, heap: str = 'default') -> typing_extensions.Buffer:
        """
        A buffer of `size` bytes (> 0). uav=True allows unordered access.
        """
    def create_compute_pipeline(self, cs: typing.Any, root_signature: RootSignature) -> PipelineState:
        ...
    def create_graphics_pipeline(self, vs: typing.Any, ps: typing.Any, root_signature: RootSignature, rtv_formats: typing.Any, dsv_format: typing.Any = None, input_layout: typing.Any = None, topology: typing.Any = 'triangle', cull: typing.Any = 'none', blend: typing.Any = None, depth_test: bool = False, depth_write: bool = True, stencil_func: typing.Any = None, stencil_pass_op: typing.Any = 'keep') -> PipelineState:
        """
        A graphics pipeline. input_layout: [(semantic, 'float2'|'float3'|..., slot, offset), ...].
        stencil_func ('never', 'less', 'equal', 'less_equal', 'greater', 'not_equal', 'greater_equal', 'always'; None: no
        stencil test) compares CommandList.set_stencil_ref's value with the stencil plane; where depth and stencil pass,
        stencil_pass_op ('keep', 'zero', 'replace', 'incr_sat', 'decr_sat', 'invert', 'incr', 'decr') updates it.
        The stencil test needs a dsv_format with stencil (d24_unorm_s8_uint, d32_float_s8x24_uint).
        """
    def create_root_signature(self, parameters: collections.abc.Sequence[RootParameter], static_samplers: collections.abc.Sequence[StaticSamplerDesc] = []) -> RootSignature:
        ...
    def create_sampler(self, *, filter: typing.Any = 'linear', address: typing.Any = 'clamp') -> SamplerState:
        ...
    def create_texture2d(self, width: typing.SupportsInt | typing.SupportsIndex, height: typing.SupportsInt | typing.SupportsIndex, format: typing.Any = 'rgba8_unorm', *, mip_levels: typing.SupportsInt | typing.SupportsIndex = 1, array_size: typing.SupportsInt | typing.SupportsIndex = 1, render_target: bool = False, depth_stencil: bool = False, uav: bool = False, name: typing.Any = None) -> Texture:
        """
        A 2D texture. mip_levels=0 means a full chain.
        """
    def descriptor_stats(self) -> dict:
        """
        Per heap type: in_use, pages, peak, stale, capacity; shader_visible: static/dynamic use for CBV_SRV_UAV and SAMPLER.
        """
    def poll(self) -> int:
        """
        Releases completed work; returns the completed submission serial.
        """
    def queue(self, kind: str = 'direct') -> CommandQueue:
        """
        The device's queue of `kind`: 'direct', 'compute' or 'copy'.
        """
    def stats(self) -> dict:
        """
        Statistics as a plain dict: upload pages, barriers, descriptors, live resources.
        """
    def wait_idle(self) -> None:
        """
        Waits until every queue is idle.
        """
    @property
    def info(self) -> dict:
        """
        backend ('vkd3d' or 'd3d12'), adapter, feature_level ('11_0'...), resource_binding_tier, resource_heap_tier.
        """
    @property
    def validate(self) -> bool:
        ...
def CBV(register: typing.SupportsInt | typing.SupportsIndex, count: typing.SupportsInt | typing.SupportsIndex = 1, space: typing.SupportsInt | typing.SupportsIndex = 0) -> DescriptorRange:
    """
    A range of constant buffer views (b registers) in a DescriptorTable.
    """
def DescriptorTable(ranges: collections.abc.Sequence[DescriptorRange], visibility: typing.Any = 'all') -> RootParameter:
    """
    A descriptor table: a list of SRV/UAV/CBV ranges, or of Sampler ranges.
    """
def RootCBV(register: typing.SupportsInt | typing.SupportsIndex, space: typing.SupportsInt | typing.SupportsIndex = 0, visibility: typing.Any = 'all') -> RootParameter:
    """
    A root constant buffer view (GPU address of a buffer).
    """
def RootConstants(register: typing.SupportsInt | typing.SupportsIndex, count: typing.SupportsInt | typing.SupportsIndex, space: typing.SupportsInt | typing.SupportsIndex = 0, visibility: typing.Any = 'all') -> RootParameter:
    """
    32-bit root constants (a cbuffer at register b<register>).
    """
def RootSRV(register: typing.SupportsInt | typing.SupportsIndex, space: typing.SupportsInt | typing.SupportsIndex = 0, visibility: typing.Any = 'all') -> RootParameter:
    """
    A root shader resource view (a buffer, e.g. StructuredBuffer).
    """
def RootUAV(register: typing.SupportsInt | typing.SupportsIndex, space: typing.SupportsInt | typing.SupportsIndex = 0, visibility: typing.Any = 'all') -> RootParameter:
    """
    A root unordered access view (a buffer, e.g. RWStructuredBuffer).
    """
def SRV(register: typing.SupportsInt | typing.SupportsIndex, count: typing.SupportsInt | typing.SupportsIndex = 1, space: typing.SupportsInt | typing.SupportsIndex = 0) -> DescriptorRange:
    """
    A range of shader resource views (t registers) in a DescriptorTable.
    """
def Sampler(register: typing.SupportsInt | typing.SupportsIndex, count: typing.SupportsInt | typing.SupportsIndex = 1, space: typing.SupportsInt | typing.SupportsIndex = 0) -> DescriptorRange:
    """
    A range of samplers (s registers) in a DescriptorTable.
    """
def StaticSampler(register: typing.SupportsInt | typing.SupportsIndex, filter: typing.Any = 'linear', address: typing.Any = 'clamp', space: typing.SupportsInt | typing.SupportsIndex = 0, visibility: typing.Any = 'all') -> StaticSamplerDesc:
    """
    A static sampler: filter 'point' | 'linear' | 'bilinear' | 'anisotropic'; address 'clamp' | 'wrap' | 'mirror' | 'border'.
    """
def UAV(register: typing.SupportsInt | typing.SupportsIndex, count: typing.SupportsInt | typing.SupportsIndex = 1, space: typing.SupportsInt | typing.SupportsIndex = 0) -> DescriptorRange:
    """
    A range of unordered access views (u registers) in a DescriptorTable.
    """
def _bench_dynamic_cb(device: Device, pipeline: PipelineState, root_index: typing.SupportsInt | typing.SupportsIndex, n: typing.SupportsInt | typing.SupportsIndex = 100000) -> dict:
    """
    Benchmark: ns per 16-byte dynamic constant buffer: allocation+copy alone, the whole SetDynamicConstantBuffer,
    and vkd3d's SetComputeRootConstantBufferView alone; each (min, median) of 5 runs of n calls.
    """
def _bench_transition(device: Device, resource: Resource, n: typing.SupportsInt | typing.SupportsIndex = 200000) -> dict:
    """
    Benchmark: ns per tracked transition (whole resource, same state, one subresource, via CommandList.transition_barrier).
    """
ALL_SUBRESOURCES: int = 4294967295
__version__: str = '0.1.0'
