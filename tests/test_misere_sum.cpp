// cgtb sum (cgtb/misere_sum.hpp) against a brute-force search over whole sums
// written here, sharing no code with the product: Cram positions are cell
// bitmasks moved by tests/reference_solver.hpp's move generator, Nim heaps are
// numbers, and a sum is searched move by move with nothing but a memo.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "cgtb/cram_region.hpp"
#include "cgtb/error.hpp"
#include "cgtb/genus.hpp"
#include "cgtb/misere_quotient.hpp"
#include "cgtb/misere_sum.hpp"
#include "reference_solver.hpp"
#include "test_support.hpp"

namespace {

using cgtb_test::board_text;
using cgtb_test::cram_reference;

/// A component of a reference sum: a Cram position (board index, empty-cell
/// mask) or, with board -1, a Nim heap of `mask` counters.
struct ref_component {
  int board = -1;
  std::uint64_t mask = 0;
  bool operator<(const ref_component& o) const { return board != o.board ? board < o.board : mask < o.mask; }
  bool operator==(const ref_component& o) const { return board == o.board && mask == o.mask; }
};

/// Brute-force outcomes of sums: every move of every component tried.
class brute_sum {
 public:
  /// Boards by index; their positions are cell masks.
  std::vector<cram_reference> boards;

  std::vector<ref_component> options(const ref_component& c) const {
    std::vector<ref_component> out;
    if (c.board < 0) {
      for (std::uint64_t m = 0; m < c.mask; ++m) out.push_back({-1, m});
    } else {
      for (std::uint64_t o : boards[static_cast<std::size_t>(c.board)].options(c.mask)) out.push_back({c.board, o});
    }
    return out;
  }

  /// True when the player to move wins the sum; misère: a player with no
  /// move wins, normal: loses.
  bool win(std::vector<ref_component> s, bool misere) {
    std::sort(s.begin(), s.end());
    std::vector<std::uint64_t> key{misere ? 1u : 0u};
    for (const auto& c : s) key.push_back((static_cast<std::uint64_t>(c.board + 1) << 56) | c.mask);
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    bool any = false, result = false;
    for (std::size_t i = 0; i < s.size() && !result; ++i)
      for (const auto& o : options(s[i])) {
        any = true;
        std::vector<ref_component> next = s;
        next[i] = o;
        if (!win(next, misere)) {
          result = true;
          break;
        }
      }
    if (!any) result = misere;
    memo_[key] = result;
    return result;
  }

 private:
  struct key_hash {
    std::size_t operator()(const std::vector<std::uint64_t>& k) const {
      std::uint64_t h = 0;
      for (std::uint64_t x : k) {  // splitmix64 of each element, chained
        h += x + 0x9e3779b97f4a7c15ull;
        h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
        h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
        h ^= h >> 31;
      }
      return static_cast<std::size_t>(h);
    }
  };
  std::unordered_map<std::vector<std::uint64_t>, bool, key_hash> memo_;
};

/// The reference's positions reachable from the empty board, sorted.
std::vector<std::uint64_t> reachable_sorted(const cram_reference& b) {
  auto set = b.reachable();
  std::vector<std::uint64_t> v(set.begin(), set.end());
  std::sort(v.begin(), v.end());
  return v;
}

/// Tables for the sums: one Cram file per board, every value kind.
class MisereSum : public ::testing::Test {
 protected:
  struct board_file {
    int rows, cols;
    std::string path;
  };

