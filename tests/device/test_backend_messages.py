"""vkd3d's own messages: quiet by default, on when the user asks.

vkd3d prints "fixme" notes to stderr in normal use (an aliasing barrier: "Aliasing barriers not
implemented yet"; a static sampler with border addressing: "Ignoring border"). dx12kit sets VKD3D_DEBUG and
VKD3D_SHADER_DEBUG to "err" at import when the user did not set them, so errors still show and a
level the user chose wins. Each case runs in a fresh interpreter: vkd3d reads the level once per
process, and the test suite's own process may have set it already.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

PRELUDE = "import numpy as np, dx12kit as dx; d = dx.Device(); q = d.queue()\n"

# Each makes vkd3d 1.2 print a fixme when its level is "fixme" (its default); the static sampler one
# only with address="border".
CASES = {
    "load_texture_srgb": "t = d.load_texture(np.ones((16, 16, 4), np.uint8), srgb=True)\n"
                         "assert (q.read_texture(t) == 1).all()",
    "generate_mips_bgra": "t = d.create_texture2d(16, 16, 'bgra8_unorm', mip_levels=0)\n"
                          "cl = q.command_list(); cl.upload(t, np.full((16, 16, 4), 9, np.uint8)); cl.generate_mips(t)\n"
                          "q.wait(q.execute(cl)); assert (q.read_texture(t, mip=4) == 9).all()",
    "placed_in_one_memory": "m = d.allocate_memory(1 << 20); a = d.create_buffer(65536, memory=m)\n"
                            "t = d.create_texture2d(64, 64, memory=m); cl = q.command_list()\n"
                            "cl.upload(a, np.ones(16384, np.uint32)); cl.upload(t, np.full((64, 64, 4), 3, np.uint8))\n"
                            "q.wait(q.execute(cl)); assert (q.read_texture(t) == 3).all()",
    "static_sampler_border": "d.create_root_signature([], static_samplers=[dx.StaticSampler(0, address='border')])",
}


def run(code: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("VKD3D_DEBUG", "VKD3D_SHADER_DEBUG")}
    environ.update(env)
    r = subprocess.run([sys.executable, "-c", PRELUDE + code], capture_output=True, text=True, env=environ, timeout=300)
    assert r.returncode == 0, r.stderr
    return r


@pytest.mark.parametrize("case", sorted(CASES))
def test_normal_use_leaves_stderr_empty(case):
    assert run(CASES[case]).stderr == ""


# The C environment (what vkd3d reads); os.environ is Python's copy from interpreter start-up.
GETENV = "import ctypes; g = ctypes.CDLL(None).getenv; g.restype = ctypes.c_char_p\n"
SHOW = GETENV + "print(g(b'VKD3D_DEBUG').decode(), g(b'VKD3D_SHADER_DEBUG').decode())"


def test_level_the_user_set_is_kept():
    r = run(CASES["placed_in_one_memory"] + "\n" + GETENV + "print(g(b'VKD3D_DEBUG').decode())", VKD3D_DEBUG="fixme")
    assert "fixme:d3d12_command_list_ResourceBarrier: Aliasing barriers not implemented yet." in r.stderr
    assert r.stdout.strip() == "fixme"
    r = run(CASES["static_sampler_border"], VKD3D_DEBUG="fixme")
    assert "fixme:vkd3d_create_static_sampler: Ignoring border" in r.stderr


def test_default_level_is_err_and_user_none_is_kept():
    r = run(SHOW)
    assert r.stdout.split() == ["err", "err"]
    r = run(SHOW, VKD3D_DEBUG="none",
            VKD3D_SHADER_DEBUG="trace")
    assert r.stdout.split() == ["none", "trace"]
