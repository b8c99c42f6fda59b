#include "dx12kit/resources/ResourceState.hpp"

#include <string>

namespace dx12kit {

std::string StateName(D3D12_RESOURCE_STATES state) {
    if (state == kUnknownState) return "UNKNOWN";
    if (state == D3D12_RESOURCE_STATE_COMMON) return "COMMON";
    if (state == D3D12_RESOURCE_STATE_GENERIC_READ) return "GENERIC_READ";
    static const struct {
        uint32_t bit;
        const char* name;
    } kBits[] = {{0x1, "VERTEX_AND_CONSTANT_BUFFER"},
                 {0x2, "INDEX_BUFFER"},
                 {0x4, "RENDER_TARGET"},
                 {0x8, "UNORDERED_ACCESS"},
                 {0x10, "DEPTH_WRITE"},
                 {0x20, "DEPTH_READ"},
                 {0x40, "NON_PIXEL_SHADER_RESOURCE"},
                 {0x80, "PIXEL_SHADER_RESOURCE"},
                 {0x100, "STREAM_OUT"},
                 {0x200, "INDIRECT_ARGUMENT"},
                 {0x400, "COPY_DEST"},
                 {0x800, "COPY_SOURCE"},
                 {0x1000, "RESOLVE_DEST"},
                 {0x2000, "RESOLVE_SOURCE"}};
    std::string out;
    for (const auto& b : kBits) {
        if (static_cast<uint32_t>(state) & b.bit) {
            if (!out.empty()) out += '|';
            out += b.name;
        }
    }
    return out.empty() ? std::to_string(static_cast<uint32_t>(state)) : out;
}

}  // namespace dx12kit
