#include "dx12kit/shaders/DxbcCounters.hpp"

#include <algorithm>
#include <vector>

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/shaders/DxbcProgram.hpp"

namespace dx12kit {

namespace {
constexpr uint32_t kOpImmAtomicAlloc = 0xb2;
constexpr uint32_t kOpImmAtomicConsume = 0xb3;

/// Token index after the operand at tokens[p] (extended operand tokens and 32-bit immediate indices;
/// 0 for an operand this reader does not take apart).
size_t SkipOperand(const std::vector<uint32_t>& tokens, size_t p, size_t end, std::vector<uint32_t>* indices) {
    if (p >= end) return 0;
    const uint32_t t = tokens[p++];
    for (bool ext = (t >> 31) != 0; ext && p < end; ++p) ext = (tokens[p] >> 31) != 0;
    const uint32_t dims = (t >> 20) & 3;
    for (uint32_t d = 0; d < dims; ++d) {
        if (((t >> (22 + 3 * d)) & 7) != 0 || p >= end) return 0;  // only immediate 32-bit indices
        if (indices) indices->push_back(tokens[p]);
        ++p;
    }
    return p;
}
}  // namespace

std::vector<uint32_t> UavCounterRegisters(const uint8_t* data, size_t size) {
    const char* what = "UAV counter check";
    const dxbc::ProgramChunk chunk = dxbc::ReadValidProgramChunk(data, size, what);
    std::vector<uint32_t> regs;
    if (!chunk.offset) return regs;
    const std::vector<uint32_t>& tokens = chunk.tokens;
    const size_t programLength = std::min<size_t>(tokens[1], tokens.size());
    const uint32_t major = (tokens[0] >> 4) & 0xF, minor = tokens[0] & 0xF;
    std::string refused;
    dxbc::WalkProgram(tokens, programLength, what, [&](size_t p, uint32_t opcode, size_t length) {
        if (opcode != kOpImmAtomicAlloc && opcode != kOpImmAtomicConsume) return;
        size_t q = p + 1;
        for (bool ext = (tokens[p] >> 31) != 0; ext && q < p + length; ++q) ext = (tokens[q] >> 31) != 0;
        q = SkipOperand(tokens, q, p + length, nullptr);  // the destination
        std::vector<uint32_t> idx;
        if (!q || !SkipOperand(tokens, q, p + length, &idx) || idx.size() != 1 || major * 10 + minor > 50) {
            if (refused.empty()) refused = opcode == kOpImmAtomicAlloc ? "imm_atomic_alloc" : "imm_atomic_consume";
            return;
        }
        if (std::find(regs.begin(), regs.end(), idx[0]) == regs.end()) regs.push_back(idx[0]);
    });
    if (!refused.empty())
        throw InvalidArgument("the shader uses a UAV counter (" + refused +
                              ") through a register dx12kit cannot name: counters are taken from shader model 5.0 bytecode "
                              "with a constant UAV register (u0..u7)");
    return regs;
}

std::string UavCounterUse(const uint8_t* data, size_t size) {
    const char* what = "UAV counter check";
    const dxbc::ProgramChunk chunk = dxbc::ReadValidProgramChunk(data, size, what);
    if (!chunk.offset) return "";
    const std::vector<uint32_t>& tokens = chunk.tokens;
    const size_t programLength = std::min<size_t>(tokens[1], tokens.size());
    std::string found;
    dxbc::WalkProgram(tokens, programLength, what, [&](size_t p, uint32_t opcode, size_t length) {
        if (!found.empty() || (opcode != kOpImmAtomicAlloc && opcode != kOpImmAtomicConsume)) return;
        found = opcode == kOpImmAtomicAlloc ? "imm_atomic_alloc" : "imm_atomic_consume";
        size_t q = p + 1;
        for (bool ext = (tokens[p] >> 31) != 0; ext && q < p + length; ++q) ext = (tokens[q] >> 31) != 0;
        q = SkipOperand(tokens, q, p + length, nullptr);  // the destination
        std::vector<uint32_t> idx;
        if (q && SkipOperand(tokens, q, p + length, &idx) && !idx.empty()) {
            if (idx.size() == 1) found += " on u" + std::to_string(idx[0]);
            else found += " on u" + std::to_string(idx[1]) + " (range " + std::to_string(idx[0]) + ")";
        }
    });
    return found;
}

}  // namespace dx12kit
