// dx12core: Bundle (recording; the rules and the emulation: dx12kit/gpu/Bundle.hpp). Device.create_bundle is
// BindDeviceBundles.cpp, CommandList.execute_bundle BindCommandListBundles.cpp. Only conversions live here.
#include "GpuArgs.hpp"

#include "dx12kit/gpu/Bundle.hpp"

#include <deque>

namespace dx12kit::bindings {

namespace {

using BundleClass = py::class_<Bundle, std::shared_ptr<Bundle>>;

/// The class, its state, and the pipeline and root arguments.
void DefBundleRoot(BundleClass& cls) {
    Documented(cls,
               "A bundle: draw-time calls recorded once (device.create_bundle()), closed, then executed any number of times from\n"
               "direct command lists (CommandList.execute_bundle), in this frame and later ones.\n\n"
               "D3D12's bundle rules hold: a bundle records no barrier, clear, copy, resolve, render-target, viewport, scissor,\n"
               "predication or query call and no execute_bundle (those methods raise InvalidArgumentError naming the rule; see\n"
               "Bundle.refused_calls()). A bundle inherits the calling list's state except the pipeline: render targets,\n"
               "viewports, vertex/index buffers, and root arguments while the bundle sets the calling list's root signature\n"
               "(set_pipeline_state with a pipeline of the same root signature). What it sets stays set in the calling list.\n"
               "vkd3d 1.2 has no working ExecuteBundle, so dx12kit replays the recorded calls into the calling list, whose state\n"
               "tracker puts what the bundle's draws use in their states (docs/guides/bundles.rst).")
        .def("__repr__",
             [](const Bundle& b) {
                 return "<dx12kit.Bundle '" + b.Name() + "' " + std::to_string(b.CommandCount()) + " calls" +
                        (b.IsClosed() ? " closed>" : " recording>");
             })
        .def_property_readonly("name", &Bundle::Name, "The name given to device.create_bundle(name=...), else 'bundle'.")
        .def_property_readonly("closed", &Bundle::IsClosed, "True once close() was called (then it can be executed, and no longer recorded).")
        .def_property_readonly("command_count", &Bundle::CommandCount, "The calls recorded (the initial pipeline counts as one).")
        .def("close", &Bundle::Close,
             "Ends recording. Only a closed bundle can be executed (D3D12: ExecuteBundle needs a closed bundle); a closed bundle is\n"
             "executed as it is, any number of times, from any direct list. Closing twice does nothing.")
        .def_static(
            "refused_calls",
            [] {
                py::dict d;
                for (const bundlerules::Refusal& r : bundlerules::Refusals()) d[r.call] = r.rule;
                return d;
            },
            "The CommandList calls a bundle may not record, each with the D3D12 rule that says so (a dict of name -> rule).")
        .def("set_pipeline_state", &Bundle::SetPipelineState, "pso"_a,
             "Sets the pipeline (and its root signature) in the bundle: a bundle does not inherit the calling list's pipeline, so\n"
             "its draws and dispatches need one set here (or device.create_bundle(pipeline=...)). With the root signature of the\n"
             "calling list's pipeline, the calling list's root arguments stay (inherited); with another they are cleared.\n\n"
             "Args:\n"
             "    pso: a PipelineState of the bundle's device.\n\n"
             "Raises:\n"
             "    InvalidArgumentError: a pipeline of another device.\n"
             "    UseAfterFreeError: the bundle is closed.");
}

/// Root arguments: constants and root views, each inherited by the calling list under D3D12's rule.
void DefBundleRootArguments(BundleClass& cls) {
    cls.def(
           "set_constants",
           [](Bundle& b, Int root, py::handle values, Int offset) {
               const char* fn = "set_constants";
               const uint32_t rootIndex = U32(root, fn, "root_index"), first = U32(offset, fn, "offset");
               std::vector<uint32_t> v = Dwords(values, fn);
               if (v.size() > UINT32_MAX) throw InvalidArgument("set_constants: too many values");
               b.SetConstants(rootIndex, v.data(), static_cast<uint32_t>(v.size()), first);
           },
           "root_index"_a, "values"_a, "offset"_a = 0,
           "Records CommandList.set_constants (the values are copied now).\n\n"
           "Args:\n"
           "    root_index: a root-constants parameter of the root signature of the pipeline set in the bundle.\n"
           "    values: 32-bit values, as CommandList.set_constants takes them.\n"
           "    offset: the first constant written.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: no pipeline set in the bundle yet (a bundle changes root arguments only after it set the\n"
           "        root signature), not a constants parameter, too many values.\n"
           "    UseAfterFreeError: the bundle is closed.")
        .def(
            "set_root_cbv",
            [](Bundle& b, Int root, BufferArg buf, Int off) {
                b.SetRootView(RootParamKind::Cbv, U32(root, "set_root_cbv", "root_index"), AsResource(buf, "set_root_cbv"),
                              U64(off, "set_root_cbv", "offset"));
            },
            "root_index"_a, "buffer"_a, "offset"_a = 0,
            "Records CommandList.set_root_cbv.\n\n"
            "Args:\n"
            "    root_index: a RootCBV parameter of the root signature set in the bundle.\n"
            "    buffer: the Buffer bound.\n"
            "    offset: byte offset in buffer (a multiple of 256).\n\n"
            "Raises:\n"
            "    InvalidArgumentError: no pipeline set in the bundle yet, not a RootCBV parameter, a texture.")
        .def(
            "set_root_srv",
            [](Bundle& b, Int root, BufferArg buf, Int off) {
                b.SetRootView(RootParamKind::Srv, U32(root, "set_root_srv", "root_index"), AsResource(buf, "set_root_srv"),
                              U64(off, "set_root_srv", "offset"));
            },
            "root_index"_a, "buffer"_a, "offset"_a = 0,
            "Records CommandList.set_root_srv.\n\n"
            "Args:\n"
            "    root_index: a RootSRV parameter of the root signature set in the bundle.\n"
            "    buffer: the Buffer bound.\n"
            "    offset: byte offset in buffer.\n\n"
            "Raises:\n"
            "    InvalidArgumentError: no pipeline set in the bundle yet, not a RootSRV parameter, a texture.")
        .def(
            "set_root_uav",
            [](Bundle& b, Int root, BufferArg buf, Int off) {
                b.SetRootView(RootParamKind::Uav, U32(root, "set_root_uav", "root_index"), AsResource(buf, "set_root_uav"),
                              U64(off, "set_root_uav", "offset"));
            },
            "root_index"_a, "buffer"_a, "offset"_a = 0,
            "Records CommandList.set_root_uav.\n\n"
            "Args:\n"
            "    root_index: a RootUAV parameter of the root signature set in the bundle.\n"
            "    buffer: the Buffer bound.\n"
            "    offset: byte offset in buffer.\n\n"
            "Raises:\n"
            "    InvalidArgumentError: no pipeline set in the bundle yet, not a RootUAV parameter, a texture.")
        .def(
            "set_shader_resource_view",
            [](Bundle& b, Int root, Int offset, ResourceArg r, OptIndex mip, ViewFormatArg format, OptIndex stride, OptBool raw, OptIndex first,
               OptIndex num) {
                const char* fn = "set_shader_resource_view";
                const uint32_t rootIndex = U32(root, fn, "root_index"), slot = U32(offset, fn, "descriptor_offset");
                auto res = AsResource(r, fn);
                const BufferViewArgs view = BufferViewArguments(stride, raw, first, num, fn);
                uint32_t firstMip = 0, count = 0;
                if (!mip.is_none()) {
                    firstMip = U32(mip, fn, "mip");
                    count = 1;
                }
                const DXGI_FORMAT f = format.is_none()  ? DXGI_FORMAT_UNKNOWN
                                      : res->IsBuffer() ? ParseBufferFormat(format, fn)
                                                        : ParseFormat(format, fn);
                if (res->IsBuffer() && !mip.is_none())
                    throw InvalidArgument("set_shader_resource_view: resource '" + res->Name() + "' is a buffer; mip= applies to textures");
                b.SetShaderResourceView(rootIndex, slot, res, firstMip, count, f, view);
            },
            "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = py::none(), "format"_a = py::none(),
            "stride"_a = py::none(), "raw"_a = py::none(), "first_element"_a = py::none(), "num_elements"_a = py::none(),
            "Records CommandList.set_shader_resource_view (the view is written into the calling list's table at each execution).\n\n"
            "Args:\n"
            "    root_index: a DescriptorTable parameter of the root signature set in the bundle.\n"
            "    descriptor_offset: the slot in that table.\n"
            "    resource: a Texture or Buffer.\n"
            "    mip, format, stride, raw, first_element, num_elements: as CommandList.set_shader_resource_view.\n\n"
            "Raises:\n"
            "    InvalidArgumentError: no pipeline set in the bundle yet, not a table parameter; the view's own checks run at\n"
            "        execute_bundle.")
        .def(
            "set_unordered_access_view",
            [](Bundle& b, Int root, Int offset, ResourceArg r, OptIndex mip, ViewFormatArg format, OptIndex stride, OptBool raw, OptIndex first,
               OptIndex num, OptBufferArg counter, Int counterOffset) {
                const char* fn = "set_unordered_access_view";
                const uint32_t rootIndex = U32(root, fn, "root_index"), slot = U32(offset, fn, "descriptor_offset");
                UavArguments a = ParseUavArguments(r, mip, format, stride, raw, first, num, counter, counterOffset);
                b.SetUnorderedAccessView(rootIndex, slot, a.resource, a.mip, a.view);
            },
            "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = py::none(), "format"_a = py::none(),
            "stride"_a = py::none(), "raw"_a = py::none(), "first_element"_a = py::none(), "num_elements"_a = py::none(), "counter"_a = py::none(),
            "counter_offset"_a = 0,
            "Records CommandList.set_unordered_access_view.\n\n"
            "Args:\n"
            "    root_index: a DescriptorTable parameter of the root signature set in the bundle.\n"
            "    descriptor_offset: the slot in that table.\n"
            "    resource: a Texture or Buffer created with uav=True.\n"
            "    mip, format, stride, raw, first_element, num_elements, counter, counter_offset: as\n"
            "        CommandList.set_unordered_access_view.\n\n"
            "Raises:\n"
            "    InvalidArgumentError: no pipeline set in the bundle yet, not a table parameter, a resource without uav=True.");
}

/// Views, samplers, vertex and index buffers, dynamic data and the output-merger values.
void DefBundleViews(BundleClass& cls) {
    cls.def(
           "set_constant_buffer_view",
           [](Bundle& b, Int root, Int offset, BufferArg buf, Int bufferOffset, OptIndex size) {
               const char* fn = "set_constant_buffer_view";
               uint32_t bytes = 0;
               if (!size.is_none()) {
                   bytes = U32(size, fn, "size");
                   if (bytes == 0)
                       throw InvalidArgument(
                           "set_constant_buffer_view: size=0; a constant buffer view covers 256 to 65536 bytes (a multiple of 256)");
               }
               b.SetConstantBufferView(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), AsResource(buf, fn),
                                       U64(bufferOffset, fn, "offset"), bytes);
           },
           "root_index"_a, "descriptor_offset"_a, "buffer"_a, "offset"_a = 0, "size"_a = py::none(),
           "Records CommandList.set_constant_buffer_view.\n\n"
           "Args:\n"
           "    root_index: a DescriptorTable parameter of the root signature set in the bundle.\n"
           "    descriptor_offset: the slot in that table.\n"
           "    buffer: the Buffer viewed.\n"
           "    offset, size: as CommandList.set_constant_buffer_view.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: no pipeline set in the bundle yet, not a table parameter.")
        .def(
            "set_sampler",
            [](Bundle& b, Int root, Int offset, SamplerArg sampler) {
                const char* fn = "set_sampler";
                if (!py::isinstance<Sampler>(sampler))
                    throw py::type_error("set_sampler: sampler must be a dx12kit.SamplerState (Device.create_sampler), not " +
                                         detail::TypeName(sampler));
                b.SetSampler(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), sampler.cast<std::shared_ptr<Sampler>>());
            },
            "root_index"_a, "descriptor_offset"_a, "sampler"_a,
            "Records CommandList.set_sampler.\n\n"
            "Args:\n"
            "    root_index: a sampler DescriptorTable parameter of the root signature set in the bundle.\n"
            "    descriptor_offset: the slot in that table.\n"
            "    sampler: a SamplerState.\n\n"
            "Raises:\n"
            "    TypeError: sampler is not a SamplerState.")
        .def(
            "set_vertex_buffer",
            [](Bundle& b, Int slot, BufferArg buf, Int stride, Int off) {
                const char* fn = "set_vertex_buffer";
                b.SetVertexBuffer(U32(slot, fn, "slot"), AsResource(buf, fn), U32(stride, fn, "stride"), U64(off, fn, "offset"));
            },
            "slot"_a, "buffer"_a, "stride"_a, "offset"_a = 0,
            "Records CommandList.set_vertex_buffer (it stays bound in the calling list afterwards).\n\n"
            "Args:\n"
            "    slot: the input slot (0..31).\n"
            "    buffer: the Buffer read.\n"
            "    stride: bytes per vertex.\n"
            "    offset: byte offset of the first vertex.")
        .def(
            "set_index_buffer",
            [](Bundle& b, BufferArg buf, Choice<IndexFormatChoice> format, Int off) {
                b.SetIndexBuffer(AsResource(buf, "set_index_buffer"), Parse(format, "set_index_buffer: format"),
                                 U64(off, "set_index_buffer", "offset"));
            },
            "buffer"_a, "format"_a = "uint32", "offset"_a = 0,
            "Records CommandList.set_index_buffer.\n\n"
            "Args:\n"
            "    buffer: the Buffer read.\n"
            "    format: an IndexFormat or its name.\n"
            "    offset: byte offset of the first index.")
        .def(
            "set_dynamic_constant_buffer",
            [](Bundle& b, Int root, py::handle data) {
                const uint32_t rootIndex = U32(root, "set_dynamic_constant_buffer", "root_index");
                Bytes bytes = GetBytes(data, "set_dynamic_constant_buffer");
                b.SetDynamicConstantBuffer(rootIndex, bytes.data, bytes.size);
            },
            "root_index"_a, "data"_a,
            "Records CommandList.set_dynamic_constant_buffer: the data is copied now, and each execution copies it into the\n"
            "calling list's upload memory.\n\n"
            "Args:\n"
            "    root_index: a RootCBV parameter of the root signature set in the bundle.\n"
            "    data: bytes, a numpy array or anything with the buffer protocol (at most 65536 bytes).")
        .def(
            "set_dynamic_vertex_buffer",
            [](Bundle& b, Int slotArg, py::handle data, py::object stride) {
                const uint32_t slot = U32(slotArg, "set_dynamic_vertex_buffer", "slot");
                Bytes bytes = GetBytes(data, "set_dynamic_vertex_buffer");
                uint32_t st;
                if (!stride.is_none()) st = U32(stride, "set_dynamic_vertex_buffer", "stride");
                else if (bytes.info.ndim >= 2) st = static_cast<uint32_t>(bytes.info.strides[0]);
                else throw InvalidArgument("set_dynamic_vertex_buffer: give stride= for a 1-D array (or pass shape (vertices, components))");
                b.SetDynamicVertexBuffer(slot, bytes.data, bytes.size, st);
            },
            "slot"_a, "array"_a, "stride"_a = py::none(),
            "Records CommandList.set_dynamic_vertex_buffer (the array is copied now).\n\n"
            "Args:\n"
            "    slot: the input slot.\n"
            "    array: the vertices (a numpy array).\n"
            "    stride: bytes per vertex; None takes the array's row size (2-D arrays).")
        .def(
            "set_dynamic_index_buffer",
            [](Bundle& b, py::handle data) {
                Bytes bytes = GetBytes(data, "set_dynamic_index_buffer");
                const std::string fmt = bytes.info.format;
                const bool u16 = bytes.info.itemsize == 2 && (fmt == "H");
                const bool u32 = bytes.info.itemsize == 4 && (fmt == "I" || fmt == "L");
                if (!u16 && !u32)
                    throw InvalidArgument("set_dynamic_index_buffer: indices must be a uint16 or uint32 array, got format '" + fmt + "'");
                b.SetDynamicIndexBuffer(bytes.data, bytes.size, u16 ? DXGI_FORMAT_R16_UINT : DXGI_FORMAT_R32_UINT);
            },
            "array"_a,
            "Records CommandList.set_dynamic_index_buffer (the array is copied now).\n\n"
            "Args:\n"
            "    array: uint16 or uint32 indices.")
        .def(
            "set_stencil_ref", [](Bundle& b, Int ref) { b.SetStencilRef(U32(ref, "set_stencil_ref", "ref")); }, "ref"_a,
            "Records CommandList.set_stencil_ref.\n\n"
            "Args:\n"
            "    ref: 0..255.")
        .def(
            "set_blend_factor", [](Bundle& b, FourArg rgbaObj) { b.SetBlendFactor(Rgba4(rgbaObj, "set_blend_factor").data()); }, "rgba"_a,
            "Records CommandList.set_blend_factor.\n\n"
            "Args:\n"
            "    rgba: 4 finite numbers.");
}

