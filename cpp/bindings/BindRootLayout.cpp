// dx12core: the root-signature layout: DescriptorRange, RootParameter and StaticSamplerDesc, and the functions that
// make them (SRV/UAV/CBV/SamplerRange, RootConstants, RootCBV/SRV/UAV, DescriptorTable, StaticSampler). The
// RootSignature built from them is BindRootSignature.cpp.
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "docs/RootLayoutDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include <map>
#include <string>

namespace dx12kit::bindings {

namespace {

/// RootSignatureFlags, DescriptorRangeFlags, RootDescriptorFlags and refused_flags().
void BindRootFlags(py::module_& m) {
    // ---- flags (D3D12's names without the prefix; refused flags are not members) ---------------
    auto flagEnum = [&m](auto tag, const char* name, const FlagBit* table, const char* doc) {
        using E = decltype(tag);
        py::native_enum<E> e(m, name, "enum.IntFlag", doc);
        e.value("NONE", static_cast<E>(0));
        for (const FlagBit* f = table; f->name; ++f)
            if (!f->refused) e.value(f->name, static_cast<E>(f->bit));
        e.finalize();
    };
    flagEnum(D3D12_ROOT_SIGNATURE_FLAGS{}, "RootSignatureFlags", kRootSignatureFlagBits,
             "D3D12_ROOT_SIGNATURE_FLAGS (Device.create_root_signature(flags=)). Plain ints are accepted too; D3D12 flags\n"
             "vkd3d 1.2 cannot honour (LOCAL_ROOT_SIGNATURE, DENY_AMPLIFICATION/MESH_SHADER_ROOT_ACCESS, the HEAP_DIRECTLY_INDEXED\n"
             "flags) are not members, and their bits raise InvalidArgumentError naming them.");
    flagEnum(D3D12_DESCRIPTOR_RANGE_FLAGS{}, "DescriptorRangeFlags", kDescriptorRangeFlagBits,
             "D3D12_DESCRIPTOR_RANGE_FLAGS (SRV/UAV/CBV/SamplerRange(flags=); root signature 1.1). Plain ints are accepted;\n"
             "DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS (later than vkd3d 1.2's D3D12) raises naming it. At most one\n"
             "DATA flag; sampler ranges take DESCRIPTORS_VOLATILE only.");
    flagEnum(D3D12_ROOT_DESCRIPTOR_FLAGS{}, "RootDescriptorFlags", kRootDescriptorFlagBits,
             "D3D12_ROOT_DESCRIPTOR_FLAGS (RootCBV/RootSRV/RootUAV(flags=); root signature 1.1). Plain ints are accepted;\n"
             "at most one DATA flag.");

    m.def(
        "refused_flags",
        [] {
            std::map<std::string, std::map<std::string, std::string>> out;
            auto add = [&out](const char* enumName, const FlagBit* table) {
                auto& refused = out[enumName];
                for (const FlagBit* f = table; f->name; ++f)
                    if (f->refused) refused[f->name] = f->refused;
            };
            add("RootSignatureFlags", kRootSignatureFlagBits);
            add("DescriptorRangeFlags", kDescriptorRangeFlagBits);
            add("RootDescriptorFlags", kRootDescriptorFlagBits);
            return out;
        },
        docs::dx12core::refused_flags);
}

/// DescriptorRange and the functions making one (SRV, UAV, CBV, SamplerRange).
void BindDescriptorRanges(py::module_& m, Classes& c) {
    // ---- root signature descriptions ------------------------------------------------------
    Documented(c.descriptorRange, docs::DescriptorRange::class_)
        .def_readonly("register", &DescriptorRangeDesc::shaderRegister)
        .def_readonly("count", &DescriptorRangeDesc::count)
        .def_readonly("space", &DescriptorRangeDesc::space)
        .def_property_readonly(
            "offset",
            [](const DescriptorRangeDesc& r) -> py::object {
                return r.offset == kAppendRange ? py::object(py::none()) : py::object(py::int_(r.offset));
            },
            docs::DescriptorRange::offset)
        .def_property_readonly(
            "flags", [](const DescriptorRangeDesc& r) { return static_cast<D3D12_DESCRIPTOR_RANGE_FLAGS>(r.flags); }, docs::DescriptorRange::flags)
        .def_property_readonly("kind",
                               [](const DescriptorRangeDesc& r) {
                                   const char* k[] = {"srv", "uav", "cbv", "sampler"};
                                   return k[int(r.kind)];
                               })
        .def("__eq__",
             [](const DescriptorRangeDesc& a, py::object o) {
                 if (!py::isinstance<DescriptorRangeDesc>(o)) return false;
                 const auto& b = o.cast<const DescriptorRangeDesc&>();
                 return a.kind == b.kind && a.shaderRegister == b.shaderRegister && a.count == b.count && a.space == b.space &&
                        a.offset == b.offset && a.flags == b.flags;
             })
        .def("__repr__", [](const DescriptorRangeDesc& r) {
            const char* k[] = {"SRV", "UAV", "CBV", "SamplerRange"};
            std::string s = std::string(k[int(r.kind)]) + "(" + std::to_string(r.shaderRegister) +
                            ", count=" + (r.count == kUnboundedRange ? std::string("UNBOUNDED") : std::to_string(r.count));
            if (r.space) s += ", space=" + std::to_string(r.space);
            if (r.offset != kAppendRange) s += ", offset=" + std::to_string(r.offset);
            if (r.flags) s += ", flags=" + std::to_string(r.flags);
            return s + ")";
        });
    py::setattr(py::type::of<DescriptorRangeDesc>(), "__hash__", py::none());
    m.attr("UNBOUNDED") = kUnboundedRange;
    auto range = [&m](const char* name, RangeKind kind, const char* doc) {
        m.def(
            name,
            [kind, name](Int reg, Int count, Int space, OptIndex offset, FlagsArgOf<hint::DescriptorRangeFlags> flags) {
                const uint32_t n = U32(count, name, "count");
                if (n == 0) throw InvalidArgument(std::string(name) + ": count must be positive");
                DescriptorRangeDesc r{kind, U32(reg, name, "register"), n, U32(space, name, "space")};
                if (!offset.is_none()) r.offset = U32(offset, name, "offset");
                r.flags = CheckDescriptorRangeFlags(FlagsArg(flags, "DescriptorRangeFlags", name, "flags"), kind, name);
                return r;
            },
            "register"_a, "count"_a = 1, "space"_a = 0, py::kw_only(), "offset"_a = py::none(), "flags"_a = 0, doc);
    };
#define DX12KIT_RANGE_SECTIONS(reg)                                                     \
  "\n\nArgs:\n"                                                                         \
  "    register: the first " reg                                                        \
  " register.\n"                                                                        \
  "    count: registers in the range (> 0), or UNBOUNDED.\n"                            \
  "    space: the register space.\n"                                                    \
  "    offset: descriptors from the table start, or None (after the previous range).\n" \
  "    flags: DescriptorRangeFlags bits (root signature 1.1).\n\n"                      \
  "Returns:\n"                                                                          \
  "    A DescriptorRange for DescriptorTable.\n\n"                                      \
  "Raises:\n"                                                                           \
  "    TypeError: an argument of the wrong type.\n"                                     \
  "    InvalidArgumentError: count 0, a negative value, or flags D3D12 forbids for the range's kind."
    range("SRV", RangeKind::Srv,
          "A range of shader resource views (t registers) in a DescriptorTable.\n"
          "count=UNBOUNDED for an unbounded range; offset= descriptors from the table start (default: after the\n"
          "previous range); flags= D3D12_DESCRIPTOR_RANGE_FLAGS bits (root signature 1.1)." DX12KIT_RANGE_SECTIONS("t"));
    range("UAV", RangeKind::Uav, "A range of unordered access views (u registers) in a DescriptorTable." DX12KIT_RANGE_SECTIONS("u"));
    range("CBV", RangeKind::Cbv, "A range of constant buffer views (b registers) in a DescriptorTable." DX12KIT_RANGE_SECTIONS("b"));
    range("SamplerRange", RangeKind::Sampler,
          "A range of samplers (s registers) in a DescriptorTable (the sampler objects\n"
          "themselves are SamplerState, made by Device.create_sampler). Sampler is an alias." DX12KIT_RANGE_SECTIONS("s"));
#undef DX12KIT_RANGE_SECTIONS
    m.attr("Sampler") = m.attr("SamplerRange");  // the earlier name
}

/// RootParameter and the functions making one (RootConstants, RootCBV/SRV/UAV, DescriptorTable).
void BindRootParameters(py::module_& m, Classes& c) {
    Documented(c.rootParameter, docs::RootParameter::class_)
        .def_readonly("register", &RootParameterDesc::shaderRegister)
        .def_readonly("space", &RootParameterDesc::space)
        .def_readonly("count", &RootParameterDesc::num32BitValues)
        .def_readonly("ranges", &RootParameterDesc::ranges)
        .def_property_readonly(
            "flags", [](const RootParameterDesc& p) { return static_cast<D3D12_ROOT_DESCRIPTOR_FLAGS>(p.flags); }, docs::RootParameter::flags)
        .def_property_readonly("kind",
                               [](const RootParameterDesc& p) {
                                   const char* k[] = {"constants", "cbv", "srv", "uav", "table"};
                                   return k[int(p.kind)];
                               })
        .def_property_readonly(
            "visibility", [](const RootParameterDesc& p) { return int(p.visibility); }, docs::RootParameter::visibility)
        .def("__eq__",
             [](const RootParameterDesc& a, py::object o) {
                 if (!py::isinstance<RootParameterDesc>(o)) return false;
                 const auto& b = o.cast<const RootParameterDesc&>();
                 if (a.kind != b.kind || a.shaderRegister != b.shaderRegister || a.space != b.space || a.num32BitValues != b.num32BitValues ||
                     a.visibility != b.visibility || a.flags != b.flags || a.ranges.size() != b.ranges.size())
                     return false;
                 for (size_t i = 0; i < a.ranges.size(); ++i) {
                     const auto &x = a.ranges[i], &y = b.ranges[i];
                     if (x.kind != y.kind || x.shaderRegister != y.shaderRegister || x.count != y.count || x.space != y.space ||
                         x.offset != y.offset || x.flags != y.flags)
                         return false;
                 }
                 return true;
             })
        .def("__repr__", [](const RootParameterDesc& p) {
            const char* k[] = {"RootConstants", "RootCBV", "RootSRV", "RootUAV", "DescriptorTable"};
            std::string s = std::string(k[int(p.kind)]) + "(";
            if (p.kind == RootParamKind::Table) s += std::to_string(p.ranges.size()) + " ranges";
            else
                s +=
                    std::to_string(p.shaderRegister) + (p.kind == RootParamKind::Constants ? ", " + std::to_string(p.num32BitValues) : std::string());
            return s + ", visibility=" + std::to_string(int(p.visibility)) + ")";
        });
    py::setattr(py::type::of<RootParameterDesc>(), "__hash__", py::none());
    m.def(
        "RootConstants",
        [](Int reg, Int count, Int space, Choice<VisibilityChoice> vis) {
            const char* fn = "RootConstants";
            const uint32_t n = U32(count, fn, "count");
            if (n == 0) throw InvalidArgument("RootConstants: count must be positive");
            RootParameterDesc p{RootParamKind::Constants, U32(reg, fn, "register"), U32(space, fn, "space"), n, {}, ParseVisibility(vis.value, fn)};
            return p;
        },
        "register"_a, "count"_a, "space"_a = 0, "visibility"_a = "all", docs::dx12core::RootConstants);
    auto rootView = [&m](const char* name, RootParamKind kind, const char* doc) {
        m.def(
            name,
            [kind, name](Int reg, Int space, Choice<VisibilityChoice> vis, FlagsArgOf<hint::RootDescriptorFlags> flags) {
                return RootParameterDesc{kind,
                                         U32(reg, name, "register"),
                                         U32(space, name, "space"),
                                         0,
                                         {},
                                         ParseVisibility(vis.value, name),
                                         CheckRootDescriptorFlags(FlagsArg(flags, "RootDescriptorFlags", name, "flags"), name)};
            },
            "register"_a, "space"_a = 0, "visibility"_a = "all", py::kw_only(), "flags"_a = 0, doc);
    };
#define DX12KIT_ROOT_VIEW_SECTIONS(reg)                                                  \
  "\n\nArgs:\n"                                                                          \
  "    register: the " reg                                                               \
  " register.\n"                                                                         \
  "    space: the register space.\n"                                                     \
  "    visibility: a Visibility or its name ('all', 'vertex', 'pixel', ...).\n"          \
  "    flags: RootDescriptorFlags bits (root signature 1.1; at most one DATA flag).\n\n" \
  "Returns:\n"                                                                           \
  "    A RootParameter for create_root_signature.\n\n"                                   \
  "Raises:\n"                                                                            \
  "    TypeError: an argument of the wrong type.\n"                                      \
  "    InvalidArgumentError: a negative value, an unknown visibility, or bad flags."
    rootView("RootCBV", RootParamKind::Cbv, "A root constant buffer view (GPU address of a buffer)." DX12KIT_ROOT_VIEW_SECTIONS("b"));
    rootView("RootSRV", RootParamKind::Srv, "A root shader resource view (a buffer, e.g. StructuredBuffer)." DX12KIT_ROOT_VIEW_SECTIONS("t"));
    rootView("RootUAV", RootParamKind::Uav, "A root unordered access view (a buffer, e.g. RWStructuredBuffer)." DX12KIT_ROOT_VIEW_SECTIONS("u"));
#undef DX12KIT_ROOT_VIEW_SECTIONS
    m.def(
        "DescriptorTable",
        [](std::vector<DescriptorRangeDesc> ranges, Choice<VisibilityChoice> vis) {
            if (ranges.empty()) throw InvalidArgument("DescriptorTable: at least one range");
            return RootParameterDesc{RootParamKind::Table, 0, 0, 0, std::move(ranges), ParseVisibility(vis.value, "DescriptorTable")};
        },
        "ranges"_a, "visibility"_a = "all", docs::dx12core::DescriptorTable);
}

/// StaticSamplerDesc and StaticSampler().
void BindStaticSamplers(py::module_& m, Classes& c) {
    Documented(c.staticSamplerDesc, docs::StaticSamplerDesc::class_)
        .def_readonly("register", &StaticSamplerDesc::shaderRegister)
        .def_readonly("space", &StaticSamplerDesc::space)
        .def_property_readonly(
            "visibility", [](const StaticSamplerDesc& d) { return int(d.visibility); }, "D3D12_SHADER_VISIBILITY value.")
        .def("__eq__",
             [](const StaticSamplerDesc& a, py::object o) {
                 if (!py::isinstance<StaticSamplerDesc>(o)) return false;
                 const auto& b = o.cast<const StaticSamplerDesc&>();
                 auto v = [](const StaticSamplerDesc& s, D3D12_TEXTURE_ADDRESS_MODE m) { return m ? m : s.address; };
                 return a.shaderRegister == b.shaderRegister && a.filter == b.filter && a.address == b.address && a.space == b.space &&
                        a.visibility == b.visibility && v(a, a.addressV) == v(b, b.addressV) && v(a, a.addressW) == v(b, b.addressW) &&
                        a.mipLodBias == b.mipLodBias && a.maxAnisotropy == b.maxAnisotropy && a.comparison == b.comparison &&
                        a.borderColor == b.borderColor && a.minLod == b.minLod && a.maxLod == b.maxLod;
             })
        .def("__repr__", [](const StaticSamplerDesc& s) {
            auto q = [](const char* n, int v) { return n ? "'" + std::string(n) + "'" : std::to_string(v); };
            auto f = [](float v) { return std::string(py::repr(py::float_(v))); };
            const D3D12_TEXTURE_ADDRESS_MODE v = s.addressV ? s.addressV : s.address, w = s.addressW ? s.addressW : s.address;
            return "StaticSampler(" + std::to_string(s.shaderRegister) + ", filter=" + q(ChoiceName<FilterChoice>(s.filter), s.filter) +
                   ", address=" + q(ChoiceName<AddressModeChoice>(s.address), s.address) + ", space=" + std::to_string(s.space) +
                   ", visibility=" + q(ChoiceName<VisibilityChoice>(s.visibility), s.visibility) +
                   ", address_v=" + q(ChoiceName<AddressModeChoice>(v), v) + ", address_w=" + q(ChoiceName<AddressModeChoice>(w), w) +
                   ", mip_lod_bias=" + f(s.mipLodBias) + ", max_anisotropy=" + std::to_string(s.maxAnisotropy) +
                   ", comparison=" + q(ChoiceName<ComparisonFuncChoice>(s.comparison), s.comparison) +
                   ", border_color=" + q(ChoiceName<BorderColorChoice>(s.borderColor), s.borderColor) + ", min_lod=" + f(s.minLod) +
                   ", max_lod=" + f(s.maxLod) + ")";
        });
    py::setattr(py::type::of<StaticSamplerDesc>(), "__hash__", py::none());
    m.def(
        "StaticSampler",
        [](Int reg, Choice<FilterChoice> filter, Choice<AddressModeChoice> address, Int space, Choice<VisibilityChoice> vis,
           OptChoice<AddressModeChoice> addressV, OptChoice<AddressModeChoice> addressW, Float mipLodBias, Int maxAnisotropyArg,
           OptChoice<ComparisonFuncChoice> comparison, Choice<BorderColorChoice> borderColor, Float minLod, Float maxLod) {
            const char* fn = "StaticSampler";
            StaticSamplerDesc s{U32(reg, fn, "register"), ParseFilter(filter.value, fn), ParseAddress(address.value, fn), U32(space, fn, "space"),
                                ParseVisibility(vis.value, fn)};
            if (addressV.Given()) s.addressV = Parse(addressV, "StaticSampler: address_v");
            if (addressW.Given()) s.addressW = Parse(addressW, "StaticSampler: address_w");
            s.mipLodBias = F32(mipLodBias, fn, "mip_lod_bias");
            s.maxAnisotropy = U32(maxAnisotropyArg, fn, "max_anisotropy");
            // Not given: 0, completed by the core (LESS_EQUAL for a comparison filter; SamplerRules.hpp rule 6).
            if (comparison.Given()) s.comparison = Parse(comparison, "StaticSampler: comparison");
            s.borderColor = ParseBorderColor(borderColor.value, fn);
            s.minLod = F32(minLod, fn, "min_lod");
            s.maxLod = F32(maxLod, fn, "max_lod");
            // D3D12's rules now; what the device samples right at create_root_signature.
            CheckStaticSamplerDesc(s, nullptr, fn);
            return s;
        },
        "register"_a, "filter"_a = "linear", "address"_a = "clamp", "space"_a = 0, "visibility"_a = "all", py::kw_only(), "address_v"_a = py::none(),
        "address_w"_a = py::none(), "mip_lod_bias"_a = 0.0f, "max_anisotropy"_a = 16, "comparison"_a = py::none(),
        "border_color"_a = "transparent_black", "min_lod"_a = 0.0f, "max_lod"_a = 3.402823466e+38f, docs::dx12core::StaticSampler);
}

}  // namespace

void BindRootLayout(py::module_& m, Classes& c) {
    BindRootFlags(m);
    BindDescriptorRanges(m, c);
    BindRootParameters(m, c);
    BindStaticSamplers(m, c);
}

}  // namespace dx12kit::bindings
