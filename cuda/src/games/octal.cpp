#include "cgtb/games/octal.hpp"

namespace cgtb {

octal::octal(const take_break& code, int max_total) : code_(code), max_total_(max_total) {
  if (max_total < 0 || max_total > kOctalMaxHeap)
    throw input_error("--max-total " + std::to_string(max_total) + " is out of range (0 .. " +
                      std::to_string(kOctalMaxHeap) + ")");
  split_ = code.digit[0] & 4;
  max_level_ = split_ ? (max_total > 0 ? 2 * max_total - 1 : 0) : max_total;
  table_ = code.words();
  const std::vector<std::uint64_t> count = multiset_index::table(max_total, max_level_, split_);
  table_.insert(table_.end(), count.begin(), count.end());
}

std::string octal::params() const { return code_.octal_text() + "-total" + std::to_string(max_total_); }

std::vector<int> octal::levels() const {
  std::vector<int> l;
  for (int L = 0; L <= max_level_; ++L) l.push_back(L);
  return l;
}

octal::position octal::start() const { return multiset_of({max_total_}); }

int octal::level_of(const position& p) const { return host_view().index.level_of(p); }

octal::position octal::parse(const std::string& text) const {
  const multiset_index index = host_view().index;
  const std::vector<int> heaps = parse_heap_list(text, max_total_);
  int total = 0, weight = 0;
  for (int h : heaps) {
    total += h;
    weight += index.weight(h);
  }
  if (weight > max_level_)
    throw input_error("position '" + text + "' has " + std::to_string(total) + " beans; the table holds totals up to " +
                      std::to_string(max_total_));
  return multiset_of(heaps);
}

std::string octal::format(const position& p) const {
  std::string s;
  for (int a : heaps_of(p)) s += (s.empty() ? "" : " ") + std::to_string(a);
  return s.empty() ? "0" : s;
}

std::string octal_move_text(int heap, int b, int c) {
  const std::string s = std::to_string(heap) + "->";
  if (!c) return s + "0";
  if (!b) return s + std::to_string(c);
  return s + std::to_string(b) + "+" + std::to_string(c);
}

std::string octal::move_name(const octal_move& m) const { return octal_move_text(m.heap, m.b, m.c); }

std::vector<octal_move> octal::moves(const position& p) const {
  std::vector<octal_move> out;
  // Heaps in the order the position is written (largest first), as the
  // sequence tables and the sum solver list them.
  for (int i = 0; i < p.count; ++i) {
    const int a = p.part[i];
    if (i > 0 && a == p.part[i - 1]) continue;  // equal heaps: equal moves
    code_.for_each_move(a, [&](int b, int c, std::int32_t) { out.push_back({a, b, c, replace_part(p, i, b, c)}); });
  }
  return out;
}

}  // namespace cgtb
