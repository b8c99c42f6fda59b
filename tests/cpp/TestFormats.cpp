// The format table (devicecontext/Formats.hpp), without a device: every DXGI format by DXGI's name and the short
// name, in any case; difflib-style suggestions for unknown names; block-compressed sizes in 4x4 blocks.
#include <doctest.h>

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/FormatForData.hpp"
#include "dx12kit/devicecontext/Formats.hpp"
#include "dx12kit/devicecontext/TexelArray.hpp"

#include <string>

using namespace dx12kit;

TEST_SUITE("host") {

TEST_CASE("formats: data of each element type and channel count takes its format from one table") {
    const struct {
        char kind;
        uint32_t bytes;
        const char* names[3];  // 1, 2, 4 channels
    } rows[] = {{'u', 1, {"r8_unorm", "rg8_unorm", "rgba8_unorm"}},    {'u', 2, {"r16_unorm", "rg16_unorm", "rgba16_unorm"}},
                {'f', 2, {"r16_float", "rg16_float", "rgba16_float"}}, {'f', 4, {"r32_float", "rg32_float", "rgba32_float"}},
                {'u', 4, {"r32_uint", "rg32_uint", "rgba32_uint"}},    {'i', 4, {"r32_sint", "rg32_sint", "rgba32_sint"}}};
    for (const auto& row : rows) {
        const uint32_t channels[] = {1, 2, 4};
        for (int c = 0; c < 3; ++c) {
            CAPTURE(row.names[c]);
            CHECK(FormatForTexelData(row.kind, row.bytes, channels[c]) == FindFormat(row.names[c])->format);
        }
        for (uint32_t c : {0u, 3u, 5u}) CHECK(FormatForTexelData(row.kind, row.bytes, c) == DXGI_FORMAT_UNKNOWN);
    }
    // Other element types: none (int8/int16, float64, 64-bit integers, bool).
    CHECK(FormatForTexelData('i', 1, 4) == DXGI_FORMAT_UNKNOWN);
    CHECK(FormatForTexelData('i', 2, 1) == DXGI_FORMAT_UNKNOWN);
    CHECK(FormatForTexelData('f', 8, 1) == DXGI_FORMAT_UNKNOWN);
    CHECK(FormatForTexelData('u', 8, 1) == DXGI_FORMAT_UNKNOWN);
    CHECK(FormatForTexelData('b', 1, 1) == DXGI_FORMAT_UNKNOWN);
    // srgb: the sRGB member of 8-bit RGBA only.
    CHECK(FormatForTexelData('u', 1, 4, true) == DXGI_FORMAT_R8G8B8A8_UNORM_SRGB);
    CHECK(FormatForTexelData('u', 1, 1, true) == DXGI_FORMAT_UNKNOWN);
    CHECK(FormatForTexelData('u', 2, 4, true) == DXGI_FORMAT_UNKNOWN);
    CHECK(FormatForTexelData('f', 4, 4, true) == DXGI_FORMAT_UNKNOWN);
}

TEST_CASE("formats: the host array of a subresource: shape, element type, row pitch and size") {
    const auto shapeOf = [](const TexelArrayLayout& l) {
        std::string s;
        for (uint32_t d = 0; d < l.ndim; ++d) s += (d ? "," : "") + std::to_string(l.shape[d]);
        return s;
    };
    const TexelArrayLayout rgba8 = SubresourceArrayLayout(*FindFormat("rgba8_unorm"), 8, 4, 1, false);
    CHECK(shapeOf(rgba8) == "4,8,4");
    CHECK((rgba8.elementKind == 'u' && rgba8.elementBytes == 1));
    CHECK((rgba8.rowPitch == 32 && rgba8.bytes == 128));
    const TexelArrayLayout half = SubresourceArrayLayout(*FindFormat("rg16_float"), 3, 2, 1, false);
    CHECK(shapeOf(half) == "2,3,2");
    CHECK((half.elementKind == 'f' && half.elementBytes == 2 && half.rowPitch == 12 && half.bytes == 24));
    const TexelArrayLayout sint = SubresourceArrayLayout(*FindFormat("r16_sint"), 5, 1, 1, false);
    CHECK((sint.elementKind == 'i' && sint.elementBytes == 2 && sint.rowPitch == 10));
    // A 3D texture: depth first.
    const TexelArrayLayout volume = SubresourceArrayLayout(*FindFormat("r32_float"), 4, 4, 2, true);
    CHECK(shapeOf(volume) == "2,4,4,1");
    CHECK((volume.elementKind == 'f' && volume.elementBytes == 4 && volume.rowPitch == 16 && volume.bytes == 128));
    // Block-compressed: rows of 4x4 blocks, as raw bytes (10x10 texels: 3x3 blocks of 8 bytes).
    const TexelArrayLayout bc1 = SubresourceArrayLayout(*FindFormat("bc1_unorm"), 10, 10, 1, false);
    CHECK(shapeOf(bc1) == "3,3,8");
    CHECK((bc1.elementKind == 'u' && bc1.elementBytes == 1 && bc1.rowPitch == 24 && bc1.bytes == 72));

    const int64_t hw[] = {4, 8}, hwc[] = {4, 8, 4}, hw1[] = {4, 4, 1}, wrong[] = {8, 4, 4};
    CHECK(ArrayShapeFits(rgba8, *FindFormat("rgba8_unorm"), hwc, 3));
    CHECK_FALSE(ArrayShapeFits(rgba8, *FindFormat("rgba8_unorm"), hw, 2));  // 4 channels: the channel axis is needed
    CHECK_FALSE(ArrayShapeFits(rgba8, *FindFormat("rgba8_unorm"), wrong, 3));
    const TexelArrayLayout r32 = SubresourceArrayLayout(*FindFormat("r32_float"), 4, 4, 1, false);
    CHECK(ArrayShapeFits(r32, *FindFormat("r32_float"), hw1, 3));
    CHECK(ArrayShapeFits(r32, *FindFormat("r32_float"), hw1, 2));  // one channel: (H, W) as well
    CHECK_FALSE(ArrayShapeFits(bc1, *FindFormat("bc1_unorm"), hw1, 2));
}

TEST_CASE("formats: DXGI names, short names and any case name the same format") {
    for (const char* name : {"BC7_UNORM", "bc7_unorm", "DXGI_FORMAT_BC7_UNORM", "dxgi_format_Bc7_Unorm"}) {
        const FormatInfo* f = FindFormat(name);
        REQUIRE(f != nullptr);
        CHECK(f->format == DXGI_FORMAT_BC7_UNORM);
    }
    CHECK(FindFormat("R8G8B8A8_UNORM")->format == DXGI_FORMAT_R8G8B8A8_UNORM);
    CHECK(FindFormat("rgba8_unorm")->format == DXGI_FORMAT_R8G8B8A8_UNORM);
    CHECK(FindFormat("DXGI_FORMAT_420_OPAQUE")->format == DXGI_FORMAT_420_OPAQUE);
    CHECK(FindFormat("rgba8_unormx") == nullptr);
    size_t n = 0;
    AllFormats(n);
    CHECK(n == 121);  // DXGI_FORMAT 1..115, 130-132, 189-191
    for (int v = 1; v <= 115; ++v) CHECK(FindFormat(static_cast<DXGI_FORMAT>(v)) != nullptr);
    CHECK(FindFormat(DXGI_FORMAT_UNKNOWN) == nullptr);
}

TEST_CASE("formats: unknown names are refused with the closest names") {
    try {
        ParseFormatName("rgba8_unrom", "create_texture2d");
        FAIL("no error");
    } catch (const InvalidArgument& e) {
        const std::string msg = e.what();
        CHECK(msg.rfind("create_texture2d: unknown format 'rgba8_unrom'; did you mean 'rgba8_unorm'", 0) == 0);
    }
    CHECK(CloseFormatNames("zzzzqqqq").empty());
    CHECK(CloseFormatNames("BC7_UNROM", 1) == std::vector<std::string>{"bc7_unorm"});
}

TEST_CASE("formats: block-compressed subresources are counted in 4x4 blocks") {
    const FormatInfo& bc1 = *FindFormat(DXGI_FORMAT_BC1_UNORM);
    const FormatInfo& bc7 = *FindFormat(DXGI_FORMAT_BC7_UNORM);
    CHECK(bc1.IsBlock());
    CHECK(SubresourceBytes(bc1, 16, 12) == 4 * 3 * 8);
    CHECK(SubresourceBytes(bc1, 2, 1) == 8);  // a partial block is a whole block
    CHECK(SubresourceBytes(bc7, 5, 5) == 2 * 2 * 16);
    CHECK(RowCount(bc7, 9) == 3);
    CHECK(SubresourceBytes(*FindFormat(DXGI_FORMAT_R8G8B8A8_UNORM), 3, 2, 2) == 48);
    CHECK_THROWS_AS(RequireTextureFormat(DXGI_FORMAT_NV12, "create_texture2d"), InvalidArgument);
}

TEST_CASE("formats: a packed texel holds every plane (8 bytes for D32_FLOAT_S8X24_UINT, whose depth plane is 4)") {
    const FormatInfo& d32s8 = *FindFormat(DXGI_FORMAT_D32_FLOAT_S8X24_UINT);
    CHECK(d32s8.bytesPerTexel == 4);
    CHECK(PackedTexelBytes(d32s8) == 8);
    CHECK(PackedTexelBytes(*FindFormat(DXGI_FORMAT_R32G8X24_TYPELESS)) == 8);
    CHECK(PackedTexelBytes(*FindFormat(DXGI_FORMAT_D24_UNORM_S8_UINT)) == 4);
    CHECK(PackedTexelBytes(*FindFormat(DXGI_FORMAT_R32G32B32_FLOAT)) == 12);
}

}  // TEST_SUITE
