// A minimal owning smart pointer for COM objects (WRL's ComPtr is Windows-only).
// Only ComPtr owns a COM object in dx12kit; raw pointers returned by getters are borrowed.
#pragma once

#include <utility>

namespace dx12kit {

template <typename T>
class ComPtr {
public:
    ComPtr() noexcept = default;
    ComPtr(std::nullptr_t) noexcept {}
    /// Takes ownership of one reference (does not AddRef).
    explicit ComPtr(T* p) noexcept : m_Ptr(p) {}
    ComPtr(const ComPtr& o) noexcept : m_Ptr(o.m_Ptr) {
        if (m_Ptr) m_Ptr->AddRef();
    }
    ComPtr(ComPtr&& o) noexcept : m_Ptr(std::exchange(o.m_Ptr, nullptr)) {}
    ~ComPtr() { Reset(); }
    ComPtr& operator=(ComPtr o) noexcept {
        std::swap(m_Ptr, o.m_Ptr);
        return *this;
    }

    void Reset() noexcept {
        if (T* p = std::exchange(m_Ptr, nullptr)) p->Release();
    }
    T* Get() const noexcept { return m_Ptr; }
    T* operator->() const noexcept { return m_Ptr; }
    explicit operator bool() const noexcept { return m_Ptr != nullptr; }
    /// Releases the current object and returns the address for an out-parameter.
    T** ReleaseAndGetAddressOf() noexcept {
        Reset();
        return &m_Ptr;
    }
    void** ReleaseAndGetVoidAddress() noexcept {
        Reset();
        return reinterpret_cast<void**>(&m_Ptr);
    }
    /// Adds a reference and returns the raw pointer (for APIs that keep what they receive).
    T* AddRefAndGet() const noexcept {
        if (m_Ptr) m_Ptr->AddRef();
        return m_Ptr;
    }

private:
    T* m_Ptr = nullptr;
};

}  // namespace dx12kit
