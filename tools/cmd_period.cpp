// `cgtb period`: the period of an octal Grundy sequence, proven by the octal
// periodicity theorem (cgtb/octal_sequence.hpp); or the preperiod and period
// of G_s(n), and of each row G_s(n ⋆ m) with m fixed, in a scoring
// tablebase, with the evidence.
#include <cxxopts.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/octal_sequence.hpp"
#include "cgtb/periodicity.hpp"
#include "cgtb/scoring_driver.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace cgtb::tools {

namespace {

/// `cgtb period` of an octal sequence: the proven period and the sparse
/// space of the values. Exit status 0 when a period is proven, 4 when not.
int octal_period_report(tablebase& tb, std::ostream& out) {
  const std::string params = tb.header().params;
  const take_break code = take_break::parse_octal(params.substr(0, params.rfind('-')));
  const std::vector<std::uint16_t> s = read_octal_sequence(tb);
  out << "octal " << code.octal_text() << ", heaps 0.." << s.size() - 1 << "\n";
  const octal_period p = prove_octal_period(s.data(), s.size(), code.max_take);
  out << "G(n): " << p.text() << "\n";
  value_histogram h;
  for (std::uint64_t n = 0; n < s.size(); ++n) h.add(n, s[n]);
  out << "sparse space: " << sparse_space_of(s.data(), s.size(), best_split(h, split_takes(code))).text() << "\n";
  return p.proven ? 0 : 4;
}

}  // namespace

int cmd_period(int argc, char** argv) {
  cxxopts::Options o = command_options("period");
  o.add_options()("rows", "rows m to examine, A..B (two-heap files)",
                  cxxopts::value<std::string>()->default_value("0..12"))(
      "repeats", "full periods that must follow the preperiod", cxxopts::value<int>()->default_value("2"));
  auto r = parse_file_command(o, argc, argv, "period", "octal sequence or scoring tablebase");
  const int repeats = r["repeats"].as<int>();
  if (repeats < 1) throw input_error("--repeats must be >= 1");
  tablebase tb(r["file"].as<std::string>(), std::size_t{256} << 20);
  driver_for_analysis(tb, "period");
  if (tb.header().family == "impartial") return octal_period_report(tb, std::cout);
  scoring_lookup look(tb);
  const int N = look.max();
  std::cout << look.describe() << ", n = 0.." << N << "\n";
  auto row = [&](int m) {
    std::vector<std::int64_t> s;
    for (int n = 0; n <= N; ++n) s.push_back(look.at(n, m));
    return s;
  };
  if (!look.two_heaps()) {
    std::cout << "G_s(n): " << find_period(row(0), look.recurrent() ? look.window() : 0, repeats).text() << "\n";
    return 0;
  }
  std::string rows = r["rows"].as<std::string>();
  auto dots = rows.find("..");
  if (dots == std::string::npos || rows.find_first_not_of("0123456789.") != std::string::npos)
    throw input_error("--rows '" + rows + "' is not a range A..B");
  int m0 = std::stoi(rows.substr(0, dots)), m1 = std::stoi(rows.substr(dots + 2));
  if (m1 > N) throw input_error("row " + std::to_string(m1) + " is over the table's range 0.." + std::to_string(N));
  for (int m = m0; m <= m1; ++m)
    std::cout << "m = " << m << ": G_s(n " << sum_op_symbol(look.op()) << " " << m
              << "): " << find_period(row(m), 0, repeats).text() << "\n";
  return 0;
}

}  // namespace cgtb::tools
