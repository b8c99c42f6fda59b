// dx12core: CommandList and the UploadAllocation of its zero-copy path.
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

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
    // ---- upload allocations (zero-copy path) ------------------------------------------------
    struct PyUpload {
        UploadAllocation alloc;
        std::shared_ptr<CommandList> list;
        std::shared_ptr<UploadPage> pin;  // keeps the page out of reuse while views may exist
        PyUpload(UploadAllocation a, std::shared_ptr<CommandList> l) : alloc(a), list(std::move(l)) {
            alloc.page->pins.fetch_add(1, std::memory_order_acq_rel);
            pin = std::shared_ptr<UploadPage>(alloc.page, [](UploadPage* p) { p->pins.fetch_sub(1, std::memory_order_acq_rel); });
        }
    };
    py::class_<PyUpload>(m, "UploadAllocation",
                         "Upload memory owned by a command list. Fill .array() in place, then CommandList.copy_from_upload.\n"
                         "Fill it before the list is executed: .array() then raises, and writes through an older view\n"
                         "race with the GPU's copy. The memory stays reserved (never reused) while any view of it exists.")
        .def_property_readonly("size", [](const PyUpload& u) { return u.alloc.size; }, "Bytes reserved.")
        .def_property_readonly("gpu_address", [](const PyUpload& u) { return u.alloc.gpu; }, "GPU virtual address of the first byte.")
        .def_property_readonly("offset", [](const PyUpload& u) { return u.alloc.offset; }, "Offset of the first byte in its upload page.")
        .def("__repr__", [](const PyUpload& u) {
            return "<dx12kit.UploadAllocation size=" + std::to_string(u.alloc.size) + " offset=" + std::to_string(u.alloc.offset) +
                   (u.list->IsClosed() ? " (list executed)" : "") + ">";
        })
        .def("array", [](py::object self, py::object dtype, py::object shape) {
            PyUpload& u = self.cast<PyUpload&>();
            u.list->Core()->CheckNotForked("UploadAllocation.array");  // the child's copy of the page never reaches the GPU
            if (u.list->IsClosed()) throw UseAfterFree("UploadAllocation.array: the command list was already executed");
            const char* fn = "UploadAllocation.array";
            py::dtype dt = FixedSizeDtype(dtype, fn);
            const uint64_t item = static_cast<uint64_t>(dt.itemsize());
            const uint64_t n = u.alloc.size / item;
            std::vector<py::ssize_t> shp;
            if (shape.is_none()) shp = {static_cast<py::ssize_t>(n)};
            else {
                if (PyIndex_Check(shape.ptr())) shape = py::make_tuple(shape);
                if (!py::isinstance<py::sequence>(shape) || py::isinstance<py::str>(shape))
                    throw py::type_error(std::string(fn) + ": shape must be a tuple of ints, not " + detail::TypeName(shape));
                for (py::handle d : shape) shp.push_back(static_cast<py::ssize_t>(detail::Ranged(d, fn, "shape item", 0, INT64_MAX)));
            }
            // Overflow-safe: count * item <= size, checked one factor at a time.
            uint64_t bytes = item;
            for (auto d : shp) {
                if (d != 0 && bytes > u.alloc.size / uint64_t(d))
                    throw InvalidArgument(std::string(fn) + ": shape larger than the allocation of " + std::to_string(u.alloc.size) + " bytes");
                bytes *= uint64_t(d);
            }
            if (bytes > u.alloc.size) throw InvalidArgument(std::string(fn) + ": shape larger than the allocation of " + std::to_string(u.alloc.size) + " bytes");
            return py::array(dt, shp, u.alloc.cpu, self);  // the view keeps the allocation (and its list) alive
        }, "dtype"_a = py::dtype("uint8"), "shape"_a = py::none(), "A writable numpy view of the upload memory (no copy).");

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
        }, "dst"_a, "src"_a, "Copies the whole of `src` into `dst` (same size and format); both states are tracked.")
        .def("copy_buffer_region", [](CommandList& cl, py::handle dst, Int dstOffset, py::handle src, Int srcOffset, Int size) {
            const char* fn = "copy_buffer_region";
            cl.CopyBufferRegion(AsResource(dst, fn), U64(dstOffset, fn, "dst_offset"), AsResource(src, fn), U64(srcOffset, fn, "src_offset"),
                                U64(size, fn, "size"));
        }, "dst"_a, "dst_offset"_a, "src"_a, "src_offset"_a, "size"_a, "Copies `size` bytes from `src` at `src_offset` to `dst` at `dst_offset`; bounds are checked.")
        .def("allocate_upload", [](std::shared_ptr<CommandList> cl, Int size, Int alignment) {
            return PyUpload{cl->AllocateUpload(U64(size, "allocate_upload", "size"), U64(alignment, "allocate_upload", "alignment")), cl};
        }, "size"_a, "alignment"_a = 256, "Upload memory for the zero-copy path (see UploadAllocation).")
        .def("allocate_texture_upload", [](std::shared_ptr<CommandList> cl, py::handle tex, Int mipArg) {
            auto r = AsResource(tex, "allocate_texture_upload");
            const uint32_t mip = U32(mipArg, "allocate_texture_upload", "mip");
            if (r->IsBuffer()) throw InvalidArgument("allocate_texture_upload: not a texture");
            auto& t = static_cast<Texture&>(*r);
            t.CheckMipSlice(mip, 0, "allocate_texture_upload");
            return PyUpload{cl->AllocateUpload(t.Footprint(mip, 0).PaddedBytes(), D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT), cl};
        }, "texture"_a, "mip"_a = 0, "Upload memory laid out for a texture mip (rows 256-byte aligned): fill .array(), then copy_from_upload.")
        .def("copy_from_upload", [](CommandList& cl, py::handle dst, const PyUpload& u, Int mip, Int slice, Int offset) {
            const char* fn = "copy_from_upload";
            if (u.list.get() != &cl) throw InvalidArgument("copy_from_upload: the allocation belongs to another command list");
            cl.CopyFromUpload(AsResource(dst, fn), u.alloc, U32(mip, fn, "mip"), U32(slice, fn, "array_slice"), U64(offset, fn, "offset"));
        }, "dst"_a, "allocation"_a, "mip"_a = 0, "array_slice"_a = 0, "offset"_a = 0, "Copies an UploadAllocation (filled through .array()) into a buffer at `offset` or a texture subresource (mip, array_slice).")
        .def("transition_barrier", [](CommandList& cl, py::handle r, py::handle s, Int sub) {
            auto res = AsResource(r, "transition_barrier");
            cl.TransitionBarrier(res, StateArg(s, "transition_barrier", "state", *res), U32(sub, "transition_barrier", "subresource"));
        }, "resource"_a, "state"_a, "subresource"_a = kAllSubresources,
           "Requests a state explicitly (goes through the state tracker; rarely needed).")
        .def("uav_barrier", [](CommandList& cl, py::handle r) {
            cl.UavBarrier(r.is_none() ? nullptr : AsResource(r, "uav_barrier"));
        }, "resource"_a = py::none(), "Records a UAV barrier on `resource` (None: on every UAV access), ordering UAV writes before later accesses.")
        .def("aliasing_barrier", [](CommandList& cl, py::handle before, py::handle after) {
            cl.AliasingBarrier(before.is_none() ? nullptr : AsResource(before, "aliasing_barrier"),
                               after.is_none() ? nullptr : AsResource(after, "aliasing_barrier"));
        }, "before"_a = py::none(), "after"_a = py::none(), "Records an aliasing barrier between two placed resources sharing memory (either may be None). Not needed for\n"
           "resources placed in Device.allocate_memory memory: the first use of one after an overlapping one was used records\n"
           "that barrier by itself; an explicit one hands the memory to `after` and makes the automatic one unnecessary.")
        .def("raw_transition", [](CommandList& cl, py::handle r, py::handle before, py::handle after, Int sub) {
            auto res = AsResource(r, "raw_transition");
            cl.RawTransition(res, StateArg(before, "raw_transition", "before", *res), StateArg(after, "raw_transition", "after", *res),
                             U32(sub, "raw_transition", "subresource"));
        }, "resource"_a, "before"_a, "after"_a, "subresource"_a = kAllSubresources,
           "Escape hatch: records a transition barrier directly, without the state tracker. Device(validate=True) reports\n"
           "uses that then find the resource in a state the tracker did not expect.")
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
        .def("set_shader_resource_view", [](CommandList& cl, Int root, Int offset, py::handle r, py::object mip, py::object format) {
            const char* fn = "set_shader_resource_view";
            const uint32_t rootIndex = U32(root, fn, "root_index"), slot = U32(offset, fn, "descriptor_offset");
            auto res = AsResource(r, fn);
            uint32_t first = 0, count = 0;
            if (!mip.is_none()) { first = U32(mip, fn, "mip"); count = 1; }
            DXGI_FORMAT f = format.is_none() ? DXGI_FORMAT_UNKNOWN : ParseFormat(format, "set_shader_resource_view");
            cl.SetShaderResourceView(rootIndex, slot, res, first, count, f);
        }, "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = py::none(), "format"_a = py::none(),
           "Stages an SRV of `resource` (all mips, or only `mip`) into slot `descriptor_offset` of the table at `root_index`.")
        .def("set_unordered_access_view", [](CommandList& cl, Int root, Int offset, py::handle r, Int mip) {
            const char* fn = "set_unordered_access_view";
            cl.SetUnorderedAccessView(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), AsResource(r, fn), U32(mip, fn, "mip"));
        }, "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = 0, "Stages a UAV of `resource` (one mip of a texture) into slot `offset` of descriptor table `root_index`.")
        .def("set_constant_buffer_view", [](CommandList& cl, Int root, Int offset, py::handle b) {
            const char* fn = "set_constant_buffer_view";
            cl.SetConstantBufferView(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), AsResource(b, fn));
        }, "root_index"_a, "descriptor_offset"_a, "buffer"_a, "Stages a CBV of `buffer` into slot `offset` of descriptor table `root_index`.")
        .def("set_sampler", [](CommandList& cl, Int root, Int offset, py::handle sampler) {
            const char* fn = "set_sampler";
            if (!py::isinstance<Sampler>(sampler))
                throw py::type_error("set_sampler: sampler must be a dx12kit.SamplerState (Device.create_sampler), not " + detail::TypeName(sampler));
            cl.SetSampler(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), sampler.cast<std::shared_ptr<Sampler>>());
        }, "root_index"_a, "descriptor_offset"_a, "sampler"_a, "Stages a SamplerState into slot `offset` of sampler descriptor table `root_index`.")
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
        }, "resource"_a, "values"_a, "Clears a UAV-capable resource to 4 values (floats: float clear; ints: uint clear).")
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
           "Binds render targets (and depth); also sets a full-size viewport and scissor.")
        .def("set_viewport", [](CommandList& cl, Float x, Float y, Float w, Float h, Float minDepth, Float maxDepth) {
            const char* fn = "set_viewport";
            cl.SetViewport(F32(x, fn, "x"), F32(y, fn, "y"), F32(w, fn, "width"), F32(h, fn, "height"), F32(minDepth, fn, "min_depth"),
                           F32(maxDepth, fn, "max_depth"));
        }, "x"_a, "y"_a, "width"_a, "height"_a, "min_depth"_a = 0.0f, "max_depth"_a = 1.0f,
           "Sets the viewport. D3D12's rules are checked: finite values, width and height >= 0, corners within\n"
           "[-32768, 32767], 0 <= min_depth <= max_depth <= 1.")
        .def("set_scissor", [](CommandList& cl, Int l, Int t, Int r, Int b) {
            const char* fn = "set_scissor";
            cl.SetScissor(I32(l, fn, "left"), I32(t, fn, "top"), I32(r, fn, "right"), I32(b, fn, "bottom"));
        }, "left"_a, "top"_a, "right"_a, "bottom"_a, "Sets the scissor rectangle (left <= right, top <= bottom).")
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
           "one with SV_ViewportArrayIndex (else viewport 0 is used). Each is checked as set_viewport checks one.")
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
           "viewport i draws.")
        .def("set_stencil_ref", [](CommandList& cl, Int ref) {
            const uint32_t v = U32(ref, "set_stencil_ref", "ref");
            if (v > 255) throw InvalidArgument("set_stencil_ref: ref must be 0..255, got " + std::to_string(v));
            cl.SetStencilRef(v);
        }, "ref"_a, "The stencil reference value (0..255) of the stencil test.")
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
           "only `array_slice`; a 3D texture's mip with all its depth slices.")
        .def("clear_depth_stencil", [](CommandList& cl, py::handle t, Float d, Int s, bool clearDepth, bool clearStencil, Int mip, py::object slice) {
            const char* fn = "clear_depth_stencil";
            auto res = AsResource(t, fn);
            cl.ClearDepthStencil(res, F32(d, fn, "depth"), U8(s, fn, "stencil"), clearDepth, clearStencil, U32(mip, fn, "mip"),
                                 SliceArg(slice, fn));
        }, "texture"_a, "depth"_a = 1.0f, "stencil"_a = 0, py::kw_only(), "clear_depth"_a = true, "clear_stencil"_a = true, "mip"_a = 0,
           "array_slice"_a = 0,
           "Clears (mip, array_slice) of a depth-stencil texture, or every slice of the mip with array_slice=None (a\n"
           "cascaded or cube shadow map at once); depth in [0, 1] (clear_depth), stencil 0..255 (clear_stencil; formats\n"
           "without stencil ignore it unless it is the only thing asked for, which raises).")
        .def("resolve", [](CommandList& cl, py::handle dst, py::handle src, py::object format, Int dstSub, Int srcSub) {
            const char* fn = "resolve";
            DXGI_FORMAT f = format.is_none() ? DXGI_FORMAT_UNKNOWN : ParseFormat(format, fn);
            cl.Resolve(AsResource(dst, fn), AsResource(src, fn), U32(dstSub, fn, "dst_subresource"), U32(srcSub, fn, "src_subresource"), f);
        }, "dst"_a, "src"_a, py::kw_only(), "format"_a = py::none(), "dst_subresource"_a = 0, "src_subresource"_a = 0,
           "Resolves multisampled `src` into single-sample `dst` (ResolveSubresource: each pixel the average of its\n"
           "samples). States are tracked (RESOLVE_SOURCE / RESOLVE_DEST). format: the format to resolve as (default:\n"
           "src's), a member of both textures' format families with MULTISAMPLE_RESOLVE support; subresources are\n"
           "mip + array_slice * mip_levels. Direct-queue lists only.")
        .def("set_vertex_buffer", [](CommandList& cl, Int slot, py::handle b, Int stride, Int off) {
            const char* fn = "set_vertex_buffer";
            cl.SetVertexBuffer(U32(slot, fn, "slot"), AsResource(b, fn), U32(stride, fn, "stride"), U64(off, fn, "offset"));
        }, "slot"_a, "buffer"_a, "stride"_a, "offset"_a = 0, "Binds `buffer` as vertex buffer `slot` with `stride` bytes per vertex, from `offset`.")
        .def("set_index_buffer", [](CommandList& cl, py::handle b, Choice<IndexFormatChoice> format, Int off) {
            const DXGI_FORMAT f = Parse(format, "set_index_buffer: format");
            cl.SetIndexBuffer(AsResource(b, "set_index_buffer"), f, U64(off, "set_index_buffer", "offset"));
        }, "buffer"_a, "format"_a = "uint32", "offset"_a = 0, "Binds `buffer` as the index buffer; format is a dx12kit.IndexFormat ('uint16' or 'uint32').")
        .def("set_dynamic_constant_buffer", [](CommandList& cl, Int root, py::handle data) {
            const uint32_t rootIndex = U32(root, "set_dynamic_constant_buffer", "root_index");
            Bytes b = GetBytes(data, "set_dynamic_constant_buffer");
            cl.SetDynamicConstantBuffer(rootIndex, b.data, b.size);
        }, "root_index"_a, "data"_a, "Copies `data` into upload memory (256-byte aligned) and binds it as the root CBV `root_index`.")
        .def("set_dynamic_vertex_buffer", [](CommandList& cl, Int slotArg, py::handle data, py::object stride) {
            const uint32_t slot = U32(slotArg, "set_dynamic_vertex_buffer", "slot");
            Bytes b = GetBytes(data, "set_dynamic_vertex_buffer");
            uint32_t st;
            if (!stride.is_none()) st = U32(stride, "set_dynamic_vertex_buffer", "stride");
            else if (b.info.ndim >= 2) st = static_cast<uint32_t>(b.info.strides[0]);
            else throw InvalidArgument("set_dynamic_vertex_buffer: give stride= for a 1-D array (or pass shape (vertices, components))");
            cl.SetDynamicVertexBuffer(slot, b.data, b.size, st);
        }, "slot"_a, "array"_a, "stride"_a = py::none(), "Copies an array into upload memory and binds it as vertex buffer `slot` (stride: the row size unless given).")
        .def("set_dynamic_index_buffer", [](CommandList& cl, py::handle data) {
            Bytes b = GetBytes(data, "set_dynamic_index_buffer");
            const std::string fmt = b.info.format;
            const bool u16 = b.info.itemsize == 2 && (fmt == "H");
            const bool u32 = b.info.itemsize == 4 && (fmt == "I" || fmt == "L");
            if (!u16 && !u32) throw InvalidArgument("set_dynamic_index_buffer: indices must be a uint16 or uint32 array, got format '" + fmt + "'");
            cl.SetDynamicIndexBuffer(b.data, b.size, u16 ? DXGI_FORMAT_R16_UINT : DXGI_FORMAT_R32_UINT);
        }, "array"_a, "Copies a uint16 or uint32 array into upload memory and binds it as the index buffer.")
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
           "    UseAfterFreeError: the texture was closed or the list already executed.");
    InstallForkLeak<CommandList>(+[](const CommandList& l) { return l.Core()->Forked(); });
    InstallForkLeak<PyUpload, std::unique_ptr<PyUpload>>(+[](const PyUpload& u) { return u.list->Core()->Forked(); });
}

}  // namespace dx12kit::bindings
