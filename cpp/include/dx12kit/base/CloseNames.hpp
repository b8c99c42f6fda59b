// "Did you mean": the known names closest to a misspelt one, picked as Python's
// difflib.get_close_matches picks them (Ratcliff/Obershelp similarity of at least 0.6, best first,
// ties by the larger name). The one helper behind every "unknown name" error: formats, choices
// (Choices.hpp), resource states, and the Python layer's own parsers (dx12kit/_names.py, through
// dx12core._close_names).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace dx12kit {

/// difflib.SequenceMatcher(None, a, b).ratio(): 2 * matching characters / (len(a) + len(b)).
double NameSimilarity(const std::string& a, const std::string& b);

/// Up to `n` of `names` closest to `word` (similarity >= `cutoff`), best first; compared in lower case.
std::vector<std::string> CloseNames(const std::string& word, const std::vector<std::string>& names, size_t n = 3, double cutoff = 0.6);

/// "'a', 'b'" for CloseNames(word, names, n), or "" when no name is close.
std::string QuotedCloseNames(const std::string& word, const std::vector<std::string>& names, size_t n = 3);

/// "; did you mean 'a'?" (or "; did you mean 'a', 'b'?"), or "" when no name is close.
std::string DidYouMean(const std::string& word, const std::vector<std::string>& names, size_t n = 3);
/// The same for names already picked (`close`, best first; "" when empty): the one spelling of the
/// suggestion, for callers that pick from several lists (a format name or a vertex format) or by
/// their own closeness (CloseFormatNames).
std::string DidYouMean(const std::vector<std::string>& close);

}  // namespace dx12kit
