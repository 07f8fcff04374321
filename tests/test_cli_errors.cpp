// Bad input through the command-line tool: each case must end with exactly one
// line on stderr, starting "cgtb: error:", and a non-zero exit status (never a
// signal, never an answer on stdout). `--help` works on every subcommand.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace {

using cgtb_test::describe;
using cgtb_test::is_clean_error;
using cgtb_test::run_cgtb;

class CliBadInput : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new cgtb_test::temp_dir;
    cgtb_test::build_cram(2, 3, "all", file());
    cgtb_test::build_cram(2, 3, "normal", normal_file());
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string file() { return dir_->file("cram-2x3.cgtb"); }
  static std::string normal_file() { return dir_->file("cram-2x3-normal.cgtb"); }
  static std::string out() { return dir_->file("out.cgtb"); }
  static cgtb_test::temp_dir* dir_;
};
cgtb_test::temp_dir* CliBadInput::dir_ = nullptr;

TEST_F(CliBadInput, ValidQueryAnswers) {
  // The control: the same file and tool answer a good position.
  auto r = run_cgtb({"query", file(), ".../..."});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("genus"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(CliBadInput, MalformedPositionIsOneLineError) {
  for (const std::string p : {"..x/...", ".../..-", "...\\..."}) {
    auto r = run_cgtb({"query", file(), p});
    EXPECT_TRUE(is_clean_refusal(r)) << p;
    EXPECT_NE(r.err.find("unexpected character"), std::string::npos) << r.err;
  }
}

TEST_F(CliBadInput, MalformedPositionOnStdinIsOneLineError) {
  // The answer to line 1 is kept (tests/test_input_strictness.cpp, batches).
  auto r = run_cgtb({"query", file()}, ".../...\n..x/...\n");
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.err.find("line 2: "), std::string::npos) << describe(r);
}

TEST_F(CliBadInput, WrongSizePositionIsOneLineError) {
  for (const std::string p : {"../..", "..../....", ".../.../...", "...", ".../", "......", "", "/"}) {
    auto r = run_cgtb({"query", file(), p});
    EXPECT_TRUE(is_clean_refusal(r)) << "'" << p << "'";
  }
}

// 2 x 3 has an even number of cells: its tablebase holds the even levels
// only, and a position with five empty cells is on none of them.
TEST_F(CliBadInput, PositionOnALevelTheFileLacksIsOneLineError) {
  auto r = run_cgtb({"query", file(), "#../..."});
  EXPECT_TRUE(is_clean_refusal(r));
}

TEST_F(CliBadInput, UnknownRulesetIsOneLineError) {
  auto r = run_cgtb({"build", "chess", "-q", "-o", out()});
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.err.find("unknown ruleset 'chess'"), std::string::npos) << r.err;
}

TEST_F(CliBadInput, BoardOver64CellsIsOneLineError) {
  for (const std::string b : {"9x8", "8x9", "65x1", "1x65", "100x100"}) {
    auto r = run_cgtb({"build", "cram", "--board", b, "-q", "-o", out()});
    EXPECT_TRUE(is_clean_error(r)) << b;
  }
  auto r = run_cgtb({"build", "cram", "--board", "9x8", "-q", "-o", out()});
  EXPECT_NE(r.err.find("64"), std::string::npos) << r.err;
}

TEST_F(CliBadInput, ZeroBoardIsOneLineError) {
  for (const std::string b : {"0x5", "5x0", "0x0"}) {
    auto r = run_cgtb({"build", "cram", "--board", b, "-q", "-o", out()});
    EXPECT_TRUE(is_clean_error(r)) << b;
  }
}

TEST_F(CliBadInput, MalformedBoardIsOneLineError) {
  for (const std::string b : {"4by5", "x5", "4x", "-4x5", "4x5x6", ""}) {
    auto r = run_cgtb({"build", "cram", "--board", b, "-q", "-o", out()});
    EXPECT_TRUE(is_clean_error(r)) << "'" << b << "'";
  }
}

