// Cram's index beyond the ruleset self-test (tests/test_ruleset_selftest.cpp
// runs that on Cram): the levels a tablebase keeps, and rank as the
// combinatorial number system checked against the test's own binomials.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cgtb/games/cram.hpp"

namespace {

TEST(CramRuleset, LevelsAreTheEmptyCellCountsOfTheBoardsParity) {
  EXPECT_EQ(cgtb::cram(4, 5).levels(), (std::vector<int>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20}));
  EXPECT_EQ(cgtb::cram(3, 3).levels(), (std::vector<int>{1, 3, 5, 7, 9}));
  EXPECT_EQ(cgtb::cram(1, 1).levels(), (std::vector<int>{1}));
  EXPECT_EQ(cgtb::cram(4, 5).option_level_span(), 2);
  EXPECT_EQ(cgtb::cram(4, 5).start(), (1ull << 20) - 1);
  EXPECT_EQ(cgtb::cram(8, 8).start(), ~0ull);
}

// rank = sum_j C(c_j, j) over the cells c_1 < ... < c_k (Knuth, TAOCP 7.2.1.3), with
// binomials from the test's own Pascal triangle, on random 64-cell subsets.
TEST(CramRuleset, RankIsTheCombinatorialNumberSystemOn64Cells) {
  std::vector<std::vector<std::uint64_t>> pascal(65, std::vector<std::uint64_t>(66, 0));
  for (int n = 0; n <= 64; ++n) {
    pascal[n][0] = 1;
    for (int k = 1; k <= n; ++k) pascal[n][k] = pascal[n - 1][k - 1] + pascal[n - 1][k];
  }
  cgtb::cram game(8, 8);
  const auto view = game.host_view();
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    std::uint64_t p = rng() & rng();  // about 16 cells set
    if (i % 3 == 1) p = rng() | rng();
    if (i % 3 == 2) p = rng();
    std::uint64_t expect = 0;
    int j = 0;
    for (int c = 0; c < 64; ++c)
      if ((p >> c) & 1) expect += pascal[c][++j];
    const int level = __builtin_popcountll(p);
    ASSERT_EQ(view.rank(level, p), expect) << std::hex << p;
    ASSERT_EQ(view.unrank(level, expect), p) << std::hex << p;
    ASSERT_EQ(view.level_size(level), pascal[64][level]);
  }
  EXPECT_EQ(view.unrank(64, 0), ~0ull);
  EXPECT_EQ(view.rank(64, ~0ull), 0u);
}

}  // namespace
