"""
dx12kit's C++ core (see the dx12kit package for the documented Python API)
"""
from __future__ import annotations
import collections.abc
import dx12kit.enums
from dx12kit import errors as _errors
import enum
import numpy
import os
import typing
from . import alloc
from . import shaders
from . import descriptors
class FormatSupport(typing.Mapping[str, typing.Any]):
    """
    What the device supports for one format (Device.format_support): a read-only mapping
    (a collections.abc.Mapping: fs['render_target'], fs.get(...), fs.items(), fs == {...}, dict(fs)) whose
    keys are also attributes (fs.render_target). typed_uav is False for sRGB formats whatever the driver
    says (D3D12 has no sRGB UAVs); msaa lists the supported sample counts.
    """
    __hash__: typing.ClassVar[None]  # type: ignore[assignment]
    def __contains__(self, key: typing.Any) -> bool:
        """
        Whether `key` is one of the keys.
        """
    def __eq__(self, other: typing.Any) -> typing.Any:
        """
        Equal to any mapping with the same keys and values (a dict, another FormatSupport).
        """
    def __getitem__(self, key: str) -> typing.Any:
        """
        The value of one key (KeyError for unknown keys).
        """
    def __iter__(self) -> collections.abc.Iterator[str]:
        """
        Iterates over the keys.
        """
    def __len__(self) -> int:
        """
        The number of keys.
        """
    def __repr__(self) -> str:
        ...
    def as_dict(self) -> dict[str, typing.Any]:
        """
        Every key and value as a new dict (booleans, and msaa as a list of ints).
        """
    def get(self, key: typing.Any, default: typing.Any = None) -> typing.Any:
        """
        The value of `key`, or `default` when it is not one of the keys.
        
        Args:
            key: one of the keys.
            default: the value when key is not one of them.
        
        Returns:
            The key's value, or default.
        """
    def items(self) -> typing.ItemsView[str, typing.Any]:
        """
        (key, value) pairs, in key order, as a dict's items view.
        """
    def keys(self) -> typing.KeysView[str]:
        """
        The keys, in order (every field but format), as a dict's keys view.
        """
    def values(self) -> typing.ValuesView[typing.Any]:
        """
        The values, in key order, as a dict's values view.
        """
    @property
    def blendable(self) -> bool:
        """
        Render targets of this format blend.
        """
    @property
    def buffer(self) -> bool:
        """
        Usable in typed buffer views.
        """
    @property
    def depth_stencil(self) -> bool:
        """
        Usable as a depth-stencil target.
        """
    @property
    def format(self) -> str:
        """
        The format queried (a dx12kit.Format).
        """
    @property
    def mip_autogen(self) -> bool:
        """
        Whether CommandList.generate_mips accepts textures of it (not depth, integer or UAV-less formats
        other than the rgba8/bgra8 UNORM and sRGB ones, which go through an rgba8_unorm alias).
        """
    @property
    def msaa(self) -> list[int]:
        """
        Supported MSAA sample counts (list of ints).
        """
    @property
    def render_target(self) -> bool:
        """
        Usable as a render target.
        """
    @property
    def shader_load(self) -> bool:
        """
        Readable with Load in shaders.
        """
    @property
    def shader_sample(self) -> bool:
        """
        Readable with Sample (filtered) in shaders.
        """
    @property
    def texture2d(self) -> bool:
        """
        Usable for 2D textures.
        """
    @property
    def texture3d(self) -> bool:
        """
        Usable for 3D textures.
        """
    @property
    def texture_cube(self) -> bool:
        """
        Usable for cube textures.
        """
    @property
    def typed_uav(self) -> bool:
        """
        Usable in typed UAVs (never for sRGB formats).
        """
    @property
    def uav_typed_load(self) -> bool:
        """
        Typed UAV loads supported (D3D12 Support2 bit).
        """
    @property
    def uav_typed_store(self) -> bool:
        """
        Typed UAV stores supported (D3D12 Support2 bit).
        """
class Resource:
    """
    A GPU resource (Buffer or Texture).
    """
    def __enter__(self) -> typing.Any:
        ...
    def __exit__(self, *args: typing.Any) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def close(self) -> None:
        """
        Marks the resource closed: any later use (barriers, bindings, copies, reads) raises UseAfterFreeError.
        Work already recorded or submitted still completes; the memory is released once the last reference
        (this object, command lists in flight) is gone. Closing twice is allowed.
        """
    def global_state(self, subresource: typing.SupportsIndex = 4294967295) -> ResourceState:
        """
        The state the resource is in once every executed command list has run (what execute resolves against).
        
        Args:
            subresource: one subresource index (mip + array_slice * mip_levels), or ALL_SUBRESOURCES.
        
        Returns:
            The ResourceState that subresource is in after every executed command list has run.
        
        Raises:
            InvalidArgumentError: a subresource out of range, or ALL_SUBRESOURCES while subresources differ.
        """
    @property
    def allocation(self) -> typing.Any:
        """
        Where the resource's memory lies: dict[str, typing.Any] with heap_type, committed, block (None when committed), offset (in the
        block), size, alignment, pool (its name, None for the device's default pools); 'aliased': True for a resource
        placed with memory= (it lies in that memory, which other resources may share).
        """
    @property
    def cached_views(self) -> int:
        """
        Number of descriptor views created for it (cached).
        """
    @property
    def closed(self) -> bool:
        """
        True once close() was called (any later use raises UseAfterFreeError).
        """
    @property
    def name(self) -> str:
        """
        Debug name given at creation (also the D3D12 object's name).
        """
    @property
    def num_subresources(self) -> int:
        """
        Number of subresources (1 for a buffer; mips x array slices for a texture).
        """
    @property
    def uav(self) -> bool:
        """
        True when the resource allows unordered access (created with uav=True).
        """
class Buffer(Resource):
    """
    A GPU buffer. Create with Device.create_buffer.
    """
    def __repr__(self: Buffer) -> str:
        ...
    def map(self, dtype: typing.Any = ...) -> numpy.ndarray:
        """
        A numpy view of a CPU-visible buffer's memory (heap 'upload', 'readback' or 'custom'), valid while the array lives
        (it keeps the buffer alive). Writes to upload memory are seen by the GPU work submitted after them; read readback
        memory after the GPU work that wrote it has completed (queue.wait). CPU-visible buffers never move
        (Device.defragment leaves them in place), so the array stays valid as long as it lives.
        
        Args:
            dtype: the numpy dtype of the items (fixed size, native byte order); the buffer's size must be a multiple of it.
        
        Returns:
            A 1-D numpy array over the buffer's memory (no copy).
        
        Raises:
            InvalidArgumentError: a GPU-only buffer (heap 'default'), or a size that is not a whole number of items.
            UseAfterFreeError: the buffer was closed.
            TypeError: dtype is not a fixed-size numpy dtype.
        """
    @property
    def gpu_address(self) -> int:
        """
        GPU virtual address of the first byte (for root CBV/SRV/UAV arguments).
        """
    @property
    def size(self) -> int:
        """
        Size in bytes.
        """
class Texture(Resource):
    """
    A 2D texture (array). Create with Device.create_texture2d.
    """
    def __repr__(self) -> str:
        ...
    @property
    def array_size(self) -> int:
        """
        Number of array slices.
        """
    @property
    def depth(self) -> int:
        """
        Depth in texels of mip 0 (1 unless a 3D texture).
        """
    @property
    def dimension(self) -> str:
        """
        '2d' (a 2D texture or array), 'cube' (6 faces: +X, -X, +Y, -Y, +Z, -Z) or '3d'.
        """
    @property
    def format(self) -> Format:
        """
        The format views and reads use (a dx12kit.Format).
        """
    @property
    def height(self) -> int:
        """
        Height in texels of mip 0.
        """
    @property
    def mip_levels(self) -> int:
        """
        Number of mip levels.
        """
    @property
    def sample_count(self) -> int:
        """
        Samples per pixel (1, or the MSAA count of a multisampled texture).
        """
    @property
    def shape(self) -> tuple[int, ...]:
        """
        (height, width, channels) of mip 0 ((depth, height, width, channels) for 3D textures), as read_texture returns it;
        (block rows, blocks per row, bytes per block) for a block-compressed format.
        """
    @property
    def width(self) -> int:
        """
        Width in texels of mip 0.
        """
