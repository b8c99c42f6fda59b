// The choice tables of the D3D12-layer bindings: one tag per dx12kit.enums enum, each listing the names the
// bindings accept (the enum's members, then kAliases other names) and the C++ value each stands for.
// Converted by Choices.hpp. dx12kit.enums makes its enums from these tables (dx12core.choice_tables(),
// BindChoiceTables.cpp), and scripts/gen-stubs.sh the enums' stub: a new table is listed in kChoiceTags.
#pragma once

#include "Choices.hpp"

#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/gpu/QueryHeap.hpp"
#include "dx12kit/memory/MemoryPool.hpp"
#include "dx12kit/memory/MemoryTypes.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

namespace dx12kit::bindings {

#define DX12KIT_CHOICE(Tag, PyName, T, Ints)                              \
  struct Tag {                                                            \
    using Value = T;                                                      \
    static constexpr auto kPyName = pybind11::detail::const_name(PyName); \
    static constexpr const char* kEnum = "dx12kit." PyName;               \
    static constexpr IntChoice kInts = IntChoice::Ints;                   \
    static const ChoiceEntry<T> kTable[];                                 \
  };                                                                      \
  inline const ChoiceEntry<T> Tag::kTable[]

DX12KIT_CHOICE(QueueKindChoice, "QueueKind", D3D12_COMMAND_LIST_TYPE, WrongType) = {{"direct", D3D12_COMMAND_LIST_TYPE_DIRECT},
                                                                                    {"compute", D3D12_COMMAND_LIST_TYPE_COMPUTE},
                                                                                    {"copy", D3D12_COMMAND_LIST_TYPE_COPY},
                                                                                    {"graphics", D3D12_COMMAND_LIST_TYPE_DIRECT}};

DX12KIT_CHOICE(HeapTypeChoice, "HeapType", memory::HeapKind, WrongType) = {{"default", memory::HeapKind::Default},
                                                                           {"upload", memory::HeapKind::Upload},
                                                                           {"readback", memory::HeapKind::Readback},
                                                                           {"custom", memory::HeapKind::Custom}};

DX12KIT_CHOICE(PoolAlgorithmChoice, "PoolAlgorithm", memory::PoolAlgorithm, WrongType) = {{"tlsf", memory::PoolAlgorithm::Tlsf},
                                                                                          {"linear", memory::PoolAlgorithm::Linear}};

DX12KIT_CHOICE(DefragAlgorithmChoice, "DefragAlgorithm", memory::DefragAlgorithm, WrongType) = {
    {"fast", memory::DefragAlgorithm::Fast}, {"balanced", memory::DefragAlgorithm::Balanced}, {"full", memory::DefragAlgorithm::Full}};

DX12KIT_CHOICE(DescriptorHeapTypeChoice, "DescriptorHeapType", D3D12_DESCRIPTOR_HEAP_TYPE, WrongType) = {
    {"cbv_srv_uav", D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV},
    {"sampler", D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER},
    {"rtv", D3D12_DESCRIPTOR_HEAP_TYPE_RTV},
    {"dsv", D3D12_DESCRIPTOR_HEAP_TYPE_DSV}};

// The enum's values (dx12kit's short names, D3D_PRIMITIVE_TOPOLOGY_* lower case otherwise; patch lists
// as patch_list_<n>), then the aliases: the D3D names of the short ones and <n>_control_point_patchlist.
// (clang-format 14 lays this list out differently on every run: kept as written.)
// clang-format off
#define DX12KIT_PATCH_LISTS(F) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11) F(12) F(13) F(14) F(15) F(16) \
    F(17) F(18) F(19) F(20) F(21) F(22) F(23) F(24) F(25) F(26) F(27) F(28) F(29) F(30) F(31) F(32)
// clang-format on
#define DX12KIT_PATCH(n) {"patch_list_" #n, D3D_PRIMITIVE_TOPOLOGY_##n##_CONTROL_POINT_PATCHLIST},
#define DX12KIT_PATCH_D3D(n) {#n "_control_point_patchlist", D3D_PRIMITIVE_TOPOLOGY_##n##_CONTROL_POINT_PATCHLIST},
DX12KIT_CHOICE(TopologyChoice, "Topology", D3D_PRIMITIVE_TOPOLOGY, Values) = {
    {"triangle", D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST},
    {"triangle_strip", D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP},
    {"line", D3D_PRIMITIVE_TOPOLOGY_LINELIST},
    {"point", D3D_PRIMITIVE_TOPOLOGY_POINTLIST},
    {"line_strip", D3D_PRIMITIVE_TOPOLOGY_LINESTRIP},
    {"line_list_adj", D3D_PRIMITIVE_TOPOLOGY_LINELIST_ADJ},
    {"line_strip_adj", D3D_PRIMITIVE_TOPOLOGY_LINESTRIP_ADJ},
    {"triangle_list_adj", D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST_ADJ},
    {"triangle_strip_adj", D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ},
    DX12KIT_PATCH_LISTS(DX12KIT_PATCH){"triangle_list", D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST},
    {"line_list", D3D_PRIMITIVE_TOPOLOGY_LINELIST},
    {"point_list", D3D_PRIMITIVE_TOPOLOGY_POINTLIST},
    DX12KIT_PATCH_LISTS(DX12KIT_PATCH_D3D)};
#undef DX12KIT_PATCH_D3D
#undef DX12KIT_PATCH
#undef DX12KIT_PATCH_LISTS

DX12KIT_CHOICE(CullModeChoice, "CullMode", D3D12_CULL_MODE, Values) = {
    {"none", D3D12_CULL_MODE_NONE}, {"front", D3D12_CULL_MODE_FRONT}, {"back", D3D12_CULL_MODE_BACK}};

// Blend modes are dx12kit's presets, not a D3D12 enum: names only (an int is refused as a value).
DX12KIT_CHOICE(BlendModeChoice, "BlendMode", BlendMode, Invalid) = {
    {"none", BlendMode::None}, {"alpha", BlendMode::Alpha}, {"additive", BlendMode::Additive}, {"premultiplied", BlendMode::Premultiplied}};

// Pipeline states (BlendState, RasterizerState; BindPipelineStates.cpp): D3D12's names, lower case.
DX12KIT_CHOICE(BlendChoice, "Blend", D3D12_BLEND, Values) = {{"zero", D3D12_BLEND_ZERO},
                                                             {"one", D3D12_BLEND_ONE},
                                                             {"src_color", D3D12_BLEND_SRC_COLOR},
                                                             {"inv_src_color", D3D12_BLEND_INV_SRC_COLOR},
                                                             {"src_alpha", D3D12_BLEND_SRC_ALPHA},
                                                             {"inv_src_alpha", D3D12_BLEND_INV_SRC_ALPHA},
                                                             {"dest_alpha", D3D12_BLEND_DEST_ALPHA},
                                                             {"inv_dest_alpha", D3D12_BLEND_INV_DEST_ALPHA},
                                                             {"dest_color", D3D12_BLEND_DEST_COLOR},
                                                             {"inv_dest_color", D3D12_BLEND_INV_DEST_COLOR},
                                                             {"src_alpha_sat", D3D12_BLEND_SRC_ALPHA_SAT},
                                                             {"blend_factor", D3D12_BLEND_BLEND_FACTOR},
                                                             {"inv_blend_factor", D3D12_BLEND_INV_BLEND_FACTOR},
                                                             {"src1_color", D3D12_BLEND_SRC1_COLOR},
                                                             {"inv_src1_color", D3D12_BLEND_INV_SRC1_COLOR},
                                                             {"src1_alpha", D3D12_BLEND_SRC1_ALPHA},
                                                             {"inv_src1_alpha", D3D12_BLEND_INV_SRC1_ALPHA}};

DX12KIT_CHOICE(BlendOpChoice, "BlendOp", D3D12_BLEND_OP, Values) = {{"add", D3D12_BLEND_OP_ADD},
                                                                    {"subtract", D3D12_BLEND_OP_SUBTRACT},
                                                                    {"rev_subtract", D3D12_BLEND_OP_REV_SUBTRACT},
                                                                    {"min", D3D12_BLEND_OP_MIN},
                                                                    {"max", D3D12_BLEND_OP_MAX}};

// vkd3d 1.2's header names CLEAR..NOOP only, so its D3D12_LOGIC_OP cannot hold 5..15 (loading such a value is
// undefined behaviour, UBSan: "not a valid value for type"): the choice carries D3D12's values as UINT
// (d3d12.h D3D12_LOGIC_OP), converted to the enum only where a D3D12 struct is filled.
DX12KIT_CHOICE(LogicOpChoice, "LogicOp", UINT, Values) = {
    {"clear", 0}, {"set", 1}, {"copy", 2}, {"copy_inverted", 3}, {"noop", 4},         {"invert", 5},        {"and", 6},         {"nand", 7},
    {"or", 8},    {"nor", 9}, {"xor", 10}, {"equiv", 11},        {"and_reverse", 12}, {"and_inverted", 13}, {"or_reverse", 14}, {"or_inverted", 15}};

DX12KIT_CHOICE(FillModeChoice, "FillMode", D3D12_FILL_MODE, Values) = {{"solid", D3D12_FILL_MODE_SOLID}, {"wireframe", D3D12_FILL_MODE_WIREFRAME}};

DX12KIT_CHOICE(VisibilityChoice, "Visibility", D3D12_SHADER_VISIBILITY, Values) = {
    {"all", D3D12_SHADER_VISIBILITY_ALL},       {"vertex", D3D12_SHADER_VISIBILITY_VERTEX},     {"hull", D3D12_SHADER_VISIBILITY_HULL},
    {"domain", D3D12_SHADER_VISIBILITY_DOMAIN}, {"geometry", D3D12_SHADER_VISIBILITY_GEOMETRY}, {"pixel", D3D12_SHADER_VISIBILITY_PIXEL},
    {"vs", D3D12_SHADER_VISIBILITY_VERTEX},     {"ps", D3D12_SHADER_VISIBILITY_PIXEL}};

// The D3D12_FILTER names without the prefix, lower case (the root-signature language's FILTER_* values).
#define DX12KIT_FILTERS(P, N)                                                                                                               \
  {N "min_mag_mip_point", D3D12_FILTER_##P##MIN_MAG_MIP_POINT}, {N "min_mag_point_mip_linear", D3D12_FILTER_##P##MIN_MAG_POINT_MIP_LINEAR}, \
      {N "min_point_mag_linear_mip_point", D3D12_FILTER_##P##MIN_POINT_MAG_LINEAR_MIP_POINT},                                               \
      {N "min_point_mag_mip_linear", D3D12_FILTER_##P##MIN_POINT_MAG_MIP_LINEAR},                                                           \
      {N "min_linear_mag_mip_point", D3D12_FILTER_##P##MIN_LINEAR_MAG_MIP_POINT},                                                           \
      {N "min_linear_mag_point_mip_linear", D3D12_FILTER_##P##MIN_LINEAR_MAG_POINT_MIP_LINEAR},                                             \
      {N "min_mag_linear_mip_point", D3D12_FILTER_##P##MIN_MAG_LINEAR_MIP_POINT}, {                                                         \
    N "min_mag_mip_linear", D3D12_FILTER_##P##MIN_MAG_MIP_LINEAR                                                                            \
  }
DX12KIT_CHOICE(FilterChoice, "Filter", D3D12_FILTER, Values) = {{"point", D3D12_FILTER_MIN_MAG_MIP_POINT},
                                                                {"linear", D3D12_FILTER_MIN_MAG_MIP_LINEAR},
                                                                {"bilinear", D3D12_FILTER_MIN_MAG_LINEAR_MIP_POINT},
                                                                {"anisotropic", D3D12_FILTER_ANISOTROPIC},
                                                                DX12KIT_FILTERS(, ""),
                                                                DX12KIT_FILTERS(COMPARISON_, "comparison_"),
                                                                {"comparison_anisotropic", D3D12_FILTER_COMPARISON_ANISOTROPIC},
                                                                DX12KIT_FILTERS(MINIMUM_, "minimum_"),
                                                                {"minimum_anisotropic", D3D12_FILTER_MINIMUM_ANISOTROPIC},
                                                                DX12KIT_FILTERS(MAXIMUM_, "maximum_"),
                                                                {"maximum_anisotropic", D3D12_FILTER_MAXIMUM_ANISOTROPIC}};
#undef DX12KIT_FILTERS

DX12KIT_CHOICE(AddressModeChoice, "AddressMode", D3D12_TEXTURE_ADDRESS_MODE, Values) = {{"clamp", D3D12_TEXTURE_ADDRESS_MODE_CLAMP},
                                                                                        {"wrap", D3D12_TEXTURE_ADDRESS_MODE_WRAP},
                                                                                        {"mirror", D3D12_TEXTURE_ADDRESS_MODE_MIRROR},
                                                                                        {"border", D3D12_TEXTURE_ADDRESS_MODE_BORDER},
                                                                                        {"mirror_once", D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE}};

DX12KIT_CHOICE(ComparisonFuncChoice, "ComparisonFunc", D3D12_COMPARISON_FUNC, Values) = {{"never", D3D12_COMPARISON_FUNC_NEVER},
                                                                                         {"less", D3D12_COMPARISON_FUNC_LESS},
                                                                                         {"equal", D3D12_COMPARISON_FUNC_EQUAL},
                                                                                         {"less_equal", D3D12_COMPARISON_FUNC_LESS_EQUAL},
                                                                                         {"greater", D3D12_COMPARISON_FUNC_GREATER},
                                                                                         {"not_equal", D3D12_COMPARISON_FUNC_NOT_EQUAL},
                                                                                         {"greater_equal", D3D12_COMPARISON_FUNC_GREATER_EQUAL},
                                                                                         {"always", D3D12_COMPARISON_FUNC_ALWAYS}};

DX12KIT_CHOICE(StencilOpChoice, "StencilOp", D3D12_STENCIL_OP, Values) = {
    {"keep", D3D12_STENCIL_OP_KEEP},         {"zero", D3D12_STENCIL_OP_ZERO},         {"replace", D3D12_STENCIL_OP_REPLACE},
    {"incr_sat", D3D12_STENCIL_OP_INCR_SAT}, {"decr_sat", D3D12_STENCIL_OP_DECR_SAT}, {"invert", D3D12_STENCIL_OP_INVERT},
    {"incr", D3D12_STENCIL_OP_INCR},         {"decr", D3D12_STENCIL_OP_DECR}};

DX12KIT_CHOICE(BorderColorChoice, "BorderColor", D3D12_STATIC_BORDER_COLOR, Values) = {
    {"transparent_black", D3D12_STATIC_BORDER_COLOR_TRANSPARENT_BLACK},
    {"opaque_black", D3D12_STATIC_BORDER_COLOR_OPAQUE_BLACK},
    {"opaque_white", D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE}};

DX12KIT_CHOICE(IndexFormatChoice, "IndexFormat", DXGI_FORMAT, Values) = {
    {"uint16", DXGI_FORMAT_R16_UINT}, {"uint32", DXGI_FORMAT_R32_UINT}, {"r16_uint", DXGI_FORMAT_R16_UINT}, {"r32_uint", DXGI_FORMAT_R32_UINT}};

DX12KIT_CHOICE(VertexFormatChoice, "VertexFormat", DXGI_FORMAT, Values) = {
    {"float", DXGI_FORMAT_R32_FLOAT},           {"float2", DXGI_FORMAT_R32G32_FLOAT}, {"float3", DXGI_FORMAT_R32G32B32_FLOAT},
    {"float4", DXGI_FORMAT_R32G32B32A32_FLOAT}, {"uint", DXGI_FORMAT_R32_UINT},       {"rgba8_unorm", DXGI_FORMAT_R8G8B8A8_UNORM}};

DX12KIT_CHOICE(QueryKindChoice, "QueryKind", D3D12_QUERY_TYPE, WrongType) = {{"occlusion", D3D12_QUERY_TYPE_OCCLUSION},
                                                                             {"binary_occlusion", D3D12_QUERY_TYPE_BINARY_OCCLUSION},
                                                                             {"timestamp", D3D12_QUERY_TYPE_TIMESTAMP},
                                                                             {"pipeline_statistics", D3D12_QUERY_TYPE_PIPELINE_STATISTICS}};

DX12KIT_CHOICE(QueryHeapKindChoice, "QueryHeapKind", QueryHeapType, WrongType) = {{"occlusion", D3D12_QUERY_HEAP_TYPE_OCCLUSION},
                                                                                  {"timestamp", D3D12_QUERY_HEAP_TYPE_TIMESTAMP},
                                                                                  {"pipeline_statistics", D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS},
                                                                                  {"copy_queue_timestamp", kCopyQueueTimestampHeap},
                                                                                  {"binary_occlusion", D3D12_QUERY_HEAP_TYPE_OCCLUSION}};

DX12KIT_CHOICE(PredicationOpChoice, "PredicationOp", D3D12_PREDICATION_OP, WrongType) = {{"equal_zero", D3D12_PREDICATION_OP_EQUAL_ZERO},
                                                                                         {"not_equal_zero", D3D12_PREDICATION_OP_NOT_EQUAL_ZERO}};

#undef DX12KIT_CHOICE

/// How many entries at the end of a table are other names for members (accepted, listed in the stubs'
/// Literal, not enum members).
template <typename Tag>
inline constexpr size_t kAliases = 0;
template <>
inline constexpr size_t kAliases<QueueKindChoice> = 1;  // graphics
template <>
inline constexpr size_t kAliases<TopologyChoice> = 3 + 32;  // D3D's names of the lists, <n>_control_point_patchlist
template <>
inline constexpr size_t kAliases<VisibilityChoice> = 2;  // vs, ps
template <>
inline constexpr size_t kAliases<IndexFormatChoice> = 2;  // r16_uint, r32_uint
template <>
inline constexpr size_t kAliases<QueryHeapKindChoice> = 1;  // binary_occlusion

/// Every table, in dx12kit.enums' order (what dx12core.choice_tables() exports).
// clang-format off
#define DX12KIT_CHOICE_TAGS(F)  \
    F(QueueKindChoice)          \
    F(HeapTypeChoice)           \
    F(PoolAlgorithmChoice)      \
    F(DefragAlgorithmChoice)    \
    F(DescriptorHeapTypeChoice) \
    F(TopologyChoice)           \
    F(CullModeChoice)           \
    F(BlendModeChoice)          \
    F(BlendChoice)              \
    F(BlendOpChoice)            \
    F(LogicOpChoice)            \
    F(FillModeChoice)           \
    F(VisibilityChoice)         \
    F(FilterChoice)             \
    F(AddressModeChoice)        \
    F(ComparisonFuncChoice)     \
    F(StencilOpChoice)          \
    F(BorderColorChoice)        \
    F(IndexFormatChoice)        \
    F(VertexFormatChoice)       \
    F(QueryKindChoice)          \
    F(QueryHeapKindChoice)      \
    F(PredicationOpChoice)
// clang-format on

}  // namespace dx12kit::bindings
