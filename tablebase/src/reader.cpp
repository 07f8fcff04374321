// Reading a .cgtb tablebase: the preamble and index checked on opening,
// blocks read, checked and decoded on demand, a least-recently-used cache.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <iterator>

#include "block_codec.hpp"
#include "cgtb/error.hpp"
#include "cgtb/tablebase_reader.hpp"
#include "file_bytes.hpp"
#include "index_table.hpp"

namespace cgtb {

using namespace file_detail;

// In the reader's file, beside value() and entry(), which call it for every
// lookup (inlined there).
std::int64_t decoded_block::get(std::uint32_t i, int f) const {
  const int w = widths[static_cast<std::size_t>(f)];
  if (w == 0) return 0;
  std::uint64_t bit = plane_start[static_cast<std::size_t>(f)] + static_cast<std::uint64_t>(i) * w;
  std::uint64_t u = (load_le64(&bytes[bit / 8]) >> (bit % 8)) & ((1ull << w) - 1);
  return is_signed[static_cast<std::size_t>(f)] ? unzigzag(u) : static_cast<std::int64_t>(u);
}

tablebase::tablebase(const std::string& path, std::size_t cache_bytes) : path_(path), cache_bytes_(cache_bytes) {
  // A file that cannot be opened is bad input; one that opens but is not a
  // sound tablebase is a corrupt file.
  auto fail = [&](const std::string& what) { return corrupt_file_error("'" + path + "': " + what); };
  fd_ = ::open(path.c_str(), O_RDONLY);
  if (fd_ < 0) throw input_error("'" + path + "': cannot open: " + std::strerror(errno));
  struct stat st;
  if (fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    throw input_error("'" + path + "': not a regular file");
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
  auto read_at = [&](std::uint64_t off, std::size_t n) {
    std::vector<unsigned char> buf(n);
    if (off + n > size_ || ::pread(fd_, buf.data(), n, static_cast<off_t>(off)) != static_cast<ssize_t>(n))
      throw fail("truncated (file ends before byte " + std::to_string(off + n) + ")");
    return buf;
  };
  try {
    auto pre = read_at(0, 24);
    if (std::memcmp(pre.data(), kMagic, 8) != 0) throw fail("not a cgtb tablebase (bad magic)");
    version_ = get32(&pre[8]);
    if (version_ < kOldestFormatVersion || version_ > kFormatVersion)
      throw fail("format version " + std::to_string(version_) + " is not supported (this cgtb reads versions " +
                 std::to_string(kOldestFormatVersion) + " to " + std::to_string(kFormatVersion) + ")");
    if (get32(&pre[12]) != 0) throw fail("reserved preamble field is not zero");
    std::uint64_t hlen = get64(&pre[16]);
    if (hlen > (1u << 20) || 32 + hlen > size_) throw fail("truncated or corrupt header length");
    auto whole = read_at(0, 24 + hlen + 8);
    if (XXH64(whole.data(), 24 + hlen, 0) != get64(&whole[24 + hlen]))
      throw fail("header checksum mismatch (file corrupt)");
    try {
      header_ =
          tablebase_header::from_text(std::string(whole.begin() + 24, whole.begin() + 24 + static_cast<long>(hlen)));
    } catch (const input_error& e) {
      throw fail(e.what());
    }
    // A rank order this reader does not know must never be read as data.
    if (!known_index_scheme(header_.index))
      throw fail("index scheme '" + header_.index + "' is not supported (this cgtb reads " + kIndexRuleset + " and " +
                 kIndexKeys + ")");
    if (version_ == 1 && header_.index != kIndexRuleset)
      throw fail("index scheme '" + header_.index + "' in a format version 1 file (version 1 has only " +
                 kIndexRuleset + ")");
    keyed_ = header_.keyed();
    if (size_ < 32 + hlen + kTrailerBytes) throw fail("truncated (no trailer)");
    auto tr = read_at(size_ - kTrailerBytes, kTrailerBytes);
    if (std::memcmp(&tr[24], kEndMagic, 8) != 0) throw fail("truncated or unfinished (no end marker)");
    std::uint64_t ioff = get64(&tr[0]), ilen = get64(&tr[8]);
    if (ioff < 32 + hlen || ilen < 16 || ioff + ilen != size_ - kTrailerBytes) throw fail("corrupt trailer");
    auto idx = read_at(ioff, ilen);
    if (XXH64(idx.data(), ilen, 0) != get64(&tr[16])) throw fail("index checksum mismatch (file corrupt)");
    file_index parsed;
    const std::string why = decode_index(idx.data(), idx.size(), version_, true, parsed);
    if (!why.empty()) throw fail(why);
    int max_level = -1;
    for (const level_entry& l : parsed.levels) max_level = std::max(max_level, l.level);
    levels_ = std::move(parsed.levels);
    for (const block_entry& b : parsed.blocks) {
      if (b.offset < 32 + hlen || b.offset > ioff || b.compressed_size > ioff - b.offset)
        throw fail("corrupt block table");
      if (!keyed_ && b.first_key != 0) throw fail("corrupt block table (first key in a file without keys)");
      first_keys_.push_back(b.first_key);
    }
    blocks_ = std::move(parsed.blocks);
    const std::uint64_t nb = blocks_.size();
    level_slot_.assign(static_cast<std::size_t>(max_level + 1), -1);
    std::uint64_t next_block = 0;
    for (std::size_t i = 0; i < levels_.size(); ++i) {
      const auto& l = levels_[i];
      std::uint64_t be = header_.block_entries;
      if (l.first_block != next_block || l.first_block + l.blocks > nb || l.blocks != (l.positions + be - 1) / be ||
          level_slot_[static_cast<std::size_t>(l.level)] != -1)
        throw fail("corrupt level table");
      level_slot_[static_cast<std::size_t>(l.level)] = static_cast<int>(i);
      // A full block holds `be` increasing keys: the next block's first key is
      // at least `be` above its own.
      for (std::uint64_t b = l.first_block + 1; keyed_ && b < l.first_block + l.blocks; ++b)
        if (first_keys_[b] <= first_keys_[b - 1] || first_keys_[b] - first_keys_[b - 1] < be)
          throw fail("corrupt block table (first keys of level " + std::to_string(l.level) + " not increasing)");
      next_block += l.blocks;
    }
    if (next_block != nb) throw fail("corrupt level table");
  } catch (...) {
    ::close(fd_);
    fd_ = -1;
    throw;
  }
}

tablebase::~tablebase() {
  if (fd_ >= 0) ::close(fd_);
}

const level_entry* tablebase::find_level(int level) const {
  if (level < 0 || static_cast<std::size_t>(level) >= level_slot_.size() ||
      level_slot_[static_cast<std::size_t>(level)] < 0)
    return nullptr;
  return &levels_[static_cast<std::size_t>(level_slot_[static_cast<std::size_t>(level)])];
}

std::string tablebase::check_block(std::uint64_t b) const {
  try {
    read_block(b);
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

decoded_block tablebase::read_block(std::uint64_t b) const {
  auto fail = [&](const std::string& what) {
    return corrupt_file_error("'" + path_ + "': block " + std::to_string(b) + ": " + what);
  };
  if (b >= blocks_.size()) throw input_error("'" + path_ + "': block " + std::to_string(b) + ": no such block");
  const block_entry& e = blocks_[b];
  std::vector<char> comp(e.compressed_size);
  if (::pread(fd_, comp.data(), comp.size(), static_cast<off_t>(e.offset)) != static_cast<ssize_t>(comp.size()))
    throw fail("truncated");
  if (XXH64(comp.data(), comp.size(), 0) != e.checksum) throw fail("checksum mismatch (file corrupt)");
  decoded_block d;
  // Locate the block within its level (levels are stored in block order).
  auto it = std::upper_bound(levels_.begin(), levels_.end(), b,
                             [](std::uint64_t x, const level_entry& l) { return x < l.first_block; });
  const level_entry* lv = nullptr;
  if (it != levels_.begin() && b < std::prev(it)->first_block + std::prev(it)->blocks) lv = &*std::prev(it);
  if (!lv) throw fail("belongs to no level");
  const std::uint64_t be = header_.block_entries;
  d.first = (b - lv->first_block) * be;
  d.count = static_cast<std::uint32_t>(std::min<std::uint64_t>(be, lv->positions - d.first));
  const std::size_t nf = header_.fields.size();
  const std::size_t nw = nf + (keyed_ ? 1 : 0);
  // Refuse a raw size no block of `count` entries can have (every plane at
  // its widest), and one the frame itself contradicts, before allocating it.
  const std::uint64_t max_raw = nw + nf * ((std::uint64_t{d.count} * kMaxValueWidth + 7) / 8) +
                                (keyed_ ? (std::uint64_t{d.count} * kMaxKeyWidth + 7) / 8 : 0);
  const unsigned long long frame_size = ZSTD_getFrameContentSize(comp.data(), comp.size());
  if (e.raw_size > max_raw)
    throw fail("raw size " + std::to_string(e.raw_size) + " is more than a block of " + std::to_string(d.count) +
               " entries can hold (file corrupt)");
  if (frame_size != ZSTD_CONTENTSIZE_ERROR && frame_size != ZSTD_CONTENTSIZE_UNKNOWN && frame_size != e.raw_size)
    throw fail("does not decompress (file corrupt)");
  d.bytes.resize(static_cast<std::size_t>(e.raw_size) + kPadding, 0);
  std::size_t got = ZSTD_decompress(d.bytes.data(), e.raw_size, comp.data(), comp.size());
  if (ZSTD_isError(got) || got != e.raw_size) throw fail("does not decompress (file corrupt)");
  const std::uint64_t* next_first_key =
      b + 1 < lv->first_block + lv->blocks ? &blocks_[static_cast<std::size_t>(b) + 1].first_key : nullptr;
  const std::string why = unpack_block(d, e.raw_size, header_.fields, keyed_, e.first_key, next_first_key);
  if (!why.empty()) throw fail(why);
  return d;
}

const decoded_block& tablebase::cached_block(std::uint64_t b) {
  auto it = cache_.find(b);
  if (it != cache_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second.second);
    return it->second.first;
  }
  decoded_block d = read_block(b);
  auto footprint = [](const decoded_block& x) { return x.bytes.size() + x.keys.size() * sizeof(std::uint64_t); };
  std::size_t sz = footprint(d);
  while (!lru_.empty() && cached_ + sz > cache_bytes_) {
    auto victim = cache_.find(lru_.back());
    if (victim->first == last_block_) last_ = nullptr;
    cached_ -= footprint(victim->second.first);
    cache_.erase(victim);
    lru_.pop_back();
  }
  lru_.push_front(b);
  cached_ += sz;
  auto res = cache_.emplace(b, std::make_pair(std::move(d), lru_.begin()));
  return res.first->second.first;
}

const decoded_block& tablebase::use_block(std::uint64_t b) {
  if (b != last_block_ || !last_) {
    last_ = &cached_block(b);
    last_block_ = b;
  }
  return *last_;
}

const level_entry& tablebase::level_or_throw(int level) const {
  const level_entry* l = find_level(level);
  if (!l) throw input_error("'" + path_ + "' holds no level " + std::to_string(level));
  return *l;
}

void tablebase::require_keys() const {
  if (!keyed_) throw input_error("'" + path_ + "' stores no keys (index " + header_.index + ")");
}

const decoded_block& tablebase::block_of(int level, std::uint64_t rank, std::uint32_t& index) {
  const level_entry& l = level_or_throw(level);
  if (rank >= l.positions)
    throw input_error("rank " + std::to_string(rank) + " is past level " + std::to_string(level));
  const std::uint64_t be = header_.block_entries;
  index = static_cast<std::uint32_t>(rank % be);
  return use_block(l.first_block + rank / be);
}

std::int64_t tablebase::stored_rank(int level, std::uint64_t key) {
  const level_entry* le = find_level(level);
  if (!le) return -1;
  if (keyed_) return rank_of_key(level, key);
  return key < le->positions ? static_cast<std::int64_t>(key) : -1;
}

std::int64_t tablebase::rank_of_key(int level, std::uint64_t key) {
  require_keys();
  const level_entry& l = level_or_throw(level);
  const std::uint64_t* fk = first_keys_.data() + l.first_block;
  // The last block of the level whose first key is <= key holds it, if any.
  const std::uint64_t* it = std::upper_bound(fk, fk + l.blocks, key);
  if (it == fk) return -1;
  const decoded_block& d = use_block(l.first_block + static_cast<std::uint64_t>(it - fk - 1));
  auto k = std::lower_bound(d.keys.begin(), d.keys.end(), key);
  if (k == d.keys.end() || *k != key) return -1;
  return static_cast<std::int64_t>(d.first + static_cast<std::uint64_t>(k - d.keys.begin()));
}

std::uint64_t tablebase::key_of(int level, std::uint64_t rank) {
  require_keys();
  std::uint32_t i;
  return block_of(level, rank, i).keys[i];
}

std::int64_t tablebase::value(int level, std::uint64_t rank, int field) {
  if (field < 0 || static_cast<std::size_t>(field) >= header_.fields.size()) throw input_error("no such field");
  std::uint32_t i;
  return block_of(level, rank, i).get(i, field);
}

void tablebase::entry(int level, std::uint64_t rank, std::int64_t* out) {
  std::uint32_t i;
  const decoded_block& d = block_of(level, rank, i);
  for (std::size_t f = 0; f < header_.fields.size(); ++f) out[f] = d.get(i, static_cast<int>(f));
}

}  // namespace cgtb
