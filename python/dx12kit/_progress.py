"""Progress of long work a person waits for (``progress=`` arguments).

Every long operation of dx12kit (``Device.load_texture`` of a large image with mips, a full
``Device.defragment``, the first-use compiler set-up) takes ``progress=``:

- ``None`` (the default): a progress bar on the terminal when standard error is one, else nothing;
- ``False``: nothing;
- ``True``: a progress bar on standard error even when it is not a terminal;
- a callable ``callback(done, total)``: called at each step with two ints, ``done`` increasing and
  ``done <= total`` (``total`` may grow while the work finds more to do), and no bar.

Bars are drawn by tqdm. This module imports it only when a bar is shown, and shows none when tqdm is
missing (``_compiler_setup.py`` runs as a plain script before dx12kit is installed).
"""
from __future__ import annotations

import sys
from typing import Any, Callable, Optional, Union

__all__ = ["Progress", "ProgressArg", "reporter"]

ProgressArg = Union[None, bool, Callable[[int, int], Any]]


class Progress:
    """Reports ``(done, total)`` to a callback or a tqdm bar; a context manager that closes the bar."""

    def __init__(self, callback: Optional[Callable[[int, int], Any]] = None, bar: Any = None) -> None:
        self._callback = callback
        self._bar = bar

    def update(self, done: int, total: int) -> None:
        """Reports that `done` of `total` steps are finished."""
        done, total = int(done), int(total)
        if self._callback is not None:
            self._callback(done, total)
        if self._bar is not None:
            if self._bar.total != total:
                self._bar.total = total
            self._bar.n = done
            self._bar.refresh()

    def close(self) -> None:
        """Closes the bar (the callback is not called again)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        self._callback = None

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _bar(desc: str, unit: str, total: int) -> Any:
    try:
        from tqdm import tqdm
    except ImportError:  # a plain script run before dx12kit's dependencies are installed
        return None
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True)


def _stderr_is_terminal() -> bool:
    try:
        return bool(sys.stderr is not None and sys.stderr.isatty())
    except (AttributeError, ValueError):  # replaced by an object without isatty, or closed
        return False


def reporter(progress: ProgressArg, desc: str, unit: str = "step", total: int = 0, what: str = "") -> Optional[Progress]:
    """The reporter `progress` asks for (see the module docstring), or None for no reports.

    Raises:
        TypeError: `progress` is none of None, True, False or a callable.
    """
    if progress is None:
        if not _stderr_is_terminal():
            return None
        bar = _bar(desc, unit, total)
        return Progress(bar=bar) if bar is not None else None
    if progress is True:
        bar = _bar(desc, unit, total)
        return Progress(bar=bar) if bar is not None else None
    if progress is False:
        return None
    if callable(progress):
        return Progress(callback=progress)
    raise TypeError(f"{what or desc}: progress must be None (a bar on a terminal), True, False or a callable(done, total), "
                    f"not {type(progress).__name__}")
