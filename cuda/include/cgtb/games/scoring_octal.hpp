// Stewart's scoring play octal games (seed 001 Def. 3.1.1) and their sums
// under the four operators of seed 001 chapter 4.
//
// A game O = (n_1 n_2 ... n_k, p_1 p_2 ... p_k): a player removes i beans from
// one heap, scores p_i points, and leaves the rest as 0, 1 or 2 non-empty
// heaps as the octal digit n_i allows (bit 1: no heap, bit 2: one non-empty
// heap, bit 4: two non-empty heaps; Winning Ways ch. 4, BRIEF §4).
//
// Three position spaces, all with level = total beans:
//  - scoring_heap_view: single heaps 0..N of a taking-no-breaking game (one
//    position per level);
//  - scoring_multiset_view: disjunctive sums (+_l, long rule) of any number of
//    heaps of one game, every multiset of total <= T ranked as a partition;
//  - scoring_pair_view: two heaps n, m <= N, each with its own
//    taking-no-breaking game, under +_l, conjunctive (△), selective (▽) or
//    sequential join (▷), all under the long rule (docs/scoring.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/hd.hpp"

namespace cgtb {

/// Largest take size of a scoring octal game.
inline constexpr int kMaxTake = 64;
/// Largest total of the multiset position space (parts held in a byte array).
inline constexpr int kMaxMultisetTotal = 64;

/// The rules of one scoring octal game: digit[i] and points[i] for taking i
/// beans, i = 1..k (index 0 unused). Trivially copyable.
struct octal_rules {
  int k;  ///< largest take size with a non-zero digit
  std::uint8_t digit[kMaxTake + 1];
  std::int32_t points[kMaxTake + 1];

  /// True when some digit allows leaving two heaps (bit 4).
  CGTB_HD bool breaking() const {
    for (int i = 1; i <= k; ++i)
      if (digit[i] & 4) return true;
    return false;
  }

  /// Calls f(t, remaining, points) for every move from a heap of n beans of
  /// a taking-no-breaking game that leaves `remaining` (0 or n - t) beans in
  /// one heap: bit 1 when t == n, bit 2 when t < n.
  template <class F>
  CGTB_HD void for_each_take(int n, F&& f) const {
    const int top = k < n ? k : n;
    for (int t = 1; t <= top; ++t) {
      const int d = digit[t];
      if (t == n ? (d & 1) : (d & 2)) f(t, n - t, points[t]);
    }
  }

  /// Calls f(a, b, points) for every move from a heap of n beans, where a, b
  /// are the heaps left (0 for none; a <= b, a > 0 only when two are left).
  template <class F>
  CGTB_HD void for_each_move(int n, F&& f) const {
    const int top = k < n ? k : n;
    for (int t = 1; t <= top; ++t) {
      const int d = digit[t], r = n - t;
      if (r == 0 && (d & 1)) f(0, 0, points[t]);
      if (r >= 1 && (d & 2)) f(0, r, points[t]);
      if (r >= 2 && (d & 4))
        for (int a = 1; a <= r / 2; ++a) f(a, r - a, points[t]);
    }
  }

  /// True when a heap of n beans has a move.
  CGTB_HD bool has_move(int n) const {
    bool any = false;
    for_each_move(n, [&](int, int, std::int32_t) { any = true; });
    return any;
  }

  /// Parses an octal code (digits 0-7, one per take size, e.g. "0033" or
  /// "0.0033") and points: one digit per take size ("1234"), or a comma
  /// list of signed integers ("1,-2,10"); empty points mean p_i = i. Throws
  /// input_error for a digit above 7, a code without a non-zero digit or
  /// longer than kMaxTake, and points missing or extra.
  static octal_rules parse(const std::string& code, const std::string& points);
  /// Subtraction set "4,5": digit 3 for each member; points p_i = i unless
  /// `points` (as in parse) says otherwise. Throws input_error for an empty
  /// set, a member outside 1..kMaxTake or a malformed list.
  static octal_rules subtraction(const std::string& set, const std::string& points);
  /// Canonical text "CODE:POINTS", e.g. "0033:0,0,4,5" (parse accepts it).
  std::string text() const;
};

/// Single heaps 0..N of a taking-no-breaking game: level n holds heap n.
struct scoring_heap_view {
  octal_rules rules;
  using position = std::int32_t;

