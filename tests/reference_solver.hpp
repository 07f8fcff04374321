// An independent brute-force Cram solver: the oracle the engine is checked
// against (docs/reliability.md).
//
// It shares nothing with the engine: no subset index, no ranking, no domino
// masks, no value rule. A position is the bitmask of empty cells, cell (r, c)
// at bit r*cols + c (the encoding the engine documents in games/cram.hpp, so
// masks can be compared); moves are found by walking rows and columns, and
// values come from a plain recursion memoised on the mask.
//
// Values (Winning Ways ch. 11 and 13; "Row Impartial Terminus", section 2A;
// "Cram with the last move losing", "How the symbols were computed"):
//   normal(p)          mex of the options' values, 0 for a position with none;
//   misere_sum(p,a,b)  misère Grundy value of p + a heaps of *2 + b heaps of *1:
//                      options are p's moves, *2 -> *1, *2 -> 0 and *1 -> 0;
//                      a state with no option at all has value 1;
//   misere(p)          misere_sum(p, 0, 0);
//   genus run          gamma_k = misere_sum(p, k, 0), k = 0..7.
// Beside it: the board's symmetries applied cell by cell
// (board_symmetry_reference), for the reachable, symmetry-reduced tables.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace cgtb_test {

/// Smallest non-negative integer not in `values`.
inline int reference_mex(const std::set<int>& values) {
  int m = 0;
  while (values.count(m)) ++m;
  return m;
}

class cram_reference {
 public:
  /// Heaps of *2 and *1 beside a position: a + b <= kHeaps.
  static constexpr int kHeaps = 7;

  cram_reference(int rows, int cols) : rows_(rows), cols_(cols) {
    if (rows < 1 || cols < 1 || rows * cols > 64) throw std::invalid_argument("reference: bad board");
  }

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int cells() const { return rows_ * cols_; }
  /// The empty board: every cell empty.
  std::uint64_t full() const { return cells() == 64 ? ~0ull : (1ull << cells()) - 1; }

  bool empty_at(std::uint64_t p, int r, int c) const { return (p >> (r * cols_ + c)) & 1; }

  /// Cram text of p: rows joined by '/', '.' empty, '#' covered
  /// (docs/cram.md), written here from the definition.
  std::string text(std::uint64_t p) const {
    std::string s;
    for (int r = 0; r < rows_; ++r) {
      if (r) s += '/';
      for (int c = 0; c < cols_; ++c) s += empty_at(p, r, c) ? '.' : '#';
    }
    return s;
  }

  /// The positions one domino leads to from p, found cell by cell.
  std::vector<std::uint64_t> options(std::uint64_t p) const { return domino_options(p, true, true); }
  /// Those of the horizontal dominoes only (Right's in Domineering).
  std::vector<std::uint64_t> horizontal_options(std::uint64_t p) const { return domino_options(p, true, false); }
  /// Those of the vertical dominoes only (Left's in Domineering).
  std::vector<std::uint64_t> vertical_options(std::uint64_t p) const { return domino_options(p, false, true); }

  /// Normal-play Grundy value.
  int normal(std::uint64_t p) {
    auto it = normal_memo_.find(p);
    if (it != normal_memo_.end()) return it->second;
    std::set<int> seen;
    for (std::uint64_t o : options(p)) seen.insert(normal(o));
    int v = reference_mex(seen);
    normal_memo_[p] = v;
    return v;
  }

  /// Misère Grundy value of p + a heaps of *2 + b heaps of *1 (a + b <= 7).
  int misere_sum(std::uint64_t p, int a, int b) {
    if (a < 0 || b < 0 || a + b > kHeaps) throw std::invalid_argument("reference: bad heap state");
    // References to unordered_map elements survive rehashing by the recursion.
    signed char& v = misere_memo_[p].v[static_cast<std::size_t>(a * (kHeaps + 1) + b)];
    if (v >= 0) return v;
    std::set<int> seen;
    bool any = false;
    for (std::uint64_t o : options(p)) {
      seen.insert(misere_sum(o, a, b));
      any = true;
    }
    if (a > 0) {
      seen.insert(misere_sum(p, a - 1, b + 1));  // a *2 becomes *1
      seen.insert(misere_sum(p, a - 1, b));      // a *2 is taken
      any = true;
    }
    if (b > 0) {
      seen.insert(misere_sum(p, a, b - 1));  // a *1 is taken
      any = true;
    }
    v = static_cast<signed char>(any ? reference_mex(seen) : 1);
    return v;
  }

  int misere(std::uint64_t p) { return misere_sum(p, 0, 0); }

  /// gamma_0..gamma_7: misère values of p + k heaps of *2.
  std::vector<int> genus_run(std::uint64_t p) {
    std::vector<int> run;
    for (int k = 0; k <= kHeaps; ++k) run.push_back(misere_sum(p, k, 0));
    return run;
  }

