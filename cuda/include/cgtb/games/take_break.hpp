// Take-and-break games on heaps of beans: the one rule type, move generator
// and multiset index behind the octal games (normal and misère play) and
// Stewart's scoring octal games.
//
// Octal notation (Winning Ways, ch. 4 "Taking and Breaking"): the code
// d_0.d_1 d_2 ... d_k gives, for each number i of beans taken from one heap,
// the ways the rest of the heap may be left: bit 1 = no heap (i equals the
// heap), bit 2 = one non-empty heap, bit 4 = two non-empty heaps. d_0 is 0 or
// 4 (4: a heap may be split in two without taking a bean). Scoring play
// (F. Stewart, Scoring Play Combinatorial Games, Def. 3.1.1): a move that
// takes i beans also scores p_i points for the mover.
//
// Views built here (level = a weight of the heaps, options on lower levels):
//  - single_heap_view: level n holds the heap of n beans (one position per
//    level): G_s of a taking-no-breaking scoring game (the Grundy sequence of
//    an octal game has its own solver, cgtb/octal_sequence.hpp);
//  - heap_multiset_view: level L holds every multiset of heaps of weight L:
//    misère values and genus of octal positions (which do not decompose over
//    heaps), and disjunctive sums of scoring heaps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/hd.hpp"

namespace cgtb {

/// Most beans one move of a take_break rule takes.
inline constexpr int kMaxTake = 64;
/// Most digits after the point of an octal code written in Winning Ways'
/// notation (octal games; scoring codes may use all kMaxTake).
inline constexpr int kOctalMaxTake = 62;

/// The move walk of a take-and-break rule, shared by its two storages:
/// Derived provides digit_of(i) and points_of(i) for i = 0..max_take and the
/// member max_take (the last i with a non-zero digit).
template <class Derived>
struct take_break_moves {
  /// True when some digit allows leaving two heaps (bit 4).
  CGTB_HD bool breaking() const {
    const Derived& r = self();
    for (int i = 0; i <= r.max_take; ++i)
      if (r.digit_of(i) & 4) return true;
    return false;
  }

  /// Calls f(b, c, points) for every move from a heap of n beans, where
  /// b <= c are the heaps left (0 = no heap): f(0, 0, p) takes the whole
  /// heap, f(0, c, p) leaves one heap, f(b, c, p) with b >= 1 leaves two.
  /// Moves come in order of the beans taken, then of b.
  template <class F>
  CGTB_HD void for_each_move(int n, F&& f) const {
    const Derived& r = self();
    if (r.digit_of(0) & 4) {  // split without taking a bean
      const std::int32_t pts = r.points_of(0);
      for (int b = 1; 2 * b <= n; ++b) f(b, n - b, pts);
    }
    const int top = n < r.max_take ? n : r.max_take;
    for (int i = 1; i <= top; ++i) {
      const int d = r.digit_of(i), rest = n - i;
      const std::int32_t pts = r.points_of(i);
      if (rest == 0) {
        if (d & 1) f(0, 0, pts);
      } else {
        if (d & 2) f(0, rest, pts);
        if (d & 4)
          for (int b = 1; 2 * b <= rest; ++b) f(b, rest - b, pts);
      }
    }
  }
  /// Number of moves from a heap of n beans.
  CGTB_HD int move_count(int n) const {
    int c = 0;
    for_each_move(n, [&](int, int, std::int32_t) { ++c; });
    return c;
  }
  /// True when a heap of n beans has a move.
  CGTB_HD bool has_move(int n) const { return move_count(n) > 0; }

 private:
  CGTB_HD const Derived& self() const { return static_cast<const Derived&>(*this); }
};

/// The rules of one take-and-break game: digit[i] and points[i] for taking i
/// beans, i = 0..max_take (points are 0 outside scoring play; digit[0] is 0
/// or 4). The host's copy; the kernels read the rules as words in the game's
/// uploaded table (take_break_words), since an array a kernel copies out of
/// its parameters to index would sit in each thread's local memory.
struct take_break : take_break_moves<take_break> {
  std::uint8_t digit[kMaxTake + 1];
  std::int32_t points[kMaxTake + 1];
  int max_take;  ///< last i with digit[i] != 0 (0 for the code 4.0)

