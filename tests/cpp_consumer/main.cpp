// Uses the installed dx12kit C++ package on the real device (vkd3d on Linux; Wine's d3d12 for the
// mingw-w64 build): uploads a buffer, copies part of it into a second buffer on the GPU, runs a
// compute shader with root constants and a root UAV over that buffer, reads both back and checks
// every number; then checks that a rule the core enforces reaches the caller as dx12kit's typed error.
// Prints "dx12kit consumer: ok" and exits 0, or names the first wrong value and exits 1.
#include "Shaders.generated.hpp"

#include <dx12kit/base/Errors.hpp>
#include <dx12kit/gpu/CommandList.hpp>
#include <dx12kit/gpu/CommandQueue.hpp>
#include <dx12kit/gpu/Device.hpp>
#include <dx12kit/gpu/Pipeline.hpp>
#include <dx12kit/resources/Resource.hpp>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

namespace {

int Fail(const char* what, size_t i, uint32_t got, uint32_t want) {
    std::printf("dx12kit consumer: FAIL %s[%zu] = %u, expected %u\n", what, i, got, want);
    return 1;
}

}  // namespace

int main() {
    using namespace dx12kit;
    try {
        auto dev = Device::Create(DeviceOptions{});
        std::printf("dx12kit consumer: device %s\n", dev->AdapterName().c_str());
        auto q = dev->Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);

        const uint32_t n = 1000, skip = 24;  // the copy takes elements [skip, n) of src to dst[0, n - skip)
        const uint32_t scale = 3, add = 5, count = n - skip;
        std::vector<uint32_t> in(n);
        for (uint32_t i = 0; i < n; ++i) in[i] = i * 7 + 11;

        auto src = dev->CreateBuffer(n * 4, false, D3D12_HEAP_TYPE_DEFAULT, "consumer src");
        auto dst = dev->CreateBuffer(n * 4, true, D3D12_HEAP_TYPE_DEFAULT, "consumer dst");
        auto rs = std::make_shared<RootSignature>(
            dev->Context(), std::vector<RootParameterDesc>{{RootParamKind::Constants, 0, 0, 3, {}}, {RootParamKind::Uav, 0, 0, 0, {}}},
            std::vector<StaticSamplerDesc>{});
        const auto& cs = dx12kit_test::shaders::cs_root_uav;
        auto pso = std::make_shared<PipelineState>(dev->Context(), std::vector<uint8_t>(cs, cs + sizeof cs), rs);

        auto cl = q->CreateCommandList(q);
        cl->Upload(src, in.data(), n * 4, 0, 0);
        cl->Upload(dst, std::vector<uint32_t>(n, 0xdeadbeefu).data(), n * 4, 0, 0);
        cl->CopyBufferRegion(dst, 0, src, skip * 4, count * 4);
        cl->SetPipelineState(pso);
        const uint32_t params[3] = {scale, add, count};
        cl->SetConstants(0, params, 3, 0);
        cl->SetRootView(RootParamKind::Uav, 1, dst, 0);
        cl->Dispatch((count + 63) / 64, 1, 1);
        q->Wait(q->Execute({cl}));

        std::vector<uint32_t> back(n);
        q->ReadBuffer(q, src, back.data(), n * 4);
        for (uint32_t i = 0; i < n; ++i)
            if (back[i] != in[i]) return Fail("src", i, back[i], in[i]);
        q->ReadBuffer(q, dst, back.data(), n * 4);
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t want = i < count ? in[i + skip] * scale + add + i : 0xdeadbeefu;
            if (back[i] != want) return Fail("dst", i, back[i], want);
        }

        // D3D12's rule, checked by the core for C++ callers too: a copy must stay inside both buffers.
        bool refused = false;
        try {
            auto bad = q->CreateCommandList(q);
            bad->CopyBufferRegion(dst, 8, src, 0, n * 4);
        } catch (const InvalidArgument& e) {
            refused = true;
            std::printf("dx12kit consumer: refused as expected: %s\n", e.what());
        }
        if (!refused) {
            std::printf("dx12kit consumer: FAIL an out-of-range CopyBufferRegion was not refused with dx12kit::InvalidArgument\n");
            return 1;
        }
    } catch (const Error& e) {
        std::printf("dx12kit consumer: FAIL dx12kit error: %s\n", e.what());
        return 1;
    }
    std::printf("dx12kit consumer: ok\n");
    return 0;
}
