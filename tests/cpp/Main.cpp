// doctest's main, and the helpers the tests share (TestSupport.hpp).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest.h>

#include "TestSupport.hpp"

#include "dx12kit/platform/D3D12Platform.hpp"

#include <cstdlib>
#include <string>

namespace dx12kit_test {

const char* WineVersion() {
#if defined(_WIN32)
    // Wine's ntdll exports wine_get_version; Windows' does not.
    using Fn = const char*(__cdecl*)();
    HMODULE ntdll = GetModuleHandleA("ntdll.dll");
    auto fn = ntdll ? reinterpret_cast<Fn>(reinterpret_cast<void*>(GetProcAddress(ntdll, "wine_get_version"))) : nullptr;
    return fn ? fn() : nullptr;
#else
    return nullptr;
#endif
}

bool UnderWine() {
    return WineVersion() != nullptr;
}

bool WineDefectPresent(const char* id) {
    if (!UnderWine()) return false;
    const char* list = std::getenv("DX12KIT_WINE_DEFECTS");
    if (list == nullptr) return false;
    std::string words = std::string(" ") + list + " ";
    for (char& c : words)
        if (c == ',' || c == '\t') c = ' ';
    return words.find(std::string(" ") + id + " ") != std::string::npos;
}

std::shared_ptr<dx12kit::Device> SharedDevice() {
    static std::shared_ptr<dx12kit::Device> device = dx12kit::Device::Create(dx12kit::DeviceOptions{});
    return device;
}

std::vector<uint8_t> Pattern(size_t n, uint32_t seed) {
    std::vector<uint8_t> v(n);
    uint32_t x = seed * 2654435761u + 1;
    for (auto& b : v) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        b = static_cast<uint8_t>(x);
    }
    return v;
}

}  // namespace dx12kit_test
