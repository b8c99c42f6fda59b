// Shared vocabulary of the range allocators: the "no room" sentinel, the statistics record, and
// the small bit and alignment helpers every allocator uses.
//
// Concept: an allocator hands out ranges [offset, offset + size) of an abstract space of
// `capacity` units (descriptors, bytes, heap pages...). It never touches the memory it manages
// and includes no D3D12 header, so the algorithms are tested and measured without a device.
//
// Contract shared by FreeListAllocator, TlsfAllocator and LinearAllocator:
//   - "no room" is an expected outcome and returns kInvalidOffset; it never throws;
//   - a broken contract (size 0, size > capacity, alignment not a power of two, freeing an
//     offset that is not a live allocation) throws dx12kit::InvalidArgument before any state
//     changes, so the caller (or Python) may catch it and go on;
//   - none of the allocators is thread-safe: the owner (a descriptor page, an upload ring, a
//     memory pool) serialises calls with its own lock.
//
// Ownership: plain value types; nothing here owns memory.
// Complexity: everything in this header is O(1).
#pragma once

#include <cstdint>

#if defined(_MSC_VER)
#  include <intrin.h>
#endif

#include "dx12kit/base/Errors.hpp"

namespace dx12kit::alloc {

/// Returned by every Allocate() that finds no room (never a valid offset).
inline constexpr uint64_t kInvalidOffset = ~uint64_t(0);

/// Statistics of one allocator. All counts are in the allocator's units.
///
/// Ranges passed to FreeDeferred() stay counted in `used` and `allocations` until
/// ReleaseStale() returns them: they are not available to Allocate() before then.
struct AllocatorStats {
    uint64_t capacity;          ///< size of the managed space
    uint64_t used;              ///< units in live or deferred-free allocations (plus padding for Linear)
    uint64_t free;              ///< capacity - used
    uint64_t freeBlocks;        ///< number of maximal free ranges
    uint64_t largestFreeBlock;  ///< size of the largest free range (0 when full)
    uint64_t allocations;       ///< live allocations, including deferred frees not yet released
};

#if defined(__GNUC__) || defined(__clang__)
#  define DX12KIT_LIKELY(x) __builtin_expect(!!(x), 1)
#  define DX12KIT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#  define DX12KIT_NOINLINE __attribute__((noinline))
#  define DX12KIT_FORCEINLINE inline __attribute__((always_inline))
#  if defined(__clang__)
#    define DX12KIT_UNPREDICTABLE(x) __builtin_unpredictable(x)
#  else
#    define DX12KIT_UNPREDICTABLE(x) __builtin_expect_with_probability(!!(x), 1, 0.5)
#  endif
#else
#  define DX12KIT_LIKELY(x) (x)
#  define DX12KIT_UNLIKELY(x) (x)
#  define DX12KIT_NOINLINE __declspec(noinline)
#  define DX12KIT_FORCEINLINE __forceinline
#  define DX12KIT_UNPREDICTABLE(x) (x)
#endif

namespace detail {

/// Index of the lowest set bit; x must not be 0.
inline uint32_t LowestBit(uint64_t x) noexcept {
#if defined(_MSC_VER)
    unsigned long i;
    _BitScanForward64(&i, x);
    return static_cast<uint32_t>(i);
#else
    return static_cast<uint32_t>(__builtin_ctzll(x));
#endif
}

/// Index of the highest set bit; x must not be 0.
inline uint32_t HighestBit(uint64_t x) noexcept {
#if defined(_MSC_VER)
    unsigned long i;
    _BitScanReverse64(&i, x);
    return static_cast<uint32_t>(i);
#else
    return 63u - static_cast<uint32_t>(__builtin_clzll(x));
#endif
}

inline constexpr bool IsPowerOfTwo(uint64_t x) noexcept {
    return x != 0 && (x & (x - 1)) == 0;
}

/// Rounds `offset` up to a multiple of `alignment` (a power of two). The caller guarantees that
/// the result does not overflow (every allocator clamps the alignment first, see ClampAlignment).
inline constexpr uint64_t AlignUp(uint64_t offset, uint64_t alignment) noexcept {
    return (offset + alignment - 1) & ~(alignment - 1);
}

/// An alignment larger than the capacity admits only offset 0. Replacing it by the smallest
/// power of two >= capacity keeps exactly that meaning and keeps AlignUp free of overflow.
inline uint64_t ClampAlignment(uint64_t alignment, uint64_t capacity) noexcept {
    if (alignment <= capacity) return alignment;
    if (capacity <= 1) return 1;
    uint32_t bit = HighestBit(capacity - 1) + 1;
    return bit >= 63 ? (uint64_t(1) << 63) : (uint64_t(1) << bit);
}

/// Throws InvalidArgument unless 1 <= size <= capacity and alignment is a power of two.
/// `who` names the allocator and method in the message.
[[noreturn]] void ThrowBadAllocate(const char* who, uint64_t size, uint64_t alignment, uint64_t capacity);

inline void CheckAllocateArgs(const char* who, uint64_t size, uint64_t alignment, uint64_t capacity) {
    if (DX12KIT_UNLIKELY(size - 1 >= capacity || !IsPowerOfTwo(alignment))) ThrowBadAllocate(who, size, alignment, capacity);
}

}  // namespace detail
}  // namespace dx12kit::alloc
