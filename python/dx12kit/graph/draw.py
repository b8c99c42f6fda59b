"""Pictures of a compiled :class:`~dx12kit.RenderGraph`: Graphviz DOT text and a PNG (Pillow, no matplotlib).

The PNG has two parts. Above, the queue timeline: one lane per queue, the alive passes in execution
order as boxes (one column per pass), command lists (batches) outlined, cross-queue GPU waits as red
arrows. Below, the transient memory map: x is the same pass columns, y is the byte offset in the
graph's memory block (true to scale), each transient a coloured rectangle spanning the passes it lives
through and the bytes it holds, so resources that share bytes are seen stacked in time. A graph
profiled (``RenderGraph(..., profile=True)``) adds a third part: the same queue lanes drawn to scale of
GPU time, each pass from its first to its last timestamp of the last execution.

Everything drawn comes from the compile stages' results (:class:`.compile.CompiledGraph`).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .compile import CompiledGraph
from .model import GraphResource

__all__ = ["to_dot", "to_png"]

_QUEUE_COLOURS: Dict[str, Tuple[int, int, int]] = {
    "direct": (66, 133, 244), "compute": (52, 168, 83), "copy": (251, 140, 0)}
_PALETTE: List[Tuple[int, int, int]] = [
    (66, 133, 244), (219, 68, 55), (244, 180, 0), (15, 157, 88), (171, 71, 188), (0, 172, 193),
    (255, 112, 67), (158, 157, 36), (92, 107, 192), (240, 98, 146), (0, 137, 123), (121, 85, 72)]


def _q(s: str) -> str:
    """A DOT quoted string: backslashes and quotes escaped, line breaks as DOT's backslash-n escape."""
    s = s.replace("\\", "\\\\").replace('"', '\\"').replace("\r\n", "\n").replace("\r", "\n")
    return '"' + s.replace("\n", "\\n") + '"'


def _hex(c: Tuple[int, int, int]) -> str:
    return f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"


def _dot_passes(c: CompiledGraph) -> List[str]:
    """One cluster per queue holding its passes (culled ones grey and dashed)."""
    lines: List[str] = []
    by_queue: Dict[str, List[Any]] = {}
    for p in c.passes:
        by_queue.setdefault(p.queue, []).append(p)
    for q, ps in by_queue.items():
        colour = _hex(_QUEUE_COLOURS[q])
        lines.append(f"  subgraph cluster_{q} {{")
        lines.append(f'    label={_q(q + " queue")}; color="{colour}";')
        for p in ps:
            if c.culling.is_alive(p):
                lines.append(f"    p{p.index} [shape=box, style=filled, fillcolor=\"{colour}33\", "
                             f"label={_q(f'{c.culling.order_of[p]}: {p.name}')}];")
            else:
                lines.append(f"    p{p.index} [shape=box, style=dashed, color=grey, fontcolor=grey, "
                             f"label={_q(p.name + ' (culled)')}];")
        lines.append("  }")
    return lines


def _dot_resource(h: GraphResource, c: CompiledGraph) -> str:
    """A resource as an ellipse: transients with their size and offset, imported ones bold."""
    if not h.transient:
        what = "(imported)" if h.history is None else "(history)" if h.history.current is h else "(history, previous)"
        return f"  r{h.index} [shape=ellipse, style=bold, label={_q(h.name + chr(10) + what)}];"
    pl = c.layout.placements.get(h)
    extra = "\n(unused)" if pl is None else f"\n{pl.size // 1024} KiB @ {pl.offset // 1024} KiB"
    desc = f"{h.width}x{h.height} {str(h.format)}" if h.kind == "texture" else f"{h.size} B"
    return f"  r{h.index} [shape=ellipse, label={_q(h.name + chr(10) + desc + extra)}];"