  /// Parses an octal code in Winning Ways' notation: "0.07", "4.7", ".137"
  /// (at most kOctalMaxTake digits after the point; points all 0). Throws
  /// input_error naming the bad digit or form, a code without a move, or a
  /// digit before the point other than 0 or 4.
  static take_break parse_octal(const std::string& text);
  /// Parses a scoring octal game: the code one digit per take size from 1
  /// ("0033" or "0.0033"), the points one digit per take size ("1234") or a
  /// comma list of signed integers ("1,-2,10"); empty points mean p_i = i.
  /// Throws input_error for a digit above 7, a code without a non-zero digit
  /// or longer than kMaxTake, and points missing or extra.
  static take_break parse_scoring(const std::string& code, const std::string& points);
  /// Subtraction set "4,5": digit 3 for each member; points p_i = i unless
  /// `points` (as in parse_scoring) says otherwise. Throws input_error for an
  /// empty set, a member outside 1..kMaxTake or a malformed list.
  static take_break subtraction(const std::string& set, const std::string& points);
  /// Winning Ways notation, e.g. "0.07" (the octal games' parameter text).
  std::string octal_text() const;
  /// "CODE:POINTS", e.g. "0033:0,0,4,5" (parse_scoring reads both halves).
  std::string scoring_text() const;

  /// The rules as max_take + 1 words, word i = digit[i] << 32 | (points[i]
  /// as a u32): what a game puts in its table() for take_break_words
  /// (rules_at).
  std::vector<std::uint64_t> words() const;

  CGTB_HD int digit_of(int i) const { return digit[i]; }
  CGTB_HD std::int32_t points_of(int i) const { return points[i]; }
};

/// The rules of a take-and-break game as the kernels read them: a pointer to
/// take_break::words() in the game's table (on the device for the CUDA
/// backend) and max_take. Every thread of a level reads the same few words,
/// so they stay in cache; the view itself is a pointer and an int.
struct take_break_words : take_break_moves<take_break_words> {
  const std::uint64_t* word;  ///< take_break::words(), max_take + 1 entries
  int max_take;

  CGTB_HD int digit_of(int i) const { return static_cast<int>(word[i] >> 32); }
  CGTB_HD std::int32_t points_of(int i) const {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(word[i] & 0xffffffffu));
  }
};

/// The rules r read from `words`, where the caller placed r.words() (the
/// host's table, or its copy on the device).
inline take_break_words rules_at(const take_break& r, const std::uint64_t* words) { return {{}, words, r.max_take}; }

// ------------------------------------------------------------ single heaps

/// Single heaps of a taking-no-breaking game: level n holds the heap of n
/// beans (rank 0); its options are the one heap left with the points scored
/// (for_each_scored_option, for scoring_rule).
struct single_heap_view {
  take_break_words rules;

  using position = std::uint64_t;  ///< the heap size

  CGTB_HD std::uint64_t level_size(int) const { return 1; }
  CGTB_HD position unrank(int level, std::uint64_t) const { return static_cast<position>(level); }
  CGTB_HD std::uint64_t rank(int, position) const { return 0; }
  CGTB_HD position next(int level, position) const { return static_cast<position>(level); }

  /// Calls f(option_level, 0, points) for every move of a taking-no-breaking
  /// game (the owner refuses breaking games).
  template <class F>
  CGTB_HD void for_each_scored_option(int level, position, F&& f) const {
    rules.for_each_move(level, [&](int, int c, std::int32_t pts) { f(c, std::uint64_t{0}, pts); });
  }
  template <class F>
  CGTB_HD void for_each_option(int level, position p, F&& f) const {
    for_each_scored_option(level, p, [&](int l, std::uint64_t r, std::int32_t) { f(l, r); });
  }
  CGTB_HD int option_count(position p) const { return rules.move_count(static_cast<int>(p)); }
};

// ---------------------------------------------------------------- multisets

/// Largest heap of a multiset position.
inline constexpr int kMaxMultisetHeap = 64;
/// Most heaps of a multiset position (octal games that split without taking
/// store weights up to 125 as heaps of one bean).
inline constexpr int kMaxMultisetParts = 127;

/// A multiset of heaps, as its parts written largest first: part[0] >=
/// part[1] >= ... >= part[count - 1] >= 1. 128 bytes; the loops over a
/// position visit its `count` parts only.
struct heap_multiset {
  std::uint8_t count;
  std::uint8_t part[kMaxMultisetParts];
};
static_assert(sizeof(heap_multiset) == 128, "a multiset is one 128-byte record");

