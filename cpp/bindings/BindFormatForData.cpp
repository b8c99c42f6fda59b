// dx12core._texture_format_for_data: the format of texture data (dx12kit/devicecontext/FormatForData.hpp) for the
// Python layer (dx12kit.textures.texture_format_for), so that load_texture and create_texture2d(data=) choose
// formats by one table.
#include "docs/FormatForDataDocs.hpp"
#include "GpuArgs.hpp"

#include "dx12kit/devicecontext/FormatForData.hpp"

namespace dx12kit::bindings {

void BindFormatForData(py::module_& m) {
    m.def(
        "_texture_format_for_data",
        [](const py::dtype& dtype, uint32_t channels, bool srgb) -> std::optional<std::string> {
            const DXGI_FORMAT f = FormatForTexelData(dtype.kind(), static_cast<uint32_t>(dtype.itemsize()), channels, srgb);
            if (f == DXGI_FORMAT_UNKNOWN) return std::nullopt;
            return std::string(FindFormat(f)->name);
        },
        "dtype"_a, "channels"_a, "srgb"_a = false, docs::dx12core::texture_format_for_data);
}

}  // namespace dx12kit::bindings