  static void SetUpTestSuite() {
    dir_ = new cgtb_test::temp_dir();
    for (auto [r, c] :
         std::vector<std::pair<int, int>>{{1, 2}, {1, 3}, {2, 2}, {2, 3}, {3, 3}, {3, 4}, {2, 7}, {1, 10}}) {
      const std::string path = dir_->file("cram-" + board_text(r, c) + ".cgtb");
      cgtb_test::build_cram(r, c, "all", path);
      boards_.push_back({r, c, path});
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
    boards_.clear();
  }

  void SetUp() override {
    for (const auto& b : boards_) ref_.boards.emplace_back(b.rows, b.cols);
  }

  int board_index(int rows, int cols) const {
    for (std::size_t i = 0; i < boards_.size(); ++i)
      if (boards_[i].rows == rows && boards_[i].cols == cols) return static_cast<int>(i);
    return -1;
  }

  /// The term cgtb sum reads for a reference component.
  std::string term(const ref_component& c) const {
    if (c.board < 0) return "*" + std::to_string(c.mask);
    const auto b = static_cast<std::size_t>(c.board);
    return boards_[b].path + ":" + ref_.boards[b].text(c.mask);
  }
  std::vector<std::string> terms(const std::vector<ref_component>& s) const {
    std::vector<std::string> t;
    for (const auto& c : s) t.push_back(term(c));
    return t;
  }

  /// Checks both conventions of sum s, with and without the shortcuts, and
  /// the winning moves the product lists against the reference's outcomes of
  /// each move; returns the brute-force misère outcome.
  void expect_agrees(const std::vector<ref_component>& s, cgtb::sum_solver& fast, cgtb::sum_solver& plain,
                     bool check_moves) {
    const bool normal = ref_.win(s, false), misere = ref_.win(s, true);
    const cgtb::sum_answer a = fast.solve(terms(s));
    ASSERT_EQ(a.normal_outcome, normal ? 'N' : 'P') << a.text;
    ASSERT_EQ(a.misere_outcome, misere ? 'N' : 'P') << a.text;
    ASSERT_EQ(plain.misere_win(terms(s)), misere) << a.text << " (no shortcuts)";
    if (!check_moves) return;
    // Every move the reference finds winning is listed, and nothing else.
    std::size_t normal_wins = 0, misere_wins = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
      for (const auto& o : ref_.options(s[i])) {
        std::vector<ref_component> next = s;
        next[i] = o;
        normal_wins += !ref_.win(next, false);
        misere_wins += !ref_.win(next, true);
      }
    EXPECT_EQ(a.normal_winning.size(), normal_wins) << a.text;
    EXPECT_EQ(a.misere_winning.size(), misere_wins) << a.text;
  }

  static cgtb_test::temp_dir* dir_;
  static std::vector<board_file> boards_;
  brute_sum ref_;
};

cgtb_test::temp_dir* MisereSum::dir_ = nullptr;
std::vector<MisereSum::board_file> MisereSum::boards_;

cgtb::sum_settings without_shortcuts() {
  cgtb::sum_settings s;
  s.shortcuts = false;
  s.normal = false;
  s.winning_moves = false;
  return s;
}

// Every sum of up to three components, each a reachable position of a Cram
// board up to 3 x 3 (1x2, 1x3, 2x2, 2x3, 3x3) or a Nim heap up to 4.
TEST_F(MisereSum, EverySumOfUpToThreeSmallComponentsAgreesWithBruteForce) {
  std::vector<ref_component> pool;
  for (std::uint64_t n = 0; n <= 4; ++n) pool.push_back({-1, n});
  for (auto [r, c] : std::vector<std::pair<int, int>>{{1, 2}, {1, 3}, {2, 2}, {2, 3}, {3, 3}}) {
    const int b = board_index(r, c);
    for (std::uint64_t m : reachable_sorted(ref_.boards[static_cast<std::size_t>(b)])) pool.push_back({b, m});
  }
  cgtb::sum_solver fast, plain(without_shortcuts());
  std::size_t sums = 0;
  const std::size_t n = pool.size();
  for (std::size_t i = 0; i < n; ++i) {
    expect_agrees({pool[i]}, fast, plain, true);
    for (std::size_t j = i; j < n; ++j) {
      expect_agrees({pool[i], pool[j]}, fast, plain, true);
      for (std::size_t k = j; k < n; ++k) expect_agrees({pool[i], pool[j], pool[k]}, fast, plain, false);
      sums += 1 + (n - j);
    }
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(sums, 10000u);
  // The shortcuts decided some of them (or the comparison tested nothing).
  const cgtb::sum_stats st = fast.stats();
  EXPECT_GT(st.by_value, 0u);
  EXPECT_GT(st.by_genus_run, 0u);
  EXPECT_GT(st.by_tame, 0u);
}

// Random sums with wild positions: 3 x 4, 2 x 7 and the strip of ten (nothing
// below ten empty cells is wild), beside each other, small boards and heaps.
TEST_F(MisereSum, RandomSumsWithWildPositionsAgreeWithBruteForce) {
  std::vector<std::vector<std::uint64_t>> reach(ref_.boards.size());
  for (std::size_t b = 0; b < ref_.boards.size(); ++b) reach[b] = reachable_sorted(ref_.boards[b]);
  const int wild_boards[] = {board_index(3, 4), board_index(2, 7), board_index(1, 10)};
  std::mt19937_64 rng(2026);
  auto pick = [&](int b) {
    const auto& v = reach[static_cast<std::size_t>(b)];
    return ref_component{b, v[rng() % v.size()]};
  };
  cgtb::sum_solver fast, plain(without_shortcuts());
  int with_wild = 0;
  for (int t = 0; t < 2000; ++t) {
    std::vector<ref_component> s;
    const int wild = wild_boards[rng() % 3];
    // A wild board's own start or a random position of it; the 3 x 4 board's
    // two wild regions are one move from its start, so the start is offered
    // often.
    s.push_back(rng() % 4 == 0 ? ref_component{wild, ref_.boards[static_cast<std::size_t>(wild)].full()} : pick(wild));
    const int more = static_cast<int>(rng() % 3);
    for (int m = 0; m < more; ++m) {
      const std::uint64_t kind = rng() % 8;
      if (kind < 4)
        s.push_back({-1, rng() % 5});
      else if (kind < 7)
        s.push_back(pick(rng() % 2 ? board_index(2, 3) : board_index(3, 3)));
      else  // a second wild board's position: the sum of two wild components
        s.push_back(pick(wild_boards[rng() % 3]));
    }
    expect_agrees(s, fast, plain, t % 20 == 0);
    if (HasFatalFailure()) return;
    ++with_wild;
  }
  EXPECT_EQ(with_wild, 2000);
}

// The tame rule of Winning Ways ch. 13 (the shortcut the product takes),
// stated with the reference's own genus: a sum of hereditarily tame
// positions is a misère P-position exactly when its nim-sum is 0 and some
// component is firm, or its nim-sum is 1 and every component is fickle.
TEST_F(MisereSum, HereditarilyTameSumsFollowTheGenus) {
  std::vector<ref_component> tame;
  for (std::size_t b = 0; b < ref_.boards.size(); ++b) {
    cram_reference& board = ref_.boards[b];
    std::map<std::uint64_t, bool> hered;  // reachable positions, in increasing mask order
    for (std::uint64_t m : reachable_sorted(board)) {
      bool t = board.tame(m);
      for (std::uint64_t o : board.options(m)) t = t && hered.at(o);  // options have fewer cells: smaller masks
      hered[m] = t;
      if (t && tame.size() < 400 && m % 3 == 0) tame.push_back({static_cast<int>(b), m});
    }
  }
  ASSERT_GT(tame.size(), 100u);
  auto genus_of = [&](const ref_component& c, int& g, bool& firm) {
    cram_reference& board = ref_.boards[static_cast<std::size_t>(c.board)];
    g = board.normal(c.mask);
    firm = board.misere(c.mask) == g;  // firm n^{n,n+2}; fickle 0^{120}, 1^{031} start elsewhere
  };
  std::mt19937_64 rng(13);
  int decided = 0;
  for (int t = 0; t < 1000; ++t) {
    std::vector<ref_component> s;
    const int n = 2 + static_cast<int>(rng() % 2);
    int x = 0;
    bool firm = false;
    for (int i = 0; i < n; ++i) {
      s.push_back(tame[rng() % tame.size()]);
      int g;
      bool f;
      genus_of(s.back(), g, f);
      x ^= g;
      firm = firm || f;
    }
    const bool p = firm ? x == 0 : x == 1;
    ASSERT_EQ(ref_.win(s, true), !p) << terms(s)[0];
    ++decided;
  }
  EXPECT_EQ(decided, 1000);
}

TEST_F(MisereSum, BadTermsAreRefusedWithOneLine) {
  cgtb::sum_solver solver;
  const std::string c33 = boards_[static_cast<std::size_t>(board_index(3, 3))].path;
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {},
           {"*"},
           {"*-1"},
           {"*1x"},
           {"*99999999"},
           {"nofile.cgtb:..."},
           {c33 + ":..x/.../..."},
           {c33 + ":#../.../..."},  // one covered cell: no domino tiling, not reachable
           {c33},
       }) {
    try {
      solver.solve(bad);
      ADD_FAILURE() << "accepted: " << (bad.empty() ? "(no term)" : bad[0]);
    } catch (const cgtb::input_error& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
  EXPECT_EQ(cgtb::split_sum_terms(" a:1  +  *2\t b:3 "), (std::vector<std::string>{"a:1", "*2", "b:3"}));
  // Big heaps: their moves are made on the fly, so the winning moves of a
  // sum of two heaps of a million cost no quadratic memory. Misère Nim: the
  // only winning move evens the heaps.
  const cgtb::sum_answer big = solver.solve({"*1000000", "*999999"});
  EXPECT_EQ(big.misere_outcome, 'N');
  ASSERT_EQ(big.misere_winning.size(), 1u);
  EXPECT_EQ(big.misere_winning[0].after, "*999999");
  EXPECT_LT(solver.memory_bytes(), std::size_t{512} << 20);
}

TEST_F(MisereSum, CliAnswersJsonLinesFromStdinAndRefusesPartizanTables) {
  const std::string c34 = boards_[static_cast<std::size_t>(board_index(3, 4))].path;
  const auto r = cgtb_test::run_cgtb({"sum", "--json"}, c34 + ":..../..../.... *1\n% comment\n\n*2 + *2\n");
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  std::istringstream lines(r.out);
  std::string line;
  std::vector<nlohmann::json> answers;
  while (std::getline(lines, line)) answers.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(answers.size(), 2u);
  // 3 x 4 beside *1, from the reference; *2 + *2 is a P-position both ways.
  brute_sum ref;
  ref.boards.emplace_back(3, 4);
  const bool n34 = ref.win({{0, ref.boards[0].full()}, {-1, 1}}, false);
  const bool m34 = ref.win({{0, ref.boards[0].full()}, {-1, 1}}, true);
  EXPECT_EQ(answers[0]["normal_outcome"], n34 ? "N" : "P");
  EXPECT_EQ(answers[0]["misere_outcome"], m34 ? "N" : "P");
  EXPECT_EQ(answers[1]["normal_outcome"], "P");
  EXPECT_EQ(answers[1]["misere_outcome"], ref.win({{-1, 2}, {-1, 2}}, true) ? "N" : "P");

  cgtb_test::temp_dir dir;
  const std::string dom = dir.file("dom.cgtb");
  ASSERT_EQ(cgtb_test::run_cgtb({"build", "domineering", "--board", "2x2", "-q", "-o", dom}).code, 0);
  EXPECT_TRUE(cgtb_test::is_clean_refusal(cgtb_test::run_cgtb({"sum", dom + ":../.."})));
  EXPECT_TRUE(cgtb_test::is_clean_refusal(cgtb_test::run_cgtb({"sum", c34 + ":..../..../....", "*x"})));
  const auto bad_line = cgtb_test::run_cgtb({"sum"}, "*1\n*y\n");
  EXPECT_TRUE(cgtb_test::is_clean_error(bad_line));
  EXPECT_NE(bad_line.err.find("line 2"), std::string::npos) << bad_line.err;
}

}  // namespace

// ------------------------------------------------------ Cram regions, no table

namespace {

// ------------------------------------------ "Cram with the last move losing"

/// Every Nim position of up to `heaps` heaps of 1..`size` counters, as terms.
std::vector<std::vector<std::string>> nim_positions(int heaps, int size) {
  std::vector<std::vector<std::string>> out{{}};
  std::vector<int> h;
  std::function<void(int)> grow = [&](int from) {
    if (static_cast<int>(h.size()) == heaps) return;
    for (int v = from; v <= size; ++v) {
      h.push_back(v);
      std::vector<std::string> t;
      for (int x : h) t.push_back("*" + std::to_string(x));
      out.push_back(t);
      grow(v);
      h.pop_back();
    }
  };
  grow(1);
  return out;
}

std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  if (a.empty()) a.push_back("*0");
  return a;
}

// The essay's section "What tame buys, tested in wild company": 3 x 4 and
// 2 x 7 may be replaced by one counter and the strip of four by *2 beside
// nothing, the strip of ten and the wild ten-square region of 3 x 4, with
// small Nim positions; replacing 3 x 4 by nothing or the strip by *3 fails.
TEST_F(MisereSum, Seed004SubstitutionInWildCompany) {
  cgtb_test::temp_dir dir;
  const std::string strip4 = dir.file("cram-1x4.cgtb");
  cgtb_test::build_cram(1, 4, "all", strip4);
  const std::string b34 = boards_[static_cast<std::size_t>(board_index(3, 4))].path;
  const std::string b27 = boards_[static_cast<std::size_t>(board_index(2, 7))].path;
  const std::string b110 = boards_[static_cast<std::size_t>(board_index(1, 10))].path;
  const std::vector<std::vector<std::string>> companies{{}, {b110 + ":.........."}, {b34 + ":..../##../...."}};
  const auto nims = nim_positions(2, 3);
  ASSERT_EQ(nims.size(), 10u);
  cgtb::sum_solver solver;
  auto disagreements = [&](const std::string& board, const std::vector<std::string>& replacement) {
    int d = 0;
    for (const auto& c : companies)
      for (const auto& n : nims)
        d += solver.misere_win(joined(joined({board}, c), n)) != solver.misere_win(joined(joined(replacement, c), n));
    return d;
  };
  EXPECT_EQ(disagreements(b34 + ":..../..../....", {"*1"}), 0);
  EXPECT_EQ(disagreements(b27 + ":......./.......", {"*1"}), 0);
  EXPECT_EQ(disagreements(strip4 + ":....", {"*2"}), 0);
  EXPECT_GT(disagreements(b34 + ":..../..../....", {}), 0);
  EXPECT_GT(disagreements(strip4 + ":....", {"*3"}), 0);
}

// The essay: every Nim position of up to three heaps of up to seven (119
// besides the empty one) disagrees with 3 x 6 and with 4 x 5 in at least one
// of the 56 misère sums with up to three further heaps of up to five.
TEST(MisereSumSeed004, ThreeBySixAndFourByFiveAreNoDisguisedNimPosition) {
  cgtb_test::temp_dir dir;
  const auto tests = nim_positions(3, 5), candidates = nim_positions(3, 7);
  ASSERT_EQ(tests.size(), 56u);
  ASSERT_EQ(candidates.size(), 120u);
  cgtb::sum_solver solver;
  for (auto [rows, cols] : std::vector<std::pair<int, int>>{{3, 6}, {4, 5}}) {
    const std::string path = dir.file("cram-" + board_text(rows, cols) + ".cgtb");
    cgtb_test::build_cram(rows, cols, "all", path);
    const std::string board = path + ":" + cram_reference(rows, cols).text(cram_reference(rows, cols).full());
    std::vector<bool> with_board;
    for (const auto& t : tests) with_board.push_back(solver.misere_win(joined({board}, t)));
    for (const auto& c : candidates) {
      int d = 0;
      for (std::size_t i = 0; i < tests.size(); ++i) d += solver.misere_win(joined(c, tests[i])) != with_board[i];
      EXPECT_GT(d, 0) << board_text(rows, cols) << " agrees with a Nim position of " << c.size() << " heaps";
    }
  }
}

/// Connected parts of `mask` on a board, by a flood fill cell by cell.
std::vector<std::uint64_t> reference_parts(const cram_reference& b, std::uint64_t mask) {
  std::vector<std::uint64_t> out;
  while (mask) {
    std::uint64_t part = 0;
    std::vector<int> stack{__builtin_ctzll(mask)};
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      if (!((mask >> i) & 1) || ((part >> i) & 1)) continue;
      part |= 1ull << i;
      const int r = i / b.cols(), c = i % b.cols();
      if (c > 0) stack.push_back(i - 1);
      if (c + 1 < b.cols()) stack.push_back(i + 1);
      if (r > 0) stack.push_back(i - b.cols());
      if (r + 1 < b.rows()) stack.push_back(i + b.cols());
    }
    out.push_back(part);
    mask &= ~part;
  }
  return out;
}

TEST(CramRegions, FreePolyominoCountsAreOeisA000105) {
  // OEIS A000105, free polyominoes with n cells, n = 1..10.
  const std::vector<std::size_t> a000105{1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655};
  std::vector<std::size_t> count(11, 0);
  for (const auto& r : cgtb::free_polyominoes(10)) ++count[static_cast<std::size_t>(r.cells())];
  for (std::size_t n = 1; n <= 10; ++n) EXPECT_EQ(count[n], a000105[n - 1]) << n << " cells";
}

TEST(CramRegions, PartsAreTheConnectedRegionsUpToSymmetry) {
  std::mt19937_64 rng(5);
  for (auto [rows, cols] : std::vector<std::pair<int, int>>{{4, 5}, {3, 6}, {6, 6}, {1, 12}}) {
    const cram_reference b(rows, cols);
    for (int t = 0; t < 300; ++t) {
      const std::uint64_t mask = rng() & b.full();
      const auto parts = cgtb::region_parts(rows, cols, mask);
      const auto ref = reference_parts(b, mask);
      ASSERT_EQ(parts.size(), ref.size());
      std::multiset<int> a, c;
      for (const auto& p : parts) a.insert(p.cells());
      for (std::uint64_t p : ref) c.insert(__builtin_popcountll(p));
      EXPECT_EQ(a, c);
      // The same position turned a quarter and mirrored has the same parts.
      std::uint64_t turned = 0;  // (r, c) -> (c, rows - 1 - r) on a cols x rows board
      for (int i = 0; i < rows * cols; ++i)
        if ((mask >> i) & 1) turned |= 1ull << ((i % cols) * rows + (rows - 1 - i / cols));
      const auto parts2 = cgtb::region_parts(cols, rows, turned);
      ASSERT_EQ(parts2.size(), parts.size());
      for (std::size_t i = 0; i < parts.size(); ++i) EXPECT_TRUE(parts[i] == parts2[i]) << parts[i].text();
    }
  }
}

TEST_F(MisereSum, CramRegionTermsAgreeWithBruteForceAndWithTheTables) {
  std::mt19937_64 rng(77);
  cgtb::sum_solver fast, plain(without_shortcuts());
  const int boards[] = {board_index(3, 4), board_index(2, 7), board_index(3, 3), board_index(1, 10)};
  std::vector<std::vector<std::uint64_t>> reach(ref_.boards.size());
  for (std::size_t b = 0; b < ref_.boards.size(); ++b) reach[b] = reachable_sorted(ref_.boards[b]);
  for (int t = 0; t < 600; ++t) {
    std::vector<ref_component> s;
    const int n = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < n; ++i) {
      if (rng() % 4 == 0) {
        s.push_back({-1, rng() % 4});
        continue;
      }
      const int b = boards[rng() % 4];
      const auto& v = reach[static_cast<std::size_t>(b)];
      s.push_back({b, v[rng() % v.size()]});
    }
    std::vector<std::string> as_regions, as_files = terms(s);
    for (const auto& c : s)
      as_regions.push_back(c.board < 0 ? term(c)
                                       : "cram:" + ref_.boards[static_cast<std::size_t>(c.board)].text(c.mask));
    const bool normal = ref_.win(s, false), misere = ref_.win(s, true);
    const cgtb::sum_answer a = fast.solve(as_regions);
    ASSERT_EQ(a.normal_outcome, normal ? 'N' : 'P') << a.text;
    ASSERT_EQ(a.misere_outcome, misere ? 'N' : 'P') << a.text;
    ASSERT_EQ(plain.misere_win(as_regions), misere) << a.text;
    const cgtb::sum_answer f = fast.solve(as_files);
    EXPECT_EQ(a.grundy, f.grundy) << a.text;
    EXPECT_EQ(a.normal_winning.size(), f.normal_winning.size()) << a.text;
    EXPECT_EQ(a.misere_winning.size(), f.misere_winning.size()) << a.text;
  }
}

