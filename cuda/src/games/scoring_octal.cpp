#include "cgtb/games/scoring_octal.hpp"

#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace cgtb {

namespace {

/// Parses a signed decimal integer; throws input_error naming `what`.
long parse_int(const std::string& s, const std::string& what, long lo, long hi) {
  if (s.empty() || s.find_first_not_of("+-0123456789") != std::string::npos)
    throw input_error(what + " '" + s + "' is not an integer");
  errno = 0;
  char* end = nullptr;
  long v = std::strtol(s.c_str(), &end, 10);
  if (errno || *end || v < lo || v > hi)
    throw input_error(what + " '" + s + "' is out of range (" + std::to_string(lo) + ".." + std::to_string(hi) + ")");
  return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  if (!s.empty() && s.back() == sep) out.push_back("");
  return out;
}

/// Points per take size 1..n: "1234" (one digit each) or "1,-2,10".
std::vector<std::int32_t> parse_points(const std::string& text, int n) {
  std::vector<std::int32_t> p;
  if (text.find_first_of(",-+") != std::string::npos) {
    for (const auto& item : split(text, ','))
      p.push_back(static_cast<std::int32_t>(parse_int(item, "points value", -(1L << 24), 1L << 24)));
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

std::string points_text(const octal_rules& r) {
  std::string s;
  for (int i = 1; i <= r.k; ++i) s += (i > 1 ? "," : "") + std::to_string(r.points[i]);
  return s;
}

}  // namespace

octal_rules octal_rules::parse(const std::string& code_in, const std::string& points) {
  std::string code = code_in;
  if (code.rfind("0.", 0) == 0)
    code = code.substr(2);
  else if (!code.empty() && code[0] == '.')
    code = code.substr(1);
  if (code.empty()) throw input_error("octal code '" + code_in + "' is empty");
  if (static_cast<int>(code.size()) > kMaxTake)
    throw input_error("octal code '" + code_in + "' has " + std::to_string(code.size()) + " digits; at most " +
                      std::to_string(kMaxTake) + " take sizes are supported");
  octal_rules r{};
  r.k = 0;
  for (std::size_t i = 0; i < code.size(); ++i) {
    char c = code[i];
    if (c < '0' || c > '7')
      throw input_error("octal code '" + code_in + "': digit '" + std::string(1, c) +
                        "' is not an octal digit 0-7 (bit 1: leave no heap, 2: one heap, 4: two heaps)");
    r.digit[i + 1] = static_cast<std::uint8_t>(c - '0');
    if (c != '0') r.k = static_cast<int>(i) + 1;
  }
  if (r.k == 0) throw input_error("octal code '" + code_in + "' allows no move (every digit is 0)");
  std::vector<std::int32_t> p;
  if (points.empty()) {
    for (std::size_t i = 1; i <= code.size(); ++i) p.push_back(static_cast<std::int32_t>(i));
  } else {
    p = parse_points(points, static_cast<int>(code.size()));
  }
  for (int i = 1; i <= r.k; ++i) r.points[i] = p[static_cast<std::size_t>(i - 1)];
  return r;
}

octal_rules octal_rules::subtraction(const std::string& set, const std::string& points) {
  if (set.find_first_not_of(" ,") == std::string::npos) throw input_error("subtraction set '" + set + "' is empty");
  std::string code;
  for (const auto& item : split(set, ',')) {
    long v = parse_int(item, "subtraction set member", 1, kMaxTake);
    if (static_cast<long>(code.size()) < v) code.resize(static_cast<std::size_t>(v), '0');
    code[static_cast<std::size_t>(v - 1)] = '3';
  }
  return parse(code, points);
}

std::string octal_rules::text() const {
  std::string c;
  for (int i = 1; i <= k; ++i) c += static_cast<char>('0' + digit[i]);
  return c + ":" + points_text(*this);
}

// ------------------------------------------------------------- scoring_octal

namespace {

/// "key=value" of a params text; throws input_error if absent.
std::string param(const std::string& params, const std::string& key) {
  for (const auto& item : split(params, ' '))
    if (item.rfind(key + "=", 0) == 0) return item.substr(key.size() + 1);
  throw input_error("parameters '" + params + "' lack " + key + "=");
}

octal_rules rules_from_text(const std::string& cp) {
  auto colon = cp.find(':');
  if (colon == std::string::npos) throw input_error("game '" + cp + "' is not of the form CODE:POINTS (e.g. 123:123)");
  return octal_rules::parse(cp.substr(0, colon), cp.substr(colon + 1));
}

}  // namespace

scoring_octal::scoring_octal(octal_rules rules, int max, space s) : rules_(rules), max_(max), space_(s), table_{0} {
  if (max < 0) throw input_error("--max must be >= 0");
  if (s == space::heaps && rules.breaking())
    throw input_error("game " + rules.text() +
                      " breaks heaps (a digit with bit 4): single heaps need --positions multisets");
  if (s == space::heaps && max > (1 << 26)) throw input_error("--max must be at most 67108864 for single heaps");
  if (s == space::multisets) {
    if (max > kMaxMultisetTotal)
      throw input_error("--max " + std::to_string(max) + ": multisets of heaps are supported up to a total of " +
                        std::to_string(kMaxMultisetTotal));
    const int st = max + 1;
    table_.assign(static_cast<std::size_t>(st) * static_cast<std::size_t>(st), 0);
    // count(n, j): partitions of n with every part <= j.
    for (int n = 0; n <= max; ++n)
      for (int j = 0; j <= max; ++j) {
        std::uint64_t v;
        if (n == 0)
          v = 1;
        else if (j == 0)
          v = 0;
        else
          v = table_[static_cast<std::size_t>(n * st + j - 1)] +
              (j <= n ? table_[static_cast<std::size_t>((n - j) * st + j)] : 0);
        table_[static_cast<std::size_t>(n * st + j)] = v;
      }
  }
}

scoring_octal scoring_octal::from_params(const std::string& params) {
  const auto items = split(params, ' ');
  if (items.empty() || items[0].empty()) throw input_error("scoring-octal parameters '" + params + "' are empty");
  const std::string game = items[0];
  const std::string pos = param(params, "positions");
  if (pos != "heaps" && pos != "multisets") throw input_error("positions '" + pos + "' is not heaps or multisets");
  return scoring_octal(rules_from_text(game), static_cast<int>(parse_int(param(params, "max"), "max", 0, 1 << 26)),
                       pos == "heaps" ? space::heaps : space::multisets);
}

std::string scoring_octal::params() const {
  return rules_.text() + " max=" + std::to_string(max_) +
         " positions=" + (space_ == space::heaps ? "heaps" : "multisets");
}

std::vector<int> scoring_octal::levels() const {
  std::vector<int> l;
  for (int i = 0; i <= max_; ++i) l.push_back(i);
  return l;
}

// --------------------------------------------------------------- scoring_sum

sum_op parse_sum_op(const std::string& text) {
  if (text == "disjunctive") return sum_op::disjunctive;
  if (text == "conjunctive") return sum_op::conjunctive;
  if (text == "selective") return sum_op::selective;
  if (text == "sequential") return sum_op::sequential;
  throw input_error("unknown operator '" + text + "' (expected disjunctive, conjunctive, selective or sequential)");
}

const char* sum_op_name(sum_op op) {
  switch (op) {
    case sum_op::disjunctive:
      return "disjunctive";
    case sum_op::conjunctive:
      return "conjunctive";
    case sum_op::selective:
      return "selective";
    case sum_op::sequential:
      return "sequential";
  }
  return "?";
}

char sum_op_symbol(sum_op op) {
  switch (op) {
    case sum_op::disjunctive:
      return '+';
    case sum_op::conjunctive:
      return '^';
    case sum_op::selective:
      return 'v';
    case sum_op::sequential:
      return '>';
  }
  return '?';
}

scoring_sum::scoring_sum(sum_op op, octal_rules left, octal_rules right, int max) {
  if (max < 0) throw input_error("--max must be >= 0");
  if (max > (1 << 20)) throw input_error("--max must be at most 1048576 for two-heap tables");
  for (const auto* r : {&left, &right})
    if (r->breaking())
      throw input_error("game " + r->text() +
                        " breaks heaps (a digit with bit 4); two-component sums take taking-no-breaking games "
                        "(digits 0-3)");
  view_ = {left, right, max, op};
}

scoring_sum scoring_sum::from_params(const std::string& params) {
  return scoring_sum(parse_sum_op(param(params, "op")), rules_from_text(param(params, "left")),
                     rules_from_text(param(params, "right")),
                     static_cast<int>(parse_int(param(params, "max"), "max", 0, 1 << 20)));
}

std::string scoring_sum::params() const {
  return std::string("op=") + sum_op_name(view_.op) + " left=" + view_.left.text() + " right=" + view_.right.text() +
         " max=" + std::to_string(view_.max_heap);
}

std::vector<int> scoring_sum::levels() const {
  std::vector<int> l;
  for (int i = 0; i <= 2 * view_.max_heap; ++i) l.push_back(i);
  return l;
}

}  // namespace cgtb
