// UmaAccess: upload and readback without staging on a cache-coherent UMA adapter.
//
// Where the adapter reports D3D12_FEATURE_DATA_ARCHITECTURE::CacheCoherentUMA (vkd3d over lavapipe
// does; so do integrated GPUs), the GPU's memory is the CPU's and a CUSTOM heap with
// CPU_PAGE_PROPERTY_WRITE_BACK in MEMORY_POOL_L0 is both CPU-visible and usable for everything a
// DEFAULT buffer does ("Custom heaps" in the D3D12 docs; D3D12_HEAP_TYPE_CUSTOM). With the device
// option uma_direct (on by default there; DeviceOptions::umaDirect), buffers created in the
// 'default' heap live in such memory and are mapped for their lifetime, so:
//
//   upload (CommandList::Upload)   one memcpy into the buffer, *when that cannot be observed out of
//                                  order*: D3D12 semantics say the data lands when the list runs, so
//                                  a direct write at record time is only allowed while the buffer is
//                                  idle: no submitted work still uses it (its last-use serial has
//                                  completed), and no command list that is open (this one included)
//                                  has used it. Otherwise the staging copy is recorded as before.
//   read_buffer                    waits for the last submitted work that used the buffer (not for
//                                  every queue), then one memcpy out of the mapping.
//
// The one ordering a direct write cannot honour is a list executed *before* the list that wrote
// directly while the write is pending (both open at once): executing it, or reading the buffer,
// then raises InvalidArgument naming the buffer instead of showing the data early. A list that
// wrote directly and is then dropped without executing leaves the data written (as a write through
// Buffer.map would). Both vanish with uma_direct=False, which restores the staging paths exactly.
#pragma once

#include <cstdint>
#include <memory>

namespace dx12kit {

class Device;
class DeviceCore;
class Resource;
class ResourceStateTracker;

namespace uma {

/// Whether new 'default' buffers of this device live in CPU-visible memory (uma_direct in effect).
bool DirectBuffers(const DeviceCore& core);
/// Writes `bytes` of `data` at `offset` straight into `dst`'s mapping when the rules above allow it
/// (recording the write in `tracker`); false when the caller must stage the upload.
bool TryDirectUpload(ResourceStateTracker& tracker, const std::shared_ptr<Resource>& dst, const void* data, uint64_t bytes,
                     uint64_t offset);
/// Whether read_buffer of `buffer` reads its mapping directly (a CPU-visible 'default' buffer).
bool ReadsDirectly(const Resource& buffer);
/// Waits for the work that used `buffer`, then copies `size` bytes of its mapping into `dst`.
/// `timeoutSeconds` >= 0: Timeout when the work is not done by then.
void ReadDirect(Device& device, const Resource& buffer, void* dst, uint64_t size, double timeoutSeconds = -1.0);

}  // namespace uma
}  // namespace dx12kit
