// DescriptorBenchmarks (see the header).
#include "DescriptorBenchmarks.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/descriptors/CpuDescriptorAllocator.hpp"
#include "dx12kit/descriptors/DynamicDescriptorHeap.hpp"
#include "dx12kit/descriptors/ShaderVisibleHeap.hpp"
#include "dx12kit/platform/ComPtr.hpp"
#include "d3dx12/D3dx12Lite.hpp"
#include "dx12kit/platform/HResult.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <unordered_set>

namespace dx12kit::bench {

namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

double Median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

ComPtr<ID3D12RootSignature> TableRootSignature(ID3D12Device* device, uint32_t n) {
    D3D12_DESCRIPTOR_RANGE range{};
    range.RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_SRV;
    range.NumDescriptors = n;
    D3D12_ROOT_PARAMETER param{};
    param.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    param.DescriptorTable.NumDescriptorRanges = 1;
    param.DescriptorTable.pDescriptorRanges = &range;
    param.ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    D3D12_ROOT_SIGNATURE_DESC desc{};
    desc.NumParameters = 1;
    desc.pParameters = &param;
    ComPtr<ID3DBlob> blob, error;
    ThrowIfFailed(D3D12SerializeRootSignature(&desc, D3D_ROOT_SIGNATURE_VERSION_1_0, blob.ReleaseAndGetAddressOf(), error.ReleaseAndGetAddressOf()),
                  "bench: D3D12SerializeRootSignature");
    ComPtr<ID3D12RootSignature> rs;
    ThrowIfFailed(
        device->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_ID3D12RootSignature, rs.ReleaseAndGetVoidAddress()),
        "bench: CreateRootSignature");
    return rs;
}

}  // namespace

