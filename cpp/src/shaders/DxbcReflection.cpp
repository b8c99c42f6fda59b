#include "dx12kit/shaders/DxbcReflection.hpp"
#include "dx12kit/shaders/DxbcProgram.hpp"

#include "dx12kit/base/Errors.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace dx12kit {

namespace {

// ---- the checksum --------------------------------------------------------------------------
// MD5's compression function (RFC 1321, section 3.4): 64 steps in four rounds over a 16-word
// block. DXBC keeps the function and the initial state but pads the last block its own way
// (see DxbcChecksum).

uint32_t Rotl(uint32_t x, uint32_t s) {
    return (x << s) | (x >> (32 - s));
}

struct Md5Table {
    uint32_t k[64];
    Md5Table() {
        // RFC 1321: T[i] = floor(4294967296 * |sin(i)|), i = 1..64 (radians).
        for (int i = 0; i < 64; ++i) k[i] = static_cast<uint32_t>(std::floor(std::fabs(std::sin(double(i + 1))) * 4294967296.0));
    }
};

void Md5Block(uint32_t state[4], const uint8_t block[64]) {
    static const Md5Table table;
    static const uint32_t shift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
    uint32_t m[16];
    for (int i = 0; i < 16; ++i)
        m[i] = uint32_t(block[4 * i]) | uint32_t(block[4 * i + 1]) << 8 | uint32_t(block[4 * i + 2]) << 16 | uint32_t(block[4 * i + 3]) << 24;
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    for (uint32_t i = 0; i < 64; ++i) {
        const uint32_t round = i / 16;
        uint32_t f, g;
        switch (round) {
            case 0:
                f = (b & c) | (~b & d);
                g = i;
                break;
            case 1:
                f = (d & b) | (~d & c);
                g = (5 * i + 1) % 16;
                break;
            case 2:
                f = b ^ c ^ d;
                g = (3 * i + 5) % 16;
                break;
            default:
                f = c ^ (b | ~d);
                g = (7 * i) % 16;
                break;
        }
        const uint32_t t = d;
        d = c;
        c = b;
        b = b + Rotl(a + f + table.k[i] + m[g], shift[round][i % 4]);
        a = t;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

void PutU32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}

// ---- bounds-checked reading ------------------------------------------------------------------

/// A view of bytes [0, size) in which every read is checked; `what` names it in errors.
struct Span {
    const uint8_t* data;
    size_t size;
    const char* what;

    [[noreturn]] void Fail(const std::string& msg) const { throw InvalidArgument(std::string("DXBC: ") + what + ": " + msg); }
    uint32_t U32(size_t offset) const {
        if (offset > size || size - offset < 4)
            Fail("read at offset " + std::to_string(offset) + " past its end (" + std::to_string(size) + " bytes)");
        uint32_t v;
        std::memcpy(&v, data + offset, 4);
        return v;  // DXBC is little-endian, as are all D3D12 targets
    }
    uint8_t U8(size_t offset) const {
        if (offset >= size) Fail("read at offset " + std::to_string(offset) + " past its end (" + std::to_string(size) + " bytes)");
        return data[offset];
    }
    /// A NUL-terminated string at `offset` (must end inside the span), non-ASCII bytes as '?'.
    std::string Str(size_t offset) const {
        if (offset >= size) Fail("string offset " + std::to_string(offset) + " past its end");
        const void* end = std::memchr(data + offset, 0, size - offset);
        if (!end) Fail("unterminated string at offset " + std::to_string(offset));
        std::string s(reinterpret_cast<const char*>(data + offset), static_cast<const uint8_t*>(end) - (data + offset));
        // Names in DXBC are ASCII identifiers; anything else is shown as '?' (callers and the
        // Python bindings then always get valid UTF-8).
        for (char& c : s)
            if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F) c = '?';
        return s;
    }
    /// Checks that `count` records of `stride` bytes fit at `offset`.
    void Records(size_t offset, uint64_t count, uint64_t stride, const char* kind) const {
        if (offset > size || count * stride > size - offset)
            Fail(std::to_string(count) + " " + kind + " of " + std::to_string(stride) + " bytes at offset " + std::to_string(offset) +
                 " do not fit in " + std::to_string(size) + " bytes");
    }
};

struct Chunk {
    uint32_t fourcc;
    Span span;
};

constexpr uint32_t FourCC(const char (&s)[5]) {
    return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 | uint32_t(uint8_t(s[3])) << 24;
}

std::string FourCCName(uint32_t f) {
    std::string s(4, '?');
    for (int i = 0; i < 4; ++i) {
        const char c = char(f >> (8 * i));
        if (c >= 32 && c < 127) s[i] = c;
    }
    return s;
}

/// The chunk table, or a problem description in `problem`.
std::vector<Chunk> Chunks(const uint8_t* data, size_t size, std::string& problem) {
    std::vector<Chunk> out;
    if (size < 32) {
        problem = "container of " + std::to_string(size) + " bytes is shorter than the 32-byte DXBC header";
        return out;
    }
    if (std::memcmp(data, "DXBC", 4) != 0) {
        problem = "does not start with 'DXBC'";
        return out;
    }
    Span c{data, size, "container"};
    const uint32_t total = c.U32(24), count = c.U32(28);
    if (total != size) {
        problem = "the header says " + std::to_string(total) + " bytes, the bytecode has " + std::to_string(size) +
                  (total > size ? " (truncated?)" : " (trailing bytes?)");
        return out;
    }
    if (c.U32(20) != 1) {
        problem = "container version " + std::to_string(c.U32(20)) + " is not 1";
        return out;
    }
    if (count > (size - 32) / 4) {
        problem = "chunk table of " + std::to_string(count) + " entries does not fit";
        return out;
    }
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t off = c.U32(32 + 4 * size_t(i));
        if (off < 32 + 4 * size_t(count) || off > size || size - off < 8) {
            problem = "chunk " + std::to_string(i) + " at offset " + std::to_string(off) + " lies outside the container";
            return {};
        }
        const uint32_t chunkSize = c.U32(off + 4);
        if (chunkSize > size - off - 8) {
            problem = "chunk " + std::to_string(i) + " (" + FourCCName(c.U32(off)) + ", " + std::to_string(chunkSize) + " bytes at offset " +
                      std::to_string(off) + ") runs past the end";
            return {};
        }
        out.push_back({c.U32(off), Span{data + off + 8, chunkSize, "chunk"}});
    }
    return out;
}

