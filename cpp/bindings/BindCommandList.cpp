// dx12core: CommandList (recording; its zero-copy UploadAllocation is BindUploadAllocation.cpp).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

#include "dx12kit/gpu/PinnedUpload.hpp"

namespace dx12kit::bindings {

namespace {

/// An array_slice argument of the clears: None for every slice (CommandList::kAllSlices), else one.
uint32_t SliceArg(const py::object& slice, const char* fn) {
    if (slice.is_none()) return CommandList::kAllSlices;
    const uint32_t s = U32(Int{slice}, fn, "array_slice");
    if (s == CommandList::kAllSlices) throw InvalidArgument(std::string(fn) + ": array_slice " + std::to_string(s) + " out of range");
    return s;
}

}  // namespace

void BindCommandList(py::module_& m, Classes& c) {
    // ---- command list -------------------------------------------------------------------------
    Documented(c.commandList,
        "Records GPU work for one queue. Resource states, descriptor copies and upload memory are handled automatically.\n"
        "Create with CommandQueue.command_list(); submit with CommandQueue.execute().")
        .def_property_readonly("closed", &CommandList::IsClosed,
                               "True once executed (no more recording). A failed execute leaves its lists open, unless a list\n"
                               "failed to close (then execute raises DeviceError and that list can never run).")
        .def_readwrite("auto_uav_barriers", &CommandList::AutoUavBarriers,
                       "Insert a UAV barrier when a UAV written by an earlier draw/dispatch is used again (default True).")
        .def_property_readonly("upload_pages", &CommandList::UploadPageCount, "Upload pages this list holds.")
        .def("__repr__", [](const CommandList& cl) {
            return std::string("<dx12kit.CommandList ") + QueueKindName(cl.Queue().Type()) + (cl.Name() != "command list" ? " '" + cl.Name() + "'" : "") +
                   (cl.IsClosed() ? " executed" : " recording") + ">";
        })
        .def_property_readonly("name", &CommandList::Name, "The name given to queue.command_list(name=...), else 'command list'.")
        .def("upload", [](CommandList& cl, py::handle res, py::handle array, Int mipArg, Int sliceArg, Int offsetArg) {
            auto r = AsResource(res, "upload");
            const uint32_t mip = U32(mipArg, "upload", "mip"), slice = U32(sliceArg, "upload", "array_slice");
            const uint64_t offset = U64(offsetArg, "upload", "offset");
            Bytes b = GetBytes(array, "upload");
            if (!r->IsBuffer()) {
                r->CheckMipSlice(mip, slice, "upload");
                CheckTextureArray(static_cast<Texture&>(*r), b, mip);
            }
            if (b.size >= (uint64_t(1) << 20)) {  // a long copy: other Python threads may run meanwhile
                ReleaseGil release;
                cl.Upload(r, b.data, b.size, mip, slice, offset);
                return;
            }
            cl.Upload(r, b.data, b.size, mip, slice, offset);
        }, "resource"_a, "array"_a, "mip"_a = 0, "array_slice"_a = 0, "offset"_a = 0,
           "Copies a numpy array into a buffer (at byte `offset`) or a texture subresource through upload memory.\n"
           "Textures take shape (height, width, channels) matching the format. The array is copied now (change it freely\n"
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
           "    UseAfterFreeError: the list was executed, or the resource closed.")
        .def("copy_resource", [](CommandList& cl, py::handle dst, py::handle src) {
            cl.CopyResource(AsResource(dst, "copy_resource"), AsResource(src, "copy_resource"));
        }, "dst"_a, "src"_a, "Copies the whole of `src` into `dst` (same size and format); both states are tracked.\n\n"
           "Args:\n"
           "    dst: the Buffer or Texture written.\n"
           "    src: the Buffer or Texture read (same size and format as dst).\n\n"
           "Raises:\n"
           "    InvalidArgumentError: resources that differ in size or format, or a closed one.")
        .def("copy_buffer_region", [](CommandList& cl, py::handle dst, Int dstOffset, py::handle src, Int srcOffset, Int size) {
            const char* fn = "copy_buffer_region";
            cl.CopyBufferRegion(AsResource(dst, fn), U64(dstOffset, fn, "dst_offset"), AsResource(src, fn), U64(srcOffset, fn, "src_offset"),
                                U64(size, fn, "size"));
        }, "dst"_a, "dst_offset"_a, "src"_a, "src_offset"_a, "size"_a, "Copies `size` bytes from `src` at `src_offset` to `dst` at `dst_offset`; bounds are checked.\n\n"
           "Args:\n"
           "    dst: the Buffer written.\n"
           "    dst_offset: byte offset in dst.\n"
           "    src: the Buffer read.\n"
           "    src_offset: byte offset in src.\n"
           "    size: bytes to copy.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a range outside either buffer, or a texture given.")
        .def("allocate_upload", [](std::shared_ptr<CommandList> cl, Int size, Int alignment) {
            return PinnedUpload(std::move(cl), U64(size, "allocate_upload", "size"), U64(alignment, "allocate_upload", "alignment"));
        }, "size"_a, "alignment"_a = 256, "Upload memory for the zero-copy path (see UploadAllocation).\n\n"
           "Args:\n"
           "    size: bytes to reserve.\n"
           "    alignment: alignment of the first byte in the upload page (a power of two).\n\n"
           "Returns:\n"
           "    An UploadAllocation of this list, to fill through .array().\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a zero size or an alignment that is not a power of two.")
        .def("allocate_texture_upload", [](std::shared_ptr<CommandList> cl, py::handle tex, Int mipArg) {
            const char* fn = "allocate_texture_upload";
            return PinnedUpload::ForTexture(std::move(cl), AsResource(tex, fn), U32(mipArg, fn, "mip"), fn);
        }, "texture"_a, "mip"_a = 0, "Upload memory laid out for a texture mip (rows 256-byte aligned): fill .array(), then copy_from_upload.\n\n"
           "Args:\n"
           "    texture: the Texture whose mip (array slice 0) the memory is laid out for.\n"
           "    mip: the mip level.\n\n"
           "Returns:\n"
           "    An UploadAllocation of the mip's padded size (every row at the 256-byte row pitch).\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a buffer given, or a mip out of range.")
        .def("copy_from_upload", [](CommandList& cl, py::handle dst, const PinnedUpload& u, Int mip, Int slice, Int offset) {
            const char* fn = "copy_from_upload";
            if (&u.List() != &cl) throw InvalidArgument("copy_from_upload: the allocation belongs to another command list");
            cl.CopyFromUpload(AsResource(dst, fn), u.Allocation(), U32(mip, fn, "mip"), U32(slice, fn, "array_slice"), U64(offset, fn, "offset"));
        }, "dst"_a, "allocation"_a, "mip"_a = 0, "array_slice"_a = 0, "offset"_a = 0, "Copies an UploadAllocation (filled through .array()) into a buffer at `offset` or a texture subresource (mip, array_slice).\n\n"
           "Args:\n"
           "    dst: the Buffer or Texture written.\n"
           "    allocation: an UploadAllocation of this list, filled through .array().\n"
           "    mip, array_slice: the texture subresource written (ignored for buffers).\n"
           "    offset: byte offset in a buffer dst.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: an allocation of another list, or a range outside dst.")
        .def("transition_barrier", [](CommandList& cl, py::handle r, py::handle s, Int sub) {
            auto res = AsResource(r, "transition_barrier");
            cl.TransitionBarrier(res, StateArg(s, "transition_barrier", "state", *res), U32(sub, "transition_barrier", "subresource"));
        }, "resource"_a, "state"_a, "subresource"_a = kAllSubresources,
           "Requests a state explicitly (goes through the state tracker; rarely needed).\n\n"
           "Args:\n"
           "    resource: the Buffer or Texture.\n"
           "    state: the ResourceState (or its name) it moves to.\n"
           "    subresource: one subresource, or ALL_SUBRESOURCES.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a state the resource cannot take, or a subresource out of range.")
        .def("uav_barrier", [](CommandList& cl, py::handle r) {
            cl.UavBarrier(r.is_none() ? nullptr : AsResource(r, "uav_barrier"));
        }, "resource"_a = py::none(), "Records a UAV barrier on `resource` (None: on every UAV access), ordering UAV writes before later accesses.\n\n"
           "Args:\n"
           "    resource: a Buffer or Texture with uav=True, or None for every UAV access.")
        .def("aliasing_barrier", [](CommandList& cl, py::handle before, py::handle after) {
            cl.AliasingBarrier(before.is_none() ? nullptr : AsResource(before, "aliasing_barrier"),
                               after.is_none() ? nullptr : AsResource(after, "aliasing_barrier"));
        }, "before"_a = py::none(), "after"_a = py::none(), "Records an aliasing barrier between two placed resources sharing memory (either may be None). Not needed for\n"
           "resources placed in Device.allocate_memory memory: the first use of one after an overlapping one was used records\n"
           "that barrier by itself; an explicit one hands the memory to `after` and makes the automatic one unnecessary.\n\n"
           "Args:\n"
           "    before: the placed resource that used the memory so far, or None.\n"
           "    after: the placed resource that uses it next, or None.")
        .def("raw_transition", [](CommandList& cl, py::handle r, py::handle before, py::handle after, Int sub) {
            auto res = AsResource(r, "raw_transition");
            cl.RawTransition(res, StateArg(before, "raw_transition", "before", *res), StateArg(after, "raw_transition", "after", *res),
                             U32(sub, "raw_transition", "subresource"));
        }, "resource"_a, "before"_a, "after"_a, "subresource"_a = kAllSubresources,
           "Escape hatch: records a transition barrier directly, without the state tracker. Device(validate=True) reports\n"
           "uses that then find the resource in a state the tracker did not expect.\n\n"
           "Args:\n"
           "    resource: the Buffer or Texture.\n"
           "    before: the ResourceState it is in (the caller's claim; not checked against the tracker here).\n"
           "    after: the ResourceState it moves to.\n"
           "    subresource: one subresource, or ALL_SUBRESOURCES.")
        .def("set_pipeline_state", &CommandList::SetPipelineState, "pso"_a,
             "Binds a pipeline and its root signature; later set_* calls apply to its side (graphics or compute).")
        .def("set_constants", [](CommandList& cl, Int root, py::handle values, Int offset) {
            const char* fn = "set_constants";
            const uint32_t rootIndex = U32(root, fn, "root_index"), first = U32(offset, fn, "offset");
            std::vector<uint32_t> v = Dwords(values, fn);
            if (v.size() > UINT32_MAX) throw InvalidArgument("set_constants: too many values");
            cl.SetConstants(rootIndex, v.data(), static_cast<uint32_t>(v.size()), first);
        }, "root_index"_a, "values"_a, "offset"_a = 0, "Sets 32-bit root constants (numpy array, bytes, or a list of ints/floats).")
        .def("set_root_cbv", [](CommandList& cl, Int root, py::handle b, Int off) {
            cl.SetRootView(RootParamKind::Cbv, U32(root, "set_root_cbv", "root_index"), AsResource(b, "set_root_cbv"), U64(off, "set_root_cbv", "offset"));
        },
             "root_index"_a, "buffer"_a, "offset"_a = 0, "Binds buffer + offset as the root constant-buffer view `root_index` (offset 256-byte aligned).")
        .def("set_root_srv", [](CommandList& cl, Int root, py::handle b, Int off) {
            cl.SetRootView(RootParamKind::Srv, U32(root, "set_root_srv", "root_index"), AsResource(b, "set_root_srv"), U64(off, "set_root_srv", "offset"));
        },
             "root_index"_a, "buffer"_a, "offset"_a = 0, "Binds buffer + offset as the root shader-resource view `root_index`.")
        .def("set_root_uav", [](CommandList& cl, Int root, py::handle b, Int off) {
            cl.SetRootView(RootParamKind::Uav, U32(root, "set_root_uav", "root_index"), AsResource(b, "set_root_uav"), U64(off, "set_root_uav", "offset"));
        },
             "root_index"_a, "buffer"_a, "offset"_a = 0, "Binds buffer + offset as the root unordered-access view `root_index`; the buffer moves to UNORDERED_ACCESS.")
        .def("set_shader_resource_view", [](CommandList& cl, Int root, Int offset, py::handle r, py::object mip, py::object format,
                                            py::object stride, py::object raw, py::object first, py::object num) {
            const char* fn = "set_shader_resource_view";
            const uint32_t rootIndex = U32(root, fn, "root_index"), slot = U32(offset, fn, "descriptor_offset");
            auto res = AsResource(r, fn);
            const BufferViewArgs view = BufferViewArguments(*res, stride, raw, first, num, fn);
            uint32_t firstMip = 0, count = 0;
            if (!mip.is_none()) { firstMip = U32(mip, fn, "mip"); count = 1; }
            DXGI_FORMAT f = format.is_none() ? DXGI_FORMAT_UNKNOWN
                            : res->IsBuffer() ? ParseBufferFormat(format, fn) : ParseFormat(format, fn);
            if (res->IsBuffer() && !mip.is_none()) throw InvalidArgument("set_shader_resource_view: resource '" + res->Name() + "' is a buffer; mip= applies to textures");
            cl.SetShaderResourceView(rootIndex, slot, res, firstMip, count, f, view);
        }, "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = py::none(), "format"_a = py::none(),
           "stride"_a = py::none(), "raw"_a = py::none(), "first_element"_a = py::none(), "num_elements"_a = py::none(),
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
           "        a slot the shader declares as a texture; a range outside the buffer; a format the device cannot view\n"
           "        buffers in; in validation mode (Device(validate=True)) a kind, stride or format\n"
           "        that differs from the shader's declaration (naming the register, what it declares and what was given).\n"
           "    TypeError: arguments of the wrong type.")
        .def("set_unordered_access_view", [](CommandList& cl, Int root, Int offset, py::handle r, py::object mip, py::object format,
                                             py::object stride, py::object raw, py::object first, py::object num) {
            const char* fn = "set_unordered_access_view";
            const uint32_t rootIndex = U32(root, fn, "root_index"), slot = U32(offset, fn, "descriptor_offset");
            auto res = AsResource(r, fn);
            BufferViewArgs view = BufferViewArguments(*res, stride, raw, first, num, fn);
            if (!format.is_none()) {
                if (!res->IsBuffer()) throw InvalidArgument("set_unordered_access_view: format= applies to buffers (typed views)");
                view.format = ParseBufferFormat(format, fn);
            }
            if (res->IsBuffer() && !mip.is_none()) throw InvalidArgument("set_unordered_access_view: resource '" + res->Name() + "' is a buffer; mip= applies to textures");
            cl.SetUnorderedAccessView(rootIndex, slot, res, mip.is_none() ? 0u : U32(mip, fn, "mip"), view);
        }, "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = py::none(), "format"_a = py::none(),
           "stride"_a = py::none(), "raw"_a = py::none(), "first_element"_a = py::none(), "num_elements"_a = py::none(),
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
           "    num_elements: buffers: its element count (default: to the end of the buffer).\n\n"
           "Raises:\n"
           "    InvalidArgumentError: as set_shader_resource_view; a resource without uav=True.\n"
           "    TypeError: arguments of the wrong type.")
        .def("set_constant_buffer_view", [](CommandList& cl, Int root, Int offset, py::handle b) {
            const char* fn = "set_constant_buffer_view";
            cl.SetConstantBufferView(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), AsResource(b, fn));
        }, "root_index"_a, "descriptor_offset"_a, "buffer"_a, "Stages a CBV of `buffer` into slot `offset` of descriptor table `root_index`.\n\n"
           "Args:\n"
           "    root_index: the descriptor table's root parameter index.\n"
           "    descriptor_offset: the slot in that table.\n"
           "    buffer: the Buffer viewed (its size rounded up to 256 bytes).")
        .def("set_sampler", [](CommandList& cl, Int root, Int offset, py::handle sampler) {
            const char* fn = "set_sampler";
            if (!py::isinstance<Sampler>(sampler))
                throw py::type_error("set_sampler: sampler must be a dx12kit.SamplerState (Device.create_sampler), not " + detail::TypeName(sampler));
            cl.SetSampler(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), sampler.cast<std::shared_ptr<Sampler>>());
        }, "root_index"_a, "descriptor_offset"_a, "sampler"_a, "Stages a SamplerState into slot `offset` of sampler descriptor table `root_index`.\n\n"
           "Args:\n"
           "    root_index: the sampler descriptor table's root parameter index.\n"
           "    descriptor_offset: the slot in that table.\n"
           "    sampler: a SamplerState (Device.create_sampler).\n\n"
           "Raises:\n"
           "    TypeError: sampler is not a SamplerState.")
        .def("clear_unordered_access_view", [](CommandList& cl, py::handle r, py::object valuesObj) {
            const char* fn = "clear_unordered_access_view";
            auto res = AsResource(r, fn);
            if (!py::isinstance<py::sequence>(valuesObj) || py::isinstance<py::str>(valuesObj))
                throw py::type_error(std::string(fn) + ": values must be a sequence of 4 numbers, not " + detail::TypeName(valuesObj));
            py::sequence values = valuesObj;
            if (py::len(values) != 4) throw InvalidArgument("clear_unordered_access_view: 4 values expected");
            bool floats = false;
            for (py::handle v : values) floats |= py::isinstance<py::float_>(v);
            if (floats) {
                float f[4];
                for (int i = 0; i < 4; ++i) f[i] = F32(values[i], fn, "values item");
                cl.ClearUnorderedAccessViewFloat(res, f);
            } else {
                uint32_t u[4];
                for (int i = 0; i < 4; ++i) u[i] = U32(values[i], fn, "values item");
                cl.ClearUnorderedAccessViewUint(res, u);
            }
        }, "resource"_a, "values"_a, "Clears a UAV-capable resource to 4 values (floats: float clear; ints: uint clear).\n\n"
           "Args:\n"
           "    resource: a Buffer or Texture created with uav=True.\n"
           "    values: 4 numbers: floats for float and normalized formats, unsigned ints for integer formats and raw buffers.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: not 4 values, or a resource without uav=True.")
        .def("set_render_targets", [](CommandList& cl, py::object targets, py::object depth, Int mipArg) {
            const uint32_t mip = U32(mipArg, "set_render_targets", "mip");
            std::vector<std::shared_ptr<Resource>> ts;
            if (!targets.is_none()) {
                if (py::isinstance<Resource>(targets)) ts.push_back(AsResource(targets, "set_render_targets"));
                else if (py::isinstance<py::iterable>(targets) && !py::isinstance<py::str>(targets))
                    for (py::handle t : targets) ts.push_back(AsResource(t, "set_render_targets"));
                else throw py::type_error("set_render_targets: textures must be a Texture or a list of them, not " + detail::TypeName(targets));
            }
            cl.SetRenderTargets(ts, depth.is_none() ? nullptr : AsResource(depth, "set_render_targets"), mip);
        }, "textures"_a, "depth"_a = py::none(), py::kw_only(), "mip"_a = 0,
           "Binds render targets (and depth); also sets a full-size viewport and scissor.\n\n"
           "Args:\n"
           "    textures: a Texture or a list of them (render_target=True), in SV_Target order.\n"
           "    depth: a depth-stencil Texture, or None.\n"
           "    mip: the mip level of every target bound.\n\n"
           "Raises:\n"
           "    TypeError: textures is neither a Texture nor a list of them.")
        .def("set_viewport", [](CommandList& cl, Float x, Float y, Float w, Float h, Float minDepth, Float maxDepth) {
            const char* fn = "set_viewport";
            cl.SetViewport(F32(x, fn, "x"), F32(y, fn, "y"), F32(w, fn, "width"), F32(h, fn, "height"), F32(minDepth, fn, "min_depth"),
                           F32(maxDepth, fn, "max_depth"));
        }, "x"_a, "y"_a, "width"_a, "height"_a, "min_depth"_a = 0.0f, "max_depth"_a = 1.0f,
           "Sets the viewport. D3D12's rules are checked: finite values, width and height >= 0, corners within\n"
           "[-32768, 32767], 0 <= min_depth <= max_depth <= 1.\n\n"
           "Args:\n"
           "    x, y: the top-left corner in pixels.\n"
           "    width, height: the size in pixels.\n"
           "    min_depth, max_depth: the depth range.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: values outside D3D12's rules above.")
        .def("set_scissor", [](CommandList& cl, Int l, Int t, Int r, Int b) {
            const char* fn = "set_scissor";
            cl.SetScissor(I32(l, fn, "left"), I32(t, fn, "top"), I32(r, fn, "right"), I32(b, fn, "bottom"));
        }, "left"_a, "top"_a, "right"_a, "bottom"_a, "Sets the scissor rectangle (left <= right, top <= bottom).\n\n"
           "Args:\n"
           "    left, top, right, bottom: the rectangle in pixels.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: left > right or top > bottom.")
        .def("set_viewports", [](CommandList& cl, py::object list) {
            const char* fn = "set_viewports";
            if (!py::isinstance<py::sequence>(list) || py::isinstance<py::str>(list))
                throw py::type_error("set_viewports: expected a list of (x, y, width, height[, min_depth, max_depth]) tuples, not " +
                                     detail::TypeName(list));
            std::vector<D3D12_VIEWPORT> vps;
            for (py::handle item : list) {
                if (!py::isinstance<py::sequence>(item) || py::isinstance<py::str>(item))
                    throw py::type_error("set_viewports: each viewport is a tuple (x, y, width, height[, min_depth, max_depth]), not " +
                                         detail::TypeName(item));
                py::sequence t = py::reinterpret_borrow<py::sequence>(item);
                if (py::len(t) != 4 && py::len(t) != 6)
                    throw InvalidArgument("set_viewports: each viewport is (x, y, width, height[, min_depth, max_depth]), got " +
                                          std::to_string(py::len(t)) + " values");
                D3D12_VIEWPORT vp{F32(t[0], fn, "x"), F32(t[1], fn, "y"), F32(t[2], fn, "width"), F32(t[3], fn, "height"), 0.0f, 1.0f};
                if (py::len(t) == 6) { vp.MinDepth = F32(t[4], fn, "min_depth"); vp.MaxDepth = F32(t[5], fn, "max_depth"); }
                vps.push_back(vp);
            }
            cl.SetViewports(vps);
        }, "viewports"_a,
           "Sets viewports 0..n-1 (1 <= n <= 16) from (x, y, width, height[, min_depth, max_depth]) tuples; a shader picks\n"
           "one with SV_ViewportArrayIndex (else viewport 0 is used). Each is checked as set_viewport checks one.\n\n"
           "Args:\n"
           "    viewports: a list of 1..16 (x, y, width, height[, min_depth, max_depth]) tuples.\n\n"
           "Raises:\n"
           "    TypeError: viewports is not a list of tuples.\n"
           "    InvalidArgumentError: a tuple of the wrong length, or values outside D3D12's rules.")
        .def("set_scissors", [](CommandList& cl, py::object list) {
            const char* fn = "set_scissors";
            if (!py::isinstance<py::sequence>(list) || py::isinstance<py::str>(list))
                throw py::type_error("set_scissors: expected a list of (left, top, right, bottom) tuples, not " + detail::TypeName(list));
            std::vector<D3D12_RECT> rects;
            for (py::handle item : list) {
                if (!py::isinstance<py::sequence>(item) || py::isinstance<py::str>(item))
                    throw py::type_error("set_scissors: each rectangle is a tuple (left, top, right, bottom), not " + detail::TypeName(item));
                py::sequence t = py::reinterpret_borrow<py::sequence>(item);
                if (py::len(t) != 4)
                    throw InvalidArgument("set_scissors: each rectangle is (left, top, right, bottom), got " + std::to_string(py::len(t)) + " values");
                rects.push_back(D3D12_RECT{I32(Int{py::object(t[0])}, fn, "left"), I32(Int{py::object(t[1])}, fn, "top"),
                                           I32(Int{py::object(t[2])}, fn, "right"), I32(Int{py::object(t[3])}, fn, "bottom")});
            }
            cl.SetScissors(rects);
        }, "rects"_a,
           "Sets scissor rectangles 0..n-1 (1 <= n <= 16) from (left, top, right, bottom) tuples; rectangle i clips what\n"
           "viewport i draws.\n\n"
           "Args:\n"
           "    rects: a list of 1..16 (left, top, right, bottom) tuples.\n\n"
           "Raises:\n"
           "    TypeError: rects is not a list of tuples.\n"
           "    InvalidArgumentError: a tuple of the wrong length or an inverted rectangle.")
        .def("set_stencil_ref", [](CommandList& cl, Int ref) {
            const uint32_t v = U32(ref, "set_stencil_ref", "ref");
            if (v > 255) throw InvalidArgument("set_stencil_ref: ref must be 0..255, got " + std::to_string(v));
            cl.SetStencilRef(v);
        }, "ref"_a, "The stencil reference value (0..255) of the stencil test.\n\n"
           "Args:\n"
           "    ref: 0..255.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: ref above 255.")
        .def("clear_render_target", [](CommandList& cl, py::handle t, py::object rgbaObj, Int mip, py::object slice) {
            const char* fn = "clear_render_target";
            auto res = AsResource(t, fn);
            if (!py::isinstance<py::sequence>(rgbaObj) || py::isinstance<py::str>(rgbaObj))
                throw py::type_error(std::string(fn) + ": rgba must be a sequence of 4 numbers, not " + detail::TypeName(rgbaObj));
            py::sequence seq = rgbaObj;
            if (py::len(seq) != 4) throw InvalidArgument(std::string(fn) + ": rgba needs 4 values, got " + std::to_string(py::len(seq)));
            std::array<float, 4> rgba;
            for (int i = 0; i < 4; ++i) rgba[i] = F32(seq[i], fn, "rgba item");
            cl.ClearRenderTarget(res, rgba.data(), U32(mip, fn, "mip"), SliceArg(slice, fn));
        }, "texture"_a, "rgba"_a, py::kw_only(), "mip"_a = 0, "array_slice"_a = py::none(),
           "Clears one mip of a render-target texture to `rgba` (four floats): every array slice (cube face) of it, or\n"
           "only `array_slice`; a 3D texture's mip with all its depth slices.\n\n"
           "Args:\n"
           "    texture: a Texture created with render_target=True.\n"
           "    rgba: four floats.\n"
           "    mip: the mip level cleared.\n"
           "    array_slice: one array slice (cube face), or None for all.\n\n"
           "Raises:\n"
           "    TypeError: rgba is not a sequence.\n"
           "    InvalidArgumentError: not 4 values, or a mip or slice out of range.")
        .def("clear_depth_stencil", [](CommandList& cl, py::handle t, Float d, Int s, bool clearDepth, bool clearStencil, Int mip, py::object slice) {
            const char* fn = "clear_depth_stencil";
            auto res = AsResource(t, fn);
            cl.ClearDepthStencil(res, F32(d, fn, "depth"), U8(s, fn, "stencil"), clearDepth, clearStencil, U32(mip, fn, "mip"),
                                 SliceArg(slice, fn));
        }, "texture"_a, "depth"_a = 1.0f, "stencil"_a = 0, py::kw_only(), "clear_depth"_a = true, "clear_stencil"_a = true, "mip"_a = 0,
           "array_slice"_a = 0,
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
           "    InvalidArgumentError: values out of range, or a stencil-only clear of a format without stencil.")
        .def("resolve", [](CommandList& cl, py::handle dst, py::handle src, py::object format, Int dstSub, Int srcSub) {
            const char* fn = "resolve";
            DXGI_FORMAT f = format.is_none() ? DXGI_FORMAT_UNKNOWN : ParseFormat(format, fn);
            cl.Resolve(AsResource(dst, fn), AsResource(src, fn), U32(dstSub, fn, "dst_subresource"), U32(srcSub, fn, "src_subresource"), f);
        }, "dst"_a, "src"_a, py::kw_only(), "format"_a = py::none(), "dst_subresource"_a = 0, "src_subresource"_a = 0,
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
           "    InvalidArgumentError: textures or a format that cannot be resolved, or a list of another queue type.")
        .def("set_vertex_buffer", [](CommandList& cl, Int slot, py::handle b, Int stride, Int off) {
            const char* fn = "set_vertex_buffer";
            cl.SetVertexBuffer(U32(slot, fn, "slot"), AsResource(b, fn), U32(stride, fn, "stride"), U64(off, fn, "offset"));
        }, "slot"_a, "buffer"_a, "stride"_a, "offset"_a = 0, "Binds `buffer` as vertex buffer `slot` with `stride` bytes per vertex, from `offset`.\n\n"
           "Args:\n"
           "    slot: the input slot (0..31).\n"
           "    buffer: the Buffer read.\n"
           "    stride: bytes per vertex.\n"
           "    offset: byte offset of the first vertex.")
        .def("set_index_buffer", [](CommandList& cl, py::handle b, Choice<IndexFormatChoice> format, Int off) {
            const DXGI_FORMAT f = Parse(format, "set_index_buffer: format");
            cl.SetIndexBuffer(AsResource(b, "set_index_buffer"), f, U64(off, "set_index_buffer", "offset"));
        }, "buffer"_a, "format"_a = "uint32", "offset"_a = 0, "Binds `buffer` as the index buffer; format is a dx12kit.IndexFormat ('uint16' or 'uint32').\n\n"
           "Args:\n"
           "    buffer: the Buffer read.\n"
           "    format: an IndexFormat or its name.\n"
           "    offset: byte offset of the first index.")
        .def("set_dynamic_constant_buffer", [](CommandList& cl, Int root, py::handle data) {
            const uint32_t rootIndex = U32(root, "set_dynamic_constant_buffer", "root_index");
            Bytes b = GetBytes(data, "set_dynamic_constant_buffer");
            cl.SetDynamicConstantBuffer(rootIndex, b.data, b.size);
        }, "root_index"_a, "data"_a, "Copies `data` into upload memory (256-byte aligned) and binds it as the root CBV `root_index`.\n\n"
           "Args:\n"
           "    root_index: the root CBV parameter index.\n"
           "    data: bytes, a numpy array or anything with the buffer protocol.")
        .def("set_dynamic_vertex_buffer", [](CommandList& cl, Int slotArg, py::handle data, py::object stride) {
            const uint32_t slot = U32(slotArg, "set_dynamic_vertex_buffer", "slot");
            Bytes b = GetBytes(data, "set_dynamic_vertex_buffer");
            uint32_t st;
            if (!stride.is_none()) st = U32(stride, "set_dynamic_vertex_buffer", "stride");
            else if (b.info.ndim >= 2) st = static_cast<uint32_t>(b.info.strides[0]);
            else throw InvalidArgument("set_dynamic_vertex_buffer: give stride= for a 1-D array (or pass shape (vertices, components))");
            cl.SetDynamicVertexBuffer(slot, b.data, b.size, st);
        }, "slot"_a, "array"_a, "stride"_a = py::none(), "Copies an array into upload memory and binds it as vertex buffer `slot` (stride: the row size unless given).\n\n"
           "Args:\n"
           "    slot: the input slot.\n"
           "    array: the vertices (a numpy array).\n"
           "    stride: bytes per vertex; None takes the array's row size (2-D arrays).\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a 1-D array without stride.")
        .def("set_dynamic_index_buffer", [](CommandList& cl, py::handle data) {
            Bytes b = GetBytes(data, "set_dynamic_index_buffer");
            const std::string fmt = b.info.format;
            const bool u16 = b.info.itemsize == 2 && (fmt == "H");
            const bool u32 = b.info.itemsize == 4 && (fmt == "I" || fmt == "L");
            if (!u16 && !u32) throw InvalidArgument("set_dynamic_index_buffer: indices must be a uint16 or uint32 array, got format '" + fmt + "'");
            cl.SetDynamicIndexBuffer(b.data, b.size, u16 ? DXGI_FORMAT_R16_UINT : DXGI_FORMAT_R32_UINT);
        }, "array"_a, "Copies a uint16 or uint32 array into upload memory and binds it as the index buffer.\n\n"
           "Args:\n"
           "    array: uint16 or uint32 indices.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: another dtype.")
        .def("set_dynamic_structured_buffer", [](CommandList& cl, Int root, py::handle data) {
            const uint32_t rootIndex = U32(root, "set_dynamic_structured_buffer", "root_index");
            Bytes b = GetBytes(data, "set_dynamic_structured_buffer");
            cl.SetDynamicStructuredBuffer(rootIndex, b.data, b.size);
        }, "root_index"_a, "array"_a, "Copies `array` into upload memory and binds it as the root SRV `root_index`.")
        .def("draw", [](CommandList& cl, Int n, Int instances, Int start, Int startInstance) {
            const char* fn = "draw";
            cl.Draw(U32(n, fn, "vertex_count"), U32(instances, fn, "instance_count"), U32(start, fn, "start_vertex"),
                    U32(startInstance, fn, "start_instance"));
        }, "vertex_count"_a, "instance_count"_a = 1, "start_vertex"_a = 0, "start_instance"_a = 0, "Draws `vertex_count` vertices (instanced); staged descriptors and pending transitions are committed first.")
        .def("draw_indexed", [](CommandList& cl, Int n, Int instances, Int start, Int baseVertex, Int startInstance) {
            const char* fn = "draw_indexed";
            cl.DrawIndexed(U32(n, fn, "index_count"), U32(instances, fn, "instance_count"), U32(start, fn, "start_index"),
                           I32(baseVertex, fn, "base_vertex"), U32(startInstance, fn, "start_instance"));
        }, "index_count"_a, "instance_count"_a = 1, "start_index"_a = 0, "base_vertex"_a = 0, "start_instance"_a = 0, "Draws `index_count` indices of the bound index buffer (instanced).")
        .def("dispatch", [](CommandList& cl, Int x, Int y, Int z) {
            cl.Dispatch(U32(x, "dispatch", "x"), U32(y, "dispatch", "y"), U32(z, "dispatch", "z"));
        }, "x"_a, "y"_a = 1, "z"_a = 1, "Dispatches x * y * z thread groups of the compute pipeline; staged descriptors and barriers are committed first.")
        .def("generate_mips", [](CommandList& cl, py::handle texture, Int firstMip) {
            auto tex = AsResource(texture, "generate_mips");
            const uint32_t first = U32(firstMip, "generate_mips", "first_mip");
            ReleaseGil release;   // pure C++ from here (the first call creates the device's pipeline)
            cl.GenerateMips(tex, first);
        }, "texture"_a, py::kw_only(), "first_mip"_a = 0,
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
           "    UseAfterFreeError: the texture was closed or the list already executed.")
        .def("pano_to_cubemap", [](CommandList& cl, py::handle cube, py::handle panorama) {
            cl.PanoToCubemap(AsResource(cube, "pano_to_cubemap"), AsResource(panorama, "pano_to_cubemap"));
        }, "cubemap"_a, "panorama"_a,
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
           "        sampled or written (integer formats; bgra8 on devices without bgra8 UAVs), or a copy-queue list.");
    InstallForkLeak<CommandList>(+[](const CommandList& l) { return l.Core()->Forked(); });
    c.commandList.def(
        "resource_barriers", [](CommandList& cl, const BarrierBatch& batch) { batch.Record(cl); }, "batch"_a,
        "Records every barrier of a BarrierBatch, in order, as the separate calls would.\n\n"
        "Args:\n"
        "    batch: the BarrierBatch.\n\n"
        "Raises:\n"
        "    InvalidArgumentError: a resource of another device, or a state this list's queue type may not\n"
        "        use (the entries before it stay recorded).\n"
        "    UseAfterFreeError: the list was executed already.");
}

}  // namespace dx12kit::bindings
