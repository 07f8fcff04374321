// The .cgtb tablebase file, format version 2 (docs/format.md): what its
// header says and the entries of its index. A file is a checksummed preamble
// with a canonical text header, independently zstd-compressed blocks of
// bit-packed values (and, in keyed files, of the positions' keys), and an
// index (level table and block table) found through a fixed-size trailer at
// the end of the file. Readers also read version 1 files.
// The writer is in cgtb/tablebase_writer.hpp, the reader in
// cgtb/tablebase_reader.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cgtb {

/// Format version that writers write.
inline constexpr std::uint32_t kFormatVersion = 2;
/// Oldest format version that readers still read.
inline constexpr std::uint32_t kOldestFormatVersion = 1;
/// Index scheme: rank = the ruleset's own perfect hash of the position.
inline constexpr const char* kIndexRuleset = "ruleset/1";
/// Index scheme: rank = index of the position's key in the level's sorted
/// list of stored keys, which the file carries (one key plane per block).
inline constexpr const char* kIndexKeys = "keys/1";
/// Most fields a file may hold (readers size per-entry buffers by it).
inline constexpr std::size_t kMaxFields = 64;
/// Version of the program that writes files (goes into the header).
inline constexpr const char* kBuilderVersion = "cgtb 0.1.0";

/// A value field: one number per position, e.g. "grundy" or "genus3".
struct field_spec {
  std::string name;
  bool is_signed = false;  ///< stored zigzag-encoded when true
};

/// What the header says. `family` names the value family ("impartial",
/// "partizan", "scoring"), `values` the value kinds asked for.
struct tablebase_header {
  std::string ruleset;                ///< e.g. "cram"
  std::string params;                 ///< canonical parameter text, e.g. "4x5"
  std::string family;                 ///< value family
  std::string values;                 ///< e.g. "normal,misere,genus"
  std::vector<field_spec> fields;     ///< per-position fields, in storage order
  std::string index = kIndexRuleset;  ///< index scheme NAME/VERSION: kIndexRuleset or kIndexKeys
  std::string symmetry = "none";      ///< free text set by the game driver, e.g. "rectangle-4"
  std::string positions = "all";      ///< free text set by the game driver, e.g. "reachable"
  std::uint32_t block_entries = 4096;
  int zstd_level = 9;
  std::string builder = kBuilderVersion;

  /// Canonical text ("key: value" lines in a fixed order).
  std::string to_text() const;
  /// Parses canonical text; throws input_error naming the bad line.
  static tablebase_header from_text(const std::string& text);
  /// Index of a field by name, or -1.
  int field_index(const std::string& name) const;
  /// True when `index` is kIndexKeys (the file stores each level's keys).
  bool keyed() const { return index == kIndexKeys; }
};

/// True when `scheme` is an index scheme this library reads and writes.
bool known_index_scheme(const std::string& scheme);

/// One level of a file.
struct level_entry {
  int level = 0;
  std::uint64_t positions = 0;
  std::uint64_t first_block = 0;
  std::uint64_t blocks = 0;
};

/// One compressed block of a file.
struct block_entry {
  std::uint64_t offset = 0;
  std::uint32_t compressed_size = 0;
  std::uint32_t raw_size = 0;
  std::uint64_t checksum = 0;   ///< XXH64 (seed 0) of the compressed bytes
  std::uint64_t first_key = 0;  ///< key of the block's first entry (0 unless keyed)
};

}  // namespace cgtb
