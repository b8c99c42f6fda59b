"""Descriptor building blocks, bound directly from the C++ core.

dx12kit's command lists use these internally; they are exposed for tests, tools and engines that
manage descriptors themselves:

- ``CpuDescriptorAllocator(device, heap_type, page_size=256)``: CPU-only descriptors in pages, each
  page's free space kept by the free-list allocator; frees are deferred until the device's
  submission serial they were tagged with completes (``release_stale_descriptors``).
- ``ShaderVisibleHeap``: a shader-visible heap with a static part (free list) and dynamic chunks.

See ``Device.descriptor_stats()`` for the device's own allocators.
"""
from __future__ import annotations

from .dx12core import descriptors as _native

__all__ = [name for name in dir(_native) if not name.startswith("_")]
globals().update({name: getattr(_native, name) for name in __all__})
