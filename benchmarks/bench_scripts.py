"""Smoke runs of the measurement scripts in benchmarks/ that are not pytest benchmarks themselves
(``w4_clear.py``, ``callgrind_calls.py``, ``callgrind_before_after.py``), at tiny sizes, so that they cannot rot unnoticed. They
time nothing here; each script checks what it computed (w4_clear: the three modes give the same,
non-blank pixels; callgrind_calls: every variant has a count)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent


def test_w4_clear_runs_small() -> None:
    import w4_clear

    times = w4_clear.main(rounds=1, frames=2, size=64)
    assert set(times) == set(w4_clear.MODES)
    assert all(len(v) == 1 and v[0] > 0 for v in times.values())


def test_callgrind_calls_names_missing_valgrind(tmp_path: Path, monkeypatch: Any, capsys: Any) -> None:
    import callgrind_calls

    monkeypatch.setenv("PATH", str(tmp_path))   # no valgrind on it
    monkeypatch.delenv(callgrind_calls.MARK, raising=False)
    assert callgrind_calls.main(["2"]) == callgrind_calls.NO_TOOL
    out = capsys.readouterr()
    assert out.out == "" and "valgrind is not installed" in out.err


def _native_reason() -> str:
    import _native

    return _native.REASON if _native.bench is None else ""


def test_callgrind_calls_child_refuses_without_client_requests() -> None:
    """The child, run without valgrind, finds the client requests doing nothing: it exits non-zero and
    says so (before this check it printed an empty table when dx12kit_bench lacked callgrind.h)."""
    if _native_reason():
        pytest.skip(_native_reason())
    import callgrind_calls

    env = {**os.environ, callgrind_calls.MARK: "1"}
    r = subprocess.run([sys.executable, str(HERE / "callgrind_calls.py"), "2"], env=env, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == callgrind_calls.NO_CLIENT_REQUESTS, r.stderr
    assert "<valgrind/callgrind.h>" in r.stderr and r.stdout == ""


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (apt-get install valgrind)")
def test_callgrind_calls_counts_every_variant(capsys: Any) -> None:
    if _native_reason():
        pytest.skip(_native_reason())
    import callgrind_calls
    import dx12kit as dx

    assert callgrind_calls.main(["2"]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines()[1:]]
    expected = callgrind_calls.labels(hasattr(dx.CommandList, "draw_many"), hasattr(dx.CommandList, "dispatch_many"))
    assert [f"{r[0]} {r[1]}" for r in rows] == expected
    assert all(float(r[2]) > 0 for r in rows)


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (apt-get install valgrind)")
def test_callgrind_before_after_counts_both_loops(capsys: Any) -> None:
    """One kind on the current build: the three loop bodies are found in the dump and both counts are positive."""
    if _native_reason():
        pytest.skip(_native_reason())
    import callgrind_before_after

    assert callgrind_before_after.main(["--n", "20", "--kinds", "root_constants", "--jobs", "1"]) == 0, capsys.readouterr().err
    row = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("root_constants")][-1]
    assert float(row[1].replace(",", "")) > 0 and float(row[2].replace(",", "")) > 0, row
