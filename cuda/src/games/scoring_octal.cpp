#include "cgtb/games/scoring_octal.hpp"

#include "cgtb/rules/scoring.hpp"
#include "cgtb/text.hpp"

namespace cgtb {

// ------------------------------------------------------------- scoring_octal

namespace {

/// "key=value" of a params text; throws input_error if absent.
std::string param(const std::string& params, const std::string& key) {
  for (const auto& item : split_text(params, ' '))
    if (item.rfind(key + "=", 0) == 0) return item.substr(key.size() + 1);
  throw input_error("parameters '" + params + "' lack " + key + "=");
}

take_break rules_from_text(const std::string& cp) {
  auto colon = cp.find(':');
  if (colon == std::string::npos) throw input_error("game '" + cp + "' is not of the form CODE:POINTS (e.g. 123:123)");
  return take_break::parse_scoring(cp.substr(0, colon), cp.substr(colon + 1));
}

}  // namespace

scoring_octal::scoring_octal(take_break rules, int max, space s)
    : rules_(rules), max_(max), space_(s), table_(rules.words()) {
  if (max < 0) throw input_error("--max must be >= 0");
  if (s == space::heaps && rules.breaking())
    throw input_error("game " + rules.scoring_text() +
                      " breaks heaps (a digit with bit 4): single heaps need --positions multisets");
  if (s == space::heaps && max > (1 << 26)) throw input_error("--max must be at most 67108864 for single heaps");
  if (s == space::multisets) {
    if (max > kMaxMultisetTotal)
      throw input_error("--max " + std::to_string(max) + ": multisets of heaps are supported up to a total of " +
                        std::to_string(kMaxMultisetTotal));
    const std::vector<std::uint64_t> count = multiset_index::table(max, max, false);
    table_.insert(table_.end(), count.begin(), count.end());
  }
}

scoring_octal scoring_octal::from_params(const std::string& params) {
  const auto items = split_text(params, ' ');
  if (items.empty() || items[0].empty()) throw input_error("scoring-octal parameters '" + params + "' are empty");
  const std::string game = items[0];
  const std::string pos = param(params, "positions");
  if (pos != "heaps" && pos != "multisets") throw input_error("positions '" + pos + "' is not heaps or multisets");
  return scoring_octal(rules_from_text(game), static_cast<int>(parse_integer(param(params, "max"), "max", 0, 1 << 26)),
                       pos == "heaps" ? space::heaps : space::multisets);
}

std::string scoring_octal::params() const {
  return rules_.scoring_text() + " max=" + std::to_string(max_) +
         " positions=" + (space_ == space::heaps ? "heaps" : "multisets");
}

std::vector<int> scoring_octal::levels() const {
  std::vector<int> l;
  for (int i = 0; i <= max_; ++i) l.push_back(i);
  return l;
}

std::vector<std::int64_t> gs_sequence(const take_break& rules, int bound) {
  if (rules.breaking())
    throw input_error("game " + rules.scoring_text() +
                      " breaks heaps: G_s of single heaps needs a taking-no-breaking game");
  if (bound < 0) throw input_error("G_s sequence bound must be >= 0");
  const std::vector<std::uint64_t> words = rules.words();
  const single_heap_view v{rules_at(rules, words.data())};
  std::vector<std::int64_t> g(static_cast<std::size_t>(bound) + 1, 0);
  for (int n = 1; n <= bound; ++n) {
    gs_max gs;
    v.for_each_scored_option(n, static_cast<std::uint64_t>(n), [&](int l, std::uint64_t, std::int32_t pts) {
      gs.option(pts, g[static_cast<std::size_t>(l)]);
    });
    g[static_cast<std::size_t>(n)] = gs.value();
  }
  return g;
}

// --------------------------------------------------------------- scoring_sum

namespace {

/// Each operator's name and its ASCII symbol in query texts, in sum_op order.
struct sum_op_text {
  const char* name;
  char symbol;
};
constexpr sum_op_text kSumOps[] = {{"disjunctive", '+'}, {"conjunctive", '^'}, {"selective", 'v'}, {"sequential", '>'}};

}  // namespace

sum_op parse_sum_op(const std::string& text) {
  for (int i = 0; i < 4; ++i)
    if (text == kSumOps[i].name) return static_cast<sum_op>(i);
  throw input_error("unknown operator '" + text + "' (expected disjunctive, conjunctive, selective or sequential)");
}

const char* sum_op_name(sum_op op) { return kSumOps[static_cast<int>(op)].name; }

char sum_op_symbol(sum_op op) { return kSumOps[static_cast<int>(op)].symbol; }

scoring_sum::scoring_sum(sum_op op, take_break left, take_break right, int max) {
  if (max < 0) throw input_error("--max must be >= 0");
  if (max > (1 << 20)) throw input_error("--max must be at most 1048576 for two-heap tables");
  for (const auto* r : {&left, &right})
    if (r->breaking())
      throw input_error("game " + r->scoring_text() +
                        " breaks heaps (a digit with bit 4); two-component sums take taking-no-breaking games "
                        "(digits 0-3)");
  op_ = op;
  left_ = left;
  right_ = right;
  max_ = max;
  table_ = left.words();
  const std::vector<std::uint64_t> r = right.words();
  table_.insert(table_.end(), r.begin(), r.end());
}

scoring_sum scoring_sum::from_params(const std::string& params) {
  return scoring_sum(parse_sum_op(param(params, "op")), rules_from_text(param(params, "left")),
                     rules_from_text(param(params, "right")),
                     static_cast<int>(parse_integer(param(params, "max"), "max", 0, 1 << 20)));
}

std::string scoring_sum::params() const {
  return std::string("op=") + sum_op_name(op_) + " left=" + left_.scoring_text() + " right=" + right_.scoring_text() +
         " max=" + std::to_string(max_);
}

std::vector<int> scoring_sum::levels() const {
  std::vector<int> l;
  for (int i = 0; i <= 2 * max_; ++i) l.push_back(i);
  return l;
}

}  // namespace cgtb
