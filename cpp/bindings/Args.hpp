// Checked conversion of Python arguments, naming the function and the argument on failure.
//
// pybind11 converts `uint32_t` arguments itself, but an int out of range (negative, > 2**32-1)
// then fails overload resolution (a TypeError listing signatures), and `h.cast<uint32_t>()` inside
// a binding raises `RuntimeError: Unable to cast ... to C++ type '?'`. Neither names the argument.
// Bindings therefore take numbers as `Int` / `Float` (which accept any Python object and show as
// `typing.SupportsIndex` / `typing.SupportsFloat` in signatures and stubs) and convert them here:
//
//   wrong type (a str where an int belongs, a float for an int)  -> TypeError
//   wrong value (out of range, NaN where a number is needed)     -> InvalidArgument
//
// both with a message "<function>: <argument> ...". Anything with __index__ (numpy integers) is an
// int; anything with __float__ (ints, numpy floats) is a float.
#pragma once

#include "dx12kit/base/Errors.hpp"

#include <pybind11/pybind11.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace dx12kit::bindings {

/// An integer argument as Python passed it; convert with U32()/U64()/I32()/U8().
struct Int {
    pybind11::object value;
};
/// A real-number argument as Python passed it; convert with F32().
struct Float {
    pybind11::object value;
};

namespace detail {

inline std::string TypeName(pybind11::handle h) {
    return h ? std::string(Py_TYPE(h.ptr())->tp_name) : std::string("nothing");
}

inline std::string Where(const char* fn, const char* arg) {
    return std::string(fn) + ": " + arg;
}

/// The Python int of `h` (via __index__); TypeError naming the argument otherwise.
inline pybind11::int_ Index(pybind11::handle h, const char* fn, const char* arg) {
    if (!h || h.is_none() || PyFloat_Check(h.ptr())) throw pybind11::type_error(Where(fn, arg) + " must be an int, not " + TypeName(h));
    PyObject* index = PyNumber_Index(h.ptr());
    if (!index) {
        PyErr_Clear();
        throw pybind11::type_error(Where(fn, arg) + " must be an int, not " + TypeName(h));
    }
    return pybind11::reinterpret_steal<pybind11::int_>(index);
}

/// `h` as an integer in [lo, hi]; InvalidArgument naming the argument and the range otherwise.
inline long long Ranged(pybind11::handle h, const char* fn, const char* arg, long long lo, unsigned long long hi, unsigned long long* big = nullptr) {
    pybind11::int_ v = Index(h, fn, arg);
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    auto fail = [&] {
        throw InvalidArgument(Where(fn, arg) + " " + std::string(pybind11::str(v)) + " is out of range " + std::to_string(lo) + ".." +
                              std::to_string(hi));
    };
    if (overflow < 0 || (overflow == 0 && x < lo)) fail();
    if (overflow > 0) {
        if (!big) fail();
        const unsigned long long u = PyLong_AsUnsignedLongLong(v.ptr());
        if (PyErr_Occurred()) {
            PyErr_Clear();
            fail();
        }
        if (u > hi) fail();
        *big = u;
        return -1;
    }
    if (x >= 0 && static_cast<unsigned long long>(x) > hi) fail();
    return x;
}

}  // namespace detail

