// dx12core: BarrierBatch and CommandList.resource_barriers (barriers planned once, recorded with one
// call; the render graph's per-pass barriers). Only conversions live here; behaviour is in
// cpp/src/gpu/BarrierBatch.cpp.
#include "docs/BarrierBatchDocs.hpp"
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
            throw py::type_error(std::string(fn) +
                                 ": each barrier is a tuple (\"transition\", resource, state[, subresource]), (\"uav\", "
                                 "resource) or (\"aliasing\", before, after), not " +
                                 detail::TypeName(item));
        auto t = py::reinterpret_borrow<py::tuple>(item);
        if (t.size() == 0 || !py::isinstance<py::str>(t[0]))
            throw py::type_error(std::string(fn) + ": a barrier tuple starts with its kind, \"transition\", \"uav\" or \"aliasing\"");
        const std::string kind = t[0].cast<std::string>();
        if (kind == "transition" && (t.size() == 3 || t.size() == 4)) {
            auto r = AsResource(t[1], "BarrierBatch (transition)");
            const uint32_t sub = t.size() == 4 ? t[3].cast<uint32_t>() : D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
            batch->AddTransition(r, StateArg(t[2], fn, "state", *r), sub);
        } else if (kind == "uav" && t.size() == 2) {
            batch->AddUav(OptionalResource(t[1], "BarrierBatch (uav)"));
        } else if (kind == "aliasing" && (t.size() == 3 || t.size() == 4)) {
            auto after = OptionalResource(t[2], "BarrierBatch (aliasing)");
            D3D12_RESOURCE_STATES park = D3D12_RESOURCE_STATE_COMMON;
            if (t.size() == 4) {
                if (!after) throw InvalidArgument(std::string(fn) + ": an aliasing barrier's state needs an 'after' resource");
                park = StateArg(t[3], fn, "state", *after);
            }
            batch->AddAliasing(OptionalResource(t[1], "BarrierBatch (aliasing)"), after, park);
        } else {
            throw InvalidArgument(std::string(fn) + ": unknown barrier " + py::repr(item).cast<std::string>() +
                                  " (expected (\"transition\", resource, state[, subresource]), (\"uav\", resource) or "
                                  "(\"aliasing\", before, after[, state]))" +
                                  DidYouMean(kind, {"transition", "uav", "aliasing"}));
        }
    }
    return batch;
}

}  // namespace

void BindBarrierBatch(Classes& c) {
    Documented(c.barrierBatch, docs::BarrierBatch::class_)
        .def(py::init(&MakeBatch), "barriers"_a)
        .def("__len__", &BarrierBatch::Size, docs::BarrierBatch::len)
        .def_property_readonly(
            "entries",
            [](const BarrierBatch& b) {
                py::list out;
                for (const BarrierBatch::Entry& e : b.Entries()) {
                    py::object first = e.first ? py::cast(e.first) : py::none();
                    switch (e.kind) {
                        case BarrierBatch::Kind::Transition:
                            if (e.subresource == D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES) out.append(py::make_tuple("transition", first, e.state));
                            else out.append(py::make_tuple("transition", first, e.state, e.subresource));
                            break;
                        case BarrierBatch::Kind::Uav: out.append(py::make_tuple("uav", first)); break;
                        case BarrierBatch::Kind::Aliasing:
                            if (e.state == D3D12_RESOURCE_STATE_COMMON)
                                out.append(py::make_tuple("aliasing", first, e.second ? py::cast(e.second) : py::none()));
                            else out.append(py::make_tuple("aliasing", first, py::cast(e.second), e.state));
                            break;
                    }
                }
                return out;
            },
            docs::BarrierBatch::entries)
        .def("__repr__", [](const BarrierBatch& b) { return "<dx12kit.BarrierBatch " + b.Describe() + ">"; });
}

}  // namespace dx12kit::bindings
