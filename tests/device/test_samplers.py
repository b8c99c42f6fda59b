"""Samplers in descriptor tables (Device.create_sampler) against static samplers and D3D12's numbers: comparison,
LOD clamp and bias, anisotropy, border colours, and the settings a backend samples differently (Device.sampler_support).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import dx12kit as dx

from .shaders import FULLSCREEN_VS

FLT_MAX = 3.4028234663852886e38

CMP_CS = """
Texture2D<float> depth : register(t0);
SamplerComparisonState cmp : register(s0);
RWStructuredBuffer<float> outp : register(u0);
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    outp[id.x] = depth.SampleCmpLevelZero(cmp, float2((id.x + 0.5) / 4.0, 0.5), 0.5);
}
"""

# A 2x1 texture sampled at LOD 0 along v = 0.5, at u = u0 + du * i for i < 8.
ROW_CS = """
Texture2D<float4> tex : register(t0);
SamplerState smp : register(s0);
RWStructuredBuffer<float4> outp : register(u0);
cbuffer Row : register(b0) { float u0; float du; };
[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    outp[id.x] = tex.SampleLevel(smp, float2(u0 + du * id.x, 0.5), 0);
}
"""

SAMPLE_PS = """
Texture2D tex : register(t0);
SamplerState smp : register(s0);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target { return tex.Sample(smp, uv); }
"""

RED, GREEN, NONE = [1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 0, 0]
# u of ROW_CS's eight samples: -0.75, -0.25, 0.25, 0.75, 1.25, ... (texel centres of the 2-texel row at 0.25, 0.75).
U0, DU = -0.75, 0.5


@pytest.fixture(scope="module")
def depth_texture(device, queue):
    tex = device.create_texture2d(4, 1, "r32_float")
    cl = queue.command_list()
    cl.upload(tex, np.array([[0.25, 0.5, 0.75, 1.0]], np.float32))
    queue.wait(queue.execute(cl))
    return tex


@pytest.fixture(scope="module")
def red_green(device, queue):
    tex = device.create_texture2d(2, 1, "rgba8_unorm")
    cl = queue.command_list()
    cl.upload(tex, np.array([[[255, 0, 0, 255], [0, 255, 0, 255]]], np.uint8))
    queue.wait(queue.execute(cl))
    return tex


def sample_cmp(device, queue, depth_texture, static=None, table=None):
    """SampleCmpLevelZero of the depths 0.25, 0.5, 0.75, 1.0 against the reference 0.5."""
    params = [dx.DescriptorTable([dx.SRV(0)]), dx.DescriptorTable([dx.UAV(0)])]
    if table is not None:
        params.append(dx.DescriptorTable([dx.Sampler(0)]))
    rs = device.create_root_signature(params, static_samplers=[static] if static is not None else [])
    pso = device.create_compute_pipeline(dx.compile_hlsl(CMP_CS, profile="cs_5_0"), rs)
    out = device.create_buffer(16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, depth_texture)
    cl.set_unordered_access_view(1, 0, out)
    if table is not None:
        cl.set_sampler(2, 0, table)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    return queue.read_buffer(out, np.float32)


def sample_row(device, queue, texture, static=None, table=None):
    """ROW_CS's eight samples of `texture`, with a static sampler or a table sampler."""
    params = [dx.DescriptorTable([dx.SRV(0)]), dx.DescriptorTable([dx.UAV(0)]), dx.RootConstants(0, 2)]
    if table is not None:
        params.append(dx.DescriptorTable([dx.Sampler(0)]))
    rs = device.create_root_signature(params, static_samplers=[static] if static is not None else [])
    pso = device.create_compute_pipeline(dx.compile_hlsl(ROW_CS, profile="cs_5_0"), rs)
    out = device.create_buffer(8 * 16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, texture)
    cl.set_unordered_access_view(1, 0, out)
    cl.set_constants(2, [U0, DU])
    if table is not None:
        cl.set_sampler(3, 0, table)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    return queue.read_buffer(out, np.float32).reshape(8, 4)


# ---- comparison -------------------------------------------------------------------------------------


@pytest.mark.parametrize("comparison, expected", [
    (None, [0, 1, 1, 1]),               # not given: LESS_EQUAL, as the root-signature language's default
    ("less_equal", [0, 1, 1, 1]),
    ("greater", [1, 0, 0, 0]),
    ("not_equal", [1, 0, 1, 1]),
    ("never", [0, 0, 0, 0]),
    ("always", [1, 1, 1, 1]),
])
def test_a_table_comparison_sampler_compares_as_the_equal_static_sampler(device, queue, depth_texture, comparison, expected):
    filt = "comparison_min_mag_mip_point"
    static = sample_cmp(device, queue, depth_texture, static=dx.StaticSampler(0, filter=filt, comparison=comparison))
    sampler = device.create_sampler(filter=filt, comparison=comparison)
    table = sample_cmp(device, queue, depth_texture, table=sampler)
    np.testing.assert_array_equal(static, np.array(expected, np.float32))
    np.testing.assert_array_equal(table, static)
    assert sampler.desc["comparison"] == (comparison or "less_equal")


