"""CommandList.generate_mips and format_support's mip_autogen (item 5), on the real device.

Tolerances: 8-bit mips within +-1 of numpy's box average of mip 0 (the pass rounds once per 4 mips);
constant images exactly constant; odd sizes keep the mean within 1.5 levels of 255 (2 or 4 bilinear
taps per texel, DX12Lib/MiniEngine's scheme: close to the mean, not equal to it; the exact weights
are axis_weights below, checked on float images).
"""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx


def box_mips(img: np.ndarray, levels: int) -> list[np.ndarray]:
    """Float 2x2 box averages of a power-of-two image, level by level (level 0 = img)."""
    out = [img.astype(np.float64)]
    for _ in range(1, levels):
        a = out[-1]
        h, w = a.shape[:2]
        if h > 1:
            a = 0.5 * (a[0::2] + a[1::2])
        if w > 1:
            a = 0.5 * (a[:, 0::2] + a[:, 1::2])
        out.append(a)
    return out


def mips_of(device, queue, img, fmt, *, uav=False, array_size=1, first_mip=0, slices=None):
    h, w = img.shape[:2] if slices is None else slices[0].shape[:2]
    tex = device.create_texture2d(w, h, fmt, mip_levels=0, uav=uav, array_size=array_size)
    cl = queue.command_list()
    for s, im in enumerate(slices if slices is not None else [img]):
        cl.upload(tex, im, array_slice=s)
    cl.generate_mips(tex, first_mip=first_mip)
    queue.execute(cl)
    return tex, [[queue.read_texture(tex, mip=m, array_slice=s) for m in range(tex.mip_levels)] for s in range(array_size)]


def mip_stats(device):
    return dict(device.stats()["mips"])


