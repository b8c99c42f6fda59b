// "Did you mean" suggestions (dx12kit/base/CloseNames.hpp).
#include "dx12kit/base/CloseNames.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace dx12kit {

namespace {

std::string Lower(const std::string& s) {
    std::string out = s;
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// Matching characters of a[alo, ahi) and b[blo, bhi) as difflib.SequenceMatcher (no junk) finds
/// them: the longest common block (earliest in a, then in b), then the same on each side.
size_t Matches(const std::string& a, size_t alo, size_t ahi, const std::string& b, size_t blo, size_t bhi) {
    if (alo >= ahi || blo >= bhi) return 0;
    size_t bestI = alo, bestJ = blo, bestSize = 0;
    std::vector<size_t> prev(bhi - blo + 1, 0), cur(bhi - blo + 1, 0);
    for (size_t i = alo; i < ahi; ++i) {
        for (size_t j = blo; j < bhi; ++j) {
            const size_t k = a[i] == b[j] ? prev[j - blo] + 1 : 0;
            cur[j - blo + 1] = k;
            if (k > bestSize) {
                bestI = i + 1 - k;
                bestJ = j + 1 - k;
                bestSize = k;
            }
        }
        std::swap(prev, cur);
        std::fill(cur.begin(), cur.end(), 0);
    }
    if (bestSize == 0) return 0;
    return bestSize + Matches(a, alo, bestI, b, blo, bestJ) + Matches(a, bestI + bestSize, ahi, b, bestJ + bestSize, bhi);
}

}  // namespace

double NameSimilarity(const std::string& a, const std::string& b) {
    const size_t total = a.size() + b.size();
    return total ? 2.0 * static_cast<double>(Matches(a, 0, a.size(), b, 0, b.size())) / static_cast<double>(total) : 1.0;
}

std::vector<std::string> CloseNames(const std::string& word, const std::vector<std::string>& names, size_t n, double cutoff) {
    const std::string w = Lower(word);
    std::vector<std::pair<double, std::string>> scored;
    for (const std::string& name : names) {
        const double r = NameSimilarity(Lower(name), w);
        if (r >= cutoff) scored.emplace_back(r, name);
    }
    // heapq.nlargest over (score, name): the highest score first, ties by the larger name.
    std::sort(scored.begin(), scored.end(), [](const auto& x, const auto& y) { return x > y; });
    scored.erase(std::unique(scored.begin(), scored.end()), scored.end());
    std::vector<std::string> out;
    for (size_t i = 0; i < scored.size() && out.size() < n; ++i) out.push_back(scored[i].second);
    return out;
}

std::string QuotedCloseNames(const std::string& word, const std::vector<std::string>& names, size_t n) {
    std::string out;
    for (const std::string& name : CloseNames(word, names, n)) out += (out.empty() ? "'" : ", '") + name + "'";
    return out;
}

std::string DidYouMean(const std::string& word, const std::vector<std::string>& names, size_t n) {
    return DidYouMean(CloseNames(word, names, n));
}

std::string DidYouMean(const std::vector<std::string>& close) {
    std::string out;
    for (const std::string& name : close) out += (out.empty() ? "; did you mean '" : ", '") + name + "'";
    return out.empty() ? out : out + "?";
}

}  // namespace dx12kit
