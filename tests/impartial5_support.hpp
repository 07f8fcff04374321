// Test support for the impartial rulesets of issue 5 (RIT, octal games,
// Blocking Nim): a local ruleset self-test, an independent brute-force
// impartial solver (memoised recursion, no engine code), and helpers that run
// the engine and keep every record.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/rules/impartial.hpp"

namespace issue5 {

template <class P>
bool same_position(const P& a, const P& b) {
  return std::memcmp(&a, &b, sizeof(P)) == 0;
}

/// Ruleset self-test: on every level, rank(unrank(r)) == r, next() walks the
/// ranks in order, level_of agrees, options land on declared levels with
/// valid ranks, option_count counts them, and the host move list names the
/// same options as the kernel's option walk.
template <class Game>
void check_ruleset(const Game& g) {
  auto v = g.host_view();
  const int span = g.option_level_span();
  const std::vector<int> level_list = g.levels();
  std::set<int> levels(level_list.begin(), level_list.end());
  for (int L : g.levels()) {
    const std::uint64_t n = v.level_size(L);
    typename Game::position prev{};
    for (std::uint64_t r = 0; r < n; ++r) {
      auto p = v.unrank(L, r);
      ASSERT_EQ(v.rank(L, p), r) << "level " << L << " " << g.format(p);
      ASSERT_EQ(g.level_of(p), L) << g.format(p);
      if (r > 0) {
        ASSERT_TRUE(same_position(v.next(L, prev), p)) << "next of " << g.format(prev);
      }
      prev = p;
      std::multiset<std::pair<int, std::uint64_t>> kernel, host;
      v.for_each_option(L, p, [&](int l, std::uint64_t orank) {
        kernel.insert({l, orank});
        EXPECT_LT(l, L);
        if (span > 0) {
          EXPECT_GE(l, L - span);
        }
        EXPECT_TRUE(levels.count(l)) << "option on undeclared level " << l;
        EXPECT_LT(orank, v.level_size(l));
      });
      EXPECT_EQ(v.option_count(p), static_cast<int>(kernel.size())) << g.format(p);
      for (const auto& m : g.moves(p)) host.insert({g.level_of(m.after), v.rank(g.level_of(m.after), m.after)});
      ASSERT_EQ(kernel, host) << "options of " << g.format(p);
    }
  }
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

/// Every record of a solve, by level.
template <class Game, class Rule>
std::map<int, std::vector<typename Rule::record>> solve_all(const Game& g, int threads = 2) {
  std::map<int, std::vector<typename Rule::record>> out;
  cgtb::solve_options o;
  o.threads = threads;
  cgtb::solve<Game, Rule>(g, o, [&](const cgtb::level_report& rep, const typename Rule::record* rec) {
    out[rep.level].assign(rec, rec + rep.positions);
  });
  return out;
}

/// A fresh directory under /tmp for the files of one test.
inline std::string temp_dir(const std::string& name) {
  std::string d = "/tmp/cgtb-test-" + name + "-" + std::to_string(::getpid());
  std::string cmd = "mkdir -p " + d;
  if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << "cannot create " << d;
  return d;
}

/// Runs the cgtb binary; returns the exit status, stdout+stderr in `out`.
inline int run_cgtb(const std::string& args, std::string& out) {
  std::string cmd = std::string(CGTB_BINARY) + " " + args + " 2>&1";
  out.clear();
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return -1;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  int st = pclose(f);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace issue5