std::vector<CommitTiming> MeasureCommit(ID3D12Device* device, const std::vector<uint32_t>& descriptorsPerDraw, uint32_t draws, uint32_t repeats) {
    if (!device) throw InvalidArgument("MeasureCommit: device is null");
    if (descriptorsPerDraw.empty() || draws == 0 || repeats == 0)
        throw InvalidArgument("MeasureCommit: descriptor counts, draws and repeats must be non-empty / non-zero");
    for (uint32_t n : descriptorsPerDraw)
        if (n == 0 || n > 1024) throw InvalidArgument("MeasureCommit: descriptors per draw must be in [1, 1024]");

    constexpr uint32_t kSources = 512;
    constexpr D3D12_DESCRIPTOR_HEAP_TYPE kType = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;

    // 512 real SRVs of one small texture, each in its own CPU descriptor.
    ComPtr<ID3D12Resource> texture;
    const D3D12_HEAP_PROPERTIES heapProps = d3dx::HeapProperties(D3D12_HEAP_TYPE_DEFAULT);
    const D3D12_RESOURCE_DESC texDesc = d3dx::Tex2DDesc(DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 1, D3D12_RESOURCE_FLAG_NONE);
    ThrowIfFailed(device->CreateCommittedResource(&heapProps, D3D12_HEAP_FLAG_NONE, &texDesc, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                                  IID_ID3D12Resource, texture.ReleaseAndGetVoidAddress()),
                  "bench: CreateCommittedResource");
    std::atomic<uint64_t> serial{0};
    CpuDescriptorAllocator cpu(device, kType, 64, &serial);
    std::vector<DescriptorAllocation> views;
    std::vector<D3D12_CPU_DESCRIPTOR_HANDLE> viewHandles;
    for (uint32_t i = 0; i < kSources; ++i) {
        views.push_back(cpu.Allocate(1));
        D3D12_SHADER_RESOURCE_VIEW_DESC srv{};
        srv.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        srv.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D;
        srv.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        srv.Texture2D.MipLevels = 1;
        device->CreateShaderResourceView(texture.Get(), &srv, views.back().Handle());
        viewHandles.push_back(views.back().Handle());
    }
    // Random picks, the same sequence for both paths.
    std::mt19937 rng(42);
    std::vector<uint16_t> picks(1u << 16);
    for (uint16_t& p : picks) p = static_cast<uint16_t>(rng() % kSources);

    ComPtr<ID3D12CommandAllocator> allocator;
    ThrowIfFailed(device->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_ID3D12CommandAllocator, allocator.ReleaseAndGetVoidAddress()),
                  "bench: CreateCommandAllocator");
    ComPtr<ID3D12GraphicsCommandList> list;
    ThrowIfFailed(device->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, allocator.Get(), nullptr, IID_ID3D12GraphicsCommandList,
                                            list.ReleaseAndGetVoidAddress()),
                  "bench: CreateCommandList");

    const uint32_t maxN = *std::max_element(descriptorsPerDraw.begin(), descriptorsPerDraw.end());
    const uint32_t chunkSize = std::max<uint32_t>(4096, maxN);
    ShaderVisibleHeap heap(device, kType, 1000000, 0, chunkSize);
    DynamicDescriptorHeap ddh(device, heap, nullptr);
    ID3D12DescriptorHeap* heaps[] = {heap.D3D12Heap()};
    list->SetDescriptorHeaps(1, heaps);
    const uint32_t heapLimit = heap.ChunkCount() * chunkSize;  // indices usable by the direct path
    const size_t cpuStart = heap.CpuStart().ptr;
    const uint64_t gpuStart = heap.GpuStart().ptr;
    const uint32_t stride = heap.DescriptorSize();

    std::vector<ComPtr<ID3D12RootSignature>> rootSignatures;
    for (uint32_t n : descriptorsPerDraw) rootSignatures.push_back(TableRootSignature(device, n));

    std::vector<std::vector<double>> commitNs(descriptorsPerDraw.size()), directNs(descriptorsPerDraw.size());
    uint32_t directPos = 0;
    for (uint32_t rep = 0; rep < repeats; ++rep) {
        for (size_t k = 0; k < descriptorsPerDraw.size(); ++k) {
            const uint32_t n = descriptorsPerDraw[k];
            list->SetGraphicsRootSignature(rootSignatures[k].Get());
            ddh.ParseRootSignature({DescriptorTableLayout{0, kType, n}});
            // The dynamic part must not run out inside one timed loop.
            const uint64_t perChunk = chunkSize / n;
            const uint64_t capacityDraws = perChunk * heap.ChunkCount();
            const uint32_t drawsThisRun = static_cast<uint32_t>(std::min<uint64_t>(draws, capacityDraws));

            size_t pick = 0;
            auto t0 = Clock::now();
            for (uint32_t d = 0; d < drawsThisRun; ++d) {
                for (uint32_t i = 0; i < n; ++i) ddh.StageDescriptors(0, i, 1, viewHandles[picks[pick++ & 0xffff]]);
                ddh.CommitStagedDescriptorsForDraw(list.Get());
            }
            auto t1 = Clock::now();
            ddh.Retire(0);
            heap.ReleaseStale(0);
            commitNs[k].push_back(Seconds(t0, t1) * 1e9 / drawsThisRun);

            // The floor: the same copies by hand, into the same heap.
            pick = 0;
            auto t2 = Clock::now();
            for (uint32_t d = 0; d < drawsThisRun; ++d) {
                if (directPos + n > heapLimit) directPos = 0;
                for (uint32_t i = 0; i < n; ++i)
                    device->CopyDescriptorsSimple(1, D3D12_CPU_DESCRIPTOR_HANDLE{cpuStart + size_t(directPos + i) * stride},
                                                  viewHandles[picks[pick++ & 0xffff]], kType);
                list->SetGraphicsRootDescriptorTable(0, D3D12_GPU_DESCRIPTOR_HANDLE{gpuStart + uint64_t(directPos) * stride});
                directPos += n;
            }
            auto t3 = Clock::now();
            directNs[k].push_back(Seconds(t2, t3) * 1e9 / drawsThisRun);
        }
    }
    list->Close();

    std::vector<CommitTiming> out;
    for (size_t k = 0; k < descriptorsPerDraw.size(); ++k) {
        CommitTiming t{};
        t.descriptorsPerDraw = descriptorsPerDraw[k];
        t.draws = draws;
        t.commitNsPerDraw = Median(commitNs[k]);
        t.directNsPerDraw = Median(directNs[k]);
        t.ratio = t.commitNsPerDraw / t.directNsPerDraw;
        out.push_back(t);
    }
    return out;
}

CpuAllocatorTiming MeasureCpuAllocator(ID3D12Device* device, uint32_t pageSize, uint64_t allocations, uint32_t batch, uint32_t count) {
    if (!device) throw InvalidArgument("MeasureCpuAllocator: device is null");
    if (allocations == 0 || batch == 0 || count == 0) throw InvalidArgument("MeasureCpuAllocator: allocations, batch and count must be non-zero");
    std::atomic<uint64_t> serial{0};
    CpuDescriptorAllocator cpu(device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, pageSize, &serial);
    std::vector<DescriptorAllocation> live;
    live.reserve(batch);
    // Warm up: create the pages once.
    for (uint32_t i = 0; i < batch; ++i) live.push_back(cpu.Allocate(count));
    live.clear();
    cpu.ReleaseStaleDescriptors(~uint64_t(0));

    double allocSeconds = 0, freeSeconds = 0;
    uint64_t done = 0;
    while (done < allocations) {
        const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(batch, allocations - done));
        auto t0 = Clock::now();
        for (uint32_t i = 0; i < n; ++i) live.push_back(cpu.Allocate(count));
        auto t1 = Clock::now();
        serial.fetch_add(1, std::memory_order_relaxed);
        live.clear();  // deferred frees
        cpu.ReleaseStaleDescriptors(serial.load(std::memory_order_relaxed));
        auto t2 = Clock::now();
        allocSeconds += Seconds(t0, t1);
        freeSeconds += Seconds(t1, t2);
        done += n;
    }
    CpuAllocatorTiming t{};
    t.allocations = done;
    t.allocationsPerSecond = double(done) / allocSeconds;
    t.freesPerSecond = double(done) / freeSeconds;
    t.pairsPerSecond = double(done) / (allocSeconds + freeSeconds);
    return t;
}

