// Cram regions (cgtb/cram_region.hpp).
#include "cgtb/cram_region.hpp"

#include <algorithm>
#include <set>

#include "cgtb/error.hpp"
#include "cgtb/hd.hpp"
#include "cgtb/text.hpp"

namespace cgtb {

namespace {

/// The region of the cells of `mask` on a rows x cols board, cropped.
cram_region crop(int rows, int cols, std::uint64_t mask) {
  int r0 = rows, r1 = -1, c0 = cols, c1 = -1;
  for (std::uint64_t m = mask; m; m &= m - 1) {
    const int i = __builtin_ctzll(m), r = i / cols, c = i % cols;
    r0 = std::min(r0, r);
    r1 = std::max(r1, r);
    c0 = std::min(c0, c);
    c1 = std::max(c1, c);
  }
  cram_region out;
  if (r1 < 0) return out;
  out.rows = r1 - r0 + 1;
  out.cols = c1 - c0 + 1;
  for (std::uint64_t m = mask; m; m &= m - 1) {
    const int i = __builtin_ctzll(m), r = i / cols - r0, c = i % cols - c0;
    out.mask |= std::uint64_t{1} << (r * out.cols + c);
  }
  return out;
}

/// Image t (0..7) of a region: bit 1 of t reflects left-right, bit 2
/// top-bottom, bit 4 transposes (after the reflections).
cram_region image(const cram_region& a, int t) {
  cram_region out;
  const bool tr = t & 4;
  out.rows = tr ? a.cols : a.rows;
  out.cols = tr ? a.rows : a.cols;
  for (std::uint64_t m = a.mask; m; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    int r = i / a.cols, c = i % a.cols;
    if (t & 1) c = a.cols - 1 - c;
    if (t & 2) r = a.rows - 1 - r;
    if (tr) std::swap(r, c);
    out.mask |= std::uint64_t{1} << (r * out.cols + c);
  }
  return out;
}

}  // namespace

int cram_region::cells() const { return popcount64(mask); }

std::string cram_region::text() const { return board_text(rows, cols, mask); }

std::uint64_t cram_region_key(const cram_region& r) {
  if (r.rows > kRegionMaxSide || r.cols > kRegionMaxSide || r.rows * r.cols > kRegionMaxArea)
    throw input_error("a Cram region of " + std::to_string(r.rows) + "x" + std::to_string(r.cols) +
                      " cells is past the region index (sides up to " + std::to_string(kRegionMaxSide) +
                      ", bounding box up to " + std::to_string(kRegionMaxArea) + " cells)");
  return (static_cast<std::uint64_t>(r.rows) << 52) | (static_cast<std::uint64_t>(r.cols) << 48) | r.mask;
}

cram_region cram_region_of_key(std::uint64_t key) {
  cram_region r;
  r.rows = static_cast<int>(key >> 52);
  r.cols = static_cast<int>((key >> 48) & 0xf);
  r.mask = key & ((std::uint64_t{1} << 48) - 1);
  return r;
}

cram_region canonical_region(const cram_region& r) {
  cram_region best = r;
  std::uint64_t best_key = ~std::uint64_t{0};
  for (int t = 0; t < 8; ++t) {
    const cram_region im = image(r, t);
    if (im.rows > kRegionMaxSide || im.cols > kRegionMaxSide || im.rows * im.cols > kRegionMaxArea) continue;
    const std::uint64_t k = cram_region_key(im);
    if (k < best_key) {
      best_key = k;
      best = im;
    }
  }
  if (best_key == ~std::uint64_t{0}) cram_region_key(r);  // throws: no image fits
  return best;
}

std::vector<cram_region> region_parts(int rows, int cols, std::uint64_t mask) {
  if (rows < 1 || cols < 1 || rows * cols > 64) throw input_error("a Cram board has 1 to 64 cells");
  const int cells = rows * cols;
  const std::uint64_t all = cells == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << cells) - 1;
  std::uint64_t last_col = 0;
  for (int r = 0; r < rows; ++r) last_col |= std::uint64_t{1} << (r * cols + cols - 1);
  const std::uint64_t has_right = all & ~last_col, has_left = (has_right << 1) & all;
  std::vector<cram_region> out;
  mask &= all;
  while (mask) {
    std::uint64_t part = mask & (~mask + 1), grown = 0;
    while (grown != part) {  // flood fill across common sides
      grown = part;
      part |= ((part & has_right) << 1) | ((part & has_left) >> 1) | ((part << cols) & all) | (part >> cols);
      part &= mask;
    }
    mask &= ~part;
    out.push_back(canonical_region(crop(rows, cols, part)));
  }
  std::sort(out.begin(), out.end(),
            [](const cram_region& a, const cram_region& b) { return cram_region_key(a) < cram_region_key(b); });
  return out;
}

std::vector<cram_region> free_polyominoes(int max_cells) {
  if (max_cells < 0 || max_cells > 12) throw input_error("polyominoes of 0 to 12 cells only");
  std::vector<cram_region> out;
  std::set<std::uint64_t> level;
  if (max_cells >= 1) level.insert(cram_region_key({1, 1, 1}));
  for (int n = 1; n <= max_cells; ++n) {
    std::set<std::uint64_t> next;
    for (std::uint64_t k : level) {
      const cram_region r = cram_region_of_key(k);
      out.push_back(r);
      if (n == max_cells) continue;
      // Every way to add one cell beside it: on a board one cell wider on each side.
      const int rows = r.rows + 2, cols = r.cols + 2;
      std::uint64_t m = 0;
      for (std::uint64_t b = r.mask; b; b &= b - 1) {
        const int i = __builtin_ctzll(b);
        m |= std::uint64_t{1} << ((i / r.cols + 1) * cols + i % r.cols + 1);
      }
      for (int i = 0; i < rows * cols; ++i) {
        const std::uint64_t bit = std::uint64_t{1} << i;
        if (m & bit) continue;
        const int rr = i / cols, cc = i % cols;
        const bool beside = (cc + 1 < cols && (m >> (i + 1)) & 1) || (cc > 0 && (m >> (i - 1)) & 1) ||
                            (rr + 1 < rows && (m >> (i + cols)) & 1) || (rr > 0 && (m >> (i - cols)) & 1);
        if (beside) next.insert(cram_region_key(canonical_region(crop(rows, cols, m | bit))));
      }
    }
    level.swap(next);
  }
  return out;
}

}  // namespace cgtb
