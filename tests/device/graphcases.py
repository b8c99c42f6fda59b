"""Render graphs shared by the render-graph tests (tests/device/test_graph_*.py)."""
from __future__ import annotations

import random
from typing import Any, List, Tuple

import dx12kit as dx


def random_graph(dev: dx.Device, seed: int, **options: Any) -> Tuple[dx.RenderGraph, List[dx.Texture]]:
    """Clears, UAV clears, copies and reads on every queue over a few 8x8 transients, copied into two imported
    textures at the end (the same graph for one seed, whatever the ``options`` given to RenderGraph)."""
    rnd = random.Random(seed)
    g = dx.RenderGraph(dev, aliasing=rnd.random() < 0.8, **options)
    texs = [g.create_texture(f"t{i}", 8, 8, "rgba8_unorm") for i in range(rnd.randint(2, 6))]
    outs = [dev.create_texture2d(8, 8, "rgba8_unorm", render_target=True, name=f"o{i}") for i in range(2)]
    written: List[dx.GraphResource] = []
    for k in range(rnd.randint(4, 16)):
        kind = rnd.choice(["rt", "uav", "copy", "read"]) if written else "rt"
        t = rnd.choice(texs)
        v = rnd.randint(0, 255) / 255.0
        if kind == "rt":
            g.add_pass(f"p{k}", lambda cl, r: None, render_targets=[t], clear={t: (v, 0.0, 0.0, 1.0)})
        elif kind == "uav":
            g.add_pass(f"p{k}", (lambda t, v: lambda cl, r: cl.clear_unordered_access_view(r[t], (v, 0, 0, 1)))(t, v),
                       queue=rnd.choice(["compute", "direct"]), writes=[t])
        elif kind == "copy":
            s = rnd.choice(written)
            if s is t:
                continue
            g.add_pass(f"p{k}", (lambda s, t: lambda cl, r: cl.copy_resource(r[t], r[s]))(s, t),
                       queue=rnd.choice(["copy", "direct", "compute"]), copy_from=[s], copy_to=[t])
        else:
            g.add_pass(f"p{k}", lambda cl, r: None, queue=rnd.choice(["compute", "direct"]),
                       reads=[rnd.choice(written)], side_effects=rnd.random() < 0.3)
            continue
        written.append(t)
    for i, real in enumerate(outs):
        o, s = g.import_resource(real), rnd.choice(written)
        g.add_pass(f"out{i}", (lambda s, o: lambda cl, r: cl.copy_resource(r[o], r[s]))(s, o),
                   queue=rnd.choice(["copy", "direct", "compute"]), copy_from=[s], copy_to=[o])
    return g, outs
