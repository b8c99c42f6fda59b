// The Python docstrings of CommandList (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace CommandList {
// The fast entries (METH_FASTCALL; BindCommandList.cpp): pybind11's form, a signature line first, which
// pybind11-stubgen reads the types from and help() shows.
inline constexpr const char set_constants[] =
    "set_constants(self, root_index: typing.SupportsIndex, values: typing.Any, offset: typing.SupportsIndex = 0) -> None\n\n"
    "Sets 32-bit root constants (numpy array, bytes, or a list of ints/floats, Python or numpy scalars).\n\n"
    "Args:\n"
    "    root_index: a root-constants parameter of the bound root signature.\n"
    "    values: float32/int32/uint32 values (other numeric dtypes are converted by value; bytes are raw DWORDs).\n"
    "    offset: the first constant written (offset + len(values) <= the parameter's count).\n\n"
    "Raises:\n"
    "    TypeError: values or an index of the wrong type.\n"
    "    InvalidArgumentError: no pipeline, not a constants parameter, too many values, a value out of 32-bit range.\n"
    "    UseAfterFreeError: the list was already executed.";
inline constexpr const char draw[] =
    "draw(self, vertex_count: typing.SupportsIndex, instance_count: typing.SupportsIndex = 1, start_vertex: typing.SupportsIndex = 0, "
    "start_instance: typing.SupportsIndex = 0) -> None\n\n"
    "Draws `vertex_count` vertices (instanced); staged descriptors and pending transitions are committed first.\n\n"
    "Args:\n"
    "    vertex_count, instance_count, start_vertex, start_instance: DrawInstanced's arguments (0..2**32-1).\n\n"
    "Raises:\n"
    "    TypeError: a count of the wrong type.\n"
    "    InvalidArgumentError: no graphics pipeline, a vertex-buffer slot its vertex shader reads never set on this list\n"
    "        (set_vertex_buffer), a root argument unset, a single-register table SRV/UAV it reads not set since the last\n"
    "        set_pipeline_state that moved between graphics and compute (D3D12 keeps their root arguments apart), a value\n"
    "        out of range, not a direct-queue list; bound render targets\n"
    "        or depth buffer whose count, view formats or sample count differ from the pipeline's rtv_formats / dsv_format;\n"
    "        one subresource bound for writing (UAV, render target, depth) and through another binding (an SRV and a UAV of\n"
    "        one buffer); in validation mode a constant buffer shorter than its cbuffer.\n"
    "    UseAfterFreeError: the list was already executed.";
inline constexpr const char draw_indexed[] =
    "draw_indexed(self, index_count: typing.SupportsIndex, instance_count: typing.SupportsIndex = 1, start_index: typing.SupportsIndex = 0, "
    "base_vertex: typing.SupportsIndex = 0, start_instance: typing.SupportsIndex = 0) -> None\n\n"
    "Draws `index_count` indices of the bound index buffer (instanced).\n\n"
    "Args:\n"
    "    index_count, instance_count, start_index, base_vertex, start_instance: DrawIndexedInstanced's arguments\n"
    "        (base_vertex signed 32-bit, the others 0..2**32-1).\n\n"
    "Raises:\n"
    "    TypeError: a count of the wrong type.\n"
    "    InvalidArgumentError: no graphics pipeline, no index buffer set (set_index_buffer), a vertex-buffer slot its vertex\n"
    "        shader reads never set (set_vertex_buffer), a root argument unset, a value out of range, not a direct-queue list;\n"
    "        the target, binding and constant-buffer checks of draw.\n"
    "    UseAfterFreeError: the list was already executed.";
inline constexpr const char dispatch[] =
    "dispatch(self, x: typing.SupportsIndex | tuple[typing.SupportsIndex, ...], y: typing.SupportsIndex = 1, z: typing.SupportsIndex = 1) -> None\n\n"
    "Dispatches x * y * z thread groups of the compute pipeline; staged descriptors and barriers are committed first.\n"
    "The counts may also come as one tuple: dispatch((x, y, z)), dispatch((x, y)) (as dispatch_many's groups).\n\n"
    "Args:\n"
    "    x, y, z: thread groups per dimension (1..65535); or x a tuple of 1 to 3 counts, and no y or z.\n\n"
    "Raises:\n"
    "    TypeError: a count of the wrong type.\n"
    "    InvalidArgumentError: no compute pipeline, a root argument unset, a single-register table SRV/UAV it reads unset\n"
    "        (one set while a graphics pipeline was bound does not count: set it again after set_pipeline_state), a count out\n"
    "        of range, a copy-queue list; one\n"
    "        subresource bound as a UAV and through another binding (an SRV and a UAV of one buffer); in validation mode a\n"
    "        constant buffer shorter than its cbuffer.\n"
    "    UseAfterFreeError: the list was already executed.";
inline constexpr const char class_[] =
    "Records GPU work for one queue. Resource states, descriptor copies and upload memory are handled automatically.\n"
    "Create with CommandQueue.command_list(); submit with CommandQueue.execute().";
inline constexpr const char closed[] =
    "True once executed (no more recording). A failed execute leaves its lists open, unless a list\n"
    "failed to close (then execute raises DeviceError and that list can never run).";
