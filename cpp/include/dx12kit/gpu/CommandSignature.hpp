// CommandSignature: an ID3D12CommandSignature (what each command of an ExecuteIndirect argument
// buffer holds), and D3D12's rules for creating and executing one.
//
// The rules (Microsoft Direct3D 12 documentation: "Indirect drawing", "D3D12_COMMAND_SIGNATURE_DESC",
// "ID3D12Device::CreateCommandSignature", "ID3D12GraphicsCommandList::ExecuteIndirect"):
//  1. A signature holds exactly one draw, draw-indexed or dispatch argument, and it comes last.
//  2. ByteStride is a multiple of 4 and at least the bytes of its arguments (draw 16, draw-indexed
//     20, dispatch 12, vertex/index buffer view 16, root CBV/SRV/UAV 8, root constants 4 each).
//  3. A root signature is given exactly when an argument changes root arguments (constants, root
//     CBV/SRV/UAV); each such argument names a root parameter of that kind (constants: within its
//     values). ExecuteIndirect then needs that root signature bound on the list.
//  4. A dispatch signature is a compute signature: no vertex or index buffer views; it runs with a
//     compute pipeline bound, a draw signature with a graphics pipeline (direct lists).
//  5. ExecuteIndirect: the argument and count buffer offsets are multiples of 4; the argument
//     buffer holds offset + stride * (max_count - 1) + the arguments' bytes, the count buffer 4
//     bytes at its offset; both are in INDIRECT_ARGUMENT (the state tracker moves them there).
// What the backend runs (platform::IndirectSupport) narrows this further: CommandSignature refuses
// what the backend would silently get wrong, except root CBV arguments before a draw, which
// CommandList::ExecuteIndirect emulates where the backend ignores them (EmulatesCbvs;
// CommandListIndirectCbv.cpp).
#pragma once

#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dx12kit {

class DeviceContext;
class RootSignature;

namespace indirectrules {
/// 'draw', 'draw_indexed', 'dispatch', 'vertex_buffer_view', ... (the Python factory names).
const char* KindName(D3D12_INDIRECT_ARGUMENT_TYPE type);
/// The bytes one argument takes in a command (rule 2).
uint32_t ArgumentBytes(const D3D12_INDIRECT_ARGUMENT_DESC& a);
/// Draw, draw-indexed or dispatch.
bool IsWork(D3D12_INDIRECT_ARGUMENT_TYPE type);
/// Root constants and root CBV/SRV/UAV (rule 3).
bool ChangesRootArguments(D3D12_INDIRECT_ARGUMENT_TYPE type);
/// "constant(root_index=1, dest_offset=0, count=4)" and so on, for messages.
std::string Describe(const D3D12_INDIRECT_ARGUMENT_DESC& a);
/// The one place that says which state a buffer an argument of `type` points at (by GPU address)
/// must be in while the commands run (D3D12's state rules for each use; ExecuteIndirect's
/// `referenced`): vertex_buffer_view and constant_buffer_view VERTEX_AND_CONSTANT_BUFFER,
/// index_buffer_view INDEX_BUFFER, shader_resource_view the shader-resource state of the stages its
/// root parameter is visible to (`visibility`; a dispatch signature NON_PIXEL, PIXEL visibility
/// PIXEL, ALL both, another stage NON_PIXEL), unordered_access_view UNORDERED_ACCESS (a write).
/// 0 (COMMON) for the arguments that carry no address.
D3D12_RESOURCE_STATES ReferencedState(D3D12_INDIRECT_ARGUMENT_TYPE type, D3D12_SHADER_VISIBILITY visibility, bool dispatch);
}  // namespace indirectrules

/// One argument of a command signature (the Python class IndirectArgument).
struct IndirectArgument {
    D3D12_INDIRECT_ARGUMENT_DESC desc{};
};

class CommandSignature {
public:
    /// Checks rules 1-4 and what the backend runs (InvalidArgument naming the argument, the rule and
    /// the fix), then creates the signature. `rootSignature` may be null (rule 3).
    CommandSignature(std::shared_ptr<DeviceContext> core, std::vector<D3D12_INDIRECT_ARGUMENT_DESC> arguments, uint32_t byteStride,
                     std::shared_ptr<RootSignature> rootSignature);
    CommandSignature(const CommandSignature&) = delete;
    CommandSignature& operator=(const CommandSignature&) = delete;

