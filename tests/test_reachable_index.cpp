// The reachable, symmetry-reduced index of the domino games
// (cgtb/reachable_index.hpp, cgtb/games/domino_reachable.hpp) against
// independent computations:
//   - the stored positions of every level are exactly the canonical images of
//     the positions an independent breadth-first search reaches from the empty
//     board (moves found cell by cell, symmetries applied cell by cell), keys
//     ascending and each key its own canonical image; classes weighted by
//     orbit size sum to the search's count;
//   - every option of a stored position is stored (closure);
//   - values: on every reachable position of every rectangle up to 20 cells,
//     the reachable tables (with and without symmetry) give exactly the
//     values of the all-subsets table, for every value kind (Cram: G, G-,
//     the 36 misere states of the genus; Domineering: both outcome classes);
//   - on 100,000 sampled reachable positions of Cram 5x5 and Domineering 5x5
//     (against the all-subsets table) and of Cram 5x6 (against the brute-force
//     reference solver);
//   - a position of a smaller board written into a larger one, the extra
//     cells covered, has the same values in both reachable tables.
// The views themselves (rank, options, canonical images) go through the
// ruleset self-test, tests/test_ruleset_selftest.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/domino_plan.hpp"
#include "cgtb/games/domino_reachable.hpp"
#include "cgtb/level_solver.hpp"
#include "cgtb/memory_model.hpp"
#include "cgtb/reachable_index.hpp"
#include "cgtb/rules/impartial.hpp"
#include "cgtb/rules/partizan.hpp"
#include "reference_solver.hpp"
#include "test_support.hpp"

