"""A frame of a small deferred renderer, as a :class:`~dx12kit.RenderGraph` and recorded by hand.

Passes: a shadow map (depth only), a G-buffer (two targets and depth), lighting on the compute queue
reading all four, a UI overlay on the direct queue that does not depend on lighting (so it may run
beside it), two blur passes ping-ponging transients, tone mapping into an imported texture, and a
debug view whose output nobody reads (culled). ``RenderGraph.to_png`` draws its queues and memory map.
Used by the tests and benchmarks; small on purpose (128x128, a box on a ground plane).
"""
from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import matrices as xm
from .dx12core import (
    CommandList,
    DescriptorTable,
    Device,
    Format,
    PipelineState,
    RootCBV,
    ResourceState,
    RootConstants,
    SRV,
    Texture,
    UAV,
)
from .graph import GraphResource, RenderGraph
from .shaders import compile_hlsl

__all__ = ["DeferredAssets", "build_deferred_graph", "record_deferred_by_hand", "record_deferred_by_hand_queues",
           "build_compute_post_graph", "record_compute_post_by_hand",
           "by_hand_textures", "SIZE", "SHADOW_SIZE"]

SIZE = 128
SHADOW_SIZE = 64

_CB = "cbuffer C : register(b0) { float4x4 mvp; float4x4 light; float4 ldir; };\n"
_VI = "struct VI { float3 pos : POSITION; float3 nrm : NORMAL; float4 col : COLOR; };\n"
_VO = "struct VO { float4 pos : SV_Position; float4 col : COLOR; float4 lp : TEXCOORD0; float3 nrm : NORMAL; };\n"

_SHADOW_VS = _CB + _VI + "float4 main(VI i) : SV_Position { return mul(float4(i.pos, 1), light); }"
_SHADOW_PS = "float4 main(float4 p : SV_Position) : SV_Target { return float4(0, 0, 0, 0); }"
_GBUF_VS = _CB + _VI + _VO + """
VO main(VI i) { VO o; o.pos = mul(float4(i.pos, 1), mvp); o.lp = mul(float4(i.pos, 1), light);
  o.col = i.col; o.nrm = i.nrm; return o; }"""
_GBUF_PS = _CB + _VO + """
struct PO { float4 albedo : SV_Target0; float4 g1 : SV_Target1; };
PO main(VO i) { PO o; o.albedo = i.col; float ndl = saturate(dot(normalize(i.nrm), -ldir.xyz));
  float3 l = i.lp.xyz / i.lp.w; o.g1 = float4(ndl, l.x * 0.5 + 0.5, 0.5 - l.y * 0.5, l.z); return o; }"""
_LIGHT_CS = """
Texture2D<float4> albedo : register(t0);
Texture2D<float4> g1 : register(t1);
Texture2D<float> depth : register(t2);
Texture2D<float> shadow : register(t3);
RWTexture2D<float4> hdr : register(u0);
[numthreads(8, 8, 1)] void main(uint3 id : SV_DispatchThreadID) {
  float4 a = albedo.Load(int3(id.xy, 0)); float4 g = g1.Load(int3(id.xy, 0)); float d = depth.Load(int3(id.xy, 0));
  float3 c = float3(0.3, 0.5, 0.9);
  if (d < 1.0) {
    int2 sp = clamp(int2(g.yz * 64.0), int2(0, 0), int2(63, 63));
    float sd = shadow.Load(int3(sp, 0));
    float lit = (g.w - 0.01 <= sd) ? 1.0 : 0.0;
    c = a.rgb * (0.15 + 1.6 * g.x * lit);
  }
  hdr[id.xy] = float4(c, 1);
}"""
_FULL_VS = """
struct V { float4 pos : SV_Position; float2 uv : TEXCOORD0; };
V main(uint id : SV_VertexID) { V o; o.uv = float2((id << 1) & 2, id & 2);
  o.pos = float4(o.uv * float2(2, -2) + float2(-1, 1), 0, 1); return o; }"""
