// Vocabulary of the GPU memory layer: heap kinds, resource classes, pool descriptions, statistics.
//
// Heap kinds (what the memory is for):
//   Default   GPU memory (D3D12_HEAP_TYPE_DEFAULT)
//   Upload    CPU-writable, GPU-readable (D3D12_HEAP_TYPE_UPLOAD), persistently mapped
//   Readback  GPU-writable, CPU-readable (D3D12_HEAP_TYPE_READBACK), persistently mapped
//   Custom    CPU-visible memory the GPU may also write (D3D12_HEAP_TYPE_CUSTOM, WRITE_BACK, L0):
//             only on a cache-coherent UMA adapter, where it is the same memory as Default
//
// Resource classes matter on resource heap tier 1, where one heap may hold only buffers, only
// non-render-target/depth textures, or only render-target/depth textures (D3D12_HEAP_FLAG_
// ALLOW_ONLY_*; "Resource Heap Tier" in the D3D12_RESOURCE_HEAP_TIER documentation). On tier 2
// every block holds any class (Any).
//
// Ownership: plain values. Thread-safety: none needed.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace dx12kit::memory {

enum class HeapKind : uint8_t { Default = 0, Upload = 1, Readback = 2, Custom = 3 };
inline constexpr int kHeapKindCount = 4;
const char* HeapKindName(HeapKind kind);

enum class ResourceClass : uint8_t { Any = 0, Buffer = 1, Texture = 2, RtDsTexture = 3 };
const char* ResourceClassName(ResourceClass cls);

enum class PoolAlgorithm : uint8_t { Tlsf = 0, Linear = 1 };

/// What a pool is made of. blockSize 0 = the device's preferred block size, grown as D3D12MA does
/// (new blocks start at 1/8, 1/4, 1/2 of it while the pool is small); a nonzero size is fixed.
struct PoolDesc {
    HeapKind heap = HeapKind::Default;
    uint64_t blockSize = 0;
    uint32_t minBlocks = 0;  ///< created up front and never released
    uint32_t maxBlocks = 0;  ///< 0 = no limit
    PoolAlgorithm algorithm = PoolAlgorithm::Tlsf;
    std::string name;
};

/// D3D12MA's DetailedStatistics, in bytes. A committed resource counts as one block holding one
/// allocation. Min fields are UINT64_MAX and max fields 0 when there is nothing to measure.
struct MemoryStats {
    uint64_t blockCount = 0;
    uint64_t blockBytes = 0;
    uint64_t allocationCount = 0;
    uint64_t allocationBytes = 0;
    uint64_t unusedRangeCount = 0;
    uint64_t allocationSizeMin = std::numeric_limits<uint64_t>::max();
    uint64_t allocationSizeMax = 0;
    uint64_t unusedRangeSizeMin = std::numeric_limits<uint64_t>::max();
    uint64_t unusedRangeSizeMax = 0;

    void AddAllocation(uint64_t size) {
        ++allocationCount;
        allocationBytes += size;
        if (size < allocationSizeMin) allocationSizeMin = size;
        if (size > allocationSizeMax) allocationSizeMax = size;
    }
    void AddUnusedRange(uint64_t size) {
        ++unusedRangeCount;
        if (size < unusedRangeSizeMin) unusedRangeSizeMin = size;
        if (size > unusedRangeSizeMax) unusedRangeSizeMax = size;
    }
    void Add(const MemoryStats& o) {
        blockCount += o.blockCount;
        blockBytes += o.blockBytes;
        allocationCount += o.allocationCount;
        allocationBytes += o.allocationBytes;
        unusedRangeCount += o.unusedRangeCount;
        if (o.allocationSizeMin < allocationSizeMin) allocationSizeMin = o.allocationSizeMin;
        if (o.allocationSizeMax > allocationSizeMax) allocationSizeMax = o.allocationSizeMax;
        if (o.unusedRangeSizeMin < unusedRangeSizeMin) unusedRangeSizeMin = o.unusedRangeSizeMin;
        if (o.unusedRangeSizeMax > unusedRangeSizeMax) unusedRangeSizeMax = o.unusedRangeSizeMax;
    }
};

/// What an allocation holds, for statistics, the JSON dump and the heap map.
enum class AllocationKind : uint8_t { Buffer = 0, Texture = 1, RenderTarget = 2, DepthStencil = 3, UploadPage = 4, Memory = 5 };
const char* AllocationKindName(AllocationKind kind);

}  // namespace dx12kit::memory
