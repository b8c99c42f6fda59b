"""pytest configuration shared by every benchmark in benchmarks/.

Kept generic: it only makes the helper modules beside the benchmarks (traces.py, _gpu_common.py,
...) importable, since this folder is not a package and pytest runs with --import-mode=importlib.
Run with ``pytest benchmarks/<file>.py``; smoke-run without timing with ``--benchmark-disable``.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
