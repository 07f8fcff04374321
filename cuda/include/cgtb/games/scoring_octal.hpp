// Stewart's scoring play octal games and their sums under the four operators
// of F. Stewart, Scoring Play Combinatorial Games, ch. 4. The rules of one
// game (an octal code with points per take size, Def. 3.1.1) are take_break
// (cgtb/games/take_break.hpp). Three position spaces, all with level = total
// beans:
//  - single heaps 0..N of a taking-no-breaking game (single_heap_view);
//  - disjunctive sums (+_l, long rule) of any number of heaps of one game,
//    every multiset of total <= T (heap_multiset_view);
//  - scoring_pair_view: two heaps n, m <= N, each with its own
//    taking-no-breaking game, under +_l, conjunctive (△), selective (▽) or
//    sequential join (▷), all under the long rule (docs/scoring.md).
// Backend instantiations (cgtb-solve lines: the ruleset and the value rule
// each backend is compiled for; CMake collects them, docs/architecture.md):
// cgtb-solve: cgtb::scoring_octal_heaps cgtb::scoring_rule
// cgtb-solve: cgtb::scoring_octal_multisets cgtb::scoring_rule
// cgtb-solve: cgtb::scoring_sum cgtb::scoring_rule
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/games/take_break.hpp"
#include "cgtb/hd.hpp"

namespace cgtb {

/// Largest total of the multiset position space.
inline constexpr int kMaxMultisetTotal = kMaxMultisetHeap;

/// The four operators of Scoring Play Combinatorial Games, ch. 4 (all under
/// the long rule).
enum class sum_op : int {
  disjunctive = 0,  ///< +_l: move in one component that has a move
  conjunctive = 1,  ///< △: move in every component that has a move
  selective = 2,    ///< ▽: move in any non-empty set of components that have a move
  sequential = 3,   ///< ▷: move in the first component while it has a move, then the second
};

/// Two heaps (n of the left game, m of the right game), 0 <= n, m <= N, of
/// taking-no-breaking games, under one operator. Level L = n + m; on level L
/// the rank of (n, m) is n - max(0, L - N).
struct scoring_pair_view {
  take_break_words left, right;
  int max_heap;  ///< N
  sum_op op;

  struct position {
    std::int32_t n, m;
  };

  CGTB_HD int low(int level) const { return level > max_heap ? level - max_heap : 0; }
  CGTB_HD int high(int level) const { return level < max_heap ? level : max_heap; }
  CGTB_HD std::uint64_t level_size(int level) const { return static_cast<std::uint64_t>(high(level) - low(level) + 1); }
  CGTB_HD position unrank(int level, std::uint64_t r) const {
    const int n = low(level) + static_cast<int>(r);
    return {n, level - n};
  }
  CGTB_HD std::uint64_t rank(int level, position p) const { return static_cast<std::uint64_t>(p.n - low(level)); }
  CGTB_HD position next(int, position p) const { return {p.n + 1, p.m - 1}; }

  /// Calls f(option_level, option_rank, points) for every option of (n, m)
  /// under the operator (Scoring Play Combinatorial Games, Defs. 3.1.2,
  /// 4.1.1, 4.2.1, 4.3.1).
  template <class F>
  CGTB_HD void for_each_scored_option(int, position p, F&& f) const {
    auto emit = [&](int n, int m, std::int32_t pts) {
      const int l = n + m;
      f(l, static_cast<std::uint64_t>(n - low(l)), pts);
    };
    const bool lm = left.has_move(p.n), rm = right.has_move(p.m);
    const bool alone_left = op == sum_op::disjunctive || op == sum_op::selective || op == sum_op::sequential ||
                            (op == sum_op::conjunctive && !rm);
    const bool alone_right = op == sum_op::disjunctive || op == sum_op::selective ||
                             (op == sum_op::conjunctive && !lm) || (op == sum_op::sequential && !lm);
    const bool both = op == sum_op::selective || op == sum_op::conjunctive;
    // Taking-no-breaking games: a move leaves one heap c (0 = none).
    if (alone_left) left.for_each_move(p.n, [&](int, int r, std::int32_t pts) { emit(r, p.m, pts); });
    if (alone_right) right.for_each_move(p.m, [&](int, int r, std::int32_t pts) { emit(p.n, r, pts); });
    if (both)
      left.for_each_move(p.n, [&](int, int r, std::int32_t pts) {
        right.for_each_move(p.m, [&](int, int s, std::int32_t qts) { emit(r, s, pts + qts); });
      });
  }
  template <class F>
  CGTB_HD void for_each_option(int level, position p, F&& f) const {
    for_each_scored_option(level, p, [&](int l, std::uint64_t r, std::int32_t) { f(l, r); });
  }
  CGTB_HD int option_count(position p) const {
    int c = 0;
    for_each_scored_option(p.n + p.m, p, [&](int, std::uint64_t, std::int32_t) { ++c; });
    return c;
  }
};

/// Host owner of a one-game scoring octal tablebase: single heaps 0..N of a
/// taking-no-breaking game, or every multiset of heaps with total <= T.
class scoring_octal {
 public:
  static constexpr const char* ruleset_name = "scoring-octal";
  enum class space { heaps, multisets };