/// Equal multisets: the same parts (bytes past `count` are not compared).
CGTB_HD inline bool operator==(const heap_multiset& x, const heap_multiset& y) {
  if (x.count != y.count) return false;
  for (int i = 0; i < x.count; ++i)
    if (x.part[i] != y.part[i]) return false;
  return true;
}
CGTB_HD inline bool operator!=(const heap_multiset& x, const heap_multiset& y) { return !(x == y); }
/// Lexicographic order on the parts, largest first (the rank order within a
/// level).
CGTB_HD inline bool operator<(const heap_multiset& x, const heap_multiset& y) {
  for (int i = 0; i < x.count && i < y.count; ++i)
    if (x.part[i] != y.part[i]) return x.part[i] < y.part[i];
  return x.count < y.count;
}

/// Dense index of the multisets of heaps of each weight. A heap of a beans
/// weighs w(a) = a, or w(a) = 2a - 1 when the game splits heaps without
/// taking (d_0 = 4, so that every move lowers the weight). Rank order:
/// lexicographic on the parts written largest first, ranked with C(L, m) =
/// number of multisets of weight L with every heap at most m:
///   rank = sum over the parts a_1 >= a_2 >= ... of C(L_j, a_j - 1),
/// L_j = weight of a_j, a_{j+1}, ... (with w(a) = a these are the partitions
/// of L in lexicographic order).
struct multiset_index {
  const std::uint64_t* count;  ///< C(L, m) at L * (max_heap + 1) + m (table())
  int max_heap;
  bool split_weight;

  /// C(L, m) for L <= max_level, m <= max_heap: table[L * (max_heap + 1) + m].
  static std::vector<std::uint64_t> table(int max_heap, int max_level, bool split_weight);

  /// Weight (level contribution) of a heap of a beans.
  CGTB_HD int weight(int a) const {
    const int s = split_weight ? 1 : 0;
    return (a << s) - s;  // a, or 2a - 1, without a branch
  }
  CGTB_HD std::uint64_t C(int L, int m) const {
    if (L < 0 || m < 0) return 0;
    return count[static_cast<std::uint64_t>(L) * static_cast<std::uint64_t>(max_heap + 1) +
                 static_cast<std::uint64_t>(m)];
  }
  /// Weight of a multiset.
  CGTB_HD int level_of(const heap_multiset& p) const {
    int L = 0;
    for (int i = 0; i < p.count; ++i) L += weight(p.part[i]);
    return L;
  }
  /// Multisets of weight `level`.
  CGTB_HD std::uint64_t level_size(int level) const { return C(level, max_heap); }

  /// The term of a part of a beans with `rem` = the weight of it and the
  /// parts after it (rem >= w(a), so the table is read without checks).
  CGTB_HD std::uint64_t term(int rem, int a) const {
    return count[static_cast<std::uint64_t>(rem) * static_cast<std::uint64_t>(max_heap + 1) +
                 static_cast<std::uint64_t>(a - 1)];
  }

  /// Rank of p within its level.
  CGTB_HD std::uint64_t rank(int level, const heap_multiset& p) const {
    std::uint64_t r = 0;
    int rem = level;
    for (int i = 0; i < p.count; ++i) {
      r += term(rem, p.part[i]);
      rem -= weight(p.part[i]);
    }
    return r;
  }

  /// Rank, on `level`, of p with its part i replaced by heaps b <= c (0 =
  /// none): the rank of an option, merged from p's parts without building
  /// the option.
  CGTB_HD std::uint64_t rank_after_move(int level, const heap_multiset& p, int i, int b, int c) const {
    std::uint64_t r = 0;
    int rem = level;
    int hi = c, lo = b;  // the heaps the move leaves, still to be placed (0 = none)
    for (int j = 0; j < p.count; ++j) {
      if (j == i) continue;
      const int v = p.part[j];
      for (; hi >= v; hi = lo, lo = 0) {
        r += term(rem, hi);
        rem -= weight(hi);
      }
      r += term(rem, v);
      rem -= weight(v);
    }
    for (; hi; hi = lo, lo = 0) {
      r += term(rem, hi);
      rem -= weight(hi);
    }
    return r;
  }

