// The conjecture checker (cgtb/conjectures.hpp) against the engine: every
// batch answer is recomputed from engine-built tables of the same games.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/conjectures.hpp"
#include "cgtb/games/scoring_octal.hpp"
#include "cgtb/periodicity.hpp"
#include "cgtb/rules/scoring.hpp"

namespace {

using namespace cgtb;

/// G_s(0..N) of a taking-no-breaking game, from the engine (single heaps).
std::vector<std::int64_t> engine_heaps(const take_break& r, int N) {
  std::vector<std::int64_t> g(static_cast<std::size_t>(N) + 1, 0);
  solve_options o;
  o.threads = 1;
  solve<scoring_octal_heaps, scoring_rule>(scoring_octal_heaps(scoring_octal(r, N, scoring_octal::space::heaps)), o,
                                           [&](const level_report& rep, const level_records<scoring_record>& rec) {
                                             g[static_cast<std::size_t>(rep.level)] = rec[0].v;
                                           });
  return g;
}

std::string set_list(std::uint64_t mask) {
  std::string s;
  for (int i = 0; mask; ++i, mask >>= 1)
    if (mask & 1) s += (s.empty() ? "" : ",") + std::to_string(i + 1);
  return s;
}

TEST(ScoringConjectures, SubtractionCheckAgreesWithEngineForEverySetUpTo7) {
  const int bound = 400;
  solve_options o;
  o.threads = 2;
  for (int k = 1; k <= 7; ++k) {
    std::vector<subtraction_result> out(std::size_t{1} << (k - 1));
    run_subtraction_check(k, bound, o, out.data());
    for (std::uint64_t low = 0; low < out.size(); ++low) {
      const std::uint64_t mask = low | (std::uint64_t{1} << (k - 1));
      auto g = engine_heaps(take_break::subtraction(set_list(mask), ""), bound);
      int N = 0;  // smallest N with G(n + k) = k - G(n) for N <= n <= bound - k
      for (int n = 0; n + k <= bound; ++n)
        if (g[static_cast<std::size_t>(n + k)] != k - g[static_cast<std::size_t>(n)]) N = n + 1;
      ASSERT_LT(N + 3 * k, bound) << set_list(mask);
      EXPECT_EQ(out[low].settle, N) << "{" << set_list(mask) << "}";
      EXPECT_EQ(out[low].lemma_fail, -1) << "{" << set_list(mask) << "}";
      for (int s = 1; s <= k; ++s) {  // Lemma 3.1.1 on the engine's values
        if (!((mask >> (s - 1)) & 1)) continue;
        for (int i = 0; s + i * k <= bound; ++i)
          ASSERT_EQ(g[static_cast<std::size_t>(s + i * k)], i % 2 ? k - s : s) << set_list(mask);
      }
    }
  }
}

TEST(ScoringConjectures, CodeCheckAgreesWithEngineForEveryCodeOfLength4) {
  const int K = 4, bound = 300;
  solve_options o;
  o.threads = 2;
  std::vector<code_result> out(std::size_t{1} << (2 * K));
  run_code_check(K, bound, o, out.data());
  for (std::uint64_t i = 0; i < out.size(); ++i) {
    std::string code, points;
    int k = 0;
    for (int t = 1; t <= K; ++t) {
      int d = static_cast<int>((i >> (2 * (t - 1))) & 3);
      code += static_cast<char>('0' + d);
      points += (t > 1 ? "," : "") + std::to_string(d ? t : 0);
      if (d >= 2) k = t;
    }
    if (k == 0) {
      EXPECT_EQ(out[i].settle, -2) << code;
      continue;
    }
    while (code.back() == '0') {
      code.pop_back();
      points = points.substr(0, points.rfind(','));
    }
    auto g = engine_heaps(take_break::parse_scoring(code, points), bound);
    int N = 0;
    for (int n = 0; n + 2 * k <= bound; ++n)
      if (g[static_cast<std::size_t>(n + 2 * k)] != g[static_cast<std::size_t>(n)]) N = n + 1;
    ASSERT_LT(N + 6 * k, bound) << code;
    EXPECT_EQ(out[i].k, k) << code;
    EXPECT_EQ(out[i].settle, N) << code;
  }
}

TEST(ScoringConjectures, CodeCheckWithRowsAgreesWithEngineSumTables) {
  const int K = 3, bound = 150, rows = 5;
  solve_options o;
  o.threads = 1;
  std::vector<code_result> out(std::size_t{1} << (2 * K));
  run_code_check(K, bound, o, out.data(), rows);
  for (std::uint64_t i = 0; i < out.size(); ++i) {
    std::string code, points;
    int k = 0;
    for (int t = 1; t <= K; ++t) {
      int d = static_cast<int>((i >> (2 * (t - 1))) & 3);
      code += static_cast<char>('0' + d);
      points += (t > 1 ? "," : "") + std::to_string(d ? t : 0);
      if (d >= 2) k = t;
    }
    if (k == 0) continue;
    auto rules = take_break::parse_scoring(code, points);
    scoring_sum g(sum_op::disjunctive, rules, rules, bound);
    auto view = g.host_view();
    std::vector<std::vector<std::int64_t>> row(rows, std::vector<std::int64_t>(bound + 1));
    solve<scoring_sum, scoring_rule>(g, o, [&](const level_report& rep, const level_records<scoring_record>& rec) {
      for (std::uint64_t r = 0; r < rep.positions; ++r) {
        auto p = view.unrank(rep.level, r);
        if (p.m < rows) row[static_cast<std::size_t>(p.m)][static_cast<std::size_t>(p.n)] = rec[r].v;
      }
    });
    int N = 0;  // smallest N with G(n + 2k + m) = G(n + m) for all rows m and N <= n <= bound - 2k
    for (int m = 0; m < rows; ++m)
      for (int n = 0; n + 2 * k <= bound; ++n)
        if (row[static_cast<std::size_t>(m)][static_cast<std::size_t>(n + 2 * k)] !=
            row[static_cast<std::size_t>(m)][static_cast<std::size_t>(n)])
          N = std::max(N, n + 1);
    ASSERT_LT(N + 6 * k, bound) << code;
    EXPECT_EQ(out[i].settle, N) << code;
  }
}

TEST(ScoringConjectures, SelectiveCheckAgreesWithEngineTables) {
  const int k = 3, bound = 120, rows = 5;
  solve_options o;
  o.threads = 2;
  std::vector<std::int32_t> out(((std::size_t{1} << k) - 1) * rows * 4);
  run_selective_check(k, bound, rows, o, out.data());
  o.threads = 1;  // levels of ~100 positions: one thread (docs/performance.md)
  for (std::uint64_t item = 0; item + 1 < (std::uint64_t{1} << k); ++item) {
    auto rules = take_break::subtraction(set_list(item + 1), "");
    for (int opi = 0; opi < 2; ++opi) {
      scoring_sum g(opi ? sum_op::selective : sum_op::disjunctive, rules, rules, bound);
      std::vector<std::vector<std::int64_t>> row(rows, std::vector<std::int64_t>(bound + 1));
      auto view = g.host_view();
      solve<scoring_sum, scoring_rule>(g, o, [&](const level_report& rep, const level_records<scoring_record>& rec) {
        for (std::uint64_t r = 0; r < rep.positions; ++r) {
          auto p = view.unrank(rep.level, r);
          if (p.m < rows) row[static_cast<std::size_t>(p.m)][static_cast<std::size_t>(p.n)] = rec[r].v;
        }
      });
      for (int m = 0; m < rows; ++m) {
        period_report pr = find_period(row[static_cast<std::size_t>(m)], 0, 2);
        const std::int32_t* x = &out[(item * rows + static_cast<std::uint64_t>(m)) * 4 + 2 * opi];
        EXPECT_EQ(x[0], pr.found ? pr.period : 0) << set_list(item + 1) << " m=" << m << " op " << opi;
        if (pr.found) {
          EXPECT_EQ(x[1], pr.preperiod) << set_list(item + 1) << " m=" << m << " op " << opi;
        }
      }
    }
  }
}

TEST(ScoringConjectures, FindPeriodReportsPreperiodAndProof) {
  std::vector<std::int64_t> s = {5, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2};
  period_report r = find_period(s, 3, 2);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.period, 3);
  EXPECT_EQ(r.preperiod, 1);
  EXPECT_EQ(r.last_exception, 0);
  EXPECT_TRUE(r.proven);
}

}  // namespace
