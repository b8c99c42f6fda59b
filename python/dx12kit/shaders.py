"""HLSL compilation to DXBC, with an on-disk cache.

dx12kit compiles HLSL with vkd3d-shader's ``vkd3d-compiler`` (shader model 4.x/5.x to DXBC, which
vkd3d runs). The compiler is found, in order:

1. the ``DX12KIT_HLSL_COMPILER`` environment variable (a path to a ``vkd3d-compiler``-compatible
   program), which overrides everything;
2. the compiler bundled in the package, ``dx12kit/_compiler/vkd3d-compiler`` (the Linux wheel
   carries it, with the libraries it runs with and their licences: scripts/bundle-compiler.py), so
   an installed wheel compiles HLSL with no set-up step;
3. the per-user copy that ``python -m dx12kit setup`` (and ``scripts/bootstrap.sh``) installs:
   ``$XDG_DATA_HOME/dx12kit/vkd3d-compiler/vkd3d-compiler`` (``~/.local/share/...``;
   ``DX12KIT_COMPILER_PREFIX`` names another folder);
4. ``vkd3d-compiler`` on ``PATH``, if it compiles HLSL (vkd3d-shader 1.19 or newer).

dx12kit expands ``#include`` itself (see :func:`compile_hlsl`), so the compiler sees one text;
messages are mapped back to each file's own lines. Results are cached under
``$XDG_CACHE_HOME/dx12kit/shaders`` (``~/.cache/...``; override with ``DX12KIT_SHADER_CACHE``),
keyed by the fully expanded source (every included file's content), the defines, the entry point,
the profile and the compiler version. Cached and freshly compiled bytecode is checked (DXBC size,
chunk table and checksum): a damaged cache file is recompiled, junk compiler output is an error.
"""
from __future__ import annotations

import functools
import hashlib
import math
import numbers
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from ._dxbc_check import _shader_tokens, candidate_lines, integer_modifiers
from ._hlsl_subtraction import (directive_minus_lines, faulty_negations, find_faulty, may_negate_before_conversion,
                                minus_sites, probe_text, wrap_operands)
from ._hlsl_fixups import cbuffer_statics, fix_source
from ._hlsl_linemap import TAG as LINE_TAG, LineMap, tag_text
from ._hlsl_select import rewrite_select
from ._hlsl_source import CompileMessage, ShaderIncludeWarning, decode_source, expand_source, extract_root_signature
from .errors import Dx12Error, InvalidArgumentError, ShaderCompileError

if TYPE_CHECKING:
    from .dx12core.shaders import ShaderBinding, ShaderReflection, SignatureElement

__all__ = ["Shader", "CompileMessage", "ShaderIncludeWarning", "ShaderAccuracyWarning", "compile_hlsl", "compile_hlsl_file", "find_compiler",
           "compiler_version", "reflect"]

_PROFILES = {"vs", "ps", "cs", "gs", "hs", "ds"}
DEFAULT_TIMEOUT = 60.0
"""Seconds a compilation may take before :func:`compile_hlsl` gives up (``timeout=`` overrides)."""


def reflect(bytecode: Union[bytes, bytearray, memoryview, "Shader"]) -> "ShaderReflection":
    """Validates DXBC bytecode (size, chunk table, checksum) and reflects it.
    Args:
        bytecode: DXBC bytes (bytes, bytearray, memoryview) or a Shader.


    Returns:
        A ``ShaderReflection`` with ``stage``, ``profile``, ``bindings`` (``ShaderBinding``: name,
        kind ``"cbv"|"srv"|"uav"|"sampler"``, register, space, count (0: unbounded), type such as
        ``"Texture2D"``, dimension), ``inputs`` and ``outputs`` (``SignatureElement``: semantic,
        semantic_index, register, system_value, component_type, mask) and ``numthreads``.

    Raises:
        InvalidArgumentError: the bytes are not a valid DXBC container (says what is wrong).
        TypeError: not bytes-like.
    """
    from .dx12core import shaders as _native

    if isinstance(bytecode, Shader):
        return bytecode.reflection
    return _native.reflect_dxbc(bytecode)


@dataclass(frozen=True)
class Shader:
    """Compiled shader bytecode (DXBC).

    Attributes:
        bytecode: the DXBC container, ready for ``create_*_pipeline``.
        entry: the entry point it was compiled from.
        profile: the target profile, for example ``"cs_5_0"``.
        messages: the compiler's warnings (text, mapped to the user's files and lines).
        root_signature: the text of the entry point's ``[RootSignature(...)]`` attribute (macros
            expanded, adjacent strings joined), or None; pass it to ``Device.create_root_signature``.
        source_files: the files the source was read from (main file first if compiled from a
            file, then every included file).

    The reflection properties (:attr:`bindings`, :attr:`inputs`, :attr:`outputs`,
    :attr:`reflection`) are computed on first use and kept.
    """

    bytecode: bytes
    entry: str = "main"
    profile: str = "cs_5_0"
    messages: str = field(default="", compare=False)
    root_signature: Optional[str] = field(default=None, compare=False)
    source_files: Tuple[str, ...] = field(default=(), compare=False)

    def __len__(self) -> int:
        return len(self.bytecode)

    @functools.cached_property
    def reflection(self) -> "ShaderReflection":
        """The ``ShaderReflection`` of :attr:`bytecode` (see :func:`reflect`)."""
        from .dx12core import shaders as _native

        return _native.reflect_dxbc(self.bytecode)

    @property
    def bindings(self) -> List["ShaderBinding"]:
        """The resources the shader binds: ``ShaderBinding`` objects with name, kind (``"cbv"``,
        ``"srv"``, ``"uav"``, ``"sampler"``), register, space, count (0: unbounded), type
        (``"Texture2D"``, ``"StructuredBuffer"``, ``"cbuffer"``, ...) and dimension."""
        return list(self.reflection.bindings)

    @property
    def inputs(self) -> List["SignatureElement"]:
        """The input signature: ``SignatureElement`` objects (semantic, semantic_index, register,
        system_value, component_type, mask, used_mask)."""
        return list(self.reflection.inputs)

    @property
    def outputs(self) -> List["SignatureElement"]:
        """The output signature (``SignatureElement`` objects, as :attr:`inputs`)."""
        return list(self.reflection.outputs)

    @property
    def stage(self) -> str:
        """``"vertex"``, ``"pixel"``, ``"compute"``, ... as the bytecode says."""
        return str(self.reflection.stage)


_lock = threading.Lock()
_compiler: Optional[str] = None
_BUNDLED_DIR = Path(__file__).resolve().parent / "_compiler"
"""Where a wheel carries its own compiler (its wrapper ``vkd3d-compiler``; absent in a source build)."""
_versions: "dict[tuple[str, int], str]" = {}  # (compiler path, mtime) -> version line


