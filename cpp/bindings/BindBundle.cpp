// dx12core: Bundle (recording; the rules and the emulation: dx12kit/gpu/Bundle.hpp). Device.create_bundle is
// BindDeviceBundles.cpp, CommandList.execute_bundle BindCommandListBundles.cpp. Only conversions live here.
#include "docs/BundleDocs.hpp"
#include "GpuArgs.hpp"
#include "SharedRecording.hpp"

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

/// set_constants (the root views, table views and the rest it shares with CommandList: SharedRecording.hpp).
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
        "    UseAfterFreeError: the bundle is closed.");
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
    DefSharedRecording(c.bundle, DX12KIT_SHARED_RECORDING_DOCS(Bundle));
    DefBundleDraws(c.bundle);
}

}  // namespace dx12kit::bindings
