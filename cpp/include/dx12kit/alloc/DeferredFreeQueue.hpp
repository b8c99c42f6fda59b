// DeferredFreeQueue: ranges whose free waits for a GPU fence.
//
// Concept: the GPU may still read a descriptor or a heap range after the CPU is done with it, so
// FreeDeferred(offset, fenceValue) parks the range here and ReleaseStale(completedValue) hands
// back, in (fence, offset) order, every range whose fence value is <= the completed value. The
// allocators (FreeListAllocator, TlsfAllocator) keep the range marked "pending" meanwhile, so it
// can be neither reused nor freed a second time.
//
//   Push(7, a) Push(5, b) Push(9, c)      min-heap on (fence, offset):
//                                                (5,b)
//                                               /     \      top: earliest fence
//                                            (7,a)   (9,c)
//
//   PopReady(7, f) -> f(b), f(a); (9,c) stays queued
//
// Fence values need not arrive in order (several queues may feed one allocator), hence a heap
// rather than a FIFO; with monotonic fences a push is O(1) on average.
//
// Ownership: owned by value by its allocator. Thread-safety: none (the allocator's owner locks).
// Complexity: Push and each popped entry O(log n); PopReady with nothing ready O(1).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace dx12kit::alloc {

class DeferredFreeQueue {
public:
    struct Entry {
        uint64_t fence;
        uint64_t offset;
        uint64_t size;
    };

    void Push(uint64_t fence, uint64_t offset, uint64_t size) {
        m_Heap.push_back(Entry{fence, offset, size});
        std::push_heap(m_Heap.begin(), m_Heap.end(), Later);
    }

    /// Calls f(offset, size) for every entry with fence <= completed, lowest (fence, offset) first,
    /// removing each entry before its call.
    template <class F>
    void PopReady(uint64_t completed, F&& f) {
        while (!m_Heap.empty() && m_Heap.front().fence <= completed) {
            std::pop_heap(m_Heap.begin(), m_Heap.end(), Later);
            Entry e = m_Heap.back();
            m_Heap.pop_back();
            f(e.offset, e.size);
        }
    }

    size_t Size() const noexcept { return m_Heap.size(); }
    bool Empty() const noexcept { return m_Heap.empty(); }
    void Clear() noexcept { m_Heap.clear(); }
    /// The queued entries in heap order (for Validate and for listings).
    const std::vector<Entry>& Entries() const noexcept { return m_Heap; }

private:
    // std heaps are max-heaps: "a is later than b" puts the earliest (fence, offset) on top.
    static bool Later(const Entry& a, const Entry& b) noexcept { return a.fence != b.fence ? a.fence > b.fence : a.offset > b.offset; }

    std::vector<Entry> m_Heap;
};

}  // namespace dx12kit::alloc
