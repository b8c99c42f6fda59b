""""Did you mean": suggestions for a misspelt name, shared by every parser of names in dx12kit.

The rule is the C++ core's (``dx12kit/base/CloseNames.hpp``, bound as ``dx12core._close_names``),
which the formats, the choice arguments (queue kinds, filters, address modes, blend and compare
names...) and resource states use too: up to three known names whose Ratcliff/Obershelp similarity
to the given one is at least 0.6 (``difflib.get_close_matches``' rule), best first, compared in
lower case.
"""
from __future__ import annotations

from typing import Iterable, List

from . import dx12core

__all__ = ["close_names", "did_you_mean"]


def close_names(word: str, names: Iterable[str], n: int = 3) -> List[str]:
    """Up to `n` of `names` closest to `word`, best first (empty when none is close)."""
    return list(dx12core._close_names(str(word), [str(x) for x in names], n))


def did_you_mean(word: str, names: Iterable[str], n: int = 3) -> str:
    """``"; did you mean 'a'?"`` (or ``"'a', 'b'"`` for several) to append to an error message, or ``""``."""
    close = close_names(word, names, n)
    return "; did you mean " + ", ".join(f"'{x}'" for x in close) + "?" if close else ""
