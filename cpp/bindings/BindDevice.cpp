// dx12core: Device (the factory of queues, resources and pipelines; statistics).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"
#include "InitialData.hpp"
#include "PipelineStateArgs.hpp"

#include "StatsDicts.hpp"

#include "dx12kit/core/HostCopy.hpp"
#include "dx12kit/gpu/UmaAccess.hpp"

namespace dx12kit::bindings {

void BindDevice(py::module_& m, Classes& c) {
    // ---- device ----------------------------------------------------------------------------------
    Documented(c.device,
        "A D3D12 device (vkd3d over Vulkan on Linux). Factory of queues, resources and pipelines.")
        .def(py::init([](bool validate, Int heapSize, Int samplerHeapSize, py::object staticDescriptors, Int chunk,
                         Int samplerChunk, Int cpuPage, Int uploadPage, py::object gpuPage,
                         Int largeCache, py::object memoryBudget, Int blockSize, py::object heapTier, double grace, bool umaDirect,
                         bool lazySignals) {
                 const char* fn = "Device";
                 host::CopyThreads();  // chooses the copy threads now: a malformed DX12KIT_COPY_THREADS is an error here
                 DeviceOptions o;
                 o.validate = validate;
                 o.cbvSrvUavHeapSize = U32(heapSize, fn, "descriptor_heap_size");
                 o.samplerHeapSize = U32(samplerHeapSize, fn, "sampler_heap_size");
                 // Removed options: a clear error instead of a silent no-op (see docs/api.md, "Device").
                 if (!staticDescriptors.is_none())
                     throw InvalidArgument("Device: static_descriptors was removed: the shader-visible heaps have no static part "
                                           "any more (nothing allocated from it); drop the argument");
                 if (!gpuPage.is_none())
                     throw InvalidArgument("Device: gpu_page_size was removed: there are no GPU-exclusive upload pages any more "
                                           "(nothing used them); drop the argument");
                 o.dynamicChunkSize = U32(chunk, fn, "dynamic_chunk_size");
                 o.samplerChunkSize = U32(samplerChunk, fn, "sampler_chunk_size");
                 o.cpuDescriptorPageSize = U32(cpuPage, fn, "cpu_descriptor_page_size");
                 o.uploadPageSize = U64(uploadPage, fn, "upload_page_size");
                 o.largePageCacheBytes = U64(largeCache, fn, "large_page_cache_size");
                 o.umaDirect = umaDirect;
                 o.lazyFenceSignals = lazySignals;
                 // Page sizes: positive, and within what one committed buffer (and a LinearAllocator) holds.
                 if (o.uploadPageSize == 0 || o.uploadPageSize > (uint64_t(4) << 30))
                     throw InvalidArgument("Device: upload_page_size must be 1..4 GiB, got " + std::to_string(o.uploadPageSize));
                 if (o.cpuDescriptorPageSize == 0) throw InvalidArgument("Device: cpu_descriptor_page_size must be positive");
                 if (!memoryBudget.is_none()) {
                     const long long b = detail::Ranged(memoryBudget, fn, "memory_budget", 1, INT64_MAX);
                     o.memory.budgetBytes = static_cast<uint64_t>(b);
                 }
                 o.memory.preferredBlockSize = U64(blockSize, fn, "memory_block_size");
                 if (!heapTier.is_none()) {
                     const long long t = detail::Ranged(heapTier, fn, "resource_heap_tier", INT32_MIN, INT32_MAX);
                     if (t != 1 && t != 2) throw InvalidArgument("Device: resource_heap_tier must be 1, 2 or None (got " + std::to_string(t) + ")");
                     o.memory.forceTier1 = t == 1;
                 }
                 if (!(grace >= 0.0 && grace <= 3600.0)) throw InvalidArgument("Device: memory_grace must be 0..3600 seconds");
                 o.memory.emptyBlockGraceMs = static_cast<uint32_t>(grace * 1000.0);
                 o.hooks = PythonWaitHooks();
                 auto dev = Device::Create(o, DestroyDevice);
                 if (!heapTier.is_none() && detail::Ranged(heapTier, fn, "resource_heap_tier", INT32_MIN, INT32_MAX) == 2 && dev->Core()->Memory().Tier1())
                     throw InvalidArgument("Device: resource_heap_tier=2, but the adapter supports tier 1 only");
                 return dev;
             }),
             py::kw_only(), "validate"_a = false, "descriptor_heap_size"_a = 65536, "sampler_heap_size"_a = 2048,
             "static_descriptors"_a = py::none(), "dynamic_chunk_size"_a = 256, "sampler_chunk_size"_a = 64,
             "cpu_descriptor_page_size"_a = 256, "upload_page_size"_a = 2u << 20, "gpu_page_size"_a = py::none(),
             "large_page_cache_size"_a = uint64_t(256) << 20, "memory_budget"_a = py::none(),
             "memory_block_size"_a = uint64_t(64) << 20, "resource_heap_tier"_a = py::none(), "memory_grace"_a = 1.0,
             "uma_direct"_a = true, "lazy_fence_signals"_a = true,
             "Options: validate (check states before each draw/dispatch/copy), shader-visible heap sizes and the\n"
             "dynamic chunk sizes, CPU descriptor page size, upload page size, and the bytes of large upload pages\n"
             "kept for reuse after their fence (large_page_cache_size; 0 destroys them).\n"
             "GPU memory: memory_budget (bytes; None = 80% of device-local memory), memory_block_size (bytes of the\n"
             "default pools' heaps, a multiple of 65536), resource_heap_tier (1 forces tier-1 heaps: buffers, textures\n"
             "and render-target/depth textures in separate heaps), memory_grace (seconds an empty heap is kept).\n"
             "uma_direct (default True): on a cache-coherent UMA adapter, 'default' buffers live in CPU-visible device memory:\n"
             "CommandList.upload into one keeps its bytes in upload memory and execute writes them, in execution order (on the\n"
             "CPU when no GPU work still uses the buffer, else by a GPU copy just before the list), with no GPU copy otherwise;\n"
             "read_buffer is one memcpy. False forces the staging paths; discrete and non-coherent adapters always stage.\n"
             "lazy_fence_signals (vkd3d): a queue signals its fence only when no signal of the device is pending or a wait needs\n"
             "it (vkd3d's fence thread polls every pending signal); False signals after every execute (Windows always does).\n"
             "static_descriptors and gpu_page_size were removed (nothing used them): passing either raises\n"
             "InvalidArgumentError.\n\n"
             "Args:\n"
             "    validate: check resource states before each draw, dispatch and copy.\n"
             "    descriptor_heap_size: descriptors in the shader-visible CBV/SRV/UAV heap.\n"
             "    sampler_heap_size: descriptors in the shader-visible sampler heap.\n"
             "    static_descriptors: removed; passing it raises.\n"
             "    dynamic_chunk_size: CBV/SRV/UAV descriptors a command list takes from the heap at a time.\n"
             "    sampler_chunk_size: sampler descriptors a command list takes at a time.\n"
             "    cpu_descriptor_page_size: descriptors per page of the CPU-only descriptor heaps (positive).\n"
             "    upload_page_size: bytes of an upload page (1 byte to 4 GiB).\n"
             "    gpu_page_size: removed; passing it raises.\n"
             "    large_page_cache_size: bytes of large upload pages kept for reuse (0 destroys them).\n"
             "    memory_budget: bytes of GPU memory the device may use, or None for 80% of device-local memory.\n"
             "    memory_block_size: bytes of the default pools' heaps (a multiple of 65536).\n"
             "    resource_heap_tier: 1 forces tier-1 heaps, 2 requires tier 2, None takes the adapter's.\n"
             "    memory_grace: seconds an empty heap is kept (0 to 3600).\n"
             "    uma_direct: let 'default' buffers live in CPU-visible memory on cache-coherent UMA adapters.\n"
             "    lazy_fence_signals: signal a queue's fence only when needed (vkd3d).\n\n"
             "Raises:\n"
             "    TypeError: an argument of the wrong type.\n"
             "    InvalidArgumentError: a value out of range, a removed option, resource_heap_tier=2 on a tier-1 adapter.\n"
             "    DeviceError: the D3D12 device could not be created.")
        .def_property_readonly("info", [](const Device& d) {
            py::dict out;
            for (const auto& kv : d.Info()) {
                if (kv.first == "resource_binding_tier" || kv.first == "resource_heap_tier" || kv.first == "tiled_resources_tier")
                    out[kv.first.c_str()] = std::stoi(kv.second);
                else out[kv.first.c_str()] = kv.second;
            }
            return out;
        }, "backend ('vkd3d' or 'd3d12'), adapter, feature_level ('11_0'...), resource_binding_tier, resource_heap_tier.")
        .def("__repr__", [](const Device& d) {
            std::string backend, adapter;
            for (const auto& kv : d.Info()) {
                if (kv.first == "backend") backend = kv.second;
                else if (kv.first == "adapter") adapter = kv.second;
            }
            return "<dx12kit.Device " + backend + " '" + adapter + "'" + (d.Core()->Options().validate ? " validate" : "") + ">";
        })
        .def_property_readonly("validate", [](const Device& d) { return d.Core()->Options().validate; }, "True when the device checks resource states before each draw, dispatch and copy.")
        .def_property_readonly("lazy_fence_signals", [](Device& d) { return d.QueueRef(D3D12_COMMAND_LIST_TYPE_DIRECT).LazySignals(); },
                               "Whether lazy fence signals are in effect (asked for, and the backend is vkd3d; Windows signals every execute).")
        .def_property_readonly("uma_direct", [](const Device& d) { return uma::DirectBuffers(*d.Core()); },
                               "Whether 'default' buffers live in CPU-visible memory (uma_direct asked and the adapter is cache-coherent UMA).")
        .def("queue", [](Device& d, Choice<QueueKindChoice> kind) { return d.Queue(Parse(kind, "queue: kind")); }, "kind"_a = "direct",
             "The device's queue of `kind`: 'direct', 'compute' or 'copy'.\n\n"
             "Args:\n"
             "    kind: a QueueKind or its name: 'direct', 'compute' or 'copy'.\n\n"
             "Returns:\n"
             "    The device's CommandQueue of that kind (the same object on every call).\n\n"
             "Raises:\n"
             "    InvalidArgumentError: an unknown kind (the message lists the choices).")
        .def("create_buffer", [](Device& d, std::optional<Int> sizeArg, bool uav, py::object name, OptChoice<HeapTypeChoice> heap, py::handle pool, bool committed,
                                 bool withinBudget, py::handle memory, Int offset, py::handle data) {
            const char* fn = "create_buffer";
            const uint64_t size = BufferSizeFor(sizeArg, data, fn);
            const std::string n = name.is_none() ? "buffer" : Str(name, fn, "name");
            const ResourcePlacement p = ParsePlacement(heap.value, pool, committed, withinBudget, memory, U64(offset, fn, "offset"), "create_buffer");
            std::shared_ptr<Buffer> b;
            {
                ReleaseGil release;
                b = d.CreateBuffer(size, uav, p, n);
            }
            if (!data.is_none()) WriteInitialBuffer(d, b, data, fn);
            return b;
        }, "size"_a = py::none(), py::kw_only(), "uav"_a = false, "name"_a = py::none(), "heap"_a = py::none(), "pool"_a = py::none(),
           "committed"_a = false, "within_budget"_a = false, "memory"_a = py::none(), "offset"_a = 0, "data"_a = py::none(),
           "A buffer of `size` bytes (> 0), reading as zeros, or holding `data` (a numpy array or other buffer-protocol object,\n"
           "its bytes at offset 0, the rest zeros; size None takes data's byte count). The data is written in queue order on the\n"
           "direct queue, as CommandQueue.write_buffer does: every later execute, on any queue, sees it. uav=True allows unordered access. heap: 'default' (GPU memory),\n"
           "'upload' / 'readback' (CPU-visible, persistently mapped: Buffer.map), 'custom' (CPU-visible device memory on a\n"
           "cache-coherent UMA adapter); None (the default): 'default', or the heap of pool= / memory=, which a heap named\n"
           "with them must match (InvalidArgumentError otherwise). pool: a dx12kit.Pool to allocate from. committed=True gives the buffer its own\n"
           "memory; within_budget=True raises OutOfMemoryError rather than exceed the device's memory budget.\n"
           "memory=, offset=: place the buffer at `offset` of a dx12kit.Memory (Device.allocate_memory), where other\n"
           "resources may alias it; its contents are then undefined until written.\n\n"
           "Args:\n"
           "    size: bytes (> 0); None (only with data) for data's byte count.\n"
           "    uav: allow unordered access (UAVs, clear_unordered_access_view).\n"
           "    name: debug name (repr, D3D12 SetName).\n"
           "    heap: a HeapType or its name: 'default', 'upload', 'readback' or 'custom'; None as described above.\n"
           "    pool: a dx12kit.Pool to allocate from.\n"
           "    committed: give the buffer memory of its own.\n"
           "    within_budget: raise rather than exceed the device's memory budget.\n"
           "    memory: a dx12kit.Memory to place the buffer in.\n"
           "    offset: byte offset in memory.\n"
           "    data: initial contents (buffer protocol, C-contiguous), at most size bytes; None for zeros.\n\n"
           "Returns:\n"
           "    The new Buffer.\n\n"
           "Raises:\n"
           "    TypeError: an argument of the wrong type.\n"
           "    InvalidArgumentError: size 0, a heap that differs from pool's or memory's, conflicting placement arguments,\n"
           "        an offset that is misaligned or outside memory, data larger than size or empty.\n"
           "    OutOfMemoryError: within_budget=True and the buffer would exceed the budget, or no memory left.")
        .def("create_texture2d", [](Device& d, std::optional<Int> wArg, std::optional<Int> hArg, py::handle format, Int mipsArg, Int arrayArg, bool rt, bool ds,
                                    bool uav, py::object name, OptChoice<HeapTypeChoice> heap, py::handle pool, bool committed, bool withinBudget,
                                    py::handle memory, Int offset, Int samplesArg, py::handle data) {
            const char* fn = "create_texture2d";
            const TextureData td = InferTexture(wArg, hArg, format, arrayArg, data, fn);
            const uint32_t w = td.width, h = td.height;
            const uint32_t mips = U32(mipsArg, fn, "mip_levels"), arraySize = td.arraySize;
            const uint32_t samples = U32(samplesArg, fn, "sample_count");
            const ResourcePlacement p = ParsePlacement(heap.value, pool, committed, withinBudget, memory, U64(offset, fn, "offset"), "create_texture2d");
            const DXGI_FORMAT f = td.format;
            const std::string n = name.is_none() ? "texture" : Str(name, fn, "name");
            std::shared_ptr<Texture> t;
            {
                ReleaseGil release;
                t = d.CreateTexture2D(w, h, f, mips, arraySize, rt, ds, uav, n, p, samples);
            }
            if (!data.is_none()) WriteInitialTexture(d, t, data, fn);
            return t;
        }, "width"_a = py::none(), "height"_a = py::none(), "format"_a = py::none(), py::kw_only(), "mip_levels"_a = 1, "array_size"_a = 1,
           "render_target"_a = false, "depth_stencil"_a = false, "uav"_a = false, "name"_a = py::none(), "heap"_a = py::none(),
           "pool"_a = py::none(), "committed"_a = false, "within_budget"_a = false, "memory"_a = py::none(), "offset"_a = 0,
           "sample_count"_a = 1, "data"_a = py::none(),
           "A 2D texture, reading as zeros (render targets and depth buffers start cleared to 0). mip_levels=0 means a\n"
           "full chain. pool, committed, within_budget, memory, offset: as for create_buffer.\n"
           "data: a numpy array uploaded into mip 0 (of every slice), in queue order on the direct queue: (H, W), (H, W, C), or\n"
           "(N, H, W, C) for N array slices, of the dtype read_texture gives for the format (uint8 for rgba8_unorm, float32 for\n"
           "rgba32_float...). width, height and array_size default to data's; format None picks one from data's dtype and\n"
           "channels (1, 2 or 4: uint8 -> r8/rg8/rgba8_unorm, uint16 -> *16_unorm, float16 -> *16_float, float32 -> *32_float,\n"
           "uint32 -> *32_uint, int32 -> *32_sint), else rgba8_unorm. Other mips stay zero (generate_mips, write_texture).\n"
           "sample_count > 1 makes a multisampled (MSAA) render target or depth buffer: one mip, no UAV, a count the\n"
           "device supports for the format (Device.format_support(format).msaa; others raise InvalidArgumentError\n"
           "listing them). MSAA textures are committed resources; read them in shaders as Texture2DMS, and resolve\n"
           "them (CommandList.resolve) before read_texture.\n\n"
           "Args:\n"
           "    width: texels (> 0); None (only with data) for data's.\n"
           "    height: texels (> 0); None (only with data) for data's.\n"
           "    format: a Format or its name; None for rgba8_unorm, or with data the format of its dtype and channels.\n"
           "    mip_levels: mips, or 0 for a full chain.\n"
           "    array_size: array slices.\n"
           "    render_target: allow use as a render target.\n"
           "    depth_stencil: allow use as a depth-stencil buffer (a depth format).\n"
           "    uav: allow unordered access.\n"
           "    name: debug name (repr, D3D12 SetName).\n"
           "    heap, pool, committed, within_budget, memory, offset: placement, as for create_buffer.\n"
           "    sample_count: samples per pixel (1, or an MSAA count the device supports for the format).\n"
           "    data: initial contents of mip 0, or None for zeros.\n\n"
           "Returns:\n"
           "    The new Texture.\n\n"
           "Raises:\n"
           "    TypeError: an argument of the wrong type; data of a dtype other than the format's.\n"
           "    InvalidArgumentError: a zero size, a format or usage the device does not support, an unsupported\n"
           "        sample count, bad placement arguments.\n"
           "    OutOfMemoryError: within_budget=True and the texture would exceed the budget, or no memory left.")
        .def("create_root_signature", [](Device& d, py::object parametersOrText, std::vector<StaticSamplerDesc> samplers, py::object flags,
                                         py::object name) {
            std::vector<RootParameterDesc> params;
            uint32_t f = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
            if (py::isinstance<py::str>(parametersOrText)) {
                // The HLSL root-signature language, parsed in Python (dx12kit/rootsig.py).
                py::tuple parsed = py::module_::import("dx12kit.rootsig").attr("parse_root_signature")(parametersOrText);
                params = parsed[0].cast<std::vector<RootParameterDesc>>();
                auto textSamplers = parsed[1].cast<std::vector<StaticSamplerDesc>>();
                textSamplers.insert(textSamplers.end(), samplers.begin(), samplers.end());
                samplers = std::move(textSamplers);
                f = parsed[2].cast<uint32_t>();   // checked by the RootSignature constructor, as every flag is
            } else {
                try {
                    params = parametersOrText.cast<std::vector<RootParameterDesc>>();
                } catch (const py::cast_error&) {
                    throw py::type_error("create_root_signature: expected a list of root parameters (RootConstants, RootCBV, RootSRV, "
                                         "RootUAV, DescriptorTable) or root-signature text, got " +
                                         std::string(py::str(py::type::of(parametersOrText).attr("__name__"))));
                }
            }
            if (!flags.is_none()) f = FlagsArg(flags, "RootSignatureFlags", "create_root_signature", "flags");
            auto rs = std::make_shared<RootSignature>(d.Core(), std::move(params), std::move(samplers), f);
            if (!name.is_none()) rs->SetName(Str(name, "create_root_signature", "name"));
            return rs;
        }, "parameters_or_text"_a, "static_samplers"_a = std::vector<StaticSamplerDesc>{}, py::kw_only(), "flags"_a = py::none(),
           "name"_a = py::none(),
           "A root signature from a list of root parameters (RootConstants, RootCBV, RootSRV, RootUAV, DescriptorTable) or from\n"
           "text in the HLSL root-signature language (as in [RootSignature(...)]; see dx12kit.rootsig). static_samplers are\n"
           "added to the text's. flags: dx12kit.RootSignatureFlags or an int (default: ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT for\n"
           "parameter lists, the text's RootFlags for text); flags vkd3d 1.2 cannot honour raise, naming them. name: debug name (repr, D3D12 SetName).\n\n"
           "Args:\n"
           "    parameters_or_text: a list of root parameters, or root-signature text.\n"
           "    static_samplers: StaticSamplerDesc objects (made by StaticSampler).\n"
           "    flags: RootSignatureFlags or an int, or None for the default.\n"
           "    name: debug name (repr, D3D12 SetName).\n\n"
           "Returns:\n"
           "    The new RootSignature.\n\n"
           "Raises:\n"
           "    TypeError: parameters_or_text neither a list of root parameters nor a string.\n"
           "    InvalidArgumentError: bad parameters, overlapping registers, flags vkd3d 1.2 cannot honour, or text that\n"
           "        does not parse (the message shows the column).")
        .def("create_compute_pipeline", [](Device& d, py::handle cs, std::shared_ptr<RootSignature> rs, py::object name) {
            auto p = std::make_shared<PipelineState>(d.Core(), Bytecode(cs, "create_compute_pipeline"), std::move(rs));
            if (!name.is_none()) p->SetName(Str(name, "create_compute_pipeline", "name"));
            return p;
        }, "cs"_a, "root_signature"_a, py::kw_only(), "name"_a = py::none(),
           "A compute pipeline from compute-shader bytecode (DXBC: bytes, a Shader or anything with the buffer protocol)\n"
           "and the root signature it runs with. name: debug name (repr, D3D12 SetName).\n\n"
           "Args:\n"
           "    cs: compute-shader bytecode (DXBC).\n"
           "    root_signature: the RootSignature the shader runs with.\n"
           "    name: debug name (repr, D3D12 SetName).\n\n"
           "Returns:\n"
           "    The new PipelineState.\n\n"
           "Raises:\n"
           "    TypeError: bytecode without the buffer protocol, or root_signature not a RootSignature.\n"
           "    InvalidArgumentError: bytecode that is not valid DXBC, or bindings the root signature lacks.")
        .def("create_graphics_pipeline", [](Device& d, py::handle vs, py::handle ps, std::shared_ptr<RootSignature> rs, py::object rtvFormats,
                                            py::object dsvFormat, py::object inputLayout, Choice<TopologyChoice> topology, OptChoice<CullModeChoice> cull,
                                            BlendArg blend, std::optional<bool> depthTest, std::optional<bool> depthWrite,
                                            OptChoice<ComparisonFuncChoice> stencilFunc, OptChoice<StencilOpChoice> stencilPassOp, py::object name,
                                            Int samplesArg, py::handle gs, py::handle hs, py::handle ds, std::optional<RasterizerStateDesc> rasterizer,
                                            std::optional<DepthStencilStateDesc> depthStencil, bool alphaToCoverage, Int sampleMask) {
            const char* fn = "create_graphics_pipeline";
            GraphicsPipelineDesc g;
            g.vs = Bytecode(vs, "create_graphics_pipeline (vs)");
            if (!ps.is_none()) g.ps = Bytecode(ps, "create_graphics_pipeline (ps)");
            if (!gs.is_none()) g.gs = Bytecode(gs, "create_graphics_pipeline (gs)");
            if (!hs.is_none()) g.hs = Bytecode(hs, "create_graphics_pipeline (hs)");
            if (!ds.is_none()) g.ds = Bytecode(ds, "create_graphics_pipeline (ds)");
            if (py::isinstance<py::str>(rtvFormats) || PyIndex_Check(rtvFormats.ptr()))
                g.rtvFormats.push_back(ParseFormat(rtvFormats, "create_graphics_pipeline: rtv_formats"));
            else if (py::isinstance<py::iterable>(rtvFormats))
                for (py::handle f : rtvFormats) g.rtvFormats.push_back(ParseFormat(f, "create_graphics_pipeline: rtv_formats"));
            else throw py::type_error("create_graphics_pipeline: rtv_formats must be a format or a list of formats, not " + detail::TypeName(rtvFormats));
            if (!dsvFormat.is_none()) g.dsvFormat = ParseFormat(dsvFormat, "create_graphics_pipeline: dsv_format");
            g.inputLayout = ParseInputLayout(inputLayout, fn);
            g.topology = Parse(topology, "create_graphics_pipeline: topology");
            g.blend = ParseBlend(blend.value, "create_graphics_pipeline: blend");
            g.alphaToCoverage = alphaToCoverage;
            g.sampleMask = U32(sampleMask, fn, "sample_mask");
            // The states as objects, or today's keyword arguments: one way per state.
            if (rasterizer) {
                if (cull.Given()) throw InvalidArgument("create_graphics_pipeline: cull= and rasterizer= both given; give the cull mode in RasterizerState(cull=)");
                g.rasterizer = *rasterizer;
            } else if (cull.Given()) {
                g.rasterizer.cull = Parse(cull, "create_graphics_pipeline: cull");
            }
            if (depthStencil) {
                const char* loose = depthTest ? "depth_test" : depthWrite ? "depth_write" : stencilFunc.Given() ? "stencil_func"
                                    : stencilPassOp.Given() ? "stencil_pass_op" : nullptr;
                if (loose)
                    throw InvalidArgument(std::string("create_graphics_pipeline: ") + loose + "= and depth_stencil= both given; give it in "
                                          "DepthStencilState(...)");
                g.depthStencil = *depthStencil;
            } else {
                g.depthStencil.depthTest = depthTest.value_or(false);
                g.depthStencil.depthWrite = depthWrite.value_or(true);
                if (stencilPassOp.Given() && !stencilFunc.Given())
                    throw InvalidArgument("create_graphics_pipeline: stencil_pass_op= needs stencil_func= (the stencil test is off "
                                          "without it, so the operation would be ignored)");
                if (stencilFunc.Given()) {
                    // Front and back faces alike, the pass operation where depth and stencil pass.
                    g.depthStencil.stencil = true;
                    g.depthStencil.front.func = Parse(stencilFunc, "stencil_func");
                    if (stencilPassOp.Given()) g.depthStencil.front.passOp = Parse(stencilPassOp, "stencil_pass_op");
                    g.depthStencil.back = g.depthStencil.front;
                }
            }
            g.sampleCount = U32(samplesArg, fn, "sample_count");
            auto p = std::make_shared<PipelineState>(d.Core(), g, std::move(rs));
            if (!name.is_none()) p->SetName(Str(name, fn, "name"));
            return p;
        }, "vs"_a, "ps"_a, "root_signature"_a, "rtv_formats"_a, "dsv_format"_a = py::none(), "input_layout"_a = py::none(),
           "topology"_a = "triangle", "cull"_a = py::none(), "blend"_a = py::none(), "depth_test"_a = py::none(), "depth_write"_a = py::none(),
           "stencil_func"_a = py::none(), "stencil_pass_op"_a = py::none(), py::kw_only(), "name"_a = py::none(), "sample_count"_a = 1,
           "gs"_a = py::none(), "hs"_a = py::none(), "ds"_a = py::none(), "rasterizer"_a = py::none(), "depth_stencil"_a = py::none(),
           "alpha_to_coverage"_a = false, "sample_mask"_a = 0xFFFFFFFFu,
           "A graphics pipeline (D3D12_GRAPHICS_PIPELINE_STATE_DESC).\n\n"
           "Args:\n"
           "    vs, ps: vertex and pixel shader bytecode (ps may be None).\n"
           "    root_signature: the RootSignature it runs with; every stage's bindings are checked against it.\n"
           "    rtv_formats: a format or a list of formats (dx12kit.Format or names such as 'rgba8_unorm').\n"
           "    dsv_format: depth-stencil format, or None.\n"
           "    input_layout: a list of dx12kit.InputElement (per-vertex or per-instance data), or of tuples\n"
           "        (semantic, dx12kit.VertexFormat, slot, offset, semantic_index) (the last three optional).\n"
           "    topology: dx12kit.Topology ('triangle', 'line_strip', 'triangle_list_adj', 'patch_list_4', ...).\n"
           "    cull: dx12kit.CullMode (default 'none'); or give rasterizer=.\n"
           "    blend: a dx12kit.BlendMode preset, a dx12kit.BlendState, or a list of them (None items: no blending), one per\n"
           "        render target (independent blend). None: no blending.\n"
           "    depth_test, depth_write: depth state (default off / on; depth_test needs dsv_format); or give depth_stencil=.\n"
           "    stencil_func: a dx12kit.ComparisonFunc (None: no stencil test) comparing CommandList.set_stencil_ref's value\n"
           "        with the stencil plane, both faces alike; needs a dsv_format with stencil (d24_unorm_s8_uint,\n"
           "        d32_float_s8x24_uint). stencil_pass_op: a dx12kit.StencilOp where depth and stencil pass (default 'keep').\n"
           "    name: debug name (repr, D3D12 SetName).\n"
           "    sample_count: samples per pixel of the targets it draws into (1, or an MSAA count every target format\n"
           "        supports; others raise InvalidArgumentError listing the supported ones). A draw raises when the bound\n"
           "        targets' sample count differs.\n"
           "    gs: geometry shader bytecode (its input primitive must match the topology).\n"
           "    hs, ds: hull and domain shader bytecode, together (tessellation), with topology 'patch_list_<n>' where n is\n"
           "        the hull shader's input control points.\n"
           "    rasterizer: a dx12kit.RasterizerState (fill, cull, winding, depth bias, depth clip).\n"
           "    depth_stencil: a dx12kit.DepthStencilState (depth function, stencil per face, masks).\n"
           "    alpha_to_coverage: AlphaToCoverageEnable (MSAA: coverage from the pixel shader's alpha).\n"
           "    sample_mask: which samples may be written (SampleMask; default all). Bit k keeps sample k; at sample_count=1\n"
           "        only bit 0 counts (clear: the draw writes no colour, depth or stencil).\n\n"
           "Returns:\n"
           "    A PipelineState.\n\n"
           "Raises:\n"
           "    TypeError: an argument of the wrong type.\n"
           "    InvalidArgumentError: bytecode that is not valid DXBC or of the wrong stage, bindings the root signature lacks,\n"
           "        stages whose signatures do not link, an input_layout that does not give the vertex shader's inputs (a missing\n"
           "        semantic, float against uint/int, a duplicate or digit-ended semantic, an offset not aligned to min(4, component\n"
           "        size)), a render target with a non-zero write_mask the pixel shader does not write or writes with another\n"
           "        component type, src1_* blend factors without an SV_Target1 output, states D3D12 forbids, a state given twice\n"
           "        (cull= with rasterizer=, depth_test=, depth_write=, stencil_func= or stencil_pass_op= with depth_stencil=), or what the backend does not implement\n"
           "        (vkd3d 1.2: logic_op, conservative, antialiased_lines, multisample, forced_sample_count), naming the field.")
        .def("create_sampler", [](Device& d, Choice<FilterChoice> filter, Choice<AddressModeChoice> address, OptChoice<AddressModeChoice> addressV,
                                  OptChoice<AddressModeChoice> addressW, Float mipLodBias, Int maxAnisotropy, OptChoice<ComparisonFuncChoice> comparison,
                                  BorderColorArg borderColor, Float minLod, Float maxLod, py::object name) {
            const char* fn = "create_sampler";
            D3D12_SAMPLER_DESC s{};
            s.Filter = Parse(filter, "create_sampler: filter");
            s.AddressU = Parse(address, "create_sampler: address");
            s.AddressV = addressV.Given() ? Parse(addressV, "create_sampler: address_v") : s.AddressU;
            s.AddressW = addressW.Given() ? Parse(addressW, "create_sampler: address_w") : s.AddressU;
            s.MipLODBias = F32(mipLodBias, fn, "mip_lod_bias");
            s.MaxAnisotropy = U32(maxAnisotropy, fn, "max_anisotropy");
            // Not given: 0, which the core completes (LESS_EQUAL for a comparison filter; SamplerRules.hpp rule 6).
            s.ComparisonFunc = comparison.Given() ? Parse(comparison, "create_sampler: comparison") : static_cast<D3D12_COMPARISON_FUNC>(0);
            const std::array<float, 4> color = ParseBorderColorArg(borderColor.value, fn);
            for (int i = 0; i < 4; ++i) s.BorderColor[i] = color[i];
            s.MinLOD = F32(minLod, fn, "min_lod");
            s.MaxLOD = F32(maxLod, fn, "max_lod");
            auto sampler = std::make_shared<Sampler>(d.Core(), s);
            if (!name.is_none()) sampler->SetName(Str(name, "create_sampler", "name"));
            return sampler;
        }, py::kw_only(), "filter"_a = "linear", "address"_a = "clamp", "address_v"_a = py::none(), "address_w"_a = py::none(),
           "mip_lod_bias"_a = 0.0f, "max_anisotropy"_a = 16, "comparison"_a = py::none(), "border_color"_a = "transparent_black",
           "min_lod"_a = 0.0f, "max_lod"_a = 3.402823466e+38f, "name"_a = py::none(),
           "A sampler (a SamplerState, D3D12_SAMPLER_DESC) to bind in a sampler descriptor table with CommandList.set_sampler.\n"
           "The arguments are StaticSampler's, with the same names and defaults; border_color also takes four numbers.\n\n"
           "Args:\n"
           "    filter: a Filter or its name ('point', 'linear', 'bilinear', 'anisotropic', 'comparison_min_mag_mip_linear', ...).\n"
           "    address: an AddressMode or its name ('clamp', 'wrap', 'mirror', 'mirror_once', 'border'), for u (and v, w unless given).\n"
           "    address_v: the v address mode, or None (address).\n"
           "    address_w: the w address mode, or None (address).\n"
           "    mip_lod_bias: added to the computed mip level, within [-16, 15.99].\n"
           "    max_anisotropy: 1 to 16, the most taps of the anisotropic filters.\n"
           "    comparison: a ComparisonFunc or its name, what the comparison filters (SampleCmp) compare with. None: 'less_equal'\n"
           "        for a comparison filter (the default of D3D12's root-signature language), never 'never'; other filters ignore it,\n"
           "        as in D3D12.\n"
           "    border_color: a BorderColor or its name, or (r, g, b, a) each in [0, 1]: the colour read outside [0, 1] where an\n"
           "        address mode is 'border'.\n"
           "    min_lod: the most detailed mip level sampled (0 is the largest).\n"
           "    max_lod: the least detailed mip level sampled (at least min_lod; the default sets no limit).\n"
           "    name: a debug name, or None.\n\n"
           "Returns:\n"
           "    A SamplerState; its desc gives the settings, comparison completed.\n\n"
           "Raises:\n"
           "    TypeError: an argument of the wrong type.\n"
           "    InvalidArgumentError: an unknown name, or what D3D12 refuses (max_anisotropy outside 1..16, mip_lod_bias outside\n"
           "        [-16, 15.99], min_lod above max_lod, a border colour component outside [0, 1]), or what this device samples\n"
           "        differently from D3D12 (Device.sampler_support; vkd3d 1.2: a border colour other than transparent black with a\n"
           "        'border' address, 'mirror_once', the minimum and maximum filters), naming the argument.")
        .def_property_readonly("sampler_support", [](const Device& d) {
            const platform::SamplerSupport& s = d.Core()->Samplers();
            return py::dict("border_colors"_a = s.borderColors, "mirror_once"_a = s.mirrorOnce, "min_max_filtering"_a = s.minMaxFiltering);
        }, "Which sampler settings this device samples as D3D12 says; create_sampler and create_root_signature refuse the others\n"
           "(InvalidArgumentError) instead of returning other values. border_colors: a border colour other than transparent black\n"
           "(vkd3d 1.2 samples every border as (0, 0, 0, 0)); mirror_once: the 'mirror_once' address mode (vkd3d 1.2 wraps);\n"
           "min_max_filtering: the minimum and maximum (reduction) filters (D3D12: tiled resources tier 2; vkd3d 1.2 averages). Windows: as the\n"
           "device reports. See docs/guides/shader-gaps.rst.")
        .def("format_support", [](Device& d, py::handle format) { return QueryFormatCapabilities(*d.Core(), ParseFormat(format, "format_support")); },
             "format"_a, "What this device supports for `format` (queried once per format and cached): a FormatSupport.\n\n"
           "Args:\n"
           "    format: a Format or its name.\n\n"
           "Returns:\n"
           "    A FormatSupport.\n\n"
           "Raises:\n"
           "    InvalidArgumentError: a format dx12kit does not know.")
        .def("poll", &Device::Poll, py::call_guard<ReleaseGil>(),
             "Releases completed work; returns the completed submission serial.")
        .def("wait_idle", &Device::WaitIdle, py::call_guard<ReleaseGil>(), "Waits until every queue is idle.")
        .def("descriptor_stats", [](Device& d) { return DescriptorStatsDict(*d.Core()); },
             "Per heap type: in_use, pages, peak, stale, capacity; shader_visible: static/dynamic use for CBV_SRV_UAV and SAMPLER.")
        .def("stats", [](Device& d) { return DeviceStatsDict(*d.Core()); },
           "Statistics as a plain dict: upload pages, barriers (aliasing: every aliasing barrier, of which aliasing_automatic the\n"
   "state tracker recorded by itself and aliasing_explicit CommandList.aliasing_barrier), descriptors, live resources, memory (as memory_stats()),\n"
   "zero_init (new resources zeroed before first use, and the bytes copied for it), mips (CommandList.generate_mips calls by\n"
   "route: in_place, staged (UAV-capable copy), aliased (rgba8_unorm alias in the same memory); and its dispatches),\n"
   "submissions (executes: ExecuteCommandLists calls, dx12kit's own included; signals: fence signals, fewer with\n"
   "lazy_fence_signals while work is in flight), uma_writes (uploads into CPU-visible 'default' buffers, Device.uma_direct:\n"
   "cpu: written by the CPU at execute; gpu: copied on the GPU before their list because the buffer was still in use).");

    // Device's memory and texture methods: per-concept files named for Device (BindDeviceMemory.cpp,
    // BindDeviceTextures.cpp), registered here so that Device has one entry point.
    BindDeviceMemory(c);
    BindDeviceTextures(c);
    BindDeviceQueries(c);
    BindDeviceIndirect(c);
    BindDeviceLifetime(c);
    InstallForkLeak<Device>(+[](const Device& d) { return d.Core()->Forked(); });
}

}  // namespace dx12kit::bindings
