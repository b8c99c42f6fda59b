// Buffer views (SRV/UAV descriptors of buffers) as D3D12 defines them, decided from the caller's
// arguments and the shader's declaration at the register.
//
// Concept
//   A buffer bound through a descriptor table needs a view of the kind the shader declares
//   (D3D12_BUFFER_SRV / D3D12_BUFFER_UAV, "Raw Views of Buffers", the Structured Buffer docs):
//
//     kind        HLSL                                   Format          StructureByteStride  Flags  element
//     structured  StructuredBuffer<T>, RWStructured...   UNKNOWN         sizeof(T)            none   stride bytes
//     raw         ByteAddressBuffer, RWByteAddress...    R32_TYPELESS    0                    RAW    4 bytes
//     typed       Buffer<T>, RWBuffer<T>                 a typed format  0                    none   the format's size
//
//   FirstElement and NumElements count elements of that size, and the view must lie inside the
//   buffer. vkd3d accepts a raw view for every kind; Windows does not, so dx12kit never relies on it.
//
//   ResolveBufferView decides the view from, in this order: the caller's stride= / format= /
//   raw= (at most one kind), else the shader's declaration (ShaderBinding from the bound
//   pipeline's reflection), else nothing: it refuses rather than guessing. In validation mode an
//   explicit kind, stride or format that disagrees with the declaration raises.
//
//   Typed views whose HLSL element type does not fix one format take the natural 32-bit format:
//   Buffer<float|float2|float3|float4> -> R32[G32[B32[A32]]]_FLOAT, uint -> _UINT, int -> _SINT.
//   unorm/snorm/double elements have no natural format: format= must be given.
//
// Thread-safety: free functions without state. This header includes D3D12 types only.
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"
#include "dx12kit/shaders/DxbcReflection.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace dx12kit {

class FormatSupportCache;
class Resource;

enum class BufferViewKind : uint8_t { Structured, Raw, Typed };
/// "structured", "raw", "typed".
const char* BufferViewKindName(BufferViewKind kind);

/// What the caller gave for one buffer view; every field is optional.
struct BufferViewArgs {
    uint32_t stride = 0;                       ///< structured stride in bytes; 0: not given
    DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;  ///< typed format; UNKNOWN: not given
    int raw = -1;                              ///< -1 not given, 0 raw=False, 1 raw=True
    uint64_t firstElement = 0;                 ///< in elements of the view's size
    int64_t numElements = -1;                  ///< -1: to the end of the buffer
    /// UAVs of structured buffers: the buffer holding the view's UAV counter (null: none) and the
    /// counter's byte offset in it (D3D12: a multiple of D3D12_UAV_COUNTER_PLACEMENT_ALIGNMENT).
    std::shared_ptr<Resource> counter;
    uint64_t counterOffset = 0;
};

/// A decided buffer view (what the descriptor holds).
struct BufferViewDesc {
    BufferViewKind kind = BufferViewKind::Raw;
    DXGI_FORMAT format = DXGI_FORMAT_R32_TYPELESS;  ///< UNKNOWN (structured), R32_TYPELESS (raw), the format (typed)
    uint32_t stride = 0;                            ///< StructureByteStride: structured only
    uint32_t elementBytes = 4;                      ///< stride, 4 or the format's size
    uint64_t firstElement = 0;
    uint32_t numElements = 0;
    bool operator==(const BufferViewDesc& o) const {
        return kind == o.kind && format == o.format && stride == o.stride && firstElement == o.firstElement && numElements == o.numElements;
    }
};

/// Bytes per element of a typed buffer format (0 for formats dx12kit does not know).
uint32_t TypedBufferFormatBytes(DXGI_FORMAT format);
/// A typed buffer format by dx12kit's lower-case name ("rgba32_float", also formats textures do not
/// take, such as "rgb32_float" or "rgba32_sint"); DXGI_FORMAT_UNKNOWN when none has that name.
DXGI_FORMAT TypedBufferFormat(const std::string& name);
/// Whitespace-free list of those names, for messages.
std::string TypedBufferFormatNames();

/// The view the shader's declaration `b` asks for (kind, format, stride; no range), or throws
/// InvalidArgument naming `what` and the register when `b` is not a buffer dx12kit can view in a
/// table (textures, cbuffers, buffers with a UAV counter) or its element type has no natural format.
BufferViewDesc DeclaredBufferView(const char* what, const ShaderBinding& b);

/// The view to write for a buffer of `bufferBytes` bytes bound as an SRV (`uav` false) or UAV.
/// `rootIndex` and `slot` (the table slot) only name the place in messages. `declared` is the bound
/// pipeline's declaration at that table slot (nullptr: none reads it).
/// `validate`: an explicit kind/stride/format that disagrees with `declared` throws. `formats`
/// (may be nullptr) checks a typed format against the device's BUFFER / SHADER_LOAD /
/// TYPED_UNORDERED_ACCESS_VIEW support. Throws InvalidArgument naming `what`, the root parameter
/// and slot, and what is wrong; the result satisfies BufferViewProblem == "".
BufferViewDesc ResolveBufferView(const char* what, uint32_t rootIndex, uint32_t slot, bool uav, const BufferViewArgs& given,
                                 const ShaderBinding* declared, uint64_t bufferBytes, bool validate, FormatSupportCache* formats);

/// What breaks D3D12's rules for buffer views in `d` over a buffer of `bufferBytes` bytes ("" when
/// nothing): structured: format UNKNOWN, stride in [4, 2048] and a multiple of 4; raw:
/// R32_TYPELESS, elements of 4 bytes; typed: a known typed format, stride 0; every kind: at least
/// one element, the elements inside the buffer, NumElements within 32 bits.
std::string BufferViewProblem(const BufferViewDesc& d, uint64_t bufferBytes);

/// The D3D12 view descriptions of `d` (Buffer dimension; UAVs without a counter).
D3D12_SHADER_RESOURCE_VIEW_DESC BufferSrvDesc(const BufferViewDesc& d);
D3D12_UNORDERED_ACCESS_VIEW_DESC BufferUavDesc(const BufferViewDesc& d);

}  // namespace dx12kit
