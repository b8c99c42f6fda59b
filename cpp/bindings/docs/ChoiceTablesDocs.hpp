// The Python docstrings of BindChoiceTables.cpp, kept apart from the binding code:
// each constant is named docs::<PythonClass>::<member> after what it documents (class_: the class itself).
#pragma once

namespace dx12kit::bindings::docs {

namespace dx12core {
inline constexpr const char choice_tables[] =
    "The names every choice argument accepts, by dx12kit.enums enum: {enum name: (member values, aliases)}.\n\n"
    "dx12kit.enums makes its str enums (one member per value, in this order) and the <Enum>Name Literals (values\n"
    "and aliases) from this table, so the enums and the bindings' parsers cannot differ. Aliases are other names\n"
    "the parsers accept for a member ('graphics' for 'direct').";
}  // namespace dx12core

}  // namespace dx12kit::bindings::docs
