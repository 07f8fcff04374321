#include "cgtb/games/domineering.hpp"

namespace cgtb {

domineering::domineering(int rows, int cols) : domino_game(rows, cols), text_(rows, cols) {}

domineering domineering::from_board_text(const std::string& rc) {
  cram c = cram::from_board_text(rc);
  return domineering(c.rows(), c.cols());
}

std::vector<int> domineering::levels() const {
  std::vector<int> l;
  for (int k = 0; k <= board_.cells; ++k) l.push_back(k);
  return l;
}

std::vector<domineering::move> domineering::left_moves(position p) const {
  std::vector<move> out;
  for (std::uint64_t v = board_.vertical_pairs(p); v; v &= v - 1) {
    int x = ctz64(v);
    out.push_back({x, x + board_.cols, p & ~((1ull << x) | (1ull << (x + board_.cols)))});
  }
  return out;
}

std::vector<domineering::move> domineering::right_moves(position p) const {
  std::vector<move> out;
  for (std::uint64_t h = board_.horizontal_pairs(p); h; h &= h - 1) {
    int x = ctz64(h);
    out.push_back({x, x + 1, p & ~(3ull << x)});
  }
  return out;
}

}  // namespace cgtb