def _dot_edges(c: CompiledGraph) -> List[str]:
    """Use-labelled edges (resource -> pass for reads, pass -> resource for writes), then GPU waits."""
    lines: List[str] = []
    for p in c.passes:
        style = "" if c.culling.is_alive(p) else ", style=dashed, color=grey"
        for h, uses in p.uses.items():
            views = p.subresources.get(h)
            if views is not None:   # subresource edges: one per view, labelled "tex mip 3 (render_target)"
                for v in views:
                    for u in sorted(v.uses):
                        label = _q(f"{v.view.name} ({u})")
                        if u in ("read", "copy_from"):
                            lines.append(f"  r{h.index} -> p{p.index} [label={label}{style}];")
                        else:
                            lines.append(f"  p{p.index} -> r{h.index} [label={label}{style}];")
                continue
            for u in sorted(uses):
                if u in ("read", "copy_from"):
                    lines.append(f"  r{h.index} -> p{p.index} [label={_q(u)}{style}];")
                else:
                    lines.append(f"  p{p.index} -> r{h.index} [label={_q(u)}{style}];")
    lists = c.barriers.lists
    for lst in lists:
        for other, i in lst.waits.items():
            src = lists[i].passes[-1].pass_.index
            lines.append(f"  p{src} -> p{lst.passes[0].pass_.index} [color=red, style=bold, label=\"GPU wait\"];")
    return lines