inline constexpr const char auto_uav_barriers[] = "Insert a UAV barrier when a UAV written by an earlier draw/dispatch is used again (default True).";
inline constexpr const char upload_pages[] = "Upload pages this list holds.";
inline constexpr const char name[] = "The name given to queue.command_list(name=...), else 'command list'.";
inline constexpr const char upload[] =
    "Copies a numpy array into a buffer (at byte `offset`) or a texture subresource through upload memory.\n"
    "Textures take shape (height, width, channels) matching the format, or raw bytes (bytes, bytearray, 1-D uint8) of the\n"
    "subresource's tightly packed rows; block-compressed textures take their 4x4 blocks' bytes (rows of blocks). The array is copied now (change it freely\n"
    "afterwards); the data reaches the resource when the list executes, in execution order. On a cache-coherent UMA\n"
    "device (Device.uma_direct) execute writes a buffer's bytes on the CPU when no GPU work still uses it, else\n"
    "copies them on the GPU just before the list; see also CommandQueue.write_buffer.\n\n"
    "Args:\n"
    "    resource: a buffer or texture of this device in a 'default' or 'custom' heap.\n"
    "    array: the data (buffer protocol); for a texture, C-contiguous, the subresource's exact size.\n"
    "    mip, array_slice: the texture subresource (ignored for buffers).\n"
    "    offset: byte offset in a buffer.\n\n"
    "Raises:\n"
    "    TypeError: resource or array of the wrong type.\n"
    "    InvalidArgumentError: no data, data that does not fit, an upload/readback heap resource, another device's.\n"
    "    UseAfterFreeError: the list was executed, or the resource closed.";
inline constexpr const char copy_resource[] =
    "Copies the whole of `src` into `dst` (same size and format); both states are tracked.\n\n"
    "Args:\n"
    "    dst: the Buffer or Texture written.\n"
    "    src: the Buffer or Texture read (same size and format as dst).\n\n"
    "Raises:\n"
    "    InvalidArgumentError: resources that differ in size or format, or a closed one.";
inline constexpr const char copy_buffer_region[] =
    "Copies `size` bytes from `src` at `src_offset` to `dst` at `dst_offset`; bounds are checked.\n\n"
    "Args:\n"
    "    dst: the Buffer written.\n"
    "    dst_offset: byte offset in dst.\n"
    "    src: the Buffer read.\n"
    "    src_offset: byte offset in src.\n"
    "    size: bytes to copy.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: a range outside either buffer, or a texture given.";
inline constexpr const char allocate_upload[] =
    "Upload memory for the zero-copy path (see UploadAllocation).\n\n"
    "Args:\n"
    "    size: bytes to reserve.\n"
    "    alignment: alignment of the first byte in the upload page (a power of two).\n\n"
    "Returns:\n"
    "    An UploadAllocation of this list, to fill through .array().\n\n"
    "Raises:\n"
    "    InvalidArgumentError: a zero size or an alignment that is not a power of two.";
inline constexpr const char allocate_texture_upload[] =
    "Upload memory laid out for a texture mip (rows 256-byte aligned): fill .array(), then copy_from_upload.\n\n"
    "Args:\n"
    "    texture: the Texture whose mip (array slice 0) the memory is laid out for.\n"
    "    mip: the mip level.\n\n"
    "Returns:\n"
    "    An UploadAllocation of the mip's padded size (every row at the 256-byte row pitch).\n\n"
    "Raises:\n"
    "    InvalidArgumentError: a buffer given, or a mip out of range.";
inline constexpr const char copy_from_upload[] =
    "Copies an UploadAllocation (filled through .array()) into a buffer at `offset` or a texture subresource (mip, array_slice).\n\n"
    "Args:\n"
    "    dst: the Buffer or Texture written.\n"
    "    allocation: an UploadAllocation of this list, filled through .array().\n"
    "    mip, array_slice: the texture subresource written (ignored for buffers).\n"
    "    offset: byte offset in a buffer dst.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: an allocation of another list, or a range outside dst.";
inline constexpr const char transition_barrier[] =
    "Requests a state explicitly (goes through the state tracker; rarely needed).\n\n"
    "Args:\n"
    "    resource: the Buffer or Texture.\n"
    "    state: the ResourceState (or its name) it moves to.\n"
    "    subresource: one subresource, or ALL_SUBRESOURCES.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: a state the resource cannot take, or a subresource out of range.";
inline constexpr const char uav_barrier[] =
    "Records a UAV barrier on `resource` (None: on every UAV access), ordering UAV writes before later accesses.\n\n"
    "Args:\n"
    "    resource: a Buffer or Texture with uav=True, or None for every UAV access.";
inline constexpr const char aliasing_barrier[] =
    "Records an aliasing barrier between two placed resources sharing memory (either may be None). Not needed for\n"
    "resources placed in Device.allocate_memory memory: the first use of one after an overlapping one was used records\n"
    "that barrier by itself; an explicit one hands the memory to `after` and makes the automatic one unnecessary.\n\n"
    "Args:\n"
    "    before: the placed resource that used the memory so far, or None.\n"
    "    after: the placed resource that uses it next, or None.";
