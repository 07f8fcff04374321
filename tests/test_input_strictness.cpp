// Lenient inputs that used to be accepted or misreported, each refused with
// one line on stderr: doubled or dangling operators and separators in
// positions, a repeated option, negative numbers, bytes that are not UTF-8,
// extra file arguments. And batch queries: a bad line keeps the answers
// already computed and is named by its number.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using cgtb_test::describe;
using cgtb_test::is_clean_error;
using cgtb_test::run_cgtb;

class InputStrictness : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new cgtb_test::temp_dir;
    cgtb_test::build_cram(2, 3, "all", cram());
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"octal", "--code", "0.07", "--max-total", "12", "-o", octal()},
                                               {"octal", "--code", "0.07", "--max-heap", "30", "-o", sequence()},
                                               {"scoring-sum", "--op", "selective", "--left", "123:123", "--right",
                                                "123:123", "--max", "8", "-o", selective()}}) {
      std::vector<std::string> a = {"build"};
      a.insert(a.end(), args.begin(), args.end());
      a.push_back("-q");
      auto r = run_cgtb(a);
      ASSERT_EQ(r.code, 0) << describe(r);
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string cram() { return dir_->file("cram-2x3.cgtb"); }
  static std::string octal() { return dir_->file("octal.cgtb"); }
  static std::string sequence() { return dir_->file("sequence.cgtb"); }
  static std::string selective() { return dir_->file("selective.cgtb"); }
  static cgtb_test::temp_dir* dir_;
};
cgtb_test::temp_dir* InputStrictness::dir_ = nullptr;

TEST_F(InputStrictness, SelectiveSumRefusesDoubledOrDanglingOperators) {
  for (const std::string p : {"5v3", "5 v 3", "5V3", "5\u25BD3"})
    EXPECT_EQ(run_cgtb({"query", selective(), p}).code, 0) << p;
  for (const std::string p : {"5vv3", "5v v3", "5v", "v5", "5,,3", "5v,3", ",5v3", "5v3,", "5v3v"}) {
    auto r = run_cgtb({"query", selective(), p});
    EXPECT_TRUE(is_clean_refusal(r)) << p;
  }
  EXPECT_NE(run_cgtb({"query", selective(), "5vv3"}).err.find("without a heap"), std::string::npos);
}

TEST_F(InputStrictness, OctalHeapListRefusesEmptyAndDoubledOrDanglingSeparators) {
  for (const std::string& f : {octal(), sequence()}) {
    for (const std::string p : {"3 5", "3,5", "3+5", "3 , 5", "0", "7"})
      EXPECT_EQ(run_cgtb({"query", f, p}).code, 0) << f << " '" << p << "'";
    for (const std::string p : {"3,,5", "3+", "", " ", "+3", ",3", "3,", "3 + + 5", "3,+5"})
      EXPECT_TRUE(is_clean_refusal(run_cgtb({"query", f, p}))) << f << " '" << p << "'";
    // The same on stdin, where a blank line is skipped, not read as a position.
    auto r = run_cgtb({"query", f}, "3,,5\n");
    EXPECT_TRUE(is_clean_refusal(r)) << f;
  }
}

TEST_F(InputStrictness, UnknownOptionIsNamedAsTypedWithWhereTheOptionsAreListed) {
  const std::string out = dir_->file("never.cgtb");
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(run_cgtb({"build", "cram", "--bord", "3x3", "-q", "-o", out}),
                                               {"unknown option '--bord'", "'cgtb build cram --help'"}));
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(run_cgtb({"query", cram(), "-z", ".../..."}),
                                               {"unknown option '-z'", "'cgtb query --help'"}));
  // Other cxxopts messages come with ASCII quotes and a lower-case start.
  auto r = run_cgtb({"query", cram(), "--cache-mb", "lots", ".../..."});
  EXPECT_TRUE(cgtb_test::is_clean_error(r)) << describe(r);
  EXPECT_EQ(r.err.find("\u2018"), std::string::npos) << describe(r);
  EXPECT_FALSE(cgtb_test::fs::exists(out));
}

TEST_F(InputStrictness, RepeatedOptionIsRefused) {
  const std::string out = dir_->file("never.cgtb");
  const std::vector<std::vector<std::string>> cases = {
      {"build", "cram", "--board", "3x3", "--board", "4x4", "-q", "-o", out},
      {"build", "cram", "--board", "3x3", "--values", "normal", "--values", "all", "-q", "-o", out},
      {"build", "cram", "--board", "3x3", "-q", "-o", out, "-o", out + "2"},
      {"build", "octal", "--max-total", "5", "--max-total", "6", "-q", "-o", out},
      {"plan", "cram", "--board", "3x3", "--board", "4x4"},
      {"query", cram(), "--cache-mb", "1", "--cache-mb", "2", ".../..."}};
  for (const auto& args : cases) {
    auto r = run_cgtb(args);
    EXPECT_TRUE(is_clean_refusal(r)) << args[0] << " " << args[1] << " " << args[3];
    EXPECT_NE(r.err.find("more than once"), std::string::npos) << describe(r);
  }
  EXPECT_FALSE(cgtb_test::fs::exists(out));
  EXPECT_NE(run_cgtb(cases[0]).err.find("--board"), std::string::npos);
}

