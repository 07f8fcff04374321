// The tool under an MPI launcher (tools/mpi_session.hpp, tools/mpi_exchange.hpp,
// docs/distributed.md): one process builds what a plain run builds, byte for
// byte, and so do 2 to 4 ranks that split every level; what is not split yet
// is refused in one line, leaving no file. Run where the tool is built with
// MPI.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace cgtb_test;

/// mpirun with `np` processes (oversubscribed: this machine may have fewer
/// cores), allowed to run as root as CI does.
std::vector<std::string> launcher(int np) {
  return {"env", "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1", CGTB_MPIEXEC, "--oversubscribe",
          "-np", std::to_string(np)};
}

TEST(Mpi, OneLaunchedProcessBuildsThePlainBuildsBytes) {
  if (std::string(CGTB_MPIEXEC).empty()) GTEST_SKIP() << "the tool is built without MPI (-DCGTB_MPI=OFF)";
  temp_dir dir;
  const std::vector<std::string> build = {"build", "cram", "--board", "3x5", "--values", "all", "-q", "-o"};
  auto plain = build, launched = build;
  plain.push_back(dir.file("plain.cgtb"));
  launched.push_back(dir.file("launched.cgtb"));
  const cli_result a = run_cgtb(plain);
  ASSERT_EQ(a.code, 0) << describe(a);
  const cli_result b = run_cgtb(launched, "", launcher(1));
  ASSERT_EQ(b.code, 0) << describe(b);
  EXPECT_TRUE(read_bytes(dir.file("plain.cgtb")) == read_bytes(dir.file("launched.cgtb")));
}

/// The build of `args` (a game and its options) by one plain process and by
/// `np` launched ranks, each rank on one thread, every level with at least
/// `split_from` stored classes a rank split across them; the two files
/// compared byte for byte.
void expect_split_build_identical(const std::vector<std::string>& args, int np, const std::string& split_from) {
  temp_dir dir;
  std::vector<std::string> plain = {"build"}, split = {"build"};
  plain.insert(plain.end(), args.begin(), args.end());
  split.insert(split.end(), args.begin(), args.end());
  plain.insert(plain.end(), {"-q", "-o", dir.file("plain.cgtb")});
  split.insert(split.end(), {"-q", "--threads", "1", "--split-from", split_from, "-o", dir.file("split.cgtb")});
  const cli_result a = run_cgtb(plain);
  ASSERT_EQ(a.code, 0) << describe(a);
  const cli_result b = run_cgtb(split, "", launcher(np));
  ASSERT_EQ(b.code, 0) << describe(b);
  EXPECT_TRUE(read_bytes(dir.file("plain.cgtb")) == read_bytes(dir.file("split.cgtb")))
      << np << " ranks built another file than one process";
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir.path())) files += e.is_regular_file();
  EXPECT_EQ(files, 2u) << "a rank left a file of its own";
}

TEST(Mpi, LevelsSplitAcrossTwoToFourRanksBuildTheSameBytes) {
  if (std::string(CGTB_MPIEXEC).empty()) GTEST_SKIP() << "the tool is built without MPI (-DCGTB_MPI=OFF)";
  for (int np : {2, 3, 4}) {
    SCOPED_TRACE(std::to_string(np) + " ranks");
    // Every level of more than one class a rank is split: the smallest
    // levels too, and ranks whose part of a level is empty.
    for (const char* board : {"3x5", "4x5", "5x5"}) {
      SCOPED_TRACE(std::string("cram ") + board);
      expect_split_build_identical({"cram", "--board", board, "--values", "all"}, np, "1");
    }
    for (const char* board : {"4x4", "4x5"}) {
      SCOPED_TRACE(std::string("domineering ") + board);
      expect_split_build_identical({"domineering", "--board", board, "--values", "normal,misere"}, np, "1");
    }
  }
  // Blocks of 64 entries: most parts of a level start inside a block, so
  // that ranks lend their first entries to the rank writing that block, and
  // parts shorter than a block lend all of theirs.
  for (int np : {3, 4}) {
    SCOPED_TRACE(std::to_string(np) + " ranks, blocks of 64");
    expect_split_build_identical({"cram", "--board", "4x5", "--values", "all", "--block-entries", "64"}, np, "1");
  }
  // Parts solved in chunks (a few options each: hundreds of chunks a
  // level, ranks finishing their parts after different numbers of chunks),
  // each chunk's options found again and their records fetched anew.
  for (int np : {2, 3}) {
    SCOPED_TRACE(std::to_string(np) + " ranks, parts in chunks");
    expect_split_build_identical({"cram", "--board", "4x5", "--values", "all", "--chunk-options", "7"}, np, "1");
    expect_split_build_identical(
        {"domineering", "--board", "4x4", "--values", "normal,misere", "--chunk-options", "50"}, np, "1");
    // The forward pass in 3 parts, each sent to its owners on its own: no
    // options kept for the solve, which finds them again.
    expect_split_build_identical({"cram", "--board", "4x5", "--values", "all", "--forward-parts", "3"}, np, "1");
  }
  // The default split (levels of 4096 classes a rank and more), on the
  // largest board of the suite: Cram 5x6, every value (the genus records
  // travel whole between the ranks' dictionaries).
  expect_split_build_identical({"cram", "--board", "5x6", "--values", "all"}, 2, "4096");
}

