// The Cram component table's host owner (cgtb/games/cram_components.hpp):
// Redelmeier's enumeration of the fixed polyominoes, kept where a fixed
// polyomino is the canonical image of its free one; the codes' inverse; text.
#include "cgtb/games/cram_components.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <parallel/algorithm>
#include <utility>

#include "cgtb/text.hpp"

namespace cgtb {

namespace {

/// One free polyomino as the enumeration finds it: its code and its box.
struct coded_polyomino {
  std::uint64_t code;
  polyomino box;
};

/// Redelmeier's enumeration ("Counting polyominoes: yet another attack",
/// Discrete Mathematics 36, 1981) of the fixed polyominoes of 1..K cells on
/// the half plane y > 0 or (y = 0, x >= 0): each is found once, as a set
/// that grows from the origin by cells of an untried set. A fixed polyomino
/// that is its canonical image is kept (one per free polyomino). The search
/// tree is cut at `split` cells; threads take its subtrees there in turn.
class redelmeier {
 public:
  explicit redelmeier(int max_cells) : k_(max_cells), w_(2 * max_cells + 1) {
    seen_.assign(static_cast<std::size_t>((k_ + 2) * w_), 0);
    // Cells outside the half plane count as seen: they are never tried.
    for (int x = -k_; x < 0; ++x) seen_[at(0, x)] = 1;
  }

  /// Runs the search on the calling thread; found[n] gets the kept
  /// polyominoes of n cells. The polyominoes of fewer than `split` cells
  /// are kept only with `keep_top`; the subtree of each polyomino of
  /// `split` cells is walked (and kept) when claim() says so (claim is
  /// called once per such subtree, in the same order on every thread).
  template <class Claim>
  void run(int split, std::vector<std::vector<coded_polyomino>>& found, bool keep_top, Claim&& claim) {
    found_ = &found;
    split_ = split;
    keep_top_ = keep_top;
    untried_[0][0] = at(0, 0);
    seen_[static_cast<std::size_t>(at(0, 0))] = 1;
    grow(0, 1, 0, 0, 0, claim);
  }

 private:
  int at(int y, int x) const { return y * w_ + x + k_; }

  /// Grows the polyomino of its n cells by each cell of untried_[n][0..size)
  /// in turn; a child's untried set is the cells after the one it took plus
  /// that cell's new neighbours.
  template <class Claim>
  void grow(int n, int size, int minx, int maxx, int maxy, Claim& claim) {
    for (int i = 0; i < size; ++i) {
      const int cell = untried_[n][i];
      const int y = cell / w_, x = cell % w_ - k_;
      cells_[n] = {y, x};
      const int m = n + 1;
      const int nminx = std::min(minx, x), nmaxx = std::max(maxx, x), nmaxy = std::max(maxy, y);
      if (m == split_ && !claim()) continue;
      if (m >= split_ || keep_top_) keep(m, nminx, nmaxx, nmaxy);
      if (m == k_) continue;
      int* next = untried_[m];
      int nsize = 0;
      for (int j = i + 1; j < size; ++j) next[nsize++] = untried_[n][j];
      const int nb[4] = {cell + w_, cell - w_, cell + 1, cell - 1};
      int added[4], na = 0;
      for (int c : nb)
        if (c >= 0 && !seen_[static_cast<std::size_t>(c)]) {
          seen_[static_cast<std::size_t>(c)] = 1;
          next[nsize++] = c;
          added[na++] = c;
        }
      grow(m, nsize, nminx, nmaxx, nmaxy, claim);
      for (int j = 0; j < na; ++j) seen_[static_cast<std::size_t>(added[j])] = 0;
    }
  }

  void keep(int m, int minx, int maxx, int maxy) {
    const int rows = maxy + 1, cols = maxx - minx + 1;
    if (rows > cols) return;  // a transposed image is less
    cells128 mask;
    for (int i = 0; i < m; ++i) mask.set(cells_[i].first * cols + cells_[i].second - minx);
    const region128 r{mask, rows, cols};
    if (!is_canonical_region128(r)) return;
    (*found_)[static_cast<std::size_t>(m)].push_back({polyomino_code(r), polyomino::of(r)});
  }

