// dx12core.choice_tables(): the names each choice argument accepts (ChoiceTables.hpp), the one source from
// which dx12kit.enums makes its str enums and their <Enum>Name Literals, and scripts/gen-stubs.sh their stub.
#include "docs/ChoiceTablesDocs.hpp"
#include "GpuArgs.hpp"

#include <iterator>

namespace dx12kit::bindings {

namespace {

template <typename Tag>
void AddTable(py::dict& out) {
    constexpr size_t n = std::size(Tag::kTable), members = n - kAliases<Tag>;
    static_assert(kAliases<Tag> < n, "a choice table needs at least one member");
    py::list names, aliases;
    for (size_t i = 0; i < n; ++i) (i < members ? names : aliases).append(Tag::kTable[i].name);
    const std::string qualified = Tag::kEnum;  // "dx12kit.<Enum>"
    out[py::str(qualified.substr(qualified.rfind('.') + 1))] = py::make_tuple(py::tuple(names), py::tuple(aliases));
}

}  // namespace

void BindChoiceTables(py::module_& m) {
    m.def(
        "choice_tables",
        [] {
            py::dict out;
#define DX12KIT_ADD_TABLE(Tag) AddTable<Tag>(out);
            DX12KIT_CHOICE_TAGS(DX12KIT_ADD_TABLE)
#undef DX12KIT_ADD_TABLE
            return out;
        },
        docs::dx12core::choice_tables);
}

}  // namespace dx12kit::bindings
