// `cgtb export FILE`: every stored position with its values (cgtb/export.hpp).
#include <cxxopts.hpp>
#include <iostream>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/export.hpp"
#include "cgtb/tablebase.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace cgtb::tools {

int cmd_export(int argc, char** argv) {
  cxxopts::Options o = command_options("export");
  o.add_options()("level", "export this level only", cxxopts::value<int>())(
      "format",
      "csv or jsonl; every field is its stored integer (an outcome class code: 0 P, 1 L, 2 R, 3 N, docs/partizan.md)",
      cxxopts::value<std::string>()->default_value("csv"))("json", "JSON lines: the same as --format jsonl");
  auto r = tools::parse_file_command(o, argc, argv, "export");
  if (r.count("json") && r.count("format") && r["format"].as<std::string>() != "jsonl")
    throw input_error("--json and --format " + r["format"].as<std::string>() + " ask for different formats");
  const export_format fmt = r.count("json") ? export_format::jsonl : parse_export_format(r["format"].as<std::string>());
  int level = -1;
  if (r.count("level")) {
    level = r["level"].as<int>();
    if (level < 0) throw input_error("--level " + std::to_string(level) + " is negative");
  }
  tablebase tb(r["file"].as<std::string>());
  const auto drv = driver_for_header(tb.header());
  std::ios::sync_with_stdio(false);
  export_table(tb, *drv, level, fmt, std::cout);
  std::cout.flush();
  if (!std::cout) throw input_error("writing the export to standard output failed");
  return 0;
}

}  // namespace cgtb::tools
