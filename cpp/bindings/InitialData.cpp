// Data given with a creation or a write (InitialData.hpp): create_buffer(data=), create_texture2d(data=),
// CommandQueue.write_texture, read_buffer(shape=).
#include "InitialData.hpp"

#include "dx12kit/devicecontext/FormatForData.hpp"

namespace dx12kit::bindings {

namespace {

std::string ShapeText(const py::array& a) {
    std::string s = "(";
    for (py::ssize_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
    return s + (a.ndim() == 1 ? ",)" : ")");
}

std::string TupleText(const py::tuple& t) {
    return std::string(py::str(t));
}

/// The bytes of `array` for subresource `mip` of `tex`. A numpy array must have the dtype and shape
/// read_texture gives for it ((H, W) allowed for one channel); other buffer-protocol objects are raw
/// bytes (CommandList::Upload checks their count).
Bytes TexelBytes(const Texture& tex, py::handle array, uint32_t mip, const char* fn) {
    if (py::isinstance<py::array>(array)) {
        auto a = py::reinterpret_borrow<py::array>(array);
        const FormatInfo& fi = RequireTextureFormat(tex.ViewFormat(), fn);
        const TexelArrayLayout layout = ArrayLayout(tex, fi, mip);
        const py::dtype want = DtypeFor(layout);
        const py::dtype got = a.dtype();
        if (got.kind() != want.kind() || got.itemsize() != want.itemsize())
            throw py::type_error(std::string(fn) + ": texture '" + tex.Name() + "' (" + fi.name + ") takes " + std::string(py::str(want)) +
                                 " data (what read_texture returns for it), got " + std::string(py::str(got)) +
                                 "; convert it first (e.g. array.astype(numpy." + std::string(py::str(want)) + ")" +
                                 (want.kind() == 'u' && got.kind() == 'f' ? ", scaled to the integer range for a unorm format" : "") + ")");
        const std::vector<int64_t> shape(a.shape(), a.shape() + a.ndim());
        if (!ArrayShapeFits(layout, fi, shape.data(), shape.size()))
            throw InvalidArgument(std::string(fn) + ": texture '" + tex.Name() + "' mip " + std::to_string(mip) + " (" + fi.name + ", " +
                                  std::to_string(tex.Width(mip)) + "x" + std::to_string(tex.Height(mip)) + ") needs an array of shape " +
                                  TupleText(TextureShape(layout)) + ", got " + ShapeText(a));
    }
    return GetBytes(array, fn);
}

/// The format create_texture2d chooses for `a` (the core's table, FormatForData.hpp); TypeError for another
/// element type, InvalidArgument for a channel count the table has no format for.
DXGI_FORMAT FormatForData(const py::array& a, uint32_t channels, const char* fn) {
    const py::dtype dt = a.dtype();
    const char kind = dt.kind();
    const auto size = static_cast<uint32_t>(dt.itemsize());
    if (FormatForTexelData(kind, size, 1) == DXGI_FORMAT_UNKNOWN)
        throw py::type_error(std::string(fn) + ": no format is chosen for " + std::string(py::str(dt)) +
                             " data (uint8, uint16, float16, float32, uint32 or int32 are); give format= and data of its dtype");
    const DXGI_FORMAT f = FormatForTexelData(kind, size, channels);
    if (f == DXGI_FORMAT_UNKNOWN)
        throw InvalidArgument(std::string(fn) + ": data has " + std::to_string(channels) +
                              " channels; textures made from data have 1, 2 or 4 (add an alpha channel, or use load_texture, which does)");
    return f;
}

bool IsNegative(py::handle d) {
    const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(d.ptr()));
    if (!index) throw py::error_already_set();
    const int sign = PyObject_RichCompareBool(index.ptr(), py::int_(0).ptr(), Py_LT);
    if (sign < 0) throw py::error_already_set();
    return sign == 1;
}

bool IsMinusOne(py::handle d) {
    const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(d.ptr()));
    if (!index) throw py::error_already_set();
    int overflow = 0;
    return PyLong_AsLongLongAndOverflow(index.ptr(), &overflow) == -1 && !overflow;
}

}  // namespace