const Chunk* Find(const std::vector<Chunk>& chunks, std::initializer_list<uint32_t> fourccs) {
    for (uint32_t f : fourccs)
        for (const Chunk& c : chunks)
            if (c.fourcc == f) return &c;
    return nullptr;
}

BindingKind KindOf(uint32_t inputType, const Span& s) {
    switch (inputType) {
        case 0: return BindingKind::Cbv;  // D3D_SIT_CBUFFER
        case 1:
        case 2:
        case 5:
        case 7:
        case 12:  // TBUFFER, TEXTURE, STRUCTURED, BYTEADDRESS, RTACCELERATIONSTRUCTURE
            return BindingKind::Srv;
        case 3: return BindingKind::Sampler;  // D3D_SIT_SAMPLER
        case 4:
        case 6:
        case 8:
        case 9:
        case 10:
        case 11:
        case 13:  // the UAV kinds
            return BindingKind::Uav;
        default: s.Fail("unknown resource type " + std::to_string(inputType));
    }
}

/// An RDEF type record at `offset` (SM 5: 36 bytes, else 16): class, type, rows, columns,
/// elements, member count and member table offset; members are (name, type, offset) triples.
CbufferType ReadType(const Span& s, size_t offset, std::vector<CbufferVariable>* members, uint32_t depth) {
    if (depth > kMaxCbufferNesting) s.Fail("struct types nested deeper than " + std::to_string(kMaxCbufferNesting));
    s.Records(offset, 1, 16, "type records");
    auto u16 = [&](size_t o) { return uint32_t(s.U8(o)) | uint32_t(s.U8(o + 1)) << 8; };
    CbufferType t;
    t.typeClass = u16(offset);
    t.baseType = u16(offset + 2);
    t.rows = u16(offset + 4);
    t.columns = u16(offset + 6);
    t.elements = u16(offset + 8);
    const uint32_t memberCount = u16(offset + 10), memberOffset = s.U32(offset + 12);
    if (members && memberCount) {
        s.Records(memberOffset, memberCount, 12, "struct members");
        for (uint32_t i = 0; i < memberCount; ++i) {
            const size_t mo = memberOffset + size_t(i) * 12;
            CbufferVariable m;
            m.name = s.Str(s.U32(mo));
            m.offset = s.U32(mo + 8);
            m.type = ReadType(s, s.U32(mo + 4), &m.members, depth + 1);
            members->push_back(std::move(m));
        }
    }
    return t;
}

