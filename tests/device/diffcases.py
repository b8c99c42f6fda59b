"""The constructs of the differential shader test: one small shader each, with a numpy
reference. See tests/device/difftest.py for the harness and scripts/shader-difftest.py for the
whole run."""
from __future__ import annotations

import numpy as np

from .difftest import N, RT_CLEAR, Case

u32, i32, f32 = np.uint32, np.int32, np.float32
CASES = []


def case(*args, **kw) -> Case:
    c = Case(*args, **kw)
    CASES.append(c)
    return c


def out(*cols, dtype=u32) -> np.ndarray:
    """(N, 4) from up to four columns (missing ones 0), viewed as uint32."""
    r = np.zeros((N, 4), dtype)
    for k, c in enumerate(cols):
        r[:, k] = c
    return r.view(u32) if dtype != u32 else r


def fout(*cols) -> np.ndarray:
    return out(*[np.asarray(c, f32) for c in cols], dtype=f32)


def floats(lo=-100.0, hi=100.0):
    return lambda rng, n: rng.uniform(lo, hi, (n, 4)).astype(f32).view(u32)


def ints(lo, hi):
    return lambda rng, n: rng.integers(lo, hi, (n, 4)).astype(np.int64).astype(i32).view(u32)


def small_ints(rng, n):  # products and sums of these with quarters are exact in float32
    return rng.integers(-4, 5, (n, 4)).astype(f32).view(u32)


def cbdata(words) -> np.ndarray:
    a = np.zeros(64, u32)
    w = np.asarray(words).ravel()
    a[:len(w)] = w.view(u32) if w.dtype == f32 else w
    return a


# ---- static and static const data ---------------------------------------------------------------

TBL = np.array([3, 141, 59, 26, 535, 89, 79, 323], u32)
TBL_HLSL = "{" + ", ".join(str(v) for v in TBL) + "}"
CORNERS = np.array([[0, 0], [1, 0], [0, 1], [1, 1]], f32)
CORNERS_HLSL = "{ float2(0,0), float2(1,0), float2(0,1), float2(1,1) }"

case("file_static_scalar", "static", fast=True,
     decls="static float k = 2.5; static uint u = 7; static const int neg = -3;",
     body="return uint4(asuint(k), u, x.x + u, asuint(neg));",
     ref=lambda x, i: out(np.full(N, f32(2.5)).view(u32), 7, x[:, 0] + u32(7), u32(0xFFFFFFFD)))
case("file_static_const_array_rt", "static", fast=True,
     decls=f"static const uint tbl[8] = {TBL_HLSL};",
     body="return uint4(tbl[x.x & 7], tbl[x.y & 7], tbl[i & 7], 0);",
     ref=lambda x, i: out(TBL[x[:, 0] & 7], TBL[x[:, 1] & 7], TBL[i & 7]))
case("file_static_float2_array_rt", "static",
     decls=f"static const float2 tc[4] = {CORNERS_HLSL};",
     body="return asuint(float4(tc[x.x & 3], tc[x.y & 3].yx));",
     ref=lambda x, i: fout(CORNERS[x[:, 0] & 3, 0], CORNERS[x[:, 0] & 3, 1], CORNERS[x[:, 1] & 3, 1], CORNERS[x[:, 1] & 3, 0]))
case("file_static_struct", "static",
     decls="struct S { float a; uint b; float2 c; }; static const S s = { 1.5, 9, float2(-2, 4) };",
     body="return uint4(asuint(s.a), s.b, asuint(s.c.x), asuint(s.c.y));",
     ref=lambda x, i: out(f32(1.5).view(u32), 9, f32(-2).view(u32), f32(4).view(u32)))
case("file_static_struct_array_rt", "static",
     decls="struct S2 { uint a; float b; }; static const S2 ss[3] = { { 10, 0.5 }, { 20, 1.5 }, { 30, 2.5 } };",
     body="S2 v = ss[x.x % 3]; return uint4(v.a, asuint(v.b), ss[i % 3].a, 0);",
     ref=lambda x, i: out(np.array([10, 20, 30], u32)[x[:, 0] % 3], np.array([.5, 1.5, 2.5], f32)[x[:, 0] % 3].view(u32),
                          np.array([10, 20, 30], u32)[i % 3]))
case("file_static_modified", "static",
     decls="static uint counter = 5;",
     body="counter += x.x & 3; counter *= 2; return uint4(counter, 0, 0, 0);",
     ref=lambda x, i: out((u32(5) + (x[:, 0] & 3)) * 2))
# Inside cbuffer blocks: statics are not part of the buffer (fixed by dx12kit's rewrite).
case("cb_static_scalar", "static", fast=True,
     decls="cbuffer cbA { static float rad = 10.0f; };\ncbuffer cbB { static uint cnt = 3; };",
     body="return uint4(asuint(rad), cnt, 0, 0);",
     ref=lambda x, i: out(f32(10).view(u32), 3))
case("cb_static_const_array_rt", "static", fast=True,   # the nBodyGravity pattern
     decls=f"cbuffer cbR {{ static float rad = 10.0f; }};\ncbuffer cbI {{ static const float2 tc[4] = {CORNERS_HLSL}; "
           "static float3 pos[4] = { float3(-1,1,0), float3(1,1,0), float3(-1,-1,0), float3(1,-1,0) }; };",
     body="uint c = x.x & 3; return asuint(float4(tc[c], pos[c].x * rad, pos[c].y));",
     ref=lambda x, i: fout(CORNERS[x[:, 0] & 3, 0], CORNERS[x[:, 0] & 3, 1],
                           np.array([-1, 1, -1, 1], f32)[x[:, 0] & 3] * 10, np.array([1, 1, -1, -1], f32)[x[:, 0] & 3]))
case("cb_static_struct", "static",
     decls="struct S3 { float a; uint b; }; cbuffer cbS { static const S3 s3 = { 0.25, 77 }; };",
     body="return uint4(asuint(s3.a), s3.b, 0, 0);",
     ref=lambda x, i: out(f32(.25).view(u32), 77))
case("cb_static_between_members", "static",
     decls="cbuffer cb0 : register(b0) { float a; static float s = 3.0; float b; };",
     cb0=cbdata(np.array([1.25, 2.5], f32)),
     body="return asuint(float4(a, b, s, a + b + s));",
     ref=lambda x, i: fout(1.25, 2.5, 3.0, 6.75))

# ---- arrays indexed at run time ------------------------------------------------------------------


def _local_array_ref(x, i):
    a = np.zeros((N, 8), u32)
    for k in range(8):
        a[:, k] = x[:, k & 3] ^ u32(k * 0x1111)
    a[np.arange(N), x[:, 2] & 7] = x[:, 3]
    return out(a[np.arange(N), x[:, 0] & 7], a[np.arange(N), x[:, 1] & 7])


