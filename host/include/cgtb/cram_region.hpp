// Cram regions without a board: the empty cells of a position, cut into their
// connected parts, each cropped to its bounding box and taken up to rotation
// and reflection. A disjunctive sum of regions is how a Cram position plays
// (a domino never joins two parts), and the form in which `cgtb sum` and
// `cgtb quotient cram` handle positions that no table holds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cgtb {

/// A region of empty cells in its bounding box: cell (r, c) at bit r*cols + c.
struct cram_region {
  int rows = 0, cols = 0;
  std::uint64_t mask = 0;

  int cells() const;
  /// The position's text as Cram writes it ('.' empty, '#' covered, rows
  /// joined by '/'), on the bounding box.
  std::string text() const;
  bool operator==(const cram_region& o) const { return rows == o.rows && cols == o.cols && mask == o.mask; }
};

/// Largest side and area of a region's bounding box that a canonical key
/// holds (cram_region_key).
inline constexpr int kRegionMaxSide = 15;
inline constexpr int kRegionMaxArea = 48;

/// The least of the region's 8 images under the rotations and reflections of
/// the square (images cropped; compared by cram_region_key).
cram_region canonical_region(const cram_region& r);

/// (rows << 52) | (cols << 48) | mask, the order canonical_region minimises;
/// throws input_error when a side is over kRegionMaxSide or the box's area is
/// over kRegionMaxArea.
std::uint64_t cram_region_key(const cram_region& r);
/// Inverse of cram_region_key.
cram_region cram_region_of_key(std::uint64_t key);

/// The connected parts (cells joined by a common side) of the empty cells
/// `mask` of a rows x cols board, each canonical, in increasing key order;
/// none for an empty mask. Throws input_error for a board over 64 cells.
std::vector<cram_region> region_parts(int rows, int cols, std::uint64_t mask);

/// Every free polyomino of 1..max_cells cells (connected regions up to
/// translation, rotation and reflection), canonical, by cells then key. Their
/// numbers are OEIS A000105 (1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655, ...).
/// Throws input_error for max_cells outside 0..12.
std::vector<cram_region> free_polyominoes(int max_cells);

}  // namespace cgtb
