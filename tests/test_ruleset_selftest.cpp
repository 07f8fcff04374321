// The ruleset self-test (tests/ruleset_selftest.hpp) on every ruleset the
// backends are instantiated for (cuda/src/instantiations.inc: a ruleset
// without cases here does not compile), on a few parameter sets each, every
// level. Each ruleset's Traits give a plain move generator written from the
// game's rules (its header in cuda/include/cgtb/games/), never the view's own
// option walk, and count each level's positions independently.
//
// The keyed (reachable, symmetry-reduced) domino games are checked over the
// coded key lists the solver's forward pass finds (ranks through the keys,
// not the solver's rank tables, which tests/test_reachable_index.cpp covers); on
// top of the self-test, their canonical image is checked cell by cell: it is
// idempotent, the same for every image of a position (and so is the view's
// rank), the orbit size is the number of distinct images, and file keys
// invert.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/games/blocking_nim.hpp"
#include "cgtb/games/cram.hpp"
#include "cgtb/games/cram_components.hpp"
#include "cgtb/games/cricket_pitch.hpp"
#include "cgtb/games/domineering.hpp"
#include "cgtb/games/domino_reachable.hpp"
#include "cgtb/games/impartial_as_partizan.hpp"
#include "cgtb/games/octal.hpp"
#include "cgtb/games/rit.hpp"
#include "cgtb/games/scoring_octal.hpp"
#include "cgtb/rules/impartial.hpp"
#include "cgtb/rules/partizan.hpp"
#include "impartial_reference.hpp"
#include "reference_solver.hpp"
#include "ruleset_selftest.hpp"
#include "scoring_reference.hpp"

namespace {

using cgtb_test::selftest_limits;

/// One parameter set of one ruleset.
struct selftest_case {
  std::string name;
  std::function<void()> run;
};
void PrintTo(const selftest_case& c, std::ostream* os) { *os << c.name; }

std::vector<int> levels_to(int top) {
  std::vector<int> v;
  for (int l = 0; l <= top; ++l) v.push_back(l);
  return v;
}

/// Levels of up to `exhaustive` positions rank by rank, else `samples` random
/// ranks.
selftest_limits sampled(int samples, std::uint64_t exhaustive = selftest_limits{}.exhaustive) {
  selftest_limits lim;
  lim.samples = samples;
  lim.exhaustive = exhaustive;
  return lim;
}

/// The cases of one ruleset (specialised below for each game of
/// instantiations.inc).
template <class Game>
struct ruleset_cases;

// ------------------------------------------------------------ domino games

/// C(n, k) from the test's own Pascal triangle (n <= 64).
std::uint64_t binomial(int n, int k) {
  static const std::vector<std::vector<std::uint64_t>> pascal = [] {
    std::vector<std::vector<std::uint64_t>> c(65, std::vector<std::uint64_t>(66, 0));
    for (int i = 0; i <= 64; ++i) {
      c[i][0] = 1;
      for (int j = 1; j <= i; ++j) c[i][j] = c[i - 1][j - 1] + c[i - 1][j];
    }
    return c;
  }();
  return k < 0 || k > n ? 0 : pascal[n][k];
}

/// Every subset of a rows x cols board (Cram, Domineering, both seen
/// impartially or partizan): moves from tests/reference_solver.hpp.
struct domino_traits {
  cgtb_test::cram_reference ref;
  bool valid(int level, std::uint64_t p) const { return (p & ~ref.full()) == 0 && __builtin_popcountll(p) == level; }
  int level_of(std::uint64_t p) const { return __builtin_popcountll(p); }
  std::uint64_t positions(int level) const { return binomial(ref.cells(), level); }
  bool option_level_ok(int from, int to) const { return to == from - 2; }
  std::vector<std::uint64_t> plain_options(int, std::uint64_t p) const { return ref.options(p); }
  std::vector<std::uint64_t> plain_left_options(int, std::uint64_t p) const { return ref.vertical_options(p); }
  std::vector<std::uint64_t> plain_right_options(int, std::uint64_t p) const { return ref.horizontal_options(p); }
};

struct board {
  int rows, cols;
  std::string text() const { return std::to_string(rows) + "x" + std::to_string(cols); }
};

/// Boards up to 12 cells, and 4x4 and 3x5, every rank; larger ones sampled.
selftest_limits board_limits(const board& b) {
  const int cells = b.rows * b.cols;
  if (cells <= 12 || (b.rows == 4 && b.cols == 4) || (b.rows == 3 && b.cols == 5)) return selftest_limits{};
  return sampled(20, 1000);
}

template <>
struct ruleset_cases<cgtb::cram> {
  static std::vector<selftest_case> cases() {
    std::vector<selftest_case> v;
    // Up to 16 cells every rank; 64 cells reach the top bit of the mask and
    // C(64, 32) in the index.
    for (board b :
         {board{1, 1}, board{1, 2}, board{1, 12}, board{12, 1}, board{2, 2}, board{2, 8}, board{8, 2}, board{3, 3},
          board{3, 5}, board{5, 3}, board{4, 4}, board{8, 8}, board{4, 16}, board{7, 9}, board{64, 1}, board{2, 26}})
      v.push_back({"cram_" + b.text(), [b] {
                     const cgtb::cram g(b.rows, b.cols);
                     // Every level 0..cells (the view indexes all of them).
                     cgtb_test::ruleset_selftest(g.host_view(), domino_traits{{b.rows, b.cols}},
                                                 levels_to(b.rows * b.cols), board_limits(b));
                   }});
    return v;
  }
};

template <>
struct ruleset_cases<cgtb::domineering> {
  static std::vector<selftest_case> cases() {
    std::vector<selftest_case> v;
    for (board b :
         {board{1, 1}, board{1, 5}, board{3, 4}, board{4, 3}, board{2, 6}, board{4, 4}, board{8, 8}, board{5, 7}})
      v.push_back(
          {"domineering_" + b.text(), [b] {
             const cgtb::domineering g(b.rows, b.cols);
             cgtb_test::ruleset_selftest(g.host_view(), domino_traits{{b.rows, b.cols}}, g.levels(), board_limits(b));
           }});
    return v;
  }
};

template <>
struct ruleset_cases<cgtb::impartial_as_partizan<cgtb::cram>> {
  static std::vector<selftest_case> cases() {
    std::vector<selftest_case> v;
    for (board b : {board{2, 3}, board{3, 3}, board{4, 4}})
      v.push_back(
          {"impartial_as_partizan_cram_" + b.text(), [b] {
             // Left's and Right's options are both the impartial ones.
             struct both_players : domino_traits {
               std::vector<std::uint64_t> plain_left_options(int, std::uint64_t p) const { return ref.options(p); }
               std::vector<std::uint64_t> plain_right_options(int, std::uint64_t p) const { return ref.options(p); }
             };
             const cgtb::impartial_as_partizan<cgtb::cram> g(cgtb::cram(b.rows, b.cols));
             cgtb_test::ruleset_selftest(g.host_view(), both_players{{{b.rows, b.cols}}}, levels_to(b.rows * b.cols));
           }});
    return v;
  }
};

/// The level descriptors of a keyed game's view: each level's keys as the
/// solver's forward pass stores them (Elias-Fano coded, as in
/// cuda/src/solve_index.hpp).
template <class Game, class Rule>
class keyed_tables {
 public:
  explicit keyed_tables(const Game& g) {
    const std::size_t top = static_cast<std::size_t>(g.levels().back()) + 1;
    keys_.resize(top);
    levels_.resize(top);
    cgtb::solve<Game, Rule>(g, {},
                            [&](const cgtb::level_report& rep, const cgtb::level_records<typename Rule::record>&) {
                              keys_[static_cast<std::size_t>(rep.level)] = *rep.keys;
                            });
    for (std::size_t l = 0; l < top; ++l) levels_[l] = keys_[l].view();
  }
  keyed_tables(const keyed_tables&) = delete;
  keyed_tables& operator=(const keyed_tables&) = delete;
  typename Game::view_type view(const Game& g) const { return g.view(g.table().data(), levels_.data()); }

