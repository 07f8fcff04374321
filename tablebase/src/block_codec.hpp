// The block codec of a .cgtb file (docs/format.md, "Blocks"): a block's
// entries packed into one bit plane per field (and a plane of key deltas in
// keyed files), and the same unpacked. Compression and checksums are the
// writer's and the reader's. Private to tablebase/src.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/tablebase_format.hpp"
#include "cgtb/tablebase_reader.hpp"

namespace cgtb::file_detail {

/// Packs values[f * count + j] into a raw block: one width byte per field
/// (and one for the key deltas when keys is not null), then one bit plane per
/// field and the key-delta plane (LSB first), each padded to a whole byte.
/// keys, when given, are the block's count keys, strictly increasing. Throws
/// std::logic_error on a negative value in an unsigned field, resource_error
/// on a value wider than 56 bits.
std::string pack_block(const std::vector<field_spec>& fields, std::uint64_t count, const std::int64_t* values,
                       const std::uint64_t* keys);

/// Unpacks d.bytes (a raw block of `raw_size` bytes followed by kPadding zero
/// bytes) of d.count entries into d's planes and, for keyed files, its keys
/// from `first_key` on. Returns an empty string, or what is wrong with the
/// block (the reader reports it as a corrupt file). `next_first_key` points
/// to the first key of the level's next block, or is null when this block is
/// the level's last.
std::string unpack_block(decoded_block& d, std::uint32_t raw_size, const std::vector<field_spec>& fields, bool keyed,
                         std::uint64_t first_key, const std::uint64_t* next_first_key);

}  // namespace cgtb::file_detail
