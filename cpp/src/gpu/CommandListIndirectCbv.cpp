// CommandList::ExecuteIndirect of a draw signature that changes root CBVs, where the backend ignores
// root arguments (vkd3d 1.2: "Ignoring unhandled argument type"; CommandSignature::EmulatesCbvs).
// D3D12's result is made on the GPU, never by reading anything back on the CPU:
//  1. the built-in pass (cpp/src/builtin/ExpandIndirectCbv.hlsl), one group per command, reads the
//     argument buffer and the count, and writes into a scratch buffer of this list: per command a
//     draw-only argument record and a count of 1 (below the count, addresses valid) or 0; per command
//     and CBV argument a 256-byte-aligned staging slot holding the constant data its address points
//     at. SM5 cannot dereference an address, so the pass reads the buffers the user names in
//     `referenced` (at most 8; root SRVs with their base address and size in the pass's table). The
//     bytes staged per CBV argument are the cbuffer size the bound pipeline's reflection gives for
//     that root parameter (zeros past the end of the buffer);
//  2. per command, the list sets each root CBV to the command's staging slot and records
//     ExecuteIndirect(draw-only signature, 1, its record, its count): what vkd3d runs right.
// An address in no referenced buffer or not 256-byte aligned (set_root_cbv's rule): that command
// does not draw, and the pass records the lowest such command in the scratch buffer; a copy of it
// in a READBACK buffer is read when the list's fence is reached (FenceChecks.hpp), and the device's
// next wait or read (any queue, or Device::WaitIdle) raises InvalidArgument naming the command. The
// scratch and READBACK buffers come from the device's PassBufferPool (back once the work completed),
// the pass's pipeline from Device::BuiltinFast (no lookup by name, no mutex after the first call).
// States: the argument and count buffers go to INDIRECT_ARGUMENT | NON_PIXEL_SHADER_RESOURCE (D3D12's
// state, and the pass's), the referenced buffers to VERTEX_AND_CONSTANT_BUFFER | NON_PIXEL_SHADER_RESOURCE
// (upload-heap ones stay GENERIC_READ), the scratch buffer to UNORDERED_ACCESS for the pass and to
// INDIRECT_ARGUMENT | VERTEX_AND_CONSTANT_BUFFER | COPY_SOURCE for the draws (the transition orders
// the pass's writes before the reads). The pass uses root descriptors only (no descriptor heap change),
// binds the compute root signature (the graphics one and its arguments stay), and the user's pipeline
// is bound again after it. After the call the signature's root CBVs count as unset, as D3D12 leaves
// them NULL (NullIndirectRootViews).
#include "dx12kit/gpu/CommandList.hpp"

#include "../builtin/ExpandIndirectCbv.generated.hpp"
#include "dx12kit/base/Errors.hpp"
#include "dx12kit/gpu/Bundle.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/CommandSignature.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/gpu/FenceChecks.hpp"
#include "dx12kit/gpu/PassBuffers.hpp"
#include "dx12kit/gpu/RootSignatureCheck.hpp"
#include "dx12kit/resources/ResourceState.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>