TEST(Mpi, ARankKilledEndsEveryRankAndLeavesNoFinishedFile) {
  if (std::string(CGTB_MPIEXEC).empty()) GTEST_SKIP() << "the tool is built without MPI (-DCGTB_MPI=OFF)";
  temp_dir dir;
  // Rank 1 of 3 raises SIGKILL once its forward pass has found level 11 of
  // Cram 5x5, while the other ranks wait for it in an exchange.
  std::vector<std::string> launch = {"env", "CGTB_TEST_KILL_RANK=1", "CGTB_TEST_KILL_AFTER_FORWARD_LEVEL=11"};
  for (const std::string& a : launcher(3)) launch.push_back(a);
  const auto t0 = std::chrono::steady_clock::now();
  const cli_result r = run_cgtb({"build", "cram", "--board", "5x5", "--values", "all", "--threads", "1", "--split-from",
                                 "1", "-q", "-o", dir.file("t.cgtb")},
                                "", launch);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_NE(r.code, 0) << describe(r);
  EXPECT_LT(seconds, 60.0) << "the ranks left waited for the killed one";
  // Nothing that looks finished: at most a file whose name says it is partial.
  for (const auto& e : fs::directory_iterator(dir.path()))
    EXPECT_NE(e.path().filename().string().find(".partial-"), std::string::npos) << "left " << e.path();
}

/// How many lines of r's stderr start with `head`.
std::size_t count_lines_starting(const cli_result& r, const std::string& head) {
  std::size_t n = 0;
  for (const std::string& l : r.err_lines()) n += l.rfind(head, 0) == 0;
  return n;
}

/// The environment and launcher of `np` ranks of which rank `rank` raises
/// SIGKILL right after its checkpoint of level `level` (tools/cgtb.cpp).
std::vector<std::string> killing_launcher(int np, int rank, int level) {
  std::vector<std::string> launch = {"env", "CGTB_TEST_KILL_RANK=" + std::to_string(rank),
                                     "CGTB_TEST_KILL_AFTER_LEVEL=" + std::to_string(level)};
  for (const std::string& a : launcher(np)) launch.push_back(a);
  return launch;
}

TEST(Mpi, AKilledRankIsResumedByTheSameCommandToTheSameBytes) {
  if (std::string(CGTB_MPIEXEC).empty()) GTEST_SKIP() << "the tool is built without MPI (-DCGTB_MPI=OFF)";
  temp_dir dir;
  const std::vector<std::string> args = {
      "build", "cram",         "--board", "5x5",      "--values", "all", "--threads",
      "1",     "--split-from", "1",       "--resume", "-q",       "-o",  dir.file("t.cgtb")};
  std::vector<std::string> plain = {
      "build", "cram", "--board", "5x5", "--values", "all", "-q", "-o", dir.file("plain.cgtb")};
  ASSERT_EQ(run_cgtb(plain).code, 0);
  // Rank 2 of 3 dies after its checkpoint of level 11, rank 1 after that of
  // level 15 in the resumed run; a third run finishes the build.
  const cli_result first = run_cgtb(args, "", killing_launcher(3, 2, 11));
  EXPECT_NE(first.code, 0) << describe(first);
  EXPECT_FALSE(fs::exists(dir.file("t.cgtb")));
  const cli_result second = run_cgtb(args, "", killing_launcher(3, 1, 15));
  EXPECT_NE(second.code, 0) << describe(second);
  const cli_result third = run_cgtb(args, "", launcher(3));
  ASSERT_EQ(third.code, 0) << describe(third);
  EXPECT_TRUE(read_bytes(dir.file("plain.cgtb")) == read_bytes(dir.file("t.cgtb")))
      << "the resumed build wrote another file than one process";
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir.path())) {
    ++files;
    EXPECT_EQ(e.path().filename().string().find(".partial-"), std::string::npos) << "left " << e.path();
  }
  EXPECT_EQ(files, 2u);
}

