// Eventual periodicity of a finite sequence of values (G_s(n) of a scoring
// octal game, or a row G_s(n ⋆ m) with m fixed; F. Stewart, Scoring Play
// Combinatorial Games, §3.1.1, §4.2.3).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cgtb {

/// Preperiod and period of s[0..L-1], with the evidence.
struct period_report {
  bool found = false;       ///< false: no period p with at least `repeats` full periods after the preperiod
  int period = 0;           ///< smallest p such that s[n + p] = s[n] for all pre <= n < L - p
  int preperiod = 0;        ///< smallest such pre for that p
  int last_exception = -1;  ///< pre - 1: the last n with s[n + p] != s[n] (-1: none)
  std::int64_t exception_value = 0, exception_shifted = 0;  ///< s[last], s[last + p]
  int checked_to = 0;                                       ///< L - 1: the last index compared
  bool proven = false;                                      ///< the recurrence window repeats (see find_period)
  /// One line: "period 8, preperiod 3 (last exception n = 2: 0 vs 1), checked to n = 4096, proven".
  std::string text() const;
};

/// Finds the smallest period p (1 <= p <= L / (repeats + 1)) such that s is
/// p-periodic from some preperiod pre <= L / 2 on with at least `repeats` + 1
/// periods checked after it, and the smallest such preperiod (a period that
/// only shows in the last few values is not taken). When window > 0, s[n]
/// for n > window is taken to be a fixed function of s[n - window .. n - 1]
/// (taking-no-breaking games with largest take `window`); a period is then
/// proven once a whole window repeats after max(pre, 1).
period_report find_period(const std::vector<std::int64_t>& s, int window = 0, int repeats = 2);

}  // namespace cgtb