case("local_array_rt", "arrays", fast=True,
     body="uint a[8]; [unroll] for (uint k = 0; k < 8; ++k) a[k] = x[k & 3] ^ (k * 0x1111u);\n"
          "a[x.z & 7] = x.w; return uint4(a[x.x & 7], a[x.y & 7], 0, 0);",
     ref=_local_array_ref)
case("local_float4_array_rt", "arrays",
     inputs=floats(),
     body="float4 v[3]; float4 f = asfloat(x); v[0] = f; v[1] = f * 2; v[2] = -f;\n"
          "return asuint(v[x.x & 1 ? 1 : (x.y & 1) * 2]);",
     ref=lambda x, i: _sel_f4(x))


def _sel_f4(x):
    f = x.view(f32)
    sel = np.where((x[:, 0] & 1)[:, None] == 1, f * f32(2), np.where((x[:, 1] & 1)[:, None] == 1, -f, f))
    return sel.astype(f32)


GS_CS = """
StructuredBuffer<uint4> dt_in : register(t0);
RWStructuredBuffer<uint4> dt_out : register(u0);
{decls}
groupshared uint gs[64];
[numthreads(64, 1, 1)]
void main(uint3 t : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{{
    uint4 x = dt_in[t.x];
    gs[gi] = x.y;
    GroupMemoryBarrierWithGroupSync();
    uint j = x.x & 63;
    dt_out[t.x] = uint4(gs[j], gs[63 - j], gi, 0);
}}
"""