def _after_fork_in_child() -> None:
    """A forked child has only the thread that forked: if another thread of the parent held _lock
    (finding the compiler can take seconds), the child's copy would stay held forever. Compiling
    needs no device, so the child gets a new lock and keeps what was found."""
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):  # not on Windows
    os.register_at_fork(after_in_child=_after_fork_in_child)


@functools.lru_cache(maxsize=None)
def _pipeline_digest() -> str:
    """A digest of dx12kit's own compile pipeline (this module and its source and bytecode fixes): DXBC cached
    by another version of them is not reused, whatever the version salt in the key says."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for f in sorted([here / "shaders.py", here / "_dxbc_check.py", *here.glob("_hlsl_*.py")]):
        try:
            h.update(f.name.encode() + b"\0" + f.read_bytes())
        except OSError:
            h.update(f.name.encode() + b"\0missing")
    return h.hexdigest()[:16]


def _cache_dir() -> Path:
    env = os.environ.get("DX12KIT_SHADER_CACHE")
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "dx12kit" / "shaders"


def _run(args: List[str], timeout: float, input: Optional[bytes] = None,
         env: Optional[Mapping[str, str]] = None) -> Tuple[int, bytes, bytes]:
    """Runs the compiler in its own process group; on timeout kills the whole group (a wrapper
    script's children too) and raises subprocess.TimeoutExpired."""
    # env: Python's environment, not the C one, where importing dx12core set VKD3D_SHADER_DEBUG=err
    # for vkd3d inside this process (docs/architecture.rst, vkd3d's messages). The compiler's stderr is captured
    # and its fixme lines are kept apart (ShaderCompileError.fixme), so it keeps vkd3d's default
    # level, or the one the user set.
    p = subprocess.Popen(args, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                         env=dict(os.environ, **(env or {})))
    try:
        out, err = p.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            p.kill()
        p.communicate()
        raise
    except BaseException:  # KeyboardInterrupt: do not leave the compiler running
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        p.wait()
        raise
    return p.returncode, out, err


def _compiles_hlsl(exe: str) -> bool:
    src = "RWStructuredBuffer<uint> b : register(u0);\n[numthreads(1,1,1)] void main(uint3 i : SV_DispatchThreadID) { b[i.x] = 1; }\n"
    try:
        rc, out, _ = _run([exe, "-x", "hlsl", "-b", "dxbc-tpf", "-p", "cs_5_0", "-e", "main", "-o", "-", "-"], 60, src.encode())
    except (OSError, subprocess.SubprocessError):
        return False
    return rc == 0 and out[:4] == b"DXBC"


def find_compiler() -> str:
    """The path of the HLSL compiler dx12kit uses (see the module docstring for the order).

    Raises:
        Dx12Error: when no HLSL-capable compiler is found, with what to do about it.
    """
    global _compiler
    with _lock:
        if _compiler is not None and not os.environ.get("DX12KIT_HLSL_COMPILER"):
            return _compiler
        env = os.environ.get("DX12KIT_HLSL_COMPILER")
        if env:
            if not (os.path.isfile(env) and os.access(env, os.X_OK)):
                raise Dx12Error(f"DX12KIT_HLSL_COMPILER={env!r} is not an executable file")
            return env
        bundled = _BUNDLED_DIR / "vkd3d-compiler"
        if bundled.is_file() and os.access(bundled, os.X_OK):
            # (fixed when the wheel was built: scripts/bundle-compiler.py; the package is not modified here)
            _compiler = str(bundled)
            return _compiler
        from ._compiler_setup import default_prefix, fix_conversion_merge  # the folder `python -m dx12kit setup` fills

        user = default_prefix() / "vkd3d-compiler"
        if user.is_file() and os.access(user, os.X_OK):
            # dx12kit's own copy: keep conversions of one value to different types apart (a prefix
            # set up before the fix gets it here; see _compiler_setup.fix_conversion_merge).
            fix_conversion_merge(default_prefix())
            _compiler = str(user)
            return _compiler
        system = shutil.which("vkd3d-compiler")
        if system and _compiles_hlsl(system):
            _compiler = system
            return _compiler
        raise Dx12Error(
            "no HLSL compiler found: run `python -m dx12kit setup` (fetches vkd3d-compiler into "
            f"{user.parent}; scripts/bootstrap.sh does the same in a checkout), install vkd3d-shader 1.19+ "
            "so vkd3d-compiler is on PATH, or set DX12KIT_HLSL_COMPILER to a vkd3d-compiler executable")


def _forget_compiler() -> None:
    """Makes the next :func:`find_compiler` look again (after ``python -m dx12kit setup``)."""
    global _compiler
    with _lock:
        _compiler = None


def compiler_version(exe: Optional[str] = None) -> str:
    """The version line of `exe` (default: :func:`find_compiler`), part of every cache key.

    Asked once per compiler file (path and modification time), so an overriding
    ``DX12KIT_HLSL_COMPILER`` costs no extra process per compilation.

    Args:
        exe: the compiler executable, or None for find_compiler().

    Returns:
        The compiler's version line (a str).
    """
    exe = exe or find_compiler()
    key = (exe, os.stat(exe).st_mtime_ns)
    version = _versions.get(key)
    if version is None:
        try:
            _, stdout, stderr = _run([exe, "--version"], DEFAULT_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise ShaderCompileError(f"the HLSL compiler {exe} did not answer '--version' within {DEFAULT_TIMEOUT:g} s "
                                     "(killed); check DX12KIT_HLSL_COMPILER") from None
        except OSError as e:
            raise Dx12Error(f"cannot run the HLSL compiler {exe}: {e}") from None
        out = (stdout or stderr).decode(errors="replace").strip()
        version = out.splitlines()[0] if out else "unknown"
        with _lock:
            _versions[key] = version
    return version


_MERGE_PROBE = ("StructuredBuffer<uint4> t : register(t0);\nRWStructuredBuffer<uint4> o : register(u0);\n"
                "[numthreads(1,1,1)] void main() { float f = asfloat(t[0].x); int s = asint(t[0].y);\n"
                "    o[0] = uint4(asuint(int(f)), uint(f), asuint(float(s)), uint(s) / 3u); }\n")
# asuint(f) and asint(f) of one value: a merging compiler joins the two reinterprets into one uint and folds
# asint(f) < 0 to false (no ilt left).
_REINTERPRET_PROBE = ("StructuredBuffer<uint4> t : register(t0);\nRWStructuredBuffer<uint4> o : register(u0);\n"
                      "[numthreads(1,1,1)] void main() { float f = asfloat(t[0].x);\n"
                      "    o[0] = uint4(asuint(f) ? 1u : 0u, asint(f) < 0 ? 1u : 0u, 0, 0); }\n")
_merge_probes: "dict[tuple[str, int], bool]" = {}


def _merges_conversions(exe: str) -> bool:
    """Whether `exe` joins conversions (casts, or reinterprets: asuint/asint) of one value to different
    types into one instruction (vkd3d-shader 2.1's vectorizer; dx12kit's own copy is fixed, see
    _compiler_setup). Asked once per compiler file with two probe shaders: right output converts f with
    both ftoi and ftou and s with itof alone, and keeps asint(f) < 0 (an ilt)."""
    key = (exe, os.stat(exe).st_mtime_ns)
    merges = _merge_probes.get(key)
    if merges is None:
        try:
            rc, out, _ = _run([exe, "-x", "hlsl", "-b", "d3d-asm", "-p", "cs_5_0", "-e", "main", "-o", "-", "-"],
                              DEFAULT_TIMEOUT, _MERGE_PROBE.encode())
        except (OSError, subprocess.SubprocessError):
            rc, out = 1, b""
        asm = out.decode(errors="replace")
        merges = not (rc == 0 and re.search(r"\bftoi r\d+\.[xyzw], ", asm) and re.search(r"\bftou r\d+\.[xyzw], ", asm)
                      and re.search(r"\bitof r\d+\.[xyzw], ", asm))
        if not merges:
            try:
                rc, out, _ = _run([exe, "-x", "hlsl", "-b", "d3d-asm", "-p", "cs_5_0", "-e", "main", "-o", "-", "-"],
                                  DEFAULT_TIMEOUT, _REINTERPRET_PROBE.encode())
            except (OSError, subprocess.SubprocessError):
                rc, out = 1, b""
            merges = not (rc == 0 and re.search(r"\bilt r\d+\.[xyzw], ", out.decode(errors="replace")))
        with _lock:
            _merge_probes[key] = merges
    return merges


_DUMP_NODE = re.compile(r"hlsl_dump_function (0x[0-9a-f]+):\s+(\S.*?) \| (.*)$")
_BASE = re.compile(r"^(bool|uint|int|float|half|double)")
_CONVERSION_TEXT = re.compile(r"\b(?:u?int|float|bool|half)[1-4]?(?:x[1-4])?\s*\(|\(\s*(?:u?int|float|bool)[1-4]?\s*\)"
                              r"|\bas(?:u?int|float)\s*\(")


def _conversion_groups(trace: str) -> "dict[str, set[str]]":
    """{source base type: result base types} of the casts (and, apart, the reinterprets: asuint/asint/
    asfloat) in the compiler's dump of the parsed
    functions (before any optimisation; implicit conversions included)."""
    types: "dict[str, str]" = {}
    casts: List[Tuple[str, str, str]] = []
    processed = False
    for line in trace.splitlines():
        if "Dumping processed entry point" in line:
            processed = True
        elif "Dumping function" in line:
            processed = False
        if processed:
            continue
        m = _DUMP_NODE.search(line)
        if not m:
            continue
        addr, typ, rest = m.groups()
        types[addr] = typ.strip()
        c = re.match(r"(cast|reinterpret) \((0x[0-9a-f]+)\)", rest.strip())
        if c:
            casts.append((c.group(1), c.group(2), typ.strip()))
    groups: "dict[str, set[str]]" = {}
    for op, operand, result in casts:   # casts and reinterprets are never joined with each other
        src, dst = _BASE.match(types.get(operand, "")), _BASE.match(result)
        if src and dst and src.group(1) != dst.group(1):
            groups.setdefault(src.group(1) + (" (reinterpreted)" if op == "reinterpret" else ""), set()).add(dst.group(1))
    return {k: v for k, v in groups.items() if len(v) > 1}


def _refuse_conversion_merge(exe: str, text: str, expanded: Any, profile: str, entry: str, timeout: float) -> None:
    """For a compiler that merges conversions (not dx12kit's fixed copy): refuses a shader when the
    compiler's trace shows it joined casts or reinterprets and the shader converts (or reinterprets)
    values of one type to two others.
    Conservative: such a shader may be right, which the message says."""
    try:
        rc, _, err = _run([exe, "-x", "hlsl", "-b", "dxbc-tpf", "-p", profile, "-e", entry, "-o", os.devnull, "-"],
                          timeout, text.encode("utf-8", "surrogateescape"), env={"VKD3D_SHADER_DEBUG": "trace"})
    except (OSError, subprocess.SubprocessError):
        return
    trace = err.decode("utf-8", errors="replace")
    if not re.search(r"vectorize_exprs Combining \d+ (?:cast|reinterpret) instructions", trace):
        return
    groups = _conversion_groups(trace)
    if not groups:
        return
    kinds = "; ".join(f"{src} to {' and '.join(sorted(dst))}" for src, dst in sorted(groups.items()))
    lines = [n + 1 for n, line in enumerate(text.split("\n")) if _CONVERSION_TEXT.search(line)]
    where = ", ".join("%s:%d" % expanded.locate(n) for n in lines[:4]) if lines else "%s (implicit conversions)" % expanded.locate(1)[0]
    raise ShaderCompileError(
        f"refused ({profile}, entry '{entry}'): {where}: conversions of one value to different types ({kinds}) with a "
        f"compiler that merges them: {exe} joined conversions into one instruction of the first one's type, so "
        "int(f) next to uint(f), an int used both as a float and as a uint, or asuint(f) next to asint(f), would give "
        "wrong numbers (a uint holding float bits, ftoi where ftou was meant, asint(f) < 0 folded to false). dx12kit's own copy of the compiler is fixed: run `python -m dx12kit "
        "setup` and unset DX12KIT_HLSL_COMPILER. Otherwise give the conversions different sources: uint(max(f, 0.0)) "
        "next to int(f), asuint(i) for an int-to-uint conversion. (This check cannot see which values were joined, so "
        "it may refuse a right shader with this compiler.)")


_MESSAGE = re.compile(r"(?m)^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>[EW]\d+): (?P<text>.*)$")
_LOG = re.compile(r"^vkd3d:[^:]*:(?:fixme|err|warn|trace|info):")
_SM6 = ("SM6-era code: vkd3d 1.2 runs DXBC only (shader model 4.0-5.1) and this compiler emits no DXIL, so "
        "use a _5_0 or _5_1 profile (e.g. 'cs_5_0', 'ps_5_1'). Shader model 6 features cannot be had here: "
        "wave intrinsics (WaveActiveSum...), 16-bit types, 64-bit atomics, SV_ViewID, mesh/amplification "
        "shaders, ray tracing, ResourceDescriptorHeap/SamplerDescriptorHeap, and library (lib_6_x) targets.")


def _check_profile(profile: str, what: str) -> None:
    if not isinstance(profile, str):
        raise TypeError(f"{what}: profile must be a str, not {type(profile).__name__}")
    stage, _, model = profile.partition("_")
    if stage in _PROFILES and model in {"4_0", "4_1", "5_0", "5_1"}:
        return
    if re.fullmatch(r"(vs|ps|cs|gs|hs|ds|ms|as|lib)_6_\d+", profile):
        raise InvalidArgumentError(f"{what}: profile {profile!r} is shader model 6. {_SM6}")
    raise InvalidArgumentError(f"{what}: unsupported profile {profile!r}: use <stage>_<model> with stage vs, ps, cs, gs, hs "
                               "or ds and model 4_0, 4_1, 5_0 or 5_1 (e.g. 'cs_5_0', 'vs_5_1', 'ps_5_0')")


def _define_value(name: str, value: Any, what: str) -> str:
    """The text of one ``defines=`` value: None (empty), a str (as is), a bool (``1``/``0``, so that
    ``#if NAME`` agrees with it), an int or a finite float (numpy scalars too)."""
    if value is None:
        return ""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as e:
            raise InvalidArgumentError(f"{what}: the value of define {name!r} holds U+{ord(value[e.start]):04X}, which UTF-8 "
                                       "cannot encode (a lone surrogate)") from None
        return value
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        f = float(value)
        if not math.isfinite(f):
            raise InvalidArgumentError(f"{what}: the value of define {name!r} is {f!r}; HLSL has no literal for it")
        return repr(f)
    raise TypeError(f"{what}: the value of define {name!r} must be a str, int, float, bool or None, not "
                    f"{type(value).__name__} ({value!r:.60})")


def _define_lines(defines: Optional[Mapping[str, Union[str, int, float, None]]], what: str) -> "dict[str, str]":
    out = {}
    for name, value in sorted((defines or {}).items()):
        if not isinstance(name, str):
            raise TypeError(f"{what}: define names must be str, not {type(name).__name__}")
        if not name.isidentifier():
            raise InvalidArgumentError(f"{what}: define name {name!r} is not an identifier")
        text = _define_value(name, value, what)
        # A continuation in a value is one logical line for the preprocessor: join it here, so
        # every define is exactly one line of the text (and line numbers stay right).
        text = re.sub(r"\\\r?\n", "", text)
        if "\n" in text or "\r" in text:
            raise InvalidArgumentError(f"{what}: the value of define {name!r} holds a line break (end lines with '\\' to continue)")
        out[name] = text
    return out


def _preprocessed_line_map(exe: str, text: str, timeout: float) -> Optional[LineMap]:
    """The compiler's line numbering of `text` (see ``_hlsl_linemap``), from its preprocessor; None if it fails."""
    try:
        rc, out, _ = _run([exe, "-x", "hlsl", "-E", "-o", "-", "-"], timeout, tag_text(text).encode("utf-8", "surrogateescape"))
    except (OSError, subprocess.SubprocessError):
        return None
    return LineMap(out.decode("utf-8", errors="replace"), text) if rc == 0 else None


_DEFINE_LINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)]*\))?(.*)$")
_WORD = re.compile(r"[A-Za-z_]\w*")
MACRO_PROBE_TIMEOUT = 2.0
"""Seconds the preprocessor may take on a source with self-referring macros before dx12kit calls
them the cause of a hang (see :func:`_check_macro_recursion`)."""