namespace dx12kit {

namespace {

constexpr uint32_t kMaxReferenced = 8;
constexpr uint32_t kRootTable = 0, kRootScratch = 1, kRootArgs = 2, kRootCount = 3, kRootFirstBuffer = 4;
constexpr uint64_t kDrawRecords = 256;  // scratch: [0, 8) the error words, draw records from here

// The pass's cbuffer Table (ExpandIndirectCbv.hlsl).
struct Table {
    uint32_t head[4];   // maxCount, command stride in words, has a count buffer, CBV arguments
    uint32_t where[4];  // the draw argument's word, referenced buffers, slot words, staging's first word
    uint32_t dest[4];   // draw records' first word, counts' first word, groups in x, 0
    uint32_t cand[kMaxReferenced][4];
    uint32_t cbv[CommandSignature::kMaxEmulatedCbvs][4];
};

std::shared_ptr<PipelineState> MakeExpandPipeline(const std::shared_ptr<DeviceContext>& core) {
    std::vector<RootParameterDesc> params(kRootFirstBuffer + kMaxReferenced);
    params[kRootTable].kind = RootParamKind::Cbv;
    params[kRootScratch].kind = RootParamKind::Uav;
    for (uint32_t i = kRootArgs; i < params.size(); ++i) {
        params[i].kind = RootParamKind::Srv;
        params[i].shaderRegister = i - kRootArgs;
    }
    auto rs = std::make_shared<RootSignature>(core, std::move(params), std::vector<StaticSamplerDesc>{}, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    rs->SetName("dx12kit expand_indirect_cbv");
    const std::vector<uint8_t> cs(std::begin(builtin::ExpandIndirectCbv), std::end(builtin::ExpandIndirectCbv));
    auto pso = std::make_shared<PipelineState>(core, cs, std::move(rs));
    pso->SetName("dx12kit expand_indirect_cbv");
    return pso;
}

}  // namespace

void CommandList::CheckReferenced(const CommandSignature& signature, const std::vector<std::shared_ptr<Resource>>& referenced,
                                  const char* what) const {
    const std::string head = std::string(what) + ": ";
    const D3D12_RESOURCE_STATES want = signature.ReferencedStates();  // indirectrules::ReferencedState, the rule
    if (want == D3D12_RESOURCE_STATE_COMMON) {
        if (!referenced.empty())
            throw InvalidArgument(head +
                                  "referenced= names the buffers the commands' vertex/index buffer views and root CBV/SRV/UAV addresses point "
                                  "into, but command signature '" +
                                  signature.Name() + "' sets none of them; leave it empty");
        return;
    }
    if (referenced.empty() && !signature.CbvRootIndices().empty())
        throw InvalidArgument(
            head + "command signature '" + signature.Name() +
            "' changes root CBVs per command; pass referenced=[the buffers their addresses point into] (D3D12 "
            "wants them in VERTEX_AND_CONSTANT_BUFFER, which dx12kit sees to" +
            (signature.EmulatesCbvs() ? std::string(", and the emulation of root CBV arguments reads them there)") : std::string(")")));
    if (signature.EmulatesCbvs() && referenced.size() > kMaxReferenced)
        throw InvalidArgument(head + "referenced= holds " + std::to_string(referenced.size()) +
                              " buffers; the emulation of root CBV arguments on " DX12KIT_BACKEND_NAME " reads at most " +
                              std::to_string(kMaxReferenced) + ": keep the constant data in fewer buffers");
    const bool writes = (want & D3D12_RESOURCE_STATE_UNORDERED_ACCESS) != 0;
    for (size_t i = 0; i < referenced.size(); ++i) {
        const auto& r = referenced[i];
        const std::string which = head + "referenced[" + std::to_string(i) + "] ";
        if (!r) throw InvalidArgument(which + "is None");
        CheckSameDevice(*r, what);
        if (!r->IsBuffer())
            throw InvalidArgument(which + "'" + r->Name() + "' is a texture; the commands' views and root addresses point into buffers");
        if (writes && want != D3D12_RESOURCE_STATE_UNORDERED_ACCESS)
            throw InvalidArgument(which + NamedBuffer(*r) + " would be written through the root UAV arguments of command signature '" +
                                  signature.Name() + "' (UNORDERED_ACCESS) and read through its other arguments (" +
                                  StateName(D3D12_RESOURCE_STATES(want & ~D3D12_RESOURCE_STATE_UNORDERED_ACCESS)) +
                                  ") in one call, and dx12kit cannot tell which: D3D12 holds a buffer in one state per call, and UNORDERED_ACCESS "
                                  "combines with no read state. Give the written buffers' root UAVs a signature of their own, or move the "
                                  "buffers with transition_barrier and leave them out of referenced=");
        if (r->HeapType() == D3D12_HEAP_TYPE_READBACK)
            throw InvalidArgument(which + NamedBuffer(*r) + " is in a readback heap, which the commands cannot use in " + StateName(want));
        if (writes && r->HeapType() == D3D12_HEAP_TYPE_UPLOAD)
            throw InvalidArgument(which + NamedBuffer(*r) +
                                  " is in an upload heap (always GENERIC_READ), which the commands cannot write through a root UAV; use a "
                                  "default-heap buffer");
    }
}

void CommandList::ExecuteIndirectCbvs(const CommandSignature& signature, uint32_t maxCount, const std::shared_ptr<Resource>& arguments,
                                      uint64_t argumentOffset, const std::shared_ptr<Resource>& count, uint64_t countOffset,
                                      const std::vector<std::shared_ptr<Resource>>& referenced) {
    const char* what = "execute_indirect";
    const std::vector<uint32_t>& roots = signature.CbvRootIndices();
    const uint32_t cbvs = static_cast<uint32_t>(roots.size());
    // What each CBV argument stages: the bytes the bound pipeline's cbuffer at that root CBV spans.
    Table t{};
    uint32_t slotBytes = 256;
    for (uint32_t j = 0; j < cbvs; ++j) {
        auto it = m_Pipeline->RootUse().cbuffers.find((uint64_t(roots[j]) << 32) | 0xFFFFFFFFu);
        const uint32_t bytes = it == m_Pipeline->RootUse().cbuffers.end() ? 0 : std::min<uint32_t>(it->second.cbufferSize, 65536);
        t.cbv[j][0] = signature.CbvOffsets()[j] / 4;
        t.cbv[j][1] = (bytes + 3) / 4;
        slotBytes = std::max(slotBytes, (bytes + 255) / 256 * 256);
    }
    const uint64_t countsAt = kDrawRecords + uint64_t(maxCount) * sizeof(D3D12_DRAW_ARGUMENTS);
    const uint64_t stagingAt = (countsAt + uint64_t(maxCount) * 4 + 255) / 256 * 256;
    const uint64_t scratchBytes = stagingAt + uint64_t(maxCount) * cbvs * slotBytes;
    if (stagingAt / 4 > UINT32_MAX || scratchBytes / 4 > UINT32_MAX)
        throw InvalidArgument("execute_indirect: max_count=" + std::to_string(maxCount) +
                              " is too large for the emulation of root CBV arguments on " + DX12KIT_BACKEND_NAME + " (its staging would take " +
                              std::to_string(scratchBytes) + " bytes); lower max_count");
    const uint32_t groupsX = std::min<uint32_t>(maxCount, 65535), groupsY = (maxCount + 65534) / 65535;
    const uint32_t head[4] = {maxCount, signature.ByteStride() / 4, count ? 1u : 0u, cbvs};
    const uint32_t where[4] = {signature.WorkOffset() / 4, uint32_t(referenced.size()), slotBytes / 4, uint32_t(stagingAt / 4)};
    const uint32_t dest[4] = {uint32_t(kDrawRecords / 4), uint32_t(countsAt / 4), groupsX, 0};
    std::memcpy(t.head, head, sizeof head);
    std::memcpy(t.where, where, sizeof where);
    std::memcpy(t.dest, dest, sizeof dest);
    for (size_t c = 0; c < referenced.size(); ++c) {
        const uint64_t base = referenced[c]->GpuAddress();
        t.cand[c][0] = uint32_t(base);
        t.cand[c][1] = uint32_t(base >> 32);
        t.cand[c][2] = uint32_t(std::min<uint64_t>(referenced[c]->Size(), UINT32_MAX) & ~3u);
    }
    // The table, then 16 zero bytes for the scratch's error words.
    UploadAllocation up = AllocateUpload(sizeof(Table) + 16, 256);
    std::memcpy(up.cpu, &t, sizeof t);
    std::memset(up.cpu + sizeof t, 0, 16);

    // Both from the device's pool (PassBuffers.hpp): back in it once this list's work has completed.
    std::shared_ptr<Resource> scratch = m_Device->PassBuffers().Acquire(scratchBytes, D3D12_HEAP_TYPE_DEFAULT, "execute_indirect scratch");
    CheckSameDevice(*scratch, what);
    NoteFullWrite(*scratch, true);  // written before it is read: no zeroing
    m_Tracked.push_back(scratch);
    auto readback = m_Device->PassBuffers().Acquire(8, D3D12_HEAP_TYPE_READBACK, "execute_indirect check");
    std::string bundle = m_ReplayBundle ? m_ReplayBundle->Name() : std::string();
    m_Tracked.push_back(std::make_shared<FenceCheck>(
        m_Queue->FenceChecks(), readback,
        [list = m_Name, bundle = std::move(bundle), call = m_ReplayCall, sig = signature.Name(), maxCount](uint32_t lowest, uint32_t why) {
            const uint32_t command = ~lowest;
            const std::string origin = bundle.empty() ? std::string() : " (bundle '" + bundle + "', call " + std::to_string(call) + ")";
            return "execute_indirect of command signature '" + sig + "' (max_count=" + std::to_string(maxCount) + ") in command list '" + list + "'" +
                   origin + ": command " + std::to_string(command) + " (the lowest failing one) has a root CBV address that " +
                   (why == 1   ? std::string("lies in no buffer of referenced=")
                    : why == 2 ? std::string("is not a multiple of 256 bytes from its buffer's start (set_root_cbv's rule)")
                               : std::string("lies in no buffer of referenced= or is not 256-byte aligned")) +
                   "; the failing commands were not drawn (D3D12 would have read whatever lies there). Write addresses of "
                   "buffer.gpu_address + a multiple of 256 into the argument buffer, and name every such buffer in referenced=";
        }));

    // The pass: its inputs in the states it reads them in (and D3D12's for the draws).
    const auto readIndirect = D3D12_RESOURCE_STATES(D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT | D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    const auto readConstants = D3D12_RESOURCE_STATES(signature.ReferencedStates() | D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    m_Tracker.Transition(arguments, readIndirect);
    if (count) m_Tracker.Transition(count, readIndirect);
    for (const auto& ref : referenced)
        if (ref->HeapType() != D3D12_HEAP_TYPE_UPLOAD) m_Tracker.Transition(ref, readConstants);
    m_Tracker.Transition(scratch, D3D12_RESOURCE_STATE_COPY_DEST);
    Flush();
    if (m_Validate) {
        ValidateResource(what, arguments.get());
        if (count) ValidateResource(what, count.get());
        for (const auto& ref : referenced) ValidateResource(what, ref.get());
    }
    ID3D12GraphicsCommandList* l = m_d3d12List.Get();
    l->CopyBufferRegion(scratch->D3D12Resource(), 0, up.resource, up.offset + sizeof t, 16);
    m_Tracker.Transition(scratch, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    Flush();
    auto* pso = static_cast<PipelineState*>(m_Device->BuiltinFast(Device::BuiltinId::ExpandIndirectCbv));
    if (!pso)
        pso = static_cast<PipelineState*>(m_Device->BuiltinObject(
            "ExpandIndirectCbv", [this] { return std::static_pointer_cast<void>(MakeExpandPipeline(m_Context)); },
            Device::BuiltinId::ExpandIndirectCbv));
    const D3D12_GPU_VIRTUAL_ADDRESS argsVa = arguments->GpuAddress() + argumentOffset;
    if (m_NativePredicate) l->SetPredication(nullptr, 0, D3D12_PREDICATION_OP_EQUAL_ZERO);
    l->SetComputeRootSignature(pso->GetRootSignature()->D3D12RootSignature());
    l->SetPipelineState(pso->D3D12PipelineState());
    l->SetComputeRootConstantBufferView(kRootTable, up.gpu);
    l->SetComputeRootUnorderedAccessView(kRootScratch, scratch->GpuAddress());
    l->SetComputeRootShaderResourceView(kRootArgs, argsVa);
    l->SetComputeRootShaderResourceView(kRootCount, count ? count->GpuAddress() + countOffset : argsVa);
    for (uint32_t c = 0; c < kMaxReferenced; ++c)
        l->SetComputeRootShaderResourceView(kRootFirstBuffer + c, c < referenced.size() ? referenced[c]->GpuAddress() : argsVa);
    l->Dispatch(groupsX, groupsY, 1);
    if (m_NativePredicate) l->SetPredication(m_NativePredicate, m_NativePredicateOffset, m_NativePredicateOp);
    l->SetPipelineState(m_Pipeline->D3D12PipelineState());  // a graphics pipeline: its root signature and arguments stayed

    // The draws: each command's root CBVs at its staging slots, its draw with its count.
    m_Tracker.Transition(scratch, D3D12_RESOURCE_STATES(D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT | D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER |
                                                        D3D12_RESOURCE_STATE_COPY_SOURCE));
    Flush();
    l->CopyBufferRegion(readback->D3D12Resource(), 0, scratch->D3D12Resource(), 0, 8);
    for (uint32_t root : roots) {
        m_Bindings.erase((uint64_t(root) << 32) | 0xFFFFFFFFu);  // the commands set it, to the scratch buffer
        if (root < 64) m_RootCbvBytes[root] = slotBytes;
        NoteRootArgument(root);
    }
    PrepareWork(false, what);
    ID3D12CommandSignature* drawOnly = signature.DrawOnly();
    const D3D12_GPU_VIRTUAL_ADDRESS staging = scratch->GpuAddress() + stagingAt;
    for (uint32_t i = 0; i < maxCount; ++i) {
        for (uint32_t j = 0; j < cbvs; ++j) l->SetGraphicsRootConstantBufferView(roots[j], staging + (uint64_t(i) * cbvs + j) * slotBytes);
        l->ExecuteIndirect(drawOnly, 1, scratch->D3D12Resource(), kDrawRecords + uint64_t(i) * sizeof(D3D12_DRAW_ARGUMENTS), scratch->D3D12Resource(),
                           countsAt + uint64_t(i) * 4);
    }
    NoteUavWrites();
    NullIndirectRootViews(signature);
}

}  // namespace dx12kit
