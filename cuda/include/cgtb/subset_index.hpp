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

/// Host-side rank of subsets of {0, ..., n-1} a byte at a time: the rank of
/// subset_index::rank (Knuth, TAOCP 7.2.1.3, Theorem L) as a sum of one
/// table entry per byte of the mask, T[b][t][v] = the sum of C(c, j) over
/// the elements c of byte b (value v), numbered j = t + 1, t + 2, ... where
/// t elements lie below byte b. Five table reads on a 36-cell board in
/// place of one step per element; the table takes ceil(n / 8) · (n + 1) ·
/// 256 entries (380 KB at 36 cells, 1 MB at 64).
class subset_byte_ranker {
 public:
  explicit subset_byte_ranker(int n);
  /// Rank of `set` (bits at or above n clear).
  std::uint64_t rank(std::uint64_t set) const {
    std::uint64_t r = 0;
    int t = 0;
    for (int b = 0; b < bytes_; ++b) {
      const unsigned v = static_cast<unsigned>(set >> (8 * b)) & 255u;
      r += table_[(static_cast<std::size_t>(b) * static_cast<std::size_t>(n_ + 1) + static_cast<std::size_t>(t)) * 256 +
                  v];
      t += popcount64(v);
    }
    return r;
  }

 private:
  int n_ = 0, bytes_ = 0;
  std::vector<std::uint64_t> table_;
};

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

/// Ranks of the subsets S - {x, x + stride} for pairs (x, x + stride) of
/// elements of one subset S (a domino move clears two cells, so an option's
/// rank differs from the position's by a few binomial terms), the GPU's way:
/// each in O(1) plus the elements between x and x + stride, in one ascending
/// walk over S with every sum in registers (no per-thread arrays, so nothing
/// goes to local memory).
///
/// For S with elements c_0 < ... < c_{k-1}, rank(S) = sum_t C(c_t, t + 1).
/// Removing c_ix and c_iy (ix < iy) lowers the index of the elements between
/// them by one and of those above c_iy by two, so
///   rank(S - {c_ix, c_iy}) = sum_{t < ix} C(c_t, t + 1)
///                          + sum_{ix < t < iy} C(c_t, t)
///                          + sum_{t > iy} C(c_t, t - 1).
/// The walk keeps the first sum and the prefix of the last (P2) as it passes
/// c_ix, takes the middle from the few elements between the pair's cells, and
/// the rest of the last as the total of P2 minus its prefix up to c_iy.
struct register_removal_ranks {
  subset_index ix;
  std::uint64_t set;
  std::uint64_t p2_total;  ///< sum over S of C(c_t, t - 1)

  /// Throws nothing; `s` must have no bit at or above ix.n.
  CGTB_HD register_removal_ranks(const subset_index& index, std::uint64_t s) : ix(index), set(s), p2_total(0) {
    int t = 0;
    for (std::uint64_t rest = s; rest; rest &= rest - 1) p2_total += ix.choose(ctz64(rest), t++ - 1);
  }

  /// Calls f(rank of S - {x, x + stride}) for each bit x of `pairs`, in
  /// ascending order of x. Both x and x + stride must be elements of S.
  template <class F>
  CGTB_HD void for_each(std::uint64_t pairs, int stride, F&& f) const {
    if (stride == 1)
      for_each(pairs, 0, 1, f, f);
    else
      for_each(0, pairs, stride, f, f);
  }

