#include "dx12kit/shaders/DxbcProgram.hpp"

#include "dx12kit/core/Errors.hpp"
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

void Put(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }

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

std::vector<uint8_t> ReplaceProgramChunk(const uint8_t* data, size_t size, const ProgramChunk& chunk,
                                         const std::vector<uint32_t>& tokens) {
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

}  // namespace dxbc
}  // namespace dx12kit