def test_comparison_left_implicit_on_other_filters_is_never_which_d3d12_ignores(device):
    assert device.create_sampler(filter="linear").desc["comparison"] == "never"
    # Given with a non-comparison filter, it is kept: D3D12 ignores it ("This is OK").
    assert device.create_sampler(filter="linear", comparison="greater").desc["comparison"] == "greater"
    assert "comparison='never'" in repr(dx.StaticSampler(0))
    assert "comparison='less_equal'" in repr(dx.StaticSampler(0, filter="comparison_anisotropic"))


# ---- LOD clamp, LOD bias, anisotropy ------------------------------------------------------------------

MIP_COLOURS = np.array([[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]], np.uint8)


@pytest.fixture(scope="module")
def mipped(device, queue):
    """An 8x8 texture of 4 mips, each one colour: red, green, blue, white."""
    tex = device.create_texture2d(8, 8, "rgba8_unorm", mip_levels=4)
    cl = queue.command_list()
    for mip in range(4):
        size = 8 >> mip
        cl.upload(tex, np.broadcast_to(MIP_COLOURS[mip], (size, size, 4)).copy(), mip=mip)
    queue.wait(queue.execute(cl))
    return tex


@pytest.fixture(scope="module")
def sample_pipeline(device):
    vs = dx.compile_hlsl(FULLSCREEN_VS, profile="vs_5_0")
    ps = dx.compile_hlsl(SAMPLE_PS, profile="ps_5_0")
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0)], "pixel"), dx.DescriptorTable([dx.Sampler(0)], "pixel")])
    return device.create_graphics_pipeline(vs, ps, rs, rtv_formats=["rgba8_unorm"])


def mip_sampled(device, queue, sample_pipeline, mipped, sampler) -> int:
    """Which mip `sampler` reads when an 8x8 target samples the 8x8 texture one texel per pixel (computed LOD 0)."""
    rt = device.create_texture2d(8, 8, "rgba8_unorm", render_target=True)
    cl = queue.command_list()
    cl.set_pipeline_state(sample_pipeline)
    cl.set_render_targets([rt])
    cl.set_shader_resource_view(0, 0, mipped)
    cl.set_sampler(1, 0, sampler)
    cl.draw(3)
    queue.wait(queue.execute(cl))
    pixels = queue.read_texture(rt).reshape(-1, 4)
    assert (pixels == pixels[0]).all(), "one mip everywhere"
    found = [m for m in range(4) if (MIP_COLOURS[m] == pixels[0]).all()]
    assert found, pixels[0]
    return found[0]


@pytest.mark.parametrize("settings, mip", [
    ({}, 0),                                        # LOD 0
    ({"mip_lod_bias": 1.0}, 1),                     # "sampled at mipmap level" computed + MipLODBias
    ({"mip_lod_bias": 2.0}, 2),
    ({"mip_lod_bias": 15.99}, 3),                   # past the last mip: the last
    ({"mip_lod_bias": -1.0}, 0),                    # below 0: mip 0
    ({"min_lod": 2.0}, 2),                          # LOD 0 clamped up to MinLOD
    ({"min_lod": 1.0, "max_lod": 1.0}, 1),
    ({"mip_lod_bias": 3.0, "max_lod": 1.0}, 1),     # bias, then the clamp to MaxLOD
    ({"mip_lod_bias": 1.0, "min_lod": 2.0}, 2),
])
def test_lod_clamp_and_bias_choose_the_mip_d3d12_says(device, queue, sample_pipeline, mipped, settings, mip):
    sampler = device.create_sampler(filter="point", **settings)
    assert mip_sampled(device, queue, sample_pipeline, mipped, sampler) == mip


def test_anisotropic_samplers_are_accepted_and_sample(device, queue, sample_pipeline, mipped):
    for n in (1, 4, 16):
        sampler = device.create_sampler(filter="anisotropic", max_anisotropy=n)
        assert sampler.desc["max_anisotropy"] == n
        assert mip_sampled(device, queue, sample_pipeline, mipped, sampler) == 0
    assert mip_sampled(device, queue, sample_pipeline, mipped, device.create_sampler(filter="anisotropic", min_lod=3)) == 3