void ReadRdef(const Span& s, DxbcReflection& r) {
    const uint32_t cbCount = s.U32(0), cbOffset = s.U32(4), resCount = s.U32(8), resOffset = s.U32(12);
    const uint32_t version = s.U32(16);
    const uint32_t major = (version >> 8) & 0xFF;
    const uint32_t minor = version & 0xFF;
    const uint32_t creatorOffset = s.U32(24);
    // Shader model 5.0+ reflection headers carry a tag ("RD11" for 5.0; 5.1 stores the bytes
    // 13 13 44 25) and the record sizes: header, cbuffer, binding, variable, type. 5.1 adds the
    // space and an id to each resource binding (40 bytes instead of 32).
    uint32_t bindingStride = 32, varStride = 24;
    if (major >= 5) {
        const uint32_t tag = s.U32(28);
        if (tag != FourCC("RD11") && tag != 0x25441313u) s.Fail("RDEF of shader model 5 without its RD11 header");
        bindingStride = s.U32(40);
        varStride = s.U32(44);
        if (bindingStride != 32 && bindingStride != 40)
            s.Fail("RDEF resource binding size " + std::to_string(bindingStride) + " is neither 32 nor 40");
        if (varStride < 24) s.Fail("RDEF variable size " + std::to_string(varStride) + " is below 24");
    }
    (void)minor;
    if (creatorOffset) r.creator = s.Str(creatorOffset);
    s.Records(resOffset, resCount, bindingStride, "resource bindings");
    s.Records(cbOffset, cbCount, 24, "constant buffers");
    for (uint32_t i = 0; i < resCount; ++i) {
        const size_t o = resOffset + size_t(i) * bindingStride;
        ShaderBinding b;
        b.name = s.Str(s.U32(o));
        b.inputType = s.U32(o + 4);
        b.kind = KindOf(b.inputType, s);
        b.returnType = s.U32(o + 8);
        b.dimension = s.U32(o + 12);
        b.numSamples = s.U32(o + 16);
        b.shaderRegister = s.U32(o + 20);
        b.count = s.U32(o + 24);
        b.flags = s.U32(o + 28);
        if (bindingStride == 40) b.space = s.U32(o + 32);
        if (b.count == 0xFFFFFFFFu) b.count = 0;  // unbounded arrays, as some compilers write them
        if (b.inputType == 5 || b.inputType == 6 || (b.inputType >= 9 && b.inputType <= 11)) b.structureStride = b.numSamples;
        if (b.kind == BindingKind::Cbv) {
            for (uint32_t c = 0; c < cbCount; ++c) {
                const size_t co = cbOffset + size_t(c) * 24;
                if (s.U32(co + 20) != 0 || s.Str(s.U32(co)) != b.name) continue;  // D3D_CT_CBUFFER of that name
                b.cbufferSize = s.U32(co + 12);
                const uint32_t varCount = s.U32(co + 4), varOffset = s.U32(co + 8);
                s.Records(varOffset, varCount, varStride, "cbuffer variables");
                // Variables the program reads carry D3D_SVF_USED (2); when no variable has it
                // (a compiler that does not set it), all count.
                uint64_t used = 0, all = 0;
                for (uint32_t v = 0; v < varCount; ++v) {
                    const size_t vo = varOffset + size_t(v) * varStride;
                    const uint64_t end = uint64_t(s.U32(vo + 4)) + s.U32(vo + 8);
                    all = std::max(all, end);
                    if (s.U32(vo + 12) & 2u) used = std::max(used, end);
                    CbufferVariable var;
                    var.name = s.Str(s.U32(vo));
                    var.offset = s.U32(vo + 4);
                    var.size = s.U32(vo + 8);
                    var.flags = s.U32(vo + 12);
                    var.type = ReadType(s, s.U32(vo + 16), &var.members, 0);
                    b.variables.push_back(std::move(var));
                }
                b.cbufferUsedBytes = static_cast<uint32_t>(std::min<uint64_t>(used ? used : all, UINT32_MAX));
                break;
            }
        }
        r.bindings.push_back(std::move(b));
    }
}

