// The presentation of a proven misère quotient (quotient_presentation.hpp).
#include "quotient_presentation.hpp"

#include <map>
#include <set>
#include <utility>

namespace cgtb::misere_detail {

namespace {

/// "a^2b" for the exponents {2, 1} of generators a, b.
std::string word_text(const std::vector<int>& exps, const std::vector<std::string>& gens) {
  std::string s;
  for (std::size_t i = 0; i < exps.size(); ++i) {
    if (!exps[i]) continue;
    s += gens[i];
    if (exps[i] > 1) s += "^" + std::to_string(exps[i]);
  }
  return s.empty() ? "1" : s;
}

}  // namespace

misere_quotient present(const quotient_search& q, const std::vector<std::string>& letter_names) {
  misere_quotient out;
  const std::size_t n = q.order();
  const std::uint32_t m = static_cast<std::uint32_t>(letter_names.size());
  out.order = n;
  out.table = q.product_table();
  out.p_portion = q.p_flags();
  // Generators.
  std::vector<std::uint32_t> gen_elem;
  std::vector<char> generated(n, 0);
  generated[0] = 1;
  for (std::uint32_t l = 0; l < m; ++l) {
    const std::uint32_t e = q.step(0, l);
    if (generated[e]) continue;
    gen_elem.push_back(e);
    const std::size_t k = out.generators.size();
    out.generators.push_back(k < 26 ? std::string(1, static_cast<char>('a' + k)) : "x" + std::to_string(k + 1));
    out.generator_of.push_back(letter_names[l]);
    // Close the submonoid under the new generator.
    std::vector<std::uint32_t> stack;
    for (std::uint32_t x = 0; x < n; ++x)
      if (generated[x]) stack.push_back(x);
    while (!stack.empty()) {
      const std::uint32_t x = stack.back();
      stack.pop_back();
      for (std::uint32_t g : gen_elem) {
        const std::uint32_t y = out.table[x * n + g];
        if (!generated[y]) {
          generated[y] = 1;
          stack.push_back(y);
        }
      }
    }
  }
  // Normal forms: breadth first by word length; within a length the
  // alphabetically least word (more of the earlier generators first).
  const std::size_t k = gen_elem.size();
  std::vector<std::vector<int>> nf(n);
  std::vector<char> named(n, 0);
  named[0] = 1;
  nf[0].assign(k, 0);
  std::vector<std::uint32_t> layer{0};
  auto letters_of = [&](const std::vector<int>& e) {
    std::string s;
    for (std::size_t i = 0; i < k; ++i) s += std::string(static_cast<std::size_t>(e[i]), static_cast<char>('A' + i));
    return s;
  };
  while (!layer.empty()) {
    std::map<std::uint32_t, std::vector<int>> found;
    for (std::uint32_t x : layer)
      for (std::size_t g = 0; g < k; ++g) {
        const std::uint32_t y = out.table[x * n + gen_elem[g]];
        if (named[y]) continue;
        std::vector<int> e = nf[x];
        ++e[g];
        auto it = found.find(y);
        if (it == found.end() || letters_of(e) < letters_of(it->second)) found[y] = e;
      }
    layer.clear();
    for (auto& [y, e] : found) {
      named[y] = 1;
      nf[y] = e;
      layer.push_back(y);
    }
  }
  std::map<std::vector<int>, std::uint32_t> normal;
  for (std::uint32_t x = 0; x < n; ++x) {
    out.elements.push_back(word_text(nf[x], out.generators));
    normal[nf[x]] = x;
  }
  // Relations: u = w.g not a normal form, with u - g' normal for every g' in u;
  // listed by the length of u, then alphabetically.
  std::map<std::pair<int, std::string>, std::string> by_word;
  std::set<std::vector<int>> seen;
  for (std::uint32_t x = 0; x < n; ++x)
    for (std::size_t g = 0; g < k; ++g) {
      std::vector<int> u = nf[x];
      ++u[g];
      if (normal.count(u) || !seen.insert(u).second) continue;
      bool minimal = true;
      for (std::size_t h = 0; h < k && minimal; ++h) {
        if (!u[h]) continue;
        std::vector<int> v = u;
        --v[h];
        minimal = normal.count(v) > 0;
      }
      if (!minimal) continue;
      const std::uint32_t y = out.table[x * n + gen_elem[g]];
      int length = 0;
      for (int e : u) length += e;
      by_word[{length, letters_of(u)}] = word_text(u, out.generators) + " = " + out.elements[y];
    }
  for (const auto& entry : by_word) out.relations.push_back(entry.second);
  return out;
}

}  // namespace cgtb::misere_detail
