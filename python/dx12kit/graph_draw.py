"""Pictures of a :class:`~dx12kit.RenderGraph`: Graphviz DOT text and a PNG (Pillow, no matplotlib).

The PNG has two parts. Above, the queue timeline: one lane per queue, the alive passes in execution
order as boxes (one column per pass), command lists (batches) outlined, cross-queue GPU waits as red
arrows. Below, the transient memory map: x is the same pass columns, y is the byte offset in the
graph's memory block (true to scale), each transient a coloured rectangle spanning the passes it lives
through and the bytes it holds, so resources that share bytes are seen stacked in time.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Tuple

if TYPE_CHECKING:
    from .graph import RenderGraph

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


def to_dot(g: "RenderGraph") -> str:
    """The graph as Graphviz DOT text.

    Args:
        g: a compiled graph.

    Returns:
        DOT text: one cluster per queue holding its passes (culled ones grey and dashed), resources as
        ellipses (transients with their size and offset, imported ones bold), use-labelled edges.
    """
    lines = ["digraph RenderGraph {", "  rankdir=LR;", '  node [fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=9];']
    by_queue: Dict[str, List[Any]] = {}
    for p in g._passes:
        by_queue.setdefault(p.queue, []).append(p)
    for q, ps in by_queue.items():
        r, gg, b = _QUEUE_COLOURS[q]
        lines.append(f"  subgraph cluster_{q} {{")
        lines.append(f'    label={_q(q + " queue")}; color="#{r:02x}{gg:02x}{b:02x}";')
        for p in ps:
            if p.alive:
                lines.append(f"    p{p.index} [shape=box, style=filled, fillcolor=\"#{r:02x}{gg:02x}{b:02x}33\", "
                             f"label={_q(f'{p.order}: {p.name}')}];")
            else:
                lines.append(f"    p{p.index} [shape=box, style=dashed, color=grey, fontcolor=grey, "
                             f"label={_q(p.name + ' (culled)')}];")
        lines.append("  }")
    for h in g._resources:
        pl = g._placements.get(h)
        if h.transient:
            extra = "\n(unused)" if pl is None else (f"\n{pl.size // 1024} KiB committed" if pl.committed else
                                                    f"\n{pl.size // 1024} KiB @ {pl.offset // 1024} KiB")
            desc = f"{h.width}x{h.height} {str(h.format)}" if h.kind == "texture" else f"{h.size} B"
            label = _q(h.name + "\n" + desc + extra)
            lines.append(f"  r{h.index} [shape=ellipse, label={label}];")
        else:
            nl = "\n"
            lines.append(f"  r{h.index} [shape=ellipse, style=bold, label={_q(h.name + nl + '(imported)')}];")
    for p in g._passes:
        for h, uses in p.uses.items():
            for u in sorted(uses):
                style = "" if p.alive else ", style=dashed, color=grey"
                if u in ("read", "copy_from"):
                    lines.append(f"  r{h.index} -> p{p.index} [label={_q(u)}{style}];")
                else:
                    lines.append(f"  p{p.index} -> r{h.index} [label={_q(u)}{style}];")
    for i, bt in enumerate(g._batches):
        for other, bi in bt.waits.items():
            src = g._batches[bi].passes[-1].pass_.index
            dst = bt.passes[0].pass_.index
            lines.append(f"  p{src} -> p{dst} [color=red, style=bold, label=\"GPU wait\"];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_png(g: "RenderGraph", path: Any, *, width: int = 1100) -> Path:
    """Draws the queue timeline and the transient memory map into one PNG.

    Args:
        g: a compiled graph.
        path: the file to write.
        width: pixels.

    Returns:
        The path written.
    """
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default()
    order = g._order
    n = max(1, len(order))
    left, margin = 150, 12
    col = (width - left - margin) / n
    lane_h, lane_gap = 34, 8
    queues = [q for q in ("direct", "compute", "copy") if any(p.queue == q for p in order)] or ["direct"]
    timeline_h = 28 + len(queues) * (lane_h + lane_gap)
    map_h = 260
    culled = [p.name for p in g._passes if not p.alive]
    height = timeline_h + 40 + map_h + 60 + (16 if culled else 0)
    img = Image.new("RGB", (width, height), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((margin, 6), "Queues (passes in execution order; red: GPU waits between queues)", fill=(0, 0, 0), font=font)
    lane_y = {q: 28 + i * (lane_h + lane_gap) for i, q in enumerate(queues)}
    for q in queues:
        y = lane_y[q]
        d.rectangle([left, y, width - margin, y + lane_h], outline=(220, 220, 220))
        d.text((margin, y + lane_h // 2 - 5), f"{q} queue", fill=_QUEUE_COLOURS[q], font=font)
    centres: Dict[int, Tuple[float, float]] = {}
    for p in order:
        x0 = left + p.order * col + 2
        x1 = left + (p.order + 1) * col - 2
        y = lane_y[p.queue]
        c = _QUEUE_COLOURS[p.queue]
        d.rectangle([x0, y + 3, x1, y + lane_h - 3], fill=tuple(int(v * 0.35 + 255 * 0.65) for v in c), outline=c)
        label = p.name if len(p.name) * 6 < (x1 - x0 - 4) else p.name[: max(1, int((x1 - x0 - 4) // 6))]
        d.text((x0 + 3, y + lane_h // 2 - 5), label, fill=(0, 0, 0), font=font)
        centres[p.index] = ((x0 + x1) / 2, y + lane_h / 2)
    for bt in g._batches:   # outline each command list
        ps = [pp.pass_ for pp in bt.passes]
        x0 = left + ps[0].order * col
        x1 = left + (ps[-1].order + 1) * col
        y = lane_y[bt.queue]
        d.rectangle([x0, y, x1, y + lane_h], outline=(90, 90, 90))
    for bt in g._batches:
        for other, bi in bt.waits.items():
            src = g._batches[bi].passes[-1].pass_
            dst = bt.passes[0].pass_
            x_a = left + (src.order + 1) * col - 2
            y_a = lane_y[src.queue] + lane_h / 2
            x_b = left + dst.order * col + 2
            y_b = lane_y[dst.queue] + lane_h / 2
            d.line([x_a, y_a, x_b, y_b], fill=(220, 0, 0), width=2)
            d.ellipse([x_b - 3, y_b - 3, x_b + 3, y_b + 3], fill=(220, 0, 0))
    # memory map
    top = timeline_h + 30
    st = g._stats
    total = max(1, g._memory_size)
    d.text((margin, top - 18), f"Transient memory: {st['transient_bytes'] / 1024:.0f} KiB aliased, "
           f"{st['transient_bytes_unaliased'] / 1024:.0f} KiB if each had its own "
           f"({100.0 * (1 - st['transient_bytes'] / max(1, st['transient_bytes_unaliased'])):.0f}% saved)",
           fill=(0, 0, 0), font=font)
    d.rectangle([left, top, width - margin, top + map_h], outline=(160, 160, 160), fill=(245, 245, 245))
    step = 1 << 16
    while total / step > 8:
        step *= 2
    off = 0
    while off <= total:
        yt = top + off / total * map_h
        d.line([left - 4, yt, left, yt], fill=(0, 0, 0))
        d.text((margin, yt - 5), f"{off // 1024} KiB", fill=(80, 80, 80), font=font)
        off += step
    for i, pl in enumerate(sorted(g._placements.values(), key=lambda x: x.handle.index)):
        if pl.committed:   # multisampled: memory of its own, not in the aliased block
            continue
        c = _PALETTE[pl.handle.index % len(_PALETTE)]
        x0 = left + pl.first * col + 1
        x1 = left + (pl.last + 1) * col - 1
        y0 = top + pl.offset / total * map_h
        y1 = top + (pl.offset + pl.size) / total * map_h
        d.rectangle([x0, y0, x1, max(y0 + 2, y1 - 1)], fill=tuple(int(v * 0.55 + 255 * 0.45) for v in c), outline=c)
        d.text((x0 + 3, y0 + 2), f"{pl.handle.name} {pl.size // 1024}K", fill=(0, 0, 0), font=font)
    for p in order:   # pass names under the map
        x = left + p.order * col + 2
        d.text((x, top + map_h + 4 + (p.order % 2) * 12), p.name[: max(1, int(col // 6) * 2)], fill=(60, 60, 60), font=font)
    if culled:
        d.text((margin, height - 18), "culled: " + ", ".join(culled), fill=(130, 130, 130), font=font)
    out = Path(path)
    img.save(out)
    return out
