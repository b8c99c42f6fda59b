// dx12kit_bench: per-call costs of dx12kit's CommandList beside raw D3D12.
//
// compare_calls(kind, ...) times one recording loop through dx12kit's C++ CommandList and one
// doing the same native calls by hand (raw D3D12: no state tracking, no checks), on the same
// device, in the same run, alternating, and returns both and their ratio. Lists are never
// executed: this is recording cost (the CPU side that limits a real GPU's draw rate).
//
// record_raw / record_core record n draws or dispatches with per-row root constants into a
// dx12kit.CommandList: raw (the native list's calls alone) or through CommandList's C++ methods.
// benchmarks/callgrind_calls.py counts their instructions with callgrind_start / callgrind_stop
// beside the same loop run from Python and through draw_many.
#include "BenchBindings.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/HResult.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#if __has_include(<valgrind/callgrind.h>)
#  include <valgrind/callgrind.h>
#  define DX12KIT_HAVE_CALLGRIND 1
#else
#  define DX12KIT_HAVE_CALLGRIND 0
#endif

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace py::literals;

namespace dx12kit::bindings {

namespace {

using Clock = std::chrono::steady_clock;
using Constants = py::array_t<uint32_t, py::array::c_style>;

/// The (n, k) rows of `constants` (uint32 view; float32 data passes as its bits).
struct Rows {
    const uint32_t* data;
    uint32_t n, k;
};
Rows RowsOf(const py::array& constants, const char* fn) {
    if (constants.ndim() != 2 || constants.itemsize() != 4 || !(constants.flags() & py::array::c_style))
        throw InvalidArgument(std::string(fn) + ": constants must be a C-contiguous (n, k) array of 32-bit values");
    return Rows{static_cast<const uint32_t*>(constants.data()), static_cast<uint32_t>(constants.shape(0)), static_cast<uint32_t>(constants.shape(1))};
}

enum class Kind { Draw, Dispatch };
Kind KindOf(const std::string& s) {
    if (s == "draw") return Kind::Draw;
    if (s == "dispatch") return Kind::Dispatch;
    throw InvalidArgument("kind must be 'draw' or 'dispatch', got '" + s + "'");
}

constexpr int kReps = 5;

}  // namespace

void BindBenchCalls(py::module_& m) {
    m.def(
        "callgrind_start",
        [] {
#if DX12KIT_HAVE_CALLGRIND
            CALLGRIND_ZERO_STATS;
            CALLGRIND_START_INSTRUMENTATION;
            return RUNNING_ON_VALGRIND != 0;
#else
            return false;
#endif
        },
        "Callgrind: zero the counters and start instrumenting (run valgrind with --instr-atstart=no).\n"
        "Returns whether the process runs under valgrind.");
    m.def(
        "callgrind_stop",
        [](const std::string& label) {
#if DX12KIT_HAVE_CALLGRIND
            CALLGRIND_STOP_INSTRUMENTATION;
            CALLGRIND_DUMP_STATS_AT(label.c_str());
#else
            (void)label;
#endif
        },
        "label"_a, "Callgrind: stop instrumenting and dump the counts since callgrind_start under `label`.");

    m.def(
        "record_raw",
        [](std::shared_ptr<CommandList> cl, const std::string& kindName, const py::array& constants, uint32_t rootIndex, uint32_t vertexCount) {
            const Kind kind = KindOf(kindName);
            const Rows r = RowsOf(constants, "record_raw");
            if (!cl) throw InvalidArgument("record_raw: command_list is None");
            py::gil_scoped_release nogil;
            // RecordNative: the open-list check and recording lock of every recording call (an executed
            // list has no native list left to record into).
            cl->RecordNative("record_raw", [&](ID3D12GraphicsCommandList* native) {
                if (kind == Kind::Draw) {
                    for (uint32_t i = 0; i < r.n; ++i) {
                        native->SetGraphicsRoot32BitConstants(rootIndex, r.k, r.data + size_t(i) * r.k, 0);
                        native->DrawInstanced(vertexCount, 1, 0, 0);
                    }
                } else {
                    for (uint32_t i = 0; i < r.n; ++i) {
                        native->SetComputeRoot32BitConstants(rootIndex, r.k, r.data + size_t(i) * r.k, 0);
                        native->Dispatch(1, 1, 1);
                    }
                }
            });
        },
        "command_list"_a, "kind"_a, "constants"_a, "root_index"_a = 0, "vertex_count"_a = 3,
        "Records one raw SetGraphics/ComputeRoot32BitConstants + DrawInstanced(vertex_count) / Dispatch(1, 1, 1) per row\n"
        "of `constants` on the list's native list (no tracking: set the pipeline and targets through dx12kit first).\n"
        "Raises UseAfterFreeError, as every recording call does, when the list was already executed or closed.");

    m.def(
        "record_core",
        [](std::shared_ptr<CommandList> cl, const std::string& kindName, const py::array& constants, uint32_t rootIndex, uint32_t vertexCount) {
            const Kind kind = KindOf(kindName);
            const Rows r = RowsOf(constants, "record_core");
            if (!cl) throw InvalidArgument("record_core: command_list is None");
            py::gil_scoped_release nogil;
            for (uint32_t i = 0; i < r.n; ++i) {
                cl->SetConstants(rootIndex, r.data + size_t(i) * r.k, r.k, 0);
                if (kind == Kind::Draw) cl->Draw(vertexCount, 1, 0, 0);
                else cl->Dispatch(1, 1, 1);
            }
        },
        "command_list"_a, "kind"_a, "constants"_a, "root_index"_a = 0, "vertex_count"_a = 3,
        "As record_raw, through dx12kit's C++ CommandList::SetConstants + Draw / Dispatch (no Python per row).");

    m.def(
        "compare_calls",
        [](std::shared_ptr<Device> dev, const std::string& kind, std::shared_ptr<PipelineState> pso, std::vector<std::shared_ptr<Resource>> res,
           uint32_t n) {
            if (!dev || !pso || n == 0) throw InvalidArgument("compare_calls: device, pipeline and n > 0 needed");
            auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
            auto need = [&](size_t count) {
                if (res.size() != count)
                    throw InvalidArgument("compare_calls('" + kind + "'): expected " + std::to_string(count) + " resources, got " +
                                          std::to_string(res.size()));
            };
            std::vector<uint32_t> consts(size_t(n) * 4);
            for (uint32_t i = 0; i < n * 4; ++i) consts[i] = i;
            const uint32_t* c = consts.data();

            // set-up(list) runs untimed on a fresh list; ours(list) / raw(list) are timed.
            std::function<void(CommandList&)> setup, ours, raw;
            ComPtr<ID3D12DescriptorHeap> gpuHeap;
            if (kind == "draw" || kind == "root_constants" || kind == "descriptor_table") {
                // pso: graphics, root 0 four constants, root 1 an SRV table; res: render target, texture.
                need(2);
                setup = [&](CommandList& cl) {
                    cl.SetPipelineState(pso);
                    cl.SetRenderTargets({res[0]}, nullptr, 0);
                    cl.SetConstants(0, c, 4, 0);
                    cl.SetShaderResourceView(1, 0, res[1], 0, 0, DXGI_FORMAT_UNKNOWN);
                    cl.Draw(3, 1, 0, 0);  // first draw: transitions and tables settled
                };
                if (kind == "draw") {
                    ours = [&](CommandList& cl) {
                        for (uint32_t i = 0; i < n; ++i) {
                            cl.SetConstants(0, c + size_t(i) * 4, 4, 0);
                            cl.Draw(3, 1, 0, 0);
                        }
                    };
                    raw = [&](CommandList& cl) {
                        ID3D12GraphicsCommandList* l = cl.D3D12List();
                        for (uint32_t i = 0; i < n; ++i) {
                            l->SetGraphicsRoot32BitConstants(0, 4, c + size_t(i) * 4, 0);
                            l->DrawInstanced(3, 1, 0, 0);
                        }
                    };
                } else if (kind == "root_constants") {
                    ours = [&](CommandList& cl) {
                        for (uint32_t i = 0; i < n; ++i) cl.SetConstants(0, c + size_t(i) * 4, 4, 0);
                    };
                    raw = [&](CommandList& cl) {
                        ID3D12GraphicsCommandList* l = cl.D3D12List();
                        for (uint32_t i = 0; i < n; ++i) l->SetGraphicsRoot32BitConstants(0, 4, c + size_t(i) * 4, 0);
                    };
                } else {
                    // A table of one SRV written before each draw: dx12kit stages it and copies it into its
                    // shader-visible heap at the draw; raw copies it into a heap of its own by hand.
                    ID3D12Device* d3d = dev->D3D12Device();
                    D3D12_DESCRIPTOR_HEAP_DESC hd{D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, n, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
                    ThrowIfFailed(d3d->CreateDescriptorHeap(&hd, IID_ID3D12DescriptorHeap, gpuHeap.ReleaseAndGetVoidAddress()),
                                  "CreateDescriptorHeap");
                    ours = [&](CommandList& cl) {
                        for (uint32_t i = 0; i < n; ++i) {
                            cl.SetShaderResourceView(1, 0, res[1], 0, 0, DXGI_FORMAT_UNKNOWN);
                            cl.Draw(3, 1, 0, 0);
                        }
                    };
                    raw = [&, d3d](CommandList& cl) {
                        ID3D12GraphicsCommandList* l = cl.D3D12List();
                        ID3D12DescriptorHeap* heaps[] = {gpuHeap.Get()};
                        l->SetDescriptorHeaps(1, heaps);
                        const D3D12_CPU_DESCRIPTOR_HANDLE src = res[1]->Srv();
                        const UINT inc = d3d->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
                        D3D12_CPU_DESCRIPTOR_HANDLE cpu = gpuHeap->GetCPUDescriptorHandleForHeapStart();
                        D3D12_GPU_DESCRIPTOR_HANDLE gpu = gpuHeap->GetGPUDescriptorHandleForHeapStart();
                        for (uint32_t i = 0; i < n; ++i) {
                            d3d->CopyDescriptorsSimple(1, cpu, src, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
                            l->SetGraphicsRootDescriptorTable(1, gpu);
                            l->DrawInstanced(3, 1, 0, 0);
                            cpu.ptr += inc;
                            gpu.ptr += inc;
                        }
                    };
                }
            } else if (kind == "dispatch") {
                // pso: compute, root 0 four constants, root 1 a root UAV; res: the UAV buffer. UAV barriers
                // off in dx12kit (the raw loop records none either).
                need(1);
                setup = [&](CommandList& cl) {
                    cl.AutoUavBarriers = false;
                    cl.SetPipelineState(pso);
                    cl.SetConstants(0, c, 4, 0);
                    cl.SetRootView(RootParamKind::Uav, 1, res[0], 0);
                    cl.Dispatch(1, 1, 1);
                };
                ours = [&](CommandList& cl) {
                    for (uint32_t i = 0; i < n; ++i) {
                        cl.SetConstants(0, c + size_t(i) * 4, 4, 0);
                        cl.Dispatch(1, 1, 1);
                    }
                };
                raw = [&](CommandList& cl) {
                    ID3D12GraphicsCommandList* l = cl.D3D12List();
                    for (uint32_t i = 0; i < n; ++i) {
                        l->SetComputeRoot32BitConstants(0, 4, c + size_t(i) * 4, 0);
                        l->Dispatch(1, 1, 1);
                    }
                };
            } else if (kind == "dynamic_cb") {
                // pso: compute, root 0 a root CBV, root 1 a root UAV; res: the UAV buffer. 16 bytes of
                // constants per dispatch: dx12kit's upload allocator against a bump pointer in one region.
                need(1);
                setup = [&](CommandList& cl) {
                    cl.AutoUavBarriers = false;
                    cl.SetPipelineState(pso);
                    cl.SetDynamicConstantBuffer(0, c, 16);
                    cl.SetRootView(RootParamKind::Uav, 1, res[0], 0);
                    cl.Dispatch(1, 1, 1);
                };
                ours = [&](CommandList& cl) {
                    for (uint32_t i = 0; i < n; ++i) {
                        cl.SetDynamicConstantBuffer(0, c + size_t(i) * 4, 16);
                        cl.Dispatch(1, 1, 1);
                    }
                };
                raw = [&](CommandList& cl) {
                    const UploadAllocation region = cl.AllocateUpload(uint64_t(n) * 256, 256);  // the app's own ring, not timed apart
                    ID3D12GraphicsCommandList* l = cl.D3D12List();
                    for (uint32_t i = 0; i < n; ++i) {
                        std::memcpy(region.cpu + size_t(i) * 256, c + size_t(i) * 4, 16);
                        l->SetComputeRootConstantBufferView(0, region.gpu + uint64_t(i) * 256);
                        l->Dispatch(1, 1, 1);
                    }
                };
            } else if (kind == "transitions") {
                // res: buffers a and b (256+ bytes each). Copies back and forth: dx12kit moves both buffers
                // between COPY_SOURCE and COPY_DEST itself; raw records the two transitions by hand.
                need(2);
                setup = [&](CommandList& cl) {
                    cl.CopyBufferRegion(res[0], 0, res[1], 0, 256);  // a: COPY_DEST, b: COPY_SOURCE
                };
                ours = [&](CommandList& cl) {
                    for (uint32_t i = 0; i < n; ++i) {
                        if (i & 1) cl.CopyBufferRegion(res[0], 0, res[1], 0, 256);
                        else cl.CopyBufferRegion(res[1], 0, res[0], 0, 256);
                    }
                };
                raw = [&](CommandList& cl) {
                    ID3D12GraphicsCommandList* l = cl.D3D12List();
                    ID3D12Resource* a = res[0]->D3D12Resource();
                    ID3D12Resource* b = res[1]->D3D12Resource();
                    for (uint32_t i = 0; i < n; ++i) {
                        // i even: b <- a (a COPY_DEST -> COPY_SOURCE, b back); i odd: a <- b.
                        const bool odd = i & 1;
                        D3D12_RESOURCE_BARRIER bars[2] = {};
                        for (int j = 0; j < 2; ++j) {
                            bars[j].Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
                            bars[j].Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
                        }
                        bars[0].Transition.pResource = a;
                        bars[0].Transition.StateBefore = odd ? D3D12_RESOURCE_STATE_COPY_SOURCE : D3D12_RESOURCE_STATE_COPY_DEST;
                        bars[0].Transition.StateAfter = odd ? D3D12_RESOURCE_STATE_COPY_DEST : D3D12_RESOURCE_STATE_COPY_SOURCE;
                        bars[1].Transition.pResource = b;
                        bars[1].Transition.StateBefore = odd ? D3D12_RESOURCE_STATE_COPY_DEST : D3D12_RESOURCE_STATE_COPY_SOURCE;
                        bars[1].Transition.StateAfter = odd ? D3D12_RESOURCE_STATE_COPY_SOURCE : D3D12_RESOURCE_STATE_COPY_DEST;
                        l->ResourceBarrier(2, bars);
                        if (odd) l->CopyBufferRegion(a, 0, b, 0, 256);
                        else l->CopyBufferRegion(b, 0, a, 0, 256);
                    }
                };
            } else {
                throw InvalidArgument(
                    "compare_calls: kind must be draw, dispatch, root_constants, dynamic_cb, descriptor_table or "
                    "transitions, got '" +
                    kind + "'");
            }
            auto once = [&](const std::function<void(CommandList&)>& body) {
                auto cl = q->CreateCommandList(q);
                setup(*cl);
                const auto t0 = Clock::now();
                body(*cl);
                return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / double(n);
            };
            std::vector<double> a, b;
            {
                py::gil_scoped_release nogil;
                once(ours);  // warm: pages, descriptor chunks and lavapipe's command memory exist afterwards
                once(raw);
                for (int i = 0; i < kReps; ++i) {  // alternating: the machine's load drifts
                    a.push_back(once(ours));
                    b.push_back(once(raw));
                }
            }
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            const double ma = a[a.size() / 2], mb = b[b.size() / 2];
            return py::dict("dx12kit_ns"_a = py::make_tuple(a.front(), ma), "raw_ns"_a = py::make_tuple(b.front(), mb), "ratio"_a = ma / mb,
                            "ratio_min"_a = a.front() / b.front(), "n"_a = n, "stat"_a = "(min, median) of 5, ns per iteration");
        },
        "device"_a, "kind"_a, "pipeline"_a, "resources"_a, "n"_a = 5000,
        "Benchmark: ns per iteration of a dx12kit C++ recording loop and of a raw D3D12 loop doing the same native calls\n"
        "on the same device, alternating, 5 rounds each; ratio = dx12kit median / raw median, ratio_min the same of the\n"
        "minimums (steadier on a loaded machine). kinds: draw, root_constants,\n"
        "descriptor_table (graphics pipeline: root 0 four constants, root 1 an SRV table; resources [target, texture]),\n"
        "dispatch (compute: root 0 four constants, root 1 a root UAV; [buffer]), dynamic_cb (compute: root 0 a root CBV,\n"
        "root 1 a root UAV; [buffer]), transitions (copies back and forth; [buffer a, buffer b]).");
}

}  // namespace dx12kit::bindings
