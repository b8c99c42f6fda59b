"""Binding by name: ``CommandList.bind`` resolves the names the shaders declare to root parameters.

``cl.bind("tex", texture)`` and ``cl.bind(tex=texture, smp=sampler, Params={"scale": 2.0})`` set
what the bound pipeline's shaders call ``tex``, ``smp`` and ``Params``, through whatever root
signature the pipeline has: derived automatically (``create_*_pipeline`` without a root signature)
or written by hand. The guide is docs/guides/binding.rst.

How a name is resolved: each shader's reflection (``PipelineState.shader_reflections``) gives the
name's register class, register, space and array size; the root signature's parameter visible to
that stage that provides the register gives the root index and, for a descriptor table, the slot
(the range's offset plus the register's distance from the range's base). A name declared by
several stages that the root signature provides through separate parameters is set in each. The
result is computed once per pipeline and kept (a weak dictionary keyed by the PipelineState), so a
``bind`` call costs a dictionary lookup per name plus the ``set_*`` calls it makes.

What a value may be, by declaration:

* SRV / UAV (textures, buffers): a ``Texture`` or ``Buffer``; an array declaration takes a list
  (slot ``i`` gets item ``i``). Root SRVs/UAVs (hand-written root signatures) take a ``Buffer``.
* sampler: a ``SamplerState`` (``Device.create_sampler``). A static sampler cannot be bound.
* cbuffer: a ``Buffer`` (root CBV or table CBV); a dict of its variables' names to values, packed
  by HLSL's rules from the reflection (every variable must be given; structs as nested dicts,
  arrays as sequences, matrices as ``(rows, columns)`` arrays in mathematical order, whatever the
  ``row_major``/``column_major`` packing); or the packed contents as a numpy array, bytes or
  anything with the buffer protocol. Contents go into root constants, or into upload memory bound
  as a root CBV (zero-padded to the cbuffer's size).

When values apply: with a pipeline bound, at once, and they hold as root arguments do (a
``set_pipeline_state`` with another root signature clears them: bind again). Bound while no
pipeline is (a new list, or after ``generate_mips``), they are kept and applied by the next
``set_pipeline_state``, whose errors then name them. So ``set_pipeline_state`` then ``bind``, or
``bind`` then ``set_pipeline_state``: both work; the next draw or dispatch sees the values.
"""
from __future__ import annotations

import difflib
import weakref
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from . import dx12core as _core
from ._names import close_names
from .errors import InvalidArgumentError

__all__ = ["BindingError", "BindingNameError", "BindingKindError", "CbufferFieldError", "declarations", "pack_cbuffer"]


class BindingError(InvalidArgumentError):
    """Base class of CommandList.bind's errors (an InvalidArgumentError)."""


class BindingNameError(BindingError):
    """A name that no shader of the pipeline declares (the message lists the declarations and a close match)."""


class BindingKindError(BindingError, TypeError):
    """A value of the wrong kind for the declaration (a Texture for a cbuffer...); also a TypeError."""


class CbufferFieldError(BindingError):
    """A cbuffer dict with a missing or unknown variable, or a value of the wrong shape or type for one."""


_STAGE_VISIBILITY = {"vertex": 1, "hull": 2, "domain": 3, "geometry": 4, "pixel": 5}
_SCALAR_DTYPES = {"float": np.float32, "int": np.int32, "uint": np.uint32, "bool": np.uint32, "double": np.float64}


@dataclass
class _Target:
    root: int
    kind: str        # 'constants', 'cbv', 'srv', 'uav', 'table', 'static' (static sampler)
    slot: int = 0    # tables: the descriptor slot of the declaration's first register
    count: int = 0   # root constants: the parameter's 32-bit values; tables: slots the range leaves from `slot` (0: unbounded)


@dataclass
class _Decl:
    name: str
    kind: str        # 'cbv', 'srv', 'uav', 'sampler'
    type: str        # 'cbuffer', 'Texture2D', 'SamplerState', ...
    register: str    # 'b0 space0'
    count: int       # 1, n (array) or 0 (unbounded)
    cbuffer_size: int = 0
    variables: Sequence[Any] = ()
    stages: List[str] = field(default_factory=list)
    targets: List[_Target] = field(default_factory=list)

    def describe(self) -> str:
        where = f"{self.type} {self.register}, {'/'.join(self.stages)}"
        if self.kind == "cbv" and self.variables:
            where += ": " + ", ".join(f"{v.name} {_type_name(v)}" for v in self.variables)
        return f"{self.name} ({where})"


