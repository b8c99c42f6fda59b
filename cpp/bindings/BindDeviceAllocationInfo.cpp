// dx12core: Device.texture_allocation_info and buffer_allocation_info (a helper of BindDevice): the size and
// alignment of a resource before it is created (D3D12 GetResourceAllocationInfo, as dx12kit places it:
// Device::TextureAllocationInfo / BufferAllocationInfo). Only conversions live here.
#include "docs/DeviceDocs.hpp"
#include "GpuArgs.hpp"

#include <map>
#include <string>

namespace dx12kit::bindings {

namespace {
/// {"size": bytes, "alignment": bytes} (a std::map, so the stub says dict[str, int]).
std::map<std::string, uint64_t> InfoDict(const D3D12_RESOURCE_ALLOCATION_INFO& info) {
    return {{"size", info.SizeInBytes}, {"alignment", info.Alignment}};
}
}  // namespace

void BindDeviceAllocationInfo(Classes& c) {
    c.device
        .def(
            "texture_allocation_info",
            [](Device& d, Int width, Int height, FormatArg format, Int mips, Int arraySize, Int samples, bool rt, bool ds, bool uav) {
                const char* fn = "texture_allocation_info";
                const uint32_t w = U32(width, fn, "width"), h = U32(height, fn, "height");
                const DXGI_FORMAT f = ParseFormat(format, fn);
                const uint32_t m = U32(mips, fn, "mip_levels"), a = U32(arraySize, fn, "array_size"), s = U32(samples, fn, "sample_count");
                D3D12_RESOURCE_ALLOCATION_INFO info;
                {
                    ReleaseGil release;
                    info = d.TextureAllocationInfo(w, h, f, m, a, rt, ds, uav, s, fn);
                }
                return InfoDict(info);
            },
            "width"_a, "height"_a, "format"_a, py::kw_only(), "mip_levels"_a = 1, "array_size"_a = 1, "sample_count"_a = 1, "render_target"_a = false,
            "depth_stencil"_a = false, "uav"_a = false, docs::Device::texture_allocation_info)
        .def(
            "buffer_allocation_info",
            [](Device& d, Int size, bool uav) {
                const char* fn = "buffer_allocation_info";
                const uint64_t n = U64(size, fn, "size");
                D3D12_RESOURCE_ALLOCATION_INFO info;
                {
                    ReleaseGil release;
                    info = d.BufferAllocationInfo(n, uav, fn);
                }
                return InfoDict(info);
            },
            "size"_a, py::kw_only(), "uav"_a = false, docs::Device::buffer_allocation_info);
}

}  // namespace dx12kit::bindings
