"""HLSL compilation: defines, the on-disk cache and the compiler's messages."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

SRC = """
RWStructuredBuffer<uint> o : register(u0);
[numthreads(1, 1, 1)] void main() { o[0] = VALUE; }
"""


def test_defines_change_the_program(device, queue, tmp_path, pyenv):
    pyenv["DX12KIT_SHADER_CACHE"] = str(tmp_path)
    rs = device.create_root_signature([dx.RootUAV(0)])
    buf = device.create_buffer(4, uav=True)
    for value in (7, 1234):
        pso = device.create_compute_pipeline(dx.compile_hlsl(SRC, defines={"VALUE": value}), rs)
        cl = queue.command_list()
        cl.set_pipeline_state(pso)
        cl.set_root_uav(0, buf)
        cl.dispatch(1)
        queue.execute(cl)
        assert queue.read_buffer(buf, dtype=np.uint32)[0] == value
    assert len(list(tmp_path.glob("*.dxbc"))) == 2


def test_cache_hit_returns_same_bytecode(tmp_path, pyenv):
    pyenv["DX12KIT_SHADER_CACHE"] = str(tmp_path)
    a = dx.compile_hlsl(SRC, defines={"VALUE": 3})
    files = list(tmp_path.glob("*.dxbc"))
    assert len(files) == 1
    b = dx.compile_hlsl(SRC, defines={"VALUE": 3})
    assert a.bytecode == b.bytecode and a.bytecode[:4] == b"DXBC"
    c = dx.compile_hlsl(SRC, defines={"VALUE": 3}, entry="main", profile="cs_5_1")
    assert len(list(tmp_path.glob("*.dxbc"))) == 2 and c.profile == "cs_5_1"


def test_error_messages_keep_line_numbers_with_defines(tmp_path, pyenv):
    pyenv["DX12KIT_SHADER_CACHE"] = str(tmp_path)
    bad = "RWStructuredBuffer<uint> o : register(u0);\n\n[numthreads(1,1,1)] void main() { o[0] = nope; }\n"
    with pytest.raises(dx.ShaderCompileError) as e:
        dx.compile_hlsl(bad, defines={"X": 1})
    assert "shader.hlsl:3:" in e.value.messages, e.value.messages
    assert not list(tmp_path.glob("*.dxbc"))


def test_compiler_override_env(pyenv, tmp_path):
    pyenv["DX12KIT_HLSL_COMPILER"] = str(tmp_path / "missing")
    with pytest.raises(dx.Dx12Error, match="DX12KIT_HLSL_COMPILER"):
        dx.compile_hlsl(SRC, defines={"VALUE": 99})
