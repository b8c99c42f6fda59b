"""Buffer views in descriptor tables as D3D12 defines them (point 4), root parameters only
the shaders read (point 5), and root-signature flags as enums (point 6).

Structured, typed and raw views take their kind, stride and format from the bound pipeline's
shader unless given; first_element / num_elements select a window of the buffer. The numbers the
shaders compute are read back. (The descriptor fields themselves are checked against D3D12's rules
in tests/cpp/TestBufferViews.cpp.)
"""
import numpy as np
import pytest

import dx12kit as dx

# Three SRVs of each kind and one UAV per kind: out[i] = sum of what each view reads at i.
VIEWS_CS = """
struct P { float a; float b; float c; };
StructuredBuffer<P> sb : register(t0);
Buffer<float4> tb : register(t1);
ByteAddressBuffer rb : register(t2);
RWStructuredBuffer<float> out_s : register(u0);
RWBuffer<float> out_t : register(u1);
RWByteAddressBuffer out_r : register(u2);
[numthreads(8, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {
    uint i = id.x;
    out_s[i] = sb[i].b;                        // element i of the structured window
    out_t[i] = tb[i].z + tb[i].w;              // element i of the typed window
    out_r.Store(4 * i, rb.Load(4 * i) * 2u);   // word i of the raw window
}
"""

N = 8


def _views_pipeline(device):
    cs = dx.compile_hlsl(VIEWS_CS, profile="cs_5_0")
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0, count=3), dx.UAV(0, count=3)])])
    return rs, device.create_compute_pipeline(cs, rs)


def _buffers(device, queue):
    structured = np.arange(3 * 3 * N, dtype=np.float32).reshape(-1, 3)  # 3N structures of 3 floats
    typed = np.arange(4 * 2 * N, dtype=np.float32).reshape(-1, 4) + 0.5  # 2N float4 elements
    raw = np.arange(2 * N, dtype=np.uint32) * 3 + 1
    bufs = {}
    for name, data in (("structured", structured), ("typed", typed), ("raw", raw)):
        b = device.create_buffer(data.nbytes, name=name)
        bufs[name] = b
    outs = [device.create_buffer(4 * 2 * N, uav=True, name=f"out{i}") for i in range(3)]
    cl = queue.command_list()
    cl.upload(bufs["structured"], structured)
    cl.upload(bufs["typed"], typed)
    cl.upload(bufs["raw"], raw)
    for o in outs:
        cl.clear_unordered_access_view(o, [0, 0, 0, 0])
    queue.wait(queue.execute(cl))
    return bufs, outs, structured, typed, raw


def test_views_from_reflection_read_windows(device, queue):
    """No kind given: each view comes from the shader (stride 12, rgba32_float, raw). Windows of
    each buffer through first_element / num_elements, outputs written through windows too."""
    rs, pso = _views_pipeline(device)
    bufs, outs, structured, typed, raw = _buffers(device, queue)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, bufs["structured"], first_element=5, num_elements=N)
    cl.set_shader_resource_view(0, 1, bufs["typed"], first_element=3, num_elements=N)
    cl.set_shader_resource_view(0, 2, bufs["raw"], first_element=2, num_elements=N)
    cl.set_unordered_access_view(0, 3, outs[0], first_element=N, num_elements=N)
    cl.set_unordered_access_view(0, 4, outs[1], first_element=1, num_elements=N)
    cl.set_unordered_access_view(0, 5, outs[2])
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    got = [queue.read_buffer(o, dtype=np.float32) for o in outs]
    np.testing.assert_array_equal(got[0][N:], structured[5:5 + N, 1])
    np.testing.assert_array_equal(got[0][:N], 0)
    np.testing.assert_array_equal(got[1][1:1 + N], typed[3:3 + N, 2] + typed[3:3 + N, 3])
    assert got[1][0] == 0 and got[1][1 + N:].sum() == 0
    words = queue.read_buffer(outs[2], dtype=np.uint32)
    np.testing.assert_array_equal(words[:N], raw[2:2 + N] * 2)


