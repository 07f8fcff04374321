#include "cgtb/games/take_break.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "cgtb/text.hpp"

namespace cgtb {

namespace {

/// Points per take size 1..n: "1234" (one digit each) or "1,-2,10".
std::vector<std::int32_t> parse_points(const std::string& text, int n) {
  std::vector<std::int32_t> p;
  if (text.find_first_of(",-+") != std::string::npos) {
    for (const auto& item : split_text(text, ','))
      p.push_back(static_cast<std::int32_t>(parse_integer(item, "points value", -(1L << 24), 1L << 24)));
  } else {
    for (char c : text) {
      if (c < '0' || c > '9')
        throw input_error("points '" + text + "': '" + std::string(1, c) +
                          "' is not a digit (write signed or multi-digit points as a comma list, e.g. 1,-2,10)");
      p.push_back(c - '0');
    }
  }
  if (static_cast<int>(p.size()) != n)
    throw input_error("points '" + text + "' give " + std::to_string(p.size()) + " value(s) but the code has " +
                      std::to_string(n) + " take size(s): one point value per take size");
  return p;
}

std::string points_text(const take_break& r) {
  std::string s;
  for (int i = 1; i <= r.max_take; ++i) s += (i > 1 ? "," : "") + std::to_string(r.points[i]);
  return s;
}

}  // namespace

take_break take_break::parse_octal(const std::string& text) {
  take_break c{};
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

std::string take_break::octal_text() const {
  std::string s = std::to_string(digit[0]) + ".";
  for (int i = 1; i <= max_take; ++i) s += static_cast<char>('0' + digit[i]);
  if (max_take == 0) s += "0";
  return s;
}

take_break take_break::parse_scoring(const std::string& code_in, const std::string& points) {
  std::string code = code_in;
  if (code.rfind("0.", 0) == 0)
    code = code.substr(2);
  else if (!code.empty() && code[0] == '.')
    code = code.substr(1);
  if (code.empty()) throw input_error("octal code '" + code_in + "' is empty");
  if (static_cast<int>(code.size()) > kMaxTake)
    throw input_error("octal code '" + code_in + "' has " + std::to_string(code.size()) + " digits; at most " +
                      std::to_string(kMaxTake) + " take sizes are supported");
  take_break r{};
  r.max_take = 0;
  for (std::size_t i = 0; i < code.size(); ++i) {
    char c = code[i];
    if (c < '0' || c > '7')
      throw input_error("octal code '" + code_in + "': digit '" + std::string(1, c) +
                        "' is not an octal digit 0-7 (bit 1: leave no heap, 2: one heap, 4: two heaps)");
    r.digit[i + 1] = static_cast<std::uint8_t>(c - '0');
    if (c != '0') r.max_take = static_cast<int>(i) + 1;
  }
  if (r.max_take == 0) throw input_error("octal code '" + code_in + "' allows no move (every digit is 0)");
  std::vector<std::int32_t> p;
  if (points.empty()) {
    for (std::size_t i = 1; i <= code.size(); ++i) p.push_back(static_cast<std::int32_t>(i));
  } else {
    p = parse_points(points, static_cast<int>(code.size()));
  }
  for (int i = 1; i <= r.max_take; ++i) r.points[i] = p[static_cast<std::size_t>(i - 1)];
  return r;
}

take_break take_break::subtraction(const std::string& set, const std::string& points) {
  if (set.find_first_not_of(" ,") == std::string::npos) throw input_error("subtraction set '" + set + "' is empty");
  std::string code;
  for (const auto& item : split_text(set, ',')) {
    long v = parse_integer(item, "subtraction set member", 1, kMaxTake);
    if (static_cast<long>(code.size()) < v) code.resize(static_cast<std::size_t>(v), '0');
    code[static_cast<std::size_t>(v - 1)] = '3';
  }
  return parse_scoring(code, points);
}

std::vector<std::uint64_t> take_break::words() const {
  std::vector<std::uint64_t> w;
  for (int i = 0; i <= max_take; ++i)
    w.push_back(static_cast<std::uint64_t>(digit[i]) << 32 | static_cast<std::uint32_t>(points[i]));
  return w;
}

std::string take_break::scoring_text() const {
  std::string c;
  for (int i = 1; i <= max_take; ++i) c += static_cast<char>('0' + digit[i]);
  return c + ":" + points_text(*this);
}

std::vector<std::uint64_t> multiset_index::table(int max_heap, int max_level, bool split_weight) {
  const int H = max_heap;
  std::vector<std::uint64_t> count(static_cast<std::size_t>(max_level + 1) * static_cast<std::size_t>(H + 1), 0);
  auto at = [&](int L, int m) { return static_cast<std::size_t>(L) * static_cast<std::size_t>(H + 1) + m; };
  auto w = [&](int a) { return split_weight ? 2 * a - 1 : a; };
  // C(L, m) = C(L, m-1) + C(L - w(m), m): no heap of m, or one heap of m off.
  for (int L = 0; L <= max_level; ++L)
    for (int m = 0; m <= H; ++m)
      count[at(L, m)] = m == 0 ? (L == 0 ? 1 : 0) : count[at(L, m - 1)] + (L >= w(m) ? count[at(L - w(m), m)] : 0);
  return count;
}

heap_multiset multiset_of(std::vector<int> heaps) {
  heaps.erase(std::remove(heaps.begin(), heaps.end(), 0), heaps.end());
  if (heaps.size() > static_cast<std::size_t>(kMaxMultisetParts))
    throw input_error("a position has at most " + std::to_string(kMaxMultisetParts) + " heaps");
  std::sort(heaps.rbegin(), heaps.rend());
  heap_multiset p{};
  for (int h : heaps) {
    if (h < 0 || h > kMaxMultisetHeap)
      throw input_error("heap " + std::to_string(h) + " is outside 0.." + std::to_string(kMaxMultisetHeap));
    p.part[p.count++] = static_cast<std::uint8_t>(h);
  }
  return p;
}

std::vector<int> heaps_of(const heap_multiset& p) { return std::vector<int>(p.part, p.part + p.count); }

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
    if (j == i)
      throw input_error("heap list '" + text + "': expected heap sizes separated by spaces (e.g. '3 5 9'), got '" +
                        text.substr(i) + "'");
    std::size_t k = i;  // past leading zeros: 18 digits and fewer fit a long long
    while (k + 1 < j && text[k] == '0') ++k;
    const long long v = j - k > 18 ? -1 : std::atoll(text.substr(k, j - k).c_str());
    if (v < 0 || v > max_heap)
      throw input_error("heap list '" + text + "': heap " + text.substr(k, j - k) +
                        " is above the table's largest heap " + std::to_string(max_heap));
    if (v > 0) heaps.push_back(static_cast<int>(v));
    heap_seen = true;
    i = j;
  }
  if (!heap_seen)
    throw input_error("heap list '" + text + "': '" + std::string(1, last_separator) + "' without a heap after it");
  return heaps;
}

}  // namespace cgtb
