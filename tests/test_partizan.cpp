// Partizan tablebases (issue 4): the outcome-class rule, Domineering and
// Cricket Pitch. Oracles: brute-force recursive solvers written here from the
// rules (independent of the engine's index and move generators), the
// Sprague-Grundy theorem (impartial games seen as partizan), Left/Right
// symmetry (transposed Domineering), the worked example and zero-isomorphism
// of "Cricket Pitch" (a ruleset page of the combinatorial game rulesets
// collection), and published Domineering outcomes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/games/cram.hpp"
#include "cgtb/games/cricket_pitch.hpp"
#include "cgtb/games/domineering.hpp"
#include "cgtb/games/impartial_as_partizan.hpp"
#include "cgtb/partizan_driver.hpp"
#include "cgtb/rules/impartial.hpp"
#include "cgtb/rules/partizan.hpp"
#include "cgtb/tablebase.hpp"
#include "test_support.hpp"

namespace {

using namespace cgtb;

std::string temp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("cgtb_partizan_" + std::to_string(getpid()) + "_" + name)).string();
}

using cgtb_test::solve_all;

template <class Game>
std::map<int, std::vector<partizan_record>> classes(const Game& g) {
  return solve_all<Game, partizan_rule>(g);
}

/// Builds a file through the partizan driver (both conventions).
template <class Game>
std::string build_file(const Game& g, const std::string& name) {
  std::string path = temp_file(name);
  build_request req;
  req.output = path;
  req.progress = false;
  partizan_driver<Game>(g).build(req);
  return path;
}

// ---------------------------------------------------- brute-force oracles
/// Normal and misère classes (partizan_record bit layout) of every region of
/// a rows x cols Domineering board, by memoised recursion over bitmasks with
/// moves generated from (row, column) coordinates.
struct domineering_brute {
  int rows, cols;
  std::vector<std::int8_t> memo;  // -1 unknown
  domineering_brute(int r, int c) : rows(r), cols(c), memo(std::size_t{1} << (r * c), -1) {}
  int solve(std::uint32_t m) {
    if (memo[m] >= 0) return memo[m];
    bool la = false, ra = false, nl = false, ml = false, nr = false, mr = false;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        auto cell = [&](int rr, int cc) { return std::uint32_t{1} << (rr * cols + cc); };
        if (!(m & cell(r, c))) continue;
        if (r + 1 < rows && (m & cell(r + 1, c))) {  // Left: vertical
          int o = solve(m & ~cell(r, c) & ~cell(r + 1, c));
          la = true;
          nl |= !(o & 2);
          ml |= !(o & 8);
        }
        if (c + 1 < cols && (m & cell(r, c + 1))) {  // Right: horizontal
          int o = solve(m & ~cell(r, c) & ~cell(r, c + 1));
          ra = true;
          nr |= !(o & 1);
          mr |= !(o & 4);
        }
      }
    if (!la) ml = true;
    if (!ra) mr = true;
    const int v = (nl ? 1 : 0) | (nr ? 2 : 0) | (ml ? 4 : 0) | (mr ? 8 : 0);
    memo[m] = static_cast<std::int8_t>(v);
    return v;
  }
};

/// The same for Cricket Pitch boards written as lists with the roller as -1,
/// moves made by moving the roller element through the list ("Cricket Pitch", Rules).
struct cricket_brute {
  std::map<std::vector<int>, int> memo;
  int solve(const std::vector<int>& b) {
    auto it = memo.find(b);
    if (it != memo.end()) return it->second;
    int at = 0;
    while (b[static_cast<std::size_t>(at)] != -1) ++at;
    bool la = false, ra = false, nl = false, ml = false, nr = false, mr = false;
    std::vector<int> q = b;  // Left: swap the roller leftwards over positive bumps
    for (int i = at; i > 0 && q[static_cast<std::size_t>(i - 1)] > 0; --i) {
      q[static_cast<std::size_t>(i)] = q[static_cast<std::size_t>(i - 1)] - 1;
      q[static_cast<std::size_t>(i - 1)] = -1;
      int o = solve(q);
      la = true;
      nl |= !(o & 2);
      ml |= !(o & 8);
    }
    q = b;
    for (std::size_t i = static_cast<std::size_t>(at); i + 1 < q.size() && q[i + 1] > 0; ++i) {
      q[i] = q[i + 1] - 1;
      q[i + 1] = -1;
      int o = solve(q);
      ra = true;
      nr |= !(o & 1);
      mr |= !(o & 4);
    }
    if (!la) ml = true;
    if (!ra) mr = true;
    int v = (nl ? 1 : 0) | (nr ? 2 : 0) | (ml ? 4 : 0) | (mr ? 8 : 0);
    memo[b] = v;
    return v;
  }
};

