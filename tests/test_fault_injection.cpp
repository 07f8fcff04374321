// Fault injection through the real cgtb binary: the file-size limit or a full
// file system hit mid-write, an unwritable output folder, an output path that
// is a symbolic link (or a folder, a device, a FIFO), a build killed with
// SIGKILL, and a tablebase truncated or rewritten while a query process has it
// open. In every case: one line on stderr, a non-zero exit (never a signal),
// no file under the final name unless it is complete and valid, and nothing
// else in the folder changed. docs/reliability.md ("Fault injection") lists
// the cases. Resuming a killed build is tests/test_resume.cpp.
#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cgtb/driver.hpp"
#include "cgtb/tablebase.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using cgtb_test::cgtb_process;
using cgtb_test::describe;
using cgtb_test::folder_state;
using cgtb_test::is_clean_error;
using cgtb_test::run_cgtb;

/// A folder with a bystander file in it, so that "nothing else changed" has
/// something to check.
struct output_folder {
  cgtb_test::temp_dir dir;
  output_folder() { cgtb_test::write_bytes(dir.file("bystander.txt"), "not to be touched\n"); }
  std::string file(const std::string& name) const { return dir.file(name); }
  std::string path() const { return dir.path().string(); }
};

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> v;
  for (const auto& e : fs::directory_iterator(dir)) v.push_back(e.path().filename().string());
  std::sort(v.begin(), v.end());
  return v;
}

// ------------------------------------------------------------ write failures

void limit_file_size_to_64k() {
  struct rlimit lim = {64 * 1024, 64 * 1024};
  ::setrlimit(RLIMIT_FSIZE, &lim);
  ::signal(SIGXFSZ, SIG_IGN);  // writes past the limit fail with EFBIG instead of killing
}

TEST(FaultInjection, FileSizeLimitHitMidWriteIsOneLineErrorAndLeavesNothing) {
  output_folder d;
  const auto before = folder_state(d.path());
  // Cram 5x5 writes about 220 KB: the limit is hit in the middle of the file.
  cgtb_process p({"build", "cram", "--board", "5x5", "-q", "-o", d.file("out.cgtb")}, limit_file_size_to_64k);
  auto r = p.finish();
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << describe(r);
  EXPECT_EQ(folder_state(d.path()), before) << "no out.cgtb, no partial file, the bystander untouched";
}

TEST(FaultInjection, WriteFailureOnTheLevelPipelineThreadIsOneLineErrorAndLeavesNothing) {
  // Every region of 5x5: levels of over 65,536 positions are written on the
  // solver's level pipeline thread while the next levels solve; the limit is
  // hit there, and the error must end the build as one from the solving
  // thread would.
  output_folder d;
  const auto before = folder_state(d.path());
  cgtb_process p({"build", "cram", "--board", "5x5", "--positions", "all", "-q", "-o", d.file("out.cgtb")},
                 limit_file_size_to_64k);
  auto r = p.finish();
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << describe(r);
  EXPECT_EQ(folder_state(d.path()), before) << "no out.cgtb, no partial file, the bystander untouched";
}

TEST(FaultInjection, FullFileSystemIsOneLineErrorAndLeavesNothing) {
  // A 64 KB tmpfs mounted in a private mount namespace (unshare -rm): where
  // the test may not mount one, it is skipped.
  if (std::system("command -v unshare >/dev/null 2>&1") != 0) GTEST_SKIP() << "no unshare: cannot mount a small tmpfs";
  cgtb_test::temp_dir d;
  const std::string mnt = d.file("mnt"), io = d.path().string();
  fs::create_directory(mnt);
  // Inside the namespace: mount, put a bystander file, list, build, list again.
  const std::string script =
      "mount -t tmpfs -o size=64k tmpfs \"$1\" 2>/dev/null || exit 99; cd \"$1\" || exit 98; "
      "echo 'not to be touched' > bystander.txt; ls -lA --time-style=full-iso > \"$3/before\"; "
      "\"$2\" build cram --board 5x5 -q -o \"$1/out.cgtb\" >\"$3/out\" 2>\"$3/err\"; echo $? > \"$3/rc\"; "
      "ls -lA --time-style=full-iso > \"$3/after\"; cat bystander.txt > \"$3/bystander\"";
  const std::string cmd = "unshare -rm sh -c " + cgtb_test::shell_quote(script) + " sh " + cgtb_test::shell_quote(mnt) +
                          " " + cgtb_test::shell_quote(CGTB_BINARY) + " " + cgtb_test::shell_quote(io) +
                          " >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !fs::exists(d.file("rc")))
    GTEST_SKIP() << "cannot mount a tmpfs in a private namespace here (unshare -rm exit status " << status << ")";
  cgtb_test::cli_result r;
  r.exited = true;
  r.code = std::atoi(cgtb_test::read_bytes(d.file("rc")).c_str());
  r.out = cgtb_test::read_bytes(d.file("out"));
  r.err = cgtb_test::read_bytes(d.file("err"));
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << describe(r);
  EXPECT_EQ(cgtb_test::read_bytes(d.file("after")), cgtb_test::read_bytes(d.file("before")))
      << "no out.cgtb, no partial file, the bystander untouched";
  EXPECT_EQ(cgtb_test::read_bytes(d.file("bystander")), "not to be touched\n");
}

