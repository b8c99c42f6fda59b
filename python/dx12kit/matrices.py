"""Camera and model matrices as Direct3D programs use them, and the rule for uploading them.

The conventions are DirectXMath's, which D3D12 samples, MiniEngine and most D3D engines follow:

* **Row vectors.** A point is a row ``v = [x, y, z, 1]`` and is transformed as ``v @ M``; matrices
  compose left to right: ``world @ view @ proj`` (DirectXMath's ``XMMatrixMultiply(world, view)``).
  The translation sits in the last row.
* **Clip space.** After the perspective divide, x and y run from -1 to 1 and depth from 0 (near) to 1
  (far): D3D's range, not OpenGL's -1..1. ``reversed_z=True`` maps near to 1 and far to 0 (use it with
  a ``greater`` depth test and a depth clear of 0: far better depth precision).
* **Handedness.** ``left_handed=True`` (the default, as in D3D samples): +z looks into the screen.
  Right-handed functions look down -z, like ``XM...RH``.
* **Angles** are in radians.

Every function returns a new ``(4, 4)`` float32 array and follows the formula in DirectXMath's
documentation for the function it names (``XMMatrixPerspectiveFovLH`` and so on).

**Uploading to HLSL.** HLSL packs a ``float4x4`` in a constant buffer *column-major* by default: the
first 16 bytes are the matrix's first column. A row-vector matrix written as it is (rows first)
therefore arrives transposed. Either transpose it on upload, with :func:`to_hlsl`, and write
``mul(v, M)`` in the shader (what the D3D12 samples do with ``XMMatrixTranspose``); or upload it as
it is and write ``mul(M, v)``; or declare the member ``row_major float4x4`` and write ``mul(v, M)``::

    mvp = world @ dx.matrices.look_at(eye, target, up) @ dx.matrices.perspective(fov, aspect, 0.1, 100)
    cl.set_constants(0, dx.matrices.to_hlsl(mvp))      # HLSL: float4x4 mvp; ... mul(float4(p, 1), mvp)
"""
from __future__ import annotations

import math
from typing import Sequence, Union

import numpy as np
import numpy.typing as npt

from .errors import InvalidArgumentError

Matrix = npt.NDArray[np.float32]
Vector3 = Union[Sequence[float], npt.NDArray[np.floating]]

__all__ = ["perspective", "orthographic", "orthographic_off_center", "look_at", "look_to", "rotation_x",
           "rotation_y", "rotation_z", "rotation_axis", "translation", "scaling", "identity", "to_hlsl",
           "transform_points"]


def _m(rows: Sequence[Sequence[float]]) -> Matrix:
    return np.array(rows, dtype=np.float32)


def _vec3(v: Vector3, name: str) -> npt.NDArray[np.float64]:
    a = np.asarray(v, dtype=np.float64)
    if a.shape != (3,):
        raise InvalidArgumentError(f"{name} must be 3 numbers (x, y, z), got shape {a.shape}")
    return a


def _check_planes(near: float, far: float) -> None:
    if not (math.isfinite(near) and math.isfinite(far)) or near == far:
        raise InvalidArgumentError(f"near ({near}) and far ({far}) must be finite and different")


def identity() -> Matrix:
    """The 4x4 identity (``XMMatrixIdentity``)."""
    return np.eye(4, dtype=np.float32)


def perspective(fov_y: float, aspect: float, near: float, far: float, *, left_handed: bool = True,
                reversed_z: bool = False) -> Matrix:
    """Perspective projection (``XMMatrixPerspectiveFovLH`` / ``...RH``).

    Args:
        fov_y: vertical field of view, radians, in (0, pi).
        aspect: width / height of the view.
        near: distance to the near plane (> 0); depth 0 there (1 with ``reversed_z``).
        far: distance to the far plane (> near); depth 1 there (0 with ``reversed_z``).
        left_handed: +z into the screen (True) or -z (False, ``...RH``).
        reversed_z: swap the depth range: near maps to 1, far to 0.

    Returns:
        The (4, 4) float32 projection, for row vectors (``v @ M``).

    Raises:
        InvalidArgumentError: a field of view outside (0, pi), a non-positive aspect, or planes with
            ``0 < near``, ``near != far`` not holding.
    """
    if not 0.0 < fov_y < math.pi:
        raise InvalidArgumentError(f"fov_y must be in (0, pi) radians, got {fov_y}")
    if not aspect > 0.0:
        raise InvalidArgumentError(f"aspect must be positive, got {aspect}")
    if not (near > 0.0 and far > 0.0):
        raise InvalidArgumentError(f"near ({near}) and far ({far}) must be positive")
    _check_planes(near, far)
    if reversed_z:
        near, far = far, near
    h = 1.0 / math.tan(0.5 * fov_y)
    w = h / aspect
    if left_handed:
        r = far / (far - near)
        return _m([[w, 0, 0, 0], [0, h, 0, 0], [0, 0, r, 1], [0, 0, -r * near, 0]])
    r = far / (near - far)
    return _m([[w, 0, 0, 0], [0, h, 0, 0], [0, 0, r, -1], [0, 0, r * near, 0]])


