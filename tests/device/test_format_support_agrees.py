"""Device.format_support agrees with what creating textures and views does, for every format in
dx12kit.Format: what it reports as unsupported raises a clear
InvalidArgumentError naming the format, never a driver failure; what it reports works."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

DEPTH = {"d32_float", "d24_unorm_s8_uint", "d16_unorm", "d32_float_s8x24_uint"}
KEYS = ["buffer", "texture2d", "texture3d", "texture_cube", "shader_load", "shader_sample", "render_target", "blendable",
        "depth_stencil", "typed_uav", "uav_typed_load", "uav_typed_store", "mip_autogen", "msaa"]
FORMATS = [f.name.lower() for f in dx.Format if f.name != "UNKNOWN"]
# vkd3d 1.2 cannot create the stencil formats without depth_stencil=True (Vulkan needs the
# depth-stencil usage for them); D3D12 allows it. Creation raises a clear error naming the format.
NEEDS_DEPTH_FLAG = {"d24_unorm_s8_uint", "d32_float_s8x24_uint"}


_PIPELINES: dict = {}


def _srv_pipeline(device):
    """A compute pipeline with one SRV table, to stage views with (nothing is dispatched)."""
    if device not in _PIPELINES:
        cs = dx.compile_hlsl("Texture2D<float4> t : register(t0); RWStructuredBuffer<float> o : register(u0);\n"
                             "[numthreads(1, 1, 1)] void main() { o[0] = t.Load(int3(0, 0, 0)).x; }", profile="cs_5_0")
        rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0)]), dx.RootUAV(0)])
        _PIPELINES[device] = device.create_compute_pipeline(cs, rs)
    return _PIPELINES[device]


def _outcome(make):
    try:
        return make()
    except dx.InvalidArgumentError as e:
        return e


def test_every_key_is_there(device):
    for name in FORMATS:
        s = device.format_support(name)
        assert list(s.keys()) == KEYS and list(s) == KEYS and len(s) == len(KEYS)
        d = s.as_dict()
        assert d == dict(s) and all(d[k] == getattr(s, k) for k in KEYS)
        assert all(isinstance(d[k], bool) for k in KEYS[:-1]) and all(isinstance(c, int) for c in d["msaa"])
        assert "msaa" in s and "nonsense" not in s
    with pytest.raises(KeyError):
        device.format_support("rgba8_unorm")["nonsense"]


@pytest.mark.parametrize("name", FORMATS)
def test_format_support_agrees_with_creation(device, queue, name):
    s = device.format_support(name)
    depth = name in DEPTH
    # A plain 2D texture.
    t = _outcome(lambda: device.create_texture2d(8, 8, name))
    if name in NEEDS_DEPTH_FLAG and not isinstance(t, dx.Texture):
        assert name in str(t) and "depth_stencil=True" in str(t)
    else:
        assert isinstance(t, dx.Texture) == s.texture2d, t
    # Render target / depth buffer.
    rt = _outcome(lambda: device.create_texture2d(8, 8, name, render_target=True))
    assert isinstance(rt, dx.Texture) == (s.render_target and not depth), rt
    if not isinstance(rt, dx.Texture):
        assert name in str(rt)
    ds = _outcome(lambda: device.create_texture2d(8, 8, name, depth_stencil=True))
    assert isinstance(ds, dx.Texture) == (s.depth_stencil and depth), ds
    # Typed UAV.
    uav = _outcome(lambda: device.create_texture2d(8, 8, name, uav=True))
    assert isinstance(uav, dx.Texture) == (s.typed_uav and not depth), uav
    if not isinstance(uav, dx.Texture):
        assert name in str(uav)
    # MSAA counts, on whichever target kind the format can be.
    kind = {"depth_stencil": True} if depth else {"render_target": True}
    if (depth and s.depth_stencil) or (not depth and s.render_target):
        for count in (2, 4, 8):
            m = _outcome(lambda: device.create_texture2d(8, 8, name, sample_count=count, **kind))
            assert isinstance(m, dx.Texture) == (count in s.msaa), (count, m)
            if not isinstance(m, dx.Texture):
                assert "supported: " + ", ".join(map(str, s.msaa)) in str(m)
    # Views: creating them (staging an SRV, binding a target) raises exactly when unsupported.
    if isinstance(t, dx.Texture):
        cl = queue.command_list()
        cl.set_pipeline_state(_srv_pipeline(device))
        staged = _outcome(lambda: cl.set_shader_resource_view(0, 0, t))
        assert (staged is None) == s.shader_load, staged
    if isinstance(rt, dx.Texture):
        cl = queue.command_list()
        cl.clear_render_target(rt, [0, 0, 0, 0])
        cl.set_render_targets([rt])
        queue.execute(cl)
    if isinstance(ds, dx.Texture):
        cl = queue.command_list()
        cl.clear_depth_stencil(ds, 0.5)
        queue.execute(cl)
        out = queue.read_texture(ds)
        if out.dtype.kind == "f":
            assert (out == np.float32(0.5)).all(), np.unique(out)
        else:  # UNORM depth of 16 or 24 bits (a d24 texel carries its stencil in the top byte)
            bits = 16 if name.startswith("d16") else 24
            assert ((out.astype(np.uint64) & ((1 << bits) - 1)) == round(0.5 * ((1 << bits) - 1))).all(), np.unique(out)
