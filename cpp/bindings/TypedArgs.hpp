// Arguments the bindings take as the Python object they are, with the type their signature (and so the
// generated stub, scripts/gen-stubs.sh) declares.
//
// Many bindings convert an argument themselves rather than letting pybind11 do it, so that a wrong
// argument gets dx12kit's message naming the function and the argument (AsResource, ParseFormat,
// Str, ...), and so that a resource arrives without a pybind11 overload dispatch. pybind11 names such
// an argument `object` (the stub: typing.Any). Typed<Hint> is the same untouched object (a borrowed
// handle: loading it costs what a py::handle parameter costs, nothing is checked or converted) whose
// signature says Hint::name instead: a registered class (`Buffer`), a union with None, or a type
// pybind11 has no caster for (`str | os.PathLike[str]`).
#pragma once

#include "Classes.hpp"

#include <pybind11/pybind11.h>

namespace dx12kit::bindings {

/// An argument taken as is; converts to py::handle where the binding's own conversion takes it.
template <typename Hint>
struct Typed {
    pybind11::handle value;
    operator pybind11::handle() const { return value; }  // NOLINT(google-explicit-constructor)
    bool is_none() const { return value.is_none(); }
    PyObject* ptr() const { return value.ptr(); }
    template <typename T>
    T cast() const {
        return value.cast<T>();
    }
};

namespace hint {

/// The union of classes (and None, as pybind11::none) that pybind11 has registered:
/// `OneOf<Buffer, pybind11::none>` is "Buffer | None" in signatures and stubs.
template <typename... Ts>
struct OneOf {
    static constexpr auto name = pybind11::detail::union_concat(pybind11::detail::make_caster<Ts>::name...);
};

/// A type pybind11 has no class for, spelled out: `Text<"str | None">` would be the idea; C++17 takes the
/// text as a type with a static `name` (below).
struct OptStr {
    static constexpr auto name = pybind11::detail::const_name("str | None");
};
struct Str {
    static constexpr auto name = pybind11::detail::const_name("str");
};
struct OptIndex {
    static constexpr auto name = pybind11::detail::const_name("typing.SupportsIndex | None");
};
struct OptBool {
    static constexpr auto name = pybind11::detail::const_name("bool | None");
};
struct Bool {
    static constexpr auto name = pybind11::detail::const_name("bool");
};
/// A file or an image (Device.load_texture: dx12kit/textures.py reads it).
struct ImageSource {
    static constexpr auto name = pybind11::detail::const_name("str | os.PathLike[str] | numpy.ndarray");
};
/// Initial or written bytes (create_buffer's data=): a numpy array or another buffer-protocol object.
struct OptBytes {
    static constexpr auto name = pybind11::detail::const_name("numpy.ndarray | bytes | bytearray | memoryview | None");
};
/// Texels (create_texture2d's data=, write_texture): a numpy array as read_texture returns it (bytes-like: packed rows).
struct Texels {
    static constexpr auto name = pybind11::detail::const_name("numpy.ndarray | bytes | bytearray | memoryview");
};
struct OptTexels {
    static constexpr auto name = pybind11::detail::const_name("numpy.ndarray | None");
};
/// read_buffer's shape=: an int or a tuple of ints.
struct OptShape {
    static constexpr auto name = pybind11::detail::const_name("typing.SupportsIndex | tuple[typing.SupportsIndex, ...] | None");
};
/// progress= of long work (dx12kit/_progress.py): None, a bool or a callable(done, total).
struct Progress {
    static constexpr auto name = pybind11::detail::const_name("bool | collections.abc.Callable[[int, int], object] | None");
};
/// Format arguments (ParseFormat): a Format member or its lower-case name (dx12kit.enums.FormatName, made
/// from the Format enum).
#define DX12KIT_FORMAT_HINT "dx12kit.dx12core.Format | dx12kit.enums.FormatName"
struct Format {
    static constexpr auto name = pybind11::detail::const_name(DX12KIT_FORMAT_HINT);
};
struct OptFormat {
    static constexpr auto name = pybind11::detail::const_name(DX12KIT_FORMAT_HINT " | None");
};
struct ViewFormat {
    static constexpr auto name = pybind11::detail::const_name(DX12KIT_FORMAT_HINT " | int | None");
};  // also a raw DXGI value
struct Formats {
    static constexpr auto name = pybind11::detail::const_name(DX12KIT_FORMAT_HINT " | collections.abc.Sequence[" DX12KIT_FORMAT_HINT "]");
};
#undef DX12KIT_FORMAT_HINT
/// A resource state (StateArg): a ResourceState, its int bits, or names ('copy_source|pixel_shader_resource').
struct State {
    static constexpr auto name = pybind11::detail::const_name("dx12kit.dx12core.ResourceState | int | str");
};
/// Four numbers (an RGBA colour, a blend factor, UAV clear values).
struct Four {
    static constexpr auto name = pybind11::detail::const_name("collections.abc.Sequence[typing.SupportsFloat | typing.SupportsIndex]");
};
/// Flags arguments: the extension's IntFlag or a plain int (FlagsArg).
struct RootSignatureFlags {
    static constexpr auto name = pybind11::detail::const_name("dx12kit.dx12core.RootSignatureFlags | int | None");
};
struct DescriptorRangeFlags {
    static constexpr auto name = pybind11::detail::const_name("dx12kit.dx12core.DescriptorRangeFlags | int");
};
struct RootDescriptorFlags {
    static constexpr auto name = pybind11::detail::const_name("dx12kit.dx12core.RootDescriptorFlags | int");
};
/// One texture or several (set_render_targets): "Texture | Sequence[Texture] | None".
struct Targets {
    static constexpr auto name = pybind11::detail::make_caster<Texture>::name + pybind11::detail::const_name(" | collections.abc.Sequence[") +
                                 pybind11::detail::make_caster<Texture>::name + pybind11::detail::const_name("] | None");
};

/// Several buffers (execute_indirect's referenced=): "Sequence[Buffer]".
struct Buffers {
    static constexpr auto name =
        pybind11::detail::const_name("collections.abc.Sequence[") + pybind11::detail::make_caster<Buffer>::name + pybind11::detail::const_name("]");
};
}  // namespace hint

// The arguments of the D3D12 layer's bindings. A binding still checks what it receives (AsResource: a
// TypeError naming the function and argument for anything else); the type is what stubs and help() show.
using ResourceArg = Typed<hint::OneOf<Resource>>;
using OptResourceArg = Typed<hint::OneOf<Resource, pybind11::none>>;
using BufferArg = Typed<hint::OneOf<Buffer>>;
using OptBufferArg = Typed<hint::OneOf<Buffer, pybind11::none>>;
using TextureArg = Typed<hint::OneOf<Texture>>;
using OptTextureArg = Typed<hint::OneOf<Texture, pybind11::none>>;
using TargetsArg = Typed<hint::Targets>;
using BuffersArg = Typed<hint::Buffers>;
using SamplerArg = Typed<hint::OneOf<Sampler>>;
using QueryHeapArg = Typed<hint::OneOf<QueryHeap>>;
using CommandSignatureArg = Typed<hint::OneOf<CommandSignature>>;
using OptPoolArg = Typed<hint::OneOf<memory::MemoryPool, pybind11::none>>;
using OptMemoryArg = Typed<hint::OneOf<memory::MemoryRegion, pybind11::none>>;
using NameArg = Typed<hint::Str>;        // a name= setter: Str() converts it
using OptNameArg = Typed<hint::OptStr>;  // name=None: the default name
using OptIndex = Typed<hint::OptIndex>;  // an index that may be left out (None)
using OptBool = Typed<hint::OptBool>;
using BoolArg = Typed<hint::Bool>;  // a bool the Python layer checks (pybind11's bool would take None)
using ImageSourceArg = Typed<hint::ImageSource>;
using OptBytesArg = Typed<hint::OptBytes>;
using TexelsArg = Typed<hint::Texels>;
using OptTexelsArg = Typed<hint::OptTexels>;
using OptShapeArg = Typed<hint::OptShape>;
using ProgressArg = Typed<hint::Progress>;
using FormatArg = Typed<hint::Format>;
using StateArgT = Typed<hint::State>;
using FourArg = Typed<hint::Four>;
using OptFormatArg = Typed<hint::OptFormat>;
using ViewFormatArg = Typed<hint::ViewFormat>;
using FormatsArg = Typed<hint::Formats>;
template <typename Flags>
using FlagsArgOf = Typed<Flags>;  // converted by FlagsArg

}  // namespace dx12kit::bindings

namespace pybind11::detail {

template <typename Hint>
struct type_caster<dx12kit::bindings::Typed<Hint>> {
    PYBIND11_TYPE_CASTER(dx12kit::bindings::Typed<Hint>, Hint::name);
    bool load(handle src, bool) {
        if (!src) return false;
        value.value = src;  // borrowed: the call's argument array holds it for the call
        return true;
    }
    static handle cast(const dx12kit::bindings::Typed<Hint>& v, return_value_policy, handle) { return v.value.inc_ref(); }
};

}  // namespace pybind11::detail
