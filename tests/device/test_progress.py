"""progress= on long work a person waits for (load_texture with mips, a full defragment, the compiler set-up):
a callback gets increasing counts; nothing is printed when stderr is no terminal; True forces a bar;
a terminal gets a bar."""
from __future__ import annotations

import gc
import io
import sys

import numpy as np
import pytest

import dx12kit as dx
from dx12kit import _progress

KiB = 1024


def fragmented(dev, n=60):
    q = dev.queue()
    rng = np.random.default_rng(5)
    bufs, datas = [], []
    for i in range(n):
        d = rng.integers(0, 256, int(rng.integers(1, 32)) * 4 * KiB, dtype=np.uint8)
        bufs.append(dev.create_buffer(data=d, name=f"b{i}"))
        datas.append(d)
    q.flush()
    del bufs[::2], datas[::2]
    gc.collect()
    dev.wait_idle()
    dev.trim_memory()
    return q, bufs, datas


def test_defragment_reports_each_moved_allocation_with_increasing_counts():
    dev = dx.Device(uma_direct=False, memory_block_size=1 << 20)
    q, bufs, datas = fragmented(dev)
    calls = []
    stats = dev.defragment(progress=lambda done, total: calls.append((done, total)))
    assert stats["moves"] > 0
    assert len(calls) == stats["moves"]
    assert [d for d, _ in calls] == list(range(1, stats["moves"] + 1))
    assert all(d <= t for d, t in calls) and [t for _, t in calls] == sorted(t for _, t in calls)
    assert calls[-1] == (stats["moves"], stats["moves"])
    for b, d in zip(bufs, datas):  # the contents survived
        np.testing.assert_array_equal(q.read_buffer(b), d)
    dev.close()


def test_a_progress_callback_that_raises_stops_the_defragmentation_cleanly():
    dev = dx.Device(uma_direct=False, memory_block_size=1 << 20)
    q, bufs, datas = fragmented(dev)

    def stop(done, total):
        raise KeyError("stop here")

    with pytest.raises(KeyError, match="stop here"):
        dev.defragment(progress=stop)
    for b, d in zip(bufs, datas):
        np.testing.assert_array_equal(q.read_buffer(b), d)
    dev.close()


def test_defragment_prints_nothing_when_stderr_is_no_terminal_and_a_bar_when_forced(capfd):
    dev = dx.Device(uma_direct=False, memory_block_size=1 << 20)
    kept = fragmented(dev)
    assert dev.defragment()["moves"] > 0
    assert capfd.readouterr().err == ""
    kept2 = fragmented(dev)
    assert dev.defragment(progress=True)["moves"] > 0
    del kept, kept2
    assert "defragment" in capfd.readouterr().err
    dev.close()


def test_load_texture_reports_decode_upload_and_mips(device, queue):
    img = np.random.default_rng(2).integers(0, 256, (64, 64, 4), dtype=np.uint8)
    calls = []
    tex = device.load_texture(img, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert tex.mip_levels == 7
    np.testing.assert_array_equal(queue.read_texture(tex), img)
    assert queue.read_texture(tex, 6).shape == (1, 1, 4)
    calls.clear()
    device.load_texture(img, generate_mips=False, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 2), (2, 2)]


def test_load_texture_file_reports_and_is_silent_without_a_terminal(device, tmp_path, capfd):
    from PIL import Image

    path = tmp_path / "big.png"
    Image.fromarray(np.full((1024, 1024, 3), 90, np.uint8)).save(path)
    calls = []
    device.load_texture(path, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    device.load_texture(np.zeros((1024, 1024), np.uint8))  # large, progress=None, stderr captured: no bar
    assert capfd.readouterr().err == ""


def test_progress_arguments_of_the_wrong_type_are_refused(device):
    with pytest.raises(TypeError, match="progress must be None"):
        device.load_texture(np.zeros((4, 4), np.uint8), progress="yes")
    with pytest.raises(TypeError, match="progress must be None"):
        device.defragment(progress=3)


def test_auto_progress_draws_a_bar_when_stderr_is_a_terminal(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    rep = _progress.reporter(None, "work", "step", 4)
    assert rep is not None
    for i in range(1, 5):
        rep.update(i, 4)
    rep.close()
    assert "work" in term.getvalue() and "4/4" in term.getvalue()
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert _progress.reporter(None, "work") is None


def test_compiler_setup_takes_progress(monkeypatch, tmp_path):
    # No download here: a machine without apt-get refuses at once, and a callback must not be called then.
    from dx12kit import _compiler_setup

    monkeypatch.setattr(_compiler_setup.shutil, "which", lambda tool: None)
    calls = []
    with pytest.raises(_compiler_setup.CompilerSetupError, match="apt-get"):
        _compiler_setup.fetch_compiler(tmp_path / "p", log=lambda m: None, progress=lambda d, t: calls.append((d, t)))
    assert calls == []
    with pytest.raises(TypeError, match="progress must be None"):
        _compiler_setup.fetch_compiler(tmp_path / "p", log=lambda m: None, progress=1.5)
