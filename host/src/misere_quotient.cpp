// Misère quotients of octal games and bounded misère classes of Cram
// regions (cgtb/misere_quotient.hpp).
#include "cgtb/misere_quotient.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "cgtb/cram_region.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/games/octal.hpp"
#include "cgtb/genus.hpp"
#include "cgtb/misere_sum.hpp"

namespace cgtb {

namespace {

/// An element a^alpha b^beta of T2 = <a, b | a^2 = 1, b^3 = b>.
struct t2_element {
  int alpha = 0, beta = 0;  // alpha in 0..1, beta in 0..2
  t2_element operator*(t2_element o) const {
    const int s = beta + o.beta;  // b^3 = b: b^3 -> b, b^4 -> b^2
    return {alpha ^ o.alpha, s <= 2 ? s : s - 2};
  }
  bool p_portion() const { return (alpha == 1 && beta == 0) || (alpha == 0 && beta == 2); }
  std::string name() const {
    std::string s = alpha ? "a" : "";
    if (beta) s += beta == 1 ? "b" : "b^2";
    return s.empty() ? "1" : s;
  }
};

/// The element of the Nim position of a tame genus with Grundy value <= 3:
/// fickle 0^{120} is 1 and 1^{031} is a; firm n^{n,n^2} is *n (b for 2, ab for
/// 3), b^2 for 0^{02} (*2 + *2) and ab^2 for 1^{13} (*3 + *2).
t2_element element_of(const genus& gn) {
  const bool firm = gn.settle_index() == 0;
  if (!firm) return {static_cast<int>(gn.g & 1), 0};
  return {static_cast<int>(gn.g & 1), gn.g >= 2 ? 1 : 2};
}

/// A multiset of letters (generators of the closed set), sorted.
using word = std::vector<std::uint32_t>;

/// The guess-and-prove search of octal_quotient over a finite alphabet of
/// components whose options are sums of letters.
class quotient_search {
 public:
  /// letters[i]: the component of letter i (a position with a move);
  /// options[i]: its options as words.
  quotient_search(sum_solver& solver, std::vector<std::uint64_t> letters, std::vector<std::vector<word>> options,
                  std::size_t max_order, std::uint64_t max_signatures)
      : solver_(solver),
        letters_(std::move(letters)),
        options_(std::move(options)),
        m_(letters_.size()),
        max_order_(max_order),
        max_signatures_(max_signatures) {}

  /// Runs rounds until the proof holds or the finite check is too large.
  /// The first tests: `tests` (the previous heap's), the empty sum, and every
  /// sum of one or two letters with the last letter in it.
  void run(std::set<word> tests, const std::function<void(const std::string&)>& progress) {
    tests.insert(word{});
    const std::uint32_t last = m_ - 1;
    tests.insert(word{last});
    for (std::uint32_t i = 0; i <= last; ++i) tests.insert(word{i, last});
    for (rounds = 1;; ++rounds) {
      tests_.assign(tests.begin(), tests.end());
      explore();
      if (progress) {
        char line[200];
        std::snprintf(line, sizeof line, "round %d: %zu test sums, %zu elements; proving", rounds, tests_.size(),
                      reps_.size());
        progress(line);
      }
      std::vector<word> more = commutation_counterexample();
      if (more.empty()) more = signature_counterexample();
      if (more.empty()) return;  // proven, or the check was too large (proven stays false)
      const std::size_t before = tests.size();
      tests.insert(more.begin(), more.end());
      if (tests.size() == before) throw std::logic_error("quotient search: a counterexample gave no new test sum");
    }
  }

  int rounds = 0;
  bool proven = false;
  std::string why_not;
  std::uint64_t signatures = 0, sums = 0;

