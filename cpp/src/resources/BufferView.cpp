#include "dx12kit/resources/BufferView.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/FormatSupport.hpp"
#include "dx12kit/devicecontext/Formats.hpp"

#include <string>

namespace dx12kit {

namespace {

/// Typed buffer formats with their element size and the HLSL return type they give the shader
/// (D3D_RETURN_TYPE: 1 unorm, 2 snorm, 3 sint, 4 uint, 5 float). The natural 32-bit formats first.
struct TypedFormat {
    DXGI_FORMAT format;
    uint32_t bytes;
    uint32_t components;
    uint32_t returnType;
    const char* name;
};
constexpr TypedFormat kTyped[] = {
    {DXGI_FORMAT_R32_FLOAT, 4, 1, 5, "r32_float"},
    {DXGI_FORMAT_R32G32_FLOAT, 8, 2, 5, "rg32_float"},
    {DXGI_FORMAT_R32G32B32_FLOAT, 12, 3, 5, "rgb32_float"},
    {DXGI_FORMAT_R32G32B32A32_FLOAT, 16, 4, 5, "rgba32_float"},
    {DXGI_FORMAT_R32_UINT, 4, 1, 4, "r32_uint"},
    {DXGI_FORMAT_R32G32_UINT, 8, 2, 4, "rg32_uint"},
    {DXGI_FORMAT_R32G32B32_UINT, 12, 3, 4, "rgb32_uint"},
    {DXGI_FORMAT_R32G32B32A32_UINT, 16, 4, 4, "rgba32_uint"},
    {DXGI_FORMAT_R32_SINT, 4, 1, 3, "r32_sint"},
    {DXGI_FORMAT_R32G32_SINT, 8, 2, 3, "rg32_sint"},
    {DXGI_FORMAT_R32G32B32_SINT, 12, 3, 3, "rgb32_sint"},
    {DXGI_FORMAT_R32G32B32A32_SINT, 16, 4, 3, "rgba32_sint"},
    {DXGI_FORMAT_R16_FLOAT, 2, 1, 5, "r16_float"},
    {DXGI_FORMAT_R16G16_FLOAT, 4, 2, 5, "rg16_float"},
    {DXGI_FORMAT_R16G16B16A16_FLOAT, 8, 4, 5, "rgba16_float"},
    {DXGI_FORMAT_R16_UNORM, 2, 1, 1, "r16_unorm"},
    {DXGI_FORMAT_R16G16_UNORM, 4, 2, 1, "rg16_unorm"},
    {DXGI_FORMAT_R16G16B16A16_UNORM, 8, 4, 1, "rgba16_unorm"},
    {DXGI_FORMAT_R16_UINT, 2, 1, 4, "r16_uint"},
    {DXGI_FORMAT_R8_UNORM, 1, 1, 1, "r8_unorm"},
    {DXGI_FORMAT_R8_UINT, 1, 1, 4, "r8_uint"},
    {DXGI_FORMAT_R8G8_UNORM, 2, 2, 1, "rg8_unorm"},
    {DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, "rgba8_unorm"},
    {DXGI_FORMAT_R8G8B8A8_UINT, 4, 4, 4, "rgba8_uint"},
    {DXGI_FORMAT_R8G8B8A8_SNORM, 4, 4, 2, "rgba8_snorm"},
    {DXGI_FORMAT_B8G8R8A8_UNORM, 4, 4, 1, "bgra8_unorm"},
    {DXGI_FORMAT_R10G10B10A2_UNORM, 4, 4, 1, "rgb10a2_unorm"},
    {DXGI_FORMAT_R11G11B10_FLOAT, 4, 3, 5, "rg11b10_float"},
};

const TypedFormat* FindTyped(DXGI_FORMAT f) {
    for (const TypedFormat& t : kTyped)
        if (t.format == f) return &t;
    return nullptr;
}

std::string TypedName(DXGI_FORMAT f) {
    if (const TypedFormat* t = FindTyped(f)) return t->name;
    return FormatName(f);
}

/// unorm, snorm and float formats all return floats to the shader.
bool FloatLike(uint32_t returnType) {
    return returnType == 1 || returnType == 2 || returnType == 5;
}

const char* ReturnTypeName(uint32_t r) {
    switch (r) {
        case 1: return "unorm float";
        case 2: return "snorm float";
        case 3: return "int";
        case 4: return "uint";
        case 5: return "float";
        case 6: return "mixed";
        case 7: return "double";
        default: return "?";
    }
}

std::string Describe(const BufferViewDesc& d) {
    switch (d.kind) {
        case BufferViewKind::Structured: return "a structured view (stride " + std::to_string(d.stride) + ")";
        case BufferViewKind::Raw: return "a raw view";
        case BufferViewKind::Typed: return "a typed view (format " + TypedName(d.format) + ")";
    }
    return "?";
}

std::string Declaration(const ShaderBinding& b) {
    std::string t = b.TypeName();
    if (b.IsTypedBuffer()) t += "<" + std::string(ReturnTypeName(b.returnType)) + (b.Components() > 1 ? std::to_string(b.Components()) : "") + ">";
    return t + " '" + b.name + "' at " + b.RegisterName();
}

}  // namespace

const char* BufferViewKindName(BufferViewKind kind) {
    switch (kind) {
        case BufferViewKind::Structured: return "structured";
        case BufferViewKind::Raw: return "raw";
        case BufferViewKind::Typed: return "typed";
    }
    return "?";
}

uint32_t TypedBufferFormatBytes(DXGI_FORMAT format) {
    const TypedFormat* t = FindTyped(format);
    return t ? t->bytes : 0;
}

DXGI_FORMAT TypedBufferFormat(const std::string& name) {
    for (const TypedFormat& t : kTyped)
        if (name == t.name) return t.format;
    return DXGI_FORMAT_UNKNOWN;
}

std::string TypedBufferFormatNames() {
    std::string s;
    for (const TypedFormat& t : kTyped) s += (s.empty() ? "" : ", ") + std::string(t.name);
    return s;
}

BufferViewDesc DeclaredBufferView(const char* what, const ShaderBinding& b) {
    BufferViewDesc d;
    auto head = [&] { return std::string(what) + ": the shader declares " + Declaration(b); };  // built only on errors
    if (b.inputType == 9 || b.inputType == 10 || b.inputType == 11)
        throw InvalidArgument(head() +
                              ", which needs a UAV counter; dx12kit's views have none (use a RWStructuredBuffer and an "
                              "InterlockedAdd on a counter buffer of your own)");
    if (b.IsStructuredBuffer()) {
        d.kind = BufferViewKind::Structured;
        d.format = DXGI_FORMAT_UNKNOWN;
        d.stride = d.elementBytes = b.structureStride;
        if (d.stride == 0) throw InvalidArgument(head() + ", but its reflection gives no structure stride: pass stride=");
        return d;
    }
    if (b.IsRawBuffer()) return d;  // raw: R32_TYPELESS, 4-byte elements
    if (b.IsTypedBuffer()) {
        d.kind = BufferViewKind::Typed;
        for (const TypedFormat& t : kTyped) {
            if (t.bytes != 4 * t.components) continue;  // the natural 32-bit formats only
            if (t.returnType == b.returnType && t.components == b.Components()) {
                d.format = t.format;
                d.elementBytes = t.bytes;
                return d;
            }
        }
        throw InvalidArgument(head() + ": its element type (" + ReturnTypeName(b.returnType) + ") has no natural 32-bit format; pass format=");
    }
    throw InvalidArgument(head() + ", which is not a buffer (a buffer view cannot be bound there)");
}

BufferViewDesc ResolveBufferView(const char* what, uint32_t rootIndex, uint32_t slot, bool uav, const BufferViewArgs& given,
                                 const ShaderBinding* declared, uint64_t bufferBytes, bool validate, FormatSupportCache* formats) {
    auto head = [&] {  // built only on errors
        return std::string(what) + " (root parameter " + std::to_string(rootIndex) + ", slot " + std::to_string(slot) + "): ";
    };
    const int kinds = (given.stride ? 1 : 0) + (given.format != DXGI_FORMAT_UNKNOWN ? 1 : 0) + (given.raw == 1 ? 1 : 0);
    if (kinds > 1) throw InvalidArgument(head() + "stride= (structured), format= (typed) and raw=True (raw) choose different views; give one");
    BufferViewDesc d;
    const bool explicitKind = kinds == 1;
    if (given.stride) {
        d.kind = BufferViewKind::Structured;
        d.format = DXGI_FORMAT_UNKNOWN;
        d.stride = d.elementBytes = given.stride;
    } else if (given.format != DXGI_FORMAT_UNKNOWN) {
        d.kind = BufferViewKind::Typed;
        d.format = given.format;
        d.elementBytes = TypedBufferFormatBytes(given.format);
        if (!d.elementBytes) throw InvalidArgument(head() + "format " + FormatName(given.format) + " cannot be the format of a typed buffer view");
    } else if (given.raw == 1) {
        d = BufferViewDesc{};
    } else if (declared) {
        d = DeclaredBufferView(what, *declared);
        if (given.raw == 0 && d.kind == BufferViewKind::Raw)
            throw InvalidArgument(head() + "raw=False, but the shader declares " + Declaration(*declared) + ", which needs a raw view");
    } else {
        throw InvalidArgument(head() +
                              "no shader of the bound pipeline reads this slot, so the view's kind is unknown: pass stride= "
                              "(StructuredBuffer), format= (Buffer<T>) or raw=True (ByteAddressBuffer), or bind it while a pipeline "
                              "that reads it is set");
    }
    // The range, in elements.
    const uint64_t total = bufferBytes / d.elementBytes;
    if (given.firstElement >= total)
        throw InvalidArgument(head() + "first_element " + std::to_string(given.firstElement) + " is past the buffer's " + std::to_string(total) +
                              " elements of " + std::to_string(d.elementBytes) + " bytes (" + std::to_string(bufferBytes) + " bytes)");
    d.firstElement = given.firstElement;
    const uint64_t left = total - d.firstElement;
    const uint64_t n = given.numElements < 0 ? left : uint64_t(given.numElements);
    if (n == 0) throw InvalidArgument(head() + "num_elements must be at least 1");
    if (n > left)
        throw InvalidArgument(head() + "first_element " + std::to_string(d.firstElement) + " + num_elements " + std::to_string(n) +
                              " exceed the buffer's " + std::to_string(total) + " elements of " + std::to_string(d.elementBytes) + " bytes");
    if (n > UINT32_MAX) throw InvalidArgument(head() + std::to_string(n) + " elements exceed a view's 2^32 - 1 (give num_elements=)");
    d.numElements = static_cast<uint32_t>(n);
    const std::string problem = BufferViewProblem(d, bufferBytes);
    if (!problem.empty()) throw InvalidArgument(head() + problem);
    if (validate && explicitKind && declared) {
        // Validation mode: the explicit view must be what the shader declares (D3D12 leaves a
        // mismatch undefined; vkd3d happens to read raw views of every kind).
        const char* need = declared->IsStructuredBuffer() ? "structured"
                           : declared->IsRawBuffer()      ? "raw"
                           : declared->IsTypedBuffer()    ? "typed"
                                                          : nullptr;
        std::string mismatch;
        if (!need) mismatch = "which is not a buffer";
        else if (std::string(need) != BufferViewKindName(d.kind)) mismatch = std::string("which needs a ") + need + " view";
        else if (d.kind == BufferViewKind::Structured && declared->structureStride && d.stride != declared->structureStride)
            mismatch = "whose structure is " + std::to_string(declared->structureStride) + " bytes";
        else if (d.kind == BufferViewKind::Typed) {
            const TypedFormat* t = FindTyped(d.format);
            const bool wantFloat = FloatLike(declared->returnType);
            if (t && (FloatLike(t->returnType) != wantFloat || (!wantFloat && t->returnType != declared->returnType)))
                mismatch = std::string("which reads ") + ReturnTypeName(declared->returnType) + " elements";
        }
        if (!mismatch.empty())
            throw InvalidArgument(head() + "the shader declares " + Declaration(*declared) + ", " + mismatch + "; the arguments give " + Describe(d) +
                                  " (validation mode checks views against the bound pipeline's shaders)");
    }
    if (d.kind == BufferViewKind::Typed && formats) {
        const FormatSupportInfo& s = formats->Get(d.format);
        const bool ok = s.Has(D3D12_FORMAT_SUPPORT1_BUFFER) && (uav ? s.TypedUav(d.format) : s.Has(D3D12_FORMAT_SUPPORT1_SHADER_LOAD));
        if (!ok)
            throw InvalidArgument(head() + "the device cannot make a typed buffer " + (uav ? "UAV" : "SRV") + " of format " + TypedName(d.format) +
                                  (uav ? " (no BUFFER and TYPED_UNORDERED_ACCESS_VIEW support)" : " (no BUFFER and SHADER_LOAD support)") +
                                  "; pass another format= (and declare the shader's element type to match)");
    }
    return d;
}

std::string BufferViewProblem(const BufferViewDesc& d, uint64_t bufferBytes) {
    switch (d.kind) {
        case BufferViewKind::Structured:
            if (d.format != DXGI_FORMAT_UNKNOWN) return "a structured view has format UNKNOWN";
            if (d.stride < 4 || d.stride > 2048 || d.stride % 4)
                return "structure stride " + std::to_string(d.stride) + " must be a multiple of 4 bytes from 4 to 2048";
            if (d.elementBytes != d.stride) return "a structured view's elements are its stride";
            break;
        case BufferViewKind::Raw:
            if (d.format != DXGI_FORMAT_R32_TYPELESS) return "a raw view has format R32_TYPELESS";
            if (d.stride != 0) return "a raw view has no structure stride";
            if (d.elementBytes != 4) return "a raw view's elements are 4 bytes";
            break;
        case BufferViewKind::Typed:
            if (d.stride != 0) return "a typed view has no structure stride";
            if (!TypedBufferFormatBytes(d.format)) return "format " + FormatName(d.format) + " is not a typed buffer format";
            if (d.elementBytes != TypedBufferFormatBytes(d.format)) return "a typed view's elements are its format's size";
            break;
    }
    if (d.numElements == 0) return "a view of 0 elements";
    const uint64_t total = bufferBytes / d.elementBytes;
    if (d.firstElement >= total || d.numElements > total - d.firstElement)
        return "elements [" + std::to_string(d.firstElement) + ", " + std::to_string(d.firstElement + d.numElements) + ") of " +
               std::to_string(d.elementBytes) + " bytes reach past the buffer's " + std::to_string(bufferBytes) + " bytes";
    return "";
}

D3D12_SHADER_RESOURCE_VIEW_DESC BufferSrvDesc(const BufferViewDesc& d) {
    D3D12_SHADER_RESOURCE_VIEW_DESC s{};
    s.Format = d.format;
    s.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    s.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    s.Buffer.FirstElement = d.firstElement;
    s.Buffer.NumElements = d.numElements;
    s.Buffer.StructureByteStride = d.kind == BufferViewKind::Structured ? d.stride : 0;
    s.Buffer.Flags = d.kind == BufferViewKind::Raw ? D3D12_BUFFER_SRV_FLAG_RAW : D3D12_BUFFER_SRV_FLAG_NONE;
    return s;
}

D3D12_UNORDERED_ACCESS_VIEW_DESC BufferUavDesc(const BufferViewDesc& d) {
    D3D12_UNORDERED_ACCESS_VIEW_DESC u{};
    u.Format = d.format;
    u.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    u.Buffer.FirstElement = d.firstElement;
    u.Buffer.NumElements = d.numElements;
    u.Buffer.StructureByteStride = d.kind == BufferViewKind::Structured ? d.stride : 0;
    u.Buffer.CounterOffsetInBytes = 0;
    u.Buffer.Flags = d.kind == BufferViewKind::Raw ? D3D12_BUFFER_UAV_FLAG_RAW : D3D12_BUFFER_UAV_FLAG_NONE;
    return u;
}

}  // namespace dx12kit
