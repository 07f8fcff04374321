// Octal games (Winning Ways ch. 4; seed 001 Def. 3.1.1; BRIEF §4). The code
// d_0.d_1 d_2 ... gives, for each number i of beans taken from one heap, the
// ways the rest of the heap may be left: bit 1 = no heap (i equals the heap),
// bit 2 = one non-empty heap, bit 4 = two non-empty heaps. d_0 may only be 0
// or 4 (4: split a heap in two without taking any bean).
//
// Two rulesets share the code:
//  * octal_heap: the normal Grundy sequence G(0..N) of single heaps. Level =
//    heap size, one position per level; every option is a pair of heaps
//    (b, c), b or c = 0 for no heap, read from lower levels and XORed by
//    heap_sum_rule (cgtb/rules/heap_sum.hpp).
//  * octal: positions made of several heaps, as multisets of heap sizes, for
//    the misère values and genus (which do not decompose over heaps). Level =
//    weight = sum of w(a) over heaps a, with w(a) = a, or w(a) = 2a - 1 when
//    d_0 = 4 (so that splitting without taking lowers the level too). Index
//    of a level: lexicographic order on the heaps written non-increasing,
//    ranked with C(L, m) = number of multisets of weight L with every heap at
//    most m: rank = sum over the heaps a_1 >= a_2 >= ... of C(L_j, a_j - 1),
//    L_j = weight of a_j, a_{j+1}, ...
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/hd.hpp"

namespace cgtb {

/// Most digits after the point (largest number of beans one move takes).
inline constexpr int kOctalMaxTake = 62;
/// Largest heap (and total) of the multiset ruleset.
inline constexpr int kOctalMaxHeap = 63;

/// A parsed octal code: digit[i] for taking i beans (digit[0] is 0 or 4).
struct octal_code {
  std::uint8_t digit[kOctalMaxTake + 1];
  int max_take;  ///< last non-zero digit index

  /// Parses "0.07", "4.7", ".137" (octal digits, at most 62 after the point);
  /// throws input_error naming the bad digit or form.
  static octal_code parse(const std::string& text);
  /// Canonical text, e.g. "0.07".
  std::string text() const;

  /// Calls f(b, c) for every move from a heap of a beans, where b <= c are
  /// the heaps left (0 = no heap): f(0, 0) removes the heap, f(0, c) leaves
  /// one heap c, f(b, c) with b >= 1 leaves two.
  template <class F>
  CGTB_HD void for_each_result(int a, F&& f) const {
    const int top = a < max_take ? a : max_take;
    for (int i = 0; i <= top; ++i) {
      const int d = digit[i], rest = a - i;
      if (i > 0 && (d & 1) && rest == 0) f(0, 0);
      if (i > 0 && (d & 2) && rest > 0) f(0, rest);
      if ((d & 4) && rest >= 2)
        for (int b = 1; 2 * b <= rest; ++b) f(b, rest - b);
    }
  }
  /// Number of moves from a heap of a beans.
  CGTB_HD int result_count(int a) const {
    int n = 0;
    for_each_result(a, [&](int, int) { ++n; });
    return n;
  }
};

// ------------------------------------------------------------ single heaps

/// Trivially copyable single-heap ruleset: level n holds the heap of n beans.
struct octal_heap_view {
  octal_code code;

  using position = std::uint64_t;  ///< the heap size

  CGTB_HD std::uint64_t level_size(int) const { return 1; }
  CGTB_HD position unrank(int level, std::uint64_t) const { return static_cast<position>(level); }
  CGTB_HD std::uint64_t rank(int, position) const { return 0; }
  CGTB_HD position next(int level, position) const { return static_cast<position>(level); }

  /// Calls f(b, c) for every option of the heap: the heaps left, each a level
  /// (0 = no heap; level 0 holds the empty heap, Grundy value 0).
  template <class F>
  CGTB_HD void for_each_split(int level, position, F&& f) const {
    code.for_each_result(level, f);
  }
  /// Number of options of the heap p.
  CGTB_HD int option_count(position p) const { return code.result_count(static_cast<int>(p)); }
};

/// The single-heap sequence of an octal code up to heap N (host owner).
class octal_heap {
 public:
  using view_type = octal_heap_view;
  using position = std::uint64_t;
  static constexpr const char* ruleset_name = "octal";

  /// Throws input_error unless 0 <= max_heap <= 2^31 - 2.
  octal_heap(const octal_code& code, long long max_heap);
  std::string params() const;
  std::vector<int> levels() const;
  /// Options land on any lower level.
  int option_level_span() const { return 0; }
  const std::vector<std::uint64_t>& table() const { return table_; }
  view_type view(const std::uint64_t*) const { return {code_}; }
  view_type host_view() const { return {code_}; }
  const octal_code& code() const { return code_; }
  int max_heap() const { return max_heap_; }

 private:
  octal_code code_;
  int max_heap_;
  std::vector<std::uint64_t> table_;
};

// ---------------------------------------------------------------- multisets

/// A multiset of heaps: cnt[a] heaps of a beans (cnt[0] unused).
struct octal_heaps {
  std::uint8_t cnt[kOctalMaxHeap + 1];
};

/// Trivially copyable multiset ruleset. `count` points to C(L, m) at
/// L * (max_heap + 1) + m.
struct octal_view {
  octal_code code;
  int max_heap, max_level;
  bool split_weight;  ///< d_0 = 4: w(a) = 2a - 1
  const std::uint64_t* count;

