"""The HLSL root-signature language: every construct, compared with the same root
signature built in Python, created on the device, and bad text reported at its column."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx
from dx12kit.rootsig import parse_root_signature

FULL = """
RootFlags(ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT | DENY_HULL_SHADER_ROOT_ACCESS | DENY_DOMAIN_SHADER_ROOT_ACCESS |
          DENY_GEOMETRY_SHADER_ROOT_ACCESS),
RootConstants(num32BitConstants = 3, b0),
RootConstants(b1, num32BitConstants = 2, space = 2, visibility = SHADER_VISIBILITY_PIXEL),
CBV(b2),
CBV(b3, space = 1, visibility = SHADER_VISIBILITY_VERTEX, flags = DATA_STATIC),
SRV(t0, flags = DATA_VOLATILE),
UAV(u0, space = 3, flags = DATA_STATIC_WHILE_SET_AT_EXECUTE),
DescriptorTable(SRV(t1, numDescriptors = 4), UAV(u1, numDescriptors = 2, space = 1, offset = 10),
                CBV(b4, offset = DESCRIPTOR_RANGE_OFFSET_APPEND, flags = DESCRIPTORS_VOLATILE | DATA_VOLATILE),
                visibility = SHADER_VISIBILITY_ALL),
DescriptorTable(Sampler(s1, numDescriptors = 2), visibility = SHADER_VISIBILITY_GEOMETRY),
StaticSampler(s0),
StaticSampler(s5, filter = FILTER_COMPARISON_MIN_MAG_LINEAR_MIP_POINT, addressU = TEXTURE_ADDRESS_CLAMP,
              addressV = TEXTURE_ADDRESS_BORDER, addressW = TEXTURE_ADDRESS_MIRROR_ONCE, mipLODBias = -0.5f,
              maxAnisotropy = 8, comparisonFunc = COMPARISON_GREATER_EQUAL, borderColor = STATIC_BORDER_COLOR_OPAQUE_BLACK,
              minLOD = 1.0, maxLOD = 4.5f, space = 2, visibility = SHADER_VISIBILITY_PIXEL)
