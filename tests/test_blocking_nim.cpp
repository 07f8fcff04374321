// Dynamic one-pile Blocking Nim ("Dynamic One-Pile Blocking Nim", Electronic
// Journal of Combinatorics 10, 2003; the ruleset self-test is in
// tests/test_ruleset_selftest.cpp): brute-force agreement,
// the paper's worked example, the intervals command, and the validation of
// conditions (1) and (2).
#include <gtest/gtest.h>

#include "cgtb/games/blocking_nim.hpp"
#include "cgtb/rules/blocking.hpp"
#include "test_support.hpp"

namespace {

using cgtb::blocking_nim;
using cgtb::int_sequence;

struct seqs {
  std::string c, m, M;
};

blocking_nim make(const seqs& s, int n) {
  return blocking_nim(int_sequence::parse(s.c, "c"), int_sequence::parse(s.m, "m"), int_sequence::parse(s.M, "M"), n);
}

// The paper's Rules of the Game as a recursion: the mover at move k removes x in
// [m_k, M_k], x <= pile, after the opponent blocked up to c_k choices; a
// position is safe (lost for the mover) when at most c_k choices lead to a
// safe position.
struct brute_blocking {
  int_sequence c, m, M;
  std::map<std::pair<long long, long long>, std::pair<bool, long long>> memo;
  std::pair<bool, long long> solve(long long pile, long long k) {
    auto key = std::make_pair(pile, k);
    auto it = memo.find(key);
    if (it != memo.end()) return it->second;
    long long w = 0;
    for (long long x = m.at(k); x <= M.at(k) && x <= pile; ++x) w += solve(pile - x, k + 1).first ? 1 : 0;
    return memo[key] = {w <= c.at(k), w};
  }
};

const std::vector<seqs> kSeqs = {{"0,1,2", "1,1,5", "2,4,10"},  // contains the paper's move 3: [5,10], c_3 = 2
                                 {"0", "1", "2"},
                                 {"-1+i", "1", "2i"},
                                 {"0", "cycle:1,2", "cycle:3,4"},
                                 {"1", "2", "5"}};

TEST(BlockingNimEngine, AgreesWithBruteForceOnEveryPosition) {
  for (const auto& s : kSeqs) {
    auto g = make(s, 80);
    auto recs = cgtb_test::solve_all<blocking_nim, cgtb::blocking_rule>(g, 1);
    brute_blocking bf{int_sequence::parse(s.c, "c"), int_sequence::parse(s.m, "m"), int_sequence::parse(s.M, "M"), {}};
    auto v = g.host_view();
    for (auto& [L, rs] : recs)
      for (std::uint64_t i = 0; i < rs.size(); ++i) {
        auto p = v.unrank(L, i);
        auto [safe, w] = bf.solve(L, cgtb::blocking_nim_view::move(p));
        ASSERT_EQ(rs[i].safe != 0, safe) << s.c << " " << g.format(p);
        ASSERT_EQ(rs[i].winning, static_cast<std::uint32_t>(w)) << g.format(p);
      }
  }
}

TEST(BlockingNimEngine, PlainSubtractionGameHasSafeMultiplesOfThree) {
  auto g = make({"0", "1", "2"}, 60);
  auto recs = cgtb_test::solve_all<blocking_nim, cgtb::blocking_rule>(g, 1);
  for (int p = 0; p <= 60; ++p) EXPECT_EQ(recs.at(p)[0].safe != 0, p % 3 == 0) << p;
}

// The paper's example: move 3 with [m_3, M_3] = [5, 10] and c_3 = 2. A pile of
// 15 offers six choices (5..10); a pile of 6 offers two (5, 6), both of which
// the opponent can block, so the mover loses: 6@3 is safe whatever follows.
TEST(BlockingNimSeedExample, Move3WithRange5To10AndTwoBlocks) {
  auto g = make(kSeqs[0], 60);
  EXPECT_EQ(g.m(3), 5u);
  EXPECT_EQ(g.M(3), 10u);
  EXPECT_EQ(g.c(3), 2u);
  auto v = g.host_view();
  EXPECT_EQ(v.option_count(g.parse("15@3")), 6);
  EXPECT_EQ(v.option_count(g.parse("6@3")), 2);
  auto recs = cgtb_test::solve_all<blocking_nim, cgtb::blocking_rule>(g, 1);
  EXPECT_EQ(recs.at(6)[2].safe, 1);
  EXPECT_LE(recs.at(6)[2].winning, 2u);
  // Other continuations after move 3 leave 6@3 safe as well.
  for (const char* later : {"2,4,10,20", "2,4,10,12,14"}) {
    auto h = make({"0,1,2", "1,1,5", later}, 30);
    auto r = cgtb_test::solve_all<blocking_nim, cgtb::blocking_rule>(h, 1);
    EXPECT_EQ(r.at(6)[2].safe, 1) << later;
  }
}

TEST(BlockingNimCli, IntervalsAndQueryMatchBruteForce) {
  using cgtb_test::run_cgtb;
  const cgtb_test::temp_dir dir;
  const std::string b = dir.file("b.cgtb");
  ASSERT_EQ(run_cgtb({"build", "blocking-nim", "--blocks", "0,1,2", "--min", "1,1,5", "--max", "2,4,10", "--max-pile",
                      "60", "-q", "-o", b})
                .code,
            0);
  auto r = run_cgtb({"intervals", b});
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  brute_blocking bf{
      int_sequence::parse("0,1,2", "c"), int_sequence::parse("1,1,5", "m"), int_sequence::parse("2,4,10", "M"), {}};
  std::string expect;
  int start = -1;
  for (int p = 0; p <= 61; ++p) {
    bool safe = p <= 60 && bf.solve(p, 1).first;
    if (safe && start < 0) start = p;
    if (!safe && start >= 0) {
      expect += " [" + std::to_string(start) + "," + std::to_string(p - 1) + "]" + (p - 1 == 60 ? "..." : "");
      start = -1;
    }
  }
  EXPECT_NE(r.out.find("(piles 0..60):" + expect + "\n"), std::string::npos) << r.out << "\nexpected" << expect;
  r = run_cgtb({"query", b, "15@3", "--json"});
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  auto [safe, w] = bf.solve(15, 3);
  EXPECT_NE(r.out.find("\"safe\":" + std::string(safe ? "true" : "false")), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"winning_options\":" + std::to_string(w)), std::string::npos) << r.out;
  // An unsafe position reports how many winning options exceed the blocks.
  for (int p = 1; p <= 40; ++p) {
    auto [s1, w1] = bf.solve(p, 1);
    if (s1) continue;
    r = run_cgtb({"query", b, std::to_string(p)});
    ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
    EXPECT_NE(r.out.find("; " + std::to_string(w1 - 0) + " winning option(s) beyond the blocks"), std::string::npos)
        << r.out;
    break;
  }
}

