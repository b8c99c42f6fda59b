#!/usr/bin/env bash
# Regenerates the type stubs of the extension module (python/dx12kit/dx12core/*.pyi) from the
# built module with pybind11-stubgen. Run after changing a binding; commit the result.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY="$ROOT/.venv/bin/python"
"$PY" -m pip install -q pybind11-stubgen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && "$PY" -m pybind11_stubgen dx12kit.dx12core -o "$tmp/out" --numpy-array-remove-parameters)
# Enum members as 'NAME = value' (mypy reads 'NAME: ClassVar[...]' in an enum stub as no member).
"$PY" - "$tmp/out/dx12kit/dx12core/__init__.pyi" <<'PYEOF'
import enum, re, sys
import dx12kit.dx12core as core
path = sys.argv[1]
text = open(path).read()
def member(m):
    cls = getattr(core, m.group(3), None)
    if isinstance(cls, type) and issubclass(cls, enum.Enum) and m.group(2) in cls.__members__:
        return f"{m.group(1)}{m.group(2)} = {int(cls[m.group(2)])}"
    return m.group(0)
text = re.sub(r"^(\s+)([A-Z0-9_]+): typing\.ClassVar\[(\w+)\]", member, text, flags=re.M)
# pybind11-stubgen maps the name "Buffer" to typing_extensions.Buffer (the buffer protocol); in this
# module it is dx12kit's Buffer class (create_buffer's result, Buffer.__repr__'s self).
text = text.replace("typing_extensions.Buffer", "Buffer")
# FormatSupport is registered as a collections.abc.Mapping at run time (cpp/bindings/BindResources.cpp).
fs = "class FormatSupport:"
assert fs in text, "FormatSupport's binding changed: update its stub in scripts/gen-stubs.sh"
start = text.index(fs)
end = text.index("\nclass ", start)
block = text[start:end].replace(fs, "class FormatSupport(typing.Mapping[str, typing.Any]):")
for method, view in (("keys", "typing.KeysView[str]"), ("items", "typing.ItemsView[str, typing.Any]"),
                     ("values", "typing.ValuesView[typing.Any]")):
    loose_view = f"    def {method}(self) -> typing.Any:"
    assert loose_view in block, f"FormatSupport.{method}'s binding changed: update scripts/gen-stubs.sh"
    block = block.replace(loose_view, f"    def {method}(self) -> {view}:")
text = text[:start] + block + text[end:]
# create_sampler's border_color (BorderColorArg, cpp/bindings/GpuArgs.hpp) names its enum without the
# BorderColorName Literal: its caster's name predates the <Enum>Name Literals (a header every binding file
# includes; to move into the caster with the next change there).
text = text.replace("border_color: dx12kit.enums.BorderColor | tuple[", "border_color: dx12kit.enums.BorderColor | dx12kit.enums.BorderColorName | tuple[")
if "os.PathLike" in text and "\nimport os\n" not in text:
    text = text.replace("import typing\n", "import os\nimport typing\n", 1)
if "typing_extensions." not in text:
    text = text.replace("import typing_extensions\n", "")
# CommandList.bind(name, value, /, **values): the values are any bindable object (a Texture, Buffer, sampler,
# numpy array, bytes or a dict of cbuffer fields), so pybind11 leaves **kwargs unannotated.
bind = "def bind(self, name: typing.Any = None, value: typing.Any = None, /, **kwargs) -> None:"
if bind in text:
    text = text.replace(bind, "def bind(self, name: str | None = None, value: typing.Any = None, /, **kwargs: typing.Any) -> None:")
# Bundle's refused calls (cpp/bindings/BindBundle.cpp) take anything and always raise.
text, n = re.subn(r"def (\w+)\(self, \*args, \*\*kwargs\) -> None:", r"def \1(self, *args: typing.Any, **kwargs: typing.Any) -> typing.NoReturn:", text)
assert n == len(core.Bundle.refused_calls()), f"Bundle's refused calls changed ({n} stubs): update scripts/gen-stubs.sh"
open(path, "w").write(text)

