// FenceChecks (dx12kit/gpu/FenceChecks.hpp): GPU-found errors raised at the next wait or read.
#include "dx12kit/gpu/FenceChecks.hpp"

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <cstring>

namespace dx12kit {

void FenceCheckSink::Report(std::string message) {
    std::lock_guard<std::mutex> lock(m_Mutex);
    m_Failures.push_back(std::move(message));
    m_Any.store(true, std::memory_order_release);
}

void FenceCheckSink::ThrowIfAny(const char* what) {
    if (!m_Any.load(std::memory_order_acquire)) return;
    std::string first;
    {
        std::lock_guard<std::mutex> lock(m_Mutex);
        if (m_Failures.empty()) return;
        first = m_Failures.front();
        const size_t more = m_Failures.size() - 1;
        if (more) first += " (and " + std::to_string(more) + " more such failure" + (more > 1 ? "s" : "") + ")";
        m_Failures.clear();
        m_Any.store(false, std::memory_order_release);
    }
    throw InvalidArgument(std::string(what) + ": " + first);
}

namespace {
bool MapWords(const Resource& r, uint32_t (&words)[2], bool write) {
    void* p = nullptr;
    D3D12_RANGE range{0, write ? 0 : sizeof words};
    if (FAILED(r.D3D12Resource()->Map(0, &range, &p)) || !p) return false;
    if (write) std::memset(p, 0, sizeof words);
    else std::memcpy(words, p, sizeof words);
    D3D12_RANGE written{0, write ? sizeof words : 0};
    r.D3D12Resource()->Unmap(0, &written);
    return true;
}
}  // namespace

FenceCheck::FenceCheck(std::shared_ptr<FenceCheckSink> sink, std::shared_ptr<Resource> readback,
                       std::function<std::string(uint32_t, uint32_t)> describe)
    : m_Sink(std::move(sink)), m_Readback(std::move(readback)), m_Describe(std::move(describe)) {
    uint32_t zero[2] = {0, 0};
    MapWords(*m_Readback, zero, true);
}

FenceCheck::~FenceCheck() {
    uint32_t words[2] = {0, 0};
    if (!m_Sink || !m_Readback || !MapWords(*m_Readback, words, false) || (words[0] == 0 && words[1] == 0)) return;
    try {
        m_Sink->Report(m_Describe(words[0], words[1]));
    } catch (...) {  // a destructor: never throws (out of memory for the message)
    }
}

}  // namespace dx12kit
