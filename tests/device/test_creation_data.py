"""Data at creation and by queue writes, read back as numbers: create_buffer(data=), create_texture2d(data=),
CommandQueue.write_texture per mip and slice, read_buffer(shape=), and dispatch((x, y, z)) tuples."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx


def test_create_buffer_with_data_takes_its_size_and_reads_it_back(device, queue):
    data = np.arange(300, dtype=np.float32) * 1.5
    buf = device.create_buffer(data=data)
    assert buf.size == data.nbytes
    np.testing.assert_array_equal(queue.read_buffer(buf, np.float32), data)


def test_create_buffer_with_data_shorter_than_size_is_zero_after_it(device, queue):
    buf = device.create_buffer(64, uav=True, data=np.array([1, 2, 3], dtype=np.uint32))
    got = queue.read_buffer(buf, np.uint32)
    assert got[:3].tolist() == [1, 2, 3] and not got[3:].any()


@pytest.mark.parametrize("heap", ["upload", "default", "custom"])
def test_create_buffer_with_data_in_each_heap(device, queue, heap):
    if heap == "custom" and not device.uma_direct:
        pytest.skip("custom heap buffers need a cache-coherent UMA adapter")
    data = np.arange(64, dtype=np.uint16)
    buf = device.create_buffer(data=data, heap=heap)
    if heap == "upload":
        np.testing.assert_array_equal(buf.map(np.uint16), data)
    else:
        np.testing.assert_array_equal(queue.read_buffer(buf, np.uint16), data)


def test_create_buffer_refuses_data_larger_than_size_and_a_missing_size(device):
    with pytest.raises(dx.InvalidArgumentError, match="data has 16 bytes, more than size 8"):
        device.create_buffer(8, data=np.zeros(4, np.float32))
    with pytest.raises(TypeError, match="size is required without data="):
        device.create_buffer()


def test_create_buffer_takes_the_bytes_of_data_once(device, queue, monkeypatch):
    """Big-endian data is converted to the host's order (numpy.copyto into a zeroed array) once per call:
    the size and the write read the same bytes."""
    calls = []
    real_copyto = np.copyto

    def counting_copyto(dst, src, *args, **kwargs):
        calls.append(src.dtype)
        return real_copyto(dst, src, *args, **kwargs)

    monkeypatch.setattr(np, "copyto", counting_copyto)
    data = np.arange(16, dtype=">u4")
    buf = device.create_buffer(data=data)
    monkeypatch.undo()
    assert len(calls) == 1
    assert buf.size == 64
    np.testing.assert_array_equal(queue.read_buffer(buf, np.uint32), np.arange(16, dtype=np.uint32))

def test_create_texture2d_with_data_infers_size_and_format_and_reads_back(device, queue):
    rng = np.random.default_rng(3)
    img = rng.integers(0, 256, (24, 40, 4), dtype=np.uint8)
    tex = device.create_texture2d(data=img)
    assert (tex.width, tex.height, tex.format) == (40, 24, dx.Format.RGBA8_UNORM)
    np.testing.assert_array_equal(queue.read_texture(tex), img)


@pytest.mark.parametrize("dtype,channels,fmt", [(np.float32, 1, dx.Format.R32_FLOAT), (np.uint16, 2, dx.Format.RG16_UNORM),
                                                 (np.float16, 4, dx.Format.RGBA16_FLOAT), (np.uint32, 4, dx.Format.RGBA32_UINT)])
def test_create_texture2d_picks_the_format_of_the_data(device, queue, dtype, channels, fmt):
    data = (np.arange(8 * 8 * channels) % 200).astype(dtype).reshape(8, 8, channels)
    tex = device.create_texture2d(data=data[:, :, 0] if channels == 1 else data)
    assert tex.format == fmt
    np.testing.assert_array_equal(queue.read_texture(tex), data)


def test_create_texture2d_with_slices_of_data(device, queue):
    data = np.stack([np.full((8, 8, 4), 10 * (s + 1), np.uint8) for s in range(3)])
    tex = device.create_texture2d(data=data, format="rgba8_unorm")
    assert tex.array_size == 3
    for s in range(3):
        np.testing.assert_array_equal(queue.read_texture(tex, array_slice=s), data[s])


def test_create_texture2d_refuses_data_that_disagrees(device):
    img = np.zeros((8, 16, 4), np.uint8)
    with pytest.raises(dx.InvalidArgumentError, match="width 8 disagrees with data of shape \\(8, 16, 4\\)"):
        device.create_texture2d(8, data=img)
    with pytest.raises(TypeError, match=r"\(rgba32_float\) takes float32 data .* got uint8"):
        device.create_texture2d(data=img, format="rgba32_float")
    with pytest.raises(dx.InvalidArgumentError, match="3 channels"):
        device.create_texture2d(data=np.zeros((8, 8, 3), np.uint8))
    with pytest.raises(dx.InvalidArgumentError, match="needs an array of shape \\(8, 16, 2\\)"):
        device.create_texture2d(data=img, format="rg8_unorm")
    with pytest.raises(TypeError, match="width and height are required without data="):
        device.create_texture2d(8)
    with pytest.raises(TypeError, match="data must be a numpy array"):
        device.create_texture2d(data=[[1, 2], [3, 4]])


def test_write_texture_each_mip_and_slice_then_read_back(device, queue):
    tex = device.create_texture2d(16, 16, "r32_float", mip_levels=3, array_size=2)
    want = {}
    for s in range(2):
        for m in range(3):
            n = 16 >> m
            want[m, s] = (np.arange(n * n, dtype=np.float32).reshape(n, n) + 1000 * m + 100 * s)
            queue.write_texture(tex, want[m, s], mip=m, slice=s)
    for (m, s), w in want.items():
        np.testing.assert_array_equal(queue.read_texture(tex, m, s)[:, :, 0], w)


def test_write_texture_is_ordered_with_executes_on_its_queue(device, queue):
    tex = device.create_texture2d(4, 4, "rgba8_unorm")
    queue.write_texture(tex, np.full((4, 4, 4), 7, np.uint8))
    cl = queue.command_list()
    cl.upload(tex, np.full((4, 4, 4), 9, np.uint8))
    queue.execute(cl)
    queue.write_texture(tex, np.full((4, 4, 4), 11, np.uint8))
    assert (queue.read_texture(tex) == 11).all()


def test_write_texture_refuses_wrong_shapes_dtypes_and_buffers(device, queue):
    tex = device.create_texture2d(8, 8, "rgba8_unorm", mip_levels=2)
    with pytest.raises(dx.InvalidArgumentError, match="mip 1 .* needs an array of shape \\(4, 4, 4\\), got \\(8, 8, 4\\)"):
        queue.write_texture(tex, np.zeros((8, 8, 4), np.uint8), mip=1)
    with pytest.raises(TypeError, match="takes uint8 data"):
        queue.write_texture(tex, np.zeros((8, 8, 4), np.float32))
    with pytest.raises(dx.InvalidArgumentError, match="out of range"):
        queue.write_texture(tex, np.zeros((8, 8, 4), np.uint8), slice=1)
    with pytest.raises(dx.InvalidArgumentError, match="is a buffer; use write_buffer"):
        queue.write_texture(device.create_buffer(16), np.zeros(4, np.uint32))


def test_read_buffer_with_shape(device, queue):
    data = np.arange(32, dtype=np.float32).reshape(4, 8)
    buf = device.create_buffer(data=data)
    got = queue.read_buffer(buf, np.float32, shape=(4, 8))
    assert got.shape == (4, 8)
    np.testing.assert_array_equal(got, data)
    assert queue.read_buffer(buf, np.float32, shape=32).shape == (32,)
    with pytest.raises(dx.InvalidArgumentError, match="shape \\(4, 4\\) of float32 is 64 bytes; buffer '.*' has 128 \\(32 items\\)"):
        queue.read_buffer(buf, np.float32, shape=(4, 4))
    with pytest.raises(dx.InvalidArgumentError, match="give shape= or out="):
        queue.read_buffer(buf, out=np.empty(32, np.float32), shape=(4, 8))
    with pytest.raises(TypeError, match="shape must be an int or a tuple of ints"):
        queue.read_buffer(buf, np.float32, shape="4x8")


@pytest.mark.parametrize("heap", ["upload", "readback"])
def test_write_buffer_writes_an_upload_or_readback_buffer_through_its_mapping_after_its_work(device, queue, heap):
    buf = device.create_buffer(256, heap=heap)
    queue.write_buffer(buf, np.arange(64, dtype=np.uint32))
    np.testing.assert_array_equal(queue.read_buffer(buf, np.uint32), np.arange(64, dtype=np.uint32))
    # An upload buffer a submitted copy still reads: the write waits for that copy, which copies the old data.
    if heap == "upload":
        dst = device.create_buffer(256)
        cl = queue.command_list()
        cl.copy_buffer_region(dst, 0, buf, 0, 256)
        queue.execute(cl)
        queue.write_buffer(buf, np.full(64, 7, np.uint32), offset=0)
        np.testing.assert_array_equal(queue.read_buffer(dst, np.uint32), np.arange(64, dtype=np.uint32))
        np.testing.assert_array_equal(queue.read_buffer(buf, np.uint32), np.full(64, 7, np.uint32))


def test_read_buffer_infers_one_dimension_given_as_minus_one(device, queue):
    data = np.arange(32, dtype=np.float32).reshape(4, 8)
    buf = device.create_buffer(data=data)
    np.testing.assert_array_equal(queue.read_buffer(buf, np.float32, shape=(-1, 8)), data)
    assert queue.read_buffer(buf, np.float32, shape=(2, -1, 4)).shape == (2, 4, 4)
    assert queue.read_buffer(buf, np.float32, shape=-1).shape == (32,)
    with pytest.raises(dx.InvalidArgumentError, match="not a multiple of the other dimensions' 12 bytes, so -1 cannot be inferred"):
        queue.read_buffer(buf, np.float32, shape=(-1, 3))
    with pytest.raises(dx.InvalidArgumentError, match="more than one -1"):
        queue.read_buffer(buf, np.float32, shape=(-1, -1))
    with pytest.raises(dx.InvalidArgumentError, match="negative dimension -2; only -1 is allowed"):
        queue.read_buffer(buf, np.float32, shape=(-2, 16))
    with pytest.raises(dx.InvalidArgumentError, match="has a 0 dimension, so -1 cannot be inferred"):
        queue.read_buffer(buf, np.float32, shape=(0, -1))


def test_texture_slices_are_named_slice_or_array_slice_on_reads_and_writes(device, queue):
    tex = device.create_texture2d(4, 4, "rgba8_unorm", array_size=3)
    queue.write_texture(tex, np.full((4, 4, 4), 5, np.uint8), array_slice=1)
    queue.write_texture(tex, np.full((4, 4, 4), 6, np.uint8), slice=2)
    assert (queue.read_texture(tex, slice=1) == 5).all()
    assert (queue.read_texture(tex, array_slice=2) == 6).all()
    with pytest.raises(dx.InvalidArgumentError, match="give array_slice= or slice="):
        queue.read_texture(tex, array_slice=1, slice=1)
    with pytest.raises(dx.InvalidArgumentError, match="give slice= or array_slice="):
        queue.write_texture(tex, np.zeros((4, 4, 4), np.uint8), slice=0, array_slice=0)


def test_create_texture2d_refuses_data_for_a_multisampled_texture_saying_what_to_do(device):
    with pytest.raises(dx.InvalidArgumentError, match="data= cannot fill a multisampled texture .* render into it"):
        device.create_texture2d(render_target=True, sample_count=4, data=np.zeros((4, 4, 4), np.uint8))


GROUP_IDS = """
RWStructuredBuffer<uint> o : register(u0);
[numthreads(1, 1, 1)] void main(uint3 g : SV_GroupID) { o[g.x + 4 * (g.y + 4 * g.z)] = 1 + g.x + 10 * g.y + 100 * g.z; }
"""


@pytest.fixture(scope="module")
def group_ids(device):
    rs = device.create_root_signature([dx.RootUAV(0)])
    return device.create_compute_pipeline(dx.compile_hlsl(GROUP_IDS, profile="cs_5_0"), rs)


def _dispatch(device, queue, pipeline, *args):
    buf = device.create_buffer(64 * 4, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pipeline)
    cl.set_root_uav(0, buf)
    cl.dispatch(*args)
    queue.execute(cl)
    return queue.read_buffer(buf, np.uint32)


def test_dispatch_takes_a_tuple_with_the_same_result(device, queue, group_ids):
    three = _dispatch(device, queue, group_ids, 3, 2, 4)
    assert np.count_nonzero(three) == 24 and three[2 + 4 * (1 + 4 * 3)] == 1 + 2 + 10 + 300
    np.testing.assert_array_equal(_dispatch(device, queue, group_ids, (3, 2, 4)), three)
    np.testing.assert_array_equal(_dispatch(device, queue, group_ids, (3, 2)), _dispatch(device, queue, group_ids, 3, 2))
    np.testing.assert_array_equal(_dispatch(device, queue, group_ids, (3,)), _dispatch(device, queue, group_ids, 3))


def test_dispatch_refuses_a_tuple_of_the_wrong_length(device, queue, group_ids):
    cl = queue.command_list()
    cl.set_pipeline_state(group_ids)
    cl.set_root_uav(0, device.create_buffer(256, uav=True))
    with pytest.raises(dx.InvalidArgumentError, match="1 to 3 items"):
        cl.dispatch((1, 1, 1, 1))
    with pytest.raises(dx.InvalidArgumentError, match="1 to 3 items"):
        cl.dispatch(())


# ---- the format chosen for data: create_texture2d(data=) and load_texture (texture_format_for) --------------
# One table: the format family of each dtype, for 1, 2 and 4 channels. create_texture2d(data=) takes all six
# dtypes and 1, 2 or 4 channels as given; load_texture (texture_format_for) takes the four dtypes it knows an
# opaque alpha for, pads 3 channels to 4, and with srgb=True picks rgba8_unorm_srgb for 8-bit data.
FORMAT_FAMILIES = {
    "uint8": ("r8_unorm", "rg8_unorm", "rgba8_unorm"), "uint16": ("r16_unorm", "rg16_unorm", "rgba16_unorm"),
    "float16": ("r16_float", "rg16_float", "rgba16_float"), "float32": ("r32_float", "rg32_float", "rgba32_float"),
    "uint32": ("r32_uint", "rg32_uint", "rgba32_uint"), "int32": ("r32_sint", "rg32_sint", "rgba32_sint"),
}
LOAD_TEXTURE_DTYPES = ("uint8", "uint16", "float16", "float32")
DATA_DTYPES = ("uint8", "int8", "uint16", "int16", "float16", "float32", "float64", "uint32", "int32", "int64", "uint64",
               "bool", "complex64", ">u2", ">f4")


def _choice(call):
    """The format name a call chooses, or the class of the error it raises."""
    try:
        return call()
    except (TypeError, dx.InvalidArgumentError) as e:
        return TypeError if isinstance(e, TypeError) else dx.InvalidArgumentError


def test_create_texture2d_and_load_texture_choose_formats_for_data_by_one_table(device):
    from dx12kit.textures import texture_format_for

    def made(dtype, channels):
        return device.create_texture2d(data=np.zeros((2, 2, channels), dtype)).format.name.lower()

    for dtype in DATA_DTYPES:
        family = FORMAT_FAMILIES.get(np.dtype(dtype).name)
        for channels in range(6):
            row = {1: 0, 2: 1, 4: 2}.get(channels)
            cpp = _choice(lambda: made(dtype, channels))
            want = TypeError if family is None else dx.InvalidArgumentError if row is None else family[row]
            assert cpp == want, (dtype, channels)
            padded = {1: 0, 2: 1, 3: 2, 4: 2}.get(channels)
            for srgb in (False, True):
                py = _choice(lambda: texture_format_for(dtype, channels, srgb))
                if np.dtype(dtype).name not in LOAD_TEXTURE_DTYPES:
                    want = TypeError
                elif padded is None or (srgb and np.dtype(dtype).name != "uint8"):
                    want = dx.InvalidArgumentError
                else:
                    want = "rgba8_unorm_srgb" if srgb else family[padded]
                assert py == want, (dtype, channels, srgb)
                if isinstance(py, str) and isinstance(cpp, str) and not srgb:
                    assert py == cpp, (dtype, channels)
