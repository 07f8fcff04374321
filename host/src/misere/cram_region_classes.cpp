// Bounded misère classes of Cram regions, by partition refinement
// (cgtb/cram_region_classes.hpp).
#include "cgtb/cram_region_classes.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

#include "cgtb/cram_region.hpp"
#include "cgtb/error.hpp"
#include "cgtb/genus.hpp"
#include "cgtb/misere_sum.hpp"

namespace cgtb {

namespace {

/// An element a^alpha b^beta of T2 = <a, b | a^2 = 1, b^3 = b>, the
/// misère quotient of Nim heaps of up to 3 (Plambeck and Siegel, "Misère
/// quotients for impartial games", section on misère Nim): product by
/// operator*, membership of the P-portion {a, b^2}, and its name.
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

}  // namespace

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