TEST(Mpi, AResumeWithAnotherRankCountOrADamagedRankCheckpointIsRefused) {
  if (std::string(CGTB_MPIEXEC).empty()) GTEST_SKIP() << "the tool is built without MPI (-DCGTB_MPI=OFF)";
  temp_dir dir;
  const std::vector<std::string> args = {
      "build",        "cram", "--board",  "4x5", "--values", "normal,misere",   "--threads", "1",
      "--split-from", "1",    "--resume", "-q",  "-o",       dir.file("t.cgtb")};
  ASSERT_NE(run_cgtb(args, "", killing_launcher(3, 1, 12)).code, 0);
  // Another rank count finds no checkpoint of its own.
  const cli_result other = run_cgtb(args, "", launcher(2));
  EXPECT_NE(other.code, 0) << describe(other);
  EXPECT_EQ(count_lines_starting(other, "cgtb: error: checkpoint '"), 1u) << describe(other);
  EXPECT_NE(other.err.find("as many ranks as made its checkpoints"), std::string::npos) << describe(other);
  // One rank's checkpoint damaged: found, and never read as valid.
  std::string damaged;
  for (const auto& e : fs::directory_iterator(dir.path()))
    if (e.path().filename().string().find(".rank-2-of-3.12") != std::string::npos) damaged = e.path().string();
  ASSERT_FALSE(damaged.empty());
  std::string bytes = read_bytes(damaged);
  bytes[bytes.size() / 2] ^= 1;
  write_bytes(damaged, bytes);
  const cli_result bad = run_cgtb(args, "", launcher(3));
  EXPECT_NE(bad.code, 0) << describe(bad);
  EXPECT_NE(bad.err.find("rank-2-of-3.12' is corrupt"), std::string::npos) << describe(bad);
  EXPECT_FALSE(fs::exists(dir.file("t.cgtb")));
}

TEST(Mpi, WhatIsNotSplitYetIsRefusedInOneLineAndLeavesNoFile) {
  if (std::string(CGTB_MPIEXEC).empty()) GTEST_SKIP() << "the tool is built without MPI (-DCGTB_MPI=OFF)";
  temp_dir dir;
  const std::string out = dir.file("t.cgtb");
  struct refusal {
    std::vector<std::string> args;
    std::string line;
  };
  const std::vector<refusal> refusals = {
      {{"build", "octal", "--code", "0.07", "--max-total", "12", "-q", "-o", out},
       "cgtb: error: builds across several MPI ranks are built for the reachable Cram and Domineering tables only"},
      {{"info", out}, "cgtb: error: cgtb info runs as one process, but 3 were started"},
  };
  for (const refusal& f : refusals) {
    const cli_result r = run_cgtb(f.args, "", launcher(3));
    EXPECT_NE(r.code, 0) << describe(r);
    EXPECT_EQ(count_lines_starting(r, f.line), 1u) << describe(r);
    EXPECT_EQ(count_lines_starting(r, "cgtb:"), 1u) << describe(r);
    for (const auto& e : fs::directory_iterator(dir.path())) ADD_FAILURE() << "left " << e.path();
  }
}

TEST(Mpi, ARankBeyondItsMemoryBudgetIsNamedInItsRefusal) {
  if (std::string(CGTB_MPIEXEC).empty()) GTEST_SKIP() << "the tool is built without MPI (-DCGTB_MPI=OFF)";
  temp_dir dir;
  const cli_result r = run_cgtb({"build", "cram", "--board", "5x6", "--values", "normal,misere", "--threads", "1",
                                 "--max-memory", "2M", "-q", "-o", dir.file("t.cgtb")},
                                "", launcher(2));
  EXPECT_EQ(r.code == 0, false) << describe(r);
  // Each rank that meets its budget says so, naming itself and the level.
  std::size_t named = 0, lines = 0;
  for (const std::string& l : r.err_lines()) {
    if (l.rfind("cgtb:", 0) != 0) continue;  // the launcher's own lines
    ++lines;
    named += l.rfind("cgtb: error: rank 0: level ", 0) == 0 || l.rfind("cgtb: error: rank 1: level ", 0) == 0;
  }
  EXPECT_GE(named, 1u) << describe(r);
  EXPECT_EQ(named, lines) << describe(r);
  for (const auto& e : fs::directory_iterator(dir.path())) ADD_FAILURE() << "left " << e.path();
}

}  // namespace
