"""Deliberate misuses of dx12kit's public API that mypy --strict must reject, each beside its correct
twin that it must accept (tests/test_typing.py).

Each misuse carries ``# type: ignore[<code>]``: under --strict (warn_unused_ignores) an ignore that
suppresses nothing is itself an error, so a misuse mypy stops catching fails the test, and the
named code says which error it must be. Not run (no test_ prefix): it only has to type-check.
"""
from __future__ import annotations

import numpy as np

import dx12kit as dx


def choices(dev: dx.Device) -> None:
    dev.queue("compute")
    dev.queue("compte")  # type: ignore[arg-type]  # misspelt name
    dev.queue(dx.QueueKind.COPY)
    dev.queue(dx.HeapType.UPLOAD)  # type: ignore[arg-type]  # a member of the wrong enum
    dev.create_buffer(256, heap="upload")
    dev.create_buffer(256, heap="uplaod")  # type: ignore[arg-type]
    dev.create_sampler(filter=dx.Filter.POINT, address="wrap")
    dev.create_sampler(filter=dx.AddressMode.WRAP, address="wrap")  # type: ignore[arg-type]
    dx.RootConstants(0, 4, visibility="pixel")
    dx.RootConstants(0, 4, visibility="pixle")  # type: ignore[arg-type]
    dev.create_pool(algorithm=dx.PoolAlgorithm.LINEAR)
    dev.create_pool(algorithm="buddy")  # type: ignore[arg-type]
    dev.create_texture2d(4, 4, "rgba16_float")
    dev.create_texture2d(4, 4, dx.Format.R32_FLOAT)
    dev.create_texture2d(4, 4, "rgba16_flaot")  # type: ignore[arg-type]  # misspelt format name
    dev.create_texture2d(4, 4, dx.HeapType.UPLOAD)  # type: ignore[arg-type]  # not a Format
    dev.format_support("bgra8_unorm")
    dev.format_support("bgra8")  # type: ignore[arg-type]


def sizes(dev: dx.Device) -> None:
    dev.create_buffer(1024)
    dev.create_buffer(np.uint32(1024))
    dev.create_buffer("1024")  # type: ignore[arg-type]  # a string for a size
    dev.create_texture2d(64, 64)
    dev.create_texture2d(64.0, 64)  # type: ignore[arg-type]  # a float for a size


def results(dev: dx.Device) -> None:
    buf = dev.create_buffer(64)
    size: int = buf.size
    name: str = buf.name
    wrong: str = buf.size  # type: ignore[assignment]  # a wrong use of a result
    fence: int = dev.queue().execute(dev.queue().command_list())
    dev.queue().wait(fence)
    dev.queue().wait(str(fence))  # type: ignore[arg-type]
    written: int = dev.queue().write_buffer(buf, np.zeros(16, np.float32), offset=0)
    dev.queue().wait(written)
    dev.queue().write_buffer(buf, np.zeros(16, np.float32), offset="0")  # type: ignore[arg-type]  # a string for an offset
    buf.no_such_attribute  # type: ignore[attr-defined]
    dx.Buffer(64)  # type: ignore[call-arg]  # made by Device.create_buffer only
    del size, name, wrong


def pipeline_states(dev: dx.Device, vs: dx.Shader, ps: dx.Shader, rs: dx.RootSignature) -> None:
    dx.BlendState(src_blend="src_alpha", dest_blend=dx.Blend.ONE, write_mask=dx.ColorWriteEnable.RED)
    dx.BlendState(src_blend="source_alpha")  # type: ignore[arg-type]  # misspelt factor
    dx.RasterizerState(fill="wireframe", cull="back", front_ccw=True)
    dx.RasterizerState(fill="wire")  # type: ignore[arg-type]
    dx.DepthStencilState(depth_func="less_equal", front=dx.StencilFace(pass_op="incr"))
    dx.DepthStencilState(front=dx.StencilOp.INCR)  # type: ignore[arg-type]  # an op where a face belongs
    dx.InputElement("COLOR", "float4", 1, per_instance=True, step_rate=2)
    dx.InputElement(b"COLOR", "float4")  # type: ignore[arg-type]  # bytes for the semantic
    dev.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], blend=[dx.BlendState(), "alpha"], topology="patch_list_4",
                                 rasterizer=dx.RasterizerState())
    dev.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], topology="patch_list_33")  # type: ignore[arg-type]
    dev.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], rasterizer=dx.DepthStencilState())  # type: ignore[arg-type]