  /// Tame (Winning Ways ch. 13, as "Cram with the last move losing", "A symbol
  /// for each board", reads it): the run is firm
  /// n, n^2, n, n^2, ... with n = G(p), or fickle 1,2,0,2,0,... with G(p) = 0
  /// or 0,3,1,3,1,... with G(p) = 1, throughout gamma_0..gamma_7.
  bool tame(std::uint64_t p) {
    const int g = normal(p);
    const std::vector<int> run = genus_run(p);
    auto alternates_from = [&](std::size_t i) {
      for (std::size_t k = i; k + 2 < run.size(); ++k)
        if (run[k] != run[k + 2]) return false;
      return true;
    };
    if (run[0] == g && run[1] == (g ^ 2) && alternates_from(0)) return true;
    if (g == 0 && run[0] == 1 && run[1] == 2 && run[2] == 0 && alternates_from(1)) return true;
    if (g == 1 && run[0] == 0 && run[1] == 3 && run[2] == 1 && alternates_from(1)) return true;
    return false;
  }

  /// Every position reachable from the empty board by legal play, the empty
  /// board included (depth-first search).
  std::unordered_set<std::uint64_t> reachable() const {
    std::unordered_set<std::uint64_t> seen{full()};
    std::vector<std::uint64_t> stack{full()};
    while (!stack.empty()) {
      std::uint64_t p = stack.back();
      stack.pop_back();
      for (std::uint64_t o : options(p))
        if (seen.insert(o).second) stack.push_back(o);
    }
    return seen;
  }

 private:
  std::vector<std::uint64_t> domino_options(std::uint64_t p, bool horizontal, bool vertical) const {
    std::vector<std::uint64_t> out;
    for (int r = 0; r < rows_; ++r)
      for (int c = 0; c < cols_; ++c) {
        if (!empty_at(p, r, c)) continue;
        const std::uint64_t here = 1ull << (r * cols_ + c);
        if (horizontal && c + 1 < cols_ && empty_at(p, r, c + 1))
          out.push_back(p & ~here & ~(1ull << (r * cols_ + c + 1)));
        if (vertical && r + 1 < rows_ && empty_at(p, r + 1, c))
          out.push_back(p & ~here & ~(1ull << ((r + 1) * cols_ + c)));
      }
    return out;
  }

  struct misere_slot {
    misere_slot() { v.fill(-1); }  // -1: not computed yet
    std::array<signed char, (kHeaps + 1) * (kHeaps + 1)> v;
  };
  int rows_, cols_;
  std::unordered_map<std::uint64_t, int> normal_memo_;
  std::unordered_map<std::uint64_t, misere_slot> misere_memo_;
};

/// The symmetries of a rows x cols board as the reachable index uses them
/// (cgtb/reachable_index.hpp, board_symmetry), applied cell by cell. Group
/// "none" is the identity, "rectangle" the two mirrors and the half turn,
/// "square" those and the transpose (square boards only).
struct board_symmetry_reference {
  int rows, cols;
  std::string group;

  int size() const { return group == "none" ? 1 : group == "rectangle" ? 4 : 8; }
  /// Image of p under symmetry k < size(): bit 2 transpose, bit 0 mirror
  /// columns, bit 1 mirror rows.
  std::uint64_t image(std::uint64_t p, int k) const {
    std::uint64_t q = 0;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        if (!((p >> (r * cols + c)) & 1)) continue;
        int rr = r, cc = c;
        if (k & 4) std::swap(rr, cc);
        if (k & 1) cc = cols - 1 - cc;
        if (k & 2) rr = rows - 1 - rr;
        q |= 1ull << (rr * cols + cc);
      }
    return q;
  }
  /// The least mask among the images of p (the stored image).
  std::uint64_t least_image(std::uint64_t p) const {
    std::uint64_t best = p;
    for (int k = 1; k < size(); ++k) best = std::min(best, image(p, k));
    return best;
  }
  /// Number of distinct images of p.
  int orbit(std::uint64_t p) const {
    std::set<std::uint64_t> s;
    for (int k = 0; k < size(); ++k) s.insert(image(p, k));
    return static_cast<int>(s.size());
  }
};

/// Every subset of {0..cells-1} with k elements, for each k, in increasing
/// numeric order. Within one popcount, numeric order is colexicographic order,
/// which is the order of the combinatorial number system (Knuth, TAOCP 7.2.1.3): entry i
/// of level k is the position the engine must give rank i. Derived here by
/// counting, not by the engine's rank/unrank.
inline std::vector<std::vector<std::uint64_t>> subsets_by_size(int cells) {
  if (cells > 24) throw std::invalid_argument("subsets_by_size: too many cells to enumerate");
  std::vector<std::vector<std::uint64_t>> by(static_cast<std::size_t>(cells) + 1);
  for (std::uint64_t m = 0; m < (1ull << cells); ++m)
    by[static_cast<std::size_t>(__builtin_popcountll(m))].push_back(m);
  return by;
}

}  // namespace cgtb_test