# ---- D3D12's rules, settings, old calls ------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, field", [
    ({"max_anisotropy": 0}, "max_anisotropy"),
    ({"max_anisotropy": 17}, "max_anisotropy"),
    ({"mip_lod_bias": 16.0}, "mip_lod_bias"),
    ({"mip_lod_bias": -16.01}, "mip_lod_bias"),
    ({"mip_lod_bias": math.nan}, "mip_lod_bias"),
    ({"min_lod": 2.0, "max_lod": 1.0}, "min_lod <= max_lod"),
    ({"min_lod": math.nan}, "min_lod <= max_lod"),
    ({"border_color": (0.0, 0.0, 1.5, 1.0)}, "border_color"),
    ({"border_color": (0.0, 0.0, -0.5, 1.0)}, "border_color"),
])
def test_d3d12_rules_are_refused_by_table_and_static_samplers(device, kwargs, field):
    with pytest.raises(dx.InvalidArgumentError, match=field) as e:
        device.create_sampler(**kwargs)
    assert "create_sampler" in str(e.value)
    if "border_color" not in kwargs:  # a static sampler's colour is a name
        with pytest.raises(dx.InvalidArgumentError, match=field):
            dx.StaticSampler(0, **kwargs)


def test_bounds_d3d12_allows_are_accepted(device):
    for kwargs in ({"mip_lod_bias": 15.99}, {"mip_lod_bias": -16.0}, {"max_anisotropy": 1}, {"min_lod": 3.0, "max_lod": 3.0},
                   {"border_color": (0.0, 0.5, 1.0, 1.0)}, {"border_color": [1, 1, 1, 1]}):
        device.create_sampler(**kwargs)


def test_wrong_types_are_type_errors(device):
    for kwargs in ({"border_color": (1.0, 1.0, 1.0)}, {"border_color": 1.5}, {"border_color": ("a", 0, 0, 0)},
                   {"mip_lod_bias": "1"}, {"max_anisotropy": 2.0}, {"comparison": 3.5}):
        with pytest.raises(TypeError, match=next(iter(kwargs))):
            device.create_sampler(**kwargs)


def test_desc_and_repr_show_every_setting_and_round_trip(device):
    sampler = device.create_sampler(filter="comparison_min_mag_mip_linear", address="wrap", address_v="mirror", mip_lod_bias=-0.5,
                                    max_anisotropy=4, border_color=(0.0, 0.25, 0.5, 1.0), min_lod=1.0, max_lod=6.0, name="shadow")
    desc = sampler.desc
    assert desc == {"filter": "comparison_min_mag_mip_linear", "address": "wrap", "address_v": "mirror", "address_w": "wrap",
                    "mip_lod_bias": -0.5, "max_anisotropy": 4, "comparison": "less_equal", "border_color": (0.0, 0.25, 0.5, 1.0),
                    "min_lod": 1.0, "max_lod": 6.0}
    assert device.create_sampler(**desc).desc == desc
    text = repr(sampler)
    for part in ("'shadow'", "filter='comparison_min_mag_mip_linear'", "address_v='mirror'", "mip_lod_bias=-0.5", "max_anisotropy=4",
                 "comparison='less_equal'", "border_color=(0.0, 0.25, 0.5, 1.0)", "min_lod=1.0", "max_lod=6.0"):
        assert part in text, (part, text)


def test_old_calls_keep_their_meaning(device):
    sampler = device.create_sampler(filter="point", address="wrap", name="old")
    assert sampler.desc == {"filter": "point", "address": "wrap", "address_v": "wrap", "address_w": "wrap", "mip_lod_bias": 0.0,
                            "max_anisotropy": 16, "comparison": "never", "border_color": (0.0, 0.0, 0.0, 0.0), "min_lod": 0.0,
                            "max_lod": FLT_MAX}
    assert device.create_sampler().desc["filter"] == "linear"


# ---- border colours and the other settings a backend may sample differently ---------------------------


def test_transparent_black_borders_are_sampled_outside_the_texture(device, queue, red_green):
    expected = np.array([NONE, NONE, RED, GREEN, NONE, NONE, NONE, NONE], np.float32)
    for border in ("transparent_black", (0, 0, 0, 0), dx.BorderColor.TRANSPARENT_BLACK):
        table = device.create_sampler(filter="point", address="border", border_color=border)
        np.testing.assert_array_equal(sample_row(device, queue, red_green, table=table), expected)
    static = dx.StaticSampler(0, filter="point", address="border")
    np.testing.assert_array_equal(sample_row(device, queue, red_green, static=static), expected)


