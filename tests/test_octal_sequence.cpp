// The sparse-space sequence solver (cgtb/octal_sequence.hpp) against a plain
// mex written here, on every octal code with at most three digits after the
// point; periods proven by the octal periodicity theorem against the
// figures of the sources; `cgtb period` and `cgtb sequence`; bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>

#include "cgtb/octal_sequence.hpp"
#include "test_support.hpp"

namespace {

/// G(0..n) by the plain rule, independently of the solver: every option of
/// every heap, mex over a bitmap.
std::vector<std::uint16_t> plain_sequence(const std::string& code, int n) {
  // Digits d[i] for taking i beans (d[0] is the digit before the point).
  std::vector<int> d = {code[0] - '0'};
  for (std::size_t k = code.find('.') + 1; k < code.size(); ++k) d.push_back(code[k] - '0');
  std::vector<std::uint16_t> g(static_cast<std::size_t>(n) + 1, 0);
  std::vector<char> seen;
  for (int h = 1; h <= n; ++h) {
    seen.assign(2048, 0);
    for (int i = 0; i < static_cast<int>(d.size()) && i <= h; ++i) {
      const int r = h - i;
      if (i > 0 && r == 0 && (d[i] & 1)) seen[0] = 1;
      if (i > 0 && r > 0 && (d[i] & 2)) seen[g[r]] = 1;
      if ((d[i] & 4) && r >= 2)
        for (int b = 1; 2 * b <= r; ++b) seen[g[b] ^ g[r - b]] = 1;
    }
    int m = 0;
    while (seen[m]) ++m;
    g[h] = static_cast<std::uint16_t>(m);
  }
  return g;
}

/// Every code 0.xyz and 4.xyz that has a move, written without trailing
/// zeros (4.0 splits only: included).
std::vector<std::string> three_digit_codes() {
  std::vector<std::string> out;
  for (char lead : {'0', '4'})
    for (int x = 0; x < 8; ++x)
      for (int y = 0; y < 8; ++y)
        for (int z = 0; z < 8; ++z) {
          std::string c = std::string(1, lead) + "." + std::to_string(x) + std::to_string(y) + std::to_string(z);
          while (c.back() == '0' && c.size() > 3) c.pop_back();
          if (lead == '0' && x == 0 && y == 0 && z == 0) continue;  // no move
          if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
        }
  return out;
}

TEST(OctalSequence, SparseSpaceEqualsPlainMexOnEveryThreeDigitCode) {
  const int N = 2000;
  int sparse = 0, codes = 0;
  for (const std::string& c : three_digit_codes()) {
    const cgtb::take_break code = cgtb::take_break::parse_octal(c);
    const auto want = plain_sequence(c, N);
    cgtb::sequence_report rep;
    cgtb::sequence_options computed;  // every value computed, none written from a period
    computed.extend_by_period = false;
    ASSERT_EQ(cgtb::octal_sequence(code, N, computed, &rep), want) << c;
    sparse += rep.sparse ? 1 : 0;
    ASSERT_EQ(cgtb::octal_sequence(code, N), want) << c << " extended by its proven period";
    ++codes;
    // A split forced where it does not fit, or where the game has none,
    // changes the work, never the values.
    for (const cgtb::sparse_split forced : {cgtb::sparse_split{1, false, 0}, cgtb::sparse_split{0x5, true, 1}}) {
      cgtb::sequence_options o = computed;
      o.force_split = true;
      o.split = forced;
      ASSERT_EQ(cgtb::octal_sequence(code, N, o), want) << c << " with " << forced.text();
    }
  }
  std::cout << "[ sparse   ] the sparse-space path ran on " << sparse << " of " << codes << " codes (N = " << N
            << "); every code also ran with two forced splits\n";
  EXPECT_GT(sparse, codes / 10) << "the split detection never fires";
}

// The pair search keeps the values as nibbles, then bytes, then two bytes:
// 0.17777777 passes 15 and 255 within 3,000 heaps. Long searches are split
// over threads: one thread and two give the same sequence.
TEST(OctalSequence, EveryValueWidthAndThreadCountAgree) {
  const auto wide = cgtb::octal_sequence(cgtb::take_break::parse_octal("0.17777777"), 3000);
  ASSERT_GT(*std::max_element(wide.begin(), wide.end()), 255);
  EXPECT_EQ(wide, plain_sequence("0.17777777", 3000));
  for (const char* c : {"0.07", "0.6"}) {
    cgtb::sequence_options one, two;
    one.threads = 1;
    two.threads = 2;
    one.extend_by_period = two.extend_by_period = false;
    const cgtb::take_break code = cgtb::take_break::parse_octal(c);
    EXPECT_EQ(cgtb::octal_sequence(code, 150000, one), cgtb::octal_sequence(code, 150000, two)) << c;
  }
}

// Once a period is proven, the rest of the sequence is written from it: the
// values are those the solver computes heap by heap, and the report says
// where the period took over.
TEST(OctalSequence, ExtendingByTheProvenPeriodGivesTheComputedValues) {
  for (const char* c : {"0.07", "0.137", "0.51", "4.7", "0.31"}) {
    const cgtb::take_break code = cgtb::take_break::parse_octal(c);
    cgtb::sequence_options computed;
    computed.extend_by_period = false;
    cgtb::sequence_report rep;
    const auto s = cgtb::octal_sequence(code, 100000, {}, &rep);
    EXPECT_EQ(s, cgtb::octal_sequence(code, 100000, computed)) << c;
    const cgtb::octal_period p = cgtb::prove_octal_period(s.data(), s.size(), code.max_take);
    ASSERT_TRUE(p.proven) << c;
    EXPECT_EQ(rep.period, p.period) << c;
    EXPECT_EQ(rep.preperiod, p.preperiod) << c;
    EXPECT_GT(rep.extended_from, p.needed) << c;
    EXPECT_LE(rep.extended_from, 2 * std::max<std::uint64_t>(p.needed, 256)) << c;
  }
}

TEST(OctalSequence, SplitFitsOnlyWhereCommonValuesNeedARareHeap) {
  // Range type: common values of odd masked parity (common XOR common is even).
  EXPECT_TRUE(cgtb::split_fits({0x1e, false, 1}, {2}));
  EXPECT_FALSE(cgtb::split_fits({0x1e, false, 0}, {2}));
  // Domain type: one parity of takes only (Flammenkamp's t).
  EXPECT_TRUE(cgtb::split_fits({0x7, true, 1}, {2}));
  EXPECT_TRUE(cgtb::split_fits({0x7, true, 0}, {1, 3}));
  EXPECT_FALSE(cgtb::split_fits({0x7, true, 0}, {1, 2}));
  EXPECT_FALSE(cgtb::split_fits({0, false, 1}, {2}));
}

/// The proven period of `code` computed to heap n.
cgtb::octal_period period_to(const std::string& code, std::uint64_t n) {
  const cgtb::take_break c = cgtb::take_break::parse_octal(code);
  const auto s = cgtb::octal_sequence(c, n);
  return cgtb::prove_octal_period(s.data(), s.size(), c.max_take);
}

// Dawson's chess (0.137): OEIS A002187 (offset 0) gives period 34 with the
// last exception at n = 51; Dawson's Kayles (0.07) has the values shifted by
// one heap (A002187's comment), so its last exception is n = 52.
TEST(OctalSequence, DawsonsGamesHavePeriod34ProvenAsTheSourcesSay) {
  const cgtb::octal_period chess = period_to("0.137", 400), kayles = period_to("0.07", 400);
  ASSERT_TRUE(chess.proven);
  EXPECT_EQ(chess.period, 34u);
  EXPECT_EQ(chess.preperiod, 52u);
  ASSERT_TRUE(kayles.proven);
  EXPECT_EQ(kayles.period, 34u);
  EXPECT_EQ(kayles.preperiod, 53u);
  // The proof reads heaps to 2 n0 + 2p + t - 1 = 175 for 0.07; one fewer is
  // not enough.
  EXPECT_EQ(kayles.needed, 175u);
  EXPECT_TRUE(period_to("0.07", 175).proven);
  EXPECT_FALSE(period_to("0.07", 174).proven);
  // Short of the proof, the candidate is the sources' period once the tail
  // has repeated once (heaps 53..142 hold 34 + 56 values), and none before.
  const cgtb::octal_period short_of = period_to("0.07", 142), too_short = period_to("0.07", 100);
  EXPECT_FALSE(short_of.proven);
  EXPECT_EQ(short_of.period, 34u) << short_of.text();
  EXPECT_EQ(short_of.preperiod, 53u) << short_of.text();
  EXPECT_EQ(too_short.period, 0u) << too_short.text();
  const auto s = cgtb::octal_sequence(cgtb::take_break::parse_octal("0.07"), 400);
  for (std::uint64_t n = 1; n <= 400; ++n) EXPECT_EQ(s[n], plain_sequence("0.137", 400)[n - 1]) << n;
}

// Gangolli and Plambeck (1989), as tabulated in the tczajka/octal-games
// repository: 0.16 has preperiod 105,351 and period 149,459; 0.56 has
// preperiod 326,640 and period 144.
TEST(OctalSequence, GangolliPlambeckPeriodsAreFoundAndProven) {
  const cgtb::octal_period p16 = period_to("0.16", 2 * 105351 + 2 * 149459 + 2 - 1);
  ASSERT_TRUE(p16.proven) << p16.text();
  EXPECT_EQ(p16.period, 149459u);
  EXPECT_EQ(p16.preperiod, 105351u);
  const cgtb::octal_period p56 = period_to("0.56", 2 * 326640 + 2 * 144 + 2 - 1);
  ASSERT_TRUE(p56.proven) << p56.text();
  EXPECT_EQ(p56.period, 144u);
  EXPECT_EQ(p56.preperiod, 326640u);
  // The first heaps of both against the plain mex.
  for (const char* c : {"0.16", "0.56"}) {
    const auto s = cgtb::octal_sequence(cgtb::take_break::parse_octal(c), 6000);
    EXPECT_EQ(s, plain_sequence(c, 6000)) << c;
  }
}

TEST(OctalSequence, PeriodAndSequenceCommands) {
  using cgtb_test::run_cgtb;
  const cgtb_test::temp_dir dir;
  const std::string f = dir.file("k.cgtb"), short_file = dir.file("s.cgtb");
  ASSERT_EQ(run_cgtb({"build", "octal", "--code", "0.07", "--max-heap", "300", "-q", "-o", f}).code, 0);
  auto r = run_cgtb({"period", f});
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  EXPECT_NE(r.out.find("period 34, preperiod 53 (last exception n = 52), proven"), std::string::npos) << r.out;
  ASSERT_EQ(run_cgtb({"build", "octal", "--code", "0.07", "--max-heap", "120", "-q", "-o", short_file}).code, 0);
  r = run_cgtb({"period", short_file});
  EXPECT_EQ(r.code, 4) << "no period is proven from 121 heaps";
  EXPECT_NE(r.out.find("no period proven up to n = 120"), std::string::npos) << r.out;

  const auto want = plain_sequence("0.07", 300);
  r = run_cgtb({"sequence", f, "--from", "290", "--csv"});
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  std::string csv = "n,grundy\n";
  for (int n = 290; n <= 300; ++n) csv += std::to_string(n) + "," + std::to_string(want[n]) + "\n";
  EXPECT_EQ(r.out, csv);
  r = run_cgtb({"sequence", f, "--to", "3"});
  EXPECT_EQ(r.out, "0 0 1 1\n");
  EXPECT_TRUE(cgtb_test::is_clean_error(run_cgtb({"sequence", f, "--to", "301"})));
  EXPECT_TRUE(cgtb_test::is_clean_error(run_cgtb({"sequence", f, "--from", "5", "--to", "4"})));
}

TEST(OctalSequence, BadInputGetsOneLineErrors) {
  using cgtb_test::run_cgtb;
  const cgtb_test::temp_dir dir;
  const std::string out = dir.file("x.cgtb");
  for (const char* code : {"0.8", "0.", "4.", "0.000", "0.0a"})
    EXPECT_TRUE(
        cgtb_test::is_clean_error(run_cgtb({"build", "octal", "--code", code, "--max-heap", "10", "-q", "-o", out})))
        << code;
  EXPECT_TRUE(cgtb_test::is_clean_error(
      run_cgtb({"build", "octal", "--code", "0.07", "--max-heap", "3000000000", "-q", "-o", out})));
  EXPECT_THROW(cgtb::octal_sequence(cgtb::take_break::parse_octal("0.07"), cgtb::kMaxSequenceHeap + 1),
               cgtb::input_error);
  // Not a sequence: period and sequence name what the file is.
  const std::string m = dir.file("m.cgtb");
  ASSERT_EQ(run_cgtb({"build", "octal", "--code", "0.07", "--max-total", "6", "-q", "-o", m}).code, 0);
  EXPECT_TRUE(cgtb_test::is_clean_error(run_cgtb({"sequence", m})));
  EXPECT_TRUE(cgtb_test::is_clean_error(run_cgtb({"period", m})));
}

}  // namespace
