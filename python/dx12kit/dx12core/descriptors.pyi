"""
Standalone descriptor allocators and the descriptor benchmarks (the device's own descriptors are managed for you by Device and CommandList).
"""
from __future__ import annotations
import collections.abc
import dx12kit.dx12core
import typing
__all__: list[str] = ['CpuDescriptorAllocator', 'DescriptorAllocation', 'ShaderVisibleHeap', 'measure_commit', 'measure_cpu_allocator', 'measure_dynamic_suballocation', 'stress_cpu_allocator']
class DescriptorAllocation:
    """
    Consecutive CPU descriptors from a CpuDescriptorAllocator. Freed (deferred) by free(), at the end of a with-block, or when garbage-collected.
    """
    def __bool__(self) -> bool:
        ...
    def __enter__(self) -> typing.Any:
        ...
    def __exit__(self, *args) -> None:
        ...
    def __repr__(self) -> str:
        ...
    def free(self) -> None:
        """
        Deferred free, tagged with the allocator's current serial. Freeing twice does nothing.
        """
    def handle(self, i: typing.SupportsIndex = 0) -> int:
        """
        CPU handle of descriptor i as an int.
        
        Raises:
            UseAfterFreeError: the allocation was freed.
            InvalidArgumentError: i >= count.
        """
    def handles(self) -> list[int]:
        """
        Every CPU handle of the range, as ints (raises UseAfterFreeError once freed).
        """
    @property
    def count(self) -> int:
        """
        0 once freed.
        """
    @property
    def is_null(self) -> bool:
        ...
    @property
    def page_offset(self) -> int:
        ...
class CpuDescriptorAllocator:
    """
    CPU-only descriptors of one heap type in pages of page_size, with deferred frees: a free is tagged with
    current_serial and handed out again only after release_stale_descriptors(completed >= that serial).
    Thread-safe. This is the allocator the device uses for views and samplers; one made here has its own
    pages and its own serial, which the caller advances (as the device does at each submission).
    """
    def __init__(self, device: dx12kit.dx12core.Device, heap_type: str = 'cbv_srv_uav', *, page_size: typing.SupportsIndex = 256) -> None:
        ...
    def allocate(self, count: typing.SupportsIndex = 1) -> DescriptorAllocation:
        """
        `count` consecutive descriptors (a request larger than a page gets a page of its own).
        
        Raises:
            InvalidArgumentError: count is 0.
        """
    def release_stale_descriptors(self, completed_serial: typing.SupportsIndex) -> None:
        """
        Makes every range freed with serial <= completed_serial reusable.
        """
    def stats(self) -> dict:
        """
        in_use, pages, peak, stale and capacity, in descriptors (pages: in pages).
        """
    def validate(self) -> None:
        """
        Checks every internal invariant; raises Dx12Error naming a broken one.
        """
    @property
    def current_serial(self) -> int:
        """
        The serial frees are tagged with (plays the device's last submission serial).
        """
    @current_serial.setter
    def current_serial(self, arg1: typing.SupportsIndex) -> None:
        ...
    @property
    def descriptor_size(self) -> int:
        ...
    @property
    def heap_type(self) -> str:
        ...
    @property
    def page_size(self) -> int:
        ...
class ShaderVisibleHeap:
    """
    A shader-visible descriptor heap split into a static part [0, static_count) (free list, deferred frees) and
    dynamic chunks of chunk_size (acquired, retired with a serial, free again after release_stale). The device
    owns one per type; one made here is for experiments and tests. Thread-safe.
    """
    def __init__(self, device: dx12kit.dx12core.Device, heap_type: str, num_descriptors: typing.SupportsIndex, *, static_count: typing.SupportsIndex, chunk_size: typing.SupportsIndex) -> None:
        ...
    def allocate_static(self, count: typing.SupportsIndex) -> int:
        """
        First index of `count` consecutive static descriptors.
        
        Raises:
            OutOfMemoryError: no such room.
        """
    def cpu_handle(self, index: typing.SupportsIndex) -> int:
        ...
    def free_static(self, first: typing.SupportsIndex, serial: typing.SupportsIndex) -> None:
        """
        Deferred free: reusable after release_stale(completed >= serial).
        """
    def gpu_handle(self, index: typing.SupportsIndex) -> int:
        ...
    def release_stale(self, completed_serial: typing.SupportsIndex) -> None:
        ...
    def retire_chunk(self, first: typing.SupportsIndex, serial: typing.SupportsIndex) -> None:
        ...
    def stats(self) -> dict:
        ...
    def try_acquire_chunk(self) -> typing.Any:
        """
        First heap index of a free chunk, or None when every chunk is in use or retired.
        """
    def validate(self) -> None:
        ...
    @property
    def chunk_count(self) -> int:
        ...
    @property
    def descriptor_size(self) -> int:
        ...
def measure_commit(device: dx12kit.dx12core.Device, descriptors_per_draw: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex] = [1, 8, 32], draws: typing.SupportsInt | typing.SupportsIndex = 10000, repeats: typing.SupportsInt | typing.SupportsIndex = 5) -> list:
    """
    Per draw: staging n random descriptors + CommitStagedDescriptorsForDraw, against n CopyDescriptorsSimple +
    SetGraphicsRootDescriptorTable by hand (medians over repeats, in ns; ratio = commit / direct).
    """
def measure_cpu_allocator(device: dx12kit.dx12core.Device, page_size: typing.SupportsInt | typing.SupportsIndex = 256, allocations: typing.SupportsInt | typing.SupportsIndex = 1000000, batch: typing.SupportsInt | typing.SupportsIndex = 1024, count: typing.SupportsInt | typing.SupportsIndex = 1) -> dict:
    """
    Allocate `batch` descriptors, drop them, release; repeated. Rates per second.
    """
def measure_dynamic_suballocation(device: dx12kit.dx12core.Device, chunk_size: typing.SupportsInt | typing.SupportsIndex = 256, suballocations: typing.SupportsInt | typing.SupportsIndex = 10000000, count: typing.SupportsInt | typing.SupportsIndex = 1) -> dict:
    """
    DynamicDescriptorHeap sub-allocations of `count` descriptors per second, chunk turnover included.
    """
def stress_cpu_allocator(allocator: CpuDescriptorAllocator, threads: typing.SupportsInt | typing.SupportsIndex = 4, iterations: typing.SupportsInt | typing.SupportsIndex = 20000, max_count: typing.SupportsInt | typing.SupportsIndex = 4, seed: typing.SupportsInt | typing.SupportsIndex = 1) -> dict:
    """
    Native threads allocate and free on `allocator` at once; returns allocations, duplicates (handles found live
    twice; must be 0) and peak_live.
    """
