// The independent side of the impartial rulesets' tests (RIT, octal games,
// Blocking Nim; Cram has tests/reference_solver.hpp): move generators written
// from each game's rules, and a brute-force impartial solver (memoised
// recursion, no engine code). None of it uses the engine's index or moves.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace cgtb_test {

/// Octal moves written from the definition (Winning Ways ch. 4): digits as
/// given, taking i beans from a heap of a; bit 1 leaves nothing (i = a), bit 2
/// one heap, bit 4 two non-empty heaps. Heaps kept sorted.
struct octal_reference {
  using heaps = std::vector<int>;
  std::vector<int> d;  // d[0] before the point
  explicit octal_reference(const std::string& s) {
    for (char ch : s)
      if (ch != '.') d.push_back(ch - '0');
  }
  /// The heaps one move leaves of a heap of a beans (none, one or two).
  std::vector<heaps> leaves(int a) const {
    std::vector<heaps> out;
    for (int i = 0; i < static_cast<int>(d.size()) && i <= a; ++i) {
      const int r = a - i;
      if (i > 0 && (d[i] & 1) && r == 0) out.push_back({});
      if (i > 0 && (d[i] & 2) && r > 0) out.push_back({r});
      if ((d[i] & 4) && r >= 2)
        for (int b = 1; b <= r - b; ++b) out.push_back({b, r - b});
    }
    return out;
  }
  /// Every move from h (sorted heaps), one per heap of h.
  std::vector<heaps> moves(const heaps& h) const { return moves_on(h, false); }
  /// The moves from h on one heap of each size (equal heaps give equal
  /// options).
  std::vector<heaps> distinct_moves(const heaps& h) const { return moves_on(h, true); }
  /// Single-heap Grundy sequence by the plain mex rule.
  std::vector<int> sequence(int n_max) const {
    std::vector<int> g(static_cast<std::size_t>(n_max) + 1, 0);
    for (int n = 1; n <= n_max; ++n) {
      std::vector<bool> seen(256, false);
      for (const auto& l : leaves(n)) {
        int x = 0;
        for (int v : l) x ^= g[static_cast<std::size_t>(v)];
        seen[static_cast<std::size_t>(x)] = true;
      }
      int m = 0;
      while (seen[static_cast<std::size_t>(m)]) ++m;
      g[static_cast<std::size_t>(n)] = m;
    }
    return g;
  }

 private:
  std::vector<heaps> moves_on(const heaps& h, bool distinct) const {
    std::vector<heaps> out;
    for (std::size_t k = 0; k < h.size(); ++k) {
      if (distinct && k > 0 && h[k] == h[k - 1]) continue;
      for (const auto& l : leaves(h[k])) {
        heaps q = h;
        q.erase(q.begin() + static_cast<std::ptrdiff_t>(k));
        q.insert(q.end(), l.begin(), l.end());
        std::sort(q.begin(), q.end());
        out.push_back(q);
      }
    }
    return out;
  }
};

/// RIT moves written from the rules of "Row Impartial Terminus" §3, for a partition as its
/// parts (non-increasing, no zeros): for a column k in [1, lambda_1], the
/// lowest row i with lambda_i >= k is cut to k - 1.
inline std::vector<std::vector<int>> rit_reference_moves(const std::vector<int>& l) {
  std::vector<std::vector<int>> out;
  for (int k = 1; !l.empty() && k <= l[0]; ++k) {
    std::size_t i = 0;
    while (i + 1 < l.size() && l[i + 1] >= k) ++i;
    std::vector<int> q = l;
    q[i] = k - 1;
    while (!q.empty() && q.back() == 0) q.pop_back();
    out.push_back(q);
  }
  return out;
}

/// Independent impartial solver by memoised recursion over a game given only
/// by its move function: normal Grundy value, misère Grundy value, and the
/// genus run gamma_k = G-(p + k copies of *2) (Winning Ways ch. 13).
template <class Key>
class brute_impartial {
 public:
  explicit brute_impartial(std::function<std::vector<Key>(const Key&)> moves) : moves_(std::move(moves)) {}

  int grundy(const Key& k) {
    auto it = g_.find(k);
    if (it != g_.end()) return it->second;
    std::set<int> s;
    for (const auto& o : moves_(k)) s.insert(grundy(o));
    int m = 0;
    while (s.count(m)) ++m;
    return g_[k] = m;
  }

  /// G- of k beside a heaps *2 and b heaps *1.
  int misere(const Key& k, int a = 0, int b = 0) {
    auto key = std::make_tuple(k, a, b);
    auto it = m_.find(key);
    if (it != m_.end()) return it->second;
    std::set<int> s;
    for (const auto& o : moves_(k)) s.insert(misere(o, a, b));
    if (a > 0) {
      s.insert(misere(k, a - 1, b + 1));
      s.insert(misere(k, a - 1, b));
    }
    if (b > 0) s.insert(misere(k, a, b - 1));
    int m = 0;
    if (s.empty())
      m = 1;
    else
      while (s.count(m)) ++m;
    return m_[key] = m;
  }

 private:
  std::function<std::vector<Key>(const Key&)> moves_;
  std::map<Key, int> g_;
  std::map<std::tuple<Key, int, int>, int> m_;
};

}  // namespace cgtb_test
