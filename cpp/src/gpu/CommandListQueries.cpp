// CommandList: queries (BeginQuery / EndQuery / ResolveQueryData) and predication (SetPredication),
// with D3D12's rules (dx12kit/gpu/QueryHeap.hpp) and, where the backend falls short
// (platform::QuerySupport), the built-in 0/1 pass (cpp/src/builtin/QueryToBinary.hlsl):
//  - binary occlusion resolved by vkd3d 1.2 gives sample counts: they are resolved into a scratch
//    buffer, made 0/1 there, and copied to the destination;
//  - vkd3d 1.2 predicates on the low 32 bits of the value: the 64-bit value is copied into a scratch
//    buffer at SetPredication, made 0/1 there, and the list predicates on that.
// The pass is one dispatch recorded natively (no predicate on it); the user's pipeline is bound again
// afterwards. A compute root signature the user bound is set again too, which clears its root
// arguments in D3D12's terms: they must be set again before the next dispatch (it raises otherwise).
#include "dx12kit/gpu/CommandList.hpp"

#include "../builtin/QueryToBinary.generated.hpp"
#include "dx12kit/base/Errors.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/resources/D3D12Rules.hpp"

#include <iterator>
#include <string>

namespace dx12kit {

namespace {

constexpr uint32_t kRootCount = 0, kRootValues = 1;

std::shared_ptr<PipelineState> MakeBinaryPipeline(const std::shared_ptr<DeviceContext>& core) {
    std::vector<RootParameterDesc> params(2);
    params[kRootCount].kind = RootParamKind::Constants;
    params[kRootCount].num32BitValues = 1;
    params[kRootValues].kind = RootParamKind::Uav;
    auto rs = std::make_shared<RootSignature>(core, std::move(params), std::vector<StaticSamplerDesc>{}, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    rs->SetName("dx12kit query_to_binary");
    const std::vector<uint8_t> cs(std::begin(builtin::QueryToBinary), std::end(builtin::QueryToBinary));
    auto pso = std::make_shared<PipelineState>(core, cs, std::move(rs));
    pso->SetName("dx12kit query_to_binary");
    return pso;
}

std::string QueryName(const QueryHeap& heap, D3D12_QUERY_TYPE type, uint32_t index) {
    return std::string(queryrules::QueryTypeName(type)) + " query " + std::to_string(index) + " of query heap '" + heap.Name() + "'";
}

}  // namespace

void CommandList::KeepHeap(const std::shared_ptr<QueryHeap>& heap, const char* what) {
    if (!heap) throw InvalidArgument(std::string(what) + ": heap is None");
    if (&heap->Context() != m_Context.get())
        throw InvalidArgument(std::string(what) + ": query heap '" + heap->Name() + "' belongs to another device");
    if (heap.get() == m_LastKeptHeap) return;
    m_Tracked.push_back(heap);  // alive until the list's work completes (Retire)
    m_LastKeptHeap = heap.get();
}

static void CheckListType(D3D12_COMMAND_LIST_TYPE list, const QueryHeap& heap, D3D12_QUERY_TYPE type, const char* what) {
    if (const char* why = queryrules::ListRefusal(list, heap.Type(), type))
        throw InvalidArgument(std::string(what) + ": " + queryrules::QueryTypeName(type) + " query in heap '" + heap.Name() + "' on a " +
                              d3d12rules::QueueTypeName(list) + "-queue list: " + why);
}

void CommandList::BeginQuery(const std::shared_ptr<QueryHeap>& heap, D3D12_QUERY_TYPE type, uint32_t index) {
    const char* what = "begin_query";
    const auto recording = Begin(what);
    KeepHeap(heap, what);
    heap->CheckRange(type, index, 1, what);
    if (type == D3D12_QUERY_TYPE_TIMESTAMP)
        throw InvalidArgument("begin_query: timestamps are not begun; end_query(heap, 'timestamp', index) writes one (D3D12 EndQuery)");
    CheckListType(m_Queue->Type(), *heap, type, what);
    for (const ActiveQuery& q : m_ActiveQueries)
        if (q.heap == heap.get() && q.index == index)
            throw InvalidArgument("begin_query: " + QueryName(*heap, q.type, index) + " is already active (begun and not ended); end it first");
    m_ActiveQueries.push_back(ActiveQuery{heap.get(), index, type});
    m_d3d12List->BeginQuery(heap->D3D12Heap(), type, index);
}

void CommandList::EndQuery(const std::shared_ptr<QueryHeap>& heap, D3D12_QUERY_TYPE type, uint32_t index) {
    const char* what = "end_query";
    const auto recording = Begin(what);
    KeepHeap(heap, what);
    heap->CheckRange(type, index, 1, what);
    CheckListType(m_Queue->Type(), *heap, type, what);
    if (type != D3D12_QUERY_TYPE_TIMESTAMP) {
        auto it = m_ActiveQueries.begin();
        while (it != m_ActiveQueries.end() && !(it->heap == heap.get() && it->index == index)) ++it;
        if (it == m_ActiveQueries.end())
            throw InvalidArgument("end_query: " + QueryName(*heap, type, index) +
                                  " was not begun in this command list (D3D12: begin_query and "
                                  "end_query of a query go in the same list, in that order)");
        if (it->type != type)
            throw InvalidArgument("end_query: " + QueryName(*heap, it->type, index) + " was begun as '" + queryrules::QueryTypeName(it->type) +
                                  "' and is ended as '" + queryrules::QueryTypeName(type) + "'");
        m_ActiveQueries.erase(it);
    }
    m_d3d12List->EndQuery(heap->D3D12Heap(), type, index);
}

void CommandList::CheckQueriesEnded(const char* what) const {
    if (m_ActiveQueries.empty()) return;
    const ActiveQuery& q = m_ActiveQueries.front();
    throw InvalidArgument(std::string(what) + ": " + QueryName(*q.heap, q.type, q.index) + " was begun in command list '" + m_Name +
                          "' and not ended; call end_query before executing the list");
}

std::shared_ptr<Resource> CommandList::PassScratch(uint64_t bytes, const char* what) {
    std::shared_ptr<Resource> scratch = m_Device->CreateBuffer(bytes, true, D3D12_HEAP_TYPE_DEFAULT, std::string("dx12kit ") + what + " scratch");
    CheckSameDevice(*scratch, what);
    NoteFullWrite(*scratch, true);  // written before it is read: no zeroing
    m_Tracked.push_back(scratch);
    return scratch;
}

void CommandList::BinaryPass(const std::shared_ptr<Resource>& scratch, uint32_t count, const char* what) {
    auto pso = std::static_pointer_cast<PipelineState>(
        m_Device->BuiltinObject("QueryToBinary", [this] { return std::static_pointer_cast<void>(MakeBinaryPipeline(m_Context)); }));
    m_Tracker.Transition(scratch, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    Flush();
    ID3D12GraphicsCommandList* l = m_d3d12List.Get();
    if (m_NativePredicate) l->SetPredication(nullptr, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
    l->SetComputeRootSignature(pso->GetRootSignature()->D3D12RootSignature());
    l->SetPipelineState(pso->D3D12PipelineState());
    l->SetComputeRoot32BitConstant(kRootCount, count, 0);
    l->SetComputeRootUnorderedAccessView(kRootValues, scratch->GpuAddress());
    l->Dispatch((count + 63) / 64, 1, 1);
    // Back to what the user recorded.
    if (m_NativePredicate) l->SetPredication(m_NativePredicate, m_NativePredicateOffset, m_NativePredicateOp);
    if (m_Pipeline) l->SetPipelineState(m_Pipeline->D3D12PipelineState());
    if (m_Compute && m_RootSignature) {
        l->SetComputeRootSignature(m_RootSignature->D3D12RootSignature());
        m_ViewDescriptors.ParseRootSignature(m_RootSignature->Tables());
        m_SamplerDescriptors.ParseRootSignature(m_RootSignature->Tables());
        ForgetRootArguments(what);
    }
}

void CommandList::ResolveQueryData(const std::shared_ptr<QueryHeap>& heap, D3D12_QUERY_TYPE type, uint32_t start, uint32_t count,
                                   const std::shared_ptr<Resource>& dst, uint64_t offset) {
    const char* what = "resolve_query_data";
    const auto recording = Begin(what);
    KeepHeap(heap, what);
    if (!dst) throw InvalidArgument("resolve_query_data: buffer is None");
    if (count == 0) throw InvalidArgument("resolve_query_data: count must be at least 1");
    heap->CheckRange(type, start, count, what);
    CheckListType(m_Queue->Type(), *heap, type, what);
    CheckSameDevice(*dst, what);
    if (!dst->IsBuffer()) throw InvalidArgument("resolve_query_data: resource '" + dst->Name() + "' is a texture; results go into a buffer");
    CheckCopyDest(*dst, what);
    if (offset % 8)
        throw InvalidArgument("resolve_query_data: offset " + std::to_string(offset) +
                              " is not a multiple of 8 (D3D12 ResolveQueryData's AlignedDestinationBufferOffset)");
    const uint64_t bytes = uint64_t(count) * queryrules::ResultBytes(type);
    if (offset > dst->Size() || bytes > dst->Size() - offset)
        throw InvalidArgument("resolve_query_data: " + std::to_string(count) + " " + queryrules::QueryTypeName(type) + " results (" +
                              std::to_string(bytes) + " bytes) at offset " + std::to_string(offset) + " do not fit buffer '" + dst->Name() + "' of " +
                              std::to_string(dst->Size()) + " bytes");
    for (const ActiveQuery& q : m_ActiveQueries)
        if (q.heap == heap.get() && q.index >= start && q.index - start < count)
            throw InvalidArgument("resolve_query_data: " + QueryName(*heap, q.type, q.index) +
                                  " is still active; call end_query before resolving it");
    if (type == D3D12_QUERY_TYPE_BINARY_OCCLUSION && !m_Context->Queries().binaryOcclusion01) {
        auto scratch = PassScratch(bytes, what);
        m_Tracker.Transition(scratch, D3D12_RESOURCE_STATE_COPY_DEST);
        Flush();
        m_d3d12List->ResolveQueryData(heap->D3D12Heap(), type, start, count, scratch->D3D12Resource(), 0);
        BinaryPass(scratch, count, what);
        m_Tracker.Transition(scratch, D3D12_RESOURCE_STATE_COPY_SOURCE);
        m_Tracker.Transition(dst, D3D12_RESOURCE_STATE_COPY_DEST);
        Flush();
        if (m_Validate) ValidateResource(what, dst.get());
        m_d3d12List->CopyBufferRegion(dst->D3D12Resource(), offset, scratch->D3D12Resource(), 0, bytes);
        return;
    }
    m_Tracker.Transition(dst, D3D12_RESOURCE_STATE_COPY_DEST);
    Flush();
    if (m_Validate) ValidateResource(what, dst.get());
    m_d3d12List->ResolveQueryData(heap->D3D12Heap(), type, start, count, dst->D3D12Resource(), offset);
}

void CommandList::SetPredication(const std::shared_ptr<Resource>& buffer, uint64_t offset, D3D12_PREDICATION_OP op) {
    const char* what = "set_predication";
    const auto recording = Begin(what);
    if (m_Queue->Type() == D3D12_COMMAND_LIST_TYPE_COPY)
        throw InvalidArgument("set_predication: a copy-queue list cannot be predicated (use a direct or compute queue)");
    if (!buffer) {
        if (m_NativePredicate) m_d3d12List->SetPredication(nullptr, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
        m_NativePredicate = nullptr;
        m_Predicate.reset();
        return;
    }
    CheckSameDevice(*buffer, what);
    if (!buffer->IsBuffer())
        throw InvalidArgument("set_predication: resource '" + buffer->Name() + "' is a texture; predicates are read from buffers");
    if (op != D3D12_PREDICATION_OP_EQUAL_ZERO && op != D3D12_PREDICATION_OP_NOT_EQUAL_ZERO)
        throw InvalidArgument("set_predication: op must be 'equal_zero' or 'not_equal_zero'");
    if (offset % 8)
        throw InvalidArgument("set_predication: offset " + std::to_string(offset) +
                              " is not a multiple of 8 (D3D12 SetPredication's AlignedBufferOffset)");
    if (offset > buffer->Size() || 8 > buffer->Size() - offset)
        throw InvalidArgument("set_predication: the 8-byte predicate at offset " + std::to_string(offset) + " does not fit buffer '" +
                              buffer->Name() + "' of " + std::to_string(buffer->Size()) + " bytes");
    if (!m_Context->Queries().predicate64) {
        // The value, read here, made 0/1 in a scratch buffer that the list predicates on.
        if (m_NativePredicate) m_d3d12List->SetPredication(nullptr, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
        m_NativePredicate = nullptr;
        m_Predicate.reset();
        auto scratch = PassScratch(8, what);
        m_Tracker.Transition(buffer, D3D12_RESOURCE_STATE_COPY_SOURCE);
        m_Tracker.Transition(scratch, D3D12_RESOURCE_STATE_COPY_DEST);
        Flush();
        if (m_Validate) ValidateResource(what, buffer.get());
        m_d3d12List->CopyBufferRegion(scratch->D3D12Resource(), 0, buffer->D3D12Resource(), offset, 8);
        BinaryPass(scratch, 1, what);
        // Only the scratch buffer is the predicate D3D12 reads (PREDICATION); the user's buffer was a
        // copy source and stays one (no barrier back before its next write).
        m_Tracker.Transition(scratch, D3D12_RESOURCE_STATE_PREDICATION);
        Flush();
        m_NativePredicate = scratch->D3D12Resource();
        m_NativePredicateOffset = 0;
    } else {
        m_Tracker.Transition(buffer, D3D12_RESOURCE_STATE_PREDICATION);
        Flush();
        if (m_Validate) ValidateResource(what, buffer.get());
        m_NativePredicate = buffer->D3D12Resource();
        m_NativePredicateOffset = offset;
    }
    m_NativePredicateOp = op;
    m_d3d12List->SetPredication(m_NativePredicate, m_NativePredicateOffset, op);
    m_Predicate = buffer;
}

void CommandList::RefuseUnpredicated(const char* what) const {
    throw InvalidArgument(std::string(what) +
                          ": a predicate is set on this list (set_predication), and this device does not predicate copies, "
                          "clears or resolves (vkd3d 1.2 runs them whatever the predicate, where D3D12 would skip them); call "
                          "set_predication(None) first, or predicate only draws and dispatches");
}

}  // namespace dx12kit
