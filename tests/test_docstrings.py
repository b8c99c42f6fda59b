"""Every public callable of dx12kit has a docstring (issue 12).

Walks the public API: the names in ``dx12kit.__all__`` and in the ``__all__`` of its public modules,
and for every class its public methods and properties (those the class or a dx12kit base defines,
not the ones inherited from object, int, str or enum). A pybind11 function without a docstring still
has one line per overload with its signature, so those lines are dropped before looking for text.

The benchmark module ``dx12kit_bench`` is not part of dx12kit and is not walked.
"""
from __future__ import annotations

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
