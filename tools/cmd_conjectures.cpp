// `cgtb conjectures`: the conjectures of Stewart's thesis (Scoring Play Combinatorial Games) checked over whole
// families of scoring octal games in parallel (cgtb/conjectures.hpp): Conjecture 3.1.1 with Lemma 3.1.1 (subtraction
// sets), Conjecture 3.1.2 (taking-no-breaking codes), Conjecture 4.2.3 (selective vs disjunctive sum).
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cxxopts.hpp>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "cgtb/conjectures.hpp"
#include "cgtb/error.hpp"
#include "cgtb/games/scoring_octal.hpp"
#include "cgtb/periodicity.hpp"
#include "commands.hpp"

namespace cgtb::tools {

namespace {

using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

std::string set_text(std::uint64_t mask) {
  std::string s = "{";
  for (int i = 0; mask; ++i, mask >>= 1)
    if (mask & 1) s += (s.size() > 1 ? "," : "") + std::to_string(i + 1);
  return s + "}";
}

std::string code_text(int K, std::uint64_t index) {
  std::string s;
  for (int i = 1; i <= K; ++i) s += static_cast<char>('0' + ((index >> (2 * (i - 1))) & 3));
  while (!s.empty() && s.back() == '0') s.pop_back();
  return s;
}

/// G_s(0..bound) of a subtraction set (p_i = i), on the host.
std::vector<std::int64_t> subtraction_values(std::uint64_t mask, int bound) {
  const std::string set = set_text(mask);
  return gs_sequence(take_break::subtraction(set.substr(1, set.size() - 2), ""), bound);
}

int cmd_subtraction(const cxxopts::ParseResult& r, const solve_options& opts) {
  const int kmax = r["max-k"].as<int>(), bound = r["bound"].as<int>();
  const int kmin = r["from"].as<int>();
  if (kmax < 1 || kmax > kMaxConjectureK) throw input_error("-k must be in 1.." + std::to_string(kMaxConjectureK));
  if (kmin < 1 || kmin > kmax) throw input_error("--from must be in 1..k");
  if (bound < 4 * kmax) throw input_error("--bound must be at least 4k");
  std::printf(
      "Conjecture 3.1.1 (eventually G_s(n+k) = k - G_s(n)) and Lemma 3.1.1, every subtraction set S with\n"
      "max S = k, p_i = i, G_s computed up to n = %d (settled sets stop once proven), backend %s\n",
      bound, backend_name(opts.backend));
  std::printf("%3s %10s %10s %8s %12s %-28s %6s %9s %12s\n", "k", "sets", "settled", "late", "largest N", "witness",
              "lemma", "seconds", "sets/s");
  auto t_all = clock_type::now();
  std::uint64_t total = 0, undetermined_total = 0, lemma_total = 0, counter_total = 0;
  std::string first_counter, first_lemma, first_undetermined;
  std::vector<subtraction_result> out;
  for (int k = kmin; k <= kmax; ++k) {
    const std::uint64_t n = std::uint64_t{1} << (k - 1);
    out.resize(n);
    auto t0 = clock_type::now();
    run_subtraction_check(k, bound, opts, out.data());
    const double secs = since(t0);
    std::uint64_t settled = 0, late = 0, lemma = 0;
    std::int32_t worst = -1;
    std::uint64_t worst_low = 0;
    for (std::uint64_t low = 0; low < n; ++low) {
      const auto& x = out[low];
      const std::uint64_t mask = low | (std::uint64_t{1} << (k - 1));
      if (x.lemma_fail >= 0) {
        if (!lemma++ && first_lemma.empty()) first_lemma = set_text(mask) + " at n = " + std::to_string(x.lemma_fail);
      }
      if (x.settle >= 0) {
        ++settled;
        if (x.settle > worst) worst = x.settle, worst_low = low;
        continue;
      }
      // Not settled within the bound: recheck on the host with 16 times the bound.
      ++late;
      subtraction_result y = subtraction_check{k, bound * 16, nullptr}.run(low);
      if (y.settle >= 0) {
        ++settled;
        if (y.settle > worst) worst = y.settle, worst_low = low;
        continue;
      }
      auto g = subtraction_values(mask, bound * 16);
      period_report pr = find_period(g, k, 2);
      bool fails = false;
      if (pr.found && pr.proven)
        for (int m = pr.preperiod; m < pr.preperiod + pr.period; ++m)
          if (g[static_cast<std::size_t>(m + k)] != k - g[static_cast<std::size_t>(m)]) fails = true;
      if (fails) {
        if (!counter_total++) first_counter = set_text(mask) + ": " + pr.text();
      } else {
        if (!undetermined_total++) first_undetermined = set_text(mask);
      }
    }
    total += n;
    lemma_total += lemma;
    std::printf("%3d %10llu %10llu %8llu %12d %-28s %6llu %9.3f %12.0f\n", k, static_cast<unsigned long long>(n),
                static_cast<unsigned long long>(settled), static_cast<unsigned long long>(late), worst,
                worst >= 0 ? set_text(worst_low | (std::uint64_t{1} << (k - 1))).c_str() : "-",
                static_cast<unsigned long long>(lemma), secs, secs > 0 ? n / secs : 0.0);
    std::fflush(stdout);
  }
  const double secs = since(t_all);
  std::printf("total: %llu sets with max <= %d in %.3f s (%.0f sets/s, host rechecks included)\n",
              static_cast<unsigned long long>(total), kmax, secs, total / secs);
  std::printf("Lemma 3.1.1: %s\n",
              lemma_total ? ("FAILS for " + std::to_string(lemma_total) + " sets, first " + first_lemma).c_str()
                          : "holds for every set (checked through a full period after N)");
  if (counter_total)
    std::printf("Conjecture 3.1.1: COUNTEREXAMPLE(S): %llu, smallest %s\n",
                static_cast<unsigned long long>(counter_total), first_counter.c_str());
  else if (undetermined_total)
    std::printf("Conjecture 3.1.1: no counterexample; %llu sets undetermined up to n = %d (first %s)\n",
                static_cast<unsigned long long>(undetermined_total), bound * 16, first_undetermined.c_str());
  else
    std::printf("Conjecture 3.1.1: proven for every subtraction set with max S <= %d (k from %d)\n", kmax, kmin);
  return 0;
}

int cmd_codes(const cxxopts::ParseResult& r, const solve_options& opts) {
  const int K = r["max-k"].as<int>(), bound = r["bound"].as<int>();
  if (K < 1 || K > 15) throw input_error("-k (code length) must be in 1..15 for codes");
  if (bound < 6 * K) throw input_error("--bound must be at least 6k");
  const int rows = r.count("rows") ? r["rows"].as<int>() : 1;
  if (rows < 1 || rows > kMaxCodeRows)
    throw input_error("--rows must be in 1.." + std::to_string(kMaxCodeRows) + " for codes");
  const std::uint64_t n = std::uint64_t{1} << (2 * K);
  std::vector<code_result> out(n);
  std::printf(
      "Conjecture 3.1.2: G_s(n + 2k +_l m) = G_s(n +_l m) eventually, k = largest i with n_i in {2,3}, for\n"
      "every taking-no-breaking code of length <= %d (digits 0-3, p_i = i) and m = 0..%d a heap of the same\n"
      "game, G_s up to n = %d, backend %s\n",
      K, rows - 1, bound, backend_name(opts.backend));
  auto t0 = clock_type::now();
  run_code_check(K, bound, opts, out.data(), rows);
  const double secs = since(t0);
  std::uint64_t family = 0, settled = 0, undetermined = 0, counter = 0;
  std::int32_t worst = -1;
  std::uint64_t worst_i = 0;
  std::string first_counter, first_undetermined;
  for (std::uint64_t i = 0; i < n; ++i) {
    code_result x = out[i];
    if (x.settle == -2) continue;
    ++family;
    if (x.settle < 0) x = code_check{K, bound * 16, nullptr, rows}.run(i);
    if (x.settle >= 0) {
      ++settled;
      if (x.settle > worst) worst = x.settle, worst_i = i;
      continue;
    }
    // Still open: look for a proven period of G_s(n) that 2k is not a multiple of.
    if (rows > 1) {
      if (!undetermined++) first_undetermined = code_text(K, i);
      continue;
    }
    int len = 0;
    for (int t = 1; t <= K; ++t)
      if ((i >> (2 * (t - 1))) & 3) len = t;
    const std::vector<std::int64_t> g = gs_sequence(take_break::parse_scoring(code_text(K, i), ""), bound * 16);
    period_report pr = find_period(g, len, 2);
    if (pr.found && pr.proven && (2 * x.k) % pr.period != 0) {
      if (!counter++) first_counter = "(" + code_text(K, i) + ", p_i = i): " + pr.text();
    } else if (!undetermined++) {
      first_undetermined = code_text(K, i);
    }
  }
  const double all = since(t0);
  std::printf("codes: %llu (%llu in the family), settled %llu, largest N %d for code %s\n",
              static_cast<unsigned long long>(n), static_cast<unsigned long long>(family),
              static_cast<unsigned long long>(settled), worst, worst >= 0 ? code_text(K, worst_i).c_str() : "-");
  std::printf("time: kernel %.3f s (%.0f codes/s), total %.3f s\n", secs, n / secs, all);
  if (counter)
    std::printf("Conjecture 3.1.2: COUNTEREXAMPLE(S): %llu, smallest %s\n", static_cast<unsigned long long>(counter),
                first_counter.c_str());
  else if (undetermined)
    std::printf("Conjecture 3.1.2: no counterexample; %llu codes undetermined up to n = %d (first %s)\n",
                static_cast<unsigned long long>(undetermined), bound * 16, first_undetermined.c_str());
  else
    std::printf("Conjecture 3.1.2: proven for every code of length <= %d and m = 0..%d\n", K, rows - 1);
  return 0;
}

int cmd_selective(const cxxopts::ParseResult& r, const solve_options& opts) {
  const int k = r["max-k"].as<int>(), bound = r["bound"].as<int>(), rows = r.count("rows") ? r["rows"].as<int>() : 9;
  if (k < 1 || k > 16) throw input_error("-k must be in 1..16 for the selective check");
  if (rows < 1) throw input_error("--rows must be 1 or more for the selective check");
  const std::uint64_t items = (std::uint64_t{1} << k) - 1;
  std::vector<std::int32_t> out(items * static_cast<std::uint64_t>(rows) * 4);
  std::printf(
      "Conjecture 4.2.3: period of G_s(n + m) vs G_s(n v m), m = 0..%d fixed, n = 0..%d, both heaps\n"
      "of the same subtraction set S (max S <= %d, p_i = i); apparent periods (2 full periods after the\n"
      "last exception within the range), backend %s\n",
      rows - 1, bound, k, backend_name(opts.backend));
  auto t0 = clock_type::now();
  run_selective_check(k, bound, rows, opts, out.data());
  const double secs = since(t0);
  std::uint64_t same = 0, differ = 0, unknown = 0;
  std::string first;
  for (std::uint64_t i = 0; i < items; ++i)
    for (int m = 0; m < rows; ++m) {
      const std::int32_t* o = &out[(i * static_cast<std::uint64_t>(rows) + static_cast<std::uint64_t>(m)) * 4];
      if (o[0] == 0 || o[2] == 0) {
        ++unknown;
      } else if (o[0] == o[2]) {
        ++same;
      } else if (!differ++) {
        first = "S = " + set_text(i + 1) + ", m = " + std::to_string(m) + ": disjunctive period " +
                std::to_string(o[0]) + " (preperiod " + std::to_string(o[1]) + "), selective period " +
                std::to_string(o[2]) + " (preperiod " + std::to_string(o[3]) + ")";
      }
    }
  std::printf("rows: %llu same period, %llu different, %llu without an apparent period; %.3f s (%.0f sets/s)\n",
              static_cast<unsigned long long>(same), static_cast<unsigned long long>(differ),
              static_cast<unsigned long long>(unknown), secs, items / secs);
  if (differ)
    std::printf("Conjecture 4.2.3: COUNTEREXAMPLE (apparent), smallest %s\n", first.c_str());
  else
    std::printf("Conjecture 4.2.3: no counterexample in this family\n");
  return 0;
}

}  // namespace

int cmd_conjectures(int argc, char** argv) {
  cxxopts::Options o = command_options("conjectures");
  o.positional_help("subtraction|codes|selective");
  o.add_options()("which", "the check", cxxopts::value<std::string>())(
      "k,max-k", "largest take (subtraction, selective) or code length (codes)",
      cxxopts::value<int>()->default_value("20"))("from", "smallest k of the subtraction check",
                                                  cxxopts::value<int>()->default_value("1"))(
      "bound", "largest n computed per game", cxxopts::value<int>()->default_value("2000"))(
      "rows", "rows m = 0..rows-1 (selective: default 9; codes: default 1, at most 16)", cxxopts::value<int>())(
      "backend", "cpu or cuda", cxxopts::value<std::string>()->default_value("cpu"))(
      "threads", "CPU threads (0 = all cores)", cxxopts::value<int>()->default_value("0"))("h,help", "show this help");
  o.parse_positional({"which"});
  auto r = o.parse(argc, argv);
  if (r.count("help") || !r.count("which")) {
    std::cout << o.help();
    return r.count("help") ? 0 : 2;
  }
  if (!r.unmatched().empty()) throw input_error("unexpected argument '" + r.unmatched()[0] + "'");
  solve_options opts;
  opts.backend = parse_backend(r["backend"].as<std::string>());
  require_backend(opts.backend);
  opts.threads = r["threads"].as<int>();
  if (opts.threads < 0) throw input_error("--threads must be >= 0");
  if (r["bound"].as<int>() > (1 << 20)) throw input_error("--bound must be at most 1048576");
  const std::string which = r["which"].as<std::string>();
  if (which == "subtraction") return cmd_subtraction(r, opts);
  if (which == "codes") return cmd_codes(r, opts);
  if (which == "selective") return cmd_selective(r, opts);
  throw input_error("unknown check '" + which + "' (expected subtraction, codes or selective)");
}

}  // namespace cgtb::tools
