#include "cgtb/reachable_index.hpp"

#include "cgtb/error.hpp"

namespace cgtb {

board_symmetry board_symmetry::make(int rows, int cols, const std::string& group) {
  board_symmetry s;
  // Cell maps as (row, col) -> (row', col').
  std::vector<int> kinds;  // bit 0: mirror columns, bit 1: mirror rows, bit 2: transpose first
  if (group == "none") {
    kinds = {0};
    s.name = "none";
  } else if (group == "rectangle") {
    kinds = {0, 1, 2, 3};
    s.name = "rectangle-4";
  } else if (group == "square") {
    if (rows != cols) throw input_error("the square's symmetries need a square board");
    kinds = {0, 1, 2, 3, 4, 5, 6, 7};
    s.name = "square-8";
  } else {
    throw input_error("unknown symmetry group '" + group + "'");
  }
  s.count = static_cast<int>(kinds.size());
  s.image_bit.assign(static_cast<std::size_t>(s.count) * 64, 0);
  for (int k = 0; k < s.count; ++k)
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        int rr = r, cc = c;
        if (kinds[k] & 4) std::swap(rr, cc);
        if (kinds[k] & 1) cc = cols - 1 - cc;
        if (kinds[k] & 2) rr = rows - 1 - rr;
        s.image_bit[static_cast<std::size_t>(k) * 64 + static_cast<std::size_t>(r * cols + c)] = 1ull
                                                                                                 << (rr * cols + cc);
      }
  return s;
}

}  // namespace cgtb
