// Octal games (Winning Ways, ch. 4 "Taking and Breaking"; the rules and the
// code's notation are take_break, cgtb/games/take_break.hpp). The ruleset
// `octal` holds positions made of several heaps, as multisets of heap sizes
// (heap_multiset_view), for the misère values and genus, which do not
// decompose over heaps. The normal Grundy sequence of single heaps is not a
// level-by-level solve: the sparse-space sequence solver computes it
// (cgtb/octal_sequence.hpp).
// Backend instantiations (cgtb-solve lines: the ruleset and the value rule
// each backend is compiled for; CMake collects them, docs/architecture.md):
// cgtb-solve: cgtb::octal cgtb::impartial_rule<-1>
// cgtb-solve: cgtb::octal cgtb::impartial_rule<0>
// cgtb-solve: cgtb::octal cgtb::impartial_rule<7>
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

/// A move of the multiset game: a heap of `heap` beans left as heaps b <= c
/// (0 = none).
struct octal_move {
  int heap, b, c;
  heap_multiset after;
};

/// "9->2+4": a move leaving a heap of `heap` beans as heaps b <= c (0 =
/// none): "9->5" leaves one heap, "9->0" none. How every octal table and the
/// sum solver name moves.
std::string octal_move_text(int heap, int b, int c);

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
  /// The code's words (take_break::words), then multiset_index::table.
  const std::vector<std::uint64_t>& table() const { return table_; }
  view_type view(const std::uint64_t* t) const {
    return {rules_at(code_, t), {t + code_.max_take + 1, max_total_, split_}};
  }
  view_type host_view() const { return view(table_.data()); }
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
  std::vector<std::uint64_t> table_;
};

}  // namespace cgtb
