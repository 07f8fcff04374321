// Host owner of the reachable, symmetry-reduced tables of the domino games
// (cgtb/reachable_index.hpp): Cram or Domineering with levels that hold only
// the regions that can arise from the empty board, once per symmetry class.
// The solver finds the stored positions itself (a forward pass from start(),
// cuda/src/solve_index.hpp); the owner supplies the symmetry tables, the
// canonical images and the file keys.
// Backend instantiations (cgtb-solve lines: the ruleset and the value rule
// each backend is compiled for; CMake collects them, docs/architecture.md):
// cgtb-solve: cgtb::cram_reachable cgtb::impartial_rule<-1>
// cgtb-solve: cgtb::cram_reachable cgtb::impartial_rule<0>
// cgtb-solve: cgtb::cram_reachable cgtb::impartial_rule<7>
// cgtb-solve: cgtb::domineering_reachable cgtb::partizan_rule
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cgtb/games/cram.hpp"
#include "cgtb/games/domineering.hpp"
#include "cgtb/reachable_index.hpp"

namespace cgtb {

/// `Game` (cram or domineering) over the reachable index with view `View`
/// (cram_reachable_view or domineering_reachable_view). Positions, moves and
/// their text are Game's; level L holds the canonical images of the
/// reachable regions of L empty cells (levels with the board's parity).
template <class Game, class View>
class reachable_domino : public Game {
 public:
  using view_type = View;
  using position = std::uint64_t;
  /// The game over every region (its parsing, moves and move names).
  using plain_game = Game;
  /// The solver builds this game's index (solve_index.hpp).
  static constexpr bool keyed_index = true;

  /// `group` is "none", "rectangle" or "square" (board_symmetry::make);
  /// throws input_error for a square group on a non-square board.
  reachable_domino(Game g, const std::string& group)
      : Game(std::move(g)),
        sym_(board_symmetry::make(this->rows(), this->cols(), group)),
        ranker_(this->board_.cells) {}

  /// Levels with the parity of the full board, ascending.
  std::vector<int> levels() const {
    std::vector<int> l;
    for (int k = this->board_.cells % 2; k <= this->board_.cells; k += 2) l.push_back(k);
    return l;
  }
  /// The constant table kernels read: the symmetry cell maps.
  const std::vector<std::uint64_t>& table() const { return sym_.image_bit; }
  /// View over `table` (a copy of table()) and the level descriptors `levels`
  /// (indexed by level; may be null for the forward pass).
  view_type view(const std::uint64_t* table, const reachable_level* levels) const {
    view_type v;
    v.board = this->board_;
    v.image_bit = table;
    v.symmetries = sym_.count;
    v.levels = levels;
    return v;
  }
  /// Most options of any position (every domino of the empty board).
  std::uint64_t max_options() const {
    return static_cast<std::uint64_t>(popcount64(this->board_.horizontal_pairs(this->board_.all)) +
                                      popcount64(this->board_.vertical_pairs(this->board_.all)));
  }

  /// The host cannot rank without the level lists the solver builds: there
  /// is no host view (the drivers locate positions through the file).
  void host_view() const = delete;

  const board_symmetry& symmetry() const { return sym_; }
  /// The stored image of p: least mask among its images.
  position canonical(position p) const {
    return symmetric_images(sym_.image_bit.data(), sym_.count, p).canonical(sym_.count);
  }
  /// The images of p under the table's symmetries.
  symmetric_images images(position p) const { return symmetric_images(sym_.image_bit.data(), sym_.count, p); }
  /// canonical(q) for q a subset of p whose images `of_p` are known: a
  /// symmetry permutes the cells, so the images of q are those of p less
  /// those of the cells of p outside q (two for a domino move).
  position canonical_within(const symmetric_images& of_p, position p, position q) const {
    const symmetric_images gone = images(p & ~q);
    position best = of_p.img[0] & ~gone.img[0];
    for (int s = 1; s < sym_.count; ++s) best = std::min(best, of_p.img[s] & ~gone.img[s]);
    return best;
  }
  /// Number of distinct images of p (positions its class stands for).
  int orbit_size(position p) const {
    return symmetric_images(sym_.image_bit.data(), sym_.count, p).orbit_size(sym_.count);
  }
  /// Key stored in the file for a canonical mask: its combinatorial rank
  /// among the subsets of its size (cgtb/subset_index.hpp); ascending with
  /// the mask.
  std::uint64_t file_key(position canonical_mask) const { return ranker_.rank(canonical_mask); }
  /// Inverse of file_key on level L; throws input_error for a level or key
  /// the board has no subset for (a corrupt file's).
  position from_file_key(int level, std::uint64_t key) const {
    if (level < 0 || level > this->board_.cells || key >= subsets().count(level))
      throw input_error("key " + std::to_string(key) + " is no position of level " + std::to_string(level) + " of " +
                        std::to_string(this->rows()) + "x" + std::to_string(this->cols()));
    return subsets().unrank(level, key);
  }

 private:
  subset_index subsets() const { return {this->binom_.data(), this->board_.cells}; }
  board_symmetry sym_;
  subset_byte_ranker ranker_;  ///< file_key's ranks
};

using cram_reachable = reachable_domino<cram, cram_reachable_view>;
using domineering_reachable = reachable_domino<domineering, domineering_reachable_view>;

/// Symmetry group name of a game's tables: "square" for Cram on a square,
/// else "rectangle" (Domineering keeps the four symmetries that keep each
/// player's orientation), or "none" when symmetry is off.
inline std::string domino_symmetry_group(bool partizan, int rows, int cols, bool on) {
  if (!on) return "none";
  return !partizan && rows == cols ? "square" : "rectangle";
}

}  // namespace cgtb
