// Scoring-play tablebases on the host: the game drivers of `cgtb build
// scoring-octal` and `cgtb build scoring-sum`, position texts, and a lookup
// of G_s by heap sizes used by `cgtb table` and `cgtb period`.
// F. Stewart, Scoring Play Combinatorial Games (PhD thesis, University of
// Dundee), chapters 3-4; docs/scoring.md.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cgtb/driver.hpp"
#include "cgtb/games/scoring_octal.hpp"
#include "cgtb/tablebase.hpp"

namespace cgtb {

/// Heap sizes of a scoring position text: "7", "3 5 7" / "3+5+7" (a
/// disjunctive sum of heaps of one game), or two heaps joined by an
/// operator: "n+m" (+_l), "n^m" (△), "n v m" (▽), "n>m" (▷); the symbols
/// △ ▽ ▷ themselves (UTF-8) are accepted too.
struct scoring_position_text {
  std::vector<int> heaps;
  char op = 0;  ///< '+', '^', 'v', '>' between exactly two heaps; 0 for a single heap or a plain list
};
/// Parses a position text; throws input_error naming the problem.
scoring_position_text parse_scoring_position(const std::string& text);

/// G_s by heap sizes in a scoring tablebase file (any of the three position
/// spaces). Throws input_error if the file is not a scoring tablebase.
class scoring_lookup {
 public:
  explicit scoring_lookup(tablebase& tb);
  /// True for a scoring-sum file (two heaps n, m); false for one game.
  bool two_heaps() const { return sum_ != nullptr; }
  /// N: the largest heap (or total) of the file.
  int max() const;
  /// Operator of a two-heap file.
  sum_op op() const;
  /// One-line description of the game(s), e.g. "n in (123,1,2,3) + m in (...)".
  std::string describe() const;
  /// Largest take size of the game of n (the recurrence window of a single heap).
  int window() const;
  /// True when G_s(n) of a one-game file obeys a fixed recurrence over the
  /// previous window() values for n > window() (taking-no-breaking games).
  bool recurrent() const;
  /// G_s(n) (one-game files) or G_s(n ⋆ m) (two-heap files); throws
  /// input_error if n or m is outside the table.
  std::int64_t at(int n, int m = 0);

 private:
  tablebase& tb_;
  std::unique_ptr<scoring_octal> one_;
  std::unique_ptr<scoring_sum> sum_;
};

}  // namespace cgtb