namespace {

struct board {
  int rows, cols;
  int cells() const { return rows * cols; }
};
void PrintTo(const board& b, std::ostream* os) { *os << b.rows << "x" << b.cols; }
std::string board_name(const ::testing::TestParamInfo<board>& i) {
  return "B" + std::to_string(i.param.rows) + "x" + std::to_string(i.param.cols);
}
std::vector<board> boards_up_to(int cells) {
  std::vector<board> v;
  for (int r = 1; r <= cells; ++r)
    for (int c = 1; r * c <= cells; ++c) v.push_back({r, c});
  return v;
}

// ----------------------------------------------------------- independent side

/// Every domino of p (cells found by walking rows and columns).
std::vector<std::uint64_t> plain_options(const board& b, std::uint64_t p) {
  return cgtb_test::cram_reference(b.rows, b.cols).options(p);
}

/// The least image of p under `group`, found cell by cell.
std::uint64_t least_image(const board& b, std::uint64_t p, const std::string& group) {
  return cgtb_test::board_symmetry_reference{b.rows, b.cols, group}.least_image(p);
}

/// Reachable positions by level (number of empty cells), breadth first from
/// the empty board.
std::map<int, std::vector<std::uint64_t>> reachable_by_level(const board& b) {
  std::map<int, std::vector<std::uint64_t>> out;
  const std::uint64_t full = b.cells() == 64 ? ~0ull : (1ull << b.cells()) - 1;
  std::vector<std::uint64_t> cur{full};
  for (int level = b.cells(); !cur.empty(); level -= 2) {
    out[level] = cur;
    std::unordered_set<std::uint64_t> next;
    for (std::uint64_t p : cur)
      for (std::uint64_t o : plain_options(b, p)) next.insert(o);
    cur.assign(next.begin(), next.end());
  }
  return out;
}

/// Every reachable position of b as Cram text, one per line (a query's stdin).
std::string reachable_texts(const board& b) {
  const cgtb_test::cram_reference ref(b.rows, b.cols);
  std::string lines;
  for (const auto& [level, ps] : reachable_by_level(b))
    for (std::uint64_t p : ps) lines += ref.text(p) + "\n";
  return lines;
}

/// Colex rank of a k-subset, with its own binomials.
std::uint64_t colex_rank(std::uint64_t set) {
  static std::vector<std::vector<std::uint64_t>> C = [] {
    std::vector<std::vector<std::uint64_t>> c(65, std::vector<std::uint64_t>(66, 0));
    for (int n = 0; n <= 64; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
    }
    return c;
  }();
  std::uint64_t r = 0;
  int j = 1;
  for (int c = 0; c < 64; ++c)
    if ((set >> c) & 1) r += C[c][j++];
  return r;
}

// --------------------------------------------------------------- code under test

template <class Rule>
struct keyed_level {
  std::vector<std::uint64_t> keys;
  std::vector<typename Rule::record> records;
  /// Record of a stored canonical mask; fails the test if it is not stored.
  const typename Rule::record* find(std::uint64_t c) const {
    auto it = std::lower_bound(keys.begin(), keys.end(), c);
    if (it == keys.end() || *it != c) return nullptr;
    return &records[static_cast<std::size_t>(it - keys.begin())];
  }
};

template <class Rule, class Game>
std::map<int, keyed_level<Rule>> solve_keyed(const Game& g, const cgtb::solve_options& opts = {}) {
  std::map<int, keyed_level<Rule>> out;
  cgtb::solve<Game, Rule>(g, opts,
                          [&](const cgtb::level_report& rep, const cgtb::level_records<typename Rule::record>& rec) {
                            EXPECT_NE(rep.keys, nullptr);
                            out[rep.level].keys.resize(rep.positions);
                            rep.keys->decode(0, rep.positions, out[rep.level].keys.data());
                            for (std::uint64_t i = 0; i < rep.positions; ++i) out[rep.level].records.push_back(rec[i]);
                          });
  return out;
}

template <class Rule, class Game>
std::map<int, std::vector<typename Rule::record>> solve_plain(const Game& g) {
  std::map<int, std::vector<typename Rule::record>> out;
  cgtb::solve<Game, Rule>(g, {},
                          [&](const cgtb::level_report& rep, const cgtb::level_records<typename Rule::record>& rec) {
                            EXPECT_EQ(rep.keys, nullptr);
                            for (std::uint64_t i = 0; i < rep.positions; ++i) out[rep.level].push_back(rec[i]);
                          });
  return out;
}

using genus_rule = cgtb::impartial_rule<7>;
using mis_rule = cgtb::impartial_rule<0>;

bool same(const genus_rule::record& a, const genus_rule::record& b) {
  if (a.g != b.g) return false;
  for (int s = 0; s < genus_rule::states; ++s)
    if (a.misere(s) != b.misere(s)) return false;
  return true;
}
bool same(const mis_rule::record& a, const mis_rule::record& b) { return a.g == b.g && a.misere(0) == b.misere(0); }
bool same(const cgtb::partizan_record& a, const cgtb::partizan_record& b) { return a.bits == b.bits; }

/// Checks the stored sets of a keyed solve against the search.
template <class Rule>
void expect_index_matches_search(const board& b, const std::map<int, keyed_level<Rule>>& t, const std::string& group,
                                 const std::map<int, std::vector<std::uint64_t>>& reach) {
  std::uint64_t weighted = 0, searched = 0;
  for (const auto& [level, lv] : t) {
    std::set<std::uint64_t> expect;
    auto it = reach.find(level);
    if (it != reach.end()) {
      for (std::uint64_t p : it->second) expect.insert(least_image(b, p, group));
      searched += it->second.size();
    }
    ASSERT_TRUE(std::is_sorted(lv.keys.begin(), lv.keys.end())) << "level " << level;
    ASSERT_EQ(std::set<std::uint64_t>(lv.keys.begin(), lv.keys.end()), expect) << "level " << level;
    for (std::uint64_t k : lv.keys) {
      weighted += static_cast<std::uint64_t>(cgtb_test::board_symmetry_reference{b.rows, b.cols, group}.orbit(k));
      // Closure: every option of a stored position is stored (canonically).
      for (std::uint64_t o : plain_options(b, k))
        ASSERT_NE(t.at(level - 2).find(least_image(b, o, group)), nullptr) << "option of " << k;
    }
  }
  EXPECT_EQ(weighted, searched);
}

// ------------------------------------------------------------------------ tests

class ReachableUpTo20 : public ::testing::TestWithParam<board> {};

TEST_P(ReachableUpTo20, CramStoresExactlyTheReachableClassesWithTheAllSubsetsValues) {
  const board b = GetParam();
  const auto reach = reachable_by_level(b);
  const auto all = solve_plain<genus_rule>(cgtb::cram(b.rows, b.cols));
  for (const std::string& group : {std::string(b.rows == b.cols ? "square" : "rectangle"), std::string("none")}) {
    const cgtb::cram_reachable g(cgtb::cram(b.rows, b.cols), group);
    const auto t = solve_keyed<genus_rule>(g);
    expect_index_matches_search(b, t, group, reach);
    for (const auto& [level, ps] : reach)
      for (std::uint64_t p : ps) {
        EXPECT_EQ(g.canonical(p), least_image(b, p, group));
        const auto* r = t.at(level).find(least_image(b, p, group));
        ASSERT_NE(r, nullptr);
        ASSERT_TRUE(same(*r, all.at(level)[colex_rank(p)])) << group << " position " << p;
      }
  }
}

TEST_P(ReachableUpTo20, DomineeringStoresExactlyTheReachableClassesWithTheAllSubsetsClasses) {
  const board b = GetParam();
  const auto reach = reachable_by_level(b);
  const auto all = solve_plain<cgtb::partizan_rule>(cgtb::domineering(b.rows, b.cols));
  for (const std::string& group : {std::string("rectangle"), std::string("none")}) {
    const cgtb::domineering_reachable g(cgtb::domineering(b.rows, b.cols), group);
    const auto t = solve_keyed<cgtb::partizan_rule>(g);
    expect_index_matches_search(b, t, group, reach);
    for (const auto& [level, ps] : reach)
      for (std::uint64_t p : ps) {
        const auto* r = t.at(level).find(least_image(b, p, group));
        ASSERT_NE(r, nullptr);
        ASSERT_TRUE(same(*r, all.at(level)[colex_rank(p)])) << group << " position " << p;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Rectangles, ReachableUpTo20, ::testing::ValuesIn(boards_up_to(20)), board_name);

/// Reachable positions drawn by random play from the empty board: a random
/// number of random moves (fixed seed), stopping early at positions with no
/// move; positions with more than `max_empty` empty cells are drawn again.
std::vector<std::uint64_t> sample_reachable(const board& b, std::size_t n, int max_empty, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> out;
  const std::uint64_t full = (1ull << b.cells()) - 1;
  while (out.size() < n) {
    std::uint64_t p = full;
    const int moves = static_cast<int>(rng() % static_cast<std::uint64_t>(b.cells() / 2 + 1));
    for (int m = 0; m < moves; ++m) {
      auto o = plain_options(b, p);
      if (o.empty()) break;
      p = o[rng() % o.size()];
    }
    if (__builtin_popcountll(p) <= max_empty) out.push_back(p);
  }
  return out;
}

TEST(ReachableSampled, Cram5x5MatchesTheAllSubsetsTableOn100000Positions) {
  const board b{5, 5};
  const auto all = solve_plain<mis_rule>(cgtb::cram(5, 5));
  const auto t = solve_keyed<mis_rule>(cgtb::cram_reachable(cgtb::cram(5, 5), "square"));
  for (std::uint64_t p : sample_reachable(b, 100000, 25, 1)) {
    const int level = __builtin_popcountll(p);
    const auto* r = t.at(level).find(least_image(b, p, "square"));
    ASSERT_NE(r, nullptr);
    ASSERT_TRUE(same(*r, all.at(level)[colex_rank(p)])) << p;
  }
}

TEST(ReachableSampled, Domineering5x5MatchesTheAllSubsetsTableOn100000Positions) {
  const board b{5, 5};
  const auto all = solve_plain<cgtb::partizan_rule>(cgtb::domineering(5, 5));
  const auto t = solve_keyed<cgtb::partizan_rule>(cgtb::domineering_reachable(cgtb::domineering(5, 5), "rectangle"));
  for (std::uint64_t p : sample_reachable(b, 100000, 25, 2)) {
    const int level = __builtin_popcountll(p);
    const auto* r = t.at(level).find(least_image(b, p, "rectangle"));
    ASSERT_NE(r, nullptr);
    ASSERT_TRUE(same(*r, all.at(level)[colex_rank(p)])) << p;
  }
}

TEST(ReachableSampled, Cram5x6MatchesTheReferenceSolverOn100000Positions) {
  const board b{5, 6};
  const auto t = solve_keyed<mis_rule>(cgtb::cram_reachable(cgtb::cram(5, 6), "rectangle"));
  cgtb_test::cram_reference ref(5, 6);
  for (std::uint64_t p : sample_reachable(b, 100000, 12, 3)) {
    const int level = __builtin_popcountll(p);
    const auto* r = t.at(level).find(least_image(b, p, "rectangle"));
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->g, ref.normal(p)) << p;
    ASSERT_EQ(r->misere(0), ref.misere(p)) << p;
  }
}

/// The position of `small` written into the top-left corner of `big`, the
/// other cells covered.
std::uint64_t embed(const board& small, const board& big, std::uint64_t p) {
  std::uint64_t q = 0;
  for (int r = 0; r < small.rows; ++r)
    for (int c = 0; c < small.cols; ++c)
      if ((p >> (r * small.cols + c)) & 1) q |= 1ull << (r * big.cols + c);
  return q;
}

TEST(ReachableEmbedding, APositionOfASmallerBoardHasTheSameValuesInsideALargerOne) {
  // The extra rows or columns have an even number of cells, so the covered
  // part of the larger board is tileable and the embedded position reachable.
  for (auto [small, big] : std::vector<std::pair<board, board>>{{{3, 4}, {4, 4}}, {{4, 4}, {4, 5}}, {{4, 5}, {4, 6}}}) {
    const auto ts = solve_keyed<genus_rule>(
        cgtb::cram_reachable(cgtb::cram(small.rows, small.cols), small.rows == small.cols ? "square" : "rectangle"));
    const std::string gbig = big.rows == big.cols ? "square" : "rectangle";
    const auto tb = solve_keyed<genus_rule>(cgtb::cram_reachable(cgtb::cram(big.rows, big.cols), gbig));
    std::size_t checked = 0;
    for (const auto& [level, ps] : reachable_by_level(small))
      for (std::uint64_t p : ps) {
        const auto* a = ts.at(level).find(least_image(small, p, small.rows == small.cols ? "square" : "rectangle"));
        const auto* c = tb.at(level).find(least_image(big, embed(small, big, p), gbig));
        ASSERT_NE(a, nullptr);
        ASSERT_NE(c, nullptr) << "embedded position not stored";
        ASSERT_TRUE(same(*a, *c));
        ++checked;
      }
    EXPECT_GT(checked, 500u);
  }
}

/// Checks the Elias-Fano keys of `keys` (ascending) against the plain list:
/// unrank, rank of every key, of every gap between keys and past the ends,
/// and decoding of ranges.
void expect_elias_fano_matches(const std::vector<std::uint64_t>& keys) {
  cgtb::elias_fano_builder b(keys.size(), keys.empty() ? 0 : keys.back());
  for (std::uint64_t k : keys) b.push(k);
  const cgtb::elias_fano_keys ef = b.finish();
  const cgtb::reachable_level v = ef.view();
  ASSERT_EQ(v.size, keys.size());
  for (std::uint64_t r = 0; r < keys.size(); ++r) {
    ASSERT_EQ(v.key(r), keys[r]) << "rank " << r;
    ASSERT_EQ(v.find(keys[r]), r) << "key " << keys[r];
    if (keys[r] > 0 && (r == 0 || keys[r - 1] != keys[r] - 1)) {
      ASSERT_EQ(v.find(keys[r] - 1), keys.size());
    }
    if (r + 1 == keys.size() || keys[r + 1] != keys[r] + 1) {
      ASSERT_EQ(v.find(keys[r] + 1), keys.size());
    }
  }
  EXPECT_EQ(v.find(~0ull >> 1), keys.empty() || keys.back() != (~0ull >> 1) ? keys.size() : keys.size() - 1);
  for (std::uint64_t first : {std::uint64_t{0}, std::uint64_t{keys.size() / 3}, std::uint64_t{keys.size()}}) {
    std::vector<std::uint64_t> out(keys.size() - first);
    ef.decode(first, out.size(), out.data());
    EXPECT_TRUE(std::equal(out.begin(), out.end(), keys.begin() + static_cast<std::ptrdiff_t>(first)));
  }
}

TEST(EliasFano, UnranksRanksAndDecodesEveryKeyAtEveryDensity) {
  expect_elias_fano_matches({});
  expect_elias_fano_matches({0});
  expect_elias_fano_matches({~0ull >> 1});
  std::mt19937_64 rng(7);
  // Dense runs (0 low bits), sparse sets of 42-bit masks (about 11 low
  // bits) and clusters (long buckets, many empty ones).
  for (std::uint64_t universe : {std::uint64_t{3000}, std::uint64_t{1} << 20, std::uint64_t{1} << 42}) {
    std::set<std::uint64_t> s;
    while (s.size() < 2500) s.insert(rng() % universe);
    expect_elias_fano_matches({s.begin(), s.end()});
  }
  std::vector<std::uint64_t> clusters;
  for (std::uint64_t c = 0; c < 40; ++c)
    for (std::uint64_t j = 0; j < 100; ++j) clusters.push_back((c << 36) + j * 3);
  expect_elias_fano_matches(clusters);
  std::vector<std::uint64_t> all(5000);
  for (std::uint64_t i = 0; i < all.size(); ++i) all[i] = i;
  expect_elias_fano_matches(all);
}

TEST(EliasFano, TheBuilderRefusesKeysOutOfOrderOrCount) {
  cgtb::elias_fano_builder b(2, 10);
  b.push(5);
  EXPECT_THROW(b.push(5), std::logic_error);
  EXPECT_THROW(b.finish(), std::logic_error);
}

TEST(ReachableIndex, PartsOfTheForwardPassAndRanksWithoutRankTablesGiveTheSameTable) {
  // The forward pass gathers a level in parts (by key hash) when its hash
  // set would not fit; the merged parts must be the one-part level. Levels
  // whose rank table would not fit rank through their coded keys alone.
  for (const auto& [rows, cols, group] :
       {std::tuple<int, int, const char*>{4, 5, "rectangle"}, {4, 4, "square"}, {3, 5, "none"}}) {
    const cgtb::cram_reachable g(cgtb::cram(rows, cols), group);
    const auto whole = solve_keyed<genus_rule>(g);
    cgtb::solve_options o;
    o.forward_parts = 3;
    o.rank_tables = false;
    const auto parts = solve_keyed<genus_rule>(g, o);
    ASSERT_EQ(whole.size(), parts.size());
    for (const auto& [level, l] : whole) {
      EXPECT_EQ(l.keys, parts.at(level).keys) << rows << "x" << cols << " level " << level;
      ASSERT_EQ(l.records.size(), parts.at(level).records.size());
      for (std::size_t i = 0; i < l.records.size(); ++i)
        ASSERT_TRUE(same(l.records[i], parts.at(level).records[i])) << rows << "x" << cols << " level " << level;
    }
  }
}

TEST(ReachableIndex, TheForwardPassCompactionInBlocksKeepsEveryOccupiedSlotInOrder) {
  // The CPU's compaction of the forward pass's hash set (counts per block,
  // their exclusive prefix sums, then each block's slots at its offset)
  // against std::copy_if, on sets of several fill ratios whose size is not a
  // multiple of the block, and blocks of one slot.
  std::mt19937_64 rng(11);
  for (const std::uint64_t cap : {std::uint64_t{1}, std::uint64_t{1000}, std::uint64_t{200003}})
    for (const double fill : {0.0, 0.3, 0.8, 1.0})
      for (const std::uint64_t block : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{65536}}) {
        std::vector<std::uint64_t> slots(cap);
        for (auto& k : slots)
          k = std::uniform_real_distribution<double>(0, 1)(rng) < fill ? rng() >> 1 : cgtb::kEmptySlot;
        std::vector<std::uint64_t> expected;
        std::copy_if(slots.begin(), slots.end(), std::back_inserter(expected),
                     [](std::uint64_t k) { return k != cgtb::kEmptySlot; });
        std::vector<std::uint64_t> offsets((cap + block - 1) / block);
        for (std::uint64_t b = 0; b < offsets.size(); ++b)
          cgtb::occupied_block_count{slots.data(), cap, block, offsets.data()}(b);
        std::uint64_t found = 0;
        for (auto& c : offsets) found += std::exchange(c, found);
        ASSERT_EQ(found, expected.size()) << cap << " slots, fill " << fill << ", block " << block;
        std::vector<std::uint64_t> out(found);
        for (std::uint64_t b = 0; b < offsets.size(); ++b)
          cgtb::occupied_block_copy{slots.data(), cap, block, offsets.data(), out.data()}(b);
        EXPECT_EQ(out, expected) << cap << " slots, fill " << fill << ", block " << block;
      }
}

TEST(ReachableIndex, SquareSymmetryIsRefusedOnANonSquareBoard) {
  EXPECT_THROW(cgtb::cram_reachable(cgtb::cram(3, 4), "square"), cgtb::input_error);
}

TEST(ReachableIndex, DistinctSymmetriesAreTheLargestOrbitOfTheBoard) {
  // The order of the group acting on the board (what a plan divides by) is
  // the size of the largest class: found here from the images of every
  // region of boards up to 16 cells, and of 20,000 random regions of larger
  // boards up to 64 cells.
  std::mt19937_64 rng(11);
  for (int rows = 1; rows <= 8; ++rows)
    for (int cols = 1; cols * rows <= 64; ++cols)
      for (const char* group : {"none", "rectangle", "square"}) {
        if (rows != cols && std::string(group) == "square") continue;
        const auto sym = cgtb::board_symmetry::make(rows, cols, group);
        const int cells = rows * cols;
        const std::uint64_t all = cells == 64 ? ~0ull : (1ull << cells) - 1;
        int largest = 0;
        const auto look = [&](std::uint64_t p) {
          largest = std::max(largest, cgtb::symmetric_images(sym.image_bit.data(), sym.count, p).orbit_size(sym.count));
        };
        if (cells <= 16) {
          for (std::uint64_t p = 0; p <= all; ++p) look(p);
        } else {
          for (int i = 0; i < 20000; ++i) look(rng() & all);
        }
        // The one exception: the 8 maps of the 2×2 square act on 4 cells, and
        // every region of them is its own image under some reflection.
        const bool square2 = rows == 2 && cols == 2 && std::string(group) == "square";
        EXPECT_EQ(sym.count, square2 ? 8 : largest) << rows << "x" << cols << " " << group;
        if (square2) {
          EXPECT_EQ(largest, 4);
        }
        if (std::string(group) == "rectangle") {
          EXPECT_EQ(sym.count, rows == 1 || cols == 1 ? (cells > 1 ? 2 : 1) : 4);
        }
      }
  // The plan of a strip says so and divides by 2.
  auto r = cgtb_test::run_cgtb({"plan", "cram", "--board", "1x12"});
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  EXPECT_NE(r.out.find("2 symmetries"), std::string::npos) << r.out;
}

}  // namespace

