// Cram's index beyond the ruleset self-test (tests/test_ruleset_selftest.cpp
// runs that on Cram): the levels a tablebase keeps, rank as the
// combinatorial number system checked against the test's own binomials, and
// the incremental ranks of options (pair_removal_ranks) against ranking each
// option afresh, on boards larger than the self-test's.
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

// The byte-table ranker (file keys of the reachable tables) equals the rank
// of subset_index on every subset of up to 12 cells, where it is also the
// subset's place among the subsets of its size in numeric order (colex
// order), and on random subsets of every ground set up to 64 cells.
TEST(SubsetByteRanker, EqualsSubsetIndexRank) {
  const std::vector<std::uint64_t> binom = cgtb::make_binomial_table();
  for (int n = 0; n <= 12; ++n) {
    const cgtb::subset_byte_ranker ranker(n);
    const cgtb::subset_index index{binom.data(), n};
    std::vector<std::uint64_t> seen(static_cast<std::size_t>(n) + 1, 0);
    for (std::uint64_t s = 0; s < (1ull << n); ++s) {
      const int k = __builtin_popcountll(s);
      ASSERT_EQ(ranker.rank(s), index.rank(s)) << "n " << n << " set " << s;
      ASSERT_EQ(ranker.rank(s), seen[static_cast<std::size_t>(k)]++) << "n " << n << " set " << s;
    }
  }
  std::mt19937_64 rng(5);
  for (int n = 13; n <= 64; ++n) {
    const cgtb::subset_byte_ranker ranker(n);
    const cgtb::subset_index index{binom.data(), n};
    const std::uint64_t all = n == 64 ? ~0ull : (1ull << n) - 1;
    for (int i = 0; i < 2000; ++i) {
      std::uint64_t s = (i % 3 == 0 ? rng() & rng() : i % 3 == 1 ? rng() | rng() : rng()) & all;
      if (i == 0) s = all;
      ASSERT_EQ(ranker.rank(s), index.rank(s)) << "n " << n << " set " << std::hex << s;
    }
  }
}

// Both ways of ranking options (register_removal_ranks, the GPU's, and
// prefix_removal_ranks, the CPU's) give, for every pair (x, x + stride) of a
// set, the rank of the set without both cells, in ascending order of x:
// checked against subset_index::rank of each option on random subsets of 64
// cells, for the strides of horizontal dominoes and of vertical ones on
// boards 2 to 32 wide.
template <class Ranks>
class PairRemovalRanks : public ::testing::Test {};
using RemovalRankers = ::testing::Types<cgtb::register_removal_ranks, cgtb::prefix_removal_ranks>;
TYPED_TEST_SUITE(PairRemovalRanks, RemovalRankers);

TYPED_TEST(PairRemovalRanks, EqualRankingEachOption) {
  using Ranks = TypeParam;
  const std::vector<std::uint64_t> binom = cgtb::make_binomial_table();
  const cgtb::subset_index index{binom.data(), 64};
  std::mt19937_64 rng(11);
  for (int stride : {1, 2, 5, 6, 7, 8, 13, 26, 32}) {
    for (int i = 0; i < 600; ++i) {
      std::uint64_t s = rng() & rng();
      if (i % 3 == 1) s = rng() | rng();
      if (i % 3 == 2) s = rng();
      if (i == 0) s = ~0ull;
      const std::uint64_t pairs = s & (s >> stride);
      std::vector<std::uint64_t> expect, got;
      for (std::uint64_t rest = pairs; rest; rest &= rest - 1) {
        const int x = __builtin_ctzll(rest);
        expect.push_back(index.rank(s & ~(1ull << x) & ~(1ull << (x + stride))));
      }
      Ranks(index, s).for_each(pairs, stride, [&](std::uint64_t r) { got.push_back(r); });
      ASSERT_EQ(got, expect) << std::hex << s << " stride " << std::dec << stride;
      // A subset of the pairs gives the same ranks for those pairs.
      const std::uint64_t some = pairs & rng();
      std::vector<std::uint64_t> want_some, got_some;
      for (std::uint64_t rest = pairs, k = 0; rest; rest &= rest - 1, ++k)
        if ((some >> __builtin_ctzll(rest)) & 1) want_some.push_back(expect[k]);
      Ranks(index, s).for_each(some, stride, [&](std::uint64_t r) { got_some.push_back(r); });
      ASSERT_EQ(got_some, want_some) << std::hex << s << " stride " << std::dec << stride;
      // One walk over both orientations gives each its own ranks.
      const std::uint64_t adjacent = s & (s >> 1) & rng();
      std::vector<std::uint64_t> want_adjacent, got_adjacent, got_strided;
      for (std::uint64_t rest = adjacent; rest; rest &= rest - 1) {
        const int x = __builtin_ctzll(rest);
        want_adjacent.push_back(index.rank(s & ~(3ull << x)));
      }
      Ranks(index, s).for_each(
          adjacent, pairs, stride, [&](std::uint64_t r) { got_adjacent.push_back(r); },
          [&](std::uint64_t r) { got_strided.push_back(r); });
      ASSERT_EQ(got_adjacent, want_adjacent) << std::hex << s << " stride " << std::dec << stride;
      ASSERT_EQ(got_strided, expect) << std::hex << s << " stride " << std::dec << stride;
    }
  }
}

}  // namespace