  /// Inverse of rank: r < level_size(level).
  CGTB_HD heap_multiset unrank(int level, std::uint64_t r) const {
    heap_multiset p;
    p.count = 0;
    int rem = level, top = max_heap;
    while (rem > 0) {
      int v = 1;
      while (v < top && C(rem, v) <= r) ++v;
      r -= C(rem, v - 1);
      p.part[p.count++] = static_cast<std::uint8_t>(v);
      rem -= weight(v);
      top = v;
    }
    return p;
  }

  /// Successor in rank order: the last part that can grow by one bean (it
  /// stays at most the part before it and max_heap), taking the weight from
  /// the parts after it, which become heaps of one bean. The last multiset
  /// of a level is returned unchanged.
  CGTB_HD heap_multiset next(const heap_multiset& p) const {
    int tail = 0;  // weight of the parts after part i
    for (int i = p.count - 1; i >= 0; --i) {
      const int a = p.part[i];
      const int delta = weight(a + 1) - weight(a);
      if (tail >= delta && a + 1 <= max_heap && (i == 0 || a + 1 <= p.part[i - 1])) {
        heap_multiset q;
        q.count = static_cast<std::uint8_t>(i + 1);
        for (int j = 0; j < i; ++j) q.part[j] = p.part[j];
        q.part[i] = static_cast<std::uint8_t>(a + 1);
        for (int j = 0; j < tail - delta; ++j) q.part[q.count++] = 1;
        return q;
      }
      tail += weight(a);
    }
    return p;
  }
};

/// p with its part i replaced by heaps b <= c (0 = none), parts kept largest
/// first.
CGTB_HD inline heap_multiset replace_part(const heap_multiset& p, int i, int b, int c) {
  heap_multiset q;
  q.count = 0;
  int hi = c, lo = b;
  for (int j = 0; j < p.count; ++j) {
    if (j == i) continue;
    const int v = p.part[j];
    for (; hi >= v; hi = lo, lo = 0) q.part[q.count++] = static_cast<std::uint8_t>(hi);
    q.part[q.count++] = static_cast<std::uint8_t>(v);
  }
  for (; hi; hi = lo, lo = 0) q.part[q.count++] = static_cast<std::uint8_t>(hi);
  return q;
}

/// Multisets of heaps of one take-and-break game, level = weight
/// (multiset_index). An option is one move on one heap of each size present
/// (equal heaps give equal options); its parts continue as heaps of the
/// multiset.
struct heap_multiset_view {
  take_break_words rules;
  multiset_index index;

  using position = heap_multiset;

  CGTB_HD std::uint64_t level_size(int level) const { return index.level_size(level); }
  CGTB_HD std::uint64_t rank(int level, const position& p) const { return index.rank(level, p); }
  CGTB_HD position unrank(int level, std::uint64_t r) const { return index.unrank(level, r); }
  CGTB_HD position next(int, const position& p) const { return index.next(p); }

  /// Calls f(option_level, option_rank, points) for every option of p.
  template <class F>
  CGTB_HD void for_each_scored_option(int level, const position& p, F&& f) const {
    for (int i = 0; i < p.count; ++i) {
      const int a = p.part[i];
      if (i > 0 && a == p.part[i - 1]) continue;  // equal heaps: equal options
      rules.for_each_move(a, [&](int b, int c, std::int32_t pts) {
        const int l = level - index.weight(a) + (b ? index.weight(b) : 0) + (c ? index.weight(c) : 0);
        f(l, index.rank_after_move(l, p, i, b, c), pts);
      });
    }
  }
  template <class F>
  CGTB_HD void for_each_option(int level, const position& p, F&& f) const {
    for_each_scored_option(level, p, [&](int l, std::uint64_t r, std::int32_t) { f(l, r); });
  }
  CGTB_HD int option_count(const position& p) const {
    int n = 0;
    for (int i = 0; i < p.count; ++i)
      if (i == 0 || p.part[i] != p.part[i - 1]) n += rules.move_count(p.part[i]);
    return n;
  }
};

/// The multiset of the given heaps (zeros dropped), parts largest first.
/// Throws input_error for a heap above kMaxMultisetHeap or more than
/// kMaxMultisetParts heaps.
heap_multiset multiset_of(std::vector<int> heaps);
/// The heaps of p, largest first.
std::vector<int> heaps_of(const heap_multiset& p);

/// Parses a heap list "3 5 9" / "3,5,9" / "3+5+9" into heap sizes (zeros
/// dropped); throws input_error naming a bad entry or one above max_heap.
std::vector<int> parse_heap_list(const std::string& text, long long max_heap);

}  // namespace cgtb