def _macro_cycles(expanded: Any) -> List[Tuple[List[str], int]]:
    """Macros that refer to themselves, directly or through others, in any of their ``#define``s
    (object-like and function-like; parameters and comments left out): one (cycle, line of the
    first macro's definition in the expanded text) per cycle, e.g. (["A", "B", "A"], 1)."""
    from ._hlsl_source import _strip_comments

    graph: "dict[str, set[str]]" = {}
    where: "dict[str, int]" = {}
    in_comment = False
    for number, line in enumerate(expanded.text.split("\n"), 1):
        code, in_comment_after = _strip_comments(line, in_comment)
        m = None if in_comment else _DEFINE_LINE.match(code)
        in_comment = in_comment_after
        if m is None:
            continue
        name, params, body = m.group(1), m.group(2), m.group(3)
        skip = set(_WORD.findall(params)) if params else set()
        graph.setdefault(name, set()).update(w for w in _WORD.findall(body) if w not in skip)
        where.setdefault(name, number)
    cycles: List[Tuple[List[str], int]] = []
    seen: "set[str]" = set()
    for start in graph:
        if start in seen:
            continue
        # Depth-first search for a path from `start` back to itself.
        stack: List[Tuple[str, List[str]]] = [(start, [start])]
        visited: "set[str]" = set()
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    cycle = path + [start]
                    if not seen.intersection(cycle):
                        cycles.append((cycle, where[start]))
                    seen.update(cycle)
                    stack.clear()
                    break
                if nxt in graph and nxt not in visited:
                    visited.add(nxt)
                    stack.append((nxt, path + [nxt]))
    return cycles


