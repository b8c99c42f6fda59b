// Bundle (Bundle.hpp: the rules and why bundles are replayed) and CommandList::ExecuteBundle.
#include "dx12kit/gpu/Bundle.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/DeviceContext.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/gpu/CommandQueue.hpp"
#include "dx12kit/gpu/CommandSignature.hpp"
#include "dx12kit/resources/D3D12Rules.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <cmath>
#include <cstring>

namespace dx12kit {

// ------------------------------------------------------------------------------- the rule table

namespace bundlerules {
namespace {
constexpr const char* kBarriers =
    "a bundle records no resource barrier (D3D12 bundle restriction: no ResourceBarrier); the calling list's state tracker puts what "
    "the bundle's draws use in their states at execute_bundle: record barriers in the calling list";
constexpr const char* kClears =
    "a bundle records no clear (D3D12 bundle restriction: no ClearRenderTargetView, ClearDepthStencilView, ClearUnorderedAccessView*): "
    "clear in the calling list before execute_bundle";
constexpr const char* kCopies =
    "a bundle records no copy (D3D12 bundle restriction: no CopyResource, CopyBufferRegion, CopyTextureRegion; uploads are copies): "
    "copy in the calling list";
constexpr const char* kTargets =
    "a bundle does not set render targets (D3D12 bundle restriction: no OMSetRenderTargets); it draws into the ones the calling list "
    "has bound: call set_render_targets on the calling list";
constexpr const char* kViewports =
    "a bundle does not set viewports (D3D12 bundle restriction: no RSSetViewports); it inherits the calling list's: call it on the "
    "calling list";
constexpr const char* kScissors =
    "a bundle does not set scissor rectangles (D3D12 bundle restriction: no RSSetScissorRects); it inherits the calling list's: call "
    "it on the calling list";
constexpr const char* kQueries =
    "a bundle records no query (D3D12 bundle restriction: no BeginQuery, EndQuery, ResolveQueryData): record queries in the "
    "calling list around execute_bundle";
const std::vector<Refusal> kRefusals = {
    {"transition_barrier", kBarriers},
    {"uav_barrier", kBarriers},
    {"aliasing_barrier", kBarriers},
    {"raw_transition", kBarriers},
    {"resource_barriers", kBarriers},
    {"clear_render_target", kClears},
    {"clear_depth_stencil", kClears},
    {"clear_unordered_access_view", kClears},
    {"copy_resource", kCopies},
    {"copy_buffer_region", kCopies},
    {"copy_from_upload", kCopies},
    {"upload", kCopies},
    {"resolve", "a bundle records no resolve (D3D12 bundle restriction: no ResolveSubresource): resolve in the calling list"},
    {"set_render_targets", kTargets},
    {"set_viewport", kViewports},
    {"set_viewports", kViewports},
    {"set_scissor", kScissors},
    {"set_scissors", kScissors},
    {"set_predication",
     "a bundle does not set predication (D3D12 bundle restriction: no SetPredication); it inherits the calling list's predicate: "
     "call set_predication on the calling list"},
    {"begin_query", kQueries},
    {"end_query", kQueries},
    {"resolve_query_data", kQueries},
    {"execute_bundle",
     "bundles nest one level only (D3D12: ExecuteBundle is called on a direct command list, never in a bundle): execute both "
     "bundles from the calling list"},
    {"generate_mips", "generate_mips records barriers and copies, which a bundle may not (D3D12 bundle restrictions): call it on the calling list"},
    {"pano_to_cubemap", "pano_to_cubemap records barriers, which a bundle may not (D3D12 bundle restrictions): call it on the calling list"},
};
}  // namespace

const std::vector<Refusal>& Refusals() {
    return kRefusals;
}

const char* RefusalRule(std::string_view call) {
    for (const Refusal& r : kRefusals)
        if (call == r.call) return r.rule;
    return nullptr;
}
}  // namespace bundlerules

// --------------------------------------------------------------------------------- recording

Bundle::Bundle(std::shared_ptr<DeviceContext> core, std::shared_ptr<PipelineState> initial) : m_Context(std::move(core)) {
    if (initial) {
        CheckDevice(initial->Context(), "pipeline '" + initial->Name() + "'", "create_bundle");
        m_Pipeline = initial;
        m_Commands.push_back(PipelineCmd{std::move(initial)});
    }
}

void Bundle::Refuse(const char* call) const {
    const char* rule = bundlerules::RefusalRule(call);
    throw InvalidArgument(std::string(call) + " in bundle '" + m_Name +
                          "': " + (rule ? rule : "not a call a bundle records (D3D12 bundle restrictions)"));
}

std::unique_lock<std::mutex> Bundle::Record(const char* what) {
    std::unique_lock<std::mutex> lock(m_Mutex);
    if (IsClosed())
        throw UseAfterFree(std::string(what) + ": bundle '" + m_Name +
                           "' is closed; a closed bundle is executed as it is (create another with "
                           "device.create_bundle() to record other calls)");
    return lock;
}

void Bundle::CheckDevice(const DeviceContext* core, const std::string& who, const char* what) const {
    if (core != m_Context.get()) throw InvalidArgument(std::string(what) + ": " + who + " belongs to another device than bundle '" + m_Name + "'");
}

void Bundle::CheckResource(const std::shared_ptr<Resource>& r, const char* what) const {
    if (!r) throw InvalidArgument(std::string(what) + ": None");
    r->CheckNotClosed(what);
    CheckDevice(&r->Context(), "resource '" + r->Name() + "'", what);
}

const RootSignature& Bundle::RootSignatureForArguments(const char* what) const {
    if (!m_Pipeline)
        throw InvalidArgument(std::string(what) + " in bundle '" + m_Name +
                              "': no pipeline set in the bundle yet. A bundle changes root arguments only after it sets the root signature "
                              "(D3D12 bundle semantics: set the calling list's root signature first to keep the inherited arguments); in "
                              "dx12kit set_pipeline_state binds the root signature: call set_pipeline_state in the bundle first");
    return *m_Pipeline->GetRootSignature();
}

void Bundle::CheckWork(bool dispatch, const char* what) const {
    if (!m_Pipeline)
        throw InvalidArgument(std::string(what) + " in bundle '" + m_Name +
                              "': no pipeline set in the bundle. A bundle does not inherit the calling list's pipeline state (D3D12: bundles "
                              "inherit every state except the pipeline state and primitive topology): call set_pipeline_state in the bundle, "
                              "or give device.create_bundle(pipeline=...)");
    if (dispatch != m_Pipeline->IsCompute())
        throw InvalidArgument(std::string(what) + " in bundle '" + m_Name + "': the pipeline set in the bundle ('" + m_Pipeline->Name() + "') is a " +
                              (m_Pipeline->IsCompute() ? "compute" : "graphics") + " pipeline");
}

void Bundle::SetPipelineState(const std::shared_ptr<PipelineState>& pso) {
    const auto lock = Record("set_pipeline_state");
    if (!pso) throw InvalidArgument("set_pipeline_state: None");
    CheckDevice(pso->Context(), "pipeline '" + pso->Name() + "'", "set_pipeline_state");
    m_Pipeline = pso;
    m_Commands.push_back(PipelineCmd{pso});
}

void Bundle::SetConstants(uint32_t rootIndex, const uint32_t* values, uint32_t count, uint32_t offset) {
    const char* what = "set_constants";
    const auto lock = Record(what);
    const RootParameterDesc& p = RootSignatureForArguments(what).Require(rootIndex, RootParamKind::Constants, what);
    if (count == 0) throw InvalidArgument(std::string(what) + ": no values");
    if (count > p.num32BitValues || offset > p.num32BitValues - count)
        throw InvalidArgument(std::string(what) + ": " + std::to_string(count) + " values at offset " + std::to_string(offset) + " exceed the " +
                              std::to_string(p.num32BitValues) + " constants of root parameter " + std::to_string(rootIndex));
    m_Commands.push_back(ConstantsCmd{rootIndex, offset, std::vector<uint32_t>(values, values + count)});
}

void Bundle::SetRootView(RootParamKind kind, uint32_t rootIndex, const std::shared_ptr<Resource>& buffer, uint64_t offset) {
    const char* what = kind == RootParamKind::Cbv ? "set_root_cbv" : kind == RootParamKind::Srv ? "set_root_srv" : "set_root_uav";
    const auto lock = Record(what);
    RootSignatureForArguments(what).Require(rootIndex, kind, what);
    CheckResource(buffer, what);
    if (!buffer->IsBuffer()) throw InvalidArgument(std::string(what) + ": resource '" + buffer->Name() + "' is a texture; root views take buffers");
    m_Commands.push_back(RootViewCmd{kind, rootIndex, buffer, offset});
}

void Bundle::SetShaderResourceView(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& r, uint32_t mip, uint32_t mipCount,
                                   DXGI_FORMAT format, const BufferViewArgs& buffer) {
    const char* what = "set_shader_resource_view";
    const auto lock = Record(what);
    RootSignatureForArguments(what).Require(rootIndex, RootParamKind::Table, what);
    CheckResource(r, what);
    m_Commands.push_back(ViewCmd{false, rootIndex, offset, r, mip, mipCount, format, buffer});
}

void Bundle::SetUnorderedAccessView(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& r, uint32_t mip,
                                    const BufferViewArgs& buffer) {
    const char* what = "set_unordered_access_view";
    const auto lock = Record(what);
    RootSignatureForArguments(what).Require(rootIndex, RootParamKind::Table, what);
    CheckResource(r, what);
    if (!r->AllowsUav()) throw InvalidArgument(std::string(what) + ": resource '" + r->Name() + "' was not created with uav=True");
    m_Commands.push_back(ViewCmd{true, rootIndex, offset, r, mip, 1, DXGI_FORMAT_UNKNOWN, buffer});
}

void Bundle::SetConstantBufferView(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& buffer, uint64_t bufferOffset,
                                   uint32_t size) {
    const char* what = "set_constant_buffer_view";
    const auto lock = Record(what);
    RootSignatureForArguments(what).Require(rootIndex, RootParamKind::Table, what);
    CheckResource(buffer, what);
    m_Commands.push_back(CbvCmd{rootIndex, offset, buffer, bufferOffset, size});
}

void Bundle::SetSampler(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Sampler>& sampler) {
    const char* what = "set_sampler";
    const auto lock = Record(what);
    RootSignatureForArguments(what).Require(rootIndex, RootParamKind::Table, what);
    if (!sampler) throw InvalidArgument(std::string(what) + ": None");
    CheckDevice(sampler->Context(), "sampler '" + sampler->Name() + "'", what);
    m_Commands.push_back(SamplerCmd{rootIndex, offset, sampler});
}

void Bundle::SetVertexBuffer(uint32_t slot, const std::shared_ptr<Resource>& buffer, uint32_t stride, uint64_t offset) {
    const char* what = "set_vertex_buffer";
    const auto lock = Record(what);
    CheckResource(buffer, what);
    if (!buffer->IsBuffer()) throw InvalidArgument(std::string(what) + ": resource '" + buffer->Name() + "' is not a buffer");
    if (stride == 0) throw InvalidArgument(std::string(what) + ": stride 0");
    if (slot >= D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)
        throw InvalidArgument(std::string(what) + ": slot " + std::to_string(slot) + " out of range (0..31)");
    m_Commands.push_back(VertexBufferCmd{slot, buffer, stride, offset});
}

void Bundle::SetIndexBuffer(const std::shared_ptr<Resource>& buffer, DXGI_FORMAT format, uint64_t offset) {
    const char* what = "set_index_buffer";
    const auto lock = Record(what);
    CheckResource(buffer, what);
    if (format != DXGI_FORMAT_R16_UINT && format != DXGI_FORMAT_R32_UINT)
        throw InvalidArgument(std::string(what) + ": format must be r16_uint or r32_uint");
    m_Commands.push_back(IndexBufferCmd{buffer, format, offset});
}

void Bundle::SetDynamicConstantBuffer(uint32_t rootIndex, const void* data, uint64_t bytes) {
    const char* what = "set_dynamic_constant_buffer";
    const auto lock = Record(what);
    RootSignatureForArguments(what).Require(rootIndex, RootParamKind::Cbv, what);
    if (bytes == 0) throw InvalidArgument(std::string(what) + ": 0 bytes");
    if (bytes > 65536) throw InvalidArgument(std::string(what) + ": " + std::to_string(bytes) + " bytes exceed the 65536-byte constant buffer limit");
    const auto* p = static_cast<const uint8_t*>(data);
    m_Commands.push_back(DynamicCmd{0, rootIndex, 0, DXGI_FORMAT_UNKNOWN, std::vector<uint8_t>(p, p + bytes)});
}

void Bundle::SetDynamicVertexBuffer(uint32_t slot, const void* data, uint64_t bytes, uint32_t stride) {
    const char* what = "set_dynamic_vertex_buffer";
    const auto lock = Record(what);
    if (bytes == 0) throw InvalidArgument(std::string(what) + ": 0 bytes");
    if (slot >= D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)
        throw InvalidArgument(std::string(what) + ": slot " + std::to_string(slot) + " out of range (0..31)");
    if (stride == 0 || bytes % stride) throw InvalidArgument(std::string(what) + ": size is not a multiple of the stride");
    if (bytes > 0xFFFFFFFFull) throw InvalidArgument(std::string(what) + ": larger than 4 GiB");
    const auto* p = static_cast<const uint8_t*>(data);
    m_Commands.push_back(DynamicCmd{1, slot, stride, DXGI_FORMAT_UNKNOWN, std::vector<uint8_t>(p, p + bytes)});
}

void Bundle::SetDynamicIndexBuffer(const void* data, uint64_t bytes, DXGI_FORMAT format) {
    const char* what = "set_dynamic_index_buffer";
    const auto lock = Record(what);
    if (bytes == 0) throw InvalidArgument(std::string(what) + ": 0 bytes");
    if (format != DXGI_FORMAT_R16_UINT && format != DXGI_FORMAT_R32_UINT)
        throw InvalidArgument(std::string(what) + ": indices must be uint16 or uint32");
    if (bytes > 0xFFFFFFFFull) throw InvalidArgument(std::string(what) + ": larger than 4 GiB");
    const auto* p = static_cast<const uint8_t*>(data);
    m_Commands.push_back(DynamicCmd{2, 0, 0, format, std::vector<uint8_t>(p, p + bytes)});
}

void Bundle::SetStencilRef(uint32_t ref) {
    const auto lock = Record("set_stencil_ref");
    if (ref > 255) throw InvalidArgument("set_stencil_ref: the reference is 8-bit (0..255), got " + std::to_string(ref));
    m_Commands.push_back(StencilRefCmd{ref});
}

void Bundle::SetBlendFactor(const float rgba[4]) {
    const auto lock = Record("set_blend_factor");
    BlendFactorCmd c{};
    for (int i = 0; i < 4; ++i) {
        if (!std::isfinite(rgba[i])) throw InvalidArgument("set_blend_factor: component " + std::to_string(i) + " is not finite");
        c.rgba[i] = rgba[i];
    }
    m_Commands.push_back(c);
}

void Bundle::Draw(uint32_t vertexCount, uint32_t instanceCount, uint32_t startVertex, uint32_t startInstance) {
    const auto lock = Record("draw");
    CheckWork(false, "draw");
    m_Commands.push_back(DrawCmd{vertexCount, instanceCount, startVertex, 0, startInstance, false});
}

void Bundle::DrawIndexed(uint32_t indexCount, uint32_t instanceCount, uint32_t startIndex, int32_t baseVertex, uint32_t startInstance) {
    const auto lock = Record("draw_indexed");
    CheckWork(false, "draw_indexed");
    m_Commands.push_back(DrawCmd{indexCount, instanceCount, startIndex, baseVertex, startInstance, true});
}

void Bundle::Dispatch(uint32_t x, uint32_t y, uint32_t z) {
    const auto lock = Record("dispatch");
    CheckWork(true, "dispatch");
    if (x == 0 || y == 0 || z == 0) throw InvalidArgument("dispatch: thread group counts must be positive");
    if (x > 65535 || y > 65535 || z > 65535) throw InvalidArgument("dispatch: at most 65535 thread groups per dimension");
    m_Commands.push_back(DispatchCmd{x, y, z});
}

void Bundle::ExecuteIndirect(const std::shared_ptr<CommandSignature>& signature, uint32_t maxCount, const std::shared_ptr<Resource>& arguments,
                             uint64_t argumentOffset, const std::shared_ptr<Resource>& count, uint64_t countOffset,
                             const std::vector<std::shared_ptr<Resource>>& referenced) {
    const char* what = "execute_indirect";
    const auto lock = Record(what);
    if (!signature) throw InvalidArgument("execute_indirect: signature is None");
    CheckDevice(&signature->Context(), "command signature '" + signature->Name() + "'", what);
    CheckWork(signature->IsCompute(), what);
    const RootSignature* set = signature->Root() ? &RootSignatureForArguments(what) : nullptr;
    if (set && signature->Root().get() != set)  // the message is built only on failure
        signature->CheckBoundRoot(set, "execute_indirect in bundle '" + m_Name + "'",
                                  "the root signature the bundle set (with pipeline '" + m_Pipeline->Name() + "')",
                                  "Set a pipeline of the signature's root signature in the bundle first");
    CheckResource(arguments, "execute_indirect: argument_buffer");
    if (count) CheckResource(count, "execute_indirect: count_buffer");
    for (size_t i = 0; i < referenced.size(); ++i) CheckResource(referenced[i], ("execute_indirect: referenced[" + std::to_string(i) + "]").c_str());
    m_Commands.push_back(IndirectCmd{signature, maxCount, arguments, count, argumentOffset, countOffset, referenced});
}

void Bundle::Close() {
    const std::lock_guard<std::mutex> lock(m_Mutex);
    m_Pipeline.reset();  // recording state only (the commands hold what they name)
    m_Closed.store(true, std::memory_order_release);
}

size_t Bundle::CommandCount() const {
    if (IsClosed()) return m_Commands.size();
    const std::lock_guard<std::mutex> lock(m_Mutex);
    return m_Commands.size();
}

// ----------------------------------------------------------------------------------- replay

namespace {
template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;
}  // namespace

const char* Bundle::CallName(const Command& command) {
    return std::visit(
        Overloaded{
            [](const PipelineCmd&) { return "set_pipeline_state"; },
            [](const ConstantsCmd&) { return "set_constants"; },
            [](const RootViewCmd& c) {
                return c.kind == RootParamKind::Cbv ? "set_root_cbv" : c.kind == RootParamKind::Srv ? "set_root_srv" : "set_root_uav";
            },
            [](const ViewCmd& c) { return c.uav ? "set_unordered_access_view" : "set_shader_resource_view"; },
            [](const CbvCmd&) { return "set_constant_buffer_view"; },
            [](const SamplerCmd&) { return "set_sampler"; },
            [](const VertexBufferCmd&) { return "set_vertex_buffer"; },
            [](const IndexBufferCmd&) { return "set_index_buffer"; },
            [](const DynamicCmd& c) {
                return c.what == 0 ? "set_dynamic_constant_buffer" : c.what == 1 ? "set_dynamic_vertex_buffer" : "set_dynamic_index_buffer";
            },
            [](const StencilRefCmd&) { return "set_stencil_ref"; },
            [](const BlendFactorCmd&) { return "set_blend_factor"; },
            [](const DrawCmd& c) { return c.indexed ? "draw_indexed" : "draw"; },
            [](const DispatchCmd&) { return "dispatch"; },
            [](const IndirectCmd&) { return "execute_indirect"; },
        },
        command);
}

void Bundle::ReplayInto(CommandList& cl) const {
    size_t i = 0;
    try {
        for (; i < m_Commands.size(); ++i)
            std::visit(Overloaded{
                           [&](const PipelineCmd& c) { cl.SetPipelineState(c.pso); },
                           [&](const ConstantsCmd& c) { cl.SetConstants(c.rootIndex, c.values.data(), uint32_t(c.values.size()), c.offset); },
                           [&](const RootViewCmd& c) { cl.SetRootView(c.kind, c.rootIndex, c.buffer, c.offset); },
                           [&](const ViewCmd& c) {
                               if (c.uav) cl.SetUnorderedAccessView(c.rootIndex, c.offset, c.resource, c.mip, c.view);
                               else cl.SetShaderResourceView(c.rootIndex, c.offset, c.resource, c.mip, c.mipCount, c.format, c.view);
                           },
                           [&](const CbvCmd& c) { cl.SetConstantBufferView(c.rootIndex, c.offset, c.buffer, c.bufferOffset, c.size); },
                           [&](const SamplerCmd& c) { cl.SetSampler(c.rootIndex, c.offset, c.sampler); },
                           [&](const VertexBufferCmd& c) { cl.SetVertexBuffer(c.slot, c.buffer, c.stride, c.offset); },
                           [&](const IndexBufferCmd& c) { cl.SetIndexBuffer(c.buffer, c.format, c.offset); },
                           [&](const DynamicCmd& c) {
                               if (c.what == 0) cl.SetDynamicConstantBuffer(c.index, c.data.data(), c.data.size());
                               else if (c.what == 1) cl.SetDynamicVertexBuffer(c.index, c.data.data(), c.data.size(), c.stride);
                               else cl.SetDynamicIndexBuffer(c.data.data(), c.data.size(), c.format);
                           },
                           [&](const StencilRefCmd& c) { cl.SetStencilRef(c.ref); },
                           [&](const BlendFactorCmd& c) { cl.SetBlendFactor(c.rgba); },
                           [&](const DrawCmd& c) {
                               if (c.indexed) cl.DrawIndexed(c.count, c.instances, c.start, c.baseVertex, c.startInstance);
                               else cl.Draw(c.count, c.instances, c.start, c.startInstance);
                           },
                           [&](const DispatchCmd& c) { cl.Dispatch(c.x, c.y, c.z); },
                           [&](const IndirectCmd& c) {
                               cl.m_ReplayBundle = this;  // named in a message only if one is needed
                               cl.m_ReplayCall = i;
                               struct Clear {
                                   const Bundle*& b;
                                   ~Clear() { b = nullptr; }
                               } clear{cl.m_ReplayBundle};
                               cl.ExecuteIndirect(c.signature, c.maxCount, c.arguments, c.argumentOffset, c.count, c.countOffset, c.referenced);
                           },
                       },
                       m_Commands[i]);
    } catch (const Error& e) {
        // The same error type, naming the bundle and the call (built only on failure).
        const std::string where = "execute_bundle: bundle '" + m_Name + "', call " + std::to_string(i) + " (" + CallName(m_Commands[i]) + "): ";
        if (dynamic_cast<const UseAfterFree*>(&e)) throw UseAfterFree(where + e.what());
        if (dynamic_cast<const InvalidArgument*>(&e)) throw InvalidArgument(where + e.what());
        if (dynamic_cast<const ResourceStateError*>(&e)) throw ResourceStateError(where + e.what());
        throw;
    }
}

// ------------------------------------------------------------------- CommandList::ExecuteBundle

void CommandList::ExecuteBundle(const std::shared_ptr<Bundle>& bundle) {
    const auto recording = Begin("execute_bundle");
    if (!bundle) throw InvalidArgument("execute_bundle: None");
    const D3D12_COMMAND_LIST_TYPE t = m_Queue->Type();
    if (t != D3D12_COMMAND_LIST_TYPE_DIRECT)
        throw InvalidArgument(
            std::string("execute_bundle: bundles run on direct command lists only (D3D12: ExecuteBundle's caller is a direct list); "
                        "this list is for the ") +
            d3d12rules::QueueTypeName(t) + " queue: execute bundle '" + bundle->Name() + "' from a list of the direct queue");
    if (bundle->Context() != m_Context.get())
        throw InvalidArgument("execute_bundle: bundle '" + bundle->Name() +
                              "' belongs to another device, so its descriptor heaps are not this list's (D3D12: a bundle's descriptor heaps "
                              "must be the executing list's)");
    if (!bundle->IsClosed())
        throw InvalidArgument("execute_bundle: bundle '" + bundle->Name() +
                              "' is not closed (D3D12: only a closed bundle is executed): call "
                              "bundle.close() after recording it");
    // The list keeps the bundle (and so what its calls name) until its work completes.
    if (m_Tracked.empty() || m_Tracked.back() != bundle) m_Tracked.push_back(bundle);
    bundle->ReplayInto(*this);
}

}  // namespace dx12kit
