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
    if (!ReadsDirectly(*dst) || tracker.UsesOrWrote(dst.get())) return false;
    // The writer is claimed first, then the buffer checked idle: two lists uploading into it from
    // two threads cannot both pass (the loser stages), and a list that starts using it after the
    // claim finds it written directly at its execute (CheckDirectWrites). Idle: nothing open uses
    // it (another list's earlier command may read the old data) and everything submitted that used
    // it has completed (a list executes, notes its serial, and only then stops counting as open).
    if (!dst->TryClaimDirectWriter(&tracker)) return false;
    if (dst->OpenUsers() != 0 || dst->LastUseSerial() > dst->Core().CompletedSerial()) {
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