def _check_macro_recursion(exe: str, expanded: Any, timeout: float) -> None:
    """vkd3d-shader's preprocessor does not stop a recursive macro as C does (C leaves a macro's
    name unexpanded inside its own expansion): expanding one never ends, even ``#define A A``.
    Defining one is harmless. So when the source defines self-referring macros, its preprocessing
    is run alone first: when it does not finish within :data:`MACRO_PROBE_TIMEOUT` (or `timeout`
    if shorter) seconds, ShaderCompileError names the macros. Sources without them cost nothing."""
    cycles = _macro_cycles(expanded)
    if not cycles:
        return
    probe = min(timeout, MACRO_PROBE_TIMEOUT)
    try:
        _run([exe, "-x", "hlsl", "-E", "-o", os.devnull, "-"], probe, expanded.text.encode("utf-8"))
        return  # finished: the macros are not expanded where they loop (or the compiler stops them)
    except subprocess.TimeoutExpired:
        pass
    except (OSError, subprocess.SubprocessError):
        return  # the compile reports whatever is wrong
    messages = []
    for cycle, line in cycles:
        file, fline = expanded.locate(line)
        chain = " -> ".join(cycle)
        text = (f"macro '{cycle[0]}' refers to itself ({chain}); vkd3d-shader's preprocessor does not stop such a "
                f"macro as C does and never finishes expanding it (it did not finish within {probe:g} s): define "
                "it without referring to itself")
        messages.append(CompileMessage(file, fline, 1, "error", "", text))
    raise ShaderCompileError("HLSL preprocessing failed (recursive macro):\n" + "\n".join(str(m) for m in messages), messages)


def _parse_messages(output: str, tmp_path: str, expanded: Any,
                    line_map: Optional[LineMap] = None) -> Tuple[List[CompileMessage], List[str], List[str]]:
    """(messages mapped to the user's files, fixme/log lines, other lines) of the compiler output.

    The compiler's line numbers (but a preprocessor message's) count lines of its preprocessed text; `line_map` (from
    :func:`_preprocessed_line_map`) turns them into lines of the expanded text, which
    ``expanded.locate`` maps to the user's files."""
    messages: List[CompileMessage] = []
    log: List[str] = []
    other: List[str] = []
    for raw in output.splitlines():
        line = raw.rstrip()
        if not line:
            continue
        if _LOG.match(line):
            log.append(line)
            continue
        m = _MESSAGE.match(line)
        if m and m.group("file") in (tmp_path, os.path.basename(tmp_path)):
            line_no, column = int(m.group("line")), int(m.group("col"))
            # Preprocessor messages (codes 4xxx) count lines of the compiler's input, the others of
            # its preprocessed text.
            preprocessor = m.group("code")[1:2] == "4"
            found = line_map.locate(line_no, column) if line_map is not None and not preprocessor else None
            if found is not None:
                line_no, column = found
            file, fline = expanded.locate(line_no)
            severity = "error" if m.group("code").startswith("E") else "warning"
            messages.append(CompileMessage(file, fline, column, severity, m.group("code"), m.group("text")))
        else:
            other.append(line)
    return messages, log, other