@pytest.mark.parametrize("size", [(64, 64), (128, 32), (16, 4), (1, 32)])
@pytest.mark.parametrize("uav", [True, False])
def test_power_of_two_rgba8_mips_are_box_averages(device, queue, size, uav):
    w, h = size
    img = np.random.default_rng(w * 7 + h).integers(0, 256, (h, w, 4), dtype=np.uint8)
    before = mip_stats(device)
    tex, mips = mips_of(device, queue, img, "rgba8_unorm", uav=uav)
    ref = box_mips(img, tex.mip_levels)
    for m, (got, want) in enumerate(zip(mips[0], ref)):
        assert got.shape == want.shape
        assert np.abs(got.astype(np.float64) - want).max() <= 1.0, f"mip {m}"
    np.testing.assert_array_equal(mips[0][0], img)   # mip 0 untouched
    after = mip_stats(device)
    route = "in_place" if uav else "staged"
    assert after[route] == before[route] + 1
    assert after["aliased"] == before["aliased"]
    dispatches = after["dispatches"] - before["dispatches"]
    assert dispatches >= -(-(tex.mip_levels - 1) // 4)   # up to 4 mips per dispatch
    if w == h:
        assert dispatches == -(-(tex.mip_levels - 1) // 4)


@pytest.mark.parametrize("size", [(37, 23), (5, 1), (1, 7), (3, 3), (255, 1), (17, 64)])
def test_odd_sizes_keep_a_constant_image_constant(device, queue, size):
    w, h = size
    img = np.empty((h, w, 4), np.uint8)
    img[...] = (77, 130, 3, 250)
    tex, mips = mips_of(device, queue, img, "rgba8_unorm", uav=True)
    for m, got in enumerate(mips[0]):
        assert got.shape == (max(h >> m, 1), max(w >> m, 1), 4)
        assert (got == img[0, 0]).all(), f"mip {m}: {np.unique(got.reshape(-1, 4), axis=0)}"


@pytest.mark.parametrize("size", [(37, 23), (5, 1), (1, 7), (23, 37), (9, 9)])
def test_odd_sizes_preserve_the_mean(device, queue, size):
    w, h = size
    y, x = np.mgrid[0:h, 0:w]
    rng = np.random.default_rng(w + 100 * h)
    img = np.empty((h, w, 4), np.uint8)
    img[..., 0] = (x * 200 // max(w - 1, 1)) + (y * 50 // max(h - 1, 1))   # a gradient: kept exactly by the taps
    img[..., 1] = rng.integers(0, 256, (h, w))                              # noise
    img[..., 2] = np.where((x + y) % 2, 255, 0)                              # checkerboard
    img[..., 3] = 255
    tex, mips = mips_of(device, queue, img, "rgba8_unorm", uav=True)
    mean0 = img.reshape(-1, 4).mean(axis=0)
    for m, got in enumerate(mips[0][1:], start=1):
        diff = np.abs(got.reshape(-1, 4).mean(axis=0) - mean0)
        assert diff[0] <= 1.5, f"mip {m} gradient mean {diff}"
        assert diff[3] == 0
        # noise and a one-texel checkerboard: the taps sample a footprint, not every texel
        assert diff[1] <= 12 and diff[2] <= 40, f"mip {m} means {diff}"


def test_srgb_checkerboard_is_averaged_in_linear_light(device, queue):
    y, x = np.mgrid[0:16, 0:16]
    img = np.zeros((16, 16, 4), np.uint8)
    img[..., :3] = np.where((x + y) % 2, 255, 0)[..., None]
    img[..., 3] = 255
    before = mip_stats(device)
    tex, mips = mips_of(device, queue, img, "rgba8_unorm_srgb")
    after = mip_stats(device)
    for m in range(1, tex.mip_levels):
        rgb = mips[0][m][..., :3]
        assert rgb.min() >= 187 and rgb.max() <= 188, f"mip {m}: {np.unique(rgb)} (128 would be averaging sRGB bytes)"
        assert (mips[0][m][..., 3] == 255).all()
    assert after["aliased"] == before["aliased"] + 1


@pytest.mark.parametrize("fmt", ["bgra8_unorm", "bgra8_unorm_srgb"])
def test_bgra_goes_through_the_rgba8_alias(device, queue, fmt):
    img = np.zeros((32, 32, 4), np.uint8)
    img[..., 0] = 10
    img[..., 1] = np.arange(32, dtype=np.uint8)[None, :] * 8
    img[..., 2] = 200
    img[..., 3] = 255
    before, barriers = mip_stats(device), device.stats()["barriers"]["aliasing"]
    tex, mips = mips_of(device, queue, img, fmt)
    after = mip_stats(device)
    assert after["aliased"] == before["aliased"] + 1 and after["in_place"] == before["in_place"]
    assert device.stats()["barriers"]["aliasing"] - barriers == 3   # activate, copy alias -> work, back
    if fmt == "bgra8_unorm":
        for m, (got, want) in enumerate(zip(mips[0], box_mips(img, tex.mip_levels))):
            assert np.abs(got.astype(np.float64) - want).max() <= 1.0, f"mip {m}"
    else:   # constant channels stay, the ramp is averaged in linear light
        for got in mips[0][1:]:
            assert (got[..., 0] == 10).all() and (got[..., 2] == 200).all() and (got[..., 3] == 255).all()


def test_array_slices_each_get_their_mips(device, queue):
    rng = np.random.default_rng(3)
    slices = [rng.integers(0, 256, (16, 32, 4), dtype=np.uint8) for _ in range(3)]
    for uav in (True, False):
        tex, mips = mips_of(device, queue, None, "rgba8_unorm", uav=uav, array_size=3, slices=slices)
        for s, img in enumerate(slices):
            for m, (got, want) in enumerate(zip(mips[s], box_mips(img, tex.mip_levels))):
                assert np.abs(got.astype(np.float64) - want).max() <= 1.0, f"slice {s} mip {m}"
    srgb = [np.full((8, 8, 4), v, np.uint8) for v in (0, 128, 255)]
    tex, mips = mips_of(device, queue, None, "rgba8_unorm_srgb", array_size=3, slices=srgb)
    for s, img in enumerate(srgb):
        for got in mips[s]:
            assert (got == img[0, 0]).all()


def test_compute_list_generates_mips(device):
    q = device.queue("compute")
    img = np.random.default_rng(9).integers(0, 256, (32, 32, 4), dtype=np.uint8)
    for fmt in ("rgba8_unorm", "bgra8_unorm"):
        tex, mips = mips_of(device, q, img, fmt, uav=fmt == "rgba8_unorm")
        for m, (got, want) in enumerate(zip(mips[0], box_mips(img, tex.mip_levels))):
            assert np.abs(got.astype(np.float64) - want).max() <= 1.0, f"{fmt} mip {m}"


def test_first_mip_leaves_the_mips_above_it_alone(device, queue):
    tex = device.create_texture2d(32, 32, "rgba8_unorm", mip_levels=0, uav=True)
    cl = queue.command_list()
    levels = {}
    for m in range(tex.mip_levels):
        levels[m] = np.full((32 >> m, 32 >> m, 4), 10 * m + 5, np.uint8)
        cl.upload(tex, levels[m], mip=m)
    levels[2] = np.random.default_rng(2).integers(0, 256, (8, 8, 4), dtype=np.uint8)
    cl.upload(tex, levels[2], mip=2)
    cl.generate_mips(tex, first_mip=2)
    queue.execute(cl)
    for m in range(3):
        np.testing.assert_array_equal(queue.read_texture(tex, mip=m), levels[m])
    ref = box_mips(levels[2], tex.mip_levels - 2)
    for m in range(3, tex.mip_levels):
        assert np.abs(queue.read_texture(tex, mip=m).astype(np.float64) - ref[m - 2]).max() <= 1.0
    # the last mip: nothing below it, nothing happens; past it: refused
    cl = queue.command_list()
    cl.generate_mips(tex, first_mip=tex.mip_levels - 1)
    with pytest.raises(dx.InvalidArgumentError, match="first_mip 6 out of range"):
        cl.generate_mips(tex, first_mip=tex.mip_levels)
    with pytest.raises(TypeError):
        cl.generate_mips(tex, 1)   # keyword-only
    queue.execute(cl)


@pytest.mark.parametrize("fmt,dtype,channels,tol", [("rgba16_float", np.float16, 4, 2e-3), ("r32_float", np.float32, 1, 1e-5)])
def test_float_formats(device, queue, fmt, dtype, channels, tol):
    img = np.random.default_rng(5).random((64, 32, channels)).astype(dtype)
    for uav in (True, False):
        tex, mips = mips_of(device, queue, img, fmt, uav=uav)
        for m, (got, want) in enumerate(zip(mips[0], box_mips(img, tex.mip_levels))):
            np.testing.assert_allclose(got.astype(np.float64), want, atol=tol, err_msg=f"{fmt} mip {m}")


def test_refusals(device, queue):
    copy_list = device.queue("copy").command_list()
    tex = device.create_texture2d(8, 8, "rgba8_unorm", mip_levels=0, uav=True)
    with pytest.raises(dx.InvalidArgumentError, match="copy-queue list cannot generate mips"):
        copy_list.generate_mips(tex)
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="d32_float is a depth format"):
        cl.generate_mips(device.create_texture2d(8, 8, "d32_float", mip_levels=0, depth_stencil=True))
    with pytest.raises(dx.InvalidArgumentError, match="r32_uint is an integer format"):
        cl.generate_mips(device.create_texture2d(8, 8, "r32_uint", mip_levels=0))
    with pytest.raises(dx.InvalidArgumentError, match="is a buffer"):
        cl.generate_mips(device.create_buffer(256))
    with pytest.raises(TypeError):
        cl.generate_mips("not a texture")
    with pytest.raises(dx.InvalidArgumentError):
        cl.generate_mips(tex, first_mip=-1)
    queue.execute(cl)


def test_a_pipeline_must_be_set_again_after_generate_mips(device, queue):
    tex = device.create_texture2d(8, 8, "rgba8_unorm", mip_levels=0, uav=True)
    cl = queue.command_list()
    cl.generate_mips(tex)
    with pytest.raises(dx.InvalidArgumentError, match="no pipeline is set"):
        cl.dispatch(1)
    queue.execute(cl)


def test_mip_autogen_says_exactly_what_generate_mips_does(device, queue):
    checked = 0
    for f in dx.Format:
        name = f.name.lower()
        try:
            support = device.format_support(name)
        except dx.InvalidArgumentError:   # Format.UNKNOWN
            continue
        depth = support.depth_stencil
        try:
            tex = device.create_texture2d(4, 4, name, mip_levels=0, depth_stencil=depth)
        except dx.Dx12Error:
            assert not support.mip_autogen, name
            continue
        cl = queue.command_list()
        try:
            cl.generate_mips(tex)
            works = True
        except dx.InvalidArgumentError:
            works = False
        queue.execute(cl)
        assert works == support.mip_autogen, name
        checked += 1
    assert checked > 10
    assert device.format_support("bgra8_unorm").mip_autogen and device.format_support("rgba8_unorm_srgb").mip_autogen
    assert not device.format_support("r32_uint").mip_autogen and not device.format_support("d32_float").mip_autogen


def test_all_routes_under_validation_mode():
    dev = dx.Device(validate=True)
    q = dev.queue("direct")
    img = np.random.default_rng(1).integers(0, 256, (16, 16, 4), dtype=np.uint8)
    for fmt, uav in (("rgba8_unorm", True), ("rgba8_unorm", False), ("rgba8_unorm_srgb", False), ("bgra8_unorm", False)):
        tex, mips = mips_of(dev, q, img, fmt, uav=uav, array_size=2, slices=[img, img[::-1].copy()])
        # used again afterwards in the same and a later list: the tracked states are right
        cl = q.command_list()
        cl.generate_mips(tex, first_mip=1)
        cl.generate_mips(tex)
        q.execute(cl)
        assert q.read_texture(tex, mip=4, array_slice=1).shape == (1, 1, 4)
    assert dev.stats()["mips"]["in_place"] == 3 and dev.stats()["mips"]["aliased"] == 6
    dev.wait_idle()


def test_temporaries_live_until_the_gpu_is_done(device, queue):
    img = np.random.default_rng(4).integers(0, 256, (64, 64, 4), dtype=np.uint8)
    tex = device.create_texture2d(64, 64, "bgra8_unorm", mip_levels=0)
    device.wait_idle()
    device.poll()
    live = device.stats()["live_resources"]
    cl = queue.command_list()
    cl.upload(tex, img)
    cl.generate_mips(tex)
    assert device.stats()["live_resources"] == live + 2   # work texture and its alias, held by the list
    fence = queue.execute(cl)
    del cl
    queue.wait(fence)
    device.poll()
    assert device.stats()["live_resources"] == live
    want = box_mips(img, 7)[6]
    assert np.abs(queue.read_texture(tex, mip=6).astype(np.float64) - want).max() <= 1.0


def test_threads_share_one_pipeline_creation():
    """The device's mips pipeline is created on first use: threads racing to it all get one working pipeline."""
    import threading

    dev = dx.Device()
    q = dev.queue("direct")
    rng = np.random.default_rng(8)
    imgs = [rng.integers(0, 256, (32, 32, 4), dtype=np.uint8) for _ in range(6)]
    texs = [dev.create_texture2d(32, 32, "rgba8_unorm" if i % 2 else "bgra8_unorm", mip_levels=0, uav=bool(i % 2)) for i in range(6)]
    lists = [q.command_list() for _ in imgs]
    for cl, tex, img in zip(lists, texs, imgs):
        cl.upload(tex, img)
    barrier = threading.Barrier(len(lists))
    errors = []

    def record(cl, tex):
        try:
            barrier.wait()
            cl.generate_mips(tex)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=record, args=(cl, tex)) for cl, tex in zip(lists, texs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    q.wait(q.execute(lists))
    for tex, img in zip(texs, imgs):
        for m, want in enumerate(box_mips(img, tex.mip_levels)):
            assert np.abs(q.read_texture(tex, mip=m).astype(np.float64) - want).max() <= 1.0
    dev.wait_idle()


ROOT_ARGS_CS = """
cbuffer C : register(b0) { uint v; };
RWStructuredBuffer<uint> o : register(u0);
[numthreads(1, 1, 1)] void main() { o[0] = v; }
"""


def test_root_arguments_must_be_set_again_after_the_internal_pass(device, queue):
    """generate_mips binds its own root signature, which clears every root argument (D3D12); a
    dispatch that relies on the user's earlier set_constants must raise, not read the pass's."""
    rs = device.create_root_signature([dx.RootConstants(0, 1), dx.RootUAV(0)])
    pso = device.create_compute_pipeline(dx.compile_hlsl(ROOT_ARGS_CS, profile="cs_5_0"), rs)
    out = device.create_buffer(4, uav=True)
    tex = device.create_texture2d(8, 8, "rgba8_unorm", mip_levels=0)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    with pytest.raises(dx.InvalidArgumentError, match="root parameter 0 .root constants.* not set"):
        cl.dispatch(1)  # nothing set yet
    cl.set_constants(0, [1234])
    cl.set_root_uav(1, out)
    cl.generate_mips(tex)
    cl.set_pipeline_state(pso)
    with pytest.raises(dx.InvalidArgumentError, match="root parameter 0 .root constants.* not set.*generate_mips"):
        cl.dispatch(1)
    cl.set_constants(0, [1234])
    with pytest.raises(dx.InvalidArgumentError, match="root parameter 1 .a root UAV"):
        cl.dispatch(1)
    cl.set_root_uav(1, out)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    assert queue.read_buffer(out, dtype=np.uint32)[0] == 1234


def axis_weights(size: int) -> np.ndarray:
    """What one mip step does along an axis of `size` texels (README, Mips): a (size >> 1) x size
    matrix of weights. Even: 2-texel box. 1: kept. Odd 2w+1 -> w: output texel i averages two
    bilinear taps at source positions (i + 1/4) * (2w+1)/w and (i + 3/4) * (2w+1)/w, measured in
    texels from the edge (texel centres at j + 1/2)."""
    if size == 1:
        return np.ones((1, 1))
    w = size // 2
    m = np.zeros((w, size))
    for i in range(w):
        if size % 2 == 0:
            m[i, 2 * i:2 * i + 2] = 0.5
            continue
        for k in (0.25, 0.75):
            t = (i + k) * size / w - 0.5     # in texel-centre coordinates
            j = int(np.floor(t))
            f = t - j
            m[i, j] += 0.5 * (1 - f)
            m[i, min(j + 1, size - 1)] += 0.5 * f
    return m


@pytest.mark.parametrize("size", [(3, 1), (5, 3), (1, 7), (37, 23), (9, 64)])
def test_odd_sizes_weights_are_the_documented_ones(device, queue, size):
    """Every mip of a float image equals the chain of axis_weights steps (float32 arithmetic and
    the sampler's weight precision aside)."""
    w, h = size
    img = np.random.default_rng(w * 31 + h).random((h, w, 4), dtype=np.float32)
    tex, mips = mips_of(device, queue, img, "rgba32_float", uav=True)
    want = img.astype(np.float64)
    for m in range(1, tex.mip_levels):
        mx, my = axis_weights(want.shape[1]), axis_weights(want.shape[0])
        want = np.einsum("yi,ijc,xj->yxc", my, want, mx)
        got = mips[0][m]
        assert got.shape == want.shape
        err = np.abs(got - want).max()
        # lavapipe: at most 7.5e-7 here; D3D12 asks samplers for 8 bits of sub-texel precision only
        assert err <= 2e-3, f"mip {m}: max error {err}"


def test_odd_size_edge_texels_weigh_more_than_a_box_filter(device, queue):
    """README: 3 -> 1 weights the texels 3/8, 1/4, 3/8 (a box filter would take 1/3 each), so the
    mean of an odd-sized mip is close to, not equal to, the source's mean."""
    for col, weight in ((0, 0.375), (1, 0.25), (2, 0.375)):
        img = np.zeros((1, 3, 4), np.float32)
        img[0, col] = 1.0
        _, mips = mips_of(device, queue, img, "rgba32_float", uav=True)
        np.testing.assert_allclose(mips[0][1][0, 0], weight, atol=1e-3)
    np.testing.assert_allclose(axis_weights(5), [[7 / 16, 3 / 8, 3 / 16, 0, 0], [0, 0, 3 / 16, 3 / 8, 7 / 16]])
    # over a whole mip of 2w+1 -> w: edge texels (4w-1)/(8w^2), inner ones (2w-1)/(4w^2)
    for wo in (1, 2, 3, 8):
        mean_w = axis_weights(2 * wo + 1).mean(axis=0)
        np.testing.assert_allclose(mean_w[[0, -1]], (4 * wo - 1) / (8 * wo * wo))
        np.testing.assert_allclose(mean_w[1:-1], (2 * wo - 1) / (4 * wo * wo))