def test_explicit_views_match_and_override(device, queue):
    """The same numbers with every kind given explicitly (stride=, format=, raw=True)."""
    rs, pso = _views_pipeline(device)
    bufs, outs, structured, typed, raw = _buffers(device, queue)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, bufs["structured"], stride=12, first_element=1, num_elements=N)
    cl.set_shader_resource_view(0, 1, bufs["typed"], format=dx.Format.RGBA32_FLOAT, num_elements=N)
    cl.set_shader_resource_view(0, 2, bufs["raw"], raw=True, first_element=N)
    cl.set_unordered_access_view(0, 3, outs[0], stride=4)
    cl.set_unordered_access_view(0, 4, outs[1], format="r32_float")
    cl.set_unordered_access_view(0, 5, outs[2], raw=True)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    np.testing.assert_array_equal(queue.read_buffer(outs[0], dtype=np.float32)[:N], structured[1:1 + N, 1])
    np.testing.assert_array_equal(queue.read_buffer(outs[1], dtype=np.float32)[:N], typed[:N, 2] + typed[:N, 3])
    np.testing.assert_array_equal(queue.read_buffer(outs[2], dtype=np.uint32)[:N], raw[N:] * 2)
    # An explicit format other than the declaration's wins (without validation): r32_float reads
    # (x, 0, 0, 1), so the shader's z + w is 1 for every element, not typed[:, 2] + typed[:, 3].
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, bufs["structured"], stride=12, num_elements=N)
    cl.set_shader_resource_view(0, 1, bufs["typed"], format="r32_float", num_elements=N)
    cl.set_shader_resource_view(0, 2, bufs["raw"], raw=True)
    cl.set_unordered_access_view(0, 3, outs[0], stride=4)
    cl.set_unordered_access_view(0, 4, outs[1], format="r32_float")
    cl.set_unordered_access_view(0, 5, outs[2], raw=True)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    np.testing.assert_array_equal(queue.read_buffer(outs[1], dtype=np.float32)[:N], np.ones(N, np.float32))


def test_view_arguments_refused(device, queue):
    rs, pso = _views_pipeline(device)
    bufs, outs, *_ = _buffers(device, queue)
    tex = device.create_texture2d(4, 4, "rgba8_unorm")
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    with pytest.raises(dx.InvalidArgumentError, match="choose different views"):
        cl.set_shader_resource_view(0, 0, bufs["structured"], stride=12, raw=True)
    with pytest.raises(dx.InvalidArgumentError, match="past the buffer"):
        cl.set_shader_resource_view(0, 0, bufs["structured"], first_element=3 * N)
    with pytest.raises(dx.InvalidArgumentError, match="exceed the buffer"):
        cl.set_shader_resource_view(0, 2, bufs["raw"], first_element=1, num_elements=2 * N)
    with pytest.raises(dx.InvalidArgumentError, match="apply to buffers"):
        cl.set_shader_resource_view(0, 0, tex, stride=4)
    with pytest.raises(dx.InvalidArgumentError, match="mip= applies to textures"):
        cl.set_shader_resource_view(0, 0, bufs["raw"], mip=0)
    with pytest.raises(dx.InvalidArgumentError, match="multiple of 4"):
        cl.set_shader_resource_view(0, 0, bufs["structured"], stride=6)
    with pytest.raises(dx.InvalidArgumentError, match="not a typed buffer format"):
        cl.set_shader_resource_view(0, 1, bufs["typed"], format="d32_float")
    with pytest.raises(TypeError, match="raw must be"):
        cl.set_shader_resource_view(0, 2, bufs["raw"], raw=1)
    with pytest.raises(dx.InvalidArgumentError, match="reads u0"):
        cl.set_shader_resource_view(0, 3, bufs["raw"])   # the shader reads a UAV at slot 3