def _compile_error(summary: str, messages: List[CompileMessage], log: List[str], other: List[str]) -> ShaderCompileError:
    shown = [str(m) for m in messages[:5]]
    if len(messages) > 5:
        shown.append(f"... and {len(messages) - 5} more (see .messages)")
    if not messages:
        shown.extend(other)
    err = ShaderCompileError(summary + ("\n" + "\n".join(shown) if shown else ""), messages)
    err.fixme = log
    err.output = "\n".join(other)
    return err


def _input_interpolation_modes(data: bytes) -> "set[int]":
    """The interpolation modes of the pixel-shader input declarations (dcl_input_ps, _siv, _sgv) in DXBC `data`."""
    modes: "set[int]" = set()
    if data[:4] != b"DXBC" or len(data) < 32:
        return modes
    count = int.from_bytes(data[28:32], "little")
    for k in range(count):
        off = int.from_bytes(data[32 + 4 * k:36 + 4 * k], "little")
        if data[off:off + 4] not in (b"SHDR", b"SHEX"):
            continue
        size = int.from_bytes(data[off + 4:off + 8], "little")
        words = memoryview(data[off + 8:off + 8 + size]).cast("I")
        pos = 2                                   # version and length tokens
        while pos < len(words):
            tok = words[pos]
            opcode = tok & 0x7FF
            length = words[pos + 1] if opcode == 0x35 and pos + 1 < len(words) else (tok >> 24) & 0x7F
            if opcode in (0x62, 0x63, 0x64):      # DCL_INPUT_PS, DCL_INPUT_PS_SIV, DCL_INPUT_PS_SGV
                modes.add((tok >> 11) & 0xF)
            pos += max(int(length), 1)
    return modes


_NOPERSPECTIVE_CENTROID = 5   # D3D10_SB_INTERPOLATION_LINEAR_NOPERSPECTIVE_CENTROID


def _refuse_unhandled_interpolation(data: bytes, text: str, expanded: Any, profile: str, entry: str) -> None:
    """Raises ShaderCompileError for a pixel-shader input declared ``noperspective centroid``: vkd3d 1.2's
    DXBC-to-SPIR-V translation has no case for that mode ("Unhandled interpolation mode 0x5") and gives the input
    no decoration, so it is interpolated perspective-correct at the pixel centre, silently."""
    if not profile.startswith("ps_") or _NOPERSPECTIVE_CENTROID not in _input_interpolation_modes(data):
        return
    pat = re.compile(r"\bnoperspective\b.*\bcentroid\b|\bcentroid\b.*\bnoperspective\b")
    lines = [n + 1 for n, line in enumerate(text.split("\n")) if pat.search(line)]
    where = ", ".join("%s:%d" % expanded.locate(n) for n in lines[:4]) if lines else \
        "%s (a noperspective centroid input, perhaps through a macro)" % expanded.locate(1)[0]
    raise ShaderCompileError(
        f"refused ({profile}, entry '{entry}'): {where}: a 'noperspective centroid' pixel-shader input: vkd3d 1.2 "
        "does not translate that interpolation mode (it logs 'Unhandled interpolation mode 0x5') and the input would "
        "be interpolated perspective-correct, giving wrong values without an error. Use 'noperspective' alone (the "
        "same values without multisampling; at the pixel centre with it) or 'centroid' alone (perspective-correct), "
        "or pass clip-space w and interpolate attribute*w / w yourself.")


_NOPERSPECTIVE_MODES = (4, 6)   # LINEAR_NOPERSPECTIVE, LINEAR_NOPERSPECTIVE_SAMPLE


class ShaderAccuracyWarning(UserWarning):
    """A shader compiled, but a construct in it gives wrong values on this backend under conditions only
    the draw decides (docs/guides/shader-gaps.rst). Silence it with the ``warnings`` module once the
    condition is known not to arise."""


def _warn_geometry_dependent(data: bytes, profile: str, entry: str, source_name: str) -> None:
    """A ShaderAccuracyWarning for pixel-shader inputs declared ``noperspective`` on vkd3d over lavapipe:
    right inside the viewport, but about twice the right gradient on triangles the viewport clips (measured;
    test_interpolation_modifiers_and_primitive_id). What the draw clips is not known when compiling, so the
    shader is not refused; the warning keeps the result from being silently wrong."""
    if sys.platform == "win32" or not profile.startswith("ps_"):
        return
    if not any(m in _input_interpolation_modes(data) for m in _NOPERSPECTIVE_MODES):
        return
    warnings.warn(f"{source_name} ({profile}, entry '{entry}'): a 'noperspective' pixel-shader input is interpolated wrongly "
                  "on triangles that the viewport clips on vkd3d over lavapipe (right when the whole triangle is inside the "
                  "viewport). Keep such triangles inside the viewport, or pass clip-space w and interpolate attribute*w, then "
                  "divide by the interpolated w (see docs/guides/shader-gaps.rst).", ShaderAccuracyWarning, stacklevel=4)


def _fix_miscompiled(data: bytes, text: str, expanded: Any, profile: str, entry: str) -> bytes:
    """The bytecode with vkd3d-shader's folded float modifiers made right (``DxbcModifierFix.hpp``: a float negation
    or abs() that feeds asuint()/asint() folded into an integer, store, atomic, address or condition operand, where it
    would mean integer negation or be ignored); pipeline creation applies the same fix to any bytecode. Raises
    ShaderCompileError, naming the lines, for a fold the fix cannot undo."""
    from .dx12core import shaders as _native
    _refuse_unhandled_interpolation(data, text, expanded, profile, entry)
    _warn_geometry_dependent(data, profile, entry, str(expanded.locate(1)[0]))
    try:
        fixed, _names = _native.fix_folded_float_modifiers(data)
        return bytes(fixed)
    except InvalidArgumentError as e:
        lines = candidate_lines(text)
        where = ", ".join("%s:%d" % expanded.locate(n) for n in lines[:3]) if lines else \
            "(no asuint(-x)/asint(abs(x)) found in the text: look for a negated or abs() float reinterpreted as an integer)"
        ops = ", ".join(sorted({f"{op} with {mod}" for op, mod in integer_modifiers(data)})) or "see below"
        raise ShaderCompileError(
            f"refused ({profile}, entry '{entry}'): {where}: a float negation or abs() reinterpreted as an integer "
            f"(asuint(-f), asint(abs(f)), ...) is miscompiled by vkd3d-shader 2.1: it becomes a source modifier of an "
            f"instruction that does not read a float ({ops}), and dx12kit cannot rewrite this one ({e}). "
            "Workaround: flip or clear the sign bit on the integer side: asuint(f) ^ 0x80000000u for asuint(-f), "
            "asuint(f) & 0x7FFFFFFFu for asuint(abs(f)).") from None


