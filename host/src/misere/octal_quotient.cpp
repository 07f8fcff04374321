// The misère quotient of an octal game's heaps, by guess and prove, and its
// JSON (cgtb/octal_quotient.hpp).
#include "cgtb/octal_quotient.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <unordered_map>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/games/octal.hpp"
#include "cgtb/misere_sum.hpp"
#include "quotient_presentation.hpp"
#include "quotient_search.hpp"

namespace cgtb {

using misere_detail::present;
using misere_detail::quotient_search;
using misere_detail::word;

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
  quotient_status status = quotient_status::proven;  // else the first unproven step's, as why_not
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
                    names[n - 1].c_str(), q->order(), q->proven() ? " (proven)" : " (not proven)",
                    static_cast<unsigned long long>(q->signatures), static_cast<unsigned long long>(q->sums),
                    seconds());
      progress(line);
    }
    if (!q->proven()) {
      if (status == quotient_status::proven) {
        status = q->status;
        rep.why_not = names[n - 1] + ": " + q->why_not;
      }
      continue;  // the last proven quotient stays the solver's shortcut
    }
    if (status != quotient_status::proven) continue;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> element;
    for (std::size_t l = 0; l < n; ++l) element.push_back({letters[l], q->step(0, static_cast<std::uint32_t>(l))});
    solver.use_quotient(element, q->product_table(), q->p_flags());
  }
  if (!q) throw input_error("no heap of 1.." + std::to_string(opt.max_heap) + " has a move in " + code.octal_text());
  rep.quotient = present(*q, names);
  rep.status = status;
  rep.proven = status == quotient_status::proven;
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

}  // namespace cgtb
