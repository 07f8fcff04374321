// The index of a .cgtb file (docs/format.md, "Index"): the level table and the
// block table, as the file ends with them and as a checkpoint carries them.
// Private to tablebase/src.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/tablebase_format.hpp"

namespace cgtb::file_detail {

/// The level and block tables of a file.
struct file_index {
  std::vector<level_entry> levels;
  std::vector<block_entry> blocks;
};

/// The bytes of the index (format version 2): u32 level count, u32 0, a
/// 32-byte entry per level, u64 block count, a 32-byte entry per block.
std::string encode_index(const std::vector<level_entry>& levels, const std::vector<block_entry>& blocks);

/// Parses an index of format version `version` (1: 24-byte block entries
/// without first keys) from the `size` bytes at p. With `exact`, the index
/// must fill them; otherwise it may be followed by other bytes, and `used`
/// receives its length. Checks the tables' shape only (counts, sizes, level
/// numbers); what the entries must agree with is the caller's. Returns an
/// empty string, or what is wrong ("corrupt level table", "corrupt block
/// table", "truncated").
std::string decode_index(const unsigned char* p, std::size_t size, std::uint32_t version, bool exact, file_index& out,
                         std::size_t* used = nullptr);

}  // namespace cgtb::file_detail