def _refuse_hidden_cbuffer_statics(exe: str, text: str, expanded: Any, timeout: float) -> None:
    """Raises ShaderCompileError for a static with an initialiser inside a cbuffer/tbuffer block that only macro
    expansion shows (``#define CB cbuffer``, a macro expanding to a static declaration): the source rewrite
    (``_hlsl_fixups``) moved every one it could see, so one left in the preprocessed text would read 0 or garbage."""
    if "static" not in text or "buffer" not in text:
        return
    try:
        rc, out, _ = _run([exe, "-x", "hlsl", "-E", "-o", "-", "-"], timeout, tag_text(text).encode("utf-8", "surrogateescape"))
    except (OSError, subprocess.SubprocessError):
        return   # the compilation itself reports what is wrong
    if rc != 0:
        return
    pre = out.decode("utf-8", errors="replace")
    found = cbuffer_statics(pre, ignore=LINE_TAG)
    if not found:
        return
    offset, name, where = found[0]
    tags = list(re.finditer(re.escape(LINE_TAG) + r"(\d+)", pre[:offset]))
    file, line = expanded.locate(int(tags[-1].group(1)) if tags else 1)
    raise ShaderCompileError(
        f"{file}:{line}: static '{name}' with an initialiser inside {where.strip()}, written through a macro (the "
        "block keyword or the declaration comes from a #define): vkd3d-shader drops initialisers of statics declared "
        "inside a constant buffer (the variable would read 0 or garbage), and dx12kit moves such declarations out only "
        f"where the source shows them. Workaround: declare 'static ... {name} = ...;' at file scope, outside the block "
        "(statics are never part of a constant buffer's layout).")


def _trace_count(exe: str, text: str, profile: str, entry: str, timeout: float) -> Optional[int]:
    """:func:`faulty_negations` of a compilation of `text` with the compiler's trace, or None when it fails."""
    try:
        rc, _, err = _run([exe, "-x", "hlsl", "-b", "dxbc-tpf", "-p", profile, "-e", entry, "-o", os.devnull, "-"],
                          timeout, text.encode("utf-8", "surrogateescape"), env={"VKD3D_SHADER_DEBUG": "trace"})
    except (OSError, subprocess.SubprocessError):
        return None
    return faulty_negations(err.decode("utf-8", errors="replace")) if rc == 0 else None


def _fix_float_minus_integer(exe: str, text: str, data: bytes, expanded: Any, profile: str, entry: str,
                             timeout: float) -> Optional[bytes]:
    """The DXBC of `text` with each ``float - integer`` (and ``-=``) made right (dx12kit/_hlsl_subtraction.py:
    vkd3d-shader 2.1 negates the integer before converting it), or None when there is none. Raises
    ShaderCompileError naming the lines when one is hidden where no rewrite reaches (a macro body)."""
    sites = minus_sites(text)
    if (not sites and not directive_minus_lines(text)) or not may_negate_before_conversion(_shader_tokens(data)):
        return None
    total = _trace_count(exe, probe_text(text, sites), profile, entry, timeout)
    if not total:
        return None
    binary, rest = find_faulty(text, sites, lambda t: _trace_count(exe, t, profile, entry, timeout), total)
    if rest:
        lines = directive_minus_lines(text)
        where = ", ".join("%s:%d" % expanded.locate(n) for n in lines[:4]) if lines else "%s" % expanded.locate(1)[0]
        raise ShaderCompileError(
            f"refused ({profile}, entry '{entry}'): {where}: a subtraction of an integer from a float written where "
            "dx12kit cannot rewrite it (a macro body): vkd3d-shader 2.1 negates the integer in its own type before "
            "converting it (x - u with x = 100.5, u = 64u gives 4.29e9, not 36.5; x - i is wrong for i = INT_MIN). "
            "Workaround: convert the integer first, x - float(u) (float2(v) for vectors).")
    if not binary:
        return None
    fixed = wrap_operands(text, binary)
    try:
        rc, out, _ = _run([exe, "-x", "hlsl", "-b", "dxbc-tpf", "-p", profile, "-e", entry, "-o", "-", "-"],
                          timeout, fixed.encode("utf-8", "surrogateescape"))
    except (OSError, subprocess.SubprocessError):
        rc, out = 1, b""
    left = _trace_count(exe, probe_text(fixed, minus_sites(fixed)), profile, entry, timeout) if rc == 0 else None
    if rc != 0 or out[:4] != b"DXBC" or left != 0:
        lines = sorted({text.count("\n", 0, o) + 1 for o, _ in binary})
        where = ", ".join("%s:%d" % expanded.locate(n) for n in lines[:4])
        raise ShaderCompileError(
            f"refused ({profile}, entry '{entry}'): {where}: a subtraction of an integer from a float that dx12kit could "
            "not rewrite: vkd3d-shader 2.1 negates the integer in its own type before converting it (x - u with "
            "x = 100.5, u = 64u gives 4.29e9, not 36.5). Workaround: convert the integer first, x - float(u).")
    return out


def _surrogate_message(source: str, e: UnicodeEncodeError, source_name: Any) -> str:
    """compile_hlsl's message for a str holding a lone surrogate: where it is, and the byte it stands
    for when it came from a ``surrogateescape`` decoding (U+DC80..U+DCFF)."""
    line = source.count("\n", 0, e.start) + 1
    column = e.start - (source.rfind("\n", 0, e.start) + 1) + 1
    char = ord(source[e.start])
    what = (f"the undecodable byte 0x{char - 0xDC00:02X} (kept by errors='surrogateescape')" if 0xDC80 <= char <= 0xDCFF
            else f"the lone surrogate U+{char:04X}")
    where = f"{os.fspath(source_name) if source_name is not None else 'shader.hlsl'}:{line}:{column}"
    return (f"compile_hlsl: source is not valid Unicode text: {where} holds {what}; HLSL source must be text that "
            "UTF-8 can encode (read files with encoding='utf-8', or use compile_hlsl_file)")


_SM51_SYNTAX = (
    (re.compile(r"\bConstantBuffer\s*<"), "ConstantBuffer<...>"),
    (re.compile(r"\bregister\s*\(\s*[bcstu]\d+\s*,\s*space\d+\s*\)", re.IGNORECASE), "a register space"),
)


