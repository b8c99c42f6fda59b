"""Every shader stage and the whole pipeline state (points 2 and 3): geometry and
tessellation shaders, per-instance vertex data, blend states per render target, rasterizer and
depth-stencil states, sample masks. Small targets, pixels read back and checked by numbers; the
shaders are the project's own."""
from __future__ import annotations

import numpy as np
import pytest

import dx12kit as dx

SIZE = 32

# ---- shaders --------------------------------------------------------------------------------------

# Point sprites: each point becomes a square of half-size `half` (clip space) in the geometry shader.
SPRITE_VS = """
struct V { float4 pos : SV_Position; float4 col : COLOR0; };
V main(float2 p : POSITION, float4 c : COLOR0) { V o; o.pos = float4(p, 0.5, 1); o.col = c; return o; }
"""
SPRITE_GS = """
struct V { float4 pos : SV_Position; float4 col : COLOR0; };
cbuffer Sprite : register(b0) { float half; };
[maxvertexcount(4)]
void main(point V p[1], inout TriangleStream<V> strip) {
    V o;
    o.col = p[0].col;
    o.pos = p[0].pos + float4(-half, -half, 0, 0); strip.Append(o);
    o.pos = p[0].pos + float4(-half,  half, 0, 0); strip.Append(o);
    o.pos = p[0].pos + float4( half, -half, 0, 0); strip.Append(o);
    o.pos = p[0].pos + float4( half,  half, 0, 0); strip.Append(o);
}
"""
COLOR_PS = "float4 main(float4 pos : SV_Position, float4 c : COLOR0) : SV_Target { return c; }"

# Instanced quads: a unit quad per vertex (slot 0), an offset per instance (slot 1) and a colour
# every second instance (slot 2, step_rate 2).
INSTANCED_VS = """
struct V { float4 pos : SV_Position; float4 col : COLOR0; };
V main(float2 p : POSITION, float2 offset : OFFSET, float4 c : COLOR0) {
    V o; o.pos = float4(p + offset, 0, 1); o.col = c; return o;
}
"""

POS_VS = "float4 main(float2 p : POSITION) : SV_Position { return float4(p, 0.5, 1); }"
POS3_VS = "float4 main(float3 p : POSITION) : SV_Position { return float4(p, 1); }"
CONST_PS = """
cbuffer C : register(b0) { float4 colour; };
float4 main(float4 pos : SV_Position) : SV_Target { return colour; }
"""
TWO_TARGETS_PS = """
struct O { float4 a : SV_Target0; float4 b : SV_Target1; };
O main(float4 pos : SV_Position) { O o; o.a = float4(0.25, 0.5, 0.125, 0.5); o.b = float4(0.75, 0.25, 1, 1); return o; }
"""

# A quad patch of 4 control points, tessellated 4 x 4; the domain shader places each vertex
# bilinearly and passes the domain location on as colour.
PATCH_VS = "float2 main(float2 p : POSITION) : CPOS { return p; }"
QUAD_HS = """
struct CP { float2 p : CPOS; };
struct PC { float edges[4] : SV_TessFactor; float inside[2] : SV_InsideTessFactor; };
PC constants(InputPatch<CP, 4> patch) {
    PC c;
    c.edges[0] = 4; c.edges[1] = 4; c.edges[2] = 4; c.edges[3] = 4; c.inside[0] = 4; c.inside[1] = 4;
    return c;
}
[domain("quad")] [partitioning("integer")] [outputtopology("triangle_cw")] [outputcontrolpoints(4)]
[patchconstantfunc("constants")]
CP main(InputPatch<CP, 4> patch, uint i : SV_OutputControlPointID) { return patch[i]; }
"""
QUAD_DS = """
struct CP { float2 p : CPOS; };
struct PC { float edges[4] : SV_TessFactor; float inside[2] : SV_InsideTessFactor; };
struct V { float4 pos : SV_Position; float4 col : COLOR0; };
[domain("quad")]
V main(PC c, float2 uv : SV_DomainLocation, const OutputPatch<CP, 4> patch) {
    float2 top = lerp(patch[0].p, patch[1].p, uv.x), bottom = lerp(patch[3].p, patch[2].p, uv.x);
    V o; o.pos = float4(lerp(top, bottom, uv.y), 0, 1); o.col = float4(uv, 0, 1); return o;
}
"""


@pytest.fixture(scope="module")
def compiled():
    c = {}
    for key, src, profile in [("sprite_vs", SPRITE_VS, "vs_5_0"), ("sprite_gs", SPRITE_GS, "gs_5_0"), ("color_ps", COLOR_PS, "ps_5_0"),
                              ("instanced_vs", INSTANCED_VS, "vs_5_0"), ("pos_vs", POS_VS, "vs_5_0"), ("pos3_vs", POS3_VS, "vs_5_0"),
                              ("const_ps", CONST_PS, "ps_5_0"), ("two_ps", TWO_TARGETS_PS, "ps_5_0"), ("patch_vs", PATCH_VS, "vs_5_0"),
                              ("quad_hs", QUAD_HS, "hs_5_0"), ("quad_ds", QUAD_DS, "ds_5_0")]:
        c[key] = dx.compile_hlsl(src, profile=profile)
    return c


def _pixel_span(lo: float, hi: float) -> slice:
    """Pixels whose centres lie inside clip-space x range [lo, hi) on a SIZE-wide target."""
    first = int(np.ceil((lo + 1) / 2 * SIZE - 0.5))
    last = int(np.ceil((hi + 1) / 2 * SIZE - 0.5))
    return slice(first, last)


def _draw(queue, pso, targets, clears, setup, vertices, count, *, instances=1, depth=None, depth_clear=1.0):
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets(targets, depth=depth)
    for t, c in zip(targets, clears):
        cl.clear_render_target(t, c)
    if depth is not None:
        cl.clear_depth_stencil(depth, depth_clear, 0)
    setup(cl)
    for slot, data in enumerate(vertices):
        if data is not None:
            cl.set_dynamic_vertex_buffer(slot, data)
    cl.draw(count, instances)
    queue.execute(cl)


# ---- geometry shader and blending ------------------------------------------------------------------

