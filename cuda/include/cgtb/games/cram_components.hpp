// The Cram component table: the normal-play Grundy value of every connected
// Cram region of at most K cells — every free polyomino, once per class under
// the 8 rotations and reflections of the square (cgtb/polyomino.hpp).
//
// Level n holds the free polyominoes of n cells (level 0: the empty region),
// ranked by their code (polyomino_code of the canonical image) in increasing
// order. A move covers two adjacent cells; what is left falls apart into
// connected parts, each a polyomino of a lower level, and the option is their
// disjunctive sum, worth the XOR of their values (impartial_sum_rule). So a
// level's options land on every lower level (option_level_span 0). There is
// no start position: the owner enumerates the polyominoes level by level
// (Redelmeier's method, host/src), and their numbers are OEIS A000105.
//
// Table (the words the kernels read): [0] K, [1 + n] the first index of level
// n for n = 0..K+1 (so [2 + K] is the total), then the codes of every level
// (ascending within a level), then each position's box (polyomino: lo, hi).
// Backend instantiations (cgtb-solve lines: the ruleset and the value rule
// each backend is compiled for; CMake collects them, docs/architecture.md):
// cgtb-solve: cgtb::cram_components cgtb::impartial_sum_rule
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/hd.hpp"
#include "cgtb/polyomino.hpp"

namespace cgtb {

/// Trivially copyable view of a component table (the layout above).
struct cram_components_view {
  const std::uint64_t* table;

  using position = polyomino;
  /// The kernels walk a level's positions by reading their boxes in order.
  static constexpr bool walks_positions = true;

  CGTB_HD int max_cells() const { return static_cast<int>(table[0]); }
  CGTB_HD std::uint64_t first(int level) const { return table[1 + level]; }
  CGTB_HD std::uint64_t total() const { return table[2 + max_cells()]; }
  CGTB_HD const std::uint64_t* codes() const { return table + 3 + max_cells(); }
  CGTB_HD const std::uint64_t* boxes() const { return codes() + total(); }

  CGTB_HD std::uint64_t level_size(int level) const { return first(level + 1) - first(level); }
  CGTB_HD position unrank(int level, std::uint64_t r) const {
    const std::uint64_t* b = boxes() + 2 * (first(level) + r);
    polyomino p;
    p.lo = b[0];
    p.hi = b[1];
    return p;
  }
  /// The rank of the polyomino of `level` cells whose canonical code is
  /// `code`: a binary search of the level's codes; level_size(level) when
  /// the level has no such code.
  CGTB_HD std::uint64_t rank_of_code(int level, std::uint64_t code) const {
    const std::uint64_t* c = codes() + first(level);
    std::uint64_t lo = 0, hi = level_size(level);
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (c[mid] < code)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo < level_size(level) && c[lo] == code ? lo : level_size(level);
  }
  /// The rank of r, any image of a polyomino of `level` cells.
  CGTB_HD std::uint64_t rank_of_region(int level, const region128& r) const {
    return rank_of_code(level, polyomino_code(canonical_region128(r)));
  }
  CGTB_HD std::uint64_t rank(int level, const position& p) const { return rank_of_region(level, p.region()); }
  CGTB_HD position next(int level, const position& p) const { return unrank(level, rank(level, p) + 1); }
  template <class F>
  CGTB_HD void for_each_position(int level, std::uint64_t begin, std::uint64_t end, F&& f) const {
    for (std::uint64_t r = begin; r < end; ++r) f(unrank(level, r));
  }

  /// The option walk of impartial_sum_rule: for each domino of p, in
  /// for_each_domino order, on_part(cells, rank) for each connected part of
  /// what it leaves (lowest cell first), then on_option_end().
  template <class OnPart, class OnEnd>
  CGTB_HD void for_each_option_part(int /*level*/, const position& p, OnPart&& on_part, OnEnd&& on_option_end) const {
    const int rows = p.rows(), cols = p.cols();
    const box_edges e(rows, cols);
    const cells128 m = p.cells();
    for_each_domino(m, cols, e, [&](int i, int j) {
      cells128 d;
      d.set(i);
      d.set(j);
      for_each_connected_part(m.without(d), cols, e, [&](cells128 part) {
        const int n = part.count();
        on_part(n, n == 1 ? 0 : rank_of_region(n, crop(part, rows, cols)));
      });
      on_option_end();
    });
  }

  /// Number of options: the dominoes of p.
  CGTB_HD int option_count(const position& p) const {
    const box_edges e(p.rows(), p.cols());
    int n = 0;
    for_each_domino(p.cells(), p.cols(), e, [&](int, int) { ++n; });
    return n;
  }
};

/// Counts of a component table's levels and how they were found.
struct polyomino_census {
  std::vector<std::uint64_t> free_by_cells;  ///< free polyominoes of n cells, n = 0..K (A000105; 1 for n = 0)
  double seconds = 0;                        ///< enumeration and sorting
};

/// Host owner of a component table of regions of at most K cells.
class cram_components {
 public:
  using view_type = cram_components_view;
  using position = polyomino;
  static constexpr const char* ruleset_name = "cram-components";

  /// A table of regions of 1..max_cells cells. The polyominoes are
  /// enumerated (Redelmeier's method on `threads` threads, 0 = all) when the
  /// table is first asked for (table(), host_view(), census()): a reader of
  /// a file needs none of it. Throws input_error for max_cells outside
  /// 1..kPolyominoMaxCells.
  explicit cram_components(int max_cells, int threads = 0);
  /// Parses "max-cells=K" (the file header's params, or the command line's K).
  static cram_components from_params(const std::string& params);

  std::string params() const { return "max-cells=" + std::to_string(max_cells_); }
  int max_cells() const { return max_cells_; }
  std::vector<int> levels() const;
  /// Options land on every lower level.
  int option_level_span() const { return 0; }
  const std::vector<std::uint64_t>& table() const { return enumerated().table; }
  view_type view(const std::uint64_t* table) const { return {table}; }
  view_type host_view() const { return view(table().data()); }
  const polyomino_census& census() const { return enumerated().census; }

  /// The file keys of ranks first..first+count-1 of `level` (their codes,
  /// ascending): the table's keyed index (docs/format.md).
  void file_keys(int level, std::uint64_t first, std::uint64_t count, std::uint64_t* out) const;

 private:
  struct enumeration {
    std::vector<std::uint64_t> table;
    polyomino_census census;
  };
  const enumeration& enumerated() const;

  int max_cells_, threads_;
  mutable std::shared_ptr<const enumeration> enumerated_;  ///< made on first use
};

/// The fixed polyomino of n cells whose code is `code` (the inverse of
/// polyomino_code); throws input_error for a code that names none (a corrupt
/// file's key) or n outside 0..kPolyominoMaxCells.
region128 polyomino_of_code(int n, std::uint64_t code);

/// The region's text as Cram writes it on its bounding box ('.' a cell of
/// the region, '#' a cell of the box outside it, rows joined by '/'; "" for
/// the empty region).
std::string region_text(const region128& r);

/// The connected parts of the empty cells of a Cram position written as
/// text ('.' empty, '#' covered, rows joined by '/'; any board of at most 128
/// cells and sides up to 31; "" is the empty region, of no part), each a
/// canonical image, largest first. Throws input_error for malformed text.
std::vector<region128> region_parts_of_text(const std::string& text);
/// The board of such text as a region128: its rows and columns as written,
/// its empty cells ("" gives the empty region). Throws input_error for
/// malformed text or a board past 128 cells or sides of 31.
region128 board_of_text(const std::string& text);

}  // namespace cgtb
