// How tablebase files come into being: written under a temporary name and
// renamed only when complete (docs/format.md), and identical bytes for
// identical builds whatever the number of threads. Keyed files (index keys/1)
// round trip, and version 1 files are still read.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"
#include "test_support.hpp"

namespace {

using cgtb_test::describe;
namespace fs = std::filesystem;
using cgtb_test::run_cgtb;

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> v;
  for (const auto& e : fs::directory_iterator(dir)) v.push_back(e.path().filename().string());
  std::sort(v.begin(), v.end());
  return v;
}

cgtb::tablebase_header small_header() {
  cgtb::tablebase_header h;
  h.ruleset = "cram";
  h.params = "1x2";
  h.family = "impartial";
  h.values = "normal";
  h.fields = {{"grundy", false}};
  return h;
}

// The writer keeps FILE absent until finish(): the data goes to
// FILE.partial-HASH, named by the header's hash, which finish() renames.
TEST(AtomicWrite, FileAppearsOnlyWhenTheWriterFinishes) {
  cgtb_test::temp_dir dir;
  const std::string path = dir.file("t.cgtb");
  const std::string partial = cgtb::build_file_name(path, small_header());
  ASSERT_EQ(partial.rfind(path + ".partial-", 0), 0u) << partial;
  ASSERT_EQ(partial.size(), path.size() + 9 + 16) << partial;
  {
    cgtb::tablebase_writer w(path, small_header());
    w.add_level(0, 1, [](std::uint64_t, int) { return std::int64_t{0}; });
    EXPECT_FALSE(fs::exists(path));
    EXPECT_TRUE(fs::exists(partial));
    w.add_level(2, 1, [](std::uint64_t, int) { return std::int64_t{1}; });
    EXPECT_FALSE(fs::exists(path));
    w.finish();
    EXPECT_TRUE(fs::exists(path));
    EXPECT_FALSE(fs::exists(partial));
  }
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"t.cgtb"});
  cgtb::tablebase tb(path);
  EXPECT_EQ(tb.value(2, 0, 0), 1);
}

TEST(AtomicWrite, AbandonedWriterLeavesNothing) {
  cgtb_test::temp_dir dir;
  const std::string path = dir.file("t.cgtb");
  {
    cgtb::tablebase_writer w(path, small_header());
    w.add_level(0, 1, [](std::uint64_t, int) { return std::int64_t{0}; });
  }
  EXPECT_TRUE(names_in(dir.path()).empty());
}

// While a writer is open it holds its partial file's lock: a second writer of
// the same file and header (the same build) is refused with an input_error
// and changes nothing, while a writer of another header (another build, with
// its own partial name) goes on; once the first is done, the build may run
// again.
TEST(AtomicWrite, ASecondWriterOfTheSameBuildIsRefusedWhileTheFirstRuns) {
  cgtb_test::temp_dir dir;
  const std::string path = dir.file("t.cgtb");
  cgtb::tablebase_header other = small_header();
  other.params = "other";
  ASSERT_NE(cgtb::build_file_name(path, other), cgtb::build_file_name(path, small_header()));
  {
    cgtb::tablebase_writer w(path, small_header());
    w.add_level(0, 1, [](std::uint64_t, int) { return std::int64_t{0}; });
    const std::string partial = cgtb::build_file_name(path, small_header());
    const std::string before = cgtb_test::read_bytes(partial);
    try {
      cgtb::tablebase_writer second(path, small_header());
      ADD_FAILURE() << "a second writer of the same build was not refused";
    } catch (const cgtb::input_error& e) {
      EXPECT_NE(std::string(e.what()).find("still running"), std::string::npos) << e.what();
    }
    EXPECT_EQ(cgtb_test::read_bytes(partial), before);
    cgtb::tablebase_writer beside(path, other);
    beside.add_level(0, 1, [](std::uint64_t, int) { return std::int64_t{1}; });
    beside.finish();
    w.finish();
  }
  cgtb::tablebase_writer again(path, small_header());
  again.add_level(0, 1, [](std::uint64_t, int) { return std::int64_t{0}; });
  again.finish();
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"t.cgtb"});
}

// An abandoned rebuild leaves the previous complete file as it was.
TEST(AtomicWrite, AbandonedRebuildKeepsThePreviousFile) {
  cgtb_test::temp_dir dir;
  const std::string path = dir.file("t.cgtb");
  cgtb_test::build_cram(2, 3, "normal", path);
  const std::string before = cgtb_test::read_bytes(path);
  {
    cgtb::tablebase_writer w(path, small_header());
    w.add_level(0, 1, [](std::uint64_t, int) { return std::int64_t{0}; });
  }
  EXPECT_EQ(cgtb_test::read_bytes(path), before);
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"t.cgtb"});
}

