// `cgtb search cram`: the Grundy value of one Cram position too large for a
// table (boards up to 128 cells, sides up to 26 columns), by a depth-first
// search over its connected regions (docs/search.md).
//
// The position is a disjunctive sum of its connected regions, worth the XOR
// of their values (Sprague-Grundy; Winning Ways ch. 11). A region's value is
// found value by value as Lemoine and Viennot do ("Nimbers are inevitable",
// Theoretical Computer Science 462, 2012): G(R) = v exactly when R has an
// option of each value below v and none of value v, and "R has an option of
// value u" asks, of each option R - d = P1 + ... + Pk (its parts), whether
// G(P_big) = u xor G(P_1) xor ... (the others' values, found first; equal
// parts cancel). Regions the component table holds are read from it; every
// region searched is kept in a bounded transposition table with its exact
// value or the values it is known not to have.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cgtb/polyomino.hpp"
#include "cgtb/progress.hpp"

namespace cgtb {

/// What cram_search needs.
struct cram_search_options {
  /// A cram-components tablebase (cgtb build cram-components): regions of
  /// up to its max-cells are read from it. "" = none.
  std::string table;                            ///< read whole into memory (9 bytes a region)
  std::size_t tt_bytes = std::size_t{1} << 30;  ///< transposition table (32-byte entries)
  int threads = 0;                              ///< 0 = every core
  double time_limit = 0;                        ///< seconds; 0 = none
  /// A file the transposition table is read from (where it exists) when the
  /// search is made, and written to (checksummed, under a temporary name,
  /// then renamed) at the end of every solve(), finished or stopped: a long
  /// search stops and goes on. "" = none.
  std::string tt_file;
  progress_sink* progress = nullptr;  ///< a line every few seconds (null = none)
  /// Answer an empty board with both sides even by the pairing argument
  /// (the second player copies every move turned a half turn about the
  /// centre, so G = 0) instead of searching. Off by default.
  bool symmetry_shortcut = false;
};

/// One connected region of the position and what the search found of it.
struct searched_region {
  std::string text;  ///< its canonical image
  int cells = 0;
  bool solved = false;         ///< its value is known
  unsigned grundy = 0;         ///< when solved
  std::uint64_t excluded = 0;  ///< bit v: G is not v (when not solved)
};

/// Result of cram_search::solve.
struct cram_search_report {
  std::string position;
  bool complete = false;     ///< every region solved: `grundy` is the value
  bool by_symmetry = false;  ///< answered by --symmetry-shortcut, not searched
  unsigned grundy = 0;
  std::vector<searched_region> regions;
  std::uint64_t nodes = 0;        ///< regions whose options were walked for one value
  std::uint64_t table_reads = 0;  ///< region values read from the component table
  std::uint64_t tt_hits = 0;      ///< region values (or excluded values) found in the transposition table
  std::uint64_t tt_entries = 0, tt_capacity = 0;
  std::uint64_t tt_loaded = 0;  ///< regions read from the transposition table file
  bool tt_saved = false;        ///< the transposition table file was written
  std::size_t tt_bytes = 0;
  int table_max_cells = 0;  ///< the component table's K (0 = none)
  int threads = 1;
  double seconds = 0;
  std::string stopped;  ///< why an incomplete search stopped ("time limit", "interrupted")
};

/// A search with its transposition table, kept across solve() calls.
class cram_search {
 public:
  /// Opens the component table; throws input_error for a file that is not
  /// a cram-components tablebase, resource_error when the transposition
  /// table cannot be allocated.
  explicit cram_search(const cram_search_options& opt);
  ~cram_search();
  cram_search(const cram_search&) = delete;
  cram_search& operator=(const cram_search&) = delete;

  /// The Grundy value of a Cram position written as text ('.' empty, '#'
  /// covered, rows joined by '/'; at most 128 cells, sides up to 31). Throws
  /// input_error for malformed text. Stops early (report.complete false,
  /// with what is known) at the time limit or when interrupt() is called.
  cram_search_report solve(const std::string& text);
  /// Makes a running solve stop at its next node (safe from a signal
  /// handler: it sets a flag).
  void interrupt();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// The text of an empty rows x cols board (rows of '.', joined by '/');
/// throws input_error unless 1 <= rows, cols <= kRegion128MaxSide and
/// rows * cols <= 128.
std::string empty_board_text(int rows, int cols);

}  // namespace cgtb