TEST_F(CliBadInput, UnknownValueKindIsOneLineError) {
  // (An empty --values means the game's default, by the driver's contract.)
  for (const std::string v : {"foo", "normal,foo", ",", "normal,,misere"}) {
    auto r = run_cgtb({"build", "cram", "--board", "2x2", "--values", v, "-q", "-o", out()});
    EXPECT_TRUE(is_clean_error(r)) << "'" << v << "'";
  }
  EXPECT_FALSE(cgtb_test::fs::exists(out()));
}

TEST_F(CliBadInput, UnknownBackendIsOneLineError) {
  auto r = run_cgtb({"build", "cram", "--board", "2x2", "--backend", "tpu", "-q", "-o", out()});
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.err.find("tpu"), std::string::npos) << r.err;
}

// Without -q the tool announces the build on stderr before the driver checks
// its request; the error is still one line, the last, and nothing but
// "[cgtb] " progress lines precede it.
TEST_F(CliBadInput, ErrorAfterProgressLinesIsStillOneErrorLine) {
  auto r = run_cgtb({"build", "cram", "--board", "2x2", "--values", "foo", "-o", out()});
  ASSERT_TRUE(r.exited);
  EXPECT_NE(r.code, 0);
  auto lines = r.err_lines();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back().rfind("cgtb: error: ", 0), 0u) << describe(r);
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) EXPECT_EQ(lines[i].rfind("[cgtb] ", 0), 0u) << describe(r);
}

TEST_F(CliBadInput, BadBuildOptionsAreOneLineErrors) {
  const std::vector<std::vector<std::string>> cases = {{"--threads", "-1"},      {"--threads", "abc"},
                                                       {"--block-entries", "1"}, {"--zstd-level", "99"},
                                                       {"--no-such-option"},     {"unexpected-argument"}};
  for (auto args : cases) {
    args.insert(args.begin(), {"build", "cram", "--board", "2x2", "-q", "-o", out()});
    auto r = run_cgtb(args);
    EXPECT_TRUE(is_clean_error(r)) << args[7];
  }
}

TEST_F(CliBadInput, MissingFileIsOneLineError) {
  const std::string missing = dir_->file("no-such-file.cgtb");
  auto q = run_cgtb({"query", missing, ".../..."});
  EXPECT_TRUE(is_clean_refusal(q));
  EXPECT_NE(q.err.find("no-such-file.cgtb"), std::string::npos) << q.err;
  EXPECT_TRUE(is_clean_error(run_cgtb({"info", missing})));
  EXPECT_TRUE(is_clean_error(run_cgtb({"census", missing})));
}

TEST_F(CliBadInput, MissingFileArgumentIsOneLineError) {
  for (const std::string cmd : {"query", "info", "census"}) EXPECT_TRUE(is_clean_error(run_cgtb({cmd}))) << cmd;
}

TEST_F(CliBadInput, FileThatIsNotATablebaseIsOneLineError) {
  const std::string text = dir_->file("text.cgtb");
  cgtb_test::write_bytes(text, "ruleset: cram\nparams: 2x3\nthis is not a tablebase at all, just text\n");
  for (const std::string& path : {text, dir_->path().string()}) {
    EXPECT_TRUE(is_clean_refusal(run_cgtb({"query", path, ".../..."}))) << path;
    EXPECT_TRUE(is_clean_error(run_cgtb({"info", path}))) << path;
    EXPECT_TRUE(is_clean_error(run_cgtb({"census", path}))) << path;
  }
}

