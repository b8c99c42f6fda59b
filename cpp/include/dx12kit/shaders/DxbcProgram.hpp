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

/// `data` with the program chunk's data replaced by `tokens`: the chunk's size, the container's size,
/// the offsets of the chunks after it and the checksum are updated.
std::vector<uint8_t> ReplaceProgramChunk(const uint8_t* data, size_t size, const ProgramChunk& chunk,
                                         const std::vector<uint32_t>& tokens);

}  // namespace dxbc
}  // namespace dx12kit