def orthographic(width: float, height: float, near: float, far: float, *, left_handed: bool = True,
                 reversed_z: bool = False) -> Matrix:
    """Orthographic projection of a view volume centred on the axis (``XMMatrixOrthographicLH`` / ``...RH``).

    Args:
        width: width of the view volume.
        height: height of the view volume.
        near: the near plane (depth 0; 1 with ``reversed_z``).
        far: the far plane (depth 1; 0 with ``reversed_z``).
        left_handed: +z into the screen (True) or -z (False).
        reversed_z: swap the depth range.

    Returns:
        The (4, 4) float32 projection.

    Raises:
        InvalidArgumentError: a non-positive width or height, or near == far.
    """
    if not (width > 0.0 and height > 0.0):
        raise InvalidArgumentError(f"width ({width}) and height ({height}) must be positive")
    return orthographic_off_center(-width / 2, width / 2, -height / 2, height / 2, near, far,
                                   left_handed=left_handed, reversed_z=reversed_z)


def orthographic_off_center(left: float, right: float, bottom: float, top: float, near: float, far: float, *,
                            left_handed: bool = True, reversed_z: bool = False) -> Matrix:
    """Orthographic projection of any box (``XMMatrixOrthographicOffCenterLH`` / ``...RH``).

    Args:
        left: x that maps to -1.
        right: x that maps to +1.
        bottom: y that maps to -1.
        top: y that maps to +1.
        near: the near plane (depth 0; 1 with ``reversed_z``).
        far: the far plane (depth 1; 0 with ``reversed_z``).
        left_handed: +z into the screen (True) or -z (False).
        reversed_z: swap the depth range.

    Returns:
        The (4, 4) float32 projection.

    Raises:
        InvalidArgumentError: left == right, bottom == top or near == far.
    """
    if left == right or bottom == top:
        raise InvalidArgumentError("left/right and bottom/top must differ")
    _check_planes(near, far)
    if reversed_z:
        near, far = far, near
    rw = 1.0 / (right - left)
    rh = 1.0 / (top - bottom)
    r = 1.0 / (far - near) if left_handed else 1.0 / (near - far)
    return _m([[2 * rw, 0, 0, 0], [0, 2 * rh, 0, 0], [0, 0, r, 0],
               [-(left + right) * rw, -(top + bottom) * rh, -r * near if left_handed else r * near, 1]])


def look_to(eye: Vector3, direction: Vector3, up: Vector3 = (0.0, 1.0, 0.0), *, left_handed: bool = True) -> Matrix:
    """View matrix of a camera at ``eye`` looking along ``direction`` (``XMMatrixLookToLH`` / ``...RH``).

    Args:
        eye: the camera's position.
        direction: where it looks (need not be unit length).
        up: the world's up direction (not parallel to ``direction``).
        left_handed: the camera looks down +z of view space (True) or -z (False).

    Returns:
        The (4, 4) float32 view matrix: ``eye`` goes to the origin.

    Raises:
        InvalidArgumentError: a zero direction, or ``up`` parallel to it.
    """
    e, d, u = _vec3(eye, "eye"), _vec3(direction, "direction"), _vec3(up, "up")
    if not left_handed:
        d = -d
    n = np.linalg.norm(d)
    if n == 0.0:
        raise InvalidArgumentError("direction must not be zero")
    r2 = d / n
    r0 = np.cross(u, r2)
    n0 = np.linalg.norm(r0)
    if n0 < 1e-12:
        raise InvalidArgumentError("up must not be parallel to the view direction")
    r0 /= n0
    r1 = np.cross(r2, r0)
    m = np.eye(4)
    m[:3, 0], m[:3, 1], m[:3, 2] = r0, r1, r2
    m[3, :3] = [-np.dot(r0, e), -np.dot(r1, e), -np.dot(r2, e)]
    return m.astype(np.float32)


def look_at(eye: Vector3, target: Vector3, up: Vector3 = (0.0, 1.0, 0.0), *, left_handed: bool = True) -> Matrix:
    """View matrix of a camera at ``eye`` looking at ``target`` (``XMMatrixLookAtLH`` / ``...RH``).

    Args:
        eye: the camera's position.
        target: the point it looks at (not ``eye``).
        up: the world's up direction.
        left_handed: as :func:`look_to`.

    Returns:
        The (4, 4) float32 view matrix.

    Raises:
        InvalidArgumentError: ``target == eye`` or ``up`` parallel to the view direction.
    """
    return look_to(eye, _vec3(target, "target") - _vec3(eye, "eye"), up, left_handed=left_handed)