 private:
  std::vector<cgtb::elias_fano_keys> keys_;
  std::vector<cgtb::reachable_level> levels_;
};

/// The reachable, symmetry-reduced domino tables: a level holds the least
/// images of the regions reachable from the empty board (found here by a
/// search with moves and images computed cell by cell); options are ranked
/// as their least images.
struct reachable_domino_traits {
  cgtb_test::cram_reference ref;
  cgtb_test::board_symmetry_reference sym;
  std::map<int, std::set<std::uint64_t>> classes;  // by level

  reachable_domino_traits(const board& b, const std::string& group) : ref(b.rows, b.cols), sym{b.rows, b.cols, group} {
    for (std::uint64_t p : ref.reachable()) classes[__builtin_popcountll(p)].insert(sym.least_image(p));
  }
  bool valid(int level, std::uint64_t p) const {
    auto it = classes.find(level);
    return it != classes.end() && it->second.count(p) > 0;
  }
  int level_of(std::uint64_t p) const { return __builtin_popcountll(p); }
  std::uint64_t positions(int level) const {
    auto it = classes.find(level);
    return it == classes.end() ? 0 : it->second.size();
  }
  bool option_level_ok(int from, int to) const { return to == from - 2; }
  std::vector<std::uint64_t> canonical(std::vector<std::uint64_t> v) const {
    for (auto& p : v) p = sym.least_image(p);
    return v;
  }
  std::vector<std::uint64_t> plain_options(int, std::uint64_t p) const { return canonical(ref.options(p)); }
  std::vector<std::uint64_t> plain_left_options(int, std::uint64_t p) const {
    return canonical(ref.vertical_options(p));
  }
  std::vector<std::uint64_t> plain_right_options(int, std::uint64_t p) const {
    return canonical(ref.horizontal_options(p));
  }
};

/// The canonical image of the owner against the cell-by-cell one, on
/// `positions`: idempotent, the same for every image, orbit sizes, file keys.
template <class Game>
void expect_canonical_images(const Game& g, const cgtb_test::board_symmetry_reference& sym,
                             const std::vector<std::uint64_t>& positions) {
  for (std::uint64_t p : positions) {
    const std::uint64_t c = g.canonical(p);
    ASSERT_EQ(c, sym.least_image(p)) << p;
    ASSERT_EQ(g.canonical(c), c) << p;
    for (int k = 0; k < sym.size(); ++k) ASSERT_EQ(g.canonical(sym.image(p, k)), c) << p << " image " << k;
    ASSERT_EQ(g.orbit_size(p), sym.orbit(p)) << p;
    ASSERT_EQ(g.from_file_key(__builtin_popcountll(c), g.file_key(c)), c) << p;
  }
}

/// Random regions of a board (any subset: canonical images are defined for
/// every mask).
std::vector<std::uint64_t> random_regions(const board& b, int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::uint64_t full = b.rows * b.cols == 64 ? ~0ull : (1ull << (b.rows * b.cols)) - 1;
  std::vector<std::uint64_t> v;
  for (int i = 0; i < n; ++i) v.push_back((i % 2 ? rng() & rng() : rng()) & full);
  return v;
}

/// The self-test of a keyed domino game on board b under `group`, then its
/// canonical images on every reachable region and on random ones.
template <class Game, class Rule, class Base>
void reachable_selftest(const board& b, const std::string& group) {
  const Game g(Base(b.rows, b.cols), group);
  const keyed_tables<Game, Rule> tables(g);
  const auto view = tables.view(g);
  const reachable_domino_traits traits(b, group);
  cgtb_test::ruleset_selftest(view, traits, g.levels());
  if (::testing::Test::HasFatalFailure()) return;
  const auto all = traits.ref.reachable();
  const std::vector<std::uint64_t> reachable(all.begin(), all.end());
  expect_canonical_images(g, traits.sym, reachable);
  expect_canonical_images(g, traits.sym, random_regions(b, 2000, 4));
  // The view ranks any image of a stored position as the position.
  for (std::uint64_t p : reachable) {
    const int level = __builtin_popcountll(p);
    const std::uint64_t r = view.rank(level, traits.sym.least_image(p));
    ASSERT_LT(r, view.level_size(level));
    for (int k = 0; k < traits.sym.size(); ++k) ASSERT_EQ(view.rank(level, traits.sym.image(p, k)), r) << p;
  }
}

/// Canonical images only, on boards too large to build the tables of.
template <class Game, class Base>
void canonical_only(const board& b, const std::string& group) {
  const Game g(Base(b.rows, b.cols), group);
  expect_canonical_images(g, {b.rows, b.cols, group}, random_regions(b, 2000, 5));
}

template <>
struct ruleset_cases<cgtb::cram_reachable> {
  static std::vector<selftest_case> cases() {
    std::vector<selftest_case> v;
    for (auto [b, group] : std::vector<std::pair<board, std::string>>{{{1, 1}, "square"},
                                                                      {{2, 5}, "rectangle"},
                                                                      {{3, 4}, "rectangle"},
                                                                      {{3, 4}, "none"},
                                                                      {{4, 4}, "square"},
                                                                      {{3, 5}, "rectangle"}})
      v.push_back({"cram_reachable_" + b.text() + "_" + group, [b = b, group = group] {
                     reachable_selftest<cgtb::cram_reachable, cgtb::impartial_rule<-1>, cgtb::cram>(b, group);
                   }});
    for (auto [b, group] :
         std::vector<std::pair<board, std::string>>{{{5, 6}, "rectangle"}, {{8, 8}, "square"}, {{7, 9}, "rectangle"}})
      v.push_back({"cram_reachable_canonical_" + b.text() + "_" + group,
                   [b = b, group = group] { canonical_only<cgtb::cram_reachable, cgtb::cram>(b, group); }});
    return v;
  }
};

template <>
struct ruleset_cases<cgtb::domineering_reachable> {
  static std::vector<selftest_case> cases() {
    std::vector<selftest_case> v;
    for (auto [b, group] : std::vector<std::pair<board, std::string>>{
             {{2, 5}, "rectangle"}, {{3, 4}, "rectangle"}, {{4, 4}, "rectangle"}, {{4, 4}, "none"}})
      v.push_back({"domineering_reachable_" + b.text() + "_" + group, [b = b, group = group] {
                     reachable_selftest<cgtb::domineering_reachable, cgtb::partizan_rule, cgtb::domineering>(b, group);
                   }});
    v.push_back({"domineering_reachable_canonical_8x8_rectangle", [] {
                   canonical_only<cgtb::domineering_reachable, cgtb::domineering>({8, 8}, "rectangle");
                 }});
    return v;
  }
};

// ------------------------------------------------------------ Cricket Pitch

/// Boards of `length` places, bumps <= h; moves from the rules of the "Cricket Pitch" ruleset page.
struct cricket_traits {
  int length, h;
  using position = cgtb::cricket_position;
  using key_type = std::pair<std::vector<int>, int>;  // (bumps, roller)

