"""How one command list's passes are recorded: the per-pass record plan (:class:`PassRecording`, made
by :mod:`.bake`) and the function that records a list of them, ``run(cl, res)``, generated as Python
source (:class:`GeneratedRecorder`, :func:`recorder_for`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, FrozenSet, List, Mapping, Optional, Sequence, Tuple

from ..dx12core import BarrierBatch, CommandList
from .checked import _CheckedCommandList, _UnrealizedResource
from .model import DEPTH_WRITE_STATE, RENDER_TARGET_STATE, GraphResource, RecordFn, Resource

Recorder = Callable[[CommandList, Mapping[GraphResource, Any]], None]

@dataclass(frozen=True)
class InitClear:
    """A render target or depth buffer the graph initialises before a pass that does not bind it
    (D3D12's rule for memory taken over): on a direct queue transitioned, then cleared to 0 (colour)
    or 1 (depth); on a compute queue, which can neither clear nor hold a render target, discarded in
    UNORDERED_ACCESS (the pass writes it there: D3D12's DiscardResource rule for compute lists)."""

    resource: Resource
    depth: bool
    discard: bool = False
    mips: int = 1   # a texture declared through mip views is cleared at every mip


@dataclass(frozen=True)
class TargetClear:
    """A clear after binding the pass's targets (the pass's own ``clear``, or the graph's first-use clear)."""

    resource: Resource
    depth: bool
    value: Tuple[float, ...]   # four floats (colour) or one (depth)
    mip: int = 0               # the mip cleared (a view's clear)


@dataclass(frozen=True)
class PassCheck:
    """Validation mode: what the checked command list and ``res`` of one pass allow.

    Attributes:
        allowed: ``id`` of each real resource the pass declares -> its declared uses.
        graph_ids: ``id`` of every real resource of the graph -> its handle.
        resources: the pass's ``res``: only the resources it declares.
    """

    allowed: Dict[int, FrozenSet[str]]
    graph_ids: Dict[int, GraphResource]
    resources: Mapping[GraphResource, Any]
    subresources: Optional[Dict[int, Dict[int, FrozenSet[str]]]] = None   # id -> declared subresource -> uses


@dataclass(frozen=True)
class PassRecording:
    """Everything recorded for one pass, with real resources, in recording order.

    Attributes:
        name: the pass's name (messages).
        record: the pass's ``record(cl, res)``.
        barriers_before: the closing transitions of the previous pass in the list, aliasing and UAV
            barriers, and (when there are no init clears) the pass's transitions.
        init_clears: targets cleared before the pass (then ``transitions``).
        transitions: the pass's transitions, when init clears come between them and ``barriers_before``.
        render_targets: the colour targets to bind (``None``: the pass binds no target at all).
        depth_stencil: the depth buffer to bind.
        clears: clears after binding.
        check: validation mode's checks (``None``: not validating).
        barriers_after: transitions after the pass's work (the last pass of a list only; otherwise they
            open the next pass's ``barriers_before``).
        timestamps: profiling (:mod:`.profile`): the timestamp heap and the index of the timestamp written
            before the pass (the one after it is the next index); ``None``: not timed.
    """

    name: str
    record: RecordFn
    barriers_before: Optional[BarrierBatch]
    init_clears: Tuple[InitClear, ...]
    transitions: Optional[BarrierBatch]
    render_targets: Optional[List[Resource]]
    depth_stencil: Optional[Resource]
    clears: Tuple[TargetClear, ...]
    check: Optional[PassCheck]
    barriers_after: Optional[BarrierBatch]
    timestamps: Optional[Tuple[Any, int]] = None
    target_mip: int = 0   # the mip the targets are bound at (views of one mip)


@dataclass(frozen=True)
class GeneratedRecorder:
    """The recorder of one command list as Python source: straight-line calls, what a person recording
    the passes by hand would write, so executing a compiled graph costs no per-pass interpretation.

    Measured against a loop over the :class:`PassRecording` on the deferred frame of
    :mod:`dx12kit.graph_demo` (7 passes; the two alternated in one process, medians of execute()'s CPU
    time): the loop cost 1.7-2.5% more, 3.5-7.7 us per execution.

    Attributes:
        source: ``def run(cl, res): ...``, one commented block per pass.
        constants: the globals the source names (``p<pass>_<field>``: barrier batches, targets, clear
            values, record functions, validation data).
    """

    source: str
    constants: Dict[str, Any]

    def function(self, label: str, codes: Optional[Dict[str, Any]] = None) -> Recorder:
        """The compiled ``run(cl, res)`` (``label``: its file name in tracebacks; ``codes``: compiled
        sources to reuse, and where to keep this one's).

        The function is taken out of its namespace (its globals), so that the two do not form a reference
        cycle: a dropped graph's barrier batches and real resources are freed at once, not by the cycle
        collector.
        """
        ns = dict(self.constants)
        code = codes.get(self.source) if codes is not None else None
        if code is None:
            code = compile(self.source, f"<{label}>", "exec")
            if codes is not None:
                codes[self.source] = code
        exec(code, ns)
        fn: Recorder = ns.pop("run")
        return fn


class _Constants:
    """Names the values a generated recorder uses: ``p<pass>_<field>`` (a number appended when one
    pass needs two values of one field)."""

    def __init__(self) -> None:
        self.values: Dict[str, Any] = {"_CheckedCommandList": _CheckedCommandList,
                                       "_UnrealizedResource": _UnrealizedResource}

    def name(self, i: int, field: str, value: Any) -> str:
        name, n = f"p{i}_{field}", 1
        while name in self.values and self.values[name] is not value:
            n += 1
            name = f"p{i}_{field}{n}"
        self.values[name] = value
        return name


def _pass_source(i: int, r: PassRecording, k: _Constants) -> List[str]:
    """The lines recording pass ``i``."""
    lines = [f"    # pass {i}: {r.name!r}"]
    if r.timestamps is not None:   # profiling: before the pass's first barrier
        lines.append(f"    cl.end_query({k.name(i, 'timestamps', r.timestamps[0])}, 'timestamp', {r.timestamps[1]})")
    if r.barriers_before is not None:   # closing transitions of the previous pass, aliasing, UAV, transitions
        lines.append(f"    cl.resource_barriers({k.name(i, 'barriers_before', r.barriers_before)})")
    for c in r.init_clears:   # a target first used unbound: initialised before the pass's transitions
        t = k.name(i, "init_clear", c.resource)
        if c.discard:
            lines.append(f"    cl.discard_resource({t})")
        elif c.depth:
            lines += [f"    cl.transition_barrier({t}, {DEPTH_WRITE_STATE})  # DEPTH_WRITE",
                      f"    cl.clear_depth_stencil({t}, 1.0, 0, array_slice=None)"]   # every slice (D3D12: all initialised)
            lines += [f"    cl.clear_depth_stencil({t}, 1.0, 0, mip={m}, array_slice=None)" for m in range(1, c.mips)]
        else:
            lines += [f"    cl.transition_barrier({t}, {RENDER_TARGET_STATE})  # RENDER_TARGET",
                      f"    cl.clear_render_target({t}, (0.0, 0.0, 0.0, 0.0))"]
            lines += [f"    cl.clear_render_target({t}, (0.0, 0.0, 0.0, 0.0), mip={m})" for m in range(1, c.mips)]
    if r.transitions is not None:
        lines.append(f"    cl.resource_barriers({k.name(i, 'transitions', r.transitions)})")
    if r.render_targets is not None:
        mip = f", mip={r.target_mip}" if r.target_mip else ""   # targets bound at one mip (views)
        lines.append(f"    cl.set_render_targets({k.name(i, 'render_targets', r.render_targets)}, "
                     f"{k.name(i, 'depth_stencil', r.depth_stencil)}{mip})")
        for c2 in r.clears:
            cmip = f", mip={c2.mip}" if c2.mip else ""
            if c2.depth:
                lines.append(f"    cl.clear_depth_stencil({k.name(i, 'depth', c2.resource)}, "
                             f"{k.name(i, 'depth_value', c2.value[0])}, 0{cmip})")
            else:
                lines.append(f"    cl.clear_render_target({k.name(i, 'target', c2.resource)}, "
                             f"{k.name(i, 'colour', c2.value)}{cmip})")
    record, name = k.name(i, "record", r.record), k.name(i, "name", r.name)
    if r.check is None:
        call = f"{record}(cl, res)"
    else:   # validation mode: a checking command list, and res holding the pass's declared resources only
        subs = f", {k.name(i, 'subresources', r.check.subresources)}" if r.check.subresources else ""
        call = (f"{record}(_CheckedCommandList(cl, {name}, {k.name(i, 'allowed', r.check.allowed)}, "
                f"{k.name(i, 'graph_ids', r.check.graph_ids)}{subs}), {k.name(i, 'res', r.check.resources)})")
    lines += ["    try:", f"        {call}", "    except _UnrealizedResource as e:",
              f"        raise e.in_pass({name}) from None"]
    if r.barriers_after is not None:   # states handed over to later passes (the list's last pass)
        lines.append(f"    cl.resource_barriers({k.name(i, 'barriers_after', r.barriers_after)})")
    if r.timestamps is not None:   # profiling: after the pass's last work
        lines.append(f"    cl.end_query({k.name(i, 'timestamps', r.timestamps[0])}, 'timestamp', {r.timestamps[1] + 1})")
    return lines


def generate(passes: Sequence[PassRecording]) -> GeneratedRecorder:
    """The recorder of ``passes`` (one command list's, in order) as source and constants."""
    k = _Constants()
    lines = ["def run(cl, res):"]
    for i, r in enumerate(passes):
        lines += _pass_source(i, r, k)
    if len(lines) == 1:
        lines.append("    pass")
    return GeneratedRecorder(source="\n".join(lines) + "\n", constants=k.values)