def _shader_model(text: str, preprocess: Optional[Callable[[str], str]] = None) -> Tuple[str, str]:
    """The shader model compile_hlsl picks when no profile is given: 5_1 when the source uses syntax only
    shader model 5.1 has (``ConstantBuffer<T>``, ``register(b0, space1)``) in its code, else 5_0; and why. Comments
    do not count: a comment naming ConstantBuffer<T> must not turn a 5_0 shader into 5_1, which the compiler
    refuses for resource arrays that 5_0 accepts. Nor does code in an inactive ``#if`` branch (a port keeping
    both paths): with conditionals, ``preprocess`` (the compiler's preprocessor) decides."""
    from ._hlsl_source import _strip_comments

    code = text
    if "/" in text:
        lines, in_comment = [], False
        for line in text.split("\n"):
            stripped, in_comment = _strip_comments(line, in_comment)
            lines.append(stripped)
        code = "\n".join(lines)
    for pattern, what in _SM51_SYNTAX:
        if pattern.search(code):
            if preprocess is not None and "#if" in code and _shader_model(preprocess(text))[0] == "5_0":
                return "5_0", "; shader model 5_0 (the 5.1-only syntax is only in code the preprocessor leaves out)"
            return "5_1", f"; shader model 5_1 since the source uses {what}"
    return "5_0", ""


@functools.lru_cache(maxsize=256)
def _preprocessed(exe: str, text: str, timeout: float) -> str:
    """``text`` through the compiler's preprocessor (once per source in a process); ``text`` itself if it fails."""
    try:
        rc, out, _ = _run([exe, "-x", "hlsl", "-E", "-o", "-", "-"], timeout, text.encode("utf-8", "surrogateescape"))
    except (OSError, subprocess.SubprocessError):
        return text
    return text if rc != 0 else out.decode("utf-8", errors="replace")


def _choose_profile(profile: Optional[str], stage: Optional[str], text: str, entry: str, what: str,
                    preprocess: Optional[Callable[[str], str]] = None) -> Tuple[str, str]:
    """(profile, why) for compile_hlsl: the profile given, the stage given, or the stage the entry's source shows
    (dx12kit._hlsl_stage), at shader model 5_0 (5_1 when the source uses 5.1-only syntax)."""
    from ._hlsl_stage import STAGES, detect_stage

    if stage is not None:
        if not isinstance(stage, str):
            raise TypeError(f"{what}: stage must be a str, not {type(stage).__name__}")
        prefix = STAGES.get(stage.lower(), stage.lower() if stage.lower() in STAGES.values() else None)
        if prefix is None:
            raise InvalidArgumentError(f"{what}: unknown stage {stage!r}: one of {', '.join(STAGES)} (or "
                                       f"{', '.join(STAGES.values())})")
        if profile is not None:
            _check_profile(profile, what)
            if not profile.startswith(prefix + "_"):
                raise InvalidArgumentError(f"{what}: stage={stage!r} and profile={profile!r} disagree; give one of them")
            return profile, f"profile {profile} as given"
        model, model_why = _shader_model(text, preprocess)
        return f"{prefix}_{model}", f"stage {stage!r} as given{model_why}"
    if profile is not None:
        _check_profile(profile, what)
        return profile, f"profile {profile} as given"
    prefix, why = detect_stage(text, entry)
    if prefix is None:
        raise InvalidArgumentError(f"{what}: cannot tell the shader stage: {why}. Give stage= ('compute', 'vertex', 'pixel', "
                                   "'geometry', 'hull', 'domain') or profile= (e.g. 'ps_5_0')")
    model, model_why = _shader_model(text, preprocess)
    return f"{prefix}_{model}", why + model_why


