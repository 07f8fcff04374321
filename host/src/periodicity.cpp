#include "cgtb/periodicity.hpp"

#include "cgtb/period.hpp"

namespace cgtb {

std::string period_report::text() const {
  if (!found) return "no period found up to n = " + std::to_string(checked_to);
  std::string s = "period " + std::to_string(period) + ", preperiod " + std::to_string(preperiod) + " (";
  if (last_exception < 0)
    s += "no exception";
  else
    s += "last exception n = " + std::to_string(last_exception) + ": G = " + std::to_string(exception_value) +
         " but G(n+" + std::to_string(period) + ") = " + std::to_string(exception_shifted);
  s += "), checked to n = " + std::to_string(checked_to) + (proven ? ", proven (the recurrence window repeats)" : "");
  return s;
}

period_report find_period(const std::vector<std::int64_t>& s, int window, int repeats) {
  period_report r;
  const int L = static_cast<int>(s.size());
  r.checked_to = L - 1;
  int pre = 0;
  const int p = smallest_period(s.data(), L, repeats, &pre);
  if (p == 0) return r;
  r.found = true;
  r.period = p;
  r.preperiod = pre;
  r.last_exception = pre - 1;
  if (pre > 0) {
    r.exception_value = s[static_cast<std::size_t>(pre - 1)];
    r.exception_shifted = s[static_cast<std::size_t>(pre - 1 + p)];
  }
  const int a = pre > 1 ? pre : 1;
  r.proven = window > 0 && L - p - a >= window;
  return r;
}

}  // namespace cgtb