def test_point_sprites_from_a_geometry_shader_blend_src_alpha_one(device, queue, compiled):
    """nBody's way: points expanded to sprites in a GS, colour SRC_ALPHA/ONE, alpha ZERO/ZERO."""
    rs = device.create_root_signature([dx.RootConstants(0, 1, visibility="geometry")])
    blend = dx.BlendState(src_blend="src_alpha", dest_blend="one", src_blend_alpha="zero", dest_blend_alpha="zero")
    pso = device.create_graphics_pipeline(compiled["sprite_vs"], compiled["color_ps"], rs, ["rgba16_float"], gs=compiled["sprite_gs"],
                                          topology="point", blend=blend,
                                          input_layout=[dx.InputElement("POSITION", "float2"), dx.InputElement("COLOR", "float4")])
    rt = device.create_texture2d(SIZE, SIZE, "rgba16_float", render_target=True)
    # Two points at the same place (their sprites overlap) and one to the right.
    pts = np.array([[-0.5, 0, 0.5, 0.25, 1.0, 0.5], [-0.5, 0, 0.5, 0.25, 1.0, 0.5], [0.5, 0, 1, 1, 1, 0.25]], np.float32)
    _draw(queue, pso, [rt], [[0.125, 0.25, 0, 0.75]], lambda cl: cl.set_constants(0, np.array([0.25], np.float32)), [pts], 3)
    out = queue.read_texture(rt).astype(np.float64)
    rows, left, right = _pixel_span(-0.25, 0.25), _pixel_span(-0.75, -0.25), _pixel_span(0.25, 0.75)
    # Two sprites: clear + 2 * colour * 0.5; alpha 0 (ZERO/ZERO).
    np.testing.assert_allclose(out[rows, left], np.broadcast_to([0.125 + 0.5, 0.25 + 0.25, 1.0, 0], out[rows, left].shape), atol=1e-3)
    np.testing.assert_allclose(out[rows, right], np.broadcast_to([0.125 + 0.25, 0.25 + 0.25, 0.25, 0], out[rows, right].shape), atol=1e-3)
    outside = np.ones((SIZE, SIZE), bool)
    outside[rows, left] = outside[rows, right] = False
    assert (out[outside] == [0.125, 0.25, 0, 0.75]).all()
    assert outside.sum() == SIZE * SIZE - 2 * 8 * 8