inline constexpr const char raw_transition[] =
    "Escape hatch: records a transition barrier directly, without the state tracker. Device(validate=True) reports\n"
    "uses that then find the resource in a state the tracker did not expect.\n\n"
    "Args:\n"
    "    resource: the Buffer or Texture.\n"
    "    before: the ResourceState it is in (the caller's claim; not checked against the tracker here).\n"
    "    after: the ResourceState it moves to.\n"
    "    subresource: one subresource, or ALL_SUBRESOURCES.";
inline constexpr const char set_pipeline_state[] =
    "Binds a pipeline and its root signature; the root arguments set after it apply to its side (graphics or compute).\n\n"
    "Args:\n"
    "    pso: the PipelineState (from create_compute_pipeline or create_graphics_pipeline).\n\n"
    "Raises:\n"
    "    TypeError: pso not a PipelineState.\n"
    "    InvalidArgumentError: a pipeline of another device, or a graphics pipeline on a compute-queue list.\n"
    "    UseAfterFreeError: the list was already executed.";
inline constexpr const char set_root_cbv[] =
    "Binds buffer + offset as the root constant-buffer view `root_index` (offset 256-byte aligned).\n\n"
    "Args:\n"
    "    root_index: a RootCBV root parameter of the bound root signature.\n"
    "    buffer: the Buffer bound.\n"
    "    offset: byte offset in buffer (a multiple of 256).\n\n"
    "Raises:\n"
    "    TypeError: buffer not a Buffer.\n"
    "    InvalidArgumentError: root_index not a RootCBV parameter, an offset outside the buffer or misaligned, a texture given.\n"
    "    UseAfterFreeError: the list was already executed, or the buffer closed.";
inline constexpr const char set_root_srv[] =
    "Binds buffer + offset as the root shader-resource view `root_index`.\n\n"
    "Args:\n"
    "    root_index: a RootSRV root parameter of the bound root signature.\n"
    "    buffer: the Buffer bound.\n"
    "    offset: byte offset in buffer.\n\n"
    "Raises:\n"
    "    TypeError: buffer not a Buffer.\n"
    "    InvalidArgumentError: root_index not a RootSRV parameter, an offset outside the buffer, a texture given.\n"
    "    UseAfterFreeError: the list was already executed, or the buffer closed.";
inline constexpr const char set_root_uav[] =
    "Binds buffer + offset as the root unordered-access view `root_index`; the buffer moves to UNORDERED_ACCESS.\n\n"
    "Args:\n"
    "    root_index: a RootUAV root parameter of the bound root signature.\n"
    "    buffer: the Buffer bound.\n"
    "    offset: byte offset in buffer.\n\n"
    "Raises:\n"
    "    TypeError: buffer not a Buffer.\n"
    "    InvalidArgumentError: root_index not a RootUAV parameter, an offset outside the buffer, a texture given.\n"
    "    UseAfterFreeError: the list was already executed, or the buffer closed.";
inline constexpr const char set_shader_resource_view[] =
    "Stages an SRV of `resource` into slot `descriptor_offset` of the descriptor table at `root_index`.\n\n"
    "Textures: all mips, or only `mip`, in the texture's format or `format`. Buffers: a view valid in D3D12's terms,\n"
    "of the kind the bound pipeline's shader declares at that slot unless given: StructuredBuffer<T> -> structured\n"
    "(format UNKNOWN, stride sizeof(T)), ByteAddressBuffer -> raw (R32_TYPELESS, RAW flag, 4-byte elements),\n"
    "Buffer<T> -> typed (T's natural 32-bit format: float4 -> rgba32_float, uint2 -> rg32_uint, int -> r32_sint).\n"
    "Without a kind at a slot the bound pipeline does not read, the view waits (null descriptor) for a pipeline\n"
    "that reads it; views taken from a declaration follow the next pipeline bound under the same root signature.\n\n"
    "Args:\n"
    "    root_index: a DescriptorTable root parameter of the bound root signature.\n"
    "    descriptor_offset: the slot in that table.\n"
    "    resource: a Texture or Buffer.\n"
    "    mip: textures only: view this one mip.\n"
    "    format: textures: the view format (same family); buffers: a typed view in this format.\n"
    "    stride: buffers: a structured view with this structure size in bytes.\n"
    "    raw: buffers: True for a raw view.\n"
    "    first_element: buffers: the view's first element (in elements of the view: stride, 4 bytes or the format's size).\n"
    "    num_elements: buffers: its element count (default: to the end of the buffer).\n\n"
    "Raises:\n"
    "    InvalidArgumentError: not a table slot; buffer arguments for a texture or mip= for a buffer; two view kinds given;\n"
    "        a buffer where the shader declares a texture, a texture where it declares a buffer or a texture of another\n"
    "        dimension (Texture2DArray, TextureCube, ...); a range outside the buffer; a format the device cannot view\n"
    "        buffers in; in validation mode (Device(validate=True)) a kind, stride or format\n"
    "        that differs from the shader's declaration (naming the register, what it declares and what was given).\n"
    "    TypeError: arguments of the wrong type.";
