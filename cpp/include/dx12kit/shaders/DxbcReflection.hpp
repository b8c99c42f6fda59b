// DXBC containers: validation (size, chunk table, checksum) and reflection (bound resources,
// input/output signatures, shader stage, [numthreads]).
//
// Concept
//   A DXBC container (shader model 4.x/5.x bytecode, what fxc, D3DCompile and vkd3d-compiler
//   emit) is a header followed by chunks:
//
//     offset 0   "DXBC"
//            4   checksum, 16 bytes: a variant of MD5 over bytes [20, size) (see DxbcChecksum)
//           20   uint32 version (1)
//           24   uint32 total size in bytes
//           28   uint32 chunk count N
//           32   uint32 chunk offset[N]      each chunk: fourcc, uint32 size, `size` bytes
//
//   The chunks read here:
//     RDEF  resource definitions: constant buffers (with variables) and bound resources
//           (type, return type, dimension, register, count, and for SM 5.1 the space)
//     ISGN/ISG1, OSGN/OSG1/OSG5, PCSG/PSG1  input, output and patch-constant signatures
//     SHDR/SHEX  the program: its version token gives the stage; dcl_thread_group the numthreads
//   Everything else (STAT, SFI0, ...) is skipped. Offsets inside a chunk are relative to the
//   chunk's data; every read is bounds-checked, so hostile input throws InvalidArgument and never
//   reads outside the buffer.
//
// This file includes no D3D12 header: the numbers kept (input type, dimension, return type,
// system value, component type) are the D3D_* enumerations' values, so engines can compare them
// with d3dcommon.h constants, and device-free tools can reflect bytecode.
//
// Thread-safety: free functions without shared state. Complexity: O(size of the container).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dx12kit {

/// The pipeline stage a shader was compiled for (the program version token's type).
enum class ShaderStage : uint8_t { Pixel = 0, Vertex = 1, Geometry = 2, Hull = 3, Domain = 4, Compute = 5, Unknown = 255 };
/// "pixel", "vertex", "geometry", "hull", "domain", "compute" or "unknown".
const char* ShaderStageName(ShaderStage stage);

/// The register class a binding uses: b, t, u or s.
enum class BindingKind : uint8_t { Cbv, Srv, Uav, Sampler };

/// The type of a constant-buffer variable or struct member (an RDEF type record; the numbers are
/// D3D_SHADER_VARIABLE_CLASS and D3D_SHADER_VARIABLE_TYPE values).
struct CbufferType {
    uint32_t typeClass = 0;  ///< 0 scalar, 1 vector, 2 matrix_rows (row_major), 3 matrix_columns (column_major), 5 struct
    uint32_t baseType = 0;   ///< 1 bool, 2 int, 3 float, 19 uint, 39 double (0 for structs)
    uint32_t rows = 1, columns = 1;
    uint32_t elements = 0;  ///< array length; 0 when not an array
};

/// One variable of a constant buffer, or one member of a struct variable (offsets of members are
/// from the start of the struct). Depth of nesting is capped (kMaxCbufferNesting).
struct CbufferVariable {
    std::string name;
    uint32_t offset = 0;  ///< bytes from the start of the cbuffer (members: of the struct)
    uint32_t size = 0;    ///< bytes the variable spans (arrays: the last element unpadded)
    uint32_t flags = 0;   ///< D3D_SHADER_VARIABLE_FLAGS (2: used by the program)
    CbufferType type;
    std::vector<CbufferVariable> members;  ///< struct members, in declaration order
};
constexpr uint32_t kMaxCbufferNesting = 8;

/// D3D_SIF_COMPARISON_SAMPLER, the ShaderBinding::flags bit of a SamplerComparisonState.
constexpr uint32_t kComparisonSamplerFlag = 0x2;

/// One bound resource of a shader (an RDEF resource binding).
struct ShaderBinding {
    std::string name;  ///< the HLSL name (the cbuffer's name for constant buffers)
    BindingKind kind = BindingKind::Srv;
    uint32_t inputType = 0;                  ///< D3D_SHADER_INPUT_TYPE (0 cbuffer, 2 texture, 5 structured, ...)
    uint32_t returnType = 0;                 ///< D3D_RESOURCE_RETURN_TYPE (0 when not applicable)
    uint32_t dimension = 0;                  ///< D3D_SRV_DIMENSION (0 unknown, 1 buffer, 4 texture2d, ...)
    uint32_t numSamples = 0;                 ///< sample count (MS textures) or structure stride (structured buffers)
    uint32_t shaderRegister = 0;             ///< the first register (t3 -> 3)
    uint32_t space = 0;                      ///< register space (0 below shader model 5.1)
    uint32_t count = 1;                      ///< registers used; 0 means an unbounded array
    uint32_t flags = 0;                      ///< D3D_SHADER_INPUT_FLAGS
    uint32_t cbufferSize = 0;                ///< constant buffers: the buffer's declared size in bytes (16-byte multiple)
    uint32_t cbufferUsedBytes = 0;           ///< constant buffers: one past the last byte of its variables
    uint32_t structureStride = 0;            ///< structured buffers: bytes per element (the program's dcl_*_structured
                                             ///< declaration, else RDEF's sample-count field); 0 otherwise
    std::vector<CbufferVariable> variables;  ///< constant buffers: their variables (RDEF), in declaration order

