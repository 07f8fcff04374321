// Batch checks of the conjectures of F. Stewart, Scoring Play Combinatorial
// Games, over whole families of scoring octal games: one work item per game,
// the same CGTB_HD functor on the CPU (Thrust OpenMP) and the GPU (Thrust
// CUDA). Each computes G_s with gs_max (cgtb/rules/scoring.hpp) and finds
// periods with smallest_period (cgtb/period.hpp).
//
//  - Conjecture 3.1.1 and Lemma 3.1.1 (§3.1.1): every subtraction
//    set S with max S = k, points p_i = i.
//  - Conjecture 3.1.2: every taking-no-breaking code (digits 0-3) of length
//    <= K with p_i = i where n_i != 0, rows m = 0..R-1 of n +_l m with m a
//    heap of the same game.
//  - Conjecture 4.2.3: subtraction sets S with max <= k played against
//    themselves, rows G_s(n + m) and G_s(n ▽ m) for m = 0..M.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/hd.hpp"
#include "cgtb/period.hpp"
#include "cgtb/rules/scoring.hpp"

namespace cgtb {

/// Largest k of the subtraction-set and code checks (ring buffers of 64).
inline constexpr int kMaxConjectureK = 31;

/// Outcome of one subtraction set.
struct subtraction_result {
  /// Smallest N with G_s(n + k) = k - G_s(n) for all n >= N, proven (the
  /// relation held on [N, N + 2k), so the sequence is 2k-periodic from N
  /// and the relation holds for ever); -1 when not settled by the bound.
  std::int32_t settle;
  /// Smallest n = s + ik (s in S) where Lemma 3.1.1 fails; -1 if none up to
  /// the last n computed.
  std::int32_t lemma_fail;
};

/// Conjecture 3.1.1 and Lemma 3.1.1 for the subtraction set
/// S = {i : bit i-1 of (low | 2^(k-1))}, one per index `low` < 2^(k-1).
struct subtraction_check {
  int k;
  int bound;  ///< largest n computed
  subtraction_result* out;

  CGTB_HD subtraction_result run(std::uint64_t low) const {
    const std::uint64_t mask = low | (std::uint64_t{1} << (k - 1));
    std::int16_t g[64];
    g[0] = 0;
    int last_fail = -1;  // last n' with G(n'+k) != k - G(n')
    subtraction_result r{-1, -1};
    int s = 0, i = 0;  // n = s + i*k with 1 <= s <= k, kept without division
    for (int n = 1; n <= bound; ++n) {
      if (++s > k) s = 1, ++i;
      gs_max gs;
      for (std::uint64_t m = mask; m; m &= m - 1) {
        const int t = ctz64(m) + 1;
        if (t > n) break;
        gs.option(t, g[(n - t) & 63]);
      }
      const int best = static_cast<int>(gs.value());
      g[n & 63] = static_cast<std::int16_t>(best);
      // Lemma 3.1.1: G(s + 2ik) = s, G(s + (2i+1)k) = k - s for s in S, i >= 0.
      if (r.lemma_fail < 0 && ((mask >> (s - 1)) & 1) && best != ((i & 1) == 0 ? s : k - s)) r.lemma_fail = n;
      if (n >= k) {
        if (best != k - g[(n - k) & 63]) last_fail = n - k;
        const int N = last_fail + 1;
        if (n - k - N + 1 >= 2 * k) {  // relation held for n' in [N, N + 2k)
          r.settle = N;
          return r;
        }
      }
    }
    return r;
  }
  CGTB_HD void operator()(std::uint64_t low) const { out[low] = run(low); }
};

/// Outcome of one taking-no-breaking code.
struct code_result {
  /// Smallest N with G_s(n + 2k) = G_s(n) for all n >= N, proven (a whole
  /// recurrence window repeats at distance 2k); -1 when not settled by the
  /// bound; -2 when the code is outside the family (no digit 2 or 3).
  std::int32_t settle;
  std::int32_t k;  ///< largest i with n_i in {2, 3}
};

/// Largest number of rows m of the code check.
inline constexpr int kMaxCodeRows = 16;

/// Conjecture 3.1.2 for the code with digit n_i = (index >> 2(i-1)) & 3,
/// i = 1..K, points p_i = i where n_i != 0, in the disjunctive sum n +_l m
/// with m a heap of the same game, for every row m = 0..rows-1 at once
/// (rows = 1: single heaps).
struct code_check {
  int K;
  int bound;
  code_result* out;
  int rows = 1;

  /// Option digit test of a heap of h beans taking t: bit 1 when t == h, bit 2 when t < h.
  CGTB_HD static bool allowed(std::uint64_t index, int t, int h) {
    const int d = static_cast<int>((index >> (2 * (t - 1))) & 3);
    return t == h ? (d & 1) != 0 : (d & 2) != 0;
  }