inline constexpr const char set_unordered_access_view[] =
    "Stages a UAV of `resource` into slot `descriptor_offset` of the descriptor table at `root_index`.\n\n"
    "Textures: one mip (default 0). Buffers: as set_shader_resource_view, from the shader's declaration unless given:\n"
    "RWStructuredBuffer<T> -> structured, RWByteAddressBuffer -> raw, RWBuffer<T> -> typed (formats with typed-UAV\n"
    "support only). The buffer must have been created with uav=True.\n\n"
    "Args:\n"
    "    root_index: a DescriptorTable root parameter of the bound root signature.\n"
    "    descriptor_offset: the slot in that table.\n"
    "    resource: a Texture or Buffer created with uav=True.\n"
    "    mip: textures only: the mip to view (default 0).\n"
    "    format: buffers: a typed view in this format.\n"
    "    stride: buffers: a structured view with this structure size in bytes.\n"
    "    raw: buffers: True for a raw view.\n"
    "    first_element: buffers: the view's first element (in elements of the view).\n"
    "    num_elements: buffers: its element count (default: to the end of the buffer).\n"
    "    counter: structured buffer views: the Buffer (uav=True) holding the view's UAV counter, which\n"
    "        Append/Consume and IncrementCounter/DecrementCounter count with (precompiled DXBC: imm_atomic_alloc,\n"
    "        imm_atomic_consume). It is read and written as a UAV (state UNORDERED_ACCESS, requested like the view).\n"
    "    counter_offset: the counter's byte offset in `counter` (a multiple of 4096,\n"
    "        D3D12_UAV_COUNTER_PLACEMENT_ALIGNMENT; default 0).\n\n"
    "Raises:\n"
    "    InvalidArgumentError: as set_shader_resource_view; a resource without uav=True; a counter on a texture or a\n"
    "        raw or typed view, a counter without uav=True, or a counter_offset off the 4096 grid or past its end.\n"
    "    TypeError: arguments of the wrong type.";
inline constexpr const char set_constant_buffer_view[] =
    "Stages a CBV of `buffer` (bytes [offset, offset + size)) into slot `descriptor_offset` of descriptor table `root_index`.\n\n"
    "Many constant blocks can share one buffer, each draw viewing its own block.\n\n"
    "Args:\n"
    "    root_index: the descriptor table's root parameter index.\n"
    "    descriptor_offset: the slot in that table.\n"
    "    buffer: the Buffer viewed.\n"
    "    offset: the view's first byte in the buffer (a multiple of 256; default 0).\n"
    "    size: the bytes viewed (a multiple of 256, at most 65536 = 4096 float4). None: the whole buffer (its size\n"
    "        rounded up to 256 bytes) when offset is 0, else the rest of it.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: offset or size not a multiple of 256, a size over 65536 or 0, a view past the\n"
    "        buffer's end, a texture, or no root signature bound.\n"
    "    TypeError: arguments of the wrong type.";
inline constexpr const char set_sampler[] =
    "Stages a SamplerState into slot `offset` of sampler descriptor table `root_index`.\n\n"
    "Args:\n"
    "    root_index: the sampler descriptor table's root parameter index.\n"
    "    descriptor_offset: the slot in that table.\n"
    "    sampler: a SamplerState (Device.create_sampler).\n\n"
    "Raises:\n"
    "    TypeError: sampler is not a SamplerState.";
inline constexpr const char clear_unordered_access_view[] =
    "Clears a UAV-capable resource to 4 values (floats: float clear; ints: uint clear). A texture's clear covers mip 0\n"
    "of every array slice. A buffer's float clear writes values[0] as a 32-bit float into every 4 bytes (a typed\n"
    "R32_FLOAT view, as D3D12 requires for float clears), its uint clear values[0] as a uint32 (the raw view).\n\n"
    "Args:\n"
    "    resource: a Buffer or Texture created with uav=True.\n"
    "    values: 4 numbers: floats for float and normalized formats, unsigned ints for integer formats and raw buffers.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: not 4 values, a resource without uav=True, or a float clear of a buffer under 4 bytes.";
inline constexpr const char set_render_targets[] =
    "Binds render targets (and depth); also sets a full-size viewport and scissor.\n\n"
    "Args:\n"
    "    textures: a Texture or a list of them (render_target=True), in SV_Target order.\n"
    "    depth: a depth-stencil Texture, or None.\n"
    "    mip: the mip level of every target bound.\n\n"
    "Raises:\n"
    "    TypeError: textures is neither a Texture nor a list of them.";
inline constexpr const char set_viewport[] =
    "Sets the viewport. D3D12's rules are checked: finite values, width and height >= 0, corners within\n"
    "[-32768, 32767], 0 <= min_depth <= max_depth <= 1.\n\n"
    "Args:\n"
    "    x, y: the top-left corner in pixels.\n"
    "    width, height: the size in pixels.\n"
    "    min_depth, max_depth: the depth range.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: values outside D3D12's rules above.";
inline constexpr const char set_scissor[] =
    "Sets the scissor rectangle (left <= right, top <= bottom).\n\n"
    "Args:\n"
    "    left, top, right, bottom: the rectangle in pixels.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: left > right or top > bottom.";