  std::size_t order() const { return reps_.size(); }
  std::uint32_t step(std::uint32_t x, std::uint32_t letter) const { return trans_[x * m_ + letter]; }
  std::uint32_t element_of(const word& w) const {
    std::uint32_t x = 0;
    for (std::uint32_t l : w) x = step(x, l);
    return x;
  }
  bool p_portion(std::uint32_t x) const { return p_[x] != 0; }
  const word& representative(std::uint32_t x) const { return reps_[x]; }
  /// The order x order product table, row-major: x.y = x with y's
  /// representative added (well defined once adding letters commutes).
  std::vector<std::uint32_t> product_table() const {
    const std::size_t n = reps_.size();
    std::vector<std::uint32_t> t(n * n);
    for (std::uint32_t x = 0; x < n; ++x)
      for (std::uint32_t y = 0; y < n; ++y) t[x * n + y] = element_after(x, reps_[y]);
    return t;
  }
  /// Per element: 1 when it is in the P-portion.
  const std::vector<char>& p_flags() const { return p_; }
  std::size_t tests() const { return tests_.size(); }
  const std::vector<word>& test_sums() const { return tests_; }
  /// True when the player to move loses the misère sum w (searched).
  bool p_position(const word& w) {
    std::vector<std::uint64_t> s;
    s.reserve(w.size());
    for (std::uint32_t l : w) s.push_back(letters_[l]);
    ++sums;
    return !solver_.misere_win_of(std::move(s));
  }

 private:
  static word plus(word a, const word& b) {
    a.insert(a.end(), b.begin(), b.end());
    std::sort(a.begin(), a.end());
    return a;
  }

  /// The outcomes of w beside every test, one bit each.
  std::string row(const word& w) {
    std::string r((tests_.size() + 7) / 8, '\0');
    for (std::size_t t = 0; t < tests_.size(); ++t)
      if (p_position(plus(w, tests_[t]))) r[t / 8] = static_cast<char>(r[t / 8] | (1 << (t % 8)));
    return r;
  }

  /// The automaton of classes as the tests tell them apart, explored
  /// breadth first from 0 (so each element's representative is a
  /// smallest sum reaching it).
  void explore() {
    reps_.clear();
    rows_.clear();
    trans_.clear();
    p_.clear();
    std::unordered_map<std::string, std::uint32_t> index;
    auto add = [&](const word& w, std::string r) {
      if (reps_.size() >= max_order_)
        throw resource_error("the misere quotient has more than " + std::to_string(max_order_) +
                             " elements (raise --max-order)");
      const std::uint32_t id = static_cast<std::uint32_t>(reps_.size());
      p_.push_back(static_cast<char>(r[0] & 1));  // tests_[0] is the empty sum
      index.emplace(r, id);
      rows_.push_back(std::move(r));
      reps_.push_back(w);
      trans_.resize(reps_.size() * m_, 0);
      return id;
    };
    add(word{}, row(word{}));
    for (std::uint32_t x = 0; x < reps_.size(); ++x)
      for (std::uint32_t l = 0; l < m_; ++l) {
        const word w = plus(reps_[x], word{l});
        std::string r = row(w);
        auto it = index.find(r);
        trans_[x * m_ + l] = it != index.end() ? it->second : add(w, std::move(r));
      }
  }

  /// First failure of x.h.h' = x.h'.h, turned into new tests: the test
  /// that tells the two results apart, with h and with h' added.
  std::vector<word> commutation_counterexample() const {
    for (std::uint32_t x = 0; x < reps_.size(); ++x)
      for (std::uint32_t h = 0; h < m_; ++h)
        for (std::uint32_t g = h + 1; g < m_; ++g) {
          const std::uint32_t a = step(step(x, h), g), b = step(step(x, g), h);
          if (a == b) continue;
          for (std::size_t t = 0; t < tests_.size(); ++t) {
            const int ba = (rows_[a][t / 8] >> (t % 8)) & 1, bb = (rows_[b][t / 8] >> (t % 8)) & 1;
            if (ba != bb) return {plus(tests_[t], word{h}), plus(tests_[t], word{g})};
          }
        }
    return {};
  }

