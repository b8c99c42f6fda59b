"""dx12kit.matrices: DirectXMath's conventions, checked by what the matrices do to points (the
documented formulas' defining properties), and the upload rule checked on the GPU."""
from __future__ import annotations

import math

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import matrices as xm


def test_perspective_maps_near_to_0_far_to_1_and_the_frustum_edges_to_1():
    fov, aspect, n, f = math.radians(60), 16 / 9, 0.5, 50.0
    p = xm.perspective(fov, aspect, n, f)
    t = math.tan(fov / 2)
    ndc = xm.transform_points([[0, 0, n], [0, 0, f], [n * t * aspect, n * t, n], [-f * t * aspect, -f * t, f]], p)
    assert np.allclose(ndc, [[0, 0, 0], [0, 0, 1], [1, 1, 0], [-1, -1, 1]], atol=1e-5)
    # XMMatrixPerspectiveFovLH's documented entries.
    h = 1 / t
    assert np.allclose(p, [[h / aspect, 0, 0, 0], [0, h, 0, 0], [0, 0, f / (f - n), 1], [0, 0, -n * f / (f - n), 0]])


def test_right_handed_and_reversed_z():
    p = xm.perspective(1.0, 1.0, 1.0, 10.0, left_handed=False)
    assert np.allclose(xm.transform_points([[0, 0, -1], [0, 0, -10]], p)[:, 2], [0, 1], atol=1e-6)
    r = xm.perspective(1.0, 1.0, 1.0, 10.0, reversed_z=True)
    assert np.allclose(xm.transform_points([[0, 0, 1], [0, 0, 10]], r)[:, 2], [1, 0], atol=1e-6)
    o = xm.orthographic(4, 2, 1, 5)
    assert np.allclose(xm.transform_points([[2, 1, 1], [-2, -1, 5]], o), [[1, 1, 0], [-1, -1, 1]], atol=1e-6)
    orh = xm.orthographic_off_center(0, 8, 0, 4, 1, 5, left_handed=False, reversed_z=True)
    assert np.allclose(xm.transform_points([[8, 4, -1], [0, 0, -5]], orh), [[1, 1, 1], [-1, -1, 0]], atol=1e-6)


def test_look_at_puts_the_eye_at_the_origin_and_the_target_on_plus_z():
    eye, target = np.array([3.0, 4.0, -5.0]), np.array([1.0, 0.5, 2.0])
    v = xm.look_at(eye, target)
    pts = xm.transform_points([eye, target, eye + [0, 1, 0]], v)
    dist = np.linalg.norm(target - eye)
    assert np.allclose(pts[0], 0, atol=1e-5) and np.allclose(pts[1], [0, 0, dist], atol=1e-4)
    assert pts[2][1] > 0                                    # up stays up
    assert np.allclose(v[:3, :3] @ v[:3, :3].T, np.eye(3), atol=1e-6)   # a rotation
    vr = xm.look_at(eye, target, left_handed=False)
    assert np.allclose(xm.transform_points([target], vr)[0], [0, 0, -dist], atol=1e-4)


def test_rotations_follow_directxmath_and_compose_left_to_right():
    a = 0.7
    x = [1.0, 0, 0]
    # XMMatrixRotationZ: +x turns towards +y.
    assert np.allclose(xm.transform_points([x], xm.rotation_z(a))[0], [math.cos(a), math.sin(a), 0], atol=1e-6)
    assert np.allclose(xm.transform_points([[0, 1, 0]], xm.rotation_x(a))[0], [0, math.cos(a), math.sin(a)], atol=1e-6)
    assert np.allclose(xm.transform_points([[0, 0, 1]], xm.rotation_y(a))[0], [math.sin(a), 0, math.cos(a)], atol=1e-6)
    for axis, f in (([1, 0, 0], xm.rotation_x), ([0, 2, 0], xm.rotation_y), ([0, 0, 5], xm.rotation_z)):
        assert np.allclose(xm.rotation_axis(axis, a), f(a), atol=1e-6)
    # world = scale, then rotate, then translate: left to right.
    w = xm.scaling(2, 2, 2) @ xm.rotation_z(math.pi / 2) @ xm.translation(10, 0, 0)
    assert np.allclose(xm.transform_points([x], w)[0], [10, 2, 0], atol=1e-5)


@pytest.mark.parametrize("call", [
    lambda: xm.perspective(0.0, 1, 1, 2), lambda: xm.perspective(1.0, -1, 1, 2), lambda: xm.perspective(1.0, 1, 0, 2),
    lambda: xm.perspective(1.0, 1, 2, 2), lambda: xm.look_at([0, 0, 0], [0, 0, 0]),
    lambda: xm.look_at([0, 0, 0], [0, 5, 0]), lambda: xm.rotation_axis([0, 0, 0], 1.0), lambda: xm.to_hlsl(np.eye(3)),
    lambda: xm.look_at([0, 0], [0, 0, 1]), lambda: xm.orthographic(0, 1, 0, 1),
])
def test_bad_values_raise_invalid_argument(call):
    with pytest.raises(dx.InvalidArgumentError):
        call()


def test_upload_rule_on_the_gpu(device, queue):
    """to_hlsl(M) in a default (column-major) cbuffer with mul(v, M), M as it is with mul(M, v) and with a
    row_major member: all three give numpy's v @ M."""
    m = (xm.rotation_axis([1, 2, 3], 0.9) @ xm.translation(1, -2, 3) @
         xm.look_at([0, 2, -6], [0, 0, 0]) @ xm.perspective(1.1, 1.5, 0.1, 100))
    cs = dx.compile_hlsl("""
        cbuffer C : register(b0) { float4x4 t; float4x4 m; row_major float4x4 r; };
        RWStructuredBuffer<float4> o : register(u0);
        [numthreads(1, 1, 1)] void main(uint3 i : SV_DispatchThreadID) {
            float4 v = float4(1.5, -0.5, 2.0, 1.0);
            o[0] = mul(v, t); o[1] = mul(m, v); o[2] = mul(v, r);
        }""", profile="cs_5_0")
    rs = device.create_root_signature([dx.RootConstants(0, 48), dx.RootUAV(0)])
    pso = device.create_compute_pipeline(cs, rs)
    out = device.create_buffer(48, uav=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_constants(0, np.concatenate([xm.to_hlsl(m).ravel(), m.ravel(), m.ravel()]))
    cl.set_root_uav(1, out)
    cl.dispatch(1)
    queue.wait(queue.execute(cl))
    got = queue.read_buffer(out, dtype=np.float32).reshape(3, 4)
    want = np.array([1.5, -0.5, 2.0, 1.0]) @ m.astype(np.float64)
    assert np.allclose(got, want, rtol=1e-5, atol=1e-5), (got, want)
