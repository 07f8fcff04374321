// Row Impartial Terminus (RIT), an impartial game on integer partitions
// ("Row Impartial Terminus", section 3). A move shortens one row of the Young diagram so that
// the result is still a partition: row i of lambda may be cut to any length t
// with lambda_{i+1} <= t < lambda_i. The empty partition is the only terminal
// position.
//
// Table: every partition fitting an r x c box (at most r parts, each at most
// c), C(r+c, r) of them in all (lattice paths). Level: the number of boxes n;
// a move removes 1..c boxes. Index of level n: lexicographic order on
// (lambda_1, lambda_2, ...), ranked with the counting table
// N(n, k, m) = number of partitions of n into at most k parts, each at most m
// (the coefficients of the Gaussian binomial [k+m choose k]_q):
//   rank(lambda) = sum_i N(n_i, r - i + 1, lambda_i - 1),
// n_i = lambda_i + lambda_{i+1} + ... (the boxes in rows i..r). Term i counts
// the partitions that agree with lambda above row i and have a shorter row i.
//
// Position encoding: row i (1-based) in bits 4(i-1)..4(i-1)+3 of a 64-bit
// word, so r <= 16 and c <= 15.
// Backend instantiations (cgtb-solve lines: the ruleset and the value rule
// each backend is compiled for; CMake collects them, docs/architecture.md):
// cgtb-solve: cgtb::rit cgtb::impartial_rule<-1>
// cgtb-solve: cgtb::rit cgtb::impartial_rule<0>
// cgtb-solve: cgtb::rit cgtb::impartial_rule<7>
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/hd.hpp"

namespace cgtb {

/// Largest box RIT supports: rows (one nibble each in 64 bits) and columns
/// (a nibble holds 0..15).
inline constexpr int kRitMaxRows = 16;
inline constexpr int kRitMaxCols = 15;

/// Trivially copyable RIT ruleset over an r x c box. `count` points to the
/// table made by rit::table(): N(n, k, m) at (k * (c + 1) + m) * (r c + 1) + n
/// (n fastest, so a row's terms for fewer boxes are neighbours).
struct rit_view {
  int rows, cols;
  const std::uint64_t* count;

  using position = std::uint64_t;

  /// Row i (1-based) of p; 0 past the last part.
  CGTB_HD static int part(position p, int i) { return static_cast<int>((p >> (4 * (i - 1))) & 15u); }
  CGTB_HD static position with_part(position p, int i, int v) {
    const int s = 4 * (i - 1);
    return (p & ~(std::uint64_t{15} << s)) | (static_cast<std::uint64_t>(v) << s);
  }

  /// N(n, k, m): partitions of n into at most k parts, each at most m.
  CGTB_HD std::uint64_t N(int n, int k, int m) const {
    if (n < 0 || m < 0) return 0;
    return column(k, m)[n];
  }
  /// N(., k, m) as an array indexed by n.
  CGTB_HD const std::uint64_t* column(int k, int m) const {
    return count +
           (static_cast<std::uint64_t>(k) * static_cast<std::uint64_t>(cols + 1) + static_cast<std::uint64_t>(m)) *
               static_cast<std::uint64_t>(rows * cols + 1);
  }

  /// Partitions of `level` boxes fitting the box.
  CGTB_HD std::uint64_t level_size(int level) const { return N(level, rows, cols); }

  /// Rank of p within its level (lexicographic order on the rows).
  CGTB_HD std::uint64_t rank(int level, position p) const {
    std::uint64_t r = 0;
    int rem = level;
    for (int i = 1; i <= rows && rem > 0; ++i) {
      const int v = part(p, i);
      r += N(rem, rows - i + 1, v - 1);
      rem -= v;
    }
    return r;
  }

  /// Inverse of rank: r < level_size(level). Each row is the smallest length
  /// whose count of partitions exceeds what is left of r.
  CGTB_HD position unrank(int level, std::uint64_t r) const {
    position p = 0;
    int rem = level;
    for (int i = 1; i <= rows && rem > 0; ++i) {
      const int k = rows - i + 1;
      int v = (rem + k - 1) / k;
      while (N(rem, k, v) <= r) ++v;
      r -= N(rem, k, v - 1);
      p = with_part(p, i, v);
      rem -= v;
    }
    return p;
  }

  /// Successor in rank order: lengthen the lowest row that can take one box
  /// from the rows below it, then spread the rest of those boxes as evenly as
  /// possible (the lexicographically smallest tail).
  CGTB_HD position next(int /*level*/, position p) const {
    int below = 0;  // boxes in rows i+1..r
    for (int i = rows; i >= 1; --i) {
      const int v = part(p, i);
      const int cap = i == 1 ? cols : part(p, i - 1);
      if (below >= 1 && v + 1 <= cap) {
        p = with_part(p, i, v + 1);
        int s = below - 1;
        const int k = rows - i;
        const int q = s / k, extra = s % k;
        for (int j = 1; j <= k; ++j) p = with_part(p, i + j, q + (j <= extra ? 1 : 0));
        return p;
      }
      below += v;
    }
    return p;  // past the last position of the level: undefined, left unchanged
  }

  /// Calls f(option_level, option_rank) for every option of p: row i cut to
  /// t in [lambda_{i+1}, lambda_i), rows from the last up, t ascending. Ranks
  /// are updated incrementally: terms below row i are unchanged, terms above
  /// it see n_j lowered by the cut. The GPU's walk (for_each_option_in_registers)
  /// recomputes each term above the cut row; the CPU's keeps them in per-row
  /// arrays (for_each_option_from_arrays), in L1, which would be local memory on a GPU.
  template <class F>
  CGTB_HD void for_each_option(int level, position p, F&& f) const {
#if defined(__CUDA_ARCH__)
    for_each_option_in_registers(level, p, f);
#else
    for_each_option_from_arrays(level, p, f);
#endif
  }

