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
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/games/cram.hpp"
#include "cgtb/hd.hpp"
#include "cgtb/subset_index.hpp"

namespace cgtb {

/// Trivially copyable Domineering ruleset, used by kernels and host tools.
struct domineering_view {
  domino_board board;
  subset_index index;

  using position = std::uint64_t;

  CGTB_HD std::uint64_t level_size(int level) const { return index.count(level); }
  CGTB_HD position unrank(int level, std::uint64_t r) const { return index.unrank(level, r); }
  CGTB_HD std::uint64_t rank(int /*level*/, position p) const { return index.rank(p); }
  CGTB_HD position next(int /*level*/, position p) const { return subset_index::next(p); }

  /// Calls f(level - 2, option_rank) for each of Left's options (a vertical
  /// domino on two empty cells), ranked incrementally in O(1) each.
  template <class F>
  CGTB_HD void for_each_left_option(int level, position p, F&& f) const {
    std::uint64_t v = board.vertical_pairs(p);
    if (!v) return;
    removal_ranker rr(index, p);
    for (; v; v &= v - 1) {
      int x = ctz64(v);
      f(level - 2, rr.rank_without(x, x + board.cols));
    }
  }

  /// Calls f(level - 2, option_rank) for each of Right's options (a
  /// horizontal domino on two empty cells).
  template <class F>
  CGTB_HD void for_each_right_option(int level, position p, F&& f) const {
    std::uint64_t h = board.horizontal_pairs(p);
    if (!h) return;
    removal_ranker rr(index, p);
    for (; h; h &= h - 1) {
      int x = ctz64(h);
      f(level - 2, rr.rank_without(x, x + 1));
    }
  }

  /// Left's options to fl, then Right's to fr, both ranked from one
  /// removal_ranker (partizan_rule prefers this to the two walks above).
  template <class FL, class FR>
  CGTB_HD void for_each_left_and_right_option(int level, position p, FL&& fl, FR&& fr) const {
    std::uint64_t v = board.vertical_pairs(p), h = board.horizontal_pairs(p);
    if (!(v | h)) return;
    removal_ranker rr(index, p);
    for (; v; v &= v - 1) {
      int x = ctz64(v);
      fl(level - 2, rr.rank_without(x, x + board.cols));
    }
    for (; h; h &= h - 1) {
      int x = ctz64(h);
      fr(level - 2, rr.rank_without(x, x + 1));
    }
  }

  /// Number of options of both players.
  CGTB_HD int option_count(position p) const {
    return popcount64(board.horizontal_pairs(p)) + popcount64(board.vertical_pairs(p));
  }
};

/// Domineering on a rows x cols rectangle (host owner of the index tables).
/// Positions are written and moves named as in Cram: rows separated by '/',
/// '.' empty, '#' covered; a move is its two cells, e.g. "b2-b3".
class domineering {
 public:
  using view_type = domineering_view;
  using position = std::uint64_t;
  using move = domino_move;
  static constexpr const char* ruleset_name = "domineering";

  /// Throws input_error for boards over 64 cells, with a zero side or more
  /// than 26 columns.
  domineering(int rows, int cols);
  /// Parses "RxC" (e.g. "5x5"); throws input_error if malformed.
  static domineering from_board_text(const std::string& rc);

  /// Canonical parameter text, e.g. "5x5".
  std::string params() const { return text_.params(); }
  int rows() const { return board_.rows; }
  int cols() const { return board_.cols; }

  /// Every level 0..rows*cols (every region of the rectangle), ascending.
  std::vector<int> levels() const;
  /// Options of a level-L position lie on level L - 2.
  int option_level_span() const { return 2; }
  /// The empty board.
  position start() const { return board_.all; }
  int level_of(position p) const { return popcount64(p); }

  const std::vector<std::uint64_t>& table() const { return binom_; }
  view_type view(const std::uint64_t* table) const { return {board_, {table, board_.cells}}; }
  view_type host_view() const { return view(binom_.data()); }

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
  /// The position p of this board reflected in its main diagonal, as a
  /// position of the cols x rows board (Left's and Right's roles exchange).
  position transpose(position p) const;

 private:
  domino_board board_;
  std::vector<std::uint64_t> binom_;
  cram text_;  ///< parsing, printing and move names shared with Cram
};

}  // namespace cgtb
