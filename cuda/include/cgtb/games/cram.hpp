// Cram on a rectangle: the impartial domino-placing game (Winning Ways ch. 22;
// "Cram with the last move losing", an essay on misère Cram). Either player covers two adjacent empty cells; under
// normal play the player who cannot move loses.
//
// Position: the set of empty cells as a bitmask, cell (r, c) at bit r*cols + c,
// so any region inside the rectangle is a position. Level: the number of empty
// cells; every move lowers it by exactly two. Index: the combinatorial number
// system over k-subsets of the rows*cols cells (cgtb/subset_index.hpp). A
// tablebase holds every position of the levels with the parity of the full
// board, reachable by legal play or not.
// Backend instantiations (cgtb-solve lines: the ruleset and the value rule
// each backend is compiled for; CMake collects them, docs/architecture.md):
// cgtb-solve: cgtb::cram cgtb::impartial_rule<-1>
// cgtb-solve: cgtb::cram cgtb::impartial_rule<0>
// cgtb-solve: cgtb::cram cgtb::impartial_rule<7>
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/hd.hpp"
#include "cgtb/reachable_index.hpp"
#include "cgtb/subset_index.hpp"

namespace cgtb {

/// Board geometry shared by the domino games (Cram, Domineering): masks of the
/// cells that have a right-hand and a lower neighbour.
struct domino_board {
  int rows, cols, cells;
  std::uint64_t all;        ///< every cell of the rectangle
  std::uint64_t has_right;  ///< cells not in the last column

  /// Throws input_error unless 1 <= rows, cols and rows*cols <= 64.
  static domino_board make(int rows, int cols);

  /// Horizontal dominoes whose both cells are in `s`, as the mask of their
  /// left cells.
  CGTB_HD std::uint64_t horizontal_pairs(std::uint64_t s) const { return s & (s >> 1) & has_right; }
  /// Vertical dominoes whose both cells are in `s`, as the mask of their top
  /// cells.
  CGTB_HD std::uint64_t vertical_pairs(std::uint64_t s) const { return s & (s >> cols); }
};

/// The index the domino games share: a position is the set of empty cells,
/// its level the number of empty cells, ranked as a k-subset of the board's
/// cells (cgtb/subset_index.hpp). Trivially copyable.
struct domino_index {
  domino_board board;
  subset_index index;

  using position = std::uint64_t;

  CGTB_HD std::uint64_t level_size(int level) const { return index.count(level); }
  CGTB_HD position unrank(int level, std::uint64_t r) const { return index.unrank(level, r); }
  CGTB_HD std::uint64_t rank(int /*level*/, position p) const { return index.rank(p); }
  CGTB_HD position next(int /*level*/, position p) const { return subset_index::next(p); }

  /// Calls f(level - 2, option_rank) for each domino in `pairs` (a mask of
  /// first cells; the second cell is `stride` further on: 1 horizontal, cols
  /// vertical), in ascending order of the first cell, each ranked by `rr`
  /// (the pair_removal_ranks of p).
  template <class F>
  CGTB_HD static void for_each_domino(const pair_removal_ranks& rr, std::uint64_t pairs, int stride, int level, F&& f) {
    rr.for_each(pairs, stride, [&](std::uint64_t r) { f(level - 2, r); });
  }
};

/// The reachable, symmetry-reduced index the domino games share
/// (cgtb/reachable_index.hpp): level L holds the canonical images of the
/// regions of L empty cells whose covered cells can be tiled by dominoes.
/// Trivially copyable; `image_bit` and `levels` point to memory of the
/// processor that runs the view (levels[L] is set while L is resident).
struct domino_reachable_index {
  domino_board board;
  const std::uint64_t* image_bit;  ///< board_symmetry::image_bit
  int symmetries;                  ///< board_symmetry::count
  const reachable_level* levels;   ///< indexed by level

  using position = std::uint64_t;

  CGTB_HD std::uint64_t level_size(int level) const { return levels[level].size; }
  CGTB_HD position unrank(int level, std::uint64_t r) const { return levels[level].key(r); }
  /// Rank of any image of a stored position (canonicalised first).
  CGTB_HD std::uint64_t rank(int level, position p) const {
    return levels[level].rank(symmetric_images(image_bit, symmetries, p).canonical(symmetries));
  }
  /// The stored position after canonical p on its level (p not the last).
  CGTB_HD position next(int level, position p) const { return levels[level].next(p); }
  /// Calls f(position) for ranks first .. last - 1 of `level`, walking the
  /// coded keys with a cursor (cgtb/level_solver.hpp for_each_position).
  static constexpr bool walks_positions = true;
  template <class F>
  CGTB_HD void for_each_position(int level, std::uint64_t first, std::uint64_t last, F&& f) const {
    levels[level].for_each_key(first, last, [&](std::uint64_t, std::uint64_t key) { f(key); });
  }

