// PassBufferPool (dx12kit/gpu/PassBuffers.hpp): pass buffers reused once their list's work completed.
#include "dx12kit/gpu/PassBuffers.hpp"

#include "dx12kit/gpu/Device.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <string>

namespace dx12kit {

std::shared_ptr<Resource> PassBufferPool::Acquire(uint64_t bytes, D3D12_HEAP_TYPE heap, const char* name) {
    uint64_t size = heap == D3D12_HEAP_TYPE_DEFAULT ? uint64_t(64) << 10 : 256;
    while (size < bytes) size <<= 1;
    std::shared_ptr<Resource> buffer;
    {
        std::lock_guard<std::mutex> lock(m_Mutex);
        for (size_t i = 0; i < m_Free.size(); ++i)
            if (m_Free[i]->HeapType() == heap && m_Free[i]->Size() == size) {
                buffer = std::move(m_Free[i]);
                m_Free.erase(m_Free.begin() + std::ptrdiff_t(i));
                break;
            }
    }
    if (!buffer) {
        buffer = m_Device.CreateBuffer(size, heap == D3D12_HEAP_TYPE_DEFAULT, heap, std::string("dx12kit ") + name);
        std::lock_guard<std::mutex> lock(m_Mutex);
        ++m_Created;
    }
    Resource* raw = buffer.get();
    return std::shared_ptr<Resource>(
        raw, [pool = shared_from_this(), buffer = std::move(buffer)](Resource*) mutable { pool->Release(std::move(buffer)); });
}

void PassBufferPool::Release(std::shared_ptr<Resource> buffer) {
    std::shared_ptr<Resource> dropped;  // destroyed outside the lock
    std::lock_guard<std::mutex> lock(m_Mutex);
    if (!m_Closed && m_Free.size() < kMaxFree) m_Free.push_back(std::move(buffer));
    else dropped = std::move(buffer);
}

void PassBufferPool::Trim() {
    std::vector<std::shared_ptr<Resource>> dropped;
    std::lock_guard<std::mutex> lock(m_Mutex);
    dropped.swap(m_Free);
}

void PassBufferPool::Close() {
    std::vector<std::shared_ptr<Resource>> dropped;
    std::lock_guard<std::mutex> lock(m_Mutex);
    m_Closed = true;
    dropped.swap(m_Free);
}

size_t PassBufferPool::FreeCount() const {
    std::lock_guard<std::mutex> lock(m_Mutex);
    return m_Free.size();
}

uint64_t PassBufferPool::Created() const {
    std::lock_guard<std::mutex> lock(m_Mutex);
    return m_Created;
}

}  // namespace dx12kit