TEST(AtomicWrite, SuccessfulBuildLeavesOnlyTheFile) {
  cgtb_test::temp_dir dir;
  auto r = run_cgtb({"build", "cram", "--board", "3x4", "-o", dir.file("cram.cgtb")});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"cram.cgtb"});
  EXPECT_EQ(run_cgtb({"info", dir.file("cram.cgtb")}).code, 0);
}

TEST(AtomicWrite, MissingOutputFolderIsACleanErrorAndWritesNothing) {
  cgtb_test::temp_dir dir;
  const fs::path missing = dir.path() / "no-such-folder";
  auto r = run_cgtb({"build", "cram", "--board", "2x3", "-q", "-o", (missing / "cram.cgtb").string()});
  EXPECT_TRUE(cgtb_test::is_clean_error(r));
  EXPECT_NE(r.err.find("no-such-folder"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(missing));
  EXPECT_TRUE(names_in(dir.path()).empty());
}

TEST(AtomicWrite, MissingOutputFolderThroughTheLibraryIsAnInputError) {
  cgtb_test::temp_dir dir;
  EXPECT_THROW(cgtb::tablebase_writer(dir.file("no-such-folder/t.cgtb"), small_header()), cgtb::input_error);
  EXPECT_TRUE(names_in(dir.path()).empty());
}

// Small blocks (64 entries): 4 x 4 then has 520 blocks, more than one
// compression batch, compressed by different threads in different orders.
TEST(Determinism, BuildsWithOneAndTwoThreadsAreByteIdentical) {
  // Every region of 4x4 (subset index), and the reachable classes of 5x5
  // (keyed index: hash tables filled by racing threads, keys sorted).
  for (const auto& [board, positions] :
       std::vector<std::pair<std::string, std::string>>{{"4x4", "all"}, {"5x5", "reachable"}}) {
    cgtb_test::temp_dir dir;
    std::vector<std::string> files;
    for (const char* threads : {"1", "2", "2"}) {
      files.push_back(dir.file(std::string("t") + threads + "-" + std::to_string(files.size()) + ".cgtb"));
      auto r = run_cgtb({"build", "cram", "--board", board, "--positions", positions, "--threads", threads,
                         "--block-entries", "64", "-q", "-o", files.back()});
      ASSERT_EQ(r.code, 0) << describe(r);
    }
    const std::string first = cgtb_test::read_bytes(files[0]);
    EXPECT_GT(first.size(), 1000u);
    for (std::size_t i = 1; i < files.size(); ++i)
      EXPECT_TRUE(cgtb_test::read_bytes(files[i]) == first) << files[i] << " differs from " << files[0];
    cgtb::tablebase tb(files[0]);
    EXPECT_GT(tb.blocks().size(), 256u);
  }
}

// The library path (no tool) gives the same bytes as the tool.
TEST(Determinism, LibraryBuildEqualsToolBuild) {
  cgtb_test::temp_dir dir;
  const std::string a = dir.file("a.cgtb"), b = dir.file("b.cgtb");
  cgtb_test::build_cram(3, 4, "all", a);
  auto r = run_cgtb({"build", "cram", "--board", "3x4", "--positions", "all", "--values", "all", "-q", "-o", b});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_TRUE(cgtb_test::read_bytes(a) == cgtb_test::read_bytes(b));
}

}  // namespace