/// Both conventions of one position read from a file.
unsigned file_bits(tablebase& tb, int level, std::uint64_t rank) {
  return static_cast<unsigned>(tb.value(level, rank, tb.header().field_index("normal_class")) |
                               (tb.value(level, rank, tb.header().field_index("misere_class")) << 2));
}

TEST(Domineering, TablebaseMatchesBruteForceOnEveryPositionUpTo12Cells) {
  for (auto [r, c] : std::vector<std::pair<int, int>>{
           {1, 12}, {12, 1}, {2, 6}, {6, 2}, {3, 4}, {4, 3}, {2, 5}, {3, 3}, {1, 2}, {2, 2}}) {
    SCOPED_TRACE(std::to_string(r) + "x" + std::to_string(c));
    domineering g(r, c);
    std::string path = build_file(g, "dom.cgtb");
    tablebase tb(path);
    domineering_brute bf(r, c);
    auto v = g.host_view();
    std::uint64_t checked = 0;
    for (int level : g.levels())
      for (std::uint64_t i = 0; i < v.level_size(level); ++i, ++checked) {
        auto p = v.unrank(level, i);
        ASSERT_EQ(file_bits(tb, level, i), static_cast<unsigned>(bf.solve(static_cast<std::uint32_t>(p))))
            << g.format(p);
      }
    EXPECT_EQ(checked, 1ull << (r * c));
    std::filesystem::remove(path);
  }
}

TEST(CricketPitch, TablebaseMatchesBruteForceOnEveryBoardOfLength6Bumps3) {
  cricket_pitch g(6, 3);
  std::string path = build_file(g, "cp.cgtb");
  tablebase tb(path);
  cricket_brute bf;
  auto v = g.host_view();
  std::uint64_t checked = 0;
  for (int level : g.levels())
    for (std::uint64_t i = 0; i < v.level_size(level); ++i, ++checked) {
      auto p = v.unrank(level, i);
      std::vector<int> list;
      for (int k = 0; k < 5; ++k) {
        if (k == p.roller) list.push_back(-1);
        list.push_back(p.bump[k]);
      }
      if (p.roller == 5) list.push_back(-1);
      ASSERT_EQ(file_bits(tb, level, i), static_cast<unsigned>(bf.solve(list))) << g.format(p);
    }
  EXPECT_EQ(checked, 6u * 4 * 4 * 4 * 4 * 4);
  std::filesystem::remove(path);
}

// --------------------------------------------- impartial games as partizan
/// Cram seen as partizan (both players have the impartial options): the class
/// is N iff G != 0 (normal) and N iff G- != 0 (misère), never L or R
/// (Sprague-Grundy theorem, Winning Ways ch. 11; misère, ch. 13).
TEST(PartizanRule, CramSeenAsPartizanAgreesWithGrundyValues) {
  for (auto [r, c] : std::vector<std::pair<int, int>>{{3, 4}, {4, 4}, {3, 5}, {2, 7}}) {
    SCOPED_TRACE(std::to_string(r) + "x" + std::to_string(c));
    cram g(r, c);
    auto grundy = solve_all<cram, impartial_rule<0>>(g);
    auto cls = classes(impartial_as_partizan<cram>(g));
    ASSERT_EQ(grundy.size(), cls.size());
    std::uint64_t nonzero = 0;
    for (const auto& [level, recs] : grundy) {
      const auto& pc = cls.at(level);
      ASSERT_EQ(recs.size(), pc.size());
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const unsigned nc = partizan_rule::field(pc[i], field_normal_class);
        const unsigned mc = partizan_rule::field(pc[i], field_misere_class);
        ASSERT_EQ(nc, recs[i].g ? outcome_N : outcome_P) << "level " << level << " rank " << i;
        ASSERT_EQ(mc, recs[i].misere(0) ? outcome_N : outcome_P) << "level " << level << " rank " << i;
        nonzero += recs[i].g != 0;
      }
    }
    EXPECT_GT(nonzero, 0u);
  }
}

