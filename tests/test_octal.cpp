// Octal games (the ruleset self-test is in tests/test_ruleset_selftest.cpp):
// brute-force agreement (single heaps and
// several heaps, genus included), Dawson's Kayles period 34, the genus of
// Dawson's Kayles and Dawson's chess heaps against Cram strips, bad input.
#include <gtest/gtest.h>

#include "cgtb/games/cram.hpp"
#include "cgtb/games/octal.hpp"
#include "cgtb/octal_sequence.hpp"
#include "cgtb/rules/impartial.hpp"
#include "impartial_reference.hpp"
#include "test_support.hpp"

namespace {

using heaps_t = std::vector<int>;

using brute_code = cgtb_test::octal_reference;

heaps_t sorted_heaps(const cgtb::heap_multiset& p) {
  heaps_t h(p.part, p.part + p.count);
  std::sort(h.begin(), h.end());
  return h;
}

std::vector<int> engine_sequence(const std::string& code, int n) {
  const auto g = cgtb::octal_sequence(cgtb::take_break::parse_octal(code), static_cast<std::uint64_t>(n));
  return std::vector<int>(g.begin(), g.end());
}

const std::vector<std::string> kCodes = {"0.07", "0.137", "4.7", "0.6", "0.77", "0.4", "4.07"};

TEST(OctalRuleset, CodesParseAndPrintCanonically) {
  EXPECT_EQ(cgtb::take_break::parse_octal("0.07").octal_text(), "0.07");
  EXPECT_EQ(cgtb::take_break::parse_octal(".137").octal_text(), "0.137");
  EXPECT_EQ(cgtb::take_break::parse_octal("4.7").octal_text(), "4.7");
  EXPECT_EQ(cgtb::take_break::parse_octal("0.60").octal_text(), "0.6");
}

TEST(OctalEngine, SingleHeapSequenceMatchesPlainMex) {
  for (const auto& c : kCodes) EXPECT_EQ(engine_sequence(c, 400), brute_code(c).sequence(400)) << c;
}

TEST(OctalEngine, SeveralHeapsMatchBruteForceIncludingGenus) {
  for (const auto& c : kCodes) {
    cgtb::octal g(cgtb::take_break::parse_octal(c), 9);
    auto recs = cgtb_test::solve_all<cgtb::octal, cgtb::impartial_rule<7>>(g);
    brute_code bc(c);
    cgtb_test::brute_impartial<heaps_t> bf([&](const heaps_t& h) { return bc.moves(h); });
    auto seq = bc.sequence(9);
    auto v = g.host_view();
    for (auto& [L, rs] : recs)
      for (std::uint64_t i = 0; i < rs.size(); ++i) {
        heaps_t h = sorted_heaps(v.unrank(L, i));
        int x = 0;
        for (int a : h) x ^= seq[static_cast<std::size_t>(a)];
        ASSERT_EQ(rs[i].g, x) << c << " " << g.format(v.unrank(L, i));  // Sprague-Grundy: XOR of heaps
        ASSERT_EQ(rs[i].g, bf.grundy(h));
        for (int k = 0; k <= 7; ++k)
          ASSERT_EQ(rs[i].misere(k), bf.misere(h, k, 0)) << c << " " << g.format(v.unrank(L, i)) << " gamma_" << k;
      }
  }
}

// Dawson's Kayles (0.07): the normal sequence is ultimately periodic with
// period 34. Periodicity is proved by the octal periodicity theorem (Winning
// Ways ch. 4; Guy and Smith): if G(n + p) = G(n) for n0 <= n < 2 n0 + p + t
// (t = 2, the largest number of beans taken), it holds for every n >= n0.
TEST(OctalDawsonsKayles, NormalSequenceHasPeriod34) {
  const int N = 600, t = 2;
  auto g = engine_sequence("0.07", N);
  ASSERT_EQ(g, brute_code("0.07").sequence(N));
  auto periodic_from = [&](int p) {
    int n0 = N - p;
    while (n0 > 0 && g[static_cast<std::size_t>(n0 - 1)] == g[static_cast<std::size_t>(n0 - 1 + p)]) --n0;
    return n0;
  };
  const int n0 = periodic_from(34);
  EXPECT_LE(2 * n0 + 34 + t, N) << "the theorem's range must fit the computed sequence";
  // The last exception is heap 52 of 0.07, i.e. heap 51 of Dawson's chess
  // (0.137), the last exceptional value Winning Ways (ch. 4) lists for it.
  EXPECT_EQ(n0, 53);
  for (int p = 1; p < 34; ++p) EXPECT_GT(periodic_from(p), N / 2) << "no shorter period " << p;
}

// The genus of heap n of Dawson's Kayles (0.07) and of heap n-1 of Dawson's
// chess (0.137) equals the genus of the 1 x n Cram strip: a domino on a strip
// removes two adjacent cells, leaving two strips.
TEST(OctalDawsonsKayles, HeapGenusEqualsCramStripGenus) {
  const int N = 18;
  std::map<int, cgtb::impartial_record<7>> strip;
  for (int w : {N - 1, N}) {
    cgtb::cram board(1, w);
    auto recs = cgtb_test::solve_all<cgtb::cram, cgtb::impartial_rule<7>>(board);
    auto v = board.host_view();
    for (int n = w % 2; n <= w; n += 2) strip[n] = recs.at(n)[v.rank(n, (1ull << n) - 1)];
  }
  cgtb::octal dk(cgtb::take_break::parse_octal("0.07"), N), dc(cgtb::take_break::parse_octal("0.137"), N);
  auto rk = cgtb_test::solve_all<cgtb::octal, cgtb::impartial_rule<7>>(dk);
  auto rc = cgtb_test::solve_all<cgtb::octal, cgtb::impartial_rule<7>>(dc);
  auto heap = [](int n) {
    cgtb::heap_multiset p{};
    if (n > 0) p = cgtb::multiset_of({n});
    return p;
  };
  for (int n = 1; n <= N; ++n) {
    const auto& s = strip.at(n);
    const auto& k = rk.at(n)[dk.host_view().rank(n, heap(n))];
    const auto& c = rc.at(n - 1)[dc.host_view().rank(n - 1, heap(n - 1))];
    EXPECT_EQ(k.g, s.g) << n;
    EXPECT_EQ(c.g, s.g) << n;
    for (int i = 0; i < cgtb::misere_state_count(7); ++i) {
      EXPECT_EQ(k.misere(i), s.misere(i)) << "0.07 heap " << n;
      EXPECT_EQ(c.misere(i), s.misere(i)) << "0.137 heap " << n - 1;
    }
  }
}

TEST(OctalCli, BadCodesAndHeapsGiveOneLineErrorAndNonZeroExit) {
  using cgtb_test::run_cgtb;
  const cgtb_test::temp_dir dir;
  for (std::vector<std::string> args :
       std::vector<std::vector<std::string>>{{"--code", "0.08", "--max-heap", "10"},
                                             {"--code", "1.7", "--max-heap", "10"},
                                             {"--code", "07", "--max-heap", "10"},
                                             {"--code", "0.07"},
                                             {"--code", "0.07", "--max-heap", "5", "--max-total", "5"},
                                             {"--code", "0.07", "--max-total", "64"}}) {
    args.insert(args.begin(), {"build", "octal"});
    args.insert(args.end(), {"-q", "-o", dir.file("x.cgtb")});
    EXPECT_TRUE(cgtb_test::is_clean_error(run_cgtb(args))) << args[3];
  }
  const std::string m = dir.file("m.cgtb"), s = dir.file("s.cgtb");
  ASSERT_EQ(run_cgtb({"build", "octal", "--code", "0.07", "--max-total", "10", "-q", "-o", m}).code, 0);
  for (std::string bad : {"3 x", "11", "6 6", "-1"})
    EXPECT_TRUE(cgtb_test::is_clean_error(run_cgtb({"query", m, bad})));
  auto r = run_cgtb({"build", "octal", "--code", "0.08", "--max-heap", "3", "-q", "-o", s});
  ASSERT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("digit 8 is above 7"), std::string::npos) << r.err;
  ASSERT_EQ(run_cgtb({"build", "octal", "--code", "0.07", "--max-heap", "60", "-q", "-o", s}).code, 0);
  r = run_cgtb({"query", s, "3 5 9"});
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  auto seq = brute_code("0.07").sequence(9);
  const int x = seq[3] ^ seq[5] ^ seq[9];
  EXPECT_NE(r.out.find("Grundy value " + std::to_string(x) + " "), std::string::npos) << r.out;
}

}  // namespace