  using position = octal_heaps;

  /// Weight (level contribution) of a heap of a beans.
  CGTB_HD int weight(int a) const { return split_weight ? 2 * a - 1 : a; }
  CGTB_HD std::uint64_t C(int L, int m) const {
    if (L < 0 || m < 0) return 0;
    return count[static_cast<std::uint64_t>(L) * static_cast<std::uint64_t>(max_heap + 1) +
                 static_cast<std::uint64_t>(m)];
  }

  /// Multisets of weight `level`.
  CGTB_HD std::uint64_t level_size(int level) const { return C(level, max_heap); }

  /// Rank of p within its level (lexicographic on the heaps, largest first).
  CGTB_HD std::uint64_t rank(int level, const position& p) const {
    std::uint64_t r = 0;
    int rem = level;
    for (int a = max_heap; a >= 1; --a)
      for (int k = 0; k < p.cnt[a]; ++k) {
        r += C(rem, a - 1);
        rem -= weight(a);
      }
    return r;
  }

  /// Inverse of rank: r < level_size(level).
  CGTB_HD position unrank(int level, std::uint64_t r) const {
    position p;
    for (int a = 0; a <= kOctalMaxHeap; ++a) p.cnt[a] = 0;
    int rem = level, top = max_heap;
    while (rem > 0) {
      int v = 1;
      while (v < top && C(rem, v) <= r) ++v;
      r -= C(rem, v - 1);
      ++p.cnt[v];
      rem -= weight(v);
      top = v;
    }
    return p;
  }

  /// Successor in rank order: the smallest heap group whose first heap can
  /// grow by one bean, taking the weight from the heaps after it, which
  /// become heaps of one bean.
  CGTB_HD position next(int, position p) const {
    int after = 0;  // weight of the heaps after the group's first heap
    for (int a = 1; a <= max_heap; ++a) {
      if (!p.cnt[a]) continue;
      const int tail = after + (p.cnt[a] - 1) * weight(a);
      const int delta = weight(a + 1) - weight(a);
      if (a + 1 <= max_heap && tail >= delta) {
        for (int s = 1; s <= a; ++s) p.cnt[s] = 0;
        ++p.cnt[a + 1];
        p.cnt[1] = static_cast<std::uint8_t>(p.cnt[1] + tail - delta);
        return p;
      }
      after += p.cnt[a] * weight(a);
    }
    return p;
  }

  /// Calls f(option_level, option_rank) for every option: one move on one
  /// heap of each size present (equal heaps give equal options).
  template <class F>
  CGTB_HD void for_each_option(int level, const position& p, F&& f) const {
    for (int a = 1; a <= max_heap; ++a) {
      if (!p.cnt[a]) continue;
      code.for_each_result(a, [&](int b, int c) {
        position q = p;
        --q.cnt[a];
        int l = level - weight(a);
        if (b) {
          ++q.cnt[b];
          l += weight(b);
        }
        if (c) {
          ++q.cnt[c];
          l += weight(c);
        }
        f(l, rank(l, q));
      });
    }
  }

  CGTB_HD int option_count(const position& p) const {
    int n = 0;
    for (int a = 1; a <= max_heap; ++a)
      if (p.cnt[a]) n += code.result_count(a);
    return n;
  }
};

/// A move of the multiset game: a heap of `heap` beans left as heaps b <= c
/// (0 = none).
struct octal_move {
  int heap, b, c;
  octal_heaps after;
};

/// Octal positions of several heaps with total at most T (host owner). With
/// d_0 = 4 the table holds every multiset of weight <= 2T - 1, a superset of
/// those with total <= T (every table is closed under moves).
class octal {
 public:
  using view_type = octal_view;
  using position = octal_heaps;
  static constexpr const char* ruleset_name = "octal";

  /// Throws input_error unless 0 <= max_total <= 63.
  octal(const octal_code& code, int max_total);
  std::string params() const;
  std::vector<int> levels() const;
  int option_level_span() const { return 0; }
  /// The single heap of T beans.
  position start() const;
  int level_of(const position& p) const;
  const std::vector<std::uint64_t>& table() const { return count_; }
  view_type view(const std::uint64_t* t) const { return {code_, max_total_, max_level_, split_, t}; }
  view_type host_view() const { return view(count_.data()); }
  const octal_code& code() const { return code_; }
  int max_total() const { return max_total_; }

  /// Parses a heap list "3 5 9" (or "3,5,9", "3+5+9"; "0" or "" is the empty
  /// position); throws input_error for a bad number or a position outside
  /// the table.
  position parse(const std::string& text) const;
  /// Heaps non-increasing, space-separated ("9 5 3"); "0" when empty.
  std::string format(const position& p) const;
  /// "9->2+4": a heap of 9 left as heaps 2 and 4 ("9->5", "9->0").
  std::string move_name(const octal_move& m) const;
  std::vector<octal_move> moves(const position& p) const;

 private:
  octal_code code_;
  int max_total_, max_level_;
  bool split_;
  std::vector<std::uint64_t> count_;
};

/// Parses a heap list "3 5 9" / "3,5,9" / "3+5+9" into heap sizes (zeros
/// dropped); throws input_error naming a bad entry or one above max_heap.
std::vector<int> parse_heap_list(const std::string& text, long long max_heap);

}  // namespace cgtb
