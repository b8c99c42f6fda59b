// The one converter of choice arguments: a dx12kit.enums member or one of its names (a str, matched
// case-insensitively) -> the C++ value. One table per dx12kit.enums enum (ChoiceTables.hpp), beside the C++
// value each name stands for: the enums are made from these tables (there is no copy to keep in step).
//
// A binding takes such an argument as `Choice<Tag>` (or OptChoice<Tag> where None means "not given"):
// it accepts any object, so the conversion below names the argument on failure, and its signature says
// `dx12kit.enums.<Enum> | dx12kit.enums.<Enum>Name`, the second the Literal of the names it accepts.
// dx12kit.enums makes both from these tables (dx12core.choice_tables(), BindChoiceTables.cpp).
//
//   a str that names no choice, or an int that is no choice's value -> InvalidArgumentError listing the names
//   another type (None, a float, a list)                            -> TypeError
#pragma once

#include "Args.hpp"

#include "dx12kit/base/CloseNames.hpp"
#include "dx12kit/base/Errors.hpp"

#include <pybind11/pybind11.h>

#include <cctype>
#include <cstring>
#include <string>
#include <vector>

namespace dx12kit::bindings {

template <typename T>
struct ChoiceEntry {
    const char* name;
    T value;
};

/// A choice argument as Python passed it (borrowed for the call); convert with Parse().
/// What an int means for a choice: the C++ (D3D12) value of one of the choices, a value refused
/// with InvalidArgumentError, or a wrong type (TypeError).
enum class IntChoice { Values, Invalid, WrongType };

template <typename Tag>
struct Choice {
    pybind11::handle value;
};

/// A choice argument where None means "not given" (its default).
template <typename Tag>
struct OptChoice {
    pybind11::handle value;
    bool Given() const { return !value.is_none(); }
};

namespace detail {

/// Case-insensitive equality of an ASCII choice name (lower case) and the argument's text.
inline bool SameName(const char* lower, const char* s, size_t n) {
    if (std::strlen(lower) != n) return false;
    for (size_t i = 0; i < n; ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != lower[i]) return false;
    return true;
}

template <typename Tag>
std::string ChoiceNames() {
    std::string names;
    for (const auto& c : Tag::kTable) names += (names.empty() ? "" : ", ") + std::string(c.name);
    return names;
}

/// The choices' names (aliases too), in table order.
template <typename Tag>
std::vector<std::string> ChoiceNameList() {
    std::vector<std::string> names;
    for (const auto& c : Tag::kTable) names.emplace_back(c.name);
    return names;
}

/// "; did you mean 'x'?" for a name no choice has (dx12kit/base/CloseNames.hpp), or "".
template <typename Tag>
std::string ChoiceDidYouMean(const std::string& lower) {
    return DidYouMean(lower, ChoiceNameList<Tag>());
}

}  // namespace detail

/// The value `h` names. `what` is "<function>: <argument>". An int (or IntEnum) is handled as
/// Tag::kInts says (IntChoice).
template <typename Tag>
typename Tag::Value ParseChoice(pybind11::handle h, const char* what) {
    namespace py = pybind11;
    // dx12kit.enums members are str subclasses and pass as strings; another enum.Enum member with a
    // str value passes as its value.
    py::object valueAttr;
    if (h && !PyUnicode_Check(h.ptr()) && !PyIndex_Check(h.ptr()) && py::hasattr(h, "value")) {
        valueAttr = h.attr("value");
        if (PyUnicode_Check(valueAttr.ptr())) h = valueAttr;
    }
    if (h && PyUnicode_Check(h.ptr())) {
        Py_ssize_t n = 0;
        const char* s = PyUnicode_AsUTF8AndSize(h.ptr(), &n);
        if (!s) {
            PyErr_Clear();
            throw InvalidArgument(std::string(what) + " is not valid UTF-8 text (lone surrogates?)");
        }
        for (const auto& c : Tag::kTable)
            if (detail::SameName(c.name, s, static_cast<size_t>(n))) return c.value;
        std::string lower(s, static_cast<size_t>(n));
        for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        throw InvalidArgument(std::string(what) + ": '" + lower + "' is not one of " + detail::ChoiceNames<Tag>() +
                              detail::ChoiceDidYouMean<Tag>(lower));
    }
    if (h && PyIndex_Check(h.ptr()) && !PyFloat_Check(h.ptr()) && Tag::kInts != IntChoice::WrongType) {
        py::int_ v = detail::Index(h, what, "value");
        int overflow = 0;
        const long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
        const bool values = Tag::kInts == IntChoice::Values;
        if (values && overflow == 0)
            for (const auto& c : Tag::kTable)
                if (static_cast<long long>(c.value) == x) return c.value;
        throw InvalidArgument(std::string(what) + ": " + std::string(py::str(v)) + " is not " + (values ? "the value of one of " : "one of ") +
                              detail::ChoiceNames<Tag>());
    }
    throw py::type_error(std::string(what) + ": expected a " + Tag::kEnum + " or a str (one of " + detail::ChoiceNames<Tag>() + "), not " +
                         detail::TypeName(h));
}

template <typename Tag>
typename Tag::Value Parse(const Choice<Tag>& c, const char* what) {
    return ParseChoice<Tag>(c.value, what);
}
/// The value of a given OptChoice (check Given() first).
template <typename Tag>
typename Tag::Value Parse(const OptChoice<Tag>& c, const char* what) {
    return ParseChoice<Tag>(c.value, what);
}

}  // namespace dx12kit::bindings

namespace pybind11::detail {

// Any object loads (Parse() checks it and names the argument); the signature names the enum.
template <typename Tag>
struct type_caster<dx12kit::bindings::Choice<Tag>> {
    PYBIND11_TYPE_CASTER(dx12kit::bindings::Choice<Tag>,
                         const_name("dx12kit.enums.") + Tag::kPyName + const_name(" | dx12kit.enums.") + Tag::kPyName + const_name("Name"));
    bool load(handle src, bool) {
        if (!src) return false;
        value.value = src;
        return true;
    }
    static handle cast(const dx12kit::bindings::Choice<Tag>& v, return_value_policy, handle) { return v.value.inc_ref(); }
};

template <typename Tag>
struct type_caster<dx12kit::bindings::OptChoice<Tag>> {
    PYBIND11_TYPE_CASTER(dx12kit::bindings::OptChoice<Tag>,
                         const_name("dx12kit.enums.") + Tag::kPyName + const_name(" | dx12kit.enums.") + Tag::kPyName + const_name("Name | None"));
    bool load(handle src, bool) {
        if (!src) return false;
        value.value = src;
        return true;
    }
    static handle cast(const dx12kit::bindings::OptChoice<Tag>& v, return_value_policy, handle) { return v.value.inc_ref(); }
};

}  // namespace pybind11::detail
