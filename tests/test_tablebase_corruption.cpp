// Damaged tablebase files (docs/format.md, "Checks a reader makes"): a file
// that is truncated, has a flipped byte anywhere, carries another format
// version or an index scheme the reader does not know, or (keyed files) a key
// plane whose keys do not increase is refused. Through the tool: one line on
// stderr starting "cgtb: error:", a non-zero exit, and no answer on stdout.
// Through the library: cgtb::input_error, for every single-bit flip and every
// truncation of a small file.
#include <gtest/gtest.h>
#include <xxhash.h>
#include <zstd.h>

#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"
#include "test_support.hpp"

namespace {

using cgtb_test::describe;
using cgtb_test::is_clean_error;
using cgtb_test::run_cgtb;

std::uint64_t le(const std::string& s, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<std::size_t>(i)]);
  return v;
}

void put_le(std::string& s, std::size_t at, int bytes, std::uint64_t v) {
  for (int i = 0; i < bytes; ++i) s[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
}

/// Where the parts of a file lie, read from its own bytes (block table
/// entries of 24 bytes in version 1, 32 from version 2).
struct file_layout {
  std::size_t size = 0, version = 0, header_len = 0, index = 0, index_len = 0, levels = 0, entry_bytes = 0;
  struct block {
    std::size_t offset, size, raw_size;
    std::uint64_t first_key;
  };
  std::vector<block> blocks;

  explicit file_layout(const std::string& f) {
    size = f.size();
    version = le(f, 8, 4);
    entry_bytes = version == 1 ? 24 : 32;
    header_len = le(f, 16, 8);
    index = le(f, size - 32, 8);
    index_len = le(f, size - 24, 8);
    levels = le(f, index, 4);
    const std::size_t nb_at = index + 8 + 32 * levels;
    const std::size_t nb = le(f, nb_at, 8);
    for (std::size_t b = 0; b < nb; ++b) {
      const std::size_t e = nb_at + 8 + entry_bytes * b;
      blocks.push_back({le(f, e, 8), le(f, e + 8, 4), le(f, e + 12, 4), version == 1 ? 0 : le(f, e + 24, 8)});
    }
  }
  std::size_t header_text() const { return 24; }
  std::size_t header_checksum() const { return 24 + header_len; }
  std::size_t level_table() const { return index + 8; }
  std::size_t block_table() const { return index + 8 + 32 * levels + 8; }
  std::size_t block_entry(std::size_t b) const { return block_table() + entry_bytes * b; }
  std::size_t trailer() const { return size - 32; }
};

/// Recomputes the preamble checksum after an edit of the header text.
void rechecksum_preamble(std::string& f) {
  const std::size_t hlen = le(f, 16, 8);
  put_le(f, 24 + hlen, 8, XXH64(f.data(), 24 + hlen, 0));
}

/// Recomputes the index checksum (in the trailer) after an edit of the index.
void rechecksum_index(std::string& f) {
  const file_layout l(f);
  put_le(f, l.trailer() + 16, 8, XXH64(f.data() + l.index, l.index_len, 0));
}

/// The file with `from` replaced by `to` (same length) in its header text, the
/// preamble checksum recomputed: a valid file but for what the text says.
std::string with_header_text(const std::string& f, const std::string& from, const std::string& to) {
  if (from.size() != to.size()) throw std::logic_error("with_header_text: lengths differ");
  const std::size_t at = f.find(from, 24);
  if (at == std::string::npos || at + from.size() > 24 + le(f, 16, 8))
    throw std::logic_error("with_header_text: '" + from + "' is not in the header");
  std::string g = f;
  g.replace(at, from.size(), to);
  rechecksum_preamble(g);
  return g;
}

/// The decompressed bytes of block b.
std::string raw_block(const std::string& f, std::size_t b) {
  const file_layout l(f);
  std::string raw(l.blocks[b].raw_size, '\0');
  const std::size_t got = ZSTD_decompress(raw.data(), raw.size(), f.data() + l.blocks[b].offset, l.blocks[b].size);
  if (ZSTD_isError(got) || got != raw.size()) throw std::logic_error("raw_block: does not decompress");
  return raw;
}

/// The file with block b's raw bytes replaced by `raw`, compressed afresh,
/// with every later offset, the block's sizes and checksum, and the index
/// checksum recomputed: a file whose checksums all hold.
std::string with_raw_block(const std::string& f, std::size_t b, const std::string& raw) {
  const file_layout l(f);
  std::string comp(ZSTD_compressBound(raw.size()), '\0');
  comp.resize(ZSTD_compress(comp.data(), comp.size(), raw.data(), raw.size(), 3));
  const auto& old = l.blocks[b];
  std::string out = f.substr(0, old.offset) + comp + f.substr(old.offset + old.size, l.index - old.offset - old.size);
  const std::size_t new_index = out.size();
  std::string idx = f.substr(l.index, l.index_len);
  const std::size_t table = l.block_table() - l.index;
  for (std::size_t e = b + 1; e < l.blocks.size(); ++e)
    put_le(idx, table + l.entry_bytes * e, 8, l.blocks[e].offset - old.size + comp.size());
  put_le(idx, table + l.entry_bytes * b + 8, 4, comp.size());
  put_le(idx, table + l.entry_bytes * b + 12, 4, raw.size());
  put_le(idx, table + l.entry_bytes * b + 16, 8, XXH64(comp.data(), comp.size(), 0));
  out += idx;
  std::string tr(24, '\0');
  put_le(tr, 0, 8, new_index);
  put_le(tr, 8, 8, idx.size());
  put_le(tr, 16, 8, XXH64(idx.data(), idx.size(), 0));
  return out + tr + f.substr(l.size - 8);
}

/// Sets the w-bit entry j of the plane starting at bit `start` of raw to v.
void set_bits(std::string& raw, std::size_t start, int w, std::size_t j, std::uint64_t v) {
  for (int i = 0; i < w; ++i) {
    const std::size_t bit = start + j * static_cast<std::size_t>(w) + static_cast<std::size_t>(i);
    const auto mask = static_cast<unsigned char>(1u << (bit % 8));
    auto& byte = reinterpret_cast<unsigned char&>(raw[bit / 8]);
    byte = static_cast<unsigned char>(((v >> i) & 1) ? (byte | mask) : (byte & ~mask));
  }
}

class CorruptTablebase : public ::testing::Test {
 protected:
  // Cram 2 x 3 with every value: levels 0, 2, 4, 6 of 1, 15, 15, 1
  // positions, one block each.
  void SetUp() override {
    good_ = dir_.file("good.cgtb");
    cgtb_test::build_cram(2, 3, "all", good_);
    bytes_ = cgtb_test::read_bytes(good_);
    good_answers_ = query(good_).out;
  }
  std::string write(const std::string& bytes) {
    const std::string path = dir_.file("bad-" + std::to_string(n_++) + ".cgtb");
    cgtb_test::write_bytes(path, bytes);
    return path;
  }
  std::string flipped(std::size_t at) {
    std::string b = bytes_;
    b[at] = static_cast<char>(b[at] ^ 0x01);
    return write(b);
  }
  // Queries that together read every block: the empty board (levels 6 and
  // 4) and a two-cell position (levels 2 and 0). A batch answers the
  // positions before the one that needs a corrupt block, so a refused file
  // may print the intact file's first answers, and nothing else.
  cgtb_test::cli_result query(const std::string& path) { return run_cgtb({"query", path, ".../...", "###/..#"}); }
  ::testing::AssertionResult refused(const std::string& path) {
    auto q = query(path);
    if (auto e = is_clean_error(q); !e) return e << " (query)";
    if (good_answers_.compare(0, q.out.size(), q.out) != 0 || q.out.size() == good_answers_.size())
      return ::testing::AssertionFailure() << "query answered past the corrupt block: " << describe(q);
    auto i = run_cgtb({"info", path});
    if (auto e = is_clean_error(i); !e) return e << " (info)";
    return ::testing::AssertionSuccess();
  }
  cgtb_test::temp_dir dir_;
  std::string good_, bytes_, good_answers_;
  int n_ = 0;
};

TEST_F(CorruptTablebase, IntactFileAnswersAndPassesInfo) {
  auto q = query(good_);
  EXPECT_EQ(q.code, 0) << describe(q);
  auto i = run_cgtb({"info", good_});
  EXPECT_EQ(i.code, 0) << describe(i);
  EXPECT_NE(i.out.find("checksums: OK"), std::string::npos) << i.out;
  const file_layout l(bytes_);
  EXPECT_EQ(l.levels, 4u);
  EXPECT_EQ(l.blocks.size(), 4u);
  EXPECT_EQ(l.index + l.index_len, l.trailer());
}

TEST_F(CorruptTablebase, TruncatedFileIsRefused) {
  const file_layout l(bytes_);
  const std::vector<std::size_t> cuts = {0,
                                         1,
                                         8,
                                         16,
                                         24,
                                         24 + l.header_len / 2,
                                         l.header_checksum() + 4,
                                         l.blocks[0].offset + l.blocks[0].size / 2,
                                         l.blocks.back().offset + l.blocks.back().size,
                                         l.block_table(),
                                         l.trailer(),
                                         l.size - 8,
                                         l.size - 1};
  for (std::size_t cut : cuts) EXPECT_TRUE(refused(write(bytes_.substr(0, cut)))) << "cut at " << cut;
}

TEST_F(CorruptTablebase, FlippedByteInEveryBlockIsRefused) {
  const file_layout l(bytes_);
  for (std::size_t b = 0; b < l.blocks.size(); ++b) {
    for (std::size_t at :
         {l.blocks[b].offset, l.blocks[b].offset + l.blocks[b].size / 2, l.blocks[b].offset + l.blocks[b].size - 1})
      EXPECT_TRUE(refused(flipped(at))) << "block " << b << " byte " << at;
  }
}

TEST_F(CorruptTablebase, InfoReportsTheCorruptBlock) {
  const file_layout l(bytes_);
  auto r = run_cgtb({"info", flipped(l.blocks[2].offset + l.blocks[2].size / 2)});
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.out.find("block 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("BAD"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("checksums: OK"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("corrupt block"), std::string::npos) << r.err;
}

TEST_F(CorruptTablebase, FlippedByteInThePreambleOrHeaderIsRefused) {
  const file_layout l(bytes_);
  // magic, version, reserved, header length, header text (start, middle,
  // end), header checksum.
  for (std::size_t at : {std::size_t{0}, std::size_t{7}, std::size_t{8}, std::size_t{11}, std::size_t{12},
                         std::size_t{16}, std::size_t{23}, l.header_text(), l.header_text() + l.header_len / 2,
                         l.header_checksum() - 1, l.header_checksum(), l.header_checksum() + 7})
    EXPECT_TRUE(refused(flipped(at))) << "byte " << at;
}

TEST_F(CorruptTablebase, FlippedByteInTheIndexIsRefused) {
  const file_layout l(bytes_);
  // level count, a level entry, the block count, a block entry's offset,
  // size and checksum, the last byte of the index.
  for (std::size_t at : {l.index, l.level_table(), l.level_table() + 8, l.level_table() + 32 + 16, l.block_table() - 8,
                         l.block_table(), l.block_table() + 8, l.block_table() + 16, l.trailer() - 1})
    EXPECT_TRUE(refused(flipped(at))) << "byte " << at;
}

TEST_F(CorruptTablebase, FlippedByteInTheTrailerIsRefused) {
  const file_layout l(bytes_);
  // index offset, index length, index checksum, end magic.
  for (std::size_t at : {l.trailer(), l.trailer() + 8, l.trailer() + 16, l.trailer() + 24, l.size - 1})
    EXPECT_TRUE(refused(flipped(at))) << "byte " << at;
}

TEST_F(CorruptTablebase, OtherFormatVersionIsRefusedByNumber) {
  for (std::uint32_t version : {0u, 3u, 0xffffffffu}) {
    std::string b = bytes_;
    for (int i = 0; i < 4; ++i) b[8 + static_cast<std::size_t>(i)] = static_cast<char>((version >> (8 * i)) & 0xff);
    const std::string path = write(b);
    EXPECT_TRUE(refused(path)) << "version " << version;
    auto r = run_cgtb({"info", path});
    EXPECT_NE(r.err.find("version " + std::to_string(version)), std::string::npos) << r.err;
  }
}

// A version 2 file relabelled as version 1 (24-byte block table entries).
TEST_F(CorruptTablebase, Version2FileRelabelledAsVersion1IsRefused) {
  std::string b = bytes_;
  put_le(b, 8, 4, 1);
  rechecksum_preamble(b);
  EXPECT_TRUE(refused(write(b)));
}

// An index scheme the reader does not know (another name or another version of
// a known one) gives a different rank order: never read as data.
TEST_F(CorruptTablebase, UnknownIndexSchemeIsRefusedInOneLine) {
  for (const char* line : {"index: foo/1    ", "index: keys/9   ", "index: ruleset/2"}) {
    const std::string path = write(with_header_text(bytes_, "index: ruleset/1", line));
    const std::string scheme = std::string(line).substr(7, std::string(line).find(' ', 7) - 7);
    try {
      cgtb::tablebase tb(path);
      ADD_FAILURE() << "opened a file with " << line;
    } catch (const cgtb::input_error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      for (const std::string& part : {path, "'" + scheme + "'", std::string("ruleset/1"), std::string("keys/1")})
        EXPECT_NE(what.find(part), std::string::npos) << part << " not in: " << what;
    }
    EXPECT_TRUE(refused(path)) << line;
    auto r = run_cgtb({"info", path});
    EXPECT_NE(r.err.find("index scheme '" + scheme + "'"), std::string::npos) << r.err;
  }
}

// Version 1 has no keys: a version 1 file whose header says keys/1 is refused.
TEST_F(CorruptTablebase, Version1FileClaimingKeysIsRefused) {
  const std::string v1 = cgtb_test::read_bytes(std::string(CGTB_TEST_DATA_DIR) + "/cram-2x3-v1.cgtb");
  ASSERT_EQ(le(v1, 8, 4), 1u);
  const std::string path = write(with_header_text(v1, "meaningful: all", "index: keys/1  "));
  EXPECT_TRUE(refused(path));
  EXPECT_THROW(cgtb::tablebase tb(path), cgtb::input_error);
}

// A file without keys whose block table carries a first key.
TEST_F(CorruptTablebase, FirstKeyInAFileWithoutKeysIsRefused) {
  std::string b = bytes_;
  const file_layout l(b);
  put_le(b, l.block_entry(1) + 24, 8, 1);
  rechecksum_index(b);
  EXPECT_TRUE(refused(write(b)));
}

TEST_F(CorruptTablebase, AppendedBytesAreRefused) {
  EXPECT_TRUE(refused(write(bytes_ + std::string(1, '\0'))));
  EXPECT_TRUE(refused(write(bytes_ + bytes_)));
}

// ------------------------------------------------- every byte, in the library

/// Opens the file and reads every value of every level; true when the reader
/// refuses it with input_error. Any other exception escapes and fails the test.
bool library_refuses(const std::string& path) {
  try {
    cgtb::tablebase tb(path, 0);
    for (const auto& l : tb.levels())
      for (std::uint64_t r = 0; r < l.positions; ++r)
        for (std::size_t f = 0; f < tb.header().fields.size(); ++f) tb.value(l.level, r, static_cast<int>(f));
    for (std::uint64_t b = 0; b < tb.blocks().size(); ++b) tb.read_block(b);
  } catch (const cgtb::input_error&) {
    return true;
  }
  return false;
}

TEST_F(CorruptTablebase, LibraryRefusesEverySingleBitFlip) {
  ASSERT_FALSE(library_refuses(good_));
  const std::string path = dir_.file("flip.cgtb");
  for (std::size_t at = 0; at < bytes_.size(); ++at) {
    for (int bit : {0, 7}) {
      std::string b = bytes_;
      b[at] = static_cast<char>(b[at] ^ (1 << bit));
      cgtb_test::write_bytes(path, b);
      ASSERT_TRUE(library_refuses(path)) << "bit " << bit << " of byte " << at << " of " << bytes_.size();
    }
  }
}

TEST(CorruptVersion1File, LibraryRefusesEverySingleBitFlip) {
  cgtb_test::temp_dir dir;
  const std::string bytes = cgtb_test::read_bytes(std::string(CGTB_TEST_DATA_DIR) + "/cram-3x3-b64-v1.cgtb");
  const std::string path = dir.file("flip.cgtb");
  cgtb_test::write_bytes(path, bytes);
  ASSERT_FALSE(library_refuses(path));
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    for (int bit : {0, 7}) {
      std::string b = bytes;
      b[at] = static_cast<char>(b[at] ^ (1 << bit));
      cgtb_test::write_bytes(path, b);
      ASSERT_TRUE(library_refuses(path)) << "bit " << bit << " of byte " << at << " of " << bytes.size();
    }
  }
}

TEST_F(CorruptTablebase, LibraryRefusesEveryTruncation) {
  const std::string path = dir_.file("cut.cgtb");
  for (std::size_t cut = 0; cut < bytes_.size(); ++cut) {
    cgtb_test::write_bytes(path, bytes_.substr(0, cut));
    ASSERT_TRUE(library_refuses(path)) << "cut at " << cut << " of " << bytes_.size();
  }
}

}  // namespace

