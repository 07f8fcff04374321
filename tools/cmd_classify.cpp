// `cgtb classify FILE`: the Conway-Gurvich-Ho classification of an impartial
// tablebase (cgtb/classify.hpp; seed 003, section 2B).
#include <cxxopts.hpp>
#include <iostream>

#include "cgtb/classify.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"

namespace cgtb {

int cmd_classify(int argc, char** argv) {
  cxxopts::Options o("cgtb classify",
                     "Conway-Gurvich-Ho classification of the game restricted to the positions of an impartial\n"
                     "tablebase: forced, miserable, pet (seed 003, section 2B), with a witness for each property\n"
                     "that fails, and the number of positions with each Conway pair (G, G-).\n"
                     "Needs normal and misere values (build with --values all).");
  o.positional_help("FILE");
  o.add_options()("file", "tablebase", cxxopts::value<std::string>())("json", "one JSON object")("h,help",
                                                                                                 "show this help");
  o.parse_positional({"file"});
  auto r = o.parse(argc, argv);
  if (r.count("help")) {
    std::cout << o.help();
    return 0;
  }
  if (!r.count("file")) throw input_error("classify needs a tablebase file (cgtb classify FILE)");
  if (!r.unmatched().empty())
    throw input_error("classify takes one tablebase file; unexpected '" + r.unmatched()[0] + "'");
  tablebase tb(r["file"].as<std::string>(), 0);
  auto drv = driver_for_header(tb.header());
  const auto* an = dynamic_cast<const impartial_analyses*>(drv.get());
  if (!an) throw input_error("classify needs an impartial tablebase; '" + tb.path() + "' holds " + tb.header().ruleset);
  classify_report rep = an->classify(tb);
  if (r.count("json"))
    std::cout << rep.json() << "\n";
  else
    rep.print(std::cout);
  return 0;
}

}  // namespace cgtb
