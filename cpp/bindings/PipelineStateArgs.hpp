// The pipeline-state arguments of Device.create_graphics_pipeline (blend=, input_layout=) as the
// C++ descriptions of dx12kit/gpu/PipelineDesc.hpp. Defined in BindPipelineStates.cpp, beside the
// classes they accept (BlendState, RasterizerState, DepthStencilState, StencilFace, InputElement).
#pragma once

#include "GpuArgs.hpp"

#include "dx12kit/gpu/PipelineDesc.hpp"

#include <vector>

namespace dx12kit::bindings {

/// blend=: None, a BlendMode preset (member or name), a BlendState, or a list of them (None
/// items: no blending), one per render target. An empty vector means no blending.
struct BlendArg {
    pybind11::handle value;
};
std::vector<BlendStateDesc> ParseBlend(pybind11::handle h, const char* what);

/// An InputElement's format: a dx12kit.VertexFormat name, else any dx12kit.Format or its name.
struct InputFormatArg {
    pybind11::handle value;
};

/// Arguments checked by the binding itself (naming the argument), shown as their real types.
struct StrArg {
    pybind11::handle value;
};
struct OptIndexArg {
    pybind11::handle value;
};

/// input_layout=: None or a list of InputElement or tuples (semantic, format[, slot[, offset[, semantic_index]]]).
std::vector<InputElementDesc> ParseInputLayout(pybind11::handle h, const char* what);

}  // namespace dx12kit::bindings

namespace pybind11::detail {

template <>
struct type_caster<dx12kit::bindings::BlendArg> {
    PYBIND11_TYPE_CASTER(dx12kit::bindings::BlendArg,
                         const_name("dx12kit.enums.BlendMode | dx12kit.dx12core.BlendState | "
                                    "collections.abc.Sequence[dx12kit.dx12core.BlendState | dx12kit.enums.BlendMode | str | None] | None"));
    bool load(handle src, bool) {
        if (!src) return false;
        value.value = src;
        return true;
    }
    static handle cast(const dx12kit::bindings::BlendArg& v, return_value_policy, handle) { return v.value.inc_ref(); }
};

template <>
struct type_caster<dx12kit::bindings::InputFormatArg> {
    PYBIND11_TYPE_CASTER(dx12kit::bindings::InputFormatArg, const_name("dx12kit.enums.VertexFormat | dx12kit.dx12core.Format | str"));
    bool load(handle src, bool) {
        if (!src) return false;
        value.value = src;
        return true;
    }
    static handle cast(const dx12kit::bindings::InputFormatArg& v, return_value_policy, handle) { return v.value.inc_ref(); }
};

template <>
struct type_caster<dx12kit::bindings::StrArg> {
    PYBIND11_TYPE_CASTER(dx12kit::bindings::StrArg, const_name("str"));
    bool load(handle src, bool) {
        if (!src) return false;
        value.value = src;
        return true;
    }
    static handle cast(const dx12kit::bindings::StrArg& v, return_value_policy, handle) { return v.value.inc_ref(); }
};

template <>
struct type_caster<dx12kit::bindings::OptIndexArg> {
    PYBIND11_TYPE_CASTER(dx12kit::bindings::OptIndexArg, const_name("typing.SupportsIndex | None"));
    bool load(handle src, bool) {
        if (!src) return false;
        value.value = src;
        return true;
    }
    static handle cast(const dx12kit::bindings::OptIndexArg& v, return_value_policy, handle) { return v.value.inc_ref(); }
};

}  // namespace pybind11::detail
