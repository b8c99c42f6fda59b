#include "dx12kit/gpu/QueryHeap.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/DeviceContext.hpp"
#include "dx12kit/platform/HResult.hpp"

#include <string>

namespace dx12kit {

namespace queryrules {

const char* QueryTypeName(D3D12_QUERY_TYPE type) {
    switch (type) {
        case D3D12_QUERY_TYPE_OCCLUSION: return "occlusion";
        case D3D12_QUERY_TYPE_BINARY_OCCLUSION: return "binary_occlusion";
        case D3D12_QUERY_TYPE_TIMESTAMP: return "timestamp";
        case D3D12_QUERY_TYPE_PIPELINE_STATISTICS: return "pipeline_statistics";
        default: return "unsupported query type";
    }
}

const char* HeapTypeName(QueryHeapType type) {
    switch (static_cast<int>(type)) {
        case D3D12_QUERY_HEAP_TYPE_OCCLUSION: return "occlusion";
        case D3D12_QUERY_HEAP_TYPE_TIMESTAMP: return "timestamp";
        case D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS: return "pipeline_statistics";
        case 5: return "copy_queue_timestamp";
        default: return "unsupported query heap type";
    }
}

bool HeapHolds(QueryHeapType heap, D3D12_QUERY_TYPE type) {
    switch (type) {
        case D3D12_QUERY_TYPE_OCCLUSION:
        case D3D12_QUERY_TYPE_BINARY_OCCLUSION: return heap == D3D12_QUERY_HEAP_TYPE_OCCLUSION;
        case D3D12_QUERY_TYPE_TIMESTAMP: return heap == D3D12_QUERY_HEAP_TYPE_TIMESTAMP || heap == kCopyQueueTimestampHeap;
        case D3D12_QUERY_TYPE_PIPELINE_STATISTICS: return heap == D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS;
        default: return false;
    }
}

const char* ListRefusal(D3D12_COMMAND_LIST_TYPE list, QueryHeapType heap, D3D12_QUERY_TYPE type) {
    if (list == D3D12_COMMAND_LIST_TYPE_COPY) {
        if (heap == kCopyQueueTimestampHeap) return nullptr;
        return type == D3D12_QUERY_TYPE_TIMESTAMP ? "a copy-queue list writes timestamps only into a 'copy_queue_timestamp' heap"
                                                  : "a copy-queue list records only timestamp queries";
    }
    if (heap == kCopyQueueTimestampHeap) return "a 'copy_queue_timestamp' heap takes timestamps of copy-queue lists only";
    if (list == D3D12_COMMAND_LIST_TYPE_COMPUTE && (type == D3D12_QUERY_TYPE_OCCLUSION || type == D3D12_QUERY_TYPE_BINARY_OCCLUSION))
        return "occlusion queries are recorded on direct-queue lists only";
    return nullptr;
}

uint64_t ResultBytes(D3D12_QUERY_TYPE type) {
    return type == D3D12_QUERY_TYPE_PIPELINE_STATISTICS ? sizeof(D3D12_QUERY_DATA_PIPELINE_STATISTICS) : 8;
}

}  // namespace queryrules

QueryHeap::QueryHeap(std::shared_ptr<DeviceContext> core, QueryHeapType type, uint32_t count)
    : m_Context(std::move(core)), m_Type(type), m_Count(count) {
    if (count == 0) throw InvalidArgument("create_query_heap: count must be at least 1");
    if (type == kCopyQueueTimestampHeap && !m_Context->Queries().copyQueueTimestamps)
        throw InvalidArgument(
            "create_query_heap: this device cannot time copy-queue lists ('copy_queue_timestamp' heaps: vkd3d 1.2 "
            "reports CopyQueueTimestampQueriesSupported but refuses to create the heap); write the timestamps "
            "on a direct or compute list around the copy queue's work instead");
    D3D12_QUERY_HEAP_DESC d{};
    d.Type = static_cast<D3D12_QUERY_HEAP_TYPE>(type);
    d.Count = count;
    ThrowIfFailed(m_Context->D3D12Device()->CreateQueryHeap(&d, IID_ID3D12QueryHeap, m_Heap.ReleaseAndGetVoidAddress()), "CreateQueryHeap");
}

void QueryHeap::SetName(std::string name) {
    m_Name = std::move(name);
    const std::wstring wide(m_Name.begin(), m_Name.end());
    m_Heap->SetName(wide.c_str());
}

void QueryHeap::CheckRange(D3D12_QUERY_TYPE type, uint32_t start, uint32_t count, const char* what) const {
    if (!queryrules::HeapHolds(m_Type, type))
        throw InvalidArgument(std::string(what) + ": kind '" + queryrules::QueryTypeName(type) + "' does not belong in query heap '" + m_Name +
                              "' of kind '" + queryrules::HeapTypeName(m_Type) +
                              "' (occlusion heaps hold 'occlusion' and "
                              "'binary_occlusion' queries, timestamp heaps 'timestamp', pipeline_statistics heaps 'pipeline_statistics')");
    if (start >= m_Count || count > m_Count - start)
        throw InvalidArgument(std::string(what) + ": queries [" + std::to_string(start) + ", " + std::to_string(uint64_t(start) + count) +
                              ") out of range of query heap '" + m_Name + "' of " + std::to_string(m_Count) + " queries");
}

}  // namespace dx12kit
