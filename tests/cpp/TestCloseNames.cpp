// "Did you mean" (base/CloseNames.hpp): difflib.get_close_matches' rule, without a device.
#include <doctest.h>

#include "dx12kit/base/CloseNames.hpp"

#include <string>
#include <vector>

using namespace dx12kit;

TEST_SUITE("host") {

TEST_CASE("close names: difflib's similarity, cutoff and order") {
    CHECK(NameSimilarity("abcd", "bcde") == doctest::Approx(0.75));
    CHECK(NameSimilarity("", "") == 1.0);
    const std::vector<std::string> kinds = {"direct", "compute", "copy", "graphics"};
    CHECK(CloseNames("computee", kinds) == std::vector<std::string>{"compute"});
    CHECK(CloseNames("COPY", kinds) == std::vector<std::string>{"copy"});  // compared in lower case
    CHECK(CloseNames("zzzz", kinds).empty());
    // difflib.get_close_matches("appel", ["ape", "apple", "peach", "puppy"]) == ["apple", "ape"]
    CHECK(CloseNames("appel", {"ape", "apple", "peach", "puppy"}) == std::vector<std::string>{"apple", "ape"});
    CHECK(CloseNames("ab", {"ab", "ab", "abc"}, 3) == std::vector<std::string>{"ab", "abc"});  // duplicates once
    CHECK(DidYouMean("clmap", {"wrap", "mirror", "clamp", "border"}) == "; did you mean 'clamp'?");
    CHECK(DidYouMean("qqq", {"wrap"}).empty());
    CHECK(DidYouMean(std::vector<std::string>{"a", "b"}) == "; did you mean 'a', 'b'?");
    CHECK(DidYouMean(std::vector<std::string>{}).empty());
    CHECK(QuotedCloseNames("appel", {"ape", "apple"}) == "'apple', 'ape'");
}

}  // TEST_SUITE
