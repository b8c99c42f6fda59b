// A CPU event for fence waits. vkd3d 1.2's SetEventOnCompletion(value, nullptr) returns at once
// instead of blocking, so every wait goes through a real event: vkd3d_create_event on Linux,
// CreateEvent on Windows.
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

namespace dx12kit {

class FenceEvent {
public:
    FenceEvent();
    ~FenceEvent();
    FenceEvent(const FenceEvent&) = delete;
    FenceEvent& operator=(const FenceEvent&) = delete;

    /// Blocks until `fence` reaches `value`. Throws DeviceError on failure.
    void Wait(ID3D12Fence* fence, uint64_t value);

private:
    HANDLE m_Event;
};

}  // namespace dx12kit