  CGTB_HD std::uint64_t level_size(int) const { return 1; }
  CGTB_HD position unrank(int level, std::uint64_t) const { return level; }
  CGTB_HD std::uint64_t rank(int, position) const { return 0; }
  CGTB_HD position next(int level, position) const { return level; }

  template <class F>
  CGTB_HD void for_each_scored_option(int, position n, F&& f) const {
    rules.for_each_take(n, [&](int, int r, std::int32_t pts) { f(r, std::uint64_t{0}, pts); });
  }
  template <class F>
  CGTB_HD void for_each_option(int level, position n, F&& f) const {
    for_each_scored_option(level, n, [&](int l, std::uint64_t r, std::int32_t) { f(l, r); });
  }
  CGTB_HD int option_count(position n) const {
    int c = 0;
    rules.for_each_take(n, [&](int, int, std::int32_t) { ++c; });
    return c;
  }
};

/// A multiset of heaps: parts in non-increasing order, all > 0.
struct heap_multiset {
  std::uint8_t count;
  std::uint8_t part[kMaxMultisetTotal];
};

/// Partitions of a total L, ranked in lexicographic order of their parts
/// written largest first. `table[n * stride + j]` = number of partitions of
/// n with every part <= j (n, j <= T).
struct partition_index {
  const std::uint64_t* table;
  int stride;

  CGTB_HD std::uint64_t count(int n, int j) const {
    return table[static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(stride) + static_cast<std::uint64_t>(j)];
  }
  /// Rank of a multiset of total `total` among the partitions of total.
  CGTB_HD std::uint64_t rank(int total, const heap_multiset& h) const {
    std::uint64_t r = 0;
    int rem = total;
    for (int i = 0; i < h.count; ++i) {
      r += count(rem, h.part[i] - 1);
      rem -= h.part[i];
    }
    return r;
  }
  /// Inverse of rank.
  CGTB_HD heap_multiset unrank(int total, std::uint64_t r) const {
    heap_multiset h;
    h.count = 0;
    int rem = total, bound = total;
    while (rem > 0) {
      int a = 1;
      const int top = bound < rem ? bound : rem;
      while (a < top && r >= count(rem, a)) ++a;
      r -= count(rem, a - 1);
      h.part[h.count++] = static_cast<std::uint8_t>(a);
      rem -= a;
      bound = a;
    }
    return h;
  }
};

/// Disjunctive sums (+_l) of any number of heaps of one game: level L holds
/// every multiset of heap sizes with total L.
struct scoring_multiset_view {
  octal_rules rules;
  partition_index index;
  using position = heap_multiset;

  CGTB_HD std::uint64_t level_size(int level) const { return index.count(level, level); }
  CGTB_HD position unrank(int level, std::uint64_t r) const { return index.unrank(level, r); }
  CGTB_HD std::uint64_t rank(int level, const position& p) const { return index.rank(level, p); }
  /// The partition of the next rank: raise the rightmost part that can grow
  /// by one (it stays <= the part before it) taking one bean from the parts
  /// after it, and write what is left after it as ones (the smallest tail).
  CGTB_HD position next(int, const position& p) const {
    position q = p;
    int tail = 0;
    for (int i = p.count - 1; i >= 0; --i) {
      if (tail >= 1 && (i == 0 || p.part[i] + 1 <= p.part[i - 1])) {
        q.part[i] = static_cast<std::uint8_t>(p.part[i] + 1);
        q.count = static_cast<std::uint8_t>(i + 1);
        for (int j = 0; j < tail - 1; ++j) q.part[q.count++] = 1;
        return q;
      }
      tail += p.part[i];
    }
    return q;  // the last partition (one heap): no successor
  }

  /// The multiset p with one heap of size p.part[i] replaced by heaps a, b
  /// (0 = none), in canonical order.
  CGTB_HD static position replace(const position& p, int i, int a, int b) {
    position q;
    q.count = 0;
    int ins[2] = {0, 0}, ni = 0, x = 0;
    if (b > 0) ins[ni++] = b;  // a <= b: the larger first
    if (a > 0) ins[ni++] = a;
    for (int j = 0; j < p.count; ++j) {
      if (j == i) continue;
      const int v = p.part[j];
      while (x < ni && ins[x] >= v) q.part[q.count++] = static_cast<std::uint8_t>(ins[x++]);
      q.part[q.count++] = static_cast<std::uint8_t>(v);
    }
    while (x < ni) q.part[q.count++] = static_cast<std::uint8_t>(ins[x++]);
    return q;
  }

