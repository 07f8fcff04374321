#include "index_table.hpp"

#include "file_bytes.hpp"

namespace cgtb::file_detail {

std::string encode_index(const std::vector<level_entry>& levels, const std::vector<block_entry>& blocks) {
  std::string idx;
  put32(idx, static_cast<std::uint32_t>(levels.size()));
  put32(idx, 0);
  for (const auto& l : levels) {
    put32(idx, static_cast<std::uint32_t>(l.level));
    put32(idx, 0);
    put64(idx, l.positions);
    put64(idx, l.first_block);
    put64(idx, l.blocks);
  }
  put64(idx, blocks.size());
  for (const auto& b : blocks) {
    put64(idx, b.offset);
    put32(idx, b.compressed_size);
    put32(idx, b.raw_size);
    put64(idx, b.checksum);
    put64(idx, b.first_key);
  }
  return idx;
}

std::string decode_index(const unsigned char* p, std::size_t size, std::uint32_t version, bool exact, file_index& out,
                         std::size_t* used) {
  const std::size_t block_entry_bytes = version == 1 ? kBlockEntryBytesV1 : kBlockEntryBytes;
  if (size < 16) return exact ? "corrupt level table" : "truncated";
  const std::uint32_t nl = get32(p);
  std::size_t pos = 8;
  if (8 + static_cast<std::uint64_t>(nl) * kLevelEntryBytes + 8 > size)
    return exact ? "corrupt level table" : "truncated";
  for (std::uint32_t i = 0; i < nl; ++i, pos += kLevelEntryBytes) {
    level_entry l{static_cast<int>(get32(p + pos)), get64(p + pos + 8), get64(p + pos + 16), get64(p + pos + 24)};
    if (l.level < 0 || l.level > 1'000'000) return "corrupt level table";
    out.levels.push_back(l);
  }
  const std::uint64_t nb = get64(p + pos);
  pos += 8;
  if (nb > size || (exact ? pos + nb * block_entry_bytes != size : pos + nb * block_entry_bytes > size))
    return exact ? "corrupt block table" : "truncated";
  for (std::uint64_t i = 0; i < nb; ++i, pos += block_entry_bytes)
    out.blocks.push_back({get64(p + pos), get32(p + pos + 8), get32(p + pos + 12), get64(p + pos + 16),
                          version == 1 ? 0 : get64(p + pos + 24)});
  if (used) *used = pos;
  return "";
}

}  // namespace cgtb::file_detail
