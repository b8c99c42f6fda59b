#!/usr/bin/env python3
"""Draws the C++ layers as a picture: docs/images/layers.png (README, "What is inside").

The floors and each folder's line come from scripts/cpplayers.py's LAYERS, the one table that
tests/test_layering.py enforces and docs/architecture/layers.rst shows, so the picture says what the test checks. One row per floor,
the ground (core) at the bottom; folders on one floor are peers that never include each other; a file
includes only its own folder and the floors below. Needs Pillow (a test dependency).

    .venv/bin/python scripts/draw-layers.py [OUTPUT.png]
"""
from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "images" / "layers.png"

# Colours by kind of layer: device-free, platform, D3D12 building blocks, the device stack, outside the product.
COLOURS = {
    "free": ("#dff0d8", "#3c763d"),
    "platform": ("#fcf8e3", "#8a6d3b"),
    "blocks": ("#d9edf7", "#31708f"),
    "stack": ("#e8e1f5", "#5b3f8f"),
    "extra": ("#eeeeee", "#666666"),
}


def load_layering():
    spec = importlib.util.spec_from_file_location("cpplayers", ROOT / "scripts" / "cpplayers.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("cpplayers", mod)
    spec.loader.exec_module(mod)
    return mod


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/TTF", "C:/Windows/Fonts"):
        path = Path(folder) / name
        if path.is_file():
            return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


def kind(name: str, device_free: tuple[str, ...]) -> str:
    if name in device_free:
        return "free"
    if name in ("platform", "d3dx12"):
        return "platform"
    if name in ("memory", "descriptors"):
        return "blocks"
    if name in ("baseline", "bench"):
        return "extra"
    return "stack"


def draw(out: Path) -> None:
    layering = load_layering()
    floors: list[tuple[str, ...]] = [tuple(name for name, _ in floor) for floor in layering.LAYERS]
    desc = dict(layering.WHAT)

    width, margin, gap, left = 1500, 20, 10, 130
    title_f, name_f, text_f, small_f = font(26, True), font(19, True), font(15), font(14)
    line_h = 19
    # Each floor's height: the tallest of its folders' wrapped lines.
    rows = []
    for rank in range(len(floors) - 1, -1, -1):
        names = floors[rank]
        box_w = (width - left - margin - gap * (len(names) - 1)) // len(names)
        chars = max(20, int(box_w / 8.2))
        wrapped = {n: textwrap.wrap(desc[n], chars) for n in names}
        height = 16 + 24 + line_h * max(len(w) for w in wrapped.values()) + 12
        rows.append((rank, names, box_w, wrapped, height))
    total_h = 80 + sum(r[4] for r in rows) + gap * (len(rows) - 1) + 70
    img = Image.new("RGB", (width, total_h), "white")
    d = ImageDraw.Draw(img)
    d.text((margin, 20), "dx12kit: the C++ layers (cpp/include/dx12kit/<folder>/, cpp/src/<folder>/)", fill="#222", font=title_f)
    y = 80
    for rank, names, box_w, wrapped, height in rows:
        d.text((margin, y + height // 2 - 10), f"floor {rank}", fill="#555", font=name_f)
        x = left
        for n in names:
            fill, edge = COLOURS[kind(n, layering.DEVICE_FREE)]
            d.rounded_rectangle((x, y, x + box_w, y + height), radius=10, fill=fill, outline=edge, width=2)
            label = n + "/" + ("   (no D3D12)" if n in layering.DEVICE_FREE else "")
            d.text((x + 12, y + 10), label, fill=edge, font=name_f)
            for i, line in enumerate(wrapped[n]):
                d.text((x + 12, y + 40 + i * line_h), line, fill="#222", font=text_f)
            x += box_w + gap
        y += height + gap
    # The rule, at the foot.
    ax = left - 14
    d.line((ax, 90, ax, y - gap - 10), fill="#999", width=3)
    d.polygon([(ax - 8, y - gap - 18), (ax + 8, y - gap - 18), (ax, y - gap - 2)], fill="#999")
    d.text((margin, y + 8), "A file includes only its own folder and the floors below (arrow: the direction of every #include); "
           "folders on one floor never include each other.", fill="#444", font=small_f)
    d.text((margin, y + 30), "Checked by tests/test_layering.py; drawn from scripts/cpplayers.py's table. "
           "Green: device-free; yellow: the platform; blue: D3D12 building blocks; violet: the device stack; grey: benchmarks.",
           fill="#444", font=small_f)
    out.parent.mkdir(parents=True, exist_ok=True)
    img.save(out, optimize=True)
    print(out)


if __name__ == "__main__":
    draw(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
