// The ruleset self-test every game passes (STYLE.md, the GamesmanOne row;
// docs/architecture.md, "A ruleset").
//
// On one level of a ruleset's view it checks that
//   - unrank/rank is a bijection between [0, level_size) and the level's
//     positions (every unranked position is valid and of that level, ranks
//     back to its rank, and no two ranks share a position);
//   - next() walks the ranks in order: next(unrank(r)) == unrank(r + 1);
//   - option_count() counts the options for_each_option() reports;
//   - every option lands on a level the ruleset declares, with a rank below
//     that level's size;
//   - the options, as ranked by the ruleset's fast (incremental) walk, are
//     exactly the plain ranks of the positions an independent move generator
//     gives (a multiset comparison);
//   - where the view has for_each_parent(): parents invert options, both ways
//     (every parent of p has p among its options; every option of p has p
//     among its parents).
// Levels up to `exhaustive` positions are checked rank by rank; larger levels
// on a fixed-seed random sample plus their first and last ranks.
//
// The game supplies a Traits object:
//   bool valid(int level, position p) const;          p is a position of level
//   int level_of(position p) const;                   the level measure of p
//   std::vector<position> plain_options(int level, position p) const;
//                                                     positions after each move,
//                                                     found without the view
//   bool option_level_ok(int from, int to) const;     options of `from` may land on `to`
// Positions must be ordered by operator< (they go into a std::set).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

namespace cgtb_test {

/// A callable of the shape for_each_option / for_each_parent take.
struct placed_sink {
  void operator()(int, std::uint64_t) const {}
};

/// Whether View has for_each_parent(level, position, f).
template <class View, class = void>
struct has_parents : std::false_type {};
template <class View>
struct has_parents<View, std::void_t<decltype(std::declval<const View&>().for_each_parent(
                             0, std::declval<typename View::position>(), placed_sink{}))>> : std::true_type {};

struct selftest_limits {
  std::uint64_t exhaustive = std::uint64_t{1} << 14;  ///< check every rank of levels up to this size
  int samples = 150;                                  ///< random ranks of a larger level
  std::uint64_t seed = 20261129;
};

namespace detail {

using placed = std::pair<int, std::uint64_t>;  // (level, rank)

template <class View>
std::vector<placed> fast_options(const View& view, int level, typename View::position p) {
  std::vector<placed> out;
  view.for_each_option(level, p, [&](int l, std::uint64_t r) { out.emplace_back(l, r); });
  std::sort(out.begin(), out.end());
  return out;
}

template <class View>
std::vector<placed> parents_of(const View& view, int level, typename View::position p) {
  std::vector<placed> out;
  view.for_each_parent(level, p, [&](int l, std::uint64_t r) { out.emplace_back(l, r); });
  return out;
}

inline bool contains(const std::vector<placed>& v, const placed& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace detail

/// Runs the self-test on one level (see the file comment). Stops at the first
/// failure of a position (gtest fatal failure).
template <class View, class Traits>
void ruleset_selftest_level(const View& view, const Traits& traits, int level, const selftest_limits& lim = {}) {
  using position = typename View::position;
  using detail::placed;
  const std::uint64_t size = view.level_size(level);
  if (size == 0) return;
  const bool exhaustive = size <= lim.exhaustive;
  std::vector<std::uint64_t> ranks;
  if (exhaustive) {
    for (std::uint64_t r = 0; r < size; ++r) ranks.push_back(r);
  } else {
    ranks = {0, 1, size - 2, size - 1};
    std::mt19937_64 rng(lim.seed + static_cast<std::uint64_t>(level));
    std::uniform_int_distribution<std::uint64_t> pick(0, size - 1);
    for (int i = 0; i < lim.samples; ++i) ranks.push_back(pick(rng));
  }
  std::set<position> seen;
  for (std::uint64_t r : ranks) {
    const position p = view.unrank(level, r);
    ASSERT_TRUE(traits.valid(level, p)) << "level " << level << " rank " << r << ": unrank gives an invalid position";
    ASSERT_EQ(traits.level_of(p), level) << "level " << level << " rank " << r;
    ASSERT_EQ(view.rank(level, p), r) << "level " << level << ": rank(unrank(r)) != r";
    if (exhaustive) {
      ASSERT_TRUE(seen.insert(p).second) << "level " << level << " rank " << r << ": position repeats";
    }
    if (r + 1 < size) {
      ASSERT_EQ(view.next(level, p), view.unrank(level, r + 1)) << "level " << level << " rank " << r;
    }

    const std::vector<placed> fast = detail::fast_options(view, level, p);
    ASSERT_EQ(fast.size(), static_cast<std::size_t>(view.option_count(p))) << "level " << level << " rank " << r;
    std::vector<placed> plain;
    for (const position& o : traits.plain_options(level, p)) {
      const int ol = traits.level_of(o);
      const std::uint64_t orank = view.rank(ol, o);
      ASSERT_LT(orank, view.level_size(ol)) << "level " << level << " rank " << r;
      ASSERT_EQ(view.unrank(ol, orank), o) << "level " << level << " rank " << r;
      plain.emplace_back(ol, orank);
    }
    std::sort(plain.begin(), plain.end());
    for (const placed& o : fast) {
      ASSERT_TRUE(traits.option_level_ok(level, o.first))
          << "level " << level << " rank " << r << ": option on undeclared level " << o.first;
      ASSERT_LT(o.second, view.level_size(o.first)) << "level " << level << " rank " << r;
    }
    ASSERT_EQ(fast, plain) << "level " << level << " rank " << r
                           << ": the fast option walk disagrees with the plain move generator";

    if constexpr (has_parents<View>::value) {
      const placed self{level, r};
      for (const placed& q : detail::parents_of(view, level, p)) {
        ASSERT_LT(q.second, view.level_size(q.first)) << "level " << level << " rank " << r;
        ASSERT_TRUE(detail::contains(detail::fast_options(view, q.first, view.unrank(q.first, q.second)), self))
            << "level " << level << " rank " << r << ": parent (" << q.first << ", " << q.second
            << ") does not lead back to it";
      }
      for (const placed& o : fast)
        ASSERT_TRUE(detail::contains(detail::parents_of(view, o.first, view.unrank(o.first, o.second)), self))
            << "level " << level << " rank " << r << ": option (" << o.first << ", " << o.second
            << ") does not list it as a parent";
    }
  }
}

/// Runs the self-test on each of `levels`, stopping at the first failure.
template <class View, class Traits>
void ruleset_selftest(const View& view, const Traits& traits, const std::vector<int>& levels,
                      const selftest_limits& lim = {}) {
  for (int level : levels) {
    ruleset_selftest_level(view, traits, level, lim);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace cgtb_test
