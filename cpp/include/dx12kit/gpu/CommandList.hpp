// CommandList: records work for one queue, and takes care of states, descriptors and upload
// memory on the way.
//
//   CommandList
//   +-- ID3D12GraphicsCommandList + allocator (pooled by the queue)
//   +-- ResourceStateTracker     every use requests its state; barriers batched, flushed before
//   |                            each draw/dispatch/copy/clear; pending ones resolved at execute
//   +-- DynamicDescriptorHeap x2 (CBV/SRV/UAV, SAMPLER) staged per root table, copied at draw
//   +-- UploadBuffer             linear upload memory for constants, vertices, texture data
//   +-- bindings                 what the bound tables/root views/targets need, requested at a
//                                draw or dispatch when they changed or anything moved a tracked
//                                state since the last one (so a copy between binds stays correct)
//   +-- tracked objects          pipelines, samplers... kept alive until the fence completes
//
// A list records until it is executed; after that it is closed and every recording call raises.
// One thread records a list (many lists may be recorded in parallel). Every recording call holds
// the list's recording lock, which execute takes too: a thread recording while another executes
// the list either finishes first (its work is executed) or finds the list closed (UseAfterFree),
// never records into a list being submitted.
//
// A failed execute (invalid state, queue-type rule, ...) changes nothing: the list stays open and
// can be recorded into and executed again. Only a failing native Close leaves it dead (IsDead).
#pragma once

#include "dx12kit/base/OwnerMutex.hpp"
#include "dx12kit/descriptors/DynamicDescriptorHeap.hpp"
#include "dx12kit/devicecontext/UploadBuffer.hpp"
#include "dx12kit/gpu/Pipeline.hpp"
#include "dx12kit/gpu/QueryHeap.hpp"
#include "dx12kit/platform/ComPtr.hpp"
#include "dx12kit/platform/D3D12Platform.hpp"
#include "dx12kit/resources/Resource.hpp"
#include "dx12kit/resources/ResourceStateTracker.hpp"

#include <array>
#include <atomic>
#include <memory>
#include <string>
#include <mutex>
#include <thread>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace dx12kit {

class Bundle;
class Device;
class DeviceContext;
class CommandQueue;
class CommandSignature;

class CommandList {
public:
    CommandList(std::shared_ptr<Device> device, std::shared_ptr<CommandQueue> queue, ComPtr<ID3D12CommandAllocator> allocator,
                ComPtr<ID3D12GraphicsCommandList> list);
    ~CommandList();
    CommandList(const CommandList&) = delete;
    CommandList& operator=(const CommandList&) = delete;

    const std::shared_ptr<DeviceContext>& Context() const { return m_Context; }
    /// The native list (borrowed). Work recorded on it directly bypasses state tracking. Null once
    /// the list was executed: record native calls through RecordNative, which checks that first.
    ID3D12GraphicsCommandList* D3D12List() const { return m_d3d12List.Get(); }
    /// Runs `record(ID3D12GraphicsCommandList*)` as the recording call `what`: under the recording
    /// lock, after the check every recording call makes (UseAfterFree on an executed, closed or dead
    /// list), so no execute can take the list meanwhile. The native calls bypass state tracking.
    template <typename Record>
    void RecordNative(const char* what, Record&& record) {
        const auto recording = Begin(what);
        record(m_d3d12List.Get());
    }
    CommandQueue& Queue() const { return *m_Queue; }
    /// Its name, for messages and debuggers ("command list" unless set; SetName also names the
    /// native list).
    const std::string& Name() const { return m_Name; }
    void SetName(std::string name);
    /// No more recording: executed, or closed by an execute whose later step failed.
    bool IsClosed() const { return m_Closed.load(std::memory_order_acquire); }
    bool IsExecuted() const { return m_Executed.load(std::memory_order_acquire); }
    /// Its native Close failed: it can never be executed.
    bool IsDead() const { return m_Dead; }
    /// The recording lock (recursive); waits through WaitHooks::blocking when another thread holds it.
    std::unique_lock<OwnerMutex> LockRecording();
    /// LockRecording for CommandQueue::Execute: recording calls that start meanwhile let it go first
    /// (a tight recording loop would otherwise keep winning the mutex).
    std::unique_lock<OwnerMutex> LockForExecute();

    // ---- copies -------------------------------------------------------------------------
    /// Uploads tightly packed texel rows (or buffer bytes at `dstOffset`) through upload memory.
    /// `what` names the call in errors ("upload", "write_buffer").
    void Upload(const std::shared_ptr<Resource>& dst, const void* data, uint64_t bytes, uint32_t mip, uint32_t arraySlice, uint64_t dstOffset = 0,
                const char* what = "upload");
    void CopyResource(const std::shared_ptr<Resource>& dst, const std::shared_ptr<Resource>& src);
    void CopyBufferRegion(const std::shared_ptr<Resource>& dst, uint64_t dstOffset, const std::shared_ptr<Resource>& src, uint64_t srcOffset,
                          uint64_t bytes);
    /// Copies from upload memory this list allocated (the zero-copy path).
    void CopyFromUpload(const std::shared_ptr<Resource>& dst, const UploadAllocation& src, uint32_t mip, uint32_t arraySlice, uint64_t dstOffset);
    /// Copies subresource (mip, slice) of a texture into a buffer with the placed footprint.
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT CopyTextureToBuffer(const std::shared_ptr<Resource>& dstBuffer, const std::shared_ptr<Resource>& src,
                                                           uint32_t mip, uint32_t arraySlice);
    /// Resolves subresource `srcSub` of multisampled `src` into subresource `dstSub` of
    /// single-sample `dst` (ResolveSubresource; RESOLVE_SOURCE / RESOLVE_DEST through the state
    /// tracker). `format` (UNKNOWN: src's view format) must belong to both textures' families and
    /// support MULTISAMPLE_RESOLVE. Direct lists only.
    void Resolve(const std::shared_ptr<Resource>& dst, const std::shared_ptr<Resource>& src, uint32_t dstSub, uint32_t srcSub, DXGI_FORMAT format);

