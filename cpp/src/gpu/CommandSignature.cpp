// CommandSignature: D3D12's rules for command signatures (dx12kit/gpu/CommandSignature.hpp) and
// what the backend runs (platform::IndirectSupport).
#include "dx12kit/gpu/CommandSignature.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/DeviceContext.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/platform/HResult.hpp"

#include <algorithm>
#include <cstdio>

namespace dx12kit {

namespace indirectrules {

const char* KindName(D3D12_INDIRECT_ARGUMENT_TYPE type) {
    switch (type) {
        case D3D12_INDIRECT_ARGUMENT_TYPE_DRAW: return "draw";
        case D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED: return "draw_indexed";
        case D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH: return "dispatch";
        case D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW: return "vertex_buffer_view";
        case D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW: return "index_buffer_view";
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT: return "constant";
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW: return "constant_buffer_view";
        case D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW: return "shader_resource_view";
        case D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW: return "unordered_access_view";
    }
    return "unknown";
}

uint32_t ArgumentBytes(const D3D12_INDIRECT_ARGUMENT_DESC& a) {
    switch (a.Type) {
        case D3D12_INDIRECT_ARGUMENT_TYPE_DRAW: return sizeof(D3D12_DRAW_ARGUMENTS);                    // 16
        case D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED: return sizeof(D3D12_DRAW_INDEXED_ARGUMENTS);    // 20
        case D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH: return sizeof(D3D12_DISPATCH_ARGUMENTS);            // 12
        case D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW: return sizeof(D3D12_VERTEX_BUFFER_VIEW);  // 16
        case D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW: return sizeof(D3D12_INDEX_BUFFER_VIEW);    // 16
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT: return 4 * a.Constant.Num32BitValuesToSet;
        default: return sizeof(D3D12_GPU_VIRTUAL_ADDRESS);  // 8
    }
}

bool IsWork(D3D12_INDIRECT_ARGUMENT_TYPE type) {
    return type == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW || type == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED ||
           type == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH;
}

bool ChangesRootArguments(D3D12_INDIRECT_ARGUMENT_TYPE type) {
    return type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT || type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW ||
           type == D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW || type == D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW;
}

std::string Describe(const D3D12_INDIRECT_ARGUMENT_DESC& a) {
    const std::string name = KindName(a.Type);
    switch (a.Type) {
        case D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW: return name + "(slot=" + std::to_string(a.VertexBuffer.Slot) + ")";
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT:
            return name + "(root_index=" + std::to_string(a.Constant.RootParameterIndex) +
                   ", dest_offset=" + std::to_string(a.Constant.DestOffsetIn32BitValues) +
                   ", count=" + std::to_string(a.Constant.Num32BitValuesToSet) + ")";
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW:
        case D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW:
        case D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW:
            return name + "(root_index=" + std::to_string(a.ConstantBufferView.RootParameterIndex) + ")";
        default: return name + "()";
    }
}

D3D12_RESOURCE_STATES ReferencedState(D3D12_INDIRECT_ARGUMENT_TYPE type, D3D12_SHADER_VISIBILITY visibility, bool dispatch) {
    switch (type) {
        case D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW:
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW: return D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER;
        case D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW: return D3D12_RESOURCE_STATE_INDEX_BUFFER;
        case D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW:
            if (dispatch) return D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE;
            if (visibility == D3D12_SHADER_VISIBILITY_PIXEL) return D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE;
            if (visibility == D3D12_SHADER_VISIBILITY_ALL)
                return D3D12_RESOURCE_STATES(D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE | D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
            return D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE;
        case D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW: return D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
        default: return D3D12_RESOURCE_STATE_COMMON;
    }
}

}  // namespace indirectrules

namespace {

const char* kWhat = "create_command_signature";

RootParamKind RootKindOf(D3D12_INDIRECT_ARGUMENT_TYPE type) {
    switch (type) {
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT: return RootParamKind::Constants;
        case D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW: return RootParamKind::Cbv;
        case D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW: return RootParamKind::Srv;
        default: return RootParamKind::Uav;
    }
}

}  // namespace

CommandSignature::CommandSignature(std::shared_ptr<DeviceContext> core, std::vector<D3D12_INDIRECT_ARGUMENT_DESC> arguments, uint32_t byteStride,
                                   std::shared_ptr<RootSignature> rootSignature)
    : m_Context(std::move(core)), m_Arguments(std::move(arguments)), m_ByteStride(byteStride), m_Root(std::move(rootSignature)) {
    using namespace indirectrules;
    m_Context->CheckNotForked(kWhat);
    const std::string head = std::string(kWhat) + ": ";
    // Rule 1: one draw/dispatch argument, last.
    if (m_Arguments.empty())
        throw InvalidArgument(head + "arguments is empty; a signature ends with one IndirectArgument.draw(), draw_indexed() or dispatch()");
    size_t works = 0;
    for (const auto& a : m_Arguments) works += IsWork(a.Type) ? 1 : 0;
    if (works != 1 || !IsWork(m_Arguments.back().Type)) {
        std::string list;
        for (const auto& a : m_Arguments) list += (list.empty() ? "" : ", ") + Describe(a);
        throw InvalidArgument(head + "arguments [" + list + "] " +
                              (works == 0  ? std::string("hold no draw, draw_indexed or dispatch argument")
                               : works > 1 ? std::string("hold ") + std::to_string(works) + " draw/draw_indexed/dispatch arguments"
                                           : std::string("do not end with the draw/draw_indexed/dispatch argument")) +
                              " (D3D12: exactly one, and it comes last); put one draw, draw_indexed or dispatch argument at the end");
    }
    // Rule 4: a dispatch signature has no input-assembler arguments.
    bool needsRoot = false;
    for (size_t i = 0; i < m_Arguments.size(); ++i) {
        const auto& a = m_Arguments[i];
        if (IsCompute() && (a.Type == D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW || a.Type == D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW))
            throw InvalidArgument(
                head + "arguments[" + std::to_string(i) + "] " + Describe(a) +
                " in a dispatch signature (D3D12: vertex and index buffer views belong to draw signatures); remove it or draw instead");
        if (a.Type == D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW && a.VertexBuffer.Slot >= D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)
            throw InvalidArgument(head + "arguments[" + std::to_string(i) + "] " + Describe(a) + ": slot must be below " +
                                  std::to_string(D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT));
        if (a.Type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT && a.Constant.Num32BitValuesToSet == 0)
            throw InvalidArgument(head + "arguments[" + std::to_string(i) + "] " + Describe(a) + ": count must be at least 1");
        needsRoot |= ChangesRootArguments(a.Type);
        m_ArgumentBytes += indirectrules::ArgumentBytes(a);
    }
    // Rule 2: the stride.
    if (m_ByteStride % 4 != 0 || m_ByteStride < m_ArgumentBytes)
        throw InvalidArgument(head + "byte_stride=" + std::to_string(m_ByteStride) +
                              (m_ByteStride % 4 ? " is not a multiple of 4" : " is smaller than") +
                              (m_ByteStride % 4 ? std::string() : " the " + std::to_string(m_ArgumentBytes) + " bytes its arguments take") +
                              " (D3D12: a multiple of 4, at least the arguments' bytes: draw 16, draw_indexed 20, dispatch 12, vertex/index "
                              "buffer view 16, root CBV/SRV/UAV 8, constants 4 each); pass byte_stride=" +
                              std::to_string((std::max(m_ByteStride, m_ArgumentBytes) + 3) / 4 * 4));
    // Rule 3: a root signature exactly when root arguments change, and the arguments name its parameters.
    if (needsRoot && !m_Root)
        throw InvalidArgument(head +
                              "the arguments change root arguments (constants or root CBV/SRV/UAV), which needs the root signature they "
                              "apply to (D3D12: required exactly then); pass root_signature=");
    if (!needsRoot && m_Root)
        throw InvalidArgument(head + "root_signature '" + m_Root->Name() +
                              "' was given, but no argument changes root arguments (D3D12: a root "
                              "signature is given exactly when constants or root CBV/SRV/UAV change); pass root_signature=None");
    if (m_Root) {
        if (m_Root->Context() != m_Context.get()) throw InvalidArgument(head + "the root signature belongs to another device");
        for (size_t i = 0; i < m_Arguments.size(); ++i) {
            const auto& a = m_Arguments[i];
            if (!ChangesRootArguments(a.Type)) continue;
            const std::string what = head + "arguments[" + std::to_string(i) + "] " + Describe(a);
            const RootParameterDesc& p = m_Root->Require(a.Constant.RootParameterIndex, RootKindOf(a.Type), what.c_str());
            if (a.Type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT &&
                uint64_t(a.Constant.DestOffsetIn32BitValues) + a.Constant.Num32BitValuesToSet > p.num32BitValues)
                throw InvalidArgument(what + ": values [" + std::to_string(a.Constant.DestOffsetIn32BitValues) + ", " +
                                      std::to_string(uint64_t(a.Constant.DestOffsetIn32BitValues) + a.Constant.Num32BitValuesToSet) +
                                      ") do not fit root parameter " + std::to_string(a.Constant.RootParameterIndex) + "'s " +
                                      std::to_string(p.num32BitValues) + " constants");
        }
    }
    // What the backend runs: refuse what it would silently ignore, emulate root CBVs before a draw
    // (CommandListIndirectCbv.cpp) where the backend ignores them.
    const platform::IndirectSupport support = platform::BackendIndirectSupport();
    uint32_t offset = 0;
    for (size_t i = 0; i < m_Arguments.size(); ++i) {
        const auto& a = m_Arguments[i];
        if (a.Type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW) {
            m_CbvRootIndices.push_back(a.ConstantBufferView.RootParameterIndex);
            m_CbvOffsets.push_back(offset);
        }
        if (IsWork(a.Type)) m_WorkOffset = offset;
        if (a.Type == D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW) m_VertexSlots |= uint32_t(1) << a.VertexBuffer.Slot;
        if (a.Type == D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW) m_SetsIndexBuffer = true;
        const D3D12_SHADER_VISIBILITY visibility =
            ChangesRootArguments(a.Type) ? m_Root->Parameters()[a.ConstantBufferView.RootParameterIndex].visibility : D3D12_SHADER_VISIBILITY_ALL;
        m_ReferencedStates = D3D12_RESOURCE_STATES(m_ReferencedStates | ReferencedState(a.Type, visibility, IsCompute()));
        offset += indirectrules::ArgumentBytes(a);
    }
    m_EmulatesCbvs = !support.rootArguments && !m_CbvRootIndices.empty();
    for (size_t i = 0; i < m_Arguments.size(); ++i) {
        const auto& a = m_Arguments[i];
        const bool emulated = m_EmulatesCbvs && a.Type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW &&
                              Work() == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW && m_CbvRootIndices.size() <= kMaxEmulatedCbvs;
        if (emulated) continue;
        if (m_EmulatesCbvs && a.Type == D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW)
            throw InvalidArgument(
                head + "arguments[" + std::to_string(i) + "] " + Describe(a) +
                " is not supported on " DX12KIT_BACKEND_NAME
                ": vkd3d 1.2 ignores root CBV arguments, and dx12kit emulates them only before a draw argument and at most " +
                std::to_string(kMaxEmulatedCbvs) + " per command (this signature: " + KindName(Work()) + ", " +
                std::to_string(m_CbvRootIndices.size()) +
                " CBV arguments). Use a draw signature, or record the work one by one (docs/guides/shader-gaps.rst, 'ExecuteIndirect')");
        if ((ChangesRootArguments(a.Type) && !support.rootArguments) ||
            ((a.Type == D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW || a.Type == D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW) &&
             !support.bufferViews))
            throw InvalidArgument(head + "arguments[" + std::to_string(i) + "] " + Describe(a) +
                                  " is not supported on " DX12KIT_BACKEND_NAME
                                  ": vkd3d 1.2's ExecuteIndirect runs only the draw/draw_indexed/dispatch argument and ignores the others "
                                  "(\"Ignoring unhandled argument type\"), so every command would reuse the arguments set before it (and, "
                                  "measured for a vertex_buffer_view argument, reads the draw arguments from the command's first bytes); dx12kit "
                                  "emulates only root CBV arguments before a draw. Use a root CBV per command (constant_buffer_view), or a "
                                  "signature of the draw argument alone selecting per-draw data in the shader (e.g. SV_InstanceID with "
                                  "start_instance from the argument buffer indexing a structured buffer), or record the draws one by one "
                                  "(docs/guides/shader-gaps.rst, 'ExecuteIndirect')");
    }
    if (Work() == D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED && !support.drawIndexed)
        throw InvalidArgument(head + "draw_indexed signatures are not supported on " DX12KIT_BACKEND_NAME
                                     ": vkd3d 1.2 over lavapipe draws nothing "
                                     "for them (measured: with or without a count buffer, no message), so the draws would be lost. Use a draw "
                                     "signature (IndirectArgument.draw()) over de-indexed vertices, or record draw_indexed calls "
                                     "(docs/guides/shader-gaps.rst, 'ExecuteIndirect')");
    D3D12_COMMAND_SIGNATURE_DESC d{};
    d.ByteStride = m_ByteStride;
    d.NumArgumentDescs = static_cast<UINT>(m_Arguments.size());
    d.pArgumentDescs = m_Arguments.data();
    ThrowIfFailed(m_Context->D3D12Device()->CreateCommandSignature(&d, m_Root ? m_Root->D3D12RootSignature() : nullptr, IID_ID3D12CommandSignature,
                                                                   m_Signature.ReleaseAndGetVoidAddress()),
                  "CreateCommandSignature");
    if (m_EmulatesCbvs) {
        // What the emulation records per command: one draw, with its count (0 or 1) from a count buffer.
        D3D12_INDIRECT_ARGUMENT_DESC draw{};
        draw.Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW;
        D3D12_COMMAND_SIGNATURE_DESC dd{};
        dd.ByteStride = sizeof(D3D12_DRAW_ARGUMENTS);
        dd.NumArgumentDescs = 1;
        dd.pArgumentDescs = &draw;
        ThrowIfFailed(
            m_Context->D3D12Device()->CreateCommandSignature(&dd, nullptr, IID_ID3D12CommandSignature, m_DrawOnly.ReleaseAndGetVoidAddress()),
            "CreateCommandSignature (draw only)");
    }
}

void CommandSignature::SetName(std::string name) {
    m_Name = std::move(name);
    const std::wstring wide(m_Name.begin(), m_Name.end());
    m_Signature->SetName(wide.c_str());
}

namespace {
/// "'name' at 0x..., N root parameters": two root signatures of one name told apart.
std::string RootSignatureWho(const RootSignature* rs) {
    if (!rs) return "none";
    char at[32];
    std::snprintf(at, sizeof at, "%p", static_cast<const void*>(rs));
    const size_t n = rs->Parameters().size();
    return "'" + rs->Name() + "' at " + at + ", " + std::to_string(n) + " root parameter" + (n == 1 ? "" : "s");
}
}  // namespace

void CommandSignature::CheckBoundRoot(const RootSignature* boundRoot, const std::string& where, const std::string& bound, const char* fix) const {
    if (!m_Root || m_Root.get() == boundRoot) return;
    throw InvalidArgument(where + ": command signature '" + m_Name + "' changes root arguments of its root signature (" +
                          RootSignatureWho(m_Root.get()) + "), but " + bound + " is another one (" + RootSignatureWho(boundRoot) +
                          "); D3D12: it must be the bound one, the same object. " + fix);
}

}  // namespace dx12kit
