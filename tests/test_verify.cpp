// cgtb verify: it accepts every table of every game and value kind, and it
// catches tables whose values were altered after writing with every checksum
// valid (rewritten through the public writer), a position left out of a
// reachable table, and a level left out of the header.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/verify.hpp"
#include "test_support.hpp"

namespace {

using namespace cgtb_test;

/// One table of the suite: the `cgtb build` arguments after the game.
struct table_case {
  std::string name;
  std::vector<std::string> build;
};

void PrintTo(const table_case& c, std::ostream* os) { *os << c.name; }

std::vector<table_case> every_game() {
  return {
      {"cram_3x4", {"cram", "--board", "3x4"}},
      {"cram_3x5_all", {"cram", "--board", "3x5", "--positions", "all", "--symmetry", "off"}},
      {"cram_3x5_misere", {"cram", "--board", "3x5", "--values", "misere"}},
      {"domineering_4x4", {"domineering", "--board", "4x4"}},
      {"domineering_3x4_all", {"domineering", "--board", "3x4", "--positions", "all", "--symmetry", "off"}},
      {"octal_sequence", {"octal", "--code", "0.07", "--max-heap", "300"}},
      {"octal_multisets", {"octal", "--code", "0.137", "--max-total", "12"}},
      {"rit_5x5", {"rit", "--box", "5x5"}},
      {"cricket_pitch", {"cricket-pitch", "--length", "6"}},
      {"blocking_nim", {"blocking-nim", "--blocks", "1", "--max-pile", "40"}},
      {"scoring_heaps", {"scoring-octal", "--code", "123", "--points", "123", "--max", "40"}},
      {"scoring_multisets",
       {"scoring-octal", "--code", "3111", "--points", "1234", "--max", "14", "--positions", "multisets"}},
      {"scoring_disjunctive",
       {"scoring-sum", "--op", "disjunctive", "--left", "3311:1234", "--right", "333:123", "--max", "10"}},
      {"scoring_conjunctive",
       {"scoring-sum", "--op", "conjunctive", "--left", "3311:1234", "--right", "333:123", "--max", "10"}},
      {"scoring_selective",
       {"scoring-sum", "--op", "selective", "--left", "3311:1234", "--right", "333:123", "--max", "10"}},
      {"scoring_sequential",
       {"scoring-sum", "--op", "sequential", "--left", "3311:1234", "--right", "333:123", "--max", "10"}},
  };
}

/// Builds a case's table into `dir` and returns its path.
std::string build_case(const temp_dir& dir, const table_case& c) {
  const std::string out = dir.file(c.name + ".cgtb");
  std::vector<std::string> args = {"build"};
  args.insert(args.end(), c.build.begin(), c.build.end());
  args.insert(args.end(), {"-o", out, "-q"});
  const cli_result r = run_cgtb(args);
  if (r.code != 0) throw std::runtime_error("build failed: " + describe(r));
  return out;
}

/// Copies tablebase `src` to `dst` through the public writer, so that every
/// checksum of `dst` is valid, letting `edit(level, rank, field, value)`
/// change values and `keep(level, rank)` drop entries (and whole levels).
void rewrite(const std::string& src, const std::string& dst,
             const std::function<std::int64_t(int, std::uint64_t, int, std::int64_t)>& edit,
             const std::function<bool(int, std::uint64_t)>& keep = nullptr) {
  cgtb::tablebase tb(src);
  cgtb::tablebase_writer w(dst, tb.header());
  const int nf = static_cast<int>(tb.header().fields.size());
  for (const auto& le : tb.levels()) {
    std::vector<std::uint64_t> keys;
    std::vector<std::int64_t> values;
    for (std::uint64_t b = le.first_block; b < le.first_block + le.blocks; ++b) {
      const cgtb::decoded_block d = tb.read_block(b);
      for (std::uint32_t i = 0; i < d.count; ++i) {
        const std::uint64_t r = d.first + i;
        if (keep && !keep(le.level, r)) continue;
        if (tb.keyed()) keys.push_back(d.keys[i]);
        for (int f = 0; f < nf; ++f) values.push_back(edit(le.level, r, f, d.get(i, f)));
      }
    }
    const std::uint64_t n = values.size() / static_cast<std::uint64_t>(nf);
    if (n == 0 && keep) continue;  // the whole level dropped
    w.add_level(
        le.level, n, [&](std::uint64_t i, int f) { return values[i * static_cast<std::uint64_t>(nf) + f]; },
        tb.keyed() ? keys.data() : nullptr);
  }
  w.finish();
}

/// The middle one of the levels of `path` with two positions or more (of
/// all levels, for tables of one position per level).
cgtb::level_entry a_middle_level(const std::string& path) {
  cgtb::tablebase tb(path);
  std::vector<cgtb::level_entry> big;
  for (const auto& le : tb.levels())
    if (le.positions >= 2) big.push_back(le);
  if (big.empty()) big = tb.levels();
  return big[big.size() / 2];
}

class VerifyEveryGame : public ::testing::TestWithParam<table_case> {};

TEST_P(VerifyEveryGame, AcceptsTheBuiltTableInFullAndSampled) {
  temp_dir dir;
  const std::string path = build_case(dir, GetParam());
  const cgtb::verify_report full = cgtb::verify_tablebase(path, {});
  EXPECT_EQ(full.failure, "");
  cgtb::tablebase tb(path);
  std::uint64_t stored = 0;
  for (const auto& le : tb.levels()) stored += le.positions;
  EXPECT_EQ(full.positions, stored);
  EXPECT_EQ(full.exact_index, tb.keyed());
  // With no memory for levels, every level is read through the file: the
  // same check by the other path.
  cgtb::verify_options through_file;
  through_file.level_memory = 1;
  const cgtb::verify_report read = cgtb::verify_tablebase(path, through_file);
  EXPECT_EQ(read.failure, "");
  EXPECT_EQ(read.positions, full.positions);
  EXPECT_EQ(read.options, full.options);
  EXPECT_EQ(read.exact_index, full.exact_index);
  cgtb::verify_options sampled;
  sampled.sample = 5;
  sampled.seed = 7;
  const cgtb::verify_report part = cgtb::verify_tablebase(path, sampled);
  EXPECT_EQ(part.failure, "");
  EXPECT_LE(part.positions, 5 * tb.levels().size());
  EXPECT_GT(part.positions, 0u);
}

/// A progress sink that stops the run (throws) at the first level line
/// after `stop_after` of them, and keeps the lines.
class stopping_sink : public cgtb::progress_sink {
 public:
  explicit stopping_sink(int stop_after) : left_(stop_after) {}
  void line(const std::string& text) override {
    lines.push_back(text);
    if (text.find(" in agreement ") != std::string::npos && left_-- == 0) throw std::runtime_error("stopped");
  }
  std::vector<std::string> lines;

