// Damaged tablebase files (docs/format.md, "Checks a reader makes"): a file
// that is truncated, has a flipped byte anywhere, or carries another format
// version is refused. Through the tool: one line on stderr starting
// "cgtb: error:", a non-zero exit, and no answer on stdout. Through the
// library: cgtb::input_error, for every single-bit flip and every truncation
// of a small file.
#include <gtest/gtest.h>

#include <cstring>
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

/// Where the parts of a version-1 file lie, read from its own bytes.
struct file_layout {
  std::size_t size = 0, header_len = 0, index = 0, index_len = 0, levels = 0;
  struct block {
    std::size_t offset, size;
  };
  std::vector<block> blocks;

  explicit file_layout(const std::string& f) {
    size = f.size();
    header_len = le(f, 16, 8);
    index = le(f, size - 32, 8);
    index_len = le(f, size - 24, 8);
    levels = le(f, index, 4);
    const std::size_t nb_at = index + 8 + 32 * levels;
    const std::size_t nb = le(f, nb_at, 8);
    for (std::size_t b = 0; b < nb; ++b)
      blocks.push_back({le(f, nb_at + 8 + 24 * b, 8), le(f, nb_at + 8 + 24 * b + 8, 4)});
  }
  std::size_t header_text() const { return 24; }
  std::size_t header_checksum() const { return 24 + header_len; }
  std::size_t level_table() const { return index + 8; }
  std::size_t block_table() const { return index + 8 + 32 * levels + 8; }
  std::size_t trailer() const { return size - 32; }
};

class CorruptTablebase : public ::testing::Test {
 protected:
  // Cram 2 x 3 with every value: levels 0, 2, 4, 6 of 1, 15, 15, 1
  // positions, one block each.
  void SetUp() override {
    good_ = dir_.file("good.cgtb");
    cgtb_test::build_cram(2, 3, "all", good_);
    bytes_ = cgtb_test::read_bytes(good_);
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
  // 4) and a two-cell position (levels 2 and 0).
  cgtb_test::cli_result query(const std::string& path) { return run_cgtb({"query", path, ".../...", "###/..#"}); }
  ::testing::AssertionResult refused(const std::string& path) {
    auto q = query(path);
    if (auto e = is_clean_error(q); !e) return e << " (query)";
    if (!q.out.empty()) return ::testing::AssertionFailure() << "query answered: " << describe(q);
    auto i = run_cgtb({"info", path});
    if (auto e = is_clean_error(i); !e) return e << " (info)";
    return ::testing::AssertionSuccess();
  }
  cgtb_test::temp_dir dir_;
  std::string good_, bytes_;
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
  for (std::uint32_t version : {0u, 2u, 0xffffffffu}) {
    std::string b = bytes_;
    for (int i = 0; i < 4; ++i) b[8 + static_cast<std::size_t>(i)] = static_cast<char>((version >> (8 * i)) & 0xff);
    const std::string path = write(b);
    EXPECT_TRUE(refused(path)) << "version " << version;
    auto r = run_cgtb({"info", path});
    EXPECT_NE(r.err.find("version " + std::to_string(version)), std::string::npos) << r.err;
  }
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

TEST_F(CorruptTablebase, LibraryRefusesEveryTruncation) {
  const std::string path = dir_.file("cut.cgtb");
  for (std::size_t cut = 0; cut < bytes_.size(); ++cut) {
    cgtb_test::write_bytes(path, bytes_.substr(0, cut));
    ASSERT_TRUE(library_refuses(path)) << "cut at " << cut << " of " << bytes_.size();
  }
}

}  // namespace
