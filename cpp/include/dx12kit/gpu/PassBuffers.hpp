// PassBufferPool: the buffers dx12kit's own GPU passes use for one call (ExecuteIndirect's root-CBV
// emulation: its scratch buffer and the READBACK word of its FenceCheck), reused instead of created per
// call.
//
// Acquire returns a lease: a shared_ptr to the buffer whose last copy, when released, gives the buffer
// back to the pool. A command list keeps the lease with its tracked objects, which are released only
// once the list's work has completed on the GPU (or at once when the list is dropped unexecuted), so a
// buffer is handed out again only when no GPU work uses it (the same rule the upload pages and the
// deferred frees follow: free after the fence). Sizes are rounded up to powers of two (at least 64 KiB
// in DEFAULT, 256 bytes elsewhere); at most kMaxFree buffers wait in the pool, more are destroyed.
// Thread-safe.
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace dx12kit {

class Device;
class Resource;

class PassBufferPool : public std::enable_shared_from_this<PassBufferPool> {
public:
    static constexpr size_t kMaxFree = 16;
    explicit PassBufferPool(Device& device) : m_Device(device) {}
    /// A buffer of at least `bytes` in `heap` (DEFAULT ones allow UAV access), not in use by the GPU.
    /// Its contents are whatever the last pass left: the caller writes before it reads.
    std::shared_ptr<Resource> Acquire(uint64_t bytes, D3D12_HEAP_TYPE heap, const char* name);
    /// Destroys the buffers waiting in the pool (Device::TrimMemory).
    void Trim();
    /// Device::Close: destroys the waiting buffers, and every lease released later destroys its buffer
    /// instead of keeping it (a list dropped unexecuted after the close).
    void Close();
    size_t FreeCount() const;
    /// Buffers created so far (tests: reuse creates none).
    uint64_t Created() const;

private:
    void Release(std::shared_ptr<Resource> buffer);
    Device& m_Device;
    mutable std::mutex m_Mutex;
    std::vector<std::shared_ptr<Resource>> m_Free;
    uint64_t m_Created = 0;
    bool m_Closed = false;
};

}  // namespace dx12kit