  /// The finite check (c) of octal_quotient; on a failure, a sum whose
  /// outcome the automaton predicts wrongly, as the suffixes of its path
  /// (the tests that split the element the path went wrong at). Also checks
  /// minimality (b).
  ///
  /// Write good(y, h) when some move of heap h, made beside a sum of
  /// element y, reaches the P-portion. The rule at G splits in two:
  /// (c1) an element of P has no option in P: for every element y and heap
  ///      h with y.h in P, not good(y, h) — a check of |Q| x heaps pairs, as
  ///      G - h may be any sum;
  /// (c2) an element outside P with a move has an option in P: no sum G with
  ///      a heap and Phi(G) outside P has good(Phi(G - h), h) false for every
  ///      heap h of G. Only the pairs (type of h, Phi(G - h)) matter, where
  ///      heaps of one element and one good(., h) are of one type, so the
  ///      check visits every reachable signature (Phi(G), the set of those
  ///      pairs); the signature of G + h' follows from G's. A signature
  ///      whose pairs include a visited one's of the same element is not
  ///      followed (every failure it leads to, the smaller one leads to).
  std::vector<word> signature_counterexample() {
    const std::size_t n = reps_.size();
    std::vector<char> good(n * m_, 0);  // good[y * m + h]
    for (std::uint32_t y = 0; y < n; ++y)
      for (std::uint32_t h = 0; h < m_; ++h)
        for (const word& o : options_[h])
          if (p_[element_after(y, o)]) {
            good[y * m_ + h] = 1;
            break;
          }
    // (c1)
    for (std::uint32_t y = 0; y < n; ++y)
      for (std::uint32_t h = 0; h < m_; ++h)
        if (p_[step(y, h)] && good[y * m_ + h]) return counterexample(plus(reps_[y], word{h}));
    // Types of heaps.
    std::map<std::pair<std::uint32_t, std::string>, std::uint32_t> type_ids;
    std::vector<std::uint32_t> type(m_);
    std::vector<std::uint32_t> type_letter;  // a heap of each type
    for (std::uint32_t h = 0; h < m_; ++h) {
      std::string g(n, '\0');
      for (std::uint32_t y = 0; y < n; ++y) g[y] = good[y * m_ + h];
      auto it = type_ids.emplace(std::make_pair(step(0, h), g), static_cast<std::uint32_t>(type_ids.size())).first;
      type[h] = it->second;
      if (type_letter.size() <= it->second) type_letter.push_back(h);
    }
    // (c2): signatures as (element, sorted pairs type * n + y), in one arena.
    using sig = std::vector<std::uint32_t>;
    std::vector<sig> sigs{sig{0}};
    std::vector<std::pair<std::uint64_t, std::uint32_t>> parent{{0, 0xffffffffu}};
    std::set<sig> seen{sigs[0]};
    // Visited signatures per element, for the domination rule. Not the empty
    // sum's: a nonempty sum of the identity element must be checked itself
    // (only its extensions are covered by the empty sum's).
    std::vector<std::vector<std::uint64_t>> by_element(n);
    for (std::uint64_t at = 0; at < sigs.size(); ++at) {
      {
        const sig& sg = sigs[at];
        if (sg.size() > 1 && !p_[sg[0]]) {
          bool any_good = false;
          for (std::size_t i = 1; i < sg.size() && !any_good; ++i)
            any_good = good[(sg[i] % n) * m_ + type_letter[sg[i] / n]] != 0;
          if (!any_good) return counterexample(path_of(parent, at));
        }
      }
      for (std::uint32_t t = 0; t < type_letter.size(); ++t) {
        const std::uint32_t l = type_letter[t];  // heaps of one type move signatures alike
        const sig& sg = sigs[at];
        sig next{step(sg[0], l)};
        for (std::size_t i = 1; i < sg.size(); ++i)
          next.push_back(sg[i] / n * static_cast<std::uint32_t>(n) + step(sg[i] % n, l));
        next.push_back(t * static_cast<std::uint32_t>(n) + sg[0]);
        std::sort(next.begin() + 1, next.end());
        next.erase(std::unique(next.begin() + 1, next.end()), next.end());
        if (!seen.insert(next).second) continue;
        // A signature whose pairs include those of a visited one with the
        // same element is dominated: every sum that extends it has, on the
        // visited one's extension, a subset of its pairs (pairs move alike),
        // so a failure of (c2) there is a failure here too.
        auto& same = by_element[next[0]];
        bool dominated = false;
        for (std::uint64_t v : same)
          if (std::includes(next.begin() + 1, next.end(), sigs[v].begin() + 1, sigs[v].end())) {
            dominated = true;
            break;
          }
        if (dominated) continue;
        same.push_back(sigs.size());
        if (sigs.size() >= max_signatures_) {
          signatures = sigs.size();
          why_not = "the proof's finite check went past " + std::to_string(max_signatures_) +
                    " signatures (raise --max-signatures)";
          return {};
        }
        sigs.push_back(std::move(next));
        parent.push_back({at, l});
      }
    }
    signatures = sigs.size();
    if (!minimal()) {
      why_not = "the automaton is not minimal";
      return {};
    }
    proven = true;
    return {};
  }