TEST_F(CliBadInput, CensusOfATablebaseWithoutGenusIsOneLineError) {
  auto r = run_cgtb({"census", normal_file()});
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(CliBadInput, UnknownCommandIsOneLineError) {
  auto r = run_cgtb({"frobnicate"});
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_NE(r.err.find("frobnicate"), std::string::npos) << r.err;
}

TEST_F(CliBadInput, UnknownQueryOptionIsOneLineError) {
  EXPECT_TRUE(is_clean_refusal(run_cgtb({"query", "--no-such-option", file(), ".../..."})));
}

// ------------------------------------------------------------------- help

TEST(CliHelp, EverySubcommandHasHelpAndExitsZero) {
  const std::vector<std::vector<std::string>> cases = {{"--help"},           {"-h"},
                                                       {"build", "--help"},  {"build", "cram", "--help"},
                                                       {"query", "--help"},  {"info", "--help"},
                                                       {"census", "--help"}, {"verify", "--help"},
                                                       {"export", "--help"}};
  for (const auto& args : cases) {
    auto r = run_cgtb(args);
    std::string what;
    for (const auto& a : args) what += a + " ";
    EXPECT_TRUE(r.exited) << what;
    EXPECT_EQ(r.code, 0) << what << describe(r);
    EXPECT_TRUE(r.err.empty()) << what << describe(r);
    EXPECT_NE(r.out.find("sage"), std::string::npos) << what << describe(r);  // "usage" / "Usage"
  }
}

TEST(CliHelp, VersionNamesTheBackendsAndTheFormatVersions) {
  auto r = run_cgtb({"--version"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(r.out.rfind(cgtb::kBuilderVersion, 0), 0u) << r.out;
  EXPECT_NE(r.out.find(cgtb::cuda_backend_compiled() ? "cpu (OpenMP), cuda" : "cpu (OpenMP)\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("writes version " + std::to_string(cgtb::kFormatVersion)), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reads versions " + std::to_string(cgtb::kOldestFormatVersion)), std::string::npos) << r.out;
}

TEST(CliHelp, BuildHelpListsTheGameOptions) {
  auto r = run_cgtb({"build", "cram", "--help"});
  ASSERT_EQ(r.code, 0);
  for (const std::string opt : {"--board", "--values", "--backend", "--output", "--threads", "--stats"})
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt << "\n" << r.out;
}

}  // namespace

namespace {

// Regressions from a new user's first session with the tool.

TEST(CliNewUser, HugeThreadCountIsRefusedNotACrash) {
  auto r =
      cgtb_test::run_cgtb({"build", "cram", "--board", "2x2", "-q", "--threads", "100000", "-o", "/tmp/never.cgtb"});
  EXPECT_TRUE(cgtb_test::is_clean_error(r));
  EXPECT_NE(r.err.find("--threads"), std::string::npos) << r.err;
}

TEST(CliNewUser, EmptyOutputNameIsRefusedBeforeSolving) {
  auto r = cgtb_test::run_cgtb({"build", "cram", "--board", "2x2", "-o", ""});
  EXPECT_TRUE(cgtb_test::is_clean_error(r));
  EXPECT_EQ(r.err.find("level"), std::string::npos) << "solved before refusing: " << r.err;
}

TEST(CliNewUser, WindowsLineEndingsAndSpacesAroundPositionsAreIgnored) {
  cgtb_test::temp_dir d;
  const std::string f = d.file("c23.cgtb");
  ASSERT_EQ(cgtb_test::run_cgtb({"build", "cram", "--board", "2x3", "-q", "-o", f}).code, 0);
  auto plain = cgtb_test::run_cgtb({"query", f, ".../..."});
  auto crlf = cgtb_test::run_cgtb({"query", f}, "  .../... \r\n");
  ASSERT_EQ(plain.code, 0);
  EXPECT_EQ(crlf.code, 0) << cgtb_test::describe(crlf);
  EXPECT_EQ(plain.out, crlf.out);
}

TEST(CliNewUser, ControlCharactersInAnErrorAreEscapedOnOneLine) {
  cgtb_test::temp_dir d;
  const std::string f = d.file("c23.cgtb");
  ASSERT_EQ(cgtb_test::run_cgtb({"build", "cram", "--board", "2x3", "-q", "-o", f}).code, 0);
  auto r = cgtb_test::run_cgtb({"query", f, "..\x01/..."});
  EXPECT_TRUE(cgtb_test::is_clean_error(r));
  EXPECT_NE(r.err.find("\\x01"), std::string::npos) << r.err;
}

TEST(CliNewUser, TerminatedBuildLeavesNoPartialFile) {
  cgtb_test::temp_dir d;
  const std::string f = d.file("big.cgtb");
  // A 4x6 build of every region takes seconds; SIGTERM it after a moment.
  std::string cmd = "timeout -s TERM 0.5 " + std::string(CGTB_BINARY) +
                    " build cram --board 4x6 --positions all -q -o " + f + " >/dev/null 2>&1";
  (void)std::system(cmd.c_str());
  for (const auto& e : std::filesystem::directory_iterator(d.path())) ADD_FAILURE() << "left behind: " << e.path();
}

// The solver and the conjecture checks choose a backend the same way
// (require_backend): `--backend cuda` where it cannot run — a build without
// the CUDA backend (exit 2), or no device (exit 3) — is the same one-line
// error from both; where it runs, both succeed.
TEST(CliBackend, BuildAndConjectureChecksReportTheCudaBackendAlike) {
  cgtb_test::temp_dir d;
  const auto build = run_cgtb({"build", "cram", "--board", "2x3", "--backend", "cuda", "-q", "-o", d.file("c.cgtb")});
  const auto check = run_cgtb({"conjectures", "subtraction", "-k", "3", "--backend", "cuda"});
  EXPECT_EQ(build.code, check.code) << describe(build) << describe(check);
  if (build.code != 0) {
    EXPECT_TRUE(is_clean_error(build)) << describe(build);
    EXPECT_TRUE(is_clean_error(check)) << describe(check);
    EXPECT_EQ(build.err, check.err);
  }
}

// ---- Rough edges a new user met (each test failed before its fix) ----

/// The text of a file.
std::string text_of(const std::string& path) { return cgtb_test::read_bytes(path); }

TEST(CliRoughEdges, BuildRefusesAFileThatIsNotATablebase) {
  cgtb_test::temp_dir d;
  const std::string notes = d.file("notes.txt");
  cgtb_test::write_bytes(notes, "hello\n");
  auto r = run_cgtb({"build", "cram", "--board", "2x3", "-q", "-o", notes});
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(r, {"is not a cgtb tablebase", "--force replaces it"})) << describe(r);
  EXPECT_NE(r.err.find("output '" + notes + "' exists"), std::string::npos) << r.err;
  EXPECT_EQ(text_of(notes), "hello\n");
  for (const auto& e : std::filesystem::directory_iterator(d.path()))
    EXPECT_EQ(e.path().filename(), "notes.txt") << "left behind: " << e.path();
}

TEST(CliRoughEdges, BuildRefusesATablebaseAndSaysWhichUnlessForced) {
  cgtb_test::temp_dir d;
  const std::string f = d.file("t.cgtb");
  ASSERT_EQ(run_cgtb({"build", "cram", "--board", "2x3", "-q", "-o", f}).code, 0);
  const std::string before = text_of(f);
  auto r = run_cgtb({"build", "cram", "--board", "2x2", "-q", "-o", f});
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(r, {"is a cgtb tablebase of cram 2x3", "--force replaces it"}))
      << describe(r);
  EXPECT_EQ(text_of(f), before);
  // --resume continues a build's own partial files, never an existing table.
  r = run_cgtb({"build", "cram", "--board", "2x2", "-q", "--resume", "-o", f});
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(r, {"is a cgtb tablebase of cram 2x3"})) << describe(r);
  r = run_cgtb({"build", "cram", "--board", "2x2", "-q", "--force", "-o", f});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(text_of(f), before);
  r = run_cgtb({"info", f});
  EXPECT_NE(r.out.find("2x2"), std::string::npos) << r.out;
}