inline constexpr const char set_viewports[] =
    "Sets viewports 0..n-1 (1 <= n <= 16) from (x, y, width, height[, min_depth, max_depth]) tuples; a shader picks\n"
    "one with SV_ViewportArrayIndex (else viewport 0 is used). Each is checked as set_viewport checks one.\n\n"
    "Args:\n"
    "    viewports: a list of 1..16 (x, y, width, height[, min_depth, max_depth]) tuples.\n\n"
    "Raises:\n"
    "    TypeError: viewports is not a list of tuples.\n"
    "    InvalidArgumentError: a tuple of the wrong length, or values outside D3D12's rules.";
inline constexpr const char set_scissors[] =
    "Sets scissor rectangles 0..n-1 (1 <= n <= 16) from (left, top, right, bottom) tuples; rectangle i clips what\n"
    "viewport i draws.\n\n"
    "Args:\n"
    "    rects: a list of 1..16 (left, top, right, bottom) tuples.\n\n"
    "Raises:\n"
    "    TypeError: rects is not a list of tuples.\n"
    "    InvalidArgumentError: a tuple of the wrong length or an inverted rectangle.";
inline constexpr const char set_stencil_ref[] =
    "The stencil reference value (0..255) of the stencil test.\n\n"
    "Args:\n"
    "    ref: 0..255.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: ref above 255.";
inline constexpr const char set_blend_factor[] =
    "Sets the blend factor (D3D12 OMSetBlendFactor) that blend states with the 'blend_factor' / 'inv_blend_factor'\n"
    "factors read: the factor is (r, g, b, a) for colour and a for alpha, inv_blend_factor is 1 minus it. A list starts\n"
    "with zeros, as D3D12 documents for a new list (ClearState).\n\n"
    "Args:\n"
    "    rgba: 4 finite numbers (r, g, b, a).\n\n"
    "Raises:\n"
    "    TypeError: rgba is not a sequence of numbers.\n"
    "    InvalidArgumentError: not 4 values, a value that is not finite, or a list of a compute or copy queue.\n"
    "    UseAfterFreeError: the list was already executed.";
inline constexpr const char clear_render_target[] =
    "Clears one mip of a render-target texture to `rgba` (four floats): every array slice (cube face) of it, or\n"
    "only `array_slice`; a 3D texture's mip with all its depth slices.\n\n"
    "Args:\n"
    "    texture: a Texture created with render_target=True.\n"
    "    rgba: four floats.\n"
    "    mip: the mip level cleared.\n"
    "    array_slice: one array slice (cube face), or None for all.\n\n"
    "Raises:\n"
    "    TypeError: rgba is not a sequence.\n"
    "    InvalidArgumentError: not 4 values, or a mip or slice out of range.";
inline constexpr const char clear_depth_stencil[] =
    "Clears (mip, array_slice) of a depth-stencil texture, or every slice of the mip with array_slice=None (a\n"
    "cascaded or cube shadow map at once); depth in [0, 1] (clear_depth), stencil 0..255 (clear_stencil; formats\n"
    "without stencil ignore it unless it is the only thing asked for, which raises).\n\n"
    "Args:\n"
    "    texture: a Texture created with depth_stencil=True.\n"
    "    depth: the depth value, 0..1.\n"
    "    stencil: the stencil value, 0..255.\n"
    "    clear_depth, clear_stencil: which planes to clear.\n"
    "    mip: the mip level cleared.\n"
    "    array_slice: one array slice, or None for all.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: values out of range, or a stencil-only clear of a format without stencil.";
inline constexpr const char resolve[] =
    "Resolves multisampled `src` into single-sample `dst` (ResolveSubresource: each pixel the average of its\n"
    "samples). States are tracked (RESOLVE_SOURCE / RESOLVE_DEST). format: the format to resolve as (default:\n"
    "src's), a member of both textures' format families with MULTISAMPLE_RESOLVE support; subresources are\n"
    "mip + array_slice * mip_levels. Direct-queue lists only.\n\n"
    "Args:\n"
    "    dst: a single-sample Texture.\n"
    "    src: a multisampled Texture.\n"
    "    format: the format to resolve as (None: src's).\n"
    "    dst_subresource, src_subresource: the subresources.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: textures or a format that cannot be resolved, or a list of another queue type.";
inline constexpr const char set_vertex_buffer[] =
    "Binds `buffer` as vertex buffer `slot` with `stride` bytes per vertex, from `offset`.\n\n"
    "Args:\n"
    "    slot: the input slot (0..31).\n"
    "    buffer: the Buffer read.\n"
    "    stride: bytes per vertex.\n"
    "    offset: byte offset of the first vertex.";
inline constexpr const char set_index_buffer[] =
    "Binds `buffer` as the index buffer; format is a dx12kit.IndexFormat ('uint16' or 'uint32').\n\n"
    "Args:\n"
    "    buffer: the Buffer read.\n"
    "    format: an IndexFormat or its name.\n"
    "    offset: byte offset of the first index.";