# Every stub file: what mypy --strict and stubtest need of pybind11-stubgen's output.
import glob, os
for stub in glob.glob(os.path.join(os.path.dirname(path), "*.pyi")):
    text = open(stub).read()
    # py::dict / py::list results and arguments: their item types (pybind11 does not know them).
    text = re.sub(r"(?<=[:>,[] )dict(?=[:,)\] ])", "dict[str, typing.Any]", text)
    text = re.sub(r"(?<=[:>,[] )list(?=[:,)\] ])", "list[typing.Any]", text)
    text = re.sub(r"(?<=[:>] )collections\.abc\.Iterator(?=[:,)\] ])", "collections.abc.Iterator[str]", text)  # FormatSupport's keys
    # An unhashable class (it defines __eq__): typeshed's spelling.
    text = text.replace("__hash__: typing.ClassVar[None] = None", "__hash__: typing.ClassVar[None]  # type: ignore[assignment]")
    # pybind11-stubgen lists __all__, which the extension's modules do not define (stubtest: "not present at runtime").
    text = re.sub(r"^__all__: list\[str\] = .*\n", "", text, flags=re.M)
    text = text.replace("def __exit__(self, *args) -> None:", "def __exit__(self, *args: typing.Any) -> None:")
    # The untyped operators and __new__ pybind11's native_enum copies from enum.IntEnum/IntFlag: the
    # stub inherits the typed ones from enum instead.
    text = re.sub(r"^    (?:@classmethod\n    )?def __\w+__\((?:self|cls)(?:, \w+)?\):\n        \.\.\.\n", "", text, flags=re.M)
    open(stub, "w").write(text)
PYEOF
# dx12core.alloc: the three allocator classes share most methods (BindCommon / BindDeferred in
# cpp/bindings/AllocBindings.hpp). Their identical members move to stub-only bases, _Allocator (all
# three) and _DeferredAllocator (FreeList and Tlsf), as in python/dx12kit/alloc.pyi; each class keeps
# what is its own. (stubtest ignores the private bases, absent at run time.)
"$PY" - "$tmp/out/dx12kit/dx12core/alloc.pyi" <<'PYEOF'
import re, sys
path = sys.argv[1]
text = open(path).read()
head, *blocks = re.split(r"(?m)^(?=class )", text)
classes = {}
for b in blocks:
    name = re.match(r"class (\w+)", b).group(1)
    lines = b.rstrip("\n").split("\n")
    body = lines[1:]
    doc_end = 0
    if body and body[0].strip() == '"""':
        doc_end = body.index('    """', 1) + 1
    members, cur, pending = [], None, []
    for line in body[doc_end:]:
        if re.match(r"    [@\w]", line):
            if line.startswith("    @"):
                pending.append(line)
                continue
            cur = pending + [line]
            pending = []
            members.append(cur)
        else:
            cur.append(line)
    classes[name] = (lines[0], body[:doc_end], ["\n".join(m) for m in members])
assert set(classes) == {"FreeList", "Tlsf", "Linear"}, f"dx12core.alloc's classes changed: update scripts/gen-stubs.sh ({set(classes)})"
def own(name): return classes[name][2]
common = [m for m in own("FreeList") if m in own("Tlsf") and m in own("Linear")]
deferred = [m for m in own("FreeList") if m in own("Tlsf") and m not in common]
assert len(common) >= 5 and len(deferred) >= 3, "the allocators share fewer members: update scripts/gen-stubs.sh"
# Tlsf and Linear share their constructor (FreeList's takes bitmap_bins too, and overrides it).
common = [m for m in own("Tlsf") if m.lstrip().startswith("def __init__") and m in own("Linear")] + common
out = [head.rstrip("\n"),
       'class _Allocator:\n    """\n    What every allocator of dx12kit.alloc has (a stub-only base: FreeList, Tlsf, Linear).\n    """\n' + "\n".join(common),
       'class _DeferredAllocator(_Allocator):\n    """\n    Fence-deferred frees and block lists (a stub-only base: FreeList, Tlsf).\n    """\n' + "\n".join(deferred)]
