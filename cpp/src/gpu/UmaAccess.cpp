#include "dx12kit/gpu/UmaAccess.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/base/HostCopy.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <cstring>
#include <string>

namespace dx12kit {
namespace uma {

bool DirectBuffers(const DeviceContext& core) {
    return core.Options().umaDirect && const_cast<DeviceContext&>(core).Memory().CacheCoherentUma();
}

bool ReadsDirectly(const Resource& buffer) {
    return buffer.IsBuffer() && buffer.HeapType() == D3D12_HEAP_TYPE_DEFAULT && buffer.Mapped() != nullptr;
}

bool ReadDirect(Device& device, const Resource& buffer, void* dst, uint64_t size, double timeoutSeconds) {
    // Pinned: a defragmentation on another thread does not move the buffer between the wait and
    // the copy (its old memory would be freed under the memcpy). A move made before this returns
    // has set the last-use serial to its copy's, so the wait covers it.
    const std::shared_ptr<void> pin = buffer.PinInPlace();
    DeviceContext& core = *device.Context();
    constexpr int kRounds = 4;  // waits before falling back to a queue-ordered GPU copy
    for (int round = 0; round < kRounds; ++round) {
        device.WaitForSerial(buffer.LastUseSerial(), timeoutSeconds);
        // The copy excludes every CPU write (they hold this mutex) and every new submission: the
        // buffer's last use is checked again under it, so GPU work submitted on another thread
        // since the wait (a dispatch writing it, a GPU-ordered upload) is never read half-done.
        std::lock_guard<std::recursive_mutex> lock(core.SubmitMutex());
        if (buffer.LastUseSerial() > core.CompletedSerial()) device.Poll();
        if (buffer.LastUseSerial() <= core.CompletedSerial()) {
            host::Copy(dst, buffer.Mapped(), static_cast<size_t>(size));
            return true;
        }
    }
    return false;
}

}  // namespace uma
}  // namespace dx12kit
