#include "cgtb/games/rit.hpp"

#include <cctype>
#include <cstdlib>

#include "cgtb/text.hpp"

namespace cgtb {

rit::rit(int rows, int cols) : rows_(rows), cols_(cols) {
  if (rows < 1 || cols < 1)
    throw input_error("box " + std::to_string(rows) + "x" + std::to_string(cols) + " has a side below 1");
  if (rows > kRitMaxRows || cols > kRitMaxCols)
    throw input_error("box " + std::to_string(rows) + "x" + std::to_string(cols) + " is too large: at most " +
                      std::to_string(kRitMaxRows) + " rows and " + std::to_string(kRitMaxCols) + " columns");
  const int n_max = rows * cols;
  auto at = [&](int n, int k, int m) {
    return (static_cast<std::size_t>(k) * static_cast<std::size_t>(cols + 1) + static_cast<std::size_t>(m)) *
               static_cast<std::size_t>(n_max + 1) +
           static_cast<std::size_t>(n);
  };
  count_.assign(at(0, rows + 1, 0), 0);
  // N(n, k, m) = N(n, k, m-1) + N(n-m, k-1, m): the first part is below m, or
  // equals m and the rest fits k-1 rows of width m.
  for (int n = 0; n <= n_max; ++n)
    for (int k = 0; k <= rows; ++k)
      for (int m = 0; m <= cols; ++m) {
        std::uint64_t v;
        if (k == 0 || m == 0)
          v = n == 0 ? 1 : 0;
        else
          v = count_[at(n, k, m - 1)] + (n >= m ? count_[at(n - m, k - 1, m)] : 0);
        count_[at(n, k, m)] = v;
      }
}

rit rit::from_box_text(const std::string& rc) {
  const auto [rows, cols] = parse_dimensions(rc, "box", "14x14");
  return rit(rows, cols);
}

std::string rit::params() const { return std::to_string(rows_) + "x" + std::to_string(cols_); }

std::vector<int> rit::levels() const {
  std::vector<int> l;
  for (int n = 0; n <= rows_ * cols_; ++n) l.push_back(n);
  return l;
}

rit::position rit::start() const {
  position p = 0;
  for (int i = 1; i <= rows_; ++i) p = rit_view::with_part(p, i, cols_);
  return p;
}

int rit::level_of(position p) const {
  int n = 0;
  for (int i = 1; i <= rows_; ++i) n += rit_view::part(p, i);
  return n;
}

rit::position rit::parse(const std::string& text) const {
  auto bad = [&](const std::string& why) { return input_error("partition '" + text + "': " + why); };
  std::size_t a = text.find_first_not_of(" \t"), b = text.find_last_not_of(" \t");
  if (a == std::string::npos || text[a] != '[' || text[b] != ']')
    throw bad("expected a list of parts in brackets, e.g. [5,4,2,1]");
  std::string body = text.substr(a + 1, b - a - 1);
  std::vector<int> parts;
  std::size_t i = 0;
  while (i < body.size()) {
    while (i < body.size() && body[i] == ' ') ++i;
    if (i == body.size()) break;
    std::size_t j = i;
    while (j < body.size() && std::isdigit(static_cast<unsigned char>(body[j]))) ++j;
    if (j == i || j - i > 4) throw bad("expected a positive integer at '" + body.substr(i) + "'");
    parts.push_back(std::atoi(body.substr(i, j - i).c_str()));
    while (j < body.size() && body[j] == ' ') ++j;
    if (j < body.size() && body[j] != ',') throw bad("unexpected character '" + std::string(1, body[j]) + "'");
    i = j + 1;
    if (j < body.size() && i >= body.size()) throw bad("trailing comma");
  }
  if (static_cast<int>(parts.size()) > rows_)
    throw bad("has " + std::to_string(parts.size()) + " parts; the " + params() + " box has " + std::to_string(rows_) +
              " rows");
  position p = 0;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (parts[k] == 0) throw bad("part " + std::to_string(k + 1) + " is 0; parts must be positive");
    if (parts[k] > cols_)
      throw bad("part " + std::to_string(k + 1) + " is " + std::to_string(parts[k]) + ", wider than the " + params() +
                " box (" + std::to_string(cols_) + " columns)");
    if (k > 0 && parts[k] > parts[k - 1])
      throw bad("parts are not non-increasing (" + std::to_string(parts[k - 1]) + " then " + std::to_string(parts[k]) +
                ")");
    p = rit_view::with_part(p, static_cast<int>(k) + 1, parts[k]);
  }
  return p;
}

std::string rit::format(position p) const {
  std::string s = "[";
  for (int i = 1; i <= rows_ && rit_view::part(p, i); ++i)
    s += (i > 1 ? "," : "") + std::to_string(rit_view::part(p, i));
  return s + "]";
}

std::string rit::move_name(const rit_move& m) const {
  return "r" + std::to_string(m.row) + "-" + std::to_string(m.boxes);
}

std::vector<rit_move> rit::moves(position p) const {
  std::vector<rit_move> out;
  for (int i = 1; i <= rows_; ++i) {
    const int v = rit_view::part(p, i), low = i < rows_ ? rit_view::part(p, i + 1) : 0;
    for (int t = v - 1; t >= low; --t) out.push_back({i, v - t, rit_view::with_part(p, i, t)});
  }
  return out;
}

std::vector<int> rit_remnant(const std::vector<int>& parts) {
  std::vector<int> r;
  for (std::size_t i = 0; i < parts.size(); i += 2) r.push_back(parts[i] - (i + 1 < parts.size() ? parts[i + 1] : 0));
  return r;
}

std::vector<int> rit_core(const std::vector<int>& parts) {
  std::vector<int> c;
  for (std::size_t i = 1; i < parts.size(); i += 2)
    if (parts[i] > 0) c.insert(c.end(), 2, parts[i]);
  return c;
}

}  // namespace cgtb
