// dx12kit_bench: per-draw costs of bound descriptor tables beside raw D3D12 (benchmarks/callgrind_bindings.py).
//
// record_core_srv re-stages one table slot before each draw through dx12kit (the same texture every
// row, or textures taken in turn: a changed slot); record_raw_table records what a raw D3D12 program
// does for a changed slot: the whole table copied into a fresh range of its own shader-visible heap
// (a table a recorded draw uses must not be modified), set, and drawn.
#include "BenchBindings.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/DeviceContext.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/HResult.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

namespace py = pybind11;
using namespace py::literals;

namespace dx12kit::bindings {

namespace {
struct Rows {
    const uint32_t* data;
    uint32_t n, k;
};
Rows RowsOf(const py::array& constants, const char* fn) {
    if (constants.ndim() != 2 || constants.itemsize() != 4 || !(constants.flags() & py::array::c_style))
        throw InvalidArgument(std::string(fn) + ": constants must be a C-contiguous (n, k) array of 32-bit values");
    return Rows{static_cast<const uint32_t*>(constants.data()), static_cast<uint32_t>(constants.shape(0)), static_cast<uint32_t>(constants.shape(1))};
}
}  // namespace

void BindBenchBindings(py::module_& m) {
    m.def(
        "record_core_srv",
        [](std::shared_ptr<CommandList> cl, const py::array& constants, std::vector<std::shared_ptr<Resource>> textures, uint32_t tableRoot,
           uint32_t slot) {
            const Rows r = RowsOf(constants, "record_core_srv");
            if (!cl || textures.empty()) throw InvalidArgument("record_core_srv: a command list and at least one texture needed");
            py::gil_scoped_release nogil;
            const size_t nt = textures.size();
            for (uint32_t i = 0; i < r.n; ++i) {
                cl->SetConstants(0, r.data + size_t(i) * r.k, r.k, 0);
                cl->SetShaderResourceView(tableRoot, slot, textures[i % nt], 0, 0, DXGI_FORMAT_UNKNOWN);
                cl->Draw(3, 1, 0, 0);
            }
        },
        "command_list"_a, "constants"_a, "textures"_a, "table_root"_a, "slot"_a,
        "Per row: SetConstants(0, row), SetShaderResourceView(table_root, slot, textures[i % len]), Draw(3) through dx12kit's C++ core.");

    m.def(
        "record_raw_table",
        [](std::shared_ptr<CommandList> cl, const py::array& constants, std::vector<std::shared_ptr<Resource>> table,
           std::vector<std::shared_ptr<Resource>> textures, uint32_t tableRoot, uint32_t slot) {
            const Rows r = RowsOf(constants, "record_raw_table");
            if (!cl || table.empty() || textures.empty() || slot >= table.size())
                throw InvalidArgument("record_raw_table: a command list, a table, textures and a slot inside the table needed");
            ID3D12Device* d3d = cl->Context()->D3D12Device();
            const UINT count = UINT(table.size());
            ComPtr<ID3D12DescriptorHeap> heap;
            D3D12_DESCRIPTOR_HEAP_DESC hd{D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, r.n * count, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
            ThrowIfFailed(d3d->CreateDescriptorHeap(&hd, IID_ID3D12DescriptorHeap, heap.ReleaseAndGetVoidAddress()), "CreateDescriptorHeap");
            std::vector<D3D12_CPU_DESCRIPTOR_HANDLE> src;
            for (const auto& t : table) src.push_back(t->Srv());
            std::vector<D3D12_CPU_DESCRIPTOR_HANDLE> alt;
            for (const auto& t : textures) alt.push_back(t->Srv());
            std::vector<UINT> ones(count, 1);
            const UINT inc = d3d->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
            py::gil_scoped_release nogil;
            cl->RecordNative("record_raw_table", [&](ID3D12GraphicsCommandList* l) {
                ID3D12DescriptorHeap* heaps[] = {heap.Get()};
                l->SetDescriptorHeaps(1, heaps);
                D3D12_CPU_DESCRIPTOR_HANDLE cpu = heap->GetCPUDescriptorHandleForHeapStart();
                D3D12_GPU_DESCRIPTOR_HANDLE gpu = heap->GetGPUDescriptorHandleForHeapStart();
                for (uint32_t i = 0; i < r.n; ++i) {
                    src[slot] = alt[i % alt.size()];
                    const UINT dstSize = count;
                    d3d->CopyDescriptors(1, &cpu, &dstSize, count, src.data(), ones.data(), D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
                    l->SetGraphicsRoot32BitConstants(0, r.k, r.data + size_t(i) * r.k, 0);
                    l->SetGraphicsRootDescriptorTable(tableRoot, gpu);
                    l->DrawInstanced(3, 1, 0, 0);
                    cpu.ptr += size_t(inc) * count;
                    gpu.ptr += uint64_t(inc) * count;
                }
            });
        },
        "command_list"_a, "constants"_a, "table"_a, "textures"_a, "table_root"_a, "slot"_a,
        "Raw D3D12 for a changed table slot: per row the whole table (SRVs of `table`, slot `slot` replaced by textures[i % len])\n"
        "copied into a fresh range of a shader-visible heap of its own, SetGraphicsRoot32BitConstants(0, row),\n"
        "SetGraphicsRootDescriptorTable(table_root), DrawInstanced(3). The list's heaps are replaced: draw no more through dx12kit on it.");
}

}  // namespace dx12kit::bindings