  int bumps() const { return length - 1; }
  key_type key(const position& p) const {
    std::vector<int> b;
    for (int i = 0; i < cgtb::kCricketMaxLength - 1; ++i) b.push_back(p.bump[i]);
    return {b, p.roller};
  }
  position make(const std::vector<int>& b, int roller) const {
    position p{};
    for (std::size_t i = 0; i < b.size(); ++i) p.bump[i] = static_cast<std::uint8_t>(b[i]);
    p.roller = static_cast<std::uint8_t>(roller);
    return p;
  }
  int level_of(const position& p) const {
    int s = 0;
    for (int i = 0; i < cgtb::kCricketMaxLength - 1; ++i) s += p.bump[i];
    return s;
  }
  bool valid(int level, const position& p) const {
    for (int i = 0; i < cgtb::kCricketMaxLength - 1; ++i)
      if (p.bump[i] > (i < bumps() ? h : 0)) return false;
    return p.roller <= bumps() && level_of(p) == level;
  }
  /// Bump vectors of n places in [0, h] summing to `level`, times the roller
  /// places.
  std::uint64_t positions(int level) const {
    std::vector<std::uint64_t> ways(static_cast<std::size_t>(level) + 1, 0);
    ways[0] = 1;
    for (int i = 0; i < bumps(); ++i) {
      std::vector<std::uint64_t> next(ways.size(), 0);
      for (int s = 0; s <= level; ++s)
        for (int v = 0; v <= h && v <= s; ++v)
          next[static_cast<std::size_t>(s)] += ways[static_cast<std::size_t>(s - v)];
      ways = next;
    }
    return ways[static_cast<std::size_t>(level)] * static_cast<std::uint64_t>(length);
  }
  bool option_level_ok(int from, int to) const { return to < from && to >= from - bumps(); }
  /// The roller rolled over k >= 1 consecutive positive bumps, leftwards
  /// (Left) or rightwards (Right); each bump crossed drops by one.
  std::vector<position> roll(const position& p, int dir) const {
    std::vector<int> b(static_cast<std::size_t>(bumps()));
    for (int i = 0; i < bumps(); ++i) b[static_cast<std::size_t>(i)] = p.bump[i];
    std::vector<position> out;
    for (int k = 1;; ++k) {
      const int cross = dir < 0 ? p.roller - k : p.roller + k - 1;  // the k-th bump crossed
      if (cross < 0 || cross >= bumps() || b[static_cast<std::size_t>(cross)] == 0) break;
      std::vector<int> q = b;
      for (int j = 1; j <= k; ++j) --q[static_cast<std::size_t>(dir < 0 ? p.roller - j : p.roller + j - 1)];
      out.push_back(make(q, dir < 0 ? p.roller - k : p.roller + k));
    }
    return out;
  }
  std::vector<position> plain_left_options(int, const position& p) const { return roll(p, -1); }
  std::vector<position> plain_right_options(int, const position& p) const { return roll(p, +1); }
};

template <>
struct ruleset_cases<cgtb::cricket_pitch> {
  static std::vector<selftest_case> cases() {
    std::vector<selftest_case> v;
    for (auto [len, h] :
         std::vector<std::pair<int, int>>{{1, 0}, {1, 3}, {2, 4}, {5, 0}, {6, 3}, {7, 2}, {4, 6}, {12, 20}, {32, 2}})
      v.push_back({"cricket_pitch_L" + std::to_string(len) + "_h" + std::to_string(h), [len = len, h = h] {
                     const cgtb::cricket_pitch g(len, h);
                     cgtb_test::ruleset_selftest(g.host_view(), cricket_traits{len, h}, g.levels(), sampled(20, 1000));
                   }});
    return v;
  }
};

// --------------------------------------------------------------------- RIT

/// Partitions in an r x c box, row i in nibble i - 1 (cgtb/games/rit.hpp);
/// moves from the rules of "Row Impartial Terminus" (tests/impartial_reference.hpp).
struct rit_traits {
  int rows, cols;
  std::vector<int> parts(std::uint64_t p) const {
    std::vector<int> v;
    for (int i = 0; i < 16 && ((p >> (4 * i)) & 15u); ++i) v.push_back(static_cast<int>((p >> (4 * i)) & 15u));
    return v;
  }
  std::uint64_t make(const std::vector<int>& v) const {
    std::uint64_t p = 0;
    for (std::size_t i = 0; i < v.size(); ++i) p |= static_cast<std::uint64_t>(v[i]) << (4 * i);
    return p;
  }
  int level_of(std::uint64_t p) const {
    int s = 0;
    for (int x : parts(p)) s += x;
    return s;
  }
  bool valid(int level, std::uint64_t p) const {
    const std::vector<int> v = parts(p);
    if (make(v) != p || static_cast<int>(v.size()) > rows) return false;  // no part after a zero
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i] > cols || (i > 0 && v[i] > v[i - 1])) return false;
    return level_of(p) == level;
  }
  /// Partitions of n into at most k parts, each at most m.
  std::uint64_t count(int n, int k, int m) const {
    if (n == 0) return 1;
    if (k == 0 || m == 0 || n < 0) return 0;
    const auto key = std::make_tuple(n, k, m);
    auto it = memo.find(key);
    if (it != memo.end()) return it->second;
    // Every part below m, or one part m removed.
    return memo[key] = count(n, k, m - 1) + count(n - m, k - 1, m);
  }
  std::uint64_t positions(int level) const { return count(level, rows, cols); }
  bool option_level_ok(int from, int to) const { return to < from && to >= from - cols; }
  std::vector<std::uint64_t> plain_options(int, std::uint64_t p) const {
    std::vector<std::uint64_t> out;
    for (const auto& q : cgtb_test::rit_reference_moves(parts(p))) out.push_back(make(q));
    return out;
  }
  mutable std::map<std::tuple<int, int, int>, std::uint64_t> memo;
};