def test_slot_no_shader_reads_waits_for_a_pipeline_that_does(device, queue):
    """No kind given where the bound pipeline does not read the slot: nothing to take it from, so
    the slot holds the null descriptor until a pipeline that reads it is bound (never a guess)."""
    rs = device.create_root_signature([dx.DescriptorTable([dx.UAV(0), dx.UAV(1)])])
    first = device.create_compute_pipeline(dx.compile_hlsl(
        "RWStructuredBuffer<uint> o : register(u0);\n[numthreads(1, 1, 1)] void main() { o[0] = 1; }", profile="cs_5_0"), rs)
    second = device.create_compute_pipeline(dx.compile_hlsl(
        "RWStructuredBuffer<uint2> p : register(u1);\n[numthreads(2, 1, 1)] void main(uint3 i : SV_DispatchThreadID) "
        "{ p[i.x] = uint2(7, 8 + i.x); }", profile="cs_5_0"), rs)
    a = device.create_buffer(16, uav=True)
    b = device.create_buffer(32, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(first)
    cl.set_unordered_access_view(0, 0, a)
    cl.set_unordered_access_view(0, 1, b, first_element=1)   # u1: first does not read it
    cl.dispatch(1)
    cl.set_pipeline_state(second)                             # b's view becomes structured, stride 8
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(a, dtype=np.uint32)[0] == 1
    np.testing.assert_array_equal(queue.read_buffer(b, dtype=np.uint32)[2:6], [7, 8, 7, 9])


def test_buffer_at_a_texture_slot_is_refused(device, queue):
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0), dx.UAV(0)])])
    pso = device.create_compute_pipeline(dx.compile_hlsl(
        "Texture2D<float4> t : register(t0);\nRWStructuredBuffer<float> o : register(u0);\n"
        "[numthreads(1, 1, 1)] void main() { o[0] = t.Load(int3(0, 0, 0)).x; }", profile="cs_5_0"), rs)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    with pytest.raises(dx.InvalidArgumentError, match="declares Texture2D 't' at t0 space0 there, which is not a buffer"):
        cl.set_shader_resource_view(0, 0, device.create_buffer(64), format="r32_float")


def test_validation_mode_names_register_and_kinds():
    """Device(validate=True): an explicit view unlike the shader's declaration raises, naming the
    register, what the shader declares and what was given. Without validation the caller's view wins."""
    dev = dx.Device(validate=True)
    q = dev.queue("direct")
    rs, pso = _views_pipeline(dev)
    b = dev.create_buffer(4 * 64, name="b")
    cl = q.command_list()
    cl.set_pipeline_state(pso)
    with pytest.raises(dx.InvalidArgumentError, match=r"StructuredBuffer 'sb' at t0 space0.*needs a structured view.*a raw view"):
        cl.set_shader_resource_view(0, 0, b, raw=True)
    with pytest.raises(dx.InvalidArgumentError, match=r"structure is 12 bytes.*stride 16"):
        cl.set_shader_resource_view(0, 0, b, stride=16)
    with pytest.raises(dx.InvalidArgumentError, match=r"Buffer<float4> 'tb' at t1 space0.*reads float elements.*rgba32_uint"):
        cl.set_shader_resource_view(0, 1, b, format="rgba32_uint")
    with pytest.raises(dx.InvalidArgumentError, match=r"ByteAddressBuffer 'rb'.*needs a raw view.*typed view"):
        cl.set_shader_resource_view(0, 2, b, format="r32_uint")
    cl.set_shader_resource_view(0, 1, b, format="rgba8_unorm")  # float-returning formats fit Buffer<float4>


# ---- point 5: only the root parameters a shader reads must be set ------------------------------

SHARED_RS = [dx.RootConstants(0, 2), dx.RootCBV(1), dx.DescriptorTable([dx.UAV(0)])]
USES_CBV_CS = """
cbuffer C : register(b0) { uint n; uint k; };
cbuffer D : register(b1) { uint extra; };
RWStructuredBuffer<uint> o : register(u0);
[numthreads(4, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { o[id.x] = id.x * k + n + extra; }
"""
IGNORES_CBV_CS = """
cbuffer C : register(b0) { uint n; uint k; };
RWStructuredBuffer<uint> o : register(u0);
[numthreads(4, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { o[id.x] = id.x * k + n; }
"""


