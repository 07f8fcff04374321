// `cgtb intervals FILE`: the safe pile sizes at move 1 of a Blocking Nim
// tablebase as maximal intervals ("Dynamic One-Pile Blocking Nim", Theorem 1 describes them as a
// union of intervals [A_k, B_k - 1]).
#include <cxxopts.hpp>
#include <iostream>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/value_kinds.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace cgtb::tools {

int cmd_intervals(int argc, char** argv) {
  cxxopts::Options o = command_options("intervals");
  auto r = tools::parse_file_command(o, argc, argv, "intervals");
  tablebase tb(r["file"].as<std::string>(), std::size_t{64} << 20);
  driver_for_analysis(tb, "intervals");
  const int fs = tb.header().field_index(cgtb::field_name::safe);
  int top = -1;
  for (const auto& l : tb.levels()) top = std::max(top, l.level);
  std::cout << "blocking-nim " << tb.header().params << "\nsafe pile sizes at move 1 (piles 0.." << top << "):";
  int start = -1;
  for (int p = 0; p <= top + 1; ++p) {
    const bool safe = p <= top && tb.value(p, 0, fs) != 0;
    if (safe && start < 0) start = p;
    if (!safe && start >= 0) {
      std::cout << " [" << start << "," << p - 1 << "]" << (p - 1 == top ? "..." : "");
      start = -1;
    }
  }
  std::cout << "\n";
  return 0;
}

}  // namespace cgtb::tools