template <>
struct ruleset_cases<cgtb::rit> {
  static std::vector<selftest_case> cases() {
    std::vector<std::pair<int, int>> boxes;
    for (int r = 1; r <= 6; ++r)
      for (int c = 1; c <= 6; ++c) boxes.push_back({r, c});
    for (auto b : std::vector<std::pair<int, int>>{{16, 2}, {2, 15}, {7, 5}, {10, 10}, {16, 15}}) boxes.push_back(b);
    std::vector<selftest_case> v;
    for (auto [r, c] : boxes)
      v.push_back({"rit_" + std::to_string(r) + "x" + std::to_string(c), [r = r, c = c] {
                     const cgtb::rit g(r, c);
                     cgtb_test::ruleset_selftest(g.host_view(), rit_traits{r, c, {}}, g.levels(), sampled(20, 1000));
                   }});
    return v;
  }
};

// ------------------------------------------------------ Cram components

/// Polyominoes written from the definition: cells as (row, column) pairs,
/// a free polyomino's key the least sorted cell list over its 8 images, each
/// moved to row 0 and column 0.
struct cram_components_traits {
  using cell_list = std::vector<std::pair<int, int>>;
  static cell_list cells(const cgtb::polyomino& p) {
    cell_list v;
    for (int r = 0; r < p.rows(); ++r)
      for (int c = 0; c < p.cols(); ++c)
        if (p.cells().has(r * p.cols() + c)) v.emplace_back(r, c);
    return v;
  }
  static cell_list normalised(cell_list v) {
    int r0 = 1 << 20, c0 = 1 << 20;
    for (auto [r, c] : v) r0 = std::min(r0, r), c0 = std::min(c0, c);
    for (auto& [r, c] : v) r -= r0, c -= c0;
    std::sort(v.begin(), v.end());
    return v;
  }
  static cell_list key(const cgtb::polyomino& p) {
    cell_list best;
    for (int t = 0; t < 8; ++t) {
      cell_list im;
      for (auto [r, c] : cells(p)) {
        int a = (t & 1) ? -c : c, b = (t & 2) ? -r : r;
        im.emplace_back((t & 4) ? a : b, (t & 4) ? b : a);
      }
      im = normalised(im);
      if (t == 0 || im < best) best = im;
    }
    return best;
  }
  static bool connected(const cell_list& v) {
    if (v.empty()) return true;
    std::set<std::pair<int, int>> left(v.begin(), v.end()), seen{v[0]};
    std::vector<std::pair<int, int>> stack{v[0]};
    while (!stack.empty()) {
      auto [r, c] = stack.back();
      stack.pop_back();
      for (auto n :
           {std::make_pair(r + 1, c), std::make_pair(r - 1, c), std::make_pair(r, c + 1), std::make_pair(r, c - 1)})
        if (left.count(n) && seen.insert(n).second) stack.push_back(n);
    }
    return seen.size() == v.size();
  }
  /// A cell list as a polyomino on its bounding box.
  static cgtb::polyomino of(const cell_list& v0) {
    const cell_list v = normalised(v0);
    int rows = 0, cols = 0;
    for (auto [r, c] : v) rows = std::max(rows, r + 1), cols = std::max(cols, c + 1);
    cgtb::cells128 m;
    for (auto [r, c] : v) m.set(r * cols + c);
    return cgtb::polyomino::of(rows, cols, m);
  }
  int level_of(const cgtb::polyomino& p) const { return static_cast<int>(cells(p).size()); }
  bool valid(int level, const cgtb::polyomino& p) const {
    const cell_list v = cells(p);
    return static_cast<int>(v.size()) == level && connected(v) && (v.empty() || of(v) == p);
  }
  bool option_level_ok(int level, int l) const { return l >= 1 && l <= level - 2; }
  /// OEIS A000105 (the empty region on level 0).
  std::uint64_t positions(int level) const {
    static const std::uint64_t a[] = {1, 1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655, 17073, 63600};
    return a[level];
  }
  /// Each domino's option: the connected parts of what it leaves.
  std::vector<std::vector<cgtb::polyomino>> plain_part_options(int, const cgtb::polyomino& p) const {
    const cell_list v = cells(p);
    const std::set<std::pair<int, int>> in(v.begin(), v.end());
    std::vector<std::vector<cgtb::polyomino>> out;
    for (auto [r, c] : v)
      for (auto d : {std::make_pair(r, c + 1), std::make_pair(r + 1, c)}) {
        if (!in.count(d)) continue;
        std::set<std::pair<int, int>> rest = in;
        rest.erase({r, c});
        rest.erase(d);
        std::vector<cgtb::polyomino> parts;
        while (!rest.empty()) {
          cell_list part{*rest.begin()};
          rest.erase(rest.begin());
          for (std::size_t i = 0; i < part.size(); ++i) {
            auto [a, b] = part[i];
            for (auto n : {std::make_pair(a + 1, b), std::make_pair(a - 1, b), std::make_pair(a, b + 1),
                           std::make_pair(a, b - 1)})
              if (rest.erase(n)) part.push_back(n);
          }
          parts.push_back(of(part));
        }
        out.push_back(parts);
      }
    return out;
  }
};

