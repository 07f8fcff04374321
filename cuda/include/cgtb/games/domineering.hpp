// Domineering on a rectangle: the partizan domino-placing game (Winning Ways
// ch. 1; Conway, On Numbers and Games ch. 10). Left places vertical dominoes,
// Right horizontal ones, each on two adjacent empty cells.
//
// Position: the set of empty cells as a bitmask, cell (r, c) at bit r*cols + c
// (as Cram, cgtb/games/cram.hpp), so any region inside the rectangle is a
// position. Level: the number of empty cells; every move lowers it by two.
// Index: the combinatorial number system over k-subsets of the rows*cols cells.
// A tablebase holds every subset of the rectangle (levels 0..rows*cols, both
// parities), reachable by legal play or not.
// Backend instantiations (cgtb-solve lines: the ruleset and the value rule
// each backend is compiled for; CMake collects them, docs/architecture.md):
// cgtb-solve: cgtb::domineering cgtb::partizan_rule
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/games/cram.hpp"
#include "cgtb/hd.hpp"
#include "cgtb/subset_index.hpp"

namespace cgtb {

/// Trivially copyable Domineering ruleset, used by kernels and host tools.
struct domineering_view : domino_index {
  /// Calls f(level - 2, option_rank) for each of Left's options (a vertical
  /// domino on two empty cells), ranked incrementally (pair_removal_ranks).
  template <class F>
  CGTB_HD void for_each_left_option(int level, position p, F&& f) const {
    const std::uint64_t v = board.vertical_pairs(p);
    if (v) for_each_domino(pair_removal_ranks(index, p), v, board.cols, level, f);
  }

  /// Calls f(level - 2, option_rank) for each of Right's options (a
  /// horizontal domino on two empty cells).
  template <class F>
  CGTB_HD void for_each_right_option(int level, position p, F&& f) const {
    const std::uint64_t h = board.horizontal_pairs(p);
    if (h) for_each_domino(pair_removal_ranks(index, p), h, 1, level, f);
  }

  /// Left's options to fl and Right's to fr, both ranked from one
  /// pair_removal_ranks of p (on the GPU one walk over p's cells; on the CPU
  /// one pass of prefix sums; partizan_rule prefers this to the two walks
  /// above).
  template <class FL, class FR>
  CGTB_HD void for_each_left_and_right_option(int level, position p, FL&& fl, FR&& fr) const {
    const std::uint64_t v = board.vertical_pairs(p), h = board.horizontal_pairs(p);
    if (!(v | h)) return;
    pair_removal_ranks(index, p).for_each(
        h, v, board.cols, [&](std::uint64_t r) { fr(level - 2, r); }, [&](std::uint64_t r) { fl(level - 2, r); });
  }

  /// Number of options of both players.
  CGTB_HD int option_count(position p) const {
    return popcount64(board.horizontal_pairs(p)) + popcount64(board.vertical_pairs(p));
  }
};

/// Domineering over the reachable, symmetry-reduced index (the rectangle's
/// four symmetries keep every domino's orientation, so Left's options stay
/// Left's): the same options as domineering_view, canonicalised and ranked by
/// hash lookup.
struct domineering_reachable_view : domino_reachable_index {
  template <class F>
  CGTB_HD void for_each_left_option(int level, position p, F&& f) const {
    const std::uint64_t v = board.vertical_pairs(p);
    if (v) for_each_domino(symmetric_images(image_bit, symmetries, p), v, board.cols, level, f);
  }
  template <class F>
  CGTB_HD void for_each_right_option(int level, position p, F&& f) const {
    const std::uint64_t h = board.horizontal_pairs(p);
    if (h) for_each_domino(symmetric_images(image_bit, symmetries, p), h, 1, level, f);
  }
  template <class FL, class FR>
  CGTB_HD void for_each_left_and_right_option(int level, position p, FL&& fl, FR&& fr) const {
    const std::uint64_t v = board.vertical_pairs(p), h = board.horizontal_pairs(p);
    if (!(v | h)) return;
    const symmetric_images im(image_bit, symmetries, p);
    for_each_domino(im, v, board.cols, level, fl);
    for_each_domino(im, h, 1, level, fr);
  }
  CGTB_HD int option_count(position p) const {
    return popcount64(board.horizontal_pairs(p)) + popcount64(board.vertical_pairs(p));
  }
};

/// Domineering on a rows x cols rectangle (host owner of the index tables).
/// Positions are written and moves named as in Cram: rows separated by '/',
/// '.' empty, '#' covered; a move is its two cells, e.g. "b2-b3".
class domineering : public domino_game<domineering_view> {
 public:
  using move = domino_move;
  static constexpr const char* ruleset_name = "domineering";

  /// Throws input_error for boards over 64 cells, with a zero side or more
  /// than 26 columns.
  domineering(int rows, int cols);
  /// Parses "RxC" (e.g. "5x5"); throws input_error if malformed.
  static domineering from_board_text(const std::string& rc);

  /// Canonical parameter text, e.g. "5x5".
  std::string params() const { return text_.params(); }

  /// Every level 0..rows*cols (every region of the rectangle), ascending.
  std::vector<int> levels() const;

  /// Parses a position (Cram syntax); throws input_error naming the problem,
  /// e.g. a position of the wrong shape for this board.
  position parse(const std::string& text) const { return text_.parse(text); }
  std::string format(position p) const { return text_.format(p); }
  /// Move text "a1-a2".
  std::string move_name(const move& m) const { return text_.move_name(m); }
  /// Left's moves (vertical dominoes) from p, in cell order.
  std::vector<move> left_moves(position p) const;
  /// Right's moves (horizontal dominoes) from p, in cell order.
  std::vector<move> right_moves(position p) const;
  // transpose (domino_game) maps p to the cols x rows board, where Left's
  // and Right's roles exchange.

 private:
  cram text_;  ///< parsing, printing and move names shared with Cram
};

}  // namespace cgtb
