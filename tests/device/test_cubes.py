"""Cube and 3D textures, and CommandList.pano_to_cubemap, on the real device.

The panorama used here encodes, in each texel, the direction that texel looks at (rgb =
(d + 1) / 2), so every texel of a generated cube face can be checked against the cube-map math:
a face texel must hold the encoding of the direction through it.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap

import numpy as np
import pytest

import dx12kit as dx

# D3D12's face order and orientation: direction through point p (x right, y down, in [-1, 1]^2) of face f.
def face_direction(face: int, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    one = np.ones_like(px)
    d = [
        (one, -py, -px),   # +X
        (-one, -py, px),   # -X
        (px, one, py),     # +Y
        (px, -one, -py),   # -Y
        (px, -py, one),    # +Z
        (-px, -py, -one),  # -Z
    ][face]
    v = np.stack(d, -1)
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def texel_points(size: int) -> tuple:
    c = (np.arange(size) + 0.5) / size * 2 - 1
    return np.meshgrid(c, c)  # px[y, x], py[y, x]


def direction_panorama(width: int, height: int) -> np.ndarray:
    """Equirectangular panorama (dx12kit's layout) whose texels encode their own direction."""
    v = (np.arange(height) + 0.5) / height
    u = (np.arange(width) + 0.5) / width
    theta = v[:, None] * np.pi                 # 0 = up
    phi = (u[None, :] - 0.5) * 2 * np.pi       # 0 = -Z, +pi/2 = +X
    x = np.sin(theta) * np.sin(phi)
    y = np.cos(theta) * np.ones_like(phi)
    z = -np.sin(theta) * np.cos(phi)
    return np.stack([(x + 1) / 2, (y + 1) / 2, (z + 1) / 2, np.ones_like(x)], -1).astype(np.float32)


def srgb_encode(c: np.ndarray) -> np.ndarray:
    c = np.clip(c, 0, 1)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * np.power(c, 1 / 2.4) - 0.055)


SAMPLE_CUBE_CS = """
cbuffer P : register(b0) { uint n; float lod; };
TextureCube<float4> cube : register(t0);
StructuredBuffer<float4> dirs : register(t1);
RWStructuredBuffer<float4> result : register(u0);
SamplerState smp : register(s0);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (id.x < n) result[id.x] = cube.SampleLevel(smp, dirs[id.x].xyz, lod);
}
"""

SAMPLE_3D_CS = """
cbuffer P : register(b0) { uint n; };
Texture3D<float4> vol : register(t0);
StructuredBuffer<float4> coords : register(t1);
RWStructuredBuffer<float4> result : register(u0);
SamplerState smp : register(s0);
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    if (id.x < n) result[id.x] = vol.SampleLevel(smp, coords[id.x].xyz, 0);
}
"""

WRITE_3D_CS = """
RWTexture3D<float> vol : register(u0);
[numthreads(4, 4, 4)]
void main(uint3 id : SV_DispatchThreadID) {
    vol[id] = id.x + 10.0 * id.y + 100.0 * id.z;
}
"""

WRITE_FACES_CS = """
RWTexture2DArray<float4> faces : register(u0);
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    faces[id] = float4(id.z / 8.0, id.x / 64.0, id.y / 64.0, 1.0);
}
"""


@pytest.fixture(scope="module")
def panorama(device, queue):
    data = direction_panorama(512, 256)
    tex = device.create_texture2d(512, 256, "rgba32_float", name="pano")
    cl = queue.command_list()
    cl.upload(tex, data)
    queue.wait(queue.execute(cl))
    return tex


def _sampler(device, source, srv_root_extra=()):
    cs = dx.compile_hlsl(source, profile="cs_5_0")
    rs = device.create_root_signature(
        [dx.RootConstants(0, 2), dx.DescriptorTable([dx.SRV(0)]), dx.RootSRV(1), dx.RootUAV(0)],
        static_samplers=[dx.StaticSampler(0, filter="linear", address="clamp")])
    return device.create_compute_pipeline(cs, rs)