template <>
struct ruleset_cases<cgtb::cram_components> {
  static std::vector<selftest_case> cases() {
    return {{"cram_components_K12", [] {
               const cgtb::cram_components g(12);
               cgtb_test::ruleset_selftest(g.host_view(), cram_components_traits{}, g.levels(), sampled(300, 5000));
             }}};
  }
};

// ------------------------------------------------------------ octal games

const std::vector<std::string> kOctalCodes = {"0.07", "0.137", "4.7", "0.6", "0.77", "0.4", "4.07"};

// The two places the octal and scoring traits read and write the multiset
// position type (heap_multiset, cgtb/games/take_break.hpp): its parts,
// largest first. Heaps are given and returned smallest first.
std::vector<int> multiset_heaps(const cgtb::heap_multiset& p) {
  std::vector<int> h(p.part, p.part + p.count);
  std::sort(h.begin(), h.end());
  return h;
}
cgtb::heap_multiset multiset_position(std::vector<int> heaps) {
  std::sort(heaps.rbegin(), heaps.rend());
  cgtb::heap_multiset p{};
  for (int a : heaps) p.part[p.count++] = static_cast<std::uint8_t>(a);
  return p;
}
std::vector<int> octal_heaps_of(const cgtb::octal::position& p) { return multiset_heaps(p); }
cgtb::octal::position octal_position(const std::vector<int>& heaps) { return multiset_position(heaps); }