    // ---- barriers -------------------------------------------------------------------------
    void TransitionBarrier(const std::shared_ptr<Resource>& r, D3D12_RESOURCE_STATES state, uint32_t sub);
    void UavBarrier(const std::shared_ptr<Resource>& r);
    /// `parkState`: the state `after` is taken to be in when a list that has not used it yet
    /// activates it (D3D12Rules rule 6c; dx12kit puts it there before the list when it is not).
    void AliasingBarrier(const std::shared_ptr<Resource>& before, const std::shared_ptr<Resource>& after,
                         D3D12_RESOURCE_STATES parkState = D3D12_RESOURCE_STATE_COMMON);
    /// Records a transition directly, without telling the tracker (escape hatch; validation
    /// mode notices when it leaves a resource in the wrong state).
    void RawTransition(const std::shared_ptr<Resource>& r, D3D12_RESOURCE_STATES before, D3D12_RESOURCE_STATES after, uint32_t sub);
    bool AutoUavBarriers = true;

    // ---- pipeline and root arguments ----------------------------------------------------
    void SetPipelineState(const std::shared_ptr<PipelineState>& pso);
    /// The pipeline bound by SetPipelineState (null when none is, e.g. after a built-in pass).
    const std::shared_ptr<PipelineState>& BoundPipeline() const { return m_Pipeline; }
    void SetConstants(uint32_t rootIndex, const uint32_t* values, uint32_t count, uint32_t offset);
    void SetRootView(RootParamKind kind, uint32_t rootIndex, const std::shared_ptr<Resource>& buffer, uint64_t offset);

    // ---- descriptor tables ----------------------------------------------------------------
    /// Stages a view of `r` at (rootIndex, offset). Textures: mips [mip, mip + mipCount) in
    /// `format` (UNKNOWN: the texture's). Buffers (BufferView.hpp): the view `buffer` and `format`
    /// (a typed view) describe, the rest from the bound pipeline's declaration at that slot;
    /// `mip`, `mipCount` must be 0. A texture with any `buffer` argument given throws InvalidArgument.
    void SetShaderResourceView(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& r, uint32_t mip, uint32_t mipCount,
                               DXGI_FORMAT format, const BufferViewArgs& buffer = BufferViewArgs());
    /// As SetShaderResourceView: mip `mip` of a texture (no `buffer` argument), or a buffer view.
    void SetUnorderedAccessView(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& r, uint32_t mip,
                                const BufferViewArgs& buffer = BufferViewArgs());
    /// The buffer view SetShaderResourceView / SetUnorderedAccessView would write at (rootIndex,
    /// offset) for `buffer` (ResolveBufferView with the bound pipeline's declaration there).
    BufferViewDesc ResolveBufferViewAt(bool uav, uint32_t rootIndex, uint32_t offset, const Resource& buffer, const BufferViewArgs& args,
                                       const char* what) const;
    /// Stages a CBV of `buffer` at (rootIndex, offset): bytes [bufferOffset, bufferOffset + size), or with
    /// size 0 the whole buffer (bufferOffset 0) or the rest of it (Resource::CbvRange has the rules).
    void SetConstantBufferView(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& buffer, uint64_t bufferOffset = 0,
                               uint32_t size = 0);
    void SetSampler(uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Sampler>& sampler);
    /// Clears a UAV-capable texture (mip 0, every slice) or buffer. A buffer's float clear goes through a
    /// typed R32_FLOAT view (values[0] in every 4 bytes), its uint clear through the raw view (values[0]
    /// as uint32): D3D12 allows only the uint clear on raw views.
    void ClearUnorderedAccessViewFloat(const std::shared_ptr<Resource>& r, const float values[4]);
    void ClearUnorderedAccessViewUint(const std::shared_ptr<Resource>& r, const uint32_t values[4]);

    // ---- output merger and input assembler --------------------------------------------------
    void SetRenderTargets(const std::vector<std::shared_ptr<Resource>>& targets, const std::shared_ptr<Resource>& depth, uint32_t mip);
    void SetViewport(float x, float y, float w, float h, float minDepth, float maxDepth);
    void SetScissor(int32_t left, int32_t top, int32_t right, int32_t bottom);
    /// Viewports / scissor rectangles 0..n-1 (1 <= n <= 16), for SV_ViewportArrayIndex; each
    /// checked as SetViewport / SetScissor check one.
    void SetViewports(const std::vector<D3D12_VIEWPORT>& viewports);
    void SetScissors(const std::vector<D3D12_RECT>& rects);
    /// The stencil reference value the bound pipeline's stencil test compares with (0..255).
    void SetStencilRef(uint32_t ref);
    /// The blend factor (OMSetBlendFactor) that BLEND_FACTOR / INV_BLEND_FACTOR blend states read.
    /// A list starts with zeros, as D3D12 documents (ClearState: the state at creation); the first
    /// draw reading the factor records them when this was not called. Each component must be finite.
    void SetBlendFactor(const float rgba[4]);
    /// Every array slice (cube face) of `mip` unless `arraySlice` names one; a 3D texture's mip whole.
    static constexpr uint32_t kAllSlices = 0xFFFFFFFFu;
    void ClearRenderTarget(const std::shared_ptr<Resource>& target, const float rgba[4], uint32_t mip, uint32_t arraySlice = kAllSlices);
    /// Clears the depth and/or stencil of (mip, arraySlice) of a depth-stencil texture, or of every
    /// slice of the mip with kAllSlices (clearStencil on a format without stencil throws unless
    /// clearDepth is also set, when it is ignored). Slice 0 by default (the documented signature).
    void ClearDepthStencil(const std::shared_ptr<Resource>& depth, float d, uint8_t stencil, bool clearDepth = true, bool clearStencil = true,
                           uint32_t mip = 0, uint32_t arraySlice = 0);
    /// DiscardResource of (mip, arraySlice) of a texture, every mip / every slice with kAllMips /
    /// kAllSlices: its contents become undefined, and it counts as initialised (the first use of a
    /// placed render target or depth buffer after it takes over memory). The state D3D12 requires:
    /// on a direct list RENDER_TARGET (render-target textures) or DEPTH_WRITE (depth-stencil ones),
    /// else UNORDERED_ACCESS; on a compute list UNORDERED_ACCESS (the texture needs the UAV flag);
    /// a copy list cannot discard. Not predicated.
    static constexpr uint32_t kAllMips = 0xFFFFFFFFu;
    void DiscardResource(const std::shared_ptr<Resource>& texture, uint32_t mip = kAllMips, uint32_t arraySlice = kAllSlices);
    void SetVertexBuffer(uint32_t slot, const std::shared_ptr<Resource>& buffer, uint32_t stride, uint64_t offset);
    void SetIndexBuffer(const std::shared_ptr<Resource>& buffer, DXGI_FORMAT format, uint64_t offset);

