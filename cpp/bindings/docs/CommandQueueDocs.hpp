// The Python docstrings of CommandQueue (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace CommandQueue {
inline constexpr const char class_[] = "A direct, compute or copy queue. Get one with Device.queue(kind).";
inline constexpr const char kind[] = "'direct', 'compute' or 'copy' (a dx12kit.QueueKind value).";
inline constexpr const char name[] = "The queue's name (its kind unless set), also given to the native queue for debuggers.";
inline constexpr const char command_list[] =
    "A new CommandList for this queue. name: for messages, repr and debuggers (also set on the native list).\n\n"
    "Args:\n"
    "    name: a str, or None ('command list').\n\n"
    "Returns:\n"
    "    A CommandList recording for this queue's type.";
inline constexpr const char execute[] =
    "Executes one list or a list of lists in order; returns the fence value marking their completion.\n\n"
    "Args:\n"
    "    command_lists: a CommandList or a list of them, each recorded for this queue's type.\n\n"
    "Returns:\n"
    "    The fence value that marks their completion (pass it to wait).\n\n"
    "Raises:\n"
    "    TypeError: something that is not a CommandList.\n"
    "    InvalidArgumentError: a list already executed, or of another queue type.";
inline constexpr const char write_buffer[] =
    "Writes a numpy array into a buffer at byte `offset` as if a command list holding only that upload were\n"
    "executed on this queue now (as wgpu's queue.write_buffer): later executes see the data, earlier ones do not.\n"
    "On a cache-coherent UMA device (Device.uma_direct) a buffer no unfinished work uses is written by one memcpy\n"
    "and nothing is submitted; otherwise the upload list is executed. An upload or readback heap buffer (never a\n"
    "copy's destination in D3D12) is written through its mapping, once the work submitted before that uses it is done.\n\n"
    "Args:\n"
    "    buffer: a buffer of this device.\n"
    "    array: a C-contiguous array or other buffer-protocol object, its bytes written as they are.\n"
    "    offset: byte offset in the buffer.\n\n"
    "Returns:\n"
    "    A fence value of this queue after which the data is in place (for wait or wait_for).\n\n"
    "Raises:\n"
    "    TypeError: buffer is not a Buffer, or array does not expose bytes.\n"
    "    InvalidArgumentError: a texture, no data, the bytes do not fit at offset, another device's buffer.\n"
    "    UseAfterFreeError: the buffer was closed.";
inline constexpr const char wait[] =
    "Blocks until the fence reaches `fence_value`, without holding the GIL; Ctrl-C interrupts it (KeyboardInterrupt).\n"
    "timeout: seconds, None waits forever; WaitTimeoutError (a TimeoutError) when it expires.\n\n"
    "Args:\n"
    "    fence_value: a value execute returned.\n"
    "    timeout: seconds, or None.\n\n"
    "Raises:\n"
    "    WaitTimeoutError: the timeout expired.";
inline constexpr const char flush[] =
    "Waits until everything submitted has completed (interruptible; timeout as for wait).\n\n"
    "Args:\n"
    "    timeout: seconds, or None.\n\n"
    "Returns:\n"
    "    The fence value waited for.\n\n"
    "Raises:\n"
    "    WaitTimeoutError: the timeout expired.";
inline constexpr const char wait_for[] =
    "Makes this queue wait on the GPU until `other` reaches `fence_value` (no CPU wait).\n\n"
    "Args:\n"
    "    other: another CommandQueue of the same device.\n"
    "    fence_value: a value other's execute returned.";
inline constexpr const char stats[] =
    "Cross-queue hazards of this queue's executes, as a plain dict: cross_queue_waits (GPU waits execute inserted\n"
    "because a list used a resource that unfinished work on another queue wrote, or read while the list writes it),\n"
    "cross_queue_waits_on (of which per other queue: {'direct'|'compute'|'copy': n}), cross_queue_completed (such\n"
    "dependencies on work already complete at execute: no wait), cross_queue_already_waited (dependencies this\n"
    "queue already waited for: wait_for, or an earlier inserted wait).";
inline constexpr const char last_inserted_barriers[] =
    "The transitions the last execute() inserted before its lists, resolved against the global states:\n"
    "[(list_index, resource_name, subresource, before, after)], subresource ALL_SUBRESOURCES for the whole resource.";
inline constexpr const char last_direct_queue_barriers[] =
    "Those of last_inserted_barriers that this queue type may not record (a compute queue leaving RENDER_TARGET):\n"
    "execute recorded them on the direct queue, which this queue waited for on the GPU.";
inline constexpr const char timestamp_frequency[] =
    "Ticks per second of the timestamps written on this queue (ID3D12CommandQueue::GetTimestampFrequency):\n"
    "(t1 - t0) / timestamp_frequency seconds. Raises InvalidArgumentError on a copy queue of a device without\n"
    "copy-queue timestamps (vkd3d 1.2).";
inline constexpr const char read_queries[] =
    "Resolves queries [start, start + count) of `heap` on this queue, waits, and returns their results in one\n"
    "numpy array: uint64 values ('occlusion': samples that passed; 'binary_occlusion': 0 or 1; 'timestamp': ticks\n"
    "of timestamp_frequency), or for 'pipeline_statistics' a structured array with D3D12's field names\n"
    "(IAVertices, IAPrimitives, VSInvocations, GSInvocations, GSPrimitives, CInvocations, CPrimitives,\n"
    "PSInvocations, HSInvocations, DSInvocations, CSInvocations). Execute the lists that wrote the queries on\n"
    "this queue first (or make it wait for them). The resolve follows resolve_query_data's rules for this\n"
    "queue's lists (occlusion queries: a direct queue).\n\n"
    "Args:\n"
    "    heap: a QueryHeap of this device.\n"
    "    kind: the kind the queries were recorded as.\n"
    "    start: the first query.\n"
    "    count: how many (None: to the end of the heap).\n"
    "    timeout: seconds to wait for the GPU, None forever.\n\n"
    "Returns:\n"
    "    A numpy array of `count` results.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: a range outside the heap, a kind that does not belong in it or on this queue.";
