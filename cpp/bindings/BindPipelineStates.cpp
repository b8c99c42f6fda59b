// dx12core: the state objects of a graphics pipeline (BlendState, RasterizerState, DepthStencilState,
// StencilFace, InputElement) and the conversion of create_graphics_pipeline's blend= and input_layout=.
// Only conversions live here; the descriptions are dx12kit/gpu/PipelineDesc.hpp and PipelineState
// checks them (D3D12's rules, what vkd3d implements).
#include "docs/PipelineStatesDocs.hpp"
#include "PipelineStateArgs.hpp"

#include <pybind11/stl.h>

#include <cstdio>
#include <optional>

namespace dx12kit::bindings {

namespace {

/// The first name a choice table gives `v` (the enum's value, not an alias).
template <typename Tag>
const char* NameOf(typename Tag::Value v) {
    for (const auto& c : Tag::kTable)
        if (c.value == v) return c.name;
    return "?";
}

std::string Quoted(const char* s) {
    return std::string("'") + s + "'";
}

std::string FloatText(float f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", double(f));
    std::string s = buf;
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s;
}

/// input_layout formats: a dx12kit.VertexFormat name, else any dx12kit.Format or its name.
DXGI_FORMAT ParseInputFormat(py::handle h, const char* what) {
    if (PyUnicode_Check(h.ptr())) {
        const std::string name = Lower(Str(h, what, "format"));
        if (const FormatInfo* f = FindFormat(name.c_str())) return f->format;  // DXGI's names too
        try {
            return ParseChoice<VertexFormatChoice>(h, what);
        } catch (const InvalidArgument&) {
            // The vertex formats' names first, else the formats' (each list by its own closeness).
            std::vector<std::string> close = CloseNames(name, detail::ChoiceNameList<VertexFormatChoice>());
            if (close.empty()) close = CloseFormatNames(name, 3);
            throw InvalidArgument(std::string(what) + ": '" + name + "' is no dx12kit.Format name (see dx12kit.Format) and is not one of " +
                                  detail::ChoiceNames<VertexFormatChoice>() + DidYouMean(close));
        }
    }
    if (PyIndex_Check(h.ptr()) && !PyFloat_Check(h.ptr())) {
        try {
            return ParseChoice<VertexFormatChoice>(h, what);
        } catch (const InvalidArgument&) {
            return ParseFormat(h, what);  // raises listing the formats when it is none
        }
    }
    return ParseChoice<VertexFormatChoice>(h, what);  // TypeError naming the argument
}

std::string InputFormatName(const InputElementDesc& e) {
    for (const auto& c : VertexFormatChoice::kTable)
        if (c.value == e.format) return c.name;
    const FormatInfo* f = FindFormat(e.format);
    return f ? f->name : std::to_string(int(e.format));
}

std::string BlendRepr(const BlendStateDesc& b) {
    const BlendStateDesc d;
    std::string s = std::string("BlendState(blend_enable=") + (b.blendEnable ? "True" : "False");
    auto factor = [&](const char* name, D3D12_BLEND v, D3D12_BLEND dv) {
        if (v != dv) s += std::string(", ") + name + "=" + Quoted(NameOf<BlendChoice>(v));
    };
    auto op = [&](const char* name, D3D12_BLEND_OP v) {
        if (v != D3D12_BLEND_OP_ADD) s += std::string(", ") + name + "=" + Quoted(NameOf<BlendOpChoice>(v));
    };
    factor("src_blend", b.srcBlend, d.srcBlend);
    factor("dest_blend", b.destBlend, d.destBlend);
    op("blend_op", b.blendOp);
    factor("src_blend_alpha", b.srcBlendAlpha, d.srcBlendAlpha);
    factor("dest_blend_alpha", b.destBlendAlpha, d.destBlendAlpha);
    op("blend_op_alpha", b.blendOpAlpha);
    if (b.logicOpEnable) s += std::string(", logic_op=") + Quoted(NameOf<LogicOpChoice>(b.logicOp));
    if (b.writeMask != D3D12_COLOR_WRITE_ENABLE_ALL) s += ", write_mask=" + std::to_string(b.writeMask);
    return s + ")";
}

std::string StencilFaceRepr(const StencilFaceDesc& f) {
    return "StencilFace(fail_op=" + Quoted(NameOf<StencilOpChoice>(f.failOp)) + ", depth_fail_op=" + Quoted(NameOf<StencilOpChoice>(f.depthFailOp)) +
           ", pass_op=" + Quoted(NameOf<StencilOpChoice>(f.passOp)) + ", func=" + Quoted(NameOf<ComparisonFuncChoice>(f.func)) + ")";
}

/// __eq__ for a value class: equal values of the same class; NotImplemented for other types.
template <typename T>
void DefineEq(py::class_<T>& cls) {
    cls.def(
        "__eq__",
        [](const T& a, py::object o) -> py::object {
            if (!py::isinstance<T>(o)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(a == o.cast<const T&>());
        },
        "other"_a, docs::AnyState::eq);
    py::setattr(cls, "__hash__", py::none());
}

}  // namespace

std::vector<BlendStateDesc> ParseBlend(py::handle h, const char* what) {
    auto one = [what](py::handle item, const std::string& where) -> BlendStateDesc {
        if (item.is_none()) return BlendStateDesc{};
        if (py::isinstance<BlendStateDesc>(item)) return item.cast<BlendStateDesc>();
        if (PyUnicode_Check(item.ptr()) || PyIndex_Check(item.ptr()))  // an int: InvalidArgumentError, as BlendMode choices always did
            return BlendPreset(ParseChoice<BlendModeChoice>(item, where.c_str()));
        throw py::type_error(where + ": expected a dx12kit.BlendState, a dx12kit.BlendMode preset (or its name) or None, not " +
                             detail::TypeName(item));
    };
    const std::string w(what);
    if (h.is_none()) return {};
    if (PyUnicode_Check(h.ptr()) || PyIndex_Check(h.ptr())) {
        const BlendMode m = ParseChoice<BlendModeChoice>(h, what);
        return m == BlendMode::None ? std::vector<BlendStateDesc>{} : std::vector<BlendStateDesc>{BlendPreset(m)};
    }
    if (py::isinstance<BlendStateDesc>(h)) return {h.cast<BlendStateDesc>()};
    if (py::isinstance<py::list>(h) || py::isinstance<py::tuple>(h)) {
        std::vector<BlendStateDesc> out;
        size_t i = 0;
        for (py::handle item : h) {
            out.push_back(one(item, w + "[" + std::to_string(i) + "]"));
            ++i;
        }
        if (out.empty()) throw InvalidArgument(w + ": an empty list; give None for no blending, or one state per render target");
        if (out.size() > 8) throw InvalidArgument(w + ": " + std::to_string(out.size()) + " states; at most 8 render targets");
        return out;
    }
    throw py::type_error(w +
                         ": expected a dx12kit.BlendMode preset (or its name), a dx12kit.BlendState, a list of them (one per render "
                         "target) or None, not " +
                         detail::TypeName(h));
}

std::vector<InputElementDesc> ParseInputLayout(py::handle h, const char* what) {
    const char* fn = what;
    std::vector<InputElementDesc> out;
    if (h.is_none()) return out;
    if (!py::isinstance<py::list>(h) && !py::isinstance<py::tuple>(h))
        throw py::type_error(std::string(fn) + ": input_layout must be a list of dx12kit.InputElement (or tuples), not " + detail::TypeName(h));
    for (py::handle e : h) {
        if (py::isinstance<InputElementDesc>(e)) {
            out.push_back(e.cast<InputElementDesc>());
            continue;
        }
        if (!py::isinstance<py::tuple>(e) && !py::isinstance<py::list>(e))
            throw py::type_error(std::string(fn) + ": input_layout entries are dx12kit.InputElement or tuples, not " + detail::TypeName(e));
        py::tuple t = py::tuple(py::reinterpret_borrow<py::object>(e));
        if (t.size() < 2 || t.size() > 5) throw InvalidArgument("input_layout: entries are (semantic, format[, slot[, offset[, semantic_index]]])");
        InputElementDesc ie;
        ie.semantic = Str(t[0], fn, "input_layout semantic");
        ie.format = ParseInputFormat(t[1], (std::string(fn) + ": input_layout format").c_str());
        if (t.size() > 2) ie.slot = U32(t[2], fn, "input_layout slot");
        if (t.size() > 3) ie.offset = U32(t[3], fn, "input_layout offset");
        if (t.size() > 4) ie.semanticIndex = U32(t[4], fn, "input_layout semantic_index");
        out.push_back(ie);
    }
    return out;
}

namespace {

/// BlendState.
void BindBlendState(py::module_& m) {
    // ---- BlendState ---------------------------------------------------------------------------
    py::class_<BlendStateDesc> blend(m, "BlendState", docs::BlendState::class_);
    blend
        .def(py::init([](std::optional<bool> enable, OptChoice<BlendChoice> src, OptChoice<BlendChoice> dest, OptChoice<BlendOpChoice> op,
                         OptChoice<BlendChoice> srcA, OptChoice<BlendChoice> destA, OptChoice<BlendOpChoice> opA, OptChoice<LogicOpChoice> logic,
                         Int writeMask) {
                 BlendStateDesc b;
                 if (src.Given()) b.srcBlend = Parse(src, "BlendState: src_blend");
                 if (dest.Given()) b.destBlend = Parse(dest, "BlendState: dest_blend");
                 if (op.Given()) b.blendOp = Parse(op, "BlendState: blend_op");
                 if (srcA.Given()) b.srcBlendAlpha = Parse(srcA, "BlendState: src_blend_alpha");
                 if (destA.Given()) b.destBlendAlpha = Parse(destA, "BlendState: dest_blend_alpha");
                 if (opA.Given()) b.blendOpAlpha = Parse(opA, "BlendState: blend_op_alpha");
                 if (logic.Given()) {
                     b.logicOpEnable = true;
                     b.logicOp = Parse(logic, "BlendState: logic_op");
                 }
                 const uint32_t mask = U32(writeMask, "BlendState", "write_mask");
                 if (mask > 15)
                     throw InvalidArgument("BlendState: write_mask " + std::to_string(mask) + " has bits other than red|green|blue|alpha (0..15)");
                 b.writeMask = static_cast<uint8_t>(mask);
                 b.blendEnable = enable ? *enable : src.Given() || dest.Given() || op.Given() || srcA.Given() || destA.Given() || opA.Given();
                 return b;
             }),
             py::kw_only(), "blend_enable"_a = py::none(), "src_blend"_a = py::none(), "dest_blend"_a = py::none(), "blend_op"_a = py::none(),
             "src_blend_alpha"_a = py::none(), "dest_blend_alpha"_a = py::none(), "blend_op_alpha"_a = py::none(), "logic_op"_a = py::none(),
             "write_mask"_a = 15)
        .def_readonly("blend_enable", &BlendStateDesc::blendEnable, docs::BlendState::blend_enable)
        .def_property_readonly(
            "src_blend", [](const BlendStateDesc& b) { return NameOf<BlendChoice>(b.srcBlend); }, docs::BlendState::src_blend)
        .def_property_readonly(
            "dest_blend", [](const BlendStateDesc& b) { return NameOf<BlendChoice>(b.destBlend); }, docs::BlendState::dest_blend)
        .def_property_readonly(
            "blend_op", [](const BlendStateDesc& b) { return NameOf<BlendOpChoice>(b.blendOp); }, docs::BlendState::blend_op)
        .def_property_readonly(
            "src_blend_alpha", [](const BlendStateDesc& b) { return NameOf<BlendChoice>(b.srcBlendAlpha); }, docs::BlendState::src_blend_alpha)
        .def_property_readonly(
            "dest_blend_alpha", [](const BlendStateDesc& b) { return NameOf<BlendChoice>(b.destBlendAlpha); }, docs::BlendState::dest_blend_alpha)
        .def_property_readonly(
            "blend_op_alpha", [](const BlendStateDesc& b) { return NameOf<BlendOpChoice>(b.blendOpAlpha); }, docs::BlendState::blend_op_alpha)
        .def_property_readonly(
            "logic_op",
            [](const BlendStateDesc& b) -> std::optional<std::string> {
                if (!b.logicOpEnable) return std::nullopt;
                return std::string(NameOf<LogicOpChoice>(b.logicOp));
            },
            docs::BlendState::logic_op)
        .def_property_readonly(
            "write_mask", [](const BlendStateDesc& b) { return int(b.writeMask); }, docs::BlendState::write_mask)
        .def_static(
            "preset", [](Choice<BlendModeChoice> mode) { return BlendPreset(Parse(mode, "BlendState.preset: mode")); }, "mode"_a,
            docs::BlendState::preset)
        .def("__repr__", &BlendRepr);
    DefineEq(blend);
}

/// RasterizerState.
void BindRasterizerState(py::module_& m) {
    // ---- RasterizerState ----------------------------------------------------------------------
    py::class_<RasterizerStateDesc> raster(m, "RasterizerState", docs::RasterizerState::class_);
    raster
        .def(py::init([](Choice<FillModeChoice> fill, Choice<CullModeChoice> cull, bool frontCcw, Int bias, Float biasClamp, Float slope,
                         bool depthClip, bool multisample, bool aaLines, Int forced, bool conservative) {
                 const char* fn = "RasterizerState";
                 RasterizerStateDesc r;
                 r.fill = Parse(fill, "RasterizerState: fill");
                 r.cull = Parse(cull, "RasterizerState: cull");
                 r.frontCounterClockwise = frontCcw;
                 r.depthBias = I32(bias, fn, "depth_bias");
                 r.depthBiasClamp = Finite(biasClamp, fn, "depth_bias_clamp");
                 r.slopeScaledDepthBias = Finite(slope, fn, "slope_scaled_depth_bias");
                 r.depthClip = depthClip;
                 r.multisample = multisample;
                 r.antialiasedLines = aaLines;
                 r.forcedSampleCount = U32(forced, fn, "forced_sample_count");
                 r.conservative = conservative;
                 return r;
             }),
             py::kw_only(), "fill"_a = "solid", "cull"_a = "none", "front_ccw"_a = false, "depth_bias"_a = 0, "depth_bias_clamp"_a = 0.0,
             "slope_scaled_depth_bias"_a = 0.0, "depth_clip"_a = true, "multisample"_a = false, "antialiased_lines"_a = false,
             "forced_sample_count"_a = 0, "conservative"_a = false)
        .def_property_readonly(
            "fill", [](const RasterizerStateDesc& r) { return NameOf<FillModeChoice>(r.fill); }, docs::RasterizerState::fill)
        .def_property_readonly(
            "cull", [](const RasterizerStateDesc& r) { return NameOf<CullModeChoice>(r.cull); }, docs::RasterizerState::cull)
        .def_readonly("front_ccw", &RasterizerStateDesc::frontCounterClockwise, docs::RasterizerState::front_ccw)
        .def_readonly("depth_bias", &RasterizerStateDesc::depthBias, docs::RasterizerState::depth_bias)
        .def_readonly("depth_bias_clamp", &RasterizerStateDesc::depthBiasClamp, docs::RasterizerState::depth_bias_clamp)
        .def_readonly("slope_scaled_depth_bias", &RasterizerStateDesc::slopeScaledDepthBias, docs::RasterizerState::slope_scaled_depth_bias)
        .def_readonly("depth_clip", &RasterizerStateDesc::depthClip, docs::RasterizerState::depth_clip)
        .def_readonly("multisample", &RasterizerStateDesc::multisample, docs::RasterizerState::multisample)
        .def_readonly("antialiased_lines", &RasterizerStateDesc::antialiasedLines, docs::RasterizerState::antialiased_lines)
        .def_readonly("forced_sample_count", &RasterizerStateDesc::forcedSampleCount, docs::RasterizerState::forced_sample_count)
        .def_readonly("conservative", &RasterizerStateDesc::conservative, docs::RasterizerState::conservative)
        .def("__repr__", [](const RasterizerStateDesc& r) {
            const RasterizerStateDesc d;
            std::string s = "RasterizerState(fill=" + Quoted(NameOf<FillModeChoice>(r.fill)) + ", cull=" + Quoted(NameOf<CullModeChoice>(r.cull));
            if (r.frontCounterClockwise) s += ", front_ccw=True";
            if (r.depthBias) s += ", depth_bias=" + std::to_string(r.depthBias);
            if (r.depthBiasClamp != d.depthBiasClamp) s += ", depth_bias_clamp=" + FloatText(r.depthBiasClamp);
            if (r.slopeScaledDepthBias != d.slopeScaledDepthBias) s += ", slope_scaled_depth_bias=" + FloatText(r.slopeScaledDepthBias);
            if (!r.depthClip) s += ", depth_clip=False";
            if (r.multisample) s += ", multisample=True";
            if (r.antialiasedLines) s += ", antialiased_lines=True";
            if (r.forcedSampleCount) s += ", forced_sample_count=" + std::to_string(r.forcedSampleCount);
            if (r.conservative) s += ", conservative=True";
            return s + ")";
        });
    DefineEq(raster);
}

/// StencilFace and DepthStencilState.
void BindDepthStencilState(py::module_& m) {
    // ---- StencilFace, DepthStencilState ---------------------------------------------------------
    py::class_<StencilFaceDesc> face(m, "StencilFace", docs::StencilFace::class_);
    face.def(py::init([](Choice<StencilOpChoice> fail, Choice<StencilOpChoice> depthFail, Choice<StencilOpChoice> pass,
                         Choice<ComparisonFuncChoice> func) {
                 return StencilFaceDesc{Parse(fail, "StencilFace: fail_op"), Parse(depthFail, "StencilFace: depth_fail_op"),
                                        Parse(pass, "StencilFace: pass_op"), Parse(func, "StencilFace: func")};
             }),
             py::kw_only(), "fail_op"_a = "keep", "depth_fail_op"_a = "keep", "pass_op"_a = "keep", "func"_a = "always")
        .def_property_readonly(
            "fail_op", [](const StencilFaceDesc& f) { return NameOf<StencilOpChoice>(f.failOp); }, docs::StencilFace::fail_op)
        .def_property_readonly(
            "depth_fail_op", [](const StencilFaceDesc& f) { return NameOf<StencilOpChoice>(f.depthFailOp); }, docs::StencilFace::depth_fail_op)
        .def_property_readonly(
            "pass_op", [](const StencilFaceDesc& f) { return NameOf<StencilOpChoice>(f.passOp); }, docs::StencilFace::pass_op)
        .def_property_readonly(
            "func", [](const StencilFaceDesc& f) { return NameOf<ComparisonFuncChoice>(f.func); }, docs::StencilFace::func)
        .def("__repr__", &StencilFaceRepr);
    DefineEq(face);

    py::class_<DepthStencilStateDesc> ds(m, "DepthStencilState", docs::DepthStencilState::class_);
    ds.def(py::init([](std::optional<bool> depthTest, bool depthWrite, OptChoice<ComparisonFuncChoice> depthFunc, std::optional<bool> stencil,
                       Int readMask, Int writeMask, std::optional<StencilFaceDesc> front, std::optional<StencilFaceDesc> back) {
               const char* fn = "DepthStencilState";
               DepthStencilStateDesc d;
               if (depthFunc.Given()) d.depthFunc = Parse(depthFunc, "DepthStencilState: depth_func");
               d.depthTest = depthTest ? *depthTest : depthFunc.Given();
               d.depthWrite = depthWrite;
               d.readMask = U8(readMask, fn, "read_mask");
               d.writeMask = U8(writeMask, fn, "write_mask");
               if (front) d.front = *front;
               if (back) d.back = *back;
               d.stencil = stencil ? *stencil : (front.has_value() || back.has_value());
               return d;
           }),
           py::kw_only(), "depth_test"_a = py::none(), "depth_write"_a = true, "depth_func"_a = py::none(), "stencil"_a = py::none(),
           "read_mask"_a = 255, "write_mask"_a = 255, "front"_a = py::none(), "back"_a = py::none())
        .def_readonly("depth_test", &DepthStencilStateDesc::depthTest, docs::DepthStencilState::depth_test)
        .def_readonly("depth_write", &DepthStencilStateDesc::depthWrite, docs::DepthStencilState::depth_write)
        .def_property_readonly(
            "depth_func", [](const DepthStencilStateDesc& d) { return NameOf<ComparisonFuncChoice>(d.depthFunc); },
            docs::DepthStencilState::depth_func)
        .def_readonly("stencil", &DepthStencilStateDesc::stencil, docs::DepthStencilState::stencil)
        .def_readonly("read_mask", &DepthStencilStateDesc::readMask, docs::DepthStencilState::read_mask)
        .def_readonly("write_mask", &DepthStencilStateDesc::writeMask, docs::DepthStencilState::write_mask)
        .def_readonly("front", &DepthStencilStateDesc::front, docs::DepthStencilState::front)
        .def_readonly("back", &DepthStencilStateDesc::back, docs::DepthStencilState::back)
        .def("__repr__", [](const DepthStencilStateDesc& d) {
            std::string s = std::string("DepthStencilState(depth_test=") + (d.depthTest ? "True" : "False");
            if (!d.depthWrite) s += ", depth_write=False";
            if (d.depthFunc != D3D12_COMPARISON_FUNC_LESS) s += ", depth_func=" + Quoted(NameOf<ComparisonFuncChoice>(d.depthFunc));
            s += std::string(", stencil=") + (d.stencil ? "True" : "False");
            if (d.readMask != 0xFF) s += ", read_mask=" + std::to_string(d.readMask);
            if (d.writeMask != 0xFF) s += ", write_mask=" + std::to_string(d.writeMask);
            if (d.front != StencilFaceDesc{}) s += ", front=" + StencilFaceRepr(d.front);
            if (d.back != StencilFaceDesc{}) s += ", back=" + StencilFaceRepr(d.back);
            return s + ")";
        });
    DefineEq(ds);
}

/// InputElement.
void BindInputElement(py::module_& m) {
    // ---- InputElement -------------------------------------------------------------------------
    py::class_<InputElementDesc> ie(m, "InputElement", docs::InputElement::class_);
    ie.def(py::init([](StrArg semantic, InputFormatArg format, Int slot, OptIndexArg offset, Int semanticIndex, bool perInstance, Int stepRate) {
               const char* fn = "InputElement";
               InputElementDesc e;
               e.semantic = Str(semantic.value, fn, "semantic");
               if (e.semantic.empty()) throw InvalidArgument("InputElement: semantic is empty");
               e.format = ParseInputFormat(format.value, "InputElement: format");
               e.slot = U32(slot, fn, "slot");
               if (e.slot >= D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)
                   throw InvalidArgument("InputElement: slot " + std::to_string(e.slot) + " out of range (0..31)");
               if (!offset.value.is_none()) e.offset = U32(offset.value, fn, "offset");
               e.semanticIndex = U32(semanticIndex, fn, "semantic_index");
               e.perInstance = perInstance;
               e.stepRate = U32(stepRate, fn, "step_rate");
               if (!perInstance && e.stepRate != 1) throw InvalidArgument("InputElement: step_rate applies to per_instance=True elements only");
               return e;
           }),
           "semantic"_a, "format"_a, "slot"_a = 0, "offset"_a = py::none(), "semantic_index"_a = 0, py::kw_only(), "per_instance"_a = false,
           "step_rate"_a = 1)
        .def_readonly("semantic", &InputElementDesc::semantic, docs::InputElement::semantic)
        .def_property_readonly("format", &InputFormatName, docs::InputElement::format)
        .def_readonly("slot", &InputElementDesc::slot, docs::InputElement::slot)
        .def_property_readonly(
            "offset",
            [](const InputElementDesc& e) -> std::optional<uint32_t> {
                if (e.offset == D3D12_APPEND_ALIGNED_ELEMENT) return std::nullopt;
                return e.offset;
            },
            docs::InputElement::offset)
        .def_readonly("semantic_index", &InputElementDesc::semanticIndex, docs::InputElement::semantic_index)
        .def_readonly("per_instance", &InputElementDesc::perInstance, docs::InputElement::per_instance)
        .def_readonly("step_rate", &InputElementDesc::stepRate, docs::InputElement::step_rate)
        .def("__repr__", [](const InputElementDesc& e) {
            std::string s = "InputElement('" + e.semantic + "', '" + InputFormatName(e) + "'";
            if (e.slot) s += ", slot=" + std::to_string(e.slot);
            if (e.offset != D3D12_APPEND_ALIGNED_ELEMENT) s += ", offset=" + std::to_string(e.offset);
            if (e.semanticIndex) s += ", semantic_index=" + std::to_string(e.semanticIndex);
            if (e.perInstance) s += ", per_instance=True";
            if (e.perInstance && e.stepRate != 1) s += ", step_rate=" + std::to_string(e.stepRate);
            return s + ")";
        });
    DefineEq(ie);
}

}  // namespace

void BindPipelineStates(py::module_& m) {
    BindBlendState(m);
    BindRasterizerState(m);
    BindDepthStencilState(m);
    BindInputElement(m);
}

}  // namespace dx12kit::bindings
