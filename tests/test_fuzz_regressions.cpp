// Regression tests for the defects the libFuzzer targets in tests/fuzz found
// (docs/reliability.md, "Fuzzing"): each input that crashed, tripped a
// sanitizer or broke a promised round trip, reduced to a test that fails
// without its fix.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/games/rit.hpp"
#include "cgtb/tablebase.hpp"

namespace {

namespace fs = std::filesystem;

/// A file name in a fresh folder under the system's temporary folder, removed
/// with the fixture.
class FuzzRegression : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cgtb-fuzz-regress-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
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

}  // namespace