inline constexpr const char completed_value[] =
    "The queue fence's completed value: every submission with a value <= it has finished. It never goes back (the highest value read: vkd3d 1.2 can lower a fence's value until its next signal).";
inline constexpr const char last_submitted_value[] = "The fence value of the latest execute on this queue.";
inline constexpr const char read_buffer[] =
    "Copies a buffer back into a new numpy array of `dtype` (None: uint8) and `shape` (None: one dimension; an int or a\n"
    "tuple of ints whose product times the item size is the buffer's size), or into `out` (a writable C-contiguous\n"
    "array of the buffer's size, returned; a dtype given with it must be out's). Dtypes in the other byte order\n"
    "(e.g. '>u4') are refused: GPU data is little-endian. Waits for the GPU; interruptible, timeout as for wait.\n"
    "New arrays of 1 MiB or more reuse the memory of such arrays freed earlier (no fresh pages to fault in).\n\n"
    "Args:\n"
    "    buffer: a buffer of this device.\n"
    "    dtype: the new array's dtype (None: uint8); the buffer's size must be a multiple of its item size.\n"
    "    timeout: seconds to wait for the GPU, None forever.\n"
    "    out: a writable C-contiguous array of exactly the buffer's size to fill instead.\n"
    "    shape: the new array's shape (an int or a tuple of ints), or None for 1-D; one dimension may be -1 (taken from the buffer's size, as numpy's reshape does); not with out.\n\n"
    "Returns:\n"
    "    The new array, or `out`.\n\n"
    "Raises:\n"
    "    TypeError: buffer is not a Buffer, out not a numpy array, shape not an int or a tuple of ints.\n"
    "    InvalidArgumentError: sizes, shapes or dtypes that do not fit the buffer, another device's buffer, a texture.\n"
    "    WaitTimeoutError: the GPU work was not done within `timeout`.";
inline constexpr const char write_texture[] =
    "Writes a numpy array into one texture subresource as if a command list holding only that upload were executed on\n"
    "this queue now (as write_buffer does for buffers): later executes see the data, earlier ones do not.\n"
    "The array is what read_texture returns for the subresource: its dtype (uint8 for rgba8_unorm, float32 for\n"
    "rgba32_float, ...) and shape (height, width, channels) of the mip ((height, width) allowed for one channel;\n"
    "(depth, height, width, channels) for a 3D texture; raw blocks for block-compressed formats). Bytes-like objects\n"
    "that are not numpy arrays are taken as the subresource's tightly packed rows.\n\n"
    "Args:\n"
    "    texture: a Texture of this device.\n"
    "    array: the texels.\n"
    "    mip: the mip level.\n"
    "    slice: the array slice (a cube's face); 0 if left out.\n"
    "    array_slice: the same under read_texture's name (give one of the two).\n\n"
    "Returns:\n"
    "    A fence value of this queue after which the data is in place (for wait or wait_for).\n\n"
    "Raises:\n"
    "    TypeError: texture is not a Texture; array of another dtype than the format's.\n"
    "    InvalidArgumentError: a buffer, a mip or slice out of range, an array of the wrong shape or size.\n"
    "    UseAfterFreeError: the texture was closed (DeviceClosedError: its device was).";
inline constexpr const char read_texture[] =
    "Copies a texture subresource back as an array of shape (height, width, channels) ((depth, height, width,\n"
    "channels) for a 3D texture; array_slice = face for a cube); depth-stencil formats give their depth plane; block-compressed\n"
    "formats give their raw blocks as uint8 of shape (ceil(height/4), ceil(width/4), bytes per block). Waits for the GPU (interruptible, timeout as for wait).\n\n"
    "Args:\n"
    "    texture: the Texture read.\n"
    "    mip: the mip level.\n"
    "    array_slice: the array slice (cube face); 0 if left out.\n"
    "    timeout: seconds, or None.\n"
    "    slice: the same under write_texture's name (give one of the two).\n\n"
    "Returns:\n"
    "    A numpy array of the subresource's texels.\n\n"
    "Raises:\n"
    "    InvalidArgumentError: a mip or slice out of range, or a multisampled texture (resolve it first).\n"
    "    WaitTimeoutError: the timeout expired.";
inline constexpr const char submission_stats[] =
    "The queue's submission thread, as a plain dict: queued_ops (native calls, ExecuteCommandLists, Signal or a\n"
    "GPU wait, that execute and the waits handed to the thread instead of making them on the caller's thread),\n"
    "thread_waits (GPU waits on another queue's unreached fence value that the thread did), busy (ops still\n"
    "queued). On vkd3d a GPU wait on a value not reached yet blocks the thread that issues it, so such a wait,\n"
    "and every op of the queue after it until the thread has caught up, is issued by the queue's own thread:\n"
    "execute returns at once. Elsewhere (Windows) every op is issued directly and the counters stay 0.";
inline constexpr const char _fail_next_queued_op[] =
    "Test hook: the next op handed to the submission thread fails with `hresult` instead of being issued\n"
    "(the error path of a failed backend call, which cannot be provoked on purpose).";
}  // namespace CommandQueue

}  // namespace dx12kit::bindings::docs