for name, base in (("FreeList", "_DeferredAllocator"), ("Tlsf", "_DeferredAllocator"), ("Linear", "_Allocator")):
    first, doc, members = classes[name]
    rest = [m for m in members if m not in common and m not in deferred]
    out.append("\n".join([first.replace(f"class {name}:", f"class {name}({base}):")] + doc + rest))
open(path, "w").write("\n".join(out) + "\n")
PYEOF
# dx12kit.enums makes its enums at import from the core's choice tables (dx12core.choice_tables()): its stub,
# from the module, lists each enum's members and each <Enum>Name Literal, so mypy --strict sees them.
"$PY" - "$tmp/enums.pyi" <<'PYEOF'
import enum, inspect, sys, typing
import dx12kit.enums as enums
def doc(obj, indent):
    text = inspect.cleandoc(obj.__doc__ or "").replace("\\", "\\\\")
    pad = " " * indent
    return pad + '"""' + ("\n" + pad).join(text.split("\n")).replace(pad + "\n", "\n") + '"""\n'
out = ['"""Stub of dx12kit.enums, generated by scripts/gen-stubs.sh from the module (its enums come from the\n'
       'C++ core\'s choice tables, dx12core.choice_tables()). Do not edit."""\n',
       "import enum\nimport typing\n\nfrom typing import Any\n\n",
       f"__all__ = {enums.__all__!r}\n\n",
       # The module's helpers (hand-written in enums.py): their signatures.
       "def _member_name(member: Any) -> str: ...\n\n"
       "class _PrintsName:\n    def __str__(self) -> str: ...\n    def __format__(self, format_spec: str) -> str: ...\n\n"
       'def _print_names(cls: "type[enum.Enum]") -> None: ...\n\n'
       "class _StrEnum(str, enum.Enum):  # type: ignore[misc]  # a base without members (mypy: 'zero members')\n    def __str__(self) -> str: ...\n    def __format__(self, spec: str) -> str: ...\n\n"]
for name in enums._TABLES:
    cls = getattr(enums, name)
    out.append(f"class {name}(_StrEnum):\n" + doc(cls, 4) + "\n" + "".join(f"    {m.name} = {m.value!r}\n" for m in cls) + "\n")
for name in list(enums._TABLES) + ["Format"]:
    alias = getattr(enums, f"{name}Name")
    out.append(f"{name}Name: typing.TypeAlias = typing.Literal[{', '.join(repr(v) for v in typing.get_args(alias))}]\n")
out.append("\n_ALIASES: dict[Any, tuple[str, ...]]\n_DOCS: dict[str, str]\n_TABLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]\n"
           "def _make(name: str) -> Any: ...\ndef _names(name: str) -> Any: ...\n"
           "_FLAG_TABLES: dict[str, tuple[tuple[tuple[str, int], ...], str]]\ndef _make_flag(name: str) -> Any: ...\n\n")
for name, cls in vars(enums).items():  # the IntFlags, from the core's flag tables (ColorWriteEnable)
    if isinstance(cls, type) and issubclass(cls, enum.Enum) and cls.__module__ == enums.__name__ and name not in enums._TABLES \
            and not name.startswith("_"):
        base = "enum.IntFlag" if issubclass(cls, enum.IntFlag) else "enum.IntEnum" if issubclass(cls, enum.IntEnum) else "enum.Enum"
        out.append(f"class {name}({base}):\n" + doc(cls, 4) + "\n" + "".join(f"    {k} = {v.value!r}\n" for k, v in cls.__members__.items()) + "\n")
open(sys.argv[1], "w").write("".join(out))
PYEOF
cp "$tmp/enums.pyi" "$ROOT/python/dx12kit/enums.pyi"
rm -rf "$ROOT/python/dx12kit/dx12core"
cp -r "$tmp/out/dx12kit/dx12core" "$ROOT/python/dx12kit/dx12core"
echo "stubs written to python/dx12kit/dx12core/ and python/dx12kit/enums.pyi"