inline constexpr const char set_dynamic_constant_buffer[] =
    "Copies `data` into upload memory (256-byte aligned) and binds it as the root CBV `root_index`.\n\n"
    "Args:\n"
    "    root_index: the root CBV parameter index.\n"
    "    data: bytes, a numpy array or anything with the buffer protocol.";
inline constexpr const char set_dynamic_vertex_buffer[] =
    "Copies an array into upload memory and binds it as vertex buffer `slot` (stride: the row size unless given).\n\n"
    "Args:\n"
    "    slot: the input slot.\n"
    "    array: the vertices (a numpy array).\n"
    "    stride: bytes per vertex; None takes the array's row size (2-D arrays).\n\n"
    "Raises:\n"
    "    InvalidArgumentError: a 1-D array without stride.";
inline constexpr const char set_dynamic_index_buffer[] =
    "Copies a uint16 or uint32 array into upload memory and binds it as the index buffer.\n\n"
    "Args:\n"
    "    array: uint16 or uint32 indices.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: another dtype.";
inline constexpr const char set_dynamic_structured_buffer[] =
    "Copies `array` into upload memory and binds it as the root SRV `root_index`.\n\n"
    "Args:\n"
    "    root_index: a RootSRV root parameter of the bound root signature.\n"
    "    array: the data (buffer protocol), copied now.\n\n"
    "Raises:\n"
    "    TypeError: array without the buffer protocol.\n"
    "    InvalidArgumentError: empty data, or root_index not a RootSRV parameter.\n"
    "    UseAfterFreeError: the list was already executed.";
inline constexpr const char draw_many[] =
    "Records one draw per row of `constants`: the row is set as the root constants of `root_index`, then\n"
    "DrawInstanced(vertex_count, instance_count, 0, 0). The same checks and state tracking as set_constants + draw per\n"
    "row, at a fraction of the cost (one call for the whole batch).\n\n"
    "Args:\n"
    "    vertex_count: vertices per draw.\n"
    "    constants: an (n, k) array of 32-bit values (float32, int32 or uint32; other numeric dtypes are converted by\n"
    "        value, as set_constants converts them): n draws, each with its row as root constants [0, k).\n"
    "    root_index: the root-constants parameter the rows go to (k <= its count).\n"
    "    instance_count: instances per draw.\n\n"
    "Raises:\n"
    "    TypeError: constants not an array (or list of rows), or a count of the wrong type.\n"
    "    InvalidArgumentError: constants not 2-D or of a dtype that is no 32-bit number; k larger than the parameter;\n"
    "        no graphics pipeline, a vertex-buffer slot its vertex shader reads never set on this list (set_vertex_buffer),\n"
    "        a root argument unset, not a direct-queue list; the target, binding and constant-buffer checks of draw.\n"
    "    UseAfterFreeError: the list was already executed.";
inline constexpr const char draw_indexed_many[] =
    "Records one indexed draw per row of `constants` (as draw_many): the row as root constants of `root_index`, then\n"
    "DrawIndexedInstanced(index_count, instance_count, 0, 0, 0) on the bound index buffer.\n\n"
    "Args:\n"
    "    index_count: indices per draw.\n"
    "    constants: an (n, k) array of 32-bit values, one row per draw (see draw_many).\n"
    "    root_index: the root-constants parameter the rows go to.\n"
    "    instance_count: instances per draw.\n\n"
    "Raises:\n"
    "    TypeError: constants not an array (or list of rows), or a count of the wrong type.\n"
    "    InvalidArgumentError: as draw_many, or no index buffer set (set_index_buffer).\n"
    "    UseAfterFreeError: the list was already executed.";
inline constexpr const char dispatch_many[] =
    "Records one dispatch per row of `constants`: the row is set as the root constants of `root_index`, then\n"
    "Dispatch(x, y, z). The same checks, state tracking and automatic UAV barriers as set_constants + dispatch per row.\n\n"
    "Args:\n"
    "    groups: thread groups (x, y, z) for every dispatch, or an (n, 3) integer array, one row per dispatch\n"
    "        (each 1..65535).\n"
    "    constants: an (n, k) array of 32-bit values (see draw_many), one row per dispatch.\n"
    "    root_index: the root-constants parameter the rows go to.\n\n"
    "Raises:\n"
    "    TypeError: constants or groups of the wrong type (groups not integers).\n"
    "    InvalidArgumentError: constants not 2-D or not 32-bit numbers; groups of the wrong shape or out of range;\n"
    "        no compute pipeline, a root argument unset, a copy-queue list.\n"
    "    UseAfterFreeError: the list was already executed.";