 private:
  int left_;
};

/// A run stopped after a level and continued with --resume reports what one
/// whole run reports, and leaves no checkpoint behind.
TEST_P(VerifyEveryGame, AResumedRunReportsWhatOneRunReports) {
  temp_dir dir;
  const std::string path = build_case(dir, GetParam());
  const cgtb::verify_report whole = cgtb::verify_tablebase(path, {});
  ASSERT_EQ(whole.failure, "");
  const std::size_t levels = cgtb::tablebase(path).levels().size();
  cgtb::verify_options o;
  o.resume = true;
  stopping_sink stop(static_cast<int>(levels / 2));
  o.progress = &stop;
  if (levels >= 2) {
    EXPECT_THROW(cgtb::verify_tablebase(path, o), std::runtime_error);
    EXPECT_TRUE(std::filesystem::exists(cgtb::verify_checkpoint_path(path)));
  }
  stopping_sink watch(1 << 30);
  o.progress = &watch;
  const cgtb::verify_report resumed = cgtb::verify_tablebase(path, o);
  EXPECT_EQ(resumed.failure, "");
  EXPECT_EQ(resumed.positions, whole.positions);
  EXPECT_EQ(resumed.options, whole.options);
  EXPECT_EQ(resumed.genus_positions, whole.genus_positions);
  EXPECT_EQ(resumed.round_trips, whole.round_trips);
  EXPECT_EQ(resumed.period_checked, whole.period_checked);
  EXPECT_EQ(resumed.exact_index, whole.exact_index);
  if (levels >= 2) {
    EXPECT_TRUE(std::any_of(watch.lines.begin(), watch.lines.end(), [](const std::string& l) {
      return l.find("continuing after level") != std::string::npos;
    }));
  }
  EXPECT_FALSE(std::filesystem::exists(cgtb::verify_checkpoint_path(path)));
}

/// Changes one value of each field in turn, at a middle level, and expects
/// the verifier to name that field's kind.
TEST_P(VerifyEveryGame, CatchesEveryAlteredField) {
  temp_dir dir;
  const std::string path = build_case(dir, GetParam());
  const cgtb::level_entry le = a_middle_level(path);
  const std::uint64_t rank = le.positions / 2;
  std::vector<cgtb::field_spec> fields = cgtb::tablebase(path).header().fields;
  for (int f = 0; f < static_cast<int>(fields.size()); ++f) {
    const std::string bad = dir.file("bad-" + fields[f].name + ".cgtb");
    rewrite(path, bad, [&](int l, std::uint64_t r, int field, std::int64_t v) -> std::int64_t {
      if (l != le.level || r != rank || field != f) return v;
      if (fields[f].name.find("class") != std::string::npos) return (v + 1) & 3;  // another outcome class
      if (fields[f].name == "safe") return 1 - v;
      return v == 0 ? 1 : v - 1;
    });
    cgtb::verify_options through_file;  // every level read through the file
    through_file.level_memory = 1;
    for (const cgtb::verify_options& o : {cgtb::verify_options{}, through_file}) {
      const cgtb::verify_report rep = cgtb::verify_tablebase(bad, o);
      EXPECT_NE(rep.failure, "") << fields[f].name;
      EXPECT_NE(rep.failure.find("level " + std::to_string(le.level) + ", rank " + std::to_string(rank)),
                std::string::npos)
          << fields[f].name << ": " << rep.failure;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Tables, VerifyEveryGame, ::testing::ValuesIn(every_game()),
                         [](const auto& p) { return p.param.name; });

TEST(Verify, CommandLineReportsAgreementAndExitsZero) {
  temp_dir dir;
  const std::string path = build_case(dir, every_game()[0]);
  const cli_result r = run_cgtb({"verify", path});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("OK:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("every stored position is reachable"), std::string::npos) << r.out;
}

TEST(Verify, CommandLineReportsProgressOffATerminalAndNotWithQuiet) {
  // A verification's output redirected to a file or a pipe still says how
  // far it got (a line per level); -q keeps stderr empty.
  temp_dir dir;
  const std::string path = build_case(dir, every_game()[0]);
  const cli_result r = run_cgtb({"verify", path});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.err.find("[cgtb] verify level 12: 1 position in agreement"), std::string::npos) << r.err;
  const cli_result q = run_cgtb({"verify", "-q", path});
  ASSERT_EQ(q.code, 0) << describe(q);
  EXPECT_EQ(q.err, "");
}

TEST(Verify, CommandLineNamesTheAlteredPositionAndExitsOne) {
  temp_dir dir;
  const std::string path = build_case(dir, every_game()[0]);
  const std::string bad = dir.file("bad.cgtb");
  rewrite(path, bad, [](int l, std::uint64_t r, int f, std::int64_t v) -> std::int64_t {
    return l == 6 && r == 3 && f == 0 ? v + 1 : v;  // the Grundy value of a position with 6 empty cells
  });
  ASSERT_EQ(cgtb_test::run_cgtb({"info", bad}).code, 0) << "the altered file's checksums are valid";
  const cli_result r = run_cgtb({"verify", bad});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(r.out.find("INCONSISTENT"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Grundy value stored"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("level 6, rank 3"), std::string::npos) << r.out;
}

/// A checkpoint is refused, in one line naming it, where it belongs to a run
/// with other options or is not whole; --resume needs a full check.
TEST(Verify, ResumeRefusesACheckpointOfOtherOptionsOrOneNotWhole) {
  temp_dir dir;
  const std::string path = build_case(dir, {"cram_4x4", {"cram", "--board", "4x4"}});
  const std::string ckpt = cgtb::verify_checkpoint_path(path);
  cgtb::verify_options o;
  o.resume = true;
  stopping_sink stop(2);
  o.progress = &stop;
  EXPECT_THROW(cgtb::verify_tablebase(path, o), std::runtime_error);
  ASSERT_TRUE(std::filesystem::exists(ckpt));
  o.progress = nullptr;
  cgtb::verify_options other = o;
  other.genus = false;
  try {
    cgtb::verify_tablebase(path, other);
    ADD_FAILURE() << "a checkpoint of other options was taken";
  } catch (const cgtb::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("belongs to another run"), std::string::npos) << e.what();
  }
  // One byte changed: the checksum catches it.
  {
    std::fstream f(ckpt, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-12, std::ios::end);
    f.put('\x55');
  }
  try {
    cgtb::verify_tablebase(path, o);
    ADD_FAILURE() << "a corrupt checkpoint was taken";
  } catch (const cgtb::corrupt_file_error& e) {
    EXPECT_NE(std::string(e.what()).find("remove it to verify afresh"), std::string::npos) << e.what();
  }
  std::filesystem::resize_file(ckpt, 20);
  EXPECT_THROW(cgtb::verify_tablebase(path, o), cgtb::corrupt_file_error);
  std::filesystem::remove(ckpt);
  const cli_result r = run_cgtb({"verify", path, "--resume", "--sample", "10"});
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_NE(r.err.find("--resume needs a full check"), std::string::npos) << describe(r);
}

TEST(Verify, CatchesAPositionLeftOutOfAReachableTable) {
  temp_dir dir;
  const std::string path = build_case(dir, every_game()[0]);
  const cgtb::level_entry le = a_middle_level(path);
  const std::string bad = dir.file("bad.cgtb");
  rewrite(
      path, bad, [](int, std::uint64_t, int, std::int64_t v) { return v; },
      [&](int l, std::uint64_t r) { return !(l == le.level && r == 1); });
  const cgtb::verify_report rep = cgtb::verify_tablebase(bad, {});
  EXPECT_NE(rep.failure.find("is not stored"), std::string::npos) << rep.failure;
}

TEST(Verify, CatchesALevelLeftOutOfTheFile) {
  temp_dir dir;
  const std::string path = build_case(dir, every_game()[1]);
  const cgtb::level_entry le = a_middle_level(path);
  const std::string bad = dir.file("bad.cgtb");
  rewrite(
      path, bad, [](int, std::uint64_t, int, std::int64_t v) { return v; },
      [&](int l, std::uint64_t) { return l != le.level; });
  const cgtb::verify_report rep = cgtb::verify_tablebase(bad, {});
  EXPECT_NE(rep.failure.find("levels"), std::string::npos) << rep.failure;
}

/// A wild position of Cram table `path` (gamma_3 != gamma_1: not a Nim
/// heap's genus) on the lowest level that holds one, and a copy of the table
/// in `dir` with that position's gamma_3 altered.
struct altered_wild {
  int level = -1;
  std::uint64_t rank = 0;
  std::string bad;
};
altered_wild alter_lowest_wild_genus(const temp_dir& dir, const std::string& path) {
  cgtb::tablebase tb(path);
  const int g3 = tb.header().field_index("genus3");
  altered_wild w;
  if (g3 < 0) return w;
  for (const auto& le : tb.levels())
    for (std::uint64_t r = 0; r < le.positions; ++r)
      if (tb.value(le.level, r, g3) != tb.value(le.level, r, g3 - 2) && (w.level < 0 || le.level < w.level)) {
        w.level = le.level;
        w.rank = r;
      }
  w.bad = dir.file("bad.cgtb");
  rewrite(path, w.bad, [&](int l, std::uint64_t r, int f, std::int64_t v) -> std::int64_t {
    return l == w.level && r == w.rank && f == g3 ? v ^ 1 : v;
  });
  return w;
}

TEST(Verify, CatchesAGenusFieldOfAWildPositionAlteredFromItsOptionsAndFromItsGameTree) {
  // Wild positions are where the genus carries information the Grundy and
  // misère values do not: 4x5 Cram has many. The default run derives the
  // genus from the options' stored genus; --deep from the whole game tree.
  temp_dir dir;
  const altered_wild w = alter_lowest_wild_genus(dir, build_case(dir, {"cram_4x5", {"cram", "--board", "4x5"}}));
  ASSERT_GE(w.level, 0);
  const std::string at = "level " + std::to_string(w.level) + ", rank " + std::to_string(w.rank);
  for (const bool deep : {false, true}) {
    cgtb::verify_options o;
    o.deep = deep;
    const cgtb::verify_report rep = cgtb::verify_tablebase(w.bad, o);
    EXPECT_NE(rep.failure.find("genus3"), std::string::npos) << deep << ": " << rep.failure;
    EXPECT_NE(rep.failure.find(at), std::string::npos) << deep << ": " << rep.failure;
  }
}

TEST(Verify, DefaultAndDeepRunsAgreeOnEveryGenusPosition) {
  // Both runs compare the genus of every stored position; the default one
  // parses back the options' texts of one position in 64, --deep of all.
  temp_dir dir;
  const std::string path = build_case(dir, {"cram_4x5", {"cram", "--board", "4x5"}});
  cgtb::verify_options deep;
  deep.deep = true;
  const cgtb::verify_report local = cgtb::verify_tablebase(path, {}), tree = cgtb::verify_tablebase(path, deep);
  EXPECT_EQ(local.failure, "");
  EXPECT_EQ(tree.failure, "");
  EXPECT_EQ(local.genus_positions, local.positions);
  EXPECT_EQ(tree.genus_positions, tree.positions);
  EXPECT_EQ(tree.round_trips, tree.positions);
  EXPECT_GT(local.round_trips, 0u);
  EXPECT_LT(local.round_trips, local.positions);
}

/// A heap sequence with a proven period is checked from the options up to
/// the end of the theorem's window and against the period past it: a value
/// altered on either side is named.
TEST(Verify, HeapSequencesAreCheckedByTheProvenPeriodPastTheTheoremsWindow) {
  temp_dir dir;
  const std::string path = build_case(dir, {"octal_0.07", {"octal", "--code", "0.07", "--max-heap", "20000"}});
  const cgtb::verify_report good = cgtb::verify_tablebase(path, {});
  EXPECT_EQ(good.failure, "");
  EXPECT_NE(good.period.find("period 34, preperiod 53"), std::string::npos) << good.period;
  EXPECT_GT(good.period_checked, 19000u);
  EXPECT_EQ(good.positions, 20001u);
  for (const std::uint64_t heap : {std::uint64_t{60}, std::uint64_t{15000}}) {
    const std::string bad = dir.file("bad-" + std::to_string(heap) + ".cgtb");
    rewrite(path, bad, [&](int, std::uint64_t r, int, std::int64_t v) -> std::int64_t {
      return r == heap ? (v == 0 ? 1 : v - 1) : v;
    });
    const cgtb::verify_report rep = cgtb::verify_tablebase(bad, {});
    EXPECT_NE(rep.failure.find("rank " + std::to_string(heap) + ")"), std::string::npos) << heap << ": " << rep.failure;
  }
  const cli_result r = run_cgtb({"verify", path});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("octal periodicity theorem"), std::string::npos) << r.out;
}

TEST(Verify, WithoutTheGenusChecksTheOtherValuesAndLeavesTheGenusOut) {
  // --no-genus: for tables whose genus states do not fit in memory. An
  // altered genus field passes, an altered misère Grundy value does not.
  temp_dir dir;
  const std::string path = build_case(dir, {"cram_4x4", {"cram", "--board", "4x4"}});
  cgtb::tablebase tb(path);
  const int misere = tb.header().field_index("misere"), g2 = tb.header().field_index("genus2");
  ASSERT_GE(misere, 0);
  ASSERT_GE(g2, 0);
  const cgtb::level_entry le = a_middle_level(path);
  cgtb::verify_options without;
  without.genus = false;
  for (const int field : {g2, misere}) {
    const std::string bad = dir.file("bad-" + std::to_string(field) + ".cgtb");
    rewrite(path, bad, [&](int l, std::uint64_t r, int f, std::int64_t v) -> std::int64_t {
      return l == le.level && r == 0 && f == field ? v + 1 : v;
    });
    const cgtb::verify_report all = cgtb::verify_tablebase(bad, {}), rest = cgtb::verify_tablebase(bad, without);
    EXPECT_NE(all.failure, "") << field;
    EXPECT_EQ(rest.failure.empty(), field == g2) << rest.failure;
    EXPECT_EQ(std::count(rest.fields.begin(), rest.fields.end(), "genus2"), 0);
    EXPECT_EQ(std::count(rest.fields.begin(), rest.fields.end(), "misere"), 1);
  }
  const cli_result r = run_cgtb({"verify", "--no-genus", path});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("(grundy,misere)"), std::string::npos) << r.out;
}

TEST(Verify, DeepSampledRunsDeriveTheGenusFromTheFollowersAndLeaveOutTheLevelsPastTheMemory) {
  // A deep sampled run keeps the genus states of the sample and its followers
  // only, so a table too large for a full genus check still gets its lower
  // levels checked. A sample as large as every level checks every position:
  // with memory for the states of the levels below an altered wild
  // position, the genus is compared up to that level and left out from it.
  temp_dir dir;
  const std::string path = build_case(dir, {"cram_4x5", {"cram", "--board", "4x5"}});
  const altered_wild w = alter_lowest_wild_genus(dir, path);
  ASSERT_GE(w.level, 0);
  const int level = w.level;
  const std::string& bad = w.bad;
  std::uint64_t below = 0, stored = 0;
  const cgtb::tablebase tb(path);
  for (const auto& le : tb.levels()) {
    stored += le.positions;
    if (le.level < level) below += le.positions;
  }
  ASSERT_GT(below, 0u);
  cgtb::verify_options every;
  every.deep = true;
  every.sample = stored;  // at least each level's positions: all of them
  const cgtb::verify_report good = cgtb::verify_tablebase(path, every);
  EXPECT_EQ(good.failure, "");
  EXPECT_EQ(good.genus_left_out_from, -1);
  EXPECT_EQ(good.genus_positions, stored);
  EXPECT_NE(cgtb::verify_tablebase(bad, every).failure.find("genus3"), std::string::npos);
  cgtb::verify_options short_of = every;
  short_of.genus_memory = below * cgtb::kVerifyGenusStateBytes;
  const cgtb::verify_report part = cgtb::verify_tablebase(bad, short_of);
  EXPECT_EQ(part.failure, "");
  EXPECT_EQ(part.genus_left_out_from, level);
  EXPECT_EQ(part.genus_positions, below);
  EXPECT_EQ(part.positions, stored);  // the other values of every level were compared
  const cli_result r = run_cgtb({"verify", "--deep", "--sample", std::to_string(stored), "--max-memory",
                                 std::to_string(short_of.genus_memory), bad});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("genus compared on " + std::to_string(below) + " positions: every one checked below level " +
                       std::to_string(level) + ", none above it"),
            std::string::npos)
      << r.out;
}

}  // namespace
