// The recording methods CommandList and Bundle both have (root views, table views, samplers, vertex/index and
// dynamic buffers, stencil reference, blend factor), bound once for either class: the same Python names,
// arguments, defaults and conversions, each class with its own docstrings (docs::CommandList / docs::Bundle).
// BindCommandList.cpp and BindBundle.cpp each call DefSharedRecording once; the methods that differ
// (set_pipeline_state, set_constants, draw, ...) stay in their own files. Only conversions live here.
#pragma once

#include "GpuArgs.hpp"

#include <memory>

namespace dx12kit::bindings {

/// One class's docstrings of the shared recording methods, in the order of the members.
struct SharedRecordingDocs {
    const char *setRootCbv, *setRootSrv, *setRootUav;
    const char *setShaderResourceView, *setUnorderedAccessView, *setConstantBufferView, *setSampler;
    const char *setVertexBuffer, *setIndexBuffer;
    const char *setDynamicConstantBuffer, *setDynamicVertexBuffer, *setDynamicIndexBuffer;
    const char *setStencilRef, *setBlendFactor;
};

/// The SharedRecordingDocs of docs::<Class> (a docs header of that class included where it is used).
#define DX12KIT_SHARED_RECORDING_DOCS(Class)                                                                                                     \
  ::dx12kit::bindings::SharedRecordingDocs {                                                                                                     \
    docs::Class::set_root_cbv, docs::Class::set_root_srv, docs::Class::set_root_uav, docs::Class::set_shader_resource_view,                      \
        docs::Class::set_unordered_access_view, docs::Class::set_constant_buffer_view, docs::Class::set_sampler, docs::Class::set_vertex_buffer, \
        docs::Class::set_index_buffer, docs::Class::set_dynamic_constant_buffer, docs::Class::set_dynamic_vertex_buffer,                         \
        docs::Class::set_dynamic_index_buffer, docs::Class::set_stencil_ref, docs::Class::set_blend_factor                                       \
  }

/// set_root_cbv / set_root_srv / set_root_uav (`name`): a buffer bound as a root view of `kind`.
template <class T>
void DefRootView(py::class_<T, std::shared_ptr<T>>& cls, const char* name, RootParamKind kind, const char* doc) {
    cls.def(
        name,
        [name, kind](T& rec, Int root, BufferArg buf, Int off) {
            rec.SetRootView(kind, U32(root, name, "root_index"), AsResource(buf, name), U64(off, name, "offset"));
        },
        "root_index"_a, "buffer"_a, "offset"_a = 0, doc);
}

/// Root views, descriptor-table views and samplers.
template <class T>
void DefSharedViews(py::class_<T, std::shared_ptr<T>>& cls, const SharedRecordingDocs& docs) {
    DefRootView(cls, "set_root_cbv", RootParamKind::Cbv, docs.setRootCbv);
    DefRootView(cls, "set_root_srv", RootParamKind::Srv, docs.setRootSrv);
    DefRootView(cls, "set_root_uav", RootParamKind::Uav, docs.setRootUav);
    cls.def(
           "set_shader_resource_view",
           [](T& rec, Int root, Int offset, ResourceArg r, OptIndex mip, ViewFormatArg format, OptIndex stride, OptBool raw, OptIndex first,
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
               rec.SetShaderResourceView(rootIndex, slot, res, firstMip, count, f, view);
           },
           "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = py::none(), "format"_a = py::none(), "stride"_a = py::none(),
           "raw"_a = py::none(), "first_element"_a = py::none(), "num_elements"_a = py::none(), docs.setShaderResourceView)
        .def(
            "set_unordered_access_view",
            [](T& rec, Int root, Int offset, ResourceArg r, OptIndex mip, ViewFormatArg format, OptIndex stride, OptBool raw, OptIndex first,
               OptIndex num, OptBufferArg counter, Int counterOffset) {
                const char* fn = "set_unordered_access_view";
                const uint32_t rootIndex = U32(root, fn, "root_index"), slot = U32(offset, fn, "descriptor_offset");
                UavArguments a = ParseUavArguments(r, mip, format, stride, raw, first, num, counter, counterOffset);
                rec.SetUnorderedAccessView(rootIndex, slot, a.resource, a.mip, a.view);
            },
            "root_index"_a, "descriptor_offset"_a, "resource"_a, py::kw_only(), "mip"_a = py::none(), "format"_a = py::none(),
            "stride"_a = py::none(), "raw"_a = py::none(), "first_element"_a = py::none(), "num_elements"_a = py::none(), "counter"_a = py::none(),
            "counter_offset"_a = 0, docs.setUnorderedAccessView)
        .def(
            "set_constant_buffer_view",
            [](T& rec, Int root, Int offset, BufferArg buf, Int bufferOffset, OptIndex size) {
                const char* fn = "set_constant_buffer_view";
                uint32_t bytes = 0;
                if (!size.is_none()) {
                    bytes = U32(size, fn, "size");
                    if (bytes == 0)
                        throw InvalidArgument(
                            "set_constant_buffer_view: size=0; a constant buffer view covers 256 to 65536 bytes (a multiple of 256)");
                }
                rec.SetConstantBufferView(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), AsResource(buf, fn),
                                          U64(bufferOffset, fn, "offset"), bytes);
            },
            "root_index"_a, "descriptor_offset"_a, "buffer"_a, "offset"_a = 0, "size"_a = py::none(), docs.setConstantBufferView)
        .def(
            "set_sampler",
            [](T& rec, Int root, Int offset, SamplerArg sampler) {
                const char* fn = "set_sampler";
                if (!py::isinstance<Sampler>(sampler))
                    throw py::type_error("set_sampler: sampler must be a dx12kit.SamplerState (Device.create_sampler), not " +
                                         detail::TypeName(sampler));
                rec.SetSampler(U32(root, fn, "root_index"), U32(offset, fn, "descriptor_offset"), sampler.cast<std::shared_ptr<Sampler>>());
            },
            "root_index"_a, "descriptor_offset"_a, "sampler"_a, docs.setSampler);
}

