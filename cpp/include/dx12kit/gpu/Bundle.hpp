// Bundle: a short list of draw-time calls recorded once and executed from many direct command lists
// (D3D12's bundle, ID3D12GraphicsCommandList of type BUNDLE + ExecuteBundle).
//
// D3D12's rules (Microsoft Direct3D 12 documentation: "Creating and recording command lists and
// bundles" (Bundle restrictions), "ID3D12GraphicsCommandList::ExecuteBundle", "Using a root
// signature" (Bundle semantics)):
//  1. A bundle records no resource barrier, no Clear*, no copy or resolve, no OMSetRenderTargets, no
//     RSSetViewports / RSSetScissorRects, no SetPredication, no BeginQuery / EndQuery /
//     ResolveQueryData and no ExecuteBundle (bundles nest one level). bundlerules::Refusals() holds
//     each such CommandList call with its rule; Bundle::Refuse throws InvalidArgument naming it.
//  2. ExecuteBundle runs a closed bundle, on a direct command list only.
//  3. A bundle's descriptor heaps must be the executing list's. In dx12kit every list and bundle of
//     one device uses the device's two shader-visible heaps, so they match by construction; a bundle
//     of another device is refused at execute.
//  4. A bundle inherits every state of the calling list except the pipeline state and the primitive
//     topology: render targets, viewports, scissors, vertex and index buffers, stencil reference,
//     blend factor, predication, and the root signature's bindings (root arguments, tables). So a
//     draw or dispatch in a bundle needs a pipeline set in the bundle first (set_pipeline_state, or
//     the initial pipeline given at creation), and a bundle changes root arguments only after it
//     set the root signature (dx12kit: set_pipeline_state, which binds the pipeline's root
//     signature). Setting the calling list's root signature keeps the inherited arguments; another
//     one clears them (the bundle then sets every one its draws read).
//  5. What a bundle sets stays set in the calling list after ExecuteBundle (its pipeline and root
//     signature, root arguments, vertex/index buffers, stencil reference, blend factor).
//
// Emulated: vkd3d 1.2's ExecuteBundle is a stub (it records nothing), so dx12kit never creates a
// native bundle. A Bundle keeps its calls in a compact command stream (recorded once, checked for
// rules 1 and 4 as they are recorded) and CommandList::ExecuteBundle replays them into the calling
// list as the same CommandList calls, under one recording lock. Consequences:
//  - State tracking: a native bundle cannot transition, so D3D12 needs every resource its draws use
//    already in the right state. Replayed draws go through the calling list's state tracker, which
//    resolves those states in the calling list at execute_bundle (and adds automatic UAV barriers
//    between draws writing one UAV): friendlier than D3D12, never wrong.
//  - Every check of a replayed call runs against the calling list's state at execute; an error
//    names the bundle and the call. Calls replayed before the failing one stay recorded in the list
//    (as if made one by one).
//  - Lifetime: the bundle holds what its calls name (pipelines, resources, samplers, dynamic data);
//    a list that executed it keeps the bundle until the list's work completes.
//  - Cost: an execution costs what recording the same calls costs (no driver pre-processing).
#pragma once

#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"
#include "dx12kit/resources/BufferView.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace dx12kit {

class CommandList;
class CommandSignature;
class DeviceContext;
class Resource;

namespace bundlerules {
/// One CommandList call a bundle may not record, and the D3D12 rule that says so.
struct Refusal {
    const char* call;  ///< the CommandList method's Python name ("clear_render_target")
    const char* rule;  ///< the rule and the fix, for messages
};
/// Every refused call (rule 1 and the built-in passes made of such calls).
const std::vector<Refusal>& Refusals();
/// The rule refusing `call` in a bundle, nullptr when a bundle may record it.
const char* RefusalRule(std::string_view call);
}  // namespace bundlerules