  int k_, w_, split_ = 0;
  bool keep_top_ = true;
  /// untried_[n]: the untried set of the polyominoes of n cells (at most
  /// 2 + 2n cells: each cell adds at most 3 new neighbours, less the one
  /// taken).
  int untried_[kPolyominoMaxCells + 1][4 * kPolyominoMaxCells + 4];
  std::vector<char> seen_;
  std::pair<int, int> cells_[kPolyominoMaxCells + 1];
  std::vector<std::vector<coded_polyomino>>* found_ = nullptr;
};

}  // namespace

cram_components::cram_components(int max_cells, int threads) : max_cells_(max_cells), threads_(threads) {
  if (max_cells < 1 || max_cells > kPolyominoMaxCells)
    throw input_error("--max-cells " + std::to_string(max_cells) + " is out of range (1.." +
                      std::to_string(kPolyominoMaxCells) + ")");
}

const cram_components::enumeration& cram_components::enumerated() const {
  if (enumerated_) return *enumerated_;
  auto e = std::make_shared<enumeration>();
  std::vector<std::uint64_t>& table = e->table;
  polyomino_census& census = e->census;
  const auto t0 = std::chrono::steady_clock::now();
  const int k = max_cells_, nthreads = threads_ > 0 ? threads_ : omp_get_max_threads();
  // The subtrees at `split` cells are the work items (2,725 fixed octominoes).
  const int split = std::min(k, 8);
  std::vector<std::vector<std::vector<coded_polyomino>>> found(
      static_cast<std::size_t>(nthreads), std::vector<std::vector<coded_polyomino>>(static_cast<std::size_t>(k) + 1));
  std::atomic<std::uint64_t> next_item{0};
#pragma omp parallel num_threads(nthreads)
  {
    const int t = omp_get_thread_num();
    std::uint64_t item = 0, mine = next_item.fetch_add(1);
    redelmeier search(k);
    search.run(split, found[static_cast<std::size_t>(t)], t == 0, [&]() {
      if (item++ != mine) return false;
      mine = next_item.fetch_add(1);
      return true;
    });
  }
  // The table: level starts, then the codes, then the boxes, each level's by
  // ascending code.
  census.free_by_cells.assign(static_cast<std::size_t>(k) + 1, 0);
  census.free_by_cells[0] = 1;
  std::uint64_t total = 1;
  for (int n = 1; n <= k; ++n) {
    for (const auto& f : found)
      census.free_by_cells[static_cast<std::size_t>(n)] += f[static_cast<std::size_t>(n)].size();
    total += census.free_by_cells[static_cast<std::size_t>(n)];
  }
  table.assign(3 + static_cast<std::size_t>(k) + 3 * total, 0);
  table[0] = static_cast<std::uint64_t>(k);
  std::uint64_t start = 0;
  for (int n = 0; n <= k + 1; ++n) {
    table[1 + static_cast<std::size_t>(n)] = start;
    if (n <= k) start += census.free_by_cells[static_cast<std::size_t>(n)];
  }
  std::uint64_t* codes = table.data() + 3 + k;
  std::uint64_t* boxes = codes + total;
  // Level 0: the empty region, code 0, an empty box (boxes[0..1] are 0).
  for (int n = 1; n <= k; ++n) {
    std::vector<coded_polyomino> level;
    for (auto& f : found) {
      auto& v = f[static_cast<std::size_t>(n)];
      level.insert(level.end(), v.begin(), v.end());
      std::vector<coded_polyomino>().swap(v);
    }
    __gnu_parallel::sort(level.begin(), level.end(),
                         [](const coded_polyomino& a, const coded_polyomino& b) { return a.code < b.code; });
    const std::uint64_t first = table[1 + static_cast<std::size_t>(n)];
    for (std::size_t i = 0; i < level.size(); ++i) {
      if (i > 0 && level[i].code == level[i - 1].code)
        throw std::logic_error("two free polyominoes of " + std::to_string(n) + " cells share the code " +
                               std::to_string(level[i].code));
      codes[first + i] = level[i].code;
      boxes[2 * (first + i)] = level[i].box.lo;
      boxes[2 * (first + i) + 1] = level[i].box.hi;
    }
  }
  census.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  enumerated_ = std::move(e);
  return *enumerated_;
}

cram_components cram_components::from_params(const std::string& params) {
  const std::string prefix = "max-cells=";
  if (params.compare(0, prefix.size(), prefix) != 0)
    throw input_error("cram-components parameters '" + params + "' are not of the form max-cells=K");
  return cram_components(
      static_cast<int>(parse_integer(params.substr(prefix.size()), "max-cells", 1, kPolyominoMaxCells)));
}

std::vector<int> cram_components::levels() const {
  std::vector<int> l;
  for (int n = 0; n <= max_cells_; ++n) l.push_back(n);
  return l;
}

void cram_components::file_keys(int level, std::uint64_t first, std::uint64_t count, std::uint64_t* out) const {
  const view_type v = host_view();
  std::copy(v.codes() + v.first(level) + first, v.codes() + v.first(level) + first + count, out);
}

region128 polyomino_of_code(int n, std::uint64_t code) {
  if (n < 0 || n > kPolyominoMaxCells)
    throw input_error("no polyomino of " + std::to_string(n) + " cells in a component table");
  if (n <= 1) {
    if (code != 0)
      throw input_error("key " + std::to_string(code) + " names no polyomino of " + std::to_string(n) + " cells");
    return n == 0 ? region128{} : region128{cells128{1, 0}, 1, 1};
  }
  // The walk of polyomino_code replayed on a frame wide enough for any
  // polyomino of n cells that starts at (0, n): rows 0..n, columns 0..2n.
  const int h = n + 2, w = 2 * n + 3, x0 = n + 1;
  enum : char { unknown, cell, empty };
  std::vector<char> state(static_cast<std::size_t>(h * w), unknown);
  std::vector<char> left(static_cast<std::size_t>(h * w), 0);
  for (int x = 0; x < x0; ++x) state[static_cast<std::size_t>(x)] = empty;  // left of the first cell
  state[static_cast<std::size_t>(x0)] = cell;
  int have = 1, bit = 63;
  auto bad = [&]() {
    return input_error("key " + std::to_string(code) + " names no polyomino of " + std::to_string(n) + " cells");
  };
  auto ask = [&](int y, int x) {
    if (y < 0) return;
    if (y >= h || x < 0 || x >= w) throw bad();
    char& s = state[static_cast<std::size_t>(y * w + x)];
    if (s != unknown) return;
    if (bit < 0) throw bad();
    const bool in = (code >> bit) & 1;
    --bit;
    s = in ? cell : empty;
    if (in) ++have;
  };
  while (have < n) {
    int i = -1;
    for (int j = 0; j < h * w; ++j)
      if (state[static_cast<std::size_t>(j)] == cell && !left[static_cast<std::size_t>(j)]) {
        i = j;
        break;
      }
    if (i < 0) throw bad();  // the walk ran out of cells
    left[static_cast<std::size_t>(i)] = 1;
    const int y = i / w, x = i % w;
    ask(y - 1, x);
    if (have < n) ask(y, x - 1);
    if (have < n) ask(y, x + 1);
    if (have < n) ask(y + 1, x);
  }
  if (bit >= 0 && (code & ((std::uint64_t{2} << bit) - 1)) != 0) throw bad();  // bits past the walk's end
  int r0 = h, r1 = -1, c0 = w, c1 = -1;
  for (int j = 0; j < h * w; ++j)
    if (state[static_cast<std::size_t>(j)] == cell) {
      r0 = std::min(r0, j / w);
      r1 = std::max(r1, j / w);
      c0 = std::min(c0, j % w);
      c1 = std::max(c1, j % w);
    }
  const int rows = r1 - r0 + 1, cols = c1 - c0 + 1;
  cells128 m;
  for (int j = 0; j < h * w; ++j)
    if (state[static_cast<std::size_t>(j)] == cell) m.set((j / w - r0) * cols + j % w - c0);
  return {m, rows, cols};
}

std::string region_text(const region128& p) {
  std::string s;
  for (int r = 0; r < p.rows; ++r) {
    if (r) s += '/';
    for (int c = 0; c < p.cols; ++c) s += p.cells.has(r * p.cols + c) ? '.' : '#';
  }
  return s;
}

region128 board_of_text(const std::string& text) {
  if (text.empty()) return {};  // the empty region
  const std::vector<std::string> rows = split_text(text, '/');
  const int nr = static_cast<int>(rows.size()), nc = static_cast<int>(rows[0].size());
  if (nc == 0) throw input_error("region '" + text + "' has an empty row");
  if (nr > 31 || nc > 31 || nr * nc > 128)
    throw input_error("region '" + text + "' is on a " + std::to_string(nr) + "x" + std::to_string(nc) +
                      " board; component tables read boards of at most 128 cells and sides up to 31");
  cells128 m;
  for (int r = 0; r < nr; ++r) {
    if (static_cast<int>(rows[static_cast<std::size_t>(r)].size()) != nc)
      throw input_error("region '" + text + "': row " + std::to_string(r + 1) + " has " +
                        std::to_string(rows[static_cast<std::size_t>(r)].size()) + " cells, row 1 has " +
                        std::to_string(nc));
    for (int c = 0; c < nc; ++c) {
      const char ch = rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
      if (ch == '.')
        m.set(r * nc + c);
      else if (ch != '#')
        throw input_error("region '" + text + "': '" + std::string(1, ch) +
                          "' is neither '.' (an empty cell) nor '#' (a covered one)");
    }
  }
  return {m, nr, nc};
}

std::vector<region128> region_parts_of_text(const std::string& text) {
  const region128 board = board_of_text(text);
  const box_edges e(board.rows, board.cols);
  std::vector<region128> parts;
  for_each_connected_part(board.cells, board.cols, e, [&](cells128 part) {
    parts.push_back(canonical_region128(crop(part, board.rows, board.cols)));
  });
  std::sort(parts.begin(), parts.end(), [](const region128& a, const region128& b) {
    return a.count() != b.count() ? a.count() > b.count() : a < b;
  });
  return parts;
}

}  // namespace cgtb