    /// Components of a typed resource's element (Buffer<float2> -> 2): RDEF's
    /// D3D_SIF_TEXTURE_COMPONENTS bits (flags bits 2-3) plus one.
    uint32_t Components() const { return ((flags >> 2) & 3u) + 1u; }
    /// A buffer view kind the shader declares: structured (StructuredBuffer, RWStructuredBuffer,
    /// Append/Consume), raw (ByteAddressBuffer, RWByteAddressBuffer) or typed (Buffer<T>,
    /// RWBuffer<T>); false for everything else (textures, cbuffers, samplers, tbuffers).
    bool IsStructuredBuffer() const { return inputType == 5 || inputType == 6 || inputType == 9 || inputType == 10 || inputType == 11; }
    bool IsRawBuffer() const { return inputType == 7 || inputType == 8; }
    bool IsTypedBuffer() const { return (inputType == 2 || inputType == 4) && dimension == 1; }
    /// Any of the buffer kinds above (what a buffer's view can feed).
    bool IsBufferKind() const { return IsStructuredBuffer() || IsRawBuffer() || IsTypedBuffer(); }
    /// A texture the shader declares (Texture1D..TextureCubeArray, RWTexture1D..RWTexture3D): an
    /// SRV or UAV whose `dimension` is a texture's D3D_SRV_DIMENSION (2..10).
    /// A SamplerComparisonState: D3D_SIF_COMPARISON_SAMPLER in RDEF, or a dcl_sampler in comparison
    /// mode in the program (vkd3d-compiler sets only the latter). D3D12 requires a comparison filter for
    /// it and a non-comparison filter for a SamplerState.
    bool IsComparisonSampler() const { return kind == BindingKind::Sampler && (flags & kComparisonSamplerFlag) != 0; }
    bool IsTexture() const { return (inputType == 2 || inputType == 4) && dimension >= 2 && dimension <= 10; }

    /// "b", "t", "u" or "s".
    const char* RegisterClass() const;
    /// The register as HLSL writes it plus the space: "t3 space0".
    std::string RegisterName() const;
    /// The HLSL type: "cbuffer", "Texture2D", "StructuredBuffer", "RWTexture2D", "SamplerState", ...
    std::string TypeName() const;
    /// True for what D3D12 allows as a root descriptor: constant buffers, and raw or structured
    /// buffers without a counter (D3D12_ROOT_PARAMETER_TYPE_CBV/SRV/UAV: "only raw or structured
    /// buffers"; typed buffers and textures need a descriptor table).
    bool CanBeRootDescriptor() const;
};

/// One element of an input, output or patch-constant signature.
struct SignatureElement {
    std::string semantic;  ///< semantic name as written (TEXCOORD, SV_Position, SV_Target)
    uint32_t semanticIndex = 0;
    uint32_t systemValue = 0;     ///< D3D_NAME (0 undefined, 1 position, ..., 64 target)
    uint32_t componentType = 0;   ///< D3D_REGISTER_COMPONENT_TYPE (1 uint32, 2 sint32, 3 float32)
    uint32_t shaderRegister = 0;  ///< the v#/o# register
    uint8_t mask = 0;             ///< components present (bit 0 = x)
    uint8_t rwMask = 0;           ///< inputs: components read; outputs: components never written
    uint32_t stream = 0;          ///< geometry-shader output stream
    uint32_t minPrecision = 0;    ///< D3D_MIN_PRECISION (ISG1/OSG1 only)
};

/// What ReflectDxbc finds in a container.
struct DxbcReflection {
    ShaderStage stage = ShaderStage::Unknown;
    uint32_t majorVersion = 0, minorVersion = 0;  ///< shader model, e.g. 5 and 1
    std::vector<ShaderBinding> bindings;          ///< in RDEF order
    std::vector<SignatureElement> inputs, outputs, patchConstants;
    std::array<uint32_t, 3> numThreads{{0, 0, 0}};  ///< compute shaders; zeros otherwise
    /// Hull and domain shaders: control points of the input patch (dcl_input_control_point_count)
    /// and, for hull shaders, of the output patch (dcl_output_control_point_count); 0 otherwise.
    uint32_t inputControlPoints = 0, outputControlPoints = 0;
    /// Geometry shaders: the input primitive (dcl_inputprimitive: 1 point, 2 line, 3 triangle,
    /// 6 line with adjacency, 7 triangle with adjacency, 8 + n a patch of n + 1 points); 0 otherwise.
    uint32_t gsInputPrimitive = 0;
    std::string creator;  ///< the compiler's name string from RDEF

    /// "vertex", "pixel", "compute", ... ("unknown" when the container has no program chunk).
    const char* StageName() const;
    /// "vs_5_0" and so on ("" when unknown).
    std::string Profile() const;
};

/// The container's checksum as DXBC defines it: MD5's compression function over bytes
/// [20, size) with DXBC's own padding of the last block (the bit length first, the length
/// times two plus one last). `size` must be at least 20.
std::array<uint8_t, 16> DxbcChecksum(const uint8_t* data, size_t size);

/// What is wrong with a DXBC container ("" when nothing): magic, size field against the buffer,
/// chunk table and chunk bounds, and (when `checkChecksum`) the stored checksum.
std::string DxbcContainerProblem(const uint8_t* data, size_t size, bool checkChecksum = true);

/// Validates the container (as DxbcContainerProblem, with the checksum) and reflects it.
/// Throws InvalidArgument naming what is malformed.
DxbcReflection ReflectDxbc(const uint8_t* data, size_t size);

}  // namespace dx12kit