_BLUR_PS = """
cbuffer B : register(b0) { float2 dir; float2 pad; };
Texture2D<float4> src : register(t0);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
  int2 p = int2(pos.xy); float4 s = float4(0, 0, 0, 0);
  for (int k = -2; k <= 2; k++) {
    int2 q = clamp(p + int2(dir) * k, int2(0, 0), int2(127, 127));
    float w = (k == 0) ? 0.4 : ((abs(k) == 1) ? 0.2 : 0.1);
    s += src.Load(int3(q, 0)) * w;
  }
  return s;
}"""
_TONE_PS = """
cbuffer B : register(b0) { float4 k; };
Texture2D<float4> hdr : register(t0);
Texture2D<float4> bloom : register(t1);
Texture2D<float4> ui : register(t2);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
  int3 p = int3(int2(pos.xy), 0);
  float3 c = hdr.Load(p).rgb + k.x * bloom.Load(p).rgb; c = c / (1.0 + c);
  float4 u = ui.Load(p); return float4(lerp(c, u.rgb, u.a), 1);
}"""
_UI_PS = """
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
  if (pos.x > 8 && pos.x < 60 && pos.y > 8 && pos.y < 20) return float4(1, 0.9, 0.2, 0.8);
  return float4(0, 0, 0, 0);
}"""
_DEBUG_PS = """
Texture2D<float4> g1 : register(t0);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target { return g1.Load(int3(int2(pos.xy), 0)); }"""


def _box_and_ground() -> np.ndarray:
    """Vertices (pos3, normal3, colour4) of a ground quad and a box, as float32 rows."""
    rows: List[List[float]] = []

    def quad(p: List[Tuple[float, float, float]], n: Tuple[float, float, float], c: Tuple[float, ...]) -> None:
        for i in (0, 1, 2, 0, 2, 3):
            rows.append(list(p[i]) + list(n) + list(c))

    quad([(-3, 0, -3), (-3, 0, 3), (3, 0, 3), (3, 0, -3)], (0, 1, 0), (0.6, 0.6, 0.55, 1))
    c = (0.9, 0.3, 0.2, 1)
    x0, x1, y0, y1, z0, z1 = -0.6, 0.6, 0.0, 1.2, -0.6, 0.6
    quad([(x0, y1, z0), (x0, y1, z1), (x1, y1, z1), (x1, y1, z0)], (0, 1, 0), c)
    quad([(x0, y0, z0), (x0, y1, z0), (x1, y1, z0), (x1, y0, z0)], (0, 0, -1), c)
    quad([(x1, y0, z1), (x1, y1, z1), (x0, y1, z1), (x0, y0, z1)], (0, 0, 1), c)
    quad([(x0, y0, z1), (x0, y1, z1), (x0, y1, z0), (x0, y0, z0)], (-1, 0, 0), c)
    quad([(x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1)], (1, 0, 0), c)
    return np.asarray(rows, dtype=np.float32)


