// dx12core: Device (the factory of queues, resources and pipelines; statistics).
// Only conversions live here (GpuArgs.hpp); behaviour is in cpp/src/.
#include "docs/DeviceDocs.hpp"
#include "GpuArgs.hpp"
#include "ForkSafety.hpp"
#include "InitialData.hpp"
#include "PipelineStateArgs.hpp"

#include "StatsDicts.hpp"

#include "dx12kit/base/HostCopy.hpp"
#include "dx12kit/gpu/UmaAccess.hpp"

namespace dx12kit::bindings {

namespace {

using DeviceClass = py::class_<Device, std::shared_ptr<Device>>;

/// A pipeline's root signature: None derives one from the shaders' reflection.
using OptRootSignatureArg = Typed<hint::OneOf<RootSignature, pybind11::none>>;
/// rtv_formats: required, but after root_signature (which may be left out), so None is its default.
struct OptFormatsHint {
    static constexpr auto name = pybind11::detail::const_name(
        "dx12kit.dx12core.Format | dx12kit.enums.FormatName | collections.abc.Sequence[dx12kit.dx12core.Format | "
        "dx12kit.enums.FormatName] | None");
};
using OptFormatsArg = Typed<OptFormatsHint>;

/// Buffers and 2-D textures (cube and 3-D textures: BindDeviceTextures.cpp).
void DefResourceCreation(DeviceClass& cls) {
    cls.def(
           "create_buffer",
           [](Device& d, std::optional<Int> sizeArg, bool uav, OptNameArg name, OptChoice<HeapTypeChoice> heap, OptPoolArg pool, bool committed,
              bool withinBudget, OptMemoryArg memory, Int offset, OptBytesArg data) {
               const char* fn = "create_buffer";
               std::optional<Bytes> bytes;  // data='s bytes, taken once (a foreign-order array is converted once)
               if (!data.is_none()) bytes = GetBytes(data, fn);
               const uint64_t size = BufferSizeFor(sizeArg, bytes ? &*bytes : nullptr, fn);
               const std::string n = name.is_none() ? "buffer" : Str(name, fn, "name");
               const ResourcePlacement p =
                   ParsePlacement(heap.value, pool, committed, withinBudget, memory, U64(offset, fn, "offset"), "create_buffer");
               std::shared_ptr<Buffer> b;
               {
                   ReleaseGil release;
                   b = d.CreateBuffer(size, uav, p, n);
               }
               if (bytes) WriteInitialBuffer(d, b, *bytes);
               return b;
           },
           "size"_a = py::none(), py::kw_only(), "uav"_a = false, "name"_a = py::none(), "heap"_a = py::none(), "pool"_a = py::none(),
           "committed"_a = false, "within_budget"_a = false, "memory"_a = py::none(), "offset"_a = 0, "data"_a = py::none(),
           docs::Device::create_buffer)
        .def(
            "create_texture2d",
            [](Device& d, std::optional<Int> wArg, std::optional<Int> hArg, OptFormatArg format, Int mipsArg, Int arrayArg, bool rt, bool ds,
               bool uav, OptNameArg name, OptChoice<HeapTypeChoice> heap, OptPoolArg pool, bool committed, bool withinBudget, OptMemoryArg memory,
               Int offset, Int samplesArg, OptTexelsArg data) {
                const char* fn = "create_texture2d";
                const TextureData td = InferTexture(wArg, hArg, format, arrayArg, data, fn);
                const uint32_t w = td.width, h = td.height;
                const uint32_t mips = U32(mipsArg, fn, "mip_levels"), arraySize = td.arraySize;
                const uint32_t samples = U32(samplesArg, fn, "sample_count");
                if (samples > 1 && !data.is_none())
                    throw InvalidArgument(std::string(fn) + ": data= cannot fill a multisampled texture (sample_count=" + std::to_string(samples) +
                                          "): D3D12 copies data into single-sample textures only. Leave data= out and render into it, or make "
                                          "a single-sample texture with data= and draw it into this one");
                const ResourcePlacement p =
                    ParsePlacement(heap.value, pool, committed, withinBudget, memory, U64(offset, fn, "offset"), "create_texture2d");
                const DXGI_FORMAT f = td.format;
                const std::string n = name.is_none() ? "texture" : Str(name, fn, "name");
                std::shared_ptr<Texture> t;
                {
                    ReleaseGil release;
                    t = d.CreateTexture2D(w, h, f, mips, arraySize, rt, ds, uav, n, p, samples);
                }
                if (!data.is_none()) WriteInitialTexture(d, t, data, fn);
                return t;
            },
            "width"_a = py::none(), "height"_a = py::none(), "format"_a = py::none(), py::kw_only(), "mip_levels"_a = 1, "array_size"_a = 1,
            "render_target"_a = false, "depth_stencil"_a = false, "uav"_a = false, "name"_a = py::none(), "heap"_a = py::none(),
            "pool"_a = py::none(), "committed"_a = false, "within_budget"_a = false, "memory"_a = py::none(), "offset"_a = 0, "sample_count"_a = 1,
            "data"_a = py::none(), docs::Device::create_texture2d);
}

/// Root signatures, pipelines and samplers.
void DefPipelineCreation(DeviceClass& cls) {
    cls.def(
           "create_root_signature",
           [](Device& d, py::object parametersOrText, std::vector<StaticSamplerDesc> samplers, FlagsArgOf<hint::RootSignatureFlags> flags,
              OptNameArg name) {
               std::vector<RootParameterDesc> params;
               uint32_t f = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
               if (py::isinstance<py::str>(parametersOrText)) {
                   // The HLSL root-signature language, parsed in Python (dx12kit/rootsig.py).
                   py::tuple parsed = py::module_::import("dx12kit.rootsig").attr("parse_root_signature")(parametersOrText);
                   params = parsed[0].cast<std::vector<RootParameterDesc>>();
                   auto textSamplers = parsed[1].cast<std::vector<StaticSamplerDesc>>();
                   textSamplers.insert(textSamplers.end(), samplers.begin(), samplers.end());
                   samplers = std::move(textSamplers);
                   f = parsed[2].cast<uint32_t>();  // checked by the RootSignature constructor, as every flag is
               } else {
                   try {
                       params = parametersOrText.cast<std::vector<RootParameterDesc>>();
                   } catch (const py::cast_error&) {
                       throw py::type_error(
                           "create_root_signature: expected a list of root parameters (RootConstants, RootCBV, RootSRV, "
                           "RootUAV, DescriptorTable) or root-signature text, got " +
                           std::string(py::str(py::type::of(parametersOrText).attr("__name__"))));
                   }
               }
               if (!flags.is_none()) f = FlagsArg(flags, "RootSignatureFlags", "create_root_signature", "flags");
               auto rs = std::make_shared<RootSignature>(d.Context(), std::move(params), std::move(samplers), f);
               if (!name.is_none()) rs->SetName(Str(name, "create_root_signature", "name"));
               return rs;
           },
           "parameters_or_text"_a, "static_samplers"_a = std::vector<StaticSamplerDesc>{}, py::kw_only(), "flags"_a = py::none(),
           "name"_a = py::none(), docs::Device::create_root_signature)
        .def(
            "create_compute_pipeline",
            [](Device& d, py::handle cs, OptRootSignatureArg rsArg, OptNameArg name) {
                const std::vector<uint8_t> code = Bytecode(cs, "create_compute_pipeline");
                auto rs = PipelineRootSignatureArg(d, rsArg, "create_compute_pipeline", {&code}, true);
                auto p = std::make_shared<PipelineState>(d.Context(), code, std::move(rs));
                if (!name.is_none()) p->SetName(Str(name, "create_compute_pipeline", "name"));
                return p;
            },
            "cs"_a, "root_signature"_a = py::none(), py::kw_only(), "name"_a = py::none(), docs::Device::create_compute_pipeline)
        .def(
            "create_graphics_pipeline",
            [](Device& d, py::handle vs, py::handle ps, OptRootSignatureArg rsArg, OptFormatsArg rtvFormatsArg, OptFormatArg dsvFormat,
               py::object inputLayout, Choice<TopologyChoice> topology, OptChoice<CullModeChoice> cull, BlendArg blend, std::optional<bool> depthTest,
               std::optional<bool> depthWrite, OptChoice<ComparisonFuncChoice> stencilFunc, OptChoice<StencilOpChoice> stencilPassOp, OptNameArg name,
               Int samplesArg, py::handle gs, py::handle hs, py::handle ds, std::optional<RasterizerStateDesc> rasterizer,
               std::optional<DepthStencilStateDesc> depthStencil, bool alphaToCoverage, Int sampleMask) {
                const char* fn = "create_graphics_pipeline";
                const py::handle rtvFormats = rtvFormatsArg;
                GraphicsPipelineDesc g;
                g.vs = Bytecode(vs, "create_graphics_pipeline (vs)");
                if (!ps.is_none()) g.ps = Bytecode(ps, "create_graphics_pipeline (ps)");
                if (!gs.is_none()) g.gs = Bytecode(gs, "create_graphics_pipeline (gs)");
                if (!hs.is_none()) g.hs = Bytecode(hs, "create_graphics_pipeline (hs)");
                if (!ds.is_none()) g.ds = Bytecode(ds, "create_graphics_pipeline (ds)");
                if (rtvFormats.is_none())
                    throw py::type_error("create_graphics_pipeline: rtv_formats is required (a format, or a list of formats; [] for none)");
                if (py::isinstance<py::str>(rtvFormats) || PyIndex_Check(rtvFormats.ptr()))
                    g.rtvFormats.push_back(ParseFormat(rtvFormats, "create_graphics_pipeline: rtv_formats"));
                else if (py::isinstance<py::iterable>(rtvFormats))
                    for (py::handle f : rtvFormats) g.rtvFormats.push_back(ParseFormat(f, "create_graphics_pipeline: rtv_formats"));
                else
                    throw py::type_error("create_graphics_pipeline: rtv_formats must be a format or a list of formats, not " +
                                         detail::TypeName(rtvFormats));
                if (!dsvFormat.is_none()) g.dsvFormat = ParseFormat(dsvFormat, "create_graphics_pipeline: dsv_format");
                g.inputLayout = ParseInputLayout(inputLayout, fn);
                g.topology = Parse(topology, "create_graphics_pipeline: topology");
                g.blend = ParseBlend(blend.value, "create_graphics_pipeline: blend");
                g.alphaToCoverage = alphaToCoverage;
                g.sampleMask = U32(sampleMask, fn, "sample_mask");
                // The states as objects, or today's keyword arguments: one way per state.
                if (rasterizer) {
                    if (cull.Given())
                        throw InvalidArgument(
                            "create_graphics_pipeline: cull= and rasterizer= both given; give the cull mode in RasterizerState(cull=)");
                    g.rasterizer = *rasterizer;
                } else if (cull.Given()) {
                    g.rasterizer.cull = Parse(cull, "create_graphics_pipeline: cull");
                }
                if (depthStencil) {
                    const char* loose = depthTest               ? "depth_test"
                                        : depthWrite            ? "depth_write"
                                        : stencilFunc.Given()   ? "stencil_func"
                                        : stencilPassOp.Given() ? "stencil_pass_op"
                                                                : nullptr;
                    if (loose)
                        throw InvalidArgument(std::string("create_graphics_pipeline: ") + loose +
                                              "= and depth_stencil= both given; give it in "
                                              "DepthStencilState(...)");
                    g.depthStencil = *depthStencil;
                } else {
                    g.depthStencil.depthTest = depthTest.value_or(false);
                    g.depthStencil.depthWrite = depthWrite.value_or(true);
                    if (stencilPassOp.Given() && !stencilFunc.Given())
                        throw InvalidArgument(
                            "create_graphics_pipeline: stencil_pass_op= needs stencil_func= (the stencil test is off "
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
                auto rs = PipelineRootSignatureArg(d, rsArg, fn, {&g.vs, &g.hs, &g.ds, &g.gs, &g.ps}, false);
                auto p = std::make_shared<PipelineState>(d.Context(), g, std::move(rs));
                if (!name.is_none()) p->SetName(Str(name, fn, "name"));
                return p;
            },
            "vs"_a, "ps"_a, "root_signature"_a = py::none(), "rtv_formats"_a = py::none(), "dsv_format"_a = py::none(), "input_layout"_a = py::none(),
            "topology"_a = "triangle", "cull"_a = py::none(), "blend"_a = py::none(), "depth_test"_a = py::none(), "depth_write"_a = py::none(),
            "stencil_func"_a = py::none(), "stencil_pass_op"_a = py::none(), py::kw_only(), "name"_a = py::none(), "sample_count"_a = 1,
            "gs"_a = py::none(), "hs"_a = py::none(), "ds"_a = py::none(), "rasterizer"_a = py::none(), "depth_stencil"_a = py::none(),
            "alpha_to_coverage"_a = false, "sample_mask"_a = 0xFFFFFFFFu, docs::Device::create_graphics_pipeline)
        .def(
            "create_sampler",
            [](Device& d, Choice<FilterChoice> filter, Choice<AddressModeChoice> address, OptChoice<AddressModeChoice> addressV,
               OptChoice<AddressModeChoice> addressW, Float mipLodBias, Int maxAnisotropy, OptChoice<ComparisonFuncChoice> comparison,
               BorderColorArg borderColor, Float minLod, Float maxLod, OptNameArg name) {
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
                auto sampler = std::make_shared<Sampler>(d.Context(), s);
                if (!name.is_none()) sampler->SetName(Str(name, "create_sampler", "name"));
                return sampler;
            },
            py::kw_only(), "filter"_a = "linear", "address"_a = "clamp", "address_v"_a = py::none(), "address_w"_a = py::none(),
            "mip_lod_bias"_a = 0.0f, "max_anisotropy"_a = 16, "comparison"_a = py::none(), "border_color"_a = "transparent_black", "min_lod"_a = 0.0f,
            "max_lod"_a = 3.402823466e+38f, "name"_a = py::none(), docs::Device::create_sampler);
}

/// What the device supports, waits, statistics.
void DefSupportAndStats(DeviceClass& cls) {
    cls.def_property_readonly(
           "sampler_support",
           [](const Device& d) {
               const platform::SamplerSupport& s = d.Context()->Samplers();
               return py::dict("border_colors"_a = s.borderColors, "mirror_once"_a = s.mirrorOnce, "min_max_filtering"_a = s.minMaxFiltering);
           },
           docs::Device::sampler_support)
        .def(
            "format_support",
            [](Device& d, FormatArg format) { return QueryFormatCapabilities(*d.Context(), ParseFormat(format, "format_support")); }, "format"_a,
            docs::Device::format_support)
        .def("poll", &Device::Poll, py::call_guard<ReleaseGil>(), docs::Device::poll)
        .def("wait_idle", &Device::WaitIdle, py::call_guard<ReleaseGil>(), docs::Device::wait_idle)
        .def(
            "descriptor_stats", [](Device& d) { return DescriptorStatsDict(*d.Context()); }, docs::Device::descriptor_stats)
        .def(
            "stats", [](Device& d) { return DeviceStatsDict(d); }, docs::Device::stats);
}

}  // namespace

void BindDevice(py::module_& m, Classes& c) {
    // ---- device ----------------------------------------------------------------------------------
    Documented(c.device, docs::Device::class_)
        .def(py::init([](bool validate, Int heapSize, Int samplerHeapSize, py::object staticDescriptors, Int chunk, Int samplerChunk, Int cpuPage,
                         Int uploadPage, py::object gpuPage, Int largeCache, py::object memoryBudget, Int blockSize, py::object heapTier,
                         double grace, bool umaDirect, bool lazySignals) {
                 const char* fn = "Device";
                 host::CopyThreads();  // chooses the copy threads now: a malformed DX12KIT_COPY_THREADS is an error here
                 DeviceOptions o;
                 o.validate = validate;
                 o.cbvSrvUavHeapSize = U32(heapSize, fn, "descriptor_heap_size");
                 o.samplerHeapSize = U32(samplerHeapSize, fn, "sampler_heap_size");
                 // Removed options: a clear error instead of a silent no-op (see docs/api.md, "Device").
                 if (!staticDescriptors.is_none())
                     throw InvalidArgument(
                         "Device: static_descriptors was removed: the shader-visible heaps have no static part "
                         "any more (nothing allocated from it); drop the argument");
                 if (!gpuPage.is_none())
                     throw InvalidArgument(
                         "Device: gpu_page_size was removed: there are no GPU-exclusive upload pages any more "
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
                 if (!heapTier.is_none() && detail::Ranged(heapTier, fn, "resource_heap_tier", INT32_MIN, INT32_MAX) == 2 &&
                     dev->Context()->Memory().Tier1())
                     throw InvalidArgument("Device: resource_heap_tier=2, but the adapter supports tier 1 only");
                 return dev;
             }),
             py::kw_only(), "validate"_a = false, "descriptor_heap_size"_a = 65536, "sampler_heap_size"_a = 2048, "static_descriptors"_a = py::none(),
             "dynamic_chunk_size"_a = 256, "sampler_chunk_size"_a = 64, "cpu_descriptor_page_size"_a = 256, "upload_page_size"_a = 2u << 20,
             "gpu_page_size"_a = py::none(), "large_page_cache_size"_a = uint64_t(256) << 20, "memory_budget"_a = py::none(),
             "memory_block_size"_a = uint64_t(64) << 20, "resource_heap_tier"_a = py::none(), "memory_grace"_a = 1.0, "uma_direct"_a = true,
             "lazy_fence_signals"_a = true, docs::Device::init)
        .def_property_readonly(
            "info",
            [](const Device& d) {
                py::dict out;
                for (const auto& kv : d.Info()) {
                    if (kv.first == "resource_binding_tier" || kv.first == "resource_heap_tier" || kv.first == "tiled_resources_tier")
                        out[kv.first.c_str()] = std::stoi(kv.second);
                    else out[kv.first.c_str()] = kv.second;
                }
                return out;
            },
            docs::Device::info)
        .def("__repr__",
             [](const Device& d) {
                 std::string backend, adapter;
                 for (const auto& kv : d.Info()) {
                     if (kv.first == "backend") backend = kv.second;
                     else if (kv.first == "adapter") adapter = kv.second;
                 }
                 return "<dx12kit.Device " + backend + " '" + adapter + "'" + (d.Context()->Options().validate ? " validate" : "") + ">";
             })
        .def_property_readonly(
            "validate", [](const Device& d) { return d.Context()->Options().validate; }, docs::Device::validate)
        .def_property_readonly(
            "lazy_fence_signals", [](Device& d) { return d.QueueRef(D3D12_COMMAND_LIST_TYPE_DIRECT).LazySignals(); },
            docs::Device::lazy_fence_signals)
        .def_property_readonly(
            "uma_direct", [](const Device& d) { return uma::DirectBuffers(*d.Context()); }, docs::Device::uma_direct)
        .def(
            "queue", [](Device& d, Choice<QueueKindChoice> kind) { return d.Queue(Parse(kind, "queue: kind")); }, "kind"_a = "direct",
            docs::Device::queue);
    DefResourceCreation(c.device);
    DefPipelineCreation(c.device);
    DefSupportAndStats(c.device);
    // Device's memory and texture methods: per-concept files named for Device (BindDeviceMemory.cpp,
    // BindDeviceTextures.cpp), registered here so that Device has one entry point.
    BindDeviceMemory(c);
    BindDeviceTextures(c);
    BindDeviceQueries(c);
    BindDeviceIndirect(c);
    BindDeviceBundles(c);
    BindDeviceLifetime(c);
    BindDeviceAllocationInfo(c);
    InstallForkLeak<Device>(+[](const Device& d) { return d.Context()->Forked(); });
}

}  // namespace dx12kit::bindings
