// The ruleset self-test every game passes (STYLE.md, the GamesmanOne row;
// docs/architecture.md, "A ruleset"). tests/test_ruleset_selftest.cpp runs it
// on every ruleset the backends are instantiated for.
//
// On one level of a ruleset's view it checks that
//   - unrank/rank is a bijection between [0, level_size) and the level's
//     positions (every unranked position is valid and of that level, ranks
//     back to its rank, and no two ranks share a position; where the Traits
//     count the level's positions, level_size is that count, so unrank is
//     onto);
//   - next() walks the ranks in order: next(unrank(r)) == unrank(r + 1);
//   - option_count() counts the options the view's walks report;
//   - every option lands on a level the ruleset declares, with a rank below
//     that level's size;
//   - the options, as ranked by the ruleset's fast (incremental) walk, are
//     exactly the plain ranks of the positions an independent move generator
//     gives (a multiset comparison), for whichever walks the view has:
//       for_each_option (impartial)        against plain_options,
//       for_each_left_option and _right_   against plain_left_options and
//         (partizan)                       plain_right_options, and the joint
//                                          walk, where the view has one,
//                                          against the two;
//       for_each_scored_option (scoring)   against plain_scored_options,
//                                          points included;
//   - where the view has for_each_parent(): parents invert options, both ways
//     (every parent of p has p among its options; every option of p has p
//     among its parents).
// Levels up to `exhaustive` positions are checked rank by rank; larger levels
// on a fixed-seed random sample plus their first and last ranks.
//
// The game supplies a Traits object:
//   bool valid(int level, position p) const;          p is a position of level
//   int level_of(position p) const;                   the level measure of p
//   bool option_level_ok(int from, int to) const;     options of `from` may land on `to`
// and, found without the view (positions after each move, as the view ranks
// them: canonical where the index is symmetry-reduced):
//   std::vector<position> plain_options(int level, position p) const;
//   std::vector<position> plain_left_options(int level, position p) const;
//   std::vector<position> plain_right_options(int level, position p) const;
//   std::vector<std::pair<position, std::int32_t>> plain_scored_options(int level, position p) const;
// (those the view's walks need), and optionally
//   std::uint64_t positions(int level) const;         the number of positions of the level
//   K key(position p) const;                          an ordered, comparable image of p
//                                                     (default: p itself, which then
//                                                     needs operator< and ==)
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "cgtb/impartial_driver.hpp"  // cgtb::has_parents
#include "cgtb/rules/partizan.hpp"    // cgtb::detail::has_joint_option_walk

