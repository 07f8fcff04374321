// The engine agrees with the brute-force reference (tests/reference_solver.hpp)
// on every position of every rectangle of up to 12 cells, for every value it
// computes: the normal Grundy value, the misère Grundy value, and the misère
// values of the position beside a heaps of *2 and b heaps of *1 (a + b <= 7),
// from which the genus is read. Checked twice: straight from the level solver
// (cgtb::solve with each impartial rule), and through a written .cgtb file
// read back with cgtb::tablebase::value (the format round trip).
//
// The engine's rank i on level k is matched with the i-th k-subset in colex
// order, enumerated by the test (cgtb_test::subsets_by_size), not with the
// engine's own unrank.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/games/cram.hpp"
#include "cgtb/rules/impartial.hpp"
#include "cgtb/tablebase.hpp"
#include "reference_solver.hpp"
#include "test_support.hpp"

namespace {

using cgtb_test::cram_reference;

struct board {
  int rows, cols;
  int cells() const { return rows * cols; }
};

void PrintTo(const board& b, std::ostream* os) { *os << b.rows << "x" << b.cols; }

std::vector<board> boards_up_to(int cells) {
  std::vector<board> v;
  for (int r = 1; r <= cells; ++r)
    for (int c = 1; r * c <= cells; ++c) v.push_back({r, c});
  return v;
}

std::string board_name(const ::testing::TestParamInfo<board>& i) {
  return "Cram" + std::to_string(i.param.rows) + "x" + std::to_string(i.param.cols);
}

class CramMatchesReference : public ::testing::TestWithParam<board> {
 protected:
  void SetUp() override {
    b_ = GetParam();
    by_size_ = cgtb_test::subsets_by_size(b_.cells());
    for (int l = b_.cells() % 2; l <= b_.cells(); l += 2) levels_.push_back(l);
  }
  board b_{};
  std::vector<std::vector<std::uint64_t>> by_size_;
  std::vector<int> levels_;  // the levels a tablebase of the board holds
};

TEST_P(CramMatchesReference, SolverGivesReferenceNormalMisereAndEveryHeapSumOnEveryPosition) {
  constexpr int K = 7;
  cgtb::cram game(b_.rows, b_.cols);
  cram_reference ref(b_.rows, b_.cols);
  auto got = cgtb_test::solve_all<cgtb::cram, cgtb::impartial_rule<K>>(game, 0);
  ASSERT_EQ(got.size(), levels_.size());
  for (int level : levels_) {
    const auto& masks = by_size_[static_cast<std::size_t>(level)];
    ASSERT_EQ(got[level].size(), masks.size()) << "level " << level;
    for (std::size_t i = 0; i < masks.size(); ++i) {
      const auto& rec = got[level][i];
      const std::uint64_t p = masks[i];
      ASSERT_EQ(rec.g, ref.normal(p)) << "normal value, level " << level << " rank " << i << " " << game.format(p);
      for (int a = 0; a <= K; ++a)
        for (int b = 0; a + b <= K; ++b)
          ASSERT_EQ(rec.misere_sum(a, b), ref.misere_sum(p, a, b))
              << "misère value with " << a << " *2 and " << b << " *1, " << game.format(p);
    }
  }
}

TEST_P(CramMatchesReference, NormalOnlyAndMisereOnlyRulesGiveReferenceValuesSingleThreaded) {
  cgtb::cram game(b_.rows, b_.cols);
  cram_reference ref(b_.rows, b_.cols);
  auto normal = cgtb_test::solve_all<cgtb::cram, cgtb::impartial_rule<-1>>(game, 1);
  auto misere = cgtb_test::solve_all<cgtb::cram, cgtb::impartial_rule<0>>(game, 1);
  for (int level : levels_) {
    const auto& masks = by_size_[static_cast<std::size_t>(level)];
    ASSERT_EQ(normal[level].size(), masks.size());
    ASSERT_EQ(misere[level].size(), masks.size());
    for (std::size_t i = 0; i < masks.size(); ++i) {
      ASSERT_EQ(normal[level][i].g, ref.normal(masks[i])) << game.format(masks[i]);
      ASSERT_EQ(misere[level][i].g, ref.normal(masks[i])) << game.format(masks[i]);
      ASSERT_EQ(misere[level][i].misere(0), ref.misere(masks[i])) << game.format(masks[i]);
    }
  }
}

// Small blocks (64 entries) so the larger levels span several blocks.
TEST_P(CramMatchesReference, WrittenFileReadsBackReferenceValuesForEveryValueKind) {
  cgtb_test::temp_dir dir;
  cram_reference ref(b_.rows, b_.cols);
  struct kind {
    std::string values;
    std::vector<std::string> fields;
  };
  const std::vector<kind> kinds = {
      {"all", {"grundy", "misere", "genus1", "genus2", "genus3", "genus4", "genus5", "genus6", "genus7"}},
      {"normal", {"grundy"}},
      {"misere", {"misere"}},
      {"normal,misere", {"grundy", "misere"}},
  };
  for (const kind& k : kinds) {
    SCOPED_TRACE("--values " + k.values);
    const std::string path = dir.file(k.values + ".cgtb");
    cgtb_test::build_cram(b_.rows, b_.cols, k.values, path, 64);
    cgtb::tablebase tb(path);
    EXPECT_EQ(tb.header().ruleset, "cram");
    EXPECT_EQ(tb.header().params, cgtb_test::board_text(b_.rows, b_.cols));
    ASSERT_EQ(tb.header().fields.size(), k.fields.size());
    for (std::size_t f = 0; f < k.fields.size(); ++f) EXPECT_EQ(tb.header().fields[f].name, k.fields[f]);
    ASSERT_EQ(tb.levels().size(), levels_.size());
    for (int level : levels_) {
      const auto& masks = by_size_[static_cast<std::size_t>(level)];
      const cgtb::level_entry* le = tb.find_level(level);
      ASSERT_NE(le, nullptr) << "level " << level;
      ASSERT_EQ(le->positions, masks.size());
      for (std::size_t i = 0; i < masks.size(); ++i) {
        const std::uint64_t p = masks[i];
        for (std::size_t f = 0; f < k.fields.size(); ++f) {
          const std::string& name = k.fields[f];
          const int expect = name == "grundy"   ? ref.normal(p)
                             : name == "misere" ? ref.misere(p)
                                                : ref.misere_sum(p, std::stoi(name.substr(5)), 0);
          ASSERT_EQ(tb.value(level, i, static_cast<int>(f)), expect) << name << " of level " << level << " rank " << i;
        }
      }
    }
    for (std::uint64_t blk = 0; blk < tb.blocks().size(); ++blk) EXPECT_EQ(tb.check_block(blk), "");
  }
}

INSTANTIATE_TEST_SUITE_P(UpTo12Cells, CramMatchesReference, ::testing::ValuesIn(boards_up_to(12)), board_name);

}  // namespace
