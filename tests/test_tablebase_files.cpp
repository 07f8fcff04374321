// How tablebase files come into being: written under a temporary name and
// renamed only when complete (docs/format.md), and identical bytes for
// identical builds whatever the number of threads.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
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
// FILE.partial-PID, which finish() renames.
TEST(AtomicWrite, FileAppearsOnlyWhenTheWriterFinishes) {
  cgtb_test::temp_dir dir;
  const std::string path = dir.file("t.cgtb");
  const std::string partial = path + ".partial-" + std::to_string(getpid());
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
  cgtb_test::temp_dir dir;
  std::vector<std::string> files;
  for (const char* threads : {"1", "2", "2"}) {
    files.push_back(dir.file(std::string("t") + threads + "-" + std::to_string(files.size()) + ".cgtb"));
    auto r = run_cgtb(
        {"build", "cram", "--board", "4x4", "--threads", threads, "--block-entries", "64", "-q", "-o", files.back()});
    ASSERT_EQ(r.code, 0) << describe(r);
  }
  const std::string first = cgtb_test::read_bytes(files[0]);
  EXPECT_GT(first.size(), 1000u);
  for (std::size_t i = 1; i < files.size(); ++i)
    EXPECT_TRUE(cgtb_test::read_bytes(files[i]) == first) << files[i] << " differs from " << files[0];
  cgtb::tablebase tb(files[0]);
  EXPECT_GT(tb.blocks().size(), 256u);
}

// The library path (no tool) gives the same bytes as the tool.
TEST(Determinism, LibraryBuildEqualsToolBuild) {
  cgtb_test::temp_dir dir;
  const std::string a = dir.file("a.cgtb"), b = dir.file("b.cgtb");
  cgtb_test::build_cram(3, 4, "all", a);
  auto r = run_cgtb({"build", "cram", "--board", "3x4", "--values", "all", "-q", "-o", b});
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
