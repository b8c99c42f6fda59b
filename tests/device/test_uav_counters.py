"""UAV counters in precompiled DXBC (fxc output: IncrementCounter, Append, Consume). vkd3d-shader 2.1
cannot compile them (tests/device/test_hlsl_unsupported.py); bytecode that counts runs when each UAV it
counts through has a counter resource (set_unordered_access_view(..., counter=, counter_offset=)). vkd3d
1.2 counts only in compute pipelines, so graphics pipelines that count are refused, naming the gap.

The DXBC here is made from vkd3d-compiler's output for an InterlockedAdd on u0: the
``imm_atomic_iadd r0.x, u0, ...`` instruction becomes ``imm_atomic_alloc r0.x, u0`` or
``imm_atomic_consume r0.x, u0`` (opcodes 0xb2/0xb3, five tokens: its destination and UAV operands kept,
the rest filled with ``nop``), u0's declaration gets its counter flag (bit 23), and the checksum is
recomputed. That is the instruction pair fxc emits for ``o[o.IncrementCounter()] = v`` (Append) and
``v = i[i.DecrementCounter()]`` (Consume)."""
from __future__ import annotations

import struct

import numpy as np
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


def counting_bytecode(opcode: int, src: str = SRC, profile: str = "cs_5_0", uav: int = 0) -> bytes:
    data = bytearray(dx.compile_hlsl(src, profile=profile).bytecode)
    base = _program(data)
    words = lambda i: struct.unpack_from("<I", data, base + 4 * i)[0]
    put = lambda i, v: struct.pack_into("<I", data, base + 4 * i, v)
    length = words(1)
    p, patched = 2, False
    while p < length:
        t = words(p)
        op, n = t & 0x7FF, (t >> 24) & 0x7F
        if op == OP_DCL_UAV_STRUCTURED and words(p + 2) == uav:  # the counted UAV only
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


N = 64
APPEND = ("RWStructuredBuffer<uint> o : register(u0);\n"
          "[numthreads(32,1,1)] void main(uint3 id : SV_DispatchThreadID) {\n"
          "    uint p; InterlockedAdd(o[0], 1, p); o[p] = id.x * 10 + 7; }\n")
CONSUME = ("RWStructuredBuffer<uint> src : register(u0);\n"
           "RWStructuredBuffer<uint> dst : register(u1);\n"
           "[numthreads(32,1,1)] void main(uint3 id : SV_DispatchThreadID) {\n"
           "    uint p; InterlockedAdd(src[0], 1, p); dst[id.x] = src[p]; }\n")