def test_unread_root_parameter_may_stay_unset(device, queue):
    """A shared root signature (as MiniEngine's GenerateMips uses one): the pipeline whose shader
    ignores the root CBV dispatches without it; the one that reads it raises, naming it, until set."""
    rs = device.create_root_signature(SHARED_RS)
    ignores = device.create_compute_pipeline(dx.compile_hlsl(IGNORES_CBV_CS, profile="cs_5_0"), rs, name="ignores")
    uses = device.create_compute_pipeline(dx.compile_hlsl(USES_CBV_CS, profile="cs_5_0"), rs, name="uses")
    out = device.create_buffer(16, uav=True)
    cb = device.create_buffer(256)
    cl = queue.command_list()
    cl.upload(cb, np.array([100], np.uint32))
    cl.set_pipeline_state(ignores)
    cl.set_constants(0, [5, 3])
    cl.set_unordered_access_view(2, 0, out)
    cl.dispatch(1)                       # root parameter 1 unset: not read
    queue.wait(queue.execute(cl))
    np.testing.assert_array_equal(queue.read_buffer(out, dtype=np.uint32), [5, 8, 11, 14])

    cl = queue.command_list()
    cl.set_pipeline_state(uses)
    cl.set_constants(0, [5, 3])
    cl.set_unordered_access_view(2, 0, out)
    with pytest.raises(dx.InvalidArgumentError, match=r"root parameter 1 \(a root CBV\).*read by pipeline 'uses'"):
        cl.dispatch(1)
    cl.set_root_cbv(1, cb)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    np.testing.assert_array_equal(queue.read_buffer(out, dtype=np.uint32), [105, 108, 111, 114])


def test_read_root_constants_unset_still_raise(device, queue):
    rs = device.create_root_signature(SHARED_RS)
    pso = device.create_compute_pipeline(dx.compile_hlsl(IGNORES_CBV_CS, profile="cs_5_0"), rs)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_unordered_access_view(2, 0, device.create_buffer(16, uav=True))
    with pytest.raises(dx.InvalidArgumentError, match=r"root parameter 0 \(root constants\)"):
        cl.dispatch(1)


# ---- point 6: root-signature, descriptor-range and root-descriptor flags as enums ----------------

def test_flag_enums_have_d3d12_names_and_ints_still_work(device):
    F, R, D = dx.RootSignatureFlags, dx.DescriptorRangeFlags, dx.RootDescriptorFlags
    assert F.ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT == 0x1 and F.DENY_PIXEL_SHADER_ROOT_ACCESS == 0x20 and F.ALLOW_STREAM_OUTPUT == 0x40
    assert R.DESCRIPTORS_VOLATILE == 0x1 and R.DATA_VOLATILE == 0x2 and R.DATA_STATIC_WHILE_SET_AT_EXECUTE == 0x4 and R.DATA_STATIC == 0x8
    assert D.DATA_VOLATILE == 0x2 and D.DATA_STATIC == 0x8 and F.NONE == R.NONE == D.NONE == 0
    assert str(R.DESCRIPTORS_VOLATILE | R.DATA_STATIC) == "DESCRIPTORS_VOLATILE|DATA_STATIC"
    rng = dx.SRV(0, flags=R.DESCRIPTORS_VOLATILE | R.DATA_VOLATILE)
    assert rng.flags == 0x3 and isinstance(rng.flags, R)
    cbv = dx.RootCBV(0, flags=D.DATA_STATIC)
    assert cbv.flags is D.DATA_STATIC
    assert dx.RootCBV(0, flags=8) == cbv            # plain ints still accepted
    rs = device.create_root_signature([cbv, dx.DescriptorTable([rng])], flags=F.ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT | F.DENY_HULL_SHADER_ROOT_ACCESS)
    assert rs.num_parameters == 2


@pytest.mark.parametrize("make, match", [
    (lambda d: d.create_root_signature([], flags=0x400), "CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED is not supported"),
    (lambda d: d.create_root_signature([], flags=0x80), "LOCAL_ROOT_SIGNATURE is not supported"),
    (lambda d: d.create_root_signature([], flags=0x200), "DENY_MESH_SHADER_ROOT_ACCESS is not supported"),
    (lambda d: d.create_root_signature([], flags=0x1000), "bits 0x1000 are not D3D12 root signature flags"),
    (lambda d: dx.UAV(0, flags=0x10000), "DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS is not supported"),
    (lambda d: dx.SamplerRange(0, flags=dx.DescriptorRangeFlags.DATA_STATIC), "sampler range takes DESCRIPTORS_VOLATILE only"),
    (lambda d: dx.CBV(0, flags=0x2 | 0x8), "exclude each other"),
    (lambda d: dx.RootUAV(0, flags=0x1), "bits 0x1 are not D3D12 root descriptor flags"),
    (lambda d: d.create_root_signature("RootFlags(SAMPLER_HEAP_DIRECTLY_INDEXED)"), "column 11.*not supported"),
])
def test_flags_vkd3d_cannot_honour_are_refused_by_name(device, make, match):
    with pytest.raises(dx.InvalidArgumentError, match=match):
        make(device)


