// Placeholder so dx12kit_alloc has a source until the allocators land.
namespace dx12kit::alloc { void AllocStub() {} }