def test_instanced_draw_with_per_instance_data_and_step_rate(device, queue, compiled):
    rs = device.create_root_signature([])
    layout = [dx.InputElement("POSITION", "float2"), dx.InputElement("OFFSET", "float2", slot=1, per_instance=True),
              dx.InputElement("COLOR", "float4", slot=2, per_instance=True, step_rate=2)]
    pso = device.create_graphics_pipeline(compiled["instanced_vs"], compiled["color_ps"], rs, ["rgba8_unorm"], input_layout=layout,
                                          topology="triangle_strip")
    quad = np.array([[-1, -1], [-1, -0.5], [-0.5, -1], [-0.5, -0.5]], np.float32)  # a quarter-width square at the bottom left
    offsets = np.array([[0, 0], [0.5, 0], [1.0, 0], [1.5, 0]], np.float32)
    colours = np.array([[1, 0, 0, 1], [0, 1, 0, 1]], np.float32)  # instances 0-1 red, 2-3 green
    rt = device.create_texture2d(SIZE, SIZE, render_target=True)
    _draw(queue, pso, [rt], [[0, 0, 0, 0]], lambda cl: None, [quad, offsets, colours], 4, instances=4)
    out = queue.read_texture(rt)
    rows = slice(SIZE * 3 // 4, SIZE)  # clip y -1..-0.5: the bottom quarter
    for i, want in enumerate([[255, 0, 0, 255], [255, 0, 0, 255], [0, 255, 0, 255], [0, 255, 0, 255]]):
        cols = slice(i * SIZE // 4, (i + 1) * SIZE // 4)
        assert (out[rows, cols] == want).all(), i
    assert (out[: SIZE * 3 // 4] == 0).all()


def test_independent_blend_and_write_masks_on_two_targets(device, queue, compiled):
    rs = device.create_root_signature([])
    blends = [dx.BlendState(src_blend="one", dest_blend="one", src_blend_alpha="one", dest_blend_alpha="one"),
              dx.BlendState(write_mask=dx.ColorWriteEnable.RED | dx.ColorWriteEnable.ALPHA)]
    pso = device.create_graphics_pipeline(compiled["pos_vs"], compiled["two_ps"], rs, ["rgba16_float", "rgba16_float"], blend=blends,
                                          input_layout=[dx.InputElement("POSITION", "float2")])
    a = device.create_texture2d(SIZE, SIZE, "rgba16_float", render_target=True)
    b = device.create_texture2d(SIZE, SIZE, "rgba16_float", render_target=True)
    tri = np.array([[-1, -1], [-1, 3], [3, -1]], np.float32)
    _draw(queue, pso, [a, b], [[0.5, 0.25, 0.5, 0.25], [0, 0.5, 0.5, 0]], lambda cl: None, [tri], 3)
    np.testing.assert_array_equal(queue.read_texture(a).astype(np.float32), np.broadcast_to([0.75, 0.75, 0.625, 0.75], (SIZE, SIZE, 4)))
    np.testing.assert_array_equal(queue.read_texture(b).astype(np.float32), np.broadcast_to([0.75, 0.5, 0.5, 1.0], (SIZE, SIZE, 4)))


def test_blend_factor_set_by_the_list_blends_exactly(device, queue, compiled):
    """blend_factor / inv_blend_factor read CommandList.set_blend_factor (OMSetBlendFactor): colour
    factor (r, g, b), alpha factor a. Values exact in float16."""
    rs = device.create_root_signature([dx.RootConstants(0, 4, visibility="pixel")])
    blend = dx.BlendState(src_blend="blend_factor", dest_blend="inv_blend_factor",
                          src_blend_alpha="blend_factor", dest_blend_alpha="inv_blend_factor")
    pso = device.create_graphics_pipeline(compiled["pos_vs"], compiled["const_ps"], rs, ["rgba16_float"], blend=blend,
                                          input_layout=[dx.InputElement("POSITION", "float2")])
    rt = device.create_texture2d(8, 8, "rgba16_float", render_target=True)
    tri = np.array([[-1, -1], [-1, 3], [3, -1]], np.float32)
    colour = np.array([1.0, 0.5, 0.0, 0.5], np.float32)

    def setup(cl):
        cl.set_constants(0, colour)
        cl.set_blend_factor([0.25, 0.5, 0.75, 0.5])
    _draw(queue, pso, [rt], [[0.5, 0.25, 1.0, 1.0]], setup, [tri], 3)
    # src * factor + dest * (1 - factor): r 1*.25+.5*.75, g .5*.5+.25*.5, b 0*.75+1*.25, a .5*.5+1*.5
    np.testing.assert_array_equal(queue.read_texture(rt).astype(np.float32), np.broadcast_to([0.625, 0.375, 0.25, 0.75], (8, 8, 4)))
    # Unset factor: a list starts with zeros (D3D12's ClearState documents the state at creation), so
    # src * 0 + dest * 1 leaves the clear colour exactly.
    _draw(queue, pso, [rt], [[0.5, 0.25, 1.0, 1.0]], lambda cl: cl.set_constants(0, colour), [tri], 3)
    np.testing.assert_array_equal(queue.read_texture(rt).astype(np.float32), np.broadcast_to([0.5, 0.25, 1.0, 1.0], (8, 8, 4)))
    cl = queue.command_list()
    with pytest.raises(dx.InvalidArgumentError, match="4 values"):
        cl.set_blend_factor([1.0, 1.0, 1.0])
    with pytest.raises(dx.InvalidArgumentError, match="not finite"):
        cl.set_blend_factor([1.0, float("nan"), 1.0, 1.0])
    with pytest.raises(TypeError, match="rgba"):
        cl.set_blend_factor("rgba")  # type: ignore[arg-type]


# ---- tessellation ---------------------------------------------------------------------------------

@pytest.mark.parametrize("fill", ["solid", "wireframe"])
def test_quad_patch_tessellated_by_hull_and_domain_shaders(device, queue, compiled, fill):
    rs = device.create_root_signature([])
    pso = device.create_graphics_pipeline(compiled["patch_vs"], compiled["color_ps"], rs, ["rgba32_float"], hs=compiled["quad_hs"],
                                          ds=compiled["quad_ds"], topology="patch_list_4", rasterizer=dx.RasterizerState(fill=fill),
                                          input_layout=[dx.InputElement("POSITION", "float2")])
    # Control points: top left, top right, bottom right, bottom left of the whole target.
    patch = np.array([[-1, 1], [1, 1], [1, -1], [-1, -1]], np.float32)
    rt = device.create_texture2d(SIZE, SIZE, "rgba32_float", render_target=True)
    _draw(queue, pso, [rt], [[0, 0, 0, 0]], lambda cl: None, [patch], 4)
    out = queue.read_texture(rt)
    covered = out[..., 3] == 1
    centres = (np.arange(SIZE) + 0.5) / SIZE
    if fill == "solid":
        assert covered.all()
        # The domain location, interpolated over the 32 triangles, is the pixel centre's position in the patch.
        np.testing.assert_allclose(out[..., 0], np.broadcast_to(centres, (SIZE, SIZE)), atol=1e-5)
        np.testing.assert_allclose(out[..., 1], np.broadcast_to(centres[:, None], (SIZE, SIZE)), atol=1e-5)
    else:
        # Wireframe: the 4 x 4 grid's lines (every 8 pixels, and each cell's diagonal) are drawn, the
        # rest of the cells is not.
        for i in (7, 15, 23, 31):
            assert covered[:, i].all() and covered[i, :].all()
        assert not covered[4, 2] and not covered[20, 26] and 0.2 < covered.mean() < 0.4


# ---- rasterizer ----------------------------------------------------------------------------------

def test_front_ccw_decides_which_winding_is_culled(device, queue, compiled):
    rs = device.create_root_signature([dx.RootConstants(0, 4)])
    cw = np.array([[-1, -1], [-1, 1], [0, -1]], np.float32)   # clockwise on screen: left half
    ccw = np.array([[0, -1], [1, -1], [1, 1]], np.float32)    # counter-clockwise: right half
    results = {}
    for front_ccw in (False, True):
        pso = device.create_graphics_pipeline(compiled["pos_vs"], compiled["const_ps"], rs, ["rgba8_unorm"],
                                              rasterizer=dx.RasterizerState(cull="back", front_ccw=front_ccw),
                                              input_layout=[dx.InputElement("POSITION", "float2")])
        rt = device.create_texture2d(SIZE, SIZE, render_target=True)
        _draw(queue, pso, [rt], [[0, 0, 0, 0]], lambda cl: cl.set_constants(0, np.array([1, 1, 1, 1], np.float32)),
              [np.concatenate([cw, ccw])], 6)
        out = queue.read_texture(rt)
        results[front_ccw] = (out[SIZE - 2, 2, 0], out[SIZE - 2, SIZE - 2, 0])  # inside the left and the right triangle
    assert results[False] == (255, 0) and results[True] == (0, 255)


def test_depth_bias_and_its_clamp_move_the_stored_depth(device, queue, compiled):
    rs = device.create_root_signature([])
    tri = np.array([[-1, -1, 0.5], [-1, 3, 0.5], [3, -1, 0.5]], np.float32)
    got = []
    for raster in (dx.RasterizerState(), dx.RasterizerState(depth_bias=1000), dx.RasterizerState(depth_bias=1000, depth_bias_clamp=1e-5)):
        pso = device.create_graphics_pipeline(compiled["pos3_vs"], None, rs, [], dsv_format="d32_float", rasterizer=raster,
                                              depth_stencil=dx.DepthStencilState(depth_func="always"),
                                              input_layout=[dx.InputElement("POSITION", "float3")])
        ds = device.create_texture2d(SIZE, SIZE, "d32_float", depth_stencil=True)
        _draw(queue, pso, [], [], lambda cl: None, [tri], 3, depth=ds)
        d = queue.read_texture(ds).reshape(-1)
        assert (d == d[0]).all()
        got.append(float(d[0]))
    # D3D12, float depth: bias = depth_bias * 2**(exponent(max z) - 23) = 1000 * 2**-24 at z = 0.5.
    assert got[0] == 0.5
    assert got[1] == pytest.approx(0.5 + 1000 * 2.0**-24, abs=2**-24)
    assert got[2] == pytest.approx(0.5 + 1e-5, abs=2**-24)


# D3D12 ("Depth Bias"): UNORM formats add DepthBias * r, r = 1 / (2^n - 1) (one step of the stored
# integer); float formats DepthBias * 2^(exponent(max z of the primitive) - 23). Vulkan allows up to 2r
# on UNORM formats and lavapipe applies 2r; dx12kit measures the backend's unit per format and
# scales the bias it hands over. The triangle's z is 0.25: 0.25 * (2^n - 1) is 3/4 of a step above
# an integer, so rounding never ties; on d24 a float32 z at 0.25 resolves half a step, so the stored
# value may differ from the exact formula by one step (D3D12 computes in float32 as well).
_UNORM_BITS = {"d16_unorm": 16, "d24_unorm_s8_uint": 24}


def _stored_depth(device, queue, compiled, fmt, tri, **raster):
    rs = device.create_root_signature([])
    pso = device.create_graphics_pipeline(compiled["pos3_vs"], None, rs, [], dsv_format=fmt, rasterizer=dx.RasterizerState(**raster),
                                          depth_stencil=dx.DepthStencilState(depth_func="always"),
                                          input_layout=[dx.InputElement("POSITION", "float3")])
    ds = device.create_texture2d(SIZE, SIZE, fmt, depth_stencil=True)
    _draw(queue, pso, [], [], lambda cl: None, [np.asarray(tri, np.float32)], 3, depth=ds)
    d = np.asarray(queue.read_texture(ds)).reshape(SIZE, SIZE)
    return d.astype(np.float64) if d.dtype == np.float32 else (d.astype(np.int64) & 0xFFFFFF)


def _d3d12_bias(bias, clamp, r):
    b = bias * r
    return min(clamp, b) if clamp > 0 else max(clamp, b) if clamp < 0 else b


@pytest.mark.parametrize("fmt", ["d16_unorm", "d24_unorm_s8_uint", "d32_float"])
def test_constant_depth_bias_is_d3d12s_unit_on_every_depth_format(device, queue, compiled, fmt):
    flat = [[-1, -1, 0.25], [-1, 3, 0.25], [3, -1, 0.25]]
    cases = [(0, 0.0), (1, 0.0), (3, 0.0), (1000, 0.0), (-1001, 0.0), (12345, 0.0), (1000, 999 / 65535), (-1000, -333 / 65535),
             (1000, -0.5)]  # a clamp of the other sign does not limit (D3D12's rule)
    for bias, clamp in cases:
        got = _stored_depth(device, queue, compiled, fmt, flat, depth_bias=bias, depth_bias_clamp=clamp)
        assert (got == got[0, 0]).all()
        if fmt in _UNORM_BITS:
            q = 2 ** _UNORM_BITS[fmt] - 1
            want = np.rint((0.25 + _d3d12_bias(bias, clamp, 1 / q)) * q)
            tol = 0 if fmt == "d16_unorm" else 1
            assert abs(got[0, 0] - want) <= tol, f"{fmt} depth_bias={bias} clamp={clamp}: stored {got[0, 0]}, D3D12 {want}"
        else:
            want = np.float32(0.25 + _d3d12_bias(bias, clamp, 2.0 ** -25))  # exponent(0.25) = -2: r = 2^(-2-23)
            assert got[0, 0] == want, f"{fmt} depth_bias={bias} clamp={clamp}: stored {got[0, 0]!r}, D3D12 {want!r}"


@pytest.mark.parametrize("fmt", ["d16_unorm", "d24_unorm_s8_uint"])
def test_slope_scaled_and_constant_depth_bias_together_on_unorm(device, queue, compiled, fmt):
    """z = 0.25 + x/8 across the target: MaxDepthSlope = 1/8 * 2/SIZE per pixel. The biased minus the
    unbiased depth is D3D12's DepthBias * r + SlopeScaledDepthBias * MaxDepthSlope (clamped), in steps."""
    tri = [[x, y, 0.25 + x / 8] for x, y in ((-1, -1), (-1, 3), (3, -1))]
    q = 2 ** _UNORM_BITS[fmt] - 1
    slope = (1 / 8) * (2 / SIZE)
    base = _stored_depth(device, queue, compiled, fmt, tri)
    for bias, scale, clamp in ((3, 0.5, 0.0), (-5, 0.5, 0.0), (7, 0.0, 0.0), (3, 0.5, 0.001), (1001, -0.25, 0.0)):
        got = _stored_depth(device, queue, compiled, fmt, tri, depth_bias=bias, slope_scaled_depth_bias=scale, depth_bias_clamp=clamp)
        b = bias / q + scale * slope
        b = min(clamp, b) if clamp > 0 else b
        diff = (got - base)[2:-2, 2:-2]
        # two rounded depths: one step apart at most on d16; on d24 each also carries float32's half-step
        tol = 1 if fmt == "d16_unorm" else 2
        assert np.abs(diff - b * q).max() <= tol, f"{fmt} bias={bias} slope={scale} clamp={clamp}: moved {diff.min()}..{diff.max()}, D3D12 {b * q:.2f}"


# ---- adjacency topologies ---------------------------------------------------------------------------

# Without a geometry shader D3D12 draws an adjacency topology from its non-adjacent vertices (the
# adjacent ones only reach a geometry shader): triangle_list_adj vertices 0, 2, 4 of each 6,
# triangle_strip_adj the even vertices as a strip, line_list_adj vertices 1, 2 of each 4,
# line_strip_adj the inner vertices. The adjacent vertices here lie far outside the 8x8 target.
ADJ_VS = "float4 main(float2 p : POSITION) : SV_Position { return float4(p, 0, 1); }"
ONE_PS = "float4 main(float4 p : SV_Position) : SV_Target { return 1; }"
_FAR = [5, 5]


@pytest.mark.parametrize("topology, plain", [("triangle_list_adj", "triangle"), ("triangle_strip_adj", "triangle_strip"),
                                             ("line_list_adj", "line"), ("line_strip_adj", "line_strip")])
def test_adjacency_topology_without_gs_draws_its_non_adjacent_vertices(device, queue, topology, plain):
    main = {"triangle": [[-1, 1], [0, 1], [-1, -1], [0, 1], [0, -1], [-1, -1]],   # the left half, as two triangles
            "triangle_strip": [[-1, 1], [0, 1], [-1, -1], [0, -1], [0.5, 1]],      # three triangles of a strip
            "line": [[-1, 0.125], [1, 0.125], [-1, -0.625], [0.5, -0.625]],        # rows 3 and 6
            "line_strip": [[-1, 0.125], [1, 0.125], [1, -0.625], [-0.5, -0.625]]}[plain]
    if plain in ("triangle", "triangle_strip"):
        adj = [v for p in main for v in (p, _FAR)]                  # each vertex followed by its adjacent one
    elif plain == "line":
        adj = [v for i in range(0, len(main), 2) for v in (_FAR, main[i], main[i + 1], _FAR)]
    else:
        adj = [_FAR] + main + [_FAR]
    vs, ps = dx.compile_hlsl(ADJ_VS, profile="vs_5_0"), dx.compile_hlsl(ONE_PS, profile="ps_5_0")
    rs = device.create_root_signature([])
    covered = {}
    for topo, verts in ((plain, main), (topology, adj)):
        pso = device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], topology=topo, input_layout=[dx.InputElement("POSITION", "float2")])
        rt = device.create_texture2d(8, 8, render_target=True)
        cl = queue.command_list()
        cl.set_pipeline_state(pso)
        cl.set_render_targets([rt])
        cl.clear_render_target(rt, [0, 0, 0, 0])
        cl.set_dynamic_vertex_buffer(0, np.array(verts, np.float32))
        cl.draw(len(verts))
        queue.execute(cl)
        covered[topo] = queue.read_texture(rt)[..., 0] > 0
    assert covered[plain].sum() >= 6, "baseline drew too little to compare"
    np.testing.assert_array_equal(covered[topology], covered[plain], err_msg=f"{topology} vs {plain}")


# A geometry shader taking lineadj/triangleadj input: each primitive's vertex ids p[0..n-1] packed
# in 4-bit fields, written with SV_PrimitiveID to a uint target (the primitive covers some pixels).
ID_VS = """struct V { float4 pos : SV_Position; nointerpolation uint id : ID; };
V main(float2 p : POSITION, uint i : SV_VertexID) { V o; o.pos = float4(p, 0, 1); o.id = i; return o; }"""
ID_GS = """struct V { float4 pos : SV_Position; nointerpolation uint id : ID; };
struct G { float4 pos : SV_Position; nointerpolation uint ids : IDS; nointerpolation uint prim : PRIM; };
[maxvertexcount(3)] void main(%(kind)s V p[%(n)d], uint prim : SV_PrimitiveID, inout TriangleStream<G> s) {
    uint ids = 0;
    [unroll] for (uint k = 0; k < %(n)d; ++k) ids |= (p[k].id & 15) << (4 * k);
    G g; g.ids = ids; g.prim = prim;
    %(emit)s
}"""
TRI_EMIT = "g.pos = p[0].pos; s.Append(g); g.pos = p[2].pos; s.Append(g); g.pos = p[4].pos; s.Append(g);"
LINE_EMIT = ("g.pos = p[1].pos; s.Append(g); g.pos = p[2].pos; s.Append(g); "
             "g.pos = float4(p[1].pos.x, p[1].pos.y - 0.5, 0, 1); s.Append(g);")
ID_PS = """struct G { float4 pos : SV_Position; nointerpolation uint ids : IDS; nointerpolation uint prim : PRIM; };
uint4 main(G g) : SV_Target { return uint4(g.ids, g.prim, 1, 0); }"""


def _strip_adj_primitives(n):
    """D3D12's triangle_strip_adj: primitive i has leading vertex 2i (the D3D topology docs' leading
    vertices 0, 2, 4, ...), odd triangles wound the other way as in any strip, and for each edge the
    vertex across it: an odd vertex on the strip's border, the neighbour's third vertex inside.
    Listed in geometry-shader order: v0, adj(v0 v1), v1, adj(v1 v2), v2, adj(v2 v0)."""
    count = (n - 4) // 2
    prims = []
    for i in range(count):
        first, last = i == 0, i == count - 1
        if count == 1:
            prims.append([0, 1, 2, 5, 4, 3])
        elif i % 2 == 0:
            prims.append([2 * i, 1 if first else 2 * i - 2, 2 * i + 2, 2 * i + 5 if last else 2 * i + 6, 2 * i + 4, 2 * i + 3])
        else:
            prims.append([2 * i, 2 * i + 3, 2 * i + 4, 2 * i + 5 if last else 2 * i + 6, 2 * i + 2, 2 * i - 2])
    return prims


@pytest.mark.parametrize("topology", ["triangle_list_adj", "triangle_strip_adj", "line_list_adj", "line_strip_adj"])
def test_geometry_shader_sees_d3d12s_adjacency_vertices(device, queue, topology):
    tri = topology.startswith("triangle")
    n = 6 if tri else 4
    gs = dx.compile_hlsl(ID_GS % {"kind": "triangleadj" if tri else "lineadj", "n": n, "emit": TRI_EMIT if tri else LINE_EMIT}, profile="gs_5_0")
    if topology == "triangle_list_adj":    # two triangles: left and right halves of the top
        verts = [[-1, 1], _FAR, [0, 1], _FAR, [-1, 0], _FAR, [0, 1], _FAR, [1, 1], _FAR, [0, 0], _FAR]
        want = [list(range(0, 6)), list(range(6, 12))]
    elif topology == "triangle_strip_adj":  # a strip of four triangles along the top half
        verts = [v for p in ([-1, 1], [-1, 0], [-0.5, 1], [-0.5, 0], [0, 1], [0, 0]) for v in (p, _FAR)]
        want = _strip_adj_primitives(len(verts))
    elif topology == "line_list_adj":       # two horizontal lines, each drawn as a triangle hanging below it
        verts = [_FAR, [-1, 1], [-0.25, 1], _FAR, _FAR, [0, 1], [0.75, 1], _FAR]
        want = [[0, 1, 2, 3], [4, 5, 6, 7]]
    else:
        verts = [_FAR, [-1, 1], [-0.5, 1], [0, 1], [0.5, 1], _FAR]
        want = [[i, i + 1, i + 2, i + 3] for i in range(3)]
    pso = device.create_graphics_pipeline(dx.compile_hlsl(ID_VS, profile="vs_5_0"), dx.compile_hlsl(ID_PS, profile="ps_5_0"),
                                          device.create_root_signature([]), ["rgba32_uint"], gs=gs, topology=topology,
                                          input_layout=[dx.InputElement("POSITION", "float2")])
    rt = device.create_texture2d(16, 16, "rgba32_uint", render_target=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt])
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.set_dynamic_vertex_buffer(0, np.array(verts, np.float32))
    cl.draw(len(verts))
    queue.execute(cl)
    px = queue.read_texture(rt).reshape(-1, 4)
    seen = {int(p[1]): [(int(p[0]) >> (4 * k)) & 15 for k in range(n)] for p in px if p[2]}
    assert seen == dict(enumerate(want)), f"{topology}: the geometry shader saw {seen}, D3D12: {dict(enumerate(want))}"


# ---- depth-stencil -------------------------------------------------------------------------------

def test_stencil_with_different_front_and_back_faces(device, queue, compiled):
    rs = device.create_root_signature([dx.RootConstants(0, 4)])
    layout = [dx.InputElement("POSITION", "float2")]
    write = device.create_graphics_pipeline(
        compiled["pos_vs"], compiled["const_ps"], rs, ["rgba8_unorm"], dsv_format="d24_unorm_s8_uint", input_layout=layout,
        depth_stencil=dx.DepthStencilState(front=dx.StencilFace(pass_op="replace"), back=dx.StencilFace(pass_op="invert")))
    test = device.create_graphics_pipeline(
        compiled["pos_vs"], compiled["const_ps"], rs, ["rgba8_unorm"], dsv_format="d24_unorm_s8_uint", input_layout=layout,
        depth_stencil=dx.DepthStencilState(stencil=True, front=dx.StencilFace(func="equal"), back=dx.StencilFace(func="never")))
    cw = np.array([[-1, -1], [-1, 1], [0, -1]], np.float32)   # front-facing (clockwise): left half
    ccw = np.array([[0, -1], [1, -1], [1, 1]], np.float32)    # back-facing: right half
    full = np.array([[-1, -1], [-1, 3], [3, -1]], np.float32)  # front-facing, everywhere
    rt = device.create_texture2d(SIZE, SIZE, render_target=True)
    ds = device.create_texture2d(SIZE, SIZE, "d24_unorm_s8_uint", depth_stencil=True)
    cl = queue.command_list()
    cl.set_render_targets([rt], depth=ds)
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.clear_depth_stencil(ds, 1.0, 0)
    cl.set_pipeline_state(write)
    cl.set_stencil_ref(5)
    cl.set_constants(0, np.array([0, 0, 0, 0], np.float32))
    cl.set_dynamic_vertex_buffer(0, np.concatenate([cw, ccw]))
    cl.draw(6)   # stencil: 5 under the front face, ~0 = 255 under the back face, 0 elsewhere
    cl.set_pipeline_state(test)
    for ref, colour in ((5, [1, 0, 0, 1]), (255, [0, 1, 0, 1])):
        cl.set_stencil_ref(ref)
        cl.set_constants(0, np.array(colour, np.float32))
        cl.set_dynamic_vertex_buffer(0, full)
        cl.draw(3)
    queue.execute(cl)
    out = queue.read_texture(rt)
    assert (out[SIZE - 2, 2] == [255, 0, 0, 255]).all()          # stencil 5: red
    assert (out[SIZE - 2, SIZE - 2] == [0, 255, 0, 255]).all()   # stencil 255: green
    assert (out[1, 2] == 0).all()                                # stencil 0: neither


# ---- multisampling ---------------------------------------------------------------------------------

def test_sample_mask_keeps_the_masked_samples(device, queue, compiled):
    rs = device.create_root_signature([dx.RootConstants(0, 4)])
    pso = device.create_graphics_pipeline(compiled["pos_vs"], compiled["const_ps"], rs, ["rgba8_unorm"], sample_count=4, sample_mask=0b0011,
                                          input_layout=[dx.InputElement("POSITION", "float2")])
    ms = device.create_texture2d(SIZE, SIZE, render_target=True, sample_count=4)
    rt = device.create_texture2d(SIZE, SIZE, render_target=True)
    _draw(queue, pso, [ms], [[0, 0, 0, 1]], lambda cl: cl.set_constants(0, np.array([1, 1, 1, 1], np.float32)),
          [np.array([[-1, -1], [-1, 3], [3, -1]], np.float32)], 3)
    cl = queue.command_list()
    cl.resolve(rt, ms)
    queue.execute(cl)
    out = queue.read_texture(rt).astype(int)
    assert (np.abs(out[..., :3] - 255 // 2) <= 1).all() and (out[..., 3] == 255).all()


# D3D12 applies SampleMask whether or not the target is multisampled: at one sample only bit 0
# counts (clear: the pixel writes no colour, depth or stencil); at four samples bit k keeps sample k.
FLAT_VS = """float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2); return float4(uv * float2(2, -2) + float2(-1, 1), 0.25, 1); }"""
WHITE_PS = "float4 main() : SV_Target { return 1; }"
# Sample k of a 4x target into channel k (colour: its red; depth: its value).
SAMPLES_PS = """Texture2DMS<float4, 4> ms : register(t0);
float4 main(float4 p : SV_Position) : SV_Target { int2 i = int2(p.xy);
    return float4(ms.Load(i, 0).r, ms.Load(i, 1).r, ms.Load(i, 2).r, ms.Load(i, 3).r); }"""


@pytest.mark.parametrize("mask", [0, 1, 2, 0xFFFFFFFE, 0xFFFFFFFD, 0x80000001, 0xFFFFFFFF], ids=hex)
def test_sample_mask_at_one_sample_writes_only_with_bit_0(device, queue, mask):
    vs, ps = dx.compile_hlsl(FLAT_VS, profile="vs_5_0"), dx.compile_hlsl(WHITE_PS, profile="ps_5_0")
    pso = device.create_graphics_pipeline(vs, ps, device.create_root_signature([]), ["rgba8_unorm"], dsv_format="d24_unorm_s8_uint",
                                          sample_mask=mask, depth_stencil=dx.DepthStencilState(
                                              depth_test=True, depth_func="always", front=dx.StencilFace(pass_op="replace")))
    rt = device.create_texture2d(8, 8, render_target=True)
    ds = device.create_texture2d(8, 8, "d24_unorm_s8_uint", depth_stencil=True)
    cl = queue.command_list()
    cl.set_pipeline_state(pso)
    cl.set_render_targets([rt], depth=ds)
    cl.clear_render_target(rt, [0, 0, 0, 0])
    cl.clear_depth_stencil(ds, 1.0, 0)
    cl.set_stencil_ref(7)
    cl.draw(3)
    queue.execute(cl)
    colour = queue.read_texture(rt)
    d = np.asarray(queue.read_texture(ds)).astype(np.int64).reshape(8, 8)
    written = bool(mask & 1)
    assert (colour == (255 if written else 0)).all(), f"sample_mask={mask:#x}: colour {colour[0, 0]}"
    assert ((d & 0xFFFFFF) == (round(0.25 * 0xFFFFFF) if written else 0xFFFFFF)).all(), f"sample_mask={mask:#x}: depth"
    assert ((d >> 24) == (7 if written else 0)).all(), f"sample_mask={mask:#x}: stencil"


def test_sample_mask_at_four_samples_keeps_exactly_its_samples(device, queue):
    vs, ps = dx.compile_hlsl(FLAT_VS, profile="vs_5_0"), dx.compile_hlsl(WHITE_PS, profile="ps_5_0")
    rs = device.create_root_signature([])
    reader = device.create_graphics_pipeline(vs, dx.compile_hlsl(SAMPLES_PS, profile="ps_5_0"),
                                             device.create_root_signature([dx.DescriptorTable([dx.SRV(0)])]), ["rgba8_unorm"])

    def samples(ms):
        out = device.create_texture2d(4, 4, render_target=True)
        cl = queue.command_list()
        cl.set_pipeline_state(reader)
        cl.set_render_targets([out])
        cl.set_shader_resource_view(0, 0, ms)
        cl.draw(3)
        queue.execute(cl)
        return queue.read_texture(out)

    for mask in (0, 1, 2, 4, 8, 0x5, 0xA, 0xE, 0xFFFFFFF0, 0xFFFFFFFE, 0xFFFFFFFF):
        pso = device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], dsv_format="d32_float", sample_count=4, sample_mask=mask,
                                              depth_stencil=dx.DepthStencilState(depth_test=True, depth_func="always"))
        rt = device.create_texture2d(4, 4, render_target=True, sample_count=4)
        ds = device.create_texture2d(4, 4, "d32_float", depth_stencil=True, sample_count=4)
        cl = queue.command_list()
        cl.set_pipeline_state(pso)
        cl.set_render_targets([rt], depth=ds)
        cl.clear_render_target(rt, [0, 0, 0, 0])
        cl.clear_depth_stencil(ds, 1.0, 0)
        cl.draw(3)
        queue.execute(cl)
        kept = np.array([(mask >> k) & 1 for k in range(4)], bool)
        colour, depth = samples(rt), samples(ds)
        assert (colour == np.where(kept, 255, 0)).all(), f"sample_mask={mask:#x}: samples {colour[0, 0]}"
        assert (depth == np.where(kept, 64, 255)).all(), f"sample_mask={mask:#x}: depths {depth[0, 0]}"  # 0.25 -> 64; clear 1.0


def test_alpha_to_coverage_dual_source_blend_and_depth_clip(device, queue, compiled):
    """alpha 0.5 covers half the samples; SRC1_COLOR weights by the second output; depth_clip=False
    clamps a triangle beyond the far plane instead of clipping it: colour and depth read back, the depth
    cleared to 0.25 so that a clamped write (1.0) and no write differ."""
    rs = device.create_root_signature([])
    lay = [dx.InputElement("POSITION", "float3")]
    half_alpha = dx.compile_hlsl("float4 main(float4 p : SV_Position) : SV_Target { return float4(1, 1, 1, 0.5); }", profile="ps_5_0")
    dual = dx.compile_hlsl("struct O { float4 a : SV_Target0; float4 b : SV_Target1; };"
                           "O main(float4 p : SV_Position) { O o; o.a = 1; o.b = float4(0.5, 0.25, 0, 1); return o; }", profile="ps_5_0")

    def draw(pso, target, z, depth=None, resolve=None, depth_clear=1.0):
        cl = queue.command_list()
        cl.set_pipeline_state(pso)
        cl.set_render_targets([target], depth=depth)
        cl.clear_render_target(target, [0, 0, 0, 0])
        if depth is not None:
            cl.clear_depth_stencil(depth, depth_clear, 0)
        zs = np.broadcast_to(np.asarray(z, np.float32), (3,))   # one z, or one per vertex
        cl.set_dynamic_vertex_buffer(0, np.array([[-1, -1, zs[0]], [-1, 3, zs[1]], [3, -1, zs[2]]], np.float32))
        cl.draw(3)
        if resolve is not None:
            cl.resolve(resolve, target)
        queue.execute(cl)
        return queue.read_texture(resolve if resolve is not None else target)

    pso = device.create_graphics_pipeline(compiled["pos3_vs"], half_alpha, rs, ["rgba8_unorm"], sample_count=4, alpha_to_coverage=True,
                                          input_layout=lay)
    out = draw(pso, device.create_texture2d(8, 8, render_target=True, sample_count=4), 0.5, resolve=device.create_texture2d(8, 8, render_target=True))
    assert (np.abs(out[..., 0].astype(int) - 128) <= 32).all() and (np.abs(out[..., 3].astype(int) - 64) <= 16).all()
    pso = device.create_graphics_pipeline(compiled["pos3_vs"], dual, rs, ["rgba8_unorm"], input_layout=lay,
                                          blend=dx.BlendState(src_blend="src1_color", dest_blend="zero"))
    assert (draw(pso, device.create_texture2d(8, 8, render_target=True), 0.5) == [128, 64, 0, 255]).all()
    # z across the 8 columns: 1 + x/2 (vertex z 0.5, 0.5, 2.5), so pixel centres 0.5625 .. 0.9375 in
    # columns 0-3 and 1.0625 .. 1.4375 (beyond the far plane) in columns 4-7; and a flat z of 1.5.
    slope = np.broadcast_to(0.5 + (np.arange(8) + 0.5) / 8, (8, 8)).astype(np.float32)
    for clip in (True, False):
        pso = device.create_graphics_pipeline(compiled["pos3_vs"], half_alpha, rs, ["rgba8_unorm"], dsv_format="d32_float", input_layout=lay,
                                              rasterizer=dx.RasterizerState(depth_clip=clip), depth_stencil=dx.DepthStencilState(depth_func="always"))
        for z in (1.5, (0.5, 0.5, 2.5)):
            ds = device.create_texture2d(8, 8, "d32_float", depth_stencil=True)
            colour = draw(pso, device.create_texture2d(8, 8, render_target=True), z, depth=ds, depth_clear=0.25)[..., 0]
            depth = queue.read_texture(ds).reshape(8, 8)
            beyond = np.full((8, 8), True) if z == 1.5 else slope > 1
            # clipped: nothing drawn beyond the far plane (colour 0, the clear depth kept); not clipped:
            # drawn, its depth clamped to the viewport's far value 1.0
            np.testing.assert_array_equal(colour[beyond], 0 if clip else 255, err_msg=f"depth_clip={clip} z={z}")
            np.testing.assert_array_equal(depth[beyond], 0.25 if clip else 1.0, err_msg=f"depth_clip={clip} z={z}")
            np.testing.assert_array_equal(colour[~beyond], 255)
            np.testing.assert_allclose(depth[~beyond], slope[~beyond], atol=1e-5)


# ---- what is refused -------------------------------------------------------------------------------

def test_states_the_backend_ignores_are_refused_naming_the_field(device, compiled):
    rs = device.create_root_signature([dx.RootConstants(0, 4)])
    args = (compiled["pos_vs"], compiled["const_ps"], rs, ["rgba8_unorm"])
    kw = dict(input_layout=[dx.InputElement("POSITION", "float2")])
    if device.info["backend"] != "vkd3d":
        pytest.skip("vkd3d's gaps")
    for field in ("conservative", "antialiased_lines", "multisample"):
        with pytest.raises(dx.InvalidArgumentError, match=f"rasterizer.{field}: vkd3d 1.2 does not implement"):
            device.create_graphics_pipeline(*args, rasterizer=dx.RasterizerState(**{field: True}), **kw)
    with pytest.raises(dx.InvalidArgumentError, match="rasterizer.forced_sample_count"):
        device.create_graphics_pipeline(*args, rasterizer=dx.RasterizerState(forced_sample_count=4), **kw)
    with pytest.raises(dx.InvalidArgumentError, match=r"blend\.logic_op: vkd3d 1.2 does not implement"):
        device.create_graphics_pipeline(compiled["pos_vs"], compiled["const_ps"], rs, ["rgba8_uint"],
                                        blend=dx.BlendState(logic_op="xor"), **kw)


def test_invalid_pipeline_descriptions_raise(device, compiled):
    rs = device.create_root_signature([dx.RootConstants(0, 4)])
    kw = dict(input_layout=[dx.InputElement("POSITION", "float2")])
    vs, ps = compiled["pos_vs"], compiled["const_ps"]
    with pytest.raises(dx.InvalidArgumentError, match=r"blend\[1\]: src_blend_alpha and dest_blend_alpha cannot be \*_color"):
        device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"] * 2, blend=[None, dx.BlendState(src_blend_alpha="src_color")], **kw)
    with pytest.raises(dx.InvalidArgumentError, match=r"src1_\* factors \(dual-source blending\) need exactly one render target"):
        device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"] * 2, blend=dx.BlendState(dest_blend="inv_src1_alpha"), **kw)
    with pytest.raises(dx.InvalidArgumentError, match="blend has 3 states for 2 render targets"):
        device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"] * 2, blend=["alpha", None, "additive"], **kw)
    with pytest.raises(dx.InvalidArgumentError, match="cull= and rasterizer= both given"):
        device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], cull="back", rasterizer=dx.RasterizerState(), **kw)
    with pytest.raises(dx.InvalidArgumentError, match="depth_test= and depth_stencil= both given"):
        device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], dsv_format="d32_float", depth_test=True,
                                        depth_stencil=dx.DepthStencilState(), **kw)
    with pytest.raises(dx.InvalidArgumentError, match="stencil_pass_op= needs stencil_func="):
        device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], dsv_format="d24_unorm_s8_uint", stencil_pass_op="replace", **kw)
    with pytest.raises(TypeError, match="blend"):
        device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], blend=3.5, **kw)  # type: ignore[arg-type]
    # Stages: tessellation needs both shaders and a patch list of the hull shader's control points.
    pvs = compiled["patch_vs"]
    with pytest.raises(dx.InvalidArgumentError, match="hs without ds"):
        device.create_graphics_pipeline(pvs, None, rs, [], hs=compiled["quad_hs"], topology="patch_list_4", **kw)
    with pytest.raises(dx.InvalidArgumentError, match="hs and ds need a patch-list topology"):
        device.create_graphics_pipeline(pvs, None, rs, [], hs=compiled["quad_hs"], ds=compiled["quad_ds"], **kw)
    with pytest.raises(dx.InvalidArgumentError, match="patches of 4 control points.*'patch_list_4'"):
        device.create_graphics_pipeline(pvs, None, rs, [], hs=compiled["quad_hs"], ds=compiled["quad_ds"], topology="3_control_point_patchlist", **kw)
    with pytest.raises(dx.InvalidArgumentError, match="a patch-list topology needs hs and ds"):
        device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], topology="patch_list_3", **kw)
    with pytest.raises(dx.InvalidArgumentError, match="gs is a hull shader"):
        device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], gs=compiled["quad_hs"], **kw)
    # The geometry shader takes points; its input primitive must match the topology.
    grs = device.create_root_signature([dx.RootConstants(0, 1)])
    sprite = (compiled["sprite_vs"], compiled["color_ps"], grs, ["rgba8_unorm"])
    skw = dict(input_layout=[dx.InputElement("POSITION", "float2"), dx.InputElement("COLOR", "float4")], gs=compiled["sprite_gs"])
    with pytest.raises(dx.InvalidArgumentError, match="geometry shader takes point primitives"):
        device.create_graphics_pipeline(*sprite, **skw)
    # Linkage VS -> GS: the geometry shader reads COLOR0, which this vertex shader does not write.
    with pytest.raises(dx.InvalidArgumentError, match=r"the geometry shader's input COLOR0? \(v1\) is not an output of the vertex shader"):
        device.create_graphics_pipeline(compiled["pos_vs"], compiled["color_ps"], grs, ["rgba8_unorm"], topology="point",
                                        input_layout=[dx.InputElement("POSITION", "float2")], gs=compiled["sprite_gs"])
    with pytest.raises(dx.InvalidArgumentError, match=r"input_layout\[0\] \(POSITION\): .* is not a vertex-buffer format"):
        device.create_graphics_pipeline(vs, ps, rs, ["rgba8_unorm"], input_layout=[dx.InputElement("POSITION", "d32_float")])
    # Per-slot classification.
    with pytest.raises(dx.InvalidArgumentError, match="share slot 0 with different per_instance/step_rate"):
        device.create_graphics_pipeline(compiled["instanced_vs"], compiled["color_ps"], rs, ["rgba8_unorm"],
                                        input_layout=[dx.InputElement("POSITION", "float2"), dx.InputElement("OFFSET", "float2", per_instance=True),
                                                      dx.InputElement("COLOR", "float4", slot=1)])


