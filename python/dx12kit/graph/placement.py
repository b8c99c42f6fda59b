"""Stage 4, physical resources and aliases: where each transient lies in the graph's memory block,
which transients are one physical resource, and who takes bytes over from whom.

Each transient gets a size and alignment (from the device, through an ``AllocationInfoFn``). With
aliasing, transients of one description (kind, size, format, mips, slices, samples and flags) whose
lifetimes do not overlap are one *physical resource*: the later one reuses the earlier one's resource,
with a plain transition and no aliasing barrier (memory does not change hands). Then each physical
resource gets an offset: packed by lifetime (from its first member's first pass to its last member's
last), largest first at the lowest aligned offset free for its whole lifetime, so physical resources
whose lifetimes do not overlap share bytes whatever their formats (``aliasing=False``: each transient
after the other, none shared). When the physical resources, each in bytes of its own, need at most
:data:`SPARE_BARRIERS_RATIO` of the unaliased bytes, they are placed so instead: no memory changes hands
between physical resources, so no aliasing barrier (bytes changing hands cost one each way per
execution). Multisampled transients are placed like the others (the block is a heap of 4 MiB alignment,
as D3D12 requires of heaps holding MSAA textures, and each offset a multiple of the texture's alignment),
so they share bytes with transients of other descriptions too. Then a sweep in order of first use finds, for each transient, the previous occupants of its
bytes: whose work it must wait for, and (when they are another physical resource) whom its aliasing
barrier names.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import AbstractSet, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from .lifetimes import Lifetimes
from .model import GraphError, GraphResource, ResourceFlags


@dataclass(frozen=True)
class AllocationInfo:
    """The bytes and alignment a placed resource needs."""

    size: int
    alignment: int


AllocationInfoFn = Callable[[GraphResource, ResourceFlags], AllocationInfo]


@dataclass(eq=False)
class Placement:
    """Where one transient lies (compared by identity).

    Attributes:
        resource: the transient.
        offset: its first byte in the graph's memory block.
        size: its bytes.
        alignment: the alignment its offset needs.
        first: the order of the first alive pass using it.
        last: the order of the last pass its bytes are held for.
        flags: what it is created for.
        physical: the transient whose real resource it uses (itself, or the first transient of its
            description using the same physical resource).
    """

    __slots__ = ("resource", "offset", "size", "alignment", "first", "last", "flags", "physical")
    resource: GraphResource
    offset: int
    size: int
    alignment: int
    first: int
    last: int
    flags: ResourceFlags
    physical: GraphResource


@dataclass(frozen=True)
class Succession:
    """Who takes bytes over from whom within one execution (the memory is used cyclically: the first
    users of bytes in an execution take them over from their last users in the previous one).

    Attributes:
        barrier_before: for each transient whose physical resource takes over bytes another one used, the
            resource its aliasing barrier names (``None``: several, a barrier on any).
        previous_users: for each placed transient, the occupants of its bytes just before it in this
            execution (those whose work it must wait for; earlier ones are ordered before them).
    """

    barrier_before: Mapping[GraphResource, Optional[GraphResource]]
    previous_users: Mapping[GraphResource, Tuple[GraphResource, ...]]


@dataclass(frozen=True)
class MemoryLayout:
    """The physical-resources stage's result.

    Attributes:
        placements: each transient used by an alive pass, in order of first use.
        block_bytes: the size of the memory block holding the transients (multisampled ones too).
        unaliased_bytes: the bytes the transients would take each in memory of its own.
        succession: who takes bytes over from whom.
    """

    placements: Mapping[GraphResource, Placement]
    block_bytes: int
    unaliased_bytes: int
    succession: Succession


# A layout in which no bytes change hands between physical resources (no aliasing barriers) is preferred
# to the tightest packing when it needs at most this share of the unaliased bytes (the target for
# an aliased frame).
SPARE_BARRIERS_RATIO = 0.85


def align(x: int, a: int) -> int:
    """``x`` rounded up to a multiple of ``a``."""
    return (x + a - 1) // a * a


@dataclass(frozen=True)
class Packing:
    """Where :func:`pack` puts the transients.

    Attributes:
        offsets: each transient's offset in the block.
        block_bytes: the bytes of memory needed (the peak, 4 KiB aligned).
    """

    offsets: Mapping[GraphResource, int]
    block_bytes: int


class _LifetimeIndex:
    """The placed transients' byte ranges, found by lifetime: a segment tree over pass orders where each
    range is stored at the O(log n) nodes covering its lifetime, and each node counts the ranges stored in
    its subtree (so a query visits only nodes that hold something). A query returns the byte ranges of
    every transient whose lifetime overlaps the one asked for (a range may come more than once)."""

    __slots__ = ("leaves", "ranges", "count")

    def __init__(self, orders: int) -> None:
        leaves = 1
        while leaves < orders:
            leaves *= 2
        self.leaves = leaves
        self.ranges: List[List[Tuple[int, int]]] = [[] for _ in range(2 * leaves)]
        self.count = [0] * (2 * leaves)

    def _add(self, node: int, r: Tuple[int, int]) -> None:
        self.ranges[node].append(r)
        count = self.count
        while node:
            count[node] += 1
            node >>= 1

    def insert(self, first: int, last: int, r: Tuple[int, int]) -> None:
        lo, hi = first + self.leaves, last + self.leaves + 1
        while lo < hi:
            if lo & 1:
                self._add(lo, r)
                lo += 1
            if hi & 1:
                hi -= 1
                self._add(hi, r)
            lo >>= 1
            hi >>= 1

    def overlapping(self, first: int, last: int) -> List[Tuple[int, int]]:
        out: List[Tuple[int, int]] = []
        ranges, count = self.ranges, self.count
        stack = [(1, 0, self.leaves - 1)]   # node, the first and last order it covers
        while stack:
            node, lo, hi = stack.pop()
            if not count[node] or hi < first or last < lo:
                continue
            out += ranges[node]
            if lo != hi:
                mid = (lo + hi) >> 1
                stack.append((2 * node, lo, mid))
                stack.append((2 * node + 1, mid + 1, hi))
        return out


def pack(items: Sequence[Placement], aliasing: bool = True) -> Packing:
    """Offsets for ``items`` (their own offsets are ignored): each at the lowest aligned offset free for
    its whole lifetime, largest first; without ``aliasing``, each after the other, the most aligned first
    (then in declaration order), so that no padding is left between them beyond each one's own alignment
    (the block is then at most the unaliased bytes, the sum of the sizes each aligned to its alignment).

    The byte ranges already placed are looked up by lifetime in a segment tree over pass orders
    (:class:`_LifetimeIndex`), so each placement costs O(log n) plus the transients alive with it, not a
    scan of every placed one.
    """
    offsets: Dict[GraphResource, int] = {}
    top = 0
    if not aliasing:
        for it in sorted(items, key=lambda x: (-x.alignment, x.resource.index)):
            offsets[it.resource] = align(top, it.alignment)
            top = offsets[it.resource] + it.size
        return Packing(offsets, align(top, 4096) if top else 0)
    if not items:
        return Packing(offsets, 0)
    index = _LifetimeIndex(max(it.last for it in items) + 1)
    for it in sorted(items, key=lambda x: (-x.size, x.first, x.resource.index)):
        busy = index.overlapping(it.first, it.last)
        busy.sort()
        off, size, a = 0, it.size, it.alignment
        for b0, b1 in busy:
            if off + size <= b0:
                break
            if b1 > off:
                off = align(b1, a)
        offsets[it.resource] = off
        index.insert(it.first, it.last, (off, off + size))
        if off + size > top:
            top = off + size
    return Packing(offsets, align(top, 4096) if top else 0)


def _latest_of(got: Sequence[Placement]) -> Optional[GraphResource]:
    """The resource an aliasing barrier names after the occupants ``got``: the one that lived last, or
    ``None`` when several did."""
    latest = max(o.last for o in got)
    top = [o for o in got if o.last == latest]
    return top[0].resource if len(top) == 1 else None


def succession(placed: Sequence[Placement]) -> Succession:
    """Who takes bytes over from whom, by a sweep over the transients in order of first use, keeping the
    memory as segments (between the transients' start and end offsets) each holding its latest occupant.
    A transient that is the first user of its bytes takes them over from their last user of the
    previous execution."""
    bounds = sorted({x.offset for x in placed} | {x.offset + x.size for x in placed})
    at = {v: i for i, v in enumerate(bounds)}
    occ: List[Optional[Placement]] = [None] * max(0, len(bounds) - 1)   # latest occupant of each segment
    got_of: Dict[GraphResource, List[Placement]] = {}
    for a in sorted(placed, key=lambda x: (x.first, x.offset)):
        got: List[Placement] = []   # the previous occupants (of its physical resource too: whose work it waits for)
        for i in range(at[a.offset], at[a.offset + a.size]):
            o = occ[i]
            if o is not None and o not in got:
                got.append(o)
            occ[i] = a
        got_of[a.resource] = got
    barrier_before: Dict[GraphResource, Optional[GraphResource]] = {}
    for a in placed:
        got = list(got_of[a.resource])
        if not got:   # wrap around: the final occupants of its bytes, from the previous execution
            for i in range(at[a.offset], at[a.offset + a.size]):
                o = occ[i]
                if o is not None and o is not a and o not in got:
                    got.append(o)
        others = [o for o in got if o.physical is not a.physical]   # memory changes hands
        if others:
            barrier_before[a.resource] = _latest_of(others)
    return Succession(barrier_before=barrier_before,
                      previous_users={h: tuple(o.resource for o in got) for h, got in got_of.items()})


def _description(pl: Placement) -> Tuple[object, ...]:
    """What makes two transients interchangeable as one real resource."""
    h = pl.resource
    return (h.kind, h.size, h.width, h.height, int(h.format or 0), h.mips, h.array_size, h.samples, pl.flags,
            pl.size, pl.alignment)


def share_physical(placed: Sequence[Placement], alone: AbstractSet[GraphResource] = frozenset()) -> Dict[GraphResource, List[Placement]]:
    """Transients of one description whose lifetimes do not overlap, as one physical resource each
    (in order of first use, each to the physical resource freed latest before it: interval partitioning,
    so the fewest physical resources). Returns each physical resource's members, by its first member.
    Transients in ``alone`` (those some pass declares through subresource views, whose states the barrier
    stage keeps per subresource under their own handle) keep a physical resource of their own."""
    groups: Dict[Tuple[object, ...], List[List[Placement]]] = {}
    for pl in sorted(placed, key=lambda x: (x.first, x.resource.index)):
        key = _description(pl) + ((pl.resource.index,) if pl.resource in alone else ())
        slots = groups.setdefault(key, [])
        best: Optional[List[Placement]] = None
        for slot in slots:
            if slot[-1].last < pl.first and (best is None or slot[-1].last > best[-1].last):
                best = slot
        if best is None:
            slots.append([pl])
        else:
            best.append(pl)
    return {slot[0].resource: slot for slots in groups.values() for slot in slots}


def _check_multisampled(h: GraphResource, flags: ResourceFlags) -> None:
    if h.samples > 1 and (flags.uav or not (flags.render_target or flags.depth_stencil)):
        raise GraphError(f"transient {h.name!r} is multisampled: passes may use it as a render target, depth "
                         "buffer, shader resource or resolve source, and one must render to it (no UAV)")


def place(lifetimes: Lifetimes, allocation_info: AllocationInfoFn, aliasing: bool = True,
          alone: AbstractSet[GraphResource] = frozenset(), spare_barriers: bool = True) -> MemoryLayout:
    """The physical-resources stage.

    Args:
        lifetimes: the lifetimes stage's result.
        allocation_info: the size and alignment of a transient created with the given flags.
        aliasing: let transients whose lifetimes do not overlap share bytes.
        alone: transients that never share a physical resource (they may still share bytes).
        spare_barriers: when the physical resources, each in bytes of its own, need at most
            :data:`SPARE_BARRIERS_RATIO` of the unaliased bytes, place them so (no memory changes hands,
            no aliasing barrier) rather than packed to the lowest peak. ``False``: always the lowest peak
            (the ``"memory"`` schedule).

    Returns:
        The placements, the block's size and who takes bytes over from whom.

    Raises:
        GraphError: a multisampled transient used as a UAV, or never rendered to.
    """
    placements: Dict[GraphResource, Placement] = {}
    for h, life in lifetimes.of.items():
        _check_multisampled(h, life.flags)
        info = allocation_info(h, life.flags)
        placements[h] = Placement(h, 0, info.size, info.alignment, life.first, life.last, life.flags, h)
    placed = list(placements.values())   # every transient, multisampled ones too, is placed in the block
    unaliased = sum(align(x.size, x.alignment) for x in placed)
    if aliasing:
        physical = share_physical(placed, alone)
        spans = [Placement(p, 0, m[0].size, m[0].alignment, m[0].first, max(x.last for x in m), m[0].flags, p)
                 for p, m in physical.items()]
        packing = pack(spans, aliasing)
        for p, members in physical.items():
            for x in members:
                x.offset = packing.offsets[p]
                x.physical = p
        succ = succession(placed)
        if spare_barriers and succ.barrier_before:
            # Bytes changing hands cost an aliasing barrier each way per execution: when physical resources
            # each in bytes of their own are small enough, they are taken instead (no aliasing barrier).
            own = pack(spans, aliasing=False)
            if own.block_bytes <= SPARE_BARRIERS_RATIO * unaliased:
                packing = own
                for p, members in physical.items():
                    for x in members:
                        x.offset = own.offsets[p]
                succ = succession(placed)
    else:
        packing = pack(placed, aliasing)
        for x in placed:
            x.offset = packing.offsets[x.resource]
        succ = succession(placed)
    return MemoryLayout(placements=placements, block_bytes=packing.block_bytes, unaliased_bytes=unaliased,
                        succession=succ)
