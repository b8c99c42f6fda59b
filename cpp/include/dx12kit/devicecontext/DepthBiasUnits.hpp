// The unit in which the backend applies a pipeline's constant depth bias (DepthBias), per depth
// format, measured once per device.
//
// D3D12 ("Depth Bias"): Bias = DepthBias * r + SlopeScaledDepthBias * MaxDepthSlope, with r one step
// of the format on UNORM formats (1 / (2^n - 1): d16_unorm n = 16, d24_unorm_s8_uint n = 24) and
// 2^(exponent(max z of the primitive) - 23) on float formats. Vulkan lets an implementation use up
// to twice that step on fixed-point formats, and lavapipe does: DepthBias = 1000 moved a d16 depth
// by 2000 steps. The probe measures the ratio instead of assuming any driver's: it draws a
// full-viewport triangle at z = 0.25 into a 2x1 target of the format, one pixel without bias, the
// other with DepthBias = kProbeBias, reads both back and divides the difference (in units of D3D12's
// r) by kProbeBias. The ratio is snapped to 1/64; a ratio that is not close to a 1/64 step (or not
// positive) is reported as 0 ("not understood"), and pipelines refuse a depth bias on that format.
// PipelineState divides the Vulkan pipeline's constant bias by the ratio
// (dx12kit/platform/VulkanPipelineFixes.hpp); on Windows nothing is measured (D3D12 is the rule).
//
// Cost: one probe per depth format per device, on the first pipeline with a depth bias on it
// (about 30 ms on lavapipe, mostly compiling its two pipelines; a 2x1 texture, one submission on a
// queue of its own).
// Thread safety: thread-safe; two threads may both probe a format the first time (same result),
// no lock is held while the probe waits for the GPU.
#pragma once

#include "dx12kit/platform/D3D12Platform.hpp"

#include <functional>
#include <map>
#include <mutex>

namespace dx12kit {

class DepthBiasUnits {
public:
    /// The probe's DepthBias: large enough that a 1-step rounding difference moves the ratio by
    /// less than 1/4000, small enough that z stays inside [0, 1] at a ratio up to 2.
    static constexpr int kProbeBias = 4096;

    /// `blocking` runs the probe's GPU wait (DeviceContext::Blocking: releases the GIL in Python).
    DepthBiasUnits(ID3D12Device* device, std::function<void(const std::function<void()>&)> blocking)
        : m_Device(device), m_Blocking(std::move(blocking)) {}

    /// Backend bias / D3D12 bias for `depthFormat` (d16_unorm, d24_unorm_s8_uint, d32_float,
    /// d32_float_s8x24_uint): 1 where the backend follows D3D12, 2 on lavapipe's UNORM formats; 0
    /// when the probe's result is not a clean ratio. Probes on the first call per format.
    double Ratio(DXGI_FORMAT depthFormat);

    /// The probe itself (no cache): the raw measured ratio, unsnapped.
    double Measure(DXGI_FORMAT depthFormat);
    /// The probe's raw ratio behind Ratio() (for messages): measured once, cached.
    double Raw(DXGI_FORMAT depthFormat);

private:
    ID3D12Device* m_Device;
    std::function<void(const std::function<void()>&)> m_Blocking;
    std::mutex m_Mutex;
    std::map<DXGI_FORMAT, double> m_Ratios;
    std::map<DXGI_FORMAT, double> m_Raws;
};

}  // namespace dx12kit