py::tuple ReadShape(py::handle shape, uint64_t size, const py::dtype& dt, const std::string& bufferName) {
    const char* fn = "read_buffer";
    py::tuple t;
    if (PyIndex_Check(shape.ptr()) && !PyBool_Check(shape.ptr())) t = py::make_tuple(py::reinterpret_borrow<py::object>(shape));
    else if (py::isinstance<py::tuple>(shape) || py::isinstance<py::list>(shape)) t = py::tuple(py::reinterpret_borrow<py::object>(shape));
    else throw py::type_error("read_buffer: shape must be an int or a tuple of ints, not " + detail::TypeName(shape));
    uint64_t count = 1;
    py::list dims;
    py::ssize_t inferred = -1;  // numpy's rule: one dimension may be -1, taken from the buffer's size
    for (py::handle d : t) {
        if (PyBool_Check(d.ptr()) || !PyIndex_Check(d.ptr()))
            throw py::type_error("read_buffer: shape must be an int or a tuple of ints, not one holding " + detail::TypeName(d));
        if (IsMinusOne(d)) {
            if (inferred >= 0)
                throw InvalidArgument("read_buffer: shape " + TupleText(t) + " has more than one -1; only one dimension can be inferred");
            inferred = static_cast<py::ssize_t>(dims.size());
            dims.append(0);
            continue;
        }
        if (IsNegative(d))
            throw InvalidArgument("read_buffer: shape " + TupleText(t) + " has a negative dimension " + std::string(py::str(d)) +
                                  "; only -1 is allowed (one dimension, inferred from the buffer's size)");
        const uint64_t n = U64(d, fn, "shape");
        count = n && count > UINT64_MAX / n ? UINT64_MAX : count * n;
        dims.append(n);
    }
    if (inferred >= 0) {
        const uint64_t item = static_cast<uint64_t>(dt.itemsize());
        const uint64_t row = count > UINT64_MAX / item ? UINT64_MAX : count * item;
        if (row == 0)
            throw InvalidArgument("read_buffer: shape " + TupleText(t) + " has a 0 dimension, so -1 cannot be inferred (any length would do)");
        if (row == UINT64_MAX || size % row)
            throw InvalidArgument("read_buffer: shape " + TupleText(t) + " of " + std::string(py::str(dt)) + ": buffer '" + bufferName + "' has " +
                                  std::to_string(size) + " bytes, not a multiple of the other dimensions' " +
                                  (row == UINT64_MAX ? std::string("too many") : std::to_string(row)) + " bytes, so -1 cannot be inferred");
        dims[static_cast<size_t>(inferred)] = py::int_(size / row);
        count *= size / row;
    }
    const uint64_t bytes = count > UINT64_MAX / static_cast<uint64_t>(dt.itemsize()) ? UINT64_MAX : count * static_cast<uint64_t>(dt.itemsize());
    if (bytes != size)
        throw InvalidArgument("read_buffer: shape " + TupleText(py::tuple(dims)) + " of " + std::string(py::str(dt)) + " is " +
                              (bytes == UINT64_MAX ? std::string("too many") : std::to_string(bytes)) + " bytes; buffer '" + bufferName + "' has " +
                              std::to_string(size) + (size % dt.itemsize() ? "" : " (" + std::to_string(size / dt.itemsize()) + " items)"));
    return py::tuple(dims);
}

uint64_t BufferSizeFor(const std::optional<Int>& size, const Bytes* data, const char* fn) {
    if (!data) {
        if (!size) throw py::type_error(std::string(fn) + ": size is required without data=");
        return U64(*size, fn, "size");
    }
    const Bytes& b = *data;
    if (b.size == 0) throw InvalidArgument(std::string(fn) + ": data is empty (0 bytes)");
    if (!size) return b.size;
    const uint64_t s = U64(*size, fn, "size");
    if (b.size > s)
        throw InvalidArgument(std::string(fn) + ": data has " + std::to_string(b.size) + " bytes, more than size " + std::to_string(s) +
                              " (leave size out to take data's)");
    return s;
}

void WriteInitialBuffer(Device& d, const std::shared_ptr<Buffer>& b, const Bytes& bytes) {
    auto q = d.Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);  // (an UPLOAD/READBACK buffer is written through its mapping)
    ReleaseGil release;
    q->WriteBuffer(q, b, bytes.data, bytes.size, 0);
}

