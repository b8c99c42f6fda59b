#include "dx12kit/shaders/DxbcRewrite.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/shaders/DxbcProgram.hpp"
#include "dx12kit/shaders/DxbcReflection.hpp"

#include <array>
#include <cstring>
#include <string>
#include <utility>

namespace dx12kit {

namespace {

// D3D10/11 shader opcodes used here (the instruction token's bits 0-10).
enum : uint32_t {
    kAdd = 0,
    kAnd = 1,
    kEq = 24,
    kFtoi = 27,
    kFtou = 28,
    kGe = 29,
    kIadd = 30,
    kIshl = 41,
    kMin = 51,
    kMax = 52,
    kMov = 54,
    kMovc = 55,
    kOr = 60,
    kUlt = 79,
    kUge = 80,
    kF16tof32 = 131,
    kFirstbitHi = 135,
    kFirstbitShi = 137,
};
constexpr uint32_t kSaturate = 1u << 13;  // the instruction token's _sat bit

bool Rewritten(uint32_t opcode) {
    return opcode == kFtoi || opcode == kFtou || opcode == kFirstbitHi || opcode == kFirstbitShi || opcode == kF16tof32;
}

[[noreturn]] void Fail(const std::string& msg) {
    throw InvalidArgument("DXBC rewrite: " + msg);
}

/// The number of tokens of the operand starting at tokens[p] (extended tokens, immediates and
/// relative indices included).
size_t OperandLength(const std::vector<uint32_t>& tokens, size_t p, size_t end, int depth = 0) {
    if (p >= end || depth > 4) Fail("operand runs past its instruction");
    const size_t start = p;
    const uint32_t t = tokens[p++];
    bool extended = (t >> 31) != 0;
    while (extended) {
        if (p >= end) Fail("extended operand token runs past its instruction");
        extended = (tokens[p++] >> 31) != 0;
    }
    const uint32_t components = t & 3, type = (t >> 12) & 0xFF;
    if (type == 4) p += components == 1 ? 1 : 4;       // immediate32
    else if (type == 5) p += components == 1 ? 2 : 8;  // immediate64
    const uint32_t dims = (t >> 20) & 3;
    for (uint32_t d = 0; d < dims; ++d) {
        const uint32_t rep = (t >> (22 + 3 * d)) & 7;
        if (rep == 0 || rep == 3) p += 1;       // immediate32 (+ relative)
        else if (rep == 1 || rep == 4) p += 2;  // immediate64 (+ relative)
        if (rep == 2 || rep == 3 || rep == 4) p += OperandLength(tokens, p, end, depth + 1);
    }
    if (p > end) Fail("operand runs past its instruction");
    return p - start;
}

/// Whether the operands at tokens[a] and tokens[b] name the same register with immediate indices (`r0`, `o1`,
/// `x2[3]`): type, dimension and indices equal, no relative addressing.
bool SameRegister(const std::vector<uint32_t>& tokens, size_t a, size_t b) {
    const auto key = [&](size_t p, std::array<uint32_t, 4>& k) {
        const uint32_t t = tokens[p++];
        if (t >> 31) {
            while (tokens[p] >> 31) ++p;
            ++p;
        }
        const uint32_t dims = (t >> 20) & 3;
        if (dims > 2) return false;
        k = {(t >> 12) & 0xFF, dims, 0, 0};
        for (uint32_t d = 0; d < dims; ++d) {
            if ((t >> (22 + 3 * d)) & 7) return false;  // not a plain 32-bit immediate index
            k[2 + d] = tokens[p++];
        }
        return true;
    };
    std::array<uint32_t, 4> ka{}, kb{};
    return key(a, ka) && key(b, kb) && ka == kb;
}

/// For a `mov` at tokens[p] that vkd3d 1.2 may turn into a copy of the whole register: its destination
/// writes some but not all four components, its source swizzle selects, for each written component, that
/// same component, and outside the write mask it is the identity too (at every position between
/// temporaries and constant buffers, whose declared mask is always xyzw; at any position otherwise), and the
/// source is another register (`mov r0.yzw, r3.xyzw`). Returns the token index of the source operand and
/// its swizzle with every unwritten position selecting the first written component (`r3.yyzw`), which means
/// the same in DXBC; otherwise {0, 0}. See DxbcRewrite.hpp (partial mov).
std::pair<size_t, uint32_t> PartialIdentityMov(const std::vector<uint32_t>& tokens, size_t p, size_t end) {
    const uint32_t t = tokens[p];
    if ((t & 0x7FF) != kMov) return {0, 0};
    size_t q = p + 1;
    if (t >> 31) {  // extended opcode tokens
        while (q < end && (tokens[q] >> 31)) ++q;
        ++q;
    }
    if (q >= end) Fail("mov without operands");
    const uint32_t d = tokens[q];
    if ((d & 3) != 2 || ((d >> 2) & 3) != 0) return {0, 0};  // not a 4-component operand with a write mask
    const uint32_t mask = (d >> 4) & 0xF;
    if (mask == 0 || mask == 0xF) return {0, 0};
    const size_t s = q + OperandLength(tokens, q, end);
    if (s >= end) Fail("mov without a source operand");
    if (s + OperandLength(tokens, s, end) != end) Fail("mov with operands past its source");
    const uint32_t src = tokens[s];
    if ((src & 3) != 2 || ((src >> 2) & 3) != 1) return {0, 0};  // not a 4-component swizzle
    const uint32_t srcType = (src >> 12) & 0xFF;
    if (srcType == 4 || srcType == 5) return {0, 0};  // an immediate: no register to copy
    // vkd3d compares the swizzle over the registers' declared mask: all four components for temporaries and
    // constant buffers; for inputs, outputs and indexable temporaries it may be fewer, so there any identity
    // component outside the write mask counts.
    const bool fourComponents = ((d >> 12) & 0xFF) == 0 && (srcType == 0 || srcType == 8);
    uint32_t first = 4, identityOutside = 0, outside = 0;
    for (uint32_t c = 0; c < 4; ++c) {
        const uint32_t sel = (src >> (4 + 2 * c)) & 3;
        if (mask >> c & 1) {
            if (sel != c) return {0, 0};  // a real shuffle: vkd3d 1.2 translates it component by component
            if (first == 4) first = c;
        } else {
            ++outside;
            identityOutside += sel == c;
        }
    }
    if (!identityOutside || (fourComponents && identityOutside != outside)) return {0, 0};
    if (SameRegister(tokens, q, s)) return {0, 0};  // a register copied onto itself is unchanged
    uint32_t swizzle = 0;
    for (uint32_t c = 0; c < 4; ++c) swizzle |= ((mask >> c & 1) ? c : first) << (2 * c);
    return {s, (src & ~(0xFFu << 4)) | swizzle << 4};
}

/// Emits instructions into a token vector.
struct Emitter {
    std::vector<uint32_t>& out;
    uint32_t a, b;  // the two fresh temporaries

