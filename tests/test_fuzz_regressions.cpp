// Regression tests for the defects the libFuzzer targets in tests/fuzz found
// (docs/reliability.md, "Fuzzing"): each input that crashed, tripped a
// sanitizer or broke a promised round trip, reduced to a test that fails
// without its fix.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>
#include <xxhash.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/games/rit.hpp"
#include "cgtb/tablebase.hpp"

// AddressSanitizer reserves far more address space than a limit allows.
#if defined(__SANITIZE_ADDRESS__)
#define CGTB_FUZZ_REGRESS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CGTB_FUZZ_REGRESS_ASAN 1
#endif
#endif

namespace {

namespace fs = std::filesystem;

/// The folder of the running FuzzRegression test. The child process of a
/// death test runs the test again in a folder of its own and ends in
/// _Exit(), without the fixture's TearDown: it removes the folder first
/// (end_child).
fs::path& current_regression_dir() {
  static fs::path dir;
  return dir;
}

/// A file name in a fresh folder under the system's temporary folder, removed
/// with the fixture.
class FuzzRegression : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cgtb-fuzz-regress-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    current_regression_dir() = dir_;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

/// Header of a reachable Cram table with every impartial value.
cgtb::tablebase_header reachable_cram_header(const std::string& board) {
  cgtb::tablebase_header h;
  h.ruleset = "cram";
  h.params = board;
  h.family = "impartial";
  h.values = "normal,misere,genus";
  h.fields = {{"grundy", false}, {"misere", false}};
  for (int k = 1; k <= 7; ++k) h.fields.push_back({"genus" + std::to_string(k), false});
  h.index = cgtb::kIndexKeys;
  h.positions = "reachable";
  h.symmetry = "rectangle-4";
  return h;
}

/// Writes a keyed file of one level holding the given keys (all values 0).
void write_keyed_level(const std::string& file, const cgtb::tablebase_header& h, int level,
                       const std::vector<std::uint64_t>& keys) {
  cgtb::tablebase_writer w(file, h);
  w.add_level(
      level, keys.size(), [](std::uint64_t, int) { return std::int64_t{0}; }, keys.data());
  w.finish();
}

// A keyed file whose level lies beyond the board's cells (checksums valid):
// counting the level's positions unranked its keys with a level past the
// binomial table (an out-of-bounds read, a SEGV under ASan).
TEST_F(FuzzRegression, KeyedLevelBeyondTheBoardIsAnInputError) {
  const std::string file = path("level40.cgtb");
  write_keyed_level(file, reachable_cram_header("2x3"), 40, {0});
  cgtb::tablebase tb(file);
  auto d = cgtb::driver_for_header(tb.header());
  EXPECT_THROW(d->level_positions(tb, 40), cgtb::input_error);
}

// A keyed file whose key is no subset of its level's size (2-subsets of 6
// cells: 15): unranking it walked past the board.
TEST_F(FuzzRegression, KeyPastTheLevelSizeIsAnInputError) {
  const std::string file = path("key1000.cgtb");
  write_keyed_level(file, reachable_cram_header("2x3"), 2, {3, 1000});
  cgtb::tablebase tb(file);
  auto d = cgtb::driver_for_header(tb.header());
  EXPECT_THROW(d->level_positions(tb, 2), cgtb::input_error);
  EXPECT_THROW(d->format(2, 1000), cgtb::input_error);
}

// A RIT 3x3 file (every value, checksums valid) whose level 3 holds fewer
// positions than the game's level 3: the census marked parents by the
// game's ranks in a vector sized by the file's level (a heap overflow).
TEST_F(FuzzRegression, CensusOfALevelSmallerThanTheGamesIsAnInputError) {
  const std::string file = path("rit33.cgtb");
  const cgtb::rit game = cgtb::rit::from_box_text("3x3");
  cgtb::tablebase_header h = reachable_cram_header("3x3");
  h.ruleset = "rit";
  h.index = cgtb::kIndexRuleset;
  h.positions = "all";
  h.symmetry = "none";
  {
    cgtb::tablebase_writer w(file, h);
    for (int level : game.levels()) {
      const std::uint64_t n = level == 3 ? 1 : game.host_view().level_size(level);
      w.add_level(level, n, [](std::uint64_t, int) { return std::int64_t{0}; });
    }
    w.finish();
  }
  cgtb::tablebase tb(file);
  auto d = cgtb::driver_for_header(tb.header());
  EXPECT_THROW(d->census(tb), cgtb::input_error);
}

// A RIT 3x3 file whose fields stop at genus1 (grundy, misere, genus1): the
// census and the query read the genus fields up to genus7 by position, past
// the block's fields (a heap overflow).
TEST_F(FuzzRegression, CensusWithoutEveryGenusFieldIsAnInputError) {
  const std::string file = path("rit33-genus1.cgtb");
  const cgtb::rit game = cgtb::rit::from_box_text("3x3");
  cgtb::tablebase_header h = reachable_cram_header("3x3");
  h.ruleset = "rit";
  h.index = cgtb::kIndexRuleset;
  h.positions = "all";
  h.symmetry = "none";
  h.fields.resize(3);
  {
    cgtb::tablebase_writer w(file, h);
    for (int level : game.levels())
      w.add_level(level, game.host_view().level_size(level), [](std::uint64_t, int) { return std::int64_t{0}; });
    w.finish();
  }
  cgtb::tablebase tb(file);
  auto d = cgtb::driver_for_header(tb.header());
  EXPECT_THROW(d->census(tb), cgtb::input_error);
}

// A multiset of heaps whose total passes INT_MAX: the sum overflowed (UB),
// wrapped below the table's largest total and the heap list was accepted.
TEST(FuzzRegressionPositions, ScoringHeapTotalPastIntMaxIsAnInputError) {
  cgtb::tablebase_header h;
  h.ruleset = "scoring-octal";
  h.params = "0033:1,2,3,4 max=8 positions=multisets";
  auto d = cgtb::driver_for_header(h);
  EXPECT_THROW(d->parse("999999999 999999999 999999999"), cgtb::input_error);
  EXPECT_THROW(d->parse("104,410900404,4,090,410900404,4,090039,410900404,410900404,410900404,410900404"),
               cgtb::input_error);
}

std::uint64_t get64(const std::string& s, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<std::size_t>(i)]);
  return v;
}
void put(std::string& s, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) s[at + static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i));
}

