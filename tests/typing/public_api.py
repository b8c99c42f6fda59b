"""Typed uses of dx12kit's public API, checked by ``mypy --strict`` (tests/test_typing.py).

Not run as a test (no test_ prefix): it only has to type-check. It covers what the tests and the
README use: the device, queues and lists, resources, root signatures and pipelines, samplers, the
enums, memory pools, the allocators and the errors.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

import dx12kit as dx
from dx12kit import alloc


def buffers(dev: dx.Device) -> int:
    buf = dev.create_buffer(1024, uav=True, name="data")
    size: int = buf.size
    address: int = buf.gpu_address
    staging = dev.create_buffer(4096, heap=dx.HeapType.UPLOAD, name="staging")
    return size + address + staging.size


def textures(dev: dx.Device) -> tuple[int, int]:
    tex = dev.create_texture2d(64, 32, "rgba8_unorm", mip_levels=2, name="albedo")
    fmt: dx.Format = tex.format
    assert fmt == dx.Format.RGBA8_UNORM
    return tex.width, tex.height


def queues(dev: dx.Device) -> np.ndarray:
    q: dx.CommandQueue = dev.queue(dx.QueueKind.COMPUTE)
    direct = dev.queue("direct")
    buf = dev.create_buffer(1024)
    cl: dx.CommandList = q.command_list()
    cl.upload(buf, np.arange(256, dtype=np.float32))
    fence: int = q.execute(cl)
    q.wait(fence)
    out: np.ndarray = q.read_buffer(buf, dtype=np.float32)
    assert direct.kind == "direct"
    return out


def pipelines(dev: dx.Device, cs: bytes) -> dx.PipelineState:
    rs: dx.RootSignature = dev.create_root_signature(
        [dx.RootConstants(0, 2), dx.DescriptorTable([dx.UAV(0)]), dx.DescriptorTable([dx.SamplerRange(0)])],
        name="compute")
    sampler: dx.SamplerState = dev.create_sampler(filter=dx.Filter.POINT, address=dx.AddressMode.WRAP, name="s")
    sampler.name = "renamed"
    pso = dev.create_compute_pipeline(cs, rs, name="cs")
    assert pso.is_compute and pso.root_signature.num_parameters == 3
    return pso


def enums() -> list[str]:
    kinds: list[dx.QueueKind] = list(dx.QueueKind)
    values = [k.value for k in kinds]
    assert dx.CullMode.BACK.value == "back"
    cull: str = dx.CullMode.BACK  # a member is a str
    return values + [cull, str(dx.Topology.TRIANGLE)]


def memory(dev: dx.Device) -> int:
    pool: dx.Pool = dev.create_pool(block_size=4 << 20, max_blocks=2, algorithm=dx.PoolAlgorithm.LINEAR, name="frame")
    buf = dev.create_buffer(256 << 10, pool=pool, name="scratch")
    return buf.size


def allocators() -> int | None:
    heap = alloc.FreeList(1024)
    a = heap.allocate(16)
    heap.validate()
    return a


def errors(dev: dx.Device) -> str:
    try:
        dev.create_buffer(0)
    except dx.InvalidArgumentError as e:
        return str(e)
    except dx.Dx12Error:
        raise
    return ""


def cubes_and_loading(dev: dx.Device, q: dx.CommandQueue) -> tuple[int, ...]:
    pano: dx.Texture = dev.load_texture(np.zeros((8, 16, 3), np.uint8), srgb=True, generate_mips=False, name="pano")
    cube: dx.Texture = dev.create_texture_cube(8, "rgba8_unorm_srgb", mip_levels=0)
    vol: dx.Texture = dev.create_texture3d(4, 4, 4, dx.Format.R32_FLOAT, uav=True)
    cl = q.command_list()
    cl.pano_to_cubemap(cube, pano)
    q.wait(q.execute(cl))
    face: np.ndarray = q.read_texture(cube, 0, array_slice=2)
    assert cube.dimension == "cube" and vol.depth == 4 and face.ndim == 3
    return vol.shape


def format_support_and_names(dev: dx.Device, q: dx.CommandQueue) -> Mapping[str, Any]:
    fs = dev.format_support(dx.Format.RGBA8_UNORM)
    rt: bool = fs.render_target
    msaa: Any = fs.get("msaa", [1])
    pairs: list[tuple[str, Any]] = list(fs.items())
    same: bool = fs == {k: v for k, v in pairs}
    name: str = str(dx.Format.RGBA8_UNORM) + f"{dx.ResourceState.COPY_DEST}"
    raw: np.ndarray = q.read_buffer(dev.create_buffer(16), dtype=None)
    assert rt and msaa and same and name and raw.size == 16
    return fs
