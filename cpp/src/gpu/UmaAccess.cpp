#include "dx12kit/gpu/UmaAccess.hpp"

#include "dx12kit/core/Errors.hpp"
#include "dx12kit/core/HostCopy.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <cstring>
#include <string>

namespace dx12kit {
namespace uma {

bool DirectBuffers(const DeviceCore& core) {
    return core.Options().umaDirect && const_cast<DeviceCore&>(core).Memory().CacheCoherentUma();
}

bool ReadsDirectly(const Resource& buffer) {
    return buffer.IsBuffer() && buffer.HeapType() == D3D12_HEAP_TYPE_DEFAULT && buffer.Mapped() != nullptr;
}

void ReadDirect(Device& device, const Resource& buffer, void* dst, uint64_t size, double timeoutSeconds) {
    // Pinned: a defragmentation on another thread does not move the buffer between the wait and
    // the copy (its old memory would be freed under the memcpy). A move made before this returns
    // has set the last-use serial to its copy's, so the wait covers it.
    const std::shared_ptr<void> pin = buffer.PinInPlace();
    device.WaitForSerial(buffer.LastUseSerial(), timeoutSeconds);
    host::Copy(dst, buffer.Mapped(), static_cast<size_t>(size));
}

}  // namespace uma
}  // namespace dx12kit