  /// One walk for both orientations of a domino: calls fa(rank of S - {x,
  /// x + 1}) for each bit x of `adjacent` and fb(rank of S - {x, x + stride})
  /// for each bit x of `strided`, each in ascending order of x (here
  /// interleaved, fa first where both hold; the order of fa calls relative to
  /// fb calls is the ranker's own). Every pair's cells must be elements of S.
  template <class FA, class FB>
  CGTB_HD void for_each(std::uint64_t adjacent, std::uint64_t strided, int stride, FA&& fa, FB&& fb) const {
    std::uint64_t p0 = 0, p2 = 0;  // sums over the elements below c_t
    std::uint64_t pairs = adjacent | strided;
    int t = 0;
    for (std::uint64_t rest = set; pairs; rest &= rest - 1, ++t) {
      const int c = ctz64(rest);
      const std::uint64_t* row = ix.binom + c * kBinomStride;  // C(c, .)
      const std::uint64_t up = row[t + 1], down = t > 0 ? row[t - 1] : 0;
      if ((pairs >> c) & 1u) {
        pairs &= pairs - 1;
        // The sums below c_ix and the rest of P2 past c_ix, common to both.
        const std::uint64_t base = p0 + p2_total - p2 - down;
        if ((adjacent >> c) & 1u) fa(base - row[kBinomStride + t]);  // C(c + 1, t): nothing between the cells
        if ((strided >> c) & 1u) {
          const int y = c + stride;
          std::uint64_t mid = 0;  // the elements strictly between c and y: C(d, u) - C(d, u - 1)
          int u = t + 1;
          for (std::uint64_t w = set & ((1ull << y) - 1) & ~((2ull << c) - 1); w; w &= w - 1, ++u) {
            const std::uint64_t* rd = ix.binom + ctz64(w) * kBinomStride + u;
            mid += rd[0] - rd[-1];
          }
          // u is now the index of y in S.
          fb(base + mid - ix.binom[y * kBinomStride + u - 1]);
        }
      }
      p0 += up;
      p2 += down;
    }
  }
};

/// The same ranks as register_removal_ranks (same interface; each callback
/// sees the same ranks in the same order), the CPU's way: three prefix sums
/// per element of S, built in one pass into per-thread arrays (which stay in
/// a CPU core's L1 cache), then each pair in O(1). On the CPU this is 3 to 13 %
/// faster for Cram 5x5 than the register walk; on the GPU the arrays would
/// live in local memory (1,576 bytes per thread).
///
/// With P_s[i] = sum_{t < i} C(c_t, t + 1 - s), removing elements of indices
/// ix < iy gives
///   rank(S - {c_ix, c_iy}) = P_0[ix] + (P_1[iy] - P_1[ix+1]) + (P_2[k] - P_2[iy+1]).
struct prefix_removal_ranks {
  std::uint64_t p0[kMaxCells + 1], p1[kMaxCells + 1], p2[kMaxCells + 1];
  std::uint64_t set;
  int k;

  CGTB_HD prefix_removal_ranks(const subset_index& ix, std::uint64_t s) : set(s), k(0) {
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

  /// Rank of S with its elements x < y removed.
  CGTB_HD std::uint64_t rank_without(int x, int y) const {
    const int ix = popcount64(set & ((1ull << x) - 1)), iy = popcount64(set & ((1ull << y) - 1));
    return p0[ix] + (p1[iy] - p1[ix + 1]) + (p2[k] - p2[iy + 1]);
  }

  /// As register_removal_ranks::for_each.
  template <class F>
  CGTB_HD void for_each(std::uint64_t pairs, int stride, F&& f) const {
    for (; pairs; pairs &= pairs - 1) {
      const int x = ctz64(pairs);
      f(rank_without(x, x + stride));
    }
  }
  /// As register_removal_ranks::for_each, both orientations, but every fa
  /// call before the first fb call: the records of a position's horizontal
  /// options lie close together, and reading them together was 5 % faster
  /// for Cram 5x5 than the walk's interleaved order.
  template <class FA, class FB>
  CGTB_HD void for_each(std::uint64_t adjacent, std::uint64_t strided, int stride, FA&& fa, FB&& fb) const {
    for_each(adjacent, 1, fa);
    for_each(strided, stride, fb);
  }
};

/// The option ranks the domino games use: register_removal_ranks on the GPU,
/// prefix_removal_ranks on the CPU. Both give the same ranks
/// (tests/test_cram_ruleset.cpp checks both against ranking each option
/// afresh) and the value rules fold options in any order, so both backends
/// write the same tables.
#if defined(__CUDA_ARCH__)
using pair_removal_ranks = register_removal_ranks;
#else
using pair_removal_ranks = prefix_removal_ranks;
#endif

}  // namespace cgtb
