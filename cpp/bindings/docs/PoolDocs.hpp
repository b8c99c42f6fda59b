// The Python docstrings of Pool (pybind11 doc arguments), kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace Pool {
inline constexpr const char class_[] =
    "A custom memory pool: heaps of one heap type with its own block size, block limits and placement\n"
    "algorithm. Create with Device.create_pool; pass as pool= to create_buffer / create_texture2d.";
inline constexpr const char name[] = "The pool's name (create_pool(name=)).";
inline constexpr const char heap[] = "'default', 'upload', 'readback' or 'custom'.";
inline constexpr const char block_size[] = "Bytes of each block (the largest new block size when the pool grows).";
inline constexpr const char min_blocks[] = "Blocks the pool keeps even when empty.";
inline constexpr const char max_blocks[] = "0 = no limit.";
inline constexpr const char algorithm[] = "'tlsf' or 'linear' (a dx12kit.PoolAlgorithm value).";
inline constexpr const char block_count[] = "Heaps the pool holds now.";
inline constexpr const char stats[] =
    "Statistics of this pool: block_count, block_bytes, allocation_count, allocation_bytes, unused_range_count,\n"
    "allocation_size_min/max, unused_range_size_min/max (bytes).";
inline constexpr const char validate[] = "Checks the pool's invariants (no overlap, allocator consistency); raises Dx12Error naming a broken one.";
}  // namespace Pool

}  // namespace dx12kit::bindings::docs
