"""Subresource declarations: passes that declare views of one mip or array slice of a texture
(``h.mip(k)``, ``h.slice(i)``: :class:`.model.GraphSubresource`) rather than the whole texture.

- *Declare*: :func:`split_views` takes a pass's views apart from its whole-resource declarations; a
  subresource declared twice in one pass (two overlapping views, or a view and the whole texture) is a
  :class:`GraphError` naming the pass and the subresource. The pass keeps per resource the union of its
  views' uses (so cull, schedule, lifetimes and placement work per resource, conservatively) and, in
  ``PassDecl.subresources``, each view with its own state.
- *Barriers*: a resource any alive pass declares through views is tracked per subresource by
  :class:`SubresourcePlanner` (the barrier planner hands such resources to it): a transition for each
  subresource whose state changes, one whole-resource transition when every subresource goes from one
  state to the same new state. Resources declared whole only are planned exactly as before.
- *Validation* (:func:`touched`): which subresources a CommandList call touches, from its ``mip`` /
  ``array_slice`` arguments, so the checked command list refuses a use of an undeclared subresource.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from .model import (
    COPY_DST,
    DEPTH_WRITE_STATE,
    DS,
    QUEUE_STATES,
    READ,
    RENDER_TARGET_STATE,
    RT,
    GraphError,
    GraphResource,
    GraphSubresource,
    PassDecl,
    SubresourceUse,
    need_of,
    subresource_name,
)

ALL = 0xFFFFFFFF   # D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES


# ------------------------------------------------------------------------------------------------ declare
def split_views(pass_name: str, queue: str, views: Iterable[Tuple[GraphSubresource, str]],
                whole: Mapping[GraphResource, Set[str]]) -> Dict[GraphResource, Tuple[SubresourceUse, ...]]:
    """Each resource the pass declares through views -> its views (uses, state), checked not to overlap
    each other or a whole-resource declaration of the same texture."""
    taken: Dict[GraphResource, Dict[int, GraphSubresource]] = {}
    out: Dict[GraphResource, List[SubresourceUse]] = {}
    for v, use in views:
        h = v.resource
        if h in whole:
            raise GraphError(f"add_pass {pass_name!r}: subresource {v.name!r} declared as {use} overlaps {h.name!r} "
                             f"declared whole as {sorted(whole[h])} in the same pass; declare non-overlapping views")
        mine = taken.setdefault(h, {})
        for sub in sorted(v.subresources()):
            other = mine.get(sub)
            if other is not None:
                raise GraphError(f"add_pass {pass_name!r}: subresource {subresource_name(h, sub)!r} declared twice in "
                                 f"one pass (views {other.name!r} and {v.name!r}); views of one texture in one pass "
                                 "must not overlap")
            mine[sub] = v
        out.setdefault(h, []).append(SubresourceUse(v, frozenset((use,)), need_of(queue, frozenset((use,)))))
    return {h: tuple(u) for h, u in out.items()}


def target_mip(pass_name: str, targets: Sequence[Any]) -> int:
    """The one mip the pass's render targets and depth buffer are bound at (``set_render_targets(mip=)``);
    whole textures are bound at mip 0. Views of one array slice cannot be bound as targets."""
    mips = set()
    for t in targets:
        if isinstance(t, GraphSubresource):
            if t.array_slice is not None:
                raise GraphError(f"add_pass {pass_name!r}: render target / depth view {t.name!r} is one array slice; "
                                 "targets are bound per mip with every slice (declare a mip view, h.mip(k))")
            mips.add(t.mip_level if t.mip_level is not None else 0)
        else:
            mips.add(0)
    if len(mips) > 1:
        raise GraphError(f"add_pass {pass_name!r}: render targets and depth buffer are bound at one mip "
                         f"(set_render_targets(mip=)), got mips {sorted(mips)}")
    return mips.pop() if mips else 0


# ------------------------------------------------------------------------------------------------ barriers
def subresource_requests(p: PassDecl, h: GraphResource) -> List[Tuple[FrozenSet[int], int, FrozenSet[str]]]:
    """What pass ``p`` needs of ``h``: (subresources, state, uses) per view, or one entry for the whole."""
    views = p.subresources.get(h)
    if views is None:
        return [(frozenset(range(h.mips * h.array_size)), p.need_of[h], p.uses[h])]
    return [(v.view.subresources(), v.need, v.uses) for v in views]


def new_list_requests(p: PassDecl, h: GraphResource, transition: Callable[..., Any], per_subresource: bool) -> List[Any]:
    """The requests of ``h`` by pass ``p`` when ``h`` is new to a command list: one ``transition(h, state)`` for
    the whole, or, ``per_subresource``, one ``transition(h, state, subresource)`` per subresource it uses."""
    if not per_subresource:
        return [transition(h, p.need_of[h])]
    return [transition(h, need, s) for subs, need, _ in subresource_requests(p, h) for s in sorted(subs)]


def first_use_init(h: GraphResource, p: PassDecl, flags: Any) -> bool:
    """Whether the graph initialises transient ``h`` before its first use, by pass ``p`` (``flags``: what its real
    resource is created for). D3D12 (CreatePlacedResource): a render-target or depth texture taking over aliased
    memory is first cleared, discarded or fully copied into. ResolveSubresource is none of those, so a resolve into
    it (or into any of its views) initialises nothing: it gets the graph's clear too. Declared whole, the pass's own
    clear of it (one mip: the clear covers the bound mip) or copy into it (one subresource) does that; declared
    through views, copies into every subresource do, while copies into some views do not cover the others."""
    if h.kind != "texture" or not (flags.render_target or flags.depth_stencil):
        return False
    uses = p.uses[h]
    views = p.subresources.get(h)
    if views is None or COPY_DST not in uses:
        # the pass's own clear covers the bound mip (every slice), a copy declared whole may be one
        # subresource's: they initialise the whole texture only when it has one mip (one subresource)
        return not ((h in p.clear and h.mips == 1) or (COPY_DST in uses and h.mips * h.array_size == 1))
    copied: Set[int] = set()
    for v in views:
        if COPY_DST in v.uses:
            copied |= v.view.subresources()
    return len(copied) < h.mips * h.array_size


def tracked_resources(alive: Sequence[PassDecl]) -> Set[GraphResource]:
    """The resources some alive pass declares through views (planned per subresource)."""
    out: Set[GraphResource] = set()
    for p in alive:
        if p.subresources:
            out.update(p.subresources)
    return out


class SubresourcePlanner:
    """Per-subresource states of the tracked resources, for :class:`.barriers.BarrierPlanner` (which owns
    the dependencies, command lists, counts and the planning of each request; this class keeps the states,
    the one state each tracked transient ends an execution in, and merges the transitions).

    Args:
        alive: the alive passes in order.
        tracked: the resources planned per subresource.
        transition: the barrier planner's ``Transition(resource, state, subresource)`` (this module sits below
            it in the package's layers).
        wait_for: the barrier planner's ``_wait_for(far_waits, queue, list_index, own_queue)``.
    """

    def __init__(self, alive: Sequence[PassDecl], tracked: Set[GraphResource], transition: Callable[..., Any],
                 wait_for: Callable[[Dict[str, int], str, int, str], None],
                 flags: Optional[Mapping[GraphResource, Any]] = None) -> None:
        self.tracked = tracked
        self.transition = transition
        self.wait_for = wait_for
        self.state: Dict[GraphResource, List[Optional[int]]] = {}
        # per tracked transient: the one state it ends each execution in (None: none reachable, see _end_state),
        # and per pass order the subresources that pass moves there after its work
        self.end_state: Dict[GraphResource, Optional[int]] = {}
        self.end_moves: Dict[GraphResource, Dict[int, List[int]]] = {}
        self.activated: Set[GraphResource] = set()   # those the graph's own aliasing barrier activates
        for h in tracked:
            n = h.mips * h.array_size
            st: List[Optional[int]] = [None] * n
            if h.transient:   # an execution starts where the previous one left each subresource
                for p in alive:
                    if h in p.uses:
                        for subs, need, _ in subresource_requests(p, h):
                            for s in subs:
                                st[s] = 0 if p.queue == "copy" else need
                if flags is not None and h in flags:
                    self.end_state[h], self.end_moves[h] = _end_state(alive, h, flags[h])
            self.state[h] = st

    def moves_to_end_state(self) -> List[Tuple[int, Any]]:
        """The transitions that leave each tracked transient the graph activates with its own aliasing barrier
        in one state at the end of an execution (the state that barrier names): (pass order, transition)."""
        Transition = self.transition
        return [(order, Transition(h, self.end_state[h], s)) for h in sorted(self.activated, key=lambda x: x.index)
                for order, subs in sorted(self.end_moves[h].items()) for s in subs]

    def units(self, planner: Any, plan: Any, h: GraphResource, barrier: Any, far_waits: Dict[str, int]
              ) -> List[Tuple[Tuple[GraphResource, int], int, Optional[int], int, FrozenSet[str]]]:
        """What ``plan``'s pass needs of tracked resource ``h``, per subresource in order: (its key, the
        subresource, the state it is in before the pass, the state the pass needs, its uses), after the graph's
        aliasing barrier ``barrier`` (or None) and first-use clear, and any handoff of a state the pass's queue
        may not leave (``planner``: the BarrierPlanner, whose :meth:`_request` plans the rest)."""
        st = self.state[h]
        if barrier is not None:
            # activated by the graph's aliasing barrier, which names one state for the whole texture: the one
            # it ends every execution in (moves_to_end_state), so that it is really there and dx12kit moves
            # nothing before the list (rule 6c). None reachable: COMMON, where dx12kit parks it before the list.
            end = self.end_state.get(h)
            barrier.state = end if end is not None else 0
            st[:] = [barrier.state] * len(st)
            if end is not None:
                self.activated.add(h)
        if h in plan.init_clears:
            st[:] = [int(planner_rt_or_ds(planner, h))] * len(st)   # the graph's first-use clear left it there
        queue = plan.pass_.queue
        out: List[Tuple[Tuple[GraphResource, int], int, Optional[int], int, FrozenSet[str]]] = []
        for subs, need, uses in subresource_requests(plan.pass_, h):
            for s in sorted(subs):
                before = st[s]
                if before is not None and before != need and before & ~QUEUE_STATES[queue]:
                    src = planner.last_direct_user.get(h)   # a state this queue may not leave: the direct user does it
                    if src is not None:
                        src.after.append(self.transition(h, need, s))
                        planner.counts.queue_handoff += 1
                        self.wait_for(far_waits, "direct", src.list_index, queue)
                        before = need
                out.append(((h, s), s, before, need, uses))
        return out

    def leave(self, h: GraphResource, units: Sequence[Tuple[Any, int, Optional[int], int, FrozenSet[str]]],
              queue: str) -> None:
        """The states the pass leaves the subresources of ``units`` in (COMMON after a copy queue)."""
        st = self.state[h]
        for _, s, _, need, _ in units:
            st[s] = 0 if queue == "copy" else need

    def merge(self, h: GraphResource, changes: List[Tuple[int, Optional[int], int]], asks: List[Tuple[int, int]],
               planner: Any) -> List[Any]:
        """The transitions: one whole-resource transition when every subresource goes from one state to the
        same new one (or is requested, new to the list, in it), else one per subresource."""
        Transition = self.transition
        n = h.mips * h.array_size
        if len(changes) + len(asks) == n:
            befores = {b for _, b, _ in changes}
            needs = {nd for _, _, nd in changes} | {nd for _, nd in asks}
            if len(needs) == 1 and ((len(changes) == n and len(befores) == 1) or not changes):
                if changes:
                    planner.counts.transitions += 1
                return [Transition(h, needs.pop())]
        planner.counts.transitions += len(changes)
        out = [Transition(h, nd, s) for s, _, nd in changes] + [Transition(h, nd, s) for s, nd in asks]
        out.sort(key=lambda t: t.subresource)
        return out

    def requests_in_new_list(self, plan: Any, planner: Any) -> List[Any]:
        """The requests of a pass that starts a new command list: every subresource it uses, new to the list."""
        Transition = self.transition
        out: List[Any] = []
        for h in plan.pass_.uses:
            tracked = h in self.tracked
            requests = new_list_requests(plan.pass_, h, Transition, tracked)
            if tracked:
                planner.requested_in_list.update((h, t.subresource) for t in requests)
            out += requests
        return out


def _end_state(alive: Sequence[PassDecl], h: GraphResource, flags: Any) -> Tuple[Optional[int], Dict[int, List[int]]]:
    """The one state tracked transient ``h`` can end each execution in, and per pass order the subresources that
    pass moves there after its work. Each subresource ends in the state its last use leaves (the first-use
    initialisation's for those no pass uses; COMMON for every one after a copy-queue use, rule 5); when these
    differ, the state most of them end in, each other one moved there after the last pass that uses ``h`` at or
    after that subresource's last use, on that use's queue (so the move cannot overtake it), and whose queue may
    leave its state and enter that one. (None, {}): no
    such state (a subresource left in RENDER_TARGET by the direct queue and moves only a compute queue could make)."""
    n = h.mips * h.array_size
    users = [(order, p) for order, p in enumerate(alive) if h in p.uses]
    end: List[Optional[int]] = [None] * n
    last = [-1] * n
    if users and first_use_init(h, users[0][1], flags):
        end = [DEPTH_WRITE_STATE if flags.depth_stencil else RENDER_TARGET_STATE] * n
        last = [users[0][0]] * n
    for order, p in users:
        if p.queue == "copy":
            end, last = [0] * n, [order] * n
            continue
        for subs, need, _ in subresource_requests(p, h):
            for s in subs:
                end[s], last[s] = need, order
    counts = Counter(x for x in end if x is not None)
    if len(counts) <= 1:
        return (next(iter(counts)) if counts else 0), {}
    for state, _ in counts.most_common():
        moves: Dict[int, List[int]] = {}
        for s, x in enumerate(end):
            if x is None or x == state:
                continue
            # the mover runs on the queue of the subresource's last use (or its first-use initialisation), so
            # the move is ordered after that use: a move on another queue could overtake a read still running there
            last_queue = alive[last[s]].queue if last[s] >= 0 else None
            mover = next((o for o, p in reversed(users) if o >= last[s] and (last_queue is None or p.queue == last_queue)
                          and not (x | state) & ~QUEUE_STATES[p.queue]), None)
            if mover is None:
                break
            moves.setdefault(mover, []).append(s)
        else:
            return state, moves
    return None, {}


def planner_rt_or_ds(planner: Any, h: GraphResource) -> int:
    """The state the graph's first-use clear leaves ``h`` in."""
    return DEPTH_WRITE_STATE if planner.lifetimes[h].flags.depth_stencil else RENDER_TARGET_STATE


# ------------------------------------------------------------------------------------------------ validation
# CommandList methods whose view of a texture is narrower than the whole: argument -> (mip keyword and
# position, its default (None: every mip), slice keyword and position, its default (None: every slice)).
_VIEW_ARGS: Dict[str, Tuple[Optional[Tuple[str, int]], Optional[int], Optional[Tuple[str, int]], Optional[int]]] = {
    "set_render_targets": (("mip", -1), 0, None, None),
    "set_shader_resource_view": (("mip", -1), None, None, None),
    "set_unordered_access_view": (("mip", -1), 0, None, None),
    "clear_render_target": (("mip", -1), 0, ("array_slice", -1), None),
    "clear_depth_stencil": (("mip", -1), 0, ("array_slice", -1), 0),
    "upload": (("mip", 2), 0, ("array_slice", 3), 0),
    "copy_from_upload": (("mip", 2), 0, ("array_slice", 3), 0),
    "discard_resource": (("mip", -1), None, ("array_slice", -1), None),
}


# CommandList methods naming one subresource (mip + array_slice * mips) per argument: (method, argument) ->
# (keyword, its default)
_SUBRESOURCE_ARGS: Dict[Tuple[str, str], Tuple[str, int]] = {
    ("resolve", "dst"): ("dst_subresource", 0),
    ("resolve", "src"): ("src_subresource", 0),
}


def _arg(args: Tuple[Any, ...], kw: Mapping[str, Any], spec: Optional[Tuple[str, int]], default: Optional[int]) -> Any:
    if spec is None:
        return default
    name, pos = spec
    if name in kw:
        return kw[name]
    if 0 <= pos < len(args):
        return args[pos]
    return default


def touched(method: str, h: GraphResource, args: Tuple[Any, ...], kw: Mapping[str, Any],
            argument: str = "") -> FrozenSet[int]:
    """The subresources of ``h`` (passed as ``argument``) that CommandList ``method`` called with ``args``/``kw``
    touches (every one for a method that takes the whole resource)."""
    one = _SUBRESOURCE_ARGS.get((method, argument))
    if one is not None:
        return frozenset((int(kw.get(one[0], one[1])),))
    spec = _VIEW_ARGS.get(method)
    mips, slices = range(h.mips), range(h.array_size)
    if spec is not None:
        m = _arg(args, kw, spec[0], spec[1])
        s = _arg(args, kw, spec[2], spec[3])
        if m is not None:
            mips = range(int(m), int(m) + 1)
        if s is not None:
            slices = range(int(s), int(s) + 1)
    return frozenset(m + s * h.mips for s in slices for m in mips)


def check_touched(pass_name: str, op: str, h: GraphResource, subs: FrozenSet[int], roles: Tuple[str, ...],
                  declared: Mapping[int, FrozenSet[str]]) -> None:
    """Validation mode: each subresource ``op`` touches is declared by the pass in a use of ``roles``."""
    for s in sorted(subs):
        got = declared.get(s)
        if got is None:
            raise GraphError(f"pass {pass_name!r}: {op} uses subresource {subresource_name(h, s)!r}, which the pass did "
                             f"not declare (declared: {', '.join(subresource_name(h, x) for x in sorted(declared))}; "
                             "bind the declared mip with mip=k)")
        if got.isdisjoint(roles):
            raise GraphError(f"pass {pass_name!r}: {op} uses subresource {subresource_name(h, s)!r} as {'/'.join(roles)}, "
                             f"but the pass declared it as {'/'.join(sorted(got))}")


def declared_subresources(p: PassDecl) -> Dict[GraphResource, Dict[int, FrozenSet[str]]]:
    """Per resource the pass declares through views: subresource -> its declared uses."""
    out: Dict[GraphResource, Dict[int, FrozenSet[str]]] = {}
    for h, views in p.subresources.items():
        d = out[h] = {}
        for v in views:
            for s in v.view.subresources():
                d[s] = v.uses
    return out


__all__ = ["split_views", "target_mip", "SubresourcePlanner", "tracked_resources", "touched", "check_touched",
           "declared_subresources", "ALL", "DS", "READ", "RT"]