    // ---- dynamic upload data ------------------------------------------------------------------
    UploadAllocation AllocateUpload(uint64_t bytes, uint64_t alignment);
    void SetDynamicConstantBuffer(uint32_t rootIndex, const void* data, uint64_t bytes);
    void SetDynamicVertexBuffer(uint32_t slot, const void* data, uint64_t bytes, uint32_t stride);
    void SetDynamicIndexBuffer(const void* data, uint64_t bytes, DXGI_FORMAT format);
    void SetDynamicStructuredBuffer(uint32_t rootIndex, const void* data, uint64_t bytes);

    // ---- for built-in passes (features/: generate_mips, pano_to_cubemap; CommandListPasses.cpp) ----
    // The features above gpu/ record through the public calls and these hooks; each is what a
    // recording call does inside (nothing is added to the draw/dispatch paths).
    /// The device the list records for (borrowed; the list keeps it alive).
    Device& DeviceRef() const { return *m_Device; }
    /// Takes the recording lock (after any execute already waiting for it, unless this thread holds
    /// the lock already), then the check every recording call makes (UseAfterFree on a closed list).
    /// Held for the whole recording call; recursive, so a pass calls the public calls under it.
    std::unique_lock<OwnerMutex> Begin(const char* what);
    /// Raises when a predicate is set and the backend would not predicate the copy/clear/resolve `what`
    /// (one compare where no predicate is set).
    void CheckPredicatable(const char* what) const {
        if (m_Predicate && !m_PredicatesCopies) RefuseUnpredicated(what);
    }
    /// InvalidArgument on a copy-queue list (it runs no shaders).
    void CheckNotCopy(const char* what) const;
    /// InvalidArgument for a resource of another device; also notes the use (NoteUse).
    void CheckSameDevice(const Resource& r, const char* what) const;
    /// The list's first use of `r` overwrites all of it (`whole`): its zeroing is skipped. Call before
    /// the write's transition.
    void NoteFullWrite(const Resource& r, bool whole);
    /// No pipeline bound, no root arguments (after built-in passes: the caller's next draw or
    /// dispatch must set its own). `by` names the built-in (generate_mips, pano_to_cubemap).
    void UnbindPipeline(const char* by);
    /// A tracked copy of subresource `sub` of `src` into the same subresource of `dst` (the whole
    /// subresource: it initializes that subresource of `dst`, D3D12Rules rule 6d).
    void CopySubresource(const std::shared_ptr<Resource>& dst, const std::shared_ptr<Resource>& src, uint32_t sub, const char* what);
    /// A pass reads subresource `sub` of `r` in `state` further on: when the tracker follows r's
    /// contents (rule 6d validation), requests the state now and notes the read as `what`'s.
    void NoteContentsRead(const std::shared_ptr<Resource>& r, D3D12_RESOURCE_STATES state, uint32_t sub, const char* what);
    /// DiscardResource of mips [firstMip, MipLevels) of every slice of `texture`, which the caller
    /// then writes in full: for a placed render target or depth buffer in shared memory, the
    /// initialization D3D12 requires after an activation (rule 6d). Recorded in RENDER_TARGET on a
    /// direct list, UNORDERED_ACCESS on a compute list.
    void DiscardMips(const std::shared_ptr<Texture>& texture, uint32_t firstMip, const char* what);
    /// Stages the descriptor `cpu` (a view the pass made itself, e.g. of a mip in another format) at
    /// (rootIndex, offset) of the view tables, and binds mips [firstMip, firstMip + mipCount) of `r`
    /// in `state` for the next draw or dispatch (`uav`: written).
    void StageView(uint32_t rootIndex, uint32_t offset, D3D12_CPU_DESCRIPTOR_HANDLE cpu, const std::shared_ptr<Resource>& r,
                   D3D12_RESOURCE_STATES state, uint32_t firstMip, uint32_t mipCount, bool uav);
    /// Stages the null descriptor `cpu` at (rootIndex, offset): the slot binds no resource.
    void StageNullView(uint32_t rootIndex, uint32_t offset, D3D12_CPU_DESCRIPTOR_HANDLE cpu);
    /// While alive, null table slots are deliberate (CheckTableSlots stands aside): a built-in pass that leaves the outputs it does not write null.
    class BuiltinPassScope {
    public:
        explicit BuiltinPassScope(CommandList& list) : m_List(list) { m_List.m_BuiltinPass = true; }
        ~BuiltinPassScope() { m_List.m_BuiltinPass = false; }
        BuiltinPassScope(const BuiltinPassScope&) = delete;
        BuiltinPassScope& operator=(const BuiltinPassScope&) = delete;

    private:
        CommandList& m_List;
    };

