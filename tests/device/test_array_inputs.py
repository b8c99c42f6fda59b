""""nothing lies": numpy data in the other byte order, dtypes the buffer protocol cannot
export, arguments that disagree or are ignored, and values that print as bare numbers (real device).
Each ends in the right result or a clear exception of the documented kind."""
from __future__ import annotations

import collections.abc
import os
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest

import dx12kit as dx

# Root constants a, b, c, d copied to o[0..3].
CONSTANTS_CS = """
RWStructuredBuffer<uint> o : register(u0);
cbuffer C : register(b0) { uint a; uint b; uint c; uint d; };
[numthreads(1,1,1)] void main() { o[0] = a; o[1] = b; o[2] = c; o[3] = d; }
"""


def upload_and_read(queue, res, array, dtype=None):
    cl = queue.command_list()
    cl.upload(res, array)
    queue.wait(queue.execute(cl))
    if isinstance(res, dx.Texture):
        return queue.read_texture(res)
    return queue.read_buffer(res, dtype=dtype)


# ---- byte order: converted on the way in ---------------------------------------------------------


@pytest.mark.parametrize("dtype", [">u2", ">i4", ">f4", ">u8", ">f8", "<u4"])
def test_buffer_upload_of_either_byte_order_keeps_the_values(device, queue, dtype):
    values = np.array([0, 1, 300, 65535 if np.dtype(dtype).kind == "u" else -7, 12, 13, 14, 15]).astype(dtype)
    buf = device.create_buffer(values.nbytes)
    got = upload_and_read(queue, buf, values, dtype=np.dtype(dtype).newbyteorder("="))
    assert np.array_equal(got, values) and got.dtype.isnative


def test_texture_upload_of_big_endian_keeps_the_values(device, queue):
    tex = device.create_texture2d(4, 4, "rgba16_unorm")
    a = np.arange(64, dtype=np.uint16).reshape(4, 4, 4) * 1000 + 300
    got = upload_and_read(queue, tex, a.astype(">u2"))
    assert np.array_equal(got, a)
    tex32 = device.create_texture2d(4, 4, "r32_float")
    f = np.linspace(-1, 1, 16, dtype=np.float32).reshape(4, 4)
    assert np.array_equal(upload_and_read(queue, tex32, f.astype(">f4"))[..., 0], f)


def test_big_endian_structured_and_memoryview_uploads_keep_the_values(device, queue):
    rec = np.array([(1, 2.5), (300, -1.0)], dtype=[("i", ">u4"), ("f", ">f4")])
    buf = device.create_buffer(rec.nbytes)
    got = upload_and_read(queue, buf, rec, dtype=[("i", "<u4"), ("f", "<f4")])
    assert got["i"].tolist() == [1, 300] and got["f"].tolist() == [2.5, -1.0]
    view = memoryview(np.arange(4, dtype=">u4"))
    assert view.format == ">I"
    buf2 = device.create_buffer(16)
    assert upload_and_read(queue, buf2, view, dtype=np.uint32).tolist() == [0, 1, 2, 3]


def test_upload_at_an_offset_and_non_contiguous_big_endian(device, queue):
    buf = device.create_buffer(32)
    cl = queue.command_list()
    cl.upload(buf, np.zeros(8, np.uint32))
    cl.upload(buf, np.array([7, 8], ">u4"), offset=8)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(buf, np.uint32).tolist() == [0, 0, 7, 8, 0, 0, 0, 0]
    with pytest.raises(dx.InvalidArgumentError, match="not C-contiguous"):
        queue.command_list().upload(buf, np.arange(16, dtype=">u4")[::2])