TEST(CliRoughEdges, QueryCapsALongLineAndSkipsItUnread) {
  cgtb_test::temp_dir d;
  const std::string f = d.file("c.cgtb");
  ASSERT_EQ(run_cgtb({"build", "cram", "--board", "2x3", "-q", "-o", f}).code, 0);
  const std::string huge(3u << 20, '.');  // 3 MB: far past the 100,000 characters read
  auto r = run_cgtb({"query", f}, ".../...\n" + huge + "\n");
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(r, {"line 2: position is longer than 100000 characters"}))
      << describe(r).substr(0, 2000);
  EXPECT_NE(r.out.find(".../..."), std::string::npos) << "the line before is answered";
  // With --keep-going the line after it is read as its own line.
  r = run_cgtb({"query", "--keep-going", f}, huge + "\n.../...\n");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find(".../..."), std::string::npos) << describe(r).substr(0, 2000);
}

TEST(CliRoughEdges, KeepGoingAnswersTheGoodLinesAndNamesEachBadOne) {
  cgtb_test::temp_dir d;
  const std::string f = d.file("c.cgtb");
  ASSERT_EQ(run_cgtb({"build", "cram", "--board", "2x3", "-q", "-o", f}).code, 0);
  auto r = run_cgtb({"query", "--keep-going", "--json", f}, ".../...\nxyz\n#../#..\n...\n");
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(r.code, 2) << describe(r);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 2) << r.out;
  const auto lines = r.err_lines();
  ASSERT_EQ(lines.size(), 3u) << r.err;
  EXPECT_EQ(lines[0].rfind("cgtb: error: line 2: ", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("cgtb: error: line 4: ", 0), 0u) << lines[1];
  EXPECT_NE(lines[2].find("2 of 4 positions"), std::string::npos) << lines[2];
  // Without it the batch stops at its first bad line, as before.
  r = run_cgtb({"query", "--json", f}, ".../...\nxyz\n#../#..\n");
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(r, {"line 2: "}));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