def to_dot(resources: Sequence[GraphResource], c: CompiledGraph) -> str:
    """The graph as Graphviz DOT text.

    Args:
        resources: every declared resource.
        c: the compile's results.

    Returns:
        DOT text: one cluster per queue holding its passes (culled ones grey and dashed), resources as
        ellipses (transients with their size and offset, imported ones bold), use-labelled edges.
    """
    lines = ["digraph RenderGraph {", "  rankdir=LR;", '  node [fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=9];']
    lines += _dot_passes(c)
    lines += [_dot_resource(h, c) for h in resources]
    lines += [f"  r{h.index} -> r{h.history.previous.index} [style=dashed, label=\"next execution\"];"
              for h in resources if h.history is not None and h.history.current is h]
    lines += _dot_edges(c)
    lines.append("}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class _Frame:
    """The picture's geometry: pass columns from ``left``, each ``col`` wide; one lane per queue."""

    width: int
    left: int
    margin: int
    col: float
    lane_h: int
    lane_y: Dict[str, int]


def _draw_timeline(d: Any, font: Any, c: CompiledGraph, fr: _Frame) -> None:
    """The queue lanes, the passes, the command lists outlined and the cross-queue waits."""
    order_of, col, lane_h = c.culling.order_of, fr.col, fr.lane_h
    d.text((fr.margin, 6), "Queues (passes in execution order; red: GPU waits between queues)", fill=(0, 0, 0),
           font=font)
    for q, y in fr.lane_y.items():
        d.rectangle([fr.left, y, fr.width - fr.margin, y + lane_h], outline=(220, 220, 220))
        d.text((fr.margin, y + lane_h // 2 - 5), f"{q} queue", fill=_QUEUE_COLOURS[q], font=font)
    for p in c.culling.alive:
        x0 = fr.left + order_of[p] * col + 2
        x1 = fr.left + (order_of[p] + 1) * col - 2
        y = fr.lane_y[p.queue]
        colour = _QUEUE_COLOURS[p.queue]
        d.rectangle([x0, y + 3, x1, y + lane_h - 3], fill=tuple(int(v * 0.35 + 255 * 0.65) for v in colour),
                    outline=colour)
        label = p.name if len(p.name) * 6 < (x1 - x0 - 4) else p.name[: max(1, int((x1 - x0 - 4) // 6))]
        d.text((x0 + 3, y + lane_h // 2 - 5), label, fill=(0, 0, 0), font=font)
    lists = c.barriers.lists
    for lst in lists:   # outline each command list
        x0 = fr.left + lst.passes[0].order * col
        x1 = fr.left + (lst.passes[-1].order + 1) * col
        d.rectangle([x0, fr.lane_y[lst.queue], x1, fr.lane_y[lst.queue] + lane_h], outline=(90, 90, 90))
    for lst in lists:
        for other, i in lst.waits.items():
            src, dst = lists[i].passes[-1], lst.passes[0]
            x_a = fr.left + (src.order + 1) * col - 2
            y_a = fr.lane_y[src.pass_.queue] + lane_h / 2
            x_b = fr.left + dst.order * col + 2
            y_b = fr.lane_y[dst.pass_.queue] + lane_h / 2
            d.line([x_a, y_a, x_b, y_b], fill=(220, 0, 0), width=2)
            d.ellipse([x_b - 3, y_b - 3, x_b + 3, y_b + 3], fill=(220, 0, 0))


def _draw_memory_map(d: Any, font: Any, c: CompiledGraph, fr: _Frame, top: int, map_h: int) -> None:
    """The transient memory map: offset ticks, each placed transient over its passes and bytes."""
    st, col = c.stats(), fr.col
    total = max(1, c.layout.block_bytes)
    d.text((fr.margin, top - 18), f"Transient memory: {st['transient_bytes'] / 1024:.0f} KiB aliased, "
           f"{st['transient_bytes_unaliased'] / 1024:.0f} KiB if each had its own "
           f"({100.0 * (1 - st['transient_bytes'] / max(1, st['transient_bytes_unaliased'])):.0f}% saved)",
           fill=(0, 0, 0), font=font)
    d.rectangle([fr.left, top, fr.width - fr.margin, top + map_h], outline=(160, 160, 160), fill=(245, 245, 245))
    step = 1 << 16
    while total / step > 8:
        step *= 2
    for off in range(0, total + 1, step):
        yt = top + off / total * map_h
        d.line([fr.left - 4, yt, fr.left, yt], fill=(0, 0, 0))
        d.text((fr.margin, yt - 5), f"{off // 1024} KiB", fill=(80, 80, 80), font=font)
    for pl in sorted(c.layout.placements.values(), key=lambda x: x.resource.index):
        colour = _PALETTE[pl.resource.index % len(_PALETTE)]
        x0 = fr.left + pl.first * col + 1
        x1 = fr.left + (pl.last + 1) * col - 1
        y0 = top + pl.offset / total * map_h
        y1 = top + (pl.offset + pl.size) / total * map_h
        d.rectangle([x0, y0, x1, max(y0 + 2, y1 - 1)], fill=tuple(int(v * 0.55 + 255 * 0.45) for v in colour),
                    outline=colour)
        d.text((x0 + 3, y0 + 2), f"{pl.resource.name} {pl.size // 1024}K", fill=(0, 0, 0), font=font)
    for order, p in enumerate(c.culling.alive):   # pass names under the map
        x = fr.left + order * col + 2
        d.text((x, top + map_h + 4 + (order % 2) * 12), p.name[: max(1, int(col // 6) * 2)], fill=(60, 60, 60),
               font=font)


def _ms_step(total: float) -> float:
    """A round tick step giving at most 10 ticks over ``total`` milliseconds."""
    step = 1e-3
    while total / step > 10:
        for m in (2, 2.5, 2):
            step *= m
            if total / step <= 10:
                break
    return step


def _draw_gpu_lanes(d: Any, font: Any, c: CompiledGraph, fr: _Frame, top: int, gpu: Mapping[str, Any]) -> None:
    """The queue lanes to scale of GPU time: each timed pass from its first to its last timestamp."""
    total = max(1e-9, float(gpu["gpu_frame_ms"]))
    span = fr.width - fr.margin - fr.left
    timed = sum(v for v in gpu["gpu_ms"].values() if v is not None)
    d.text((fr.margin, top - 18), f"GPU time of the last execution, to scale: frame {total:.3f} ms (first to last "
           f"timestamp), passes {timed:.3f} ms", fill=(0, 0, 0), font=font)
    lane_y = {q: top + (y - fr.lane_y[next(iter(fr.lane_y))]) for q, y in fr.lane_y.items()}
    for q, y in lane_y.items():
        d.rectangle([fr.left, y, fr.width - fr.margin, y + fr.lane_h], outline=(220, 220, 220))
        d.text((fr.margin, y + fr.lane_h // 2 - 5), f"{q} queue", fill=_QUEUE_COLOURS[q], font=font)
    timeline = gpu["gpu_timeline"]
    for p, name in zip(c.culling.alive, gpu["gpu_ms"]):
        if name not in timeline:
            continue
        t0, t1 = timeline[name]
        x0 = fr.left + t0 / total * span
        x1 = max(x0 + 1, fr.left + t1 / total * span)
        y = lane_y[p.queue]
        colour = _QUEUE_COLOURS[p.queue]
        d.rectangle([x0, y + 3, x1, y + fr.lane_h - 3], fill=tuple(int(v * 0.35 + 255 * 0.65) for v in colour),
                    outline=colour)
        if (x1 - x0) > 18:
            d.text((x0 + 3, y + fr.lane_h // 2 - 5), p.name[: max(1, int((x1 - x0 - 4) // 6))], fill=(0, 0, 0),
                   font=font)
    axis = top + len(lane_y) * (fr.lane_h + 8)
    step = _ms_step(total)
    k = 0
    while k * step <= total * 1.0001:
        x = fr.left + k * step / total * span
        d.line([x, axis - 4, x, axis], fill=(0, 0, 0))
        d.text((x - 8, axis + 2), f"{k * step:g}", fill=(80, 80, 80), font=font)
        k += 1
    d.text((fr.width - fr.margin - 20, axis + 2), "ms", fill=(80, 80, 80), font=font)
    if gpu["gpu_unmeasured"]:
        d.text((fr.margin, axis + 16), "not timed: " + "; ".join(f"{n}: {why}" for n, why in gpu["gpu_unmeasured"].items()),
               fill=(130, 130, 130), font=font)


def to_png(c: CompiledGraph, path: Any, *, width: int = 1100, gpu: Optional[Mapping[str, Any]] = None) -> Path:
    """Draws the queue timeline and the transient memory map into one PNG (and, given ``gpu``, the queues
    to scale of GPU time).

    Args:
        c: the compile's results.
        path: the file to write.
        width: pixels.
        gpu: the ``gpu_*`` entries of a profiled graph's ``stats()`` (``None``: no GPU-time part).

    Returns:
        The path written.
    """
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default()
    alive = c.culling.alive
    left, margin, lane_h, lane_gap, map_h = 150, 12, 34, 8, 260
    queues = [q for q in ("direct", "compute", "copy") if any(p.queue == q for p in alive)] or ["direct"]
    fr = _Frame(width=width, left=left, margin=margin, col=(width - left - margin) / max(1, len(alive)), lane_h=lane_h,
                lane_y={q: 28 + i * (lane_h + lane_gap) for i, q in enumerate(queues)})
    timeline_h = 28 + len(queues) * (lane_h + lane_gap)
    culled = [p.name for p in c.culling.culled]
    height = timeline_h + 40 + map_h + 60 + (16 if culled else 0)
    gpu_top = height + 24
    if gpu is not None:
        height += timeline_h + 64
    img = Image.new("RGB", (width, height), (255, 255, 255))
    d = ImageDraw.Draw(img)
    _draw_timeline(d, font, c, fr)
    _draw_memory_map(d, font, c, fr, timeline_h + 30, map_h)
    if culled:
        d.text((margin, gpu_top - 42), "culled: " + ", ".join(culled), fill=(130, 130, 130), font=font)
    if gpu is not None:
        _draw_gpu_lanes(d, font, c, fr, gpu_top, gpu)
    out = Path(path)
    img.save(out)
    return out
