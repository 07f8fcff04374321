// Small text parsers shared by the rulesets' parameter and position syntax,
// and the formatters of sizes and durations in progress lines and plans.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cgtb {

/// Parses a signed decimal integer in [lo, hi]; throws input_error naming
/// `what` ("'x' is not an integer", "... is out of range (lo..hi)").
long parse_integer(const std::string& s, const std::string& what, long lo, long hi);

/// Rows and columns of "ROWSxCOLS" (e.g. "4x5", at most three digits each);
/// throws input_error "WHAT 'text' is not of the form ROWSxCOLS (e.g.
/// EXAMPLE)". Range checks are the caller's.
std::pair<int, int> parse_dimensions(const std::string& text, const std::string& what, const std::string& example);

/// Splits s at every `sep`; a trailing separator gives a trailing empty item.
std::vector<std::string> split_text(const std::string& s, char sep);

/// The text of a set of cells on a rows x cols board, as Cram and
/// Domineering positions are written: rows top to bottom separated by '/',
/// '.' for a cell whose bit (row * cols + column) of `empty` is set, '#' for
/// the others. rows * cols is at most 64.
std::string board_text(int rows, int cols, std::uint64_t empty);

/// The name of cell `cell` (bit r*cols + c) of a board `cols` wide, as the
/// domino games write moves: column letter, then row number ("c2").
std::string cell_name(int cell, int cols);

/// The winning moves of a position that has none: "none", or for an
/// N-position, which without a winning move is a misère end position (its
/// player to move has no move and wins), "none (no move: the player to move
/// wins)".
std::string no_winning_moves_text(bool n_position);

/// A list of moves as cgtb prints it: the first `limit` of `moves` joined by
/// `sep`, then " (and K more)" where K were left out, or with limit 0 "(K not
/// listed)"; "" for an empty list (callers say "none" their own way). The
/// limit is cgtb query's --max-moves (--no-moves: 0).
std::string move_list_text(const std::vector<std::string>& moves, std::size_t limit, const std::string& sep);

/// "1 stored position", "2 stored positions": n and the noun, with an s
/// unless n is 1 (`noun` is the singular, an English plural in s).
std::string count_text(unsigned long long n, const std::string& noun);

/// A byte count for people: "4.49 PB", "1.23 TB", "1.23 GB", "12.3 MB",
/// "4.5 kB" (decimal units).
std::string bytes_text(double bytes);

/// A duration in seconds for people: "0.42 s", "12.3 s", "4 min 05 s",
/// "2 h 03 min".
std::string duration_text(double seconds);

}  // namespace cgtb