inline constexpr const char generate_mips[] =
    "Fills mips first_mip+1.. of every array slice of a 2D texture (array) from mip first_mip on the GPU.\n\n"
    "A compute pass writes up to 4 mips per dispatch (8x8 thread groups, 2x2 averages in groupshared memory);\n"
    "an odd size takes 2 or 4 bilinear taps per texel, so a constant image stays constant and the mean is kept.\n"
    "sRGB textures are averaged in linear light. Textures without uav=True go through a UAV-capable copy, and\n"
    "formats without typed UAVs (sRGB, BGRA) through an rgba8_unorm alias placed in the same memory, with\n"
    "aliasing barriers; Device.stats()['mips'] counts each route. States are tracked; temporaries live until\n"
    "the list's work completes. Device.format_support(format)['mip_autogen'] says which formats work.\n"
    "The pass binds its own pipeline and leaves none bound, its root arguments cleared: set your pipeline and root\n"
    "arguments again before the next draw or dispatch (one left unset raises).\n\n"
    "Args:\n"
    "    texture: a 2D texture or 2D texture array (not multisampled).\n"
    "    first_mip: the mip the others are made from (0..mip_levels-1); mips above it are left alone.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: on a copy-queue list; a buffer, 3D or multisampled texture; first_mip out of range;\n"
    "        a depth, integer or otherwise unsupported format (the message says why).\n"
    "    UseAfterFreeError: the texture was closed or the list already executed.";
inline constexpr const char pano_to_cubemap[] =
    "Fills every mip of a cube texture from an equirectangular panorama (a 2D texture) with a compute pass; direct or\n"
    "compute lists (a copy list raises).\n\n"
    "Faces: +X, -X, +Y, -Y, +Z, -Z, +Y up, as TextureCube sampling expects. Panorama layout: u = 0.5 + atan2(x, -z) / 2pi,\n"
    "v = acos(y) / pi for a direction (x, y, z): row 0 looks straight up, the centre column along -Z, u = 0.75 along +X.\n"
    "Every mip is made from the panorama itself (not by downsampling the mip above): each texel averages samples of\n"
    "the panorama about one panorama texel apart, read through the panorama's mips when it has them (so a panorama\n"
    "with mips is faster at small cube mips, one without is box-filtered).\n\n"
    "Formats: the cube's format must be writable through a typed UAV: rgba8_unorm, rgba16_float, rgba32_float... sRGB\n"
    "cubes (rgba8_unorm_srgb) are written through rgba8_unorm with the colours encoded to sRGB by the shader. A cube\n"
    "without uav=True (or an sRGB one) is written through a staging cube and copied. Afterwards no pipeline is set\n"
    "on the list and root arguments are unbound: set them again before the next draw or dispatch.\n\n"
    "Args:\n    cubemap: the cube Texture written (every mip).\n    panorama: the equirectangular 2D Texture read.\n\nRaises:\n"
    "    InvalidArgumentError: `cubemap` is not a cube texture, `panorama` not a 2D texture, a format that cannot be\n"
    "        sampled or written (integer formats; bgra8 on devices without bgra8 UAVs), or a copy-queue list.";
inline constexpr const char resource_barriers[] =
    "Records every barrier of a BarrierBatch, in order, as the separate calls would.\n\n"
    "Args:\n"
    "    batch: the BarrierBatch.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: a resource of another device, or a state this list's queue type may not\n"
    "        use (the entries before it stay recorded).\n"
    "    UseAfterFreeError: the list was executed already.";
inline constexpr const char execute_indirect[] =
    "Runs up to `max_count` commands whose arguments the GPU reads from `argument_buffer`\n"
    "(ID3D12GraphicsCommandList::ExecuteIndirect): command i at argument_offset + i * signature.byte_stride. With a\n"
    "count_buffer, the uint32 there says how many run (at most max_count). Both buffers go to INDIRECT_ARGUMENT\n"
    "through the state tracker, so a compute pass may write them earlier in the same list. Draws and dispatches use\n"
    "what is bound, as draw and dispatch do (pipeline, root arguments, tables, targets, vertex and index buffers).\n\n"
    "Args:\n"
    "    signature: a CommandSignature of this device; a draw signature needs a graphics pipeline bound (direct\n"
    "        lists), a dispatch signature a compute pipeline; one that changes root arguments needs its root\n"
    "        signature bound.\n"
    "    max_count: the most commands run (0 runs nothing).\n"
    "    argument_buffer: the Buffer holding the commands.\n"
    "    argument_offset: where the first command starts (a multiple of 4).\n"
    "    count_buffer: a Buffer holding the command count as uint32, or None to run max_count commands.\n"
    "    count_offset: where the count is in count_buffer (a multiple of 4).\n"
    "    referenced: the Buffers the commands' vertex/index buffer views and root CBV/SRV/UAV addresses point\n"
    "        into; required when the signature changes root CBVs (constant_buffer_view arguments), optional for the\n"
    "        other kinds, refused when no argument carries an address. Each goes to the state the signature's\n"
    "        arguments use it in (the union when it has several kinds): VERTEX_AND_CONSTANT_BUFFER for\n"
    "        vertex_buffer_view and constant_buffer_view, INDEX_BUFFER for index_buffer_view,\n"
    "        NON_PIXEL_SHADER_RESOURCE and/or PIXEL_SHADER_RESOURCE for shader_resource_view as its root\n"
    "        parameter's visibility says (a dispatch: NON_PIXEL; ALL: both), UNORDERED_ACCESS for\n"
    "        unordered_access_view (written: UAV barriers as for a bound UAV). Upload-heap buffers stay\n"
    "        GENERIC_READ. On vkd3d 1.2, which ignores root CBV arguments, a built-in compute pass copies each\n"
    "        command's constant data from them into a staging buffer on the GPU and the draws read it there (at\n"
    "        most 8 buffers; docs/guides/shader-gaps.rst, 'ExecuteIndirect').\n\n"
    "Raises:\n"
    "    InvalidArgumentError: misaligned offsets, buffers too small for max_count commands (or the count), a\n"
    "        pipeline or root signature that does not match the signature, a buffer also bound for another use,\n"
    "        what draw or dispatch refuse, a count buffer with a dispatch signature on vkd3d 1.2 (which ignores it),\n"
    "        referenced= missing or given where it does not belong, a referenced buffer that is a texture, in a\n"
    "        readback heap, in an upload heap for root UAVs, bound by the list for the other of reading and\n"
    "        writing, or given to a signature that writes through root UAVs and reads through other arguments (a\n"
    "        buffer cannot be written and read in one call; the message names it). On vkd3d 1.2 a root CBV address\n"
    "        the GPU wrote that lies in no referenced buffer (or is not 256-byte aligned) is found by the pass: that\n"
    "        command does not draw, and the queue's next wait, flush or read raises InvalidArgumentError naming it.\n"
    "    TypeError: arguments of the wrong type.";