SWITCH_A = """
StructuredBuffer<float> src : register(t0);
RWStructuredBuffer<float> dst : register(u0);
[numthreads(4, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { dst[i.x] = src[i.x]; }
"""
SWITCH_B = """
StructuredBuffer<float2> src : register(t0);
RWStructuredBuffer<float> dst : register(u0);
[numthreads(4, 1, 1)] void main(uint3 i : SV_DispatchThreadID) { dst[i.x] = src[i.x].y; }
"""


def _switch_setup(device):
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0), dx.UAV(0)])])
    a = device.create_compute_pipeline(dx.compile_hlsl(SWITCH_A, profile="cs_5_0"), rs, name="a")
    b = device.create_compute_pipeline(dx.compile_hlsl(SWITCH_B, profile="cs_5_0"), rs, name="b")
    return a, b


def test_declared_views_follow_a_pipeline_switch(device, queue):
    """Views taken from pipeline a's declaration (stride 4) follow pipeline b's (stride 8) when b is
    bound under the same root signature: b reads float2 elements, not a's floats."""
    a, b = _switch_setup(device)
    data = np.arange(16, dtype=np.float32)
    src = device.create_buffer(data.nbytes)
    dst = device.create_buffer(16, uav=True)
    cl = queue.command_list()
    cl.upload(src, data)
    cl.set_pipeline_state(a)
    cl.set_shader_resource_view(0, 0, src)
    cl.set_unordered_access_view(0, 1, dst)
    cl.set_pipeline_state(b)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    np.testing.assert_array_equal(queue.read_buffer(dst, dtype=np.float32), data.reshape(8, 2)[:4, 1])


def test_validation_mode_checks_explicit_views_at_the_draw():
    """An explicit stride=4 kept across a switch to a pipeline declaring float2 (stride 8) raises at
    the dispatch in validation mode, naming the register and both kinds."""
    dev = dx.Device(validate=True)
    q = dev.queue("compute")
    a, b = _switch_setup(dev)
    src = dev.create_buffer(64)
    dst = dev.create_buffer(16, uav=True)
    cl = q.command_list()
    cl.set_pipeline_state(a)
    cl.set_shader_resource_view(0, 0, src, stride=4)
    cl.set_unordered_access_view(0, 1, dst)
    cl.set_pipeline_state(b)
    with pytest.raises(dx.InvalidArgumentError, match=r"dispatch \(root parameter 0, slot 0\).*'src' at t0 space0.*structure is 8 bytes"):
        cl.dispatch(1)


def test_buffer_uav_clears_float_through_a_typed_view_uint_through_raw(device, queue):
    """D3D12 allows ClearUnorderedAccessViewUint on a raw buffer view but the float clear needs a
    typed float view: a buffer's float clear writes values[0] as float32 into every 4 bytes."""
    b = device.create_buffer(64, uav=True, name="cleared")
    cl = queue.command_list()
    cl.clear_unordered_access_view(b, [-1.5, 9.0, 9.0, 9.0])
    queue.wait(queue.execute(cl))
    np.testing.assert_array_equal(queue.read_buffer(b, np.float32), np.full(16, -1.5, np.float32))
    cl = queue.command_list()
    cl.clear_unordered_access_view(b, [7, 9, 9, 9])
    queue.wait(queue.execute(cl))
    np.testing.assert_array_equal(queue.read_buffer(b, np.uint32), np.full(16, 7, np.uint32))
    tiny = device.create_buffer(2, uav=True, name="tiny")
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="'tiny' has 2 bytes"):
        cl.clear_unordered_access_view(tiny, [1.0, 0.0, 0.0, 0.0])
