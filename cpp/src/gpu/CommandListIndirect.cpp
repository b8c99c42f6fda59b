// CommandList::ExecuteIndirect: D3D12's rules (dx12kit/gpu/CommandSignature.hpp rules 3-5), state
// tracking of the argument and count buffers, and what the backend runs (platform::IndirectSupport):
// vkd3d 1.2 records one vkCmdDispatchIndirect for a dispatch signature whatever max_count says, so
// there each command gets an ExecuteIndirect of its own (the same dispatches, in order, on the GPU's
// data); a count buffer with a dispatch signature is refused (vkd3d ignores it).
#include "dx12kit/gpu/CommandList.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/CommandSignature.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/resources/ResourceState.hpp"

#include <string>

namespace dx12kit {

std::string CommandList::NamedBuffer(const Resource& r) {
    return "buffer '" + r.Name() + "'";
}

void CommandList::ExecuteIndirect(const std::shared_ptr<CommandSignature>& signature, uint32_t maxCount, const std::shared_ptr<Resource>& arguments,
                                  uint64_t argumentOffset, const std::shared_ptr<Resource>& count, uint64_t countOffset,
                                  const std::vector<std::shared_ptr<Resource>>& referenced) {
    const char* what = "execute_indirect";
    const auto recording = Begin(what);
    CheckNotCopy(what);
    if (!signature) throw InvalidArgument("execute_indirect: signature is None");
    if (&signature->Context() != m_Context.get())
        throw InvalidArgument("execute_indirect: command signature '" + signature->Name() + "' belongs to another device");
    const bool dispatch = signature->IsCompute();
    if (!dispatch) CheckGraphics(what);
    // Rule 4: the bound pipeline's kind.
    if (!m_Pipeline)
        throw InvalidArgument(std::string("execute_indirect: no pipeline is set; set a ") + (dispatch ? "compute" : "graphics") +
                              " pipeline for command signature '" + signature->Name() + "' first");
    if (dispatch != m_Compute)
        throw InvalidArgument(
            "execute_indirect: command signature '" + signature->Name() + "' is a " + (dispatch ? "dispatch (compute)" : "draw (graphics)") +
            " signature but the bound pipeline '" + m_Pipeline->Name() + "' is a " + (m_Compute ? "compute" : "graphics") +
            " pipeline (D3D12: a signature runs with a pipeline of its kind); bind a " + (dispatch ? "compute" : "graphics") + " pipeline");
    // Rule 3: the signature's root signature is the bound one (the message is built only on failure).
    if (signature->Root() && signature->Root().get() != m_RootSignature)
        signature->CheckBoundRoot(m_RootSignature, "execute_indirect", "the list's bound root signature (of pipeline '" + m_Pipeline->Name() + "')",
                                  "Bind a pipeline created with the signature's root signature, or create the command signature with "
                                  "root_signature=pipeline.root_signature");
    // Rule 5: buffers, offsets and sizes.
    if (!arguments) throw InvalidArgument("execute_indirect: argument_buffer is None");
    CheckSameDevice(*arguments, what);
    if (!arguments->IsBuffer())
        throw InvalidArgument("execute_indirect: argument_buffer '" + arguments->Name() + "' is a texture; arguments are read from a buffer");
    if (argumentOffset % 4)
        throw InvalidArgument("execute_indirect: argument_offset=" + std::to_string(argumentOffset) +
                              " is not a multiple of 4 (D3D12 ExecuteIndirect)");
    const uint64_t need = maxCount ? argumentOffset + uint64_t(signature->ByteStride()) * (maxCount - 1) + signature->ArgumentBytes() : 0;
    if (need > arguments->Size())
        throw InvalidArgument("execute_indirect: max_count=" + std::to_string(maxCount) + " commands of " + std::to_string(signature->ByteStride()) +
                              " bytes (the last " + std::to_string(signature->ArgumentBytes()) +
                              ") from argument_offset=" + std::to_string(argumentOffset) + " need " + std::to_string(need) + " bytes, but " +
                              NamedBuffer(*arguments) + " holds " + std::to_string(arguments->Size()) +
                              " (D3D12: the argument buffer holds max_count commands); lower max_count or use a bigger buffer");
    if (count) {
        CheckSameDevice(*count, what);
        if (!count->IsBuffer())
            throw InvalidArgument("execute_indirect: count_buffer '" + count->Name() + "' is a texture; the count is read from a buffer");
        if (countOffset % 4)
            throw InvalidArgument("execute_indirect: count_offset=" + std::to_string(countOffset) +
                                  " is not a multiple of 4 (D3D12 ExecuteIndirect)");
        if (countOffset > count->Size() || 4 > count->Size() - countOffset)
            throw InvalidArgument("execute_indirect: the 4-byte count at count_offset=" + std::to_string(countOffset) + " does not fit " +
                                  NamedBuffer(*count) + " of " + std::to_string(count->Size()) + " bytes");
        if (dispatch && !platform::BackendIndirectSupport().dispatchCount)
            throw InvalidArgument("execute_indirect: a count buffer with dispatch signature '" + signature->Name() +
                                  "' is not supported on " DX12KIT_BACKEND_NAME
                                  ": vkd3d 1.2 ignores it (\"Count buffers not supported\") and would run max_count dispatches; have the pass that "
                                  "writes the count write zero-sized dispatches (0, 0, 0) for the unused commands and pass count_buffer=None "
                                  "(docs/guides/shader-gaps.rst, 'ExecuteIndirect')");
    } else if (countOffset != 0) {
        throw InvalidArgument("execute_indirect: count_offset=" + std::to_string(countOffset) +
                              " without a count_buffer; pass count_buffer= or leave count_offset 0");
    }
    CheckReferenced(*signature, referenced, what);
    // The same buffer cannot be an indirect argument and be bound for another use in this work.
    const D3D12_RESOURCE_STATES refState = signature->ReferencedStates();
    const bool refWrites = refState == D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    for (const auto& kv : m_Bindings) {
        const Resource* r = kv.second.resource.get();
        for (const auto& ref : referenced)
            if (r == ref.get() && kv.second.uav != refWrites && !(dispatch && kv.first >= kInputAssemblerKeys))
                throw InvalidArgument("execute_indirect: " + NamedBuffer(*r) + " is in referenced= (" +
                                      (refWrites ? "written through root UAVs: " : "read by the commands: ") + StateName(refState) +
                                      ") and is bound by " + DescribeBinding(kv.first, kv.second) +
                                      (kv.second.uav ? " for writing" : " for reading") +
                                      " (D3D12 holds a buffer in one state per draw or dispatch); bind another buffer there");
        if (r != arguments.get() && r != count.get()) continue;
        if (dispatch && kv.first >= kInputAssemblerKeys) continue;
        throw InvalidArgument("execute_indirect: " + NamedBuffer(*r) + " is read as indirect arguments (INDIRECT_ARGUMENT) and is bound by " +
                              DescribeBinding(kv.first, kv.second) +
                              " (D3D12 holds a buffer in one state per draw or dispatch); bind another buffer there");
    }
    if (!dispatch) {  // (what the signature sets per command need not be bound before)
        if (signature->Work() == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED && !signature->SetsIndexBuffer()) CheckIndexBuffer(what);
        if (m_Pipeline->InputSlots() & ~(m_VertexSlotsSet | signature->VertexSlots())) ThrowMissingVertexBuffer(what, signature->VertexSlots());
    }
    if (signature.get() != m_LastKeptSignature) {  // alive until the list's work completes; one push per signature change
        m_Tracked.push_back(signature);
        m_LastKeptSignature = signature.get();
    }
    if (maxCount == 0) return;
    if (signature->EmulatesCbvs()) return ExecuteIndirectCbvs(*signature, maxCount, arguments, argumentOffset, count, countOffset, referenced);
    m_Tracker.Transition(arguments, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    if (count) m_Tracker.Transition(count, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    for (const auto& a : signature->Arguments()) {  // the commands set them (rule 3: same root signature)
        if (!indirectrules::ChangesRootArguments(a.Type)) continue;
        const uint32_t root = a.Constant.RootParameterIndex;  // (the same field for root views)
        // A root view the commands set no longer names the buffer the list bound there: no state request
        // or hazard check for that one (as the emulated path does).
        if (a.Type != D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT) m_Bindings.erase((uint64_t(root) << 32) | 0xFFFFFFFFu);
        NoteRootArgument(root);
    }
    PrepareWork(dispatch, what);
    // The referenced buffers in the states the signature's arguments use them in (indirectrules::ReferencedState),
    // after the bindings' requests: a buffer the list also binds for reading here gets both read states
    // (a later request of one alone would take the other away).
    for (const auto& ref : referenced) {
        if (ref->HeapType() == D3D12_HEAP_TYPE_UPLOAD) continue;  // GENERIC_READ, which holds every read state
        D3D12_RESOURCE_STATES state = refState;
        if (!refWrites)
            for (const auto& kv : m_Bindings)
                if (kv.second.resource == ref && !(dispatch && kv.first >= kInputAssemblerKeys))
                    state = D3D12_RESOURCE_STATES(state | kv.second.state);
        if (refWrites && AutoUavBarriers) m_Tracker.UavHazard(ref);
        m_Tracker.Transition(ref, state);
    }
    if (!referenced.empty()) Flush();
    if (m_Validate) {
        ValidateResource(what, arguments.get());
        if (count) ValidateResource(what, count.get());
        for (const auto& ref : referenced) ValidateResource(what, ref.get());
    }
    ID3D12CommandSignature* native = signature->D3D12Signature();
    if (dispatch && maxCount > 1 && !platform::BackendIndirectSupport().dispatchMaxCount) {
        for (uint32_t i = 0; i < maxCount; ++i)
            m_d3d12List->ExecuteIndirect(native, 1, arguments->D3D12Resource(), argumentOffset + uint64_t(signature->ByteStride()) * i, nullptr, 0);
    } else {
        m_d3d12List->ExecuteIndirect(native, maxCount, arguments->D3D12Resource(), argumentOffset, count ? count->D3D12Resource() : nullptr,
                                     count ? countOffset : 0);
    }
    NoteUavWrites();
    if (refWrites)
        for (const auto& ref : referenced) m_Tracker.NoteUavWrite(ref.get());
    NullIndirectRootViews(*signature);
}

void CommandList::NullIndirectRootViews(const CommandSignature& signature) {
    // D3D12 ("Indirect drawing"): after ExecuteIndirect a root view the signature sets is a NULL view
    // (and root constants it sets are 0), a vertex-buffer slot it sets holds a NULL vertex buffer and
    // an index buffer it sets is NULL; the next work must set them again (a draw through a NULL vertex
    // or index buffer is refused as an unset one is: CheckVertexBuffers, CheckIndexBuffer). The
    // buffers the list bound there before are no longer bound: no state request or hazard check.
    if (const uint32_t slots = signature.VertexSlots()) {
        m_VertexSlotsSet &= ~slots;
        m_VertexSlotsNulled |= slots;
        for (uint32_t slot = 0; slot < D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT; ++slot)
            if ((slots >> slot) & 1u) m_Bindings.erase(uint64_t(0xFFFF0000u | slot) << 32);
    }
    if (signature.SetsIndexBuffer()) {
        m_IndexBufferSet = false;
        m_IndexBufferNulled = true;
        m_Bindings.erase(uint64_t(0xFFFFFFFFu) << 32);
    }
    for (const auto& a : signature.Arguments()) {
        const uint32_t root = a.ConstantBufferView.RootParameterIndex;
        if (!indirectrules::ChangesRootArguments(a.Type) || a.Type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT || root >= 64) continue;
        m_RootArgsSet &= ~(uint64_t(1) << root);
        m_RootViewsNulled |= uint64_t(1) << root;
    }
}

}  // namespace dx12kit