def sample_cube(device, queue, cube, dirs: np.ndarray, lod: float = 0.0) -> np.ndarray:
    """Samples `cube` (a TextureCube SRV) with direction vectors in a compute shader."""
    pso = _sampler(device, SAMPLE_CUBE_CS)
    n = len(dirs)
    d4 = np.zeros((n, 4), np.float32)
    d4[:, :3] = dirs
    out = device.create_buffer(n * 16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_constants(0, [n, float(lod)])
    cl.set_shader_resource_view(1, 0, cube)
    cl.set_dynamic_structured_buffer(2, d4)
    cl.set_root_uav(3, out)
    cl.dispatch((n + 63) // 64)
    queue.wait(queue.execute(cl))
    return queue.read_buffer(out, dtype=np.float32).reshape(n, 4)


# ------------------------------------------------------------------------------------ creation

def test_cube_creation_and_properties(device):
    cube = device.create_texture_cube(32, "rgba8_unorm", mip_levels=0, name="sky")
    assert cube.dimension == "cube" and cube.array_size == 6 and cube.mip_levels == 6
    assert cube.width == cube.height == 32 and cube.depth == 1
    assert cube.num_subresources == 36
    assert device.create_texture2d(4, 4).dimension == "2d"


def test_new_cube_and_3d_textures_read_as_zeros(device, queue):
    for kwargs in ({}, {"render_target": True}, {"uav": True}):
        cube = device.create_texture_cube(8, "rgba8_unorm", mip_levels=2, **kwargs)
        vol = device.create_texture3d(8, 4, 5, "rgba8_unorm", mip_levels=0, **kwargs)
        for face in range(6):
            assert not queue.read_texture(cube, 1, array_slice=face).any()
        for mip in range(vol.mip_levels):
            a = queue.read_texture(vol, mip)
            assert a.shape == (max(1, 5 >> mip), max(1, 4 >> mip), max(1, 8 >> mip), 4)
            assert not a.any()


def test_cube_faces_upload_and_read_back(device, queue):
    cube = device.create_texture_cube(16, "rgba8_unorm", mip_levels=2)
    rng = np.random.default_rng(3)
    faces = rng.integers(0, 256, (6, 16, 16, 4), dtype=np.uint8)
    cl = queue.command_list()
    for f in range(6):
        cl.upload(cube, faces[f], 0, f)
        cl.upload(cube, faces[f, ::2, ::2].copy(), 1, f)
    queue.wait(queue.execute(cl))
    for f in range(6):
        assert np.array_equal(queue.read_texture(cube, 0, array_slice=f), faces[f])
        assert np.array_equal(queue.read_texture(cube, 1, array_slice=f), faces[f, ::2, ::2])
    with pytest.raises(dx.InvalidArgumentError, match="array slice 6"):
        queue.read_texture(cube, 0, array_slice=6)


def test_cube_and_3d_placement(device, queue):
    pool = device.create_pool(block_size=4 << 20)
    mem = device.allocate_memory(1 << 20)
    made = [
        device.create_texture_cube(16, "rgba8_unorm", committed=True),
        device.create_texture_cube(16, "rgba8_unorm", pool=pool),
        device.create_texture3d(16, 16, 4, "r32_float", pool=pool),
        device.create_texture3d(16, 16, 4, "r32_float", memory=mem, offset=0),
    ]
    data = np.arange(16 * 16 * 4, dtype=np.float32).reshape(4, 16, 16)
    cl = queue.command_list()
    cl.upload(made[3], data)
    cl.upload(made[2], data)
    queue.wait(queue.execute(cl))
    assert np.array_equal(queue.read_texture(made[3])[..., 0], data)
    assert np.array_equal(queue.read_texture(made[2])[..., 0], data)
    assert pool.stats()["allocation_count"] == 2
    with pytest.raises(dx.InvalidArgumentError, match="'default' heap"):
        device.create_texture3d(4, 4, 4, "r32_float", heap="upload")


def test_cube_and_3d_refusals(device):
    with pytest.raises(dx.InvalidArgumentError, match="depth format"):
        device.create_texture_cube(8, "d32_float")
    with pytest.raises(dx.InvalidArgumentError, match="sRGB"):
        device.create_texture_cube(8, "rgba8_unorm_srgb", uav=True)
    with pytest.raises(dx.InvalidArgumentError, match="exceeds 16384"):
        device.create_texture_cube(16385, "rgba8_unorm")
    with pytest.raises(dx.InvalidArgumentError, match="has at most 4"):
        device.create_texture_cube(8, "rgba8_unorm", mip_levels=5)
    with pytest.raises(dx.InvalidArgumentError, match="positive"):
        device.create_texture_cube(0, "rgba8_unorm")
    with pytest.raises(dx.InvalidArgumentError, match="depth format"):
        device.create_texture3d(4, 4, 4, "d32_float")
    with pytest.raises(dx.InvalidArgumentError, match="2048"):
        device.create_texture3d(4, 4, 2049, "r32_float")
    with pytest.raises(dx.InvalidArgumentError, match="sRGB"):
        device.create_texture3d(4, 4, 4, "rgba8_unorm_srgb", uav=True)
    with pytest.raises(dx.InvalidArgumentError, match="has at most 3"):
        device.create_texture3d(4, 2, 1, "r32_float", mip_levels=4)
    with pytest.raises(dx.InvalidArgumentError, match="unknown format 'nope'"):
        device.create_texture3d(4, 4, 4, "nope")
    with pytest.raises(TypeError):
        device.create_texture_cube("8", "rgba8_unorm")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------ sampling

def test_cube_sampled_with_direction_vectors_returns_the_right_face(device, queue):
    colours = np.array([[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255],
                        [255, 255, 0, 255], [0, 255, 255, 255], [255, 0, 255, 255]], np.uint8)
    cube = device.create_texture_cube(8, "rgba8_unorm")
    cl = queue.command_list()
    for f in range(6):
        cl.upload(cube, np.broadcast_to(colours[f], (8, 8, 4)).copy(), 0, f)
    queue.wait(queue.execute(cl))
    axes = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], np.float32)
    # the axes, and directions tilted off them (still inside the same face)
    tilted = axes + 0.4 * np.roll(axes, 1, axis=1) - 0.3 * np.roll(axes, 2, axis=1)
    got = sample_cube(device, queue, cube, np.concatenate([axes, tilted * 3.0]))
    expected = np.concatenate([colours, colours]) / 255.0
    assert np.allclose(got, expected, atol=1e-3)


