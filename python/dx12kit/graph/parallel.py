"""Parallel recording (``RenderGraph(..., threads=N)``): each command list of the record plan split into up
to N consecutive parts (:func:`.bake.split_list`), every part of every list recorded into a command list of
its own on a pool of N worker threads, and the parts submitted in order: one ``execute`` per planned list
(its parts together, in pass order) on its queue, with the same GPU waits as one thread.

dx12kit's command lists are made for this: one thread records a list, many lists may be recorded at once,
each recording call takes the list's own lock, and each list has its own state tracker, descriptor staging
and upload memory; ``execute`` resolves the parts' first states in submission order. The barriers are those
of one thread: a part's list requests each resource it uses at its first use there (a request whose state is
already the one asked for records nothing). What does not run in parallel is Python: a pass's ``record`` holds
the GIL, and dx12core releases it only in calls long enough to pay for it (``resource_barriers`` with many
barriers, ``draw_many`` / ``dispatch_many`` with many rows, big uploads, ``execute``, waits). So N threads help
when the recording is mostly such calls; with many small Python calls they cost a little more than one
(measured in the render-graph guide). Passes' ``record`` functions must then be safe to call from another
thread and concurrently with each other (no shared mutable state without a lock).
"""
from __future__ import annotations

import time
import weakref
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Dict, List, Mapping, Optional, Tuple

from .bake import RecordPlan, execute_list, finish
from .model import GraphError, GraphResource

MAX_THREADS = 64


def check_threads(value: Any) -> int:
    """``RenderGraph``'s ``threads`` argument checked: an int from 1 to :data:`MAX_THREADS`."""
    if value.__class__ is not int:
        raise TypeError(f"RenderGraph: threads must be an int, not {type(value).__name__}")
    if not 1 <= value <= MAX_THREADS:
        raise GraphError(f"RenderGraph: threads must be 1..{MAX_THREADS}, got {value}")
    return int(value)


def _record(run: Any, cl: Any, res: Mapping[GraphResource, Any]) -> float:
    """Records one part on a worker; returns the thread's CPU seconds spent."""
    t0 = time.thread_time()
    run(cl, res)
    return time.thread_time() - t0


class ParallelSubmitter:
    """The worker threads of one graph, and the submission of an execution recorded on them.

    Attributes:
        threads: the number of workers.
        last_timing: the last execution's recording: ``wall_ms`` (from the first part handed out to the last
            submitted), ``cpu_ms`` (per part: its worker's CPU time recording it), ``parts``.
    """

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="render graph recorder")
        self._finalizer = weakref.finalize(self, self._pool.shutdown, wait=False)
        self.last_timing: Dict[str, Any] = {}

    def close(self) -> None:
        """Stops the workers (also done when the submitter is dropped)."""
        self._finalizer()

    def submit(self, plan: RecordPlan, res: Mapping[GraphResource, Any], previous_direct_value: int) -> int:
        """Records and submits one execution (what :func:`.bake.submit` does with one thread).

        Every part of every list is handed to the workers at once; list ``i`` is submitted as soon as its parts
        are recorded and lists before it submitted, while later ones are still being recorded.

        Raises:
            whatever a pass's ``record`` raised (the first in submission order), once every part handed out has
            finished; the lists before the failing one are submitted, as with one thread.
        """
        t0 = time.perf_counter()
        pending: List[Tuple[List[Any], List["Future[float]"]]] = []
        for lst in plan.lists:
            parts = lst.parts or ((lst.run, lst.source),)
            cls = [lst.queue.command_list() for _ in parts]
            pending.append((cls, [self._pool.submit(_record, run, cl, res) for (run, _), cl in zip(parts, cls)]))
        values: List[int] = []
        cpu: List[float] = []
        error: Optional[BaseException] = None
        for lst, (cls, futures) in zip(plan.lists, pending):
            for f in futures:
                e = f.exception()
                if e is not None and error is None:
                    error = e
                elif e is None:
                    cpu.append(f.result())
            if error is not None:
                continue   # waits for every part handed out, then raises
            values.append(execute_list(plan, lst, cls, values, previous_direct_value))
        if error is not None:
            raise error
        self.last_timing = {"wall_ms": (time.perf_counter() - t0) * 1e3, "cpu_ms": [c * 1e3 for c in cpu],
                            "parts": len(cpu)}
        return finish(plan, values)
