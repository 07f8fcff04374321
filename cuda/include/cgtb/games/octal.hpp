// Octal games (Winning Ways, ch. 4 "Taking and Breaking"; the rules and the
// code's notation are take_break, cgtb/games/take_break.hpp). Two rulesets:
//  * octal_heap: the normal Grundy sequence G(0..N) of single heaps
//    (single_heap_view); every option is a pair of heaps (b, c), b or c = 0
//    for no heap, read from lower levels and XORed by heap_sum_rule
//    (cgtb/rules/heap_sum.hpp).
//  * octal: positions made of several heaps, as multisets of heap sizes
//    (heap_multiset_view), for the misère values and genus, which do not
//    decompose over heaps.
// Backend instantiations (cgtb-solve lines: the ruleset and the value rule
// each backend is compiled for; CMake collects them, docs/architecture.md):
// cgtb-solve: cgtb::octal cgtb::impartial_rule<-1>
// cgtb-solve: cgtb::octal cgtb::impartial_rule<0>
// cgtb-solve: cgtb::octal cgtb::impartial_rule<7>
// cgtb-solve: cgtb::octal_heap cgtb::heap_sum_rule
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/games/take_break.hpp"
#include "cgtb/hd.hpp"

namespace cgtb {

/// Largest heap (and total) of the multiset ruleset.
inline constexpr int kOctalMaxHeap = 63;

/// The single-heap sequence of an octal code up to heap N (host owner).
class octal_heap {
 public:
  using view_type = single_heap_view;
  using position = std::uint64_t;
  static constexpr const char* ruleset_name = "octal";

  /// Throws input_error unless 0 <= max_heap <= 2^31 - 2.
  octal_heap(const take_break& code, long long max_heap);
  std::string params() const;
  std::vector<int> levels() const;
  /// Options land on any lower level.
  int option_level_span() const { return 0; }
  const std::vector<std::uint64_t>& table() const { return table_; }
  view_type view(const std::uint64_t*) const { return {code_}; }
  view_type host_view() const { return {code_}; }
  const take_break& code() const { return code_; }
  int max_heap() const { return max_heap_; }

 private:
  take_break code_;
  int max_heap_;
  std::vector<std::uint64_t> table_;
};

/// A move of the multiset game: a heap of `heap` beans left as heaps b <= c
/// (0 = none).
struct octal_move {
  int heap, b, c;
  heap_multiset after;
};

/// Octal positions of several heaps with total at most T (host owner). With
/// d_0 = 4 the table holds every multiset of weight <= 2T - 1, a superset of
/// those with total <= T (every table is closed under moves).
class octal {
 public:
  using view_type = heap_multiset_view;
  using position = heap_multiset;
  static constexpr const char* ruleset_name = "octal";

  /// Throws input_error unless 0 <= max_total <= 63.
  octal(const take_break& code, int max_total);
  std::string params() const;
  std::vector<int> levels() const;
  int option_level_span() const { return 0; }
  /// The single heap of T beans.
  position start() const;
  int level_of(const position& p) const;
  const std::vector<std::uint64_t>& table() const { return count_; }
  view_type view(const std::uint64_t* t) const { return {code_, {t, max_total_, split_}}; }
  view_type host_view() const { return view(count_.data()); }
  const take_break& code() const { return code_; }
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
  take_break code_;
  int max_total_, max_level_;
  bool split_;
  std::vector<std::uint64_t> count_;
};

}  // namespace cgtb
