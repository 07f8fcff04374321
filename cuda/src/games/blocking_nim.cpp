#include "cgtb/games/blocking_nim.hpp"

#include <cctype>
#include <cstdlib>

namespace cgtb {

namespace {

bool is_int(const std::string& s) {
  std::size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
  return s.size() > i && s.size() - i <= 12 && s.find_first_not_of("0123456789", i) == std::string::npos;
}

std::vector<long long> int_list(const std::string& s, const std::string& name, const std::string& text) {
  std::vector<long long> v;
  std::size_t a = 0;
  while (true) {
    std::size_t b = s.find(',', a);
    std::string item = s.substr(a, b == std::string::npos ? std::string::npos : b - a);
    if (!is_int(item))
      throw input_error("sequence " + name + " '" + text + "': '" + item +
                        "' is not an integer (forms: 5, 1,3,4, 2+3i, cycle:1,2)");
    v.push_back(std::atoll(item.c_str()));
    if (b == std::string::npos) break;
    a = b + 1;
  }
  return v;
}

}  // namespace

int_sequence int_sequence::parse(const std::string& text, const std::string& name) {
  int_sequence s;
  s.text = text;
  if (text.rfind("cycle:", 0) == 0) {
    s.kind = cycle;
    s.values = int_list(text.substr(6), name, text);
    return s;
  }
  if (!text.empty() && text.back() == 'i') {
    // a+bi, a-bi, bi, i, a+i
    std::string body = text.substr(0, text.size() - 1);
    std::size_t op = body.find_last_of("+-");
    std::string a = op == std::string::npos || op == 0 ? "" : body.substr(0, op);
    std::string b = op == std::string::npos || op == 0 ? body : body.substr(op);
    if (b == "" || b == "+") b = "1";
    if (b == "-") b = "-1";
    if (!b.empty() && b[0] == '+') b = b.substr(1);
    if ((!a.empty() && !is_int(a)) || !is_int(b))
      throw input_error("sequence " + name + " '" + text + "' is not a linear formula a+bi (e.g. 2+3i, 3i, i)");
    s.kind = linear;
    s.a = a.empty() ? 0 : std::atoll(a.c_str());
    s.b = std::atoll(b.c_str());
    return s;
  }
  s.values = int_list(text, name, text);
  s.kind = s.values.size() == 1 ? constant : list;
  return s;
}

long long int_sequence::at(long long i) const {
  switch (kind) {
    case constant:
      return values[0];
    case list:
      return values[static_cast<std::size_t>(std::min<long long>(i, static_cast<long long>(values.size())) - 1)];
    case linear:
      return a + b * i;
    case cycle:
      return values[static_cast<std::size_t>((i - 1) % static_cast<long long>(values.size()))];
  }
  return 0;
}

blocking_nim::blocking_nim(const int_sequence& c, const int_sequence& m, const int_sequence& M, int max_pile)
    : c_(c), m_(m), M_(M), max_pile_(max_pile) {
  if (max_pile < 0 || max_pile > 20000)
    throw input_error("--max-pile " + std::to_string(max_pile) + " is out of range (0 .. 20000)");
  const long long K = max_pile + 1;
  auto s = [](long long v) { return std::to_string(v); };
  for (long long i = 1; i <= K; ++i) {
    if (m.at(i) < 1) throw input_error("sequence m must be positive, but m_" + s(i) + " = " + s(m.at(i)));
    if (M.at(i) < 1) throw input_error("sequence M must be positive, but M_" + s(i) + " = " + s(M.at(i)));
    if (c.at(i) < 0) throw input_error("sequence c must be non-negative, but c_" + s(i) + " = " + s(c.at(i)));
  }
  for (long long i = 1; i < K; ++i)
    if (c.at(i) > c.at(i + 1))
      throw input_error("condition (1) fails: c_i <= c_{i+1} is required, but c_" + s(i) + " = " + s(c.at(i)) +
                        " > c_" + s(i + 1) + " = " + s(c.at(i + 1)));
  auto u = [&](long long i) { return M.at(i) - m.at(i) - c.at(i); };
  for (long long i = 1; i <= K; ++i) {
    if (u(i) < 0)
      throw input_error("condition (2) fails: u_i = M_i - m_i - c_i >= 0 is required, but u_" + s(i) + " = " +
                        s(M.at(i)) + " - " + s(m.at(i)) + " - " + s(c.at(i)) + " = " + s(u(i)));
    if (i < K && u(i) > u(i + 1))
      throw input_error("condition (2) fails: u_i <= u_{i+1} (u_i = M_i - m_i - c_i) is required, but u_" + s(i) +
                        " = " + s(u(i)) + " > u_" + s(i + 1) + " = " + s(u(i + 1)));
  }
  for (long long i = 1; i <= K; ++i) {
    seq_.push_back(static_cast<std::uint64_t>(c.at(i)));
    seq_.push_back(static_cast<std::uint64_t>(m.at(i)));
    seq_.push_back(static_cast<std::uint64_t>(M.at(i)));
  }
}

blocking_nim blocking_nim::from_params(const std::string& params) {
  std::string c, m, M, n;
  std::size_t a = 0;
  while (a <= params.size()) {
    std::size_t b = params.find(';', a);
    std::string item = params.substr(a, b == std::string::npos ? std::string::npos : b - a);
    auto eq = item.find('=');
    std::string key = item.substr(0, eq), val = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (key == "c")
      c = val;
    else if (key == "m")
      m = val;
    else if (key == "M")
      M = val;
    else if (key == "N")
      n = val;
    else
      throw input_error("blocking-nim parameters '" + params + "' are malformed");
    if (b == std::string::npos) break;
    a = b + 1;
  }
  if (c.empty() || m.empty() || M.empty() || n.empty() || !is_int(n))
    throw input_error("blocking-nim parameters '" + params + "' are malformed");
  return blocking_nim(int_sequence::parse(c, "c"), int_sequence::parse(m, "m"), int_sequence::parse(M, "M"),
                      std::atoi(n.c_str()));
}

std::string blocking_nim::params() const {
  return "c=" + c_.text + ";m=" + m_.text + ";M=" + M_.text + ";N=" + std::to_string(max_pile_);
}

std::vector<int> blocking_nim::levels() const {
  std::vector<int> l;
  for (int p = 0; p <= max_pile_; ++p) l.push_back(p);
  return l;
}

blocking_nim::position blocking_nim::parse(const std::string& text) const {
  auto at = text.find('@');
  std::string ps = text.substr(0, at), ks = at == std::string::npos ? "1" : text.substr(at + 1);
  auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!digits(ps) || !digits(ks))
    throw input_error("position '" + text + "' is not PILE or PILE@MOVE (e.g. 15 or 15@3)");
  const int p = std::atoi(ps.c_str()), k = std::atoi(ks.c_str());
  if (p > max_pile_)
    throw input_error("position '" + text + "': pile " + ps + " is above the table's largest pile " +
                      std::to_string(max_pile_));
  if (k < 1 || k > max_pile_ - p + 1)
    throw input_error("position '" + text + "': move " + ks + " is outside 1.." + std::to_string(max_pile_ - p + 1) +
                      " (the moves a pile of " + ps + " can be reached at from piles up to " +
                      std::to_string(max_pile_) + ")");
  return blocking_nim_view::make(p, k);
}

std::string blocking_nim::format(position p) const {
  return std::to_string(blocking_nim_view::pile(p)) + "@" + std::to_string(blocking_nim_view::move(p));
}

std::vector<blocking_nim_move> blocking_nim::moves(position p) const {
  std::vector<blocking_nim_move> out;
  const int pile = blocking_nim_view::pile(p), k = blocking_nim_view::move(p);
  for (std::uint64_t x = m(k); x <= M(k) && x <= static_cast<std::uint64_t>(pile); ++x)
    out.push_back({static_cast<int>(x), blocking_nim_view::make(pile - static_cast<int>(x), k + 1)});
  return out;
}

}  // namespace cgtb
