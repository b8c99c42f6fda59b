#include "dx12kit/gpu/UmaAccess.hpp"

#include "dx12kit/core/Errors.hpp"
#include "dx12kit/core/HostCopy.hpp"
#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/resources/Resource.hpp"
#include "dx12kit/resources/ResourceStateTracker.hpp"

#include <cstring>
#include <string>

namespace dx12kit {
namespace uma {

bool DirectBuffers(const DeviceCore& core) {
    return core.Options().umaDirect && const_cast<DeviceCore&>(core).Memory().CacheCoherentUma();
}

bool TryDirectUpload(ResourceStateTracker& tracker, const std::shared_ptr<Resource>& dst, const void* data, uint64_t bytes,
                     uint64_t offset) {
    if (!ReadsDirectly(*dst)) return false;
    // Idle: nothing open uses it (this list included: an earlier command of it may read the old
    // data) and everything submitted that used it has completed.
    if (dst->OpenUsers() != 0 || dst->DirectWriter() != nullptr || tracker.UsesOrWrote(dst.get())) return false;
    if (dst->LastUseSerial() > dst->Core().CompletedSerial()) return false;
    // Claimed before the copy: two lists uploading into the same idle buffer from two threads
    // would otherwise both pass the checks above and interleave their copies. The loser stages.
    if (!dst->TryClaimDirectWriter(&tracker)) return false;
    if (dst->OpenUsers() != 0) {  // a list began using it between the check and the claim
        dst->ClearDirectWriter(&tracker);
        return false;
    }
    host::Copy(dst->Mapped() + offset, data, static_cast<size_t>(bytes));
    tracker.NoteDirectWrite(dst);
    return true;
}

bool ReadsDirectly(const Resource& buffer) {
    return buffer.IsBuffer() && buffer.HeapType() == D3D12_HEAP_TYPE_DEFAULT && buffer.Mapped() != nullptr;
}

void ReadDirect(Device& device, const Resource& buffer, void* dst, uint64_t size, double timeoutSeconds) {
    if (buffer.DirectWriter() != nullptr)
        throw InvalidArgument("read_buffer: buffer '" + buffer.Name() +
                              "' was uploaded into directly (CPU-visible memory) by a command list that has not been executed; "
                              "execute that list first (or create the Device with uma_direct=False)");
    device.WaitForSerial(buffer.LastUseSerial(), timeoutSeconds);
    host::Copy(dst, buffer.Mapped(), static_cast<size_t>(size));
}

}  // namespace uma
}  // namespace dx12kit