def _gs_ref(x, i):
    base = (i // 64) * 64
    j = x[:, 0] & 63
    return out(x[base + j, 1], x[base + 63 - j, 1], i % 64)


case("groupshared_rt", "arrays", fast=True, stages=("cs",), cs_template=GS_CS, body="", ref=_gs_ref)

# ---- cbuffer packing -----------------------------------------------------------------------------

_cb = np.arange(64, dtype=u32) * u32(7) + u32(1)   # distinct words, 16 registers
case("cb_packoffset", "cbuffer", fast=True, cb0=_cb,
     decls="cbuffer cb0 : register(b0) { uint a : packoffset(c1.y); uint2 b : packoffset(c0.z); uint4 c : packoffset(c3); };",
     body="return uint4(a, b.x, b.y, c.w);",
     ref=lambda x, i: out(_cb[5], _cb[2], _cb[3], _cb[15]))
case("cb_scalar_array_rt", "cbuffer", cb0=_cb,
     decls="cbuffer cb0 : register(b0) { uint arr[4]; uint after; };",
     body="return uint4(arr[x.x & 3], arr[2], after, 0);",
     ref=lambda x, i: out(_cb[(x[:, 0] & 3) * 4], _cb[8], _cb[13]))
case("cb_float3_then_float", "cbuffer", cb0=_cb,
     decls="cbuffer cb0 : register(b0) { uint3 a; uint b; uint c; uint3 d; };",   # d cannot straddle: c4? no, c1.y..w
     body="return uint4(a.z, b, c, d.z);",
     ref=lambda x, i: out(_cb[2], _cb[3], _cb[4], _cb[7]))
case("cb_float_then_float3_straddle", "cbuffer", cb0=_cb,
     decls="cbuffer cb0 : register(b0) { uint a; uint b; uint3 c; };",   # c cannot cross a 16-byte boundary: c1
     body="return uint4(a, b, c.x, c.z);",
     ref=lambda x, i: out(_cb[0], _cb[1], _cb[4], _cb[6]))
_m = np.arange(1, 17, dtype=f32).reshape(4, 4) / 4
case("cb_matrix_row_major", "cbuffer", fast=True, cb0=cbdata(_m.ravel()), inputs=small_ints,
     decls="cbuffer cb0 : register(b0) { row_major float4x4 m; };",
     body="return asuint(mul(asfloat(x), m));",
     ref=lambda x, i: (x.view(f32).astype(np.float64) @ _m.astype(np.float64)).astype(f32))
case("cb_matrix_column_major", "cbuffer", cb0=cbdata(_m.ravel()), inputs=small_ints,
     decls="cbuffer cb0 : register(b0) { column_major float4x4 m; };",   # registers hold columns
     body="return asuint(mul(asfloat(x), m));",
     ref=lambda x, i: (x.view(f32).astype(np.float64) @ _m.T.astype(np.float64)).astype(f32))
case("cb_matrix_3x2_elements", "cbuffer", cb0=_cb,
     decls="cbuffer cb0 : register(b0) { row_major uint3x2 r; column_major uint3x2 c; };",  # r: 3 regs (2 used); c: 2 regs
     body="return uint4(r[2][1], r[1][0], c[2][1], c[0][1]);",
     ref=lambda x, i: out(_cb[9], _cb[4], _cb[12 + 4 + 2], _cb[12 + 4 + 0]))
case("cb_struct", "cbuffer", cb0=_cb,
     decls="struct P { uint a; uint2 b; }; cbuffer cb0 : register(b0) { uint first; P p; uint after; };",
     # A struct starts a register; what follows may pack into its last register (fxc's legacy layout, as
     # LLVM's DirectX backend describes it and the packing-rules page's own struct example sizes; its prose
     # "each structure forces the next variable to start on the next four-component vector" is wrong).
     body="return uint4(first, p.a, p.b.y, after);",
     ref=lambda x, i: out(_cb[0], _cb[4], _cb[6], _cb[7]))
case("cb_struct_array_rt", "cbuffer", cb0=_cb,
     decls="struct Q { uint a; uint b; }; cbuffer cb0 : register(b0) { Q q[3]; };",
     body="Q v = q[x.x % 3]; return uint4(v.a, v.b, q[1].b, 0);",
     ref=lambda x, i: out(_cb[(x[:, 0] % 3) * 4], _cb[(x[:, 0] % 3) * 4 + 1], _cb[5]))
case("cb_two_buffers", "cbuffer", cb0=_cb, cb1=_cb[::-1].copy(),
     decls="cbuffer cb0 : register(b0) { uint a; }; cbuffer cb1 : register(b1) { uint4 pad; uint b; };",
     body="return uint4(a, b, 0, 0);",
     ref=lambda x, i: out(_cb[0], _cb[::-1][4]))

# ---- integer and float edge cases ----------------------------------------------------------------


def _idivmod(x):
    a, b = x[:, 0].view(i32).astype(np.int64), x[:, 1].view(i32).astype(np.int64)
    q = np.trunc(a / b).astype(np.int64)  # C: truncation toward zero
    return out(q.astype(i32).view(u32), (a - q * b).astype(i32).view(u32))


case("int_div_mod_negative", "integer", fast=True,
     inputs=lambda rng, n: np.stack([rng.integers(-1000, 1000, n), rng.choice([-7, -3, -1, 1, 2, 5, 13], n),
                                     np.zeros(n), np.zeros(n)], 1).astype(np.int64).astype(i32).view(u32),
     body="int a = asint(x.x), b = asint(x.y); return uint4(asuint(a / b), asuint(a % b), 0, 0);",
     ref=lambda x, i: _idivmod(x))
case("uint_div_mod", "integer",
     inputs=lambda rng, n: np.stack([rng.integers(0, 2**32, n), np.maximum(rng.integers(1, 2**32, n) >> rng.integers(0, 31, n), 1),
                                     np.zeros(n), np.zeros(n)], 1).astype(np.uint64).astype(u32),
     body="return uint4(x.x / x.y, x.x % x.y, 0, 0);",
     ref=lambda x, i: out(x[:, 0] // x[:, 1], x[:, 0] % x[:, 1]))
case("uint_div_by_zero", "integer",     # D3D: quotient and remainder 0xFFFFFFFF
     inputs=lambda rng, n: np.stack([rng.integers(0, 2**32, n), np.zeros(n), np.zeros(n), np.zeros(n)], 1).astype(np.uint64).astype(u32),
     body="return uint4(x.x / x.y, x.x % x.y, 0, 0);",
     ref=lambda x, i: out(0xFFFFFFFF, 0xFFFFFFFF))
case("shifts_by_32_or_more", "integer", fast=True,   # D3D: the shift count's low 5 bits
     inputs=lambda rng, n: np.stack([rng.integers(0, 2**32, n), rng.integers(0, 100, n), np.zeros(n), np.zeros(n)], 1).astype(np.uint64).astype(u32),
     body="int s = asint(x.x); return uint4(x.x << x.y, x.x >> x.y, asuint(s >> x.y), x.x << (x.y + 32u));",
     ref=lambda x, i: out(x[:, 0] << (x[:, 1] & 31), x[:, 0] >> (x[:, 1] & 31), (x[:, 0].view(i32) >> (x[:, 1] & 31).astype(i32)).view(u32),
                          x[:, 0] << (x[:, 1] & 31)))


def _ftoi(w):
    """D3D's ftoi of float32 words `w`, as uint32 words."""
    f = w.view(f32).astype(np.float64)
    t = np.trunc(np.nan_to_num(f, nan=0.0, posinf=2**40, neginf=-2**40))
    return np.where(np.isnan(f), 0, np.clip(t, -2**31, 2**31 - 1)).astype(np.int64).astype(i32).view(u32)


def _ftou(w):
    """D3D's ftou of float32 words `w`."""
    f = w.view(f32).astype(np.float64)
    t = np.trunc(np.nan_to_num(f, nan=0.0, posinf=2**40, neginf=-2**40))
    return np.where(np.isnan(f), 0, np.clip(t, 0, 2**32 - 1)).astype(np.int64).astype(u32)


case("float_to_int_in_range", "conversion", fast=True, inputs=floats(-1e6, 1e6),
     body="float f = asfloat(x.x); return uint4(asuint(int(f)), uint(abs(f)), 0, 0);",
     ref=lambda x, i: out(np.trunc(x[:, 0].view(f32)).astype(i32).view(u32), np.trunc(np.abs(x[:, 0].view(f32))).astype(u32)))
_EDGE = np.array([-1e10, -3e9, -2147483904.0, -2147483648.0, -1.5, -0.5, -0.0, 0.0, 0.75, 2147483520.0, 2147483648.0, 3e9,
                  4294967040.0, 4294967296.0, 5e9, 1e20, np.inf, -np.inf, np.nan], f32)


def _edge_floats(rng, n):   # D3D's edge values of ftoi/ftou, random values in and around both ranges
    v = rng.choice(_EDGE, (n, 4)).astype(f32)
    v[::3] = rng.uniform(-5e9, 5e9, (len(v[::3]), 4)).astype(f32)
    v[1::5] = rng.uniform(-4, 4, (len(v[1::5]), 4)).astype(f32)
    return v.view(u32)


# D3D (functional spec, ftoi/ftou): NaN -> 0, out of range -> clamped, truncation toward zero. vkd3d 1.2
# gives 0x80000000 there (and for ftou in [2^31, 2^32)); dx12kit rewrites the instructions at
# pipeline creation (cpp/src/shaders/DxbcRewrite.cpp). int and uint conversions of one value are kept
# in separate cases here; the merge of both is tested by the cases below.
case("float_to_int_saturation", "conversion", fast=True, inputs=_edge_floats,
     body="float4 f = asfloat(x); int s = int(f.x); int2 v = int2(f.zw); return uint4(asuint(s), 0, asuint(v));",
     ref=lambda x, i: out(_ftoi(x[:, 0]), 0, _ftoi(x[:, 2]), _ftoi(x[:, 3])))
case("float_to_uint_saturation", "conversion", fast=True, inputs=_edge_floats,
     body="float4 f = asfloat(x); return uint4(f);",
     ref=lambda x, i: out(*[_ftou(x[:, k]) for k in range(4)]))
case("float_to_int_index", "conversion", inputs=_edge_floats, decls=f"static const uint tbl[8] = {TBL_HLSL};",
     body="float4 f = asfloat(x); uint k = uint(f.x); return uint4(k, tbl[min(k, 7u)], uint(f.y) >> 1, 0);",
     ref=lambda x, i: out(_ftou(x[:, 0]), TBL[np.minimum(_ftou(x[:, 0]), 7)], _ftou(x[:, 1]) >> 1))
# vkd3d-shader 2.1 merges conversions of one value to different types into one instruction of the first
# one's type; dx12kit's copy of the compiler is fixed (python/dx12kit/_compiler_setup.py), a compiler
# that still merges is refused by compile_hlsl. Explicit, implicit and per-component forms:
case("int_and_uint_of_one_value", "conversion", fast=True, inputs=_edge_floats,
     body="float f = asfloat(x.x); return uint4(asuint(int(f)), uint(f), 0, 0);",
     ref=lambda x, i: out(_ftoi(x[:, 0]), _ftou(x[:, 0])))
case("int_and_uint_of_one_value_workaround", "conversion", inputs=_edge_floats,  # different sources: never merged
     body="float f = asfloat(x.x); return uint4(asuint(int(f)), uint(max(f, 0.0)), 0, 0);",
     ref=lambda x, i: out(_ftoi(x[:, 0]), _ftou(x[:, 0])))
case("float_and_uint_of_one_int_workaround", "conversion",
     body="int s = asint(x.x); float a = float(s); uint b = asuint(s); return uint4(asuint(a), b / 3u, 0, 0);",
     ref=lambda x, i: out(x[:, 0].view(i32).astype(f32).view(u32), x[:, 0] // u32(3)))
case("float_and_uint_of_one_int", "conversion",
     body="int s = asint(x.x); float a = float(s); uint b = uint(s); return uint4(asuint(a), b / 3u, 0, 0);",
     ref=lambda x, i: out(x[:, 0].view(i32).astype(f32).view(u32), x[:, 0] // u32(3)))
case("int_used_as_float_and_uint", "conversion", fast=True,   # implicit conversions, merged alike
     inputs=ints(-2**20, 2**20),
     body="int s = asint(x.y); float a = s * 0.5; uint k = s + 1u; uint m = x.z & 0xFFFFFFu; return uint4(asuint(a), k, asuint(float(m)), m * 3);",
     ref=lambda x, i: out((x[:, 1].view(i32).astype(f32) * f32(0.5)).view(u32), x[:, 1] + u32(1),
                          (x[:, 2] & u32(0xFFFFFF)).astype(f32).view(u32), (x[:, 2] & u32(0xFFFFFF)) * u32(3)))
case("uint_and_int_of_components", "conversion", inputs=_edge_floats,   # components of one vector
     body="float4 v = asfloat(x); return uint4(uint(v.x), asuint(int(v.y)), asuint(int(v.z)), uint(v.w));",
     ref=lambda x, i: out(_ftou(x[:, 0]), _ftoi(x[:, 1]), _ftoi(x[:, 2]), _ftou(x[:, 3])))
case("uint_as_int_and_float", "conversion", inputs=ints(0, 2**24),
     body="uint u = x.x; int s = int(u); float a = float(u); return uint4(asuint(s >> 1), asuint(a), 0, 0);",
     ref=lambda x, i: out((x[:, 0].view(i32) >> 1).view(u32), x[:, 0].astype(f32).view(u32)))
case("int_to_float", "conversion",
     body="return asuint(float4(asint(x.x), x.y, float(asint(x.z) >> 8), float(x.w >> 8)));",
     ref=lambda x, i: fout(x[:, 0].view(i32).astype(f32), x[:, 1].astype(f32), (x[:, 2].view(i32) >> 8).astype(f32),
                           (x[:, 3] >> 8).astype(f32)))

_SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -2.5, 3e38], f32)


def _minmax_ref(x):
    a, b = x[:, 0].view(f32), x[:, 1].view(f32)
    return fout(np.fmin(a, b), np.fmax(a, b), np.fmin(a, f32(1)), np.fmax(b, f32(-1)))


def _nonzero_pairs(rng, n):
    v = rng.choice(_SPECIAL, (n, 4))
    return v.astype(f32).view(u32)


case("nan_inf_min_max", "float", fast=True,    # D3D: min/max return the non-NaN operand
     inputs=_nonzero_pairs,
     body="float a = asfloat(x.x), b = asfloat(x.y); return asuint(float4(min(a, b), max(a, b), min(a, 1.0), max(b, -1.0)));",
     ref=lambda x, i: _minmax_ref(x))
case("asuint_of_negated_float", "float", inputs=floats(-1e30, 1e30),   # folded modifier, fixed by DxbcModifierFix.cpp
     body="float4 f = asfloat(x); return asuint(f * 2.0) ^ asuint(-f);",
     ref=lambda x, i: (x.view(f32) * f32(2)).view(u32) ^ (-x.view(f32)).view(u32))
# vkd3d-shader folds a float negation/abs feeding asuint/asint into the instruction that uses it (a store, an
# atomic, a switch, a compare, countbits...) as a source modifier, which is not a float operation there; dx12kit
# moves it into a float mov (cpp/src/shaders/DxbcModifierFix.cpp). Edge values: +-0, NaN, infinities, denormals.
_EDGE = np.array([0x00000000, 0x80000000, 0x7FC00000, 0xFFC00001, 0x7F800000, 0xFF800000, 0x00000001, 0x807FFFFF,
                  0x3FC00000, 0xBFC00000], u32)


def edge_floats(rng, n):
    x = rng.uniform(-1e6, 1e6, (n, 4)).astype(f32).view(u32)
    pick = rng.random((n, 4)) < 0.5
    x[pick] = rng.choice(_EDGE, int(pick.sum()))
    return x


case("asuint_negated_stored", "float", fast=True, inputs=edge_floats,
     body="float4 f = asfloat(x); return asuint(-f);",
     ref=lambda x, i: x ^ u32(0x80000000))


def _neg_int_ops_ref(x):
    ny, nx, nz, nw = x[:, 1] ^ u32(0x80000000), x[:, 0] ^ u32(0x80000000), x[:, 2] ^ u32(0x80000000), x[:, 3] ^ u32(0x80000000)
    s = np.where(ny == 0, 1, np.where(ny == 0x80000000, 2, 3)).astype(u32)
    c = (nx != 0).astype(u32)
    bits = np.array([bin(int(v)).count("1") for v in nz], u32)
    low = np.array([(int(v) & -int(v)).bit_length() - 1 if v else 0xFFFFFFFF for v in nw], np.int64).astype(u32)
    return out(bits + (c << u32(8)) + (s << u32(12)),
               (x[:, 3] & u32(0x7FFF0000)) | ((x[:, 1] | u32(0x80000000)).view(i32) < 0).astype(u32),
               (x[:, 2] | u32(0x80000000)) >> u32(16), low)


case("asuint_negated_in_integer_ops", "float", fast=True, inputs=edge_floats,
     body="float4 f = asfloat(x); uint s; "
          "switch (asuint(-f.y)) { case 0u: s = 1; break; case 0x80000000u: s = 2; break; default: s = 3; break; } "
          "uint c = asuint(-f.x) ? 1u : 0u; "
          "return uint4(countbits(asuint(-f.z)) + (c << 8) + (s << 12), (asuint(abs(f.w)) & 0xFFFF0000u) | (asint(-abs(f.y)) < 0 ? 1u : 0u), "
          "asuint(-abs(f.z)) >> 16, firstbitlow(asuint(-f.w)));",
     ref=lambda x, i: _neg_int_ops_ref(x))

# Found while testing the above: vkd3d-shader 2.1's vectorizer merged asuint(f) and asint(f) of one value into
# one uint value, so asint(f) < 0 folded to false when asuint(f) was also used (independent of negation).
# Fixed in dx12kit's copy of the library (REINTERPRET in the never-vectorize mask, _compiler_setup).
case("asuint_and_asint_of_one_float", "float", fast=True, inputs=edge_floats,
     body="float4 f = asfloat(x); uint c = asuint(f.x) ? 1u : 0u; return uint4(c, asint(f.x) < 0 ? 1u : 0u, 0, 0);",
     ref=lambda x, i: out((x[:, 0] != 0).astype(u32), (x[:, 0].view(i32) < 0).astype(u32)))

GS_ATOMIC_CS = """
StructuredBuffer<uint4> dt_in : register(t0);
RWStructuredBuffer<uint4> dt_out : register(u0);
{decls}
groupshared uint gs[64];
groupshared uint acc[4];
[numthreads(64, 1, 1)]
void main(uint3 t : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{{
    float4 f = asfloat(dt_in[t.x]);
    if (gi < 4) acc[gi] = 0;
    GroupMemoryBarrierWithGroupSync();
    gs[gi] = asuint(-f.x);
    InterlockedXor(acc[0], asuint(-f.y));
    InterlockedMax(acc[1], asuint(abs(f.z)));
    InterlockedAdd(acc[2], asuint(-f.w));
    GroupMemoryBarrierWithGroupSync();
    dt_out[t.x] = uint4(gs[63 - gi], acc[0], acc[1], acc[2]);
}}
"""


def _gs_atomic_ref(x, i):
    g = x.reshape(-1, 64, 4)
    xor = np.bitwise_xor.reduce(g[:, :, 1] ^ u32(0x80000000), axis=1)
    mx = (g[:, :, 2] & u32(0x7FFFFFFF)).max(axis=1)
    add = ((g[:, :, 3] ^ u32(0x80000000)).astype(np.uint64).sum(axis=1) & 0xFFFFFFFF).astype(u32)
    return out(g[:, ::-1, 0].reshape(-1) ^ u32(0x80000000), np.repeat(xor, 64), np.repeat(mx, 64), np.repeat(add, 64))


case("asuint_negated_groupshared_and_atomics", "float", fast=True, stages=("cs",), cs_template=GS_ATOMIC_CS, body="",
     inputs=edge_floats, ref=_gs_atomic_ref)
case("asuint_sign_flip_workaround", "float", inputs=floats(-1e30, 1e30),
     body="float4 f = asfloat(x); return asuint(f * 2.0) ^ (asuint(f) ^ 0x80000000u) ^ (asuint(f) & 0x7FFFFFFFu);",
     ref=lambda x, i: (x.view(f32) * f32(2)).view(u32) ^ (x ^ u32(0x80000000)) ^ (x & u32(0x7FFFFFFF)))


def _f16_ref(x):
    f = x[:, 0].view(f32)
    with np.errstate(over="ignore"):   # beyond 65504: infinity, as D3D's f32tof16
        h = f.astype(np.float16)
    return out(h.view(np.uint16).astype(u32), h.astype(f32).view(u32), f32(x[:, 1] & 0xFFFF).view(u32) * 0 +
               np.frombuffer((x[:, 1] & 0xFFFF).astype(np.uint16).tobytes(), np.float16).astype(f32).view(u32))


# Mesa 25 lavapipe folded the round trip to the identity (returned f unrounded); fixed by DxbcRewrite.cpp,
# which computes f16tof32 without UnpackHalf2x16.
case("f32tof16_f16tof32", "float", fast=True,
     inputs=lambda rng, n: np.stack([rng.uniform(-70000, 70000, n).astype(f32).view(u32),
                                     rng.integers(0, 0x7C00, n).astype(u32), np.zeros(n, u32), np.zeros(n, u32)], 1),
     body="float f = asfloat(x.x); uint h = f32tof16(f); return uint4(h, asuint(f16tof32(h)), asuint(f16tof32(x.y)), 0);",
     ref=lambda x, i: _f16_ref(x))
case("float_arith", "float", inputs=floats(-1000, 1000), ulps=1,
     body="float4 f = asfloat(x); return asuint(float4(f.x * f.y, f.x + f.y, f.z - f.w, f.x / (abs(f.w) + 1)));",
     ref=lambda x, i: _farith(x))


def _farith(x):
    f = x.view(f32)
    return np.stack([f[:, 0] * f[:, 1], f[:, 0] + f[:, 1], f[:, 2] - f[:, 3], f[:, 0] / (np.abs(f[:, 3]) + f32(1))], 1).astype(f32)


case("round_floor_frac", "float", inputs=lambda rng, n: (np.round(rng.uniform(-50, 50, (n, 4)) * 4) / 4).astype(f32).view(u32),
     body="float4 f = asfloat(x); return asuint(float4(round(f.x), floor(f.y), ceil(f.z), frac(f.w)));",
     ref=lambda x, i: _rff(x))


def _rff(x):
    f = x.view(f32)
    return np.stack([np.round(f[:, 0]), np.floor(f[:, 1]), np.ceil(f[:, 2]), f[:, 3] - np.floor(f[:, 3])], 1).astype(f32)


def _bits_ref(x):
    a = x[:, 0]
    cnt = np.array([bin(int(v)).count("1") for v in a], u32)
    hi = np.array([int(v).bit_length() - 1 if v else 0xFFFFFFFF for v in a], np.int64).astype(u32)
    lo = np.array([(int(v) & -int(v)).bit_length() - 1 if v else 0xFFFFFFFF for v in a], np.int64).astype(u32)
    return out(cnt, hi, lo)


case("bit_ops", "integer",
     inputs=lambda rng, n: np.maximum(rng.integers(0, 2**32, (n, 4), dtype=np.uint64) >> rng.integers(0, 32, (n, 4)).astype(np.uint64), 1).astype(u32),
     body="return uint4(countbits(x.x), firstbithigh(x.x), firstbitlow(x.x), 0);",  # reversebits: E5005, not defined
     ref=lambda x, i: _bits_ref(x))
case("firstbit_of_zero", "integer", fast=True,   # D3D: 0xFFFFFFFF; vkd3d 1.2: 63 (fixed by DxbcRewrite.cpp)
     inputs=lambda rng, n: np.zeros((n, 4), u32),
     body="return uint4(firstbithigh(x.x), firstbitlow(x.y), asuint(firstbithigh(asint(x.z))), asuint(firstbithigh(asint(x.w) - 1)));",
     ref=lambda x, i: out(0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF))
case("signed_min_max_abs", "integer",
     body="int a = asint(x.x), b = asint(x.y); return uint4(asuint(min(a, b)), asuint(max(a, b)), asuint(abs(a >> 1)), min(x.x, x.y));",
     ref=lambda x, i: out(np.minimum(x[:, 0].view(i32), x[:, 1].view(i32)).view(u32), np.maximum(x[:, 0].view(i32), x[:, 1].view(i32)).view(u32),
                          np.abs(x[:, 0].view(i32) >> 1).view(u32), np.minimum(x[:, 0], x[:, 1])))

# ---- control flow --------------------------------------------------------------------------------


def _switch_ref(x):
    s = x[:, 0] & 7
    acc = np.full(N, 7, u32)                         # default (in the middle of the cases)
    acc = np.where(s == 0, 1, acc)
    acc = np.where((s == 1) | (s == 2), 100, acc)    # shared labels
    acc = np.where(s == 4, 1000 + s, acc)
    acc = np.where(s == 6, 60, acc)                  # returns from inside the switch
    return out(acc, s)


# A case that falls through into the next one's statements is refused by vkd3d-shader 2.1 (E5000:
# "Switch case block is not terminated with 'break' or 'return'"): loud, so not a silent gap.
case("switch_shared_labels_default", "control", fast=True,
     body="uint acc = 0; uint s = x.x & 7;\n"
          "switch (s) { case 0: acc = 1; break; case 1: case 2: acc = 100; break; default: acc = 7; break;\n"
          "  case 4: acc = 1000 + s; break; case 6: return uint4(60, s, 0, 0); }\n"
          "return uint4(acc, s, 0, 0);",
     ref=lambda x, i: _switch_ref(x))


def _loop_ref(x):
    n = x[:, 0] & 31
    stop = x[:, 1] & 31
    acc = np.zeros(N, u32)
    alive = np.ones(N, bool)   # not yet broken out of the loop (break at stop)
    for k in range(32):
        alive = alive & ~((k == stop) & (k < n))
        add = alive & (k < n) & (k % 3 != 0)
        acc = acc + np.where(add, u32(k), u32(0))
    return out(acc)


case("loop_break_continue", "control", fast=True,
     body="uint acc = 0; uint n = x.x & 31, stop = x.y & 31;\n"
          "[loop] for (uint k = 0; k < n; ++k) { if (k == stop) break; if (k % 3 == 0) continue; acc += k; }\n"
          "return uint4(acc, 0, 0, 0);",
     ref=lambda x, i: _loop_ref(x))
case("early_return", "control",
     body="if (x.x & 1) return uint4(1, x.y, 0, 0); uint v = x.y * 3; if (v & 2) return uint4(2, v, 0, 0); return uint4(3, 0, 0, 0);",
     ref=lambda x, i: np.where(((x[:, 0] & 1) == 1)[:, None], out(1, x[:, 1]),
                               np.where((((x[:, 1] * u32(3)) & 2) != 0)[:, None], out(2, x[:, 1] * u32(3)), out(3))))
case("while_nested", "control",
     body="uint a = x.x & 15, b = x.y & 7, acc = 0; while (a > 0) { uint j = 0; do { acc += a * j; ++j; } while (j < b); --a; }\n"
          "return uint4(acc, 0, 0, 0);",
     ref=lambda x, i: out(_nested(x)))


def _nested(x):
    a = (x[:, 0] & 15).astype(np.int64)
    b = (x[:, 1] & 7).astype(np.int64)
    jsum = np.maximum(b, 1) * (np.maximum(b, 1) - 1) // 2   # do-while runs at least once (j = 0 adds 0)
    return (a * (a + 1) // 2 * jsum).astype(u32)


DISCARD_PS = """
StructuredBuffer<uint4> dt_in : register(t0);
uint4 main(float4 pos : SV_Position) : SV_Target
{{
    uint i = uint(pos.y) * {W}u + uint(pos.x);
    uint4 x = dt_in[i];
    if (x.x & 1) discard;
    return uint4(x.y, 1, 0, 0);
}}
"""
case("discard", "control", fast=True, stages=("ps",), pixel_template=DISCARD_PS, body="",
     ref=lambda x, i: np.where(((x[:, 0] & 1) == 1)[:, None], out(RT_CLEAR, RT_CLEAR, RT_CLEAR, RT_CLEAR), out(x[:, 1], 1)))

# ---- resource access -----------------------------------------------------------------------------

RAW = (np.arange(64, dtype=u32) * u32(2654435761)) | u32(1)   # 64 words, none 0
case("raw_buffer_out_of_bounds", "resources", fast=True, raw=RAW,
     decls="ByteAddressBuffer rb : register(t1);",
     body="uint w = x.x % 96; uint2 two = rb.Load2(((x.y % 96) & ~1u) * 4); return uint4(rb.Load(w * 4), two, 0);",
     ref=lambda x, i: out(np.where(x[:, 0] % 96 < 64, RAW[np.minimum(x[:, 0] % 96, 63)], 0),
                          *_raw2(x)))


def _raw2(x):
    w = (x[:, 1] % 96) & ~u32(1)
    ok = w + 1 < 64
    return np.where(ok, RAW[np.minimum(w, 62)], 0), np.where(ok, RAW[np.minimum(w + 1, 63)], 0)


case("structured_buffer_out_of_bounds", "resources", raw=RAW,
     decls="StructuredBuffer<uint> sb : register(t1);",
     body="uint w = x.x % 96; return uint4(sb[w], 0, 0, 0);",
     ref=lambda x, i: out(np.where(x[:, 0] % 96 < 64, RAW[np.minimum(x[:, 0] % 96, 63)], 0)),
     note="bound through dx12kit's raw buffer view (a table buffer SRV is raw): stride 4, 64 elements")

TEX = (np.arange(6 * 5 * 4, dtype=f32).reshape(5, 6, 4) + 1) / 8   # 6 wide, 5 high


def _tex_load_ref(x):
    px = (x[:, 0] % 10).astype(np.int64) - 2
    py = (x[:, 1] % 9).astype(np.int64) - 2
    ok = (px >= 0) & (px < 6) & (py >= 0) & (py < 5)
    v = TEX[np.clip(py, 0, 4), np.clip(px, 0, 5)]
    return np.where(ok[:, None], v, 0).astype(f32)


case("texture_load_out_of_bounds", "resources", fast=True, texture=TEX,
     decls="Texture2D<float4> tex : register(t3);",
     body="int2 p = int2(x.x % 10, x.y % 9) - 2; return asuint(tex.Load(int3(p, 0)));",
     ref=lambda x, i: _tex_load_ref(x))


def _tex_sample_ref(x):
    u = ((x[:, 0] % 17).astype(f32) - 4) / f32(8)    # -0.5 .. 1.5
    v = ((x[:, 1] % 17).astype(f32) - 4) / f32(8)
    px = np.clip(np.floor(u * 6), 0, 5).astype(int)
    py = np.clip(np.floor(v * 5), 0, 4).astype(int)
    return TEX[py, px].astype(f32)


case("texture_sample_clamp_edges", "resources", texture=TEX,
     decls="Texture2D<float4> tex : register(t3); SamplerState pt : register(s0);",
     body="float2 uv = (float2(x.x % 17, x.y % 17) - 4) / 8; return asuint(tex.SampleLevel(pt, uv, 0));",
     ref=lambda x, i: _tex_sample_ref(x))

# ---- system values -------------------------------------------------------------------------------
case("vertex_and_instance_id", "system_values", fast=True, stages=("vs", "vs_instance"),
     body="return uint4(i, x.x, 0, 0);",
     ref=lambda x, i: out(i, x[:, 0]),
     note="vs: SV_VertexID from a point list; vs_instance: SV_InstanceID with start instance 3 and start vertex 5")

# ---- mixed float/integer subtraction (vkd3d-shader negates the integer before converting it) ------


def mixed_inputs(rng, n):
    """x.x a float's bits; x.y a uint (half small, half anywhere); x.z an int, INT_MIN every 7th; x.w a uint."""
    a = np.zeros((n, 4), u32)
    a[:, 0] = rng.uniform(-1000, 1000, n).astype(f32).view(u32)
    a[:, 1] = np.where(rng.random(n) < 0.5, rng.integers(0, 1000, n), rng.integers(0, 2**32, n)).astype(u32)
    a[:, 2] = rng.integers(-2**31, 2**31, n).astype(np.int64).astype(i32).view(u32)
    a[::7, 2] = 0x80000000
    a[:, 3] = rng.integers(0, 2**32, n).astype(u32)
    return a


def _f(x):
    return x[:, 0].view(f32)


def _uf(v):   # uint32 -> float32 as HLSL converts (round to nearest)
    return np.asarray(v, u32).astype(f32)


def _if(v):
    return np.asarray(v, u32).view(i32).astype(f32)


case("float_minus_uint", "mixed_subtraction", fast=True, inputs=mixed_inputs,
     body="float f = asfloat(x.x); uint u = x.y; int s = asint(x.z);\n"
          "    return asuint(float4(f - u, f - u * 64, f - s, f - 7u));",
     ref=lambda x, i: fout(_f(x) - _uf(x[:, 1]), _f(x) - _uf(x[:, 1] * u32(64)), _f(x) - _if(x[:, 2]), _f(x) - f32(7)))
case("float_minus_uint_vectors", "mixed_subtraction", fast=True, inputs=mixed_inputs,
     body="float2 p = asfloat(x.xx) * float2(1, -0.5); uint2 v = x.yw;\n"
          "    float2 a = p - v; float3 b = float3(p, 2.5) - v.y; float c = p.y - (v - 1u).x;\n"
          "    return asuint(float4(a.x, a.y + b.z, b.x - c, c));",
     ref=lambda x, i: (lambda p0, p1, v0, v1: fout(
         p0 - v0, (p1 - v1) + (f32(2.5) - v1), (p0 - v1) - (p1 - _uf(x[:, 1] - u32(1))), p1 - _uf(x[:, 1] - u32(1))))(
         _f(x), _f(x) * f32(-0.5), _uf(x[:, 1]), _uf(x[:, 3])))
case("float_minus_uint_compound", "mixed_subtraction", inputs=mixed_inputs,
     body="float2 a = asfloat(x.xx); a -= x.yw; float m = asfloat(x.x); m -= x.w * 3; int s = asint(x.z);\n"
          "    float k = m; k -= s;\n"
          "    return asuint(float4(a, m, k));",
     ref=lambda x, i: (lambda m: fout(_f(x) - _uf(x[:, 1]), _f(x) - _uf(x[:, 3]), m, m - _if(x[:, 2])))(
         _f(x) - _uf(x[:, 3] * u32(3))))
case("float_minus_uint_nested", "mixed_subtraction", inputs=mixed_inputs,
     decls="float dt_g(float a, float b) { return a - b; }\nfloat dt_h(float a, uint b) { return a - b; }",
     body="float f = asfloat(x.x); uint u = x.y & 0xFFFF;\n"
          "    float n = f - (u - (x.w & 0xFF) * 2u);\n"
          "    float q = f - (u - f);  // u - f: the float is negated (right without the fix)\n"
          "    return asuint(float4(n, q, dt_g(f, u), dt_h(f, x.w) - -u));",
     ref=lambda x, i: (lambda f, u: fout(
         f - _uf(u - (x[:, 3] & u32(0xFF)) * u32(2)), f - (_uf(u) - f), f - _uf(u),
         (f - _uf(x[:, 3])) - _uf(u32(0) - u)))(_f(x), x[:, 1] & u32(0xFFFF)))
case("integer_minus_mixed_signedness", "mixed_subtraction", inputs=mixed_inputs,   # modular: right without the fix
     body="uint u = x.y; int s = asint(x.z); float f = asfloat(x.x);\n"
          "    return uint4(u - s, asuint(s - u), asuint(u - f), asuint(s - 2u));",
     ref=lambda x, i: out(x[:, 1] - x[:, 2], x[:, 2] - x[:, 1], (_uf(x[:, 1]) - _f(x)).view(u32), x[:, 2] - u32(2)))
case("float_minus_uint_matrix", "mixed_subtraction", inputs=mixed_inputs,
     body="float f = asfloat(x.x); float2x2 m = float2x2(f, 1, -f, 0.5); uint2x2 w = uint2x2(x.y, x.w, 3, x.y >> 4);\n"
          "    float2x2 d = m - w; return asuint(float4(d[0], d[1]));",
     ref=lambda x, i: fout(_f(x) - _uf(x[:, 1]), f32(1) - _uf(x[:, 3]), -_f(x) - f32(3), f32(0.5) - _uf(x[:, 1] >> u32(4))))

# ---- HLSL 2021 select(cond, a, b) (rewritten to a conditional expression) ---------------------------


def _sf(x):   # the float the select cases make of x.x
    return (x[:, 0] & u32(0xFFFF)).astype(f32) - f32(30000)


case("select_scalars", "select", fast=True,
     body="float f = float(x.x & 0xFFFF) - 30000;\n"
          "    return uint4(select(x.y > x.z, x.y, x.z), asuint(select(f < 0, -f, f * 2)), select(i & 1, 7u, 9u),\n"
          "                 asuint(select(x.w > 0x80000000u, 1.5, float(i))));",
     ref=lambda x, i: out(np.where(x[:, 1] > x[:, 2], x[:, 1], x[:, 2]),
                          np.where(_sf(x) < 0, -_sf(x), _sf(x) * f32(2)).astype(f32).view(u32),
                          np.where(i & 1, 7, 9), np.where(x[:, 3] > 0x80000000, f32(1.5), i.astype(f32)).astype(f32).view(u32)))
case("select_vectors", "select", fast=True,
     body="bool4 c = x > x.yzwx;\n"
          "    uint4 r = select(c, x, x.wzyx);\n"
          "    float2 v = select(c.xy, float2(x.xy & 0xFF), 2.5);  // a scalar broadcast\n"
          "    return r ^ uint4(asuint(v), select(c.zw, 1u, uint2(3, 4)));",
     ref=lambda x, i: (lambda c: out(*[np.where(c[:, k], x[:, k], x[:, 3 - k]) ^ w for k, w in enumerate([
         np.where(c[:, 0], (x[:, 0] & u32(0xFF)).astype(f32), f32(2.5)).astype(f32).view(u32),
         np.where(c[:, 1], (x[:, 1] & u32(0xFF)).astype(f32), f32(2.5)).astype(f32).view(u32),
         np.where(c[:, 2], 1, 3).astype(u32), np.where(c[:, 3], 1, 4).astype(u32)])]))(x > x[:, [1, 2, 3, 0]]))
case("select_nested_and_in_macros", "select",
     decls="#define PICK(c, a, b) select(c, a, \\\n  b)\n#define MAX3(a, b, c) select(a > b, select(a > c, a, c), select(b > c, b, c))",
     body="uint m = MAX3(x.x, x.y, x.z);\n"
          "    uint n = select(x.w & 1, select(x.w & 2, 1u, 2u), /* select(no) */ select(x.w & 4, 3u, 4u));\n"
          "    return uint4(m, n, PICK(x.x < x.w, x.x, x.w), PICK(i > 5, select(i > 9, i, 9u), 5u));",
     ref=lambda x, i: out(np.maximum(np.maximum(x[:, 0], x[:, 1]), x[:, 2]),
                          np.where(x[:, 3] & 1, np.where(x[:, 3] & 2, 1, 2), np.where(x[:, 3] & 4, 3, 4)),
                          np.minimum(x[:, 0], x[:, 3]), np.where(i > 5, np.maximum(i, 9), 5)))

# ---- combinations: static arrays indexed at run time with structured-buffer reads and cbuffer matrices ---
# One construct per case misses faults that need several at once: nBody's particle vertex shader (corner
# tables indexed by the vertex, a StructuredBuffer read, a cbuffer matrix) gave uv (1, 1) at every pixel
# while each construct alone was right. The cause (docs/guides/shader-gaps.rst, "partial mov"): the float3
# position lives in r0.yzw next to the corner index in r0.x, the matrix product is built in r3.yzw, and
# vkd3d-shader 2.1 copies it with `mov r0.yzw, r3.xyzw`, which vkd3d 1.2 turns into a copy of all of r3:
# the index becomes r3.x. Fixed at pipeline creation (cpp/src/shaders/DxbcRewrite.cpp).
COMBO_BODIES = np.array([[0.5, -1.25, 2, 3], [1, 0.25, -0.5, 7], [-2, 1.5, 0.75, -1], [3.25, -0.75, 1, 0.5]], f32)
COMBO_M = (np.array([[2, -1, 3, 1], [0, 4, -2, 2], [1, 1, 5, -3], [-4, 2, 1, 6]], f32) / 4)   # quarters: exact sums
CORNER_POS = np.array([[-1, 1, 0], [1, 1, 0], [-1, -1, 0], [1, -1, 0]], f32)
CORNER_TABLE = np.array([0, 1, 2, 2, 1, 3], u32)
COMBO_POS_HLSL = "{ float3(-1, 1, 0), float3(1, 1, 0), float3(-1, -1, 0), float3(1, -1, 0) }"
COMBO_BUFFERS = ("StructuredBuffer<float4> bodies : register(t1);\n"
                 "cbuffer Frame : register(b0) { row_major float4x4 m; };\n")
COMBO_TABLES = {   # where the corner tables are declared
    "file": f"static const float3 corner_pos[4] = {COMBO_POS_HLSL};\nstatic const float2 corner_uv[4] = {CORNERS_HLSL};\n",
    "cbuffer": f"cbuffer Corners {{ static const float3 corner_pos[4] = {COMBO_POS_HLSL};\n"
               f"  static const float2 corner_uv[4] = {CORNERS_HLSL}; }};\n",   # moved out by dx12kit's source rewrite
}


def _combo_inputs(rng, n):   # x.x, x.y: indices; x.z: a small float (exact products); x.w: random
    x = rng.integers(0, 2**32, (n, 4), dtype=np.uint64).astype(u32)
    x[:, 2] = rng.integers(-4, 5, n).astype(f32).view(u32)
    return x


def combo(name, *, tables="file", srv="i", matrix=True, clip=False, corner_table=False, ret="p_uv", fast=False,
          stages=("cs", "vs", "vs_instance", "ps")):
    """A case combining a static const array indexed at run time (corner_pos/corner_uv[c]) with a structured-buffer
    read (srv: "i" bodies[i & 3] * x.z read before the index, "y" bodies[x.y & 3] * x.z, None) and a cbuffer matrix
    (matrix: mul(p, (float3x3)m); clip: then mul(float4(p, 1), m)). corner_table: the index goes through a local
    array (nBody's corners[6]). ret: "p_uv" float4(p, uv.x), "uv_p" float4(uv, p.xy), "uv_clip" float4(uv, clip.x +
    clip.w, clip.y + clip.z)."""
    lines = []
    if srv:
        lines.append(f"float3 base = bodies[{'i' if srv == 'i' else 'x.y'} & 3].xyz * asfloat(x.z);")
    lines.append("uint corners[6] = { 0, 1, 2, 2, 1, 3 }; uint c = corners[x.x % 6];" if corner_table else "uint c = x.x % 4;")
    lines.append("float3 p = corner_pos[c];")
    lines.append("p = " + ("mul(p, (float3x3)m)" if matrix else "p * 2") + (" + base;" if srv else ";"))
    if clip:
        lines.append("float4 clip = mul(float4(p, 1), m);")
    lines.append({"p_uv": "return asuint(float4(p, corner_uv[c].x));",
                  "uv_p": "return asuint(float4(corner_uv[c], p.x, p.y));",
                  "uv_clip": "return asuint(float4(corner_uv[c], clip.x + clip.w, clip.y + clip.z));"}[ret])

    def ref(x, i):
        c = CORNER_TABLE[x[:, 0] % 6] if corner_table else x[:, 0] % 4
        p = CORNER_POS[c].astype(np.float64)
        p = p @ COMBO_M[:3, :3].astype(np.float64) if matrix else p * 2
        if srv:
            sel = (i if srv == "i" else x[:, 1]) & 3
            p = p + COMBO_BODIES[sel, :3].astype(np.float64) * x[:, 2].view(f32)[:, None]
        uv = CORNERS[c]
        if ret == "p_uv":
            return fout(p[:, 0], p[:, 1], p[:, 2], uv[:, 0])
        if ret == "uv_p":
            return fout(uv[:, 0], uv[:, 1], p[:, 0], p[:, 1])
        cl = np.concatenate([p, np.ones((N, 1))], 1) @ COMBO_M.astype(np.float64)
        return fout(uv[:, 0], uv[:, 1], cl[:, 0] + cl[:, 3], cl[:, 1] + cl[:, 2])

    return case(name, "combined", "\n".join("    " + ln for ln in lines), ref, decls=COMBO_BUFFERS + COMBO_TABLES[tables],
                inputs=_combo_inputs, raw=COMBO_BODIES.ravel().view(u32), cb0=cbdata(COMBO_M.ravel()), fast=fast,
                stages=stages)


# vkd3d-shader 2.1 emits the partial `mov r.yzw, r.xyzw` for these three in every stage (without dx12kit's fix:
# wrong uvs or positions in cs, vs, vs_instance and ps).
combo("static_array_srv_matrix", fast=True)
combo("static_array_srv_matrix_uv_first", ret="uv_p")
combo("static_array_srv_by_input_matrix", srv="y")
combo("cb_static_array_srv_matrix", tables="cbuffer", fast=True)
# The nBody particle shape: a local corner table, both matrix products.
combo("nbody_corners_srv_two_matrices", srv="y", corner_table=True, clip=True, ret="uv_clip")
combo("static_array_matrix_no_srv", srv=None)
combo("static_array_srv_no_matrix", matrix=False)
combo("static_array_srv_matrix_clip", clip=True, ret="uv_clip")

GROUPS = sorted({c.group for c in CASES})
# (construct, stage) -> how the gap is handled; the harness expects these to fail (docs/guides/shader-gaps.rst).
KNOWN_GAPS: "dict[tuple[str, str], str]" = {}
