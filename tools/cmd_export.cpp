// `cgtb export FILE`: every stored position with its values (cgtb/export.hpp).
#include <cxxopts.hpp>
#include <iostream>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/export.hpp"
#include "cgtb/tablebase.hpp"
#include "cli.hpp"

namespace cgtb {

int cmd_export(int argc, char** argv) {
  cxxopts::Options o("cgtb export",
                     "Every stored position of a tablebase with its values, one row per position in rank order:\n"
                     "level, rank, position, the orbit size (symmetry-reduced tables: each row stands for a\n"
                     "class of that many positions), then every field. CSV with a header row, or JSON lines.");
  o.add_options()("level", "export this level only", cxxopts::value<int>())(
      "format", "csv or jsonl", cxxopts::value<std::string>()->default_value("csv"));
  auto r = tools::parse_file_command(o, argc, argv, "export");
  const export_format fmt = parse_export_format(r["format"].as<std::string>());
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

}  // namespace cgtb
