// Polyominoes of up to 20 cells in 128 bits: the regions of the Cram
// component table (cgtb/games/cram_components.hpp). One source for both
// backends: the option walk of a component cuts, crops, turns and codes its
// parts in registers (no per-thread arrays).
//
// A polyomino is kept in its bounding box, rows x cols, cell (r, c) at bit
// r*cols + c of a 128-bit mask. Its box key orders (rows, cols, mask): the
// canonical image of a free polyomino is the least of its 8 images under the
// rotations and reflections of the square (the order cram_region_key uses
// on regions of at most 48 cells). Its code is a 64-bit word that names a
// fixed polyomino of n cells once n is known (polyomino_code): the key the
// component table stores (docs/format.md, "Cram component tables").
#pragma once

#include <cstdint>

#include "cgtb/hd.hpp"

namespace cgtb {

/// Most cells of a polyomino of the component table: its box has at most
/// 10 x 11 = 110 cells (rows + cols <= cells + 1), and its code at most
/// 3 * 20 + 1 = 61 bits (polyomino_code).
inline constexpr int kPolyominoMaxCells = 20;

/// A set of cells in 128 bits (bit i of lo for i < 64, of hi for i >= 64).
struct cells128 {
  std::uint64_t lo = 0, hi = 0;

  CGTB_HD bool any() const { return (lo | hi) != 0; }
  CGTB_HD int count() const { return popcount64(lo) + popcount64(hi); }
  CGTB_HD bool has(int i) const { return i < 64 ? (lo >> i) & 1 : (hi >> (i - 64)) & 1; }
  CGTB_HD void set(int i) {
    if (i < 64)
      lo |= std::uint64_t{1} << i;
    else
      hi |= std::uint64_t{1} << (i - 64);
  }
  /// Index of the lowest cell; the set is not empty.
  CGTB_HD int lowest() const { return lo ? ctz64(lo) : 64 + ctz64(hi); }
  /// The lowest cell alone.
  CGTB_HD cells128 lowest_cell() const {
    cells128 o;
    if (lo)
      o.lo = lo & (~lo + 1);
    else
      o.hi = hi & (~hi + 1);
    return o;
  }
  CGTB_HD cells128 operator|(cells128 o) const { return {lo | o.lo, hi | o.hi}; }
  CGTB_HD cells128 operator&(cells128 o) const { return {lo & o.lo, hi & o.hi}; }
  CGTB_HD cells128 without(cells128 o) const { return {lo & ~o.lo, hi & ~o.hi}; }
  CGTB_HD bool operator==(cells128 o) const { return lo == o.lo && hi == o.hi; }
  CGTB_HD bool operator!=(cells128 o) const { return !(*this == o); }
  /// Shifted k = 0..63 places up (towards higher indices).
  CGTB_HD cells128 up(int k) const {
    if (k == 0) return *this;
    return {lo << k, (hi << k) | (lo >> (64 - k))};
  }
  /// Shifted k = 0..127 places up.
  CGTB_HD cells128 shifted_up(int k) const {
    if (k == 0) return *this;
    if (k >= 64) return {0, lo << (k - 64)};
    return up(k);
  }
  /// Shifted k = 0..63 places down.
  CGTB_HD cells128 down(int k) const {
    if (k == 0) return *this;
    return {(lo >> k) | (hi << (64 - k)), hi >> k};
  }
  /// The bits r*cols .. r*cols + cols - 1 (one row), as the low bits of a word.
  CGTB_HD std::uint32_t row(int r, int cols) const {
    const int s = r * cols;
    const std::uint64_t w = s >= 64 ? hi >> (s - 64) : (lo >> s) | (s ? hi << (64 - s) : 0);
    return static_cast<std::uint32_t>(w & ((std::uint64_t{1} << cols) - 1));
  }
};

/// Largest side of a region128's box (5 bits).
inline constexpr int kRegion128MaxSide = 31;

/// A set of cells in a box of rows x cols <= 128 cells (sides up to 31),
/// cell (r, c) at bit r*cols + c: the Cram regions of the component table
/// and of `cgtb search`. Ordered by the box key (rows, cols, mask as a
/// 128-bit number), the order of cram_region_key on smaller regions.
struct region128 {
  cells128 cells;
  int rows = 0, cols = 0;

