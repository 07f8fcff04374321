// `cgtb classify FILE`: the Conway-Gurvich-Ho classification of an impartial
// tablebase (cgtb/classify.hpp; the Row Impartial Terminus paper, section 2B).
#include <cxxopts.hpp>
#include <iostream>

#include "cgtb/classify.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace cgtb::tools {

int cmd_classify(int argc, char** argv) {
  cxxopts::Options o = command_options("classify");
  o.add_options()("json", "one JSON object");
  auto r = tools::parse_file_command(o, argc, argv, "classify");
  tablebase tb(r["file"].as<std::string>(), 0);
  classify_report rep = driver_for_analysis(tb, "classify")->classify(tb);
  if (r.count("json"))
    std::cout << rep.json() << "\n";
  else
    rep.print(std::cout);
  return 0;
}

}  // namespace cgtb::tools
