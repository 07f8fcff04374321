// Resumable builds (cgtb build --resume): a build killed with SIGKILL after a
// checkpointed level and before the last is continued by the same command,
// and the finished file is byte-identical to an uninterrupted build. The kill
// comes from the build itself (CGTB_TEST_KILL_AFTER_LEVEL=L raises SIGKILL
// right after level L's checkpoint), so the test does not depend on timing.
// A keyed (reachable) build also saves the keys its forward pass finds, level
// by level, and the resumed build reads those that are whole instead of
// running the pass again, even when it was killed before its first
// checkpoint.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> v;
  for (const auto& e : std::filesystem::directory_iterator(dir)) v.push_back(e.path().filename().string());
  std::sort(v.begin(), v.end());
  return v;
}

/// What a resumed build finds of the keys a keyed build saved.
enum class saved_keys {
  none,        ///< an index that is not keyed: no keys file
  intact,      ///< every level's keys: the forward pass is skipped
  cut_short,   ///< the file cut in half: the pass goes on from the last whole level
  damaged,     ///< the last block's last byte changed: its checksum fails, the pass goes on from the level above
  in_the_pass  ///< killed during the forward pass (no checkpoint): the pass goes on
};

/// Builds `args` whole, then with --resume killed after level `kill_after`
/// (of the solve, or of the forward pass for saved_keys::in_the_pass), then
/// resumed with `resumed_args` (default: the same): the resumed file must be
/// byte-identical to a whole build of `resumed_args`, with nothing else left.
void expect_resume_gives_the_same_bytes(const std::vector<std::string>& args, int kill_after, saved_keys keys,
                                        std::vector<std::string> resumed_args = {}) {
  if (resumed_args.empty()) resumed_args = args;
  cgtb_test::temp_dir d;
  const std::string whole = d.file("whole.cgtb"), out = d.file("resumed.cgtb");
  auto with = [&](std::vector<std::string> a, const std::string& f) {
    a.insert(a.end(), {"-o", f});
    return a;
  };
  auto stats = [](std::vector<std::string> a) {
    a.push_back("--stats");
    return a;
  };
  const auto w = cgtb_test::run_cgtb(stats(with(resumed_args, whole)));
  ASSERT_EQ(w.code, 0);
  std::string cmd = std::string(keys == saved_keys::in_the_pass ? "CGTB_TEST_KILL_AFTER_FORWARD_LEVEL="
                                                                : "CGTB_TEST_KILL_AFTER_LEVEL=") +
                    std::to_string(kill_after) + " " + CGTB_BINARY;
  for (const auto& a : with(args, out)) cmd += " " + cgtb_test::shell_quote(a);
  cmd += " -q --resume >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGKILL)) << status;
  // Killed: a partial file, its checkpoint (unless killed in the forward
  // pass) and (keyed index) the solver's saved keys, nothing that looks
  // finished.
  auto left = files_in(d.path());
  ASSERT_EQ(left.size(), keys == saved_keys::none || keys == saved_keys::in_the_pass ? 3u : 4u);
  EXPECT_EQ(left[0].rfind("resumed.cgtb.partial-", 0), 0u) << left[0];
  if (keys != saved_keys::in_the_pass) {
    EXPECT_NE(left[1].find(".ckpt"), std::string::npos) << left[1];
  }
  if (keys != saved_keys::none) {
    const std::string& k = left[left.size() - 2];
    EXPECT_NE(k.find(".keys"), std::string::npos) << k;
    if (keys == saved_keys::cut_short)
      std::filesystem::resize_file(d.file(k), std::filesystem::file_size(d.file(k)) / 2);
    if (keys == saved_keys::damaged) {
      std::string bytes = cgtb_test::read_bytes(d.file(k));
      bytes.back() = static_cast<char>(bytes.back() ^ 0x40);
      cgtb_test::write_bytes(d.file(k), bytes);
    }
  }
  EXPECT_EQ(left.back(), "whole.cgtb");
  auto a = with(resumed_args, out);
  a.push_back("--resume");
  auto r = cgtb_test::run_cgtb(stats(a));
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  // --stats of the resumed build: the file's bits per position count every
  // level, those of the killed build too.
  auto bits = [](const std::string& text) {
    const auto at = text.find(" bytes, ");
    return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
  };
  EXPECT_FALSE(bits(w.out).empty()) << w.out;
  EXPECT_EQ(bits(r.out), bits(w.out));
  const bool same_game = resumed_args == args;
  EXPECT_EQ(r.err.find("level keys read from") != std::string::npos, keys == saved_keys::intact) << r.err;
  EXPECT_EQ(
      r.err.find("the forward pass goes on from level") != std::string::npos,
      same_game && (keys == saved_keys::cut_short || keys == saved_keys::in_the_pass || keys == saved_keys::damaged))
      << r.err;
  EXPECT_EQ(r.err.find("are damaged (checksum)") != std::string::npos, keys == saved_keys::damaged) << r.err;
  // Progress counts the levels the killed build solved as done, and the
  // summary says how many this run solved.
  EXPECT_EQ(r.err.find("of the build it resumed)") != std::string::npos, keys != saved_keys::in_the_pass) << r.err;
  if (keys == saved_keys::in_the_pass && same_game) {
    EXPECT_NE(r.err.find("goes on from level " + std::to_string(kill_after) + "\n"), std::string::npos) << r.err;
  }
  EXPECT_EQ(files_in(d.path()), (std::vector<std::string>{"resumed.cgtb", "whole.cgtb"}));
  EXPECT_TRUE(cgtb_test::read_bytes(out) == cgtb_test::read_bytes(whole));
}