/// Multisets of heaps of at most `max_heap` beans; level = weight (a heap of
/// a weighs a, or 2a - 1 when d_0 = 4); moves from the code's digits.
struct octal_traits {
  cgtb_test::octal_reference ref;
  int max_heap;

  bool split() const { return ref.d[0] == 4; }
  int weight(int a) const { return split() ? 2 * a - 1 : a; }
  std::vector<int> key(const cgtb::octal::position& p) const { return octal_heaps_of(p); }
  int level_of(const cgtb::octal::position& p) const {
    int w = 0;
    for (int a : octal_heaps_of(p)) w += weight(a);
    return w;
  }
  bool valid(int level, const cgtb::octal::position& p) const {
    for (int a : octal_heaps_of(p))
      if (a > max_heap) return false;
    return level_of(p) == level;
  }
  /// Multisets of heaps 1..max_heap of weight `level`.
  std::uint64_t positions(int level) const {
    std::vector<std::uint64_t> ways(static_cast<std::size_t>(level) + 1, 0);
    ways[0] = 1;
    for (int a = 1; a <= max_heap; ++a)
      for (int w = weight(a); w <= level; ++w)
        ways[static_cast<std::size_t>(w)] += ways[static_cast<std::size_t>(w - weight(a))];
    return ways[static_cast<std::size_t>(level)];
  }
  bool option_level_ok(int from, int to) const { return to < from && to >= 0; }
  std::vector<cgtb::octal::position> plain_options(int, const cgtb::octal::position& p) const {
    std::vector<cgtb::octal::position> out;
    for (const auto& q : ref.distinct_moves(octal_heaps_of(p))) out.push_back(octal_position(q));
    return out;
  }
};

template <>
struct ruleset_cases<cgtb::octal> {
  static std::vector<selftest_case> cases() {
    std::vector<std::pair<std::string, int>> sets;
    for (const auto& c : kOctalCodes) sets.push_back({c, 11});
    sets.push_back({"0.07", 63});  // the largest table, sampled
    sets.push_back({"4.07", 30});
    std::vector<selftest_case> v;
    for (auto [code, total] : sets)
      v.push_back({"octal_" + code + "_T" + std::to_string(total), [code = code, total = total] {
                     const cgtb::octal g(cgtb::take_break::parse_octal(code), total);
                     const auto view = g.host_view();
                     cgtb_test::ruleset_selftest(view, octal_traits{cgtb_test::octal_reference(code), total},
                                                 g.levels(), sampled(20, 1000));
                   }});
    return v;
  }
};

// ------------------------------------------------------------ Blocking Nim

/// (pile, move number k) for k = 1..N - pile + 1; a move at k takes x in
/// [m_k, min(M_k, pile)] ("Dynamic One-Pile Blocking Nim"). The sequences are read through
/// int_sequence, as the brute-force solver of tests/test_blocking_nim.cpp
/// reads them.
struct blocking_nim_traits {
  cgtb::int_sequence m, M;
  int max_pile;
  static std::uint64_t make(int pile, int k) {
    return (static_cast<std::uint64_t>(pile) << 32) | static_cast<unsigned>(k);
  }
  static int pile(std::uint64_t p) { return static_cast<int>(p >> 32); }
  static int move(std::uint64_t p) { return static_cast<int>(p & 0xffffffffu); }
  bool valid(int level, std::uint64_t p) const {
    return pile(p) == level && move(p) >= 1 && move(p) <= max_pile - level + 1;
  }
  int level_of(std::uint64_t p) const { return pile(p); }
  std::uint64_t positions(int level) const { return static_cast<std::uint64_t>(max_pile - level + 1); }
  bool option_level_ok(int from, int to) const { return to < from && to >= 0; }
  std::vector<std::uint64_t> plain_options(int, std::uint64_t p) const {
    std::vector<std::uint64_t> out;
    const int k = move(p);
    for (long long x = m.at(k); x <= M.at(k) && x <= pile(p); ++x)
      out.push_back(make(pile(p) - static_cast<int>(x), k + 1));
    return out;
  }
};

