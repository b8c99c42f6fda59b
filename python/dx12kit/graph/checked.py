"""What a pass's ``record`` sees during execute: the mapping ``res`` of real resources (a missing handle
raises GraphError, not KeyError) and, in validation mode, a command list that checks every use of a
graph resource against the pass's declarations. The checked methods are generated from the core's role
table (``dx12core.resource_arguments()``: every CommandList method's resource arguments and roles)."""
from __future__ import annotations

from typing import Any, Callable, Dict, FrozenSet, Optional, Sequence, Tuple

from .. import dx12core as _core
from ..dx12core import Buffer, CommandList, Texture
from .model import WRITE, GraphError, GraphResource, GraphSubresource, Resource
from .subresources import check_touched, touched


class _UnrealizedResource(GraphError):
    """``res[h]`` in a ``record`` for a handle this execution has no resource for (no kept pass declared it)."""

    def __init__(self, handle: Any, pass_name: Optional[str] = None) -> None:
        """The message names the handle and, once known, the pass."""
        self.handle = handle
        name = getattr(handle, "name", None)
        what = f"graph resource {name!r}" if name is not None else f"{handle!r} (not a graph resource of this graph)"
        where = f"pass {pass_name!r}: " if pass_name is not None else ""
        super().__init__(f"{where}res[] of {what}, which the pass did not declare (declare it in add_pass's reads/writes/"
                         "render_targets/...; only declared resources of kept passes exist during execute)")

    def in_pass(self, pass_name: str) -> GraphError:
        """The same error, as a plain GraphError naming the pass whose ``record`` raised it."""
        return GraphError(str(_UnrealizedResource(self.handle, pass_name)))


class _RealResources(Dict[GraphResource, Resource]):
    """The real resources of an execution; a missing handle raises GraphError, not KeyError."""

    def __missing__(self, handle: Any) -> Resource:
        if isinstance(handle, GraphSubresource):   # a view: its whole texture (bind the mip with mip=k)
            return self[handle.resource]
        raise _UnrealizedResource(handle)


class _CheckedCommandList:
    """The CommandList a pass's ``record`` gets in validation mode: every use of a graph resource is
    checked against the pass's declarations before it reaches the real list."""

    __slots__ = ("_cl", "_pass", "_allowed", "_graph_ids", "_subs")

    def __init__(self, cl: CommandList, pass_name: str, allowed: Dict[int, FrozenSet[str]],
                 graph_ids: Dict[int, GraphResource],
                 subresources: Optional[Dict[int, Dict[int, FrozenSet[str]]]] = None) -> None:
        """Wraps ``cl`` for the pass ``pass_name`` (``subresources``: per resource the pass declares through
        views, its declared subresources and their uses)."""
        self._cl = cl
        self._pass = pass_name
        self._allowed = allowed
        self._graph_ids = graph_ids
        self._subs = subresources

    def _check(self, r: Any, uses: Tuple[str, ...], op: str) -> None:
        if r is None:
            return
        h = self._graph_ids.get(id(r))
        if h is None:
            return
        got = self._allowed.get(id(r))
        if got is None:
            raise GraphError(f"pass {self._pass!r}: {op} uses graph resource {h.name!r}, which the pass did not declare")
        if got.isdisjoint(uses):
            raise GraphError(f"pass {self._pass!r}: {op} uses graph resource {h.name!r} as {'/'.join(uses)}, but the "
                             f"pass declared it as {'/'.join(sorted(got))}")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cl, name)

    def _check_views(self, value: Any, uses: Tuple[str, ...], many: bool, method: str, op: str, args: Tuple[Any, ...],
                     kw: Dict[str, Any], argument: str = "") -> None:
        """Resources the pass declared through views: the subresources the call touches are declared."""
        assert self._subs is not None
        for r in (value if many and isinstance(value, list) else (value,)):
            declared = self._subs.get(id(r)) if r is not None else None
            if declared is not None:
                h = self._graph_ids[id(r)]
                check_touched(self._pass, op, h, touched(method, h, args, kw, argument), uses, declared)

    def _check_states(self, r: Any, op: str) -> None:
        h = self._graph_ids.get(id(r)) if r is not None else None
        if h is not None:
            raise GraphError(f"pass {self._pass!r}: {op} on graph resource {h.name!r}: the graph owns its states and memory "
                             "(declare the use instead; the graph records the barriers it needs)")

    def _check_role(self, value: Any, role: str, uses: Tuple[str, ...], many: bool, op: str) -> None:
        if role == "layout":
            return
        items = value if many and isinstance(value, list) else (value,)
        for r in items:
            if role == "states":
                self._check_states(r, op)
            elif role == "barriers":
                for entry in r.entries:
                    if entry[0] == "uav":
                        self._check(entry[1], (WRITE,), f"{op} (uav barrier)")
                    else:
                        for x in entry[1:3 if entry[0] == "aliasing" else 2]:
                            self._check_states(x, f"{op} ({entry[0]} barrier)")
            else:
                self._check(r, uses, op)


def _checked_method(name: str, roles: Sequence[Tuple[str, int, str, bool]]) -> Callable[..., Any]:
    """A _CheckedCommandList method: checks each resource argument by its role in the core's table
    (dx12core.resource_arguments()), then calls the real CommandList method."""
    # per argument, what each call needs, split once: the uses its role allows ("read|write" -> both), the
    # operation's name in messages, whether the subresources it touches are checked
    checks = [(argument, position, role, many, tuple(role.split("|")),
               name if len(roles) == 1 or role == "states" else f"{name} ({argument})",
               role not in ("layout", "states", "barriers")) for argument, position, role, many in roles]

    def method(self: _CheckedCommandList, *args: Any, **kw: Any) -> Any:
        for argument, position, role, many, uses, what, views in checks:
            if argument in kw:
                value = kw[argument]
            elif position < len(args):
                value = args[position]
            else:
                continue
            if many and value is not None and not isinstance(value, (Texture, Buffer, str, bytes)):
                try:   # an iterable of resources: taken once (a generator), checked and passed on as a list
                    value = list(value)
                except TypeError:
                    pass   # not iterable: the real method names the type
                else:
                    if argument in kw:
                        kw[argument] = value
                    else:
                        args = args[:position] + (value,) + args[position + 1:]
            self._check_role(value, role, uses, many, what)
            if views and self._subs:
                self._check_views(value, uses, many, name, what, args, kw, argument)
        return getattr(self._cl, name)(*args, **kw)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"Checked :meth:`CommandList.{name}`: " + ", ".join(f"{a} as {r}" for a, _, r, _ in roles) + "."
    return method


def _install_checked_methods() -> None:
    for name, roles in _core.resource_arguments().items():
        setattr(_CheckedCommandList, name, _checked_method(name, [(str(a), int(p), str(r), bool(m)) for a, p, r, m in roles]))


_install_checked_methods()
