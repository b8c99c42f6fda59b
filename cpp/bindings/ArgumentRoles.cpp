// dx12core.resource_arguments(): what each CommandList method does with each resource it takes.
//
// One table, read by Python (the render graph's checked command list is generated from it, so every
// resource-taking method is checked in validation mode, including ones added later) and by a test
// that fails when a CommandList method taking a resource is missing here. Roles use the render
// graph's declaration names:
//   read, write, render_target, depth_stencil, copy_from, copy_to, resolve_from, resolve_to
//                 the use the method makes (what a pass must have declared); several joined by
//                 '|' when any of them will do (discard_resource);
//   states        the method sets or changes states or memory ownership itself (transitions,
//                 aliasing): graph resources are refused, the graph owns their states;
//   barriers      a BarrierBatch: each entry as the matching barrier method;
//   layout        only the resource's description is read (sizes, footprints): no use.
// `position` is the argument's index after self; `many` marks a sequence of resources.
#include "docs/ArgumentRolesDocs.hpp"
#include "Bindings.hpp"
#include "GpuArgs.hpp"

namespace dx12kit::bindings {

namespace {

struct ArgumentRole {
    const char* method;
    const char* argument;
    int position;
    const char* role;
    bool many;
};

constexpr ArgumentRole kArgumentRoles[] = {
    {"set_shader_resource_view", "resource", 2, "read", false},
    {"set_unordered_access_view", "resource", 2, "write", false},
    {"set_constant_buffer_view", "buffer", 2, "read", false},
    {"set_root_srv", "buffer", 1, "read", false},
    {"set_root_cbv", "buffer", 1, "read", false},
    {"set_root_uav", "buffer", 1, "write", false},
    {"set_vertex_buffer", "buffer", 1, "read", false},
    {"set_index_buffer", "buffer", 0, "read", false},
    {"set_render_targets", "textures", 0, "render_target", true},
    {"set_render_targets", "depth", 1, "depth_stencil", false},
    {"clear_render_target", "texture", 0, "render_target", false},
    {"clear_depth_stencil", "texture", 0, "depth_stencil", false},
    {"clear_unordered_access_view", "resource", 0, "write", false},
    {"copy_resource", "dst", 0, "copy_to", false},
    {"copy_resource", "src", 1, "copy_from", false},
    {"copy_buffer_region", "dst", 0, "copy_to", false},
    {"copy_buffer_region", "src", 2, "copy_from", false},
    {"upload", "resource", 0, "copy_to", false},
    {"copy_from_upload", "dst", 0, "copy_to", false},
    {"allocate_texture_upload", "texture", 0, "layout", false},
    {"resolve", "dst", 0, "resolve_to", false},
    {"resolve", "src", 1, "resolve_from", false},
    {"discard_resource", "texture", 0, "write|render_target|depth_stencil", false},
    {"generate_mips", "texture", 0, "write", false},
    {"pano_to_cubemap", "cubemap", 0, "write", false},
    {"pano_to_cubemap", "panorama", 1, "read", false},
    {"uav_barrier", "resource", 0, "write", false},
    {"transition_barrier", "resource", 0, "states", false},
    {"raw_transition", "resource", 0, "states", false},
    {"aliasing_barrier", "before", 0, "states", false},
    {"aliasing_barrier", "after", 1, "states", false},
    {"resource_barriers", "batch", 0, "barriers", false},
    {"resolve_query_data", "buffer", 4, "copy_to", false},
    {"set_predication", "buffer", 0, "read", false},
    {"execute_indirect", "argument_buffer", 2, "read", false},
    {"execute_indirect", "count_buffer", 4, "read", false},
};

}  // namespace

void BindArgumentRoles(py::module_& m) {
    m.def(
        "resource_arguments",
        [] {
            py::dict out;
            for (const ArgumentRole& r : kArgumentRoles) {
                py::str method(r.method);
                if (!out.contains(method)) out[method] = py::list();
                out[method].cast<py::list>().append(py::make_tuple(r.argument, r.position, r.role, r.many));
            }
            return out;
        },
        docs::dx12core::resource_arguments);
}

}  // namespace dx12kit::bindings
