"""Deliberate misuses of dx12kit's public API that mypy --strict must reject, each beside its correct
twin that it must accept (tests/test_typing.py).

Each misuse carries ``# type: ignore[<code>]``: under --strict (warn_unused_ignores) an ignore that
suppresses nothing is itself an error, so a misuse mypy stops catching fails the test, and the
named code says which error it must be. Not run (no test_ prefix): it only has to type-check.
"""
from __future__ import annotations

import numpy as np

import dx12kit as dx


def choices(dev: dx.Device) -> None:
    dev.queue("compute")
    dev.queue("compte")  # type: ignore[arg-type]  # misspelt name
    dev.queue(dx.QueueKind.COPY)
    dev.queue(dx.HeapType.UPLOAD)  # type: ignore[arg-type]  # a member of the wrong enum
    dev.create_buffer(256, heap="upload")
    dev.create_buffer(256, heap="uplaod")  # type: ignore[arg-type]
    dev.create_sampler(filter=dx.Filter.POINT, address="wrap")
    dev.create_sampler(filter=dx.AddressMode.WRAP, address="wrap")  # type: ignore[arg-type]
    dx.RootConstants(0, 4, visibility="pixel")
    dx.RootConstants(0, 4, visibility="pixle")  # type: ignore[arg-type]
    dev.create_pool(algorithm=dx.PoolAlgorithm.LINEAR)
    dev.create_pool(algorithm="buddy")  # type: ignore[arg-type]


def sizes(dev: dx.Device) -> None:
    dev.create_buffer(1024)
    dev.create_buffer(np.uint32(1024))
    dev.create_buffer("1024")  # type: ignore[arg-type]  # a string for a size
    dev.create_texture2d(64, 64)
    dev.create_texture2d(64.0, 64)  # type: ignore[arg-type]  # a float for a size


def results(dev: dx.Device) -> None:
    buf = dev.create_buffer(64)
    size: int = buf.size
    name: str = buf.name
    wrong: str = buf.size  # type: ignore[assignment]  # a wrong use of a result
    fence: int = dev.queue().execute(dev.queue().command_list())
    dev.queue().wait(fence)
    dev.queue().wait(str(fence))  # type: ignore[arg-type]
    buf.no_such_attribute  # type: ignore[attr-defined]
    dx.Buffer(64)  # type: ignore[call-arg]  # made by Device.create_buffer only
    del size, name, wrong


def batched(cl: dx.CommandList, rows: np.ndarray) -> None:
    cl.draw_many(3, rows, root_index=0, instance_count=2)
    cl.draw_many(3, rows, 0)  # type: ignore[call-arg]  # root_index is keyword-only
    cl.dispatch_many((1, 1, 1), rows, root_index=1)
    cl.dispatch_many((1, 1, 1), rows, root=1)  # type: ignore[call-arg]  # misspelt keyword
    cl.draw(3, instance_count=2)
    cl.draw("3")  # type: ignore[arg-type]  # counts are ints
    cl.dispatch(1.5)  # type: ignore[arg-type]
