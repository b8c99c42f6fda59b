// DxbcProgram: the program chunk (SHEX/SHDR) of a DXBC container as tokens, and the container
// rebuilt around a new program. Shared by the bytecode rewrites (DxbcRewrite, DxbcModifierFix):
// reading the chunk, then writing back the chunk size, the container size, the offsets of the
// chunks after it and the checksum. Device-independent (no D3D12 include).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dx12kit {
namespace dxbc {

struct ProgramChunk {
    size_t offset = 0;             ///< byte offset of the chunk's header in the container; 0: no program chunk
    uint32_t bytes = 0;            ///< size of the chunk's data
    std::vector<uint32_t> tokens;  ///< the chunk's data as 32-bit tokens (version, length, instructions, ...)
};

/// The program chunk of a container that DxbcContainerProblem accepted. Throws InvalidArgument,
/// prefixed with `what`, for a chunk whose size is not a whole number of tokens or is below the
/// version and length tokens, or whose length token does not fit it. offset 0 when there is none.
ProgramChunk ReadProgramChunk(const uint8_t* data, size_t size, const char* what);

/// ReadProgramChunk of a container checked first (DxbcContainerProblem, checksum not required): throws
/// InvalidArgument "<what>: not a valid DXBC container: ..." for one that is not.
ProgramChunk ReadValidProgramChunk(const uint8_t* data, size_t size, const char* what);

/// `data` with the program chunk's data replaced by `tokens`: the chunk's size, the container's size,
/// the offsets of the chunks after it and the checksum are updated.
std::vector<uint8_t> ReplaceProgramChunk(const uint8_t* data, size_t size, const ProgramChunk& chunk, const std::vector<uint32_t>& tokens);

enum : uint32_t { kOpCustomData = 0x35, kOpDclTemps = 0x68 };

/// Whether `opcode` belongs before the code: a dcl_* instruction, customdata, or a hull shader's
/// phase marker.
bool IsDeclaration(uint32_t opcode);

/// Length in tokens of the instruction at tokens[p] (a customdata block's from its second token).
/// Throws InvalidArgument, prefixed with `what`, for a length of 0 or one running past `programLength`.
size_t InstructionLength(const std::vector<uint32_t>& tokens, size_t p, size_t programLength, const char* what);

/// Where a program declares its temporary registers and where its code begins.
struct TempsDeclaration {
    size_t at = 0;         ///< token index of dcl_temps; 0: the program declares none
    size_t firstCode = 0;  ///< token index of the first instruction that is not a declaration
    uint32_t count = 0;    ///< temporaries declared
};

/// Walks a program's instructions from token 2 (checking every length, see InstructionLength),
/// calling visit(p, opcode, length) for each; returns the program's TempsDeclaration.
template <class Visit>
TempsDeclaration WalkProgram(const std::vector<uint32_t>& tokens, size_t programLength, const char* what, Visit&& visit) {
    TempsDeclaration d;
    for (size_t p = 2; p < programLength;) {
        const uint32_t opcode = tokens[p] & 0x7FF;
        const size_t length = InstructionLength(tokens, p, programLength, what);
        if (opcode == kOpDclTemps) d.at = p;
        if (!d.firstCode && !IsDeclaration(opcode)) d.firstCode = p;
        visit(p, opcode, length);
        p += length;
    }
    if (d.at) d.count = tokens[d.at + 1];
    return d;
}

/// For a rewrite that needs `extra` more temporaries: before the program's first code instruction,
/// writes a dcl_temps of `extra` when the program declared none; at its dcl_temps, writes it raised by
/// `extra` and returns true (the instruction is done). Otherwise writes nothing and returns false.
bool WriteTemps(const TempsDeclaration& d, const std::vector<uint32_t>& tokens, size_t p, uint32_t extra, std::vector<uint32_t>& out);

/// The container with its program replaced by `out` (version, length token, instructions): sets the
/// length token and keeps whatever followed the old program inside the chunk.
std::vector<uint8_t> ReplaceProgram(const uint8_t* data, size_t size, const ProgramChunk& chunk, size_t programLength, std::vector<uint32_t> out);

}  // namespace dxbc
}  // namespace dx12kit
