// `cgtb classify FILE`: the Conway-Gurvich-Ho classification of an impartial
// tablebase (cgtb/classify.hpp; the Row Impartial Terminus paper, section 2B).
#include <cxxopts.hpp>
#include <iostream>

#include "cgtb/classify.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"
#include "cli.hpp"

namespace cgtb {

int cmd_classify(int argc, char** argv) {
  cxxopts::Options o("cgtb classify",
                     "Conway-Gurvich-Ho classification of the game restricted to the positions of an impartial\n"
                     "tablebase: forced, miserable, pet (the Row Impartial Terminus paper, section 2B), with a witness "
                     "for each property\n"
                     "that fails, and the number of positions with each Conway pair (G, G-).\n"
                     "Needs normal and misere values (build with --values all).");
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

}  // namespace cgtb
