"""Instructions per draw with descriptor tables bound, and per execute of a first-use transition, beside raw D3D12.

Run ``python benchmarks/callgrind_bindings.py [N]``: as ``callgrind_calls.py`` (whose checks and parsing it
shares), it re-runs itself under ``valgrind --tool=callgrind --instr-atstart=no`` and counts only the
measured loops (``dx12kit_bench.callgrind_start`` / ``callgrind_stop``). Each draw variant records N draws
(each with its own 4 root constants) on a fresh list whose pipeline reads a table of T SRVs (T = 0, 1, 8, 32)
set once, and drawn once untimed before the loop:

- ``core T``: dx12kit's C++ CommandList::SetConstants + Draw per row; ``raw T`` beside it: the native
  SetGraphicsRoot32BitConstants + DrawInstanced on the same list (the table stays bound);
- ``python T`` (T = 0, 32): ``cl.set_constants(0, row); cl.draw(3)`` from Python;
- ``reset same``: SetConstants + SetShaderResourceView of slot 0 of the 32-SRV table (the texture it holds
  already) + Draw, beside ``raw 32``;
- ``reset changed``: the same with two textures taken in turn (the slot changes each draw), beside
  ``raw changed``: a raw program copying the whole 32-descriptor table into a fresh range of its own heap,
  setting it and drawing;
- ``python reset same`` / ``python reset changed``: the two re-set cases from Python
  (``set_constants``, ``set_shader_resource_view``, ``draw``).

Execute: one list whose only command is a whole transition (``transition_barrier(r, 'copy_source')``) of a
resource this list uses first (its state is uniform, known from earlier executes): a 256x1 texture with
9 mips and 256 array slices (2,304 subresources) against a 256-byte buffer; the count is of ``queue.execute``
(one call, from Python), of the calling thread only (lavapipe runs the recorded barrier on its queue thread,
GPU work that a raw D3D12 program pays as well). Exits non-zero naming what is missing (valgrind, the benchmark module, its
client requests, a count), as callgrind_calls.py does. The same two are counted once more for resources
used for the first time ever: execute then zero-initialises them (new resources read as zeros), which for
a texture that is neither a render target nor a depth buffer is one copy per subresource.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from callgrind_calls import NO_CALLGRIND_H, NO_CLIENT_REQUESTS, NO_COUNTS, NO_TOOL, PROBE, fail, run_counts  # noqa: E402

MARK = "DX12KIT_CALLGRIND_BINDINGS_CHILD"
TABLES = (0, 1, 8, 32)

VS = """
float4 main(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
}
"""


def pixel_shader(t: int) -> str:
    decls = "".join(f"Texture2D<float4> t{i} : register(t{i});\n" for i in range(t))
    reads = "".join(f" + t{i}.Load(int3(0, 0, 0))" for i in range(t))
    return decls + "cbuffer C : register(b0) { float4 colour; };\nfloat4 main() : SV_Target { return colour" + reads + "; }\n"


def labels() -> list:
    out = []
    for t in TABLES:
        out += [f"raw {t}", f"core {t}"]
    out += ["python 0", "python 32", "python reset same", "python reset changed", "execute texture", "execute buffer",
            "execute new texture", "execute new buffer"]
    return out


CORE_RESET = ["reset same", "reset changed", "raw changed"]


def child(n: int) -> None:
    import numpy as np

    import dx12kit as dx
    import _native

    bench = _native.require()
    if not bench.callgrind_start():
        sys.exit(fail(NO_CALLGRIND_H, NO_CLIENT_REQUESTS))
    bench.callgrind_stop(PROBE)
    dev = dx.Device()
    q = dev.queue("direct")
    rt = dev.create_texture2d(16, 16, "rgba8_unorm", render_target=True)
    textures = [dev.create_texture2d(4, 4, "rgba8_unorm", name=f"t{i}") for i in range(33)]
    consts = np.zeros((n, 4), np.float32)
    consts[:, 0] = np.linspace(0, 1, n)
    consts[:, 3] = 1
    rows = list(consts)
    vs = dx.compile_hlsl(VS, profile="vs_5_0")
    pipes = {}
    for t in TABLES:
        params = [dx.RootConstants(0, 4)] + ([dx.DescriptorTable([dx.SRV(0, t)], visibility="pixel")] if t else [])
        rs = dev.create_root_signature(params)
        pipes[t] = dev.create_graphics_pipeline(vs, dx.compile_hlsl(pixel_shader(t), profile="ps_5_0"), rs, rtv_formats=["rgba8_unorm"])

    def make(t):
        def graphics():
            cl = q.command_list()
            cl.set_pipeline_state(pipes[t])
            cl.set_render_targets([rt])
            for i in range(t):
                cl.set_shader_resource_view(1, i, textures[i])
            cl.set_constants(0, rows[0])
            cl.draw(3)
            return cl
        return graphics

    def measure(label, mk, body):
        cl = mk()
        body(cl)  # warm: the same loop once, untimed
        cl = mk()
        bench.callgrind_start()
        body(cl)
        bench.callgrind_stop(label)

    def py_draws(cl):
        sc, dr = cl.set_constants, cl.draw
        for r in rows:
            sc(0, r)
            dr(3)

    for t in TABLES:
        measure(f"raw {t}", make(t), lambda cl: bench.record_raw(cl, "draw", consts))
        measure(f"core {t}", make(t), lambda cl: bench.record_core(cl, "draw", consts))
    measure("python 0", make(0), py_draws)
    measure("python 32", make(32), py_draws)
    if hasattr(bench, "record_core_srv"):  # (an older benchmark module has only the Python variants below)
        measure("reset same", make(32), lambda cl: bench.record_core_srv(cl, consts, [textures[0]], 1, 0))
        measure("reset changed", make(32), lambda cl: bench.record_core_srv(cl, consts, [textures[32], textures[0]], 1, 0))
        measure("raw changed", make(32), lambda cl: bench.record_raw_table(cl, consts, textures[:32], [textures[32], textures[0]], 1, 0))

    def py_reset(cl, texs):
        sc, ss, dr = cl.set_constants, cl.set_shader_resource_view, cl.draw
        k = len(texs)
        for i, r in enumerate(rows):
            sc(0, r)
            ss(1, 0, texs[i % k])
            dr(3)

    measure("python reset same", make(32), lambda cl: py_reset(cl, [textures[0]]))
    measure("python reset changed", make(32), lambda cl: py_reset(cl, [textures[32], textures[0]]))

    # Execute: first use in the list of a resource whose global state is uniform (set by earlier executes).
    big = dev.create_texture2d(256, 1, "rgba8_unorm", mip_levels=9, array_size=256, name="2304 subresources")
    buf = dev.create_buffer(256, name="256 bytes")
    for r in (big, buf):
        for state in ("copy_dest", "pixel_shader_resource"):  # initialised, in a uniform known state
            cl = q.command_list()
            cl.transition_barrier(r, state)
            q.execute(cl)
        q.flush()
    # A resource's first use ever: execute zero-initialises it first (new resources read as zeros):
    # one copy per subresource of a texture that is neither a render target nor a depth buffer.
    warm = dev.create_texture2d(256, 1, "rgba8_unorm", mip_levels=9, array_size=256)
    cl = q.command_list()
    cl.transition_barrier(warm, "copy_dest")
    q.execute(cl)
    q.flush()
    for label, make in (("execute new texture", lambda: dev.create_texture2d(256, 1, "rgba8_unorm", mip_levels=9, array_size=256)),
                        ("execute new buffer", lambda: dev.create_buffer(256))):
        r = make()
        cl = q.command_list()
        cl.transition_barrier(r, "copy_dest")
        bench.callgrind_start()
        q.execute(cl)
        bench.callgrind_stop(label)
        q.flush()
    for label, r in (("execute texture", big), ("execute buffer", buf)):
        for rep in range(2):  # first round warms, second is counted
            cl = q.command_list()
            cl.transition_barrier(r, "copy_source" if rep else "copy_dest")
            if rep:
                bench.callgrind_start()
            q.execute(cl)
            if rep:
                bench.callgrind_stop(label)
            q.flush()


def main(argv: "list | None" = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    n = int(args[0]) if args else 2000
    if n < 1:
        return fail(f"N must be >= 1, got {n}", 1)
    if os.environ.get(MARK):
        child(n)
        return 0
    if shutil.which("valgrind") is None:
        return fail("valgrind is not installed or not on PATH (apt-get install valgrind)", NO_TOOL)
    import _native

    if _native.bench is None:
        return fail(_native.REASON, NO_TOOL)
    counts, code = run_counts(__file__, n, MARK)   # the calling thread only (see run_counts)
    if counts is None:
        return code
    if PROBE not in counts:
        return fail(NO_CALLGRIND_H + " (no dump was written)", NO_CLIENT_REQUESTS)
    missing = [label for label in labels() if label not in counts]
    if missing:
        return fail(f"no callgrind count for {', '.join(missing)} (the run wrote {sorted(counts)})", NO_COUNTS)
    per = {k: v / n for k, v in counts.items()}
    print(f"instructions per draw (callgrind, N = {n}, each draw with its own 4 root constants; table of T SRVs bound once)")
    print(f"  {'variant':28s} {'instr/draw':>10s}  {'raw':>8s}  ratio")

    def line(name, value, raw):
        print(f"  {name:28s} {value:10.0f}  {raw:8.0f}  {value / raw:5.2f}x")

    for t in TABLES:
        line(f"core draw, {t:2d} SRVs", per[f"core {t}"], per[f"raw {t}"])
    line("python set_constants+draw, 0", per["python 0"], per["raw 0"])
    line("python set_constants+draw, 32", per["python 32"], per["raw 32"])
    if all(k in per for k in CORE_RESET):
        line("core re-set slot, same", per["reset same"], per["raw 32"])
        line("core re-set slot, changed", per["reset changed"], per["raw changed"])
    else:
        print("  (core re-set slot rows: the benchmark module has no record_core_srv; rebuild with scripts/bootstrap.sh)")
    line("python re-set slot, same", per["python reset same"], per["raw 32"])
    if "raw changed" in per:
        line("python re-set slot, changed", per["python reset changed"], per["raw changed"])
    else:
        print(f"  {'python re-set slot, changed':28s} {per['python reset changed']:10.0f}")
    tex, buf = counts["execute texture"], counts["execute buffer"]
    print("execute of one list whose only command is a whole transition of a resource it uses first (instructions of the "
          "calling thread; lavapipe runs the barrier on its own thread)")
    print(f"  texture, 2,304 subresources {tex:12d}")
    print(f"  buffer, 256 bytes           {buf:12d}  (texture / buffer {tex / buf:.2f}x)")
    ntex, nbuf = counts["execute new texture"], counts["execute new buffer"]
    print("the same, first use ever of a new resource (execute zero-initialises it first: one copy per texture subresource)")
    print(f"  texture, 2,304 subresources {ntex:12d}")
    print(f"  buffer, 256 bytes           {nbuf:12d}  (texture / buffer {ntex / nbuf:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
