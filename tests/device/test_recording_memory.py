"""Freed recording memory is kept (glibc): the first Device raises malloc's trim threshold to 64 MiB
(platform::KeepFreedRecordingMemory, docs/guides/threads.rst) unless the environment sets a threshold
of its own or DX12KIT_KEEP_RECORDING_MEMORY=0. The setting is per process, so each case runs in a
child process, which frees 32 MiB of small blocks at the top of the main arena and reports how much
of it malloc kept (mallinfo2's keepcost: the releasable top of the arena)."""
from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

pytestmark = [
    pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc's malloc only"),
    # AddressSanitizer replaces malloc (mallopt and mallinfo2 then speak of glibc's unused allocator)
    pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""), reason="AddressSanitizer's malloc replaces glibc's"),
]

CHILD = """
import ctypes
import dx12kit as dx

libc = ctypes.CDLL("libc.so.6")
class MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]
libc.mallinfo2.restype = MallInfo2
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
try:
    dx.Device()
except dx.InvalidArgumentError as e:
    print("InvalidArgumentError:", e)
    raise SystemExit(0)
blocks = [0] * 2048
for i in range(len(blocks)):  # 32 MiB below the mmap threshold: from the arena's top
    blocks[i] = libc.malloc(16 << 10)
for b in reversed(blocks):
    libc.free(b)
print("kept", libc.mallinfo2().keepcost)
"""
MIB = 1 << 20


def run_child(**env: str) -> str:
    environ = {k: v for k, v in os.environ.items()
               if k not in ("DX12KIT_KEEP_RECORDING_MEMORY", "MALLOC_TRIM_THRESHOLD_", "GLIBC_TUNABLES")}
    environ.update(env)
    r = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=environ, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip().splitlines()[-1]


def kept(**env: str) -> int:
    line = run_child(**env)
    assert line.startswith("kept "), line
    return int(line.split()[1])


@pytest.mark.xfail(tuple(int(x) for x in platform.libc_ver()[1].split(".")[:2]) >= (2, 41), strict=False,
                   reason="on Debian 13 (glibc 2.41, Python 3.13) the child's freed blocks do not reach the arena's top "
                          "with or without the setting (keepcost 1.2 against 1.3 MiB), so this measurement cannot "
                          "tell the setting's effect there; not established on glibc 2.41")
def test_a_device_makes_malloc_keep_freed_memory():
    assert kept() >= 24 * MIB


def test_keep_recording_memory_0_leaves_malloc_alone():
    assert kept(DX12KIT_KEEP_RECORDING_MEMORY="0") < 8 * MIB


def test_the_users_own_trim_threshold_wins():
    assert kept(GLIBC_TUNABLES="glibc.malloc.trim_threshold=1048576") < 8 * MIB
    assert kept(MALLOC_TRIM_THRESHOLD_="1048576") < 8 * MIB


def test_a_malformed_keep_recording_memory_is_an_error_naming_it():
    line = run_child(DX12KIT_KEEP_RECORDING_MEMORY="yes")
    assert line.startswith("InvalidArgumentError: DX12KIT_KEEP_RECORDING_MEMORY='yes' must be 0"), line