inline uint64_t U64(const Int& v, const char* fn, const char* arg) {
    unsigned long long big = 0;
    const long long x = detail::Ranged(v.value, fn, arg, 0, std::numeric_limits<uint64_t>::max(), &big);
    return x < 0 ? big : static_cast<uint64_t>(x);
}
inline uint32_t U32(const Int& v, const char* fn, const char* arg) {
    return static_cast<uint32_t>(detail::Ranged(v.value, fn, arg, 0, UINT32_MAX));
}
inline int32_t I32(const Int& v, const char* fn, const char* arg) {
    return static_cast<int32_t>(detail::Ranged(v.value, fn, arg, INT32_MIN, INT32_MAX));
}
inline uint8_t U8(const Int& v, const char* fn, const char* arg) {
    return static_cast<uint8_t>(detail::Ranged(v.value, fn, arg, 0, UINT8_MAX));
}
/// For a plain handle (list items, tuple fields).
inline uint64_t U64(pybind11::handle h, const char* fn, const char* arg) {
    return U64(Int{pybind11::reinterpret_borrow<pybind11::object>(h)}, fn, arg);
}
inline uint32_t U32(pybind11::handle h, const char* fn, const char* arg) {
    return U32(Int{pybind11::reinterpret_borrow<pybind11::object>(h)}, fn, arg);
}
/// An array slice given under either of its two names (read_texture's `array_slice`, write_texture's
/// `slice`; each call takes the other's name too): 0 when neither is given, an error when both are.
inline uint32_t ArraySliceArg(const std::optional<Int>& v, const char* name, const std::optional<Int>& alias, const char* aliasName, const char* fn) {
    if (v && alias)
        throw InvalidArgument(std::string(fn) + ": give " + name + "= or " + aliasName + "= (the same array slice under two names), not both");
    if (alias) return U32(*alias, fn, aliasName);
    return v ? U32(*v, fn, name) : 0;
}

/// A float; TypeError for non-numbers. NaN and infinities pass: callers check what they need.
inline float F32(pybind11::handle h, const char* fn, const char* arg) {
    if (!h || h.is_none() || PyUnicode_Check(h.ptr()) || PyBytes_Check(h.ptr()))
        throw pybind11::type_error(detail::Where(fn, arg) + " must be a number, not " + detail::TypeName(h));
    const double d = PyFloat_AsDouble(h.ptr());
    if (d == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        throw pybind11::type_error(detail::Where(fn, arg) + " must be a number, not " + detail::TypeName(h));
    }
    return static_cast<float>(d);
}
inline float F32(const Float& v, const char* fn, const char* arg) {
    return F32(v.value, fn, arg);
}
/// A finite float (not NaN or infinite), as float32.
inline float Finite(const Float& v, const char* fn, const char* arg) {
    const float f = F32(v, fn, arg);
    if (!std::isfinite(f)) throw InvalidArgument(detail::Where(fn, arg) + " must be a finite number, got " + std::string(pybind11::repr(v.value)));
    return f;
}

/// A str; TypeError otherwise.
inline std::string Str(pybind11::handle h, const char* fn, const char* arg) {
    if (!h || !PyUnicode_Check(h.ptr())) throw pybind11::type_error(detail::Where(fn, arg) + " must be a str, not " + detail::TypeName(h));
    Py_ssize_t n = 0;
    const char* s = PyUnicode_AsUTF8AndSize(h.ptr(), &n);
    if (!s) {
        PyErr_Clear();
        throw InvalidArgument(detail::Where(fn, arg) + " is not valid UTF-8 text (lone surrogates?)");
    }
    return std::string(s, static_cast<size_t>(n));
}

}  // namespace dx12kit::bindings

namespace pybind11::detail {

// Int and Float accept any object (the checks above name the argument); signatures and stubs say
// typing.SupportsIndex (ints, numpy integers) and typing.SupportsFloat | typing.SupportsIndex.
template <>
struct type_caster<dx12kit::bindings::Int> {
    PYBIND11_TYPE_CASTER(dx12kit::bindings::Int, const_name("typing.SupportsIndex"));
    bool load(handle src, bool) {
        if (!src) return false;
        value.value = reinterpret_borrow<object>(src);
        return true;
    }
    static handle cast(const dx12kit::bindings::Int& v, return_value_policy, handle) { return v.value.inc_ref(); }
};
template <>
struct type_caster<dx12kit::bindings::Float> {
    PYBIND11_TYPE_CASTER(dx12kit::bindings::Float, const_name("typing.SupportsFloat | typing.SupportsIndex"));
    bool load(handle src, bool) {
        if (!src) return false;
        value.value = reinterpret_borrow<object>(src);
        return true;
    }
    static handle cast(const dx12kit::bindings::Float& v, return_value_policy, handle) { return v.value.inc_ref(); }
};

}  // namespace pybind11::detail