def compile_hlsl(source: str, entry: str = "main", profile: Optional[str] = None,
                 defines: Optional[Mapping[str, Union[str, int, float, None]]] = None, *,
                 stage: Optional[str] = None,
                 include_dirs: Sequence[Union[str, "os.PathLike[str]"]] = (),
                 source_name: Optional[Union[str, "os.PathLike[str]"]] = None,
                 timeout: float = DEFAULT_TIMEOUT) -> Shader:
    """Compiles HLSL source to DXBC.

    Args:
        source: HLSL text.
        entry: entry point function name.
        profile: ``vs_5_0``, ``ps_5_0``, ``cs_5_0`` (also ``_4_0``, ``_4_1``, ``_5_1``; gs/hs/ds), or None
            (the default): shader model 5_0 (5_1 when the source uses ``ConstantBuffer<T>`` or a
            ``register(..., spaceN)``) of the stage given by `stage`, or else of the stage the entry's
            source shows: ``[numthreads]`` compute, ``[maxvertexcount]`` geometry, ``[outputcontrolpoints]``
            or ``[patchconstantfunc]`` hull, ``[domain]`` domain, an ``SV_Target`` (or ``SV_Depth``) output
            pixel, an ``SV_Position`` output vertex. Compile errors say which profile was chosen and why.
        defines: preprocessor macros, ``{"NAME": value}``: a str (the macro's text), an int, a
            finite float, a bool (``1`` or ``0``) or ``None`` (defined empty); another type is a
            ``TypeError``.
        stage: ``"compute"``, ``"vertex"``, ``"pixel"``, ``"geometry"``, ``"hull"``, ``"domain"`` (or ``"cs"``,
            ``"vs"``, ...): compile for that stage at shader model 5_0 or 5_1 as above (with `profile`, they must agree).
        include_dirs: folders searched, in order, for ``#include "x"`` (after the including
            file's own folder) and ``#include <x>``.
        source_name: the file `source` came from: messages name it, and its folder is searched
            first for quoted includes. Without it messages say ``shader.hlsl`` and quoted includes
            are found in `include_dirs` only (never in the working directory).
        timeout: seconds the compiler may run (default :data:`DEFAULT_TIMEOUT`).

    Includes are expanded by dx12kit (the compiler has none of ``-I``, ``#pragma once`` or the
    includer's folder): ``#pragma once`` and include guards are honoured, a cycle is an error, a
    name matching a file only without regard to case is used with a :class:`ShaderIncludeWarning`
    (so is an `include_dirs` folder existing only in another case; a missing folder is skipped with it),
    and a missing include is always an error (inside ``#if`` blocks: when the block is compiled).
    The entry point's ``[RootSignature(...)]`` attribute is removed before compiling and kept as
    :attr:`Shader.root_signature`.

    Returns:
        A :class:`Shader` with ``.bytecode`` (validated DXBC) and ``.root_signature``.

    Raises:
        ShaderCompileError: the source did not compile, an include is missing, the compiler hung
            or returned something that is not valid DXBC. ``.messages`` holds the errors and
            warnings as :class:`CompileMessage` (file, line, column, severity, code, text), mapped
            to the user's files; ``.fixme`` the compiler's internal log lines, kept apart.
        InvalidArgumentError: a malformed profile (shader model 6 explained), entry point or define; an unknown
            stage, a stage and profile that disagree, or no profile and a stage the source does not show.
        TypeError: `source` is not a str, or a define's value is not one of the types above.
    """
    from .dx12core import shaders as _native

    if not isinstance(source, str):
        raise TypeError(f"compile_hlsl: source must be a str, not {type(source).__name__}")
    try:
        source.encode("utf-8")
    except UnicodeEncodeError as e:  # a lone surrogate: no file can hold it, no compiler can read it
        raise InvalidArgumentError(_surrogate_message(source, e, source_name)) from None
    if source.startswith("\ufeff"):  # a byte-order mark (text read with encoding="utf-8" keeps it)
        source = source[1:]
    if profile is not None:
        _check_profile(profile, "compile_hlsl")
    if not isinstance(entry, str):
        raise TypeError(f"compile_hlsl: entry must be a str, not {type(entry).__name__}")
    if not entry.isidentifier():
        raise InvalidArgumentError(f"compile_hlsl: entry point {entry!r} is not an identifier")
    if isinstance(include_dirs, (str, os.PathLike)):
        include_dirs = [include_dirs]
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"compile_hlsl: timeout must be a number of seconds, not {type(timeout).__name__}")
    if not timeout > 0:
        raise InvalidArgumentError(f"compile_hlsl: timeout must be a positive number of seconds, not {timeout!r}")
    expanded = expand_source(source, source_name, [os.fspath(d) for d in include_dirs], _define_lines(defines, "compile_hlsl"))
    root_signature = extract_root_signature(expanded, entry)
    profile, why = _choose_profile(profile, stage, expanded.text, entry, "compile_hlsl",
                                   lambda t: _preprocessed(find_compiler(), t, timeout))
    files = tuple(([os.path.realpath(os.fspath(source_name))] if source_name is not None else []) + expanded.files)
    # Rewrites of constructs the compiler would get wrong silently (dx12kit._hlsl_fixups):
    # lines stay where they were, so messages and the line map are unchanged.
    text, fixups = fix_source(expanded.text, expanded.locate)
    text, _ = rewrite_select(text)   # HLSL 2021 select(c, a, b): dx12kit/_hlsl_select.py
    exe = find_compiler()
    version = compiler_version(exe)
    merges = _merges_conversions(exe)
    # The fixed and the unfixed library print the same version line: the key tells them apart.
    # "checks-4": entries cached before the float-minus-integer fix are not trusted. "checks-3": entries cached before the macro-hidden cbuffer-static refusal (checks-2) and before the
    # reinterpret (asuint/asint) merge fix and probe are not trusted (a refused shader is never cached, a
    # cache hit skips the checks that run before compiling, and the CAST-only library gave the same key).
    key = hashlib.sha256("\0".join([version, "merges-conversions" if merges else "conversions-apart", "checks-4", _pipeline_digest(),
                                     profile, entry, text])
                         .encode("utf-8", "surrogateescape")).hexdigest()
    cache = _cache_dir()
    cached = cache / f"{key}.dxbc"
    try:
        data = cached.read_bytes()
        if not _native.dxbc_problem(data):
            data = _fix_miscompiled(data, text, expanded, profile, entry)
            return Shader(data, entry, profile, root_signature=root_signature, source_files=files)
        # A damaged cache file (torn write, disk corruption): fall through and recompile over it.
    except OSError:
        pass
    _check_macro_recursion(exe, expanded, timeout)
    _refuse_hidden_cbuffer_statics(exe, text, expanded, timeout)
    with tempfile.TemporaryDirectory(prefix="dx12kit-hlsl-") as tmp:
        src_path = Path(tmp) / "shader.hlsl"
        out_path = Path(tmp) / "shader.dxbc"
        src_path.write_text(text, encoding="utf-8", errors="surrogateescape")
        try:
            rc, stdout, stderr = _run([exe, "-x", "hlsl", "-b", "dxbc-tpf", "-p", profile, "-e", entry, "-o", str(out_path), str(src_path)],
                                      timeout)
        except subprocess.TimeoutExpired:
            raise ShaderCompileError(f"HLSL compilation ({profile}, entry '{entry}') did not finish within {timeout:g} s: the "
                                     f"compiler {exe} was killed (the compiler hung, or a very large shader needs a larger timeout=)") from None
        except OSError as e:
            raise ShaderCompileError(f"cannot run the HLSL compiler {exe}: {e}") from None
        output = (stderr + stdout).decode("utf-8", errors="replace")
        line_map = _preprocessed_line_map(exe, text, timeout) if _MESSAGE.search(output) else None
        messages, log, other = _parse_messages(output, str(src_path), expanded, line_map)
        if rc != 0 or not out_path.exists():
            raise _compile_error(f"HLSL compilation failed ({profile}, entry '{entry}'; {why}):", messages, log, other)
        data = out_path.read_bytes()
    problem = _native.dxbc_problem(data)
    if problem:
        raise ShaderCompileError(f"the HLSL compiler {exe} reported success but wrote invalid DXBC ({len(data)} bytes: {problem})")
    # float - integer: the compiler negates before it converts (dx12kit/_hlsl_subtraction.py)
    data = _fix_float_minus_integer(exe, text, data, expanded, profile, entry, timeout) or data
    compiled = data
    data = _fix_miscompiled(data, text, expanded, profile, entry)
    if merges:
        _refuse_conversion_merge(exe, text, expanded, profile, entry, timeout)
    try:
        cache.mkdir(parents=True, exist_ok=True)
        tmp_file = cache / f".{key}.{os.getpid()}.{threading.get_ident()}.tmp"
        tmp_file.write_bytes(compiled)
        os.replace(tmp_file, cached)
    except OSError:
        pass  # a read-only cache directory only costs speed
    return Shader(data, entry, profile, "\n".join(str(m) for m in messages), root_signature, files)


def compile_hlsl_file(path: Union[str, "os.PathLike[str]"], entry: str = "main", profile: Optional[str] = None,
                      defines: Optional[Mapping[str, Union[str, int, float, None]]] = None, *,
                      stage: Optional[str] = None,
                      include_dirs: Sequence[Union[str, "os.PathLike[str]"]] = (),
                      timeout: float = DEFAULT_TIMEOUT) -> Shader:
    """Compiles an HLSL file: :func:`compile_hlsl` with the file's text and ``source_name=path``
    (so its folder is searched first for quoted includes and messages name it).

    The file (and every file it includes) must be UTF-8; a leading byte-order mark is dropped.
    Args:
        path: the HLSL file.
        entry: the entry point.
        profile: the target profile, e.g. "cs_5_0", "vs_5_1", or None: chosen as :func:`compile_hlsl` does.
        stage: the stage ("compute", "vertex", "pixel", ... or "cs", "vs", ...), as :func:`compile_hlsl`.
        defines: macros (name -> value; None defines the name empty), or None.
        include_dirs: folders searched for includes after the file's own.
        timeout: seconds the compiler may run.

    Returns:
        The compiled Shader.


    Raises:
        ShaderCompileError, InvalidArgumentError: as :func:`compile_hlsl`; ShaderCompileError also
            for a byte that is not UTF-8 (naming the file, line, column and byte).
        FileNotFoundError / OSError: the file cannot be read.
    """
    with open(os.fspath(path), "rb") as f:
        data = f.read()
    source = decode_source(data, os.fspath(path))
    return compile_hlsl(source, entry, profile, defines, stage=stage, include_dirs=include_dirs, source_name=path, timeout=timeout)
