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
# Arguments the bindings take as objects so that the Python layer checks their types (pybind11's
# bool caster would take None): their real types.
loose = ("def load_texture(self, path_or_array: typing.Any, *, srgb: typing.Any = False, generate_mips: typing.Any = True, name: typing.Any = None, "
         "progress: typing.Any = None)")
assert loose in text, "load_texture's binding changed: update its stub types in scripts/gen-stubs.sh"
text = text.replace(loose, "def load_texture(self, path_or_array: typing.Union[str, os.PathLike[str], numpy.ndarray], *, srgb: bool = False, "
                           "generate_mips: bool = True, name: typing.Optional[str] = None, "
                           "progress: typing.Union[None, bool, typing.Callable[[int, int], typing.Any]] = None)")
# progress= of long native work (Device.defragment): the same type.
text = re.sub(r"(def defragment\(self, .*?)progress: typing\.Any = None\)",
              r"\1progress: typing.Union[None, bool, typing.Callable[[int, int], typing.Any]] = None)", text)
# read_buffer's shape= (taken as an object: an int or a tuple of ints).
text, n = re.subn(r"(def read_buffer\(self, .*?)shape: typing\.Any = None\)",
                  r"\1shape: typing.SupportsIndex | tuple[typing.SupportsIndex, ...] | None = None)", text)
assert n == 1, "read_buffer's binding changed: update its shape= type in scripts/gen-stubs.sh"
# Buffer-view and flag arguments the bindings take as objects (None: not given): their real types.
views = ("stride: typing.Any = None, raw: typing.Any = None, first_element: typing.Any = None, num_elements: typing.Any = None")
assert text.count(views) == 2, "set_shader_resource_view / set_unordered_access_view changed: update scripts/gen-stubs.sh"
text = text.replace(views, "stride: typing.SupportsIndex | None = None, raw: bool | None = None, "
                           "first_element: typing.SupportsIndex | None = None, num_elements: typing.SupportsIndex | None = None")
for fn in ("set_shader_resource_view", "set_unordered_access_view"):
    m = re.search(r"def " + fn + r"\(self, .*?\) -> None:", text)
    assert m, fn
    sig = m.group(0).replace("mip: typing.Any = None, format: typing.Any = None",
                             "mip: typing.SupportsIndex | None = None, format: str | Format | int | None = None")
    text = text.replace(m.group(0), sig)
for fn in ("CBV", "SRV", "UAV", "SamplerRange"):
    text = re.sub(r"(def " + fn + r"\(.*?)flags: typing\.SupportsIndex = 0\)", r"\1flags: DescriptorRangeFlags | int = 0)", text)
for fn in ("RootCBV", "RootSRV", "RootUAV"):
    text = re.sub(r"(def " + fn + r"\(.*?)flags: typing\.SupportsIndex = 0\)", r"\1flags: RootDescriptorFlags | int = 0)", text)
rsflags = "*, flags: typing.Any = None, name: typing.Any = None) -> RootSignature:"
assert rsflags in text, "create_root_signature changed: update scripts/gen-stubs.sh"
text = text.replace(rsflags, "*, flags: RootSignatureFlags | int | None = None, name: typing.Any = None) -> RootSignature:")
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
# Format arguments: the bindings take them as objects (ParseFormat: a dx12kit.Format or its lower-case name),
# so the stub names them by parameter: 'Format | Literal[<names>]', from the Format enum itself, like the
# other choices (a misspelt format name is a type error). rtv_formats also takes a list of them.
fmt_names = ", ".join(repr(n.lower()) for n in core.Format.__members__ if n != "UNKNOWN")
fmt_type = f"Format | typing.Literal[{fmt_names}]"
count = 0
for pattern, repl in ((r"\b(format|dsv_format): typing\.Any = None\b", rf"\1: {fmt_type} | None = None"),
                      (r"\bformat: typing\.Any\b", f"format: {fmt_type}"),
                      (r"\brtv_formats: typing\.Any\b", f"rtv_formats: {fmt_type} | typing.Sequence[{fmt_type}]"),
                      # views (set_shader_resource_view/set_unordered_access_view) also take a raw DXGI value
                      (r"\bformat: str \| Format \| int \| None = None\b", f"format: {fmt_type} | int | None = None")):
    text, n = re.subn(pattern, repl, text)
    count += n
assert count >= 8, f"format arguments changed ({count} found): update scripts/gen-stubs.sh"
if "os.PathLike" in text and "\nimport os\n" not in text:
    text = text.replace("import typing\n", "import os\nimport typing\n", 1)
if "typing_extensions." not in text:
    text = text.replace("import typing_extensions\n", "")
open(path, "w").write(text)

# Every stub file: what mypy --strict and stubtest need of pybind11-stubgen's output.
import glob, os
# Choice arguments (cpp/bindings/Choices.hpp) are named 'dx12kit.enums.<Enum>' by their binding; the stub
# accepts the member or one of its names: '<Enum> | Literal[<values>, <aliases>]', from the enum's
# definition and dx12kit.enums._ALIASES (python/dx12kit/enums.py), so a misspelt name is a type error.
import dx12kit.enums as enums
def choice(m):
    cls = getattr(enums, m.group(1))
    names = [member.value for member in cls] + list(enums._ALIASES.get(cls, ()))
    return f"dx12kit.enums.{m.group(1)} | typing.Literal[{', '.join(repr(n) for n in names)}]"
text = re.sub(r"(?<=: )dx12kit\.enums\.(\w+)", choice, text)
for stub in glob.glob(os.path.join(os.path.dirname(path), "*.pyi")):
    text = open(stub).read()
    text = re.sub(r"(?<=: )dx12kit\.enums\.(\w+)", choice, text)
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
rm -rf "$ROOT/python/dx12kit/dx12core"
cp -r "$tmp/out/dx12kit/dx12core" "$ROOT/python/dx12kit/dx12core"
echo "stubs written to python/dx12kit/dx12core/"