/// Runs the child as user nobody when the test runs as root (root writes
/// into any folder, whatever its mode).
void drop_root() {
  if (::geteuid() != 0) return;
  ::setgroups(0, nullptr);
  if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(125);
}

TEST(FaultInjection, UnwritableOutputFolderIsOneLineError) {
  output_folder d;
  const std::string sub = d.file("read-only");
  fs::create_directory(sub);
  cgtb_test::write_bytes(sub + "/bystander.txt", "not to be touched\n");
  ::chmod(d.path().c_str(), 0755);  // nobody may pass through to the folder, not write in it
  ::chmod(sub.c_str(), 0555);
  const auto before = folder_state(sub);
  cgtb_process p({"build", "cram", "--board", "3x4", "-q", "-o", sub + "/out.cgtb"}, drop_root);
  auto r = p.finish();
  if (r.exited && r.code == 125) GTEST_SKIP() << "cannot drop root privileges to test an unwritable folder";
  if (r.exited && r.code == 0 && fs::exists(sub + "/out.cgtb"))
    GTEST_SKIP() << "this process may write into a folder of mode 0555 (permissions are not enforced here)";
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.err.find("Permission denied"), std::string::npos) << describe(r);
  EXPECT_EQ(folder_state(sub), before);
  ::chmod(sub.c_str(), 0755);
}

// ------------------------------------------------------- what -o points at

TEST(FaultInjection, OutputOntoASymbolicLinkIsRefusedAndTheLinkKept) {
  output_folder d;
  cgtb_test::write_bytes(d.file("target.cgtb"), "the link's target, not to be replaced\n");
  fs::create_symlink("target.cgtb", d.file("link.cgtb"));
  fs::create_symlink("nowhere.cgtb", d.file("dangling.cgtb"));
  const auto before = folder_state(d.path());
  for (const std::string name : {"link.cgtb", "dangling.cgtb"}) {
    // Without -q: refused before any level is solved, in one line.
    auto r = run_cgtb({"build", "cram", "--board", "3x4", "-o", d.file(name)});
    EXPECT_TRUE(is_clean_error(r)) << name;
    EXPECT_NE(r.err.find("symbolic link"), std::string::npos) << describe(r);
    EXPECT_EQ(folder_state(d.path()), before) << name;
  }
  EXPECT_EQ(cgtb_test::read_bytes(d.file("target.cgtb")), "the link's target, not to be replaced\n");
  EXPECT_EQ(fs::read_symlink(d.file("link.cgtb")), "target.cgtb");
  EXPECT_FALSE(fs::exists(d.file("nowhere.cgtb")));
}

