// The Python docstrings of QueryHeap (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace QueryHeap {
inline constexpr const char class_[] =
    "A heap of GPU queries (ID3D12QueryHeap). Create with Device.create_query_heap; record with\n"
    "CommandList.begin_query / end_query; read with CommandQueue.read_queries or CommandList.resolve_query_data.\n"
    "It stays alive while command lists using it are in flight.";
inline constexpr const char kind[] =
    "The heap's kind: 'occlusion' (holds 'occlusion' and 'binary_occlusion' queries), 'timestamp',\n"
    "'pipeline_statistics' or 'copy_queue_timestamp'.";
inline constexpr const char count[] = "How many queries it holds (indices 0 .. count-1).";
inline constexpr const char name[] = "Debug name, shown by repr and in error messages.";
}  // namespace QueryHeap

}  // namespace dx12kit::bindings::docs