TEST(BlockingNimCli, SequencesViolatingConditionsGiveOneLineErrors) {
  const cgtb_test::temp_dir dir;
  struct bad {
    std::vector<std::string> args;
    std::string condition;
  };
  for (const auto& b : std::vector<bad>{{{"--blocks", "1,0"}, "condition (1)"},
                                        {{"--blocks", "cycle:0,1"}, "condition (1)"},
                                        {{"--blocks", "2", "--min", "5", "--max", "6"}, "condition (2)"},
                                        {{"--max", "3,2"}, "condition (2)"},
                                        {{"--min", "0"}, "positive"},
                                        {{"--max", "x"}, "not an integer"}}) {
    std::vector<std::string> args = {"build", "blocking-nim"};
    args.insert(args.end(), b.args.begin(), b.args.end());
    args.insert(args.end(), {"-q", "-o", dir.file("never.cgtb")});
    const auto r = cgtb_test::run_cgtb(args);
    EXPECT_EQ(r.code, 2) << b.condition;
    EXPECT_TRUE(cgtb_test::is_clean_error(r));
    EXPECT_NE(r.err.find(b.condition), std::string::npos) << r.err;
  }
}

TEST(BlockingNimSequences, FormsParse) {
  auto s = int_sequence::parse("2+3i", "m");
  EXPECT_EQ(s.at(1), 5);
  EXPECT_EQ(s.at(4), 14);
  EXPECT_EQ(int_sequence::parse("i", "m").at(7), 7);
  EXPECT_EQ(int_sequence::parse("7-i", "m").at(2), 5);
  EXPECT_EQ(int_sequence::parse("1,3,4", "m").at(9), 4);
  EXPECT_EQ(int_sequence::parse("cycle:1,2", "m").at(4), 2);
  EXPECT_EQ(int_sequence::parse("5", "m").at(100), 5);
}

}  // namespace
