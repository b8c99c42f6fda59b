"""Every public callable of dx12kit has a docstring.

Walks the public API: the names in ``dx12kit.__all__`` and in the ``__all__`` of its public modules,
and for every class its public methods and properties (those the class or a dx12kit base defines,
not the ones inherited from object, int, str or enum). A pybind11 function without a docstring still
has one line per overload with its signature, so those lines are dropped before looking for text.

The benchmark module ``dx12kit_bench`` is not part of dx12kit and is not walked.
"""
from __future__ import annotations

import dataclasses
import enum
import inspect
import re
import types

import dx12kit

PUBLIC_MODULES = ["alloc", "descriptors", "enums", "errors", "memory", "rootsig", "shaders"]
# Attributes every Python class has that are not dx12kit's API.
SKIP_MEMBERS = {"name", "value"}  # enum members' own properties (checked on dx12kit's classes below)


def _signature_line(line: str, name: str) -> bool:
    line = line.strip()
    return (line.startswith(f"{name}(") or re.match(r"^\d+\. ", line) is not None
            or line == "Overloaded function.")


def doc_text(obj: object, name: str) -> str:
    """The docstring without pybind11's generated signature lines."""
    doc = getattr(obj, "__doc__", None) or ""
    return "\n".join(l for l in doc.splitlines() if not _signature_line(l, name)).strip()


def own_members(cls: type) -> dict[str, object]:
    """Public attributes defined by cls or its dx12kit bases."""
    out: dict[str, object] = {}
    for klass in reversed(cls.__mro__):
        if klass.__module__.split(".")[0] != "dx12kit":
            continue
        for k, v in vars(klass).items():
            if k.startswith("_"):
                continue
            out[k] = v
    return out


def public_objects() -> dict[str, object]:
    objs: dict[str, object] = {}
    for name in dx12kit.__all__:
        objs[f"dx12kit.{name}"] = getattr(dx12kit, name)
    for mod in PUBLIC_MODULES:
        m = getattr(dx12kit, mod)
        objs[f"dx12kit.{mod}"] = m
        for name in getattr(m, "__all__", []):
            objs[f"dx12kit.{mod}.{name}"] = getattr(m, name)
    return objs


def missing_docstrings() -> list[str]:
    missing: list[str] = []
    seen: set[int] = set()
    for qual, obj in sorted(public_objects().items()):
        if id(obj) in seen or isinstance(obj, (int, str, float, tuple, dict)) or obj is None:
            continue
        seen.add(id(obj))
        short = qual.rsplit(".", 1)[-1]
        if isinstance(obj, types.ModuleType):
            if not doc_text(obj, short):
                missing.append(qual)
            continue
        if (not callable(obj) and not inspect.isclass(obj)) or getattr(obj, "__module__", "") == "typing":
            continue  # type aliases such as alloc.Allocator
        if not doc_text(obj, short):
            missing.append(qual)
        if not inspect.isclass(obj):
            continue
        is_enum = issubclass(obj, enum.Enum) or hasattr(obj, "__members__")
        for attr, member in own_members(obj).items():
            if is_enum and (attr in getattr(obj, "__members__", {}) or attr in SKIP_MEMBERS):
                continue
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            if isinstance(member, property) or type(member).__name__ in ("property", "pybind11_static_property"):
                doc = getattr(member, "__doc__", None) or getattr(getattr(member, "fget", None), "__doc__", None) or ""
                if not doc.strip():
                    missing.append(f"{qual}.{attr}")
                continue
            if callable(member) and not doc_text(member, attr):
                missing.append(f"{qual}.{attr}")
    return missing


def test_every_public_callable_has_a_docstring():
    missing = missing_docstrings()
    assert not missing, f"{len(missing)} public callables without a docstring:\n  " + "\n  ".join(missing)


def test_the_walk_sees_the_api():
    """The check itself looks at the classes' methods and properties (guards against an empty walk)."""
    objs = public_objects()
    assert "dx12kit.Device" in objs and "dx12kit.enums.Filter" in objs
    members = own_members(dx12kit.Device)
    assert "create_buffer" in members and "info" in members
    assert not [o for o in objs if "_bench" in o]


# ---- Args sections: every public callable that takes parameters documents them ----------
# The walk above, plus the Python modules whose functions take parameters (graph, images, matrices).
ARGS_MODULES = PUBLIC_MODULES + ["graph", "images", "matrices"]


def _takes_parameters(obj: object) -> bool:
    """Whether a callable takes parameters besides self/cls (pybind11 functions: from their signature line)."""
    try:
        params = inspect.signature(obj).parameters.values()  # type: ignore[arg-type]
        return any(p.name not in ("self", "cls") for p in params)
    except (TypeError, ValueError):
        first = ((getattr(obj, "__doc__", None) or "").splitlines() or [""])[0]
        m = re.match(r"^\w+\((.*)\)", first)
        return bool(m and [a for a in m.group(1).split(",") if a.strip() and not a.strip().startswith("self")])


def args_sections() -> tuple[list[str], list[str]]:
    """(documented, undocumented): the public callables taking parameters, with and without an Args: section.
    Constructors count (pybind11's and Python's __init__), other dunder methods and enums do not."""
    objs: dict[str, object] = {}
    for mod in ARGS_MODULES:
        m = getattr(dx12kit, mod)
        for name in getattr(m, "__all__", [n for n in vars(m) if not n.startswith("_")]):
            obj = getattr(m, name)
            if getattr(obj, "__module__", "").startswith("dx12kit") or mod in PUBLIC_MODULES:
                objs[f"dx12kit.{mod}.{name}"] = obj
    objs.update(public_objects())
    documented: list[str] = []
    undocumented: list[str] = []
    seen: set[int] = set()

    def visit(qual: str, obj: object, also: str = "") -> None:
        if id(obj) in seen or not callable(obj) or not _takes_parameters(obj):
            return
        seen.add(id(obj))
        (documented if "Args:" in (obj.__doc__ or "") + also else undocumented).append(qual)

    for qual, obj in sorted(objs.items()):
        if isinstance(obj, types.ModuleType) or not callable(obj) or getattr(obj, "__module__", "") == "typing":
            continue
        if not inspect.isclass(obj):
            visit(qual, obj)
            continue
        if issubclass(obj, (enum.Enum, BaseException)) or hasattr(obj, "__members__"):
            continue
        # A constructor's arguments may be documented on the class (Google style); a dataclass's
        # generated __init__ takes its fields, documented as the class's Attributes.
        init = vars(obj).get("__init__")
        if init is not None and "Initialize self." not in (init.__doc__ or "") and not dataclasses.is_dataclass(obj):
            visit(f"{qual}.__init__", init, also=obj.__doc__ or "")
        for attr, member in own_members(obj).items():
            if isinstance(member, (staticmethod, classmethod)):
                member = member.__func__
            if not (isinstance(member, property) or type(member).__name__ in ("property", "pybind11_static_property")):
                visit(f"{qual}.{attr}", member)
    return documented, undocumented


def test_every_public_callable_with_parameters_has_an_args_section():
    documented, undocumented = args_sections()
    missing = undocumented
    assert not missing, f"{len(missing)} public callables take parameters without an Args: section:\n  " + "\n  ".join(missing)
    assert len(documented) >= 100  # the walk sees the API


if __name__ == "__main__":  # the counts, for a report: python tests/test_docstrings.py
    d, u = args_sections()
    print(f"{len(d) + len(u)} public callables with parameters: {len(d)} with Args:, {len(u)} without")
    print("\n".join(u))