  /// Calls f(level - 2, option_rank) for each domino in `pairs` (a mask of
  /// first cells; the second is `stride` further on), each option
  /// canonicalised from the images `im` of the position and ranked in the
  /// level's rank table or Elias–Fano keys (reachable_level::rank).
  template <class F>
  CGTB_HD void for_each_domino(const symmetric_images& im, std::uint64_t pairs, int stride, int level, F&& f) const {
    const reachable_level& lv = levels[level - 2];
#if defined(__CUDA_ARCH__)
    for (; pairs; pairs &= pairs - 1) {
      const int x = ctz64(pairs);
      f(level - 2, lv.rank(im.canonical_without(image_bit, symmetries, x, x + stride)));
    }
#else
    // CPU: each lookup starts with a cache miss. Canonicalise a batch of
    // options and prefetch what their lookups read first, so that the misses
    // of the batch overlap: the rank table's slot where the level has one;
    // else the bucket's select sample, then (once those are read) the words
    // of `upper` from there and about the bucket's low parts.
    std::uint64_t batch[16];
    int n = 0;
    for (; pairs; pairs &= pairs - 1) {
      const int x = ctz64(pairs);
      const std::uint64_t c = im.canonical_without(image_bit, symmetries, x, x + stride);
      __builtin_prefetch(lv.slots ? lv.slots + lv.home(c) : lv.zero_sample(lv.bucket(c)));
      batch[n++] = c;
      if (n == 16 || !(pairs & (pairs - 1))) {
        if (lv.slots) {
          for (int i = 0; i < n; ++i) f(level - 2, lv.table_find(batch[i]));
        } else {
          for (int i = 0; i < n; ++i) {
            const std::uint64_t h = lv.bucket(batch[i]);
            if (h == 0 || h == lv.buckets) continue;
            const std::uint64_t* sample = lv.zero_sample(h);
            __builtin_prefetch(lv.upper + (*sample >> 6));
            __builtin_prefetch(lv.lower_at(*sample - ((h - 1) & ~63ull)));
          }
          for (int i = 0; i < n; ++i) f(level - 2, lv.find(batch[i]));
        }
        n = 0;
      }
    }
#endif
  }

  /// Calls f(canonical_option) for every domino of p in either orientation
  /// whose option's class falls in part `part` of `parts` (orbit_part; all
  /// when parts is 1): the forward pass that finds the stored positions of
  /// the level below. `cell_sums` (64 entries, symmetric_images::
  /// cell_image_sum of each cell) may be null: then they are computed here.
  /// Options of other parts are skipped before they are canonicalised.
  template <class F>
  CGTB_HD void for_each_canonical_option(position p, std::uint64_t part, std::uint64_t parts,
                                         const std::uint64_t* cell_sums, F&& f) const {
    const symmetric_images im(image_bit, symmetries, p);
    const std::uint64_t sum = parts > 1 ? im.image_sum(symmetries) : 0;
    const auto option = [&](int x, int y) {
      if (parts > 1) {
        const std::uint64_t sx = cell_sums ? cell_sums[x] : symmetric_images::cell_image_sum(image_bit, symmetries, x);
        const std::uint64_t sy = cell_sums ? cell_sums[y] : symmetric_images::cell_image_sum(image_bit, symmetries, y);
        if (orbit_part(sum - sx - sy, parts) != part) return;
      }
      f(im.canonical_without(image_bit, symmetries, x, y));
    };
    for (std::uint64_t h = board.horizontal_pairs(p); h; h &= h - 1) {
      const int x = ctz64(h);
      option(x, x + 1);
    }
    for (std::uint64_t v = board.vertical_pairs(p); v; v &= v - 1) {
      const int x = ctz64(v);
      option(x, x + board.cols);
    }
  }
  /// symmetric_images::cell_image_sum of each cell, into out[0 .. 63].
  CGTB_HD void cell_image_sums(std::uint64_t* out) const {
    for (int c = 0; c < 64; ++c) out[c] = symmetric_images::cell_image_sum(image_bit, symmetries, c);
  }
};

/// Trivially copyable Cram ruleset, used by kernels and host tools alike.
struct cram_view : domino_index {
  /// Calls f(option_level, option_rank) for every option of p (a domino on two
  /// adjacent empty cells), each option ranked incrementally
  /// (pair_removal_ranks: on the GPU in one walk over p's cells, interleaving
  /// the orientations; on the CPU the horizontal dominoes first).
  template <class F>
  CGTB_HD void for_each_option(int level, position p, F&& f) const {
    const auto option = [&](std::uint64_t r) { f(level - 2, r); };
    pair_removal_ranks(index, p).for_each(board.horizontal_pairs(p), board.vertical_pairs(p), board.cols, option,
                                          option);
  }