    // ---- work -------------------------------------------------------------------------------
    void Draw(uint32_t vertexCount, uint32_t instanceCount, uint32_t startVertex, uint32_t startInstance);
    void DrawIndexed(uint32_t indexCount, uint32_t instanceCount, uint32_t startIndex, int32_t baseVertex, uint32_t startInstance);
    void Dispatch(uint32_t x, uint32_t y, uint32_t z);
    // ---- batched work: one draw or dispatch per row of `constants` ----------------------
    // `constants` holds `rows` x `k` 32-bit values; before each draw/dispatch its row is set as the k
    // root constants [0, k) of root parameter `rootIndex`. Checks, state tracking and UAV barriers are
    // those of SetConstants + Draw/DrawIndexed/Dispatch per row, all under one recording lock: the
    // bindings are settled at the first row, and again at every row only where something can change
    // between two draws (automatic UAV barriers with UAVs bound, or validation mode). rows == 0
    // records nothing (the arguments are still checked).
    void DrawMany(uint32_t vertexCount, uint32_t instanceCount, const uint32_t* constants, uint32_t rows, uint32_t k, uint32_t rootIndex);
    void DrawIndexedMany(uint32_t indexCount, uint32_t instanceCount, const uint32_t* constants, uint32_t rows, uint32_t k, uint32_t rootIndex);
    /// `groups`: 3 values (x, y, z for every row), or rows x 3 with `perRowGroups`; each 1..65535,
    /// all checked before anything is recorded.
    void DispatchMany(const uint32_t* groups, bool perRowGroups, const uint32_t* constants, uint32_t rows, uint32_t k, uint32_t rootIndex);

    // ---- indirect work (CommandListIndirect.cpp; the rules: dx12kit/gpu/CommandSignature.hpp) ----
    /// ExecuteIndirect of up to `maxCount` commands of `signature` from `arguments` at `argumentOffset`
    /// (a multiple of 4), as many as the uint32 in `count` at `countOffset` says when `count` is given.
    /// Both buffers go to INDIRECT_ARGUMENT through the state tracker; the bound pipeline (and root
    /// signature, when the signature changes root arguments) must match the signature. maxCount 0
    /// records nothing. InvalidArgument names the rule broken.
    /// `referenced`: the buffers the commands' vertex/index buffer views and root CBV/SRV/UAV
    /// addresses point into (required when the signature changes root CBVs, refused when no argument
    /// carries an address); the tracker moves each to CommandSignature::ReferencedStates (the rule:
    /// indirectrules::ReferencedState), refusing them when that holds both a write (root UAV) and a
    /// read. Where the backend ignores root CBV arguments (CommandSignature::EmulatesCbvs)
    /// a built-in pass expands the commands on the GPU (CommandListIndirectCbv.cpp); an address in
    /// none of them raises at the queue's next wait or read (FenceChecks.hpp) and that command is
    /// not drawn.
    void ExecuteIndirect(const std::shared_ptr<CommandSignature>& signature, uint32_t maxCount, const std::shared_ptr<Resource>& arguments,
                         uint64_t argumentOffset, const std::shared_ptr<Resource>& count, uint64_t countOffset,
                         const std::vector<std::shared_ptr<Resource>>& referenced = {});

    // ---- bundles (Bundle.cpp; the rules: dx12kit/gpu/Bundle.hpp) --------------------------------
    /// ExecuteBundle: replays closed `bundle`'s calls into this direct list (emulated, Bundle.hpp says
    /// why). InvalidArgument for a list of another queue type, a bundle not closed or of another device.
    void ExecuteBundle(const std::shared_ptr<Bundle>& bundle);

    // ---- queries and predication (QueryPasses.cpp; the rules: dx12kit/gpu/QueryHeap.hpp) ---------
    /// BeginQuery / EndQuery of query `index` of `heap`. Timestamps take EndQuery only. Every query a
    /// list begins is ended in it before it is executed (CheckQueriesEnded). The heap lives until the
    /// list's work completes.
    void BeginQuery(const std::shared_ptr<QueryHeap>& heap, D3D12_QUERY_TYPE type, uint32_t index);
    void EndQuery(const std::shared_ptr<QueryHeap>& heap, D3D12_QUERY_TYPE type, uint32_t index);
    /// ResolveQueryData of queries [start, start + count) into buffer `dst` at `offset` (a multiple
    /// of 8), which the state tracker moves to COPY_DEST. Binary occlusion on a backend without
    /// platform::QuerySupport::binaryOcclusion01 goes through the built-in 0/1 pass (BinaryPass).
    void ResolveQueryData(const std::shared_ptr<QueryHeap>& heap, D3D12_QUERY_TYPE type, uint32_t start, uint32_t count,
                          const std::shared_ptr<Resource>& dst, uint64_t offset);
    /// SetPredication on the 64-bit value of `buffer` at `offset` (a multiple of 8), which the state
    /// tracker moves to PREDICATION; nullptr ends predication. Direct and compute lists. Without
    /// platform::QuerySupport::predicate64 the list predicates on a 0/1 copy of the value made by
    /// the built-in pass at this point of the list (so the value is read here, as vkd3d reads it);
    /// without predicatesCopiesAndClears copies, clears and resolves raise while a predicate is set.
    void SetPredication(const std::shared_ptr<Resource>& buffer, uint64_t offset, D3D12_PREDICATION_OP op);
    /// Rule 4 of QueryHeap.hpp at execute: InvalidArgument naming a query begun and not ended.
    void CheckQueriesEnded(const char* what) const;

    // ---- used by CommandQueue::Execute (submission mutex held) --------------------------------
    void Close();
    ResourceStateTracker& Tracker() { return m_Tracker; }
    /// Moves everything that must live until the fence into `tracked`, and retires upload pages
    /// and descriptor chunks with `serial`.
    void Retire(uint64_t serial, std::vector<std::shared_ptr<void>>& tracked, ComPtr<ID3D12CommandAllocator>& allocator,
                ComPtr<ID3D12GraphicsCommandList>& list);
    void Keep(std::shared_ptr<void> object) { m_Tracked.push_back(std::move(object)); }

