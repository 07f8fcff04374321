// The 1 x n Cram strip is the octal game 0.07, Dawson's Kayles, on a heap of
// n (a domino takes two adjacent beans, leaving no heap, one or two), which is
// Dawson's chess, 0.137, on a heap of n - 1 (Winning Ways ch. 4; "Cram with the
// last move losing", "Why ten: the strip is Dawson's Kayles"). The octal values are computed here by the octal rule
// alone and checked against the published sequence (OEIS A002187) and its period 34; the engine's normal values of
// every position of every strip 1 x 1 .. 1 x 16 must then be the nim-sum of the values of the position's runs of empty
// cells.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/games/cram.hpp"
#include "cgtb/rules/impartial.hpp"
#include "reference_solver.hpp"

namespace {

/// Grundy values G(0..n_max) of the octal game with digits d[1], d[2], ...
/// (Winning Ways ch. 4): removing t beans is allowed leaving no heap if bit 1 of d[t]
/// is set, one non-empty heap if bit 2, two non-empty heaps if bit 4.
std::vector<int> octal_values(const std::vector<int>& digits, int n_max) {
  std::vector<int> g(static_cast<std::size_t>(n_max) + 1, 0);
  for (int n = 0; n <= n_max; ++n) {
    std::set<int> seen;
    for (int t = 1; t < static_cast<int>(digits.size()) && t <= n; ++t) {
      const int d = digits[static_cast<std::size_t>(t)], rest = n - t;
      if ((d & 1) && rest == 0) seen.insert(0);
      if ((d & 2) && rest > 0) seen.insert(g[static_cast<std::size_t>(rest)]);
      if (d & 4)
        for (int a = 1; a < rest; ++a)
          seen.insert(g[static_cast<std::size_t>(a)] ^ g[static_cast<std::size_t>(rest - a)]);
    }
    g[static_cast<std::size_t>(n)] = cgtb_test::reference_mex(seen);
  }
  return g;
}

const std::vector<int> kDawsonsKayles = {0, 0, 7};    // 0.07
const std::vector<int> kDawsonsChess = {0, 1, 3, 7};  // 0.137

// OEIS A002187, Sprague-Grundy values of Dawson's Kayles, n = 0..86 (the
// values through the first occurrence of 9).
const std::vector<int> kPublished = {0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0,
                                     1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0,
                                     3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5,
                                     3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9};

TEST(DawsonsKayles, OctalRuleFor0_07GivesThePublishedSequence) {
  const auto g = octal_values(kDawsonsKayles, static_cast<int>(kPublished.size()) - 1);
  EXPECT_EQ(g, kPublished);
}

// Period 34 from heap 53 on; heap 52 (Dawson's chess heap 51, the last
// exceptional value of Winning Ways' table) still breaks it.
TEST(DawsonsKayles, IsPeriodic34FromHeap53) {
  const auto g = octal_values(kDawsonsKayles, 1200);
  for (std::size_t n = 53; n + 34 < g.size(); ++n) ASSERT_EQ(g[n], g[n + 34]) << "heap " << n;
  EXPECT_NE(g[52], g[52 + 34]);
}

TEST(DawsonsKayles, IsDawsonsChess0_137OnAHeapOneSmaller) {
  const auto kayles = octal_values(kDawsonsKayles, 600);
  const auto chess = octal_values(kDawsonsChess, 600);
  for (std::size_t n = 1; n < kayles.size(); ++n) ASSERT_EQ(kayles[n], chess[n - 1]) << "heap " << n;
}

class CramStripIsDawsonsKayles : public ::testing::TestWithParam<int> {};

TEST_P(CramStripIsDawsonsKayles, EveryPositionIsTheNimSumOfItsRuns) {
  const int n = GetParam();
  const auto g = octal_values(kDawsonsKayles, n);
  using rule = cgtb::impartial_rule<-1>;
  cgtb::cram game(1, n);
  std::map<int, std::vector<int>> got;
  cgtb::solve<cgtb::cram, rule>(game, {},
                                [&](const cgtb::level_report& rep, const cgtb::level_records<rule::record>& rec) {
                                  for (std::uint64_t i = 0; i < rep.positions; ++i) got[rep.level].push_back(rec[i].g);
                                });
  ASSERT_EQ(got[n].size(), 1u);
  EXPECT_EQ(got[n][0], g[static_cast<std::size_t>(n)]) << "the empty strip 1x" << n;
  const auto by_size = cgtb_test::subsets_by_size(n);
  for (int level = n % 2; level <= n; level += 2) {
    const auto& masks = by_size[static_cast<std::size_t>(level)];
    ASSERT_EQ(got[level].size(), masks.size());
    for (std::size_t i = 0; i < masks.size(); ++i) {
      int expect = 0, run = 0;
      for (int c = 0; c <= n; ++c) {
        if (c < n && ((masks[i] >> c) & 1)) {
          ++run;
        } else {
          expect ^= g[static_cast<std::size_t>(run)];
          run = 0;
        }
      }
      ASSERT_EQ(got[level][i], expect) << game.format(masks[i]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Strips, CramStripIsDawsonsKayles, ::testing::Range(1, 17),
                         [](const ::testing::TestParamInfo<int>& i) { return "Strip1x" + std::to_string(i.param); });

}  // namespace
