"""HLSL the compiler (vkd3d-shader 2.1) does not take: each is a ShaderCompileError with the compiler's
message at the right line, never a crash or a silent miscompile. The workarounds are in
docs/guides/shader-gaps.rst, and the ones that compile are checked here to run right."""
from __future__ import annotations

import pytest

import dx12kit as dx

from .shaders import run_uav

HEAD = "RWStructuredBuffer<uint> o : register(u0);\nRWByteAddressBuffer r : register(u1);\n"
MAIN = "[numthreads(1,1,1)] void main(uint3 t : SV_DispatchThreadID) {"

UNSUPPORTED = {
    "byteaddress_interlocked_add": (HEAD + MAIN + "\n  r.InterlockedAdd(0, 1); }\n", "cs_5_0", 4,
                                    "E5005", "Method 'InterlockedAdd' is not defined on type 'RWByteAddressBuffer'"),
    "byteaddress_interlocked_or": (HEAD + MAIN + "\n  uint p; r.InterlockedOr(4, 2, p); o[0] = p; }\n", "cs_5_0", 4,
                                   "E5005", "Method 'InterlockedOr' is not defined on type 'RWByteAddressBuffer'"),
    "append_structured_buffer": (HEAD + "AppendStructuredBuffer<uint> a : register(u2);\n" + MAIN + " a.Append(t.x); }\n",
                                 "cs_5_0", 3, "E5030", 'Unknown modifier "AppendStructuredBuffer"'),
    "consume_structured_buffer": (HEAD + "ConsumeStructuredBuffer<uint> c : register(u2);\n" + MAIN
                                  + " o[0] = c.Consume(); }\n", "cs_5_0", 3, "E5030", 'Unknown modifier "ConsumeStructuredBuffer"'),
    "uav_counter": (HEAD + MAIN + "\n  o[o.IncrementCounter()] = 1; }\n", "cs_5_0", 4,
                    "E5005", "Method 'IncrementCounter' is not defined"),
    "unbounded_resource_array": (HEAD + "Texture2D<uint> tx[] : register(t0);\n" + MAIN + " o[0] = tx[t.x].Load(0); }\n",
                                 "cs_5_1", 3, "E5017", "not yet implemented feature: Unbounded resource arrays"),
    "resource_array_sm51": (HEAD + "Texture2D<uint> tx[120] : register(t0);\n" + MAIN + " o[0] = tx[t.x].Load(0); }\n",
                            "cs_5_1", 3, "E5017", "Shader model 5.1\\+ resource array"),
    "resource_array_dynamic_index": (HEAD + "Texture2D<uint> tx[4] : register(t0);\n" + MAIN
                                     + "\n  o[0] = tx[t.x].Load(0); }\n", "cs_5_0", 5, "E5022",
                                     'Loaded resource from "tx" must be determinable at compile time'),
}


@pytest.mark.parametrize("name", sorted(UNSUPPORTED))
def test_unsupported_hlsl_is_a_compile_error_with_line(name):
    src, profile, line, code, text = UNSUPPORTED[name]
    with pytest.raises(dx.ShaderCompileError, match=text) as e:
        dx.compile_hlsl(src, profile=profile)
    assert any(m.line == line and m.code == code for m in e.value.messages), e.value.messages


def test_workaround_structured_buffer_atomics_for_byteaddress_atomics(device, queue):
    """The gaps guide's workaround for RWByteAddressBuffer.InterlockedAdd/Or: the same bytes as a
    RWStructuredBuffer<uint>, word = byte offset / 4."""
    src = ("RWStructuredBuffer<uint> w : register(u0);\n"
           "[numthreads(8,1,1)] void main(uint3 t : SV_DispatchThreadID) {\n"
           "  uint p; InterlockedAdd(w[4 / 4], t.x + 1, p); InterlockedOr(w[8 / 4], 1u << t.x); }\n")
    got = run_uav(device, queue, dx.compile_hlsl(src), 16)
    assert got.tolist() == [0, 36, 255, 0]


def test_workaround_constant_indices_into_a_resource_array_compile():
    """A resource array indexed by constants only compiles in shader model 5.0 (one register each)."""
    src = ("RWStructuredBuffer<float4> o : register(u0);\nTexture2D tx[4] : register(t0);\n"
           "[numthreads(1,1,1)] void main() { o[0] = tx[2].Load(int3(0, 0, 0)) + tx[3].Load(int3(0, 0, 0)); }\n")
    shader = dx.compile_hlsl(src)
    assert sorted(repr(b).split()[2] for b in shader.bindings) == ["t2", "t3", "u0"]
