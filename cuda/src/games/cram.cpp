#include "cgtb/games/cram.hpp"

#include <cstdlib>

#include "cgtb/text.hpp"

namespace cgtb {

domino_board domino_board::make(int rows, int cols) {
  if (rows < 1 || cols < 1)
    throw input_error("board " + std::to_string(rows) + "x" + std::to_string(cols) + " has a side below 1");
  if (rows > kMaxCells || cols > kMaxCells || rows * cols > kMaxCells)
    throw input_error("board " + std::to_string(rows) + "x" + std::to_string(cols) + " has " +
                      std::to_string(static_cast<long>(rows) * cols) + " cells; at most 64 are supported");
  if (cols > 26)
    throw input_error("board " + std::to_string(rows) + "x" + std::to_string(cols) + " has " + std::to_string(cols) +
                      " columns; at most 26 can be named a..z (a Cram board can be given turned a quarter, as " +
                      std::to_string(cols) + "x" + std::to_string(rows) + ")");
  domino_board b{rows, cols, rows * cols, 0, 0};
  b.all = b.cells == 64 ? ~0ull : (1ull << b.cells) - 1;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c + 1 < cols; ++c) b.has_right |= 1ull << (r * cols + c);
  return b;
}

cram::cram(int rows, int cols) : domino_game(rows, cols) {}

cram cram::from_board_text(const std::string& rc) {
  const auto [rows, cols] = parse_dimensions(rc, "board", "4x5");
  return cram(rows, cols);
}

std::string cram::params() const { return std::to_string(board_.rows) + "x" + std::to_string(board_.cols); }

std::vector<int> cram::levels() const {
  std::vector<int> l;
  for (int k = board_.cells % 2; k <= board_.cells; k += 2) l.push_back(k);
  return l;
}

cram::position cram::parse(const std::string& text) const {
  position p = 0;
  int r = 0, c = 0;
  for (char ch : text) {
    if (ch == '/') {
      if (c == 0) throw input_error("position '" + text + "': row " + std::to_string(r + 1) + " is empty");
      if (c != board_.cols)
        throw input_error("position '" + text + "': row " + std::to_string(r + 1) + " has " + std::to_string(c) +
                          " cells, the board has " + std::to_string(board_.cols) + " columns");
      ++r;
      c = 0;
      continue;
    }
    if (ch != '.' && ch != '#')
      throw input_error("position '" + text + "': unexpected character '" + std::string(1, ch) +
                        "' (use '.' for empty, '#' for covered, '/' between rows)");
    if (r >= board_.rows || c >= board_.cols)
      throw input_error("position '" + text + "' does not fit the " + params() + " board");
    if (ch == '.') p |= 1ull << (r * board_.cols + c);
    ++c;
  }
  if (r > 0 && c == 0)
    throw input_error("position '" + text + "': row " + std::to_string(r + 1) + " is empty (the text ends with '/')");
  if (r + 1 != board_.rows || c != board_.cols)
    throw input_error("position '" + text + "' has " + count_text(static_cast<unsigned>(r + 1), "row") + " (last of " +
                      count_text(static_cast<unsigned>(c), "cell") + "); the " + params() + " board needs " +
                      count_text(static_cast<unsigned>(board_.rows), "row") + " of " + std::to_string(board_.cols));
  return p;
}

std::string cram::format(position p) const { return board_text(board_.rows, board_.cols, p); }

std::string cram::cell_name(int cell) const { return cgtb::cell_name(cell, board_.cols); }

std::string cram::move_name(const domino_move& m) const { return cell_name(m.first) + "-" + cell_name(m.second); }

std::vector<domino_move> cram::moves(position p) const {
  std::vector<domino_move> out;
  std::uint64_t h = board_.horizontal_pairs(p), v = board_.vertical_pairs(p);
  out.reserve(static_cast<std::size_t>(popcount64(h) + popcount64(v)));
  for (; h; h &= h - 1) {
    int x = ctz64(h);
    out.push_back({x, x + 1, p & ~(3ull << x)});
  }
  for (; v; v &= v - 1) {
    int x = ctz64(v);
    out.push_back({x, x + board_.cols, p & ~((1ull << x) | (1ull << (x + board_.cols)))});
  }
  return out;
}

}  // namespace cgtb
