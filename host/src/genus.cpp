#include "cgtb/genus.hpp"

namespace cgtb {

int genus::settle_index() const {
  const int k = static_cast<int>(run.size()) - 1;
  int j = k - 2;  // gamma_i == gamma_{i+2} holds vacuously from k-1 on
  while (j >= 0 && run[static_cast<std::size_t>(j)] == run[static_cast<std::size_t>(j + 2)]) --j;
  ++j;
  return j <= k - 3 ? j : -1;
}

std::string genus::symbol() const {
  int j = settle_index();
  std::size_t len = j < 0 ? run.size() : static_cast<std::size_t>(j) + 2;
  bool wide = false;
  for (std::size_t i = 0; i < len; ++i) wide = wide || run[i] >= 10;
  std::string s = std::to_string(g) + "^{";
  for (std::size_t i = 0; i < len; ++i) {
    if (wide && i) s += ",";
    s += std::to_string(run[i]);
  }
  if (j < 0) s += "...";
  return s + "}";
}

bool genus::tame() const {
  int j = settle_index();
  if (j < 0 || run.size() < 3) return false;
  auto is = [&](unsigned a, unsigned b, unsigned c) { return run[0] == a && run[1] == b && run[2] == c; };
  if (j == 0 && run[0] == g && run[1] == (g ^ 2u)) return true;  // firm n^{n, n+2}
  if (j == 1 && g == 0 && is(1, 2, 0)) return true;              // fickle 0^{120}
  if (j == 1 && g == 1 && is(0, 3, 1)) return true;              // fickle 1^{031}
  return false;
}

}  // namespace cgtb