  template <class F>
  CGTB_HD void for_each_scored_option(int level, const position& p, F&& f) const {
    for (int i = 0; i < p.count; ++i) {
      if (i > 0 && p.part[i] == p.part[i - 1]) continue;  // same heap size: same options
      const int n = p.part[i];
      rules.for_each_move(n, [&](int a, int b, std::int32_t pts) {
        const int l = level - (n - a - b);
        f(l, index.rank(l, replace(p, i, a, b)), pts);
      });
    }
  }
  template <class F>
  CGTB_HD void for_each_option(int level, const position& p, F&& f) const {
    for_each_scored_option(level, p, [&](int l, std::uint64_t r, std::int32_t) { f(l, r); });
  }
  CGTB_HD int option_count(const position& p) const {
    int c = 0;
    for (int i = 0; i < p.count; ++i) {
      if (i > 0 && p.part[i] == p.part[i - 1]) continue;
      rules.for_each_move(p.part[i], [&](int, int, std::int32_t) { ++c; });
    }
    return c;
  }
};

/// The four operators of seed 001 chapter 4 (all under the long rule).
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
  octal_rules left, right;
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
  /// under the operator (seed 001 Defs. 3.1.2, 4.1.1, 4.2.1, 4.3.1).
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
    if (alone_left) left.for_each_take(p.n, [&](int, int r, std::int32_t pts) { emit(r, p.m, pts); });
    if (alone_right) right.for_each_take(p.m, [&](int, int r, std::int32_t pts) { emit(p.n, r, pts); });
    if (both)
      left.for_each_take(p.n, [&](int, int r, std::int32_t pts) {
        right.for_each_take(p.m, [&](int, int s, std::int32_t qts) { emit(r, s, pts + qts); });
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
  scoring_octal(octal_rules rules, int max, space s);
  /// Parses canonical params "CODE:POINTS max=N positions=heaps|multisets".
  static scoring_octal from_params(const std::string& params);
  std::string params() const;

  const octal_rules& rules() const { return rules_; }
  int max() const { return max_; }
  space positions() const { return space_; }
  std::vector<int> levels() const;
  int option_level_span() const { return rules_.k; }
  const std::vector<std::uint64_t>& table() const { return table_; }

 protected:
  octal_rules rules_;
  int max_;
  space space_;
  std::vector<std::uint64_t> table_;  // partition counts (multisets), else one zero
};

/// The single-heap build.
class scoring_octal_heaps : public scoring_octal {
 public:
  using view_type = scoring_heap_view;
  using position = scoring_heap_view::position;
  explicit scoring_octal_heaps(const scoring_octal& g) : scoring_octal(g) {}
  view_type view(const std::uint64_t*) const { return {rules_}; }
  view_type host_view() const { return view(nullptr); }
};

/// The multiset build.
class scoring_octal_multisets : public scoring_octal {
 public:
  using view_type = scoring_multiset_view;
  using position = heap_multiset;
  explicit scoring_octal_multisets(const scoring_octal& g) : scoring_octal(g) {}
  view_type view(const std::uint64_t* table) const { return {rules_, {table, max_ + 1}}; }
  view_type host_view() const { return view(table_.data()); }
};

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
  scoring_sum(sum_op op, octal_rules left, octal_rules right, int max);
  /// Parses canonical params "op=OP left=CODE:POINTS right=CODE:POINTS max=N".
  static scoring_sum from_params(const std::string& params);
  std::string params() const;

  sum_op op() const { return view_.op; }
  int max() const { return view_.max_heap; }
  std::vector<int> levels() const;
  int option_level_span() const { return view_.left.k + view_.right.k; }
  const std::vector<std::uint64_t>& table() const { return table_; }
  view_type view(const std::uint64_t*) const { return view_; }
  view_type host_view() const { return view_; }

 private:
  view_type view_;
  std::vector<std::uint64_t> table_{0};
};

}  // namespace cgtb
