// `cgtb sum TERM...`: outcomes of disjunctive sums under normal and misère
// play, with the winning moves (cgtb/misere_sum.hpp, docs/misere.md).
#include <unistd.h>

#include <chrono>
#include <cxxopts.hpp>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/front_end.hpp"
#include "cgtb/misere_sum.hpp"
#include "cgtb/text.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace cgtb::tools {

namespace {

void print_answer(const sum_answer& a, bool json, std::ostream& out) {
  if (json) {
    out << sum_answer_json(a) << "\n";
    return;
  }
  auto join = [&](const std::vector<sum_move>& ms, char outcome) {
    if (!a.moves_listed) return std::string();
    std::string s = ", winning moves: ";
    for (const auto& m : ms)
      s += (&m == &ms.front() ? "" : ", ") + std::string("[") + std::to_string(m.term) + "] " + m.move;
    return !ms.empty() ? s : s + no_winning_moves_text(outcome == 'N');
  };
  out << a.text << "\n";
  if (a.normal)
    out << "  normal  nim-sum " << a.grundy << ", outcome " << a.normal_outcome
        << join(a.normal_winning, a.normal_outcome) << "\n";
  if (a.misere)
    out << "  misere  outcome " << a.misere_outcome << join(a.misere_winning, a.misere_outcome) << "  (" << a.searched
        << (a.searched == 1 ? " sum searched)\n" : " sums searched)\n");
}

}  // namespace

int cmd_sum(int argc, char** argv) {
  cxxopts::Options o = command_options("sum");
  o.positional_help("[TERM...]");
  o.add_options()("json", "one JSON object per sum")("play", "normal, misere or both",
                                                     cxxopts::value<std::string>()->default_value("both"))(
      "no-moves", "outcomes only (listing every winning move costs one search per option)")(
      "no-shortcuts", "search every misere sum move by move (no theorem shortcuts)")(
      "memo-mb", "the misere memo is emptied when it grows past this many MB",
      cxxopts::value<std::size_t>()->default_value("2048"))(
      "cache-mb", "decompressed-block cache per tablebase file, in MB",
      cxxopts::value<std::size_t>()->default_value("256"))("stats", "print the search's counters on stderr at the end")(
      "flush", "answer each stdin line as soon as it is read (for use through a pipe)");
  auto r = tools::parse_or_help(o, argc, argv,
                                "\nExamples:\n"
                                "  cgtb sum cram-3x4.cgtb:..../..../.... '*1' '*2'\n"
                                "  cgtb sum cram:....../....../...... cram:...../...../...../.....\n"
                                "  cgtb sum octal:0.77:3,4 octal:0.77:5 '*1'\n"
                                "  printf 'a.cgtb:..../..../.... + *3\\n' | cgtb sum --json\n");
  sum_settings s;
  const std::string play = r["play"].as<std::string>();
  if (play != "normal" && play != "misere" && play != "both")
    throw input_error("--play " + play + ": use normal, misere or both");
  s.normal = play != "misere";
  s.misere = play != "normal";
  s.winning_moves = !r.count("no-moves");
  s.shortcuts = !r.count("no-shortcuts");
  s.memo_bytes = r["memo-mb"].as<std::size_t>() << 20;
  s.cache_bytes = r["cache-mb"].as<std::size_t>() << 20;
  const bool json = r.count("json") > 0;
  sum_solver solver(s);
  const auto t0 = std::chrono::steady_clock::now();
  std::uint64_t sums = 0;
  std::ostringstream buf;
  auto flush = [&] {
    std::cout << buf.str() << std::flush;
    buf.str("");
  };
  std::vector<std::string> terms;  // a lone "+" between arguments is skipped, as on stdin
  for (const std::string& a : r.unmatched())
    if (a != "+") terms.push_back(a);
  if (!terms.empty()) {
    print_answer(solver.solve(terms), json, buf);
    ++sums;
  } else {
    const bool each_line = r.count("flush") > 0 || isatty(0);
    std::string line;
    for (std::uint64_t number = 1; read_position_line(std::cin, line); ++number) {
      try {
        const std::string t = clean_position_text(line);
        if (t.empty() || t[0] == '%') continue;
        print_answer(solver.solve(split_sum_terms(t)), json, buf);
        ++sums;
      } catch (const input_error& e) {
        flush();  // the answers before the bad line are complete
        throw input_error("line " + std::to_string(number) + ": " + e.what());
      }
      if (each_line || buf.tellp() > (1 << 20)) flush();
    }
  }
  flush();
  if (r.count("stats")) {
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const sum_stats st = solver.stats();
    std::cerr << std::fixed << std::setprecision(2) << "[cgtb] " << sums << " sums in " << secs << " s ("
              << std::setprecision(1) << (secs > 0 ? static_cast<double>(sums) / secs : 0.0) << " sums/s); "
              << st.expanded << " searched, " << st.memo_hits << " memo hits, decided by value " << st.by_value
              << ", by genus run " << st.by_genus_run << ", by the tame rule " << st.by_tame << "; " << st.components
              << " component positions, memo " << st.memo_entries << " sums (" << (solver.memory_bytes() >> 20)
              << " MB)" << (st.memo_clears ? ", emptied " : "")
              << (st.memo_clears ? std::to_string(st.memo_clears) + " times" : std::string()) << "\n";
  }
  return 0;
}

}  // namespace cgtb::tools
