// Perfect hashing of k-subsets of {0, ..., n-1} by the combinatorial number
// system (Knuth, TAOCP 7.2.1.3, Theorem L).
//
// A k-subset with elements c_1 < c_2 < ... < c_k, held as a bitmask, has rank
//   rank = sum_j C(c_j, j)            (j = 1..k),
// a bijection onto [0, C(n, k)). Rank order is colexicographic order, so the
// successor of a subset is Gosper's hack.
#pragma once

#include <cstdint>
#include <vector>

#include "cgtb/hd.hpp"

namespace cgtb {

/// Largest ground set a subset index supports (bitmask positions).
inline constexpr int kMaxCells = 64;
/// Row stride of the binomial table: C(c, j) is at binom[c * kBinomStride + j].
inline constexpr int kBinomStride = kMaxCells + 2;

/// Binomial coefficients C(c, j) for 0 <= c <= 64, 0 <= j <= 65, row-major
/// with stride kBinomStride (C(c, j) = 0 for j > c). All fit in 64 bits except
/// C(64, 32) and neighbours, which are only needed for boards of 64 cells and
/// do fit (C(64,32) < 2^63).
std::vector<std::uint64_t> make_binomial_table();

/// Trivially copyable view of the k-subset index over a ground set of n cells.
/// `binom` points to a table made by make_binomial_table() in memory the
/// executing processor can read (host memory on the CPU backend, device memory
/// on the CUDA backend).
struct subset_index {
  const std::uint64_t* binom;
  int n;

  /// C(c, j) with C(c, j) = 0 for j < 0 or j > c.
  CGTB_HD std::uint64_t choose(int c, int j) const { return (j < 0 || c < 0) ? 0 : binom[c * kBinomStride + j]; }

  /// Number of k-subsets: the size of level k.
  CGTB_HD std::uint64_t count(int k) const { return choose(n, k); }

  /// Rank of a subset (any popcount); bits at or above n must be clear.
  CGTB_HD std::uint64_t rank(std::uint64_t set) const {
    std::uint64_t r = 0;
    int j = 1;
    while (set) {
      int c = ctz64(set);
      r += choose(c, j++);
      set &= set - 1;
    }
    return r;
  }

  /// Inverse of rank on k-subsets: r must be < count(k). Greedy from the top.
  CGTB_HD std::uint64_t unrank(int k, std::uint64_t r) const {
    std::uint64_t set = 0;
    int c = n - 1;
    for (int j = k; j >= 1; --j) {
      while (choose(c, j) > r) --c;
      set |= 1ull << c;
      r -= choose(c, j);
      --c;
    }
    return set;
  }

  /// Next k-subset in rank order (Gosper's hack). Undefined past the last.
  CGTB_HD static std::uint64_t next(std::uint64_t set) {
    if (set == 0) return 0;
    std::uint64_t low = set & (~set + 1);
    std::uint64_t ripple = set + low;
    if (ripple == 0) return 0;  // overflow past bit 63: no successor
    std::uint64_t ones = ((ripple ^ set) >> 2) >> ctz64(low);
    return ripple | ones;
  }
};

/// Prefix sums that rank every subset obtained by removing two elements of
/// one subset in O(1) each (incremental option ranking: a move clears two
/// cells, so the rank changes by a few binomial terms).
///
/// For the set S with elements c_0 < ... < c_{k-1} (0-based index i),
/// P_s[i] = sum_{t < i} C(c_t, t + 1 - s). Removing elements of indices
/// ix < iy shifts the index of elements between them down by one and of
/// elements above iy down by two, so
///   rank(S - {c_ix, c_iy}) = P_0[ix] + (P_1[iy] - P_1[ix+1]) + (P_2[k] - P_2[iy+1]).
struct removal_ranker {
  std::uint64_t p0[kMaxCells + 1], p1[kMaxCells + 1], p2[kMaxCells + 1];
  std::uint64_t set;
  int k;

  CGTB_HD removal_ranker(const subset_index& ix, std::uint64_t s) : set(s), k(0) {
    p0[0] = p1[0] = p2[0] = 0;
    std::uint64_t rest = s;
    for (unsigned t = 0; rest && t < kMaxCells; ++t) {
      int c = ctz64(rest);
      rest &= rest - 1;
      p0[t + 1] = p0[t] + ix.choose(c, static_cast<int>(t) + 1);
      p1[t + 1] = p1[t] + ix.choose(c, static_cast<int>(t));
      p2[t + 1] = p2[t] + ix.choose(c, static_cast<int>(t) - 1);
      k = static_cast<int>(t) + 1;
    }
  }

  /// Index of element `cell` within the set (number of elements below it).
  CGTB_HD int index_of(int cell) const { return popcount64(set & ((1ull << cell) - 1)); }

  /// Rank of the set with cells x < y (both members) removed.
  CGTB_HD std::uint64_t rank_without(int x, int y) const {
    int ix = index_of(x), iy = index_of(y);
    return p0[ix] + (p1[iy] - p1[ix + 1]) + (p2[k] - p2[iy + 1]);
  }
};

}  // namespace cgtb
