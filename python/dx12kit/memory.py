"""GPU memory: the heap map, a picture of where every resource lies.

dx12kit places buffers and textures in a few large D3D12 heaps ("blocks") per heap type, the way
D3D12MA does; :meth:`Device.memory_json` describes them. :func:`heap_map` draws that description:
one bar per block, offsets true to scale (every bar uses the same bytes-per-pixel), allocations
coloured by what they hold, free space grey, memory waiting for the GPU to finish with it
(``PendingFree``) hatched, and committed resources (which have memory of their own) as bars of
their own below the blocks.

From the command line::

    python -m dx12kit memory-map dump.json -o heaps.png

Example::

    import dx12kit as dx
    dev = dx.Device()
    bufs = [dev.create_buffer(100_000 * (i % 7 + 1), name=f"b{i}") for i in range(40)]
    dx.memory.heap_map(dev, "heaps.png")
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Tuple, Union

__all__ = ["heap_map", "KIND_COLOURS"]

#: Colour (RGB) of each allocation type of :meth:`Device.memory_json`.
KIND_COLOURS: Dict[str, Tuple[int, int, int]] = {
    "buffer": (66, 133, 244),
    "texture": (52, 168, 83),
    "render_target": (251, 140, 0),
    "depth_stencil": (142, 68, 173),
    "upload_page": (244, 196, 48),
    "memory": (0, 150, 136),
    "free": (200, 200, 200),
}

_BAR_HEIGHT = 22
_GAP = 8
_LABEL_WIDTH = 260
_MARGIN = 10


def _load(source: Any) -> Dict[str, Any]:
    if isinstance(source, dict):
        return source
    if isinstance(source, (bytes, bytearray)):
        source = source.decode("utf-8")
    if isinstance(source, str):
        return json.loads(source)  # type: ignore[no-any-return]
    if hasattr(source, "memory_json"):
        return json.loads(source.memory_json(detailed=True))  # type: ignore[no-any-return]
    raise TypeError("heap_map: source must be a dx12kit.Device, a JSON string from Device.memory_json(), or its parsed dict")


def _pools(dump: Dict[str, Any]) -> List[Dict[str, Any]]:
    pools = list(dump.get("DefaultPools", {}).values()) + list(dump.get("CustomPools", []))
    for p in pools:
        if "Blocks" not in p:
            raise ValueError("heap_map: the dump has no block details; use Device.memory_json(detailed=True)")
    return pools


def _mib(n: int) -> str:
    return f"{n / (1 << 20):.2f} MiB" if n >= 1 << 20 else f"{n / 1024:.0f} KiB"


def heap_map(source: Any, path: Union[str, Path], *, width: int = 1200) -> Path:
    """Draws the device's heaps as a PNG and returns the path written.

    Args:
        source: a :class:`dx12kit.Device`, a JSON string from ``Device.memory_json()``, or that JSON parsed.
        path: where to write the PNG.
        width: image width in pixels (the bars get ``width - 280``).

    Every block is one bar; all bars share one scale (the largest block fills its bar), so sizes
    and offsets compare across blocks. Allocations are coloured by type (:data:`KIND_COLOURS`),
    free ranges grey, allocations whose memory is waiting for the GPU hatched, overlapping
    (aliased) allocations drawn half-transparent so the overlap shows.
    """
    from PIL import Image, ImageDraw, ImageFont

    dump = _load(source)
    pools = _pools(dump)
    rows: List[Tuple[str, int, List[Dict[str, Any]]]] = []  # (label, bytes, suballocations)
    for p in pools:
        for b in p["Blocks"]:
            rows.append((f"{p['Name']} #{b['Id']} {_mib(b['TotalBytes'])}", int(b["TotalBytes"]), list(b["Suballocations"])))
        for d in p.get("DedicatedAllocations", []):
            sub = dict(d)
            sub["Offset"] = 0
            rows.append((f"{p['Name']} committed {_mib(int(d['Size']))}", int(d["Size"]), [sub]))
    if width < _LABEL_WIDTH + 2 * _MARGIN + 100:
        raise ValueError(f"heap_map: width {width} is too small (at least {_LABEL_WIDTH + 2 * _MARGIN + 100})")
    bar_width = width - _LABEL_WIDTH - 2 * _MARGIN
    largest = max((r[1] for r in rows), default=1)
    scale = bar_width / largest  # pixels per byte, the same for every bar
    legend_height = 2 * _BAR_HEIGHT
    title = dump.get("General", {})
    total = dump.get("Total", {})
    header = (f"{title.get('GPU', '?')} | heap tier {title.get('ResourceHeapTier', '?')} | "
              f"{total.get('BlockCount', 0)} blocks, {_mib(int(total.get('BlockBytes', 0)))}, "
              f"{total.get('AllocationCount', 0)} allocations, {_mib(int(total.get('AllocationBytes', 0)))}")
    height = _MARGIN * 2 + _BAR_HEIGHT + max(1, len(rows)) * (_BAR_HEIGHT + _GAP) + legend_height
    img = Image.new("RGBA", (width, height), (255, 255, 255, 255))
    draw = ImageDraw.Draw(img, "RGBA")
    font = ImageFont.load_default()
    draw.text((_MARGIN, _MARGIN), header, fill=(0, 0, 0), font=font)
    y = _MARGIN + _BAR_HEIGHT
    if not rows:
        draw.text((_MARGIN, y), "no GPU memory blocks", fill=(0, 0, 0), font=font)
    for label, size, subs in rows:
        x0 = _MARGIN + _LABEL_WIDTH
        draw.text((_MARGIN, y + 5), label[:42], fill=(0, 0, 0), font=font)
        draw.rectangle([x0, y, x0 + max(1, round(size * scale)) - 1, y + _BAR_HEIGHT - 1], fill=KIND_COLOURS["free"])
        covered_to = 0
        for s in sorted(subs, key=lambda s: (int(s["Offset"]), s.get("Type") == "free")):
            kind = str(s.get("Type", "buffer"))
            if kind == "free":
                continue
            off, n = int(s["Offset"]), int(s["Size"])
            a = x0 + round(off * scale)
            b = max(a, x0 + round((off + n) * scale) - 1)
            colour = KIND_COLOURS.get(kind, (120, 120, 120))
            alpha = 140 if off < covered_to else 255  # aliased: overlaps what came before
            draw.rectangle([a, y, b, y + _BAR_HEIGHT - 1], fill=colour + (alpha,), outline=(255, 255, 255, 255) if b - a > 3 else None)
            if s.get("PendingFree"):
                bottom = y + _BAR_HEIGHT - 1
                for hx in range(a, b + 1, 5):  # 45-degree hatching clipped to the allocation
                    run = min(_BAR_HEIGHT - 1, b - hx)
                    draw.line([hx, bottom, hx + run, bottom - run], fill=(0, 0, 0, 150))
            covered_to = max(covered_to, off + n)
        y += _BAR_HEIGHT + _GAP
    x = _MARGIN
    for kind, colour in KIND_COLOURS.items():
        draw.rectangle([x, y + 4, x + 14, y + 18], fill=colour)
        draw.text((x + 18, y + 5), kind, fill=(0, 0, 0), font=font)
        x += 40 + 7 * len(kind)
    draw.text((x, y + 5), "hatched: waiting for the GPU", fill=(0, 0, 0), font=font)
    out = Path(path)
    img.convert("RGB").save(out, format="PNG")
    return out
