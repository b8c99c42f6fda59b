// UmaAccess: upload and readback without staging on a cache-coherent UMA adapter.
//
// Where the adapter reports D3D12_FEATURE_DATA_ARCHITECTURE::CacheCoherentUMA (vkd3d over lavapipe
// does; so do integrated GPUs), the GPU's memory is the CPU's and a CUSTOM heap with
// CPU_PAGE_PROPERTY_WRITE_BACK in MEMORY_POOL_L0 is both CPU-visible and usable for everything a
// DEFAULT buffer does ("Custom heaps" in the D3D12 docs; D3D12_HEAP_TYPE_CUSTOM). With the device
// option uma_direct (on by default; DeviceOptions::umaDirect; False forces staging), buffers
// created in the 'default' heap live in such memory and are mapped for their lifetime, so:
//
//   upload (CommandList::Upload)   the bytes are copied into the list's upload memory at record
//                                  time (the data is the caller's, who may change it after the call)
//                                  and written into the buffer at CommandQueue::Execute, in
//                                  execution order, never earlier than D3D12 would: a list opened
//                                  later may execute first, and a list never executed writes nothing.
//                                  At execute, under the submission mutex, after validation and the
//                                  cross-queue bookkeeping, each pending write either
//                                    - is one memcpy by the CPU, when no GPU work can see the old
//                                      bytes any more: every submission that used the buffer has
//                                      completed (its last-use serial) and no earlier list of the
//                                      same execute uses it; or
//                                    - is a CopyBufferRegion from the upload memory recorded in
//                                      the list's pre-list (after its transitions), so the GPU
//                                      orders it after the work still using the buffer, on this
//                                      queue or (rule 7 waits) on others. No CPU wait.
//                                  A write is pending only while everything the list did to the
//                                  buffer before it was pending writes too (the tracker's use
//                                  stamps), so all of them belong before the list's commands;
//                                  otherwise the upload is a staged copy recorded in place.
//                                  The buffer is asked in COPY_DEST before the list either way (what
//                                  the GPU copy needs, and what a staged upload leaves).
//                                  dx12kit never executes a list twice (CommandQueue::Execute
//                                  refuses), so a write happens at most once.
//   read_buffer                    waits for the last submitted work that used the buffer (not for
//                                  every queue), then one memcpy out of the mapping, made under the
//                                  submission mutex after checking again that nothing submitted
//                                  since the wait uses the buffer: CPU writes (write_buffer, pending
//                                  writes at execute) hold the same mutex, and GPU work submitted by
//                                  another thread between the wait and the copy sends the read back
//                                  to wait for it, so a read sees one state the buffer had in
//                                  submission order, never two half-states. After a few such
//                                  rounds (another thread keeps submitting work on the buffer) the
//                                  read is a GPU copy in queue order instead (ReadDirect returns
//                                  false). Writes still pending in unexecuted lists are not seen,
//                                  as in D3D12.
//
// Compared with staging, the second copy runs on the CPU's copy threads inside execute instead
// of on the GPU queue behind a fence (on lavapipe: one thread). uma_direct=False restores the
// staging paths exactly.
#pragma once

#include <cstdint>
#include <memory>

namespace dx12kit {

class Device;
class DeviceContext;
class Resource;

namespace uma {

/// Whether new 'default' buffers of this device live in CPU-visible memory (uma_direct in effect).
bool DirectBuffers(const DeviceContext& core);
/// Whether read_buffer of `buffer` reads its mapping directly (a CPU-visible 'default' buffer).
bool ReadsDirectly(const Resource& buffer);
/// Waits for the work that used `buffer`, then copies `size` bytes of its mapping into `dst` under
/// the submission mutex, once no submitted work uses the buffer. False (nothing copied) when other
/// threads kept submitting work on the buffer through several waits: the caller reads it by a GPU
/// copy in queue order instead. `timeoutSeconds` >= 0: Timeout when the work is not done by then.
bool ReadDirect(Device& device, const Resource& buffer, void* dst, uint64_t size, double timeoutSeconds = -1.0);

}  // namespace uma
}  // namespace dx12kit