class DescriptorRange:
    """
    One range of a DescriptorTable (made by SRV, UAV, CBV, Sampler).
    """
    __hash__: typing.ClassVar[None]  # type: ignore[assignment]
    def __eq__(self, arg0: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def count(self) -> int:
        ...
    @property
    def flags(self) -> DescriptorRangeFlags:
        """
        The range's DescriptorRangeFlags (root signature 1.1).
        """
    @property
    def kind(self) -> str:
        ...
    @property
    def offset(self) -> typing.Any:
        """
        Descriptors from the table start, or None (appended after the previous range).
        """
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
    __hash__: typing.ClassVar[None]  # type: ignore[assignment]
    def __eq__(self, arg0: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def count(self) -> int:
        ...
    @property
    def flags(self) -> RootDescriptorFlags:
        """
        Root CBV/SRV/UAV: its RootDescriptorFlags (root signature 1.1).
        """
    @property
    def kind(self) -> str:
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
    @property
    def visibility(self) -> int:
        """
        D3D12_SHADER_VISIBILITY value.
        """
class StaticSamplerDesc:
    """
    A static sampler of a root signature (made by StaticSampler).
    """
    __hash__: typing.ClassVar[None]  # type: ignore[assignment]
    def __eq__(self, arg0: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def register(self) -> int:
        ...
    @property
    def space(self) -> int:
        ...
    @property
    def visibility(self) -> int:
        """
        D3D12_SHADER_VISIBILITY value.
        """
class RootSignature:
    """
    A root signature. Create with Device.create_root_signature.
    """
    def __repr__(self) -> str:
        ...
    @property
    def name(self) -> str:
        """
        Debug name (also the D3D12 object's name).
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
    @property
    def num_parameters(self) -> int:
        """
        Number of root parameters.
        """
    @property
    def parameters(self) -> list[RootParameter]:
        """
        The root parameters (RootParameter: kind, register, space, count, ranges, visibility), in root-index order.
        """
    @property
    def static_samplers(self) -> list[StaticSamplerDesc]:
        """
        The static samplers (StaticSamplerDesc).
        """
class PipelineState:
    """
    A compute or graphics pipeline state object.
    """
    def __repr__(self) -> str:
        ...
    @property
    def is_compute(self) -> bool:
        """
        True for a compute pipeline, False for a graphics one.
        """
    @property
    def name(self) -> str:
        """
        Debug name (also the D3D12 object's name).
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
    @property
    def root_signature(self) -> RootSignature:
        """
        The root signature the pipeline was created with (given, or derived from the shaders when left out).
        """
    @property
    def shader_reflections(self) -> list[shaders.ShaderReflection]:
        """
        The ShaderReflection of each of its shaders, in pipeline order (cs; or vs, hs, ds, gs, ps as present).
        """
class SamplerState:
    """
    A sampler descriptor. Create with Device.create_sampler.
    """
    def __repr__(self) -> str:
        ...
    @property
    def desc(self) -> dict[str, typing.Any]:
        """
        The settings, by create_sampler's argument names (create_sampler given these as keywords makes the same sampler):
        filter, address, address_v, address_w, mip_lod_bias, max_anisotropy, comparison (completed: 'less_equal' for a comparison filter
        created without one), border_color (r, g, b, a), min_lod, max_lod.
        """
    @property
    def name(self) -> str:
        """
        Debug name, shown by repr.
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
class BarrierBatch:
    """
    Barrier requests built once and recorded into command lists with one call, CommandList.resource_barriers(batch).
    
    Recording a batch is the same as calling transition_barrier, uav_barrier and aliasing_barrier for
    its entries in order (the state tracker batches them into one ResourceBarrier at the next work),
    at the cost of one call. The batch keeps its resources alive.
    
    Args:
        barriers: tuples ("transition", resource, state), ("transition", resource, state, subresource)
            (one subresource: mip + array_slice * mip_levels), ("uav", resource or None) or
            ("aliasing", before or None, after or None[, state]). An aliasing barrier's state is the
            state ``after`` was left in: a list that activates ``after`` before knowing its state takes
            it to be there (dx12kit puts it there before the list when it is not) instead of COMMON, so
            no detour through COMMON is recorded (default COMMON).
    
    Raises:
        TypeError: an entry that is not such a tuple, or a resource that is not a Buffer or Texture.
        InvalidArgumentError: an unknown kind, a state with bits outside D3D12_RESOURCE_STATES, or a
            subresource out of range.
    """
    def __init__(self, barriers: typing.Any) -> None:
        ...
    def __len__(self) -> int:
        """
        The number of barrier requests.
        """
    def __repr__(self) -> str:
        ...
    @property
    def entries(self) -> list[typing.Any]:
        """
        The barrier requests as tuples, in order: ("transition", resource, state) (all subresources) or
        ("transition", resource, state, subresource), ("uav", resource or None),
        ("aliasing", before or None, after or None), or with the state when it is not COMMON.
        """
class CommandList:
    """
    Records GPU work for one queue. Resource states, descriptor copies and upload memory are handled automatically.
    Create with CommandQueue.command_list(); submit with CommandQueue.execute().
    """
    def __repr__(self) -> str:
        ...
    def aliasing_barrier(self, before: Resource | None = None, after: Resource | None = None) -> None:
        """
        Records an aliasing barrier between two placed resources sharing memory (either may be None). Not needed for
        resources placed in Device.allocate_memory memory: the first use of one after an overlapping one was used records
        that barrier by itself; an explicit one hands the memory to `after` and makes the automatic one unnecessary.
        
        Args:
            before: the placed resource that used the memory so far, or None.
            after: the placed resource that uses it next, or None.
        """
    def allocate_texture_upload(self, texture: Texture, mip: typing.SupportsIndex = 0) -> UploadAllocation:
        """
        Upload memory laid out for a texture mip (rows 256-byte aligned): fill .array(), then copy_from_upload.
        
        Args:
            texture: the Texture whose mip (array slice 0) the memory is laid out for.
            mip: the mip level.
        
        Returns:
            An UploadAllocation of the mip's padded size (every row at the 256-byte row pitch).
        
        Raises:
            InvalidArgumentError: a buffer given, or a mip out of range.
        """
    def allocate_upload(self, size: typing.SupportsIndex, alignment: typing.SupportsIndex = 256) -> UploadAllocation:
        """
        Upload memory for the zero-copy path (see UploadAllocation).
        
        Args:
            size: bytes to reserve.
            alignment: alignment of the first byte in the upload page (a power of two).
        
        Returns:
            An UploadAllocation of this list, to fill through .array().
        
        Raises:
            InvalidArgumentError: a zero size or an alignment that is not a power of two.
        """
    def begin_query(self, heap: QueryHeap, kind: dx12kit.enums.QueryKind | dx12kit.enums.QueryKindName, index: typing.SupportsIndex) -> None:
        """
        Starts query `index` of `heap` (ID3D12GraphicsCommandList::BeginQuery). End it with end_query in this list.
        
        Args:
            heap: a QueryHeap of this device.
            kind: 'occlusion' (samples that pass the depth and stencil tests) or 'binary_occlusion' (0/1) in an
                occlusion heap, on direct lists; 'pipeline_statistics' in such a heap, on direct and compute lists.
                Timestamps are not begun: end_query writes one.
            index: the query, 0 .. heap.count-1.
        
        Raises:
            InvalidArgumentError: an index out of range, a kind that does not belong in the heap or on this list's
                queue, 'timestamp', or a query already active.
        """
    def bind(self, name: str | None = None, value: typing.Any = None, /, **kwargs: typing.Any) -> None:
        """
        Binds resources and constants by the names the bound pipeline's shaders declare (dx12kit.binding).
        
        cl.bind('tex', texture) or cl.bind(tex=texture, smp=sampler, Params={'scale': 2.0}). A Texture or Buffer for an
        SRV or UAV (a list of them for an array), a SamplerState for a sampler; for a cbuffer a Buffer, a numpy array or
        bytes (its packed contents), or a dict of its variables' names to values (packed by HLSL's rules from the
        reflection). Works with automatic and hand-written root signatures. With a pipeline bound the values are set at
        once and hold as root arguments do (until the root signature changes); bound before any pipeline they are kept
        and set by the next set_pipeline_state. See docs/guides/binding.rst.
        
        Args:
            name: a name the shaders declare (with value), or None.
            value: what to bind to it.
            values: more names and values.
        
        Raises:
            dx12kit.binding.BindingNameError: a name no shader of the pipeline declares (the message lists the declarations
                and a close match).
            dx12kit.binding.BindingKindError: a value of the wrong kind for the declaration (a Texture for a cbuffer, a Buffer
                for a cbuffer held as root constants); also a TypeError.
            dx12kit.binding.CbufferFieldError: a cbuffer dict with a missing or unknown variable, or a value of the wrong shape.
            TypeError: neither a name nor keywords given.
            UseAfterFreeError: the list was already executed.
        """
    def clear_depth_stencil(self, texture: Texture, depth: typing.SupportsFloat | typing.SupportsIndex = 1.0, stencil: typing.SupportsIndex = 0, *, clear_depth: bool = True, clear_stencil: bool = True, mip: typing.SupportsIndex = 0, array_slice: typing.SupportsIndex | None = 0) -> None:
        """
        Clears (mip, array_slice) of a depth-stencil texture, or every slice of the mip with array_slice=None (a
        cascaded or cube shadow map at once); depth in [0, 1] (clear_depth), stencil 0..255 (clear_stencil; formats
        without stencil ignore it unless it is the only thing asked for, which raises).
        
        Args:
            texture: a Texture created with depth_stencil=True.
            depth: the depth value, 0..1.
            stencil: the stencil value, 0..255.
            clear_depth, clear_stencil: which planes to clear.
            mip: the mip level cleared.
            array_slice: one array slice, or None for all.
        
        Raises:
            InvalidArgumentError: values out of range, or a stencil-only clear of a format without stencil.
        """
    def clear_render_target(self, texture: Texture, rgba: collections.abc.Sequence[typing.SupportsFloat | typing.SupportsIndex], *, mip: typing.SupportsIndex = 0, array_slice: typing.SupportsIndex | None = None) -> None:
        """
        Clears one mip of a render-target texture to `rgba` (four floats): every array slice (cube face) of it, or
        only `array_slice`; a 3D texture's mip with all its depth slices.
        
        Args:
            texture: a Texture created with render_target=True.
            rgba: four floats.
            mip: the mip level cleared.
            array_slice: one array slice (cube face), or None for all.
        
        Raises:
            TypeError: rgba is not a sequence.
            InvalidArgumentError: not 4 values, or a mip or slice out of range.
        """
    def clear_unordered_access_view(self, resource: Resource, values: collections.abc.Sequence[typing.SupportsFloat | typing.SupportsIndex]) -> None:
        """
        Clears a UAV-capable resource to 4 values (floats: float clear; ints: uint clear). A texture's clear covers mip 0
        of every array slice. A buffer's float clear writes values[0] as a 32-bit float into every 4 bytes (a typed
        R32_FLOAT view, as D3D12 requires for float clears), its uint clear values[0] as a uint32 (the raw view).
        
        Args:
            resource: a Buffer or Texture created with uav=True.
            values: 4 numbers: floats for float and normalized formats, unsigned ints for integer formats and raw buffers.
        
        Raises:
            InvalidArgumentError: not 4 values, a resource without uav=True, or a float clear of a buffer under 4 bytes.
        """
    def copy_buffer_region(self, dst: Buffer, dst_offset: typing.SupportsIndex, src: Buffer, src_offset: typing.SupportsIndex, size: typing.SupportsIndex) -> None:
        """
        Copies `size` bytes from `src` at `src_offset` to `dst` at `dst_offset`; bounds are checked.
        
        Args:
            dst: the Buffer written.
            dst_offset: byte offset in dst.
            src: the Buffer read.
            src_offset: byte offset in src.
            size: bytes to copy.
        
        Raises:
            InvalidArgumentError: a range outside either buffer, or a texture given.
        """
    def copy_from_upload(self, dst: Resource, allocation: UploadAllocation, mip: typing.SupportsIndex = 0, array_slice: typing.SupportsIndex = 0, offset: typing.SupportsIndex = 0) -> None:
        """
        Copies an UploadAllocation (filled through .array()) into a buffer at `offset` or a texture subresource (mip, array_slice).
        
        Args:
            dst: the Buffer or Texture written.
            allocation: an UploadAllocation of this list, filled through .array().
            mip, array_slice: the texture subresource written (ignored for buffers).
            offset: byte offset in a buffer dst.
        
        Raises:
            InvalidArgumentError: an allocation of another list, or a range outside dst.
        """
    def copy_resource(self, dst: Resource, src: Resource) -> None:
        """
        Copies the whole of `src` into `dst` (same size and format); both states are tracked.
        
        Args:
            dst: the Buffer or Texture written.
            src: the Buffer or Texture read (same size and format as dst).
        
        Raises:
            InvalidArgumentError: resources that differ in size or format, or a closed one.
        """
    def discard_resource(self, texture: Texture, *, mip: typing.SupportsIndex | None = None, array_slice: typing.SupportsIndex | None = None) -> None:
        """
        Discards a texture's contents (ID3D12GraphicsCommandList::DiscardResource): they become undefined, and the
        texture counts as initialised, which a placed render target or depth buffer needs at its first use after it
        takes over memory. The list moves the texture to the state D3D12 requires: on a direct list RENDER_TARGET for a
        render target, DEPTH_WRITE for a depth-stencil texture, else UNORDERED_ACCESS; on a compute list
        UNORDERED_ACCESS. Not predicated.
        
        Args:
            texture: a Texture of this device.
            mip: one mip level, or None for all.
            array_slice: one array slice (cube face), or None for all.
        
        Raises:
            TypeError: texture is not a Texture.
            InvalidArgumentError: a buffer, a copy-queue list, a texture D3D12 cannot discard on this list's queue (no
                render-target, depth-stencil or unordered-access flag; on a compute list no unordered-access flag),
                or a mip or slice out of range.
            UseAfterFreeError: the list was executed already.
        """
    def dispatch(self, x: typing.SupportsIndex | tuple[typing.SupportsIndex, ...], y: typing.SupportsIndex = 1, z: typing.SupportsIndex = 1) -> None:
        """
        Dispatches x * y * z thread groups of the compute pipeline; staged descriptors and barriers are committed first.
        The counts may also come as one tuple: dispatch((x, y, z)), dispatch((x, y)) (as dispatch_many's groups).
        
        Args:
            x, y, z: thread groups per dimension (1..65535); or x a tuple of 1 to 3 counts, and no y or z.
        
        Raises:
            TypeError: a count of the wrong type.
            InvalidArgumentError: no compute pipeline, a root argument unset, a single-register table SRV/UAV it reads unset
                (one set while a graphics pipeline was bound does not count: set it again after set_pipeline_state), a count out
                of range, a copy-queue list; one
                subresource bound as a UAV and through another binding (an SRV and a UAV of one buffer); in validation mode a
                constant buffer shorter than its cbuffer.
            UseAfterFreeError: the list was already executed.
        """
    def dispatch_many(self, groups: typing.Any, constants: typing.Any, *, root_index: typing.SupportsIndex = 0) -> None:
        """
        Records one dispatch per row of `constants`: the row is set as the root constants of `root_index`, then
        Dispatch(x, y, z). The same checks, state tracking and automatic UAV barriers as set_constants + dispatch per row.
        
        Args:
            groups: thread groups (x, y, z) for every dispatch, or an (n, 3) integer array, one row per dispatch
                (each 1..65535).
            constants: an (n, k) array of 32-bit values (see draw_many), one row per dispatch.
            root_index: the root-constants parameter the rows go to.
        
        Raises:
            TypeError: constants or groups of the wrong type (groups not integers).
            InvalidArgumentError: constants not 2-D or not 32-bit numbers; groups of the wrong shape or out of range;
                no compute pipeline, a root argument unset, a copy-queue list.
            UseAfterFreeError: the list was already executed.
        """
    def draw(self, vertex_count: typing.SupportsIndex, instance_count: typing.SupportsIndex = 1, start_vertex: typing.SupportsIndex = 0, start_instance: typing.SupportsIndex = 0) -> None:
        """
        Draws `vertex_count` vertices (instanced); staged descriptors and pending transitions are committed first.
        
        Args:
            vertex_count, instance_count, start_vertex, start_instance: DrawInstanced's arguments (0..2**32-1).
        
        Raises:
            TypeError: a count of the wrong type.
            InvalidArgumentError: no graphics pipeline, a vertex-buffer slot its vertex shader reads never set on this list
                (set_vertex_buffer), a root argument unset, a single-register table SRV/UAV it reads not set since the last
                set_pipeline_state that moved between graphics and compute (D3D12 keeps their root arguments apart), a value
                out of range, not a direct-queue list; bound render targets
                or depth buffer whose count, view formats or sample count differ from the pipeline's rtv_formats / dsv_format;
                one subresource bound for writing (UAV, render target, depth) and through another binding (an SRV and a UAV of
                one buffer); in validation mode a constant buffer shorter than its cbuffer.
            UseAfterFreeError: the list was already executed.
        """
    def draw_indexed(self, index_count: typing.SupportsIndex, instance_count: typing.SupportsIndex = 1, start_index: typing.SupportsIndex = 0, base_vertex: typing.SupportsIndex = 0, start_instance: typing.SupportsIndex = 0) -> None:
        """
        Draws `index_count` indices of the bound index buffer (instanced).
        
        Args:
            index_count, instance_count, start_index, base_vertex, start_instance: DrawIndexedInstanced's arguments
                (base_vertex signed 32-bit, the others 0..2**32-1).
        
        Raises:
            TypeError: a count of the wrong type.
            InvalidArgumentError: no graphics pipeline, no index buffer set (set_index_buffer), a vertex-buffer slot its vertex
                shader reads never set (set_vertex_buffer), a root argument unset, a value out of range, not a direct-queue list;
                the target, binding and constant-buffer checks of draw.
            UseAfterFreeError: the list was already executed.
        """
    def draw_indexed_many(self, index_count: typing.SupportsIndex, constants: typing.Any, *, root_index: typing.SupportsIndex = 0, instance_count: typing.SupportsIndex = 1) -> None:
        """
        Records one indexed draw per row of `constants` (as draw_many): the row as root constants of `root_index`, then
        DrawIndexedInstanced(index_count, instance_count, 0, 0, 0) on the bound index buffer.
        
        Args:
            index_count: indices per draw.
            constants: an (n, k) array of 32-bit values, one row per draw (see draw_many).
            root_index: the root-constants parameter the rows go to.
            instance_count: instances per draw.
        
        Raises:
            TypeError: constants not an array (or list of rows), or a count of the wrong type.
            InvalidArgumentError: as draw_many, or no index buffer set (set_index_buffer).
            UseAfterFreeError: the list was already executed.
        """
    def draw_many(self, vertex_count: typing.SupportsIndex, constants: typing.Any, *, root_index: typing.SupportsIndex = 0, instance_count: typing.SupportsIndex = 1) -> None:
        """
        Records one draw per row of `constants`: the row is set as the root constants of `root_index`, then
        DrawInstanced(vertex_count, instance_count, 0, 0). The same checks and state tracking as set_constants + draw per
        row, at a fraction of the cost (one call for the whole batch).
        
        Args:
            vertex_count: vertices per draw.
            constants: an (n, k) array of 32-bit values (float32, int32 or uint32; other numeric dtypes are converted by
                value, as set_constants converts them): n draws, each with its row as root constants [0, k).
            root_index: the root-constants parameter the rows go to (k <= its count).
            instance_count: instances per draw.
        
        Raises:
            TypeError: constants not an array (or list of rows), or a count of the wrong type.
            InvalidArgumentError: constants not 2-D or of a dtype that is no 32-bit number; k larger than the parameter;
                no graphics pipeline, a vertex-buffer slot its vertex shader reads never set on this list (set_vertex_buffer),
                a root argument unset, not a direct-queue list; the target, binding and constant-buffer checks of draw.
            UseAfterFreeError: the list was already executed.
        """
    def end_query(self, heap: QueryHeap, kind: dx12kit.enums.QueryKind | dx12kit.enums.QueryKindName, index: typing.SupportsIndex) -> None:
        """
        Ends query `index` begun in this list, or writes timestamp `index` (ID3D12GraphicsCommandList::EndQuery: a
        timestamp is taken when the GPU has finished the work before it; ticks of queue.timestamp_frequency).
        
        Args:
            heap: a QueryHeap of this device.
            kind: as begin_query, or 'timestamp' (a timestamp heap, on direct and compute lists).
            index: the query, 0 .. heap.count-1.
        
        Raises:
            InvalidArgumentError: an index out of range, a kind that does not belong in the heap or on this list's
                queue, or a query (other than a timestamp) not begun in this list, or begun as another kind.
        """
    def execute_bundle(self, bundle: typing.Any) -> None:
        """
        Executes a closed bundle here (ID3D12GraphicsCommandList::ExecuteBundle): its calls run as if recorded at this
        point. The bundle inherits this list's state except the pipeline (render targets, viewports, vertex/index buffers,
        predication, and the root arguments while the bundle binds the same root signature), and what it sets stays set
        here afterwards. The state tracker puts what its draws use in their states here. The list keeps the bundle alive
        until its work completes. On vkd3d 1.2 the calls are replayed into this list (docs/guides/shader-gaps.rst).
        
        Args:
            bundle: a closed Bundle of this device.
        
        Raises:
            TypeError: bundle is not a Bundle.
            InvalidArgumentError: a list of the compute or copy queue (bundles run on direct lists only), a bundle not
                closed or of another device; a call of the bundle that fails against this list's state (the error names
                the bundle and the call; the calls before it stay recorded).
            UseAfterFreeError: the list was already executed.
        """
    def execute_indirect(self, signature: CommandSignature, max_count: typing.SupportsIndex, argument_buffer: Buffer, argument_offset: typing.SupportsIndex = 0, count_buffer: Buffer | None = None, count_offset: typing.SupportsIndex = 0, *, referenced: collections.abc.Sequence[Buffer] = ()) -> None:
        """
        Runs up to `max_count` commands whose arguments the GPU reads from `argument_buffer`
        (ID3D12GraphicsCommandList::ExecuteIndirect): command i at argument_offset + i * signature.byte_stride. With a
        count_buffer, the uint32 there says how many run (at most max_count). Both buffers go to INDIRECT_ARGUMENT
        through the state tracker, so a compute pass may write them earlier in the same list. Draws and dispatches use
        what is bound, as draw and dispatch do (pipeline, root arguments, tables, targets, vertex and index buffers).
        
        Args:
            signature: a CommandSignature of this device; a draw signature needs a graphics pipeline bound (direct
                lists), a dispatch signature a compute pipeline; one that changes root arguments needs its root
                signature bound.
            max_count: the most commands run (0 runs nothing).
            argument_buffer: the Buffer holding the commands.
            argument_offset: where the first command starts (a multiple of 4).
            count_buffer: a Buffer holding the command count as uint32, or None to run max_count commands.
            count_offset: where the count is in count_buffer (a multiple of 4).
            referenced: the Buffers the commands' vertex/index buffer views and root CBV/SRV/UAV addresses point
                into; required when the signature changes root CBVs (constant_buffer_view arguments), optional for the
                other kinds, refused when no argument carries an address. Each goes to the state the signature's
                arguments use it in (the union when it has several kinds): VERTEX_AND_CONSTANT_BUFFER for
                vertex_buffer_view and constant_buffer_view, INDEX_BUFFER for index_buffer_view,
                NON_PIXEL_SHADER_RESOURCE and/or PIXEL_SHADER_RESOURCE for shader_resource_view as its root
                parameter's visibility says (a dispatch: NON_PIXEL; ALL: both), UNORDERED_ACCESS for
                unordered_access_view (written: UAV barriers as for a bound UAV). Upload-heap buffers stay
                GENERIC_READ. On vkd3d 1.2, which ignores root CBV arguments, a built-in compute pass copies each
                command's constant data from them into a staging buffer on the GPU and the draws read it there (at
                most 8 buffers; docs/guides/shader-gaps.rst, 'ExecuteIndirect').
        
        Raises:
            InvalidArgumentError: misaligned offsets, buffers too small for max_count commands (or the count), a
                pipeline or root signature that does not match the signature, a buffer also bound for another use,
                what draw or dispatch refuse, a count buffer with a dispatch signature on vkd3d 1.2 (which ignores it),
                referenced= missing or given where it does not belong, a referenced buffer that is a texture, in a
                readback heap, in an upload heap for root UAVs, bound by the list for the other of reading and
                writing, or given to a signature that writes through root UAVs and reads through other arguments (a
                buffer cannot be written and read in one call; the message names it). On vkd3d 1.2 a root CBV address
                the GPU wrote that lies in no referenced buffer (or is not 256-byte aligned) is found by the pass: that
                command does not draw, and the queue's next wait, flush or read raises InvalidArgumentError naming it.
            TypeError: arguments of the wrong type.
        """
    def generate_mips(self, texture: Texture, *, first_mip: typing.SupportsIndex = 0) -> None:
        """
        Fills mips first_mip+1.. of every array slice of a 2D texture (array) from mip first_mip on the GPU.
        
        A compute pass writes up to 4 mips per dispatch (8x8 thread groups, 2x2 averages in groupshared memory);
        an odd size takes 2 or 4 bilinear taps per texel, so a constant image stays constant and the mean is kept.
        sRGB textures are averaged in linear light. Textures without uav=True go through a UAV-capable copy, and
        formats without typed UAVs (sRGB, BGRA) through an rgba8_unorm alias placed in the same memory, with
        aliasing barriers; Device.stats()['mips'] counts each route. States are tracked; temporaries live until
        the list's work completes. Device.format_support(format)['mip_autogen'] says which formats work.
        The pass binds its own pipeline and leaves none bound, its root arguments cleared: set your pipeline and root
        arguments again before the next draw or dispatch (one left unset raises).
        
        Args:
            texture: a 2D texture or 2D texture array (not multisampled).
            first_mip: the mip the others are made from (0..mip_levels-1); mips above it are left alone.
        
        Raises:
            InvalidArgumentError: on a copy-queue list; a buffer, 3D or multisampled texture; first_mip out of range;
                a depth, integer or otherwise unsupported format (the message says why).
            UseAfterFreeError: the texture was closed or the list already executed.
        """
    def pano_to_cubemap(self, cubemap: Texture, panorama: Texture) -> None:
        """
        Fills every mip of a cube texture from an equirectangular panorama (a 2D texture) with a compute pass; direct or
        compute lists (a copy list raises).
        
        Faces: +X, -X, +Y, -Y, +Z, -Z, +Y up, as TextureCube sampling expects. Panorama layout: u = 0.5 + atan2(x, -z) / 2pi,
        v = acos(y) / pi for a direction (x, y, z): row 0 looks straight up, the centre column along -Z, u = 0.75 along +X.
        Every mip is made from the panorama itself (not by downsampling the mip above): each texel averages samples of
        the panorama about one panorama texel apart, read through the panorama's mips when it has them (so a panorama
        with mips is faster at small cube mips, one without is box-filtered).
        
        Formats: the cube's format must be writable through a typed UAV: rgba8_unorm, rgba16_float, rgba32_float... sRGB
        cubes (rgba8_unorm_srgb) are written through rgba8_unorm with the colours encoded to sRGB by the shader. A cube
        without uav=True (or an sRGB one) is written through a staging cube and copied. Afterwards no pipeline is set
        on the list and root arguments are unbound: set them again before the next draw or dispatch.
        
        Args:
            cubemap: the cube Texture written (every mip).
            panorama: the equirectangular 2D Texture read.
        
        Raises:
            InvalidArgumentError: `cubemap` is not a cube texture, `panorama` not a 2D texture, a format that cannot be
                sampled or written (integer formats; bgra8 on devices without bgra8 UAVs), or a copy-queue list.
        """
    def raw_transition(self, resource: Resource, before: ResourceState | int | str, after: ResourceState | int | str, subresource: typing.SupportsIndex = 4294967295) -> None:
        """
        Escape hatch: records a transition barrier directly, without the state tracker. Device(validate=True) reports
        uses that then find the resource in a state the tracker did not expect.
        
        Args:
            resource: the Buffer or Texture.
            before: the ResourceState it is in (the caller's claim; not checked against the tracker here).
            after: the ResourceState it moves to.
            subresource: one subresource, or ALL_SUBRESOURCES.
        """
    def resolve(self, dst: Texture, src: Texture, *, format: Format | dx12kit.enums.FormatName | None = None, dst_subresource: typing.SupportsIndex = 0, src_subresource: typing.SupportsIndex = 0) -> None:
        """
        Resolves multisampled `src` into single-sample `dst` (ResolveSubresource: each pixel the average of its
        samples). States are tracked (RESOLVE_SOURCE / RESOLVE_DEST). format: the format to resolve as (default:
        src's), a member of both textures' format families with MULTISAMPLE_RESOLVE support; subresources are
        mip + array_slice * mip_levels. Direct-queue lists only.
        
        Args:
            dst: a single-sample Texture.
            src: a multisampled Texture.
            format: the format to resolve as (None: src's).
            dst_subresource, src_subresource: the subresources.
        
        Raises:
            InvalidArgumentError: textures or a format that cannot be resolved, or a list of another queue type.
        """
    def resolve_query_data(self, heap: QueryHeap, kind: dx12kit.enums.QueryKind | dx12kit.enums.QueryKindName, start: typing.SupportsIndex, count: typing.SupportsIndex, buffer: Buffer, offset: typing.SupportsIndex = 0) -> None:
        """
        Writes the results of queries [start, start + count) into `buffer` at `offset`
        (ID3D12GraphicsCommandList::ResolveQueryData): one uint64 per query, or for 'pipeline_statistics' 11 uint64
        (D3D12_QUERY_DATA_PIPELINE_STATISTICS, 88 bytes). The buffer goes to COPY_DEST through the state tracker.
        'binary_occlusion' results are 0 or 1 (on vkd3d 1.2, which resolves sample counts, through a built-in pass;
        in a list whose bound pipeline is a compute pipeline, set its root arguments again after this call).
        
        Args:
            heap: a QueryHeap of this device.
            kind: the kind the queries were recorded as.
            start: the first query.
            count: how many (at least 1).
            buffer: the Buffer written (not an upload buffer).
            offset: byte offset in buffer, a multiple of 8.
        
        Raises:
            InvalidArgumentError: a range outside the heap or the buffer, an offset not a multiple of 8, a kind that
                does not belong in the heap or on this list's queue, a query still active, a texture.
        """
    def resource_barriers(self, batch: BarrierBatch) -> None:
        """
        Records every barrier of a BarrierBatch, in order, as the separate calls would.
        
        Args:
            batch: the BarrierBatch.
        
        Raises:
            InvalidArgumentError: a resource of another device, or a state this list's queue type may not
                use (the entries before it stay recorded).
            UseAfterFreeError: the list was executed already.
        """
    def set_blend_factor(self, rgba: collections.abc.Sequence[typing.SupportsFloat | typing.SupportsIndex]) -> None:
        """
        Sets the blend factor (D3D12 OMSetBlendFactor) that blend states with the 'blend_factor' / 'inv_blend_factor'
        factors read: the factor is (r, g, b, a) for colour and a for alpha, inv_blend_factor is 1 minus it. A list starts
        with zeros, as D3D12 documents for a new list (ClearState).
        
        Args:
            rgba: 4 finite numbers (r, g, b, a).
        
        Raises:
            TypeError: rgba is not a sequence of numbers.
            InvalidArgumentError: not 4 values, a value that is not finite, or a list of a compute or copy queue.
            UseAfterFreeError: the list was already executed.
        """
    def set_constant_buffer_view(self, root_index: typing.SupportsIndex, descriptor_offset: typing.SupportsIndex, buffer: Buffer, offset: typing.SupportsIndex = 0, size: typing.SupportsIndex | None = None) -> None:
        """
        Stages a CBV of `buffer` (bytes [offset, offset + size)) into slot `descriptor_offset` of descriptor table `root_index`.
        
        Many constant blocks can share one buffer, each draw viewing its own block.
        
        Args:
            root_index: the descriptor table's root parameter index.
            descriptor_offset: the slot in that table.
            buffer: the Buffer viewed.
            offset: the view's first byte in the buffer (a multiple of 256; default 0).
            size: the bytes viewed (a multiple of 256, at most 65536 = 4096 float4). None: the whole buffer (its size
                rounded up to 256 bytes) when offset is 0, else the rest of it.
        
        Raises:
            InvalidArgumentError: offset or size not a multiple of 256, a size over 65536 or 0, a view past the
                buffer's end, a texture, or no root signature bound.
            TypeError: arguments of the wrong type.
        """
    def set_constants(self, root_index: typing.SupportsIndex, values: typing.Any, offset: typing.SupportsIndex = 0) -> None:
        """
        Sets 32-bit root constants (numpy array, bytes, or a list of ints/floats, Python or numpy scalars).
        
        Args:
            root_index: a root-constants parameter of the bound root signature.
            values: float32/int32/uint32 values (other numeric dtypes are converted by value; bytes are raw DWORDs).
            offset: the first constant written (offset + len(values) <= the parameter's count).
        
        Raises:
            TypeError: values or an index of the wrong type.
            InvalidArgumentError: no pipeline, not a constants parameter, too many values, a value out of 32-bit range.
            UseAfterFreeError: the list was already executed.
        """
    def set_dynamic_constant_buffer(self, root_index: typing.SupportsIndex, data: typing.Any) -> None:
        """
        Copies `data` into upload memory (256-byte aligned) and binds it as the root CBV `root_index`.
        
        Args:
            root_index: the root CBV parameter index.
            data: bytes, a numpy array or anything with the buffer protocol.
        """
    def set_dynamic_index_buffer(self, array: typing.Any) -> None:
        """
        Copies a uint16 or uint32 array into upload memory and binds it as the index buffer.
        
        Args:
            array: uint16 or uint32 indices.
        
        Raises:
            InvalidArgumentError: another dtype.
        """
    def set_dynamic_structured_buffer(self, root_index: typing.SupportsIndex, array: typing.Any) -> None:
        """
        Copies `array` into upload memory and binds it as the root SRV `root_index`.
        
        Args:
            root_index: a RootSRV root parameter of the bound root signature.
            array: the data (buffer protocol), copied now.
        
        Raises:
            TypeError: array without the buffer protocol.
            InvalidArgumentError: empty data, or root_index not a RootSRV parameter.
            UseAfterFreeError: the list was already executed.
        """
    def set_dynamic_vertex_buffer(self, slot: typing.SupportsIndex, array: typing.Any, stride: typing.Any = None) -> None:
        """
        Copies an array into upload memory and binds it as vertex buffer `slot` (stride: the row size unless given).
        
        Args:
            slot: the input slot.
            array: the vertices (a numpy array).
            stride: bytes per vertex; None takes the array's row size (2-D arrays).
        
        Raises:
            InvalidArgumentError: a 1-D array without stride.
        """
    def set_index_buffer(self, buffer: Buffer, format: dx12kit.enums.IndexFormat | dx12kit.enums.IndexFormatName = 'uint32', offset: typing.SupportsIndex = 0) -> None:
        """
        Binds `buffer` as the index buffer; format is a dx12kit.IndexFormat ('uint16' or 'uint32').
        
        Args:
            buffer: the Buffer read.
            format: an IndexFormat or its name.
            offset: byte offset of the first index.
        """
    def set_pipeline_state(self, pso: PipelineState) -> None:
        """
        Binds a pipeline and its root signature; the root arguments set after it apply to its side (graphics or compute).
        
        Args:
            pso: the PipelineState (from create_compute_pipeline or create_graphics_pipeline).
        
        Raises:
            TypeError: pso not a PipelineState.
            InvalidArgumentError: a pipeline of another device, or a graphics pipeline on a compute-queue list.
            UseAfterFreeError: the list was already executed.
        """
    def set_predication(self, buffer: Buffer | None, offset: typing.SupportsIndex = 0, op: dx12kit.enums.PredicationOp | dx12kit.enums.PredicationOpName = 'equal_zero') -> None:
        """
        Predicates the work recorded after it on the 64-bit value at `offset` of `buffer`
        (ID3D12GraphicsCommandList::SetPredication); None ends predication. With 'equal_zero' draws, dispatches,
        copies, clears and resolves are skipped while the value is 0 (e.g. a 'binary_occlusion' result: skip what
        was hidden); with 'not_equal_zero' while it is not. The buffer goes to the PREDICATION state through the
        state tracker. Direct and compute lists.
        vkd3d 1.2 (docs/guides/shader-gaps.rst): it reads 32 of the 64 bits, so dx12kit predicates on a 0/1 copy of
        the value taken here by a built-in pass (in a list whose bound pipeline is a compute pipeline, set its root
        arguments again after this call); it does not predicate copies, clears or resolves, so those raise
        InvalidArgumentError while a predicate is set.
        
        Args:
            buffer: the Buffer holding the predicate, or None to end predication.
            offset: byte offset of the uint64 predicate, a multiple of 8.
            op: 'equal_zero' or 'not_equal_zero' (when the work is skipped).
        
        Raises:
            InvalidArgumentError: an offset not a multiple of 8 or outside the buffer, a texture, a copy-queue list.
        """
    def set_render_targets(self, textures: Texture | collections.abc.Sequence[Texture] | None, depth: Texture | None = None, *, mip: typing.SupportsIndex = 0) -> None:
        """
        Binds render targets (and depth); also sets a full-size viewport and scissor.
        
        Args:
            textures: a Texture or a list of them (render_target=True), in SV_Target order.
            depth: a depth-stencil Texture, or None.
            mip: the mip level of every target bound.
        
        Raises:
            TypeError: textures is neither a Texture nor a list of them.
        """
    def set_root_cbv(self, root_index: typing.SupportsIndex, buffer: Buffer, offset: typing.SupportsIndex = 0) -> None:
        """
        Binds buffer + offset as the root constant-buffer view `root_index` (offset 256-byte aligned).
        
        Args:
            root_index: a RootCBV root parameter of the bound root signature.
            buffer: the Buffer bound.
            offset: byte offset in buffer (a multiple of 256).
        
        Raises:
            TypeError: buffer not a Buffer.
            InvalidArgumentError: root_index not a RootCBV parameter, an offset outside the buffer or misaligned, a texture given.
            UseAfterFreeError: the list was already executed, or the buffer closed.
        """
    def set_root_srv(self, root_index: typing.SupportsIndex, buffer: Buffer, offset: typing.SupportsIndex = 0) -> None:
        """
        Binds buffer + offset as the root shader-resource view `root_index`.
        
        Args:
            root_index: a RootSRV root parameter of the bound root signature.
            buffer: the Buffer bound.
            offset: byte offset in buffer.
        
        Raises:
            TypeError: buffer not a Buffer.
            InvalidArgumentError: root_index not a RootSRV parameter, an offset outside the buffer, a texture given.
            UseAfterFreeError: the list was already executed, or the buffer closed.
        """
    def set_root_uav(self, root_index: typing.SupportsIndex, buffer: Buffer, offset: typing.SupportsIndex = 0) -> None:
        """
        Binds buffer + offset as the root unordered-access view `root_index`; the buffer moves to UNORDERED_ACCESS.
        
        Args:
            root_index: a RootUAV root parameter of the bound root signature.
            buffer: the Buffer bound.
            offset: byte offset in buffer.
        
        Raises:
            TypeError: buffer not a Buffer.
            InvalidArgumentError: root_index not a RootUAV parameter, an offset outside the buffer, a texture given.
            UseAfterFreeError: the list was already executed, or the buffer closed.
        """
    def set_sampler(self, root_index: typing.SupportsIndex, descriptor_offset: typing.SupportsIndex, sampler: SamplerState) -> None:
        """
        Stages a SamplerState into slot `offset` of sampler descriptor table `root_index`.
        
        Args:
            root_index: the sampler descriptor table's root parameter index.
            descriptor_offset: the slot in that table.
            sampler: a SamplerState (Device.create_sampler).
        
        Raises:
            TypeError: sampler is not a SamplerState.
        """
    def set_scissor(self, left: typing.SupportsIndex, top: typing.SupportsIndex, right: typing.SupportsIndex, bottom: typing.SupportsIndex) -> None:
        """
        Sets the scissor rectangle (left <= right, top <= bottom).
        
        Args:
            left, top, right, bottom: the rectangle in pixels.
        
        Raises:
            InvalidArgumentError: left > right or top > bottom.
        """
    def set_scissors(self, rects: typing.Any) -> None:
        """
        Sets scissor rectangles 0..n-1 (1 <= n <= 16) from (left, top, right, bottom) tuples; rectangle i clips what
        viewport i draws.
        
        Args:
            rects: a list of 1..16 (left, top, right, bottom) tuples.
        
        Raises:
            TypeError: rects is not a list of tuples.
            InvalidArgumentError: a tuple of the wrong length or an inverted rectangle.
        """
    def set_shader_resource_view(self, root_index: typing.SupportsIndex, descriptor_offset: typing.SupportsIndex, resource: Resource, *, mip: typing.SupportsIndex | None = None, format: Format | dx12kit.enums.FormatName | int | None = None, stride: typing.SupportsIndex | None = None, raw: bool | None = None, first_element: typing.SupportsIndex | None = None, num_elements: typing.SupportsIndex | None = None) -> None:
        """
        Stages an SRV of `resource` into slot `descriptor_offset` of the descriptor table at `root_index`.
        
        Textures: all mips, or only `mip`, in the texture's format or `format`. Buffers: a view valid in D3D12's terms,
        of the kind the bound pipeline's shader declares at that slot unless given: StructuredBuffer<T> -> structured
        (format UNKNOWN, stride sizeof(T)), ByteAddressBuffer -> raw (R32_TYPELESS, RAW flag, 4-byte elements),
        Buffer<T> -> typed (T's natural 32-bit format: float4 -> rgba32_float, uint2 -> rg32_uint, int -> r32_sint).
        Without a kind at a slot the bound pipeline does not read, the view waits (null descriptor) for a pipeline
        that reads it; views taken from a declaration follow the next pipeline bound under the same root signature.
        
        Args:
            root_index: a DescriptorTable root parameter of the bound root signature.
            descriptor_offset: the slot in that table.
            resource: a Texture or Buffer.
            mip: textures only: view this one mip.
            format: textures: the view format (same family); buffers: a typed view in this format.
            stride: buffers: a structured view with this structure size in bytes.
            raw: buffers: True for a raw view.
            first_element: buffers: the view's first element (in elements of the view: stride, 4 bytes or the format's size).
            num_elements: buffers: its element count (default: to the end of the buffer).
        
        Raises:
            InvalidArgumentError: not a table slot; buffer arguments for a texture or mip= for a buffer; two view kinds given;
                a buffer where the shader declares a texture, a texture where it declares a buffer or a texture of another
                dimension (Texture2DArray, TextureCube, ...); a range outside the buffer; a format the device cannot view
                buffers in; in validation mode (Device(validate=True)) a kind, stride or format
                that differs from the shader's declaration (naming the register, what it declares and what was given).
            TypeError: arguments of the wrong type.
        """
    def set_stencil_ref(self, ref: typing.SupportsIndex) -> None:
        """
        The stencil reference value (0..255) of the stencil test.
        
        Args:
            ref: 0..255.
        
        Raises:
            InvalidArgumentError: ref above 255.
        """
    def set_unordered_access_view(self, root_index: typing.SupportsIndex, descriptor_offset: typing.SupportsIndex, resource: Resource, *, mip: typing.SupportsIndex | None = None, format: Format | dx12kit.enums.FormatName | int | None = None, stride: typing.SupportsIndex | None = None, raw: bool | None = None, first_element: typing.SupportsIndex | None = None, num_elements: typing.SupportsIndex | None = None, counter: Buffer | None = None, counter_offset: typing.SupportsIndex = 0) -> None:
        """
        Stages a UAV of `resource` into slot `descriptor_offset` of the descriptor table at `root_index`.
        
        Textures: one mip (default 0). Buffers: as set_shader_resource_view, from the shader's declaration unless given:
        RWStructuredBuffer<T> -> structured, RWByteAddressBuffer -> raw, RWBuffer<T> -> typed (formats with typed-UAV
        support only). The buffer must have been created with uav=True.
        
        Args:
            root_index: a DescriptorTable root parameter of the bound root signature.
            descriptor_offset: the slot in that table.
            resource: a Texture or Buffer created with uav=True.
            mip: textures only: the mip to view (default 0).
            format: buffers: a typed view in this format.
            stride: buffers: a structured view with this structure size in bytes.
            raw: buffers: True for a raw view.
            first_element: buffers: the view's first element (in elements of the view).
            num_elements: buffers: its element count (default: to the end of the buffer).
            counter: structured buffer views: the Buffer (uav=True) holding the view's UAV counter, which
                Append/Consume and IncrementCounter/DecrementCounter count with (precompiled DXBC: imm_atomic_alloc,
                imm_atomic_consume). It is read and written as a UAV (state UNORDERED_ACCESS, requested like the view).
            counter_offset: the counter's byte offset in `counter` (a multiple of 4096,
                D3D12_UAV_COUNTER_PLACEMENT_ALIGNMENT; default 0).
        
        Raises:
            InvalidArgumentError: as set_shader_resource_view; a resource without uav=True; a counter on a texture or a
                raw or typed view, a counter without uav=True, or a counter_offset off the 4096 grid or past its end.
            TypeError: arguments of the wrong type.
        """
    def set_vertex_buffer(self, slot: typing.SupportsIndex, buffer: Buffer, stride: typing.SupportsIndex, offset: typing.SupportsIndex = 0) -> None:
        """
        Binds `buffer` as vertex buffer `slot` with `stride` bytes per vertex, from `offset`.
        
        Args:
            slot: the input slot (0..31).
            buffer: the Buffer read.
            stride: bytes per vertex.
            offset: byte offset of the first vertex.
        """
    def set_viewport(self, x: typing.SupportsFloat | typing.SupportsIndex, y: typing.SupportsFloat | typing.SupportsIndex, width: typing.SupportsFloat | typing.SupportsIndex, height: typing.SupportsFloat | typing.SupportsIndex, min_depth: typing.SupportsFloat | typing.SupportsIndex = 0.0, max_depth: typing.SupportsFloat | typing.SupportsIndex = 1.0) -> None:
        """
        Sets the viewport. D3D12's rules are checked: finite values, width and height >= 0, corners within
        [-32768, 32767], 0 <= min_depth <= max_depth <= 1.
        
        Args:
            x, y: the top-left corner in pixels.
            width, height: the size in pixels.
            min_depth, max_depth: the depth range.
        
        Raises:
            InvalidArgumentError: values outside D3D12's rules above.
        """
    def set_viewports(self, viewports: typing.Any) -> None:
        """
        Sets viewports 0..n-1 (1 <= n <= 16) from (x, y, width, height[, min_depth, max_depth]) tuples; a shader picks
        one with SV_ViewportArrayIndex (else viewport 0 is used). Each is checked as set_viewport checks one.
        
        Args:
            viewports: a list of 1..16 (x, y, width, height[, min_depth, max_depth]) tuples.
        
        Raises:
            TypeError: viewports is not a list of tuples.
            InvalidArgumentError: a tuple of the wrong length, or values outside D3D12's rules.
        """
    def transition_barrier(self, resource: Resource, state: ResourceState | int | str, subresource: typing.SupportsIndex = 4294967295) -> None:
        """
        Requests a state explicitly (goes through the state tracker; rarely needed).
        
        Args:
            resource: the Buffer or Texture.
            state: the ResourceState (or its name) it moves to.
            subresource: one subresource, or ALL_SUBRESOURCES.
        
        Raises:
            InvalidArgumentError: a state the resource cannot take, or a subresource out of range.
        """
    def uav_barrier(self, resource: Resource | None = None) -> None:
        """
        Records a UAV barrier on `resource` (None: on every UAV access), ordering UAV writes before later accesses.
        
        Args:
            resource: a Buffer or Texture with uav=True, or None for every UAV access.
        """
    def upload(self, resource: Resource, array: typing.Any, mip: typing.SupportsIndex = 0, array_slice: typing.SupportsIndex = 0, offset: typing.SupportsIndex = 0) -> None:
        """
        Copies a numpy array into a buffer (at byte `offset`) or a texture subresource through upload memory.
        Textures take shape (height, width, channels) matching the format, or raw bytes (bytes, bytearray, 1-D uint8) of the
        subresource's tightly packed rows; block-compressed textures take their 4x4 blocks' bytes (rows of blocks). The array is copied now (change it freely
        afterwards); the data reaches the resource when the list executes, in execution order. On a cache-coherent UMA
        device (Device.uma_direct) execute writes a buffer's bytes on the CPU when no GPU work still uses it, else
        copies them on the GPU just before the list; see also CommandQueue.write_buffer.
        
        Args:
            resource: a buffer or texture of this device in a 'default' or 'custom' heap.
            array: the data (buffer protocol); for a texture, C-contiguous, the subresource's exact size.
            mip, array_slice: the texture subresource (ignored for buffers).
            offset: byte offset in a buffer.
        
        Raises:
            TypeError: resource or array of the wrong type.
            InvalidArgumentError: no data, data that does not fit, an upload/readback heap resource, another device's.
            UseAfterFreeError: the list was executed, or the resource closed.
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
    def name(self) -> str:
        """
        The name given to queue.command_list(name=...), else 'command list'.
        """
    @property
    def pipeline_state(self) -> PipelineState:
        """
        The PipelineState bound by set_pipeline_state, or None (none yet, or a built-in pass such as
        generate_mips left none bound).
        """
    @property
    def upload_pages(self) -> int:
        """
        Upload pages this list holds.
        """
class UploadAllocation:
    """
    Upload memory owned by a command list. Fill .array() in place, then CommandList.copy_from_upload.
    Fill it before the list is executed: .array() then raises, and writes through an older view
    race with the GPU's copy. The memory stays reserved (never reused) while any view of it exists.
    """
    def __repr__(self) -> str:
        ...
    def array(self, dtype: typing.Any = ..., shape: typing.Any = None) -> numpy.ndarray:
        """
        A writable numpy view of the upload memory (no copy).
        
        Args:
            dtype: the item dtype (fixed size).
            shape: the array's shape (an int or a tuple of ints); None: as many items as fit.
        
        Returns:
            A writable numpy view of the memory.
        
        Raises:
            UseAfterFreeError: the command list was already executed.
            InvalidArgumentError: a shape larger than the allocation.
            TypeError: a shape that is not ints.
        """
    @property
    def gpu_address(self) -> int:
        """
        GPU virtual address of the first byte.
        """
    @property
    def offset(self) -> int:
        """
        Offset of the first byte in its upload page.
        """
    @property
    def size(self) -> int:
        """
        Bytes reserved.
        """
class CommandQueue:
    """
    A direct, compute or copy queue. Get one with Device.queue(kind).
    """
    def __repr__(self) -> str:
        ...
    def _fail_next_queued_op(self, hresult: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Test hook: the next op handed to the submission thread fails with `hresult` instead of being issued
        (the error path of a failed backend call, which cannot be provoked on purpose).
        """
    def command_list(self, *, name: str | None = None) -> CommandList:
        """
        A new CommandList for this queue. name: for messages, repr and debuggers (also set on the native list).
        
        Args:
            name: a str, or None ('command list').
        
        Returns:
            A CommandList recording for this queue's type.
        """
    def execute(self, command_lists: typing.Any) -> int:
        """
        Executes one list or a list of lists in order; returns the fence value marking their completion.
        
        Args:
            command_lists: a CommandList or a list of them, each recorded for this queue's type.
        
        Returns:
            The fence value that marks their completion (pass it to wait).
        
        Raises:
            TypeError: something that is not a CommandList.
            InvalidArgumentError: a list already executed, or of another queue type.
        """
    def flush(self, timeout: typing.SupportsFloat | typing.SupportsIndex | None = None) -> int:
        """
        Waits until everything submitted has completed (interruptible; timeout as for wait).
        
        Args:
            timeout: seconds, or None.
        
        Returns:
            The fence value waited for.
        
        Raises:
            WaitTimeoutError: the timeout expired.
        """
    def read_buffer(self, buffer: Buffer, dtype: typing.Any = None, *, timeout: typing.SupportsFloat | typing.SupportsIndex | None = None, out: typing.Any = None, shape: typing.SupportsIndex | tuple[typing.SupportsIndex, ...] | None = None) -> numpy.ndarray:
        """
        Copies a buffer back into a new numpy array of `dtype` (None: uint8) and `shape` (None: one dimension; an int or a
        tuple of ints whose product times the item size is the buffer's size), or into `out` (a writable C-contiguous
        array of the buffer's size, returned; a dtype given with it must be out's). Dtypes in the other byte order
        (e.g. '>u4') are refused: GPU data is little-endian. Waits for the GPU; interruptible, timeout as for wait.
        New arrays of 1 MiB or more reuse the memory of such arrays freed earlier (no fresh pages to fault in).
        
        Args:
            buffer: a buffer of this device.
            dtype: the new array's dtype (None: uint8); the buffer's size must be a multiple of its item size.
            timeout: seconds to wait for the GPU, None forever.
            out: a writable C-contiguous array of exactly the buffer's size to fill instead.
            shape: the new array's shape (an int or a tuple of ints), or None for 1-D; one dimension may be -1 (taken from the buffer's size, as numpy's reshape does); not with out.
        
        Returns:
            The new array, or `out`.
        
        Raises:
            TypeError: buffer is not a Buffer, out not a numpy array, shape not an int or a tuple of ints.
            InvalidArgumentError: sizes, shapes or dtypes that do not fit the buffer, another device's buffer, a texture.
            WaitTimeoutError: the GPU work was not done within `timeout`.
        """
    def read_queries(self, heap: QueryHeap, kind: dx12kit.enums.QueryKind | dx12kit.enums.QueryKindName, start: typing.SupportsIndex = 0, count: typing.Any = None, *, timeout: typing.SupportsFloat | typing.SupportsIndex | None = None) -> numpy.ndarray:
        """
        Resolves queries [start, start + count) of `heap` on this queue, waits, and returns their results in one
        numpy array: uint64 values ('occlusion': samples that passed; 'binary_occlusion': 0 or 1; 'timestamp': ticks
        of timestamp_frequency), or for 'pipeline_statistics' a structured array with D3D12's field names
        (IAVertices, IAPrimitives, VSInvocations, GSInvocations, GSPrimitives, CInvocations, CPrimitives,
        PSInvocations, HSInvocations, DSInvocations, CSInvocations). Execute the lists that wrote the queries on
        this queue first (or make it wait for them). The resolve follows resolve_query_data's rules for this
        queue's lists (occlusion queries: a direct queue).
        
        Args:
            heap: a QueryHeap of this device.
            kind: the kind the queries were recorded as.
            start: the first query.
            count: how many (None: to the end of the heap).
            timeout: seconds to wait for the GPU, None forever.
        
        Returns:
            A numpy array of `count` results.
        
        Raises:
            InvalidArgumentError: a range outside the heap, a kind that does not belong in it or on this queue.
        """
    def read_texture(self, texture: Texture, mip: typing.SupportsIndex = 0, array_slice: typing.SupportsIndex | None = None, *, timeout: typing.SupportsFloat | typing.SupportsIndex | None = None, slice: typing.SupportsIndex | None = None) -> numpy.ndarray:
        """
        Copies a texture subresource back as an array of shape (height, width, channels) ((depth, height, width,
        channels) for a 3D texture; array_slice = face for a cube); depth-stencil formats give their depth plane; block-compressed
        formats give their raw blocks as uint8 of shape (ceil(height/4), ceil(width/4), bytes per block). Waits for the GPU (interruptible, timeout as for wait).
        
        Args:
            texture: the Texture read.
            mip: the mip level.
            array_slice: the array slice (cube face); 0 if left out.
            timeout: seconds, or None.
            slice: the same under write_texture's name (give one of the two).
        
        Returns:
            A numpy array of the subresource's texels.
        
        Raises:
            InvalidArgumentError: a mip or slice out of range, or a multisampled texture (resolve it first).
            WaitTimeoutError: the timeout expired.
        """
    def stats(self) -> dict[str, typing.Any]:
        """
        Cross-queue hazards of this queue's executes, as a plain dict: cross_queue_waits (GPU waits execute inserted
        because a list used a resource that unfinished work on another queue wrote, or read while the list writes it),
        cross_queue_waits_on (of which per other queue: {'direct'|'compute'|'copy': n}), cross_queue_completed (such
        dependencies on work already complete at execute: no wait), cross_queue_already_waited (dependencies this
        queue already waited for: wait_for, or an earlier inserted wait).
        """
    def submission_stats(self) -> dict[str, typing.Any]:
        """
        The queue's submission thread, as a plain dict: queued_ops (native calls, ExecuteCommandLists, Signal or a
        GPU wait, that execute and the waits handed to the thread instead of making them on the caller's thread),
        thread_waits (GPU waits on another queue's unreached fence value that the thread did), busy (ops still
        queued). On vkd3d a GPU wait on a value not reached yet blocks the thread that issues it, so such a wait,
        and every op of the queue after it until the thread has caught up, is issued by the queue's own thread:
        execute returns at once. Elsewhere (Windows) every op is issued directly and the counters stay 0.
        """
    def wait(self, fence_value: typing.SupportsInt | typing.SupportsIndex, timeout: typing.SupportsFloat | typing.SupportsIndex | None = None) -> None:
        """
        Blocks until the fence reaches `fence_value`, without holding the GIL; Ctrl-C interrupts it (KeyboardInterrupt).
        timeout: seconds, None waits forever; WaitTimeoutError (a TimeoutError) when it expires.
        
        Args:
            fence_value: a value execute returned.
            timeout: seconds, or None.
        
        Raises:
            WaitTimeoutError: the timeout expired.
        """
    def wait_for(self, other: CommandQueue, fence_value: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Makes this queue wait on the GPU until `other` reaches `fence_value` (no CPU wait).
        
        Args:
            other: another CommandQueue of the same device.
            fence_value: a value other's execute returned.
        """
    def write_buffer(self, buffer: Buffer, array: typing.Any, offset: typing.SupportsIndex = 0) -> int:
        """
        Writes a numpy array into a buffer at byte `offset` as if a command list holding only that upload were
        executed on this queue now (as wgpu's queue.write_buffer): later executes see the data, earlier ones do not.
        On a cache-coherent UMA device (Device.uma_direct) a buffer no unfinished work uses is written by one memcpy
        and nothing is submitted; otherwise the upload list is executed. An upload or readback heap buffer (never a
        copy's destination in D3D12) is written through its mapping, once the work submitted before that uses it is done.
        
        Args:
            buffer: a buffer of this device.
            array: a C-contiguous array or other buffer-protocol object, its bytes written as they are.
            offset: byte offset in the buffer.
        
        Returns:
            A fence value of this queue after which the data is in place (for wait or wait_for).
        
        Raises:
            TypeError: buffer is not a Buffer, or array does not expose bytes.
            InvalidArgumentError: a texture, no data, the bytes do not fit at offset, another device's buffer.
            UseAfterFreeError: the buffer was closed.
        """
    def write_texture(self, texture: Texture, array: numpy.ndarray | bytes | bytearray | memoryview, mip: typing.SupportsIndex = 0, slice: typing.SupportsIndex | None = None, *, array_slice: typing.SupportsIndex | None = None) -> int:
        """
        Writes a numpy array into one texture subresource as if a command list holding only that upload were executed on
        this queue now (as write_buffer does for buffers): later executes see the data, earlier ones do not.
        The array is what read_texture returns for the subresource: its dtype (uint8 for rgba8_unorm, float32 for
        rgba32_float, ...) and shape (height, width, channels) of the mip ((height, width) allowed for one channel;
        (depth, height, width, channels) for a 3D texture; raw blocks for block-compressed formats). Bytes-like objects
        that are not numpy arrays are taken as the subresource's tightly packed rows.
        
        Args:
            texture: a Texture of this device.
            array: the texels.
            mip: the mip level.
            slice: the array slice (a cube's face); 0 if left out.
            array_slice: the same under read_texture's name (give one of the two).
        
        Returns:
            A fence value of this queue after which the data is in place (for wait or wait_for).
        
        Raises:
            TypeError: texture is not a Texture; array of another dtype than the format's.
            InvalidArgumentError: a buffer, a mip or slice out of range, an array of the wrong shape or size.
            UseAfterFreeError: the texture was closed (DeviceClosedError: its device was).
        """
    @property
    def completed_value(self) -> int:
        """
        The queue fence's completed value: every submission with a value <= it has finished. It never goes back (the highest value read: vkd3d 1.2 can lower a fence's value until its next signal).
        """
    @property
    def kind(self) -> str:
        """
        'direct', 'compute' or 'copy' (a dx12kit.QueueKind value).
        """
    @property
    def last_direct_queue_barriers(self) -> list[typing.Any]:
        """
        Those of last_inserted_barriers that this queue type may not record (a compute queue leaving RENDER_TARGET):
        execute recorded them on the direct queue, which this queue waited for on the GPU.
        """
    @property
    def last_inserted_barriers(self) -> list[typing.Any]:
        """
        The transitions the last execute() inserted before its lists, resolved against the global states:
        [(list_index, resource_name, subresource, before, after)], subresource ALL_SUBRESOURCES for the whole resource.
        """
    @property
    def last_submitted_value(self) -> int:
        """
        The fence value of the latest execute on this queue.
        """
    @property
    def name(self) -> str:
        """
        The queue's name (its kind unless set), also given to the native queue for debuggers.
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
    @property
    def timestamp_frequency(self) -> int:
        """
        Ticks per second of the timestamps written on this queue (ID3D12CommandQueue::GetTimestampFrequency):
        (t1 - t0) / timestamp_frequency seconds. Raises InvalidArgumentError on a copy queue of a device without
        copy-queue timestamps (vkd3d 1.2).
        """
class Device:
    """
    A D3D12 device (vkd3d over Vulkan on Linux). Factory of queues, resources and pipelines.
    """
    def __enter__(self) -> Device:
        """
        The device itself (closed by __exit__).
        """
    def __exit__(self, *args: typing.Any) -> None:
        """
        Closes the device (close()); exceptions propagate.
        """
    def __init__(self, *, validate: bool = False, descriptor_heap_size: typing.SupportsIndex = 65536, sampler_heap_size: typing.SupportsIndex = 2048, static_descriptors: typing.Any = None, dynamic_chunk_size: typing.SupportsIndex = 256, sampler_chunk_size: typing.SupportsIndex = 64, cpu_descriptor_page_size: typing.SupportsIndex = 256, upload_page_size: typing.SupportsIndex = 2097152, gpu_page_size: typing.Any = None, large_page_cache_size: typing.SupportsIndex = 268435456, memory_budget: typing.Any = None, memory_block_size: typing.SupportsIndex = 67108864, resource_heap_tier: typing.Any = None, memory_grace: typing.SupportsFloat | typing.SupportsIndex = 1.0, uma_direct: bool = True, lazy_fence_signals: bool = True) -> None:
        """
        Options: validate (check states before each draw/dispatch/copy), shader-visible heap sizes and the
        dynamic chunk sizes, CPU descriptor page size, upload page size, and the bytes of large upload pages
        kept for reuse after their fence (large_page_cache_size; 0 destroys them).
        GPU memory: memory_budget (bytes; None = 80% of device-local memory), memory_block_size (bytes of the
        default pools' heaps, a multiple of 65536), resource_heap_tier (1 forces tier-1 heaps: buffers, textures
        and render-target/depth textures in separate heaps), memory_grace (seconds an empty heap is kept).
        uma_direct (default True): on a cache-coherent UMA adapter, 'default' buffers live in CPU-visible device memory:
        CommandList.upload into one keeps its bytes in upload memory and execute writes them, in execution order (on the
        CPU when no GPU work still uses the buffer, else by a GPU copy just before the list), with no GPU copy otherwise;
        read_buffer is one memcpy. False forces the staging paths; discrete and non-coherent adapters always stage.
        lazy_fence_signals (vkd3d): a queue signals its fence only when no signal of the device is pending or a wait needs
        it (vkd3d's fence thread polls every pending signal); False signals after every execute (Windows always does).
        static_descriptors and gpu_page_size were removed (nothing used them): passing either raises
        InvalidArgumentError.
        
        Args:
            validate: check resource states before each draw, dispatch and copy.
            descriptor_heap_size: descriptors in the shader-visible CBV/SRV/UAV heap.
            sampler_heap_size: descriptors in the shader-visible sampler heap.
            static_descriptors: removed; passing it raises.
            dynamic_chunk_size: CBV/SRV/UAV descriptors a command list takes from the heap at a time.
            sampler_chunk_size: sampler descriptors a command list takes at a time.
            cpu_descriptor_page_size: descriptors per page of the CPU-only descriptor heaps (positive).
            upload_page_size: bytes of an upload page (1 byte to 4 GiB).
            gpu_page_size: removed; passing it raises.
            large_page_cache_size: bytes of large upload pages kept for reuse (0 destroys them).
            memory_budget: bytes of GPU memory the device may use, or None for 80% of device-local memory.
            memory_block_size: bytes of the default pools' heaps (a multiple of 65536).
            resource_heap_tier: 1 forces tier-1 heaps, 2 requires tier 2, None takes the adapter's.
            memory_grace: seconds an empty heap is kept (0 to 3600).
            uma_direct: let 'default' buffers live in CPU-visible memory on cache-coherent UMA adapters.
            lazy_fence_signals: signal a queue's fence only when needed (vkd3d).
        
        Raises:
            TypeError: an argument of the wrong type.
            InvalidArgumentError: a value out of range, a removed option, resource_heap_tier=2 on a tier-1 adapter.
            DeviceError: the D3D12 device could not be created.
        """
    def __repr__(self) -> str:
        ...
    def allocate_memory(self, size: typing.SupportsIndex, *, alignment: typing.SupportsIndex = 65536, heap: dx12kit.enums.HeapType | dx12kit.enums.HeapTypeName | None = None, pool: Pool | None = None, name: str | None = None) -> Memory:
        """
        Memory to place resources in yourself, for aliasing: `size` bytes at a multiple of `alignment` (a power of two
        >= 4096) from the default pool of `heap` or from `pool`. Place resources with create_buffer(..., memory=m, offset=o);
        offsets are checked against the resource's alignment and the memory's size.
        
        Args:
            size: bytes.
            alignment: a power of two >= 4096.
            heap: a HeapType or its name; None: the default heap, or pool's.
            pool: a Pool to allocate from, or None.
            name: a debug name, or None ('memory').
        
        Returns:
            A Memory.
        
        Raises:
            InvalidArgumentError: a bad size or alignment, or a heap that differs from pool's.
            OutOfMemoryError: no memory left.
        """
    def buffer_allocation_info(self, size: typing.SupportsIndex, *, uav: bool = False) -> dict[str, int]:
        """
        Size and alignment of the buffer create_buffer makes of size bytes, without creating it (D3D12's
        GetResourceAllocationInfo of the buffer dx12kit creates: size rounded up to 256 bytes): what its .allocation
        reports, and what an offset= into Device.allocate_memory memory must be a multiple of (64 KiB: D3D12 buffers
        take 64 KiB alignment). The heap does not change the answer.
        
        Args:
            size: bytes (> 0, at most 1 TiB).
            uav: allow unordered access.
        
        Returns:
            A dict: size (bytes) and alignment (bytes).
        
        Raises:
            TypeError: an argument of the wrong type.
            InvalidArgumentError: a zero size or one over 1 TiB (as create_buffer).
        """
    def close(self) -> None:
        """
        Waits for all the device's work to finish, then frees what the device holds itself (idle upload pages, empty
        memory blocks, built-in pipelines). Any later use of the device or of its queues, command lists, resources and
        pipelines raises DeviceClosedError (a UseAfterFreeError); their memory is freed as they are dropped. Closing
        twice is fine. `with dx12kit.Device() as dev:` closes at the end of the block.
        
        Raises:
            ForkedDeviceError: a device of the parent used in a forked child.
        """
    def create_buffer(self, size: typing.SupportsIndex | None = None, *, uav: bool = False, name: str | None = None, heap: dx12kit.enums.HeapType | dx12kit.enums.HeapTypeName | None = None, pool: Pool | None = None, committed: bool = False, within_budget: bool = False, memory: Memory | None = None, offset: typing.SupportsIndex = 0, data: numpy.ndarray | bytes | bytearray | memoryview | None = None) -> Buffer:
        """
        A buffer of `size` bytes (> 0), reading as zeros, or holding `data` (a numpy array or other buffer-protocol object,
        its bytes at offset 0, the rest zeros; size None takes data's byte count). The data is written in queue order on the
        direct queue, as CommandQueue.write_buffer does: every later execute, on any queue, sees it. uav=True allows
        unordered access. heap: 'default' (GPU memory),
        'upload' / 'readback' (CPU-visible, persistently mapped: Buffer.map), 'custom' (CPU-visible device memory on a
        cache-coherent UMA adapter); None (the default): 'default', or the heap of pool= / memory=, which a heap named
        with them must match (InvalidArgumentError otherwise). pool: a dx12kit.Pool to allocate from. committed=True gives the buffer its own
        memory; within_budget=True raises OutOfMemoryError rather than exceed the device's memory budget.
        memory=, offset=: place the buffer at `offset` of a dx12kit.Memory (Device.allocate_memory), where other
        resources may alias it; its contents are then undefined until written.
        
        Args:
            size: bytes (> 0); None (only with data) for data's byte count.
            uav: allow unordered access (UAVs, clear_unordered_access_view).
            name: debug name (repr, D3D12 SetName).
            heap: a HeapType or its name: 'default', 'upload', 'readback' or 'custom'; None as described above.
            pool: a dx12kit.Pool to allocate from.
            committed: give the buffer memory of its own.
            within_budget: raise rather than exceed the device's memory budget.
            memory: a dx12kit.Memory to place the buffer in.
            offset: byte offset in memory.
            data: initial contents (buffer protocol, C-contiguous), at most size bytes; None for zeros.
        
        Returns:
            The new Buffer.
        
        Raises:
            TypeError: an argument of the wrong type.
            InvalidArgumentError: size 0, a heap that differs from pool's or memory's, conflicting placement arguments,
                an offset that is misaligned or outside memory, data larger than size or empty.
            OutOfMemoryError: within_budget=True and the buffer would exceed the budget, or no memory left.
        """
    def create_bundle(self, *, pipeline: typing.Any = None, name: typing.Any = None) -> Bundle:
        """
        A new bundle to record (D3D12: a command list of type BUNDLE): record draw-time calls on it, close() it, then run it
        with CommandList.execute_bundle from direct lists, as often as needed (docs/guides/bundles.rst).
        
        Args:
            pipeline: the bundle's initial pipeline state (CreateCommandList's pInitialState), or None: a bundle does not
                inherit the calling list's pipeline, so it draws with this one or one it sets.
            name: debug name (default 'bundle').
        
        Returns:
            A Bundle, open for recording.
        
        Raises:
            TypeError: pipeline is not a PipelineState.
            InvalidArgumentError: a pipeline of another device.
        """
    def create_command_signature(self, arguments: typing.Any, *, byte_stride: typing.SupportsIndex, root_signature: typing.Any = None, name: str | None = None) -> CommandSignature:
        """
        A command signature for CommandList.execute_indirect (ID3D12Device::CreateCommandSignature).
        
        D3D12's rules are checked: exactly one draw, draw_indexed or dispatch argument, last; byte_stride a multiple of 4
        and at least the arguments' bytes; root_signature given exactly when an argument changes root arguments
        (constant, constant_buffer_view, shader_resource_view, unordered_access_view), each naming a parameter of that
        kind; no vertex or index buffer views in a dispatch signature. On vkd3d 1.2 only signatures of the draw,
        draw_indexed or dispatch argument alone run right (the others are ignored there): the others are refused
        (docs/guides/shader-gaps.rst).
        
        Args:
            arguments: a list of IndirectArgument, ending with IndirectArgument.draw(), draw_indexed() or dispatch().
            byte_stride: the bytes from one command to the next in the argument buffer.
            root_signature: the RootSignature the root-argument changes apply to, or None when there are none.
            name: debug name (default: '<draw kind> signature').
        
        Returns:
            A CommandSignature.
        
        Raises:
            InvalidArgumentError: a rule above broken, or a signature this device would not run right.
            TypeError: arguments that are not IndirectArgument, a root_signature that is not a RootSignature.
        """
    def create_compute_pipeline(self, cs: typing.Any, root_signature: RootSignature | None = None, *, name: str | None = None) -> PipelineState:
        """
        A compute pipeline from compute-shader bytecode (DXBC: bytes, a Shader or anything with the buffer protocol)
        and the root signature it runs with. name: debug name (repr, D3D12 SetName).
        
        Args:
            cs: compute-shader bytecode (DXBC).
            root_signature: the RootSignature the shader runs with, or None (the default): one derived from the shader's
                reflection (docs/guides/binding.rst has the layout; PipelineState.root_signature shows it). Bind by name
                with CommandList.bind.
            name: debug name (repr, D3D12 SetName).
        
        Returns:
            The new PipelineState.
        
        Raises:
            TypeError: bytecode without the buffer protocol, or root_signature not a RootSignature.
            InvalidArgumentError: bytecode that is not valid DXBC, or bindings the root signature lacks.
        """
    def create_graphics_pipeline(self, vs: typing.Any, ps: typing.Any, root_signature: RootSignature | None = None, rtv_formats: Format | dx12kit.enums.FormatName | collections.abc.Sequence[Format | dx12kit.enums.FormatName] | None = None, dsv_format: Format | dx12kit.enums.FormatName | None = None, input_layout: typing.Any = None, topology: dx12kit.enums.Topology | dx12kit.enums.TopologyName = 'triangle', cull: dx12kit.enums.CullMode | dx12kit.enums.CullModeName | None = None, blend: dx12kit.enums.BlendMode | BlendState | collections.abc.Sequence[BlendState | dx12kit.enums.BlendMode | str | None] | None = None, depth_test: bool | None = None, depth_write: bool | None = None, stencil_func: dx12kit.enums.ComparisonFunc | dx12kit.enums.ComparisonFuncName | None = None, stencil_pass_op: dx12kit.enums.StencilOp | dx12kit.enums.StencilOpName | None = None, *, name: str | None = None, sample_count: typing.SupportsIndex = 1, gs: typing.Any = None, hs: typing.Any = None, ds: typing.Any = None, rasterizer: RasterizerState | None = None, depth_stencil: DepthStencilState | None = None, alpha_to_coverage: bool = False, sample_mask: typing.SupportsIndex = 4294967295) -> PipelineState:
        """
        A graphics pipeline (D3D12_GRAPHICS_PIPELINE_STATE_DESC).
        
        Args:
            vs, ps: vertex and pixel shader bytecode (ps may be None).
            root_signature: the RootSignature it runs with; every stage's bindings are checked against it. None (the
                default): one derived from the stages' reflection (docs/guides/binding.rst; PipelineState.root_signature).
            rtv_formats: a format or a list of formats (dx12kit.Format or names such as 'rgba8_unorm'); required (give it
                by keyword when root_signature is left out).
            dsv_format: depth-stencil format, or None.
            input_layout: a list of dx12kit.InputElement (per-vertex or per-instance data), or of tuples
                (semantic, dx12kit.VertexFormat, slot, offset, semantic_index) (the last three optional).
            topology: dx12kit.Topology ('triangle', 'line_strip', 'triangle_list_adj', 'patch_list_4', ...).
            cull: dx12kit.CullMode (default 'none'); or give rasterizer=.
            blend: a dx12kit.BlendMode preset, a dx12kit.BlendState, or a list of them (None items: no blending), one per
                render target (independent blend). None: no blending.
            depth_test, depth_write: depth state (default off / on; depth_test needs dsv_format); or give depth_stencil=.
            stencil_func: a dx12kit.ComparisonFunc (None: no stencil test) comparing CommandList.set_stencil_ref's value
                with the stencil plane, both faces alike; needs a dsv_format with stencil (d24_unorm_s8_uint,
                d32_float_s8x24_uint). stencil_pass_op: a dx12kit.StencilOp where depth and stencil pass (default 'keep').
            name: debug name (repr, D3D12 SetName).
            sample_count: samples per pixel of the targets it draws into (1, or an MSAA count every target format
                supports; others raise InvalidArgumentError listing the supported ones). A draw raises when the bound
                targets' sample count differs.
            gs: geometry shader bytecode (its input primitive must match the topology).
            hs, ds: hull and domain shader bytecode, together (tessellation), with topology 'patch_list_<n>' where n is
                the hull shader's input control points.
            rasterizer: a dx12kit.RasterizerState (fill, cull, winding, depth bias, depth clip).
            depth_stencil: a dx12kit.DepthStencilState (depth function, stencil per face, masks).
            alpha_to_coverage: AlphaToCoverageEnable (MSAA: coverage from the pixel shader's alpha).
            sample_mask: which samples may be written (SampleMask; default all). Bit k keeps sample k; at sample_count=1
                only bit 0 counts (clear: the draw writes no colour, depth or stencil).
        
        Returns:
            A PipelineState.
        
        Raises:
            TypeError: an argument of the wrong type.
            InvalidArgumentError: bytecode that is not valid DXBC or of the wrong stage, bindings the root signature lacks,
                stages whose signatures do not link, an input_layout that does not give the vertex shader's inputs (a missing
                semantic, float against uint/int, a duplicate or digit-ended semantic, an offset not aligned to min(4, component
                size)), a render target with a non-zero write_mask the pixel shader does not write or writes with another
                component type, src1_* blend factors without an SV_Target1 output, states D3D12 forbids, a state given twice
                (cull= with rasterizer=, depth_test=, depth_write=, stencil_func= or stencil_pass_op= with depth_stencil=), or what the backend does not implement
                (vkd3d 1.2: logic_op, conservative, antialiased_lines, multisample, forced_sample_count), naming the field.
        """
    def create_pool(self, *, heap: dx12kit.enums.HeapType | dx12kit.enums.HeapTypeName = 'default', block_size: typing.Any = None, min_blocks: typing.SupportsIndex = 0, max_blocks: typing.SupportsIndex = 0, algorithm: dx12kit.enums.PoolAlgorithm | dx12kit.enums.PoolAlgorithmName = 'tlsf', name: str | None = None) -> Pool:
        """
        A custom pool. block_size: bytes of each block (a multiple of 65536; None grows blocks as the default pools do);
        min_blocks created up front and kept; max_blocks the limit (0 = none; at the limit allocation raises
        OutOfMemoryError); algorithm 'tlsf' (general) or 'linear' (offsets only grow; a block restarts at 0 when empty).
        
        Args:
            heap: a HeapType or its name.
            block_size: bytes per block (a multiple of 65536), or None.
            min_blocks: blocks made at once and kept.
            max_blocks: the block limit (0: none).
            algorithm: a PoolAlgorithm or its name.
            name: the pool's name, or None.
        
        Returns:
            A Pool.
        
        Raises:
            InvalidArgumentError: a block size that is not a multiple of 65536, or min_blocks > max_blocks.
        """
    def create_query_heap(self, kind: dx12kit.enums.QueryHeapKind | dx12kit.enums.QueryHeapKindName, count: typing.SupportsIndex, *, name: str | None = None) -> QueryHeap:
        """
        A heap of `count` queries of one kind (ID3D12Device::CreateQueryHeap).
        
        Args:
            kind: 'occlusion' (holds 'occlusion' and 'binary_occlusion' queries; 'binary_occlusion' names the same kind),
                'timestamp' (direct and compute lists), 'pipeline_statistics', or 'copy_queue_timestamp' (copy lists'
                timestamps; refused on vkd3d 1.2, which cannot create that heap).
            count: how many queries (at least 1).
            name: debug name (default: '<kind> queries').
        
        Returns:
            A QueryHeap.
        
        Raises:
            InvalidArgumentError: count 0, an unknown kind, or a kind this device cannot create.
        """
    def create_root_signature(self, parameters_or_text: typing.Any, static_samplers: collections.abc.Sequence[StaticSamplerDesc] = [], *, flags: RootSignatureFlags | int | None = None, name: str | None = None) -> RootSignature:
        """
        A root signature from a list of root parameters (RootConstants, RootCBV, RootSRV, RootUAV, DescriptorTable) or from
        text in the HLSL root-signature language (as in [RootSignature(...)]; see dx12kit.rootsig). static_samplers are
        added to the text's. flags: dx12kit.RootSignatureFlags or an int (default: ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT for
        parameter lists, the text's RootFlags for text); flags vkd3d 1.2 cannot honour raise, naming them. name: debug name (repr, D3D12 SetName).
        
        Args:
            parameters_or_text: a list of root parameters, or root-signature text.
            static_samplers: StaticSamplerDesc objects (made by StaticSampler).
            flags: RootSignatureFlags or an int, or None for the default.
            name: debug name (repr, D3D12 SetName).
        
        Returns:
            The new RootSignature.
        
        Raises:
            TypeError: parameters_or_text neither a list of root parameters nor a string.
            InvalidArgumentError: bad parameters, overlapping registers, flags vkd3d 1.2 cannot honour, or text that
                does not parse (the message shows the column).
        """
    def create_sampler(self, *, filter: dx12kit.enums.Filter | dx12kit.enums.FilterName = 'linear', address: dx12kit.enums.AddressMode | dx12kit.enums.AddressModeName = 'clamp', address_v: dx12kit.enums.AddressMode | dx12kit.enums.AddressModeName | None = None, address_w: dx12kit.enums.AddressMode | dx12kit.enums.AddressModeName | None = None, mip_lod_bias: typing.SupportsFloat | typing.SupportsIndex = 0.0, max_anisotropy: typing.SupportsIndex = 16, comparison: dx12kit.enums.ComparisonFunc | dx12kit.enums.ComparisonFuncName | None = None, border_color: dx12kit.enums.BorderColor | dx12kit.enums.BorderColorName | tuple[float, float, float, float] = 'transparent_black', min_lod: typing.SupportsFloat | typing.SupportsIndex = 0.0, max_lod: typing.SupportsFloat | typing.SupportsIndex = 3.4028234663852886e+38, name: str | None = None) -> SamplerState:
        """
        A sampler (a SamplerState, D3D12_SAMPLER_DESC) to bind in a sampler descriptor table with CommandList.set_sampler.
        The arguments are StaticSampler's, with the same names and defaults; border_color also takes four numbers.
        
        Args:
            filter: a Filter or its name ('point', 'linear', 'bilinear', 'anisotropic', 'comparison_min_mag_mip_linear', ...).
            address: an AddressMode or its name ('clamp', 'wrap', 'mirror', 'mirror_once', 'border'), for u (and v, w unless given).
            address_v: the v address mode, or None (address).
            address_w: the w address mode, or None (address).
            mip_lod_bias: added to the computed mip level, within [-16, 15.99].
            max_anisotropy: 1 to 16, the most taps of the anisotropic filters.
            comparison: a ComparisonFunc or its name, what the comparison filters (SampleCmp) compare with. None: 'less_equal'
                for a comparison filter (the default of D3D12's root-signature language), never 'never'; other filters ignore it,
                as in D3D12.
            border_color: a BorderColor or its name, or (r, g, b, a) each in [0, 1]: the colour read outside [0, 1] where an
                address mode is 'border'.
            min_lod: the most detailed mip level sampled (0 is the largest).
            max_lod: the least detailed mip level sampled (at least min_lod; the default sets no limit).
            name: a debug name, or None.
        
        Returns:
            A SamplerState; its desc gives the settings, comparison completed.
        
        Raises:
            TypeError: an argument of the wrong type.
            InvalidArgumentError: an unknown name, or what D3D12 refuses (max_anisotropy outside 1..16, mip_lod_bias outside
                [-16, 15.99], min_lod above max_lod, a border colour component outside [0, 1]), or what this device samples
                differently from D3D12 (Device.sampler_support; vkd3d 1.2: a border colour other than transparent black with a
                'border' address, 'mirror_once', the minimum and maximum filters), naming the argument.
        """
    def create_texture2d(self, width: typing.SupportsIndex | None = None, height: typing.SupportsIndex | None = None, format: Format | dx12kit.enums.FormatName | None = None, *, mip_levels: typing.SupportsIndex = 1, array_size: typing.SupportsIndex = 1, render_target: bool = False, depth_stencil: bool = False, uav: bool = False, name: str | None = None, heap: dx12kit.enums.HeapType | dx12kit.enums.HeapTypeName | None = None, pool: Pool | None = None, committed: bool = False, within_budget: bool = False, memory: Memory | None = None, offset: typing.SupportsIndex = 0, sample_count: typing.SupportsIndex = 1, data: numpy.ndarray | None = None) -> Texture:
        """
        A 2D texture, reading as zeros (render targets and depth buffers start cleared to 0). mip_levels=0 means a
        full chain. pool, committed, within_budget, memory, offset: as for create_buffer.
        data: a numpy array uploaded into mip 0 (of every slice), in queue order on the direct queue: (H, W), (H, W, C), or
        (N, H, W, C) for N array slices, of the dtype read_texture gives for the format (uint8 for rgba8_unorm, float32 for
        rgba32_float...). width, height and array_size default to data's; format None picks one from data's dtype and
        channels (1, 2 or 4: uint8 -> r8/rg8/rgba8_unorm, uint16 -> r16/rg16/rgba16_unorm, float16 -> r16/rg16/rgba16_float,
        float32 -> r32/rg32/rgba32_float, uint32 -> r32/rg32/rgba32_uint, int32 -> r32/rg32/rgba32_sint), else rgba8_unorm.
        Other mips stay zero (generate_mips, write_texture).
        sample_count > 1 makes a multisampled (MSAA) render target or depth buffer: one mip, no UAV, a count the
        device supports for the format (Device.format_support(format).msaa; others raise InvalidArgumentError
        listing them). MSAA textures are placed like others, in heaps of 4 MiB alignment (D3D12's rule for MSAA heaps);
        with memory=, offset must be a multiple of the texture's alignment (texture_allocation_info's: 4 MiB,
        or 64 KiB where the device grants small MSAA alignment). Read them in shaders as Texture2DMS, and resolve
        them (CommandList.resolve) before read_texture.
        
        Args:
            width: texels (> 0); None (only with data) for data's.
            height: texels (> 0); None (only with data) for data's.
            format: a Format or its name; None for rgba8_unorm, or with data the format of its dtype and channels.
            mip_levels: mips, or 0 for a full chain.
            array_size: array slices.
            render_target: allow use as a render target.
            depth_stencil: allow use as a depth-stencil buffer (a depth format).
            uav: allow unordered access.
            name: debug name (repr, D3D12 SetName).
            heap, pool, committed, within_budget, memory, offset: placement, as for create_buffer.
            sample_count: samples per pixel (1, or an MSAA count the device supports for the format).
            data: initial contents of mip 0, or None for zeros.
        
        Returns:
            The new Texture.
        
        Raises:
            TypeError: an argument of the wrong type; data of a dtype other than the format's.
            InvalidArgumentError: a zero size, a format or usage the device does not support, an unsupported
                sample count, bad placement arguments; data of a shape that disagrees with width, height or array_size.
            OutOfMemoryError: within_budget=True and the texture would exceed the budget, or no memory left.
        """
    def create_texture3d(self, width: typing.SupportsIndex, height: typing.SupportsIndex, depth: typing.SupportsIndex, format: Format | dx12kit.enums.FormatName, *, mip_levels: typing.SupportsIndex = 1, uav: bool = False, render_target: bool = False, name: str | None = None, heap: dx12kit.enums.HeapType | dx12kit.enums.HeapTypeName | None = None, pool: Pool | None = None, committed: bool = False, within_budget: bool = False, memory: Memory | None = None, offset: typing.SupportsIndex = 0) -> Texture:
        """
        A 3D (volume) texture of width x height x depth texels, reading as zeros. Views: Texture3D (shader resource),
        RWTexture3D (uav=True, every depth slice of a mip); as a render target (render_target=True) a mip's view covers
        all its depth slices: clear_render_target clears them all, a draw writes the slice its SV_RenderTargetArrayIndex
        names. Each mip is one subresource: upload takes and read_texture returns an array of shape (depth, height,
        width, channels).
        
        Args:
            width, height, depth: texels (1..2048 each).
            format: a dx12kit.Format or its name; the device must support it for 3D textures
                (format_support(format).texture3d), and for uav=True typed UAVs (never sRGB).
            mip_levels: 0 for the full chain (each mip halves width, height and depth).
            uav, render_target: allowed uses.
            name, heap, pool, committed, within_budget, memory, offset: as for create_texture2d.
        
        Raises:
            InvalidArgumentError: a size, format or use the device does not allow (the message says which).
        """
    def create_texture_cube(self, size: typing.SupportsIndex, format: Format | dx12kit.enums.FormatName, *, mip_levels: typing.SupportsIndex = 1, uav: bool = False, render_target: bool = False, name: str | None = None, heap: dx12kit.enums.HeapType | dx12kit.enums.HeapTypeName | None = None, pool: Pool | None = None, committed: bool = False, within_budget: bool = False, memory: Memory | None = None, offset: typing.SupportsIndex = 0) -> Texture:
        """
        A cube texture: 6 square faces of size x size texels, in D3D12's order +X, -X, +Y, -Y, +Z, -Z (+Y up), reading as
        zeros. Shader resource views (set_shader_resource_view) are TextureCube, sampled with a direction vector; its
        unordered access view (uav=True) and render target views are those of the 2D array of faces
        (RWTexture2DArray, slice = face). Faces upload and read back as array slices: upload(cube, data, mip,
        array_slice=face), read_texture(cube, mip, array_slice=face).
        
        Args:
            size: texels per face side (1..16384).
            format: a dx12kit.Format or its name; the device must support it for cube textures
                (format_support(format).texture_cube), and for uav=True typed UAVs (never sRGB).
            mip_levels: 0 for the full chain.
            uav, render_target: allowed uses.
            name, heap, pool, committed, within_budget, memory, offset: as for create_texture2d.
        
        Raises:
            InvalidArgumentError: a size, format or use the device does not allow (the message says which).
        """
    def defragment(self, *, pool: Pool | None = None, algorithm: dx12kit.enums.DefragAlgorithm | dx12kit.enums.DefragAlgorithmName = 'full', max_bytes: typing.Any = None, max_moves: typing.Any = None, progress: bool | collections.abc.Callable[[int, int], typing.Any] | None = None) -> dict[str, typing.Any]:
        """
        Moves placed resources so that memory blocks empty and are released, doing every step itself: new placement,
        GPU copies (on the copy queue when every source is in COMMON), the same Python objects re-pointed (their cached
        views and the CPU descriptors handed out describe the moved resource), old memory freed after the copy.
        With pool=None it covers every default pool of the device that places movable resources: the 'default' heap's
        and, on a cache-coherent UMA adapter, the 'custom' heap's (where a plain Device() keeps its buffers: uma_direct).
        algorithm (a dx12kit.DefragAlgorithm): 'fast' (empty the least-used blocks into fuller ones), 'balanced' (also
        move small allocations down within blocks), 'full' (every allocation to the lowest free range). max_bytes /
        max_moves bound one incremental pass (for a frame loop; no wait); without them passes run until nothing moves,
        then empty blocks are released. What moves is GPU memory as you see it: resources created with heap='default'
        (uma_direct buffers included; dx12kit orders its own CPU reads and writes of them after the copy). Never moved:
        CPU-visible memory you may hold pointers into (heap='custom', 'upload', 'readback'), resources used by a
        command list still being recorded, committed resources, memory= placements. A buffer's gpu_address changes
        when it moves.
        
        Args:
            pool: a 'default'-heap Pool, or None for the device's default pools.
            algorithm: a DefragAlgorithm or its name.
            max_bytes: bytes one pass may move (summed over the pools), or None.
            max_moves: moves one pass may make (summed over the pools), or None.
            progress: None (a bar when stderr is a terminal, for a full run only), False, True (a bar), or a
                callable(done, total) called once per moved allocation after its pass's copies completed (incremental: were
                submitted), total being the moves planned so far (it grows as passes find more).
        
        Returns:
            A dict: moves, bytes_moved, blocks_freed, passes, seconds (summed over the pools).
        
        Raises:
            InvalidArgumentError: a pool of the 'custom', 'upload' or 'readback' heap, a linear pool, a pool of another device,
                a bad algorithm or a max_bytes / max_moves below 1.
            TypeError: pool is not a Pool or None, max_bytes / max_moves not an int, progress none of None, a bool or a callable.
        """
    def descriptor_stats(self) -> dict[str, typing.Any]:
        """
        Per heap type: in_use, pages, peak, stale, capacity; shader_visible: static/dynamic use for CBV_SRV_UAV and SAMPLER.
        """
    def format_support(self, format: Format | dx12kit.enums.FormatName) -> FormatSupport:
        """
        What this device supports for `format` (queried once per format and cached): a FormatSupport.
        
        Args:
            format: a Format or its name.
        
        Returns:
            A FormatSupport.
        
        Raises:
            InvalidArgumentError: a format dx12kit does not know.
        """
    def load_texture(self, path_or_array: str | os.PathLike[str] | numpy.ndarray, *, srgb: bool = False, generate_mips: bool = True, name: str | None = None, progress: bool | collections.abc.Callable[[int, int], typing.Any] | None = None) -> Texture:
        """
        A texture from an image file (PNG, JPEG, BMP, TGA, read by Pillow; DDS, read by dx12kit.dds) or a numpy array,
        uploaded and ready to sample.
        
        Formats: uint8 arrays and 8-bit images give r8_unorm (1 channel), rg8_unorm (2) or rgba8_unorm (3, 4; RGB gets
        alpha 255); uint16 give r16_unorm / rg16_unorm / rgba16_unorm (alpha 65535); float16 give r16_float / rg16_float /
        rgba16_float and float32 r32_float / rg32_float / rgba32_float (alpha 1.0). Arrays are (H, W) or (H, W, 1..4).
        srgb=True picks rgba8_unorm_srgb (8-bit data only; 1- and 2-channel 8-bit data is expanded to RGBA: there are no
        one- or two-channel sRGB formats). generate_mips=True gives the full mip chain, built on the GPU by
        CommandList.generate_mips. The upload has completed when the call returns.
        
        16-bit PNGs (grey, grey+alpha, RGB, RGBA) keep their 16 bits. DDS files keep their format (DX10 header or legacy
        FourCC/masks; BC1-BC7 included), mips, array slices, cube faces (a cube texture) and volume (a 3D texture);
        srgb=True picks the format's sRGB member, generate_mips applies to single-mip uncompressed 2D files only. Files are cached per device, resolved path and
        content (SHA-256 of the bytes; and srgb / generate_mips): loading the same unchanged file again returns the same
        Texture object while it is alive (a weak cache; thread-safe). name: debug name (default: the file name, or
        'texture' for arrays).
        
        Args:
            path_or_array: an image file's path (str, os.PathLike) or a numpy array.
            srgb: make an rgba8_unorm_srgb texture (8-bit data only).
            generate_mips: build the full mip chain on the GPU.
            name: a debug name, or None.
            progress: None (a bar when stderr is a terminal and the image has 2**20 texels or more), False, True (a bar),
                or a callable(done, total) called after decoding (1, 3), the upload (2, 3) and the mips (3, 3) (total 2
                without mips); DDS files report nothing.
        
        Returns:
            The Texture, uploaded.
        
        Raises:
            FileNotFoundError: no such file.
            InvalidArgumentError: a file that cannot be read or is not a PNG, JPEG, BMP or TGA image (the message names
                the file); a DDS file with a feature load_texture does not read (named); an array of a wrong shape;
                srgb=True for data that is not 8-bit (or a DDS format without an sRGB form).
            TypeError: path_or_array is neither a path (str, os.PathLike) nor a numpy array, or an unsupported dtype.
        """
    def memory_budget(self) -> dict[str, typing.Any]:
        """
        {'local': {...}, 'non_local': {...}} with budget_bytes, usage_bytes, block_bytes, allocation_bytes. usage is
        dx12kit's own bookkeeping (vkd3d reports no budget); on a UMA adapter everything is local.
        """
    def memory_json(self, detailed: bool = True) -> str:
        """
        The memory layout as JSON (in the spirit of D3D12MA's BuildStatsString): General, Total, MemoryInfo, HeapTypes,
        DefaultPools and CustomPools; with detailed=True every block lists its suballocations (offset, type, size, flags,
        name) and free ranges in address order. dx12kit.memory.heap_map draws it.
        
        Args:
            detailed: list[typing.Any] every block's suballocations and free ranges.
        
        Returns:
            A JSON string.
        """
    def memory_stats(self) -> dict[str, typing.Any]:
        """
        GPU memory statistics: {'total': {...}, 'heap_types': {'default', 'upload', 'readback', 'custom'}}, each with
        block_count, block_bytes, allocation_count, allocation_bytes, unused_range_count, allocation_size_min/max,
        unused_range_size_min/max. A committed resource counts as a block holding one allocation. Memory of dropped
        resources is counted until the GPU work that used it has completed.
        """
    def poll(self) -> int:
        """
        Releases completed work; returns the completed submission serial.
        """
    def queue(self, kind: dx12kit.enums.QueueKind | dx12kit.enums.QueueKindName = 'direct') -> CommandQueue:
        """
        The device's queue of `kind`: 'direct', 'compute' or 'copy'.
        
        Args:
            kind: a QueueKind or its name: 'direct', 'compute' or 'copy'.
        
        Returns:
            The device's CommandQueue of that kind (the same object on every call).
        
        Raises:
            InvalidArgumentError: an unknown kind (the message lists the choices).
        """
    def stats(self) -> dict[str, typing.Any]:
        """
        Statistics as a plain dict: upload pages, barriers (aliasing: every aliasing barrier, of which aliasing_automatic the
        state tracker recorded by itself and aliasing_explicit CommandList.aliasing_barrier), descriptors, live resources, memory (as memory_stats()),
        zero_init (new resources zeroed before first use, and the bytes copied for it), mips (CommandList.generate_mips calls by
        route: in_place, staged (UAV-capable copy), aliased (rgba8_unorm alias in the same memory); and its dispatches),
        submissions (executes: ExecuteCommandLists calls, dx12kit's own included; signals: fence signals, fewer with
        lazy_fence_signals while work is in flight; overlapping_signals: signals issued while an earlier one of the same
        queue was still pending, the case in which vkd3d 1.2 can lose a value; reissued_signals: signals issued again by the
        stall cure), submissions_per_queue ('direct', 'compute', 'copy': each queue's share of those four counts),
        uma_writes (uploads into CPU-visible 'default' buffers, Device.uma_direct:
        cpu: written by the CPU at execute; gpu: copied on the GPU before their list because the buffer was still in use).
        """
    def texture_allocation_info(self, width: typing.SupportsIndex, height: typing.SupportsIndex, format: Format | dx12kit.enums.FormatName, *, mip_levels: typing.SupportsIndex = 1, array_size: typing.SupportsIndex = 1, sample_count: typing.SupportsIndex = 1, render_target: bool = False, depth_stencil: bool = False, uav: bool = False) -> dict[str, int]:
        """
        Size and alignment of the texture create_texture2d makes of these arguments, without creating it (D3D12's
        GetResourceAllocationInfo, answered as dx12kit places the texture): what its .allocation reports, and what
        an offset= into Device.allocate_memory memory must be a multiple of. Small textures that are not render
        targets or depth buffers get 4 KiB alignment when the device grants it; other textures 64 KiB; multisampled
        ones 4 MiB, or 64 KiB where the device grants small MSAA alignment. To place textures back to back, round each
        offset up to the next texture's alignment and add its size; allocate the memory with the largest alignment.
        The arguments are checked as create_texture2d checks them, with the same errors.
        
        Args:
            width: texels (> 0).
            height: texels (> 0).
            format: a Format or its name.
            mip_levels: mips, or 0 for a full chain.
            array_size: array slices.
            sample_count: samples per pixel (1, or an MSAA count the device supports for the format).
            render_target: allow use as a render target.
            depth_stencil: allow use as a depth-stencil buffer (a depth format).
            uav: allow unordered access.
        
        Returns:
            A dict: size (bytes) and alignment (bytes).
        
        Raises:
            TypeError: an argument of the wrong type.
            InvalidArgumentError: a zero size, a format or usage the device does not support, an unsupported sample
                count (as create_texture2d).
        """
    def trim_memory(self) -> None:
        """
        Destroys the idle upload pages (free pages and cached large pages; those of lists in flight stay), then
        releases, now, every empty memory block above each pool's min_blocks (they are otherwise released after a
        grace period, so per-frame allocate/free patterns do not create and destroy heaps).
        """
    def validate_memory(self) -> None:
        """
        Checks every pool's invariants and the budget's bookkeeping; raises Dx12Error naming a broken one.
        """
    def wait_idle(self) -> None:
        """
        Waits until every queue is idle.
        """
    @property
    def closed(self) -> bool:
        """
        True once close() was called (any later use raises DeviceClosedError).
        """
    @property
    def info(self) -> dict[str, typing.Any]:
        """
        backend ('vkd3d' or 'd3d12'), adapter, feature_level ('11_0'...), resource_binding_tier, resource_heap_tier.
        """
    @property
    def lazy_fence_signals(self) -> bool:
        """
        Whether lazy fence signals are in effect (asked for, and the backend is vkd3d; Windows signals every execute).
        """
    @property
    def query_support(self) -> dict[str, typing.Any]:
        """
        Which query and predication behaviours this device has as D3D12 says (False: dx12kit makes up for it or refuses;
        docs/guides/shader-gaps.rst). binary_occlusion_01: binary occlusion resolves to 0/1 (vkd3d 1.2 resolves sample counts:
        dx12kit adds a built-in pass); predicate64: predicates are 64-bit (vkd3d 1.2 reads 32 bits: dx12kit predicates on a 0/1
        copy); predicates_copies_and_clears: copies, clears and resolves are predicated (vkd3d 1.2 runs them: refused while a
        predicate is set); copy_queue_timestamps: 'copy_queue_timestamp' heaps (refused on vkd3d 1.2).
        """
    @property
    def sampler_support(self) -> dict[str, typing.Any]:
        """
        Which sampler settings this device samples as D3D12 says; create_sampler and create_root_signature refuse the others
        (InvalidArgumentError) instead of returning other values. border_colors: a border colour other than transparent black
        (vkd3d 1.2 samples every border as (0, 0, 0, 0)); mirror_once: the 'mirror_once' address mode (vkd3d 1.2 wraps);
        min_max_filtering: the minimum and maximum (reduction) filters (D3D12: tiled resources tier 2; vkd3d 1.2 averages). Windows: as the
        device reports. See docs/guides/shader-gaps.rst.
        """
    @property
    def uma_direct(self) -> bool:
        """
        Whether 'default' buffers live in CPU-visible memory (uma_direct asked and the adapter is cache-coherent UMA).
        """
    @property
    def validate(self) -> bool:
        """
        True when the device checks resource states before each draw, dispatch and copy.
        """
class Pool:
    """
    A custom memory pool: heaps of one heap type with its own block size, block limits and placement
    algorithm. Create with Device.create_pool; pass as pool= to create_buffer / create_texture2d.
    """
    def __repr__(self) -> str:
        ...
    def stats(self) -> dict[str, typing.Any]:
        """
        Statistics of this pool: block_count, block_bytes, allocation_count, allocation_bytes, unused_range_count,
        allocation_size_min/max, unused_range_size_min/max (bytes).
        """
    def validate(self) -> None:
        """
        Checks the pool's invariants (no overlap, allocator consistency); raises Dx12Error naming a broken one.
        """
    @property
    def algorithm(self) -> str:
        """
        'tlsf' or 'linear' (a dx12kit.PoolAlgorithm value).
        """
    @property
    def block_count(self) -> int:
        """
        Heaps the pool holds now.
        """
    @property
    def block_size(self) -> int:
        """
        Bytes of each block (the largest new block size when the pool grows).
        """
    @property
    def heap(self) -> str:
        """
        'default', 'upload', 'readback' or 'custom'.
        """
    @property
    def max_blocks(self) -> int:
        """
        0 = no limit.
        """
    @property
    def min_blocks(self) -> int:
        """
        Blocks the pool keeps even when empty.
        """
    @property
    def name(self) -> str:
        """
        The pool's name (create_pool(name=)).
        """
class Memory:
    """
    GPU memory to place resources in yourself (aliasing): Device.allocate_memory, then create_buffer /
    create_texture2d with memory= and offset=. Resources placed in it keep it alive.
    """
    def __repr__(self) -> str:
        ...
    @property
    def allocation(self) -> dict[str, typing.Any]:
        """
        Where the memory lies (as Resource.allocation).
        """
    @property
    def heap(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def size(self) -> int:
        ...
class QueryHeap:
    """
    A heap of GPU queries (ID3D12QueryHeap). Create with Device.create_query_heap; record with
    CommandList.begin_query / end_query; read with CommandQueue.read_queries or CommandList.resolve_query_data.
    It stays alive while command lists using it are in flight.
    """
    def __repr__(self) -> str:
        ...
    @property
    def count(self) -> int:
        """
        How many queries it holds (indices 0 .. count-1).
        """
    @property
    def kind(self) -> str:
        """
        The heap's kind: 'occlusion' (holds 'occlusion' and 'binary_occlusion' queries), 'timestamp',
        'pipeline_statistics' or 'copy_queue_timestamp'.
        """
    @property
    def name(self) -> str:
        """
        Debug name, shown by repr and in error messages.
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
class IndirectArgument:
    """
    One argument of each command in an ExecuteIndirect argument buffer (D3D12_INDIRECT_ARGUMENT_DESC). Make them
    with the static methods (IndirectArgument.draw(), .constant(0, 0, 4), ...) and pass a list to
    Device.create_command_signature; the list ends with the one draw, draw_indexed or dispatch argument.
    """
    @staticmethod
    def constant(root_index: typing.SupportsIndex, dest_offset: typing.SupportsIndex, count: typing.SupportsIndex) -> IndirectArgument:
        """
        Sets `count` root constants of root parameter `root_index` from `dest_offset`: 4 bytes each. Refused on vkd3d 1.2,
        which ignores it.
        
        Args:
            root_index: a root-constants parameter of the signature's root signature.
            dest_offset: the first constant set (in 32-bit values).
            count: how many constants (at least 1).
        """
    @staticmethod
    def constant_buffer_view(root_index: typing.SupportsIndex) -> IndirectArgument:
        """
        Changes root CBV `root_index` to a GPU virtual address: 8 bytes. Refused on vkd3d 1.2, which ignores it.
        
        Args:
            root_index: a root CBV parameter of the signature's root signature.
        """
    @staticmethod
    def dispatch() -> IndirectArgument:
        """
        A dispatch: 12 bytes (x, y, z thread-group counts as uint32; D3D12_DISPATCH_ARGUMENTS).
        """
    @staticmethod
    def draw() -> IndirectArgument:
        """
        A draw: 16 bytes (vertex_count, instance_count, start_vertex, start_instance as uint32; D3D12_DRAW_ARGUMENTS).
        """
    @staticmethod
    def draw_indexed() -> IndirectArgument:
        """
        An indexed draw: 20 bytes (index_count, instance_count, start_index as uint32, base_vertex as int32,
        start_instance as uint32; D3D12_DRAW_INDEXED_ARGUMENTS).
        """
    @staticmethod
    def index_buffer_view() -> IndirectArgument:
        """
        Changes the index buffer: 16 bytes (D3D12_INDEX_BUFFER_VIEW). Refused on vkd3d 1.2, which ignores it.
        """
    @staticmethod
    def shader_resource_view(root_index: typing.SupportsIndex) -> IndirectArgument:
        """
        Changes root SRV `root_index` to a GPU virtual address: 8 bytes. Refused on vkd3d 1.2, which ignores it.
        
        Args:
            root_index: a root SRV parameter of the signature's root signature.
        """
    @staticmethod
    def unordered_access_view(root_index: typing.SupportsIndex) -> IndirectArgument:
        """
        Changes root UAV `root_index` to a GPU virtual address: 8 bytes. Refused on vkd3d 1.2, which ignores it.
        
        Args:
            root_index: a root UAV parameter of the signature's root signature.
        """
    @staticmethod
    def vertex_buffer_view(slot: typing.SupportsIndex) -> IndirectArgument:
        """
        Changes the vertex buffer of input slot `slot`: 16 bytes (D3D12_VERTEX_BUFFER_VIEW). Refused on vkd3d 1.2, which
        ignores it.
        
        Args:
            slot: the input slot (0..31).
        """
    def __eq__(self, arg0: typing.Any) -> bool:
        ...
    def __hash__(self) -> int:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def byte_size(self) -> int:
        """
        The bytes it takes in each command.
        """
    @property
    def kind(self) -> str:
        """
        'draw', 'draw_indexed', 'dispatch', 'vertex_buffer_view', 'index_buffer_view', 'constant',
        'constant_buffer_view', 'shader_resource_view' or 'unordered_access_view'.
        """
class CommandSignature:
    """
    What each command of an ExecuteIndirect argument buffer holds (ID3D12CommandSignature). Create with
    Device.create_command_signature; run with CommandList.execute_indirect. It stays alive while command lists using
    it are in flight.
    """
    def __repr__(self) -> str:
        ...
    @property
    def argument_bytes(self) -> int:
        """
        The bytes one command's arguments take (<= byte_stride).
        """
    @property
    def arguments(self) -> list[typing.Any]:
        """
        The IndirectArgument list it was created with.
        """
    @property
    def byte_stride(self) -> int:
        """
        The bytes from one command to the next.
        """
    @property
    def is_compute(self) -> bool:
        """
        True for a dispatch signature (runs with a compute pipeline).
        """
    @property
    def name(self) -> str:
        """
        Debug name, shown by repr and in error messages.
        """
    @name.setter
    def name(self, arg1: str) -> None:
        ...
class Bundle:
    """
    A bundle: draw-time calls recorded once (device.create_bundle()), closed, then executed any number of times from
    direct command lists (CommandList.execute_bundle), in this frame and later ones.
    
    D3D12's bundle rules hold: a bundle records no barrier, clear, copy, resolve, render-target, viewport, scissor,
    predication or query call and no execute_bundle (those methods raise InvalidArgumentError naming the rule; see
    Bundle.refused_calls()). A bundle inherits the calling list's state except the pipeline: render targets,
    viewports, vertex/index buffers, and root arguments while the bundle sets the calling list's root signature
    (set_pipeline_state with a pipeline of the same root signature). What it sets stays set in the calling list.
    vkd3d 1.2 has no working ExecuteBundle, so dx12kit replays the recorded calls into the calling list, whose state
    tracker puts what the bundle's draws use in their states (docs/guides/bundles.rst).
    """
    @staticmethod
    def refused_calls() -> dict[str, typing.Any]:
        """
        The CommandList calls a bundle may not record, each with the D3D12 rule that says so (a dict of name -> rule).
        """
    def __repr__(self) -> str:
        ...
    def aliasing_barrier(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no resource barrier (D3D12 bundle restriction: no ResourceBarrier); the calling list's state tracker puts what the bundle's draws use in their states at execute_bundle: record barriers in the calling list.
        
        Args:
            *args, **kwargs: CommandList.aliasing_barrier's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def begin_query(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no query (D3D12 bundle restriction: no BeginQuery, EndQuery, ResolveQueryData): record queries in the calling list around execute_bundle.
        
        Args:
            *args, **kwargs: CommandList.begin_query's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def clear_depth_stencil(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no clear (D3D12 bundle restriction: no ClearRenderTargetView, ClearDepthStencilView, ClearUnorderedAccessView*): clear in the calling list before execute_bundle.
        
        Args:
            *args, **kwargs: CommandList.clear_depth_stencil's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def clear_render_target(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no clear (D3D12 bundle restriction: no ClearRenderTargetView, ClearDepthStencilView, ClearUnorderedAccessView*): clear in the calling list before execute_bundle.
        
        Args:
            *args, **kwargs: CommandList.clear_render_target's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def clear_unordered_access_view(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no clear (D3D12 bundle restriction: no ClearRenderTargetView, ClearDepthStencilView, ClearUnorderedAccessView*): clear in the calling list before execute_bundle.
        
        Args:
            *args, **kwargs: CommandList.clear_unordered_access_view's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def close(self) -> None:
        """
        Ends recording. Only a closed bundle can be executed (D3D12: ExecuteBundle needs a closed bundle); a closed bundle is
        executed as it is, any number of times, from any direct list. Closing twice does nothing.
        """
    def copy_buffer_region(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no copy (D3D12 bundle restriction: no CopyResource, CopyBufferRegion, CopyTextureRegion; uploads are copies): copy in the calling list.
        
        Args:
            *args, **kwargs: CommandList.copy_buffer_region's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def copy_from_upload(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no copy (D3D12 bundle restriction: no CopyResource, CopyBufferRegion, CopyTextureRegion; uploads are copies): copy in the calling list.
        
        Args:
            *args, **kwargs: CommandList.copy_from_upload's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def copy_resource(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no copy (D3D12 bundle restriction: no CopyResource, CopyBufferRegion, CopyTextureRegion; uploads are copies): copy in the calling list.
        
        Args:
            *args, **kwargs: CommandList.copy_resource's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def dispatch(self, x: typing.SupportsIndex, y: typing.SupportsIndex = 1, z: typing.SupportsIndex = 1) -> None:
        """
        Records CommandList.dispatch.
        
        Args:
            x, y, z: thread groups per dimension (1..65535).
        
        Raises:
            InvalidArgumentError: no compute pipeline set in the bundle, a count out of range.
            UseAfterFreeError: the bundle is closed.
        """
    def draw(self, vertex_count: typing.SupportsIndex, instance_count: typing.SupportsIndex = 1, start_vertex: typing.SupportsIndex = 0, start_instance: typing.SupportsIndex = 0) -> None:
        """
        Records CommandList.draw. Its checks against what is bound (targets, root arguments, vertex buffers) run at each
        execute_bundle, against the calling list's state.
        
        Args:
            vertex_count, instance_count, start_vertex, start_instance: DrawInstanced's arguments.
        
        Raises:
            InvalidArgumentError: no graphics pipeline set in the bundle (a bundle does not inherit the pipeline).
            UseAfterFreeError: the bundle is closed.
        """
    def draw_indexed(self, index_count: typing.SupportsIndex, instance_count: typing.SupportsIndex = 1, start_index: typing.SupportsIndex = 0, base_vertex: typing.SupportsIndex = 0, start_instance: typing.SupportsIndex = 0) -> None:
        """
        Records CommandList.draw_indexed (the index buffer may be the calling list's: bundles inherit it).
        
        Args:
            index_count, instance_count, start_index, base_vertex, start_instance: DrawIndexedInstanced's arguments.
        
        Raises:
            InvalidArgumentError: no graphics pipeline set in the bundle.
            UseAfterFreeError: the bundle is closed.
        """
    def end_query(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no query (D3D12 bundle restriction: no BeginQuery, EndQuery, ResolveQueryData): record queries in the calling list around execute_bundle.
        
        Args:
            *args, **kwargs: CommandList.end_query's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def execute_bundle(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: bundles nest one level only (D3D12: ExecuteBundle is called on a direct command list, never in a bundle): execute both bundles from the calling list.
        
        Args:
            *args, **kwargs: CommandList.execute_bundle's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def execute_indirect(self, signature: CommandSignature, max_count: typing.SupportsIndex, argument_buffer: Buffer, argument_offset: typing.SupportsIndex = 0, count_buffer: Buffer | None = None, count_offset: typing.SupportsIndex = 0, *, referenced: collections.abc.Sequence[Buffer] = ()) -> None:
        """
        Records an ExecuteIndirect (D3D12 allows it in a bundle: it is not among the bundle restrictions); it runs, when
        the bundle is executed, as CommandList.execute_indirect with the same arguments would at that point of the calling
        list, with the same checks and the same results (root CBV arguments included).
        
        D3D12's bundle rules apply: the bundle must have set a pipeline of the signature's kind (bundles do not inherit
        the pipeline), and a signature that changes root arguments needs its root signature set in the bundle (with
        set_pipeline_state). D3D12 wants the argument and count buffers in INDIRECT_ARGUMENT when the bundle runs (a bundle
        records no barrier); dx12kit's calling list puts them there. Root views the signature sets are NULL views in the
        calling list afterwards (what a bundle sets stays set).
        
        Args:
            signature, max_count, argument_buffer, argument_offset, count_buffer, count_offset, referenced: as
                CommandList.execute_indirect.
        
        Raises:
            InvalidArgumentError: now, no pipeline of the signature's kind set in the bundle, a signature whose root
                signature is not the one the bundle set, objects of another device; at execute_bundle, what
                CommandList.execute_indirect refuses (the error names the bundle and the call).
            UseAfterFreeError: the bundle is closed, or a buffer was closed.
            TypeError: arguments of the wrong type.
        """
    def generate_mips(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: generate_mips records barriers and copies, which a bundle may not (D3D12 bundle restrictions): call it on the calling list.
        
        Args:
            *args, **kwargs: CommandList.generate_mips's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def pano_to_cubemap(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: pano_to_cubemap records barriers, which a bundle may not (D3D12 bundle restrictions): call it on the calling list.
        
        Args:
            *args, **kwargs: CommandList.pano_to_cubemap's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def raw_transition(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no resource barrier (D3D12 bundle restriction: no ResourceBarrier); the calling list's state tracker puts what the bundle's draws use in their states at execute_bundle: record barriers in the calling list.
        
        Args:
            *args, **kwargs: CommandList.raw_transition's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def resolve(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no resolve (D3D12 bundle restriction: no ResolveSubresource): resolve in the calling list.
        
        Args:
            *args, **kwargs: CommandList.resolve's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def resolve_query_data(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no query (D3D12 bundle restriction: no BeginQuery, EndQuery, ResolveQueryData): record queries in the calling list around execute_bundle.
        
        Args:
            *args, **kwargs: CommandList.resolve_query_data's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def resource_barriers(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no resource barrier (D3D12 bundle restriction: no ResourceBarrier); the calling list's state tracker puts what the bundle's draws use in their states at execute_bundle: record barriers in the calling list.
        
        Args:
            *args, **kwargs: CommandList.resource_barriers's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def set_blend_factor(self, rgba: collections.abc.Sequence[typing.SupportsFloat | typing.SupportsIndex]) -> None:
        """
        Records CommandList.set_blend_factor.
        
        Args:
            rgba: 4 finite numbers.
        """
    def set_constant_buffer_view(self, root_index: typing.SupportsIndex, descriptor_offset: typing.SupportsIndex, buffer: Buffer, offset: typing.SupportsIndex = 0, size: typing.SupportsIndex | None = None) -> None:
        """
        Records CommandList.set_constant_buffer_view.
        
        Args:
            root_index: a DescriptorTable parameter of the root signature set in the bundle.
            descriptor_offset: the slot in that table.
            buffer: the Buffer viewed.
            offset, size: as CommandList.set_constant_buffer_view.
        
        Raises:
            InvalidArgumentError: no pipeline set in the bundle yet, not a table parameter.
        """
    def set_constants(self, root_index: typing.SupportsIndex, values: typing.Any, offset: typing.SupportsIndex = 0) -> None:
        """
        Records CommandList.set_constants (the values are copied now).
        
        Args:
            root_index: a root-constants parameter of the root signature of the pipeline set in the bundle.
            values: 32-bit values, as CommandList.set_constants takes them.
            offset: the first constant written.
        
        Raises:
            InvalidArgumentError: no pipeline set in the bundle yet (a bundle changes root arguments only after it set the
                root signature), not a constants parameter, too many values.
            UseAfterFreeError: the bundle is closed.
        """
    def set_dynamic_constant_buffer(self, root_index: typing.SupportsIndex, data: typing.Any) -> None:
        """
        Records CommandList.set_dynamic_constant_buffer: the data is copied now, and each execution copies it into the
        calling list's upload memory.
        
        Args:
            root_index: a RootCBV parameter of the root signature set in the bundle.
            data: bytes, a numpy array or anything with the buffer protocol (at most 65536 bytes).
        """
    def set_dynamic_index_buffer(self, array: typing.Any) -> None:
        """
        Records CommandList.set_dynamic_index_buffer (the array is copied now).
        
        Args:
            array: uint16 or uint32 indices.
        """
    def set_dynamic_vertex_buffer(self, slot: typing.SupportsIndex, array: typing.Any, stride: typing.Any = None) -> None:
        """
        Records CommandList.set_dynamic_vertex_buffer (the array is copied now).
        
        Args:
            slot: the input slot.
            array: the vertices (a numpy array).
            stride: bytes per vertex; None takes the array's row size (2-D arrays).
        """
    def set_index_buffer(self, buffer: Buffer, format: dx12kit.enums.IndexFormat | dx12kit.enums.IndexFormatName = 'uint32', offset: typing.SupportsIndex = 0) -> None:
        """
        Records CommandList.set_index_buffer.
        
        Args:
            buffer: the Buffer read.
            format: an IndexFormat or its name.
            offset: byte offset of the first index.
        """
    def set_pipeline_state(self, pso: PipelineState) -> None:
        """
        Sets the pipeline (and its root signature) in the bundle: a bundle does not inherit the calling list's pipeline, so
        its draws and dispatches need one set here (or device.create_bundle(pipeline=...)). With the root signature of the
        calling list's pipeline, the calling list's root arguments stay (inherited); with another they are cleared.
        
        Args:
            pso: a PipelineState of the bundle's device.
        
        Raises:
            InvalidArgumentError: a pipeline of another device.
            UseAfterFreeError: the bundle is closed.
        """
    def set_predication(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle does not set predication (D3D12 bundle restriction: no SetPredication); it inherits the calling list's predicate: call set_predication on the calling list.
        
        Args:
            *args, **kwargs: CommandList.set_predication's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def set_render_targets(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle does not set render targets (D3D12 bundle restriction: no OMSetRenderTargets); it draws into the ones the calling list has bound: call set_render_targets on the calling list.
        
        Args:
            *args, **kwargs: CommandList.set_render_targets's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def set_root_cbv(self, root_index: typing.SupportsIndex, buffer: Buffer, offset: typing.SupportsIndex = 0) -> None:
        """
        Records CommandList.set_root_cbv.
        
        Args:
            root_index: a RootCBV parameter of the root signature set in the bundle.
            buffer: the Buffer bound.
            offset: byte offset in buffer (a multiple of 256).
        
        Raises:
            InvalidArgumentError: no pipeline set in the bundle yet, not a RootCBV parameter, a texture.
        """
    def set_root_srv(self, root_index: typing.SupportsIndex, buffer: Buffer, offset: typing.SupportsIndex = 0) -> None:
        """
        Records CommandList.set_root_srv.
        
        Args:
            root_index: a RootSRV parameter of the root signature set in the bundle.
            buffer: the Buffer bound.
            offset: byte offset in buffer.
        
        Raises:
            InvalidArgumentError: no pipeline set in the bundle yet, not a RootSRV parameter, a texture.
        """
    def set_root_uav(self, root_index: typing.SupportsIndex, buffer: Buffer, offset: typing.SupportsIndex = 0) -> None:
        """
        Records CommandList.set_root_uav.
        
        Args:
            root_index: a RootUAV parameter of the root signature set in the bundle.
            buffer: the Buffer bound.
            offset: byte offset in buffer.
        
        Raises:
            InvalidArgumentError: no pipeline set in the bundle yet, not a RootUAV parameter, a texture.
        """
    def set_sampler(self, root_index: typing.SupportsIndex, descriptor_offset: typing.SupportsIndex, sampler: SamplerState) -> None:
        """
        Records CommandList.set_sampler.
        
        Args:
            root_index: a sampler DescriptorTable parameter of the root signature set in the bundle.
            descriptor_offset: the slot in that table.
            sampler: a SamplerState.
        
        Raises:
            TypeError: sampler is not a SamplerState.
        """
    def set_scissor(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle does not set scissor rectangles (D3D12 bundle restriction: no RSSetScissorRects); it inherits the calling list's: call it on the calling list.
        
        Args:
            *args, **kwargs: CommandList.set_scissor's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def set_scissors(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle does not set scissor rectangles (D3D12 bundle restriction: no RSSetScissorRects); it inherits the calling list's: call it on the calling list.
        
        Args:
            *args, **kwargs: CommandList.set_scissors's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def set_shader_resource_view(self, root_index: typing.SupportsIndex, descriptor_offset: typing.SupportsIndex, resource: Resource, *, mip: typing.SupportsIndex | None = None, format: Format | dx12kit.enums.FormatName | int | None = None, stride: typing.SupportsIndex | None = None, raw: bool | None = None, first_element: typing.SupportsIndex | None = None, num_elements: typing.SupportsIndex | None = None) -> None:
        """
        Records CommandList.set_shader_resource_view (the view is written into the calling list's table at each execution).
        
        Args:
            root_index: a DescriptorTable parameter of the root signature set in the bundle.
            descriptor_offset: the slot in that table.
            resource: a Texture or Buffer.
            mip, format, stride, raw, first_element, num_elements: as CommandList.set_shader_resource_view.
        
        Raises:
            InvalidArgumentError: no pipeline set in the bundle yet, not a table parameter; the view's own checks run at
                execute_bundle.
        """
    def set_stencil_ref(self, ref: typing.SupportsIndex) -> None:
        """
        Records CommandList.set_stencil_ref.
        
        Args:
            ref: 0..255.
        """
    def set_unordered_access_view(self, root_index: typing.SupportsIndex, descriptor_offset: typing.SupportsIndex, resource: Resource, *, mip: typing.SupportsIndex | None = None, format: Format | dx12kit.enums.FormatName | int | None = None, stride: typing.SupportsIndex | None = None, raw: bool | None = None, first_element: typing.SupportsIndex | None = None, num_elements: typing.SupportsIndex | None = None, counter: Buffer | None = None, counter_offset: typing.SupportsIndex = 0) -> None:
        """
        Records CommandList.set_unordered_access_view.
        
        Args:
            root_index: a DescriptorTable parameter of the root signature set in the bundle.
            descriptor_offset: the slot in that table.
            resource: a Texture or Buffer created with uav=True.
            mip, format, stride, raw, first_element, num_elements, counter, counter_offset: as
                CommandList.set_unordered_access_view.
        
        Raises:
            InvalidArgumentError: no pipeline set in the bundle yet, not a table parameter, a resource without uav=True.
        """
    def set_vertex_buffer(self, slot: typing.SupportsIndex, buffer: Buffer, stride: typing.SupportsIndex, offset: typing.SupportsIndex = 0) -> None:
        """
        Records CommandList.set_vertex_buffer (it stays bound in the calling list afterwards).
        
        Args:
            slot: the input slot (0..31).
            buffer: the Buffer read.
            stride: bytes per vertex.
            offset: byte offset of the first vertex.
        """
    def set_viewport(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle does not set viewports (D3D12 bundle restriction: no RSSetViewports); it inherits the calling list's: call it on the calling list.
        
        Args:
            *args, **kwargs: CommandList.set_viewport's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def set_viewports(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle does not set viewports (D3D12 bundle restriction: no RSSetViewports); it inherits the calling list's: call it on the calling list.
        
        Args:
            *args, **kwargs: CommandList.set_viewports's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def transition_barrier(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no resource barrier (D3D12 bundle restriction: no ResourceBarrier); the calling list's state tracker puts what the bundle's draws use in their states at execute_bundle: record barriers in the calling list.
        
        Args:
            *args, **kwargs: CommandList.transition_barrier's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def uav_barrier(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no resource barrier (D3D12 bundle restriction: no ResourceBarrier); the calling list's state tracker puts what the bundle's draws use in their states at execute_bundle: record barriers in the calling list.
        
        Args:
            *args, **kwargs: CommandList.uav_barrier's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    def upload(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:
        """
        Refused: a bundle records no copy (D3D12 bundle restriction: no CopyResource, CopyBufferRegion, CopyTextureRegion; uploads are copies): copy in the calling list.
        
        Args:
            *args, **kwargs: CommandList.upload's arguments (not looked at).
        
        Raises:
            InvalidArgumentError: always (D3D12 bundle rule).
        """
    @property
    def closed(self) -> bool:
        """
        True once close() was called (then it can be executed, and no longer recorded).
        """
    @property
    def command_count(self) -> int:
        """
        The calls recorded (the initial pipeline counts as one).
        """
    @property
    def name(self) -> str:
        """
        The name given to device.create_bundle(name=...), else 'bundle'.
        """
class Format(enum.IntEnum):
    """
    Every DXGI format, named by dx12kit's short name in upper case (RGBA8_UNORM, BC7_UNORM); DXGI's own name is an
    alias where it differs (Format.R8G8B8A8_UNORM is Format.RGBA8_UNORM). Strings name them too, in any case: 'rgba8_unorm',
    'R8G8B8A8_UNORM', 'DXGI_FORMAT_R8G8B8A8_UNORM'. Whether the device can use one: Device.format_support.
    """
    A4B4G4R4_UNORM = 191
    A8P8 = 114
    A8_UNORM = 65
    AI44 = 111
    AYUV = 100
    B4G4R4A4_UNORM = 115
    B5G5R5A1_UNORM = 86
    B5G6R5_UNORM = 85
    B8G8R8A8_TYPELESS = 90
    B8G8R8A8_UNORM = 87
    B8G8R8A8_UNORM_SRGB = 91
    B8G8R8X8_TYPELESS = 92
    B8G8R8X8_UNORM = 88
    B8G8R8X8_UNORM_SRGB = 93
    BC1_TYPELESS = 70
    BC1_UNORM = 71
    BC1_UNORM_SRGB = 72
    BC2_TYPELESS = 73
    BC2_UNORM = 74
    BC2_UNORM_SRGB = 75
    BC3_TYPELESS = 76
    BC3_UNORM = 77
    BC3_UNORM_SRGB = 78
    BC4_SNORM = 81
    BC4_TYPELESS = 79
    BC4_UNORM = 80
    BC5_SNORM = 84
    BC5_TYPELESS = 82
    BC5_UNORM = 83
    BC6H_SF16 = 96
    BC6H_TYPELESS = 94
    BC6H_UF16 = 95
    BC7_TYPELESS = 97
    BC7_UNORM = 98
    BC7_UNORM_SRGB = 99
    BGRA8_TYPELESS = 90
    BGRA8_UNORM = 87
    BGRA8_UNORM_SRGB = 91
    BGRX8_TYPELESS = 92
    BGRX8_UNORM = 88
    BGRX8_UNORM_SRGB = 93
    D16_UNORM = 55
    D24_UNORM_S8_UINT = 45
    D32_FLOAT = 40
    D32_FLOAT_S8X24_UINT = 20
    G8R8_G8B8_UNORM = 69
    IA44 = 112
    NV11 = 110
    NV12 = 103
    OPAQUE_420 = 106
    P010 = 104
    P016 = 105
    P208 = 130
    P8 = 113
    R10G10B10A2_TYPELESS = 23
    R10G10B10A2_UINT = 25
    R10G10B10A2_UNORM = 24
    R10G10B10_XR_BIAS_A2_UNORM = 89
    R11G11B10_FLOAT = 26
    R16G16B16A16_FLOAT = 10
    R16G16B16A16_SINT = 14
    R16G16B16A16_SNORM = 13
    R16G16B16A16_TYPELESS = 9
    R16G16B16A16_UINT = 12
    R16G16B16A16_UNORM = 11
    R16G16_FLOAT = 34
    R16G16_SINT = 38
    R16G16_SNORM = 37
    R16G16_TYPELESS = 33
    R16G16_UINT = 36
    R16G16_UNORM = 35
    R16_FLOAT = 54
    R16_SINT = 59
    R16_SNORM = 58
    R16_TYPELESS = 53
    R16_UINT = 57
    R16_UNORM = 56
    R1_UNORM = 66
    R24G8_TYPELESS = 44
    R24_UNORM_X8_TYPELESS = 46
    R32G32B32A32_FLOAT = 2
    R32G32B32A32_SINT = 4
    R32G32B32A32_TYPELESS = 1
    R32G32B32A32_UINT = 3
    R32G32B32_FLOAT = 6
    R32G32B32_SINT = 8
    R32G32B32_TYPELESS = 5
    R32G32B32_UINT = 7
    R32G32_FLOAT = 16
    R32G32_SINT = 18
    R32G32_TYPELESS = 15
    R32G32_UINT = 17
    R32G8X24_TYPELESS = 19
    R32_FLOAT = 41
    R32_FLOAT_X8X24_TYPELESS = 21
    R32_SINT = 43
    R32_TYPELESS = 39
    R32_UINT = 42
    R8G8B8A8_SINT = 32
    R8G8B8A8_SNORM = 31
    R8G8B8A8_TYPELESS = 27
    R8G8B8A8_UINT = 30
    R8G8B8A8_UNORM = 28
    R8G8B8A8_UNORM_SRGB = 29
    R8G8_B8G8_UNORM = 68
    R8G8_SINT = 52
    R8G8_SNORM = 51
    R8G8_TYPELESS = 48
    R8G8_UINT = 50
    R8G8_UNORM = 49
    R8_SINT = 64
    R8_SNORM = 63
    R8_TYPELESS = 60
    R8_UINT = 62
    R8_UNORM = 61
    R9G9B9E5_SHAREDEXP = 67
    RG11B10_FLOAT = 26
    RG16_FLOAT = 34
    RG16_SINT = 38
    RG16_SNORM = 37
    RG16_TYPELESS = 33
    RG16_UINT = 36
    RG16_UNORM = 35
    RG32_FLOAT = 16
    RG32_SINT = 18
    RG32_TYPELESS = 15
    RG32_UINT = 17
    RG8_SINT = 52
    RG8_SNORM = 51
    RG8_TYPELESS = 48
    RG8_UINT = 50
    RG8_UNORM = 49
    RGB10A2_TYPELESS = 23
    RGB10A2_UINT = 25
    RGB10A2_UNORM = 24
    RGB32_FLOAT = 6
    RGB32_SINT = 8
    RGB32_TYPELESS = 5
    RGB32_UINT = 7
    RGBA16_FLOAT = 10
    RGBA16_SINT = 14
    RGBA16_SNORM = 13
    RGBA16_TYPELESS = 9
    RGBA16_UINT = 12
    RGBA16_UNORM = 11
    RGBA32_FLOAT = 2
    RGBA32_SINT = 4
    RGBA32_TYPELESS = 1
    RGBA32_UINT = 3
    RGBA8_SINT = 32
    RGBA8_SNORM = 31
    RGBA8_TYPELESS = 27
    RGBA8_UINT = 30
    RGBA8_UNORM = 28
    RGBA8_UNORM_SRGB = 29
    SAMPLER_FEEDBACK_MIN_MIP_OPAQUE = 189
    SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE = 190
    UNKNOWN = 0
    V208 = 131
    V408 = 132
    X24_TYPELESS_G8_UINT = 47
    X32_TYPELESS_G8X24_UINT = 22
    Y210 = 108
    Y216 = 109
    Y410 = 101
    Y416 = 102
    YUY2 = 107
    def __format__(self, format_spec: str) -> str:
        ...
    def __str__(self) -> str:
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
    def __format__(self, format_spec: str) -> str:
        ...
    def __str__(self) -> str:
        ...
class RootSignatureFlags(enum.IntFlag):
    """
    D3D12_ROOT_SIGNATURE_FLAGS (Device.create_root_signature(flags=)). Plain ints are accepted too; D3D12 flags
    vkd3d 1.2 cannot honour (LOCAL_ROOT_SIGNATURE, DENY_AMPLIFICATION/MESH_SHADER_ROOT_ACCESS, the HEAP_DIRECTLY_INDEXED
    flags) are not members, and their bits raise InvalidArgumentError naming them.
    """
    ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT = 1
    ALLOW_STREAM_OUTPUT = 64
    DENY_DOMAIN_SHADER_ROOT_ACCESS = 8
    DENY_GEOMETRY_SHADER_ROOT_ACCESS = 16
    DENY_HULL_SHADER_ROOT_ACCESS = 4
    DENY_PIXEL_SHADER_ROOT_ACCESS = 32
    DENY_VERTEX_SHADER_ROOT_ACCESS = 2
    NONE = 0
    def __format__(self, format_spec: str) -> str:
        ...
    def __str__(self) -> str:
        ...
class DescriptorRangeFlags(enum.IntFlag):
    """
    D3D12_DESCRIPTOR_RANGE_FLAGS (SRV/UAV/CBV/SamplerRange(flags=); root signature 1.1). Plain ints are accepted;
    DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS (later than vkd3d 1.2's D3D12) raises naming it. At most one
    DATA flag; sampler ranges take DESCRIPTORS_VOLATILE only.
    """
    DATA_STATIC = 8
    DATA_STATIC_WHILE_SET_AT_EXECUTE = 4
    DATA_VOLATILE = 2
    DESCRIPTORS_VOLATILE = 1
    NONE = 0
    def __format__(self, format_spec: str) -> str:
        ...
    def __str__(self) -> str:
        ...
class RootDescriptorFlags(enum.IntFlag):
    """
    D3D12_ROOT_DESCRIPTOR_FLAGS (RootCBV/RootSRV/RootUAV(flags=); root signature 1.1). Plain ints are accepted;
    at most one DATA flag.
    """
    DATA_STATIC = 8
    DATA_STATIC_WHILE_SET_AT_EXECUTE = 4
    DATA_VOLATILE = 2
    NONE = 0
    def __format__(self, format_spec: str) -> str:
        ...
    def __str__(self) -> str:
        ...
class BlendState:
    """
    One render target's blend state (D3D12_RENDER_TARGET_BLEND_DESC), for create_graphics_pipeline(blend=...).
    
    The result is (src times src_blend) blend_op (dest times dest_blend) for red, green and blue, and the same with
    the alpha settings for alpha. Give one BlendState for all render targets, or a list of them, one per render target
    (independent blend).
    
    Args:
        blend_enable: whether blending is on; None (the default): on when any factor or operation is given.
        src_blend, dest_blend: dx12kit.Blend factors of the colour (default 'one' and 'zero').
        blend_op: dx12kit.BlendOp of the colour (default 'add').
        src_blend_alpha, dest_blend_alpha, blend_op_alpha: the same for alpha (alpha factors only, no colour factors).
        logic_op: a dx12kit.LogicOp instead of blending (UINT targets), None for none. vkd3d 1.2 does not implement
            logic operations: a pipeline with one raises InvalidArgumentError there.
        write_mask: the channels written, dx12kit.ColorWriteEnable bits (default ALL = 15).
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: a name that is no choice, or a write_mask outside 0..15.
    
    blend_factor / inv_blend_factor factors read CommandList.set_blend_factor's value; a list starts with zeros, as
    D3D12 documents for a new list.
    """
    __hash__: typing.ClassVar[None]  # type: ignore[assignment]
    @staticmethod
    def preset(mode: dx12kit.enums.BlendMode | dx12kit.enums.BlendModeName) -> BlendState:
        """
        The BlendState a dx12kit.BlendMode preset stands for.
        
        Args:
            mode: a dx12kit.BlendMode or its name.
        
        Returns:
            A BlendState ('none': blending off).
        
        Raises:
            InvalidArgumentError: a name that is no preset.
        """
    def __eq__(self, other: typing.Any) -> typing.Any:
        """
        Equal when every field is.
        """
    def __init__(self, *, blend_enable: bool | None = None, src_blend: dx12kit.enums.Blend | dx12kit.enums.BlendName | None = None, dest_blend: dx12kit.enums.Blend | dx12kit.enums.BlendName | None = None, blend_op: dx12kit.enums.BlendOp | dx12kit.enums.BlendOpName | None = None, src_blend_alpha: dx12kit.enums.Blend | dx12kit.enums.BlendName | None = None, dest_blend_alpha: dx12kit.enums.Blend | dx12kit.enums.BlendName | None = None, blend_op_alpha: dx12kit.enums.BlendOp | dx12kit.enums.BlendOpName | None = None, logic_op: dx12kit.enums.LogicOp | dx12kit.enums.LogicOpName | None = None, write_mask: typing.SupportsIndex = 15) -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def blend_enable(self) -> bool:
        """
        Whether blending is on.
        """
    @property
    def blend_op(self) -> str:
        """
        The colour's operation.
        """
    @property
    def blend_op_alpha(self) -> str:
        """
        Alpha's operation.
        """
    @property
    def dest_blend(self) -> str:
        """
        The colour's destination factor.
        """
    @property
    def dest_blend_alpha(self) -> str:
        """
        Alpha's destination factor.
        """
    @property
    def logic_op(self) -> str | None:
        """
        The logic operation, or None.
        """
    @property
    def src_blend(self) -> str:
        """
        The colour's source factor.
        """
    @property
    def src_blend_alpha(self) -> str:
        """
        Alpha's source factor.
        """
    @property
    def write_mask(self) -> int:
        """
        The channels written (ColorWriteEnable bits).
        """
class RasterizerState:
    """
    The rasterizer state of a graphics pipeline (D3D12_RASTERIZER_DESC), for create_graphics_pipeline(rasterizer=...).
    
    Args:
        fill: dx12kit.FillMode, 'solid' (default) or 'wireframe'.
        cull: dx12kit.CullMode (default 'none', as create_graphics_pipeline's cull=).
        front_ccw: True when counter-clockwise triangles face the front (D3D12's FrontCounterClockwise; default clockwise).
        depth_bias: an int added to the depth, in units of the depth format's smallest difference (DepthBias; D3D12's
            unit on every backend: dx12kit measures vkd3d's per depth format and scales).
        depth_bias_clamp: the largest bias (0: no clamp). slope_scaled_depth_bias: times the depth slope.
        depth_clip: clip against the near and far planes (default True; False clamps depth instead).
        multisample, antialiased_lines, forced_sample_count, conservative: D3D12's MultisampleEnable,
            AntialiasedLineEnable, ForcedSampleCount and ConservativeRaster. vkd3d 1.2 ignores all four:
            create_graphics_pipeline raises InvalidArgumentError there for any but the default.
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: a name that is no choice, or a number out of range.
    """
    __hash__: typing.ClassVar[None]  # type: ignore[assignment]
    def __eq__(self, other: typing.Any) -> typing.Any:
        """
        Equal when every field is.
        """
    def __init__(self, *, fill: dx12kit.enums.FillMode | dx12kit.enums.FillModeName = 'solid', cull: dx12kit.enums.CullMode | dx12kit.enums.CullModeName = 'none', front_ccw: bool = False, depth_bias: typing.SupportsIndex = 0, depth_bias_clamp: typing.SupportsFloat | typing.SupportsIndex = 0.0, slope_scaled_depth_bias: typing.SupportsFloat | typing.SupportsIndex = 0.0, depth_clip: bool = True, multisample: bool = False, antialiased_lines: bool = False, forced_sample_count: typing.SupportsIndex = 0, conservative: bool = False) -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def antialiased_lines(self) -> bool:
        """
        AntialiasedLineEnable.
        """
    @property
    def conservative(self) -> bool:
        """
        ConservativeRaster ON.
        """
    @property
    def cull(self) -> str:
        """
        The culled faces.
        """
    @property
    def depth_bias(self) -> int:
        """
        DepthBias.
        """
    @property
    def depth_bias_clamp(self) -> float:
        """
        DepthBiasClamp.
        """
    @property
    def depth_clip(self) -> bool:
        """
        DepthClipEnable.
        """
    @property
    def fill(self) -> str:
        """
        'solid' or 'wireframe'.
        """
    @property
    def forced_sample_count(self) -> int:
        """
        ForcedSampleCount.
        """
    @property
    def front_ccw(self) -> bool:
        """
        Whether counter-clockwise triangles face the front.
        """
    @property
    def multisample(self) -> bool:
        """
        MultisampleEnable.
        """
    @property
    def slope_scaled_depth_bias(self) -> float:
        """
        SlopeScaledDepthBias.
        """
class StencilFace:
    """
    What the stencil test does for one face (D3D12_DEPTH_STENCILOP_DESC), for DepthStencilState(front=, back=).
    
    Args:
        fail_op: dx12kit.StencilOp where the stencil test fails (default 'keep').
        depth_fail_op: where the stencil test passes and the depth test fails (default 'keep').
        pass_op: where both pass (default 'keep').
        func: dx12kit.ComparisonFunc of (reference & read_mask) against (stencil & read_mask) (default 'always'); the
            reference is CommandList.set_stencil_ref's.
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: a name that is no choice.
    """
    __hash__: typing.ClassVar[None]  # type: ignore[assignment]
    def __eq__(self, other: typing.Any) -> typing.Any:
        """
        Equal when every field is.
        """
    def __init__(self, *, fail_op: dx12kit.enums.StencilOp | dx12kit.enums.StencilOpName = 'keep', depth_fail_op: dx12kit.enums.StencilOp | dx12kit.enums.StencilOpName = 'keep', pass_op: dx12kit.enums.StencilOp | dx12kit.enums.StencilOpName = 'keep', func: dx12kit.enums.ComparisonFunc | dx12kit.enums.ComparisonFuncName = 'always') -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def depth_fail_op(self) -> str:
        """
        StencilDepthFailOp.
        """
    @property
    def fail_op(self) -> str:
        """
        StencilFailOp.
        """
    @property
    def func(self) -> str:
        """
        StencilFunc.
        """
    @property
    def pass_op(self) -> str:
        """
        StencilPassOp.
        """
class DepthStencilState:
    """
    The depth-stencil state of a graphics pipeline (D3D12_DEPTH_STENCIL_DESC), for create_graphics_pipeline(depth_stencil=...).
    Both tests need the pipeline's dsv_format (the stencil test one with a stencil plane: d24_unorm_s8_uint,
    d32_float_s8x24_uint).
    
    Args:
        depth_test: the depth test (DepthEnable); None (the default): on when depth_func is given.
        depth_write: write depth where the test passes (default True).
        depth_func: dx12kit.ComparisonFunc of the incoming depth against the stored one (default 'less').
        stencil: the stencil test (StencilEnable); None (the default): on when front or back is given.
        read_mask, write_mask: stencil bits read and written (0..255, default 255).
        front, back: StencilFace of front- and back-facing triangles (default: StencilFace()).
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: a name that is no choice, or a mask outside 0..255.
    """
    __hash__: typing.ClassVar[None]  # type: ignore[assignment]
    def __eq__(self, other: typing.Any) -> typing.Any:
        """
        Equal when every field is.
        """
    def __init__(self, *, depth_test: bool | None = None, depth_write: bool = True, depth_func: dx12kit.enums.ComparisonFunc | dx12kit.enums.ComparisonFuncName | None = None, stencil: bool | None = None, read_mask: typing.SupportsIndex = 255, write_mask: typing.SupportsIndex = 255, front: StencilFace | None = None, back: StencilFace | None = None) -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def back(self) -> StencilFace:
        """
        BackFace.
        """
    @property
    def depth_func(self) -> str:
        """
        DepthFunc.
        """
    @property
    def depth_test(self) -> bool:
        """
        DepthEnable.
        """
    @property
    def depth_write(self) -> bool:
        """
        DepthWriteMask ALL (True) or ZERO.
        """
    @property
    def front(self) -> StencilFace:
        """
        FrontFace.
        """
    @property
    def read_mask(self) -> int:
        """
        StencilReadMask.
        """
    @property
    def stencil(self) -> bool:
        """
        StencilEnable.
        """
    @property
    def write_mask(self) -> int:
        """
        StencilWriteMask.
        """
class InputElement:
    """
    One element of a graphics pipeline's input layout (D3D12_INPUT_ELEMENT_DESC), for
    create_graphics_pipeline(input_layout=[...]). Tuples (semantic, format, slot, offset, semantic_index) are still accepted.
    
    Args:
        semantic: the vertex shader input's semantic name ('POSITION', 'TEXCOORD').
        format: a dx12kit.VertexFormat ('float3', ...) or any dx12kit.Format (or its name).
        slot: the vertex buffer slot (0..31).
        offset: bytes from the vertex's start; None: right after the slot's previous element (D3D12_APPEND_ALIGNED_ELEMENT).
        semantic_index: the semantic's index (TEXCOORD1: 1).
        per_instance: True for per-instance data (D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA).
        step_rate: per-instance elements advance every step_rate instances (InstanceDataStepRate, default 1; 0: every
            instance reads the first element).
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: an unknown format, a slot outside 0..31, or step_rate on a per-vertex element.
    """
    __hash__: typing.ClassVar[None]  # type: ignore[assignment]
    def __eq__(self, other: typing.Any) -> typing.Any:
        """
        Equal when every field is.
        """
    def __init__(self, semantic: str, format: dx12kit.enums.VertexFormat | Format | str, slot: typing.SupportsIndex = 0, offset: typing.SupportsIndex | None = None, semantic_index: typing.SupportsIndex = 0, *, per_instance: bool = False, step_rate: typing.SupportsIndex = 1) -> None:
        ...
    def __repr__(self) -> str:
        ...
    @property
    def format(self) -> str:
        """
        The format's name: a dx12kit.VertexFormat value ('float3') or a dx12kit.Format name ('rg16_float').
        """
    @property
    def offset(self) -> int | None:
        """
        AlignedByteOffset, or None (appended).
        """
    @property
    def per_instance(self) -> bool:
        """
        Whether it is per-instance data.
        """
    @property
    def semantic(self) -> str:
        """
        SemanticName.
        """
    @property
    def semantic_index(self) -> int:
        """
        SemanticIndex.
        """
    @property
    def slot(self) -> int:
        """
        InputSlot.
        """
    @property
    def step_rate(self) -> int:
        """
        InstanceDataStepRate of per-instance data.
        """
def CBV(register: typing.SupportsIndex, count: typing.SupportsIndex = 1, space: typing.SupportsIndex = 0, *, offset: typing.SupportsIndex | None = None, flags: DescriptorRangeFlags | int = 0) -> DescriptorRange:
    """
    A range of constant buffer views (b registers) in a DescriptorTable.
    
    Args:
        register: the first b register.
        count: registers in the range (> 0), or UNBOUNDED.
        space: the register space.
        offset: descriptors from the table start, or None (after the previous range).
        flags: DescriptorRangeFlags bits (root signature 1.1).
    
    Returns:
        A DescriptorRange for DescriptorTable.
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: count 0, a negative value, or flags D3D12 forbids for the range's kind.
    """
def DescriptorTable(ranges: collections.abc.Sequence[DescriptorRange], visibility: dx12kit.enums.Visibility | dx12kit.enums.VisibilityName = 'all') -> RootParameter:
    """
    A descriptor table: a list of SRV/UAV/CBV ranges, or of Sampler ranges.
    
    Args:
        ranges: DescriptorRange objects (made by SRV, UAV, CBV), or sampler ranges (SamplerRange) only.
        visibility: a Visibility or its name ('all', 'vertex', 'pixel', ...).
    
    Returns:
        A RootParameter for create_root_signature.
    
    Raises:
        TypeError: ranges not a list of DescriptorRange.
        InvalidArgumentError: no ranges, or an unknown visibility.
    """
def RootCBV(register: typing.SupportsIndex, space: typing.SupportsIndex = 0, visibility: dx12kit.enums.Visibility | dx12kit.enums.VisibilityName = 'all', *, flags: RootDescriptorFlags | int = 0) -> RootParameter:
    """
    A root constant buffer view (GPU address of a buffer).
    
    Args:
        register: the b register.
        space: the register space.
        visibility: a Visibility or its name ('all', 'vertex', 'pixel', ...).
        flags: RootDescriptorFlags bits (root signature 1.1; at most one DATA flag).
    
    Returns:
        A RootParameter for create_root_signature.
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: a negative value, an unknown visibility, or bad flags.
    """
def RootConstants(register: typing.SupportsIndex, count: typing.SupportsIndex, space: typing.SupportsIndex = 0, visibility: dx12kit.enums.Visibility | dx12kit.enums.VisibilityName = 'all') -> RootParameter:
    """
    32-bit root constants (a cbuffer at register b<register>).
    
    Args:
        register: the b register of the cbuffer.
        count: 32-bit values (> 0).
        space: the register space.
        visibility: a Visibility or its name ('all', 'vertex', 'pixel', ...).
    
    Returns:
        A RootParameter for create_root_signature.
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: count 0, a negative value, or an unknown visibility.
    """
def RootSRV(register: typing.SupportsIndex, space: typing.SupportsIndex = 0, visibility: dx12kit.enums.Visibility | dx12kit.enums.VisibilityName = 'all', *, flags: RootDescriptorFlags | int = 0) -> RootParameter:
    """
    A root shader resource view (a buffer, e.g. StructuredBuffer).
    
    Args:
        register: the t register.
        space: the register space.
        visibility: a Visibility or its name ('all', 'vertex', 'pixel', ...).
        flags: RootDescriptorFlags bits (root signature 1.1; at most one DATA flag).
    
    Returns:
        A RootParameter for create_root_signature.
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: a negative value, an unknown visibility, or bad flags.
    """
def RootUAV(register: typing.SupportsIndex, space: typing.SupportsIndex = 0, visibility: dx12kit.enums.Visibility | dx12kit.enums.VisibilityName = 'all', *, flags: RootDescriptorFlags | int = 0) -> RootParameter:
    """
    A root unordered access view (a buffer, e.g. RWStructuredBuffer).
    
    Args:
        register: the u register.
        space: the register space.
        visibility: a Visibility or its name ('all', 'vertex', 'pixel', ...).
        flags: RootDescriptorFlags bits (root signature 1.1; at most one DATA flag).
    
    Returns:
        A RootParameter for create_root_signature.
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: a negative value, an unknown visibility, or bad flags.
    """
def SRV(register: typing.SupportsIndex, count: typing.SupportsIndex = 1, space: typing.SupportsIndex = 0, *, offset: typing.SupportsIndex | None = None, flags: DescriptorRangeFlags | int = 0) -> DescriptorRange:
    """
    A range of shader resource views (t registers) in a DescriptorTable.
    count=UNBOUNDED for an unbounded range; offset= descriptors from the table start (default: after the
    previous range); flags= D3D12_DESCRIPTOR_RANGE_FLAGS bits (root signature 1.1).
    
    Args:
        register: the first t register.
        count: registers in the range (> 0), or UNBOUNDED.
        space: the register space.
        offset: descriptors from the table start, or None (after the previous range).
        flags: DescriptorRangeFlags bits (root signature 1.1).
    
    Returns:
        A DescriptorRange for DescriptorTable.
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: count 0, a negative value, or flags D3D12 forbids for the range's kind.
    """
def SamplerRange(register: typing.SupportsIndex, count: typing.SupportsIndex = 1, space: typing.SupportsIndex = 0, *, offset: typing.SupportsIndex | None = None, flags: DescriptorRangeFlags | int = 0) -> DescriptorRange:
    """
    A range of samplers (s registers) in a DescriptorTable (the sampler objects
    themselves are SamplerState, made by Device.create_sampler). Sampler is an alias.
    
    Args:
        register: the first s register.
        count: registers in the range (> 0), or UNBOUNDED.
        space: the register space.
        offset: descriptors from the table start, or None (after the previous range).
        flags: DescriptorRangeFlags bits (root signature 1.1).
    
    Returns:
        A DescriptorRange for DescriptorTable.
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: count 0, a negative value, or flags D3D12 forbids for the range's kind.
    """
def StaticSampler(register: typing.SupportsIndex, filter: dx12kit.enums.Filter | dx12kit.enums.FilterName = 'linear', address: dx12kit.enums.AddressMode | dx12kit.enums.AddressModeName = 'clamp', space: typing.SupportsIndex = 0, visibility: dx12kit.enums.Visibility | dx12kit.enums.VisibilityName = 'all', *, address_v: dx12kit.enums.AddressMode | dx12kit.enums.AddressModeName | None = None, address_w: dx12kit.enums.AddressMode | dx12kit.enums.AddressModeName | None = None, mip_lod_bias: typing.SupportsFloat | typing.SupportsIndex = 0.0, max_anisotropy: typing.SupportsIndex = 16, comparison: dx12kit.enums.ComparisonFunc | dx12kit.enums.ComparisonFuncName | None = None, border_color: dx12kit.enums.BorderColor | dx12kit.enums.BorderColorName = 'transparent_black', min_lod: typing.SupportsFloat | typing.SupportsIndex = 0.0, max_lod: typing.SupportsFloat | typing.SupportsIndex = 3.4028234663852886e+38) -> StaticSamplerDesc:
    """
    A static sampler: filter 'point' | 'linear' | 'bilinear' | 'anisotropic' or a D3D12_FILTER name without its prefix
    ('comparison_min_mag_mip_linear'); address 'clamp' | 'wrap' | 'mirror' | 'mirror_once' | 'border' (address_v/address_w
    default to address); comparison 'never' | 'less' | 'less_equal' | ...; border_color 'transparent_black' |
    'opaque_black' | 'opaque_white'.
    
    Args:
        register: the s register.
        filter: a Filter or its name.
        address: an AddressMode or its name, for u (and v, w unless given).
        space: the register space.
        visibility: a Visibility or its name.
        address_v: the v address mode, or None (address).
        address_w: the w address mode, or None (address).
        mip_lod_bias: added to the computed mip level, within [-16, 15.99].
        max_anisotropy: 1 to 16 (anisotropic filters).
        comparison: a ComparisonFunc or its name (comparison filters). None: 'less_equal' for a comparison filter
            (the root-signature language's default), never 'never'; other filters ignore it, as in D3D12.
        border_color: a BorderColor or its name (address 'border'). Devices whose Device.sampler_support['border_colors']
            is False (vkd3d 1.2) refuse all but 'transparent_black' with a 'border' address at create_root_signature.
        min_lod: the lowest mip level used.
        max_lod: the highest mip level used (at least min_lod).
    
    Returns:
        A StaticSamplerDesc for create_root_signature.
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: an unknown choice, max_anisotropy outside 1..16, min_lod above max_lod, mip_lod_bias outside
            [-16, 15.99] (D3D12's rules, dx12kit/gpu/SamplerRules.hpp).
    """
def UAV(register: typing.SupportsIndex, count: typing.SupportsIndex = 1, space: typing.SupportsIndex = 0, *, offset: typing.SupportsIndex | None = None, flags: DescriptorRangeFlags | int = 0) -> DescriptorRange:
    """
    A range of unordered access views (u registers) in a DescriptorTable.
    
    Args:
        register: the first u register.
        count: registers in the range (> 0), or UNBOUNDED.
        space: the register space.
        offset: descriptors from the table start, or None (after the previous range).
        flags: DescriptorRangeFlags bits (root signature 1.1).
    
    Returns:
        A DescriptorRange for DescriptorTable.
    
    Raises:
        TypeError: an argument of the wrong type.
        InvalidArgumentError: count 0, a negative value, or flags D3D12 forbids for the range's kind.
    """
def _close_names(word: str, names: collections.abc.Sequence[str], n: typing.SupportsInt | typing.SupportsIndex = 3) -> list[str]:
    """
    Up to n of `names` closest to `word` (difflib.get_close_matches' rule: similarity >= 0.6, best first; compared in
    lower case). Used by dx12kit._names.did_you_mean.
    """
def _texture_format_for_data(dtype: numpy.dtype[typing.Any], channels: typing.SupportsInt | typing.SupportsIndex, srgb: bool = False) -> str | None:
    """
    The short name of the format a texture made from data of `dtype` with `channels` channels (1, 2 or 4) takes, from
    the core's one table (dx12kit/devicecontext/FormatForData.hpp, which create_texture2d(data=) uses too); with srgb
    the sRGB format (8-bit data, 4 channels). None where the table has none. Used by
    dx12kit.textures.texture_format_for.
    """
def choice_tables() -> dict[str, typing.Any]:
    """
    The names every choice argument accepts, by dx12kit.enums enum: {enum name: (member values, aliases)}.
    
    dx12kit.enums makes its str enums (one member per value, in this order) and the <Enum>Name Literals (values
    and aliases) from this table, so the enums and the bindings' parsers cannot differ. Aliases are other names
    the parsers accept for a member ('graphics' for 'direct').
    """
def copy_stats() -> dict[str, typing.Any]:
    """
    Host copies since the process started: copies, bytes, and of them those split over several threads
    (parallel_copies, parallel_bytes). Process-wide, for every device.
    """
def copy_threads() -> int:
    """
    The number of threads a large host copy is split over (set_copy_threads).
    """
def flag_tables() -> dict[str, typing.Any]:
    """
    The members of every IntFlag of dx12kit.enums: {enum name: (((member name, value), ...), docstring)}.
    
    dx12kit.enums makes its IntFlags (ColorWriteEnable) from this table, so the flags and the D3D12 bits the
    core uses cannot differ.
    """
def format_info(name: str) -> dict[str, typing.Any]:
    """
    What the core's format table says of a format: {'name', 'dxgi_name', 'layout', 'bytes_per_texel',
    'packed_texel_bytes', 'block_bytes', 'channels', 'depth'}.
    
    Args:
        name: a format name (dx12kit's short name or DXGI's, any case, with or without DXGI_FORMAT_).
    
    layout is 'texel' (bytes_per_texel bytes per texel, channels per read_texture element), 'block' (4x4
    blocks of block_bytes bytes: BC1-BC7) or 'other' (video, planar, palette and packed formats: known by name
    only). bytes_per_texel is what uploads and readbacks use (the depth plane's 4 for d32_float_s8x24_uint);
    packed_texel_bytes is a texel's size with every plane in one allocation, as DDS files store it (8 there).
    
    Raises:
        InvalidArgumentError: a name that is no DXGI format (the message names the closest).
    """
def queue_states() -> dict[str, typing.Any]:
    """
    The resource-state bits a list of each queue type may hold, before and after its transitions (D3D12's
    queue-type rules, the core's table): {'direct': bits, 'compute': bits, 'copy': bits}. COMMON (0) is legal on all.
    """
def refused_flags() -> dict[str, dict[str, str]]:
    """
    The D3D12 flags dx12kit refuses, and why (vkd3d 1.2 cannot honour them): the core's own table, which the
    RootSignature constructor applies (the flag enums hold the supported flags of the same table).
    
    Returns:
        {'RootSignatureFlags' | 'DescriptorRangeFlags' | 'RootDescriptorFlags': {flag name without the D3D12 prefix: why}}.
    """
def resource_arguments() -> dict[str, typing.Any]:
    """
    What each CommandList method does with each resource it takes: {method: [(argument, position, role, many)]}.
    
    Roles: the render graph's use names ('read', 'write', 'render_target', 'depth_stencil', 'copy_from', 'copy_to',
    'resolve_from', 'resolve_to'; several joined by '|': any of them); 'states' (the method changes states or memory ownership itself: transitions,
    aliasing); 'barriers' (a BarrierBatch, each entry as its barrier method); 'layout' (only the description is read).
    position: the argument's index after self; many: a sequence of resources.
    """
def set_copy_threads(threads: typing.Any) -> None:
    """
    How many threads share a large host copy (uploads, read_buffer, read_texture, upload pages), the caller included.
    1..64; 1: every copy is one memcpy on the calling thread. None: the default, DX12KIT_COPY_THREADS if set (1..64;
    another value raises InvalidArgumentError, here, in copy_threads() and in Device()), else the hardware threads the
    process may run on (its CPU affinity), at most 4. Copies under 2 MiB always
    run on the calling thread.
    
    Args:
        threads: 1..64, or None for the default.
    
    Raises:
        InvalidArgumentError: a count outside 1..64.
        TypeError: a bool or a non-integer.
    """
ALL_SUBRESOURCES: int = 4294967295
UNBOUNDED: int = 4294967295
__version__: str = '0.1.0'
Sampler = SamplerRange
