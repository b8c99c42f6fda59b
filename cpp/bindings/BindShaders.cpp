// Bindings of the device-independent shader tools: DXBC validation, checksum and reflection
// (submodule dx12core.shaders; dx12kit.shaders wraps it as Shader.bindings/.inputs/.outputs).
#include "docs/ShadersDocs.hpp"
#include "Bindings.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/shaders/DxbcReflection.hpp"
#include "dx12kit/shaders/DxbcModifierFix.hpp"
#include "dx12kit/shaders/DxbcRewrite.hpp"

#include <pybind11/stl.h>

#include <string>

namespace py = pybind11;
using namespace py::literals;

namespace dx12kit::bindings {

namespace {

/// Bytes of a bytes-like object (copied: reflection is rare and the input may be any buffer).
std::string DxbcBytes(py::handle h, const char* what) {
    if (py::isinstance<py::bytes>(h)) return h.cast<std::string>();
    if (!PyObject_CheckBuffer(h.ptr())) throw py::type_error(std::string(what) + ": expected DXBC bytes (bytes, bytearray or memoryview)");
    py::object contiguous = py::reinterpret_steal<py::object>(PyBytes_FromObject(h.ptr()));
    if (!contiguous) throw py::error_already_set();
    return contiguous.cast<std::string>();
}

const char* KindName(BindingKind k) {
    switch (k) {
        case BindingKind::Cbv: return "cbv";
        case BindingKind::Srv: return "srv";
        case BindingKind::Uav: return "uav";
        case BindingKind::Sampler: return "sampler";
    }
    return "?";
}

const char* ComponentTypeName(uint32_t t) {
    switch (t) {
        case 1: return "uint32";
        case 2: return "int32";
        case 3: return "float32";
        default: return "unknown";
    }
}

std::string MaskString(uint8_t mask) {
    std::string s;
    const char* xyzw = "xyzw";
    for (int i = 0; i < 4; ++i)
        if (mask & (1 << i)) s += xyzw[i];
    return s;
}

const char* TypeClassName(uint32_t c) {
    switch (c) {
        case 0: return "scalar";
        case 1: return "vector";
        case 2: return "matrix_rows";
        case 3: return "matrix_columns";
        case 4: return "object";
        case 5: return "struct";
        default: return "unknown";
    }
}

const char* BaseTypeName(uint32_t t) {
    switch (t) {
        case 0: return "void";
        case 1: return "bool";
        case 2: return "int";
        case 3: return "float";
        case 19: return "uint";
        case 39: return "double";
        default: return "unknown";
    }
}

}  // namespace

void BindShaders(py::module_& parent) {
    py::module_ m = parent.def_submodule("shaders", docs::shaders::module_);

    py::class_<CbufferVariable>(m, "CbufferVariable",
                                "A variable of a constant buffer (or a member of a struct variable), with its place in the buffer (HLSL packing).")
        .def_readonly("name", &CbufferVariable::name, "The HLSL name.")
        .def_readonly("offset", &CbufferVariable::offset, "Bytes from the start of the cbuffer (struct members: of the struct).")
        .def_readonly("size", &CbufferVariable::size, "Bytes the variable spans (0 for struct members: compute from the type).")
        .def_property_readonly(
            "used", [](const CbufferVariable& v) { return (v.flags & 2u) != 0; }, "Whether the program reads it.")
        .def_property_readonly(
            "type_class", [](const CbufferVariable& v) { return TypeClassName(v.type.typeClass); },
            "'scalar', 'vector', 'matrix_rows' (row_major), 'matrix_columns' (column_major) or 'struct'.")
        .def_property_readonly(
            "base_type", [](const CbufferVariable& v) { return BaseTypeName(v.type.baseType); },
            "'float', 'int', 'uint', 'bool', 'double' ('void' for structs).")
        .def_property_readonly(
            "rows", [](const CbufferVariable& v) { return v.type.rows; }, "Rows (1 for scalars and vectors).")
        .def_property_readonly(
            "columns", [](const CbufferVariable& v) { return v.type.columns; }, "Columns (vector components).")
        .def_property_readonly(
            "elements", [](const CbufferVariable& v) { return v.type.elements; }, "Array length; 0 when not an array.")
        .def_readonly("members", &CbufferVariable::members, "Struct members (CbufferVariable), in declaration order.")
        .def("__repr__", [](const CbufferVariable& v) {
            std::string t = v.type.typeClass == 5 ? std::string("struct") : std::string(BaseTypeName(v.type.baseType));
            if (v.type.typeClass == 1) t += std::to_string(v.type.columns);
            if (v.type.typeClass == 2 || v.type.typeClass == 3) t += std::to_string(v.type.rows) + "x" + std::to_string(v.type.columns);
            if (v.type.elements) t += "[" + std::to_string(v.type.elements) + "]";
            return "<CbufferVariable " + t + " '" + v.name + "' offset=" + std::to_string(v.offset) + ">";
        });

    py::class_<ShaderBinding>(m, "ShaderBinding", docs::ShaderBinding::class_)
        .def_readonly("name", &ShaderBinding::name, docs::ShaderBinding::name)
        .def_property_readonly(
            "kind", [](const ShaderBinding& b) { return KindName(b.kind); }, docs::ShaderBinding::kind)
        .def_readonly("register", &ShaderBinding::shaderRegister, docs::ShaderBinding::register_)
        .def_readonly("space", &ShaderBinding::space, docs::ShaderBinding::space)
        .def_readonly("count", &ShaderBinding::count, docs::ShaderBinding::count)
        .def_property_readonly("type", &ShaderBinding::TypeName, docs::ShaderBinding::type)
        .def_readonly("dimension", &ShaderBinding::dimension, docs::ShaderBinding::dimension)
        .def_readonly("input_type", &ShaderBinding::inputType, docs::ShaderBinding::input_type)
        .def_readonly("return_type", &ShaderBinding::returnType, docs::ShaderBinding::return_type)
        .def_readonly("cbuffer_size", &ShaderBinding::cbufferSize, docs::ShaderBinding::cbuffer_size)
        .def_readonly("cbuffer_used_bytes", &ShaderBinding::cbufferUsedBytes, docs::ShaderBinding::cbuffer_used_bytes)
        .def_readonly("variables", &ShaderBinding::variables, docs::ShaderBinding::variables)
        .def_property_readonly("register_name", &ShaderBinding::RegisterName, docs::ShaderBinding::register_name)
        .def_property_readonly("root_descriptor_ok", &ShaderBinding::CanBeRootDescriptor, docs::ShaderBinding::root_descriptor_ok)
        .def("__repr__", [](const ShaderBinding& b) {
            return "<ShaderBinding " + std::string(KindName(b.kind)) + " " + b.RegisterName() + " " + b.TypeName() + " '" + b.name + "'>";
        });

    py::class_<SignatureElement>(m, "SignatureElement", docs::SignatureElement::class_)
        .def_readonly("semantic", &SignatureElement::semantic, docs::SignatureElement::semantic)
        .def_readonly("semantic_index", &SignatureElement::semanticIndex)
        .def_readonly("register", &SignatureElement::shaderRegister, docs::SignatureElement::register_)
        .def_readonly("system_value", &SignatureElement::systemValue, docs::SignatureElement::system_value)
        .def_property_readonly(
            "component_type", [](const SignatureElement& e) { return ComponentTypeName(e.componentType); }, docs::SignatureElement::component_type)
        .def_property_readonly(
            "mask", [](const SignatureElement& e) { return MaskString(e.mask); }, docs::SignatureElement::mask)
        .def_property_readonly(
            "used_mask", [](const SignatureElement& e) { return MaskString(e.rwMask); }, docs::SignatureElement::used_mask)
        .def_readonly("stream", &SignatureElement::stream)
        .def("__repr__", [](const SignatureElement& e) {
            return "<SignatureElement " + e.semantic + std::to_string(e.semanticIndex) + " r" + std::to_string(e.shaderRegister) + "." +
                   MaskString(e.mask) + " " + ComponentTypeName(e.componentType) + ">";
        });

    py::class_<DxbcReflection>(m, "ShaderReflection", docs::ShaderReflection::class_)
        .def_property_readonly("stage", &DxbcReflection::StageName, docs::ShaderReflection::stage)
        .def_property_readonly("profile", &DxbcReflection::Profile, docs::ShaderReflection::profile)
        .def_readonly("bindings", &DxbcReflection::bindings)
        .def_readonly("inputs", &DxbcReflection::inputs)
        .def_readonly("outputs", &DxbcReflection::outputs)
        .def_readonly("patch_constants", &DxbcReflection::patchConstants)
        .def_property_readonly(
            "numthreads", [](const DxbcReflection& r) { return py::make_tuple(r.numThreads[0], r.numThreads[1], r.numThreads[2]); },
            docs::ShaderReflection::numthreads)
        .def_readonly("creator", &DxbcReflection::creator, docs::ShaderReflection::creator)
        .def("__repr__", [](const DxbcReflection& r) {
            std::string s = "<dx12kit.ShaderReflection " + r.Profile() + " bindings=" + std::to_string(r.bindings.size()) +
                            " inputs=" + std::to_string(r.inputs.size()) + " outputs=" + std::to_string(r.outputs.size());
            if (r.numThreads[0])
                s += " numthreads=(" + std::to_string(r.numThreads[0]) + ", " + std::to_string(r.numThreads[1]) + ", " +
                     std::to_string(r.numThreads[2]) + ")";
            return s + ">";
        });

    m.def(
        "reflect_dxbc",
        [](py::handle data) {
            const std::string b = DxbcBytes(data, "reflect_dxbc");
            return ReflectDxbc(reinterpret_cast<const uint8_t*>(b.data()), b.size());
        },
        "bytecode"_a, docs::shaders::reflect_dxbc);
    m.def(
        "dxbc_problem",
        [](py::handle data, bool checksum) {
            const std::string b = DxbcBytes(data, "dxbc_problem");
            return DxbcContainerProblem(reinterpret_cast<const uint8_t*>(b.data()), b.size(), checksum);
        },
        "bytecode"_a, "checksum"_a = true, docs::shaders::dxbc_problem);
    m.def(
        "dxbc_checksum",
        [](py::handle data) {
            const std::string b = DxbcBytes(data, "dxbc_checksum");
            const auto sum = DxbcChecksum(reinterpret_cast<const uint8_t*>(b.data()), b.size());
            return py::bytes(reinterpret_cast<const char*>(sum.data()), sum.size());
        },
        "bytecode"_a, docs::shaders::dxbc_checksum);
    m.def(
        "fix_folded_float_modifiers",
        [](py::handle data) {
            const std::string b = DxbcBytes(data, "fix_folded_float_modifiers");
            const DxbcModifierFixResult r = FixFoldedFloatModifiers(reinterpret_cast<const uint8_t*>(b.data()), b.size());
            py::list names;
            for (const std::string& n : r.instructions) names.append(n);
            return py::make_tuple(py::bytes(reinterpret_cast<const char*>(r.bytecode.data()), r.bytecode.size()), names);
        },
        "bytecode"_a, docs::shaders::fix_folded_float_modifiers);
    m.def(
        "rewrite_dxbc_for_vkd3d",
        [](py::handle data) {
            const std::string b = DxbcBytes(data, "rewrite_dxbc_for_vkd3d");
            const DxbcRewriteResult r = RewriteDxbcForVkd3d(reinterpret_cast<const uint8_t*>(b.data()), b.size());
            py::dict counts;
            counts["ftoi"] = r.ftoi;
            counts["ftou"] = r.ftou;
            counts["firstbit_hi"] = r.firstbitHigh;
            counts["partial_mov"] = r.partialMov;
            return py::make_tuple(py::bytes(reinterpret_cast<const char*>(r.bytecode.data()), r.bytecode.size()), counts);
        },
        "bytecode"_a, docs::shaders::rewrite_dxbc_for_vkd3d);
}

}  // namespace dx12kit::bindings