// ------------------------------------------------------- counts, plan and CLI

namespace {

TEST(ReachableCounts, TheTilingAutomatonCountsWhatTheSearchReaches) {
  for (board b : boards_up_to(16)) {
    const auto counts = cgtb::count_reachable_regions(b.rows, b.cols);
    const auto reach = reachable_by_level(b);
    for (int k = 0; k <= b.cells(); ++k) {
      auto it = reach.find(k);
      EXPECT_EQ(counts[static_cast<std::size_t>(k)], it == reach.end() ? 0u : it->second.size())
          << b.rows << "x" << b.cols << " level " << k;
    }
  }
}

TEST(ReachableCli, CensusOfReachableTablesMatchesThePublishedCounts) {
  // Counts of docs/cram.md (all-subsets census) and the independent count.
  const std::vector<std::pair<std::string, std::string>> expect = {
      {"3x4", "550"}, {"4x4", "5700"}, {"4x5", "58830"}, {"5x5", "1125703"}, {"5x6", "21583864"}};
  cgtb_test::temp_dir d;
  for (const auto& [b, n] : expect) {
    const std::string f = d.file("c" + b + ".cgtb");
    ASSERT_EQ(cgtb_test::run_cgtb({"build", "cram", "--board", b, "-q", "-o", f}).code, 0);
    auto r = cgtb_test::run_cgtb({"census", f});
    ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
    EXPECT_NE(r.out.find("reachable positions (start included): " + n + "\n"), std::string::npos) << r.out;
    std::uint64_t total = 0;
    const auto bx = b.find('x');
    for (std::uint64_t c : cgtb::count_reachable_regions(std::stoi(b.substr(0, bx)), std::stoi(b.substr(bx + 1))))
      total += c;
    EXPECT_EQ(std::to_string(total), n);
  }
}

TEST(ReachableCli, QueriesAnyOrientationAndNamesMovesAsWritten) {
  cgtb_test::temp_dir d;
  const std::string all = d.file("all.cgtb"), red = d.file("red.cgtb");
  ASSERT_EQ(cgtb_test::run_cgtb({"build", "cram", "--board", "3x4", "--positions", "all", "-q", "-o", all}).code, 0);
  ASSERT_EQ(cgtb_test::run_cgtb({"build", "cram", "--board", "3x4", "-q", "-o", red}).code, 0);
  const board b{3, 4};
  const std::string lines = reachable_texts(b);
  auto a = cgtb_test::run_cgtb({"query", "--json", all}, lines);
  auto r = cgtb_test::run_cgtb({"query", "--json", red}, lines);
  ASSERT_EQ(a.code, 0) << cgtb_test::describe(a);
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  EXPECT_EQ(a.out, r.out);
  EXPECT_GT(std::count(r.out.begin(), r.out.end(), '\n'), 500);
  // Domineering, both players' moves, on every reachable position of 3x4.
  const std::string dall = d.file("dall.cgtb"), dred = d.file("dred.cgtb");
  ASSERT_EQ(
      cgtb_test::run_cgtb({"build", "domineering", "--board", "3x4", "--positions", "all", "-q", "-o", dall}).code, 0);
  ASSERT_EQ(cgtb_test::run_cgtb({"build", "domineering", "--board", "3x4", "-q", "-o", dred}).code, 0);
  auto da = cgtb_test::run_cgtb({"query", "--json", dall}, lines);
  auto dr = cgtb_test::run_cgtb({"query", "--json", dred}, lines);
  ASSERT_EQ(da.code, 0);
  EXPECT_EQ(da.out, dr.out);
}

TEST(ReachableCli, CramAnswersAPositionWrittenOnTheTransposedBoardAsItsOwnTableDoes) {
  // Every reachable position of 4x3, asked of 3x4 tables (reachable, and
  // every region), is answered exactly as a 4x3 table answers it: values,
  // winning moves named on the 4x3 board, and its options.
  cgtb_test::temp_dir d;
  const std::string own = d.file("own.cgtb"), red = d.file("red.cgtb"), all = d.file("all.cgtb");
  ASSERT_EQ(cgtb_test::run_cgtb({"build", "cram", "--board", "4x3", "--positions", "all", "-q", "-o", own}).code, 0);
  ASSERT_EQ(cgtb_test::run_cgtb({"build", "cram", "--board", "3x4", "-q", "-o", red}).code, 0);
  ASSERT_EQ(cgtb_test::run_cgtb({"build", "cram", "--board", "3x4", "--positions", "all", "-q", "-o", all}).code, 0);
  const board b{4, 3};
  const std::string lines = reachable_texts(b);
  for (const char* mode : {"--json", "--options"}) {
    auto want = cgtb_test::run_cgtb({"query", mode, own}, lines);
    ASSERT_EQ(want.code, 0) << cgtb_test::describe(want);
    EXPECT_GT(std::count(want.out.begin(), want.out.end(), '\n'), 500);
    for (const std::string& f : {red, all}) {
      auto got = cgtb_test::run_cgtb({"query", mode, f}, lines);
      ASSERT_EQ(got.code, 0) << cgtb_test::describe(got);
      EXPECT_EQ(got.out, want.out) << f << " " << mode;
    }
  }
  // A sum term written on the transposed board is the same component.
  auto s = cgtb_test::run_cgtb({"sum", "--no-moves", red + ":..../..##/....", own + ":.../.#./.#./..."});
  auto t = cgtb_test::run_cgtb({"sum", "--no-moves", red + ":..../..##/....", red + ":.../.#./.#./..."});
  ASSERT_EQ(s.code, 0) << cgtb_test::describe(s);
  ASSERT_EQ(t.code, 0) << cgtb_test::describe(t);
  EXPECT_EQ(s.out.substr(s.out.find('\n')), t.out.substr(t.out.find('\n')));
  // Malformed text in the transposed shape: the error says how it was read.
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(cgtb_test::run_cgtb({"query", red, ".../.../.../..x"}),
                                               {"unexpected character", "4x3 board"}));
}

