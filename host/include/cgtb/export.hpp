// cgtb export: every stored position of a tablebase with its values, as CSV
// or JSON lines, for analysis elsewhere and as the canonical dump the pinned
// reference checksums are taken of (tests/data/reference.sha256).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

namespace cgtb {

class tablebase;
class game_driver;

/// Output format of export_table.
enum class export_format { csv, jsonl };

/// Parses "csv" or "jsonl"; throws input_error for anything else.
export_format parse_export_format(const std::string& text);

/// Writes the stored positions of `tb` (every level ascending, or only
/// `level` when level >= 0), one row each in rank order: level, rank, the
/// position's text (as `drv` formats it), for symmetry-reduced tables the
/// class's orbit size, then every field of the header in order (signed
/// integers). CSV starts with a header row and quotes a text holding a comma,
/// quote or line break (RFC 4180); JSON lines are objects with the same keys.
/// The output depends only on the stored values, not on the compressor or
/// the builder's version. Returns the number of rows; throws input_error for a
/// level the file lacks or a corrupt block.
std::uint64_t export_table(tablebase& tb, const game_driver& drv, int level, export_format fmt, std::ostream& out);

}  // namespace cgtb
