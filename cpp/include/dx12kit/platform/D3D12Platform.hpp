// The only header that includes the platform's D3D12 headers.
//
// Windows: the Windows SDK's d3d12.h and dxgi1_6.h (MSVC), or mingw-w64's (cross builds). No
//          d3dx12.h: mingw-w64 does not ship it, and the project's own helpers
//          (external/d3dx12/D3dx12Lite.hpp) serve both platforms.
// Linux:   vkd3d's headers (D3D12 over Vulkan). vkd3d's COM methods use the Windows x64 calling
//          convention, and without WIDL_EXPLICIT_AGGREGATE_RETURNS the methods that return a
//          struct (GetDesc, GetCPUDescriptorHandleForHeapStart, ...) crash; it must be defined
//          before the first vkd3d include, which is why every file goes through this header.
//
// Everything else in dx12kit uses D3D12 types through this header and the helpers beside it
// (ComPtr.hpp, HResult.hpp, FenceEvent.hpp; d3dx12/D3dx12Lite.hpp), never a platform header directly.
#pragma once

#if defined(_WIN32)
#  ifndef NOMINMAX
#    define NOMINMAX
#  endif
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  include <windows.h>
#  include <d3d12.h>
#  include <dxgi1_6.h>
#  define DX12KIT_BACKEND_NAME "d3d12"
#else
#  ifndef NOMINMAX
#    define NOMINMAX  // vkd3d_windows.h would otherwise define min/max macros
#  endif
#  ifndef WIDL_EXPLICIT_AGGREGATE_RETURNS
#    define WIDL_EXPLICIT_AGGREGATE_RETURNS
#  endif
#  include <vkd3d/vkd3d_utils.h>
#  define DX12KIT_BACKEND_NAME "vkd3d"
#endif

#include <cstdint>