def test_sampler_support_says_what_the_backend_samples(device):
    support = device.sampler_support
    assert set(support) == {"border_colors", "mirror_once", "min_max_filtering"}
    if device.info["backend"] == "vkd3d":  # vkd3d 1.2, measured: tests/cpp/TestSamplers.cpp
        assert support == {"border_colors": False, "mirror_once": False, "min_max_filtering": False}
    if device.info.get("tiled_resources_tier", 0) < 2:
        assert not support["min_max_filtering"]


BORDERS = {"opaque_white": [1, 1, 1, 1], "opaque_black": [0, 0, 0, 1]}


@pytest.mark.parametrize("colour", ["opaque_white", "opaque_black", (1.0, 0.5, 0.25, 1.0), (0.0, 0.0, 0.0, 0.5)])
def test_border_colours_the_device_ignores_are_refused_naming_the_gap(device, colour):
    if device.sampler_support["border_colors"]:
        pytest.skip("this device samples border colours")
    with pytest.raises(dx.InvalidArgumentError) as e:
        device.create_sampler(address="border", border_color=colour)
    message = str(e.value)
    for part in ("create_sampler", "border_color", "'border'", "transparent black", "sampler_support"):
        assert part in message, (part, message)
    with pytest.raises(dx.InvalidArgumentError, match="address_w 'border'"):
        device.create_sampler(address="clamp", address_w="border", border_color=colour)
    # Without a border address the colour is never read: nothing to refuse.
    assert device.create_sampler(address="clamp", border_color=colour).desc["address"] == "clamp"
    if isinstance(colour, str):
        with pytest.raises(dx.InvalidArgumentError, match=r"static sampler 1 \(s3 space0\): border_color .* 'border'"):
            device.create_root_signature([], static_samplers=[dx.StaticSampler(0), dx.StaticSampler(3, address_v="border", border_color=colour)])
        text = f"StaticSampler(s0, addressU = TEXTURE_ADDRESS_BORDER, borderColor = STATIC_BORDER_COLOR_{colour.upper()})"
        with pytest.raises(dx.InvalidArgumentError, match="border_color"):
            device.create_root_signature(text)
        # The root-signature language's default border (opaque white) with its default address (wrap) is fine.
        device.create_root_signature("StaticSampler(s0)")


@pytest.mark.parametrize("colour", ["opaque_white", "opaque_black"])
def test_border_colours_are_sampled_where_the_device_supports_them(device, queue, red_green, colour):
    if not device.sampler_support["border_colors"]:
        pytest.skip("this device samples every border as transparent black (refused instead)")
    c = BORDERS[colour]
    expected = np.array([c, c, RED, GREEN, c, c, c, c], np.float32)
    table = device.create_sampler(filter="point", address="border", border_color=colour)
    np.testing.assert_array_equal(sample_row(device, queue, red_green, table=table), expected)
    static = dx.StaticSampler(0, filter="point", address="border", border_color=colour)
    np.testing.assert_array_equal(sample_row(device, queue, red_green, static=static), expected)


def test_mirror_once_where_the_device_wraps_is_refused(device):
    if device.sampler_support["mirror_once"]:
        pytest.skip("this device samples mirror_once")
    with pytest.raises(dx.InvalidArgumentError, match="address_v 'mirror_once'.*'wrap'"):
        device.create_sampler(address_v="mirror_once")
    with pytest.raises(dx.InvalidArgumentError, match=r"static sampler 0 \(s0 space0\): address 'mirror_once'"):
        device.create_root_signature([], static_samplers=[dx.StaticSampler(0, address="mirror_once")])


def test_mirror_once_where_supported_mirrors_once_then_clamps(device, queue, red_green):
    if not device.sampler_support["mirror_once"]:
        pytest.skip("this device samples mirror_once as wrap (refused instead)")
    expected = np.array([GREEN, RED, RED, GREEN, GREEN, GREEN, GREEN, GREEN], np.float32)  # |u| clamped to [0, 1]
    table = device.create_sampler(filter="point", address="mirror_once")
    np.testing.assert_array_equal(sample_row(device, queue, red_green, table=table), expected)


def test_min_max_filters_the_device_lacks_are_refused(device):
    if device.sampler_support["min_max_filtering"]:
        pytest.skip("this device supports min/max filtering")
    for filt in ("minimum_min_mag_mip_linear", "maximum_anisotropic"):
        with pytest.raises(dx.InvalidArgumentError, match="min/max reduction.*tiled resources tier 2"):
            device.create_sampler(filter=filt)
        with pytest.raises(dx.InvalidArgumentError, match="static sampler 0"):
            device.create_root_signature([], static_samplers=[dx.StaticSampler(0, filter=filt)])
