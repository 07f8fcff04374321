// The Cram component table (cgtb/games/cram_components.hpp): polyomino codes,
// the enumeration against OEIS A000105, and every value against a brute-force
// mex over the region's own board (tests/reference_solver.hpp).
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "cgtb/cram_region.hpp"
#include "cgtb/games/cram_components.hpp"
#include "cgtb/rules/impartial.hpp"
#include "reference_solver.hpp"
#include "test_support.hpp"

namespace {

using cgtb::cells128;
using cgtb_test::cram_reference;

/// A region of at most 64 cells (cram_region) as a region128.
cgtb::region128 of_region(const cgtb::cram_region& r) { return {cells128{r.mask, 0}, r.rows, r.cols}; }

/// OEIS A000105: free polyominoes with n cells, n = 0..14 (1 for the empty one).
const std::vector<std::uint64_t> kA000105{1, 1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655, 17073, 63600, 238591, 901971};

TEST(PolyominoCodes, NameEachFreePolyominoOnceAndDecodeToItsCanonicalImage) {
  std::set<std::pair<int, std::uint64_t>> seen;
  for (const cgtb::cram_region& r : cgtb::free_polyominoes(10)) {
    const cgtb::region128 p = of_region(r);
    const cgtb::region128 c = cgtb::canonical_region128(p);
    // The box order is cram_region_key's: free_polyominoes lists canonical images.
    EXPECT_TRUE(c == p) << r.text();
    EXPECT_TRUE(cgtb::is_canonical_region128(p)) << r.text();
    const std::uint64_t code = cgtb::polyomino_code(c);
    EXPECT_TRUE(seen.insert({r.cells(), code}).second) << r.text();
    EXPECT_TRUE(cgtb::polyomino_of_code(r.cells(), code) == c) << r.text();
    EXPECT_EQ(cgtb::region_text(c), r.text());
    for (int t = 0; t < 8; ++t) {
      const cgtb::region128 im = cgtb::region_image(p, t);
      EXPECT_EQ(im.count(), p.count());
      EXPECT_TRUE(cgtb::canonical_region128(im) == c) << r.text() << " image " << t;
      EXPECT_TRUE(cgtb::polyomino_of_code(r.cells(), cgtb::polyomino_code(im)) == im) << r.text() << " image " << t;
    }
  }
}

TEST(PolyominoCodes, HoldTwentyCellsInSixtyFourBits) {
  // The longest codes: thin shapes with the most empty neighbours, and the
  // widest boxes (a 1x20 bar, a staircase, a comb).
  std::vector<cgtb::region128> shapes;
  cells128 bar, stair, comb;
  for (int c = 0; c < 20; ++c) bar.set(c);
  shapes.push_back({bar, 1, 20});
  for (int i = 0; i < 10; ++i) {
    stair.set(i * 11 + i);
    if (i < 10) stair.set(i * 11 + i + 1);
  }
  shapes.push_back({stair, 10, 11});
  for (int c = 0; c < 10; ++c) comb.set(c);
  for (int c = 0; c < 10; c += 2) comb.set(10 + c);
  for (int c = 0; c < 10; c += 2) comb.set(20 + c);
  shapes.push_back({comb, 3, 10});
  for (const cgtb::region128& p : shapes) {
    const cgtb::region128 c = cgtb::canonical_region128(p);
    EXPECT_TRUE(cgtb::polyomino_of_code(p.count(), cgtb::polyomino_code(c)) == c) << cgtb::region_text(p);
  }
  EXPECT_THROW(cgtb::polyomino_of_code(5, ~std::uint64_t{0}), cgtb::input_error);
  EXPECT_THROW(cgtb::polyomino_of_code(3, 1), cgtb::input_error);
}

TEST(CramComponents, LevelsHoldTheFreePolyominoesOfOeisA000105) {
  const cgtb::cram_components one(12, 1), two(12, 2);
  ASSERT_EQ(one.census().free_by_cells.size(), 13u);
  for (int n = 0; n <= 12; ++n)
    EXPECT_EQ(one.census().free_by_cells[static_cast<std::size_t>(n)], kA000105[static_cast<std::size_t>(n)]) << n;
  // The table does not depend on the threads that enumerated it.
  EXPECT_EQ(one.table(), two.table());
  // Level n lists the canonical images of n cells, by increasing code.
  const auto v = one.host_view();
  for (int n = 1; n <= 12; ++n) {
    std::uint64_t last = 0;
    for (std::uint64_t r = 0; r < v.level_size(n); ++r) {
      const cgtb::region128 p = v.unrank(n, r).region();
      const std::uint64_t code = cgtb::polyomino_code(p);
      ASSERT_EQ(p.count(), n);
      ASSERT_TRUE(cgtb::is_canonical_region128(p));
      if (r) {
        ASSERT_LT(last, code);
      }
      last = code;
      ASSERT_EQ(v.rank_of_region(n, cgtb::region_image(p, static_cast<int>(r % 8))), r);
    }
  }
  EXPECT_EQ(cgtb::cram_components(14).census().free_by_cells[14], kA000105[14]);
}

TEST(CramComponents, EveryValueUpToTenCellsIsTheBruteForceMexOnItsBoard) {
  const cgtb::cram_components table(10);
  const auto solved = cgtb_test::solve_all<cgtb::cram_components, cgtb::impartial_sum_rule>(table);
  const auto v = table.host_view();
  std::uint64_t checked = 0;
  for (const cgtb::cram_region& r : cgtb::free_polyominoes(10)) {
    cram_reference ref(r.rows, r.cols);
    const int n = r.cells();
    const std::uint64_t rank = v.rank_of_region(n, of_region(r));
    ASSERT_LT(rank, v.level_size(n));
    EXPECT_EQ(static_cast<int>(solved.at(n)[rank].g), ref.normal(r.mask)) << r.text();
    ++checked;
  }
  EXPECT_EQ(checked, 1u + 1 + 2 + 5 + 12 + 35 + 108 + 369 + 1285 + 4655);
  EXPECT_EQ(solved.at(0).size(), 1u);
  EXPECT_EQ(solved.at(0)[0].g, 0);
}

TEST(CramComponents, RectanglesAndRandomPositionsAgreeWithTheBruteForce) {
  const cgtb::cram_components table(12);
  const auto solved = cgtb_test::solve_all<cgtb::cram_components, cgtb::impartial_sum_rule>(table);
  const auto v = table.host_view();
  auto value = [&](const std::string& text) {
    int x = 0;
    for (const cgtb::region128& p : cgtb::region_parts_of_text(text))
      x ^= solved.at(p.count())[v.rank_of_region(p.count(), p)].g;
    return x;
  };
  // Every rectangle the table holds (the rectangle tables' empty boards).
  for (int rows = 1; rows <= 12; ++rows)
    for (int cols = rows; rows * cols <= 12; ++cols) {
      cram_reference ref(rows, cols);
      EXPECT_EQ(value(ref.text(ref.full())), ref.normal(ref.full())) << rows << "x" << cols;
    }
  // Positions of a 4x5 board whose regions have at most 12 cells: the XOR
  // of their parts' values is the board's brute-force value.
  std::mt19937_64 rng(11);
  cram_reference ref(4, 5);
  int tried = 0;
  for (int t = 0; t < 3000 && tried < 400; ++t) {
    const std::uint64_t mask = rng() & ref.full() & rng();
    bool fits = true;
    for (const auto& p : cgtb::region_parts(4, 5, mask)) fits = fits && p.cells() <= 12;
    if (!fits) continue;
    ++tried;
    EXPECT_EQ(value(ref.text(mask)), ref.normal(mask)) << ref.text(mask);
  }
  EXPECT_EQ(tried, 400);
}

TEST(CramComponentsCli, BuildsAndAnswersInAnyOrientation) {
  cgtb_test::temp_dir dir;
  const std::string f = dir.file("c8.cgtb");
  auto b = cgtb_test::run_cgtb({"build", "cram-components", "--max-cells", "8", "-o", f, "--quiet"});
  ASSERT_EQ(b.code, 0) << cgtb_test::describe(b);
  // An L of 5 cells in two orientations, and inside a larger board.
  cram_reference l(3, 2), board(4, 5);
  const std::uint64_t lmask = 0b111101;  // ".#/../..": an L of 5 cells
  const auto q1 = cgtb_test::run_cgtb({"query", f, l.text(lmask), "--json"});
  ASSERT_EQ(q1.code, 0) << cgtb_test::describe(q1);
  const auto q2 = cgtb_test::run_cgtb({"query", f, ".../#..", "--json"});  // its transpose
  ASSERT_EQ(q2.code, 0) << cgtb_test::describe(q2);
  const std::string g = "\"grundy\":" + std::to_string(l.normal(lmask));
  EXPECT_NE(q1.out.find(g), std::string::npos) << q1.out;
  EXPECT_NE(q2.out.find(g), std::string::npos) << q2.out;
  // Two regions: the XOR of their values; the winning moves are the
  // brute force's.
  const std::uint64_t two = 0b00011'00000'11100'11100;  // a 2x3 block and a domino
  const auto q3 = cgtb_test::run_cgtb({"query", f, board.text(two), "--json"});
  ASSERT_EQ(q3.code, 0) << cgtb_test::describe(q3);
  EXPECT_NE(q3.out.find("\"grundy\":" + std::to_string(board.normal(two))), std::string::npos) << q3.out;
  EXPECT_NE(q3.out.find("\"regions\":2"), std::string::npos) << q3.out;
  // Its options, each a sum of regions read at their keys: the brute force's values.
  const auto q4 = cgtb_test::run_cgtb({"query", f, "--options", "--json", board.text(two)});
  ASSERT_EQ(q4.code, 0) << cgtb_test::describe(q4);
  for (std::uint64_t o : board.options(two))
    EXPECT_NE(q4.out.find("\"position\":\"" + board.text(o) + "\",\"grundy\":" + std::to_string(board.normal(o))),
              std::string::npos)
        << board.text(o) << " in " << q4.out;
}

TEST(CramComponentsCli, BadInputGetsOneLine) {
  cgtb_test::temp_dir dir;
  const std::string f = dir.file("c4.cgtb");
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(
      cgtb_test::run_cgtb({"build", "cram-components", "--max-cells", "21", "-o", f}), {"max-cells"}));
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(
      cgtb_test::run_cgtb({"build", "cram-components", "--max-cells", "4", "--values", "misere", "-o", f}),
      {"Grundy values only"}));
  ASSERT_EQ(cgtb_test::run_cgtb({"build", "cram-components", "--max-cells", "4", "-o", f, "--quiet"}).code, 0);
  EXPECT_TRUE(cgtb_test::is_clean_refusal(cgtb_test::run_cgtb({"query", f, "...../....."})));
  EXPECT_TRUE(cgtb_test::is_clean_refusal(cgtb_test::run_cgtb({"query", f, "..x"})));
  EXPECT_TRUE(cgtb_test::is_clean_refusal(cgtb_test::run_cgtb({"query", f, "../..."})));
}

}  // namespace