    size_t UploadPageCount() const { return m_Upload.PageCount(); }
    /// An upload into a CPU-visible 'default' buffer (cache-coherent UMA, UmaAccess.hpp): its bytes
    /// wait in upload memory until CommandQueue::Execute writes them, on the CPU or by a copy on the
    /// GPU just before the list. Recorded only while every earlier use of `dst` in the list is such
    /// a write, so all of them logically come first in the list.
    struct PendingWrite {
        std::shared_ptr<Resource> dst;
        uint64_t offset;
        UploadAllocation src;
    };
    /// The list's pending writes in recording order (cleared when it is executed).
    const std::vector<PendingWrite>& PendingWrites() const { return m_PendingWrites; }
    /// Whether this list's first use of `r` overwrites all of it (then a new resource's zeroing
    /// is skipped: nothing could read the zeros).
    bool FullyWrites(const Resource* r) const { return m_FullyWritten.count(r) != 0; }

private:
    // ---- queries and predication (QueryPasses.cpp) ----
    struct ActiveQuery {
        const QueryHeap* heap;
        uint32_t index;
        D3D12_QUERY_TYPE type;
    };
    std::vector<ActiveQuery> m_ActiveQueries;               ///< begun and not yet ended in this list
    const CommandSignature* m_LastKeptSignature = nullptr;  ///< the signature last added to m_Tracked
    /// ExecuteIndirect of a signature whose root CBVs the backend ignores: the built-in expansion
    /// pass (ExpandIndirectCbv.hlsl), then one draw per command with its root CBVs set to the staged
    /// copies of the constant data (CommandListIndirectCbv.cpp). The checks of ExecuteIndirect passed.
    void ExecuteIndirectCbvs(const CommandSignature& signature, uint32_t maxCount, const std::shared_ptr<Resource>& arguments,
                             uint64_t argumentOffset, const std::shared_ptr<Resource>& count, uint64_t countOffset,
                             const std::vector<std::shared_ptr<Resource>>& referenced);
    /// ExecuteIndirect's checks of `referenced` against `signature`.
    void CheckReferenced(const CommandSignature& signature, const std::vector<std::shared_ptr<Resource>>& referenced, const char* what) const;
    const QueryHeap* m_LastKeptHeap = nullptr;  ///< the heap last added to m_Tracked (one push per heap change)
    void KeepHeap(const std::shared_ptr<QueryHeap>& heap, const char* what);
    std::shared_ptr<Resource> m_Predicate;        ///< the buffer set_predication named (null: none)
    ID3D12Resource* m_NativePredicate = nullptr;  ///< what the native list predicates on (the buffer or its 0/1 scratch copy)
    uint64_t m_NativePredicateOffset = 0;
    D3D12_PREDICATION_OP m_NativePredicateOp = D3D12_PREDICATION_OP_EQUAL_ZERO;
    bool m_PredicatesCopies = true;  ///< platform::QuerySupport::predicatesCopiesAndClears
    [[noreturn]] void RefuseUnpredicated(const char* what) const;
    /// A UAV-capable DEFAULT buffer of `bytes` for the built-in 0/1 pass, kept until the list retires.
    std::shared_ptr<Resource> PassScratch(uint64_t bytes, const char* what);
    /// The built-in pass: the `count` 64-bit values at the start of `scratch` become 0/1 (QueryToBinary.hlsl).
    /// Records the dispatch natively, with no predicate, then restores the pipeline the user bound (a
    /// compute root signature is set again: its root arguments must be set again before the next dispatch).
    /// `what` names the caller (set_predication, resolve_query_data) for the errors that follow.
    void BinaryPass(const std::shared_ptr<Resource>& scratch, uint32_t count, const char* what);

