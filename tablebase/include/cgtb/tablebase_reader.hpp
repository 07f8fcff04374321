// Reading a .cgtb tablebase (docs/format.md): the index held in memory,
// blocks decoded on demand through a least-recently-used cache.
#pragma once

#include <cstdint>
#include <exception>
#include <list>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cgtb/tablebase_format.hpp"

namespace cgtb {

/// A decompressed block: values of `count` consecutive ranks.
struct decoded_block {
  std::uint64_t first = 0;  ///< rank of its first entry within the level
  std::uint32_t count = 0;
  std::vector<std::uint8_t> widths;        ///< bits per value, per field (the key plane's width not included)
  std::vector<std::uint64_t> plane_start;  ///< bit offset of each field's plane
  std::vector<std::uint8_t> bytes;         ///< raw block, with 16 bytes of padding
  std::vector<bool> is_signed;
  std::vector<std::uint64_t> keys;  ///< absolute key of each entry (keyed files), else empty

  /// Field f of the entry with rank first + i.
  std::int64_t get(std::uint32_t i, int f) const;
};

/// A tablebase opened for reading. Opening checks the magic, version,
/// preamble and index checksums; each block's checksum is checked when it is
/// first read. Every problem is reported as input_error naming the file and
/// what is wrong.
class tablebase {
 public:
  explicit tablebase(const std::string& path, std::size_t cache_bytes = std::size_t{1} << 30);
  ~tablebase();
  tablebase(const tablebase&) = delete;
  tablebase& operator=(const tablebase&) = delete;

  const tablebase_header& header() const { return header_; }
  const std::vector<level_entry>& levels() const { return levels_; }
  const std::vector<block_entry>& blocks() const { return blocks_; }
  std::uint64_t file_size() const { return size_; }
  const std::string& path() const { return path_; }
  /// Format version of the file (1 or 2).
  std::uint32_t format_version() const { return version_; }
  /// True when the file stores keys (index scheme kIndexKeys).
  bool keyed() const { return keyed_; }

  /// The level entry of `level`, or nullptr if the file does not hold it.
  const level_entry* find_level(int level) const;
  /// Field f of the position of rank r on level L; throws input_error if the
  /// file holds no such level or rank.
  std::int64_t value(int level, std::uint64_t rank, int field);
  /// Every field of the position of rank r on level L, in header order, into
  /// out[0 .. fields.size()). One block lookup; throws like value().
  void entry(int level, std::uint64_t rank, std::int64_t* out);
  /// Rank of the position with key `key` on level L, or -1 when the level does
  /// not store that key. Throws input_error if the file holds no such level or
  /// is not keyed. A binary search over the level's block first keys (held in
  /// memory), then over the cached block's decoded keys.
  std::int64_t rank_of_key(int level, std::uint64_t key);
  /// Rank at which the file stores the position of index key `key` on level
  /// L (a position_ref's rank: the rank itself for ruleset-indexed files, the
  /// file key for keyed ones), or -1 when the file holds no such level or
  /// position. Never throws for a missing position.
  std::int64_t stored_rank(int level, std::uint64_t key);
  /// Key of the position of rank r on level L; throws like value(), and
  /// input_error if the file is not keyed.
  std::uint64_t key_of(int level, std::uint64_t rank);
  /// Decompresses and checks block b (uncached).
  decoded_block read_block(std::uint64_t b) const;
  /// Checks block b's checksum and that it decodes; returns an empty string or
  /// the problem.
  std::string check_block(std::uint64_t b) const;

 private:
  const decoded_block& cached_block(std::uint64_t b);
  const decoded_block& block_of(int level, std::uint64_t rank, std::uint32_t& index);
  const decoded_block& use_block(std::uint64_t b);
  const level_entry& level_or_throw(int level) const;
  void require_keys() const;
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::uint32_t version_ = 0;
  bool keyed_ = false;
  tablebase_header header_;
  std::vector<level_entry> levels_;
  std::vector<block_entry> blocks_;
  std::vector<std::uint64_t> first_keys_;  // blocks_[b].first_key, contiguous for the binary search
  std::vector<int> level_slot_;            // level -> index into levels_, -1 if absent
  std::size_t cache_bytes_, cached_ = 0;
  std::list<std::uint64_t> lru_;
  std::uint64_t last_block_ = ~0ull;  // most recently used block
  const decoded_block* last_ = nullptr;
  std::unordered_map<std::uint64_t, std::pair<decoded_block, std::list<std::uint64_t>::iterator>> cache_;
};
/// Calls f(i, block) for every block of level `le` of `tb`, where i is the
/// block's index within the level (0 .. le.blocks) and block its decoded
/// entries, in parallel on the host's OpenMP threads (read_block is safe to
/// call concurrently). f may run for blocks after one has failed; then the
/// exception of the failing block of least index is rethrown, with its type
/// (corrupt_file_error for a block that does not check or decode). Callers
/// that sum over blocks keep one slot per block index.
template <class F>
void for_each_block(const tablebase& tb, const level_entry& le, F&& f) {
  const std::int64_t nb = static_cast<std::int64_t>(le.blocks);
  std::exception_ptr first_error;
  std::int64_t first_failed = nb;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t b = 0; b < nb; ++b) {
    try {
      f(static_cast<std::uint64_t>(b), tb.read_block(le.first_block + static_cast<std::uint64_t>(b)));
    } catch (...) {
#pragma omp critical(cgtb_for_each_block)
      if (b < first_failed) {
        first_failed = b;
        first_error = std::current_exception();
      }
    }
  }
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace cgtb
