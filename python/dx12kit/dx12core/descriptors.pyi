"""
Standalone descriptor allocators and the descriptor benchmarks (the device's own descriptors are managed for you by Device and CommandList).
"""
from __future__ import annotations
import dx12kit.dx12core
import dx12kit.enums
import typing
class DescriptorAllocation:
    """
    Consecutive CPU descriptors from a CpuDescriptorAllocator. Freed (deferred) by free(), at the end of a with-block, or when garbage-collected.
    """
    def __bool__(self) -> bool:
        ...
    def __enter__(self) -> typing.Any:
        ...
    def __exit__(self, *args: typing.Any) -> None:
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
        
        Args:
            i: the descriptor's index in the allocation.
        
        Returns:
            The CPU descriptor handle (D3D12_CPU_DESCRIPTOR_HANDLE.ptr).
        
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
        """
        True for an empty allocation (freed, or never allocated).
        """
    @property
    def page_offset(self) -> int:
        """
        Index of the first descriptor within its page.
        """
class CpuDescriptorAllocator:
    """
    CPU-only descriptors of one heap type in pages of page_size, with deferred frees: a free is tagged with
    current_serial and handed out again only after release_stale_descriptors(completed >= that serial).
    Thread-safe. This is the allocator the device uses for views and samplers; one made here has its own
    pages and its own serial, which the caller advances (as the device does at each submission).
    """
    def __init__(self, device: dx12kit.dx12core.Device, heap_type: dx12kit.enums.DescriptorHeapType | dx12kit.enums.DescriptorHeapTypeName = 'cbv_srv_uav', *, page_size: typing.SupportsIndex = 256) -> None:
        """
        A standalone CPU descriptor allocator.
        
        Args:
            device: the Device whose descriptor heaps back it.
            heap_type: a DescriptorHeapType or its name.
            page_size: descriptors per page (one D3D12 heap each).
        
        Raises:
            InvalidArgumentError: device is None or page_size is 0.
        """
    def __repr__(self) -> str:
        ...
    def allocate(self, count: typing.SupportsIndex = 1) -> DescriptorAllocation:
        """
        `count` consecutive descriptors (a request larger than a page gets a page of its own).
        
        Args:
            count: contiguous descriptors.
        
        Returns:
            A DescriptorAllocation.
        
        Raises:
            InvalidArgumentError: count is 0.
        """
    def release_stale_descriptors(self, completed_serial: typing.SupportsIndex) -> None:
        """
        Makes every range freed with serial <= completed_serial reusable.
        
        Args:
            completed_serial: the highest completed serial.
        """
    def stats(self) -> dict[str, typing.Any]:
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
        """
        Bytes between consecutive descriptors of this heap type.
        """
    @property
    def heap_type(self) -> str:
        """
        'cbv_srv_uav', 'sampler', 'rtv' or 'dsv' (a dx12kit.DescriptorHeapType value).
        """
    @property
    def page_size(self) -> int:
        """
        Descriptors per page.
        """
class ShaderVisibleHeap:
    """
    A shader-visible descriptor heap split into a static part [0, static_count) (free list, deferred frees) and
    dynamic chunks of chunk_size (acquired, retired with a serial, free again after release_stale). The device
    owns one per type; one made here is for experiments and tests. Thread-safe.
    """
    def __init__(self, device: dx12kit.dx12core.Device, heap_type: dx12kit.enums.DescriptorHeapType | dx12kit.enums.DescriptorHeapTypeName, num_descriptors: typing.SupportsIndex, *, static_count: typing.SupportsIndex, chunk_size: typing.SupportsIndex) -> None:
        """
        A standalone shader-visible descriptor heap.
        
        Args:
            device: the Device that creates the heap.
            heap_type: 'cbv_srv_uav' or 'sampler' (a DescriptorHeapType).
            num_descriptors: the heap's size.
            static_count: descriptors of the static part (allocate_static).
            chunk_size: descriptors per dynamic chunk.
        
        Raises:
            InvalidArgumentError: device is None, or sizes that do not fit.
        """
    def __repr__(self) -> str:
        ...
    def allocate_static(self, count: typing.SupportsIndex) -> int:
        """
        First index of `count` consecutive static descriptors.
        
        Args:
            count: contiguous descriptors.
        
        Returns:
            The first descriptor's heap index.
        
        Raises:
            OutOfMemoryError: no such room.
        """
    def cpu_handle(self, index: typing.SupportsIndex) -> int:
        """
        CPU descriptor handle of heap index `index` (as an int).
        
        Args:
            index: a heap index.
        
        Returns:
            The CPU descriptor handle (an int).
        """
    def free_static(self, first: typing.SupportsIndex, serial: typing.SupportsIndex) -> None:
        """
        Deferred free: reusable after release_stale(completed >= serial).
        
        Args:
            first: the heap index allocate_static returned.
            serial: the serial after which the range may be reused.
        """
    def gpu_handle(self, index: typing.SupportsIndex) -> int:
        """
        GPU descriptor handle of heap index `index` (as an int).
        
        Args:
            index: a heap index.
        
        Returns:
            The GPU descriptor handle (an int).
        """
    def release_stale(self, completed_serial: typing.SupportsIndex) -> None:
        """
        Frees the retired chunks and deferred static ranges whose serial <= completed_serial.
        
        Args:
            completed_serial: the highest completed serial.
        """
    def retire_chunk(self, first: typing.SupportsIndex, serial: typing.SupportsIndex) -> None:
        """
        Hands back a chunk taken with try_acquire_chunk, reusable once release_stale sees `serial` completed.
        
        Args:
            first: the chunk's first heap index (from try_acquire_chunk).
            serial: the serial after which it may be reused.
        """
    def stats(self) -> dict[str, typing.Any]:
        """
        capacity, static/dynamic capacity and use, chunk size and counts (a dict).
        """
    def try_acquire_chunk(self) -> typing.Any:
        """
        First heap index of a free chunk, or None when every chunk is in use or retired.
        """
    def validate(self) -> None:
        """
        Checks every internal invariant; raises Dx12Error naming a broken one.
        """
    @property
    def chunk_count(self) -> int:
        """
        Number of dynamic chunks.
        """
    @property
    def descriptor_size(self) -> int:
        """
        Bytes between consecutive descriptors of this heap type.
        """