class DeferredAssets:
    """Pipelines, geometry and constants of the demo frame (compiled once per device).

    Args:
        dev: the device.
    """

    _cache: Dict[int, "DeferredAssets"] = {}

    def __init__(self, dev: Device) -> None:
        layout = [("POSITION", "float3", 0, 0), ("NORMAL", "float3", 0, 12), ("COLOR", "float4", 0, 24)]
        self.rs_geo = dev.create_root_signature([RootCBV(0)])
        self.shadow = dev.create_graphics_pipeline(compile_hlsl(_SHADOW_VS, profile="vs_5_0"),
                                                   compile_hlsl(_SHADOW_PS, profile="ps_5_0"), self.rs_geo, [],
                                                   dsv_format="d32_float", input_layout=layout, depth_test=True)
        self.gbuffer = dev.create_graphics_pipeline(compile_hlsl(_GBUF_VS, profile="vs_5_0"),
                                                    compile_hlsl(_GBUF_PS, profile="ps_5_0"), self.rs_geo,
                                                    ["rgba8_unorm", "rgba16_float"], dsv_format="d32_float",
                                                    input_layout=layout, depth_test=True)
        self.rs_cs = dev.create_root_signature([DescriptorTable([SRV(0, count=4), UAV(0)])])
        self.light = dev.create_compute_pipeline(compile_hlsl(_LIGHT_CS, profile="cs_5_0"), self.rs_cs)
        full = compile_hlsl(_FULL_VS, profile="vs_5_0")
        self.rs_one = dev.create_root_signature([RootConstants(0, 4), DescriptorTable([SRV(0)])])
        self.rs_three = dev.create_root_signature([RootConstants(0, 4), DescriptorTable([SRV(0, count=3)])])
        self.rs_none = dev.create_root_signature([])
        self.blur = dev.create_graphics_pipeline(full, compile_hlsl(_BLUR_PS, profile="ps_5_0"), self.rs_one,
                                                 ["rgba16_float"])
        self.tone = dev.create_graphics_pipeline(full, compile_hlsl(_TONE_PS, profile="ps_5_0"), self.rs_three,
                                                 ["rgba8_unorm"])
        self.ui = dev.create_graphics_pipeline(full, compile_hlsl(_UI_PS, profile="ps_5_0"), self.rs_none,
                                               ["rgba8_unorm"])
        self.debug = dev.create_graphics_pipeline(full, compile_hlsl(_DEBUG_PS, profile="ps_5_0"), self.rs_one,
                                                  ["rgba8_unorm"])
        self.vertices = _box_and_ground()
        light = xm.look_at(eye=(3, 5, -2), target=(0, 0, 0)) @ xm.orthographic(8, 8, 0.1, 12)
        cam = xm.look_at(eye=(0, 3, -5), target=(0, 0.5, 0)) @ xm.perspective(math.radians(60), 1.0, 0.1, 50.0)
        ldir = np.array([-3, -5, 2, 0], np.float32)
        ldir[:3] /= np.linalg.norm(ldir[:3])
        self.constants = np.concatenate([xm.to_hlsl(cam).ravel(), xm.to_hlsl(light).ravel(), ldir]).astype(np.float32)

    @classmethod
    def get(cls, dev: Device) -> "DeferredAssets":
        """The assets of ``dev`` (made on first use).

        Args:
            dev: the device.

        Returns:
            Its DeferredAssets.
        """
        a = cls._cache.get(id(dev))
        if a is None or a._dev_ref is not dev:
            a = cls(dev)
            a._dev_ref = dev
            cls._cache[id(dev)] = a
        return a

    _dev_ref: Any = None

    # ---- the passes' recording, shared by the graph and the by-hand frame
    def rec_shadow(self, cl: Any) -> None:
        """Draws the scene into the shadow map (bound by the caller)."""
        cl.set_pipeline_state(self.shadow)
        cl.set_dynamic_constant_buffer(0, self.constants)
        cl.set_dynamic_vertex_buffer(0, self.vertices)
        cl.draw(len(self.vertices))

    def rec_gbuffer(self, cl: Any) -> None:
        """Draws the scene into the G-buffer (bound by the caller)."""
        cl.set_pipeline_state(self.gbuffer)
        cl.set_dynamic_constant_buffer(0, self.constants)
        cl.set_dynamic_vertex_buffer(0, self.vertices)
        cl.draw(len(self.vertices))

    def rec_light(self, cl: Any, albedo: Texture, g1: Texture, depth: Texture, shadow: Texture, hdr: Texture) -> None:
        """Lighting dispatch: four SRVs in, one UAV out."""
        cl.set_pipeline_state(self.light)
        for i, t in enumerate((albedo, g1, depth, shadow)):
            cl.set_shader_resource_view(0, i, t)
        cl.set_unordered_access_view(0, 4, hdr)
        cl.dispatch(SIZE // 8, SIZE // 8)

    def rec_post(self, cl: Any, pso: PipelineState, srvs: List[Texture], consts: Tuple[float, ...] = (0, 0, 0, 0)) -> None:
        """A full-screen triangle with ``pso`` reading ``srvs`` (render target bound by the caller)."""
        cl.set_pipeline_state(pso)
        if srvs:
            cl.set_constants(0, np.asarray(consts, np.float32))
            for i, t in enumerate(srvs):
                cl.set_shader_resource_view(1, i, t)
        cl.draw(3)


def build_deferred_graph(dev: Device, target: Texture, *, with_unused: bool = True,
                         compute_lighting: bool = True, **graph_options: Any) -> Tuple[RenderGraph, Dict[str, GraphResource]]:
    """The demo frame as a render graph writing into ``target`` (rgba8_unorm, 128x128, render target).

    Args:
        dev: the device.
        target: the imported output texture.
        with_unused: add the debug pass whose output nobody reads.
        compute_lighting: run lighting on the compute queue (else direct).
        graph_options: given to :class:`RenderGraph` (``schedule=``, ``threads=``, ...).

    Returns:
        The graph and its handles by name.
    """
    a = DeferredAssets.get(dev)
    g = RenderGraph(dev, **graph_options)
    h: Dict[str, GraphResource] = {}
    h["frame"] = g.import_resource(target, name="frame")
    h["shadow"] = g.create_texture("shadow", SHADOW_SIZE, SHADOW_SIZE, "d32_float")
    h["albedo"] = g.create_texture("albedo", SIZE, SIZE, "rgba8_unorm")
    h["g1"] = g.create_texture("gbuf1", SIZE, SIZE, "rgba16_float")
    h["depth"] = g.create_texture("depth", SIZE, SIZE, "d32_float")
    h["hdr"] = g.create_texture("hdr", SIZE, SIZE, "rgba16_float")
    h["ui"] = g.create_texture("ui", SIZE, SIZE, "rgba8_unorm")
    h["blur_a"] = g.create_texture("blur_a", SIZE, SIZE, "rgba16_float")
    h["blur_b"] = g.create_texture("blur_b", SIZE, SIZE, "rgba16_float")
    h["debug"] = g.create_texture("debug", SIZE, SIZE, "rgba8_unorm")

    g.add_pass("shadow", lambda cl, r: a.rec_shadow(cl), depth_stencil=h["shadow"], clear={h["shadow"]: 1.0})
    g.add_pass("gbuffer", lambda cl, r: a.rec_gbuffer(cl), render_targets=[h["albedo"], h["g1"]],
               depth_stencil=h["depth"], clear={h["albedo"]: (0, 0, 0, 0), h["g1"]: (0, 0, 0, 0), h["depth"]: 1.0})
    g.add_pass("lighting", lambda cl, r: a.rec_light(cl, r[h["albedo"]], r[h["g1"]], r[h["depth"]], r[h["shadow"]],
                                                      r[h["hdr"]]),
               queue="compute" if compute_lighting else "direct",
               reads=[h["albedo"], h["g1"], h["depth"], h["shadow"]], writes=[h["hdr"]])
    g.add_pass("ui", lambda cl, r: a.rec_post(cl, a.ui, []), render_targets=[h["ui"]], clear={h["ui"]: (0, 0, 0, 0)})
    if with_unused:
        g.add_pass("debug_view", lambda cl, r: a.rec_post(cl, a.debug, [r[h["g1"]]]), reads=[h["g1"]],
                   render_targets=[h["debug"]], clear={h["debug"]: (0, 0, 0, 0)})
    g.add_pass("blur_h", lambda cl, r: a.rec_post(cl, a.blur, [r[h["hdr"]]], (1, 0, 0, 0)), reads=[h["hdr"]],
               render_targets=[h["blur_a"]], clear={h["blur_a"]: (0, 0, 0, 0)})
    g.add_pass("blur_v", lambda cl, r: a.rec_post(cl, a.blur, [r[h["blur_a"]]], (0, 1, 0, 0)), reads=[h["blur_a"]],
               render_targets=[h["blur_b"]], clear={h["blur_b"]: (0, 0, 0, 0)})
    g.add_pass("tonemap", lambda cl, r: a.rec_post(cl, a.tone, [r[h["hdr"]], r[h["blur_b"]], r[h["ui"]]], (0.5, 0, 0, 0)),
               reads=[h["hdr"], h["blur_b"], h["ui"]], render_targets=[h["frame"]])
    return g, h


def _by_hand_geometry(cl: CommandList, a: "DeferredAssets", t: Dict[str, Texture]) -> None:
    """Shadow map and G-buffer, each target cleared first (both by-hand frames)."""
    cl.set_render_targets([], t["shadow"])
    cl.clear_depth_stencil(t["shadow"], 1.0, 0)
    a.rec_shadow(cl)
    cl.set_render_targets([t["albedo"], t["g1"]], t["depth"])
    cl.clear_render_target(t["albedo"], (0, 0, 0, 0))
    cl.clear_render_target(t["g1"], (0, 0, 0, 0))
    cl.clear_depth_stencil(t["depth"], 1.0, 0)
    a.rec_gbuffer(cl)


def _by_hand_ui(cl: CommandList, a: "DeferredAssets", t: Dict[str, Texture]) -> None:
    """The UI pass (whose output only tone mapping reads)."""
    cl.set_render_targets([t["ui"]])
    cl.clear_render_target(t["ui"], (0, 0, 0, 0))
    a.rec_post(cl, a.ui, [])


def _by_hand_blur_and_tone(cl: CommandList, a: "DeferredAssets", t: Dict[str, Texture], target: Texture) -> None:
    """The two blur passes ping-ponging, then tone mapping into `target`."""
    cl.set_render_targets([t["blur_a"]])
    cl.clear_render_target(t["blur_a"], (0, 0, 0, 0))
    a.rec_post(cl, a.blur, [t["hdr"]], (1, 0, 0, 0))
    cl.set_render_targets([t["blur_b"]])
    cl.clear_render_target(t["blur_b"], (0, 0, 0, 0))
    a.rec_post(cl, a.blur, [t["blur_a"]], (0, 1, 0, 0))
    cl.set_render_targets([target])
    a.rec_post(cl, a.tone, [t["hdr"], t["blur_b"], t["ui"]], (0.5, 0, 0, 0))


def record_deferred_by_hand(dev: Device, target: Texture, textures: Dict[str, Texture]) -> int:
    """The same frame recorded by hand into one direct-queue list, with committed textures.

    Args:
        dev: the device.
        target: the output texture.
        textures: the frame's textures by name (make them with :func:`by_hand_textures`).

    Returns:
        The direct queue's fence value.
    """
    a = DeferredAssets.get(dev)
    t = textures
    q = dev.queue("direct")
    cl = q.command_list()
    _by_hand_geometry(cl, a, t)
    a.rec_light(cl, t["albedo"], t["g1"], t["depth"], t["shadow"], t["hdr"])
    _by_hand_ui(cl, a, t)
    _by_hand_blur_and_tone(cl, a, t, target)
    return q.execute(cl)


def record_deferred_by_hand_queues(dev: Device, target: Texture, textures: Dict[str, Texture]) -> int:
    """The same frame recorded by hand the way the graph submits it: lighting on the compute queue.

    Four command lists (shadow and G-buffer; lighting on the compute queue; the UI; blur and tone
    mapping) with the GPU waits between queues, and the transitions the compute queue may not record
    (leaving render-target and depth-write states) recorded at the end of the first direct list.
    The like-for-like reference of the graph's execution for the cost comparison.

    Args:
        dev: the device.
        target: the output texture.
        textures: the frame's textures by name (:func:`by_hand_textures`).

    Returns:
        The direct queue's fence value after the whole frame.
    """
    a = DeferredAssets.get(dev)
    t = textures
    q = dev.queue("direct")
    cq = dev.queue("compute")
    nps = ResourceState.NON_PIXEL_SHADER_RESOURCE
    cl = q.command_list()
    _by_hand_geometry(cl, a, t)
    for name in ("albedo", "g1", "depth", "shadow"):   # the compute queue cannot leave RT / depth states
        cl.transition_barrier(t[name], nps)
    v1 = q.execute(cl)
    ccl = cq.command_list()
    a.rec_light(ccl, t["albedo"], t["g1"], t["depth"], t["shadow"], t["hdr"])
    if q.completed_value < v1:
        cq.wait_for(q, v1)
    v2 = cq.execute(ccl)
    cl = q.command_list()
    _by_hand_ui(cl, a, t)
    q.execute(cl)
    cl = q.command_list()
    _by_hand_blur_and_tone(cl, a, t, target)
    if cq.completed_value < v2:
        q.wait_for(cq, v2)
    return q.execute(cl)


def by_hand_textures(dev: Device, aliased_like: Optional[RenderGraph] = None) -> Dict[str, Texture]:
    """The textures :func:`record_deferred_by_hand` draws with.

    Args:
        dev: the device.
        aliased_like: None: each texture in memory of its own (committed). A compiled deferred graph:
            the textures placed in one block at the offsets the graph gave its transients, so the
            by-hand frame uses the same (aliased) memory; dx12kit's tracker then adds the aliasing
            barriers by itself.

    Returns:
        Textures by name.
    """
    specs: Dict[str, Tuple[int, Format, str]] = {
        "shadow": (SHADOW_SIZE, Format.D32_FLOAT, "shadow"), "albedo": (SIZE, Format.RGBA8_UNORM, "albedo"),
        "g1": (SIZE, Format.RGBA16_FLOAT, "gbuf1"), "depth": (SIZE, Format.D32_FLOAT, "depth"),
        "hdr": (SIZE, Format.RGBA16_FLOAT, "hdr"), "ui": (SIZE, Format.RGBA8_UNORM, "ui"),
        "blur_a": (SIZE, Format.RGBA16_FLOAT, "blur_a"), "blur_b": (SIZE, Format.RGBA16_FLOAT, "blur_b"),
    }
    if aliased_like is None:
        return {k: dev.create_texture2d(size, size, fmt, depth_stencil=fmt == Format.D32_FLOAT,
                                        render_target=fmt != Format.D32_FLOAT and k != "hdr", uav=k == "hdr", name=nm)
                for k, (size, fmt, nm) in specs.items()}
    where = {m["name"]: m for m in aliased_like.memory_map()}
    mem = dev.allocate_memory(int(aliased_like.stats()["transient_bytes"]), name="by-hand aliased transients")
    out: Dict[str, Texture] = {}
    for k, (size, fmt, nm) in specs.items():
        out[k] = dev.create_texture2d(size, size, fmt, depth_stencil=fmt == Format.D32_FLOAT,
                                      render_target=fmt != Format.D32_FLOAT and k != "hdr", uav=k == "hdr", name=nm,
                                      memory=mem, offset=int(where[nm]["offset"]))
    return out


# ---- the frame with every post pass on the compute queue (lighting and a two-pass blur), for aliasing
# across queues: lighting writes ``hdr``, the horizontal blur ``hdr -> blur``, the vertical one
# ``blur -> hdr``, tone mapping reads ``hdr``.
_BLUR_CS = """
cbuffer B : register(b0) { float2 dir; float2 pad; };
Texture2D<float4> src : register(t0);
RWTexture2D<float4> dst : register(u0);
[numthreads(8, 8, 1)] void main(uint3 id : SV_DispatchThreadID) {
  int2 p = int2(id.xy); float4 s = float4(0, 0, 0, 0);
  for (int k = -2; k <= 2; k++) {
    int2 q = clamp(p + int2(dir) * k, int2(0, 0), int2(127, 127));
    float w = (k == 0) ? 0.4 : ((abs(k) == 1) ? 0.2 : 0.1);
    s += src.Load(int3(q, 0)) * w;
  }
  dst[id.xy] = s;
}"""
_TONE_ONE_PS = """
Texture2D<float4> hdr : register(t0);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
  float3 c = hdr.Load(int3(int2(pos.xy), 0)).rgb; return float4(c / (1.0 + c), 1);
}"""


class _ComputePostAssets:
    """The compute blur and the one-input tone mapping of :func:`build_compute_post_graph`."""

    _cache: Dict[int, Tuple[Device, "_ComputePostAssets"]] = {}

    def __init__(self, dev: Device) -> None:
        self.rs_blur = dev.create_root_signature([RootConstants(0, 4), DescriptorTable([SRV(0), UAV(0)])])
        self.blur = dev.create_compute_pipeline(compile_hlsl(_BLUR_CS, profile="cs_5_0"), self.rs_blur)
        a = DeferredAssets.get(dev)
        self.tone = dev.create_graphics_pipeline(compile_hlsl(_FULL_VS, profile="vs_5_0"),
                                                 compile_hlsl(_TONE_ONE_PS, profile="ps_5_0"), a.rs_one, ["rgba8_unorm"])

    @classmethod
    def get(cls, dev: Device) -> "_ComputePostAssets":
        hit = cls._cache.get(id(dev))
        if hit is None or hit[0] is not dev:
            hit = cls._cache[id(dev)] = (dev, cls(dev))
        return hit[1]

    def rec_blur(self, cl: Any, src: Texture, dst: Texture, direction: Tuple[float, float]) -> None:
        """One blur direction, ``src`` -> ``dst`` (a compute dispatch)."""
        cl.set_pipeline_state(self.blur)
        cl.set_constants(0, np.asarray((direction[0], direction[1], 0, 0), np.float32))
        cl.set_shader_resource_view(1, 0, src)
        cl.set_unordered_access_view(1, 1, dst)
        cl.dispatch(SIZE // 8, SIZE // 8)


def build_compute_post_graph(dev: Device, target: Texture) -> Tuple[RenderGraph, Dict[str, GraphResource]]:
    """The deferred frame with lighting and a two-pass blur on the compute queue: shadow map and
    G-buffer (direct), lighting, horizontal blur ``hdr -> blur``, vertical blur ``blur -> hdr`` (compute),
    tone mapping of ``hdr`` into ``target`` (direct). Six transients, 576 KiB each in memory of its own;
    the peak of this order is 448 KiB (lighting's four inputs and its output), and the blur may take
    the G-buffer's bytes once lighting is done (on the compute queue's own timeline).

    Args:
        dev: the device.
        target: the imported output texture (rgba8_unorm, 128x128, render target).

    Returns:
        The graph and its handles by name.
    """
    a = DeferredAssets.get(dev)
    c = _ComputePostAssets.get(dev)
    g = RenderGraph(dev)
    h: Dict[str, GraphResource] = {"frame": g.import_resource(target, name="frame")}
    h["shadow"] = g.create_texture("shadow", SHADOW_SIZE, SHADOW_SIZE, "d32_float")
    h["albedo"] = g.create_texture("albedo", SIZE, SIZE, "rgba8_unorm")
    h["g1"] = g.create_texture("gbuf1", SIZE, SIZE, "rgba16_float")
    h["depth"] = g.create_texture("depth", SIZE, SIZE, "d32_float")
    h["hdr"] = g.create_texture("hdr", SIZE, SIZE, "rgba16_float")
    h["blur"] = g.create_texture("blur", SIZE, SIZE, "rgba16_float")
    g.add_pass("shadow", lambda cl, r: a.rec_shadow(cl), depth_stencil=h["shadow"], clear={h["shadow"]: 1.0})
    g.add_pass("gbuffer", lambda cl, r: a.rec_gbuffer(cl), render_targets=[h["albedo"], h["g1"]],
               depth_stencil=h["depth"], clear={h["albedo"]: (0, 0, 0, 0), h["g1"]: (0, 0, 0, 0), h["depth"]: 1.0})
    g.add_pass("lighting", lambda cl, r: a.rec_light(cl, r[h["albedo"]], r[h["g1"]], r[h["depth"]], r[h["shadow"]],
                                                      r[h["hdr"]]),
               queue="compute", reads=[h["albedo"], h["g1"], h["depth"], h["shadow"]], writes=[h["hdr"]])
    g.add_pass("blur_h", lambda cl, r: c.rec_blur(cl, r[h["hdr"]], r[h["blur"]], (1, 0)), queue="compute",
               reads=[h["hdr"]], writes=[h["blur"]])
    g.add_pass("blur_v", lambda cl, r: c.rec_blur(cl, r[h["blur"]], r[h["hdr"]], (0, 1)), queue="compute",
               reads=[h["blur"]], writes=[h["hdr"]])
    g.add_pass("tonemap", lambda cl, r: a.rec_post(cl, c.tone, [r[h["hdr"]]]), reads=[h["hdr"]],
               render_targets=[h["frame"]])
    return g, h


def record_compute_post_by_hand(dev: Device, target: Texture) -> int:
    """:func:`build_compute_post_graph`'s frame recorded by hand into one direct-queue list, with
    committed textures of its own (made on each call).

    Args:
        dev: the device.
        target: the output texture.

    Returns:
        The direct queue's fence value.
    """
    a = DeferredAssets.get(dev)
    c = _ComputePostAssets.get(dev)
    t = by_hand_textures(dev)
    blur = dev.create_texture2d(SIZE, SIZE, Format.RGBA16_FLOAT, uav=True, name="blur")
    q = dev.queue("direct")
    cl = q.command_list()
    _by_hand_geometry(cl, a, t)
    a.rec_light(cl, t["albedo"], t["g1"], t["depth"], t["shadow"], t["hdr"])
    c.rec_blur(cl, t["hdr"], blur, (1, 0))
    c.rec_blur(cl, blur, t["hdr"], (0, 1))
    cl.set_render_targets([target])
    a.rec_post(cl, c.tone, [t["hdr"]])
    return q.execute(cl)


def main(argv: Optional[List[str]] = None) -> int:
    """``python -m dx12kit.graph_demo [--out DIR]``: renders the demo frame through the render graph,
    writes the frame (``graph_demo_frame.png``) and the graph's queues and memory map
    (``graph_demo_graph.png``) into DIR (default: the current folder), and prints what it did."""
    import argparse
    from pathlib import Path

    from .images import save_image

    p = argparse.ArgumentParser(prog="python -m dx12kit.graph_demo",
                                description="render the deferred demo frame through dx12kit.RenderGraph and write PNGs")
    p.add_argument("--out", type=Path, default=Path("."), help="folder for the PNGs (default: the current folder)")
    args = p.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with Device() as dev:
        q = dev.queue("direct")
        frame = dev.create_texture2d(SIZE, SIZE, "rgba8_unorm", render_target=True, name="frame")
        g, _ = build_deferred_graph(dev, frame)
        q.wait(g.execute())
        pixels = q.read_texture(frame)
        st = g.stats()
        frame_png = save_image(args.out / "graph_demo_frame.png", pixels)
        graph_png = g.to_png(args.out / "graph_demo_graph.png")
        print(f"rendered a {SIZE}x{SIZE} deferred frame through a RenderGraph on {dev.info['adapter']}:")
        for queue, names in st["batches"]:
            print(f"  {queue:8s} list: {', '.join(names)}")
        print(f"  culled (output unused): {', '.join(st['culled_passes']) or 'none'}")
        print(f"  {st['transients']} transient textures in {st['transient_bytes'] / 1024:.0f} KiB aliased "
              f"({st['transient_bytes_unaliased'] / 1024:.0f} KiB unaliased), {st['cross_queue_waits']} cross-queue waits")
        print(f"wrote {frame_png} (the frame) and {graph_png} (queues and memory map)")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main())
