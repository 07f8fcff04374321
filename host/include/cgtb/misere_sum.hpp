// Outcomes of disjunctive sums of impartial positions drawn from tablebases
// (and Nim heaps), under normal and misère play: `cgtb sum`, docs/misere.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cgtb/genus.hpp"

namespace cgtb {

/// A winning move of a sum: which term it is made in and how that term's
/// moves are written.
struct sum_move {
  std::size_t term = 0;  ///< 1-based, in the order the terms were given
  std::string move;      ///< e.g. "b2-b3" (Cram), "5->1+2" (octal), "*5->*2" (a Nim heap)
  std::string after;     ///< the term after the move ("*0" for a heap taken whole)
};

/// The answer for one sum.
struct sum_answer {
  std::string text;                     ///< the terms as given, joined by " + "
  bool normal = false, misere = false;  ///< which conventions were asked for
  std::uint64_t grundy = 0;             ///< normal play: the nim-sum of the terms' Grundy values
  char normal_outcome = '?';            ///< 'N' (the player to move wins) or 'P'
  char misere_outcome = '?';
  std::vector<sum_move> normal_winning, misere_winning;
  bool moves_listed = false;   ///< the winning moves were asked for (sum_settings::winning_moves)
  std::uint64_t searched = 0;  ///< sums the misère search expanded for this answer (memo misses)
};

/// What a sum_solver computes and how.
struct sum_settings {
  bool normal = true;
  bool misere = true;
  bool winning_moves = true;  ///< list every winning move (costs one search per option)
  /// Use the theorems listed at sum_solver (off: every misère sum is
  /// searched move by move; the tests compare the two).
  bool shortcuts = true;
  std::size_t memo_bytes = std::size_t{2} << 30;     ///< the memo is emptied when it grows past this
  std::size_t cache_bytes = std::size_t{256} << 20;  ///< decompressed-block cache per tablebase file
};

/// Counters of a solver's work since it was made.
struct sum_stats {
  std::uint64_t expanded = 0;  ///< sums searched move by move (memo misses)
  std::uint64_t memo_hits = 0;
  std::uint64_t by_value = 0;      ///< decided by one component's stored misère value
  std::uint64_t by_genus_run = 0;  ///< decided by a stored genus run value G-(X + k*2)
  std::uint64_t by_tame = 0;       ///< decided by the hereditarily tame sum rule
  std::uint64_t by_quotient = 0;   ///< decided by a quotient given with use_quotient
  std::uint64_t components = 0;    ///< distinct component positions whose options were generated
  std::uint64_t memo_entries = 0;  ///< sums in the memo now
  std::uint64_t memo_clears = 0;
};

/// Solves disjunctive sums. A term is `FILE:POSITION` (a position of an
/// impartial tablebase: Cram, octal games, Row Impartial Terminus, ...;
/// different files may be mixed), `*n` (a Nim heap of n), `cram:POSITION`
/// (a Cram position with no table, see components_of), or
/// `octal:CODE:HEAPS` (heaps of an octal game with no table: one heap size
/// from 0 to 4096, or several joined by ',', e.g. `octal:0.77:3,5`).
///
/// Normal play: the outcome is P exactly when the nim-sum of the components'
/// Grundy values is 0 (Sprague-Grundy theorem, Winning Ways ch. 2).
///
/// Misère play: a search over the sum, each position of the search a
/// multiset of component positions (a component is a stored position: its
/// file, level and index key, so symmetric images meet in the memo), with a
/// memo of every sum it decides. Options come from each component's
/// ruleset; a component whose option splits into several (octal heaps)
/// continues as its parts, and a component with no option is dropped (it is
/// the game 0). With shortcuts on, a sum is decided without search when
/// (1) it is one component: its stored misère Grundy value, or a Nim heap
///     (misère Nim, Winning Ways ch. 13: *0 and *1 swap outcomes, *n for n >= 2
///     keeps them);
/// (2) it is one component X beside k heaps of *2 (k <= 7) and X's file holds
///     the genus: the stored gamma_k = G-(X + k*2) (the genus's definition,
///     Winning Ways ch. 13);
/// (3) every component is hereditarily tame (it and every position it can
///     reach have a tame genus; Nim heaps are): such a sum is played like a
///     Nim position, so it is a P-position exactly when the nim-sum of the
///     Grundy values is 0 and some component is firm, or the nim-sum is 1 and
///     every component is fickle (Winning Ways ch. 13, "tame games"; Conway,
///     On Numbers and Games ch. 12). Tameness of a component alone is not
///     enough: the 2 x 7 Cram board is tame and has wild followers.
/// (4) every component has an element in a misère quotient given by
///     use_quotient: the sum is a P-position exactly when the product of the
///     elements lies in the P-portion (Plambeck and Siegel, "Misère
///     quotients for impartial games", the quotient's defining property).
/// Not thread-safe: one solver per thread.
class sum_solver {
 public:
  explicit sum_solver(sum_settings s = {});
  ~sum_solver();
  sum_solver(const sum_solver&) = delete;
  sum_solver& operator=(const sum_solver&) = delete;

