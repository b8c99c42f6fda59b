"""UAV counters in precompiled DXBC (fxc output: IncrementCounter, Append, Consume). vkd3d-shader 2.1
cannot compile them (tests/device/test_hlsl_unsupported.py) and dx12kit creates no view with a counter
resource, so pipeline creation refuses bytecode that counts, naming the instruction and the register.

The DXBC here is made from vkd3d-compiler's output for an InterlockedAdd on u0: the
``imm_atomic_iadd r0.x, u0, ...`` instruction becomes ``imm_atomic_alloc r0.x, u0`` (opcode 0xb2, five
tokens: its destination and UAV operands kept, the rest filled with ``nop``), the UAV declaration gets
its counter flag (bit 23), and the checksum is recomputed."""
from __future__ import annotations

import struct

import pytest

import dx12kit as dx
from dx12kit.dx12core import shaders as native

SRC = ("RWStructuredBuffer<uint> o : register(u0);\n"
       "[numthreads(1,1,1)] void main() { uint p; InterlockedAdd(o[0], 1, p); o[1] = p; }\n")
OP_IMM_ATOMIC_IADD, OP_IMM_ATOMIC_ALLOC, OP_IMM_ATOMIC_CONSUME, OP_DCL_UAV_STRUCTURED, OP_NOP = 0xB4, 0xB2, 0xB3, 0x9E, 0x3A


def _program(dxbc: bytearray):
    count = struct.unpack_from("<I", dxbc, 28)[0]
    for k in range(count):
        off = struct.unpack_from("<I", dxbc, 32 + 4 * k)[0]
        if dxbc[off:off + 4] in (b"SHEX", b"SHDR"):
            return off + 8
    raise AssertionError("no program chunk")


def counting_bytecode(opcode: int) -> bytes:
    data = bytearray(dx.compile_hlsl(SRC).bytecode)
    base = _program(data)
    words = lambda i: struct.unpack_from("<I", data, base + 4 * i)[0]
    put = lambda i, v: struct.pack_into("<I", data, base + 4 * i, v)
    length = words(1)
    p, patched = 2, False
    while p < length:
        t = words(p)
        op, n = t & 0x7FF, (t >> 24) & 0x7F
        if op == OP_DCL_UAV_STRUCTURED:
            put(p, t | (1 << 23))
        elif op == OP_IMM_ATOMIC_IADD:
            dst, uav = [words(p + 1), words(p + 2)], [words(p + 3), words(p + 4)]
            assert (dst[0] >> 12) & 0xFF == 0 and (uav[0] >> 12) & 0xFF == 30, "r#, u# operands expected"
            put(p, opcode | (5 << 24))
            for i, v in enumerate(dst + uav):
                put(p + 1 + i, v)
            for i in range(5, n):
                put(p + i, OP_NOP | (1 << 24))
            patched = True
        p += n
    assert patched
    data[4:20] = native.dxbc_checksum(bytes(data))
    return bytes(data)


@pytest.mark.parametrize("opcode,name", [(OP_IMM_ATOMIC_ALLOC, "imm_atomic_alloc"), (OP_IMM_ATOMIC_CONSUME, "imm_atomic_consume")])
def test_precompiled_bytecode_with_a_uav_counter_is_refused_at_pipeline_creation(device, opcode, name):
    data = counting_bytecode(opcode)
    assert native.dxbc_problem(data) == ""
    rs = device.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    with pytest.raises(dx.InvalidArgumentError, match=rf"create_compute_pipeline \(cs\).*UAV counter \({name} on u0:.*InterlockedAdd"):
        device.create_compute_pipeline(data, rs)


def test_the_same_bytecode_without_the_counter_makes_a_pipeline(device):
    rs = device.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    device.create_compute_pipeline(dx.compile_hlsl(SRC), rs)