/// Vertex and index buffers, per-call (dynamic) buffers, stencil reference and blend factor.
template <class T>
void DefSharedGeometry(py::class_<T, std::shared_ptr<T>>& cls, const SharedRecordingDocs& docs) {
    cls.def(
           "set_vertex_buffer",
           [](T& rec, Int slot, BufferArg buf, Int stride, Int off) {
               const char* fn = "set_vertex_buffer";
               rec.SetVertexBuffer(U32(slot, fn, "slot"), AsResource(buf, fn), U32(stride, fn, "stride"), U64(off, fn, "offset"));
           },
           "slot"_a, "buffer"_a, "stride"_a, "offset"_a = 0, docs.setVertexBuffer)
        .def(
            "set_index_buffer",
            [](T& rec, BufferArg buf, Choice<IndexFormatChoice> format, Int off) {
                const DXGI_FORMAT f = Parse(format, "set_index_buffer: format");
                rec.SetIndexBuffer(AsResource(buf, "set_index_buffer"), f, U64(off, "set_index_buffer", "offset"));
            },
            "buffer"_a, "format"_a = "uint32", "offset"_a = 0, docs.setIndexBuffer)
        .def(
            "set_dynamic_constant_buffer",
            [](T& rec, Int root, py::handle data) {
                const uint32_t rootIndex = U32(root, "set_dynamic_constant_buffer", "root_index");
                Bytes bytes = GetBytes(data, "set_dynamic_constant_buffer");
                rec.SetDynamicConstantBuffer(rootIndex, bytes.data, bytes.size);
            },
            "root_index"_a, "data"_a, docs.setDynamicConstantBuffer)
        .def(
            "set_dynamic_vertex_buffer",
            [](T& rec, Int slotArg, py::handle data, py::object stride) {
                const uint32_t slot = U32(slotArg, "set_dynamic_vertex_buffer", "slot");
                Bytes bytes = GetBytes(data, "set_dynamic_vertex_buffer");
                uint32_t st;
                if (!stride.is_none()) st = U32(stride, "set_dynamic_vertex_buffer", "stride");
                else if (bytes.info.ndim >= 2) st = static_cast<uint32_t>(bytes.info.strides[0]);
                else throw InvalidArgument("set_dynamic_vertex_buffer: give stride= for a 1-D array (or pass shape (vertices, components))");
                rec.SetDynamicVertexBuffer(slot, bytes.data, bytes.size, st);
            },
            "slot"_a, "array"_a, "stride"_a = py::none(), docs.setDynamicVertexBuffer)
        .def(
            "set_dynamic_index_buffer",
            [](T& rec, py::handle data) {
                Bytes bytes = GetBytes(data, "set_dynamic_index_buffer");
                const std::string fmt = bytes.info.format;
                const bool u16 = bytes.info.itemsize == 2 && (fmt == "H");
                const bool u32 = bytes.info.itemsize == 4 && (fmt == "I" || fmt == "L");
                if (!u16 && !u32)
                    throw InvalidArgument("set_dynamic_index_buffer: indices must be a uint16 or uint32 array, got format '" + fmt + "'");
                rec.SetDynamicIndexBuffer(bytes.data, bytes.size, u16 ? DXGI_FORMAT_R16_UINT : DXGI_FORMAT_R32_UINT);
            },
            "array"_a, docs.setDynamicIndexBuffer)
        // 0..255 is checked by the core (CommandList::SetStencilRef, Bundle::SetStencilRef).
        .def(
            "set_stencil_ref", [](T& rec, Int ref) { rec.SetStencilRef(U32(ref, "set_stencil_ref", "ref")); }, "ref"_a, docs.setStencilRef)
        .def(
            "set_blend_factor", [](T& rec, FourArg rgbaObj) { rec.SetBlendFactor(Rgba4(rgbaObj, "set_blend_factor").data()); }, "rgba"_a,
            docs.setBlendFactor);
}

/// Every shared recording method, on CommandList or Bundle (`cls`), with that class's docstrings.
template <class T>
void DefSharedRecording(py::class_<T, std::shared_ptr<T>>& cls, const SharedRecordingDocs& docs) {
    DefSharedViews(cls, docs);
    DefSharedGeometry(cls, docs);
}

}  // namespace dx12kit::bindings
