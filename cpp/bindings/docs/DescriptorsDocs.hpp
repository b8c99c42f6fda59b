// The Python docstrings of Descriptors (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace descriptors {
inline constexpr const char module_[] =
    "Standalone descriptor allocators and the descriptor benchmarks (the device's own descriptors are managed "
    "for you by Device and CommandList).";
}  // namespace descriptors

namespace DescriptorAllocation {
inline constexpr const char class_[] =
    "Consecutive CPU descriptors from a CpuDescriptorAllocator. Freed (deferred) by free(), "
    "at the end of a with-block, or when garbage-collected.";
inline constexpr const char handle[] =
    "CPU handle of descriptor i as an int.\n\nArgs:\n    i: the descriptor's index in the allocation.\n\nReturns:\n    The CPU descriptor handle (D3D12_CPU_DESCRIPTOR_HANDLE.ptr).\n\nRaises:\n    UseAfterFreeError: the allocation was freed.\n"
    "    InvalidArgumentError: i >= count.";
inline constexpr const char handles[] = "Every CPU handle of the range, as ints (raises UseAfterFreeError once freed).";
inline constexpr const char count[] = "0 once freed.";
inline constexpr const char is_null[] = "True for an empty allocation (freed, or never allocated).";
inline constexpr const char page_offset[] = "Index of the first descriptor within its page.";
inline constexpr const char free[] = "Deferred free, tagged with the allocator's current serial. Freeing twice does nothing.";
}  // namespace DescriptorAllocation

namespace CpuDescriptorAllocator {
inline constexpr const char class_[] =
    "CPU-only descriptors of one heap type in pages of page_size, with deferred frees: a free is tagged with\n"
    "current_serial and handed out again only after release_stale_descriptors(completed >= that serial).\n"
    "Thread-safe. This is the allocator the device uses for views and samplers; one made here has its own\n"
    "pages and its own serial, which the caller advances (as the device does at each submission).";
inline constexpr const char init[] =
    "A standalone CPU descriptor allocator.\n\n"
    "Args:\n"
    "    device: the Device whose descriptor heaps back it.\n"
    "    heap_type: a DescriptorHeapType or its name.\n"
    "    page_size: descriptors per page (one D3D12 heap each).\n\n"
    "Raises:\n"
    "    InvalidArgumentError: device is None or page_size is 0.";
inline constexpr const char allocate[] =
    "`count` consecutive descriptors (a request larger than a page gets a page of its own).\n\n"
    "Args:\n    count: contiguous descriptors.\n\nReturns:\n    A DescriptorAllocation.\n\nRaises:\n    InvalidArgumentError: count is 0.";
inline constexpr const char release_stale_descriptors[] =
    "Makes every range freed with serial <= completed_serial reusable.\n\n"
    "Args:\n"
    "    completed_serial: the highest completed serial.";
inline constexpr const char current_serial[] = "The serial frees are tagged with (plays the device's last submission serial).";
inline constexpr const char stats[] = "in_use, pages, peak, stale and capacity, in descriptors (pages: in pages).";
inline constexpr const char validate[] = "Checks every internal invariant; raises Dx12Error naming a broken one.";
inline constexpr const char descriptor_size[] = "Bytes between consecutive descriptors of this heap type.";
inline constexpr const char page_size[] = "Descriptors per page.";
inline constexpr const char heap_type[] = "'cbv_srv_uav', 'sampler', 'rtv' or 'dsv' (a dx12kit.DescriptorHeapType value).";
}  // namespace CpuDescriptorAllocator

namespace ShaderVisibleHeap {
inline constexpr const char class_[] =
    "A shader-visible descriptor heap split into a static part [0, static_count) (free list, deferred frees) and\n"
    "dynamic chunks of chunk_size (acquired, retired with a serial, free again after release_stale). The device\n"
    "owns one per type; one made here is for experiments and tests. Thread-safe.";
inline constexpr const char init[] =
    "A standalone shader-visible descriptor heap.\n\n"
    "Args:\n"
    "    device: the Device that creates the heap.\n"
    "    heap_type: 'cbv_srv_uav' or 'sampler' (a DescriptorHeapType).\n"
    "    num_descriptors: the heap's size.\n"
    "    static_count: descriptors of the static part (allocate_static).\n"
    "    chunk_size: descriptors per dynamic chunk.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: device is None, or sizes that do not fit.";
inline constexpr const char allocate_static[] =
    "First index of `count` consecutive static descriptors.\n\nArgs:\n    count: contiguous descriptors.\n\nReturns:\n    The first descriptor's heap index.\n\nRaises:\n    OutOfMemoryError: no such room.";
inline constexpr const char free_static[] =
    "Deferred free: reusable after release_stale(completed >= serial).\n\n"
    "Args:\n"
    "    first: the heap index allocate_static returned.\n"
    "    serial: the serial after which the range may be reused.";
inline constexpr const char try_acquire_chunk[] = "First heap index of a free chunk, or None when every chunk is in use or retired.";
inline constexpr const char retire_chunk[] =
    "Hands back a chunk taken with try_acquire_chunk, reusable once release_stale sees `serial` completed.\n\n"
    "Args:\n"
    "    first: the chunk's first heap index (from try_acquire_chunk).\n"
    "    serial: the serial after which it may be reused.";
inline constexpr const char release_stale[] =
    "Frees the retired chunks and deferred static ranges whose serial <= completed_serial.\n\n"
    "Args:\n"
    "    completed_serial: the highest completed serial.";
inline constexpr const char cpu_handle[] =
    "CPU descriptor handle of heap index `index` (as an int).\n\n"
    "Args:\n"
    "    index: a heap index.\n\n"
    "Returns:\n"
    "    The CPU descriptor handle (an int).";
inline constexpr const char gpu_handle[] =
    "GPU descriptor handle of heap index `index` (as an int).\n\n"
    "Args:\n"
    "    index: a heap index.\n\n"
    "Returns:\n"
    "    The GPU descriptor handle (an int).";
inline constexpr const char stats[] = "capacity, static/dynamic capacity and use, chunk size and counts (a dict).";
inline constexpr const char validate[] = "Checks every internal invariant; raises Dx12Error naming a broken one.";
inline constexpr const char chunk_count[] = "Number of dynamic chunks.";
inline constexpr const char descriptor_size[] = "Bytes between consecutive descriptors of this heap type.";
}  // namespace ShaderVisibleHeap

}  // namespace dx12kit::bindings::docs