// ------------------------------------------------------ keyed files (keys/1)

namespace {

class CorruptKeyedTablebase : public ::testing::Test {
 protected:
  // Level 3 of 40 keys in blocks of 16, 16 and 8 entries; keys at least 2
  // apart; fields grundy (unsigned) and score (signed).
  void SetUp() override {
    std::mt19937_64 rng(99);
    std::uint64_t k = 1000;
    for (int i = 0; i < 40; ++i) keys_.push_back(k += 2 + rng() % 5000);
    cgtb::tablebase_header h;
    h.ruleset = "test";
    h.params = "keyed";
    h.family = "impartial";
    h.values = "normal";
    h.fields = {{"grundy", false}, {"score", true}};
    h.index = cgtb::kIndexKeys;
    h.block_entries = 16;
    good_ = dir_.file("good.cgtb");
    {
      cgtb::tablebase_writer w(good_, h);
      w.add_level(
          3, keys_.size(),
          [&](std::uint64_t r, int f) {
            return f == 0 ? static_cast<std::int64_t>(keys_[r] % 5) : static_cast<std::int64_t>(r) - 20;
          },
          keys_.data());
      w.add_level(
          5, 2, [](std::uint64_t r, int) { return static_cast<std::int64_t>(r); }, keys_.data() + 7);
      w.finish();
    }
    bytes_ = cgtb_test::read_bytes(good_);
  }
  std::string write(const std::string& bytes) {
    const std::string path = dir_.file("bad-" + std::to_string(n_++) + ".cgtb");
    cgtb_test::write_bytes(path, bytes);
    return path;
  }
  /// Bit offset of the key plane in a raw block of `count` entries.
  static std::size_t key_plane(const std::string& raw, std::size_t count) {
    return 8 * (3 + (count * static_cast<unsigned char>(raw[0]) + 7) / 8 +
                (count * static_cast<unsigned char>(raw[1]) + 7) / 8);
  }
  /// The file with entry j of block b's key-delta plane set to `delta`.
  std::string with_key_delta(std::size_t b, std::size_t count, std::size_t j, std::uint64_t delta) {
    std::string raw = raw_block(bytes_, b);
    set_bits(raw, key_plane(raw, count), static_cast<unsigned char>(raw[2]), j, delta);
    return with_raw_block(bytes_, b, raw);
  }
  /// The message of the input_error that reading block b throws.
  static std::string block_error(const std::string& path, std::uint64_t b) {
    cgtb::tablebase tb(path);
    EXPECT_EQ(tb.check_block(b == 0 ? 2 : 0), "");
    return tb.check_block(b);
  }
  cgtb_test::temp_dir dir_;
  std::vector<std::uint64_t> keys_;
  std::string good_, bytes_;
  int n_ = 0;
};

TEST_F(CorruptKeyedTablebase, IntactFileReads) {
  cgtb::tablebase tb(good_);
  ASSERT_TRUE(tb.keyed());
  ASSERT_EQ(tb.blocks().size(), 4u);
  for (std::uint64_t r = 0; r < keys_.size(); ++r) EXPECT_EQ(tb.rank_of_key(3, keys_[r]), static_cast<std::int64_t>(r));
  EXPECT_EQ(tb.rank_of_key(5, keys_[8]), 1);
  for (std::uint64_t b = 0; b < tb.blocks().size(); ++b) EXPECT_EQ(tb.check_block(b), "");
  // The helpers rebuild an unchanged block into a file that reads the same.
  const std::string same = write(with_raw_block(bytes_, 1, raw_block(bytes_, 1)));
  cgtb::tablebase tb2(same);
  for (std::uint64_t r = 0; r < keys_.size(); ++r) EXPECT_EQ(tb2.key_of(3, r), keys_[r]);
}

// A key delta of 0 (keys not increasing) in a block whose checksum holds.
TEST_F(CorruptKeyedTablebase, ZeroKeyDeltaIsReported) {
  const std::string path = write(with_key_delta(1, 16, 5, 0));
  const std::string what = block_error(path, 1);
  for (const std::string& part : {path, std::string("block 1"), std::string("delta 0 at entry 5")})
    EXPECT_NE(what.find(part), std::string::npos) << part << " not in: " << what;
  EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  cgtb::tablebase tb(path);
  EXPECT_THROW(tb.rank_of_key(3, keys_[20]), cgtb::input_error);
  EXPECT_THROW(tb.value(3, 17, 0), cgtb::input_error);
  EXPECT_THROW(tb.read_block(1), cgtb::input_error);
  EXPECT_EQ(tb.rank_of_key(3, keys_[3]), 3);  // block 0 is intact
  EXPECT_EQ(tb.key_of(3, 33), keys_[33]);     // and so is block 2
  auto r = run_cgtb({"info", path});
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.out.find("block 1"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("corrupt block"), std::string::npos) << r.err;
}

// Entry 0 stores delta 0: the block's first key is in the block table.
TEST_F(CorruptKeyedTablebase, NonZeroFirstDeltaIsReported) {
  const std::string path = write(with_key_delta(2, 8, 0, 1));
  const std::string what = block_error(path, 2);
  EXPECT_NE(what.find("block 2"), std::string::npos) << what;
  EXPECT_NE(what.find("first key delta"), std::string::npos) << what;
}

// Block 1's last key reaches block 2's first key (lowered in the index).
TEST_F(CorruptKeyedTablebase, LastKeyReachingTheNextBlockIsReported) {
  std::string b = bytes_;
  const file_layout l(b);
  ASSERT_EQ(l.blocks[2].first_key, keys_[32]);
  put_le(b, l.block_entry(2) + 24, 8, keys_[31]);
  rechecksum_index(b);
  const std::string path = write(b);
  const std::string what = block_error(path, 1);
  EXPECT_NE(what.find("block 1"), std::string::npos) << what;
  EXPECT_NE(what.find("next block's first key"), std::string::npos) << what;
}

// First keys out of order in the block table: refused on opening.
TEST_F(CorruptKeyedTablebase, DecreasingFirstKeysAreRefused) {
  std::string b = bytes_;
  const file_layout l(b);
  put_le(b, l.block_entry(1) + 24, 8, l.blocks[0].first_key);
  rechecksum_index(b);
  const std::string path = write(b);
  EXPECT_THROW(cgtb::tablebase tb(path), cgtb::input_error);
  EXPECT_TRUE(is_clean_error(run_cgtb({"info", path})));
}

TEST_F(CorruptKeyedTablebase, LibraryRefusesEverySingleBitFlip) {
  ASSERT_FALSE(library_refuses(good_));
  const std::string path = dir_.file("flip.cgtb");
  for (std::size_t at = 0; at < bytes_.size(); ++at) {
    for (int bit : {0, 7}) {
      std::string b = bytes_;
      b[at] = static_cast<char>(b[at] ^ (1 << bit));
      cgtb_test::write_bytes(path, b);
      ASSERT_TRUE(library_refuses(path)) << "bit " << bit << " of byte " << at << " of " << bytes_.size();
    }
  }
}

}  // namespace