/// ISGN/OSGN/PCSG (24-byte elements), OSG5 (28: stream first), ISG1/OSG1/PSG1 (32: stream
/// first, min precision last).
std::vector<SignatureElement> ReadSignature(const Span& s, uint32_t fourcc) {
    const uint32_t count = s.U32(0), offset = s.U32(4);
    const bool withStream = fourcc == FourCC("OSG5") || fourcc == FourCC("ISG1") || fourcc == FourCC("OSG1") || fourcc == FourCC("PSG1");
    const bool withPrecision = fourcc == FourCC("ISG1") || fourcc == FourCC("OSG1") || fourcc == FourCC("PSG1");
    const uint32_t stride = 24 + (withStream ? 4 : 0) + (withPrecision ? 4 : 0);
    s.Records(offset, count, stride, "signature elements");
    std::vector<SignatureElement> out;
    for (uint32_t i = 0; i < count; ++i) {
        size_t o = offset + size_t(i) * stride;
        SignatureElement e;
        if (withStream) {
            e.stream = s.U32(o);
            o += 4;
        }
        e.semantic = s.Str(s.U32(o));
        e.semanticIndex = s.U32(o + 4);
        e.systemValue = s.U32(o + 8);
        e.componentType = s.U32(o + 12);
        e.shaderRegister = s.U32(o + 16);
        e.mask = s.U8(o + 20);
        e.rwMask = s.U8(o + 21);
        if (withPrecision) e.minPrecision = s.U32(o + 24);
        out.push_back(std::move(e));
    }
    return out;
}

/// A raw or structured buffer declared in the program (dcl_resource_raw/structured,
/// dcl_uav_raw/structured): the declaration is what the shader runs with, and it wins over the
/// RDEF's resource type (vkd3d-shader's RDEF calls a RWByteAddressBuffer a typed RWBuffer).
struct BufferDecl {
    bool uav;
    bool structured;
    bool comparisonSampler;  // a dcl_sampler in comparison mode (uav and structured are false)
    uint32_t reg, space;
    uint32_t stride;  // structured: the declared bytes per element
};

void ReadProgram(const Span& s, DxbcReflection& r, std::vector<BufferDecl>* decls) {
    const uint32_t token = s.U32(0);
    const uint32_t type = token >> 16;
    r.stage = type <= 5 ? static_cast<ShaderStage>(type) : ShaderStage::Unknown;
    r.majorVersion = (token >> 4) & 0xF;
    r.minorVersion = token & 0xF;
    const uint64_t dwords = std::min<uint64_t>(s.U32(4), s.size / 4);
    // Walk the program for dcl_thread_group (opcode 155: x, y, z follow the opcode token) and the
    // buffer declarations.
    uint64_t at = 2;
    while (at < dwords) {
        const uint32_t op = s.U32(size_t(at) * 4);
        const uint32_t opcode = op & 0x7FF;
        uint64_t length = (op >> 24) & 0x7F;
        if (opcode == dxbc::kOpCustomData)
            length = s.U32(size_t(at + 1) * 4);  // customdata (0x35; was tested as decimal 35 = imad): its length is the next dword
        if (length == 0) break;                  // malformed: stop rather than loop
        if (opcode == 155 && length >= 4) {
            for (int i = 0; i < 3; ++i) r.numThreads[size_t(i)] = s.U32(size_t(at + 1 + uint64_t(i)) * 4);
        }
        // 93 dcl_inputprimitive, 147/148 dcl_input/output_control_point_count: the value sits in
        // bits 11..16 of the opcode token.
        if (opcode == 93) r.gsInputPrimitive = (op >> 11) & 0x3F;
        if (opcode == 147) r.inputControlPoints = (op >> 11) & 0x3F;
        if (opcode == 148) r.outputControlPoints = (op >> 11) & 0x3F;
        // 157/158: dcl_uav_raw/structured; 161/162: dcl_resource_raw/structured. The operand token
        // (+1 extended token when bit 31 is set) is followed by the register index (shader model
        // 5.1: range id, lower bound, upper bound, and the space as the last dword).
        if (decls && (opcode == 157 || opcode == 158 || opcode == 161 || opcode == 162) && length >= 3) {
            uint64_t idx = at + 2;
            if (s.U32(size_t(at + 1) * 4) >> 31) ++idx;
            const bool sm51 = r.majorVersion == 5 && r.minorVersion == 1;
            BufferDecl d;
            d.comparisonSampler = false;
            d.uav = opcode == 157 || opcode == 158;
            d.structured = opcode == 158 || opcode == 162;
            d.reg = sm51 ? s.U32(size_t(idx + 1) * 4) : s.U32(size_t(idx) * 4);
            // Structured declarations carry the stride after the register (5.1: before the space).
            d.stride = !d.structured ? 0
                       : sm51        ? (length >= 7 ? s.U32(size_t(at + length - 2) * 4) : 0)
                                     : (idx + 1 < at + length ? s.U32(size_t(idx + 1) * 4) : 0);
            d.space = sm51 ? s.U32(size_t(at + length - 1) * 4) : 0;
            decls->push_back(d);
        }
        // 90: dcl_sampler; its mode sits in bits 11..14 of the opcode token (1: comparison, what
        // SamplerComparisonState compiles to). Register as above (5.1: range id, bounds, space).
        if (decls && opcode == 90 && ((op >> 11) & 0xF) == 1 && length >= 3) {
            uint64_t idx = at + 2;
            if (s.U32(size_t(at + 1) * 4) >> 31) ++idx;
            const bool sm51 = r.majorVersion == 5 && r.minorVersion == 1;
            BufferDecl d{
                false, false, true, sm51 ? s.U32(size_t(idx + 1) * 4) : s.U32(size_t(idx) * 4), sm51 ? s.U32(size_t(at + length - 1) * 4) : 0, 0};
            decls->push_back(d);
        }
        at += length;
    }
}

}  // namespace

