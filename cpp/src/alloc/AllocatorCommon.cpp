// Out-of-line error paths shared by the allocators (kept out of the inlined fast paths).
#include "dx12kit/alloc/AllocatorCommon.hpp"

#include <string>

namespace dx12kit::alloc::detail {

void ThrowBadAllocate(const char* who, uint64_t size, uint64_t alignment, uint64_t capacity) {
    std::string w(who);
    if (size == 0) throw InvalidArgument(w + ": size 0 is invalid (sizes are 1.." + std::to_string(capacity) + ")");
    if (size > capacity) throw InvalidArgument(w + ": size " + std::to_string(size) + " exceeds the capacity " + std::to_string(capacity));
    throw InvalidArgument(w + ": alignment " + std::to_string(alignment) + " is not a power of two");
}

}  // namespace dx12kit::alloc::detail