def test_set_constants_from_a_big_endian_array(device, queue):
    rs = device.create_root_signature([dx.RootConstants(0, 4), dx.RootUAV(0)])
    pso = device.create_compute_pipeline(dx.compile_hlsl(CONSTANTS_CS), rs)
    out = device.create_buffer(16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_uav(1, out)
    cl.set_constants(0, np.array([1, 300, 70000, 2**31], ">u4"))
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(out, np.uint32).tolist() == [1, 300, 70000, 2**31]
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_uav(1, out)
    cl.set_constants(0, np.array([1.5, -2.0, 0.0, 3.25], ">f4"))
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(out, np.float32).tolist() == [1.5, -2.0, 0.0, 3.25]


@pytest.mark.parametrize("values,dtype,want", [
    (np.array([1.5, -2.0, 0.0, 3.25]), np.float32, [1.5, -2.0, 0.0, 3.25]),            # numpy's default float64
    (np.array([1.5, -2.0, 0.5, 8.0], np.float16), np.float32, [1.5, -2.0, 0.5, 8.0]),
    (np.array([1, -2, 70000, 2**31 - 1]), np.int32, [1, -2, 70000, 2**31 - 1]),        # int64
    (np.array([1, 2, 3, 4], np.uint8), np.uint32, [1, 2, 3, 4]),
    (np.array([True, False, True, True]), np.uint32, [1, 0, 1, 1]),
    (np.float64(1.5), np.float32, [1.5, 0, 0, 0]),
], ids=["float64", "float16", "int64", "uint8", "bool", "np.float64-scalar"])
def test_set_constants_converts_numpy_values_to_32_bits(device, queue, values, dtype, want):
    """Constants are values: a float64 1.5 is the float 1.5 in the shader, not two DWORDs of its bits."""
    rs = device.create_root_signature([dx.RootConstants(0, 4), dx.RootUAV(0)])
    pso = device.create_compute_pipeline(dx.compile_hlsl(CONSTANTS_CS), rs)
    out = device.create_buffer(16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_root_uav(1, out)
    cl.set_constants(0, np.zeros(4, np.uint32))
    cl.set_constants(0, values)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(out, dtype).tolist() == want


@pytest.mark.parametrize("values", [np.array([2**32]), np.array([-1], np.int64).astype(np.uint64) // 2,
                                    np.array([1 + 2j]), np.array(["a"])])
def test_set_constants_refuses_values_that_are_not_32_bit_numbers(queue, values):
    with pytest.raises(dx.InvalidArgumentError, match="set_constants"):
        queue.command_list().set_constants(0, values)


def test_read_buffer_refuses_a_datetime_dtype(device, queue):
    buf = device.create_buffer(64)
    with pytest.raises(dx.InvalidArgumentError, match="datetime"):
        queue.read_buffer(buf, dtype="M8[s]")


def test_dynamic_structured_buffer_from_big_endian(device, queue):
    rs = device.create_root_signature([dx.RootSRV(0), dx.RootUAV(0)])
    cs = dx.compile_hlsl("StructuredBuffer<uint> i : register(t0); RWStructuredBuffer<uint> o : register(u0);\n"
                         "[numthreads(4,1,1)] void main(uint3 t : SV_DispatchThreadID) { o[t.x] = i[t.x]; }")
    pso = device.create_compute_pipeline(cs, rs)
    out = device.create_buffer(16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_dynamic_structured_buffer(0, np.array([5, 6, 300, 70000], ">u4"))
    cl.set_root_uav(1, out)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(out, np.uint32).tolist() == [5, 6, 300, 70000]


# ---- byte order: refused where arrays receive or view raw GPU bytes ---------------------------------


def test_big_endian_dtypes_are_refused_for_raw_gpu_bytes(device, queue):
    buf = device.create_buffer(16)
    with pytest.raises(dx.InvalidArgumentError, match=r"read_buffer: dtype .*>u4.* byte order"):
        queue.read_buffer(buf, dtype=">u4")
    with pytest.raises(dx.InvalidArgumentError, match=r"read_buffer: out: dtype .*>u4.* byte order"):
        queue.read_buffer(buf, out=np.zeros(4, ">u4"))
    up = device.create_buffer(16, heap="upload")
    with pytest.raises(dx.InvalidArgumentError, match=r"map: dtype .*>f4.* byte order"):
        up.map(">f4")
    with pytest.raises(dx.InvalidArgumentError, match=r"UploadAllocation.array: dtype .*>u2.* byte order"):
        queue.command_list().allocate_upload(64).array(">u2")
    assert up.map("<u4").shape == (4,)   # the native order is fine, spelled either way


# ---- dtypes the buffer protocol cannot export ----------------------------------------------------


@pytest.mark.parametrize("dtype", ["datetime64[s]", "timedelta64[ms]"])
def test_datetime_uploads_are_invalid_argument_naming_the_dtype(device, queue, dtype):
    buf = device.create_buffer(4096)
    with pytest.raises(dx.InvalidArgumentError, match=rf"upload: .*dtype {dtype.replace('[', '.').replace(']', '.')}"):
        queue.command_list().upload(buf, np.arange(512).astype(dtype))
    # The documented way round it: its int64 view.
    got = upload_and_read(queue, buf, np.arange(512).astype(dtype).view(np.int64), dtype=np.int64)
    assert got.tolist() == list(range(512))


def test_datetime_set_constants_is_invalid_argument(queue):
    with pytest.raises(dx.InvalidArgumentError, match="set_constants: .*datetime64"):
        queue.command_list().set_constants(0, np.arange(2).astype("datetime64[s]"))


# ---- read_buffer(dtype=, out=) -----------------------------------------------------------------------


def test_read_buffer_dtype_that_disagrees_with_out_is_refused(device, queue):
    buf = device.create_buffer(16)
    upload_and_read(queue, buf, np.array([1, 2, 3, 4], np.uint32))
    with pytest.raises(dx.InvalidArgumentError, match="dtype uint32 disagrees with out's dtype float32"):
        queue.read_buffer(buf, np.uint32, out=np.zeros(4, np.float32))
    out = np.zeros(4, np.uint32)
    assert queue.read_buffer(buf, np.uint32, out=out) is out and out.tolist() == [1, 2, 3, 4]
    out = np.zeros(4, np.uint32)
    assert queue.read_buffer(buf, out=out) is out and out.tolist() == [1, 2, 3, 4]
    assert queue.read_buffer(buf).dtype == np.uint8 and queue.read_buffer(buf).size == 16  # default dtype


# ---- create_buffer(pool=, heap=) ---------------------------------------------------------------------


def test_heap_that_disagrees_with_the_pool_or_memory_is_refused(device):
    pool = device.create_pool(heap="upload")
    with pytest.raises(dx.InvalidArgumentError, match="heap 'default' differs from the pool's heap 'upload'"):
        device.create_buffer(4096, pool=pool, heap="default")
    with pytest.raises(dx.InvalidArgumentError, match="heap 'default' differs from the pool's heap 'upload'"):
        device.create_buffer(4096, pool=pool, heap=dx.HeapType.DEFAULT)
    assert device.create_buffer(4096, pool=pool).allocation["heap_type"] == "upload"
    assert device.create_buffer(4096, pool=pool, heap="upload").allocation["heap_type"] == "upload"
    with pytest.raises(dx.InvalidArgumentError, match="differs from the pool's heap"):
        device.create_texture2d(8, 8, pool=pool, heap="default")
    with pytest.raises(dx.InvalidArgumentError, match="differs from the pool's heap"):
        device.allocate_memory(65536, pool=pool, heap="readback")
    mem = device.allocate_memory(65536, heap="upload")
    with pytest.raises(dx.InvalidArgumentError, match="heap 'default' differs from the heap of memory="):
        device.create_buffer(4096, memory=mem, heap="default")
    assert device.create_buffer(4096, memory=mem, heap="upload").allocation["heap_type"] == "upload"
    # 'default' buffers of the default pools live in CPU-visible memory with uma_direct (the default on UMA)
    assert device.create_buffer(4096).allocation["heap_type"] == ("custom" if device.uma_direct else "default")


# ---- DX12KIT_COPY_THREADS ------------------------------------------------------------------------------


@pytest.mark.parametrize("value, ok", [("abc", False), ("0", False), ("65", False), ("2x", False), ("-1", False),
                                       ("3", True), (" 2 ", True), ("", True)])
def test_copy_threads_variable_is_checked(value, ok):
    code = ("import dx12kit as dx\n"
            "try:\n    dx.Device(); print('DEVICE', dx.copy_threads())\n"
            "except dx.InvalidArgumentError as e:\n    print('ERROR', e)\n")
    env = dict(os.environ, DX12KIT_COPY_THREADS=value)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    if ok:
        expect = value.strip()
        assert r.stdout.startswith("DEVICE") and (not expect or r.stdout.split()[1] == expect), r.stdout
    else:
        assert f"ERROR DX12KIT_COPY_THREADS='{value}' is not a number of copy threads 1..64" in r.stdout, r.stdout


# ---- formats and enums that print as numbers -------------------------------------------------------------


def test_format_unknown_is_named(device):
    with pytest.raises(dx.InvalidArgumentError, match=r"format_support: Format.UNKNOWN \(0, DXGI_FORMAT_UNKNOWN\)") as e:
        device.format_support(dx.Format.UNKNOWN)
    assert "format 0" not in str(e.value)
    with pytest.raises(dx.InvalidArgumentError, match=r"Format.UNKNOWN"):
        device.create_texture2d(4, 4, dx.Format.UNKNOWN)


def test_enums_print_as_names(device, queue):
    assert str(dx.Format.RGBA8_UNORM) == "RGBA8_UNORM"
    assert f"{dx.Format.R32_FLOAT}" == "R32_FLOAT" and "{}".format(dx.Format.RGBA8_UNORM) == "RGBA8_UNORM"
    assert f"{dx.Format.RGBA8_UNORM:d}" == str(int(dx.Format.RGBA8_UNORM))   # a spec formats the number
    assert int(dx.Format.RGBA8_UNORM) == 28 and dx.Format.RGBA8_UNORM == 28
    assert str(dx.ResourceState.COPY_DEST) == "COPY_DEST" and str(dx.ResourceState.COMMON) == "COMMON"
    both = dx.ResourceState.COPY_SOURCE | dx.ResourceState.PIXEL_SHADER_RESOURCE
    assert set(str(both).split("|")) == {"COPY_SOURCE", "PIXEL_SHADER_RESOURCE"}
    buf = device.create_buffer(64)
    upload_and_read(queue, buf, np.zeros(16, np.uint32))
    state = buf.global_state()
    assert isinstance(state, dx.ResourceState) and str(state) == state.name and not str(state).isdigit()
    tex = device.create_texture2d(4, 4)
    assert str(tex.format) == "RGBA8_UNORM"
    for cls in (dx.Format, dx.ResourceState):
        for member in cls:
            assert str(member) == member.name, (cls, member)
    for cls in (dx.HeapType, dx.QueueKind, dx.Filter):       # the str enums print as their (lower-case) values
        for member in cls:
            assert str(member) == member.value


def test_format_support_is_a_read_only_mapping(device):
    fs = device.format_support("rgba8_unorm")
    assert isinstance(fs, collections.abc.Mapping)
    d = fs.as_dict()
    assert dict(fs) == d and fs == d and d == fs and not (fs != d)
    assert fs == device.format_support(dx.Format.RGBA8_UNORM)
    assert fs != {**d, "render_target": not d["render_target"]} and fs != {"buffer": d["buffer"]}
    assert fs != 5 and fs != [("buffer", d["buffer"])]
    assert fs.get("render_target") is fs.render_target is True
    assert fs.get("nope") is None and fs.get("nope", 7) == 7
    assert list(fs.items()) == list(d.items()) and list(fs.values()) == list(d.values()) and list(fs.keys()) == list(d)
    assert fs["msaa"] == fs.msaa and 1 in fs.msaa and len(fs) == len(d) and "msaa" in fs
    assert fs.format == "rgba8_unorm"
    with pytest.raises(KeyError):
        fs["nope"]
    with pytest.raises(TypeError):
        fs["buffer"] = False  # type: ignore[index]
    with pytest.raises(TypeError):
        hash(fs)


# ---- 16-bit colour PNGs --------------------------------------------------------------------------------


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def write_png16(path, pixels: np.ndarray, interlace: bool = False) -> None:
    """A 16-bit PNG written by hand (Pillow cannot write 16-bit colour PNGs): colour type 0 (grey),
    4 (grey+alpha), 2 (RGB) or 6 (RGBA) by channel count; rows filtered by turns with None, Sub and
    Up (interlace=False) or Adam7-interlaced without filters."""
    h, w, c = pixels.shape
    colour = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    bpp = 2 * c
    rows = []
    if interlace:
        for x0, y0, dx_, dy in ADAM7:
            xs = list(range(x0, w, dx_))
            for y in range(y0, h, dy) if xs else ():
                rows.append(b"\x00" + pixels[y, xs].astype(">u2").tobytes())
    else:
        prev = np.zeros(w * bpp, np.int32)
        for y in range(h):
            raw = np.frombuffer(pixels[y].astype(">u2").tobytes(), np.uint8).astype(np.int32)
            kind = y % 3  # none, sub, up
            if kind == 1:
                left = np.concatenate([np.zeros(bpp, np.int32), raw[:-bpp]])
                line = (raw - left) % 256
            elif kind == 2:
                line = (raw - prev) % 256
            else:
                line = raw
            rows.append(bytes([kind]) + line.astype(np.uint8).tobytes())
            prev = raw

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", w, h, 16, colour, 0, 0, int(interlace))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows)))
                     + chunk(b"IEND", b""))


@pytest.mark.parametrize("interlace", [False, True], ids=["filtered", "adam7"])
@pytest.mark.parametrize("channels, fmt", [(3, "RGBA16_UNORM"), (4, "RGBA16_UNORM"), (2, "RG16_UNORM"), (1, "R16_UNORM")])
def test_16_bit_pngs_load_with_their_16_bits(device, queue, tmp_path, channels, fmt, interlace):
    rng = np.random.default_rng(channels)
    pixels = rng.integers(0, 65536, (11, 9, channels), dtype=np.int64).astype(np.uint16)
    pixels[0, 0] = [0x0102, 0xFEFD, 0x00FF, 0xFF00][:channels]   # high and low bytes that differ
    p = tmp_path / f"c{channels}.png"
    write_png16(p, pixels, interlace)
    tex = device.load_texture(p, generate_mips=False)
    assert tex.format == getattr(dx.Format, fmt)
    got = queue.read_texture(tex)
    if channels == 3:
        assert np.array_equal(got[..., :3], pixels) and (got[..., 3] == 65535).all()
    else:
        assert np.array_equal(got.reshape(pixels.shape), pixels)


# ---- the texture cache follows the content -------------------------------------------------------


def test_cache_sees_a_same_size_rewrite_that_restored_the_modification_time(device, queue, tmp_path):
    from PIL import Image

    p = tmp_path / "t.bmp"  # uncompressed: the rewrite has the same size
    first = np.full((8, 8, 4), 10, np.uint8)
    second = np.full((8, 8, 4), 200, np.uint8)
    Image.fromarray(first).save(p)
    st = os.stat(p)
    a = device.load_texture(p, generate_mips=False)
    Image.fromarray(second).save(p)
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(p).st_size == st.st_size and os.stat(p).st_mtime_ns == st.st_mtime_ns
    b = device.load_texture(p, generate_mips=False)
    assert b is not a
    assert (queue.read_texture(b)[..., :3] == 200).all() and (queue.read_texture(a)[..., :3] == 10).all()
    assert device.load_texture(p, generate_mips=False) is b


def test_big_endian_structured_upload_sends_zero_padding(device, queue):
    """Converting '>' items to the host's order must not send the new array's uninitialised padding."""
    dt = np.dtype({"names": ["a", "b"], "formats": [">u1", ">u4"], "offsets": [0, 4], "itemsize": 8})
    src = np.zeros(512, dt)
    src["a"], src["b"] = 7, np.arange(512)
    buf = device.create_buffer(512 * 8)
    for _ in range(5):
        got = upload_and_read(queue, buf, src, dtype=np.uint8).reshape(512, 8)
        assert (got[:, 1:4] == 0).all() and (got[:, 0] == 7).all()
        assert (got[:, 4:].copy().view("<u4").ravel() == np.arange(512)).all()