def _write_through_uav(device, queue, cs, texture, groups):
    """Runs compute shader `cs` with `texture` as its only UAV (a table at root 0) over `groups`."""
    pso = device.create_compute_pipeline(dx.compile_hlsl(cs, profile="cs_5_0"),
                                         device.create_root_signature([dx.DescriptorTable([dx.UAV(0)])]))
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_unordered_access_view(0, 0, texture)
    cl.dispatch(*groups)
    queue.wait(queue.execute(cl))


def test_cube_uav_writes_faces_as_a_2d_array(device, queue):
    cube = device.create_texture_cube(64, "rgba16_float", uav=True)
    _write_through_uav(device, queue, WRITE_FACES_CS, cube, (8, 8, 6))
    yy, xx = np.mgrid[0:64, 0:64]
    for f in range(6):
        a = queue.read_texture(cube, 0, array_slice=f).astype(np.float32)
        assert np.allclose(a[..., 0], f / 8) and np.allclose(a[..., 1], xx / 64, atol=1e-3)
        assert np.allclose(a[..., 2], yy / 64, atol=1e-3)


# ------------------------------------------------------------------------------------ 3D textures

def test_3d_upload_read_back_every_mip(device, queue):
    vol = device.create_texture3d(16, 8, 4, "rgba8_unorm", mip_levels=0)
    assert vol.dimension == "3d" and vol.depth == 4 and vol.array_size == 1 and vol.mip_levels == 5
    assert vol.num_subresources == 5 and vol.shape == (4, 8, 16, 4)
    rng = np.random.default_rng(7)
    mips = [rng.integers(0, 256, (max(1, 4 >> m), max(1, 8 >> m), max(1, 16 >> m), 4), dtype=np.uint8) for m in range(5)]
    cl = queue.command_list()
    for m, data in enumerate(mips):
        cl.upload(vol, data, m)
    queue.wait(queue.execute(cl))
    for m, data in enumerate(mips):
        assert np.array_equal(queue.read_texture(vol, m), data)
    with pytest.raises(dx.InvalidArgumentError, match=r"\(4, 8, 16, 4\)"):
        cl = queue.command_list()
        cl.upload(vol, mips[0][0])