namespace cgtb_test {

struct selftest_limits {
  std::uint64_t exhaustive = std::uint64_t{1} << 14;  ///< check every rank of levels up to this size
  int samples = 150;                                  ///< random ranks of a larger level
  std::uint64_t seed = 20261129;
};

namespace detail {

using placed = std::pair<int, std::uint64_t>;                 // (level, rank)
using scored = std::tuple<int, std::uint64_t, std::int32_t>;  // (level, rank, points)

/// A callable of any option-walk shape (unevaluated detection only).
struct any_sink {
  template <class... A>
  void operator()(A...) const {}
};

#define CGTB_SELFTEST_DETECT(name, expr) \
  template <class V, class = void>       \
  struct name : std::false_type {};      \
  template <class V>                     \
  struct name<V, std::void_t<decltype(std::declval<const V&>().expr)>> : std::true_type {};
CGTB_SELFTEST_DETECT(has_option_walk, for_each_option(0, std::declval<typename V::position>(), any_sink{}))
CGTB_SELFTEST_DETECT(has_sided_walk, for_each_left_option(0, std::declval<typename V::position>(), any_sink{}))
CGTB_SELFTEST_DETECT(has_scored_walk, for_each_scored_option(0, std::declval<typename V::position>(), any_sink{}))
CGTB_SELFTEST_DETECT(has_level_count, positions(0))
CGTB_SELFTEST_DETECT(has_part_walk,
                     for_each_option_part(0, std::declval<typename V::position>(), any_sink{}, any_sink{}))
#undef CGTB_SELFTEST_DETECT

// What a game's Traits can check. A view may offer more walks than its game
// uses (single_heap_view's plain option walk beside its scored one), so each
// walk is checked where the traits give its plain counterpart.
#define CGTB_SELFTEST_TRAIT(name, member)   \
  template <class T, class P, class = void> \
  struct name : std::false_type {};         \
  template <class T, class P>               \
  struct name<T, P, std::void_t<decltype(std::declval<const T&>().member(0, std::declval<P>()))>> : std::true_type {};
CGTB_SELFTEST_TRAIT(traits_scored, plain_scored_options)
CGTB_SELFTEST_TRAIT(traits_options, plain_options)
CGTB_SELFTEST_TRAIT(traits_part_options, plain_part_options)
#undef CGTB_SELFTEST_TRAIT
template <class T, class P, class = void>
struct has_key : std::false_type {};
template <class T, class P>
struct has_key<T, P, std::void_t<decltype(std::declval<const T&>().key(std::declval<P>()))>> : std::true_type {};

template <class Traits, class P>
auto key_of(const Traits& t, const P& p) {
  if constexpr (has_key<Traits, P>::value)
    return t.key(p);
  else
    return p;
}

template <class View, class Walk>
std::vector<placed> collect(Walk&& walk) {
  std::vector<placed> out;
  walk([&](int l, std::uint64_t r) { out.emplace_back(l, r); });
  std::sort(out.begin(), out.end());
  return out;
}

template <class View>
std::vector<placed> fast_options(const View& view, int level, typename View::position p) {
  return collect<View>([&](auto f) { view.for_each_option(level, p, f); });
}

template <class View>
std::vector<placed> parents_of(const View& view, int level, typename View::position p) {
  return collect<View>([&](auto f) { view.for_each_parent(level, p, f); });
}

inline bool contains(const std::vector<placed>& v, const placed& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

/// Ranks a plain option with the view's plain rank (fatal failure when the
/// rank is out of range or does not unrank back to the option).
template <class View, class Traits>
placed place(const View& view, const Traits& traits, const typename View::position& o) {
  const int ol = traits.level_of(o);
  const std::uint64_t orank = view.rank(ol, o);
  [&] {
    ASSERT_LT(orank, view.level_size(ol)) << "a plain option ranks outside level " << ol;
    ASSERT_EQ(key_of(traits, view.unrank(ol, orank)), key_of(traits, o)) << "a plain option does not unrank back";
  }();
  return {ol, orank};
}

/// The fast walk's options against the plain generator's, and their levels.
template <class View, class Traits>
void expect_same_options(const View& view, const Traits& traits, int level, const std::vector<placed>& fast,
                         const std::vector<typename View::position>& plain_positions, const char* walk) {
  for (const placed& o : fast) {
    ASSERT_TRUE(traits.option_level_ok(level, o.first)) << walk << ": option on undeclared level " << o.first;
    ASSERT_LT(o.second, view.level_size(o.first)) << walk;
  }
  std::vector<placed> plain;
  for (const auto& o : plain_positions) {
    plain.push_back(place(view, traits, o));
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::sort(plain.begin(), plain.end());
  ASSERT_EQ(fast, plain) << walk << ": the fast option walk disagrees with the plain move generator";
}

}  // namespace detail

/// Runs the self-test on one level (see the file comment). Stops at the first
/// failure of a position (gtest fatal failure).
template <class View, class Traits>
void ruleset_selftest_level(const View& view, const Traits& traits, int level, const selftest_limits& lim = {}) {
  using position = typename View::position;
  using detail::placed;
  const std::uint64_t size = view.level_size(level);
  if constexpr (detail::has_level_count<Traits>::value) {
    ASSERT_EQ(size, traits.positions(level)) << "level " << level << ": level_size is not the number of positions";
  }
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
  std::set<decltype(detail::key_of(traits, std::declval<position>()))> seen;
  for (std::uint64_t r : ranks) {
    SCOPED_TRACE("level " + std::to_string(level) + " rank " + std::to_string(r));
    const position p = view.unrank(level, r);
    ASSERT_TRUE(traits.valid(level, p)) << "unrank gives an invalid position";
    ASSERT_EQ(traits.level_of(p), level);
    ASSERT_EQ(view.rank(level, p), r) << "rank(unrank(r)) != r";
    if (exhaustive) {
      ASSERT_TRUE(seen.insert(detail::key_of(traits, p)).second) << "position repeats";
    }
    if (r + 1 < size) {
      ASSERT_EQ(detail::key_of(traits, view.next(level, p)), detail::key_of(traits, view.unrank(level, r + 1)))
          << "next(unrank(r)) != unrank(r + 1)";
    }

    int options = 0;  // reported by the walks, for option_count
    std::vector<placed> fast;
    constexpr bool scored_check = detail::traits_scored<Traits, position>::value;
    constexpr bool option_check = scored_check || detail::traits_options<Traits, position>::value;
    if constexpr (detail::has_option_walk<View>::value && option_check) {
      fast = detail::fast_options(view, level, p);
      options = static_cast<int>(fast.size());
      if constexpr (detail::has_scored_walk<View>::value && scored_check) {
        std::vector<detail::scored> fs, ps;
        std::vector<position> plain;
        view.for_each_scored_option(level, p,
                                    [&](int l, std::uint64_t o, std::int32_t pts) { fs.emplace_back(l, o, pts); });
        for (const auto& [o, pts] : traits.plain_scored_options(level, p)) {
          plain.push_back(o);
          const placed at = detail::place(view, traits, o);
          if (::testing::Test::HasFatalFailure()) return;
          ps.emplace_back(at.first, at.second, pts);
        }
        std::sort(fs.begin(), fs.end());
        std::sort(ps.begin(), ps.end());
        ASSERT_EQ(fs, ps) << "the scored option walk disagrees with the plain move generator";
        detail::expect_same_options(view, traits, level, fast, plain, "for_each_option");
      } else {
        detail::expect_same_options(view, traits, level, fast, traits.plain_options(level, p), "for_each_option");
      }
      if (::testing::Test::HasFatalFailure()) return;
    }
    if constexpr (detail::has_part_walk<View>::value && detail::traits_part_options<Traits, position>::value) {
      // Options that are sums of stored positions (impartial_sum_rule): each
      // option's parts, as a sorted list, against the plain generator's.
      std::vector<std::vector<placed>> fast_sums, plain_sums;
      std::vector<placed> parts;
      view.for_each_option_part(
          level, p, [&](int l, std::uint64_t o) { parts.emplace_back(l, o); },
          [&]() {
            std::sort(parts.begin(), parts.end());
            fast_sums.push_back(parts);
            parts.clear();
          });
      for (const auto& sum : fast_sums)
        for (const placed& o : sum) {
          ASSERT_TRUE(traits.option_level_ok(level, o.first)) << "a part on undeclared level " << o.first;
          ASSERT_LT(o.second, view.level_size(o.first));
        }
      for (const auto& sum : traits.plain_part_options(level, p)) {
        std::vector<placed> placed_sum;
        for (const auto& o : sum) {
          placed_sum.push_back(detail::place(view, traits, o));
          if (::testing::Test::HasFatalFailure()) return;
        }
        std::sort(placed_sum.begin(), placed_sum.end());
        plain_sums.push_back(placed_sum);
      }
      std::sort(fast_sums.begin(), fast_sums.end());
      std::sort(plain_sums.begin(), plain_sums.end());
      ASSERT_EQ(fast_sums, plain_sums) << "the option-part walk disagrees with the plain move generator";
      options += static_cast<int>(fast_sums.size());
    }
    if constexpr (detail::has_sided_walk<View>::value) {
      const auto left = detail::collect<View>([&](auto f) { view.for_each_left_option(level, p, f); });
      const auto right = detail::collect<View>([&](auto f) { view.for_each_right_option(level, p, f); });
      options += static_cast<int>(left.size() + right.size());
      detail::expect_same_options(view, traits, level, left, traits.plain_left_options(level, p), "Left");
      if (::testing::Test::HasFatalFailure()) return;
      detail::expect_same_options(view, traits, level, right, traits.plain_right_options(level, p), "Right");
      if (::testing::Test::HasFatalFailure()) return;
      if constexpr (cgtb::detail::has_joint_option_walk<View>::value) {
        std::vector<placed> jl, jr;
        view.for_each_left_and_right_option(
            level, p, [&](int l, std::uint64_t o) { jl.emplace_back(l, o); },
            [&](int l, std::uint64_t o) { jr.emplace_back(l, o); });
        std::sort(jl.begin(), jl.end());
        std::sort(jr.begin(), jr.end());
        ASSERT_EQ(jl, left) << "the joint walk's Left options differ from for_each_left_option";
        ASSERT_EQ(jr, right) << "the joint walk's Right options differ from for_each_right_option";
      }
    }
    ASSERT_EQ(options, view.option_count(p)) << "option_count() is not the number of options";

    if constexpr (cgtb::has_parents<View>::value) {
      const placed self{level, r};
      for (const placed& q : detail::parents_of(view, level, p)) {
        ASSERT_LT(q.second, view.level_size(q.first));
        ASSERT_TRUE(detail::contains(detail::fast_options(view, q.first, view.unrank(q.first, q.second)), self))
            << "parent (" << q.first << ", " << q.second << ") does not lead back to it";
      }
      for (const placed& o : fast)
        ASSERT_TRUE(detail::contains(detail::parents_of(view, o.first, view.unrank(o.first, o.second)), self))
            << "option (" << o.first << ", " << o.second << ") does not list it as a parent";
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
