// `cgtb table`: G_s of a scoring tablebase laid out like the tables of F.
// Stewart, Scoring Play Combinatorial Games, chapters 3 and 4 (rows m of the right-hand game, columns n of the
// left-hand game), as aligned text or CSV.
#include <algorithm>
#include <cxxopts.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/scoring_driver.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace cgtb::tools {

namespace {

/// Parses "A..B" (or a single "A") into [lo, hi]; throws input_error.
std::pair<int, int> parse_range(const std::string& s, const std::string& what) {
  auto dots = s.find("..");
  auto num = [&](const std::string& t) {
    if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos)
      throw input_error(what + " '" + s + "' is not a range A..B of heap sizes");
    return std::stoi(t);
  };
  if (dots == std::string::npos) return {num(s), num(s)};
  int lo = num(s.substr(0, dots)), hi = num(s.substr(dots + 2));
  if (lo > hi) throw input_error(what + " '" + s + "' is empty (A > B)");
  return {lo, hi};
}

}  // namespace

int cmd_table(int argc, char** argv) {
  cxxopts::Options o = command_options("table");
  o.add_options()("rows", "heaps m of the rows, A..B", cxxopts::value<std::string>()->default_value("0..12"))(
      "cols", "heaps n of the columns, A..B", cxxopts::value<std::string>()->default_value("0..12"))(
      "csv", "comma-separated values");
  auto r = parse_file_command(o, argc, argv, "table", "scoring tablebase");
  tablebase tb(r["file"].as<std::string>(), std::size_t{256} << 20);
  driver_for_analysis(tb, "table");
  scoring_lookup look(tb);
  auto [c0, c1] = parse_range(r["cols"].as<std::string>(), "--cols");
  auto [r0, r1] = parse_range(r["rows"].as<std::string>(), "--rows");
  if (!look.two_heaps()) r0 = r1 = 0;
  // The default range 0..12 is cut to a smaller table; a range given
  // explicitly must fit.
  if (!r["cols"].count()) c1 = std::min(c1, look.max());
  if (!r["rows"].count()) r1 = std::min(r1, look.max());
  for (int x : {c1, r1})
    if (x > look.max())
      throw input_error("heap " + std::to_string(x) + " is over the table's range 0.." + std::to_string(look.max()));
  const bool csv = r.count("csv") > 0;
  const std::string corner = look.two_heaps() ? std::string("n") + sum_op_symbol(look.op()) + "m" : std::string("n");
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> head{corner};
  for (int n = c0; n <= c1; ++n) head.push_back(std::to_string(n));
  cells.push_back(head);
  for (int m = r0; m <= r1; ++m) {
    std::vector<std::string> row{look.two_heaps() ? std::to_string(m) : "G_s(n)"};
    for (int n = c0; n <= c1; ++n) row.push_back(std::to_string(look.at(n, m)));
    cells.push_back(row);
  }
  if (csv) {
    for (const auto& row : cells) {
      for (std::size_t i = 0; i < row.size(); ++i) std::cout << (i ? "," : "") << row[i];
      std::cout << "\n";
    }
    return 0;
  }
  std::size_t w0 = 0, w = 0;
  for (const auto& row : cells) {
    w0 = std::max(w0, row[0].size());
    for (std::size_t i = 1; i < row.size(); ++i) w = std::max(w, row[i].size());
  }
  std::cout << "# " << look.describe() << (look.two_heaps() ? "; rows m, columns n" : "") << "\n";
  for (const auto& row : cells) {
    std::cout << row[0] << std::string(w0 - row[0].size(), ' ');
    for (std::size_t i = 1; i < row.size(); ++i) std::cout << std::string(w + 1 - row[i].size(), ' ') << row[i];
    std::cout << "\n";
  }
  return 0;
}

}  // namespace cgtb::tools