def _counter(device, queue, value, size=4, offset=0):
    c = device.create_buffer(size, uav=True, name="counter")
    data = np.zeros(size // 4, np.uint32)
    data[offset // 4] = value
    cl = queue.command_list()
    cl.upload(c, data)
    queue.wait(queue.execute(cl))
    return c


def test_append_appends_each_thread_once_and_counts_them(device, queue):
    pso_rs = device.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    pso = device.create_compute_pipeline(counting_bytecode(OP_IMM_ATOMIC_ALLOC, APPEND), pso_rs)
    out = device.create_buffer(4 * N, uav=True, name="appended")
    counter = _counter(device, queue, 0)
    cl = queue.command_list()
    cl.clear_unordered_access_view(out, [0, 0, 0, 0])
    cl.set_pipeline_state(pso)
    cl.set_unordered_access_view(0, 0, out, stride=4, counter=counter)
    cl.dispatch(N // 32)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(counter, dtype=np.uint32)[0] == N
    got = queue.read_buffer(out, dtype=np.uint32)
    np.testing.assert_array_equal(np.sort(got), np.arange(N, dtype=np.uint32) * 10 + 7)


def test_consume_takes_the_last_elements_and_counts_down(device, queue):
    rs = device.create_root_signature([dx.DescriptorTable([dx.UAV(0, count=2)])])
    pso = device.create_compute_pipeline(counting_bytecode(OP_IMM_ATOMIC_CONSUME, CONSUME), rs)
    stack = np.arange(100, 100 + N, dtype=np.uint32)
    src = device.create_buffer(4 * N, uav=True, name="stack")
    dst = device.create_buffer(4 * 32, uav=True, name="taken")
    counter = _counter(device, queue, N)
    cl = queue.command_list()
    cl.upload(src, stack)
    cl.set_pipeline_state(pso)
    cl.set_unordered_access_view(0, 0, src, stride=4, counter=counter)
    cl.set_unordered_access_view(0, 1, dst)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(counter, dtype=np.uint32)[0] == N - 32
    np.testing.assert_array_equal(np.sort(queue.read_buffer(dst, dtype=np.uint32)), stack[N - 32:])


def test_a_bundle_binds_the_counter_too(device, queue):
    rs = device.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    pso = device.create_compute_pipeline(counting_bytecode(OP_IMM_ATOMIC_ALLOC, APPEND), rs)
    out = device.create_buffer(4 * N, uav=True, name="appended")
    counter = _counter(device, queue, 3)
    b = device.create_bundle()
    b.set_pipeline_state(pso)
    b.set_unordered_access_view(0, 0, out, stride=4, counter=counter)
    b.dispatch(1)
    b.close()
    cl = queue.command_list()
    cl.clear_unordered_access_view(out, [0, 0, 0, 0])
    cl.set_pipeline_state(pso)
    cl.execute_bundle(b)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(counter, dtype=np.uint32)[0] == 3 + 32
    got = queue.read_buffer(out, dtype=np.uint32)
    np.testing.assert_array_equal(np.sort(got[3:35]), np.arange(32, dtype=np.uint32) * 10 + 7)


def test_a_dispatch_that_counts_through_a_view_without_counter_is_refused(device, queue):
    rs = device.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    pso = device.create_compute_pipeline(counting_bytecode(OP_IMM_ATOMIC_ALLOC, APPEND), rs)
    out = device.create_buffer(4 * N, uav=True)
    counter = _counter(device, queue, 0)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_unordered_access_view(0, 0, out, stride=4, counter=counter)
    cl.set_unordered_access_view(0, 0, out, stride=4)  # set again without: the counter is gone
    with pytest.raises(dx.InvalidArgumentError, match=r"dispatch: .*UAV counter of u0.*no counter resource.*counter="):
        cl.dispatch(1)


def test_the_counter_check_runs_again_after_the_view_or_the_pipeline_changes(device, queue):
    # Checked once per change, not per dispatch: a checked dispatch must not excuse a later view without counter.
    rs = device.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    pso = device.create_compute_pipeline(counting_bytecode(OP_IMM_ATOMIC_ALLOC, APPEND), rs)
    plain = device.create_compute_pipeline(dx.compile_hlsl(APPEND, profile="cs_5_0"), rs)
    out = device.create_buffer(4 * N, uav=True)
    counter = _counter(device, queue, 0)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_unordered_access_view(0, 0, out, stride=4, counter=counter)
    cl.dispatch(1)
    cl.dispatch(1)
    cl.set_unordered_access_view(0, 0, out, stride=4)
    with pytest.raises(dx.InvalidArgumentError, match="no counter resource"):
        cl.dispatch(1)
    cl.set_pipeline_state(plain)
    cl.dispatch(1)  # does not count: no counter needed
    cl.set_pipeline_state(pso)
    with pytest.raises(dx.InvalidArgumentError, match="no counter resource"):
        cl.dispatch(1)
    cl.set_unordered_access_view(0, 0, out, stride=4, counter=counter)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(counter, dtype=np.uint32)[0] == 3 * 32


def test_counter_arguments_follow_d3d12_rules(device, queue):
    rs = device.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    pso = device.create_compute_pipeline(counting_bytecode(OP_IMM_ATOMIC_ALLOC, APPEND), rs)
    out = device.create_buffer(4 * N, uav=True)
    counter = device.create_buffer(8192, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    with pytest.raises(dx.InvalidArgumentError, match=r"counter_offset=100 must be a multiple of 4096"):
        cl.set_unordered_access_view(0, 0, out, stride=4, counter=counter, counter_offset=100)
    with pytest.raises(dx.InvalidArgumentError, match=r"4 bytes at counter_offset=8192 do not fit in counter"):
        cl.set_unordered_access_view(0, 0, out, stride=4, counter=counter, counter_offset=8192)
    with pytest.raises(dx.InvalidArgumentError, match=r"needs a structured view.*raw"):
        cl.set_unordered_access_view(0, 0, out, raw=True, counter=counter)
    with pytest.raises(dx.InvalidArgumentError, match=r"counter .*uav=True"):
        cl.set_unordered_access_view(0, 0, out, stride=4, counter=device.create_buffer(4))
    tex = device.create_texture2d(8, 8, "rgba8_unorm", uav=True)
    with pytest.raises(dx.InvalidArgumentError, match=r"counter= applies to structured buffer views.*texture"):
        cl.set_unordered_access_view(0, 0, tex, counter=counter)


def test_a_counter_inside_the_views_own_elements_is_refused(device, queue):
    """The counter may share the view's buffer, outside the elements the view covers: inside them,
    appending overwrote the count and the count overwrote data (word 0 read 31), with no error."""
    rs = device.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    pso = device.create_compute_pipeline(counting_bytecode(OP_IMM_ATOMIC_ALLOC, APPEND), rs)
    both = device.create_buffer(8192, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    with pytest.raises(dx.InvalidArgumentError, match=r"counter_offset=0 lies inside the view's own elements \(bytes 0\.\.8192"):
        cl.set_unordered_access_view(0, 0, both, stride=4, counter=both)
    with pytest.raises(dx.InvalidArgumentError, match=r"counter_offset=4096 lies inside"):
        cl.set_unordered_access_view(0, 0, both, stride=4, num_elements=1025, counter=both, counter_offset=4096)
    with pytest.raises(dx.InvalidArgumentError, match=r"counter_offset=0 lies inside the view's own elements"):
        cl.set_unordered_access_view(0, 0, both, counter=both)   # the structured kind declared by the pipeline
    cl.set_unordered_access_view(0, 0, both, stride=4, num_elements=1024, counter=both, counter_offset=4096)   # just outside
    cl.set_unordered_access_view(0, 0, both, stride=4, first_element=1, counter=both, counter_offset=0)


def test_a_counter_at_offset_4096_counts_there(device, queue):
    rs = device.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    pso = device.create_compute_pipeline(counting_bytecode(OP_IMM_ATOMIC_ALLOC, APPEND), rs)
    out = device.create_buffer(4 * N, uav=True)
    counter = _counter(device, queue, 5, size=8192, offset=4096)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_unordered_access_view(0, 0, out, stride=4, counter=counter, counter_offset=4096)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    words = queue.read_buffer(counter, dtype=np.uint32)
    assert words[0] == 0 and words[1024] == 5 + 32


def test_a_graphics_pipeline_that_counts_is_refused_naming_the_gap(device):
    ps_src = ("RWStructuredBuffer<uint> o : register(u1);\n"
              "float4 main(float4 p : SV_Position) : SV_Target { uint s; InterlockedAdd(o[0], 1, s); return float4(s, 0, 0, 1); }\n")
    # u1: a pixel shader's UAVs start after its render targets (u0 would be SV_Target0's slot).
    ps = counting_bytecode(OP_IMM_ATOMIC_ALLOC, ps_src, profile="ps_5_0", uav=1)
    vs = dx.compile_hlsl("float4 main(uint i : SV_VertexID) : SV_Position { return float4(0, 0, 0, 1); }", profile="vs_5_0")
    rs = device.create_root_signature([dx.DescriptorTable([dx.UAV(1)])])
    with pytest.raises(dx.InvalidArgumentError, match=r"create_graphics_pipeline \(ps\).*UAV counter \(imm_atomic_alloc on u1.*only in compute"):
        device.create_graphics_pipeline(vs=vs, ps=ps, root_signature=rs, rtv_formats=["rgba8_unorm"])


def test_a_counting_view_follows_its_buffer_and_counter_when_defragmentation_moves_them():
    # uma_direct=False: buffers in the default pool, which defragment() compacts
    dev = dx.Device(uma_direct=False)
    q = dev.queue()
    rs = dev.create_root_signature([dx.DescriptorTable([dx.UAV(0)])])
    pso = dev.create_compute_pipeline(counting_bytecode(OP_IMM_ATOMIC_ALLOC, APPEND), rs)
    fillers = [dev.create_buffer(64 << 10, name=f"filler{i}") for i in range(4)]
    out = dev.create_buffer(4 * N, uav=True, name="appended")
    fillers += [dev.create_buffer(64 << 10, name=f"filler{i}") for i in range(4, 8)]
    counter = _counter(dev, q, 0)

    def append_once():
        cl = q.command_list()
        cl.set_pipeline_state(pso)
        cl.set_unordered_access_view(0, 0, out, stride=4, counter=counter)  # the cached counting view
        cl.dispatch(1)
        q.wait(q.execute(cl))

    cl = q.command_list()
    cl.clear_unordered_access_view(out, [0, 0, 0, 0])
    q.wait(q.execute(cl))
    append_once()
    where = {b.name: (b.allocation["block"], b.allocation["offset"]) for b in (out, counter)}
    del fillers
    dev.wait_idle()
    dev.defragment(algorithm="full")
    assert all((b.allocation["block"], b.allocation["offset"]) != where[b.name] for b in (out, counter)), "both must move"
    append_once()
    assert q.read_buffer(counter, dtype=np.uint32)[0] == N
    got = q.read_buffer(out, dtype=np.uint32)
    np.testing.assert_array_equal(np.sort(got), np.sort(np.tile(np.arange(32, dtype=np.uint32) * 10 + 7, 2)))
