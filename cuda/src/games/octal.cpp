#include "cgtb/games/octal.hpp"

#include <cctype>
#include <cstdlib>

namespace cgtb {

octal_code octal_code::parse(const std::string& text) {
  octal_code c{};
  auto dot = text.find('.');
  if (dot == std::string::npos || dot > 1 || text.size() < dot + 2)
    throw input_error("octal code '" + text + "' is not of the form D.DDD (e.g. 0.07, 4.7, 0.137)");
  std::string digits = (dot == 0 ? std::string("0") : text.substr(0, 1)) + text.substr(dot + 1);
  if (static_cast<int>(digits.size()) - 1 > kOctalMaxTake)
    throw input_error("octal code '" + text + "' has more than " + std::to_string(kOctalMaxTake) +
                      " digits after the point");
  c.max_take = 0;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    char ch = digits[i];
    if (!std::isdigit(static_cast<unsigned char>(ch)))
      throw input_error("octal code '" + text + "': '" + std::string(1, ch) + "' is not a digit");
    if (ch > '7')
      throw input_error("octal code '" + text + "': digit " + std::string(1, ch) +
                        " is above 7 (octal digits are 0-7)");
    c.digit[i] = static_cast<std::uint8_t>(ch - '0');
    if (c.digit[i]) c.max_take = static_cast<int>(i);
  }
  if (c.digit[0] != 0 && c.digit[0] != 4)
    throw input_error("octal code '" + text + "': the digit before the point must be 0 or 4 (taking no bean " +
                      "can only split a heap)");
  if (c.max_take == 0 && c.digit[0] == 0) throw input_error("octal code '" + text + "' allows no move");
  return c;
}

std::string octal_code::text() const {
  std::string s = std::to_string(digit[0]) + ".";
  for (int i = 1; i <= max_take; ++i) s += static_cast<char>('0' + digit[i]);
  if (max_take == 0) s += "0";
  return s;
}

octal_heap::octal_heap(const octal_code& code, long long max_heap) : code_(code) {
  if (max_heap < 0 || max_heap > 2147483646LL)
    throw input_error("--max-heap " + std::to_string(max_heap) + " is out of range (0 .. 2147483646)");
  max_heap_ = static_cast<int>(max_heap);
}

std::string octal_heap::params() const { return code_.text() + "-heap" + std::to_string(max_heap_); }

std::vector<int> octal_heap::levels() const {
  std::vector<int> l(static_cast<std::size_t>(max_heap_) + 1);
  for (int n = 0; n <= max_heap_; ++n) l[static_cast<std::size_t>(n)] = n;
  return l;
}

octal::octal(const octal_code& code, int max_total) : code_(code), max_total_(max_total) {
  if (max_total < 0 || max_total > kOctalMaxHeap)
    throw input_error("--max-total " + std::to_string(max_total) + " is out of range (0 .. " +
                      std::to_string(kOctalMaxHeap) + ")");
  split_ = code.digit[0] & 4;
  max_level_ = split_ ? (max_total > 0 ? 2 * max_total - 1 : 0) : max_total;
  const int H = max_total;
  count_.assign(static_cast<std::size_t>(max_level_ + 1) * static_cast<std::size_t>(H + 1), 0);
  auto at = [&](int L, int m) { return static_cast<std::size_t>(L) * static_cast<std::size_t>(H + 1) + m; };
  auto w = [&](int a) { return split_ ? 2 * a - 1 : a; };
  // C(L, m) = C(L, m-1) + C(L - w(m), m): no heap of m, or one heap of m off.
  for (int L = 0; L <= max_level_; ++L)
    for (int m = 0; m <= H; ++m) {
      std::uint64_t v = m == 0 ? (L == 0 ? 1 : 0) : count_[at(L, m - 1)] + (L >= w(m) ? count_[at(L - w(m), m)] : 0);
      count_[at(L, m)] = v;
    }
}

std::string octal::params() const { return code_.text() + "-total" + std::to_string(max_total_); }