  /// The outcomes (and winning moves) of the sum of `terms`. Throws
  /// input_error for an unknown or unreadable file, a position the file does
  /// not hold, a partizan or scoring tablebase, a malformed heap, or a table
  /// without the values a convention needs (misère play needs misère values).
  sum_answer solve(const std::vector<std::string>& terms);
  /// True when the player to move wins the misère sum of `terms` (throws as
  /// solve does). No winning moves are listed.
  bool misere_win(const std::vector<std::string>& terms);
  /// The components `term` stands for (as solve reads it; those with no
  /// option left out), as codes for the functions below. A term
  /// `cram:POSITION` is a Cram position on its own board with no table: its
  /// connected regions (cgtb/cram_region.hpp), searched without stored values;
  /// a term `octal:CODE:HEAPS` is its heaps, likewise (Grundy values and,
  /// for heaps of up to 24 beans, the genus are searched when a shortcut asks).
  std::vector<std::uint64_t> components_of(const std::string& term);
  /// True when the player to move wins the misère sum of these components.
  bool misere_win_of(std::vector<std::uint64_t> components);
  /// Misère Grundy value of the sum of these components (the mex rule with
  /// value 1 for a sum with no move; Winning Ways ch. 13). Every option is
  /// searched: dearer than misere_win_of.
  unsigned misere_value_of(std::vector<std::uint64_t> components);
  /// Genus of the sum: its nim-sum and gamma_k = G-(sum + k*2) for
  /// k = 0..7 (Winning Ways ch. 13), each searched like misere_value_of.
  genus sum_genus(const std::vector<std::uint64_t>& components);
  /// Normal-play Grundy value of the sum (the nim-sum of the components').
  std::uint64_t grundy_of(const std::vector<std::uint64_t>& components);
  /// True when the component and every position it can reach have a tame
  /// genus (stored, or computed for Cram regions of up to 12 cells); false
  /// where no genus is known.
  bool hereditarily_tame(std::uint64_t component);
  /// The options of a component, each as the components it leaves (those
  /// with no option left out; an empty list is the game 0). Nim heaps: *m
  /// for m < n.
  std::vector<std::vector<std::uint64_t>> options(std::uint64_t component);
  /// Shortcut (4): `element` maps components to elements 0..order-1 of a
  /// proven misère quotient of the closed set they generate (0 the
  /// identity), `table` is its order x order product table and `p_portion`
  /// marks its P-portion. Replaces any quotient given before; the memo is
  /// kept (its outcomes stay true).
  void use_quotient(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& element,
                    std::vector<std::uint32_t> table, std::vector<char> p_portion);
  /// The code of a Nim heap of n (n >= 1).
  static std::uint64_t heap_code(std::uint64_t n) { return n; }

  /// Counters since the solver was made.
  sum_stats stats() const;
  /// Bytes the memo and the component cache hold now.
  std::size_t memory_bytes() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// The answer as one line of JSON, as `cgtb sum --json` prints it: "sum",
/// and per convention asked for "grundy", "normal_outcome" ("N"/"P"),
/// "misere_outcome", the winning moves ("normal_winning_moves",
/// "misere_winning_moves": [{"term", "move", "after"}], when listed), and
/// "searched".
std::string sum_answer_json(const sum_answer& a);

/// Splits a line of `cgtb sum`'s input into terms: white space separates
/// them, and a lone "+" between terms is skipped. A term's position may not
/// hold white space (give a heap list such as '3 5' as two terms).
std::vector<std::string> split_sum_terms(const std::string& line);

}  // namespace cgtb