namespace dx12kit::platform {

/// Creates the default D3D12 device at feature level 11_0 (vkd3d: the first Vulkan device).
/// Throws DeviceError on failure.
ID3D12Device* CreateDefaultDevice(D3D_FEATURE_LEVEL minimumLevel);

/// Human-readable adapter description ("llvmpipe (LLVM 15.0.6, 256 bits)" on lavapipe).
const char* AdapterName(ID3D12Device* device);

/// Bytes of device-local memory (vkd3d: the Vulkan device's DEVICE_LOCAL heaps; Windows: the
/// DXGI adapter's dedicated video memory, plus shared system memory when `uma`). 0 if unknown.
uint64_t LocalMemoryBytes(ID3D12Device* device, bool uma);
/// All the memory the adapter can use, every segment together (dedicated and shared on Windows;
/// every Vulkan memory heap under vkd3d). 0 when unknown.
uint64_t TotalMemoryBytes(ID3D12Device* device);

/// vkd3d's own messages: errors only, unless the user chose a level. vkd3d prints its "fixme"
/// notes (e.g. "Aliasing barriers not implemented yet", "Ignoring border") to stderr by default,
/// which users read as errors. Sets VKD3D_DEBUG and VKD3D_SHADER_DEBUG to "err" when they are not
/// set (setenv without overwrite); a value the user set stays. vkd3d reads each variable once, at
/// its first message, so this must run before the first device exists, and it must run before any
/// lavapipe thread exists: adding a variable to the environment can move it under a thread inside
/// getenv(3). The Python module calls it at import. No-op on Windows.
void QuietBackendMessagesByDefault();

/// Sampler settings D3D12 defines that the backend samples differently from D3D12, without an
/// error: false where it does. dx12kit refuses them there (dx12kit/gpu/SamplerRules.hpp) instead
/// of returning other numbers. Windows' runtime: all true. vkd3d 1.2 (measured over lavapipe,
/// docs/guides/shader-gaps.rst, tests/cpp/TestSamplers.cpp):
///  - borderColors: every VkSampler gets VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, whatever the
///    D3D12_SAMPLER_DESC::BorderColor or D3D12_STATIC_BORDER_COLOR ("Ignoring border").
///  - mirrorOnce: D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE becomes REPEAT ("Unhandled address mode").
///  - minMaxFiltering: MINIMUM_/MAXIMUM_ filters filter as standard ones ("Min/max reduction mode
///    not supported"). (D3D12 itself also requires tiled resources tier 2 for them: DeviceContext.)
struct SamplerSupport {
    bool borderColors = true;
    bool mirrorOnce = true;
    bool minMaxFiltering = true;
};
/// What this build's backend samples as D3D12 says (see SamplerSupport).
SamplerSupport BackendSamplerSupport();

/// Queries and predication where the backend does not do what D3D12 says (false), measured on
/// vkd3d 1.2 over lavapipe (docs/guides/shader-gaps.rst, tests/device/test_queries.py). Windows: all true.
///  - binaryOcclusion01: ResolveQueryData of BINARY_OCCLUSION writes 0/1. vkd3d 1.2 writes the
///    sample count ("D3D12 guarantees binary occlusion queries result in only 0 and 1"); dx12kit
///    resolves through a built-in pass that makes each value 0/1 (QueryPasses.cpp).
///  - predicate64: SetPredication tests all 64 bits. vkd3d 1.2 tests the low 32 (a predicate of
///    1 << 32 with EQUAL_ZERO skipped a draw); dx12kit predicates on a 0/1 copy made by that pass.
///  - predicatesCopiesAndClears: copies, clears and resolves are predicated. vkd3d 1.2 runs them
///    whatever the predicate ("Predication doesn't support clear and copy commands"); dx12kit
///    refuses them while a predicate is set.
///  - copyQueueTimestamps: a COPY_QUEUE_TIMESTAMP query heap can be created. vkd3d 1.2 reports
///    CopyQueueTimestampQueriesSupported = 1 but CreateQueryHeap refuses the type (E_INVALIDARG).
struct QuerySupport {
    bool binaryOcclusion01 = true;
    bool predicate64 = true;
    bool predicatesCopiesAndClears = true;
    bool copyQueueTimestamps = true;
};
QuerySupport BackendQuerySupport();

/// UAV counters (a counter resource on a structured buffer UAV) as D3D12 runs them (true) or not
/// (vkd3d 1.2's state.c and resource.c, measured by tests/device/test_uav_counters.py):
///  - graphics: counters in graphics pipelines. vkd3d 1.2 counts only in compute pipelines ("UAV
///    counters not implemented for graphics pipelines"); dx12kit refuses graphics pipelines that count.
///  - offsets: a counter at an offset other than 0 in its buffer.
struct UavCounterSupport {
    bool graphics = true;
    bool offsets = true;
};
UavCounterSupport BackendUavCounterSupport();

/// glibc: raises malloc's trim threshold to 64 MiB once per process (unless MALLOC_TRIM_THRESHOLD_ or
/// GLIBC_TUNABLES sets one, or DX12KIT_KEEP_RECORDING_MEMORY=0), so the memory lavapipe frees at each
/// command-allocator reset is kept for the next list instead of being returned to the kernel and
/// faulted in again (Platform.cpp says what was measured). InvalidArgument for a
/// DX12KIT_KEEP_RECORDING_MEMORY other than 0, 1 or empty. Elsewhere: nothing.
void KeepFreedRecordingMemory();

/// ExecuteIndirect as D3D12 runs it (true) or not (vkd3d 1.2's command.c, measured by
/// tests/device/test_indirect.py):
///  - rootArguments: signatures whose commands change root constants or root CBV/SRV/UAV.
///    vkd3d 1.2 creates them, then ignores those arguments ("Ignoring unhandled argument type").
///  - bufferViews: signatures whose commands change vertex or index buffer views (ignored alike).
///  - drawIndexed: draw_indexed signatures. On vkd3d 1.2 over lavapipe 22.3 they draw nothing (with
///    or without a count buffer, strides 20 and 32, no message), where the same draw_indexed calls draw.
///  - dispatchCount: a count buffer with a dispatch signature ("Count buffers not supported").
///  - dispatchMaxCount: a dispatch signature with max_count > 1. vkd3d 1.2 runs only the first
///    command (measured: 2 of 5 groups); dx12kit records one ExecuteIndirect per command instead.
struct IndirectSupport {
    bool rootArguments = true;
    bool bufferViews = true;
    bool drawIndexed = true;
    bool dispatchCount = true;
    bool dispatchMaxCount = true;
};
IndirectSupport BackendIndirectSupport();

}  // namespace dx12kit::platform