// ---- ShaderBinding ----------------------------------------------------------------------------

const char* ShaderBinding::RegisterClass() const {
    switch (kind) {
        case BindingKind::Cbv: return "b";
        case BindingKind::Srv: return "t";
        case BindingKind::Uav: return "u";
        case BindingKind::Sampler: return "s";
    }
    return "?";
}

std::string ShaderBinding::RegisterName() const {
    std::string s = RegisterClass() + std::to_string(shaderRegister);
    if (count != 1) s += count == 0 ? "[unbounded]" : "[" + std::to_string(count) + "]";
    return s + " space" + std::to_string(space);
}

std::string ShaderBinding::TypeName() const {
    static const char* const kTextures[] = {"?",           "Buffer",           "Texture1D", "Texture1DArray", "Texture2D",        "Texture2DArray",
                                            "Texture2DMS", "Texture2DMSArray", "Texture3D", "TextureCube",    "TextureCubeArray", "BufferEx"};
    const char* dim = dimension < 12 ? kTextures[dimension] : "?";
    switch (inputType) {
        case 0: return "cbuffer";
        case 1: return "tbuffer";
        case 2: return dim;
        case 3: return IsComparisonSampler() ? "SamplerComparisonState" : "SamplerState";
        case 4: return std::string("RW") + dim;
        case 5: return "StructuredBuffer";
        case 6: return "RWStructuredBuffer";
        case 7: return "ByteAddressBuffer";
        case 8: return "RWByteAddressBuffer";
        case 9: return "AppendStructuredBuffer";
        case 10: return "ConsumeStructuredBuffer";
        case 11: return "RWStructuredBuffer (with counter)";
        case 12: return "RaytracingAccelerationStructure";
        case 13: return "FeedbackTexture2D";
    }
    return "?";
}

bool ShaderBinding::CanBeRootDescriptor() const {
    switch (inputType) {
        case 0:   // cbuffer
        case 5:   // StructuredBuffer
        case 6:   // RWStructuredBuffer
        case 7:   // ByteAddressBuffer
        case 8:   // RWByteAddressBuffer
        case 12:  // RaytracingAccelerationStructure
            return count == 1;
        default:  // textures, typed buffers, tbuffers, samplers, counters
            return false;
    }
}

const char* DxbcReflection::StageName() const {
    return ShaderStageName(stage);
}

const char* ShaderStageName(ShaderStage stage) {
    switch (stage) {
        case ShaderStage::Pixel: return "pixel";
        case ShaderStage::Vertex: return "vertex";
        case ShaderStage::Geometry: return "geometry";
        case ShaderStage::Hull: return "hull";
        case ShaderStage::Domain: return "domain";
        case ShaderStage::Compute: return "compute";
        case ShaderStage::Unknown: break;
    }
    return "unknown";
}

std::string DxbcReflection::Profile() const {
    static const char* const kPrefix[] = {"ps", "vs", "gs", "hs", "ds", "cs"};
    if (stage == ShaderStage::Unknown) return "";
    return std::string(kPrefix[int(stage)]) + "_" + std::to_string(majorVersion) + "_" + std::to_string(minorVersion);
}

// ---- free functions -------------------------------------------------------------------------

