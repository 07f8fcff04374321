// Row Impartial Terminus (the paper "Row Impartial Terminus", an impartial
// game on integer partitions; the ruleset self-test is in
// tests/test_ruleset_selftest.cpp): level counts, brute-force agreement,
// Theorems 3.3 and 4.1 and Corollary 3.4 over whole tables, the CGH
// classification, the GPU's option walk against the CPU's, and bad input
// through the CLI.
#include <gtest/gtest.h>

#include "cgtb/classify.hpp"
#include "cgtb/games/rit.hpp"
#include "cgtb/impartial_driver.hpp"
#include "cgtb/rules/impartial.hpp"
#include "impartial_reference.hpp"
#include "test_support.hpp"

namespace {

using cgtb::rit;
using parts_t = std::vector<int>;

parts_t parts_of(const rit& g, rit::position p) {
  parts_t v;
  for (int i = 1; i <= g.rows() && cgtb::rit_view::part(p, i); ++i) v.push_back(cgtb::rit_view::part(p, i));
  return v;
}

const auto rit_moves = cgtb_test::rit_reference_moves;

// The option walk the GPU runs (every sum in registers) gives the CPU's walk's
// options, in the same order, on every position of seven boxes (16 rows and
// 15 columns among them) and every 997th position of the largest, 16x15 (the
// self-test checks the CPU's walk against the rules).
TEST(Rit, RegisterOptionWalkEqualsTheArrayWalk) {
  // Every position of box r x c, or every step-th one of each level.
  const auto compare = [](int r, int c, std::uint64_t step) {
    const rit g(r, c);
    const auto view = g.host_view();
    for (int level : g.levels())
      for (std::uint64_t i = 0; i < view.level_size(level); i += step) {
        const rit::position p = view.unrank(level, i);
        std::vector<std::pair<int, std::uint64_t>> arrays, registers;
        view.for_each_option_from_arrays(level, p, [&](int l, std::uint64_t k) { arrays.push_back({l, k}); });
        view.for_each_option_in_registers(level, p, [&](int l, std::uint64_t k) { registers.push_back({l, k}); });
        ASSERT_EQ(registers, arrays) << r << "x" << c << " " << g.format(p);
      }
  };
  for (auto [r, c] : std::vector<std::pair<int, int>>{{1, 1}, {3, 4}, {6, 6}, {7, 5}, {16, 2}, {2, 15}, {10, 10}})
    compare(r, c, 1);
  compare(16, 15, 997);  // the largest box, sampled
}

// Nim on a tuple of heaps (sorted, zeros dropped): any heap lowered.
std::vector<parts_t> nim_moves(const parts_t& h) {
  std::vector<parts_t> out;
  for (std::size_t i = 0; i < h.size(); ++i)
    for (int t = 0; t < h[i]; ++t) {
      parts_t q = h;
      q[i] = t;
      q.erase(std::remove(q.begin(), q.end(), 0), q.end());
      std::sort(q.begin(), q.end());
      out.push_back(q);
    }
  return out;
}

parts_t remnant(const parts_t& l) {
  parts_t r;
  for (std::size_t i = 0; i < l.size(); i += 2) r.push_back(l[i] - (i + 1 < l.size() ? l[i + 1] : 0));
  return r;
}

parts_t nim_key(parts_t h) {
  h.erase(std::remove(h.begin(), h.end(), 0), h.end());
  std::sort(h.begin(), h.end());
  return h;
}

std::vector<std::pair<int, int>> all_boxes(int up_to = 8) {
  std::vector<std::pair<int, int>> b;
  for (int r = 1; r <= up_to; ++r)
    for (int c = 1; c <= up_to; ++c) b.push_back({r, c});
  b.push_back({16, 3});
  b.push_back({3, 15});
  b.push_back({10, 10});
  return b;
}

TEST(RitRuleset, LevelSizesSumToLatticePathCount) {
  for (auto [r, c] : all_boxes()) {
    rit g(r, c);
    std::uint64_t total = 0, binom = 1;
    for (int n : g.levels()) total += g.host_view().level_size(n);
    for (int i = 1; i <= r; ++i) binom = binom * static_cast<std::uint64_t>(c + i) / static_cast<std::uint64_t>(i);
    EXPECT_EQ(total, binom) << r << "x" << c;
  }
}

TEST(RitEngine, AgreesWithBruteForceOnEveryPositionIncludingGenus) {
  for (auto [r, c] : std::vector<std::pair<int, int>>{{4, 5}, {5, 4}, {3, 6}}) {
    rit g(r, c);
    auto recs = cgtb_test::solve_all<rit, cgtb::impartial_rule<7>>(g);
    cgtb_test::brute_impartial<parts_t> bf(rit_moves);
    auto v = g.host_view();
    for (auto& [L, rs] : recs)
      for (std::uint64_t i = 0; i < rs.size(); ++i) {
        parts_t l = parts_of(g, v.unrank(L, i));
        ASSERT_EQ(rs[i].g, bf.grundy(l)) << g.format(v.unrank(L, i));
        for (int k = 0; k <= 7; ++k)
          ASSERT_EQ(rs[i].misere(k), bf.misere(l, k, 0)) << g.format(v.unrank(L, i)) << " gamma_" << k;
      }
  }
}

// Theorems 3.3 and 4.1 of "Row Impartial Terminus": (G, G-) of lambda equals (G, G-) of Nim on
// rem(lambda); Nim's values come from an independent recursion.
TEST(RitTheorems, ConwayPairEqualsNimOnRemnantInEveryBox) {
  cgtb_test::brute_impartial<parts_t> nim(nim_moves);
  for (auto [r, c] : all_boxes()) {
    rit g(r, c);
    auto recs = cgtb_test::solve_all<rit, cgtb::impartial_rule<0>>(g);
    auto v = g.host_view();
    for (auto& [L, rs] : recs)
      for (std::uint64_t i = 0; i < rs.size(); ++i) {
        parts_t l = parts_of(g, v.unrank(L, i));
        parts_t rem = remnant(l);
        ASSERT_EQ(cgtb::rit_remnant(l), rem);
        ASSERT_EQ(rs[i].g, nim.grundy(nim_key(rem))) << r << "x" << c << " " << g.format(v.unrank(L, i));
        ASSERT_EQ(rs[i].misere(0), nim.misere(nim_key(rem))) << r << "x" << c << " " << g.format(v.unrank(L, i));
      }
  }
}

TEST(RitTheorems, CoreIsTheEvenRowsDoubled) {
  EXPECT_EQ(cgtb::rit_core({5, 4, 2, 1}), (parts_t{4, 4, 1, 1}));
  EXPECT_EQ(cgtb::rit_remnant({5, 4, 2, 1}), (parts_t{1, 1}));
  EXPECT_EQ(cgtb::rit_remnant({5, 4, 2}), (parts_t{1, 2}));
}

// Corollary 3.4 of "Row Impartial Terminus", read from the tablebase's values: from a
// P-position, after any opponent move there is a winning reply (a move to a
// Grundy-0 position) on an odd-numbered row; after a cut of d boxes on an even
// row i, cutting d boxes off row i-1 is such a winning reply.
TEST(RitTheorems, WinningRepliesObeyCorollary34InEveryBox) {
  for (auto [r, c] : all_boxes(6)) {
    rit g(r, c);
    auto recs = cgtb_test::solve_all<rit, cgtb::impartial_rule<-1>>(g);
    auto v = g.host_view();
    auto G = [&](rit::position p) { return recs.at(g.level_of(p))[v.rank(g.level_of(p), p)].g; };
    for (auto& [L, rs] : recs)
      for (std::uint64_t i = 0; i < rs.size(); ++i) {
        if (rs[i].g != 0) continue;
        auto p = v.unrank(L, i);
        for (const auto& m : g.moves(p)) {
          bool odd_reply = false, mirror = false;
          for (const auto& reply : g.moves(m.after)) {
            if (G(reply.after) != 0) continue;
            odd_reply = odd_reply || reply.row % 2 == 1;
            mirror = mirror || (reply.row == m.row - 1 && reply.boxes == m.boxes);
          }
          ASSERT_TRUE(odd_reply) << g.format(p) << " " << g.move_name(m);
          if (m.row % 2 == 0) {
            ASSERT_TRUE(mirror) << g.format(p) << " " << g.move_name(m);
          }
        }
      }
  }
}

// The CGH classification of every box, compared with one computed here from
// the brute-force Conway pairs. The paper claims RIT is forced and miserable but
// not pet; the computation finds every box miserable, boxes of at least 2x2
// not forced, and pet failing exactly when the box has at least 3 rows and 4
// columns (room for [4,2,2], a (0,0)-position).
TEST(RitClassify, MatchesBruteForceClassificationOfEveryBox) {
  const cgtb_test::temp_dir dir;
  for (auto [r, c] : all_boxes(6)) {
    if (r * c > 16) continue;
    rit g(r, c);
    cgtb::impartial_driver<rit> drv(g);
    cgtb::build_request req;
    req.output = dir.file("rit.cgtb");
    req.progress = false;
    req.force = true;  // one scratch file, rebuilt for every box
    drv.build(req);
    cgtb::tablebase tb(req.output);
    cgtb::classify_report rep = drv.classify(tb);

    cgtb_test::brute_impartial<parts_t> bf(rit_moves);
    auto v = g.host_view();
    bool forced = true, miserable = true, pet = true;
    std::uint64_t n = 0;
    std::map<std::pair<unsigned, unsigned>, std::uint64_t> pairs;
    for (int L : g.levels())
      for (std::uint64_t i = 0; i < v.level_size(L); ++i, ++n) {
        parts_t l = parts_of(g, v.unrank(L, i));
        auto pr = std::make_pair(bf.grundy(l), bf.misere(l));
        ++pairs[{static_cast<unsigned>(pr.first), static_cast<unsigned>(pr.second)}];
        const bool p01 = pr == std::make_pair(0, 1), p10 = pr == std::make_pair(1, 0);
        bool to01 = false, to10 = false;
        for (const auto& o : rit_moves(l)) {
          auto po = std::make_pair(bf.grundy(o), bf.misere(o));
          to01 = to01 || po == std::make_pair(0, 1);
          to10 = to10 || po == std::make_pair(1, 0);
          if (p01 && po != std::make_pair(1, 0)) forced = false;
          if (p10 && po != std::make_pair(0, 1)) forced = false;
        }
        if (!p01 && !p10 && to01 != to10) miserable = false;
        if (!p01 && !p10 && !(pr.first == pr.second && pr.first >= 2)) pet = false;
      }
    EXPECT_EQ(rep.positions, n);
    EXPECT_EQ(rep.pairs, pairs) << r << "x" << c;
    EXPECT_EQ(rep.forced.holds, forced) << r << "x" << c;
    EXPECT_EQ(rep.miserable.holds, miserable) << r << "x" << c;
    EXPECT_EQ(rep.pet.holds, pet) << r << "x" << c;
    // The computed answer (docs/impartial.md): miserable always; forced only
    // in one-row or one-column boxes.
    EXPECT_TRUE(rep.miserable.holds);
    EXPECT_EQ(rep.forced.holds, r == 1 || c == 1) << r << "x" << c;
    EXPECT_EQ(rep.pet.holds, r <= 2 || c <= 3) << r << "x" << c;
    if (r >= 2 && c >= 2) {
      EXPECT_EQ(rep.forced.witness, "[2,1] is a (1,0)-position with an option [2], a (2,2)-position");
    }
    if (r >= 3 && c >= 4) {
      EXPECT_EQ(rep.pet.witness, "[4,2,2] is a (0,0)-position");
    }
  }
}

TEST(RitCli, BadPartitionsGiveOneLineErrorAndNonZeroExit) {
  using cgtb_test::run_cgtb;
  const cgtb_test::temp_dir dir;
  const std::string r = dir.file("r.cgtb");
  ASSERT_EQ(run_cgtb({"build", "rit", "--box", "3x4", "-q", "-o", r}).code, 0);
  for (std::string bad : {"[2,3]", "[5]", "[1,1,1,1]", "[3,0]", "5,4", "[a]"})
    EXPECT_TRUE(cgtb_test::is_clean_error(run_cgtb({"query", r, bad}))) << bad;
  EXPECT_TRUE(cgtb_test::is_clean_error(run_cgtb({"build", "rit", "--box", "17x2", "-q", "-o", dir.file("x.cgtb")})));
  const auto q = run_cgtb({"query", r, "[4,2,1]"});
  EXPECT_EQ(q.code, 0) << cgtb_test::describe(q);
  // rem([4,2,1]) = (2, 1): G = 3, G- = 3; the winning moves cut odd rows.
  EXPECT_NE(q.out.find("normal  Grundy value 3"), std::string::npos) << q.out;
  EXPECT_NE(q.out.find("misere  Grundy value 3"), std::string::npos) << q.out;
}

}  // namespace