def test_state_objects_repr_eq_and_presets():
    alpha = dx.BlendState.preset("alpha")
    assert alpha == dx.BlendState(src_blend="src_alpha", dest_blend="inv_src_alpha", dest_blend_alpha=dx.Blend.INV_SRC_ALPHA)
    assert alpha != dx.BlendState.preset(dx.BlendMode.ADDITIVE) and alpha != "alpha"
    assert not dx.BlendState().blend_enable and dx.BlendState(blend_op="max").blend_enable
    assert not dx.BlendState(src_blend="one", blend_enable=False).blend_enable
    assert repr(dx.BlendState(src_blend="src_alpha", dest_blend="one", write_mask=7)) == \
        "BlendState(blend_enable=True, src_blend='src_alpha', dest_blend='one', write_mask=7)"
    assert dx.BlendState(logic_op="xor").logic_op == "xor" and dx.BlendState().logic_op is None
    r = dx.RasterizerState(fill=dx.FillMode.WIREFRAME, cull="back", front_ccw=True, depth_bias=-2, slope_scaled_depth_bias=1.5)
    assert repr(r) == "RasterizerState(fill='wireframe', cull='back', front_ccw=True, depth_bias=-2, slope_scaled_depth_bias=1.5)"
    assert r == dx.RasterizerState(fill="wireframe", cull="back", front_ccw=True, depth_bias=-2, slope_scaled_depth_bias=1.5)
    d = dx.DepthStencilState(depth_func="less_equal", back=dx.StencilFace(pass_op="incr_sat"))
    assert d.depth_test and d.stencil and d.front == dx.StencilFace() and d.back.pass_op == "incr_sat"
    assert repr(d) == ("DepthStencilState(depth_test=True, depth_func='less_equal', stencil=True, back=StencilFace(fail_op='keep', "
                       "depth_fail_op='keep', pass_op='incr_sat', func='always'))")
    assert not dx.DepthStencilState().depth_test and not dx.DepthStencilState().stencil
    e = dx.InputElement("TEXCOORD", "float2", 1, 8, 1, per_instance=True, step_rate=3)
    assert (e.semantic, e.format, e.slot, e.offset, e.semantic_index, e.per_instance, e.step_rate) == ("TEXCOORD", "float2", 1, 8, 1, True, 3)
    assert repr(e) == "InputElement('TEXCOORD', 'float2', slot=1, offset=8, semantic_index=1, per_instance=True, step_rate=3)"
    assert dx.InputElement("C", dx.Format.RG16_FLOAT).format == "rg16_float" and dx.InputElement("P", "float3").offset is None
    with pytest.raises(dx.InvalidArgumentError, match="step_rate applies to per_instance"):
        dx.InputElement("P", "float3", step_rate=2)
    with pytest.raises(dx.InvalidArgumentError, match="write_mask 16"):
        dx.BlendState(write_mask=16)
    with pytest.raises(dx.InvalidArgumentError, match="BlendState: src_blend: 'source_alpha' is not one of"):
        dx.BlendState(src_blend="source_alpha")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="InputElement: semantic must be a str"):
        dx.InputElement(3, "float3")  # type: ignore[arg-type]
    with pytest.raises(dx.InvalidArgumentError, match="read_mask"):
        dx.DepthStencilState(read_mask=256)
    with pytest.raises(TypeError):
        hash(alpha)