// ------------------------------------------------------------- Domineering
/// Transposing a region exchanges vertical and horizontal dominoes, i.e. Left
/// and Right: its class on the transposed board is the swapped class
/// (L <-> R; N, P stay), under both conventions, for every region.
TEST(Domineering, TransposingSwapsLeftAndRightOverWholeTables) {
  for (auto [r, c] : std::vector<std::pair<int, int>>{{4, 4}, {3, 5}, {2, 7}, {4, 5}}) {
    SCOPED_TRACE(std::to_string(r) + "x" + std::to_string(c));
    domineering a(r, c), b(c, r);
    auto ca = classes(a);
    auto cb = r == c ? ca : classes(b);
    auto va = a.host_view(), vb = b.host_view();
    std::uint64_t lr = 0;
    for (const auto& [level, recs] : ca)
      for (std::uint64_t i = 0; i < recs.size(); ++i) {
        auto t = a.transpose(va.unrank(level, i));
        const partizan_record tr = cb.at(level)[vb.rank(level, t)];
        for (int f : {field_normal_class, field_misere_class}) {
          const unsigned x = partizan_rule::field(recs[i], f);
          ASSERT_EQ(partizan_rule::field(tr, f), outcome_swap(x)) << a.format(va.unrank(level, i));
          lr += x == outcome_L || x == outcome_R;
        }
      }
    EXPECT_GT(lr, 0u);  // the symmetry is not vacuous
  }
}

char start_class(const domineering& g, const std::map<int, std::vector<partizan_record>>& c) {
  const int top = g.rows() * g.cols();
  return outcome_letter(partizan_rule::field(c.at(top)[g.host_view().rank(top, g.start())], field_normal_class));
}

/// Start positions under normal play against published outcomes (Left =
/// Vertical; V = L, H = R, "1st" = N, "2nd" = P):
/// - 2 x n: V, 1st, 1st, H repeating with period 4 from n = 1, and 3 x n:
///   V, 1st, 1st, then H for n >= 4: M. Lachmann, C. Moore, I. Rapaport,
///   "Who wins Domineering on rectangular boards?", More Games of No Chance
///   (MSRI Publ. 42, 2002), results for widths 2 and 3;
/// - 4 x 4: 1st; 5 x 5: 2nd: D. M. Breuker, J. W. H. M. Uiterwijk,
///   H. J. van den Herik, "Solving 8x8 Domineering", Theoretical Computer
///   Science 230 (2000), table of m x n outcomes (also G. C. Drummond-Cole,
///   "An update on Domineering on rectangular boards", Integers 14 (2014),
///   Table 1). 6 x 6 (1st) needs 2^36 positions and is out of this table's
///   reach (docs/performance.md).
/// The expected letters were written from these papers' tables as recalled;
/// their text could not be opened again while writing this test, so the
/// starts of 4x4, 4x5, 5x4 and 5x5 are also checked against the independent
/// brute-force solver, normal and misère.
TEST(Domineering, StartPositionsMatchPublishedOutcomes) {
  for (int n = 1; n <= 10; ++n) {
    domineering g(2, n);
    EXPECT_EQ(start_class(g, classes(g)), "LNNR"[(n - 1) % 4]) << "2x" << n;
  }
  for (int n = 1; n <= 7; ++n) {
    domineering g(3, n);
    EXPECT_EQ(start_class(g, classes(g)), n <= 3 ? "LNN"[n - 1] : 'R') << "3x" << n;
  }
  // 1 x n: Left has no move; Right wins once a horizontal domino fits.
  for (int n = 1; n <= 6; ++n) {
    domineering g(1, n), t(n, 1);
    EXPECT_EQ(start_class(g, classes(g)), n == 1 ? 'P' : 'R');
    EXPECT_EQ(start_class(t, classes(t)), n == 1 ? 'P' : 'L');
  }
  domineering d44(4, 4), d55(5, 5);
  auto c44 = classes(d44), c55 = classes(d55);
  EXPECT_EQ(start_class(d44, c44), 'N');
  EXPECT_EQ(start_class(d55, c55), 'P');
  auto start_bits = [](const domineering& g, const std::map<int, std::vector<partizan_record>>& c) {
    const int top = g.rows() * g.cols();
    return static_cast<int>(c.at(top)[g.host_view().rank(top, g.start())].bits);
  };
  for (auto [r, c] : std::vector<std::pair<int, int>>{{4, 4}, {4, 5}, {5, 4}, {5, 5}}) {
    domineering g(r, c);
    domineering_brute bf(r, c);
    const int expect = bf.solve(static_cast<std::uint32_t>(g.start()));
    EXPECT_EQ(start_bits(g, r == 4 && c == 4 ? c44 : r == 5 && c == 5 ? c55 : classes(g)), expect) << r << "x" << c;
  }
}