TEST_F(InputStrictness, NegativeNumbersAreCalledNegativeNotMissingOptions) {
  const std::vector<std::vector<std::string>> cases = {{"query", sequence(), "-3"},
                                                       {"query", octal(), "-3"},
                                                       {"query", octal(), "5", "-3"},
                                                       {"query", selective(), "-5v3"},
                                                       {"build", "octal", "--max-heap", "-5", "-q"},
                                                       {"build", "octal", "--max-total", "-5", "-q"}};
  for (const auto& args : cases) {
    auto r = run_cgtb(args);
    EXPECT_TRUE(is_clean_refusal(r)) << args[2];
    EXPECT_NE(r.err.find("negative"), std::string::npos) << describe(r);
    EXPECT_EQ(r.err.find("does not exist"), std::string::npos) << describe(r);
  }
  // On stdin the position reaches the game's parser.
  for (const std::string& f : {octal(), selective()}) {
    auto r = run_cgtb({"query", f}, "-3\n");
    EXPECT_TRUE(is_clean_refusal(r)) << f;
    EXPECT_NE(r.err.find("negative"), std::string::npos) << describe(r);
  }
}

/// True when `s` is well-formed UTF-8.
bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    std::uint32_t cp = n == 1 ? c : c & (0x7Fu >> n);
    for (std::size_t k = 1; k < n; ++k) {
      const unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3Fu);
    }
    const std::uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n;
  }
  return true;
}

TEST_F(InputStrictness, ErrorMessagesAreValidUtf8WhateverBytesTheInputHeld) {
  const std::vector<std::string> inputs = {
      "..\xff/...",                                // a byte that is never UTF-8
      "..\xc3",                                    // a character cut short
      "\xc0\xaf../...",                            // an overlong '/'
      "\xed\xa0\x80../...",                        // a surrogate
      "\x80\x80\x80",                              // continuation bytes alone
      std::string(298, '.') + "\xc3\xa9\xc3\xa9",  // a character where the message is cut
      std::string(299, '\xe2'),                    // many lead bytes
  };
  for (const auto& in : inputs) {
    for (const auto& r : {run_cgtb({"query", cram(), in}), run_cgtb({"query", cram()}, in + "\n"),
                          run_cgtb({"build", "cram", "--board", in, "-q"}), run_cgtb({in})}) {
      EXPECT_TRUE(is_clean_error(r)) << describe(r);
      EXPECT_TRUE(valid_utf8(r.err)) << "not UTF-8: " << describe(r);
    }
  }
  auto r = run_cgtb({"query", cram(), "..\xff/..."});
  EXPECT_NE(r.err.find("\\xff"), std::string::npos) << r.err;
  // Valid UTF-8 passes through as it is.
  auto e = run_cgtb({"query", cram(), "..\xc3\xa9/..."});
  EXPECT_TRUE(is_clean_error(e));
  EXPECT_NE(e.err.find("\xc3\xa9"), std::string::npos) << e.err;
}

TEST_F(InputStrictness, ExtraFileArgumentsAreRefusedNotIgnored) {
  for (const std::string cmd : {"info", "census", "classify", "intervals"}) {
    auto r = run_cgtb({cmd, cram(), octal()});
    EXPECT_TRUE(is_clean_refusal(r)) << cmd;
    EXPECT_NE(r.err.find("octal.cgtb"), std::string::npos) << describe(r);
  }
}

// ------------------------------------------------------------------ batches

TEST_F(InputStrictness, BatchQueryKeepsEarlierAnswersAndNamesTheBadLine) {
  for (const bool json : {false, true}) {
    std::vector<std::string> good = {"query", cram(), ".../...", "##./..."}, batch = {"query", cram()};
    if (json) good.push_back("--json"), batch.push_back("--json");
    const auto expected = run_cgtb(good);
    ASSERT_EQ(expected.code, 0) << describe(expected);
    // Line 3 is a comment and line 4 blank: the bad position is on line 5.
    auto r = run_cgtb(batch, ".../...\n##./...\n% a comment\n\n..x/...\n.../...\n");
    EXPECT_TRUE(is_clean_error(r));
    EXPECT_EQ(r.out, expected.out) << "the answers to lines 1 and 2, and nothing after";
    EXPECT_NE(r.err.find("line 5: "), std::string::npos) << describe(r);
    EXPECT_NE(r.err.find("unexpected character"), std::string::npos) << describe(r);
  }
}

TEST_F(InputStrictness, BatchOfArgumentsNamesTheBadPosition) {
  // As on stdin: the answers before the bad position, then its error.
  auto r = run_cgtb({"query", cram(), ".../...", "#../...", ".../..."});  // 5 empty cells: no such level
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_EQ(r.out, run_cgtb({"query", cram(), ".../..."}).out) << describe(r);
  EXPECT_NE(r.err.find("position 2: "), std::string::npos) << describe(r);
}

TEST_F(InputStrictness, BatchQueryNamesTheLineOfABadTableLookupToo) {
  // A position the file lacks (a level it does not hold) on line 3.
  auto r = run_cgtb({"query", cram()}, ".../...\n.../...\n#../...\n");
  EXPECT_TRUE(is_clean_error(r));
  EXPECT_EQ(r.out, run_cgtb({"query", cram(), ".../...", ".../..."}).out);
  EXPECT_NE(r.err.find("line 3: "), std::string::npos) << describe(r);
}

}  // namespace