template <>
struct ruleset_cases<cgtb::blocking_nim> {
  static std::vector<selftest_case> cases() {
    struct seqs {
      std::string c, m, M;
    };
    std::vector<selftest_case> v;
    int i = 0;
    for (const seqs& s : std::vector<seqs>{{"0,1,2", "1,1,5", "2,4,10"},
                                           {"0", "1", "2"},
                                           {"-1+i", "1", "2i"},
                                           {"0", "cycle:1,2", "cycle:3,4"},
                                           {"1", "2", "5"}})
      v.push_back({"blocking_nim_" + std::to_string(i++) + "_N40", [s] {
                     using cgtb::int_sequence;
                     const cgtb::blocking_nim g(int_sequence::parse(s.c, "c"), int_sequence::parse(s.m, "m"),
                                                int_sequence::parse(s.M, "M"), 40);
                     const blocking_nim_traits traits{int_sequence::parse(s.m, "m"), int_sequence::parse(s.M, "M"), 40};
                     cgtb_test::ruleset_selftest(g.host_view(), traits, g.levels());
                   }});
    return v;
  }
};

// ---------------------------------------------------------- scoring play

/// A scoring octal game as the engine parses it and as the reference reads
/// it: code, points text, and the points as numbers.
struct scoring_params {
  std::string code, points_text;
  std::vector<int> points;
  cgtb::take_break rules() const { return cgtb::take_break::parse_scoring(code, points_text); }
  cgtb_test::scoring_game reference() const { return cgtb_test::scoring_game::make(code, points); }
  std::string name() const { return code + "_" + points_text; }
};

/// Single heaps 0..N of a taking-no-breaking game: level n holds heap n.
struct scoring_heap_traits {
  cgtb_test::scoring_game ref;
  bool valid(int level, std::uint64_t p) const { return p == static_cast<std::uint64_t>(level); }
  int level_of(std::uint64_t p) const { return static_cast<int>(p); }
  std::uint64_t positions(int) const { return 1; }
  bool option_level_ok(int from, int to) const { return to < from && to >= 0; }
  std::vector<std::pair<std::uint64_t, std::int32_t>> plain_scored_options(int, std::uint64_t n) const {
    std::vector<std::pair<std::uint64_t, std::int32_t>> out;
    for (const auto& [left, pts] : cgtb_test::scoring_heap_moves(ref, static_cast<int>(n)))
      out.push_back({left.empty() ? 0u : static_cast<std::uint64_t>(left[0]), pts});
    return out;
  }
};

template <>
struct ruleset_cases<cgtb::scoring_octal_heaps> {
  static std::vector<selftest_case> cases() {
    std::vector<selftest_case> v;
    for (const scoring_params& s : std::vector<scoring_params>{{"123", "123", {1, 2, 3}},
                                                               {"3111", "1234", {1, 2, 3, 4}},
                                                               {"00033", "00045", {0, 0, 0, 4, 5}},
                                                               {"233", "-2,5,-7", {-2, 5, -7}},
                                                               {"3333", "2222", {2, 2, 2, 2}}})
      v.push_back({"scoring_octal_heaps_" + s.name() + "_N40", [s] {
                     const cgtb::scoring_octal_heaps g(
                         cgtb::scoring_octal(s.rules(), 40, cgtb::scoring_octal::space::heaps));
                     cgtb_test::ruleset_selftest(g.host_view(), scoring_heap_traits{s.reference()}, g.levels());
                   }});
    return v;
  }
};

std::vector<int> scoring_heaps_of(const cgtb::scoring_octal_multisets::position& p) { return multiset_heaps(p); }
cgtb::scoring_octal_multisets::position scoring_position(const std::vector<int>& heaps) {
  return multiset_position(heaps);
}

/// Every multiset of heaps of one game (breaking allowed): level = total;
/// moves on one heap of each size (equal heaps give equal options).
struct scoring_multiset_traits {
  cgtb_test::scoring_game ref;
  using position = cgtb::scoring_octal_multisets::position;
  std::vector<int> key(const position& p) const { return scoring_heaps_of(p); }
  int level_of(const position& p) const {
    int s = 0;
    for (int a : scoring_heaps_of(p)) s += a;
    return s;
  }
  bool valid(int level, const position& p) const {
    for (int a : scoring_heaps_of(p))
      if (a <= 0) return false;
    return level_of(p) == level;
  }
  /// Partitions of `level`.
  std::uint64_t positions(int level) const {
    std::vector<std::uint64_t> ways(static_cast<std::size_t>(level) + 1, 0);
    ways[0] = 1;
    for (int a = 1; a <= level; ++a)
      for (int w = a; w <= level; ++w) ways[static_cast<std::size_t>(w)] += ways[static_cast<std::size_t>(w - a)];
    return ways[static_cast<std::size_t>(level)];
  }
  bool option_level_ok(int from, int to) const { return to < from && to >= 0; }
  std::vector<std::pair<position, std::int32_t>> plain_scored_options(int, const position& p) const {
    const std::vector<int> h = scoring_heaps_of(p);
    std::vector<std::pair<position, std::int32_t>> out;
    for (std::size_t i = 0; i < h.size(); ++i) {
      if (i > 0 && h[i] == h[i - 1]) continue;
      for (const auto& [leaves, pts] : cgtb_test::scoring_heap_moves(ref, h[i]))
        out.push_back({scoring_position(cgtb_test::scoring_replace(h, i, leaves)), pts});
    }
    return out;
  }
};

