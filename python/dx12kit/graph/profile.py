"""GPU time per pass (``RenderGraph(..., profile=True)``): a timestamp before each pass's first barrier and
one after its last work, in one timestamp heap per queue type, read back when :meth:`RenderGraph.stats`
asks.

A pass's GPU time is its end timestamp minus its begin timestamp (ticks of its queue's
``timestamp_frequency``), so it holds the pass's barriers, clears and work. The frame's GPU time is the last
timestamp minus the first, over every queue (D3D12 gives all queues of a device one GPU clock; vkd3d writes
Vulkan timestamps of one device). Copy-queue passes are timed only when the device has copy-queue timestamps
(``Device.query_support["copy_queue_timestamps"]``; vkd3d 1.2 has not): otherwise their time is ``None`` and
``gpu_unmeasured`` says why.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..dx12core import Device
from ..enums import QueryHeapKind, QueueKind
from .barriers import BarrierPlan

# The heap kind each queue type writes timestamps into.
_HEAP_KIND = {"direct": "timestamp", "compute": "timestamp", "copy": "copy_queue_timestamp"}
COPY_UNSUPPORTED = ("copy-queue timestamps are not supported on this device (Device.query_support"
                    "['copy_queue_timestamps'] is False: vkd3d 1.2 cannot create a 'copy_queue_timestamp' heap)")


@dataclass(frozen=True)
class PassTimer:
    """Where one alive pass's two timestamps go: ``heap`` indices ``index`` (begin) and ``index + 1`` (end)."""

    heap: Any
    index: int


class Profiler:
    """The timestamp heaps of one compile's passes, and the reading of their last execution.

    Args:
        device: the device.
        barriers: the barriers stage's result (the passes by command list and queue).
    """

    def __init__(self, device: Device, barriers: BarrierPlan) -> None:
        self.device = device
        copy_ok = bool(device.query_support.get("copy_queue_timestamps", False))
        counts: Dict[str, int] = {}
        self.names: List[str] = []                  # unique pass names, by order
        self.queue_of: List[str] = []
        slots: List[Optional[Tuple[str, int]]] = []   # heap kind and index of each pass, by order
        self.unmeasured: Dict[str, str] = {}
        seen: Dict[str, int] = {}
        for pb in barriers.passes:
            name = pb.pass_.name
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name} #{seen[name]}"
            self.names.append(name)
            q = pb.pass_.queue
            self.queue_of.append(q)
            if q == "copy" and not copy_ok:
                slots.append(None)
                self.unmeasured[name] = COPY_UNSUPPORTED
                continue
            kind = _HEAP_KIND[q]
            slots.append((kind, counts.get(kind, 0)))
            counts[kind] = counts.get(kind, 0) + 2
        self.heaps: Dict[str, Any] = {k: device.create_query_heap(QueryHeapKind(k), n, name=f"render graph {k}s")
                                      for k, n in counts.items()}
        self.timers: List[Optional[PassTimer]] = [None if s is None else PassTimer(self.heaps[s[0]], s[1])
                                                  for s in slots]
        self._slots = slots
        self._freq = {q: device.queue(QueueKind(q)).timestamp_frequency
                      for q in {q for q, s in zip(self.queue_of, slots) if s is not None}}

    def read(self) -> Dict[str, Any]:
        """The times of the last execution (waits for it): the ``gpu_*`` entries of ``stats()``."""
        ticks: Dict[str, Any] = {}
        for kind, heap in self.heaps.items():
            queue = self.device.queue(QueueKind("copy" if kind == "copy_queue_timestamp" else "direct"))
            ticks[kind] = queue.read_queries(heap, "timestamp")
        spans: List[Optional[Tuple[int, int, str]]] = []
        for q, s in zip(self.queue_of, self._slots):
            spans.append(None if s is None else (int(ticks[s[0]][s[1]]), int(ticks[s[0]][s[1] + 1]), q))
        return gpu_times(self.names, spans, self._freq, self.unmeasured)


def gpu_times(names: Sequence[str], spans: Sequence[Optional[Tuple[int, int, str]]], freq: Mapping[str, int],
              unmeasured: Mapping[str, str]) -> Dict[str, Any]:
    """The ``gpu_*`` stats from each pass's (begin, end, queue) ticks (``None``: not measured)."""
    measured = [s for s in spans if s is not None]
    if not measured:
        return {"gpu_ms": {n: None for n in names}, "gpu_frame_ms": None, "gpu_queue_ms": {},
                "gpu_timeline": {}, "gpu_unmeasured": dict(unmeasured)}

    def ms(ticks: int, q: str) -> float:
        return ticks * 1000.0 / freq[q]

    t0 = min(b for b, _, _ in measured)
    per_queue: Dict[str, Tuple[int, int]] = {}
    for b, e, q in measured:
        lo, hi = per_queue.get(q, (b, e))
        per_queue[q] = (min(lo, b), max(hi, e))
    q0 = measured[0][2]
    return {
        "gpu_ms": {n: (None if s is None else ms(s[1] - s[0], s[2])) for n, s in zip(names, spans)},
        "gpu_frame_ms": ms(max(e for _, e, _ in measured) - t0, q0),
        "gpu_queue_ms": {q: ms(hi - lo, q) for q, (lo, hi) in per_queue.items()},
        "gpu_timeline": {n: (ms(s[0] - t0, s[2]), ms(s[1] - t0, s[2])) for n, s in zip(names, spans) if s is not None},
        "gpu_unmeasured": dict(unmeasured),
    }