/// The draws and dispatches a bundle records.
void DefBundleDraws(BundleClass& cls) {
    cls.def(
           "draw",
           [](Bundle& b, Int vertexCount, Int instanceCount, Int startVertex, Int startInstance) {
               const char* fn = "draw";
               b.Draw(U32(vertexCount, fn, "vertex_count"), U32(instanceCount, fn, "instance_count"), U32(startVertex, fn, "start_vertex"),
                      U32(startInstance, fn, "start_instance"));
           },
           "vertex_count"_a, "instance_count"_a = 1, "start_vertex"_a = 0, "start_instance"_a = 0,
           "Records CommandList.draw. Its checks against what is bound (targets, root arguments, vertex buffers) run at each\n"
           "execute_bundle, against the calling list's state.\n\n"
           "Args:\n"
           "    vertex_count, instance_count, start_vertex, start_instance: DrawInstanced's arguments.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: no graphics pipeline set in the bundle (a bundle does not inherit the pipeline).\n"
           "    UseAfterFreeError: the bundle is closed.")
        .def(
            "draw_indexed",
            [](Bundle& b, Int indexCount, Int instanceCount, Int startIndex, Int baseVertex, Int startInstance) {
                const char* fn = "draw_indexed";
                b.DrawIndexed(U32(indexCount, fn, "index_count"), U32(instanceCount, fn, "instance_count"), U32(startIndex, fn, "start_index"),
                              I32(baseVertex, fn, "base_vertex"), U32(startInstance, fn, "start_instance"));
            },
            "index_count"_a, "instance_count"_a = 1, "start_index"_a = 0, "base_vertex"_a = 0, "start_instance"_a = 0,
            "Records CommandList.draw_indexed (the index buffer may be the calling list's: bundles inherit it).\n\n"
            "Args:\n"
            "    index_count, instance_count, start_index, base_vertex, start_instance: DrawIndexedInstanced's arguments.\n\n"
            "Raises:\n"
            "    InvalidArgumentError: no graphics pipeline set in the bundle.\n"
            "    UseAfterFreeError: the bundle is closed.")
        .def(
            "dispatch", [](Bundle& b, Int x, Int y, Int z) { b.Dispatch(U32(x, "dispatch", "x"), U32(y, "dispatch", "y"), U32(z, "dispatch", "z")); },
            "x"_a, "y"_a = 1, "z"_a = 1,
            "Records CommandList.dispatch.\n\n"
            "Args:\n"
            "    x, y, z: thread groups per dimension (1..65535).\n\n"
            "Raises:\n"
            "    InvalidArgumentError: no compute pipeline set in the bundle, a count out of range.\n"
            "    UseAfterFreeError: the bundle is closed.");
    // The calls a bundle may not record (D3D12's bundle restrictions): each raises, naming its rule.
    static std::deque<std::string> docs;  // pybind11 keeps the pointers
    for (const bundlerules::Refusal& r : bundlerules::Refusals()) {
        docs.push_back(std::string("Refused: ") + r.rule +
                       ".\n\n"
                       "Args:\n"
                       "    *args, **kwargs: CommandList." +
                       r.call +
                       "'s arguments (not looked at).\n\n"
                       "Raises:\n"
                       "    InvalidArgumentError: always (D3D12 bundle rule).");
        const char* call = r.call;
        cls.def(
            call, [call](const Bundle& b, const py::args&, const py::kwargs&) { b.Refuse(call); }, docs.back().c_str());
    }
}

}  // namespace

void BindBundle(Classes& c) {
    DefBundleRoot(c.bundle);
    DefBundleRootArguments(c.bundle);
    DefBundleViews(c.bundle);
    DefBundleDraws(c.bundle);
}

}  // namespace dx12kit::bindings
