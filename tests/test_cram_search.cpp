// `cgtb search cram` (cgtb/cram_search.hpp): the Grundy value of a position
// by search, against the brute force of tests/reference_solver.hpp, against
// the engine's complete tables, with and without a component table, and on
// boards of 65 to 128 cells (the 128-bit regions).
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "cgtb/cram_search.hpp"
#include "cgtb/tablebase.hpp"
#include "reference_solver.hpp"
#include "test_support.hpp"

namespace {

using cgtb_test::cram_reference;

cgtb::cram_search_options small_search(const std::string& table = "") {
  cgtb::cram_search_options o;
  o.tt_bytes = std::size_t{16} << 20;
  o.table = table;
  o.threads = 2;
  return o;
}

/// The text of a rows x cols board with empty cells `empty` (row-major bits
/// of a vector, for boards past 64 cells).
std::string board_text(int rows, int cols, const std::vector<bool>& empty) {
  std::string s;
  for (int r = 0; r < rows; ++r) {
    if (r) s += '/';
    for (int c = 0; c < cols; ++c) s += empty[static_cast<std::size_t>(r * cols + c)] ? '.' : '#';
  }
  return s;
}

/// G of a position by brute force: its regions found cell by cell here,
/// each solved on its own bounding box by the reference, values XORed; -1
/// when a region has more than 16 cells (too slow) or a box past 64 cells.
int brute_force(int rows, int cols, const std::vector<bool>& empty) {
  std::vector<bool> seen(empty.size(), false);
  int x = 0;
  for (int start = 0; start < rows * cols; ++start) {
    if (!empty[static_cast<std::size_t>(start)] || seen[static_cast<std::size_t>(start)]) continue;
    std::vector<int> part{start};
    seen[static_cast<std::size_t>(start)] = true;
    for (std::size_t i = 0; i < part.size(); ++i) {
      const int r = part[i] / cols, c = part[i] % cols;
      const int nb[4][2] = {{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
      for (const auto& n : nb) {
        if (n[0] < 0 || n[0] >= rows || n[1] < 0 || n[1] >= cols) continue;
        const int k = n[0] * cols + n[1];
        if (empty[static_cast<std::size_t>(k)] && !seen[static_cast<std::size_t>(k)]) {
          seen[static_cast<std::size_t>(k)] = true;
          part.push_back(k);
        }
      }
    }
    int r0 = rows, r1 = 0, c0 = cols, c1 = 0;
    for (int k : part)
      r0 = std::min(r0, k / cols), r1 = std::max(r1, k / cols), c0 = std::min(c0, k % cols),
      c1 = std::max(c1, k % cols);
    if (part.size() > 16 || (r1 - r0 + 1) * (c1 - c0 + 1) > 64) return -1;
    cram_reference ref(r1 - r0 + 1, c1 - c0 + 1);
    std::uint64_t mask = 0;
    for (int k : part) mask |= 1ull << ((k / cols - r0) * ref.cols() + (k % cols - c0));
    x ^= ref.normal(mask);
  }
  return x;
}

TEST(CramSearch, EmptyRectanglesEqualTheBruteForce) {
  cgtb::cram_search search(small_search());
  for (int rows = 1; rows <= 5; ++rows)
    for (int cols = rows; rows * cols <= 20; ++cols) {
      cram_reference ref(rows, cols);
      const auto rep = search.solve(cgtb::empty_board_text(rows, cols));
      ASSERT_TRUE(rep.complete);
      EXPECT_EQ(static_cast<int>(rep.grundy), ref.normal(ref.full())) << rows << "x" << cols;
    }
}

TEST(CramSearch, PositionsOfTheFiveBySixTableEqualItsValues) {
  cgtb_test::temp_dir dir;
  const std::string f = dir.file("cram-5x6.cgtb");
  const auto b = cgtb_test::run_cgtb({"build", "cram", "--board", "5x6", "-o", f, "--quiet"});
  ASSERT_EQ(b.code, 0) << cgtb_test::describe(b);
  cgtb::tablebase tb(f);
  auto drv = cgtb::driver_for_header(tb.header());
  cgtb::cram_search search(small_search());
  std::mt19937_64 rng(42);
  int checked = 0;
  for (const auto& le : tb.levels()) {
    // Every level, a share of its positions at random ranks (about 10,000 in all).
    const std::uint64_t take = std::min<std::uint64_t>(le.positions, 900);
    for (std::uint64_t i = 0; i < take; ++i) {
      const std::uint64_t rank = le.positions <= 900 ? i : rng() % le.positions;
      const std::string text = drv->format(le.level, tb.key_of(le.level, rank));  // a reachable class's image
      const auto rep = search.solve(text);
      ASSERT_TRUE(rep.complete);
      ASSERT_EQ(static_cast<std::int64_t>(rep.grundy), tb.value(le.level, rank, 0)) << text;
      ++checked;
    }
  }
  EXPECT_GE(checked, 9000);
}

TEST(CramSearch, AComponentTableChangesNoValue) {
  cgtb_test::temp_dir dir;
  const std::string f = dir.file("components-10.cgtb");
  const auto b = cgtb_test::run_cgtb({"build", "cram-components", "--max-cells", "10", "-o", f, "--quiet"});
  ASSERT_EQ(b.code, 0) << cgtb_test::describe(b);
  cgtb::cram_search with(small_search(f)), without(small_search());
  std::mt19937_64 rng(7);
  for (int t = 0; t < 60; ++t) {
    const int rows = 3 + static_cast<int>(rng() % 3), cols = 4 + static_cast<int>(rng() % 3);
    std::vector<bool> empty(static_cast<std::size_t>(rows * cols));
    for (std::size_t i = 0; i < empty.size(); ++i) empty[i] = rng() % 5 != 0;
    const std::string text = board_text(rows, cols, empty);
    const auto a = with.solve(text), c = without.solve(text);
    ASSERT_TRUE(a.complete && c.complete);
    EXPECT_EQ(a.grundy, c.grundy) << text;
    const int bf = brute_force(rows, cols, empty);
    if (bf >= 0) {
      EXPECT_EQ(static_cast<int>(a.grundy), bf) << text;
    }
  }
  EXPECT_GT(with.solve(cgtb::empty_board_text(4, 5)).table_reads, 0u);
}

TEST(CramSearch, BoardsOfSixtyFiveToOneHundredTwentyEightCells) {
  // Sparse positions whose regions reach every part of the 128-bit board:
  // each region solved apart by the brute force.
  cgtb::cram_search search(small_search());
  std::mt19937_64 rng(128);
  int checked = 0;
  for (auto [rows, cols] : std::vector<std::pair<int, int>>{{5, 13}, {7, 15}, {8, 16}, {4, 26}, {31, 4}}) {
    for (int t = 0, here = 0; t < 200 && here < 12; ++t) {
      std::vector<bool> empty(static_cast<std::size_t>(rows * cols));
      for (std::size_t i = 0; i < empty.size(); ++i) empty[i] = rng() % 100 < 42;
      const int bf = brute_force(rows, cols, empty);
      if (bf < 0) continue;
      const std::string text = board_text(rows, cols, empty);
      const auto rep = search.solve(text);
      ASSERT_TRUE(rep.complete) << text;
      EXPECT_EQ(static_cast<int>(rep.grundy), bf) << text;
      ++here;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 60);
}

TEST(CramSearchCli, AnswersAndRefusesInOneLine) {
  auto r = cgtb_test::run_cgtb({"search", "cram", "--board", "3x5", "--json", "-q"});
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  cram_reference ref(3, 5);
  EXPECT_NE(r.out.find("\"grundy\":" + std::to_string(ref.normal(ref.full()))), std::string::npos) << r.out;
  r = cgtb_test::run_cgtb({"search", "cram", "--board", "4x4", "--symmetry-shortcut", "--json", "-q"});
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  EXPECT_NE(r.out.find("\"by_symmetry\":true"), std::string::npos) << r.out;
  r = cgtb_test::run_cgtb({"search", "cram", "--board", "4x4", "--json", "-q"});
  EXPECT_EQ(r.out.find("by_symmetry"), std::string::npos) << r.out;
  // A time limit that cannot be met: exit 4 with what is known.
  r = cgtb_test::run_cgtb(
      {"search", "cram", "--board", "6x7", "--time-limit", "0.5", "--tt-memory", "64", "--json", "-q"});
  EXPECT_EQ(r.code, 4) << cgtb_test::describe(r);
  EXPECT_NE(r.out.find("\"stopped\":\"time limit\""), std::string::npos) << r.out;
  EXPECT_TRUE(cgtb_test::is_clean_refusal(cgtb_test::run_cgtb({"search", "cram", "--board", "9x15"})));
  EXPECT_TRUE(cgtb_test::is_clean_refusal(cgtb_test::run_cgtb({"search", "cram", "--board", "2x27"})));
  EXPECT_TRUE(cgtb_test::is_clean_refusal(cgtb_test::run_cgtb({"search", "cram", "--position", "../.x"})));
  EXPECT_TRUE(cgtb_test::is_clean_refusal(cgtb_test::run_cgtb({"search", "domineering", "--board", "3x3"})));
  EXPECT_TRUE(cgtb_test::is_clean_refusal(cgtb_test::run_cgtb({"search", "cram"})));
}

TEST(CramSearchCli, TheTranspositionTableFileCarriesASearchOn) {
  cgtb_test::temp_dir dir;
  const std::string tt = dir.file("search.tt");
  // Stopped by Ctrl-C (SIGINT after a second): exit 4, the table written.
  auto r =
      cgtb_test::run_cgtb({"search", "cram", "--board", "6x7", "--tt-file", tt, "--tt-memory", "64", "--json", "-q"},
                          "", {"timeout", "--preserve-status", "-s", "INT", "1"});
  EXPECT_EQ(r.code, 4) << cgtb_test::describe(r);
  EXPECT_NE(r.out.find("\"stopped\":\"interrupted\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"tt_saved\":true"), std::string::npos) << r.out;
  ASSERT_TRUE(cgtb_test::fs::exists(tt));
  // Read back: the next search starts from what the first found.
  r = cgtb_test::run_cgtb({"search", "cram", "--board", "3x6", "--tt-file", tt, "--tt-memory", "64", "--json", "-q"});
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  EXPECT_EQ(r.out.find("\"tt_loaded\":0,"), std::string::npos) << r.out;
  cram_reference ref(3, 6);
  EXPECT_NE(r.out.find("\"grundy\":" + std::to_string(ref.normal(ref.full()))), std::string::npos) << r.out;
  // A damaged file is refused in one line, and left as it is.
  std::string bytes = cgtb_test::read_bytes(tt);
  bytes[bytes.size() / 2] ^= 1;
  cgtb_test::write_bytes(tt, bytes);
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(
      cgtb_test::run_cgtb({"search", "cram", "--board", "3x6", "--tt-file", tt, "-q"}), {"corrupt"}));
  EXPECT_EQ(cgtb_test::read_bytes(tt), bytes);
}

}  // namespace