TEST(ReachableCli, DomineeringRefusesAPositionWrittenOnTheTransposedBoard) {
  // There the transpose exchanges Left and Right: the error says so.
  cgtb_test::temp_dir d;
  const std::string red = d.file("red.cgtb");
  ASSERT_EQ(cgtb_test::run_cgtb({"build", "domineering", "--board", "3x4", "-q", "-o", red}).code, 0);
  EXPECT_TRUE(cgtb_test::is_clean_error_saying(cgtb_test::run_cgtb({"query", red, ".../.../.../..."}),
                                               {"Left and Right", "--board 4x3"}));
}

TEST(ReachableCli, UnreachablePositionsAndImpossibleChoicesGetOneLineErrors) {
  cgtb_test::temp_dir d;
  const std::string red = d.file("red.cgtb");
  ASSERT_EQ(cgtb_test::run_cgtb({"build", "cram", "--board", "3x4", "-q", "-o", red}).code, 0);
  auto q = cgtb_test::run_cgtb({"query", red, "#.../.#../...."});  // two isolated covered cells
  EXPECT_TRUE(cgtb_test::is_clean_error(q));
  EXPECT_NE(q.err.find("--positions all"), std::string::npos) << q.err;
  auto s = cgtb_test::run_cgtb(
      {"build", "cram", "--board", "3x4", "--positions", "all", "--symmetry", "on", "-q", "-o", d.file("x.cgtb")});
  EXPECT_TRUE(cgtb_test::is_clean_error(s));
  auto m = cgtb_test::run_cgtb({"build", "cram", "--board", "5x6", "--max-memory", "1M", "-q", "-o", d.file("m.cgtb")});
  EXPECT_EQ(m.code, 3) << cgtb_test::describe(m);
  EXPECT_NE(m.err.find("level"), std::string::npos) << m.err;
  for (const auto& e : std::filesystem::directory_iterator(d.path()))
    EXPECT_EQ(e.path().filename().string(), "red.cgtb") << "left behind: " << e.path();
  auto c = cgtb_test::run_cgtb({"classify", red});
  EXPECT_TRUE(cgtb_test::is_clean_error(c));
}