/// Opens `file` and reads block 0 with the address space limited to 1 GiB
/// (where no sanitizer needs more): exits 0 on input_error, 1 when the read
/// succeeds, 2 on any other exception.
/// Ends a death test's child process with `code`, its test's folder removed.
[[noreturn]] void end_child(int code) {
  std::error_code ec;
  fs::remove_all(current_regression_dir(), ec);
  std::_Exit(code);
}

void read_block_zero_in_1gib(const std::string& file) {
#if !defined(CGTB_FUZZ_REGRESS_ASAN)
  const rlimit lim{rlim_t{1} << 30, rlim_t{1} << 30};
  setrlimit(RLIMIT_AS, &lim);
#endif
  try {
    cgtb::tablebase tb(file);
    tb.read_block(0);
    end_child(1);
  } catch (const cgtb::input_error&) {
    end_child(0);
  } catch (...) {
    end_child(2);
  }
}

/// A change of `bytes` bytes at offset `at` of block 0's block table entry.
struct entry_patch {
  std::size_t at;
  std::uint64_t value;
  int bytes;
};

/// A one-level file (ruleset "test", one field, 10 entries) whose block 0
/// table entry is patched, with the index checksum recomputed.
void write_tampered_block0(const std::string& file, const std::vector<entry_patch>& patches) {
  cgtb::tablebase_header h;
  h.ruleset = "test";
  h.fields = {{"v", false}};
  {
    cgtb::tablebase_writer w(file, h);
    w.add_level(0, 10, [](std::uint64_t i, int) { return static_cast<std::int64_t>(i); });
    w.finish();
  }
  std::string s;
  {
    std::ifstream in(file, std::ios::binary);
    s.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::size_t trailer = s.size() - 32;
  const std::size_t index = static_cast<std::size_t>(get64(s, trailer));
  const std::size_t levels = static_cast<std::size_t>(get64(s, index) & 0xffffffffu);
  for (const entry_patch& p : patches) put(s, index + 8 + 32 * levels + 8 + p.at, p.value, p.bytes);
  put(s, trailer + 16, XXH64(s.data() + index, trailer - index, 0), 8);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(s.data(), static_cast<std::streamsize>(s.size()));
}

// A block whose raw size in the block table (checksums valid) is near 4 GiB:
// the reader allocated and zeroed it before decompressing, 4 GiB for a file
// of a few hundred bytes.
TEST_F(FuzzRegression, HugeRawBlockSizeIsRefusedBeforeAllocating) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";  // earlier tests leave OpenMP threads
  const std::string file = path("raw4g.cgtb");
  write_tampered_block0(file, {{12, 0xffffff00u, 4}});  // raw size
  EXPECT_EXIT(read_block_zero_in_1gib(file), ::testing::ExitedWithCode(0), "");
}

// A block whose offset is so large that offset + compressed size wraps
// around below the index: the open check passed, and reading the block
// allocated its (near 4 GiB) compressed size.
TEST_F(FuzzRegression, BlockOffsetThatWrapsAroundIsACorruptBlockTable) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";  // earlier tests leave OpenMP threads
  const std::string file = path("wrap.cgtb");
  // Compressed size 2^32 - 16 at offset 2^64 - (2^32 - 16) + 100: the sum wraps to 100.
  write_tampered_block0(file, {{8, 0xfffffff0u, 4}, {0, ~std::uint64_t{0} - 0xfffffff0u + 101, 8}});
  EXPECT_THROW(cgtb::tablebase{file}, cgtb::input_error);
  EXPECT_EXIT(read_block_zero_in_1gib(file), ::testing::ExitedWithCode(0), "");
}

}  // namespace

// fuzz_reader: a damaged file whose position text held a byte that is not
// UTF-8 made `query --json` throw from the JSON dump (nlohmann type_error 316)
// instead of answering; json_text replaces such bytes with U+FFFD. The input
// is kept in tests/fuzz/corpus/reader/regression-invalid-utf8-position.
TEST(FuzzRegressionJson, InvalidUtf8InATextIsReplacedNotThrown) {
  nlohmann::ordered_json j;
  j["position"] = std::string(
      "5\x86"
      "3");
  std::string text;
  EXPECT_NO_THROW(text = cgtb::json_text(j));
  EXPECT_NE(text.find("\xEF\xBF\xBD"), std::string::npos) << text;
}
