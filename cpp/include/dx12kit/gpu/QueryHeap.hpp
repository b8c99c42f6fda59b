// QueryHeap: an ID3D12QueryHeap, and D3D12's rules for the queries recorded into it.
//
// Kinds (D3D12_QUERY_HEAP_TYPE): OCCLUSION heaps hold OCCLUSION and BINARY_OCCLUSION queries,
// TIMESTAMP heaps TIMESTAMP queries, PIPELINE_STATISTICS heaps PIPELINE_STATISTICS queries,
// COPY_QUEUE_TIMESTAMP heaps the TIMESTAMP queries of copy lists (only those).
//
// The rules (Microsoft Direct3D 12 documentation: "ID3D12GraphicsCommandList::BeginQuery",
// "EndQuery", "ResolveQueryData", "D3D12_QUERY_HEAP_TYPE", "Timing"), checked by CommandList:
//  1. An index is below the heap's count; the query type belongs to the heap's type (above).
//  2. Per list type: occlusion and binary occlusion on direct lists; timestamps on direct and
//     compute lists, and on copy lists into COPY_QUEUE_TIMESTAMP heaps (when the device supports
//     them); pipeline statistics on direct and compute lists. ResolveQueryData follows the same table.
//  3. Timestamps have no BeginQuery: EndQuery alone samples the counter.
//  4. Other queries are begun and ended in the same list, in that order; a query is not begun again
//     while active; every query a list began is ended before the list is executed; a query is not
//     resolved while active.
//  5. ResolveQueryData's destination offset is a multiple of 8; the results (8 bytes per query,
//     sizeof(D3D12_QUERY_DATA_PIPELINE_STATISTICS) = 88 for pipeline statistics) fit the buffer,
//     which is in COPY_DEST (the state tracker moves it there).
#pragma once

#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace dx12kit {

class DeviceContext;

/// vkd3d 1.2's headers stop before D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP (5).
/// A D3D12_QUERY_HEAP_TYPE value as a plain integer: vkd3d's enum ends at SO_STATISTICS (3), so the
/// value 5 held in that enum type would be undefined behaviour (UBSan: "not a valid value").
using QueryHeapType = uint32_t;
inline constexpr QueryHeapType kCopyQueueTimestampHeap = 5;

namespace queryrules {
/// "occlusion", "binary_occlusion", "timestamp", "pipeline_statistics" (the Python names).
const char* QueryTypeName(D3D12_QUERY_TYPE type);
/// "occlusion", "timestamp", "pipeline_statistics", "copy_queue_timestamp".
const char* HeapTypeName(QueryHeapType type);
/// Rule 1: may a heap of `heap` hold queries of `type`?
bool HeapHolds(QueryHeapType heap, D3D12_QUERY_TYPE type);
/// Rule 2: nullptr when a list of `list` may record (or resolve) queries of `type` in a heap of
/// `heap`, else why not.
const char* ListRefusal(D3D12_COMMAND_LIST_TYPE list, QueryHeapType heap, D3D12_QUERY_TYPE type);
/// Bytes one resolved query takes (rule 5).
uint64_t ResultBytes(D3D12_QUERY_TYPE type);
}  // namespace queryrules

class QueryHeap {
public:
    /// InvalidArgument for a count of 0 or a kind the device cannot create (copy-queue timestamps on
    /// vkd3d 1.2: platform::QuerySupport::copyQueueTimestamps).
    QueryHeap(std::shared_ptr<DeviceContext> core, QueryHeapType type, uint32_t count);
    QueryHeap(const QueryHeap&) = delete;
    QueryHeap& operator=(const QueryHeap&) = delete;

    ID3D12QueryHeap* D3D12Heap() const { return m_Heap.Get(); }
    const DeviceContext& Context() const { return *m_Context; }
    QueryHeapType Type() const { return m_Type; }
    uint32_t Count() const { return m_Count; }
    const std::string& Name() const { return m_Name; }
    void SetName(std::string name);

    /// Rule 1 for [start, start + count) and `type` (InvalidArgument naming `what`).
    void CheckRange(D3D12_QUERY_TYPE type, uint32_t start, uint32_t count, const char* what) const;

private:
    std::shared_ptr<DeviceContext> m_Context;
    ComPtr<ID3D12QueryHeap> m_Heap;
    QueryHeapType m_Type;
    uint32_t m_Count;
    std::string m_Name = "query heap";
};

}  // namespace dx12kit
