// The moves of Stewart's scoring play octal games and of their sums, written
// from the definitions (Stewart, Scoring Play Combinatorial Games, Defs. 3.1.1,
// 3.1.2, 4.1.1, 4.2.1, 4.3.1)
// without the engine's code: a component is a sorted list of heaps of its own
// game. The oracle of tests/test_scoring.cpp (a brute-force solver) and the
// plain move generator of the scoring rulesets' self-test
// (tests/test_ruleset_selftest.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "cgtb/games/scoring_octal.hpp"  // cgtb::sum_op

namespace cgtb_test {

/// One scoring octal game: digit i-1 of `code` and points[i-1] for taking i
/// beans.
struct scoring_game {
  std::string code;
  std::vector<int> points;

  /// "CODE:POINTS" with one digit of points per take size ("123:123"), the
  /// code optionally written "0.07".
  static scoring_game parse(const std::string& cp) {
    const auto c = cp.find(':');
    std::vector<int> pts;
    for (char ch : cp.substr(c + 1)) pts.push_back(ch - '0');
    return make(cp.substr(0, c), std::move(pts));
  }
  static scoring_game make(std::string code, std::vector<int> points) {
    if (code.rfind("0.", 0) == 0) code = code.substr(2);
    return {std::move(code), std::move(points)};
  }
};

using scoring_heaps = std::vector<int>;  // sorted ascending, no zeros

/// Every move from one heap of n beans: (heaps left, points).
inline std::vector<std::pair<scoring_heaps, int>> scoring_heap_moves(const scoring_game& g, int n) {
  std::vector<std::pair<scoring_heaps, int>> out;
  for (std::size_t t = 1; t <= g.code.size(); ++t) {
    const int d = g.code[t - 1] - '0', r = n - static_cast<int>(t);
    if (r < 0) continue;
    const int pts = g.points[t - 1];
    if ((d & 1) && r == 0) out.push_back({{}, pts});
    if ((d & 2) && r >= 1) out.push_back({{r}, pts});
    if (d & 4)
      for (int a = 1; 2 * a <= r; ++a) out.push_back({{a, r - a}, pts});
  }
  return out;
}

/// Heaps h with heap i replaced by `leaves`, sorted.
inline scoring_heaps scoring_replace(const scoring_heaps& h, std::size_t i, const scoring_heaps& leaves) {
  scoring_heaps q = h;
  q.erase(q.begin() + static_cast<std::ptrdiff_t>(i));
  q.insert(q.end(), leaves.begin(), leaves.end());
  std::sort(q.begin(), q.end());
  return q;
}

/// Every move of one component: (heaps after, points).
inline std::vector<std::pair<scoring_heaps, int>> scoring_component_moves(const scoring_game& g,
                                                                          const scoring_heaps& h) {
  std::vector<std::pair<scoring_heaps, int>> out;
  for (std::size_t i = 0; i < h.size(); ++i)
    for (const auto& [leaves, pts] : scoring_heap_moves(g, h[i])) out.push_back({scoring_replace(h, i, leaves), pts});
  return out;
}

/// Every move of the sum (a in `left`, b in `right`) under `op`: (components
/// after, points).
inline std::vector<std::pair<std::pair<scoring_heaps, scoring_heaps>, int>> scoring_sum_moves(cgtb::sum_op op,
                                                                                              const scoring_game& left,
                                                                                              const scoring_game& right,
                                                                                              const scoring_heaps& a,
                                                                                              const scoring_heaps& b) {
  const auto lm = scoring_component_moves(left, a), rm = scoring_component_moves(right, b);
  std::vector<std::pair<std::pair<scoring_heaps, scoring_heaps>, int>> opts;
  auto alone_left = [&] {
    for (auto& [q, p] : lm) opts.push_back({{q, b}, p});
  };
  auto alone_right = [&] {
    for (auto& [q, p] : rm) opts.push_back({{a, q}, p});
  };
  auto both = [&] {
    for (auto& [q, p] : lm)
      for (auto& [s, r] : rm) opts.push_back({{q, s}, p + r});
  };
  switch (op) {
    case cgtb::sum_op::disjunctive:
      alone_left();
      alone_right();
      break;
    case cgtb::sum_op::conjunctive:
      if (!lm.empty() && !rm.empty())
        both();
      else {
        alone_left();
        alone_right();
      }
      break;
    case cgtb::sum_op::selective:
      alone_left();
      alone_right();
      both();
      break;
    case cgtb::sum_op::sequential:
      if (!lm.empty())
        alone_left();
      else
        alone_right();
      break;
  }
  return opts;
}

}  // namespace cgtb_test
