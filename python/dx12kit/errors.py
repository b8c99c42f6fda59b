"""Exception classes of dx12kit.

Every error dx12kit raises derives from :class:`Dx12Error`. Where a built-in exception has the
same meaning, the class also derives from it, so ``except ValueError`` and ``except MemoryError``
keep working:

- :class:`InvalidArgumentError` (also ``ValueError``): bad size, format, index, alignment...
- :class:`UseAfterFreeError`: an object or allocation used after it was freed or closed.
- :class:`DeviceClosedError` (a ``UseAfterFreeError``): a device, or an object of it, used after ``Device.close()``.
- :class:`OutOfMemoryError` (also ``MemoryError``): a heap, page or budget is exhausted.
- :class:`DeviceError`: a D3D12 call failed; carries ``hresult`` and ``hresult_name``.
- :class:`ShaderCompileError`: HLSL did not compile; carries the compiler's messages.
- :class:`ResourceStateError`: validation found a resource in the wrong state.
- :class:`WaitTimeoutError` (also the built-in ``TimeoutError``): a wait's ``timeout=`` expired.
- :class:`ForkedDeviceError`: a device used in a process forked after it was created.

This module imports nothing native: the C++ core translates its errors into these classes in one
table (``cpp/bindings/ExceptionTranslation.cpp``).
"""
from __future__ import annotations

from typing import Any, List

__all__ = [
    "Dx12Error",
    "InvalidArgumentError",
    "UseAfterFreeError",
    "DeviceClosedError",
    "OutOfMemoryError",
    "DeviceError",
    "ShaderCompileError",
    "CompileMessages",
    "ResourceStateError",
    "WaitTimeoutError",
    "ForkedDeviceError",
]


class Dx12Error(Exception):
    """Base class of every dx12kit error."""


class InvalidArgumentError(Dx12Error, ValueError):
    """An argument was out of range, of the wrong type or shape, or not supported."""


class UseAfterFreeError(InvalidArgumentError):
    """An object or allocation was used after it was freed, closed or destroyed."""


class DeviceClosedError(UseAfterFreeError):
    """A device, or one of its queues, command lists, resources or pipelines, was used after
    ``Device.close()`` (or the end of its ``with dx12kit.Device() as dev:`` block)."""


class OutOfMemoryError(Dx12Error, MemoryError):
    """A heap, allocator page or memory budget has no room for the request."""


class DeviceError(Dx12Error):
    """A D3D12 call failed.

    Attributes:
        hresult: the HRESULT as a signed 32-bit integer.
        hresult_name: its symbolic name, for example ``"E_INVALIDARG"``.
    """

    def __init__(self, message: str, hresult: int = -1, hresult_name: str = "E_FAIL") -> None:
        super().__init__(message)
        self.hresult = hresult
        self.hresult_name = hresult_name


class CompileMessages(list):  # type: ignore[type-arg]
    """The list of a :class:`ShaderCompileError`'s messages; also reads as text.

    A list of ``dx12kit.CompileMessage``; ``str()`` gives one ``file:line:column: ...`` line per
    message, and ``"text" in messages`` / ``messages.splitlines()`` work on that text, as when
    ``messages`` was the compiler's output string.
    """

    def __str__(self) -> str:
        return "\n".join(str(m) for m in self)

    def splitlines(self) -> List[str]:
        """The messages as lines of text, as ``str(self).splitlines()``."""
        return str(self).splitlines()

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            return item in str(self)
        return list.__contains__(self, item)


class ShaderCompileError(Dx12Error):
    """HLSL failed to compile (or the compiler hung, or returned invalid bytecode).

    Attributes:
        messages: the errors and warnings, each a ``dx12kit.CompileMessage`` with ``file``,
            ``line``, ``column``, ``severity``, ``code`` and ``text``, mapped to the user's files
            (``str()`` of the exception shows the first few).
        fixme: the compiler's internal log lines (vkd3d ``fixme:``/``err:``), kept apart.
        output: other compiler output that is not a located message.
    """

    def __init__(self, message: str, messages: Any = ()) -> None:
        super().__init__(message)
        self.messages = CompileMessages(messages if not isinstance(messages, str) else ([messages] if messages else []))
        self.fixme: List[str] = []
        self.output: str = ""


class ResourceStateError(Dx12Error):
    """A resource was not in the state an operation needs (validation mode)."""


class WaitTimeoutError(Dx12Error, TimeoutError):
    """A wait for the GPU (``CommandQueue.wait``, ``flush``, ``read_buffer``, ``read_texture`` with
    ``timeout=``) did not finish in time. The work is still queued; waiting again is allowed."""


class ForkedDeviceError(Dx12Error):
    """A device was used in a process forked (``os.fork``, multiprocessing's ``fork`` start method)
    after the device was created. The child's copy of a device is unusable: the threads that run
    its GPU work exist only in the parent. Create devices in the child itself, and start worker
    processes with multiprocessing's ``spawn`` or ``forkserver`` start method. The child's exit
    never waits for the parent's GPU work, and never releases the parent's device."""
