// dx12core: the Python arguments of execute_indirect, converted once for CommandList.execute_indirect
// (BindCommandListIndirect.cpp) and Bundle.execute_indirect (BindBundleIndirect.cpp).
#pragma once

#include "GpuArgs.hpp"

#include "dx12kit/gpu/CommandSignature.hpp"

#include <memory>
#include <vector>

namespace dx12kit::bindings {

struct IndirectCall {
    std::shared_ptr<CommandSignature> signature;
    uint32_t maxCount = 0;
    std::shared_ptr<Resource> arguments, count;
    uint64_t argumentOffset = 0, countOffset = 0;
    std::vector<std::shared_ptr<Resource>> referenced;
};

/// TypeError for a signature that is not a CommandSignature or referenced= that is not a sequence of
/// Buffers; the counts and offsets as CommandList.execute_indirect takes them.
IndirectCall IndirectCallArgs(CommandSignatureArg signature, Int maxCount, BufferArg argumentBuffer, Int argumentOffset, OptBufferArg countBuffer,
                              Int countOffset, BuffersArg referenced);

}  // namespace dx12kit::bindings