TEST(CliRoughEdges, MaxMovesCutsTheListsAndSaysHowManyAreLeftOut) {
  cgtb_test::temp_dir d;
  const std::string f = d.file("c.cgtb");
  ASSERT_EQ(run_cgtb({"build", "cram", "--board", "3x4", "--values", "normal", "-q", "-o", f}).code, 0);
  const std::string empty = "..../..../....";
  const auto all = run_cgtb({"query", "--json", f, empty});
  ASSERT_EQ(all.code, 0) << describe(all);
  const std::size_t wins = static_cast<std::size_t>(std::count(all.out.begin(), all.out.end(), '-'));  // "a1-b1"
  ASSERT_GT(wins, 2u) << all.out;
  auto r = run_cgtb({"query", "--json", "--max-moves", "2", f, empty});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("\"normal_winning_moves_left_out\":" + std::to_string(wins - 2)), std::string::npos) << r.out;
  r = run_cgtb({"query", "--max-moves", "2", f, empty});
  EXPECT_NE(r.out.find("(and " + std::to_string(wins - 2) + " more)"), std::string::npos) << r.out;
  r = run_cgtb({"query", "--no-moves", f, empty});
  EXPECT_NE(r.out.find("(" + std::to_string(wins) + " not listed)"), std::string::npos) << r.out;
  // --options: 17 options of the empty 3x4 board, 3 listed.
  r = run_cgtb({"query", "--options", "--max-moves", "3", f, empty});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5) << r.out;
  EXPECT_NE(r.out.find("(14 more not listed)"), std::string::npos) << r.out;
  r = run_cgtb({"query", "--options", "--json", "--no-moves", f, empty});
  EXPECT_NE(r.out.find("\"options\":[],\"options_left_out\":17"), std::string::npos) << r.out;
  r = run_cgtb({"query", "--max-moves", "1", "--no-moves", f, empty});
  EXPECT_TRUE(is_clean_error(r)) << describe(r);
}

TEST_F(CliBadInput, TrailingSlashOnANonSquareBoardIsAnEmptyRow) {
  // 2x3: text of three rows could be the board turned a quarter, but its
  // first row is the table's, and its fault the empty last row.
  auto r = run_cgtb({"query", file(), ".../.../"});
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(r, {"row 3 is empty"})) << describe(r);
  EXPECT_EQ(r.err.find("turned a quarter"), std::string::npos) << r.err;
  r = run_cgtb({"query", file(), ".../.../..."});  // too many rows: still the old message
  EXPECT_TRUE(is_clean_refusal(r)) << describe(r);
  r = run_cgtb({"query", file(), "../../"});  // the turned board: its own empty row
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(r, {"row 3 is empty"})) << describe(r);
}

TEST(CliRoughEdges, AHeapOfTwentyDigitsIsTooLarge) {
  cgtb_test::temp_dir d;
  const std::string f = d.file("o.cgtb");
  ASSERT_EQ(run_cgtb({"build", "octal", "--code", "0.07", "--max-heap", "40", "-q", "-o", f}).code, 0);
  auto r = run_cgtb({"query", f, "123456789012345678901"});
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(r, {"heap 123456789012345678901 is above the table's largest heap 40"}))
      << describe(r);
  r = run_cgtb({"query", f, "3 00000000000000000000007"});  // leading zeros: heap 7
  EXPECT_EQ(r.code, 0) << describe(r);
}