def render_graph(dev: dx.Device, tex: dx.Texture) -> None:
    g = dx.RenderGraph(dev)
    t = g.create_texture("t", 8, 8, "rgba8_unorm")
    g.add_pass("p", lambda cl, res: None, queue="compute", writes=[t])
    g.add_pass("p", lambda cl, res: None, queue="compte", writes=[t])  # type: ignore[arg-type]  # misspelt queue
    g.add_pass("p", lambda cl, res: None, queue=dx.QueueKind.COPY, copy_to=[t])
    g.add_pass("p", lambda cl, res: None, reads=[tex])  # type: ignore[list-item]  # a Texture, not a graph handle
    g.aliasing = False
    g.aliasing = 0  # type: ignore[assignment]  # an int, not a bool (TypeError at run time too)
    dx.RenderGraph(dev, aliasing=True)
    dx.RenderGraph(dev, aliasing="no")  # type: ignore[arg-type]
    cl = dev.queue().command_list()
    cl.resource_barriers(dx.BarrierBatch([("uav", None)]))
    cl.resource_barriers([("uav", None)])  # type: ignore[arg-type]  # a list, not a BarrierBatch


def buffer_views_and_flags(dev: dx.Device, cl: dx.CommandList, buf: dx.Buffer) -> None:
    cl.set_shader_resource_view(0, 0, buf, stride=16, first_element=2, num_elements=8)
    cl.set_shader_resource_view(0, 0, buf, stride="16")  # type: ignore[arg-type]
    cl.set_unordered_access_view(0, 1, buf, raw=True)
    cl.set_unordered_access_view(0, 1, buf, raw="yes")  # type: ignore[arg-type]
    cl.set_shader_resource_view(0, 2, buf, format=dx.Format.RGBA32_FLOAT, num_elements=4)
    cl.set_shader_resource_view(0, 2, buf, format=1.5)  # type: ignore[arg-type]
    dev.create_root_signature([], flags=dx.RootSignatureFlags.ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT)
    dev.create_root_signature([], flags="ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT")  # type: ignore[arg-type]  # names are not flags
    dx.SRV(0, flags=dx.DescriptorRangeFlags.DESCRIPTORS_VOLATILE | dx.DescriptorRangeFlags.DATA_VOLATILE)
    dx.SRV(0, flags=1.0)  # type: ignore[arg-type]
    dx.RootCBV(0, flags=dx.RootDescriptorFlags.DATA_STATIC)
    dx.RootCBV(0, flags="DATA_STATIC")  # type: ignore[arg-type]
    dx.RootSignatureFlags.DENY_MESH_SHADER_ROOT_ACCESS  # type: ignore[attr-defined]  # vkd3d 1.2 cannot honour it


def batched(cl: dx.CommandList, rows: np.ndarray) -> None:
    cl.draw_many(3, rows, root_index=0, instance_count=2)
    cl.draw_many(3, rows, 0)  # type: ignore[call-arg]  # root_index is keyword-only
    cl.dispatch_many((1, 1, 1), rows, root_index=1)
    cl.dispatch_many((1, 1, 1), rows, root=1)  # type: ignore[call-arg]  # misspelt keyword
    cl.draw(3, instance_count=2)
    cl.draw("3")  # type: ignore[arg-type]  # counts are ints
    cl.dispatch(1.5)  # type: ignore[arg-type]
    cl.set_blend_factor((0.25, 0.5, 0.75, 1.0))
    cl.set_blend_factor(rgb=(1.0, 1.0, 1.0, 1.0))  # type: ignore[call-arg]  # the keyword is rgba


def defragmenting(dev: dx.Device) -> None:
    dev.defragment(pool=dev.create_pool(heap="custom"), algorithm="full", max_moves=4)
    dev.defragment(algorithm="fulll")  # type: ignore[arg-type]  # misspelt algorithm
    dev.defragment(dev.create_pool())  # type: ignore[call-arg]  # pool is keyword-only


def resources(dev: dx.Device, cl: dx.CommandList, buf: dx.Buffer, tex: dx.Texture, q: dx.CommandQueue) -> None:
    cl.copy_buffer_region(buf, 0, buf, 16, 16)
    cl.copy_buffer_region(tex, 0, buf, 16, 16)  # type: ignore[arg-type]  # a texture where a buffer belongs
    cl.copy_resource(tex, tex)
    cl.copy_resource("dst", tex)  # type: ignore[arg-type]
    cl.transition_barrier(buf, dx.ResourceState.COPY_SOURCE)
    cl.transition_barrier(None, dx.ResourceState.COPY_SOURCE)  # type: ignore[arg-type]  # None is not a resource
    cl.uav_barrier(None)
    cl.set_root_cbv(0, buf)
    cl.set_root_cbv(0, tex)  # type: ignore[arg-type]  # root views take buffers
    cl.clear_render_target(tex, (0.0, 0.0, 0.0, 1.0))
    cl.clear_render_target(buf, (0.0, 0.0, 0.0, 1.0))  # type: ignore[arg-type]
    cl.set_render_targets([tex], depth=None)
    cl.set_render_targets([buf])  # type: ignore[list-item]  # render targets are textures
    cl.set_predication(None)
    q.read_texture(tex)
    q.read_texture(buf)  # type: ignore[arg-type]
    dev.create_buffer(64, name="vertices", pool=dev.create_pool())
    dev.create_buffer(64, name=3)  # type: ignore[arg-type]  # names are str
    dev.create_buffer(64, pool=dev.create_pool(), memory=dev.allocate_memory(65536))
    dev.create_buffer(64, pool="default")  # type: ignore[arg-type]