TEST(ReachablePlan, APlanAcrossRanksSplitsWhatItMayAndKeepsTheRestOnRankZero) {
  const double avail = 1e12;
  const auto one = cgtb::plan_reachable_table(6, 6, 8, 4, avail, 1e-7, 16);
  // One rank: the one-process plan, level by level.
  const auto same = cgtb::plan_across_ranks(one, 6, 6, 1, 4, 36, 4096, 1e10, avail);
  ASSERT_EQ(same.size(), one.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_FALSE(same[i].split);
    EXPECT_EQ(same[i].classes, one[i].classes);
    EXPECT_DOUBLE_EQ(same[i].peak_bytes, one[i].peak_bytes);
  }
  for (int ranks : {2, 16, 256}) {
    const auto split = cgtb::plan_across_ranks(one, 6, 6, ranks, 4, 36, 4096, 1e10, avail);
    for (std::size_t i = 0; i < one.size(); ++i) {
      SCOPED_TRACE(std::to_string(ranks) + " ranks, level " + std::to_string(one[i].level));
      EXPECT_EQ(split[i].split, one[i].classes / static_cast<std::uint64_t>(ranks) >= 4096);
      if (!split[i].split) continue;
      // The largest part holds at least its share, and no more than the level.
      EXPECT_GE(split[i].classes * static_cast<std::uint64_t>(ranks), one[i].classes);
      EXPECT_LE(split[i].classes, one[i].classes);
      // Its options lie on the level below.
      EXPECT_LE(split[i].options, static_cast<double>(one[i - 1].classes));
      EXPECT_GT(split[i].sent_bytes, 0.0);
    }
  }
  EXPECT_THROW(cgtb::plan_across_ranks(one, 6, 6, 0, 4, 36, 4096, 1e10, avail), cgtb::input_error);
}