class Bundle {
public:
    /// An open bundle of `core`'s device; `initial` (may be null) is its initial pipeline state
    /// (CreateCommandList's pInitialState): the pipeline its first draws use unless it sets one.
    Bundle(std::shared_ptr<DeviceContext> core, std::shared_ptr<PipelineState> initial);
    Bundle(const Bundle&) = delete;
    Bundle& operator=(const Bundle&) = delete;

    const DeviceContext* Context() const { return m_Context.get(); }
    const std::string& Name() const { return m_Name; }
    void SetName(std::string name) { m_Name = std::move(name); }

    // ---- recording: the CommandList calls of the same names (their rules apply at execute) ------
    void SetPipelineState(const std::shared_ptr<PipelineState>& pso);
    void SetConstants(uint32_t rootIndex, const uint32_t* values, uint32_t count, uint32_t offset);
    void SetRootView(RootParamKind kind, uint32_t rootIndex, const std::shared_ptr<Resource>& buffer, uint64_t offset);
    void SetShaderResourceView(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& r, uint32_t mip, uint32_t mipCount,
                               DXGI_FORMAT format, const BufferViewArgs& buffer = BufferViewArgs());
    void SetUnorderedAccessView(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& r, uint32_t mip,
                                const BufferViewArgs& buffer = BufferViewArgs());
    void SetConstantBufferView(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& buffer, uint64_t bufferOffset = 0,
                               uint32_t size = 0);
    void SetSampler(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Sampler>& sampler);
    void SetVertexBuffer(uint32_t slot, const std::shared_ptr<Resource>& buffer, uint32_t stride, uint64_t offset);
    void SetIndexBuffer(const std::shared_ptr<Resource>& buffer, DXGI_FORMAT format, uint64_t offset);
    /// The data is copied now; each execution puts it in the calling list's upload memory.
    void SetDynamicConstantBuffer(uint32_t rootIndex, const void* data, uint64_t bytes);
    void SetDynamicVertexBuffer(uint32_t slot, const void* data, uint64_t bytes, uint32_t stride);
    void SetDynamicIndexBuffer(const void* data, uint64_t bytes, DXGI_FORMAT format);
    void SetStencilRef(uint32_t ref);
    void SetBlendFactor(const float rgba[4]);
    void Draw(uint32_t vertexCount, uint32_t instanceCount, uint32_t startVertex, uint32_t startInstance);
    void DrawIndexed(uint32_t indexCount, uint32_t instanceCount, uint32_t startIndex, int32_t baseVertex, uint32_t startInstance);
    void Dispatch(uint32_t x, uint32_t y, uint32_t z);
    /// ExecuteIndirect in a bundle (D3D12 allows it: it is not among the bundle restrictions). Checked
    /// now: a pipeline of the signature's kind is set in the bundle (rule 4), the signature's root
    /// signature, when it changes root arguments, is the one the bundle set (root arguments change
    /// only after the bundle set the root signature), the buffers are of this device and open. The
    /// rest (sizes, offsets, referenced=, bindings) is CommandList::ExecuteIndirect's, at execute.
    /// D3D12 wants the argument and count buffers already in INDIRECT_ARGUMENT when the bundle runs
    /// (a bundle records no barrier); the replay puts them there in the calling list. Root views
    /// the signature sets are NULL after it, in the calling list too (rule 5).
    void ExecuteIndirect(const std::shared_ptr<CommandSignature>& signature, uint32_t maxCount, const std::shared_ptr<Resource>& arguments,
                         uint64_t argumentOffset, const std::shared_ptr<Resource>& count, uint64_t countOffset,
                         const std::vector<std::shared_ptr<Resource>>& referenced);

    /// Throws InvalidArgument: `call` (a CommandList call of bundlerules::Refusals()) is not allowed in
    /// a bundle, naming the rule and the fix.
    [[noreturn]] void Refuse(const char* call) const;