  /// Throws input_error when N < 0, when a breaking game asks for single
  /// heaps, or when multisets are asked with T > kMaxMultisetTotal.
  scoring_octal(take_break rules, int max, space s);
  /// Parses canonical params "CODE:POINTS max=N positions=heaps|multisets".
  static scoring_octal from_params(const std::string& params);
  std::string params() const;

  const take_break& rules() const { return rules_; }
  int max() const { return max_; }
  space positions() const { return space_; }
  std::vector<int> levels() const;
  int option_level_span() const { return rules_.max_take; }
  const std::vector<std::uint64_t>& table() const { return table_; }

 protected:
  take_break rules_;
  int max_;
  space space_;
  std::vector<std::uint64_t> table_;  // rules_.words(), then multiset_index::table (multisets)
};

/// The single-heap build.
class scoring_octal_heaps : public scoring_octal {
 public:
  using view_type = single_heap_view;
  using position = single_heap_view::position;
  explicit scoring_octal_heaps(const scoring_octal& g) : scoring_octal(g) {}
  view_type view(const std::uint64_t* table) const { return {rules_at(rules_, table)}; }
  view_type host_view() const { return view(table_.data()); }
};

/// The multiset build.
class scoring_octal_multisets : public scoring_octal {
 public:
  using view_type = heap_multiset_view;
  using position = heap_multiset;
  explicit scoring_octal_multisets(const scoring_octal& g) : scoring_octal(g) {}
  view_type view(const std::uint64_t* table) const {
    return {rules_at(rules_, table), {table + rules_.max_take + 1, max_, false}};
  }
  view_type host_view() const { return view(table_.data()); }
};

/// G_s(0..bound) of single heaps of a taking-no-breaking game, on the host
/// (the value rule's recurrence, gs_max). Throws input_error for a breaking
/// game or a negative bound.
std::vector<std::int64_t> gs_sequence(const take_break& rules, int bound);

/// Parses "disjunctive", "conjunctive", "selective" or "sequential"; throws
/// input_error otherwise.
sum_op parse_sum_op(const std::string& text);
const char* sum_op_name(sum_op op);
/// ASCII operator of query texts: '+', '^', 'v', '>'.
char sum_op_symbol(sum_op op);

/// Host owner of a two-component scoring sum table (n, m <= N).
class scoring_sum {
 public:
  using view_type = scoring_pair_view;
  using position = scoring_pair_view::position;
  static constexpr const char* ruleset_name = "scoring-sum";

  /// Throws input_error when N < 0 or a component's game breaks heaps.
  scoring_sum(sum_op op, take_break left, take_break right, int max);
  /// Parses canonical params "op=OP left=CODE:POINTS right=CODE:POINTS max=N".
  static scoring_sum from_params(const std::string& params);
  std::string params() const;

  sum_op op() const { return op_; }
  int max() const { return max_; }
  const take_break& left() const { return left_; }
  const take_break& right() const { return right_; }
  std::vector<int> levels() const;
  int option_level_span() const { return left_.max_take + right_.max_take; }
  /// The left game's words (take_break::words), then the right game's.
  const std::vector<std::uint64_t>& table() const { return table_; }
  view_type view(const std::uint64_t* table) const {
    return {rules_at(left_, table), rules_at(right_, table + left_.max_take + 1), max_, op_};
  }
  view_type host_view() const { return view(table_.data()); }

 private:
  sum_op op_;
  take_break left_, right_;
  int max_;
  std::vector<std::uint64_t> table_;
};

}  // namespace cgtb
