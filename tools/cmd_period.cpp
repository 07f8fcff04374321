// `cgtb period`: the period of an octal Grundy sequence, proven by the octal
// periodicity theorem (cgtb/octal_sequence.hpp); or the preperiod and period
// of G_s(n), and of each row G_s(n ⋆ m) with m fixed, in a scoring
// tablebase, with the evidence.
#include <cxxopts.hpp>
#include <iostream>
#include <string>

#include "cgtb/driver.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace cgtb::tools {

int cmd_period(int argc, char** argv) {
  cxxopts::Options o = command_options("period");
  o.add_options()("rows", "rows m to examine, A..B (two-heap files)",
                  cxxopts::value<std::string>()->default_value("0..12"))(
      "repeats", "full periods that must follow the preperiod", cxxopts::value<int>()->default_value("2"));
  auto r = parse_file_command(o, argc, argv, "period", "octal sequence or scoring tablebase");
  game_driver::period_request req;
  req.repeats = r["repeats"].as<int>();
  req.rows = r["rows"].as<std::string>();
  tablebase tb(r["file"].as<std::string>(), std::size_t{256} << 20);
  return driver_for_analysis(tb, "period")->period(tb, req, std::cout);
}

}  // namespace cgtb::tools