  CGTB_HD int count() const { return cells.count(); }
  CGTB_HD bool operator==(const region128& o) const { return rows == o.rows && cols == o.cols && cells == o.cells; }
  CGTB_HD bool operator!=(const region128& o) const { return !(*this == o); }
  CGTB_HD bool operator<(const region128& o) const {
    if (rows != o.rows) return rows < o.rows;
    if (cols != o.cols) return cols < o.cols;
    return cells.hi != o.cells.hi ? cells.hi < o.cells.hi : cells.lo < o.cells.lo;
  }
};

/// A region of at most 118 box cells packed in 16 bytes, as the component
/// table stores it: rows and cols in bits 59..63 and 54..58 of hi, mask bits
/// 64..117 in hi's bits 0..53, bits 0..63 in lo. Comparing (hi, lo) as a
/// 128-bit number is region128's order. Trivially copyable.
struct polyomino {
  std::uint64_t lo = 0, hi = 0;

  static constexpr int kMaskHighBits = 54;
  static constexpr std::uint64_t kMaskHigh = (std::uint64_t{1} << kMaskHighBits) - 1;

  /// r's box has at most 64 + kMaskHighBits cells.
  CGTB_HD static polyomino of(const region128& r) {
    polyomino p;
    p.lo = r.cells.lo;
    p.hi = (r.cells.hi & kMaskHigh) | (static_cast<std::uint64_t>(r.rows) << 59) |
           (static_cast<std::uint64_t>(r.cols) << 54);
    return p;
  }
  CGTB_HD static polyomino of(int rows, int cols, cells128 m) { return of(region128{m, rows, cols}); }
  CGTB_HD int rows() const { return static_cast<int>(hi >> 59); }
  CGTB_HD int cols() const { return static_cast<int>((hi >> 54) & 31); }
  CGTB_HD cells128 cells() const { return {lo, hi & kMaskHigh}; }
  CGTB_HD region128 region() const { return {cells(), rows(), cols()}; }
  CGTB_HD int count() const { return cells().count(); }
  CGTB_HD bool operator==(const polyomino& o) const { return lo == o.lo && hi == o.hi; }
  CGTB_HD bool operator!=(const polyomino& o) const { return !(*this == o); }
  CGTB_HD bool operator<(const polyomino& o) const { return hi != o.hi ? hi < o.hi : lo < o.lo; }
};

/// The cells of a rows x cols box (all), and those with a neighbour in the
/// box to their right (has_right) and to their left (has_left): the masks a
/// flood fill and the domino walk shift with.
struct box_edges {
  cells128 all, has_right, has_left;
  CGTB_HD box_edges(int rows, int cols) {
    const std::uint64_t row = (std::uint64_t{1} << cols) - 1, right = row >> 1, left = row & ~std::uint64_t{1};
    for (int r = 0; r < rows; ++r) {
      const int s = r * cols;
      all = all | cells128{row, 0}.shifted_up(s);
      has_right = has_right | cells128{right, 0}.shifted_up(s);
      has_left = has_left | cells128{left, 0}.shifted_up(s);
    }
  }
};

/// The cells of `within` joined to `seed` by paths of common sides, on a box
/// `cols` wide with edges `e`.
CGTB_HD inline cells128 flood_fill(cells128 seed, cells128 within, int cols, const box_edges& e) {
  cells128 part = seed, grown;
  do {
    grown = part;
    part = part | (part & e.has_right).up(1) | (part & e.has_left).down(1) | part.up(cols) | part.down(cols);
    part = part & within;
  } while (part != grown);
  return part;
}

/// Calls f(part) for each connected part (cells joined by common sides) of
/// the cells m of a box `cols` wide with edges e, the part holding m's lowest
/// cell first.
template <class F>
CGTB_HD void for_each_connected_part(cells128 m, int cols, const box_edges& e, F&& f) {
  for (cells128 rest = m; rest.any();) {
    const cells128 part = flood_fill(rest.lowest_cell(), rest, cols, e);
    rest = rest.without(part);
    f(part);
  }
}

/// Calls f(i, j) for every domino of the cells m of a box `cols` wide with
/// edges e: cells i < j side by side, horizontal dominoes first, each set by
/// increasing i.
template <class F>
CGTB_HD void for_each_domino(cells128 m, int cols, const box_edges& e, F&& f) {
  for (cells128 h = m & e.has_right & m.down(1); h.any(); h = h.without(h.lowest_cell())) {
    const int i = h.lowest();
    f(i, i + 1);
  }
  for (cells128 v = m & m.down(cols); v.any(); v = v.without(v.lowest_cell())) {
    const int i = v.lowest();
    f(i, i + cols);
  }
}

/// The cells `m` of a rows x cols box cropped to their own bounding box
/// (rows = cols = 0 for no cell).
CGTB_HD inline region128 crop(cells128 m, int rows, int cols) {
  int r0 = rows, r1 = -1;
  std::uint32_t colmask = 0;
  for (int r = 0; r < rows; ++r) {
    const std::uint32_t w = m.row(r, cols);
    if (!w) continue;
    if (r0 > r) r0 = r;
    r1 = r;
    colmask |= w;
  }
  if (r1 < 0) return {};
  const int c0 = ctz64(colmask), c1 = highest_bit64(colmask);
  const int nc = c1 - c0 + 1;
  cells128 out;
  for (int r = r0; r <= r1; ++r) {
    const std::uint64_t w = static_cast<std::uint64_t>(m.row(r, cols) >> c0);
    const int s = (r - r0) * nc;
    if (s < 64) {
      out.lo |= w << s;
      if (s + nc > 64) out.hi |= w >> (64 - s);
    } else {
      out.hi |= w << (s - 64);
    }
  }
  return {out, r1 - r0 + 1, nc};
}

/// Image t (0..7) of a region: bit 1 of t reflects left-right, bit 2
/// top-bottom, bit 4 transposes after the reflections.
CGTB_HD inline region128 region_image(const region128& p, int t) {
  const int rows = p.rows, cols = p.cols;
  const bool tr = t & 4;
  const int orows = tr ? cols : rows, ocols = tr ? rows : cols;
  cells128 out;
  for (int r = 0; r < rows; ++r)
    for (std::uint32_t w = p.cells.row(r, cols); w; w &= w - 1) {
      int c = ctz64(w), rr = r;
      if (t & 1) c = cols - 1 - c;
      if (t & 2) rr = rows - 1 - rr;
      out.set(tr ? c * ocols + rr : rr * ocols + c);
    }
  return {out, orows, ocols};
}

/// The canonical image of a region: the least of its 8 images in the box key
/// order. Images of a box with more rows than columns are never least (a
/// transposed image has fewer rows), so only the 4 (or, on a square box, 8)
/// images with rows <= cols are made.
CGTB_HD inline region128 canonical_region128(const region128& p) {
  const int first = p.rows > p.cols ? 4 : 0, last = p.rows == p.cols ? 8 : first + 4;
  region128 best = region_image(p, first);
  for (int t = first + 1; t < last; ++t) {
    const region128 im = region_image(p, t);
    if (im < best) best = im;
  }
  return best;
}

/// True when p is its own canonical image.
CGTB_HD inline bool is_canonical_region128(const region128& p) {
  if (p.rows > p.cols) return false;
  const int last = p.rows == p.cols ? 8 : 4;
  for (int t = 1; t < last; ++t)
    if (region_image(p, t) < p) return false;
  return true;
}

/// The code of a fixed polyomino p of n = 1..21 cells: a walk from its first
/// cell in row-major order that always goes on from the least cell found and
/// not yet left, and asks of each of its neighbours (up, left, right, down)
/// not yet known whether it is a cell; the answers, first at bit 63, are the
/// code. Cells above the first row, and left of the first cell in its row,
/// are known to be empty; the walk stops when it has found n cells. Each
/// answer finds a cell (n - 1 of them) or an empty neighbour of the
/// polyomino (at most 2n + 2), so a code has at most 3n + 1 bits: 61 for 20
/// cells. Given n, the code determines the fixed polyomino (the walk can be
/// replayed from the answers: polyomino_of_code), so the code of the
/// canonical image names a free polyomino.
CGTB_HD inline std::uint64_t polyomino_code(const region128& p) {
  const int rows = p.rows, cols = p.cols;
  const cells128 m = p.cells;
  const int n = m.count();
  if (n <= 1) return 0;
  const int c0 = m.lowest();  // in row 0
  cells128 found = m.lowest_cell(), left, empty;
  std::uint32_t margin_left = 0, margin_right = 0, margin_below = 0;
  std::uint64_t code = 0;
  int bit = 63, have = 1;
  // Asks of frame cell (r, c), -1 <= r <= rows, -1 <= c <= cols.
  auto ask = [&](int r, int c) {
    if (r < 0 || (r == 0 && c < c0)) return;
    bool in = false;
    if (c < 0) {
      if (margin_left >> r & 1) return;
      margin_left |= 1u << r;
    } else if (c >= cols) {
      if (margin_right >> r & 1) return;
      margin_right |= 1u << r;
    } else if (r >= rows) {
      if (margin_below >> c & 1) return;
      margin_below |= 1u << c;
    } else {
      const int i = r * cols + c;
      if (found.has(i) || empty.has(i)) return;
      in = m.has(i);
      if (in) {
        found.set(i);
        ++have;
      } else {
        empty.set(i);
      }
    }
    if (in) code |= std::uint64_t{1} << bit;
    --bit;
  };
  while (have < n) {
    const int i = found.without(left).lowest();
    left.set(i);
    const int r = i / cols, c = i - r * cols;
    ask(r - 1, c);
    if (have < n) ask(r, c - 1);
    if (have < n) ask(r, c + 1);
    if (have < n) ask(r + 1, c);
  }
  return code;
}

}  // namespace cgtb