    static uint32_t TempDst(uint32_t mask) { return 2u | (0u << 2) | (mask << 4) | (0u << 12) | (1u << 20); }
    static uint32_t TempSrc() { return 2u | (1u << 2) | (0xE4u << 4) | (0u << 12) | (1u << 20); }  // .xyzw

    struct Op {
        std::vector<uint32_t> tokens;
    };
    Op Dst(uint32_t reg, uint32_t mask) const { return {{TempDst(mask), reg}}; }
    Op Src(uint32_t reg) const { return {{TempSrc(), reg}}; }
    static Op Imm(uint32_t v) { return {{2u | (4u << 12), v, v, v, v}}; }
    static Op ImmF(float f) {
        uint32_t v;
        std::memcpy(&v, &f, 4);
        return Imm(v);
    }
    void Emit(uint32_t opcode, std::initializer_list<Op> operands) {
        size_t length = 1;
        for (const Op& o : operands) length += o.tokens.size();
        out.push_back(opcode | uint32_t(length) << 24);
        for (const Op& o : operands) out.insert(out.end(), o.tokens.begin(), o.tokens.end());
    }
};

}  // namespace

DxbcRewriteResult RewriteDxbcForVkd3d(const uint8_t* data, size_t size) {
    DxbcRewriteResult result;
    result.bytecode.assign(data, data + size);
    const dxbc::ProgramChunk chunk = dxbc::ReadValidProgramChunk(data, size, "DXBC rewrite");
    if (!chunk.offset) return result;
    const std::vector<uint32_t>& tokens = chunk.tokens;
    const uint32_t version = tokens[0];
    // Hull shaders declare temporaries per phase: their instructions are not replaced by sequences (which need
    // two more), only their partial movs are changed (in place).
    const bool hull = (version >> 16) == 3;
    const auto replaced = [hull](uint32_t opcode) { return !hull && Rewritten(opcode); };
    const size_t programLength = tokens[1];

    // First pass: find dcl_temps and whether anything needs rewriting (sequences need two more temporaries;
    // partial movs are changed in place).
    bool sequences = false, movs = false;
    const dxbc::TempsDeclaration temps = dxbc::WalkProgram(tokens, programLength, "DXBC rewrite", [&](size_t p, uint32_t opcode, size_t length) {
        sequences = sequences || replaced(opcode);
        movs = movs || (opcode == kMov && PartialIdentityMov(tokens, p, p + length).first);
    });
    if (!sequences && !movs) return result;
    const uint32_t extraTemps = sequences ? 2 : 0;
    std::vector<uint32_t> out;
    Emitter e{out, temps.count, temps.count + 1};
    out.reserve(tokens.size() + 64);
    out.push_back(version);
    out.push_back(0);  // the program length, set below
    for (size_t p = 2; p < programLength;) {
        const uint32_t t = tokens[p];
        const uint32_t opcode = t & 0x7FF;
        const size_t length = dxbc::InstructionLength(tokens, p, programLength, "DXBC rewrite");
        if (extraTemps && dxbc::WriteTemps(temps, tokens, p, extraTemps, out)) {
            p += length;
            continue;
        }
        if (!replaced(opcode)) {
            const size_t at = out.size();
            out.insert(out.end(), tokens.begin() + std::ptrdiff_t(p), tokens.begin() + std::ptrdiff_t(p + length));
            if (opcode == kMov) {
                const std::pair<size_t, uint32_t> fix = PartialIdentityMov(tokens, p, p + length);
                if (fix.first) {
                    out[at + (fix.first - p)] = fix.second;
                    ++result.partialMov;
                }
            }
            p += length;
            continue;
        }
        const size_t end = p + length;
        size_t q = p + 1;
        if (t >> 31) {  // extended opcode tokens: none expected on these instructions; skipped
            while (q < end && (tokens[q] >> 31)) ++q;
            ++q;
        }
        const size_t dstLength = OperandLength(tokens, q, end);
        const Emitter::Op dst{std::vector<uint32_t>(tokens.begin() + std::ptrdiff_t(q), tokens.begin() + std::ptrdiff_t(q + dstLength))};
        q += dstLength;
        const size_t srcLength = OperandLength(tokens, q, end);
        const Emitter::Op src{std::vector<uint32_t>(tokens.begin() + std::ptrdiff_t(q), tokens.begin() + std::ptrdiff_t(q + srcLength))};
        if (q + srcLength != end) Fail("unexpected operands of instruction " + std::to_string(opcode));
        const uint32_t d = dst.tokens[0];
        // The destination's write mask (4-component operand, mask selection); the temporaries use it.
        uint32_t mask = (d & 3) == 2 && ((d >> 2) & 3) == 0 ? (d >> 4) & 0xF : 0xF;
        if (!mask) mask = 0xF;
        const Emitter::Op A = e.Dst(e.a, mask), B = e.Dst(e.b, mask), a = e.Src(e.a), b = e.Src(e.b);
        if (opcode == kFtoi) {
            e.Emit(kMax, {B, src, Emitter::ImmF(-2147483648.0f)});
            e.Emit(kMin, {B, b, Emitter::ImmF(2147483520.0f)});
            e.Emit(kFtoi, {B, b});
            e.Emit(kGe, {A, src, Emitter::ImmF(2147483648.0f)});
            e.Emit(kMovc, {B, a, Emitter::Imm(0x7FFFFFFFu), b});
            e.Emit(kEq, {A, src, src});
            e.Emit(kMovc, {dst, a, b, Emitter::Imm(0)});
            ++result.ftoi;
        } else if (opcode == kFtou) {
            e.Emit(kMax, {B, src, Emitter::ImmF(0.0f)});
            e.Emit(kMin, {B, b, Emitter::ImmF(4294967040.0f)});
            e.Emit(kGe, {A, b, Emitter::ImmF(2147483648.0f)});
            e.Emit(kAnd, {A, a, Emitter::ImmF(-2147483648.0f)});
            e.Emit(kAdd, {B, b, a});
            e.Emit(kFtoi, {B, b});
            e.Emit(kAnd, {A, a, Emitter::Imm(0x80000000u)});
            e.Emit(kOr, {B, b, a});
            e.Emit(kGe, {A, src, Emitter::ImmF(4294967296.0f)});
            e.Emit(kMovc, {B, a, Emitter::Imm(0xFFFFFFFFu), b});
            e.Emit(kEq, {A, src, src});
            e.Emit(kMovc, {dst, a, b, Emitter::Imm(0)});
            ++result.ftou;
        } else if (opcode == kF16tof32) {
            // Integer and exact float steps only, no UnpackHalf2x16 for a driver to fold with a
            // PackHalf2x16 (Mesa 25 turns f16tof32(f32tof16(f)) into f). Bits 16-31 of the source are
            // ignored; a source modifier applies to both reads as the original's integer source.
            e.Emit(kAnd, {B, src, Emitter::Imm(0x7FFFu)});                                // m: magnitude bits
            e.Emit(kUge, {A, b, Emitter::Imm(0x7C00u)});                                  // exponent 31: inf/NaN
            e.Emit(kMovc, {A, a, Emitter::Imm(0x70000000u), Emitter::Imm(0x38000000u)});  // bias 224 or 112
            e.Emit(kIshl, {B, b, Emitter::Imm(13)});
            e.Emit(kIadd, {A, a, b});                         // normals, inf, NaN
            e.Emit(kUlt, {B, Emitter::Imm(0x7F800000u), a});  // NaN: set the quiet bit
            e.Emit(kAnd, {B, b, Emitter::Imm(0x00400000u)});
            e.Emit(kOr, {A, a, b});
            e.Emit(kUlt, {B, a, Emitter::Imm(0x38800000u)});  // zero, subnormal
            e.Emit(kAnd, {B, b, Emitter::Imm(0x00800000u)});
            e.Emit(kIadd, {A, a, b});  // 2^-14 * (1 + m/1024)
            e.Emit(kMovc, {B, b, Emitter::ImmF(-0.00006103515625f), Emitter::ImmF(0.0f)});
            e.Emit(kAdd, {A, a, b});                        // - 2^-14: m * 2^-24 exactly
            e.Emit(kAnd, {B, src, Emitter::Imm(0x8000u)});  // sign
            e.Emit(kIshl, {B, b, Emitter::Imm(16)});
            if (t & kSaturate) {
                e.Emit(kOr, {A, a, b});
                e.Emit(kMov | kSaturate, {dst, a});
            } else {
                e.Emit(kOr, {dst, a, b});
            }
            ++result.f16tof32;
        } else {
            e.Emit(opcode, {B, src});
            e.Emit(kUlt, {A, b, Emitter::Imm(32)});
            e.Emit(kMovc, {dst, a, b, Emitter::Imm(0xFFFFFFFFu)});
            ++result.firstbitHigh;
        }
        p = end;
    }
    result.bytecode = dxbc::ReplaceProgram(data, size, chunk, programLength, std::move(out));
    return result;
}

}  // namespace dx12kit