    /// Ends recording (ID3D12GraphicsCommandList::Close); only a closed bundle can be executed, and
    /// it can be executed any number of times, from any direct list, on any thread. Idempotent.
    void Close();
    bool IsClosed() const { return m_Closed.load(std::memory_order_acquire); }
    size_t CommandCount() const;

    /// Replays the calls into `list` (CommandList::ExecuteBundle, which holds the list's recording
    /// lock and checked rules 2 and 3). An error names the bundle and the call.
    void ReplayInto(CommandList& list) const;

    // The recorded calls (one struct per call kind).
    struct PipelineCmd {
        std::shared_ptr<PipelineState> pso;
    };
    struct ConstantsCmd {
        uint32_t rootIndex, offset;
        std::vector<uint32_t> values;
    };
    struct RootViewCmd {
        RootParamKind kind;
        uint32_t rootIndex;
        std::shared_ptr<Resource> buffer;
        uint64_t offset;
    };
    struct ViewCmd {
        bool uav;
        uint32_t rootIndex, offset;
        std::shared_ptr<Resource> resource;
        uint32_t mip, mipCount;
        DXGI_FORMAT format;
        BufferViewArgs view;
    };
    struct CbvCmd {
        uint32_t rootIndex, offset;
        std::shared_ptr<Resource> buffer;
        uint64_t bufferOffset;
        uint32_t size;
    };
    struct SamplerCmd {
        uint32_t rootIndex, offset;
        std::shared_ptr<Sampler> sampler;
    };
    struct VertexBufferCmd {
        uint32_t slot;
        std::shared_ptr<Resource> buffer;
        uint32_t stride;
        uint64_t offset;
    };
    struct IndexBufferCmd {
        std::shared_ptr<Resource> buffer;
        DXGI_FORMAT format;
        uint64_t offset;
    };
    struct DynamicCmd {
        uint8_t what;
        uint32_t index, stride;
        DXGI_FORMAT format;
        std::vector<uint8_t> data;
    };  // what: 0 CBV, 1 vertex, 2 index
    struct StencilRefCmd {
        uint32_t ref;
    };
    struct BlendFactorCmd {
        float rgba[4];
    };
    struct DrawCmd {
        uint32_t count, instances, start;
        int32_t baseVertex;
        uint32_t startInstance;
        bool indexed;
    };
    struct DispatchCmd {
        uint32_t x, y, z;
    };
    struct IndirectCmd {
        std::shared_ptr<CommandSignature> signature;
        uint32_t maxCount;
        std::shared_ptr<Resource> arguments, count;
        uint64_t argumentOffset, countOffset;
        std::vector<std::shared_ptr<Resource>> referenced;
    };
    using Command = std::variant<PipelineCmd, ConstantsCmd, RootViewCmd, ViewCmd, CbvCmd, SamplerCmd, VertexBufferCmd, IndexBufferCmd, DynamicCmd,
                                 StencilRefCmd, BlendFactorCmd, DrawCmd, DispatchCmd, IndirectCmd>;
    /// The Python name of a recorded call, for messages.
    static const char* CallName(const Command& c);

private:
    /// Takes the recording mutex; UseAfterFree once closed.
    std::unique_lock<std::mutex> Record(const char* what);
    /// Rule 4: the root signature of the pipeline set in the bundle (InvalidArgument when none was set).
    const RootSignature& RootSignatureForArguments(const char* what) const;
    void CheckDevice(const DeviceContext* core, const std::string& who, const char* what) const;
    void CheckResource(const std::shared_ptr<Resource>& r, const char* what) const;
    void CheckWork(bool dispatch, const char* what) const;

    std::shared_ptr<DeviceContext> m_Context;
    std::string m_Name = "bundle";
    std::vector<Command> m_Commands;
    std::shared_ptr<PipelineState> m_Pipeline;  ///< set in the bundle so far (recording only)
    mutable std::mutex m_Mutex;                 ///< recording calls and Close
    std::atomic<bool> m_Closed{false};
};

}  // namespace dx12kit