// ----------------------------------------------------------- Cricket Pitch
/// "Cricket Pitch", Notes: a zero cannot be rolled over, so a board is isomorphic to
/// the positive runs touching the roller. Every board of the table has the
/// class of that reduced board, placed first or last on the board.
// The two walks of cricket_pitch_view (the CPU's over the board's bytes, the
// GPU's over four words in registers) must give every board the same rank,
// the same board from each rank, and the same options in the same order:
// every board of four tables, the longest board (31 bumps, every word of the
// queue) sampled.
TEST(CricketPitch, RegisterWalkAgreesWithArrayWalk) {
  struct table_size {
    int length, max_bump;
    std::uint64_t stride;  // ranks visited: every stride-th
  };
  for (const table_size t : {table_size{1, 3, 1}, {5, 4, 1}, {9, 3, 1}, {12, 2, 1}, {32, 1, 1000003}}) {
    const cricket_pitch g(t.length, t.max_bump);
    const cricket_pitch_view v = g.host_view();
    for (int level : g.levels()) {
      for (std::uint64_t r = 0; r < v.level_size(level); r += t.stride) {
        const cricket_position a = v.unrank_from_arrays(level, r), b = v.unrank_in_registers(level, r);
        ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << g.params() << " level " << level << " rank " << r;
        ASSERT_EQ(v.rank_in_registers(level, a), r) << g.format(a);
        ASSERT_EQ(v.rank_from_arrays(level, a), r) << g.format(a);
        std::vector<std::pair<int, std::uint64_t>> arrays, registers;
        auto to = [](std::vector<std::pair<int, std::uint64_t>>& out) {
          return [&out](int l, std::uint64_t k) { out.push_back({l, k}); };
        };
        v.for_each_left_option_from_arrays(level, a, to(arrays));
        v.for_each_left_option_in_registers(level, a, to(registers));
        const std::size_t left = arrays.size();
        ASSERT_EQ(v.left_run(a), static_cast<int>(left)) << g.format(a);
        v.for_each_right_option_from_arrays(level, a, to(arrays));
        v.for_each_right_option_in_registers(level, a, to(registers));
        ASSERT_EQ(arrays, registers) << g.format(a);
        ASSERT_EQ(v.right_run(a), static_cast<int>(arrays.size() - left)) << g.format(a);
        ASSERT_EQ(v.option_count(a), static_cast<int>(arrays.size())) << g.format(a);
      }
    }
  }
}

TEST(CricketPitch, ZeroIsomorphicBoardsHaveTheSameClassOverTheWholeTable) {
  cricket_pitch g(8, 3);
  auto c = classes(g);
  auto v = g.host_view();
  std::uint64_t reduced_differs = 0;
  for (const auto& [level, recs] : c)
    for (std::uint64_t i = 0; i < recs.size(); ++i) {
      auto p = v.unrank(level, i);
      auto q = g.reduce(p);
      const int ql = g.level_of(q);  // unreachable bumps are dropped
      ASSERT_EQ(recs[i].bits, c.at(ql)[v.rank(ql, q)].bits) << g.format(p) << " vs " << g.format(q);
      // The same runs placed at the right end of the board.
      int used = 0;
      while (used < 7 && (used < q.roller || q.bump[used] > 0)) ++used;
      cricket_position s{};
      const int shift = 7 - used;
      for (int k = 0; k < used; ++k) s.bump[k + shift] = q.bump[k];
      s.roller = static_cast<std::uint8_t>(q.roller + shift);
      ASSERT_EQ(recs[i].bits, c.at(ql)[v.rank(ql, s)].bits) << g.format(p) << " vs " << g.format(s);
      reduced_differs += std::memcmp(&p, &q, sizeof p) != 0;
    }
  EXPECT_GT(reduced_differs, 0u);
}

TEST(CricketPitch, ParsesBothSyntaxesAndPadsShortBoards) {
  cricket_pitch g(10, 5);
  auto a = g.parse("[1,0,2,1,R,2,3]"), b = g.parse("1021R23"), c = g.parse(" [1, 0, 2, 1, R, 2, 3, 0, 0, 0] ");
  auto v = g.host_view();
  EXPECT_EQ(g.format(a), "[1,0,2,1,R,2,3]");
  EXPECT_EQ(v.rank(9, a), v.rank(9, b));
  EXPECT_EQ(v.rank(9, a), v.rank(9, c));
  EXPECT_EQ(g.level_of(a), 9);
  EXPECT_EQ(g.format(g.parse("R")), "[R]");
  EXPECT_THROW(g.parse("1021023"), input_error);
  EXPECT_THROW(g.parse("10R1R23"), input_error);
  EXPECT_THROW(g.parse("[1,-1,R]"), input_error);
  EXPECT_THROW(g.parse("[6,R]"), input_error);
  EXPECT_THROW(g.parse("[1,1,1,1,1,1,1,1,1,1,R]"), input_error);
  EXPECT_THROW(cricket_pitch(10, -1), input_error);
  EXPECT_THROW(cricket_pitch(0, 3), input_error);
  EXPECT_EQ(cricket_pitch::from_params(g.params()).params(), "L10-h5");
}

