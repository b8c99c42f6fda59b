#include "dx12kit/shaders/DxbcModifierFix.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/shaders/DxbcProgram.hpp"
#include "dx12kit/shaders/DxbcReflection.hpp"

#include <array>
#include <cstring>

namespace dx12kit {

namespace {

enum : uint32_t { kMov = 0x36 };

[[noreturn]] void Fail(const std::string& msg) {
    throw InvalidArgument("DXBC source modifiers: " + msg);
}

uint32_t Get(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

/// How an instruction reads its operand number `index` (0 = the first operand, destinations
/// included): true when a source modifier there is a float (or double) operation.
bool FloatOperand(uint32_t op, size_t index) {
    switch (op) {
        case 0x00:
        case 0x0b:
        case 0x0c:
        case 0x0e:
        case 0x0f:
        case 0x10:
        case 0x11:  // add, deriv, div, dp
        case 0x18:
        case 0x19:
        case 0x1a:
        case 0x1b:
        case 0x1c:
        case 0x1d:  // eq exp frc ftoi ftou ge
        case 0x2f:
        case 0x31:
        case 0x32:
        case 0x33:
        case 0x34:
        case 0x36:  // log lt mad min max mov
        case 0x38:
        case 0x39:
        case 0x40:
        case 0x41:
        case 0x42:
        case 0x43:
        case 0x44:  // mul ne round_* rsq
        case 0x45:
        case 0x46:
        case 0x47:
        case 0x48:
        case 0x49:
        case 0x4a:  // sample*
        case 0x4b:
        case 0x4d:
        case 0x6c:
        case 0x6d:
        case 0x7a:
        case 0x7b:
        case 0x7c:  // sqrt sincos lod gather4 deriv
        case 0x7d:
        case 0x7e:
        case 0x81:
        case 0x82:
        case 0xcd:  // gather4_c rcp f32tof16 eval_centroid
            return true;
        case 0x37: return index != 1;  // movc: the condition is a bit test
        case 0x8e: return index != 2;  // swapc: likewise (two destinations)
        case 0x7f:
        case 0x80: return index != 2;  // gather4_po(_c): the offset is an integer
        case 0xcb:
        case 0xcc: return index != 2;  // eval_snapped offset, eval_sample_index index
        default: break;
    }
    // Double-precision instructions: their modifiers are double operations (itod/utod read integers).
    return (op >= 0xbf && op <= 0xca) || (op >= 0xd2 && op <= 0xd4) || op == 0xd6 || op == 0xd7;
}

/// Resource and memory access (loads, stores, atomics, resource queries): a modifier on an integer
/// operand there has no meaning DXBC defines that vkd3d 1.2 honours.
bool MemoryAccess(uint32_t op) {
    return op == 0x2d || op == 0x2e || op == 0x3d || op == 0x6e || op == 0x6f || op == 0x79 || op == 0x7f || op == 0x80 ||
           (op >= 0xa3 && op <= 0xbd) || op == 0xcb || op == 0xcc;
}

struct Operand {
    size_t length = 0;
    uint32_t modifier = 0;  // 1 = -x, 2 = |x|, 3 = -|x|
    bool nestedModifier = false;
};

Operand ParseOperand(const std::vector<uint32_t>& tokens, size_t p, size_t end, int depth = 0) {
    if (p >= end || depth > 4) Fail("operand runs past its instruction");
    Operand o;
    const size_t start = p;
    const uint32_t t = tokens[p++];
    bool extended = (t >> 31) != 0;
    while (extended) {
        if (p >= end) Fail("extended operand token runs past its instruction");
        const uint32_t ext = tokens[p++];
        if ((ext & 0x3F) == 1) o.modifier = (ext >> 6) & 0xFF;
        extended = (ext >> 31) != 0;
    }
    const uint32_t components = t & 3, type = (t >> 12) & 0xFF;
    if (type == 4) p += components == 1 ? 1 : 4;
    else if (type == 5) p += components == 1 ? 2 : 8;
    const uint32_t dims = (t >> 20) & 3;
    for (uint32_t d = 0; d < dims; ++d) {
        const uint32_t rep = (t >> (22 + 3 * d)) & 7;
        if (rep == 0 || rep == 3) p += 1;
        else if (rep == 1 || rep == 4) p += 2;
        if (rep == 2 || rep == 3 || rep == 4) {
            const Operand inner = ParseOperand(tokens, p, end, depth + 1);
            o.nestedModifier |= inner.modifier != 0 || inner.nestedModifier;
            p += inner.length;
        }
    }
    if (p > end) Fail("operand runs past its instruction");
    o.length = p - start;
    return o;
}

/// The creator string of the RDEF chunk ("" without one).
std::string Creator(const uint8_t* data, size_t size) {
    const uint32_t count = Get(data + 28);
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t off = Get(data + 32 + 4 * size_t(i));
        if (std::memcmp(data + off, "RDEF", 4) != 0) continue;
        const uint32_t chunkSize = Get(data + off + 4);
        if (chunkSize < 28) return "";
        const uint32_t at = Get(data + off + 8 + 24);
        if (at >= chunkSize) return "";
        const char* s = reinterpret_cast<const char*>(data + off + 8 + at);
        return std::string(s, strnlen(s, chunkSize - at));
    }
    return "";
}

const char* ModifierText(uint32_t m) {
    return m == 1 ? "-x" : m == 2 ? "|x|" : m == 3 ? "-|x|" : "?";
}

}  // namespace

std::string DxbcOpcodeName(uint32_t op) {
    static const std::pair<uint32_t, const char*> names[] = {
        {0x01, "and"},
        {0x03, "breakc"},
        {0x06, "case"},
        {0x08, "continuec"},
        {0x0d, "discard"},
        {0x1e, "iadd"},
        {0x1f, "if"},
        {0x20, "ieq"},
        {0x21, "ige"},
        {0x22, "ilt"},
        {0x23, "imad"},
        {0x24, "imax"},
        {0x25, "imin"},
        {0x26, "imul"},
        {0x27, "ine"},
        {0x28, "ineg"},
        {0x29, "ishl"},
        {0x2a, "ishr"},
        {0x2b, "itof"},
        {0x2d, "ld"},
        {0x2e, "ld2dms"},
        {0x37, "movc"},
        {0x3b, "not"},
        {0x3c, "or"},
        {0x3d, "resinfo"},
        {0x3f, "retc"},
        {0x4c, "switch"},
        {0x4e, "udiv"},
        {0x4f, "ult"},
        {0x50, "uge"},
        {0x51, "umul"},
        {0x52, "umad"},
        {0x53, "umax"},
        {0x54, "umin"},
        {0x55, "ushr"},
        {0x56, "utof"},
        {0x57, "xor"},
        {0x6e, "samplepos"},
        {0x6f, "sampleinfo"},
        {0x79, "bufinfo"},
        {0x7f, "gather4_po"},
        {0x80, "gather4_po_c"},
        {0x83, "f16tof32"},
        {0x84, "uaddc"},
        {0x85, "usubb"},
        {0x86, "countbits"},
        {0x87, "firstbit_hi"},
        {0x88, "firstbit_lo"},
        {0x89, "firstbit_shi"},
        {0x8a, "ubfe"},
        {0x8b, "ibfe"},
        {0x8c, "bfi"},
        {0x8d, "bfrev"},
        {0x8e, "swapc"},
        {0xa3, "ld_uav_typed"},
        {0xa4, "store_uav_typed"},
        {0xa5, "ld_raw"},
        {0xa6, "store_raw"},
        {0xa7, "ld_structured"},
        {0xa8, "store_structured"},
        {0xa9, "atomic_and"},
        {0xaa, "atomic_or"},
        {0xab, "atomic_xor"},
        {0xac, "atomic_cmp_store"},
        {0xad, "atomic_iadd"},
        {0xae, "atomic_imax"},
        {0xaf, "atomic_imin"},
        {0xb0, "atomic_umax"},
        {0xb1, "atomic_umin"},
        {0xb2, "imm_atomic_alloc"},
        {0xb3, "imm_atomic_consume"},
        {0xb4, "imm_atomic_iadd"},
        {0xb5, "imm_atomic_and"},
        {0xb6, "imm_atomic_or"},
        {0xb7, "imm_atomic_xor"},
        {0xb8, "imm_atomic_exch"},
        {0xb9, "imm_atomic_cmp_exch"},
        {0xba, "imm_atomic_imax"},
        {0xbb, "imm_atomic_imin"},
        {0xbc, "imm_atomic_umax"},
        {0xbd, "imm_atomic_umin"},
        {0xcb, "eval_snapped"},
        {0xcc, "eval_sample_index"},
        {0xd5, "msad"},
        {0xd8, "itod"},
        {0xd9, "utod"},
    };
    for (const auto& n : names)
        if (n.first == op) return n.second;
    return "opcode " + std::to_string(op);
}

DxbcModifierFixResult FixFoldedFloatModifiers(const uint8_t* data, size_t size) {
    DxbcModifierFixResult result;
    result.bytecode.assign(data, data + size);
    const dxbc::ProgramChunk chunk = dxbc::ReadValidProgramChunk(data, size, "DXBC source modifiers");
    if (!chunk.offset) return result;
    const std::vector<uint32_t>& tokens = chunk.tokens;
    const uint32_t version = tokens[0];
    const size_t programLength = tokens[1];
    const std::string creator = Creator(data, size);
    const bool vkd3dShader = creator.rfind("vkd3d-shader", 0) == 0;
    const bool hull = (version >> 16) == 3;

    // First pass: find dcl_temps and the operands to fix; refuse what cannot be fixed.
    struct Fix {
        size_t instruction, operand;
    };
    std::vector<Fix> fixes;
    size_t mostPerInstruction = 0;
    const dxbc::TempsDeclaration temps = dxbc::WalkProgram(tokens, programLength, "DXBC source modifiers", [&](size_t p, uint32_t op, size_t length) {
        if (dxbc::IsDeclaration(op) || op == 0x78 /* fcall: a body index before its operand */) return;
        const uint32_t t = tokens[p];
        const size_t end = p + length;
        size_t q = p + 1;
        if (t >> 31) {
            while (q < end && (tokens[q] >> 31)) ++q;
            ++q;
        }
        size_t here = 0;
        for (size_t index = 0; q < end; ++index) {
            const Operand o = ParseOperand(tokens, q, end);
            const std::string what = DxbcOpcodeName(op);
            if (o.nestedModifier) Fail("a source modifier inside a relative index of " + what + ": not supported (the index is an integer)");
            if (o.modifier && !FloatOperand(op, index)) {
                if (vkd3dShader) {
                    if (hull)
                        Fail("hull shader with a float " + std::string(ModifierText(o.modifier)) + " folded into " + what +
                             " (vkd3d-shader miscompile; hull shaders are not rewritten)");
                    const uint32_t components = tokens[q] & 3, mode = (tokens[q] >> 2) & 3;
                    if (components == 0 || (components == 2 && mode == 0)) Fail("unexpected operand form with a modifier in " + what);
                    fixes.push_back({p, q});
                    ++here;
                } else if (o.modifier != 1 || MemoryAccess(op)) {
                    Fail("source modifier " + std::string(ModifierText(o.modifier)) + " on operand " + std::to_string(index) + " of " + what +
                         ", which does not read it as a float: DXBC defines no such modifier there (or vkd3d 1.2 ignores it) "
                         "(creator '" +
                         creator + "'); negate or take the absolute value in a separate instruction");
                }
            }
            q += o.length;
        }
        if (q != end) Fail("operands of " + DxbcOpcodeName(op) + " run past the instruction");
        if (here > mostPerInstruction) mostPerInstruction = here;
    });
    if (fixes.empty()) return result;

    const uint32_t extra = uint32_t(mostPerInstruction);
    std::vector<uint32_t> out;
    out.reserve(tokens.size() + fixes.size() * 8 + 4);
    out.push_back(version);
    out.push_back(0);
    size_t nextFix = 0;
    for (size_t p = 2; p < programLength;) {
        const uint32_t t = tokens[p];
        const uint32_t op = t & 0x7FF;
        const size_t length = dxbc::InstructionLength(tokens, p, programLength, "DXBC source modifiers");
        if (dxbc::WriteTemps(temps, tokens, p, extra, out)) {
            p += length;
            continue;
        }
        if (nextFix >= fixes.size() || fixes[nextFix].instruction != p) {
            out.insert(out.end(), tokens.begin() + std::ptrdiff_t(p), tokens.begin() + std::ptrdiff_t(p + length));
            p += length;
            continue;
        }
        // The movs first, then the instruction with the fixed operands replaced.
        std::vector<uint32_t> body;
        const size_t end = p + length;
        size_t q = p + 1;
        body.push_back(t);
        if (t >> 31) {
            while (q < end && (tokens[q] >> 31)) body.push_back(tokens[q++]);
            body.push_back(tokens[q++]);
        }
        uint32_t temp = temps.count;
        while (q < end) {
            const Operand o = ParseOperand(tokens, q, end);
            if (nextFix < fixes.size() && fixes[nextFix].instruction == p && fixes[nextFix].operand == q) {
                std::vector<uint32_t> src(tokens.begin() + std::ptrdiff_t(q), tokens.begin() + std::ptrdiff_t(q + o.length));
                const uint32_t components = src[0] & 3, mode = (src[0] >> 2) & 3;
                uint32_t mask, replacement;
                if (components == 2 && mode == 1) {  // swizzle: rT.xyzw = src.swizzle; read rT.xyzw
                    mask = 0xF;
                    replacement = 2u | (1u << 2) | (0xE4u << 4) | (1u << 20);
                } else {
                    if (components == 2) {  // select_1 .c: read as .cccc, written to rT.x
                        const uint32_t c = (src[0] >> 4) & 3;
                        src[0] = (src[0] & ~0xFFCu) | (1u << 2) | ((c | c << 2 | c << 4 | c << 6) << 4);
                    }
                    mask = 0x1;  // a one-component operand: rT.x
                    replacement = 2u | (2u << 2) | (0u << 4) | (1u << 20);
                }
                const uint32_t dst = 2u | (mask << 4) | (1u << 20);
                out.push_back(kMov | uint32_t(3 + src.size()) << 24);
                out.push_back(dst);
                out.push_back(temp);
                out.insert(out.end(), src.begin(), src.end());
                body.push_back(replacement);
                body.push_back(temp);
                ++temp;
                ++nextFix;
                ++result.fixed;
            } else {
                body.insert(body.end(), tokens.begin() + std::ptrdiff_t(q), tokens.begin() + std::ptrdiff_t(q + o.length));
            }
            q += o.length;
        }
        if (body.size() > 0x7F) Fail("instruction too long after the rewrite");
        body[0] = (body[0] & ~(0x7Fu << 24)) | uint32_t(body.size()) << 24;
        out.insert(out.end(), body.begin(), body.end());
        result.instructions.push_back(DxbcOpcodeName(op));
        p = end;
    }
    result.bytecode = dxbc::ReplaceProgram(data, size, chunk, programLength, std::move(out));
    return result;
}

}  // namespace dx12kit
