// dx12core.flag_tables() and dx12core.format_info(): the core's tables that dx12kit's Python modules read
// instead of keeping copies: the IntFlags of dx12kit.enums (FlagTables.hpp) and each format's sizes
// (devicecontext/Formats.hpp) for dx12kit.dds.
#include "docs/CoreTablesDocs.hpp"
#include "FlagTables.hpp"
#include "GpuArgs.hpp"

#include "dx12kit/devicecontext/Formats.hpp"

namespace dx12kit::bindings {

namespace {

template <typename Tag>
void AddFlagTable(py::dict& out) {
    py::list members;
    for (const FlagEntry& e : Tag::kTable) members.append(py::make_tuple(e.name, e.value));
    out[Tag::kEnum] = py::make_tuple(py::tuple(members), Tag::kDoc);
}

const char* LayoutName(FormatLayout layout) {
    switch (layout) {
        case FormatLayout::Texel: return "texel";
        case FormatLayout::Block: return "block";
        default: return "other";
    }
}

}  // namespace

void BindCoreTables(py::module_& m) {
    m.def(
        "flag_tables",
        [] {
            py::dict out;
#define DX12KIT_ADD_FLAG_TABLE(Tag) AddFlagTable<Tag>(out);
            DX12KIT_FLAG_TAGS(DX12KIT_ADD_FLAG_TABLE)
#undef DX12KIT_ADD_FLAG_TABLE
            return out;
        },
        docs::dx12core::flag_tables);
    m.def(
        "format_info",
        [](const std::string& name) {
            const FormatInfo& f = ParseFormatName(name, "format_info");
            py::dict d;
            d["name"] = f.name;
            d["dxgi_name"] = f.dxgiName;
            d["layout"] = LayoutName(f.layout);
            d["bytes_per_texel"] = f.bytesPerTexel;
            d["packed_texel_bytes"] = PackedTexelBytes(f);
            d["block_bytes"] = f.blockBytes;
            d["channels"] = f.channels;
            d["depth"] = f.depth;
            return d;
        },
        "name"_a, docs::dx12core::format_info);
}

}  // namespace dx12kit::bindings