namespace {

// Regression: `-o /dev/null` once renamed the finished file onto the device.
TEST(AtomicWrite, OutputThatIsNotARegularFileIsRefusedAndLeftAlone) {
  cgtb::tablebase_header h;
  h.ruleset = "cram";
  h.params = "1x2";
  h.family = "impartial";
  h.fields = {{"grundy", false}};
  for (const char* target : {"/dev/null", "/tmp"}) {
    try {
      cgtb::tablebase_writer w(target, h);
      FAIL() << "writer accepted " << target;
    } catch (const cgtb::input_error& e) {
      EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
  }
  struct stat st;
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

}  // namespace

// ------------------------------------------------------- keyed files (keys/1)

namespace {

cgtb::tablebase_header keyed_header(std::uint32_t block_entries) {
  cgtb::tablebase_header h;
  h.ruleset = "test";
  h.params = "keyed";
  h.family = "impartial";
  h.values = "normal";
  h.fields = {{"grundy", false}, {"score", true}};
  h.index = cgtb::kIndexKeys;
  h.symmetry = "rectangle-4";
  h.positions = "reachable";
  h.block_entries = block_entries;
  return h;
}

/// n distinct random keys below `below` (0 = the whole 64-bit range), sorted.
std::vector<std::uint64_t> random_keys(std::mt19937_64& rng, std::size_t n, std::uint64_t below) {
  std::set<std::uint64_t> s;
  while (s.size() < n) s.insert(below ? rng() % below : rng());
  return {s.begin(), s.end()};
}

std::int64_t grundy_of(int level, std::uint64_t key) { return static_cast<std::int64_t>((key * 7 + level) % 13); }
std::int64_t score_of(int level, std::uint64_t key) { return static_cast<std::int64_t>(key % 2001) - 1000 + level; }

/// Levels of the keyed test file: level -> its sorted keys. Sizes around the
/// block size (16), an empty level, keys at both ends of the 64-bit range
/// (key deltas 64 bits wide) and dense runs (deltas 1 bit wide).
std::map<int, std::vector<std::uint64_t>> keyed_levels() {
  std::mt19937_64 rng(12345);
  std::map<int, std::vector<std::uint64_t>> lv;
  lv[0] = {42};
  lv[1] = {};
  lv[2] = random_keys(rng, 16, 1000);
  lv[3] = random_keys(rng, 17, 100000);
  lv[5] = random_keys(rng, 300, 0);
  lv[5].front() = 0;
  lv[5].back() = std::numeric_limits<std::uint64_t>::max();
  lv[6] = {0, std::numeric_limits<std::uint64_t>::max()};
  for (std::uint64_t k = 1000; k < 1100; ++k) lv[8].push_back(k);
  lv[9] = random_keys(rng, 1000, 1u << 20);
  return lv;
}

void write_keyed(const std::string& path, const std::map<int, std::vector<std::uint64_t>>& levels,
                 std::uint32_t block_entries = 16) {
  cgtb::tablebase_writer w(path, keyed_header(block_entries));
  for (const auto& [level, keys] : levels) {
    const int lvl = level;
    const std::vector<std::uint64_t>& ks = keys;
    w.add_level(
        lvl, ks.size(), [&](std::uint64_t r, int f) { return f == 0 ? grundy_of(lvl, ks[r]) : score_of(lvl, ks[r]); },
        ks.data());
  }
  w.finish();
}

TEST(KeyedFile, RoundTripsKeysRanksAndValues) {
  cgtb_test::temp_dir dir;
  const std::string path = dir.file("keyed.cgtb");
  const auto levels = keyed_levels();
  write_keyed(path, levels);
  // A large cache and none at all (every block decoded again).
  for (std::size_t cache : {std::size_t{1} << 30, std::size_t{0}}) {
    cgtb::tablebase tb(path, cache);
    EXPECT_EQ(tb.format_version(), 2u);
    EXPECT_TRUE(tb.keyed());
    EXPECT_EQ(tb.header().index, "keys/1");
    EXPECT_EQ(tb.header().symmetry, "rectangle-4");
    EXPECT_EQ(tb.header().positions, "reachable");
    ASSERT_EQ(tb.levels().size(), levels.size());
    for (const auto& [level, keys] : levels) {
      const std::set<std::uint64_t> present(keys.begin(), keys.end());
      ASSERT_NE(tb.find_level(level), nullptr) << level;
      EXPECT_EQ(tb.find_level(level)->positions, keys.size());
      std::int64_t e[2];
      for (std::uint64_t r = 0; r < keys.size(); ++r) {
        ASSERT_EQ(tb.rank_of_key(level, keys[r]), static_cast<std::int64_t>(r)) << "level " << level;
        ASSERT_EQ(tb.key_of(level, r), keys[r]);
        ASSERT_EQ(tb.value(level, r, 0), grundy_of(level, keys[r]));
        ASSERT_EQ(tb.value(level, r, 1), score_of(level, keys[r]));
        tb.entry(level, r, e);
        ASSERT_EQ(e[1], score_of(level, keys[r]));
        for (std::uint64_t k : {keys[r] - 1, keys[r] + 1})
          if (!present.count(k)) {
            ASSERT_EQ(tb.rank_of_key(level, k), -1) << "level " << level << " key " << k;
          }
      }
      for (std::uint64_t k : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{999}, std::uint64_t{1} << 40,
                              std::numeric_limits<std::uint64_t>::max()})
        if (!present.count(k)) {
          EXPECT_EQ(tb.rank_of_key(level, k), -1) << "level " << level << " key " << k;
        }
      EXPECT_THROW(tb.key_of(level, keys.size()), cgtb::input_error);
    }
    EXPECT_THROW(tb.rank_of_key(4, 0), cgtb::input_error);
    EXPECT_THROW(tb.rank_of_key(1000, 0), cgtb::input_error);
    // Decoded blocks carry their absolute keys and pass their checks.
    for (std::uint64_t b = 0; b < tb.blocks().size(); ++b) {
      EXPECT_EQ(tb.check_block(b), "");
      const cgtb::decoded_block d = tb.read_block(b);
      ASSERT_EQ(d.keys.size(), d.count);
      EXPECT_EQ(d.keys.front(), tb.blocks()[b].first_key);
    }
  }
  const cgtb::tablebase tb(path);
  EXPECT_EQ(tb.blocks().size(), 1u + 0 + 1 + 2 + 19 + 1 + 7 + 63);
}

TEST(KeyedFile, RunsCompressedApartAndAppendedWriteTheBytesOfOneWriter) {
  // As the ranks of a distributed build write a level: runs cut at block
  // boundaries, each compressed on its own, appended in order.
  cgtb_test::temp_dir dir;
  const auto levels = keyed_levels();
  write_keyed(dir.file("whole.cgtb"), levels);
  const cgtb::tablebase_header h = keyed_header(16);
  {
    cgtb::tablebase_writer w(dir.file("runs.cgtb"), h);
    for (const auto& [level, keys] : levels) {
      const int lvl = level;
      const std::vector<std::uint64_t>& ks = keys;
      w.begin_level(lvl, ks.size());
      // Runs of 0, 1, 3 and the rest of the blocks.
      std::uint64_t first = 0;
      for (std::uint64_t blocks : {0, 1, 3, 1000}) {
        const std::uint64_t n = std::min<std::uint64_t>(blocks * 16, ks.size() - first);
        w.append_blocks(cgtb::tablebase_writer::compress_blocks(
            h, n,
            [&](std::uint64_t f, std::uint64_t c, std::int64_t* v) {
              for (std::uint64_t j = 0; j < c; ++j) {
                v[j] = grundy_of(lvl, ks[first + f + j]);
                v[c + j] = score_of(lvl, ks[first + f + j]);
              }
            },
            [&](std::uint64_t f, std::uint64_t c, std::uint64_t* out) {
              std::copy(ks.begin() + static_cast<std::ptrdiff_t>(first + f),
                        ks.begin() + static_cast<std::ptrdiff_t>(first + f + c), out);
            }));
        first += n;
      }
      w.end_level();
    }
    w.finish();
  }
  EXPECT_TRUE(cgtb_test::read_bytes(dir.file("whole.cgtb")) == cgtb_test::read_bytes(dir.file("runs.cgtb")));
  // Runs out of key order, too many blocks or too few are refused.
  cgtb::tablebase_writer w(dir.file("bad.cgtb"), h);
  const auto run_of = [&](std::uint64_t from, std::uint64_t n) {
    return cgtb::tablebase_writer::compress_blocks(
        h, n, [](std::uint64_t, std::uint64_t c, std::int64_t* v) { std::fill(v, v + 2 * c, 0); },
        [from](std::uint64_t f, std::uint64_t c, std::uint64_t* out) {
          for (std::uint64_t j = 0; j < c; ++j) out[j] = from + f + j;
        });
  };
  w.begin_level(0, 32);
  w.append_blocks(run_of(100, 16));
  EXPECT_THROW(w.append_blocks(run_of(50, 16)), std::logic_error);
  EXPECT_THROW(w.append_blocks(run_of(200, 32)), std::logic_error);
  EXPECT_THROW(w.end_level(), std::logic_error);
  w.append_blocks(run_of(200, 16));
  w.end_level();
}

TEST(KeyedFile, ToolShowsTheNewHeaderLines) {
  cgtb_test::temp_dir dir;
  const std::string path = dir.file("keyed.cgtb");
  write_keyed(path, keyed_levels());
  auto r = run_cgtb({"info", path});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("index: keys/1\nsymmetry: rectangle-4\npositions: reachable\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("checksums: OK"), std::string::npos) << r.out;
}

TEST(KeyedFile, WriterRefusesKeysThatAreNotStrictlyIncreasing) {
  cgtb_test::temp_dir dir;
  auto zero = [](std::uint64_t, int) { return std::int64_t{0}; };
  const std::vector<std::vector<std::uint64_t>> bad = {
      {1, 3, 2}, {5, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 17}};
  for (const auto& keys : bad) {
    cgtb::tablebase_writer w(dir.file("t.cgtb"), keyed_header(16));
    EXPECT_THROW(w.add_level(0, keys.size(), zero, keys.data()), std::logic_error);
    try {
      w.add_level(0, keys.size(), zero, keys.data());
    } catch (const std::logic_error& e) {
      EXPECT_NE(std::string(e.what()).find("not strictly increasing"), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(names_in(dir.path()).empty());
}

TEST(KeyedFile, WriterNeedsKeysExactlyForAKeyedIndex) {
  cgtb_test::temp_dir dir;
  auto zero = [](std::uint64_t, int) { return std::int64_t{0}; };
  const std::uint64_t keys[2] = {3, 9};
  {
    cgtb::tablebase_writer w(dir.file("a.cgtb"), keyed_header(16));
    EXPECT_THROW(w.add_level(0, 2, zero), std::logic_error);
    EXPECT_THROW(w.add_level_blocks(0, 2, [](std::uint64_t, std::uint64_t, std::int64_t*) {}), std::logic_error);
  }
  {
    cgtb::tablebase_writer w(dir.file("b.cgtb"), small_header());
    EXPECT_THROW(w.add_level(0, 2, zero, keys), std::logic_error);
  }
  cgtb::tablebase_header h = small_header();
  h.index = "foo/1";
  EXPECT_THROW(cgtb::tablebase_writer(dir.file("c.cgtb"), h), std::logic_error);
  h = small_header();
  h.symmetry = "two\nlines";
  EXPECT_THROW(cgtb::tablebase_writer(dir.file("d.cgtb"), h), std::logic_error);
  EXPECT_TRUE(names_in(dir.path()).empty());
}

TEST(KeyedFile, RulesetFileHasNoKeys) {
  cgtb_test::temp_dir dir;
  const std::string path = dir.file("t.cgtb");
  cgtb_test::build_cram(2, 3, "normal", path);
  cgtb::tablebase tb(path);
  EXPECT_EQ(tb.format_version(), 2u);
  EXPECT_FALSE(tb.keyed());
  EXPECT_EQ(tb.header().index, "ruleset/1");
  EXPECT_EQ(tb.header().symmetry, "none");
  EXPECT_EQ(tb.header().positions, "all");
  EXPECT_THROW(tb.rank_of_key(2, 0), cgtb::input_error);
  EXPECT_THROW(tb.key_of(2, 0), cgtb::input_error);
  EXPECT_TRUE(tb.read_block(0).keys.empty());
  for (const auto& b : tb.blocks()) EXPECT_EQ(b.first_key, 0u);
}

// A warm lookup (its block cached) costs well under a microsecond; the bound
// here is loose (5 us) so that sanitizer and loaded machines pass too.
TEST(KeyedFile, WarmKeyLookupIsFast) {
  cgtb_test::temp_dir dir;
  const std::string path = dir.file("big.cgtb");
  std::mt19937_64 rng(7);
  std::map<int, std::vector<std::uint64_t>> levels;
  levels[1] = random_keys(rng, 200000, std::uint64_t{1} << 40);
  write_keyed(path, levels, 4096);
  cgtb::tablebase tb(path);
  const auto& keys = levels[1];
  std::int64_t sum = 0;
  for (std::uint64_t k : keys) sum += tb.rank_of_key(1, k);  // warm the cache
  const int rounds = 5;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < rounds; ++i)
    for (std::size_t j = 0; j < keys.size(); j += 1 + static_cast<std::size_t>(i))
      sum += tb.rank_of_key(1, keys[(j * 2654435761u) % keys.size()]);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::size_t n = 0;
  for (int i = 0; i < rounds; ++i) n += (keys.size() + static_cast<std::size_t>(i)) / (1 + static_cast<std::size_t>(i));
  const double ns = 1e9 * s / static_cast<double>(n);
  std::printf("[ info ] warm rank_of_key: %.1f ns per lookup (%zu lookups, random blocks)\n", ns, n);
  EXPECT_GT(sum, 0);
  EXPECT_LT(ns, 5000.0);
}

// ------------------------------------------------ version 1 files still read

/// tests/data/cram-2x3-v1.cgtb and cram-3x3-b64-v1.cgtb were written by cgtb
/// 0.1.0 (format version 1: `cgtb build cram --board 2x3` and `--board 3x3
/// --block-entries 64`); they must read rank by rank like a fresh build.
TEST(Version1File, ReadsLikeAFreshVersion2Build) {
  struct fixture {
    const char* file;
    int rows, cols;
    std::uint32_t block_entries;
  };
  for (const fixture& fx : {fixture{"cram-2x3-v1.cgtb", 2, 3, 4096}, fixture{"cram-3x3-b64-v1.cgtb", 3, 3, 64}}) {
    SCOPED_TRACE(fx.file);
    const std::string v1_path = std::string(CGTB_TEST_DATA_DIR) + "/" + fx.file;
    cgtb_test::temp_dir dir;
    const std::string v2_path = dir.file("v2.cgtb");
    cgtb_test::build_cram(fx.rows, fx.cols, "all", v2_path, fx.block_entries);
    cgtb::tablebase v1(v1_path), v2(v2_path);
    EXPECT_EQ(v1.format_version(), 1u);
    EXPECT_EQ(v2.format_version(), 2u);
    EXPECT_FALSE(v1.keyed());
    EXPECT_EQ(v1.header().index, "ruleset/1");
    EXPECT_EQ(v1.header().symmetry, "none");
    EXPECT_EQ(v1.header().positions, "all");
    EXPECT_EQ(v1.header().ruleset, v2.header().ruleset);
    EXPECT_EQ(v1.header().params, v2.header().params);
    EXPECT_EQ(v1.header().block_entries, fx.block_entries);
    ASSERT_EQ(v1.header().fields.size(), v2.header().fields.size());
    for (std::size_t f = 0; f < v1.header().fields.size(); ++f)
      EXPECT_EQ(v1.header().fields[f].name, v2.header().fields[f].name);
    ASSERT_EQ(v1.levels().size(), v2.levels().size());
    std::uint64_t compared = 0;
    for (std::size_t i = 0; i < v1.levels().size(); ++i) {
      const auto &a = v1.levels()[i], &b = v2.levels()[i];
      ASSERT_EQ(a.level, b.level);
      ASSERT_EQ(a.positions, b.positions);
      ASSERT_EQ(a.blocks, b.blocks);
      std::int64_t ea[cgtb::kMaxFields], eb[cgtb::kMaxFields];
      for (std::uint64_t r = 0; r < a.positions; ++r, ++compared) {
        v1.entry(a.level, r, ea);
        v2.entry(b.level, r, eb);
        for (std::size_t f = 0; f < v1.header().fields.size(); ++f)
          ASSERT_EQ(ea[f], eb[f]) << "level " << a.level << " rank " << r << " field " << f;
      }
    }
    EXPECT_GT(compared, 0u);
    for (std::uint64_t blk = 0; blk < v1.blocks().size(); ++blk) {
      EXPECT_EQ(v1.check_block(blk), "");
      EXPECT_EQ(v1.blocks()[blk].first_key, 0u);
      EXPECT_TRUE(v1.read_block(blk).keys.empty());
    }
    EXPECT_THROW(v1.rank_of_key(v1.levels()[0].level, 0), cgtb::input_error);
  }
}

TEST(Version1File, ToolAnswersFromItLikeFromAVersion2File) {
  cgtb_test::temp_dir dir;
  const std::string v1_path = std::string(CGTB_TEST_DATA_DIR) + "/cram-2x3-v1.cgtb";
  const std::string v2_path = dir.file("v2.cgtb");
  cgtb_test::build_cram(2, 3, "all", v2_path);
  auto a = run_cgtb({"query", v1_path, ".../...", "###/..#", "#../#.."});
  auto b = run_cgtb({"query", v2_path, ".../...", "###/..#", "#../#.."});
  ASSERT_EQ(a.code, 0) << describe(a);
  ASSERT_EQ(b.code, 0) << describe(b);
  EXPECT_EQ(a.out, b.out);
  EXPECT_FALSE(a.out.empty());
  auto i = run_cgtb({"info", v1_path});
  ASSERT_EQ(i.code, 0) << describe(i);
  EXPECT_NE(i.out.find("checksums: OK"), std::string::npos) << i.out;
}

}  // namespace