def test_3d_sampled_at_a_slice(device, queue):
    d, h, w = 6, 8, 10
    data = np.random.default_rng(11).random((d, h, w, 4), dtype=np.float32)
    vol = device.create_texture3d(w, h, d, "rgba32_float")
    cl = queue.command_list()
    cl.upload(vol, data)
    queue.wait(queue.execute(cl))
    pso = _sampler(device, SAMPLE_3D_CS)
    zs, ys, xs = np.meshgrid(np.arange(d), np.arange(h), np.arange(w), indexing="ij")
    coords = np.stack([(xs + 0.5) / w, (ys + 0.5) / h, (zs + 0.5) / d, np.zeros_like(xs, float)], -1)
    coords = coords.reshape(-1, 4).astype(np.float32)
    n = len(coords)
    out = device.create_buffer(n * 16, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_constants(0, [n, 0])
    cl.set_shader_resource_view(1, 0, vol)
    cl.set_dynamic_structured_buffer(2, coords)
    cl.set_root_uav(3, out)
    cl.dispatch((n + 63) // 64)
    queue.wait(queue.execute(cl))
    got = queue.read_buffer(out, dtype=np.float32).reshape(d, h, w, 4)
    assert np.allclose(got, data, atol=1e-5)   # texel centres: linear filtering returns the texel itself


def test_3d_uav_written_by_compute(device, queue):
    vol = device.create_texture3d(8, 8, 8, "r32_float", uav=True)
    _write_through_uav(device, queue, WRITE_3D_CS, vol, (2, 2, 2))
    z, y, x = np.mgrid[0:8, 0:8, 0:8]
    assert np.array_equal(queue.read_texture(vol)[..., 0], (x + 10 * y + 100 * z).astype(np.float32))


def test_3d_render_target_views_do_not_crash_vkd3d():
    """Regression (found while building): 3D render-target and UAV views with WSize = -1 (D3D12's
    "every slice") crashed vkd3d 1.2 when cleared (segfault at the zeroing of a new 3D render
    target); the views now give the count. In a subprocess, so a regression fails instead of
    killing pytest."""
    code = textwrap.dedent("""
        import numpy as np, dx12kit as dx
        dev = dx.Device()
        q = dev.queue()
        vol = dev.create_texture3d(8, 8, 4, "rgba8_unorm", mip_levels=0, render_target=True, uav=True)
        cl = q.command_list()
        cl.clear_unordered_access_view(vol, [0.0, 1.0, 0.0, 1.0])
        q.wait(q.execute(cl))
        assert (q.read_texture(vol) == [0, 255, 0, 255]).all()
        print("ok")
    """)
    env = dict(os.environ)
    env.setdefault("XDG_RUNTIME_DIR", tempfile.gettempdir())
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0 and "ok" in r.stdout, f"exit {r.returncode}\n{r.stdout}\n{r.stderr[-3000:]}"


def test_3d_render_target_clear_covers_every_depth_slice(device, queue):
    vol = device.create_texture3d(4, 4, 4, "rgba8_unorm", mip_levels=2, render_target=True)
    cl = queue.command_list()
    cl.clear_render_target(vol, [1, 0, 0, 1], mip=1)
    queue.wait(queue.execute(cl))
    assert not queue.read_texture(vol, 0).any()
    assert (queue.read_texture(vol, 1) == [255, 0, 0, 255]).all()


# ------------------------------------------------------------------------------------ pano_to_cubemap

def check_cube_against_directions(queue, cube, atol, decode=None, small_atol=None):
    size = cube.width
    for mip in range(cube.mip_levels):
        s = max(1, size >> mip)
        px, py = texel_points(s)
        for f in range(6):
            got = queue.read_texture(cube, mip, array_slice=f).astype(np.float64)
            if decode:
                got = decode(got)
            if s <= 4:
                # Small mips average the panorama over the texel: compare with a dense average.
                k = 64 // s
                fx, fy = texel_points(s * k)
                enc = (face_direction(f, fx, fy) + 1) / 2
                expected = enc.reshape(s, k, s, k, 3).mean(axis=(1, 3))
            else:
                expected = (face_direction(f, px, py) + 1) / 2
            tol = small_atol if (small_atol is not None and s <= 4) else atol
            assert np.allclose(got[..., :3], expected, atol=tol), (mip, f, np.abs(got[..., :3] - expected).max())
            assert np.allclose(got[..., 3], 1.0, atol=atol)


def test_pano_to_cubemap_faces_show_the_panorama_directions(device, queue, panorama):
    cube = device.create_texture_cube(32, "rgba32_float", mip_levels=0, uav=True)
    cl = queue.command_list()
    cl.pano_to_cubemap(cube, panorama)
    queue.wait(queue.execute(cl))
    # Face centres look along the face axes: +X centre (1, 0.5, 0.5) etc. (texels 15/16 straddle it).
    axes = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]])
    for f in range(6):
        centre = queue.read_texture(cube, 0, array_slice=f)[15:17, 15:17, :3].mean(axis=(0, 1))
        assert np.allclose(centre * 2 - 1, axes[f], atol=0.03), (f, centre)
    check_cube_against_directions(queue, cube, atol=0.02)