TEST(CliRoughEdges, MemoryBeyondTerabytesIsInPetabytes) {
  cgtb_test::temp_dir d;
  auto r = run_cgtb({"build", "cram", "--board", "8x8", "-q", "-o", d.file("c.cgtb")});
  EXPECT_TRUE(r.exited);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find(" PB"), std::string::npos) << describe(r);
  EXPECT_EQ(r.err.find("000.00 GB"), std::string::npos) << describe(r);
}

/// Runs `cgtb build ARGS` and sends it `sig` once its partial file is there;
/// returns its stderr and exit status as the shell sees it (128 + signal).
std::pair<std::string, int> interrupted_build(const cgtb_test::temp_dir& d, const std::string& args, int sig) {
  const std::string err = d.file("err");
  const std::string cmd = std::string(CGTB_BINARY) + " build " + args + " -q -o " + d.file("big.cgtb") + " 2>" + err +
                          " & pid=$!; for i in $(seq 200); do ls " + d.file("big.cgtb.partial-") +
                          "* >/dev/null 2>&1 && break; sleep 0.05; done; sleep 0.3; kill -" + std::to_string(sig) +
                          " $pid; wait $pid";
  const int status = std::system(("bash -c " + cgtb_test::shell_quote(cmd)).c_str());
  return {text_of(err), WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

TEST(CliRoughEdges, AnInterruptedBuildSaysWhatItRemoved) {
  cgtb_test::temp_dir d;
  const auto [err, code] = interrupted_build(d, "cram --board 4x6 --positions all", SIGINT);
  EXPECT_EQ(code, 130) << err;
  EXPECT_NE(err.find("[cgtb] interrupted: removed the partial file '" + d.file("big.cgtb.partial-")), std::string::npos)
      << err;
  for (const auto& e : std::filesystem::directory_iterator(d.path()))
    if (e.path().filename() != "err") ADD_FAILURE() << "left behind: " << e.path();
}

TEST(CliRoughEdges, AnInterruptedResumableBuildSaysWhatItKept) {
  cgtb_test::temp_dir d;
  const auto [err, code] = interrupted_build(d, "cram --board 4x6 --positions all --resume", SIGTERM);
  EXPECT_EQ(code, 128 + SIGTERM) << err;
  EXPECT_NE(err.find("[cgtb] interrupted: the partial file '"), std::string::npos) << err;
  EXPECT_NE(err.find("--resume"), std::string::npos) << err;
  bool partial = false;
  for (const auto& e : std::filesystem::directory_iterator(d.path()))
    partial = partial || e.path().filename().string().rfind("big.cgtb.partial-", 0) == 0;
  EXPECT_TRUE(partial) << "the partial file is kept for --resume";
}

TEST(CliRoughEdges, DomineeringOptionsNameTheirClasses) {
  cgtb_test::temp_dir d;
  const std::string f = d.file("d.cgtb");
  ASSERT_EQ(run_cgtb({"build", "domineering", "--board", "2x3", "-q", "-o", f}).code, 0);
  auto r = run_cgtb({"query", "--options", f, ".../..."});
  ASSERT_EQ(r.code, 0) << describe(r);
  const auto json = run_cgtb({"query", "--options", "--json", f, ".../..."});
  // Every option of the text names the classes /api/options gives.
  const std::size_t listed = static_cast<std::size_t>(std::count(json.out.begin(), json.out.end(), '{')) - 1;
  std::size_t shown = 0;
  for (std::size_t at = 0; (at = r.out.find("(normal ", at)) != std::string::npos; ++at) ++shown;
  EXPECT_EQ(shown, listed) << r.out << json.out;
  EXPECT_NE(r.out.find(", misere "), std::string::npos) << r.out;
}

TEST(CliRoughEdges, UnknownBuildOptionIsNamedAsTyped) {
  auto r = run_cgtb({"build", "cram", "--bord", "4x5", "-q", "-o", "/tmp/never.cgtb"});
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(r, {"unknown option '--bord'", "cgtb build cram --help"}))
      << describe(r);
}

}  // namespace