TEST(ReachablePlan, PartsGoInChunksWhereMemoryIsShortAndTheLeastARankNeedsFallsWithRanks) {
  // Cram 6x6 with genus records (4-byte ids, 36 bytes as they travel).
  const auto largest = [](const std::vector<cgtb::rank_level_plan>& p, double cgtb::rank_level_plan::*field) {
    double m = 0;
    for (const auto& r : p) m = std::max(m, r.*field);
    return m;
  };
  const double roomy = 1e9;  // room for every part whole, and few keys kept in memory
  const auto one = cgtb::plan_reachable_table(6, 6, 8, 4, roomy, 1e-7, 16);
  double previous = 0;
  for (int ranks : {256, 64, 16}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const auto free = cgtb::plan_across_ranks(one, 6, 6, ranks, 4, 36, 4096, 1e10, roomy);
    const double least = largest(free, &cgtb::rank_level_plan::least_bytes);
    // With room, a part is solved whole; the least it can do with is less.
    EXPECT_EQ(largest(free, &cgtb::rank_level_plan::chunks), 1.0);
    EXPECT_LE(least, largest(free, &cgtb::rank_level_plan::peak_bytes));
    // Fewer ranks need more.
    EXPECT_GT(least, previous);
    previous = least;
    // Given about the least, every split level fits: those that needed more
    // with room in several chunks.
    const double tight = 1.05 * least;
    const auto one_tight = cgtb::plan_reachable_table(6, 6, 8, 4, tight, 1e-7, 16);
    const auto chunked = cgtb::plan_across_ranks(one_tight, 6, 6, ranks, 4, 36, 4096, 1e10, tight);
    int in_chunks = 0;
    for (std::size_t i = 0; i < chunked.size(); ++i) {
      in_chunks += chunked[i].chunks > 1;
      if (!chunked[i].split) continue;
      SCOPED_TRACE("level " + std::to_string(chunked[i].level));
      EXPECT_LE(chunked[i].peak_bytes, tight);
      if (!free[i].forward_peak && free[i].peak_bytes > tight) {
        EXPECT_GT(chunked[i].chunks, 1.0);
      }
    }
    if (ranks == 16) {
      EXPECT_GT(in_chunks, 0);
    }
  }
}