/// Runs `cgtb build cram --board 4x5 -q -o FILE --resume`, which kills
/// itself right after level 10's checkpoint.
void build_cram_4x5_killed_after_level_10(const std::string& file) {
  const std::string cmd = std::string("CGTB_TEST_KILL_AFTER_LEVEL=10 ") + CGTB_BINARY +
                          " build cram --board 4x5 -q -o " + cgtb_test::shell_quote(file) + " --resume >/dev/null 2>&1";
  (void)std::system(cmd.c_str());
}

TEST(Resume, KilledReachableCramBuildResumesToTheSameBytes) {
  expect_resume_gives_the_same_bytes({"build", "cram", "--board", "5x5"}, 11, saved_keys::intact);
}

TEST(Resume, SavedKeysCutShortAreReadToTheLastWholeLevel) {
  expect_resume_gives_the_same_bytes({"build", "cram", "--board", "5x5"}, 11, saved_keys::cut_short);
}

// A block whose bytes changed under a whole header (the header is written
// after the block is flushed, but a power loss may keep one and not the
// other) is found by its checksum when the file is opened: the levels above
// it are read and the pass goes on from there.
TEST(Resume, ADamagedSavedLevelIsFoundWhenOpenedAndComputedAgain) {
  expect_resume_gives_the_same_bytes({"build", "cram", "--board", "5x5"}, 11, saved_keys::damaged);
}

// A build killed during its forward pass, before any level is solved, has no
// checkpoint; its saved keys are taken over and the pass goes on from the
// last level it saved.
TEST(Resume, BuildKilledInTheForwardPassGoesOnFromItsSavedKeys) {
  expect_resume_gives_the_same_bytes({"build", "cram", "--board", "5x5", "--values", "normal,misere"}, 13,
                                     saved_keys::in_the_pass);
  expect_resume_gives_the_same_bytes({"build", "domineering", "--board", "4x5"}, 10, saved_keys::in_the_pass);
}

// A build's files are named by its header (docs/format.md, "Partial files and
// checkpoints"): saved keys of a build with other parameters under the same
// output name are another build's, and a build of 3x8 neither reads nor
// touches those of 4x6 (the same levels, and without symmetry the same
// symmetry table), which is still resumed afterwards to the bytes of a whole
// build.
TEST(Resume, SavedKeysOfAnotherBoardAreLeftToTheirBuild) {
  for (const char* symmetry : {"on", "off"}) {
    cgtb_test::temp_dir d;
    const std::string f = d.file("c.cgtb");
    std::string cmd = std::string("CGTB_TEST_KILL_AFTER_FORWARD_LEVEL=12 ") + CGTB_BINARY +
                      " build cram --board 4x6 --symmetry " + symmetry + " -q -o " + cgtb_test::shell_quote(f) +
                      " --resume >/dev/null 2>&1";
    (void)std::system(cmd.c_str());
    const auto killed = files_in(d.path());
    ASSERT_EQ(killed.size(), 2u);
    const auto killed_state = cgtb_test::folder_state(d.path());
    auto r =
        cgtb_test::run_cgtb({"build", "cram", "--board", "3x8", "--symmetry", symmetry, "-q", "-o", f, "--resume"});
    ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
    EXPECT_EQ(r.err.find("level keys"), std::string::npos) << r.err;
    auto now = cgtb_test::folder_state(d.path());
    now.erase(std::remove_if(now.begin(), now.end(), [](const std::string& l) { return l.rfind("c.cgtb ", 0) == 0; }),
              now.end());
    EXPECT_EQ(now, killed_state);
    // The 4x6 build goes on from its saved keys (replacing the 3x8 table under its name).
    auto again = cgtb_test::run_cgtb(
        {"build", "cram", "--board", "4x6", "--symmetry", symmetry, "-o", f, "--resume", "--force"});
    ASSERT_EQ(again.code, 0) << cgtb_test::describe(again);
    EXPECT_NE(again.err.find("the forward pass goes on from level 12"), std::string::npos) << again.err;
    const std::string whole = d.file("whole.cgtb");
    ASSERT_EQ(cgtb_test::run_cgtb({"build", "cram", "--board", "4x6", "--symmetry", symmetry, "-q", "-o", whole}).code,
              0);
    EXPECT_TRUE(cgtb_test::read_bytes(f) == cgtb_test::read_bytes(whole));
    EXPECT_EQ(files_in(d.path()), (std::vector<std::string>{"c.cgtb", "whole.cgtb"}));
  }
}

