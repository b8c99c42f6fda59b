// The flag tables of the D3D12-layer bindings: one tag per dx12kit.enums IntFlag, each listing its members'
// names and the D3D12 bits they stand for. dx12kit.enums makes its IntFlags from these tables
// (dx12core.flag_tables(), BindCoreTables.cpp), as it makes its str enums from ChoiceTables.hpp: no Python
// copy of a core table. A new table is listed in DX12KIT_FLAG_TAGS.
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdint>

namespace dx12kit::bindings {

struct FlagEntry {
    const char* name;  ///< the member's name (upper case, as D3D12's suffix)
    uint32_t value;
};

/// BlendState(write_mask=): D3D12_COLOR_WRITE_ENABLE_*.
struct ColorWriteEnableFlags {
    static constexpr const char* kEnum = "ColorWriteEnable";
    static constexpr const char* kDoc =
        "The channels a render target writes (``BlendState(write_mask=)``; D3D12_COLOR_WRITE_ENABLE_*).\n"
        "Plain ints 0..15 are accepted too.";
    static constexpr FlagEntry kTable[] = {{"RED", D3D12_COLOR_WRITE_ENABLE_RED},
                                           {"GREEN", D3D12_COLOR_WRITE_ENABLE_GREEN},
                                           {"BLUE", D3D12_COLOR_WRITE_ENABLE_BLUE},
                                           {"ALPHA", D3D12_COLOR_WRITE_ENABLE_ALPHA},
                                           {"ALL", D3D12_COLOR_WRITE_ENABLE_ALL}};
};

/// Every flag table, in dx12kit.enums' order (what dx12core.flag_tables() exports).
#define DX12KIT_FLAG_TAGS(F) F(ColorWriteEnableFlags)

}  // namespace dx12kit::bindings
