"""The device side of the physical-resources stage: how big a placed transient is (asked once per
description of :meth:`Device.texture_allocation_info` / :meth:`Device.buffer_allocation_info`, dx12kit's
memory layer's answer from GetResourceAllocationInfo, without creating anything), and the real transients
of a layout, placed in one memory block."""
from __future__ import annotations

from typing import Any, Dict, Hashable, Mapping, MutableMapping, Set, Tuple

from .. import dx12core as _core
from ..dx12core import Device
from ..errors import InvalidArgumentError
from .model import GraphResource, Resource, ResourceFlags
from .placement import AllocationInfo, AllocationInfoFn, MemoryLayout

_INFO_CACHE: Dict[Tuple[Any, ...], AllocationInfo] = {}


def allocation_info(device: Device, h: GraphResource, flags: ResourceFlags) -> AllocationInfo:
    """Size and alignment of ``h`` placed with ``flags`` on ``device`` (cached per description)."""
    if h.kind == "buffer":
        desc: Tuple[Any, ...] = (id(device), "b", h.size, flags.uav)
    else:
        desc = (id(device), "t", h.width, h.height, int(h.format or 0), h.mips, h.array_size, h.samples, flags)
    hit = _INFO_CACHE.get(desc)
    if hit is not None:
        return hit
    if h.kind == "buffer":
        a = device.buffer_allocation_info(h.size, uav=flags.uav)
    else:
        a = device.texture_allocation_info(h.width, h.height, h._texture_format(), mip_levels=h.mips,
                                           array_size=h.array_size, render_target=flags.render_target,
                                           depth_stencil=flags.depth_stencil, uav=flags.uav, sample_count=h.samples)
    size, align = int(a["size"]), int(a["alignment"])
    info = _INFO_CACHE[desc] = AllocationInfo(size, align)
    return info


def device_allocation_info(device: Device) -> AllocationInfoFn:
    """The :data:`AllocationInfoFn` of ``device`` for :func:`.placement.place`."""
    return lambda h, flags: allocation_info(device, h, flags)


def layout_key(layout: MemoryLayout) -> Hashable:
    """What the real transients depend on: equal keys, the same resources may be kept."""
    return (layout.block_bytes,) + tuple((h.index, pl.offset, pl.flags, pl.physical.index) for h, pl in
                                         sorted(layout.placements.items(), key=lambda kv: kv[0].index))


def create_transients(device: Device, layout: MemoryLayout, real: MutableMapping[GraphResource, Resource]) -> Any:
    """Creates the real transients of ``layout`` into ``real``: placed in one new memory block
    (multisampled ones too); transients sharing a physical resource get the same one (named after
    the first of them).

    Returns:
        The memory block (None when nothing is placed).
    """
    # Offsets are multiples of each transient's alignment from the block's start (4 MiB for an MSAA
    # texture without small MSAA alignment): the block starts at a multiple of the largest.
    alignment = max([65536] + [pl.alignment for pl in layout.placements.values()])
    memory = (device.allocate_memory(layout.block_bytes, alignment=alignment, name="render graph transients")
              if layout.block_bytes else None)
    for h, pl in layout.placements.items():
        f = pl.flags
        if pl.physical is not h:   # one physical resource with an earlier transient of its description
            continue
        if h.kind == "texture":
            real[h] = device.create_texture2d(h.width, h.height, h._texture_format(), mip_levels=h.mips,
                                              array_size=h.array_size, render_target=f.render_target,
                                              depth_stencil=f.depth_stencil, uav=f.uav, name=h.name,
                                              memory=memory, offset=pl.offset, sample_count=h.samples)
        else:
            real[h] = device.create_buffer(h.size, uav=f.uav, name=h.name, memory=memory, offset=pl.offset)
    for h, pl in layout.placements.items():
        if pl.physical is not h:
            real[h] = real[pl.physical]
    return memory


def _overlapping(layout: MemoryLayout) -> Set[GraphResource]:
    """The placed physical transients whose bytes another placed physical transient of ``layout`` shares: those
    with a member taking bytes over from another physical resource (``succession.barrier_before``; every
    physical resource sharing bytes has one, by the sweep's wrap-around)."""
    return {layout.placements[h].physical for h in layout.succession.barrier_before}


def record_priming(cl: Any, layout: MemoryLayout, start_states: Mapping[GraphResource, int],
                   real: Mapping[GraphResource, Resource]) -> int:
    """Records into ``cl`` (a direct-queue list) what :func:`prime_states` submits. Per placed texture, in
    order of first use: when its bytes are shared, an aliasing barrier activating it (D3D12: a placed
    resource taking over bytes is named as ResourceAfter; ``before`` is None, any resource: which one
    used the bytes last is not known here when the transients are kept from an earlier graph); a render
    target or depth buffer is then initialised by a discard (D3D12 requires a Clear, DiscardResource or
    full copy of a placed render target or depth buffer before other operations, the transition to the
    discard's state excepted); last the transition to its start state.

    Returns:
        The number of textures primed.
    """
    shared = _overlapping(layout)
    n = 0
    for h, s in start_states.items():
        pl = layout.placements.get(h)
        if h not in real or pl is None or h.kind != "texture":
            continue
        r = real[h]
        if h in shared:
            try:   # the state it is in (COMMON when new): no detour through COMMON before the list
                park = int(r.global_state())
            except InvalidArgumentError:   # subresources differ: the list puts it in COMMON first
                park = 0
            cl.resource_barriers(_core.BarrierBatch([("aliasing", None, r, park)]))
        if pl.flags.render_target or pl.flags.depth_stencil:
            cl.discard_resource(r)
        cl.transition_barrier(r, s)
        n += 1
    return n


def prime_states(device: Device, layout: MemoryLayout, start_states: Mapping[GraphResource, int],
                 real: Mapping[GraphResource, Resource]) -> int:
    """Puts each placed physical transient in the state an execution of the plan starts it in (on the
    direct queue, after the work submitted before; each activated and initialised as D3D12 requires, see
    :func:`record_priming`), so that the graph's aliasing barriers, which name
    that state, never need dx12kit to move a transient there before a list: doing so would activate it
    there, before the resource whose bytes it takes is done with them. Nothing a transient holds is
    kept from one execution to the next, so activating them here in turn loses nothing.

    Returns:
        The direct queue's fence value after it (0: nothing to do); the next execution's compute and
        copy lists wait for it.
    """
    q = device.queue("direct")
    cl = q.command_list(name="render graph: transient states")
    if not record_priming(cl, layout, start_states, real):
        return 0
    return q.execute(cl)