    std::string m_Name = "command list";
    /// While a bundle's execute_indirect replays into this list: the bundle and its call, for the
    /// messages of errors found later on the GPU (Bundle::ReplayInto sets and clears them; the text,
    /// " (bundle 'B', call N)", is built only for such a message).
    const class Bundle* m_ReplayBundle = nullptr;
    size_t m_ReplayCall = 0;
    /// "buffer 'name'", for execute_indirect's messages (CommandListIndirect.cpp).
    static std::string NamedBuffer(const Resource& r);
    friend class Bundle;
    struct Binding {
        std::shared_ptr<Resource> resource;
        D3D12_RESOURCE_STATES state;
        uint32_t firstMip, mipCount;  // mipCount 0: every subresource
        bool uav;
        // Buffer views in tables: how the view was decided (0 not a buffer view, kViewDeclared,
        // kViewExplicit, kViewUnresolvable), the arguments and the view written (numElements 0:
        // none yet, the slot holds the null descriptor until a pipeline that reads it is bound).
        uint8_t bufferView = 0;
        BufferViewArgs viewArgs{};
        BufferViewDesc view{};
        uint32_t cbvBytes = 0;  ///< table CBVs of part of a buffer: the bytes the view covers (0: the whole buffer)
    };
    // bufferView >= kViewUnresolvable: the next draw or dispatch raises (ThrowUnusableBinding says why);
    // kTextureMismatch marks a texture whose view the bound pipeline's declaration at its slot cannot take.
    static constexpr uint8_t kViewDeclared = 1, kViewExplicit = 2, kViewUnresolvable = 3, kTextureMismatch = 4;
    /// m_Bindings keys from here up are the input assembler's (vertex buffers, index buffer): draws only.
    static constexpr uint64_t kInputAssemblerKeys = uint64_t(0xFFFF0000u) << 32;
    /// m_Bindings key bit of a table UAV's counter buffer (root index << 32 | kCounterSlotBit | slot).
    static constexpr uint32_t kCounterSlotBit = 0x80000000u;
    bool m_HasCounterBindings = false;  ///< a counter binding was ever put (PutBinding then drops stale ones)
    bool m_CounterOffsets = true;       ///< platform::CounterSupport::offsets
    void CheckUavCounter(const Resource& r, const BufferViewArgs& args) const;
    void CheckUavCounters(const char* what) const;
    D3D12_CPU_DESCRIPTOR_HANDLE BufferViewHandle(bool uav, Resource& r, const BufferViewArgs& args, const BufferViewDesc& view) const;
    /// Every m_Bindings insertion goes through here: the bindings changed, so the next draw and
    /// dispatch look for hazards again (CheckBindingHazards) and request the state of this one
    /// (m_DirtyKeys). Putting the binding a key holds already changes nothing.
    void PutBinding(uint64_t key, Binding b) {
        m_SlotChecks |= kCheckUavCounters;  // a view or its counter may have changed (one store)
        // A table slot set again loses the counter its last UAV had (set_unordered_access_view puts it back).
        if (m_HasCounterBindings && key < kInputAssemblerKeys && !(uint32_t(key) & kCounterSlotBit)) m_Bindings.erase(key | kCounterSlotBit);
        auto it = m_Bindings.find(key);
        if (it != m_Bindings.end()) {
            if (SameBinding(it->second, b)) return;
            it->second = std::move(b);
        } else {
            m_Bindings.emplace(key, std::move(b));
        }
        m_HazardsChecked = 0;
        if (m_DirtyKeys.size() < kMaxDirtyKeys) m_DirtyKeys.push_back(key);
        else m_AllBindingsDirty = true;
    }
    static bool SameBinding(const Binding& a, const Binding& b) {
        return a.resource == b.resource && a.state == b.state && a.firstMip == b.firstMip && a.mipCount == b.mipCount && a.uav == b.uav &&
               a.bufferView == b.bufferView && a.view == b.view && a.cbvBytes == b.cbvBytes && a.viewArgs.stride == b.viewArgs.stride &&
               a.viewArgs.format == b.viewArgs.format && a.viewArgs.raw == b.viewArgs.raw && a.viewArgs.firstElement == b.viewArgs.firstElement &&
               a.viewArgs.numElements == b.viewArgs.numElements;
    }
    // ---- which binding states a draw or dispatch must request (PrepareWork) ----
    // A draw requests the state of every binding only when something may have moved one since the
    // last draw or dispatch: the tracker's StateEpoch changed (a transition, copy, clear, upload, UAV
    // write or barrier, aliasing, raw transition of anything), a resource was closed, the targets or
    // the pipeline changed, or it follows a dispatch (or the reverse). Otherwise it requests only the
    // bindings put since (m_DirtyKeys), which are O(1) each; nothing at all in a steady draw loop.
    static constexpr size_t kMaxDirtyKeys = 16;
    std::vector<uint64_t> m_DirtyKeys;  ///< bindings put since the last draw / dispatch
    bool m_AllBindingsDirty = true;     ///< request every binding at the next draw / dispatch
    uint8_t m_SettledFor = 0;           ///< 1: the last requests were a draw's, 2: a dispatch's
    bool m_SettledAutoUav = true;       ///< AutoUavBarriers at the last requests
    bool m_HasUavBindings = false;      ///< some binding is a UAV (NoteUavWrites has work)
    uint64_t m_SettledEpoch = 0;        ///< m_Tracker.StateEpoch() after the last requests
    uint64_t m_SettledCloses = 0;       ///< m_Context->ResourceCloses() at the last requests
    void RequestBinding(uint64_t key, Binding& b, bool dispatch, const char* what);
    void RequestAllBindings(bool dispatch, const char* what);
    /// After requesting only the dirty bindings: whether one of their resources is also bound
    /// elsewhere (whose state request it may have overridden).
    bool DirtyResourceBoundElsewhere(bool dispatch) const;
    /// The reason the bound pipeline's declaration at (rootIndex, offset) cannot read a view of
    /// texture `texture` (`uav`: an unordered access view), "" when it can or declares nothing there:
    /// the register kind (t/u), a texture rather than a buffer, and the view's dimension.
    std::string TextureDeclarationProblem(bool uav, uint32_t rootIndex, uint32_t offset, const Resource& texture) const;
    /// Draws and dispatches: the binding at `key` is marked unusable (bufferView >= kViewUnresolvable); throws why.
    [[noreturn]] void ThrowUnusableBinding(uint64_t key, const Binding& b, const char* what) const;
    /// "set_shader_resource_view(1, 0)" and so on: the call that made the binding at `key` (m_Bindings).
    std::string DescribeBinding(uint64_t key, const Binding& b) const;
    /// D3D12 holds each subresource in one state per draw or dispatch: a subresource that one binding
    /// writes (UNORDERED_ACCESS, RENDER_TARGET, DEPTH_WRITE) cannot be read or written in another
    /// state through another binding. Runs when the bindings changed since the last draw
    /// (dispatch); throws InvalidArgument naming the resource and both bindings.
    void CheckBindingHazards(bool dispatch, const char* what);
    /// The slot checks PrepareWork runs again only after what they read changed (one compare per draw
    /// otherwise; 0: all passed): kCheckUavCounters after the pipeline or a view changed
    /// (CheckUavCounters), kCheckSamplers after the pipeline or a sampler-table slot changed
    /// (CheckTableSamplers), kCheckTableSlots after the pipeline changed or a table view was
    /// dropped (CheckTableSlots; putting a view cannot make it fail).
    static constexpr uint8_t kCheckUavCounters = 1, kCheckSamplers = 2, kCheckTableSlots = 4, kCheckAllSlots = 7;
    uint8_t m_SlotChecks = kCheckAllSlots;
    /// Each sampler-table slot the pipeline's shaders declare a sampler at and set_sampler filled:
    /// a comparison filter there exactly when the declaration is a SamplerComparisonState (D3D12
    /// leaves the result undefined otherwise; vkd3d returns raw texels or comparisons). Throws
    /// InvalidArgument naming `what`, the pipeline, the declaration, the slot and the filter.
    void CheckTableSamplers(const char* what) const;
    /// (root index << 32 | offset) -> the sampler set_sampler put in that sampler-table slot under
    /// the current root signature (each kept alive by m_Tracked).
    std::unordered_map<uint64_t, const Sampler*> m_TableSamplers;
    uint8_t m_HazardsChecked = 0;  ///< bit 0: CheckBindingHazards passed for draws, bit 1 for dispatches, since the bindings changed
    /// Validation mode: every constant buffer the pipeline's shaders read through a root CBV or a
    /// table CBV holds at least the bytes its cbuffer's variables span.
    void ValidateConstantBuffers(const char* what) const;
    std::array<uint32_t, 64>
        m_RootCbvBytes{};  ///< root CBV parameter i: bytes from its address to the end of what was set (set_root_cbv / set_dynamic_constant_buffer)
    /// The buffer-view half of SetShaderResourceView / SetUnorderedAccessView.
    void StageBufferView(bool uav, uint32_t rootIndex, uint32_t offset, const std::shared_ptr<Resource>& r, const BufferViewArgs& args,
                         D3D12_RESOURCE_STATES state, const char* what);
    /// After a pipeline change under the same root signature: buffer views taken from the old
    /// pipeline's declarations follow the new one's (restaged where they differ).
    void FollowDeclaredBufferViews();
    /// Validation mode, before a draw or dispatch: every buffer view in a table is what the bound
    /// pipeline's shader declares at its slot.
    void ValidateBufferViews(const char* op);
    void CheckOpen(const char* what) const;
    /// SetConstants' checks: a bound root signature whose parameter `rootIndex` is root constants
    /// with room for `count` values (> 0) at `offset`.
    void CheckConstants(uint32_t rootIndex, uint32_t count, uint32_t offset, const char* what) const;
    template <typename Record>
    void RecordMany(const char* what, bool dispatch, const uint32_t* constants, uint32_t rows, uint32_t k, uint32_t rootIndex, Record&& record);
    /// d3d12rules rules 1-3: `state` is a legal state that this list's queue type may hold.
    void CheckQueueState(D3D12_RESOURCE_STATES state, const Resource& r, const char* what) const;
    void NoteUse(const Resource& r) const;
    void EndUses();
    void CheckCopyDest(const Resource& r, const char* what) const;
    void CheckCopySource(const Resource& r, const char* what) const;
    void CheckGraphics(const char* what) const;
    void CheckSingleSample(const Resource& r, const char* what) const;
    /// Draws: the bound render targets (count, each view format) and depth buffer (format or none) are
    /// the pipeline's RTVFormats and DSVFormat, with its sample count (D3D12's debug layer refuses
    /// the draw otherwise). Runs when the pipeline or the targets changed (m_TargetsMatch).
    void CheckTargetFormats(const char* what);
    bool m_TargetsMatch = false;  ///< CheckTargetFormats passed since the pipeline or the targets last changed
    uint32_t m_RtvCount = 0;      ///< render targets at the front of m_TargetBindings (the depth buffer follows)
    void RequireState(const std::shared_ptr<Resource>& r, D3D12_RESOURCE_STATES state, uint32_t firstMip, uint32_t mipCount);
    void PrepareWork(bool dispatch, const char* what);
    void NoteUavWrites();  // after a draw/dispatch: bound UAVs were written          // bindings -> states, UAV hazards, flush, commit tables
    void Flush() {
        if (m_Tracker.HasBatchedBarriers()) m_Tracker.FlushBarriers(m_d3d12List.Get());
    }
    // Validation mode: throws ResourceStateError when a resource the operation touches is not in
    // the state the tracker requested for it (only raw transitions can cause that).
    void ValidateBindings(const char* op, bool targets);  // draw/dispatch: bound resources (+ targets)
    void ValidateResource(const char* op, const Resource* resource);
    // Validation of D3D12Rules rule 6d (ResourceStateTracker::NoteInitialized / NoteContentsUse),
    // called after the operation's transitions: `sub` written whole by a clear or full copy; the
    // subresources of mips [firstMip, firstMip + mipCount) (0: all), every slice, the planes of
    // `planes` (bit 0 depth/colour, bit 1 stencil) used by `op` otherwise.
    void ContentsInitialized(const Resource& r, uint32_t sub);
    void ContentsUsed(const Resource& r, uint32_t firstMip, uint32_t mipCount, uint32_t planes, const char* op);
    void BindDescriptorHeaps();
    /// The clear's view (cpu) and its shader-visible copy: a buffer's float clear takes a typed R32_FLOAT
    /// view (D3D12 refuses a float clear of a raw view), its uint clear the raw view Uav(0).
    D3D12_GPU_DESCRIPTOR_HANDLE PrepareUavClear(const std::shared_ptr<Resource>& r, D3D12_CPU_DESCRIPTOR_HANDLE& cpu, bool floats);
    D3D12_RESOURCE_STATES SrvState(uint32_t rootIndex) const;
    const RootSignature& BoundRootSignature(const char* what) const;