"""


def python_equivalent():
    params = [
        dx.RootConstants(0, 3),
        dx.RootConstants(1, 2, space=2, visibility="pixel"),
        dx.RootCBV(2),
        dx.RootCBV(3, space=1, visibility="vertex", flags=0x8),
        dx.RootSRV(0, flags=0x2),
        dx.RootUAV(0, space=3, flags=0x4),
        dx.DescriptorTable([dx.SRV(1, 4), dx.UAV(1, 2, space=1, offset=10), dx.CBV(4, flags=0x1 | 0x2)]),
        dx.DescriptorTable([dx.Sampler(1, 2)], "geometry"),
    ]
    samplers = [
        dx.StaticSampler(0, "anisotropic", "wrap", comparison="less_equal", border_color="opaque_white"),
        dx.StaticSampler(5, "comparison_min_mag_linear_mip_point", "clamp", 2, "pixel", address_v="border",
                         address_w="mirror_once", mip_lod_bias=-0.5, max_anisotropy=8, comparison="greater_equal",
                         border_color="opaque_black", min_lod=1.0, max_lod=4.5),
    ]
    return params, samplers, 0x1 | 0x4 | 0x8 | 0x10


def test_every_construct_round_trips(device):
    params, samplers, flags = parse_root_signature(FULL)
    want_params, want_samplers, want_flags = python_equivalent()
    assert params == want_params
    assert samplers == want_samplers
    assert flags == want_flags
    assert params[6].ranges[1].offset == 10 and params[6].ranges[2].offset is None
    # both create the same root signature on the device (1.1 serialization, flags present); a device that samples
    # s5's opaque black border or mirror_once differently from D3D12 refuses both alike (test_samplers.py), so the
    # creation runs with what it samples right there
    full = FULL
    support = device.sampler_support
    if not (support["border_colors"] and support["mirror_once"]):
        with pytest.raises(dx.InvalidArgumentError, match=r"static sampler 1 \(s5 space2\)"):
            device.create_root_signature(FULL)
        with pytest.raises(dx.InvalidArgumentError, match=r"static sampler 1 \(s5 space2\)"):
            device.create_root_signature(want_params, want_samplers, flags=want_flags)
        full = FULL.replace("STATIC_BORDER_COLOR_OPAQUE_BLACK", "STATIC_BORDER_COLOR_TRANSPARENT_BLACK").replace(
            "TEXTURE_ADDRESS_MIRROR_ONCE", "TEXTURE_ADDRESS_MIRROR")
        want_samplers[1] = dx.StaticSampler(5, "comparison_min_mag_linear_mip_point", "clamp", 2, "pixel", address_v="border",
                                            address_w="mirror", mip_lod_bias=-0.5, max_anisotropy=8, comparison="greater_equal",
                                            border_color="transparent_black", min_lod=1.0, max_lod=4.5)
        assert parse_root_signature(full)[1] == want_samplers
    a = device.create_root_signature(full)
    b = device.create_root_signature(want_params, want_samplers, flags=want_flags)
    assert a.num_parameters == b.num_parameters == 8


def test_defaults_and_case():
    params, samplers, flags = parse_root_signature("rootconstants(B0, NUM32BITCONSTANTS=1), descriptortable(srv(t0)),")
    assert flags == 0 and params == [dx.RootConstants(0, 1), dx.DescriptorTable([dx.SRV(0)])]
    assert parse_root_signature("") == ([], [], 0)
    _, (s,), _ = parse_root_signature("StaticSampler(s0)")
    assert s == dx.StaticSampler(0, "anisotropic", "wrap", comparison="less_equal", border_color="opaque_white")
    assert s != dx.StaticSampler(0)
    assert parse_root_signature("DescriptorTable(SRV(t0, numDescriptors = unbounded))")[0][0].ranges[0].count == dx.UNBOUNDED


@pytest.mark.parametrize("text, column, message", [
    ("RootConstants(b0)", 1, "num32BitConstants"),
    ("CBV(t0)", 5, "needs a b register"),
    ("SRV(t0), Bogus(1)", 10, "unknown root signature clause 'Bogus'"),
    ("UAV(u0, space = x)", 17, "space must be a non-negative integer"),
    ("CBV(b0, visibility = SHADER_VISIBILITY_NOPE)", 22, "unknown shader visibility"),
    ("DescriptorTable(SRV(t0), Sampler(s0))", 1, "cannot mix"),
    ("DescriptorTable(SRV(t0, numDescriptors = 0))", 42, "must be positive"),
    ("StaticSampler(s0, filter = LINEAR)", 28, "FILTER_"),
    ("StaticSampler(s0, maxAnisotropy = 17)", 1, "at most 16"),
    ("StaticSampler(s0, maxAnisotropy = 0)", 1, "at least 1"),
    ("RootFlags(ALLOW_EVERYTHING)", 11, "unknown root flag"),
    ("CBV(b0", 7, "expected ','"),
    ("CBV(b0, space = 1, space = 2)", 20, "given twice"),
    ("SRV(t0) SRV(t1)", 9, "expected ','"),
    ("CBV(b0, sapce = 1)", 9, "has no argument 'sapce'"),
    ("CBV(b0 $)", 8, "unexpected character"),
])
def test_bad_text_points_at_the_column(device, text, column, message):
    with pytest.raises(dx.InvalidArgumentError, match=f"column {column}: .*{message}") as e:
        device.create_root_signature(text)
    caret = str(e.value).splitlines()[-1]
    assert caret.index("^") - 2 == column - 1, str(e.value)


def test_text_with_extra_static_samplers_and_a_dispatch(device, queue):
    cs = dx.compile_hlsl("cbuffer C : register(b0) { uint v; };\nRWStructuredBuffer<uint> o : register(u0);\n"
                         "[numthreads(1,1,1)] void main() { o[0] = v + 1; }\n")
    rs = device.create_root_signature("RootConstants(num32BitConstants=1, b0), UAV(u0)", [dx.StaticSampler(3)])
    pso = device.create_compute_pipeline(cs, rs)
    buf = device.create_buffer(4, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_constants(0, [41])
    cl.set_root_uav(1, buf)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(buf, dtype=np.uint32)[0] == 42
    with pytest.raises(TypeError):
        parse_root_signature(b"CBV(b0)")  # type: ignore[arg-type]