def _plane_rotation(angle: float, i: int, j: int) -> Matrix:
    """Rotation in the plane of axes i and j (row-vector form: row i gets +sin at column j)."""
    c, s = math.cos(angle), math.sin(angle)
    m = np.identity(4, dtype=np.float64)
    m[i, i] = m[j, j] = c
    m[i, j], m[j, i] = s, -s
    return _m(m.tolist())


def rotation_x(angle: float) -> Matrix:
    """Rotation about +x by ``angle`` radians (``XMMatrixRotationX``): clockwise looking along +x from the origin.

    Args:
        angle: radians.

    Returns:
        A 4x4 float32 row-vector matrix.
    """
    return _plane_rotation(angle, 1, 2)


def rotation_y(angle: float) -> Matrix:
    """Rotation about +y by ``angle`` radians (``XMMatrixRotationY``).

    Args:
        angle: radians.

    Returns:
        A 4x4 float32 row-vector matrix.
    """
    return _plane_rotation(angle, 2, 0)


def rotation_z(angle: float) -> Matrix:
    """Rotation about +z by ``angle`` radians (``XMMatrixRotationZ``).

    Args:
        angle: radians.

    Returns:
        A 4x4 float32 row-vector matrix.
    """
    return _plane_rotation(angle, 0, 1)


def rotation_axis(axis: Vector3, angle: float) -> Matrix:
    """Rotation about ``axis`` (any length but zero) by ``angle`` radians (``XMMatrixRotationAxis``).
    Args:
        axis: the rotation axis (three numbers, normalized here).
        angle: radians.

    Returns:
        A 4x4 float32 row-vector matrix.


    Raises:
        InvalidArgumentError: a zero axis.
    """
    a = _vec3(axis, "axis")
    n = np.linalg.norm(a)
    if n == 0.0:
        raise InvalidArgumentError("axis must not be zero")
    x, y, z = a / n
    c, s = math.cos(angle), math.sin(angle)
    t = 1.0 - c
    # Rodrigues' formula as a row-vector matrix (the transpose of the column-vector form).
    return _m([[t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0],
               [t * x * y - s * z, t * y * y + c, t * y * z + s * x, 0],
               [t * x * z + s * y, t * y * z - s * x, t * z * z + c, 0],
               [0, 0, 0, 1]])


def translation(x: float, y: float, z: float) -> Matrix:
    """Translation by (x, y, z) (``XMMatrixTranslation``): the offsets sit in the last row.

    Args:
        x, y, z: the offsets.

    Returns:
        A 4x4 float32 row-vector matrix.
    """
    return _m([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [x, y, z, 1]])


def scaling(x: float, y: float, z: float) -> Matrix:
    """Scaling by (x, y, z) along the axes (``XMMatrixScaling``).

    Args:
        x, y, z: the scale factors along the axes.

    Returns:
        A 4x4 float32 row-vector matrix.
    """
    return _m([[x, 0, 0, 0], [0, y, 0, 0], [0, 0, z, 0], [0, 0, 0, 1]])


def to_hlsl(m: npt.ArrayLike) -> Matrix:
    """The bytes to upload for a default (column-major) HLSL ``float4x4`` used as ``mul(v, M)``.

    Transposes ``m`` (DirectXMath's ``XMMatrixTranspose`` before a constant-buffer upload) and
    returns it C-contiguous float32, ready for ``set_constants``, ``set_dynamic_constant_buffer`` or
    an upload. For a ``row_major float4x4`` member, or ``mul(M, v)`` in the shader, upload ``m``
    unchanged instead.
    Args:
        m: a 4x4 matrix (any array-like).

    Returns:
        The transposed matrix, C-contiguous float32.


    Raises:
        InvalidArgumentError: ``m`` is not 4x4.
    """
    a = np.asarray(m, dtype=np.float32)
    if a.shape != (4, 4):
        raise InvalidArgumentError(f"to_hlsl takes a 4x4 matrix, got shape {a.shape}")
    return np.ascontiguousarray(a.T)


def transform_points(points: npt.ArrayLike, m: npt.ArrayLike, *, divide: bool = True) -> npt.NDArray[np.float64]:
    """Transforms (n, 3) points by ``m`` as the GPU would (``[x, y, z, 1] @ m``), in float64.

    Args:
        points: (n, 3) or (3,) positions.
        m: a (4, 4) matrix.
        divide: divide by w (clip space to normalised device coordinates).

    Returns:
        (n, 3) coordinates after the divide, or (n, 4) homogeneous ones without it.
    """
    p = np.atleast_2d(np.asarray(points, dtype=np.float64))
    h = np.concatenate([p, np.ones((p.shape[0], 1))], axis=1) @ np.asarray(m, dtype=np.float64)
    return h[:, :3] / h[:, 3:4] if divide else h