    ID3D12CommandSignature* D3D12Signature() const { return m_Signature.Get(); }
    const DeviceContext& Context() const { return *m_Context; }
    const std::vector<D3D12_INDIRECT_ARGUMENT_DESC>& Arguments() const { return m_Arguments; }
    uint32_t ByteStride() const { return m_ByteStride; }
    /// The bytes of one command's arguments (<= ByteStride).
    uint32_t ArgumentBytes() const { return m_ArgumentBytes; }
    /// The draw, draw-indexed or dispatch argument (the last one).
    D3D12_INDIRECT_ARGUMENT_TYPE Work() const { return m_Arguments.back().Type; }
    bool IsCompute() const { return Work() == D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH; }
    /// Null when no argument changes root arguments.
    const std::shared_ptr<RootSignature>& Root() const { return m_Root; }
    /// Rule 3: a signature that changes root arguments runs with its root signature bound, the same
    /// object. InvalidArgument otherwise, naming both (name, address, parameter count). `where`: the
    /// call ("execute_indirect", "execute_indirect in bundle 'b'"); `bound`: what is bound ("the list's
    /// bound root signature (of pipeline 'p')"); `fix`: what to do.
    void CheckBoundRoot(const RootSignature* boundRoot, const std::string& where, const std::string& bound, const char* fix) const;
    const std::string& Name() const { return m_Name; }
    void SetName(std::string name);

    /// The backend ignores root arguments and this draw signature changes root CBVs: ExecuteIndirect
    /// expands its commands on the GPU into DrawOnly() commands (CommandListIndirectCbv.cpp).
    bool EmulatesCbvs() const { return m_EmulatesCbvs; }
    static constexpr uint32_t kMaxEmulatedCbvs = 8;
    /// The root CBV arguments in order: their root parameters and byte offsets in a command.
    const std::vector<uint32_t>& CbvRootIndices() const { return m_CbvRootIndices; }
    const std::vector<uint32_t>& CbvOffsets() const { return m_CbvOffsets; }
    /// The byte offset of the draw/draw_indexed/dispatch argument in a command.
    uint32_t WorkOffset() const { return m_WorkOffset; }
    /// Bit k: a vertex_buffer_view argument sets slot k. With SetsIndexBuffer: what ExecuteIndirect
    /// leaves NULL after it (D3D12, "Indirect drawing"), and what need not be bound before it.
    uint32_t VertexSlots() const { return m_VertexSlots; }
    bool SetsIndexBuffer() const { return m_SetsIndexBuffer; }
    /// The union over the arguments of indirectrules::ReferencedState: the state ExecuteIndirect
    /// moves each buffer of `referenced` to. 0 when no argument carries an address. Holding
    /// UNORDERED_ACCESS and a read state (a signature that writes through root UAVs and reads
    /// through other arguments) is not a state a buffer can be in: ExecuteIndirect refuses
    /// referenced buffers then.
    D3D12_RESOURCE_STATES ReferencedStates() const { return m_ReferencedStates; }
    /// With EmulatesCbvs: a signature of one draw argument, stride 16.
    ID3D12CommandSignature* DrawOnly() const { return m_DrawOnly.Get(); }

private:
    std::shared_ptr<DeviceContext> m_Context;
    std::vector<D3D12_INDIRECT_ARGUMENT_DESC> m_Arguments;
    uint32_t m_ByteStride;
    uint32_t m_ArgumentBytes = 0;
    std::shared_ptr<RootSignature> m_Root;
    ComPtr<ID3D12CommandSignature> m_Signature;
    bool m_EmulatesCbvs = false;
    std::vector<uint32_t> m_CbvRootIndices, m_CbvOffsets;
    uint32_t m_WorkOffset = 0;
    uint32_t m_VertexSlots = 0;
    bool m_SetsIndexBuffer = false;
    D3D12_RESOURCE_STATES m_ReferencedStates = D3D12_RESOURCE_STATE_COMMON;
    ComPtr<ID3D12CommandSignature> m_DrawOnly;
    std::string m_Name = "command signature";
};

}  // namespace dx12kit