// ------------------------------------------------------------ command line
struct run_result {
  int status;
  std::string out;
};

run_result run(const std::string& args, bool merge_stderr) {
  std::string cmd = std::string(CGTB_BINARY) + " " + args + (merge_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* f = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  int st = pclose(f);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

class PartizanCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cp_ = new std::string(temp_file("cli_cp.cgtb"));
    dom_ = new std::string(temp_file("cli_dom.cgtb"));
    ASSERT_EQ(run("build cricket-pitch --length 7 --max-bump 3 -q -o " + *cp_, true).status, 0);
    ASSERT_EQ(run("build domineering --board 3x4 -q -o " + *dom_, true).status, 0);
  }
  static void TearDownTestSuite() {
    std::filesystem::remove(*cp_);
    std::filesystem::remove(*dom_);
    delete cp_;
    delete dom_;
  }
  static void expect_one_line_error(const std::string& args) {
    run_result r = run(args, true);
    EXPECT_NE(r.status, 0) << args;
    EXPECT_EQ(r.out.rfind("cgtb: error: ", 0), 0u) << args << " -> " << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << " -> " << r.out;
  }
  static std::string* cp_;
  static std::string* dom_;
};
std::string* PartizanCli::cp_ = nullptr;
std::string* PartizanCli::dom_ = nullptr;

/// `cgtb query --options` reproduces the worked option list of "Cricket Pitch", Examples, exactly,
/// from either syntax, each option with the outcome classes the table gives it.
TEST_F(PartizanCli, OptionsReproduceSeed000WorkedExample) {
  const std::string expected =
      "[1,0,2,1,R,2,3]\n"
      "Left: [1,0,2,R,0,2,3] (normal P, misere N), [1,0,R,1,0,2,3] (normal R, misere L)\n"
      "Right: [1,0,2,1,1,R,3] (normal L, misere L), [1,0,2,1,1,2,R] (normal L, misere N)\n";
  run_result a = run("query " + *cp_ + " --options '[1,0,2,1,R,2,3]'", false);
  EXPECT_EQ(a.status, 0);
  EXPECT_EQ(a.out, expected);
  run_result b = run("query " + *cp_ + " --options 1021R23", false);
  EXPECT_EQ(b.out, expected);
}

TEST_F(PartizanCli, QueryPrintsClassesAndWinningMoves) {
  // 2x2 corner region of the 3x4 board: each player's domino leaves a move
  // for themselves and none for the opponent, so N with two winning moves.
  run_result r = run("query " + *dom_ + " --json '..##/..##/####'", false);
  EXPECT_EQ(r.status, 0);
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["normal_outcome"], "N");
  EXPECT_EQ(j["normal_left_winning_moves"], nlohmann::json({"a1-a2", "b1-b2"}));
  EXPECT_EQ(j["normal_right_winning_moves"], nlohmann::json({"a1-b1", "a2-b2"}));
  EXPECT_EQ(j["misere_outcome"], "P");
}

TEST_F(PartizanCli, BadInputGivesOneLineErrorAndNonZeroExit) {
  expect_one_line_error("query " + *cp_ + " 1021023");               // roller missing
  expect_one_line_error("query " + *cp_ + " 10R1R23");               // roller doubled
  expect_one_line_error("query " + *cp_ + " '[1,-1,R]'");            // negative bump
  expect_one_line_error("query " + *cp_ + " '[4,R]'");               // bump above 3
  expect_one_line_error("query " + *cp_ + " '[1,0,2,1,R,2,3,1]'");   // longer than the table
  expect_one_line_error("query " + *cp_ + " '[1,x,R]'");             // not a bump
  expect_one_line_error("query " + *dom_ + " '../..'");              // wrong shape
  expect_one_line_error("query " + *dom_ + " '...../...../.....'");  // wrong shape
  // Never -o /dev/null: a build that succeeded would rename its file onto it.
  const std::string out = temp_file("cli_never_written.cgtb");
  expect_one_line_error("build cricket-pitch --length 7 --max-bump -1 -o " + out);
  expect_one_line_error("build cricket-pitch --length 40 --max-bump 1 -o " + out);
  expect_one_line_error("build domineering --board 9x9 -o " + out);
  EXPECT_FALSE(std::filesystem::exists(out));
  expect_one_line_error("census " + *dom_);
}

}  // namespace