TEST(FaultInjection, SymbolicLinksAmongTheFoldersOfTheOutputPathAreFollowed) {
  output_folder d;
  fs::create_directory(d.file("real"));
  fs::create_directory_symlink("real", d.file("via"));
  auto r = run_cgtb({"build", "cram", "--board", "3x4", "-q", "-o", d.file("via") + "/out.cgtb"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_TRUE(fs::is_regular_file(d.file("real") + "/out.cgtb"));
  EXPECT_TRUE(fs::is_symlink(d.file("via")));
  EXPECT_EQ(run_cgtb({"info", d.file("real") + "/out.cgtb"}).code, 0);
}

TEST(FaultInjection, OutputOntoAFolderADeviceOrAFifoIsRefused) {
  output_folder d;
  fs::create_directory(d.file("folder.cgtb"));
  ASSERT_EQ(::mkfifo(d.file("fifo.cgtb").c_str(), 0644), 0);
  const auto before = folder_state(d.path());
  for (const std::string& out : {d.file("folder.cgtb"), d.file("fifo.cgtb"), std::string("/dev/null")}) {
    auto r = run_cgtb({"build", "cram", "--board", "3x4", "-o", out});
    EXPECT_TRUE(is_clean_error(r)) << out;
    EXPECT_EQ(folder_state(d.path()), before) << out;
  }
  struct stat st;
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null was replaced";
}

// ------------------------------------------------------------------ SIGKILL

TEST(FaultInjection, BuildKilledMidWriteLeavesOnlyAPartialFileThatNoCommandReads) {
  output_folder d;
  const std::string out = d.file("k.cgtb");
  // Cram 4x6, every region: about 9 MB written over a second or more. Kill it
  // once its partial file holds 64 KB (levels written, the build not done).
  cgtb_process p({"build", "cram", "--board", "4x6", "--positions", "all", "-q", "-o", out});
  // The build's partial file: k.cgtb.partial-HASH, named by its header.
  std::string partial;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  std::error_code ec;
  while (std::chrono::steady_clock::now() < until && !fs::exists(out) &&
         !(!partial.empty() && fs::file_size(partial, ec) > 64 * 1024)) {
    for (const auto& e : fs::directory_iterator(d.path(), ec))
      if (e.path().filename().string().rfind("k.cgtb.partial-", 0) == 0) partial = e.path().string();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_EQ(::kill(p.pid(), SIGKILL), 0);
  auto killed = p.finish();
  ASSERT_FALSE(killed.exited) << "the build finished before it could be killed: " << describe(killed);
  ASSERT_FALSE(partial.empty());
  const std::string partial_name = fs::path(partial).filename().string();
  EXPECT_EQ(names_in(d.path()), (std::vector<std::string>{"bystander.txt", partial_name}));
  // The final name does not exist; the partial file has no index: both refused.
  const auto left = folder_state(d.path());
  for (const std::string& f : {out, partial}) {
    auto i = run_cgtb({"info", f});
    EXPECT_TRUE(is_clean_error(i)) << f;
    auto q = run_cgtb({"query", f, "....../....../....../......"});
    EXPECT_TRUE(is_clean_error(q)) << f;
    EXPECT_TRUE(q.out.empty()) << describe(q);
  }
  EXPECT_NE(run_cgtb({"info", partial}).err.find("unfinished"), std::string::npos);
  EXPECT_EQ(folder_state(d.path()), left);
  // A new build of the same file succeeds: it is the same build (same
  // header), so it writes anew under the dead build's partial name and
  // renames it into place; `--resume` continuing a killed build:
  // tests/test_resume.cpp.
  auto again = run_cgtb({"build", "cram", "--board", "4x6", "--positions", "all", "-q", "-o", out});
  ASSERT_EQ(again.code, 0) << describe(again);
  EXPECT_EQ(run_cgtb({"info", out}).code, 0);
  EXPECT_EQ(names_in(d.path()), (std::vector<std::string>{"bystander.txt", "k.cgtb"}));
}

// ---------------------------------------------- a file changed while open

/// A Cram 4x5 table of every region, normal values (4096 positions per block,
/// 46 blocks on level 10), and a position on its top level: querying it reads
/// no block of level 10 or the level below it.
class FaultInjectionChangedWhileOpen : public ::testing::Test {
 protected:
  void SetUp() override {
    auto r =
        run_cgtb({"build", "cram", "--board", "4x5", "--positions", "all", "--values", "normal", "-q", "-o", file()});
    ASSERT_EQ(r.code, 0) << describe(r);
  }
  std::string file() const { return dir_.file("c45.cgtb"); }
  static constexpr const char* kTop = "...../...../...../.....";  // level 20 (and its options, level 18)
  cgtb_test::temp_dir dir_;
};

TEST_F(FaultInjectionChangedWhileOpen, TruncatedFileGivesOneLineErrorNotACrashOrAWrongValue) {
  // The reader reads blocks with pread (no mmap, so no SIGBUS when the file
  // shrinks): a block past the new end is "truncated", one already read and
  // checked is answered from the cache.
  const std::string low = "#####/#####/...../.....";  // level 10
  const std::string low_answer = run_cgtb({"query", file(), "--json", low}).out;
  ASSERT_FALSE(low_answer.empty());
  cgtb_process p({"query", file(), "--json", "--flush"});
  std::string first, again;
  ASSERT_TRUE(p.send(std::string(kTop) + "\n"));
  ASSERT_TRUE(p.read_line(first)) << "no answer";
  ASSERT_EQ(::truncate(file().c_str(), 4096), 0);
  ASSERT_TRUE(p.send(std::string(kTop) + "\n"));
  ASSERT_TRUE(p.read_line(again));
  EXPECT_EQ(again, first) << "a cached, checked block answers as before";
  p.send(low + "\n");
  auto r = p.finish();
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.err.find("line 3: "), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("truncated"), std::string::npos) << describe(r);
  EXPECT_TRUE(r.out.empty()) << "no answer for the position whose block is gone: " << describe(r);
  EXPECT_EQ(names_in(dir_.path().string()), std::vector<std::string>{"c45.cgtb"});
}

TEST_F(FaultInjectionChangedWhileOpen, BlockRewrittenInPlaceGivesOneLineErrorNotAWrongValue) {
  // Rewrite block Y of level 10 in place, while a query holds the file open,
  // with block X of the same level: X's own compressed bytes, padded to Y's
  // size with a zstd skippable frame, so that Y still decompresses to a block
  // of the right size, with X's values. Only Y's checksum tells them apart.
  std::uint64_t x = 0, y = 0;
  std::string position, true_answer;
  {
    cgtb::tablebase tb(file(), 0);
    const cgtb::level_entry* lv = tb.find_level(10);
    ASSERT_NE(lv, nullptr);
    auto drv = cgtb::driver_for_header(tb.header());
    bool found = false;
    for (std::uint64_t b = lv->first_block; b + 1 < lv->first_block + lv->blocks && !found; ++b)
      for (std::uint64_t c = lv->first_block; c < lv->first_block + lv->blocks && !found; ++c) {
        const auto &bx = tb.blocks()[b], &by = tb.blocks()[c];
        if (b == c || bx.raw_size != by.raw_size || by.compressed_size < bx.compressed_size + 8) continue;
        const auto dx = tb.read_block(b), dy = tb.read_block(c);
        if (dx.count != dy.count) continue;
        for (std::uint32_t i = 0; i < dy.count && !found; ++i)
          if (dx.get(i, 0) != dy.get(i, 0)) {
            x = b, y = c, found = true;
            position = drv->format(10, dy.first + i);
          }
      }
    ASSERT_TRUE(found) << "no pair of blocks to swap";
  }
  true_answer = run_cgtb({"query", file(), "--json", position}).out;
  ASSERT_FALSE(true_answer.empty());
  cgtb_process p({"query", file(), "--json", "--flush"});
  std::string first;
  ASSERT_TRUE(p.send(std::string(kTop) + "\n"));
  ASSERT_TRUE(p.read_line(first));
  {
    cgtb::tablebase tb(file(), 0);
    const auto &bx = tb.blocks()[x], &by = tb.blocks()[y];
    std::string bytes = cgtb_test::read_bytes(file()).substr(bx.offset, bx.compressed_size);
    const std::uint32_t pad = by.compressed_size - bx.compressed_size - 8;
    for (std::uint32_t v : {0x184D2A50u, pad})
      for (int k = 0; k < 4; ++k) bytes += static_cast<char>((v >> (8 * k)) & 0xff);
    bytes.append(pad, '\0');
    const int fd = ::open(file().c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(by.offset)),
              static_cast<ssize_t>(bytes.size()));
    ::close(fd);
    std::string check(by.raw_size + 16, '\0');
    ASSERT_EQ(ZSTD_decompress(check.data(), check.size(), bytes.data(), bytes.size()), by.raw_size)
        << "the rewritten block must decompress, so that only its checksum catches it";
  }
  ASSERT_TRUE(p.send(position + "\n"));
  auto r = p.finish();
  EXPECT_TRUE(is_clean_error(r)) << "position " << position << ", true answer " << true_answer;
  EXPECT_NE(r.err.find("line 2: "), std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("checksum mismatch"), std::string::npos) << describe(r);
  EXPECT_TRUE(r.out.empty() || r.out == true_answer) << "a wrong value: " << r.out << " (true: " << true_answer << ")";
}

}  // namespace