DynamicTiming MeasureDynamicSuballocation(ID3D12Device* device, uint32_t chunkSize, uint64_t suballocations, uint32_t count) {
    if (!device) throw InvalidArgument("MeasureDynamicSuballocation: device is null");
    if (suballocations == 0 || count == 0 || count > chunkSize)
        throw InvalidArgument("MeasureDynamicSuballocation: need suballocations > 0 and 1 <= count <= chunkSize");
    constexpr uint32_t kHeapSize = 65536;
    ShaderVisibleHeap heap(device, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, kHeapSize, 0, chunkSize);
    DynamicDescriptorHeap ddh(device, heap, nullptr);
    const uint64_t perRound = uint64_t(heap.ChunkCount()) * (chunkSize / count);
    uint64_t done = 0, serial = 0;
    volatile uint32_t sink = 0;
    auto t0 = Clock::now();
    while (done < suballocations) {
        const uint64_t n = std::min<uint64_t>(perRound, suballocations - done);
        uint32_t acc = 0;
        for (uint64_t i = 0; i < n; ++i) acc += ddh.AllocateDynamic(count);
        sink = sink + acc;
        ddh.Retire(++serial);       // as after a submission...
        heap.ReleaseStale(serial);  // ...that completed
        done += n;
    }
    auto t1 = Clock::now();
    DynamicTiming t{};
    t.suballocations = done;
    t.suballocationsPerSecond = double(done) / Seconds(t0, t1);
    t.chunksAcquired = ddh.ChunksAcquired();
    return t;
}

StressResult StressCpuAllocator(CpuDescriptorAllocator& allocator, std::atomic<uint64_t>& serial, uint32_t threads, uint32_t iterations,
                                uint32_t maxCount, uint32_t seed) {
    if (threads == 0 || iterations == 0 || maxCount == 0)
        throw InvalidArgument("StressCpuAllocator: threads, iterations and maxCount must be non-zero");
    std::mutex checkMutex;
    std::unordered_set<size_t> live;
    uint64_t duplicates = 0, allocations = 0, peak = 0;
    std::vector<std::exception_ptr> errors(threads);

    auto worker = [&](uint32_t id) {
        try {
            std::mt19937 rng(seed * 7919u + id);
            std::vector<DescriptorAllocation> mine;
            const size_t stride = allocator.DescriptorSize();
            for (uint32_t i = 0; i < iterations; ++i) {
                if (mine.empty() || (mine.size() < 64 && rng() % 3 != 0)) {
                    DescriptorAllocation a = allocator.Allocate(1 + rng() % maxCount);
                    {
                        std::lock_guard<std::mutex> lock(checkMutex);
                        const size_t first = a.Handle(0).ptr;
                        for (uint32_t k = 0; k < a.Count(); ++k)
                            if (!live.insert(first + k * stride).second) ++duplicates;
                        ++allocations;
                        peak = std::max<uint64_t>(peak, live.size());
                    }
                    mine.push_back(std::move(a));
                } else {
                    const size_t j = rng() % mine.size();
                    {
                        std::lock_guard<std::mutex> lock(checkMutex);
                        const size_t first = mine[j].Handle(0).ptr;
                        for (uint32_t k = 0; k < mine[j].Count(); ++k) live.erase(first + k * stride);
                    }
                    std::swap(mine[j], mine.back());
                    mine.pop_back();  // deferred free, outside the checker's lock
                }
                if (i % 64 == 63) {
                    // Plays the device: one more submission, and the one three before it completed.
                    const uint64_t s = serial.fetch_add(1, std::memory_order_acq_rel) + 1;
                    allocator.ReleaseStaleDescriptors(s >= 3 ? s - 3 : 0);
                }
            }
            std::lock_guard<std::mutex> lock(checkMutex);
            for (DescriptorAllocation& a : mine) {
                const size_t first = a.Handle(0).ptr;
                for (uint32_t k = 0; k < a.Count(); ++k) live.erase(first + k * stride);
            }
            mine.clear();
        } catch (...) {
            errors[id] = std::current_exception();
        }
    };
    std::vector<std::thread> pool;
    for (uint32_t t = 0; t < threads; ++t) pool.emplace_back(worker, t);
    for (std::thread& t : pool) t.join();
    for (auto& e : errors)
        if (e) std::rethrow_exception(e);
    return StressResult{allocations, duplicates, peak};
}

}  // namespace dx12kit::bench