  /// Number of options of p.
  CGTB_HD int option_count(position p) const {
    return popcount64(board.horizontal_pairs(p)) + popcount64(board.vertical_pairs(p));
  }

  /// Calls f(parent_level, parent_rank) for every position from which one
  /// move leads to p (a domino lifted off two adjacent covered cells).
  template <class F>
  CGTB_HD void for_each_parent(int level, position p, F&& f) const {
    position covered = board.all & ~p;
    std::uint64_t h = board.horizontal_pairs(covered), v = board.vertical_pairs(covered);
    while (h) {
      int x = ctz64(h);
      h &= h - 1;
      f(level + 2, index.rank(p | (3ull << x)));
    }
    while (v) {
      int x = ctz64(v);
      v &= v - 1;
      f(level + 2, index.rank(p | (1ull << x) | (1ull << (x + board.cols))));
    }
  }
};

/// Cram over the reachable, symmetry-reduced index: the same options as
/// cram_view, each canonicalised and ranked by hash lookup.
struct cram_reachable_view : domino_reachable_index {
  template <class F>
  CGTB_HD void for_each_option(int level, position p, F&& f) const {
    const symmetric_images im(image_bit, symmetries, p);
    for_each_domino(im, board.horizontal_pairs(p), 1, level, f);
    for_each_domino(im, board.vertical_pairs(p), board.cols, level, f);
  }
  CGTB_HD int option_count(position p) const {
    return popcount64(board.horizontal_pairs(p)) + popcount64(board.vertical_pairs(p));
  }
};

/// A move of a domino game: the two cells it covers, and the position after.
struct domino_move {
  int first, second;    ///< cell indices, first < second
  std::uint64_t after;  ///< position after the move
};

/// Host owner parts the domino games share: the board, the binomial table,
/// and views over a copy of it. `View` is the game's view (a domino_index).
template <class View>
class domino_game {
 public:
  using view_type = View;
  using position = std::uint64_t;
  /// A position is the board's empty cells as a bitmask (cell_mask_game).
  static constexpr bool cell_mask_positions = true;

  int rows() const { return board_.rows; }
  int cols() const { return board_.cols; }
  /// Options of a level-L position lie on level L - 2.
  int option_level_span() const { return 2; }
  /// The empty board.
  position start() const { return board_.all; }
  int level_of(position p) const { return popcount64(p); }

  /// The constant table kernels read (binomial coefficients).
  const std::vector<std::uint64_t>& table() const { return binom_; }
  /// View whose table pointer is `table` (a copy of table() in the memory of
  /// the processor that will use the view).
  view_type view(const std::uint64_t* table) const { return {{board_, {table, board_.cells}}}; }
  view_type host_view() const { return view(binom_.data()); }
  /// The position p of this board reflected in its main diagonal, as a
  /// position of the cols x rows board: cell (r, c) goes to (c, r).
  position transpose(position p) const {
    position t = 0;
    for (; p; p &= p - 1) {
      const int x = ctz64(p), r = x / board_.cols, c = x % board_.cols;
      t |= 1ull << (c * board_.rows + r);
    }
    return t;
  }

 protected:
  /// Throws input_error for impossible boards (domino_board::make).
  domino_game(int rows, int cols) : board_(domino_board::make(rows, cols)), binom_(make_binomial_table()) {}
  domino_board board_;
  std::vector<std::uint64_t> binom_;
};

/// Cram on a rows x cols rectangle (host owner of the index tables).
class cram : public domino_game<cram_view> {
 public:
  static constexpr const char* ruleset_name = "cram";

  /// Throws input_error for boards over 64 cells or with a zero side.
  cram(int rows, int cols);
  /// Parses "RxC" (e.g. "4x5"); throws input_error if malformed.
  static cram from_board_text(const std::string& rc);

  /// Canonical parameter text, e.g. "4x5".
  std::string params() const;

  /// Levels of the tablebase in solving order (ascending): the empty-cell
  /// counts with the parity of the full board.
  std::vector<int> levels() const;

  /// Parses a position written row by row, rows separated by '/', '.' for an
  /// empty cell and '#' for a covered one (e.g. "...../.##../....."). Throws
  /// input_error naming the problem if the text is malformed or the wrong size.
  position parse(const std::string& text) const;
  /// Inverse of parse.
  std::string format(position p) const;
  /// Name of a cell: column letter a.. and row number 1.. (row 1 is the first
  /// row written), e.g. "b3".
  std::string cell_name(int cell) const;
  /// Move text "b2-b3".
  std::string move_name(const domino_move& m) const;
  /// Every move from p, horizontal dominoes first, each in cell order.
  std::vector<domino_move> moves(position p) const;
};

}  // namespace cgtb