TEST(ReachableCli, PlanAcrossRanksPrintsARankTable) {
  auto r = cgtb_test::run_cgtb({"plan", "cram", "--board", "4x5", "--ranks", "4", "--split-from", "16"});
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  EXPECT_NE(r.out.find("across 4 ranks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("peak memory a rank: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("   yes "), std::string::npos) << r.out;
  EXPECT_TRUE(cgtb_test::is_clean_error(cgtb_test::run_cgtb({"plan", "cram", "--board", "4x5", "--ranks", "0"})));
  for (const char* bandwidth : {"fast", "0"}) {
    auto b = cgtb_test::run_cgtb({"plan", "cram", "--board", "4x5", "--bandwidth", bandwidth});
    EXPECT_TRUE(cgtb_test::is_clean_error(b));
    EXPECT_NE(b.err.find("--bandwidth '"), std::string::npos) << b.err;
  }
}

TEST(ReachableCli, PlanCountsEveryLevelExactly) {
  auto r = cgtb_test::run_cgtb({"plan", "cram", "--board", "4x5"});
  ASSERT_EQ(r.code, 0) << cgtb_test::describe(r);
  EXPECT_NE(r.out.find(" 58830 "), std::string::npos) << r.out;
  EXPECT_TRUE(cgtb_test::is_clean_error(cgtb_test::run_cgtb({"plan", "rit", "--box", "4x4"})));
}

}  // namespace