std::vector<int> octal::levels() const {
  std::vector<int> l;
  for (int L = 0; L <= max_level_; ++L) l.push_back(L);
  return l;
}

octal::position octal::start() const {
  position p{};
  if (max_total_ > 0) p.cnt[max_total_] = 1;
  return p;
}

int octal::level_of(const position& p) const {
  int L = 0;
  for (int a = 1; a <= kOctalMaxHeap; ++a) L += p.cnt[a] * (split_ ? 2 * a - 1 : a);
  return L;
}

std::vector<int> parse_heap_list(const std::string& text, long long max_heap) {
  std::vector<int> heaps;
  std::size_t i = 0;
  // Heaps are separated by spaces, with at most one ',' or '+' between two
  // heaps; an empty list, '3,,5', '3+' or ',3' is refused, not read as heaps.
  bool heap_seen = false;  // a heap since the last ',' or '+'
  char last_separator = 0;
  if (text.find_first_not_of(" \t") == std::string::npos)
    throw input_error("heap list '" + text + "' is empty (write 0 for the position without heaps)");
  while (i < text.size()) {
    char ch = text[i];
    if (ch == ' ' || ch == '\t') {
      ++i;
      continue;
    }
    if (ch == ',' || ch == '+') {
      if (!heap_seen)
        throw input_error("heap list '" + text + "': '" + std::string(1, ch) + "' without a heap before it");
      heap_seen = false;
      last_separator = ch;
      ++i;
      continue;
    }
    if (ch == '-' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1])))
      throw input_error("heap list '" + text + "': heap sizes are 0 or more, not negative");
    std::size_t j = i;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    if (j == i || j - i > 10)
      throw input_error("heap list '" + text + "': expected heap sizes separated by spaces (e.g. '3 5 9'), got '" +
                        text.substr(i) + "'");
    long long v = std::atoll(text.substr(i, j - i).c_str());
    if (v > max_heap)
      throw input_error("heap list '" + text + "': heap " + std::to_string(v) + " is above the table's largest heap " +
                        std::to_string(max_heap));
    if (v > 0) heaps.push_back(static_cast<int>(v));
    heap_seen = true;
    i = j;
  }
  if (!heap_seen)
    throw input_error("heap list '" + text + "': '" + std::string(1, last_separator) + "' without a heap after it");
  return heaps;
}

octal::position octal::parse(const std::string& text) const {
  position p{};
  int total = 0, weight = 0;
  for (int h : parse_heap_list(text, max_total_)) {
    if (p.cnt[h] == 255) throw input_error("position '" + text + "' has too many heaps");
    ++p.cnt[h];
    total += h;
    weight += split_ ? 2 * h - 1 : h;
  }
  if (weight > max_level_)
    throw input_error("position '" + text + "' has " + std::to_string(total) + " beans; the table holds totals up to " +
                      std::to_string(max_total_));
  return p;
}

std::string octal::format(const position& p) const {
  std::string s;
  for (int a = kOctalMaxHeap; a >= 1; --a)
    for (int k = 0; k < p.cnt[a]; ++k) s += (s.empty() ? "" : " ") + std::to_string(a);
  return s.empty() ? "0" : s;
}

std::string octal::move_name(const octal_move& m) const {
  std::string s = std::to_string(m.heap) + "->";
  if (!m.c) return s + "0";
  if (!m.b) return s + std::to_string(m.c);
  return s + std::to_string(m.b) + "+" + std::to_string(m.c);
}

std::vector<octal_move> octal::moves(const position& p) const {
  std::vector<octal_move> out;
  for (int a = 1; a <= max_total_; ++a) {
    if (!p.cnt[a]) continue;
    code_.for_each_result(a, [&](int b, int c) {
      position q = p;
      --q.cnt[a];
      if (b) ++q.cnt[b];
      if (c) ++q.cnt[c];
      out.push_back({a, b, c, q});
    });
  }
  return out;
}

}  // namespace cgtb