template <>
struct ruleset_cases<cgtb::scoring_octal_multisets> {
  static std::vector<selftest_case> cases() {
    std::vector<std::pair<scoring_params, int>> sets = {
        {{"26", "12", {1, 2}}, 16},          {{"77", "1,-1", {1, -1}}, 16},   {{"4", "3", {3}}, 16},
        {{"137", "2,1,-3", {2, 1, -3}}, 16}, {{"333", "123", {1, 2, 3}}, 16}, {{"0.07", "05", {0, 5}}, 16},
        {{"0.07", "05", {0, 5}}, 64}};  // sampled
    std::vector<selftest_case> v;
    for (auto [s, total] : sets)
      v.push_back({"scoring_octal_multisets_" + s.name() + "_T" + std::to_string(total), [s = s, total = total] {
                     const cgtb::scoring_octal_multisets g(
                         cgtb::scoring_octal(s.rules(), total, cgtb::scoring_octal::space::multisets));
                     cgtb_test::ruleset_selftest(g.host_view(), scoring_multiset_traits{s.reference()}, g.levels(),
                                                 sampled(20, 1000));
                   }});
    return v;
  }
};

/// Two heaps n, m <= N under one operator: level = n + m; moves from the
/// operators' definitions (tests/scoring_reference.hpp).
struct scoring_sum_traits {
  cgtb::sum_op op;
  cgtb_test::scoring_game left, right;
  int max;
  using position = cgtb::scoring_sum::position;
  static std::vector<int> heaps(int n) { return n ? std::vector<int>{n} : std::vector<int>{}; }
  static int beans(const std::vector<int>& h) { return h.empty() ? 0 : h[0]; }
  std::pair<int, int> key(const position& p) const { return {p.n, p.m}; }
  int level_of(const position& p) const { return p.n + p.m; }
  bool valid(int level, const position& p) const {
    return p.n >= 0 && p.m >= 0 && p.n <= max && p.m <= max && p.n + p.m == level;
  }
  std::uint64_t positions(int level) const {
    std::uint64_t c = 0;
    for (int n = 0; n <= max; ++n) c += level - n >= 0 && level - n <= max ? 1 : 0;
    return c;
  }
  bool option_level_ok(int from, int to) const { return to < from && to >= 0; }
  std::vector<std::pair<position, std::int32_t>> plain_scored_options(int, const position& p) const {
    std::vector<std::pair<position, std::int32_t>> out;
    for (const auto& [o, pts] : cgtb_test::scoring_sum_moves(op, left, right, heaps(p.n), heaps(p.m)))
      out.push_back({position{beans(o.first), beans(o.second)}, pts});
    return out;
  }
};

template <>
struct ruleset_cases<cgtb::scoring_sum> {
  static std::vector<selftest_case> cases() {
    const std::vector<std::pair<scoring_params, scoring_params>> pairs = {
        {{"123", "123", {1, 2, 3}}, {"3111", "1234", {1, 2, 3, 4}}},
        {{"233", "-2,5,-7", {-2, 5, -7}}, {"31", "3,-1", {3, -1}}},
        {{"3311", "1234", {1, 2, 3, 4}}, {"333", "123", {1, 2, 3}}}};
    std::vector<selftest_case> v;
    for (cgtb::sum_op op :
         {cgtb::sum_op::disjunctive, cgtb::sum_op::conjunctive, cgtb::sum_op::selective, cgtb::sum_op::sequential})
      for (const auto& [l, r] : pairs)
        v.push_back({std::string("scoring_sum_") + cgtb::sum_op_name(op) + "_" + l.name() + "_" + r.name() + "_N12",
                     [op = op, l = l, r = r] {
                       const cgtb::scoring_sum g(op, l.rules(), r.rules(), 12);
                       cgtb_test::ruleset_selftest(
                           g.host_view(), scoring_sum_traits{op, l.reference(), r.reference(), 12}, g.levels());
                     }});
    return v;
  }
};

// -------------------------------------------------------- every ruleset

/// The cases of every game of instantiations.inc, each game once.
std::vector<selftest_case> every_ruleset() {
  std::vector<selftest_case> all;
  std::set<std::type_index> seen;
  auto add = [&](std::type_index t, std::vector<selftest_case> cases) {
    if (seen.insert(t).second) all.insert(all.end(), cases.begin(), cases.end());
  };
#define CGTB_SOLVE(Game, Rule) add(typeid(Game), ruleset_cases<Game>::cases());
#include "cgtb/instantiations.inc"
#undef CGTB_SOLVE
  return all;
}

/// A gtest name for a case: '-' as 'm', other punctuation as '_'.
std::string test_name(std::string n) {
  for (char& ch : n)
    if (ch == '-')
      ch = 'm';
    else if (!std::isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  return n;
}

class RulesetSelfTest : public ::testing::TestWithParam<selftest_case> {};

TEST_P(RulesetSelfTest, EveryLevel) { GetParam().run(); }

INSTANTIATE_TEST_SUITE_P(Every, RulesetSelfTest, ::testing::ValuesIn(every_ruleset()),
                         [](const ::testing::TestParamInfo<selftest_case>& i) { return test_name(i.param.name); });

}  // namespace