  std::uint32_t element_after(std::uint32_t x, const word& w) const {
    for (std::uint32_t l : w) x = step(x, l);
    return x;
  }

  static word path_of(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& parent, std::uint64_t at) {
    word w;
    for (; parent[at].second != 0xffffffffu; at = parent[at].first) w.push_back(parent[at].second);
    std::sort(w.begin(), w.end());
    return w;
  }

  /// A sum at which the induction failed: it, or one of its options, has an
  /// outcome the automaton predicts wrongly; that sum's suffixes are the
  /// new tests.
  std::vector<word> counterexample(const word& g) {
    word bad = g;
    if (p_position(g) == p_portion(element_of(g))) {
      bool found = false;
      for (std::size_t i = 0; i < g.size() && !found; ++i) {
        if (i > 0 && g[i] == g[i - 1]) continue;
        word rest = g;
        rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
        for (const word& o : options_[g[i]]) {
          const word opt = plus(rest, o);
          if (p_position(opt) != p_portion(element_of(opt))) {
            bad = opt;
            found = true;
            break;
          }
        }
      }
      if (!found) throw std::logic_error("quotient search: the induction failed without a wrong prediction");
    }
    std::vector<word> out;
    for (std::size_t i = 0; i <= bad.size(); ++i)
      out.push_back(word(bad.begin() + static_cast<std::ptrdiff_t>(i), bad.end()));
    return out;
  }

  /// Moore's refinement: true when no two elements agree beside every sum.
  bool minimal() const {
    std::vector<std::uint32_t> cls(reps_.size());
    for (std::size_t x = 0; x < reps_.size(); ++x) cls[x] = static_cast<std::uint32_t>(p_[x]);
    std::size_t count = 0;
    for (;;) {
      std::map<std::vector<std::uint32_t>, std::uint32_t> ids;
      std::vector<std::uint32_t> next(reps_.size());
      for (std::size_t x = 0; x < reps_.size(); ++x) {
        std::vector<std::uint32_t> k{cls[x]};
        for (std::uint32_t l = 0; l < m_; ++l) k.push_back(cls[step(static_cast<std::uint32_t>(x), l)]);
        next[x] = ids.emplace(k, static_cast<std::uint32_t>(ids.size())).first->second;
      }
      cls.swap(next);
      if (ids.size() == count) break;
      count = ids.size();
    }
    return count == reps_.size();
  }

