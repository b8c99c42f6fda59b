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
loose = "def load_texture(self, path_or_array: typing.Any, *, srgb: typing.Any = False, generate_mips: typing.Any = True, name: typing.Any = None)"
assert loose in text, "load_texture's binding changed: update its stub types in scripts/gen-stubs.sh"
text = text.replace(loose, "def load_texture(self, path_or_array: typing.Union[str, os.PathLike[str], numpy.ndarray], *, srgb: bool = False, "
                           "generate_mips: bool = True, name: typing.Optional[str] = None)")
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
if "os.PathLike" in text and "\nimport os\n" not in text:
    text = text.replace("import typing\n", "import os\nimport typing\n", 1)
if "typing_extensions." not in text:
    text = text.replace("import typing_extensions\n", "")
open(path, "w").write(text)
PYEOF
rm -rf "$ROOT/python/dx12kit/dx12core"
cp -r "$tmp/out/dx12kit/dx12core" "$ROOT/python/dx12kit/dx12core"
echo "stubs written to python/dx12kit/dx12core/"
