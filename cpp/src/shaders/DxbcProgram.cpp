#include "dx12kit/shaders/DxbcProgram.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/shaders/DxbcReflection.hpp"

#include <array>
#include <cstring>
#include <string>

namespace dx12kit {
namespace dxbc {

namespace {

uint32_t Get(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

void Put(uint8_t* p, uint32_t v) {
    std::memcpy(p, &v, 4);
}

}  // namespace

ProgramChunk ReadProgramChunk(const uint8_t* data, size_t size, const char* what) {
    ProgramChunk chunk;
    const uint32_t count = Get(data + 28);
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t off = Get(data + 32 + 4 * size_t(i));
        if (std::memcmp(data + off, "SHEX", 4) == 0 || std::memcmp(data + off, "SHDR", 4) == 0) chunk.offset = off;
    }
    if (!chunk.offset) return chunk;
    chunk.bytes = Get(data + chunk.offset + 4);
    if (chunk.bytes < 8 || chunk.bytes % 4 || chunk.offset + 8 + size_t(chunk.bytes) > size)
        throw InvalidArgument(std::string(what) + ": program chunk of " + std::to_string(chunk.bytes) + " bytes");
    chunk.tokens.resize(chunk.bytes / 4);
    std::memcpy(chunk.tokens.data(), data + chunk.offset + 8, chunk.bytes);
    const uint32_t length = chunk.tokens[1];
    if (length < 2 || length > chunk.tokens.size())
        throw InvalidArgument(std::string(what) + ": program length " + std::to_string(length) + " does not fit its chunk");
    return chunk;
}

std::vector<uint8_t> ReplaceProgramChunk(const uint8_t* data, size_t size, const ProgramChunk& chunk, const std::vector<uint32_t>& tokens) {
    const size_t oldBytes = chunk.bytes, newBytes = tokens.size() * 4;
    std::vector<uint8_t> rebuilt;
    rebuilt.reserve(size - oldBytes + newBytes);
    rebuilt.insert(rebuilt.end(), data, data + chunk.offset + 8);
    const size_t body = rebuilt.size();
    rebuilt.resize(body + newBytes);
    std::memcpy(rebuilt.data() + body, tokens.data(), newBytes);
    rebuilt.insert(rebuilt.end(), data + chunk.offset + 8 + oldBytes, data + size);
    Put(rebuilt.data() + chunk.offset + 4, uint32_t(newBytes));
    Put(rebuilt.data() + 24, uint32_t(rebuilt.size()));
    const uint32_t count = Get(data + 28);
    for (uint32_t i = 0; i < count; ++i) {
        uint8_t* entry = rebuilt.data() + 32 + 4 * size_t(i);
        const uint32_t off = Get(entry);
        if (off > chunk.offset) Put(entry, uint32_t(off + newBytes - oldBytes));
    }
    const std::array<uint8_t, 16> sum = DxbcChecksum(rebuilt.data(), rebuilt.size());
    std::memcpy(rebuilt.data() + 4, sum.data(), 16);
    return rebuilt;
}

ProgramChunk ReadValidProgramChunk(const uint8_t* data, size_t size, const char* what) {
    const std::string problem = DxbcContainerProblem(data, size, false);
    if (!problem.empty()) throw InvalidArgument(std::string(what) + ": not a valid DXBC container: " + problem);
    return ReadProgramChunk(data, size, what);
}

bool IsDeclaration(uint32_t op) {
    return (op >= 0x58 && op <= 0x6a) || (op >= 0x8f && op <= 0xa2) || op == 0xce || op == kOpCustomData || (op >= 0x71 && op <= 0x74);
}

size_t InstructionLength(const std::vector<uint32_t>& tokens, size_t p, size_t programLength, const char* what) {
    const uint32_t t = tokens[p];
    size_t length = (t >> 24) & 0x7F;
    if ((t & 0x7FF) == kOpCustomData) {
        if (p + 1 >= programLength) throw InvalidArgument(std::string(what) + ": customdata block runs past the program");
        length = tokens[p + 1];
    }
    if (length == 0 || p + length > programLength)
        throw InvalidArgument(std::string(what) + ": instruction at token " + std::to_string(p) + " runs past the program");
    return length;
}

bool WriteTemps(const TempsDeclaration& d, const std::vector<uint32_t>& tokens, size_t p, uint32_t extra, std::vector<uint32_t>& out) {
    if (p == d.firstCode && !d.at) {
        out.push_back(kOpDclTemps | 2u << 24);
        out.push_back(extra);
    }
    if (p != d.at) return false;
    out.push_back(tokens[p]);
    out.push_back(d.count + extra);
    return true;
}

std::vector<uint8_t> ReplaceProgram(const uint8_t* data, size_t size, const ProgramChunk& chunk, size_t programLength, std::vector<uint32_t> out) {
    out[1] = uint32_t(out.size());
    // Anything after the program inside the chunk (none expected) is kept.
    out.insert(out.end(), chunk.tokens.begin() + std::ptrdiff_t(programLength), chunk.tokens.end());
    return ReplaceProgramChunk(data, size, chunk, out);
}

}  // namespace dxbc
}  // namespace dx12kit