  CGTB_HD code_result run(std::uint64_t index) const {
    int len = 0, k = 0;
    for (int i = 1; i <= K; ++i) {
      const int d = static_cast<int>((index >> (2 * (i - 1))) & 3);
      if (d) len = i;
      if (d >= 2) k = i;
    }
    if (k == 0) return {-2, 0};
    std::int16_t g[kMaxCodeRows][64];  // g[m][n & 63] = G_s(n +_l m)
    int last_fail = -1;                // last n with G(n + m) != G(n - 2k + m) for some row m
    for (int n = 0; n <= bound; ++n) {
      for (int m = 0; m < rows; ++m) {
        gs_max gs;
        const int top = len < n ? len : n;
        for (int t = 1; t <= top; ++t)
          if (allowed(index, t, n)) gs.option(t, g[m][(n - t) & 63]);
        const int mtop = len < m ? len : m;
        for (int u = 1; u <= mtop; ++u)
          if (allowed(index, u, m)) gs.option(u, g[m - u][n & 63]);
        const int best = static_cast<int>(gs.value());
        g[m][n & 63] = static_cast<std::int16_t>(best);
        if (n >= 2 * k && best != g[m][(n - 2 * k) & 63]) last_fail = n;
      }
      if (n >= 2 * k) {
        // Windows of columns a..a+k-1 (every row) equal at distance 2k, with
        // a + k > len (only takes with bit 2 and t <= k remain on heap n): the
        // whole system is 2k-periodic in n from a on.
        int a = last_fail - 2 * k + 1;
        if (a < 0) a = 0;
        if (a + k <= len) a = len - k + 1;
        if (n >= a + 3 * k - 1) return {last_fail - 2 * k + 1 > 0 ? last_fail - 2 * k + 1 : 0, k};
      }
    }
    return {-1, k};
  }
  CGTB_HD void operator()(std::uint64_t index) const { out[index] = run(index); }
};

/// Conjecture 4.2.3 for subtraction set S (mask bit i-1 = take i, p_i = i)
/// played against itself: G_s(n + m) and G_s(n ▽ m) for n <= bound,
/// m <= rows - 1, computed into `scratch` (2 * rows * (bound + 1) values per
/// item). For each row it stores the apparent period of both operators and
/// its preperiod (smallest_period with 2 repeats, as find_period).
struct selective_check {
  int k;
  int bound;
  int rows;
  std::int16_t* scratch;
  std::int32_t* out;  ///< per item and row: disjunctive period, preperiod, selective period, preperiod

  CGTB_HD void operator()(std::uint64_t item) const {
    const std::uint64_t mask = item + 1;  // every non-empty subset of 1..k
    const int W = bound + 1;
    std::int16_t* d = scratch + item * static_cast<std::uint64_t>(2 * rows * W);
    std::int16_t* s = d + rows * W;
    for (int m = 0; m < rows; ++m)
      for (int n = 0; n <= bound; ++n) {
        gs_max gd, gsel;  // G_s(n + m) and G_s(n ▽ m)
        for (std::uint64_t x = mask; x; x &= x - 1) {
          const int t = ctz64(x) + 1;
          if (t <= n) {
            gd.option(t, d[m * W + n - t]);
            gsel.option(t, s[m * W + n - t]);
          }
          if (t <= m) {
            gd.option(t, d[(m - t) * W + n]);
            gsel.option(t, s[(m - t) * W + n]);
            for (std::uint64_t y = mask; y; y &= y - 1) {
              const int u = ctz64(y) + 1;
              if (u > n) break;
              gsel.option(t + u, s[(m - t) * W + n - u]);
            }
          }
        }
        d[m * W + n] = static_cast<std::int16_t>(gd.value());
        s[m * W + n] = static_cast<std::int16_t>(gsel.value());
      }
    for (int m = 0; m < rows; ++m) {
      std::int32_t* o = out + (item * static_cast<std::uint64_t>(rows) + static_cast<std::uint64_t>(m)) * 4;
      int pre = 0;
      o[0] = smallest_period(d + m * W, W, 2, &pre);
      o[1] = pre;
      o[2] = smallest_period(s + m * W, W, 2, &pre);
      o[3] = pre;
    }
  }
};

/// Runs `subtraction_check{k, bound, out}` over low = 0..2^(k-1)-1 on the
/// chosen backend; `out` is host memory of 2^(k-1) results. Throws
/// input_error for k outside 1..kMaxConjectureK or a backend not compiled.
void run_subtraction_check(int k, int bound, const solve_options& opts, subtraction_result* out);
/// Runs `code_check{K, bound, out, rows}` over index = 0..4^K-1; `out` holds
/// 4^K results. Throws input_error for K outside 1..15 or rows outside
/// 1..kMaxCodeRows.
void run_code_check(int K, int bound, const solve_options& opts, code_result* out, int rows = 1);
/// Runs `selective_check` over the 2^k - 1 subtraction sets with max <= k;
/// `out` holds (2^k - 1) * rows * 4 values.
void run_selective_check(int k, int bound, int rows, const solve_options& opts, std::int32_t* out);

}  // namespace cgtb