  sum_solver& solver_;
  std::vector<std::uint64_t> letters_;
  std::vector<std::vector<word>> options_;
  std::uint32_t m_;
  std::size_t max_order_;
  std::uint64_t max_signatures_;
  std::vector<word> tests_;
  std::vector<word> reps_;
  std::vector<std::string> rows_;
  std::vector<std::uint32_t> trans_;
  std::vector<char> p_;
};

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

/// The monoid of a proven search: product table, generators (letters whose
/// element earlier generators do not give), normal forms (shortlex least
/// words) and the relations (minimal non-normal words = their normal form).
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

}  // namespace

octal_quotient_report octal_quotient(const octal_quotient_options& opt,
                                     const std::function<void(const std::string&)>& progress) {
  const take_break code = take_break::parse_octal(opt.code);
  if (opt.max_heap < 1 || opt.max_heap > 4096) throw input_error("--max-heap must be 1 to 4096");
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  sum_settings set;
  set.normal = false;
  set.winning_moves = false;
  sum_solver solver(set);
  octal_quotient_report rep;
  rep.code = code.octal_text();
  rep.max_heap = opt.max_heap;
  // The letters: heaps with a move (a heap with none is the game 0).
  std::vector<std::uint64_t> letters;
  std::vector<std::string> names;
  std::vector<int> letter_of(static_cast<std::size_t>(opt.max_heap) + 1, -1);
  const std::string prefix = "octal:" + code.octal_text() + ":";
  for (int h = 1; h <= opt.max_heap; ++h) {
    const auto c = solver.components_of(prefix + std::to_string(h));
    if (c.empty()) continue;
    letter_of[static_cast<std::size_t>(h)] = static_cast<int>(letters.size());
    letters.push_back(c[0]);
    names.push_back("heap " + std::to_string(h));
  }
  std::unordered_map<std::uint64_t, std::uint32_t> letter_index;
  for (std::size_t i = 0; i < letters.size(); ++i) letter_index[letters[i]] = static_cast<std::uint32_t>(i);
  std::vector<std::vector<word>> options;
  for (std::uint64_t c : letters) {
    std::vector<word> os;
    for (const auto& o : solver.options(c)) {
      word w;
      for (std::uint64_t p : o) w.push_back(letter_index.at(p));  // options of a heap are smaller heaps
      std::sort(w.begin(), w.end());
      os.push_back(w);
    }
    options.push_back(os);
  }
  // Heap by heap: the quotient of heaps 1..n, once proven, decides every
  // sum of those heaps in the searches for heaps 1..n+1 (sum_solver's
  // shortcut 4), so only sums with the new heap are searched.
  std::unique_ptr<quotient_search> q;
  bool all_proven = true;
  for (std::size_t n = 1; n <= letters.size(); ++n) {
    std::set<word> tests;  // the last quotient's tests tell its elements apart
    if (q) tests.insert(q->test_sums().begin(), q->test_sums().end());
    q = std::make_unique<quotient_search>(
        solver, std::vector<std::uint64_t>(letters.begin(), letters.begin() + static_cast<std::ptrdiff_t>(n)),
        std::vector<std::vector<word>>(options.begin(), options.begin() + static_cast<std::ptrdiff_t>(n)),
        opt.max_order, opt.max_signatures);
    q->run(std::move(tests), {});
    rep.rounds += q->rounds;
    rep.sums += q->sums;
    rep.signatures += q->signatures;
    if (progress) {
      char line[200];
      std::snprintf(line, sizeof line, "%s: order %zu%s, %llu signatures, %llu sums searched; %.1f s",
                    names[n - 1].c_str(), q->order(), q->proven ? " (proven)" : " (not proven)",
                    static_cast<unsigned long long>(q->signatures), static_cast<unsigned long long>(q->sums),
                    seconds());
      progress(line);
    }
    if (!q->proven) {
      all_proven = false;
      if (rep.why_not.empty()) rep.why_not = names[n - 1] + ": " + q->why_not;
      continue;  // the last proven quotient stays the solver's shortcut
    }
    if (!all_proven) continue;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> element;
    for (std::size_t l = 0; l < n; ++l) element.push_back({letters[l], q->step(0, static_cast<std::uint32_t>(l))});
    solver.use_quotient(element, q->product_table(), q->p_flags());
  }
  if (!q) throw input_error("no heap of 1.." + std::to_string(opt.max_heap) + " has a move in " + code.octal_text());
  rep.quotient = present(*q, names);
  rep.proven = all_proven;
  rep.tests = q->tests();
  for (int h = 0; h <= opt.max_heap; ++h) {
    const int l = letter_of[static_cast<std::size_t>(h)];
    rep.heap_element.push_back(l < 0 ? 0 : q->step(0, static_cast<std::uint32_t>(l)));
  }
  // The check: prediction against a fresh search (its shortcuts are the
  // theorems of sum_solver, not this quotient).
  sum_solver searcher(set);
  std::mt19937_64 pick(opt.seed);
  for (std::uint64_t t = 0; t < opt.check; ++t) {
    const int n = 1 + static_cast<int>(pick() % 4);
    std::vector<std::uint64_t> s;
    std::uint32_t x = 0;
    for (int i = 0; i < n; ++i) {
      const int h = 1 + static_cast<int>(pick() % static_cast<std::uint64_t>(opt.max_heap));
      const auto c = searcher.components_of(prefix + std::to_string(h));
      s.insert(s.end(), c.begin(), c.end());
      x = rep.quotient.times(x, rep.heap_element[static_cast<std::size_t>(h)]);
    }
    ++rep.checked;
    rep.check_agreed += searcher.misere_win_of(s) == !rep.quotient.p_portion[x];
  }
  rep.seconds = seconds();
  rep.memory_bytes = solver.memory_bytes() + searcher.memory_bytes();
  return rep;
}

std::string octal_quotient_json(const octal_quotient_report& rep) {
  const misere_quotient& q = rep.quotient;
  std::vector<std::string> p;
  for (std::size_t x = 0; x < q.order; ++x)
    if (q.p_portion[x]) p.push_back(q.elements[x]);
  nlohmann::ordered_json j;
  j["game"] = "octal";
  j["code"] = rep.code;
  j["max_heap"] = rep.max_heap;
  j["order"] = q.order;
  j["proven"] = rep.proven;
  if (!rep.proven) j["why_not"] = rep.why_not;
  nlohmann::ordered_json gens = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < q.generators.size(); ++i)
    gens.push_back({{"name", q.generators[i]}, {"is", q.generator_of[i]}});
  j["generators"] = gens;
  j["relations"] = q.relations;
  j["elements"] = q.elements;
  j["p_portion"] = p;
  nlohmann::ordered_json heaps = nlohmann::ordered_json::array();
  for (std::size_t h = 1; h < rep.heap_element.size(); ++h) heaps.push_back(q.elements[rep.heap_element[h]]);
  j["heap_elements"] = heaps;  // heap 1 first
  nlohmann::ordered_json table = nlohmann::ordered_json::array();
  for (std::size_t x = 0; x < q.order; ++x) {
    std::vector<std::uint32_t> row(q.table.begin() + static_cast<std::ptrdiff_t>(x * q.order),
                                   q.table.begin() + static_cast<std::ptrdiff_t>((x + 1) * q.order));
    table.push_back(row);
  }
  j["table"] = table;
  j["signatures"] = rep.signatures;
  j["rounds"] = rep.rounds;
  j["tests"] = rep.tests;
  j["sums"] = rep.sums;
  j["checked"] = rep.checked;
  j["check_agreed"] = rep.check_agreed;
  j["seconds"] = rep.seconds;
  return json_text(j);
}

