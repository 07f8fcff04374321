// Cram regions (cgtb/cram_region.hpp).
#include "cgtb/cram_region.hpp"

#include <algorithm>
#include <set>

#include "cgtb/error.hpp"
#include "cgtb/hd.hpp"
#include "cgtb/polyomino.hpp"
#include "cgtb/text.hpp"

namespace cgtb {

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
  cram_region_key(r);  // throws where the box is past the key; its images' boxes are the same or transposed
  const region128 c = canonical_region128({cells128{r.mask, 0}, r.rows, r.cols});
  return {c.rows, c.cols, c.cells.lo};
}

std::vector<cram_region> region_parts(int rows, int cols, std::uint64_t mask) {
  if (rows < 1 || cols < 1 || rows * cols > 64) throw input_error("a Cram board has 1 to 64 cells");
  const box_edges e(rows, cols);
  std::vector<cram_region> out;
  for_each_connected_part(cells128{mask, 0} & e.all, cols, e, [&](cells128 part) {
    const region128 c = crop(part, rows, cols);
    out.push_back(canonical_region({c.rows, c.cols, c.cells.lo}));
  });
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
        if (!beside) continue;
        const region128 c = crop(cells128{m | bit, 0}, rows, cols);
        next.insert(cram_region_key(canonical_region({c.rows, c.cols, c.cells.lo})));
      }
    }
    level.swap(next);
  }
  return out;
}

}  // namespace cgtb
