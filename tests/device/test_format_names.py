"""Every DXGI format is known by DXGI's name and dx12kit's short name, in any case, whether or not the device can
use it; an unknown name gets difflib-style suggestions."""
from __future__ import annotations

import difflib

import pytest

import dx12kit as dx

# DXGI_FORMAT's values (dxgiformat.h), 1..115 and the later ones.
DXGI_VALUES = list(range(1, 116)) + [130, 131, 132, 189, 190, 191]


def test_every_dxgi_format_is_a_member():
    values = {int(f) for f in dx.Format}
    assert set(DXGI_VALUES) <= values
    assert dx.Format(98) is dx.Format.BC7_UNORM and dx.Format(103) is dx.Format.NV12 and dx.Format(106) is dx.Format.OPAQUE_420
    # DXGI's names are aliases where they differ from the short names
    assert dx.Format.R8G8B8A8_UNORM is dx.Format.RGBA8_UNORM and dx.Format.R11G11B10_FLOAT is dx.Format.RG11B10_FLOAT
    assert str(dx.Format.R8G8B8A8_UNORM) == "RGBA8_UNORM"


@pytest.mark.parametrize("name", ["BC7_UNORM", "bc7_unorm", "DXGI_FORMAT_BC7_UNORM", "dxgi_format_bc7_unorm", "Bc7_Unorm"])
def test_names_in_any_style(device, name):
    tex = device.create_texture2d(4, 4, name)
    assert tex.format == dx.Format.BC7_UNORM
    assert device.format_support(name).format == "bc7_unorm"


@pytest.mark.parametrize("name, fmt", [("R8G8B8A8_UNORM", "RGBA8_UNORM"), ("DXGI_FORMAT_R8G8B8A8_UNORM", "RGBA8_UNORM"),
                                       ("rgba8_unorm", "RGBA8_UNORM"), ("R32G32B32A32_FLOAT", "RGBA32_FLOAT"),
                                       ("DXGI_FORMAT_R10G10B10A2_UNORM", "RGB10A2_UNORM"), ("b8g8r8a8_unorm_srgb", "BGRA8_UNORM_SRGB"),
                                       ("DXGI_FORMAT_420_OPAQUE", "OPAQUE_420"), ("D32_FLOAT", "D32_FLOAT")])
def test_dxgi_names_parse(device, name, fmt):
    assert device.format_support(name).format == fmt.lower()


def test_formats_the_device_cannot_use_are_known(device):
    # a video format: known, and the error says what dx12kit / the device cannot do, not "unknown format"
    s = device.format_support("NV12")
    assert s.format == "nv12"
    with pytest.raises(dx.InvalidArgumentError, match=r"create_texture2d: nv12 \(DXGI_FORMAT_NV12\) is a video, planar"):
        device.create_texture2d(4, 4, "DXGI_FORMAT_NV12")
    bc1 = device.format_support("bc1_unorm")
    assert bc1.texture2d and bc1.shader_sample and not bc1.render_target and not bc1.typed_uav


@pytest.mark.parametrize("typo", ["rgba8_unrom", "R8G8B8A8_UNORN", "bc7unorm", "DXGI_FORMAT_BC1_UNORM_SRBG", "rgba_8_unorm", "d32float"])
def test_unknown_names_suggest_the_closest(device, typo):
    names = [f.name.lower() for f in dx.Format if f.name != "UNKNOWN"]
    dxgi = {n.lower(): f.name.lower() for n, f in dx.Format.__members__.items()}
    word = typo.lower().removeprefix("dxgi_format_")
    scores = {}
    for alias, short in dxgi.items():
        if short == "unknown":
            continue
        r = difflib.SequenceMatcher(None, alias, word).ratio()
        scores[short] = max(scores.get(short, 0), r)
    best = sorted(((r, n) for n, r in scores.items() if r >= 0.6), reverse=True)[:3]
    assert best and all(n in names for _, n in best)
    with pytest.raises(dx.InvalidArgumentError) as e:
        device.create_texture2d(4, 4, typo)
    msg = str(e.value)
    assert msg.startswith(f"create_texture2d: unknown format '{typo}'; did you mean ")
    assert "did you mean " + ", ".join(f"'{n}'" for _, n in best) + "?" in msg


def test_no_suggestion_for_nonsense(device):
    with pytest.raises(dx.InvalidArgumentError, match=r"unknown format 'zzzzqqqq' \(dx12kit.Format lists them"):
        device.format_support("zzzzqqqq")


def test_stencil_family_colour_formats_the_backend_cannot_create_are_reported(device):
    for name in ("r24g8_typeless", "x24_typeless_g8_uint", "r32g8x24_typeless"):
        s = device.format_support(name)
        if s.texture2d:  # a backend that creates them (D3D12 on Windows)
            assert isinstance(device.create_texture2d(4, 4, name), dx.Texture)
            continue
        assert not s.texture3d and not s.texture_cube
        with pytest.raises(dx.InvalidArgumentError, match=f"{name} cannot be a 2D texture on this device"):
            device.create_texture2d(4, 4, name)