# ---- layouts, one per pipeline ------------------------------------------------------------------

_layouts: "weakref.WeakKeyDictionary[Any, Dict[str, _Decl]]" = weakref.WeakKeyDictionary()
_pending: "weakref.WeakKeyDictionary[Any, Dict[str, Any]]" = weakref.WeakKeyDictionary()


def _range_slots(param: Any) -> List[Tuple[Any, int]]:
    """(range, offset of its first descriptor) for each range of a descriptor table (appended ranges follow the previous one)."""
    out = []
    at = 0
    for r in param.ranges:
        off = at if r.offset is None else int(r.offset)
        out.append((r, off))
        at = off + (0 if r.count == _core.UNBOUNDED else int(r.count))
    return out


def _find_target(rs: Any, params: Sequence[Any], b: Any, stage: str) -> Optional[_Target]:
    vis = _STAGE_VISIBILITY.get(stage, 0)
    reg, space = int(b.register), int(b.space)
    for i, p in enumerate(params):
        if stage != "compute" and p.visibility not in (0, vis):
            continue
        if p.kind == "table":
            for r, off in _range_slots(p):
                if r.kind != b.kind or int(r.space) != space:
                    continue
                unbounded = r.count == _core.UNBOUNDED
                if reg >= r.register and (unbounded or reg < r.register + r.count):
                    return _Target(i, "table", off + reg - int(r.register), 0 if unbounded else int(r.register + r.count - reg))
        elif int(p.register) == reg and int(p.space) == space:
            if (p.kind, b.kind) in (("constants", "cbv"), ("cbv", "cbv"), ("srv", "srv"), ("uav", "uav")):
                return _Target(i, p.kind, 0, int(p.count))
    if b.kind == "sampler":
        for s in rs.static_samplers:
            if int(s.register) == reg and int(s.space) == space and (stage == "compute" or s.visibility in (0, vis)):
                return _Target(-1, "static")
    return None


def _layout(pso: Any) -> Dict[str, _Decl]:
    layout = _layouts.get(pso)
    if layout is not None:
        return layout
    rs = pso.root_signature
    params = list(rs.parameters)
    layout = {}
    for refl in pso.shader_reflections:
        stage = str(refl.stage)
        for b in refl.bindings:
            decl = layout.get(b.name)
            if decl is None:
                decl = layout[b.name] = _Decl(b.name, str(b.kind), str(b.type), str(b.register_name), int(b.count),
                                              int(b.cbuffer_size), list(b.variables))
            elif decl.kind != b.kind:
                # Two stages give one name to different kinds of things: keep the first; the other is reached by no name.
                continue
            decl.stages.append(stage)
            decl.cbuffer_size = max(decl.cbuffer_size, int(b.cbuffer_size))
            if len(b.variables) > len(decl.variables):
                decl.variables = list(b.variables)
            target = _find_target(rs, params, b, stage)
            if target is not None and target not in decl.targets:
                decl.targets.append(target)
    _layouts[pso] = layout
    return layout


def declarations(pso: Any) -> Dict[str, str]:
    """What ``CommandList.bind`` accepts for a pipeline.

    Args:
        pso: a PipelineState.

    Returns:
        ``{name: description}``: each name its shaders declare, with its type, register, stages and (cbuffers) variables.
    """
    return {name: d.describe() for name, d in _layout(pso).items()}


# ---- errors ------------------------------------------------------------------------------------

def _suggest(word: str, options: Sequence[str]) -> str:
    """`` Did you mean 'x'?`` (a sentence of its own) with the closest of `options` by dx12kit's one rule
    (``_names.close_names``: difflib's, in lower case, so a name differing only in case is found), or ``""``."""
    close = close_names(word, options, 1)
    return f" Did you mean '{close[0]}'?" if close else ""


def _unknown_name(pso: Any, layout: Dict[str, _Decl], name: str) -> BindingNameError:
    hint = _suggest(name, list(layout))
    if not hint:
        for d in layout.values():
            fields = [v.name for v in d.variables]
            if name in fields or difflib.get_close_matches(name, fields, n=1, cutoff=0.8):
                field_name = name if name in fields else difflib.get_close_matches(name, fields, n=1, cutoff=0.8)[0]
                hint = f" '{field_name}' is a variable of cbuffer '{d.name}': bind {d.name}={{'{field_name}': ...}} (every variable given)."
                break
    listed = "; ".join(d.describe() for d in layout.values()) or "none (the shaders bind nothing)"
    return BindingNameError(f"bind: no shader of pipeline '{pso.name}' declares '{name}'.{hint} The shaders declare: {listed}")