std::array<uint8_t, 16> DxbcChecksum(const uint8_t* data, size_t size) {
    if (size < 20) throw InvalidArgument("DXBC checksum: " + std::to_string(size) + " bytes is shorter than the 20-byte prefix");
    const uint8_t* p = data + 20;
    const uint64_t length = size - 20;
    uint32_t state[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
    const uint64_t full = length / 64;
    for (uint64_t i = 0; i < full; ++i) Md5Block(state, p + i * 64);
    const uint64_t rest = length % 64;
    const uint32_t bits = static_cast<uint32_t>(length * 8);
    const uint32_t tail = static_cast<uint32_t>(length * 2) | 1u;
    uint8_t block[64];
    if (rest >= 56) {
        // The remaining bytes, 0x80 and zeros; then a block of only the two length words.
        std::memset(block, 0, 64);
        std::memcpy(block, p + full * 64, rest);
        block[rest] = 0x80;
        Md5Block(state, block);
        std::memset(block, 0, 64);
        PutU32(block, bits);
        PutU32(block + 60, tail);
        Md5Block(state, block);
    } else {
        // The bit length, the remaining bytes, 0x80, zeros, and the second length word last.
        std::memset(block, 0, 64);
        PutU32(block, bits);
        std::memcpy(block + 4, p + full * 64, rest);
        block[4 + rest] = 0x80;
        PutU32(block + 60, tail);
        Md5Block(state, block);
    }
    std::array<uint8_t, 16> out{};
    for (int i = 0; i < 4; ++i) PutU32(out.data() + 4 * i, state[i]);
    return out;
}

std::string DxbcContainerProblem(const uint8_t* data, size_t size, bool checkChecksum) {
    std::string problem;
    Chunks(data, size, problem);
    if (!problem.empty()) return problem;
    if (checkChecksum) {
        const std::array<uint8_t, 16> sum = DxbcChecksum(data, size);
        if (std::memcmp(sum.data(), data + 4, 16) != 0) return "the checksum does not match the contents (corrupted or modified bytecode)";
    }
    return "";
}

DxbcReflection ReflectDxbc(const uint8_t* data, size_t size) {
    const std::string problem = DxbcContainerProblem(data, size, true);
    if (!problem.empty()) throw InvalidArgument("not a valid DXBC container: " + problem);
    std::string unused;
    const std::vector<Chunk> chunks = Chunks(data, size, unused);
    DxbcReflection r;
    std::vector<BufferDecl> decls;
    if (const Chunk* c = Find(chunks, {FourCC("SHEX"), FourCC("SHDR")})) {
        Span s = c->span;
        s.what = "SHEX/SHDR";
        ReadProgram(s, r, &decls);
    }
    if (const Chunk* c = Find(chunks, {FourCC("RDEF")})) {
        Span s = c->span;
        s.what = "RDEF";
        ReadRdef(s, r);
    }
    for (const BufferDecl& d : decls)
        for (ShaderBinding& b : r.bindings) {
            if (d.comparisonSampler) {
                if (b.kind == BindingKind::Sampler && b.space == d.space && d.reg >= b.shaderRegister &&
                    (b.count == 0 || d.reg < b.shaderRegister + b.count))
                    b.flags |= kComparisonSamplerFlag;
                continue;
            }
            if (b.kind != (d.uav ? BindingKind::Uav : BindingKind::Srv) || b.space != d.space) continue;
            if (d.reg < b.shaderRegister || (b.count != 0 && d.reg >= b.shaderRegister + b.count)) continue;
            if (b.inputType == 2 || b.inputType == 4)  // typed (texture or buffer): the declaration says otherwise
                b.inputType = d.uav ? (d.structured ? 6u : 8u) : (d.structured ? 5u : 7u);
            if (d.structured && d.stride) b.structureStride = d.stride;
        }
    if (const Chunk* c = Find(chunks, {FourCC("ISG1"), FourCC("ISGN")})) {
        Span s = c->span;
        s.what = "input signature";
        r.inputs = ReadSignature(s, c->fourcc);
    }
    if (const Chunk* c = Find(chunks, {FourCC("OSG1"), FourCC("OSG5"), FourCC("OSGN")})) {
        Span s = c->span;
        s.what = "output signature";
        r.outputs = ReadSignature(s, c->fourcc);
    }
    if (const Chunk* c = Find(chunks, {FourCC("PSG1"), FourCC("PCSG")})) {
        Span s = c->span;
        s.what = "patch-constant signature";
        r.patchConstants = ReadSignature(s, c->fourcc);
    }
    return r;
}

}  // namespace dx12kit