    std::shared_ptr<Device> m_Device;
    std::shared_ptr<DeviceContext> m_Context;
    std::shared_ptr<CommandQueue> m_Queue;
    ComPtr<ID3D12CommandAllocator> m_Allocator;
    ComPtr<ID3D12GraphicsCommandList> m_d3d12List;
    OwnerMutex m_RecordMutex;  ///< the recording lock: one compare-and-swap per call when uncontended
    std::atomic<int> m_ExecuteWaiting{0};
    std::atomic<bool> m_Closed{false};
    std::atomic<bool> m_Executed{false};
    bool m_Dead = false;
    bool m_HeapsBound = false;
    bool m_Validate = false;
    bool m_BlendFactorSet = false;  ///< a blend factor is recorded on the list (by SetBlendFactor, or D3D12's zeros at the first draw reading it)

    ResourceStateTracker m_Tracker;
    UploadBuffer m_Upload;
    DynamicDescriptorHeap m_ViewDescriptors;
    DynamicDescriptorHeap m_SamplerDescriptors;

    std::shared_ptr<PipelineState> m_Pipeline;
    const RootSignature* m_RootSignature = nullptr;
    uint64_t m_RootArgsSet = 0;  ///< bit i: root parameter i set since the root signature was bound
    void NoteRootArgument(uint32_t rootIndex) {
        if (rootIndex < 64) m_RootArgsSet |= uint64_t(1) << rootIndex;
    }
    /// Root constants [offset, offset + count) of parameter `rootIndex` set (CheckConstants passed):
    /// the parameter counts as set (m_RootArgsSet) once every one of its values is; until then
    /// CheckRootArguments looks at which of them the pipeline reads.
    void NoteConstants(uint32_t rootIndex, uint32_t count, uint32_t offset) {
        if (rootIndex >= 64) return;
        const uint32_t n = m_RootSignature->Parameters()[rootIndex].num32BitValues;
        const uint64_t all = n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
        const uint64_t bits = (count >= 64 ? ~uint64_t(0) : (uint64_t(1) << count) - 1) << offset;
        if ((m_ConstantsSet[rootIndex] |= bits) == all) NoteRootArgument(rootIndex);
    }
    /// Bit i: root view i was left NULL by execute_indirect, whose signature changes it (D3D12's rule), and
    /// not set since (CheckRootArguments says so). Cleared with the root arguments.
    uint64_t m_RootViewsNulled = 0;
    /// Bit k: vertex-buffer slot k was left NULL by execute_indirect, whose signature sets it (D3D12's
    /// rule), and not set since; m_IndexBufferNulled: the same for the index buffer. For the messages.
    uint32_t m_VertexSlotsNulled = 0;
    bool m_IndexBufferNulled = false;
    /// After ExecuteIndirect: the root views, vertex buffers and index buffer `signature` changes are
    /// NULL (D3D12), so unset: the next draw needs them set again.
    void NullIndirectRootViews(const CommandSignature& signature);
    std::array<uint64_t, 64> m_ConstantsSet{};  ///< per root-constants parameter: bit j, value j set
    /// SetConstants' last (rootIndex, count, offset), checked and noted under the bound root signature:
    /// the same call again needs neither (a loop setting one parameter per draw). Cleared with the
    /// root arguments (ForgetRootArguments).
    struct ConstantsCall {
        uint32_t rootIndex = ~0u, count = 0, offset = 0;
    } m_LastConstants;
    bool m_BuiltinPass = false;     ///< generate_mips: null table slots deliberate (no CheckTableSlots)
    bool m_IndexBufferSet = false;  ///< set_index_buffer / set_dynamic_index_buffer called
    /// Indexed draws: D3D12 leaves them undefined without an index buffer (lavapipe dies of SIGFPE).
    void CheckIndexBuffer(const char* what) const;
    uint32_t m_VertexSlotsSet = 0;  ///< bit k: set_vertex_buffer / set_dynamic_vertex_buffer gave slot k a buffer
    /// Draws: every vertex-buffer slot the bound pipeline's input layout reads was given a buffer on
    /// this list (CommandList.cpp says what D3D12 makes of an unset slot). One mask compare; the
    /// message is built out of line. Without a pipeline it passes (the draw raises for that).
    void CheckVertexBuffers(const char* what) const {
        if (m_Pipeline && (m_Pipeline->InputSlots() & ~m_VertexSlotsSet)) ThrowMissingVertexBuffer(what);
    }
    /// `covered`: slots that count as set (execute_indirect: those its command signature sets).
    [[noreturn]] void ThrowMissingVertexBuffer(const char* what, uint32_t covered = 0) const;
    /// Every single-register SRV/UAV a shader of the bound pipeline reads through a descriptor table
    /// was set on the list (an unset slot holds the null descriptor: reads give zeros, writes vanish),
    /// and every single-register sampler it reads through a sampler table (an unset slot holds
    /// whatever the heap held: undefined; vkd3d on lavapipe crashed on one never written).
    /// Runs when kCheckTableSlots is set (plain and validation mode alike); throws InvalidArgument
    /// naming `what`, the register, the slot and the call that sets it.
    void CheckTableSlots(const char* what) const;
    /// Table slots (m_Bindings keys) set while the list's bound pipeline was a graphics ([0]) or a
    /// compute ([1]) one, noted when set_pipeline_state moved to the other bind point under the same
    /// root signature (which clears the root arguments: D3D12 keeps graphics and compute root
    /// arguments apart); emptied when the root signature changes. Only for CheckTableSlots' message.
    std::array<std::vector<uint64_t>, 2> m_SlotsLeftOnBindPoint;
    /// set_pipeline_state moving to the other bind point: notes the table slots set (m_SlotsLeftOnBindPoint).
    void NoteSlotsLeftOnBindPoint();
    void CheckRootArguments(const char* what) const;
    /// "since <call> bound the root signature ...": the call that cleared the root arguments, for errors.
    std::string RootArgumentsClearedBy() const;
    /// A root signature change clears every root argument: root constants, root views and the
    /// bindings they keep (m_Bindings keys below 64 << 32). `by` names the call that bound the root
    /// signature (set_pipeline_state, or set_predication / resolve_query_data re-binding it after
    /// their built-in pass): CheckRootArguments' error names it.
    void ForgetRootArguments(const char* by);
    bool m_Compute = false;
    const char* m_RootArgsClearedBy = "set_pipeline_state";  ///< the call that last cleared the root arguments
    const char* m_PipelineUnboundBy = nullptr;               ///< the built-in that left no pipeline bound before set_pipeline_state bound one
    std::unordered_map<uint64_t, Binding> m_Bindings;        // (root index << 32 | offset)
    std::vector<Binding> m_TargetBindings;                   // render targets and depth
    std::vector<std::shared_ptr<void>> m_Tracked;
    std::unordered_set<const Resource*> m_FullyWritten;
    std::vector<PendingWrite> m_PendingWrites;
    std::unordered_map<const Resource*, uint64_t> m_PendingStamps;  // tracker UseStamp after the latest pending write
    mutable std::unordered_map<const Resource*, std::shared_ptr<const Resource>>
        m_Users;  // BeginUse'd, EndUse at retire      // first use overwrote the whole resource
    // validation mode: states the recorded barriers really produced (raw ones included)
    std::unordered_map<Resource*, SubresourceStates> m_Shadow;
};

}  // namespace dx12kit