TextureData InferTexture(const std::optional<Int>& width, const std::optional<Int>& height, py::handle format, const Int& arraySize, py::handle data,
                         const char* fn) {
    TextureData out;
    out.arraySize = U32(arraySize, fn, "array_size");
    if (data.is_none()) {
        if (!width || !height) throw py::type_error(std::string(fn) + ": width and height are required without data=");
        out.width = U32(*width, fn, "width");
        out.height = U32(*height, fn, "height");
        out.format = format.is_none() ? DXGI_FORMAT_R8G8B8A8_UNORM : ParseFormat(format, fn);
        return out;
    }
    if (!py::isinstance<py::array>(data))
        throw py::type_error(std::string(fn) + ": data must be a numpy array of shape (H, W), (H, W, C) or (N, H, W, C), not " +
                             detail::TypeName(data));
    auto a = py::reinterpret_borrow<py::array>(data);
    const py::ssize_t nd = a.ndim();
    if (nd < 2 || nd > 4)
        throw InvalidArgument(std::string(fn) + ": data has shape " + ShapeText(a) + "; expected (H, W), (H, W, C) or (N, H, W, C)");
    const uint32_t slices = nd == 4 ? static_cast<uint32_t>(a.shape(0)) : 1;
    const py::ssize_t off = nd == 4 ? 1 : 0;
    const uint32_t h = static_cast<uint32_t>(a.shape(off)), w = static_cast<uint32_t>(a.shape(off + 1));
    const uint32_t channels = nd == 2 ? 1 : static_cast<uint32_t>(a.shape(nd - 1));
    if (width && U32(*width, fn, "width") != w)
        throw InvalidArgument(std::string(fn) + ": width " + std::to_string(U32(*width, fn, "width")) + " disagrees with data of shape " +
                              ShapeText(a) + " (" + std::to_string(w) + " wide); leave width out to take data's");
    if (height && U32(*height, fn, "height") != h)
        throw InvalidArgument(std::string(fn) + ": height " + std::to_string(U32(*height, fn, "height")) + " disagrees with data of shape " +
                              ShapeText(a) + " (" + std::to_string(h) + " high); leave height out to take data's");
    if (nd == 4) {
        if (out.arraySize != 1 && out.arraySize != slices)
            throw InvalidArgument(std::string(fn) + ": array_size " + std::to_string(out.arraySize) + " disagrees with data of shape " +
                                  ShapeText(a) + " (" + std::to_string(slices) + " slices)");
        out.arraySize = slices;
    } else if (out.arraySize != 1) {
        throw InvalidArgument(std::string(fn) + ": array_size " + std::to_string(out.arraySize) + " with data of shape " + ShapeText(a) +
                              " (one slice); give data of shape (N, H, W, C) for N slices");
    }
    out.width = w;
    out.height = h;
    out.format = format.is_none() ? FormatForData(a, channels, fn) : ParseFormat(format, fn);
    return out;
}

void WriteInitialTexture(Device& d, const std::shared_ptr<Texture>& t, py::handle data, const char* fn) {
    auto a = py::reinterpret_borrow<py::array>(data);
    std::vector<Bytes> slices;
    if (a.ndim() == 4) {
        for (uint32_t s = 0; s < t->ArraySize(); ++s) slices.push_back(TexelBytes(*t, a.attr("__getitem__")(s), 0, fn));
    } else {
        slices.push_back(TexelBytes(*t, a, 0, fn));
    }
    auto q = d.Queue(D3D12_COMMAND_LIST_TYPE_DIRECT);
    ReleaseGil release;
    auto cl = q->CreateCommandList(q);
    cl->SetName(std::string(fn) + " data");
    for (uint32_t s = 0; s < slices.size(); ++s) cl->Upload(t, slices[s].data, slices[s].size, 0, s, 0, fn);
    q->Execute({cl});
}

uint64_t WriteTexture(const std::shared_ptr<CommandQueue>& q, const std::shared_ptr<Resource>& r, py::handle array, uint32_t mip, uint32_t slice,
                      const char* fn) {
    if (r->IsBuffer()) throw InvalidArgument(std::string(fn) + ": resource '" + r->Name() + "' is a buffer; use write_buffer");
    const auto& tex = static_cast<const Texture&>(*r);
    tex.CheckMipSlice(mip, slice, fn);
    const Bytes b = TexelBytes(tex, array, mip, fn);
    ReleaseGil release;
    auto cl = q->CreateCommandList(q);
    cl->SetName(fn);
    cl->Upload(r, b.data, b.size, mip, slice, 0, fn);
    return q->Execute({cl});
}

}  // namespace dx12kit::bindings