region_classes_report cram_region_classes(const region_classes_options& opt,
                                          const std::function<void(const std::string&)>& progress) {
  const int max_cells = opt.max_cells, company = opt.company;
  const std::uint64_t sample = opt.sample, seed = opt.seed;
  if (max_cells < 1 || max_cells > 12) throw input_error("--max-cells must be 1 to 12");
  if (company < 0 || company > 3) throw input_error("--company must be 0 to 3");
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };

  std::vector<cram_region> regions{cram_region{}};  // the empty region first
  for (const cram_region& r : free_polyominoes(max_cells)) regions.push_back(r);
  sum_settings set;
  set.normal = false;
  set.winning_moves = false;
  sum_solver solver(set);
  std::vector<std::vector<std::uint64_t>> codes;
  for (const cram_region& r : regions)
    codes.push_back(r.cells() ? solver.components_of("cram:" + r.text()) : std::vector<std::uint64_t>());

  // Each region's genus and hereditary tameness (a region of one cell or none
  // is the game 0).
  std::vector<genus> gen(regions.size());
  std::vector<char> hered(regions.size());
  for (std::size_t r = 0; r < regions.size(); ++r) {
    gen[r] = solver.sum_genus(codes[r]);
    hered[r] = 1;
    for (std::uint64_t c : codes[r]) hered[r] = hered[r] && solver.hereditarily_tame(c);
  }

  region_classes_report rep;
  rep.max_cells = max_cells;
  rep.company = company;
  rep.regions = regions.size();
  const std::size_t m = regions.size();
  // Test sums of k regions: C(m + k - 1, k) multisets.
  auto multisets = [&](int k) {
    double n = 1;
    for (int i = 0; i < k; ++i) n = n * static_cast<double>(m + static_cast<std::size_t>(i)) / (i + 1);
    return static_cast<std::uint64_t>(n + 0.5);
  };
  for (int k = 0; k <= company; ++k) rep.tests_total += multisets(k);

  std::vector<std::vector<std::size_t>> classes(1);
  for (std::size_t i = 0; i < m; ++i) classes[0].push_back(i);
  std::vector<std::size_t> active{0};  // classes of two or more regions
  // A class whose regions are all hereditarily tame with one genus: a test
  // of hereditarily tame regions cannot split it (the tame rule gives every
  // member the same outcome), so such tests skip it.
  auto uniform = [&](const std::vector<std::size_t>& c) {
    for (std::size_t r : c)
      if (!hered[r] || gen[r].g != gen[c[0]].g || gen[r].run != gen[c[0]].run) return false;
    return true;
  };
  std::vector<char> is_uniform{static_cast<char>(uniform(classes[0]))};
  double next_report = 5;
  std::vector<std::size_t> test;  // indices into regions, nondecreasing
  auto apply = [&] {
    std::vector<std::uint64_t> tail;
    bool tame_test = true;
    for (std::size_t i : test) {
      tail.insert(tail.end(), codes[i].begin(), codes[i].end());
      tame_test = tame_test && hered[i];
    }
    std::vector<std::size_t> still;
    for (std::size_t c : active) {
      if (tame_test && is_uniform[c]) {
        still.push_back(c);
        ++rep.skipped;
        continue;
      }
      std::vector<std::size_t> win, lose;
      for (std::size_t r : classes[c]) {
        std::vector<std::uint64_t> s = codes[r];
        s.insert(s.end(), tail.begin(), tail.end());
        (solver.misere_win_of(s) ? win : lose).push_back(r);
        ++rep.sums;
      }
      if (win.empty() || lose.empty()) {
        still.push_back(c);
        continue;
      }
      classes[c] = win;
      classes.push_back(lose);
      is_uniform[c] = static_cast<char>(uniform(classes[c]));
      is_uniform.push_back(static_cast<char>(uniform(classes.back())));
      if (win.size() > 1) still.push_back(c);
      if (lose.size() > 1) still.push_back(classes.size() - 1);
    }
    active.swap(still);
    ++rep.tests;
    if (progress && seconds() > next_report) {
      next_report = seconds() + 5;
      std::size_t open = 0;
      for (std::size_t c : active) open += classes[c].size();
      char line[200];
      std::snprintf(line, sizeof line, "test %llu of %llu: %zu classes, %zu regions in classes still open; %.0f s",
                    static_cast<unsigned long long>(rep.tests), static_cast<unsigned long long>(rep.tests_total),
                    classes.size(), open, seconds());
      progress(line);
    }
  };
  // Every multiset of k regions, in lexicographic order, while a class is open.
  auto every_test_of = [&](int k) {
    test.assign(static_cast<std::size_t>(k), 0);
    while (!active.empty()) {
      apply();
      int i = k - 1;  // the next nondecreasing tuple
      while (i >= 0 && test[static_cast<std::size_t>(i)] == m - 1) --i;
      if (i < 0) return;
      const std::size_t v = ++test[static_cast<std::size_t>(i)];
      for (int j = i + 1; j < k; ++j) test[static_cast<std::size_t>(j)] = v;
    }
  };
  rep.sampled = sample > 0 && company > 0;
  for (int k = 0; k <= (rep.sampled ? company - 1 : company); ++k) every_test_of(k);
  std::mt19937_64 rng(seed);
  for (std::uint64_t t = 0; rep.sampled && t < sample && !active.empty(); ++t) {
    test.assign(static_cast<std::size_t>(company), 0);
    for (auto& x : test) x = static_cast<std::size_t>(rng() % m);
    std::sort(test.begin(), test.end());
    apply();
  }

  std::vector<std::size_t> order;  // each class's smallest member (regions are by cells, then key)
  for (const auto& c : classes) order.push_back(*std::min_element(c.begin(), c.end()));
  std::vector<std::size_t> by_rep(classes.size());
  for (std::size_t i = 0; i < by_rep.size(); ++i) by_rep[i] = i;
  std::sort(by_rep.begin(), by_rep.end(), [&](std::size_t a, std::size_t b) { return order[a] < order[b]; });
  std::vector<genus> class_genus;
  for (std::size_t ci : by_rep) {
    const auto& c = classes[ci];
    region_class rc;
    const std::size_t r = order[ci];
    rc.representative = regions[r].text();
    rc.cells = regions[r].cells();
    rc.members = c.size();
    const genus& gn = gen[r];
    rc.genus = gn.symbol();
    rc.tame = gn.tame();
    rep.classes.push_back(rc);
    class_genus.push_back(gn);
  }

  // Hereditary tameness of the whole set, and then its quotient.
  rep.hereditarily_tame = true;
  std::vector<t2_element> element(m);
  for (std::size_t r = 0; r < m; ++r) {
    rep.hereditarily_tame = rep.hereditarily_tame && hered[r];
    rep.max_grundy = std::max(rep.max_grundy, gen[r].g);
  }
  if (rep.hereditarily_tame && rep.max_grundy <= 3) {
    // Misère Nim on the heaps the regions play like: none, *1 only, or heaps
    // of 2 and 3 (with *1) — T0, T1 or T2 (Plambeck and Siegel).
    rep.quotient = rep.max_grundy == 0   ? "the trivial monoid {1}, P-portion {} (every region plays like 0)"
                   : rep.max_grundy == 1 ? "T1 = <a | a^2 = 1>, order 2, P-portion {a}"
                                         : "T2 = <a, b | a^2 = 1, b^3 = b>, order 6, P-portion {a, b^2}";
    for (const genus& gn : class_genus) rep.elements.push_back(element_of(gn).name());
    for (std::size_t r = 0; r < m; ++r) element[r] = element_of(gen[r]);
    sum_settings plain = set;
    plain.shortcuts = false;
    sum_solver searcher(plain);
    std::mt19937_64 pick(seed + 1);
    for (std::uint64_t t = 0; t < opt.check; ++t) {
      const int n = 1 + static_cast<int>(pick() % 4);
      std::vector<std::uint64_t> s;
      t2_element x;
      for (int i = 0; i < n; ++i) {
        const std::size_t r = 1 + static_cast<std::size_t>(pick() % (m - 1));
        s.insert(s.end(), codes[r].begin(), codes[r].end());
        x = x * element[r];
      }
      ++rep.checked;
      rep.check_agreed += searcher.misere_win_of(s) == !x.p_portion();
    }
  }
  rep.seconds = seconds();
  rep.memory_bytes = solver.memory_bytes();
  return rep;
}

}  // namespace cgtb