  /// for_each_option with per-row arrays of the terms above each row (the
  /// CPU's walk): each option costs one read per row above the cut.
  template <class F>
  CGTB_HD void for_each_option_from_arrays(int level, position p, F&& f) const {
    // at[j][n_j - d] is row j's term after d boxes leave a row below it.
    const std::uint64_t* at[kRitMaxRows + 2];
    std::uint64_t term[kRitMaxRows + 2];
    int n_at[kRitMaxRows + 2];
    int rem = level, len = 0;
    for (int i = 1; i <= rows && rem > 0; ++i) {
      const int v = part(p, i);
      n_at[i] = rem;
      at[i] = column(rows - i + 1, v - 1) + rem;
      term[i] = at[i][0];
      rem -= v;
      len = i;
    }
    std::uint64_t suffix = 0;  // sum of term[j] for j > i
    for (int i = len; i >= 1; --i) {
      const int v = part(p, i), low = i < rows ? part(p, i + 1) : 0;
      for (int t = low; t < v; ++t) {
        const int d = v - t;
        std::uint64_t r = suffix + (t > 0 ? column(rows - i + 1, t - 1)[n_at[i] - d] : 0);
        for (int j = 1; j < i; ++j) r += at[j][-d];
        f(level - d, r);
      }
      suffix += term[i];
    }
  }

  /// for_each_option with every sum in registers (the GPU's walk): the same
  /// options in the same order, each term above the cut row recomputed from
  /// the row's length and the boxes from it down.
  template <class F>
  CGTB_HD void for_each_option_in_registers(int level, position p, F&& f) const {
    int len = 0;
    while (len < rows && part(p, len + 1) > 0) ++len;
    std::uint64_t suffix = 0;  // the terms of the rows below row i
    int below = 0;             // boxes in the rows below row i
    for (int i = len; i >= 1; --i) {
      const int v = part(p, i), low = i < rows ? part(p, i + 1) : 0;
      const int n_i = below + v;
      for (int t = low; t < v; ++t) {
        const int d = v - t;
        std::uint64_t r = suffix + (t > 0 ? column(rows - i + 1, t - 1)[n_i - d] : 0);
        int n_j = level;
        for (int j = 1; j < i; ++j) {
          const int vj = part(p, j);
          r += column(rows - j + 1, vj - 1)[n_j - d];
          n_j -= vj;
        }
        f(level - d, r);
      }
      suffix += column(rows - i + 1, v - 1)[n_i];
      below = n_i;
    }
  }

  /// Number of options of p: lambda_1 (one per column of the first row).
  CGTB_HD int option_count(position p) const { return part(p, 1); }

  /// Calls f(parent_level, parent_rank) for every position with a move to p:
  /// row i lengthened to t in (lambda_i, lambda_{i-1}] (c for row 1).
  template <class F>
  CGTB_HD void for_each_parent(int level, position p, F&& f) const {
    for (int i = 1; i <= rows; ++i) {
      const int v = part(p, i), cap = i == 1 ? cols : part(p, i - 1);
      for (int t = v + 1; t <= cap; ++t) f(level + t - v, rank(level + t - v, with_part(p, i, t)));
      if (v == 0) break;
    }
  }
};

/// A RIT move: row `row` (1-based) shortened by `boxes`.
struct rit_move {
  int row, boxes;
  std::uint64_t after;
};

/// RIT on an r x c box (host owner of the counting table).
class rit {
 public:
  using view_type = rit_view;
  using position = std::uint64_t;
  static constexpr const char* ruleset_name = "rit";

  /// Throws input_error unless 1 <= rows <= 16 and 1 <= cols <= 15.
  rit(int rows, int cols);
  /// Parses "RxC" (e.g. "14x14"); throws input_error if malformed.
  static rit from_box_text(const std::string& rc);

  std::string params() const;
  int rows() const { return rows_; }
  int cols() const { return cols_; }

  /// Levels 0..r*c (number of boxes).
  std::vector<int> levels() const;
  /// A move removes 1..c boxes.
  int option_level_span() const { return cols_; }
  /// The full box [c, c, ..., c]: every partition of the table is reachable
  /// from it.
  position start() const;
  int level_of(position p) const;

  const std::vector<std::uint64_t>& table() const { return count_; }
  view_type view(const std::uint64_t* table) const { return {rows_, cols_, table}; }
  view_type host_view() const { return view(count_.data()); }

  /// Parses "[5,4,2,1]" (parts non-increasing, positive, at most r of them,
  /// each at most c; "[]" is the empty partition). Throws input_error naming
  /// the problem.
  position parse(const std::string& text) const;
  /// Inverse of parse: "[5,4,2,1]".
  std::string format(position p) const;
  /// Move text "r2-3": three boxes off row 2.
  std::string move_name(const rit_move& m) const;
  /// Every move from p, by row then by the number of boxes removed.
  std::vector<rit_move> moves(position p) const;

 private:
  int rows_, cols_;
  std::vector<std::uint64_t> count_;
};

/// Remnant of a partition ("Row Impartial Terminus", section 3): (lambda_1 - lambda_2,
/// lambda_3 - lambda_4, ...), ceil(parts / 2) entries.
std::vector<int> rit_remnant(const std::vector<int>& parts);
/// Core of a partition ("Row Impartial Terminus", section 3): [lambda_2, lambda_2, lambda_4,
/// lambda_4, ...] without zero parts.
std::vector<int> rit_core(const std::vector<int>& parts);

}  // namespace cgtb
