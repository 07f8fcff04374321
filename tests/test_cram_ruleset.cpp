// The Cram ruleset passes the ruleset self-test (tests/ruleset_selftest.hpp)
// on every level of a sweep of boards: exhaustively up to 16 cells, on random
// samples of each level for boards of up to 64 cells. Options are compared
// with the reference solver's move generator (tests/reference_solver.hpp).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cgtb/games/cram.hpp"
#include "reference_solver.hpp"
#include "ruleset_selftest.hpp"

namespace {

using cgtb_test::cram_reference;

struct cram_traits {
  cram_reference ref;
  std::uint64_t all() const { return ref.full(); }
  bool valid(int level, std::uint64_t p) const { return (p & ~all()) == 0 && __builtin_popcountll(p) == level; }
  int level_of(std::uint64_t p) const { return __builtin_popcountll(p); }
  std::vector<std::uint64_t> plain_options(int, std::uint64_t p) const { return ref.options(p); }
  bool option_level_ok(int from, int to) const { return to == from - 2; }
};

struct board {
  int rows, cols;
};

void PrintTo(const board& b, std::ostream* os) { *os << b.rows << "x" << b.cols; }

std::string board_name(const ::testing::TestParamInfo<board>& i) {
  return "Cram" + std::to_string(i.param.rows) + "x" + std::to_string(i.param.cols);
}

class CramRulesetSelfTest : public ::testing::TestWithParam<board> {};

// Every level 0..cells (the view indexes all of them; the tablebase keeps
// those of the board's parity).
TEST_P(CramRulesetSelfTest, EveryLevelIsABijectionWithOptionsAndParentsInverse) {
  const board b = GetParam();
  cgtb::cram game(b.rows, b.cols);
  const auto view = game.host_view();
  cram_traits traits{cram_reference(b.rows, b.cols)};
  std::vector<int> levels;
  for (int l = 0; l <= b.rows * b.cols; ++l) levels.push_back(l);
  cgtb_test::selftest_limits lim;
  lim.samples = 40;  // per level of more than lim.exhaustive positions
  cgtb_test::ruleset_selftest(view, traits, levels, lim);
}

INSTANTIATE_TEST_SUITE_P(Exhaustive, CramRulesetSelfTest,
                         ::testing::Values(board{1, 1}, board{1, 2}, board{1, 12}, board{12, 1}, board{2, 2},
                                           board{2, 8}, board{8, 2}, board{3, 3}, board{3, 5}, board{5, 3},
                                           board{4, 4}),
                         board_name);
// 64 cells reach the top bit of the mask and C(64, 32) in the index.
INSTANTIATE_TEST_SUITE_P(Sampled, CramRulesetSelfTest,
                         ::testing::Values(board{8, 8}, board{4, 16}, board{7, 9}, board{64, 1}, board{2, 26}),
                         board_name);

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