def _type_name(v: Any) -> str:
    if v.type_class == "struct":
        t = "struct"
    else:
        t = str(v.base_type)
        if v.type_class == "vector":
            t += str(v.columns)
        elif v.type_class in ("matrix_rows", "matrix_columns"):
            t += f"{v.rows}x{v.columns}"
    return t + (f"[{v.elements}]" if v.elements else "")


def _kind_name(value: Any) -> str:
    for cls in (_core.Texture, _core.Buffer, _core.SamplerState):
        if isinstance(value, cls):
            return cls.__name__
    return type(value).__name__


def _wrong_kind(decl: _Decl, value: Any, what: str) -> BindingKindError:
    return BindingKindError(f"bind: '{decl.name}' is {_article(decl.type)} ({decl.register}, {'/'.join(decl.stages)} shader) and takes "
                            f"{what}, not {_article(_kind_name(value))}")


def _article(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


# ---- cbuffer packing --------------------------------------------------------------------------

def _scalar_bytes(base: str) -> int:
    return 8 if base == "double" else 4


def _element_size(v: Any) -> int:
    """Bytes of one element of variable/member `v` (not counting its array), HLSL packing."""
    if v.type_class == "struct":
        return max((int(m.offset) + _size(m) for m in v.members), default=0)
    c = _scalar_bytes(str(v.base_type))
    if v.type_class == "matrix_columns":
        return (int(v.columns) - 1) * 16 + int(v.rows) * c
    if v.type_class == "matrix_rows":
        return (int(v.rows) - 1) * 16 + int(v.columns) * c
    return int(v.columns) * c


def _size(v: Any) -> int:
    e = _element_size(v)
    n = int(v.elements)
    return e if n == 0 else (n - 1) * ((e + 15) // 16 * 16) + e


def _check_fields(values: Mapping[str, Any], variables: Sequence[Any], path: str, what: str) -> None:
    names = [v.name for v in variables]
    for key in values:
        if not isinstance(key, str):
            raise CbufferFieldError(f"bind: {path}: keys are variable names (str), not {type(key).__name__}")
        if key not in names:
            fields = ", ".join(f"{v.name} {_type_name(v)}" for v in variables)
            raise CbufferFieldError(f"bind: {path}: {what} has no variable '{key}'.{_suggest(key, names)} Its variables: {fields}")
    missing = [v for v in variables if v.name not in values]
    if missing:
        listed = ", ".join(f"{v.name} {_type_name(v)}" for v in missing)
        raise CbufferFieldError(f"bind: {path}: {what} needs every variable; missing: {listed} (give the whole buffer, or pass "
                                "its packed bytes)")


def _write_value(buf: bytearray, offset: int, v: Any, value: Any, path: str) -> None:
    if v.elements:
        if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__len__"):
            raise CbufferFieldError(f"bind: {path} is {_type_name(v)}: give a sequence of {v.elements} elements, not "
                                    f"{type(value).__name__}")
        if len(value) != int(v.elements):
            raise CbufferFieldError(f"bind: {path} is {_type_name(v)}: give {v.elements} elements, not {len(value)}")
        stride = (_element_size(v) + 15) // 16 * 16
        for i in range(int(v.elements)):
            _write_element(buf, offset + i * stride, v, value[i], f"{path}[{i}]")
        return
    _write_element(buf, offset, v, value, path)


def _write_element(buf: bytearray, offset: int, v: Any, value: Any, path: str) -> None:
    if v.type_class == "struct":
        if not isinstance(value, Mapping):
            raise CbufferFieldError(f"bind: {path} is a struct: give a dict of its members, not {type(value).__name__}")
        _check_fields(value, list(v.members), path, "the struct")
        for m in v.members:
            _write_value(buf, offset + int(m.offset), m, value[m.name], f"{path}.{m.name}")
        return
    base = str(v.base_type)
    dtype = _SCALAR_DTYPES.get(base)
    if dtype is None:
        raise CbufferFieldError(f"bind: {path} is of type {base}, which dx12kit cannot pack; pass the cbuffer's packed bytes")
    rows, cols = int(v.rows), int(v.columns)
    shape: Tuple[int, ...] = () if v.type_class == "scalar" else (cols,) if v.type_class == "vector" else (rows, cols)
    raw = np.asarray(value)
    if raw.dtype.kind not in "biuf":
        raise CbufferFieldError(f"bind: {path} is {_type_name(v)}: give numbers, not {type(value).__name__}")
    if base in ("int", "uint") and raw.dtype.kind == "f":
        raise CbufferFieldError(f"bind: {path} is {_type_name(v)}: give integers, not floats ({value!r})")
    if raw.shape != shape and not (shape == () and raw.shape == (1,)):
        want = "one value" if shape == () else f"{cols} values, shape ({cols},)" if len(shape) == 1 else \
            f"a {rows}x{cols} matrix, shape ({rows}, {cols})"
        raise CbufferFieldError(f"bind: {path} is {_type_name(v)}: give {want}, not shape {raw.shape}")
    try:
        arr = raw.astype(bool).astype(dtype) if base == "bool" else np.asarray(raw, dtype=dtype) if raw.dtype.kind == "f" or base == "float" \
            else np.array(raw.tolist(), dtype=dtype)
    except OverflowError:
        raise CbufferFieldError(f"bind: {path} is {_type_name(v)}: {value!r} does not fit in {base}") from None
    c = _scalar_bytes(base)
    if len(shape) < 2:
        data = arr.reshape(-1).tobytes()
        buf[offset:offset + len(data)] = data
        return
    for r in range(rows):
        for col in range(cols):
            at = offset + (col * 16 + r * c if v.type_class == "matrix_columns" else r * 16 + col * c)
            buf[at:at + c] = arr[r, col].tobytes()


def pack_cbuffer(variables: Sequence[Any], size: int, values: Mapping[str, Any], name: str = "cbuffer") -> bytes:
    """The bytes of a cbuffer of `size` bytes whose `variables` (``ShaderBinding.variables``) take `values`.

    Args:
        variables: the cbuffer's CbufferVariable list (reflection).
        size: its size in bytes (``ShaderBinding.cbuffer_size``).
        values: every variable's value, by name (structs as dicts, arrays as sequences, matrices as (rows, columns)).
        name: the cbuffer's name, for messages.

    Returns:
        `size` bytes, HLSL-packed (padding zero).

    Raises:
        CbufferFieldError: a missing or unknown variable, or a value of the wrong shape or type.
    """
    _check_fields(values, variables, name, f"cbuffer '{name}'")
    buf = bytearray(size)
    for v in variables:
        _write_value(buf, int(v.offset), v, values[v.name], f"{name}.{v.name}")
    return bytes(buf)


def _cbuffer_bytes(decl: _Decl, value: Any) -> Optional[bytes]:
    """The contents given for a cbuffer (None for a Buffer)."""
    if isinstance(value, Mapping):
        return pack_cbuffer(decl.variables, decl.cbuffer_size, value, decl.name)
    if isinstance(value, _core.Resource):
        return None
    if isinstance(value, np.ndarray):
        data = np.ascontiguousarray(value).tobytes()
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
    else:
        raise _wrong_kind(decl, value, "a Buffer, a dict of its variables, a numpy array or bytes")
    if len(data) > decl.cbuffer_size:
        raise CbufferFieldError(f"bind: '{decl.name}' holds {decl.cbuffer_size} bytes; {len(data)} bytes given")
    if len(data) % 4:
        raise CbufferFieldError(f"bind: '{decl.name}': {len(data)} bytes is not a whole number of 32-bit values")
    return data


# ---- applying ----------------------------------------------------------------------------------

def _apply(cl: Any, decl: _Decl, value: Any) -> None:
    if not decl.targets:
        raise BindingNameError(f"bind: '{decl.name}' ({decl.register}) is declared but no root parameter provides it")
    if decl.kind == "cbv":
        data = _cbuffer_bytes(decl, value)
        if data is None and not isinstance(value, _core.Buffer):
            raise _wrong_kind(decl, value, "a Buffer, a dict of its variables, a numpy array or bytes")
        for t in decl.targets:
            if data is not None:
                if t.kind == "constants":
                    words = np.frombuffer(data + bytes((-len(data)) % 4), dtype=np.uint32)[:t.count]
                    cl.set_constants(t.root, words)
                elif t.kind == "cbv":
                    cl.set_dynamic_constant_buffer(t.root, data + bytes(max(0, decl.cbuffer_size - len(data))))
                else:
                    raise _wrong_kind(decl, value, "a Buffer (the root signature keeps it in a descriptor table, which holds "
                                                   "views of buffers, not values)")
            elif t.kind == "constants":
                raise _wrong_kind(decl, value, "its values (a dict of its variables, a numpy array or bytes): the root signature "
                                               f"holds it as {t.count} root constants")
            elif t.kind == "cbv":
                cl.set_root_cbv(t.root, value)
            else:
                cl.set_constant_buffer_view(t.root, t.slot, value)
        return
    if decl.kind == "sampler":
        if not isinstance(value, _core.SamplerState):
            raise _wrong_kind(decl, value, "a SamplerState (Device.create_sampler)")
        for t in decl.targets:
            if t.kind == "static":
                raise BindingKindError(f"bind: '{decl.name}' ({decl.register}) is a static sampler of the root signature: it is "
                                       "fixed at creation and cannot be bound")
        # The core refuses a mismatch at the next draw as well; bind() names the declaration at once.
        comparison_decl = decl.type == "SamplerComparisonState"
        filter_name = str(value.desc["filter"])
        if comparison_decl != filter_name.startswith("comparison"):
            raise BindingKindError(
                f"bind: '{decl.name}' ({decl.register}) is a {decl.type}, but the sampler's filter is "
                f"'{filter_name}'; D3D12 requires "
                + ("a comparison filter (create_sampler(filter='comparison_min_mag_mip_point', comparison=...))"
                   if comparison_decl else "a non-comparison filter") + " here (the result is undefined otherwise)")
        for t in decl.targets:
            cl.set_sampler(t.root, t.slot, value)
        return
    # SRV / UAV
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    if decl.count == 1 and isinstance(value, (list, tuple)):
        raise _wrong_kind(decl, value, "one Texture or Buffer")
    for item in items:
        if not isinstance(item, _core.Resource):
            raise _wrong_kind(decl, item, "a Texture or Buffer" + (" (or a list of them)" if decl.count != 1 else ""))
    if decl.count > 1 and len(items) > decl.count:
        raise BindingKindError(f"bind: '{decl.name}' is an array of {decl.count}; {len(items)} resources given")
    for t in decl.targets:
        if t.kind in ("srv", "uav"):
            if not isinstance(value, _core.Buffer):
                raise _wrong_kind(decl, value, f"a Buffer (the root signature holds it as a root {t.kind.upper()}, which takes buffers)")
            (cl.set_root_srv if t.kind == "srv" else cl.set_root_uav)(t.root, value)
            continue
        for i, item in enumerate(items):
            if decl.kind == "srv":
                cl.set_shader_resource_view(t.root, t.slot + i, item)
            else:
                cl.set_unordered_access_view(t.root, t.slot + i, item)


def _bind_items(cl: Any, pso: Any, items: Sequence[Tuple[str, Any]]) -> None:
    layout = _layout(pso)
    for name, value in items:
        decl = layout.get(name)
        if decl is None:
            raise _unknown_name(pso, layout, name)
        _apply(cl, decl, value)


def _bind(cl: Any, name: Any, value: Any, values: Mapping[str, Any]) -> None:
    """CommandList.bind's body (cpp/bindings/BindCommandListNames.cpp forwards here)."""
    items: List[Tuple[str, Any]] = []
    if name is not None:
        if not isinstance(name, str):
            raise TypeError(f"bind: name must be a str, not {type(name).__name__}")
        if name in values:
            raise TypeError(f"bind: '{name}' given twice")
        items.append((name, value))
    elif value is not None:
        raise TypeError("bind: a value without a name; use bind(name, value) or bind(name=value)")
    items.extend(values.items())
    if not items:
        raise TypeError("bind: give a name and a value, or name=value keywords")
    pso = cl.pipeline_state
    if pso is None:
        # No pipeline yet: kept for the next set_pipeline_state (later values for a name replace earlier ones).
        _pending.setdefault(cl, {}).update(items)
        return
    _bind_items(cl, pso, items)


def _apply_pending(cl: Any) -> None:
    """Called by set_pipeline_state when values were bound by name while no pipeline was bound."""
    items = _pending.pop(cl, None)
    if items:
        _bind_items(cl, cl.pipeline_state, list(items.items()))