// The genus keeps a 4-byte id per position and a dictionary of records: the
// checkpoint carries both, written where they lie.
TEST(Resume, KilledGenusBuildResumesToTheSameBytes) {
  expect_resume_gives_the_same_bytes({"build", "cram", "--board", "4x5", "--values", "genus"}, 12, saved_keys::intact);
}

// A checkpoint whose bytes changed after it was written (its checksum no
// longer holds) is refused with one line, and nothing is removed.
TEST(Resume, ACorruptCheckpointIsRefusedWithOneLine) {
  cgtb_test::temp_dir d;
  const std::string f = d.file("c.cgtb");
  build_cram_4x5_killed_after_level_10(f);
  const auto left = files_in(d.path());
  ASSERT_EQ(left.size(), 3u);
  ASSERT_NE(left[1].find(".ckpt"), std::string::npos) << left[1];
  const std::string ckpt = d.file(left[1]);
  std::string bytes = cgtb_test::read_bytes(ckpt);
  ASSERT_GT(bytes.size(), 64u);
  bytes[bytes.size() - 20] = static_cast<char>(bytes[bytes.size() - 20] ^ 1);  // a payload byte
  cgtb_test::write_bytes(ckpt, bytes);
  auto r = cgtb_test::run_cgtb({"build", "cram", "--board", "4x5", "-q", "-o", f, "--resume"});
  EXPECT_TRUE(cgtb_test::is_clean_error(r)) << cgtb_test::describe(r);
  EXPECT_NE(r.err.find("is corrupt"), std::string::npos) << r.err;
  EXPECT_EQ(files_in(d.path()), left);
}

TEST(Resume, KilledAllRegionsCramBuildResumesToTheSameBytes) {
  expect_resume_gives_the_same_bytes({"build", "cram", "--board", "4x4", "--positions", "all"}, 8, saved_keys::none);
}

TEST(Resume, KilledDomineeringBuildResumesToTheSameBytes) {
  expect_resume_gives_the_same_bytes({"build", "domineering", "--board", "4x5"}, 12, saved_keys::intact);
}

// A checkpoint of other parameters under the same output name belongs to
// another build: a build of other values goes on beside it and leaves its
// files as they were.
TEST(Resume, ACheckpointOfOtherParametersIsLeftToItsBuild) {
  cgtb_test::temp_dir d;
  const std::string f = d.file("c.cgtb");
  build_cram_4x5_killed_after_level_10(f);
  const auto killed_state = cgtb_test::folder_state(d.path());
  ASSERT_EQ(killed_state.size(), 3u);
  auto r = cgtb_test::run_cgtb({"build", "cram", "--board", "4x5", "--values", "normal", "-q", "-o", f, "--resume"});
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  auto now = cgtb_test::folder_state(d.path());
  now.erase(std::remove_if(now.begin(), now.end(), [](const std::string& l) { return l.rfind("c.cgtb ", 0) == 0; }),
            now.end());
  EXPECT_EQ(now, killed_state);
}

// Games whose options reach further than the level below: a checkpoint
// carries every solved level that the levels still to solve reach — the last
// four for Row Impartial Terminus in a 4x4 box (options of level L land on
// L-4..L-1), every level for an octal game's heap lists (a level per total),
// and for Cricket Pitch the last length-1.
TEST(Resume, GamesWhoseOptionsReachManyLevelsResumeToTheSameBytes) {
  expect_resume_gives_the_same_bytes({"build", "rit", "--box", "4x4"}, 9, saved_keys::none);
  expect_resume_gives_the_same_bytes({"build", "octal", "--code", "0.07", "--max-total", "14"}, 8, saved_keys::none);
  expect_resume_gives_the_same_bytes({"build", "cricket-pitch", "--length", "6", "--max-bump", "3"}, 5,
                                     saved_keys::none);
}

// A build without --resume that finds a checkpoint of its own build refuses
// with one line (nothing is lost to a forgotten --resume) and changes
// nothing; with --resume the same command goes on.
TEST(Resume, ABuildWithoutResumeRefusesToOverwriteItsCheckpoint) {
  cgtb_test::temp_dir d;
  const std::string f = d.file("c.cgtb");
  build_cram_4x5_killed_after_level_10(f);
  const auto left = cgtb_test::folder_state(d.path());
  auto r = cgtb_test::run_cgtb({"build", "cram", "--board", "4x5", "-q", "-o", f});
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(r, {"continue it with --resume"})) << cgtb_test::describe(r);
  EXPECT_EQ(cgtb_test::folder_state(d.path()), left);
  auto resumed = cgtb_test::run_cgtb({"build", "cram", "--board", "4x5", "-q", "-o", f, "--resume"});
  ASSERT_EQ(resumed.code, 0) << cgtb_test::describe(resumed);
  EXPECT_EQ(files_in(d.path()), std::vector<std::string>{"c.cgtb"});
}

}  // namespace
