"""Hostile arguments end in a clear exception naming what was wrong, never in a
crash or silent corruption (real device). Where the old behaviour crashed the process, the case
runs in a subprocess so a regression fails the test instead of killing pytest."""
from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import dx12kit as dx

# A compute shader writing root constant `v` (and v + 1 .. at the next words) into o[0..n).
CONSTANTS_CS = """
RWStructuredBuffer<uint> o : register(u0);
cbuffer C : register(b0) { uint a; uint b; };
[numthreads(1,1,1)] void main() { o[0] = a; o[1] = b; }
"""


def run_isolated(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter (same environment: venv, sanitizer preload...)."""
    env = dict(os.environ)
    prelude = "import os, tempfile\nos.environ.setdefault('XDG_RUNTIME_DIR', tempfile.mkdtemp())\n"
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout, env=env)


def assert_clean(r: subprocess.CompletedProcess, marker: str) -> None:
    assert r.returncode == 0, f"exit {r.returncode}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr[-3000:]}"
    assert marker in r.stdout, r.stdout + r.stderr[-3000:]


@pytest.fixture(scope="module")
def constants_pso(device):
    rs = device.create_root_signature([dx.RootConstants(0, 2), dx.RootUAV(0)])
    return device.create_compute_pipeline(dx.compile_hlsl(CONSTANTS_CS), rs)


# ------------------------------------------------------------------ item 1: 32-bit wrap of bounds


def test_set_constants_offset_that_wraps_is_refused_in_a_subprocess():
    r = run_isolated("""
        import dx12kit as dx
        dev = dx.Device(); q = dev.queue()
        rs = dev.create_root_signature([dx.RootConstants(0, 1), dx.RootUAV(0)])
        cs = dx.compile_hlsl("RWStructuredBuffer<uint> o : register(u0); cbuffer C : register(b0) { uint v; };"
                             "[numthreads(1,1,1)] void main() { o[0] = v; }")
        pso = dev.create_compute_pipeline(cs, rs)
        out = dev.create_buffer(256, uav=True)
        cl = q.command_list(); cl.set_pipeline_state(pso); cl.set_root_uav(1, out); cl.set_constants(0, [7])
        try:
            cl.set_constants(0, [0xDEAD], offset=2**32 - 1)
        except dx.InvalidArgumentError as e:
            assert "exceed the 1 constants" in str(e), e
            print("REFUSED")
        cl.dispatch(1); q.wait(q.execute(cl))
        import numpy as np
        assert int(q.read_buffer(out, dtype=np.uint32)[0]) == 7
        print("DEVICE OK")
    """)
    assert_clean(r, "REFUSED")
    assert "DEVICE OK" in r.stdout


@pytest.mark.parametrize("offset, count", [(1, 2), (2, 1), (2**32 - 1, 1), (2**32 - 2, 3), (2**32 - 1, 2)])
def test_set_constants_out_of_range_offsets_are_refused(queue, constants_pso, offset, count):
    cl = queue.command_list()
    cl.set_pipeline_state(constants_pso)
    with pytest.raises(dx.InvalidArgumentError, match="exceed the 2 constants"):
        cl.set_constants(0, [0] * count, offset=offset)


def test_set_constants_at_an_offset_writes_the_right_word(device, queue, constants_pso):
    out = device.create_buffer(256, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(constants_pso)
    cl.set_root_uav(1, out)
    cl.set_constants(0, [11, 22])
    cl.set_constants(0, [33], offset=1)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(out, dtype=np.uint32)[:2].tolist() == [11, 33]


def test_root_signature_sizes_do_not_wrap(device):
    # 2**32 - 1 + 2 DWORDs wrapped to 1 in 32-bit arithmetic and passed the 64-DWORD limit.
    with pytest.raises(dx.InvalidArgumentError, match="64-DWORD limit"):
        device.create_root_signature([dx.RootConstants(0, 2**32 - 1), dx.RootCBV(1)])
    with pytest.raises(dx.InvalidArgumentError, match=r"exceed 2\^32 descriptors|more than a table can"):
        device.create_root_signature([dx.DescriptorTable([dx.SRV(0, count=2**31), dx.SRV(0, count=2**31, space=1)])])


def test_upload_array_shape_products_do_not_wrap(queue):
    cl = queue.command_list()
    a = cl.allocate_upload(256)
    with pytest.raises(dx.InvalidArgumentError, match="shape larger than the allocation"):
        a.array(np.uint8, (2**32, 2**32))  # 2**64 wraps to 0 in 64 bits
    with pytest.raises(dx.InvalidArgumentError, match="shape larger than the allocation"):
        a.array(np.uint64, (2**61,))        # 2**61 * 8 wraps to 0
    with pytest.raises(dx.InvalidArgumentError, match="shape item"):
        a.array(np.uint8, (-1, -1))
    assert a.array(np.uint32, (8, 8)).shape == (8, 8)


def test_upload_alignment_larger_than_a_buffer_placement_is_refused(queue):
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="larger than 65536"):
        cl.allocate_upload(256, alignment=2**40)


# ------------------------------------------------------------------ item 3: strided bytecode, object dtypes


def test_bytecode_from_a_reversed_memoryview_is_copied_in_order(device, queue):
    shader = dx.compile_hlsl(CONSTANTS_CS)
    backwards = bytes(shader.bytecode)[::-1]
    view = memoryview(backwards)[::-1]  # non-contiguous; its elements are the bytecode in order
    assert not view.contiguous
    rs = device.create_root_signature([dx.RootConstants(0, 2), dx.RootUAV(0)])
    pso = device.create_compute_pipeline(view, rs)
    out = device.create_buffer(256, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_uav(1, out)
    cl.set_constants(0, [5, 6])
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(out, dtype=np.uint32)[:2].tolist() == [5, 6]


def test_bytecode_view_next_to_an_unmapped_page_does_not_read_past_it():
    # The old copy read len-1 bytes past the start of a reversed view: SIGSEGV at the unmapped page.
    r = run_isolated("""
        import ctypes, mmap
        import dx12kit as dx
        dev = dx.Device()
        rs = dev.create_root_signature([dx.RootUAV(0)])
        mm = mmap.mmap(-1, 8192)
        addr = ctypes.addressof(ctypes.c_char.from_buffer(mm))
        libc = ctypes.CDLL(None); libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        libc.munmap(ctypes.c_void_p(addr + 4096), 4096)
        view = memoryview(mm)[:4096][::-1]
        try:
            dev.create_compute_pipeline(view, rs)
        except dx.Dx12Error as e:
            print("REFUSED", type(e).__name__)
    """)
    assert_clean(r, "REFUSED")


OBJECT_DTYPES = [np.dtype(object), np.dtype([("a", np.int64), ("o", object)])]


@pytest.mark.parametrize("dtype", OBJECT_DTYPES, ids=["object", "struct-with-object"])
def test_object_dtypes_are_refused_where_raw_bytes_meet_numpy(device, queue, constants_pso, dtype):
    buf = device.create_buffer(64)
    with pytest.raises(dx.InvalidArgumentError, match="Python objects"):
        queue.read_buffer(buf, dtype=dtype)
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="Python objects"):
        cl.allocate_upload(256).array(dtype)
    objs = np.zeros(4, dtype=dtype)
    with pytest.raises(dx.InvalidArgumentError, match="Python objects"):
        cl.upload(buf, objs)
    cl.set_pipeline_state(constants_pso)
    with pytest.raises(dx.InvalidArgumentError, match="Python objects"):
        cl.set_constants(0, objs[:1] if dtype.fields else objs[:2])
    with pytest.raises(dx.InvalidArgumentError, match="Python objects"):
        cl.set_dynamic_structured_buffer(1, objs)
    with pytest.raises(dx.InvalidArgumentError, match="Python objects"):
        cl.upload(buf, memoryview(np.zeros(2, dtype=object)))  # 'O' buffer format, not a numpy array


def test_object_dtype_readback_no_longer_crashes():
    r = run_isolated("""
        import numpy as np, dx12kit as dx
        dev = dx.Device(); q = dev.queue()
        b = dev.create_buffer(64)
        cl = q.command_list(); cl.upload(b, np.full(8, 0x4141414141414141, np.uint64)); q.wait(q.execute(cl))
        for call in (lambda: q.read_buffer(b, dtype=object), lambda: q.command_list().allocate_upload(256).array(object)):
            try:
                a = call(); print(a[0])
            except dx.InvalidArgumentError:
                print("REFUSED")
    """)
    assert_clean(r, "REFUSED")
    assert r.stdout.count("REFUSED") == 2


# ------------------------------------------------------------------ item 7: large upload after a small one


def test_large_texture_upload_after_a_dynamic_constant_buffer(device, queue):
    rs = device.create_root_signature([dx.RootCBV(0), dx.RootUAV(0)])
    cs = dx.compile_hlsl("cbuffer C : register(b0) { uint v; }; RWStructuredBuffer<uint> o : register(u0);"
                         "[numthreads(1,1,1)] void main() { o[0] = v; }")
    pso = device.create_compute_pipeline(cs, rs)
    out = device.create_buffer(256, uav=True)
    tex = device.create_texture2d(1024, 1024, "rgba8_unorm")  # 4 MiB: twice the default 2 MiB page
    pixels = (np.arange(1024 * 1024 * 4, dtype=np.uint32) * 2654435761 >> 24).astype(np.uint8).reshape(1024, 1024, 4)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_dynamic_constant_buffer(0, np.array([1234], np.uint32))  # makes a current page
    cl.set_root_uav(1, out)
    cl.dispatch(1)
    cl.upload(tex, pixels)  # larger than that page: its own dedicated page
    queue.wait(queue.execute(cl))
    assert int(queue.read_buffer(out, dtype=np.uint32)[0]) == 1234
    np.testing.assert_array_equal(queue.read_texture(tex), pixels)


def test_large_buffer_upload_after_a_small_one_with_small_pages():
    dev = dx.Device(upload_page_size=64 << 10)
    q = dev.queue()
    big = (np.arange(3 * (64 << 10), dtype=np.uint32) * 7).astype(np.uint8)
    buf = dev.create_buffer(big.size)
    small = dev.create_buffer(256)
    cl = q.command_list()
    cl.upload(small, np.full(256, 9, np.uint8))
    cl.upload(buf, big)
    cl.upload(small, np.full(16, 3, np.uint8), offset=16)  # the small page stays current
    q.wait(q.execute(cl))
    np.testing.assert_array_equal(q.read_buffer(buf), big)
    expect = np.full(256, 9, np.uint8)
    expect[16:32] = 3
    np.testing.assert_array_equal(q.read_buffer(small), expect)
    dev.wait_idle()


# ------------------------------------------------------------------ item 8: formats


@pytest.mark.parametrize("fmt, why", [("rgba8_unorm_srgb", "sRGB"), ("bgra8_unorm_srgb", "sRGB"), ("bgra8_unorm", "typed unordered")])
def test_uav_textures_of_srgb_and_bgra_are_refused(device, fmt, why):
    with pytest.raises(dx.InvalidArgumentError, match=why):
        device.create_texture2d(4, 4, fmt, uav=True)
    device.create_texture2d(4, 4, fmt)  # without a UAV the format is fine


def test_srgb_work_through_a_unorm_uav_and_an_srgb_view(device, queue):
    # The way D3D12 allows: a UAV-capable rgba8_unorm texture, read through an sRGB view.
    tex = device.create_texture2d(4, 4, "rgba8_unorm", uav=True)
    cl = queue.command_list()
    cl.clear_unordered_access_view(tex, [1.0, 0.0, 1.0, 1.0])
    queue.wait(queue.execute(cl))
    assert queue.read_texture(tex)[0, 0].tolist() == [255, 0, 255, 255]
    assert not device.format_support("rgba8_unorm_srgb").typed_uav
    assert device.format_support("rgba8_unorm").typed_uav


LOAD_CS = ("Texture2D<float4> t : register(t0); RWStructuredBuffer<float4> o : register(u0);\n"
           "[numthreads(1,1,1)] void main() { o[0] = t.Load(int3(0,0,0)); }\n")


@pytest.fixture(scope="module")
def load_pso(device):
    rs = device.create_root_signature([dx.DescriptorTable([dx.SRV(0)]), dx.RootUAV(0)])
    return device.create_compute_pipeline(dx.compile_hlsl(LOAD_CS), rs)


def load_texel(device, queue, pso, tex, fmt):
    out = device.create_buffer(256, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_shader_resource_view(0, 0, tex, format=fmt)
    cl.set_root_uav(1, out)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    return queue.read_buffer(out, dtype=np.float32)[:4]


def test_srv_format_override_within_the_family_reads_through_that_format(device, queue, load_pso):
    tex = device.create_texture2d(4, 4, "rgba8_unorm")
    cl = queue.command_list()
    cl.upload(tex, np.full((4, 4, 4), 128, np.uint8))
    queue.wait(queue.execute(cl))
    unorm = load_texel(device, queue, load_pso, tex, None)
    srgb = load_texel(device, queue, load_pso, tex, "rgba8_unorm_srgb")
    np.testing.assert_allclose(unorm, [128 / 255] * 4, rtol=1e-6)
    decoded = ((128 / 255 + 0.055) / 1.055) ** 2.4  # sRGB -> linear; alpha is not converted
    # Implementations approximate the sRGB curve (lavapipe gives 0.21664): a tolerance, and far from unorm.
    np.testing.assert_allclose(srgb, [decoded, decoded, decoded, 128 / 255], rtol=1e-2)
    assert srgb[0] < 0.3 < unorm[0]


@pytest.mark.parametrize("fmt", ["rgba32_float", "r32_float", "d32_float", "bgra8_unorm", "rgba16_float"])
def test_srv_format_override_outside_the_family_is_refused(device, queue, load_pso, fmt):
    tex = device.create_texture2d(4, 4, "rgba8_unorm")
    cl = queue.command_list()
    cl.set_pipeline_state(load_pso)
    with pytest.raises(dx.InvalidArgumentError, match=f"format {fmt} is not compatible with resource .* of format rgba8_unorm"):
        cl.set_shader_resource_view(0, 0, tex, format=fmt)


def test_depth_texture_views_use_the_readable_format(device, queue, load_pso):
    d = device.create_texture2d(4, 4, "d32_float", depth_stencil=True)
    cl = queue.command_list()
    cl.clear_depth_stencil(d, depth=0.25)
    queue.wait(queue.execute(cl))
    for fmt in ("d32_float", "r32_float"):
        assert load_texel(device, queue, load_pso, d, fmt)[0] == pytest.approx(0.25)
    cl = queue.command_list()
    cl.set_pipeline_state(load_pso)
    with pytest.raises(dx.InvalidArgumentError, match="format rgba8_unorm is not compatible .* d32_float"):
        cl.set_shader_resource_view(0, 0, d, format="rgba8_unorm")
    buf = device.create_buffer(256)
    # format= on a buffer asks for a typed buffer view; the slot is a Texture2D here.
    with pytest.raises(dx.InvalidArgumentError, match="Texture2D .* which is not a buffer"):
        cl.set_shader_resource_view(0, 0, buf, format="r32_float")


def test_pipeline_target_formats_are_checked_by_kind(device):
    from .shaders import FULLSCREEN_VS

    ps = dx.compile_hlsl("float4 main() : SV_Target { return 1; }", profile="ps_5_0")
    uint_ps = dx.compile_hlsl("uint4 main() : SV_Target { return 1; }", profile="ps_5_0")
    vs = dx.compile_hlsl(FULLSCREEN_VS, profile="vs_5_0")
    rs = device.create_root_signature([])
    with pytest.raises(dx.InvalidArgumentError, match=r"rtv_formats\[0\] d32_float is a depth format"):
        device.create_graphics_pipeline(vs, ps, rs, ["d32_float"])
    with pytest.raises(dx.InvalidArgumentError, match="dsv_format rgba8_unorm is not a depth format"):
        device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], dsv_format="rgba8_unorm")
    with pytest.raises(dx.InvalidArgumentError, match="r32_uint is not blendable"):
        device.create_graphics_pipeline(vs, uint_ps, rs, ["r32_uint"], blend="alpha")
    device.create_graphics_pipeline(vs, uint_ps, rs, ["r32_uint"])
    device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], dsv_format="d32_float", depth_test=True, blend="alpha")


def test_format_support_reports_the_device(device):
    names = ["buffer", "texture2d", "texture3d", "texture_cube", "shader_load", "shader_sample", "render_target", "blendable",
             "depth_stencil", "typed_uav", "uav_typed_load", "uav_typed_store", "mip_autogen"]
    s = device.format_support("rgba8_unorm")
    for n in names:
        assert isinstance(getattr(s, n), bool), n
    assert s.texture2d and s.render_target and s.blendable and s.typed_uav and not s.depth_stencil
    assert 1 in s.msaa and all(isinstance(c, int) for c in s.msaa)
    d = device.format_support(dx.Format.D32_FLOAT)
    assert d.depth_stencil and not d.render_target and not d.typed_uav
    assert not device.format_support("rgba8_unorm_srgb").typed_uav
    assert device.format_support("rgba8_unorm_srgb").mip_autogen  # through rgba8_unorm, its UAV-capable partner
    assert "rgba8_unorm" in repr(s)
    with pytest.raises(dx.InvalidArgumentError, match="unknown format 'rgba9_unorm'; did you mean 'rgba8_unorm'"):
        device.format_support("rgba9_unorm")


# ------------------------------------------------------------------ item 15: every bad argument named


def _cases(device, queue):
    cl = queue.command_list()
    tex = device.create_texture2d(4, 4)
    buf = device.create_buffer(64, uav=True)
    return cl, tex, buf


BAD_CALLS = [
    # (description, call(device, queue, cl, tex, buf), exception, message fragment naming the argument)
    ("set_constants value 2**64", lambda d, q, cl, t, b: cl.set_constants(0, [2**64]), dx.InvalidArgumentError, "set_constants: values item"),
    ("set_constants offset -1", lambda d, q, cl, t, b: cl.set_constants(0, [1], offset=-1), dx.InvalidArgumentError, "set_constants: offset -1"),
    ("set_constants values str item", lambda d, q, cl, t, b: cl.set_constants(0, ["x"]), TypeError, "set_constants: values must be ints or floats"),
    ("uav clear -1", lambda d, q, cl, t, b: cl.clear_unordered_access_view(b, [-1, 0, 0, 0]), dx.InvalidArgumentError,
     "clear_unordered_access_view: values item -1"),
    ("create_buffer name=123", lambda d, q, cl, t, b: d.create_buffer(16, name=123), TypeError, "create_buffer: name must be a str"),
    ("create_buffer -1", lambda d, q, cl, t, b: d.create_buffer(-1), dx.InvalidArgumentError, "create_buffer: size -1 is out of range"),
    ("create_buffer 1.5", lambda d, q, cl, t, b: d.create_buffer(1.5), TypeError, "create_buffer: size must be an int, not float"),
    ("create_buffer heap=9", lambda d, q, cl, t, b: d.create_buffer(16, heap=9), TypeError, "create_buffer: heap"),
    ("create_texture2d format 2**40", lambda d, q, cl, t, b: d.create_texture2d(4, 4, 2**40), dx.InvalidArgumentError,
     "create_texture2d: unsupported format 1099511627776"),
    ("create_texture2d width 2**32", lambda d, q, cl, t, b: d.create_texture2d(2**32, 4), dx.InvalidArgumentError, "create_texture2d: width"),
    ("create_texture2d format 1.0", lambda d, q, cl, t, b: d.create_texture2d(4, 4, 1.0), TypeError, "create_texture2d: a format is a str"),
    ("srv mip -1", lambda d, q, cl, t, b: cl.set_shader_resource_view(0, 0, t, mip=-1), dx.InvalidArgumentError, "set_shader_resource_view: mip -1"),
    ("sampler filter 2**40", lambda d, q, cl, t, b: d.create_sampler(filter=2**40), dx.InvalidArgumentError, "create_sampler: filter"),
    ("sampler filter 424242", lambda d, q, cl, t, b: d.create_sampler(filter=424242), dx.InvalidArgumentError, "create_sampler: filter"),
    ("sampler address -3", lambda d, q, cl, t, b: d.create_sampler(address=-3), dx.InvalidArgumentError, "create_sampler: address"),
    ("sampler filter 1.5", lambda d, q, cl, t, b: d.create_sampler(filter=1.5), TypeError, "create_sampler: filter"),
    ("RootCBV visibility 12345", lambda d, q, cl, t, b: dx.RootCBV(0, visibility=12345), dx.InvalidArgumentError, "RootCBV: visibility"),
    ("StaticSampler filter 999999", lambda d, q, cl, t, b: dx.StaticSampler(0, filter=999999), dx.InvalidArgumentError, "StaticSampler: filter"),
    ("StaticSampler address 77", lambda d, q, cl, t, b: dx.StaticSampler(0, address=77), dx.InvalidArgumentError, "StaticSampler: address"),
    ("SRV register -1", lambda d, q, cl, t, b: dx.SRV(-1), dx.InvalidArgumentError, "SRV: register -1"),
    ("RootConstants count 2**32", lambda d, q, cl, t, b: dx.RootConstants(0, 2**32), dx.InvalidArgumentError, "RootConstants: count"),
    ("array shape (-1, -1)", lambda d, q, cl, t, b: cl.allocate_upload(256).array(np.uint8, (-1, -1)), dx.InvalidArgumentError,
     "UploadAllocation.array: shape item -1"),
    ("read_buffer dtype complex512", lambda d, q, cl, t, b: q.read_buffer(b, dtype="complex512"), TypeError, "read_buffer: dtype"),
    ("read_texture mip -1", lambda d, q, cl, t, b: q.read_texture(t, mip=-1), dx.InvalidArgumentError, "read_texture: mip -1"),
    ("execute(None)", lambda d, q, cl, t, b: q.execute(None), TypeError, "execute: command_lists"),
    ("upload(None, ...)", lambda d, q, cl, t, b: cl.upload(None, np.zeros(4, np.uint8)), TypeError, "upload: None is not a resource"),
    ("upload(42, ...)", lambda d, q, cl, t, b: cl.upload(42, np.zeros(4, np.uint8)), TypeError, "upload: expected a dx12kit Buffer"),
    ("dispatch -1", lambda d, q, cl, t, b: cl.dispatch(-1), dx.InvalidArgumentError, "dispatch: x -1"),
    ("draw 'three'", lambda d, q, cl, t, b: cl.draw("three"), TypeError, "draw: vertex_count must be an int"),
    ("draw_indexed base_vertex 2**31", lambda d, q, cl, t, b: cl.draw_indexed(3, base_vertex=2**31), dx.InvalidArgumentError,
     "draw_indexed: base_vertex"),
    ("set_scissor 2**31", lambda d, q, cl, t, b: cl.set_scissor(0, 0, 2**31, 4), dx.InvalidArgumentError, "set_scissor: right"),
    ("set_viewport 'x'", lambda d, q, cl, t, b: cl.set_viewport("x", 0, 4, 4), TypeError, "set_viewport: x must be a number"),
    ("clear_render_target 3 values", lambda d, q, cl, t, b: cl.clear_render_target(t, [1, 2, 3]), dx.InvalidArgumentError,
     "clear_render_target: rgba needs 4 values"),
    ("clear_depth_stencil stencil 256", lambda d, q, cl, t, b: cl.clear_depth_stencil(t, stencil=256), dx.InvalidArgumentError,
     "clear_depth_stencil: stencil 256"),
    ("Device upload_page_size 0", lambda d, q, cl, t, b: dx.Device(upload_page_size=0), dx.InvalidArgumentError, "upload_page_size"),
    ("Device descriptor_heap_size -5", lambda d, q, cl, t, b: dx.Device(descriptor_heap_size=-5), dx.InvalidArgumentError,
     "Device: descriptor_heap_size -5"),
    ("transition_barrier subresource -1", lambda d, q, cl, t, b: cl.transition_barrier(t, dx.ResourceState.COPY_DEST, -1),
     dx.InvalidArgumentError, "transition_barrier: subresource -1"),
    ("global_state subresource 2**33", lambda d, q, cl, t, b: t.global_state(2**33), dx.InvalidArgumentError, "global_state: subresource"),
]


@pytest.mark.parametrize("what, call, exc, fragment", BAD_CALLS, ids=[c[0] for c in BAD_CALLS])
def test_bad_arguments_raise_typeerror_or_invalidargument_naming_them(device, queue, what, call, exc, fragment):
    cl, tex, buf = _cases(device, queue)
    with pytest.raises(exc) as info:
        call(device, queue, cl, tex, buf)
    assert fragment in str(info.value)
    if exc is not TypeError:
        assert isinstance(info.value, dx.Dx12Error)


def test_valid_ints_for_enum_choices_and_numpy_integers_are_accepted(device, queue):
    # D3D12_FILTER_MIN_MAG_MIP_POINT = 0, D3D12_TEXTURE_ADDRESS_MODE_WRAP = 1: the enum's own values.
    device.create_sampler(filter=0, address=1)
    dx.StaticSampler(0, filter=0x15, address=3, visibility=5)  # D3D12_SHADER_VISIBILITY_PIXEL
    buf = device.create_buffer(np.uint32(256), uav=True)
    assert buf.size == 256
    cl = queue.command_list()
    cl.clear_unordered_access_view(buf, [np.uint32(7), 7, 7, 7])
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(buf, dtype=np.uint32)[:4].tolist() == [7, 7, 7, 7]


@pytest.mark.parametrize("blend, topology, cull, match", [
    (1, "triangle", "none", "blend"), ("none", 99, "none", "topology"), ("none", "triangle", 7, "cull"),
    ("mix", "triangle", "none", "blend"), ("none", "hexagon", "none", "topology")])
def test_pipeline_choices_are_checked(device, blend, topology, cull, match):
    from .shaders import FULLSCREEN_VS

    vs = dx.compile_hlsl(FULLSCREEN_VS, profile="vs_5_0")
    with pytest.raises(dx.InvalidArgumentError, match=f"create_graphics_pipeline: {match}"):
        device.create_graphics_pipeline(vs, None, device.create_root_signature([]), ["rgba8_unorm"], blend=blend, topology=topology, cull=cull)


@pytest.mark.parametrize("depth", [5.0, -0.1, math.nan, math.inf])
def test_depth_clears_outside_0_1_are_refused(device, queue, depth):
    d = device.create_texture2d(4, 4, "d32_float", depth_stencil=True)
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="clear_depth_stencil: depth must be in"):
        cl.clear_depth_stencil(d, depth=depth)


def test_depth_clear_inside_0_1_reads_back(device, queue):
    d = device.create_texture2d(4, 4, "d32_float", depth_stencil=True)
    cl = queue.command_list()
    cl.clear_depth_stencil(d, depth=0.75)
    queue.wait(queue.execute(cl))
    assert queue.read_texture(d)[0, 0].tolist() == [0.75]


@pytest.mark.parametrize("args, match", [
    ((0, 0, math.nan, 4), "width must be finite"), ((0, 0, -1, 4), "width and height must be >= 0"),
    ((0, 0, 4, 4, 0.8, 0.2), "min_depth <= max_depth"), ((0, 0, 4, 4, 0.0, 1.5), "max_depth <= 1"),
    ((0, 0, 4, 4, -0.5, 1.0), "0 <= min_depth"), ((-40000, 0, 4, 4), "within"), ((0, 0, 40000, 4), "within")])
def test_bad_viewports_are_refused(queue, args, match):
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match=match):
        cl.set_viewport(*args)
    cl.set_viewport(0, 0, 4, 4, 0.0, 1.0)


def test_inverted_scissor_is_refused(queue):
    with pytest.raises(dx.InvalidArgumentError, match="left <= right"):
        queue.command_list().set_scissor(4, 0, 0, 4)


def test_more_than_2032_static_samplers_are_refused(device):
    with pytest.raises(dx.InvalidArgumentError, match="2033 static samplers exceed D3D12's limit of 2032"):
        device.create_root_signature([], static_samplers=[dx.StaticSampler(i) for i in range(2033)])


def test_input_accepted_silently_repro_now_refuses(device, queue):
    # The non-queue parts of repro_input_accepted_silently.py.
    with pytest.raises(dx.InvalidArgumentError):
        device.create_sampler(filter=424242, address=-3)
    with pytest.raises(dx.InvalidArgumentError):
        device.create_root_signature([dx.RootCBV(0, visibility=12345)])
    d = device.create_texture2d(4, 4, "d32_float", depth_stencil=True)
    with pytest.raises(dx.InvalidArgumentError):
        queue.command_list().clear_depth_stencil(d, depth=5.0)
    with pytest.raises(dx.InvalidArgumentError):
        queue.command_list().set_viewport(0, 0, float("nan"), -1)


# ------------------------------------------------------------------ item 16: replay and the caller's array


def test_replay_reads_a_private_copy_of_the_trace():
    # A thread keeps changing the caller's ops array while replay() runs without the GIL: the sizes
    # of the first and the last allocation flip together between 16 and 32 (one assignment of a
    # scalar to a two-element strided view: numpy keeps the GIL for so few items, so every snapshot
    # of the array is a valid, consistent trace; a fancy-index assignment releases the GIL between
    # its elements and made this test flaky). On a Linear allocator each offset is the sum of the sizes before it, so the result
    # shows which sizes replay saw: with a private copy both are the same, read from one snapshot.
    r = run_isolated("""
        import threading, numpy as np
        from dx12kit import alloc
        n = 1_000_000
        ops = np.zeros((n, 3), np.int64)
        ops[:, 1] = -1; ops[:, 2] = 16
        both = ops[0:n - 1:n - 2, 2]  # rows 0 and n - 2
        assert both.size == 2
        inconsistent = 0
        for round in range(5):
            both[...] = 16
            go = threading.Event(); done = threading.Event()
            def vandal():
                go.set()
                flip = 0
                while not done.is_set():
                    both[...] = 16 if flip else 32
                    flip ^= 1
            t = threading.Thread(target=vandal); t.start(); go.wait()
            got = alloc.replay(alloc.Linear(1 << 40), ops, record_offsets=True)
            done.set(); t.join()
            off = got["offsets"]
            first, last = int(off[1] - off[0]), int(off[n - 1] - off[n - 2])
            assert first in (16, 32) and last in (16, 32), (first, last)
            inconsistent += first != last
        print("INCONSISTENT", inconsistent)
    """)
    assert_clean(r, "INCONSISTENT")
    assert "INCONSISTENT 0" in r.stdout, r.stdout


def test_compile_hlsl_refuses_text_that_is_not_unicode():
    import dx12kit as dx

    with pytest.raises(dx.InvalidArgumentError, match="not valid Unicode"):
        dx.compile_hlsl("// \ud800\n[numthreads(1,1,1)] void main() {}")
