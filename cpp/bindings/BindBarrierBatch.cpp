// dx12core: BarrierBatch and CommandList.resource_barriers (barriers planned once, recorded with one
// call; the render graph's per-pass barriers). Only conversions live here; behaviour is in
// cpp/src/gpu/BarrierBatch.cpp.
#include "GpuArgs.hpp"

#include "dx12kit/gpu/BarrierBatch.hpp"

namespace dx12kit::bindings {

namespace {

std::shared_ptr<Resource> OptionalResource(py::handle h, const char* what) {
    return h.is_none() ? nullptr : AsResource(h, what);
}

std::shared_ptr<BarrierBatch> MakeBatch(const py::object& barriers) {
    const char* fn = "BarrierBatch";
    if (!py::isinstance<py::iterable>(barriers) || py::isinstance<py::str>(barriers))
        throw py::type_error(std::string(fn) + ": barriers must be an iterable of tuples, not " + detail::TypeName(barriers));
    auto batch = std::make_shared<BarrierBatch>();
    for (py::handle item : barriers) {
        if (!py::isinstance<py::tuple>(item))
            throw py::type_error(std::string(fn) + ": each barrier is a tuple (\"transition\", resource, state), (\"uav\", "
                                 "resource) or (\"aliasing\", before, after), not " + detail::TypeName(item));
        auto t = py::reinterpret_borrow<py::tuple>(item);
        if (t.size() == 0 || !py::isinstance<py::str>(t[0]))
            throw py::type_error(std::string(fn) + ": a barrier tuple starts with its kind, \"transition\", \"uav\" or \"aliasing\"");
        const std::string kind = t[0].cast<std::string>();
        if (kind == "transition" && t.size() == 3) {
            auto r = AsResource(t[1], "BarrierBatch (transition)");
            batch->AddTransition(r, StateArg(t[2], fn, "state", *r));
        } else if (kind == "uav" && t.size() == 2) {
            batch->AddUav(OptionalResource(t[1], "BarrierBatch (uav)"));
        } else if (kind == "aliasing" && t.size() == 3) {
            batch->AddAliasing(OptionalResource(t[1], "BarrierBatch (aliasing)"), OptionalResource(t[2], "BarrierBatch (aliasing)"));
        } else {
            throw InvalidArgument(std::string(fn) + ": unknown barrier " + py::repr(item).cast<std::string>() +
                                  " (expected (\"transition\", resource, state), (\"uav\", resource) or (\"aliasing\", before, after))" +
                                  DidYouMean(kind, {"transition", "uav", "aliasing"}));
        }
    }
    return batch;
}

}  // namespace

void BindBarrierBatch(Classes& c) {
    Documented(c.barrierBatch,
        "Barrier requests built once and recorded into command lists with one call, "
        "CommandList.resource_barriers(batch).\n\n"
        "Recording a batch is the same as calling transition_barrier, uav_barrier and aliasing_barrier for\n"
        "its entries in order (the state tracker batches them into one ResourceBarrier at the next work),\n"
        "at the cost of one call. The batch keeps its resources alive.\n\n"
        "Args:\n"
        "    barriers: tuples (\"transition\", resource, state), (\"uav\", resource or None) or\n"
        "        (\"aliasing\", before or None, after or None).\n\n"
        "Raises:\n"
        "    TypeError: an entry that is not such a tuple, or a resource that is not a Buffer or Texture.\n"
        "    InvalidArgumentError: an unknown kind, or a state with bits outside D3D12_RESOURCE_STATES.")
        .def(py::init(&MakeBatch), "barriers"_a)
        .def("__len__", &BarrierBatch::Size, "The number of barrier requests.")
        .def_property_readonly("entries", [](const BarrierBatch& b) {
            py::list out;
            for (const BarrierBatch::Entry& e : b.Entries()) {
                py::object first = e.first ? py::cast(e.first) : py::none();
                switch (e.kind) {
                    case BarrierBatch::Kind::Transition: out.append(py::make_tuple("transition", first, e.state)); break;
                    case BarrierBatch::Kind::Uav: out.append(py::make_tuple("uav", first)); break;
                    case BarrierBatch::Kind::Aliasing:
                        out.append(py::make_tuple("aliasing", first, e.second ? py::cast(e.second) : py::none()));
                        break;
                }
            }
            return out;
        }, "The barrier requests as tuples, in order: (\"transition\", resource, state), (\"uav\", resource or None),\n"
           "(\"aliasing\", before or None, after or None).")
        .def("__repr__", [](const BarrierBatch& b) { return "<dx12kit.BarrierBatch " + b.Describe() + ">"; });
}

}  // namespace dx12kit::bindings