// The bounded classes of regions up to 5 cells, tested with up to two further
// regions, by brute force: each region on its own bounding box, every test
// sum searched by the reference.
TEST(CramRegions, BoundedClassesMatchABruteForcePartition) {
  const int n = 5;
  cgtb::region_classes_options opt;
  opt.max_cells = n;
  opt.check = 2000;
  const cgtb::region_classes_report rep = cgtb::cram_region_classes(opt);
  brute_sum ref;
  std::vector<ref_component> regions{{-1, 0}};  // the empty region: a heap of 0
  for (const auto& r : cgtb::free_polyominoes(n)) {
    ref.boards.emplace_back(r.rows, r.cols);
    regions.push_back({static_cast<int>(ref.boards.size()) - 1, r.mask});
  }
  ASSERT_EQ(rep.regions, regions.size());
  // Nothing below ten cells is wild: the set's quotient is misère Nim's T2,
  // and its prediction agrees with a search without shortcuts.
  EXPECT_TRUE(rep.hereditarily_tame);
  EXPECT_FALSE(rep.quotient.empty());
  EXPECT_EQ(rep.checked, 2000u);
  EXPECT_EQ(rep.check_agreed, rep.checked);
  EXPECT_EQ(rep.quotient.rfind("T2 ", 0), 0u) << rep.quotient;
  // Up to 3 cells every region plays like 0 or *1: misère Nim on *1 only.
  opt.max_cells = 3;
  EXPECT_EQ(cgtb::cram_region_classes(opt).quotient.rfind("T1 ", 0), 0u);
  const std::size_t m = regions.size();
  std::vector<std::vector<ref_component>> tests{{}};
  for (std::size_t i = 0; i < m; ++i) {
    tests.push_back({regions[i]});
    for (std::size_t j = i; j < m; ++j) tests.push_back({regions[i], regions[j]});
  }
  std::vector<std::string> signature(m);
  for (std::size_t r = 0; r < m; ++r)
    for (const auto& t : tests) {
      std::vector<ref_component> s = t;
      s.push_back(regions[r]);
      signature[r] += ref.win(s, true) ? 'N' : 'P';
    }
  std::map<std::string, std::uint64_t> classes;
  for (const auto& sig : signature) ++classes[sig];
  ASSERT_EQ(rep.classes.size(), classes.size());
  std::multiset<std::uint64_t> want, got;
  for (const auto& [sig, members] : classes) want.insert(members);
  for (const auto& c : rep.classes) got.insert(c.members);
  EXPECT_EQ(got, want);
  // Each class's genus, from the reference on its representative's board.
  for (const auto& c : rep.classes) {
    if (c.representative.empty()) continue;
    const int rows = static_cast<int>(std::count(c.representative.begin(), c.representative.end(), '/')) + 1;
    const int cols = static_cast<int>(c.representative.find('/') == std::string::npos ? c.representative.size()
                                                                                      : c.representative.find('/'));
    cram_reference b(rows, cols);
    std::uint64_t mask = 0;
    int i = 0;
    for (char ch : c.representative)
      if (ch != '/') mask |= static_cast<std::uint64_t>(ch == '.') << i++;
    cgtb::genus gn;
    gn.g = static_cast<unsigned>(b.normal(mask));
    for (int v : b.genus_run(mask)) gn.run.push_back(static_cast<unsigned>(v));
    EXPECT_EQ(c.genus, gn.symbol()) << c.representative;
  }
}

}  // namespace
