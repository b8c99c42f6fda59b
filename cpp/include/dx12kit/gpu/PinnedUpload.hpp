// Upload memory a caller fills in place (the zero-copy path): CommandList::AllocateUpload's memory,
// kept reserved while a CPU view of it may exist.
#pragma once

#include "dx12kit/base/Errors.hpp"
#include "dx12kit/devicecontext/DeviceContext.hpp"
#include "dx12kit/devicecontext/UploadBuffer.hpp"
#include "dx12kit/gpu/CommandList.hpp"
#include "dx12kit/resources/Resource.hpp"

#include <memory>
#include <string>

namespace dx12kit {

/// An UploadAllocation of a command list, holding the list alive and its upload page pinned: a
/// pinned page is neither reused nor destroyed (UploadPageAllocator), so memory written through a
/// view never belongs to anything else. Copies share the pin.
class PinnedUpload {
public:
    /// `bytes` at `alignment` from `list`'s upload memory (CommandList::AllocateUpload).
    PinnedUpload(std::shared_ptr<CommandList> list, uint64_t bytes, uint64_t alignment)
        : PinnedUpload(list->AllocateUpload(bytes, alignment), list) {}
    /// Memory laid out for `mip` (array slice 0) of `texture` (rows 256-byte aligned), to fill and pass
    /// to CommandList::CopyFromUpload. InvalidArgument for a buffer or a mip out of range.
    static PinnedUpload ForTexture(std::shared_ptr<CommandList> list, const std::shared_ptr<Resource>& texture, uint32_t mip, const char* what) {
        if (texture->IsBuffer()) throw InvalidArgument(std::string(what) + ": not a texture");
        auto& t = static_cast<Texture&>(*texture);
        t.CheckMipSlice(mip, 0, what);
        return PinnedUpload(std::move(list), t.Footprint(mip, 0).PaddedBytes(), D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT);
    }

    const UploadAllocation& Allocation() const { return m_Alloc; }
    CommandList& List() const { return *m_List; }
    /// The memory to write: ForkedDevice in a forked child, UseAfterFree once the list was executed
    /// (writes would race with the GPU's copy). `what` names the caller in errors.
    uint8_t* Writable(const char* what) const {
        m_List->Context()->CheckNotForked(what);  // the child's copy of the page never reaches the GPU
        if (m_List->IsClosed()) throw UseAfterFree(std::string(what) + ": the command list was already executed");
        return m_Alloc.cpu;
    }

private:
    PinnedUpload(UploadAllocation a, std::shared_ptr<CommandList> list) : m_Alloc(a), m_List(std::move(list)) {
        m_Alloc.page->pins.fetch_add(1, std::memory_order_acq_rel);
        m_Pin = std::shared_ptr<UploadPage>(m_Alloc.page, [](UploadPage* p) { p->pins.fetch_sub(1, std::memory_order_acq_rel); });
    }
    UploadAllocation m_Alloc;
    std::shared_ptr<CommandList> m_List;
    std::shared_ptr<UploadPage> m_Pin;  // releases the pin when the last copy goes
};

}  // namespace dx12kit