def test_pano_to_cubemap_cube_sampled_with_directions(device, queue, panorama):
    cube = device.create_texture_cube(64, "rgba16_float", uav=True)
    cl = queue.command_list()
    cl.pano_to_cubemap(cube, panorama)
    queue.wait(queue.execute(cl))
    dirs = np.random.default_rng(5).standard_normal((500, 3)).astype(np.float32)
    got = sample_cube(device, queue, cube, dirs)
    unit = dirs / np.linalg.norm(dirs, axis=1, keepdims=True)
    assert np.allclose(got[:, :3], (unit + 1) / 2, atol=0.02)


def test_pano_to_cubemap_on_compute_queue_with_panorama_mips(device, panorama):
    """A panorama with mips (filled here by upload) is read through them; a compute list works."""
    q = device.queue("compute")
    level = direction_panorama(512, 256)
    pano = device.create_texture2d(512, 256, "rgba32_float", mip_levels=0)
    cl = q.command_list()
    for m in range(pano.mip_levels):
        cl.upload(pano, level, m)
        h, w = level.shape[:2]
        if w > 1:
            level = level.reshape(max(1, h // 2), min(h, 2), max(1, w // 2), 2, 4).mean(axis=(1, 3))  # 2x2 box
    cube = device.create_texture_cube(32, "rgba32_float", mip_levels=0, uav=True)
    cl.pano_to_cubemap(cube, pano)
    q.wait(q.execute(cl))
    # Small mips read coarse panorama mips (box averages of an equirectangular image, not of the
    # face): looser there.
    check_cube_against_directions(q, cube, atol=0.03, small_atol=0.08)


def test_pano_to_cubemap_without_uav_goes_through_staging(device, queue, panorama):
    cube = device.create_texture_cube(16, "rgba16_float", mip_levels=3)   # no uav=True
    cl = queue.command_list()
    cl.pano_to_cubemap(cube, panorama)
    queue.wait(queue.execute(cl))
    check_cube_against_directions(queue, cube, atol=0.02)


def test_pano_to_cubemap_srgb_cube_is_encoded(device, queue, panorama):
    cube = device.create_texture_cube(16, "rgba8_unorm_srgb", mip_levels=0)
    cl = queue.command_list()
    cl.pano_to_cubemap(cube, panorama)
    queue.wait(queue.execute(cl))
    px, py = texel_points(16)
    for f in range(6):
        got = queue.read_texture(cube, 0, array_slice=f).astype(np.float64)
        expected = srgb_encode((face_direction(f, px, py) + 1) / 2) * 255
        assert np.abs(got[..., :3] - expected).max() <= 4.0, f
    # sampled through the sRGB view: back in linear light
    got = sample_cube(device, queue, cube, np.array([[1, 0, 0], [0, -1, 0]], np.float32))
    assert np.allclose(got[:, :3], [[1, 0.5, 0.5], [0.5, 0, 0.5]], atol=0.03)


def test_pano_to_cubemap_leaves_no_pipeline_bound(device, queue, panorama):
    cube = device.create_texture_cube(8, "rgba8_unorm", uav=True)
    cl = queue.command_list()
    cl.pano_to_cubemap(cube, panorama)
    with pytest.raises(dx.InvalidArgumentError, match="no pipeline"):
        cl.dispatch(1)
    queue.wait(queue.execute(cl))


def test_pano_to_cubemap_refusals(device, queue, panorama):
    cube = device.create_texture_cube(8, "rgba8_unorm", uav=True)
    flat = device.create_texture2d(8, 8, "rgba8_unorm")
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="not a cube texture"):
        cl.pano_to_cubemap(flat, panorama)
    with pytest.raises(dx.InvalidArgumentError, match="must be a 2D texture"):
        cl.pano_to_cubemap(cube, device.create_texture_cube(8, "rgba8_unorm"))
    with pytest.raises(dx.InvalidArgumentError, match="must be a 2D texture"):
        cl.pano_to_cubemap(cube, device.create_texture2d(8, 8, array_size=2))
    with pytest.raises(dx.InvalidArgumentError, match="same"):
        cl.pano_to_cubemap(cube, cube)
    msaa = device.create_texture2d(8, 4, render_target=True, sample_count=4)
    with pytest.raises(dx.InvalidArgumentError, match="multisampled.*resolve"):
        cl.pano_to_cubemap(cube, msaa)
    with pytest.raises(dx.InvalidArgumentError, match="r32_uint"):
        cl.pano_to_cubemap(device.create_texture_cube(8, "r32_uint"), panorama)
    with pytest.raises(dx.InvalidArgumentError, match="cannot be sampled"):
        cl.pano_to_cubemap(cube, device.create_texture2d(8, 8, "r32_uint"))
    if not device.format_support("bgra8_unorm").typed_uav:
        with pytest.raises(dx.InvalidArgumentError, match="bgra8_unorm"):
            cl.pano_to_cubemap(device.create_texture_cube(8, "bgra8_unorm"), panorama)
    with pytest.raises(TypeError):
        cl.pano_to_cubemap(cube, None)
    copy = device.queue("copy").command_list()
    with pytest.raises(dx.InvalidArgumentError, match="copy-queue"):
        copy.pano_to_cubemap(cube, panorama)
    queue.wait(queue.execute(cl))


def test_defragmentation_moves_cube_and_3d_textures_intact(device):
    """Moved by defragmentation, a cube stays a cube (its cached TextureCube view is rewritten) and a
    3D texture keeps every depth slice."""
    import gc

    dev = dx.Device()
    q = dev.queue()
    pool = dev.create_pool(block_size=1 << 20)
    fillers = [dev.create_texture2d(64, 64, "rgba8_unorm", pool=pool, name=f"f{i}") for i in range(12)]
    colours = np.array([[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255],
                        [255, 255, 0, 255], [0, 255, 255, 255], [255, 0, 255, 255]], np.uint8)
    cube = dev.create_texture_cube(16, "rgba8_unorm", pool=pool, name="cube")
    vol = dev.create_texture3d(16, 16, 8, "r32_float", pool=pool, name="vol")
    data = np.random.default_rng(2).random((8, 16, 16), dtype=np.float32)
    cl = q.command_list()
    for f in range(6):
        cl.upload(cube, np.broadcast_to(colours[f], (16, 16, 4)).copy(), 0, f)
    cl.upload(vol, data)
    q.wait(q.execute(cl))
    before = sample_cube(dev, q, cube, np.eye(3, dtype=np.float32))   # caches the cube's view
    where = (cube.allocation["block"], cube.allocation["offset"]), (vol.allocation["block"], vol.allocation["offset"])
    del fillers
    gc.collect()
    dev.wait_idle()
    stats = dev.defragment(pool=pool, algorithm="full")
    assert stats["moves"] >= 2
    assert ((cube.allocation["block"], cube.allocation["offset"]), (vol.allocation["block"], vol.allocation["offset"])) != where
    assert np.array_equal(q.read_texture(vol)[..., 0], data)
    for f in range(6):
        assert (q.read_texture(cube, 0, array_slice=f) == colours[f]).all()
    assert np.array_equal(sample_cube(dev, q, cube, np.eye(3, dtype=np.float32)), before)


def test_clear_render_target_clears_every_face_or_the_one_named(device, queue):
    cube = device.create_texture_cube(8, "rgba8_unorm", render_target=True)
    arr = device.create_texture2d(4, 4, "rgba8_unorm", array_size=3, render_target=True)
    cl = queue.command_list()
    cl.clear_render_target(cube, (0, 1, 0, 1))
    cl.clear_render_target(cube, (1, 0, 0, 1), array_slice=4)
    cl.clear_render_target(arr, (0, 0, 1, 1))
    queue.execute(cl)
    for face in range(6):
        want = [255, 0, 0, 255] if face == 4 else [0, 255, 0, 255]
        assert (queue.read_texture(cube, 0, array_slice=face) == want).all(), face
    for s in range(3):
        assert (queue.read_texture(arr, 0, array_slice=s) == [0, 0, 255, 255]).all(), s
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="slice 6"):
        cl.clear_render_target(cube, (0, 0, 0, 0), array_slice=6)
    with pytest.raises(TypeError, match="array_slice"):
        cl.clear_render_target(cube, (0, 0, 0, 0), array_slice="x")


def test_format_support_agrees_with_cube_and_3d_creation_for_every_format(device):
    """texture_cube / texture3d say what create_texture_cube / create_texture3d accept (depth
    formats are False whatever the driver reports: no 3D depth in D3D12, no depth cubes here)."""
    for fmt in (f for f in dx.Format if f.name != "UNKNOWN"):
        fs = device.format_support(fmt)
        for key, make in (("texture_cube", lambda: device.create_texture_cube(4, fmt)),
                          ("texture3d", lambda: device.create_texture3d(4, 4, 4, fmt))):
            try:
                make()
                made = True
            except dx.InvalidArgumentError:
                made = False
            assert made == fs[key], (fmt, key, fs[key])