inline constexpr const char begin_query[] =
    "Starts query `index` of `heap` (ID3D12GraphicsCommandList::BeginQuery). End it with end_query in this list.\n\n"
    "Args:\n"
    "    heap: a QueryHeap of this device.\n"
    "    kind: 'occlusion' (samples that pass the depth and stencil tests) or 'binary_occlusion' (0/1) in an\n"
    "        occlusion heap, on direct lists; 'pipeline_statistics' in such a heap, on direct and compute lists.\n"
    "        Timestamps are not begun: end_query writes one.\n"
    "    index: the query, 0 .. heap.count-1.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: an index out of range, a kind that does not belong in the heap or on this list's\n"
    "        queue, 'timestamp', or a query already active.";
inline constexpr const char end_query[] =
    "Ends query `index` begun in this list, or writes timestamp `index` (ID3D12GraphicsCommandList::EndQuery: a\n"
    "timestamp is taken when the GPU has finished the work before it; ticks of queue.timestamp_frequency).\n\n"
    "Args:\n"
    "    heap: a QueryHeap of this device.\n"
    "    kind: as begin_query, or 'timestamp' (a timestamp heap, on direct and compute lists).\n"
    "    index: the query, 0 .. heap.count-1.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: an index out of range, a kind that does not belong in the heap or on this list's\n"
    "        queue, or a query (other than a timestamp) not begun in this list, or begun as another kind.";
inline constexpr const char resolve_query_data[] =
    "Writes the results of queries [start, start + count) into `buffer` at `offset`\n"
    "(ID3D12GraphicsCommandList::ResolveQueryData): one uint64 per query, or for 'pipeline_statistics' 11 uint64\n"
    "(D3D12_QUERY_DATA_PIPELINE_STATISTICS, 88 bytes). The buffer goes to COPY_DEST through the state tracker.\n"
    "'binary_occlusion' results are 0 or 1 (on vkd3d 1.2, which resolves sample counts, through a built-in pass;\n"
    "in a list whose bound pipeline is a compute pipeline, set its root arguments again after this call).\n\n"
    "Args:\n"
    "    heap: a QueryHeap of this device.\n"
    "    kind: the kind the queries were recorded as.\n"
    "    start: the first query.\n"
    "    count: how many (at least 1).\n"
    "    buffer: the Buffer written (not an upload buffer).\n"
    "    offset: byte offset in buffer, a multiple of 8.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: a range outside the heap or the buffer, an offset not a multiple of 8, a kind that\n"
    "        does not belong in the heap or on this list's queue, a query still active, a texture.";
inline constexpr const char set_predication[] =
    "Predicates the work recorded after it on the 64-bit value at `offset` of `buffer`\n"
    "(ID3D12GraphicsCommandList::SetPredication); None ends predication. With 'equal_zero' draws, dispatches,\n"
    "copies, clears and resolves are skipped while the value is 0 (e.g. a 'binary_occlusion' result: skip what\n"
    "was hidden); with 'not_equal_zero' while it is not. The buffer goes to the PREDICATION state through the\n"
    "state tracker. Direct and compute lists.\n"
    "vkd3d 1.2 (docs/guides/shader-gaps.rst): it reads 32 of the 64 bits, so dx12kit predicates on a 0/1 copy of\n"
    "the value taken here by a built-in pass (in a list whose bound pipeline is a compute pipeline, set its root\n"
    "arguments again after this call); it does not predicate copies, clears or resolves, so those raise\n"
    "InvalidArgumentError while a predicate is set.\n\n"
    "Args:\n"
    "    buffer: the Buffer holding the predicate, or None to end predication.\n"
    "    offset: byte offset of the uint64 predicate, a multiple of 8.\n"
    "    op: 'equal_zero' or 'not_equal_zero' (when the work is skipped).\n\n"
    "Raises:\n"
    "    InvalidArgumentError: an offset not a multiple of 8 or outside the buffer, a texture, a copy-queue list.";
}  // namespace CommandList

}  // namespace dx12kit::bindings::docs
