// `cgtb quotient cram`: bounded misère classes of small Cram regions
// (cgtb/misere_quotient.hpp, docs/misere.md).
#include <unistd.h>

#include <cxxopts.hpp>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/misere_quotient.hpp"
#include "cli.hpp"

namespace cgtb {

int cmd_quotient(int argc, char** argv) {
  cxxopts::Options o("cgtb quotient",
                     "How many misere-distinguishable classes the Cram regions of at most N empty cells form\n"
                     "(connected regions up to translation, rotation and reflection, and the empty region): two\n"
                     "regions are in one class when every misere sum of either with up to K further regions of the\n"
                     "set has the same outcome. The count is a lower bound on the number of misere quotient\n"
                     "elements the regions take (docs/misere.md).");
  o.positional_help("cram");
  o.add_options()("game", "the game (cram)", cxxopts::value<std::string>())(
      "max-cells", "regions of at most N empty cells (1-12)", cxxopts::value<int>()->default_value("6"))(
      "company", "test sums with up to K further regions (0-3)", cxxopts::value<int>()->default_value("2"))(
      "sample", "test with N random multisets of K regions (after every smaller test) instead of all",
      cxxopts::value<std::uint64_t>()->default_value("0"))("seed", "seed of --sample",
                                                           cxxopts::value<std::uint64_t>()->default_value("1"))(
      "check", "compare the quotient's prediction with a search on N random sums of 1-4 regions",
      cxxopts::value<std::uint64_t>()->default_value("10000"))(
      "list", "list every class: representative, cells, members, genus")("json", "one JSON object")(
      "q,quiet", "no progress lines");
  o.parse_positional({"game"});
  auto r = tools::parse_or_help(o, argc, argv);
  if (!r.count("game")) throw input_error("quotient needs a game: cgtb quotient cram --max-cells N");
  if (r["game"].as<std::string>() != "cram")
    throw input_error("cgtb quotient computes classes of Cram regions only ('" + r["game"].as<std::string>() +
                      "' is not available)");
  if (!r.unmatched().empty()) throw input_error("unexpected argument '" + r.unmatched()[0] + "'");
  const bool progress = !r.count("quiet") && isatty(2);
  region_classes_options opt;
  opt.max_cells = r["max-cells"].as<int>();
  opt.company = r["company"].as<int>();
  opt.sample = r["sample"].as<std::uint64_t>();
  opt.seed = r["seed"].as<std::uint64_t>();
  opt.check = r["check"].as<std::uint64_t>();
  const region_classes_report rep = cram_region_classes(opt, [&](const std::string& line) {
    if (progress) std::cerr << "[cgtb] " << line << "\n";
  });
  std::uint64_t tame = 0;
  for (const auto& c : rep.classes) tame += c.tame;
  if (r.count("json")) {
    nlohmann::ordered_json j;
    j["game"] = "cram";
    j["max_cells"] = rep.max_cells;
    j["company"] = rep.company;
    j["regions"] = rep.regions;
    j["classes"] = rep.classes.size();
    j["tame_classes"] = tame;
    j["tests"] = rep.tests;
    j["tests_total"] = rep.tests_total;
    j["sampled"] = rep.sampled;
    j["sums"] = rep.sums;
    j["skipped"] = rep.skipped;
    j["hereditarily_tame"] = rep.hereditarily_tame;
    j["max_grundy"] = rep.max_grundy;
    j["quotient"] = rep.quotient;
    j["checked"] = rep.checked;
    j["check_agreed"] = rep.check_agreed;
    j["seconds"] = rep.seconds;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < rep.classes.size(); ++i) {
      const auto& c = rep.classes[i];
      list.push_back({{"representative", c.representative},
                      {"cells", c.cells},
                      {"members", c.members},
                      {"genus", c.genus},
                      {"tame", c.tame},
                      {"element", i < rep.elements.size() ? rep.elements[i] : std::string()}});
    }
    j["class_list"] = list;
    std::cout << json_text(j) << "\n";
    return 0;
  }
  std::cout << "Cram regions of at most " << rep.max_cells << " empty cells: " << rep.regions
            << " (the empty region included)\n"
            << "tested in the misere sums with up to " << rep.company << " further regions of the set: " << rep.tests
            << " of " << rep.tests_total << " test sums applied"
            << (rep.sampled ? " (those of " + std::to_string(rep.company) + " regions a random sample)"
                            : std::string(rep.tests < rep.tests_total ? " (every class was one region)" : ""))
            << ", " << rep.sums << " misere outcomes searched (" << rep.skipped
            << " test-class pairs settled by the tame rule), " << std::fixed << std::setprecision(2) << rep.seconds
            << " s, " << (rep.memory_bytes >> 20) << " MB\n"
            << rep.classes.size() << " classes (" << tame
            << " with a tame representative); a lower bound on the misere quotient elements these regions take"
            << (rep.sampled ? ", and on the bounded count" : "") << "\n";
  if (!rep.quotient.empty()) {
    std::cout << "every region is hereditarily tame, Grundy values up to " << rep.max_grundy
              << ": the set's misere quotient is " << rep.quotient << "\n";
    if (rep.checked)
      std::cout << "check: the quotient's prediction equals the searched outcome on " << rep.check_agreed << " of "
                << rep.checked << " random sums of 1-4 regions\n";
  } else {
    std::cout << (rep.hereditarily_tame ? "every region is hereditarily tame, but Grundy values reach "
                                        : "some region is wild or has a wild follower")
              << (rep.hereditarily_tame ? std::to_string(rep.max_grundy) : std::string())
              << ": no quotient presentation is computed\n";
  }
  if (r.count("list")) {
    std::cout << "\n  class  cells  members  genus           element  representative\n";
    for (std::size_t i = 0; i < rep.classes.size(); ++i) {
      const auto& c = rep.classes[i];
      std::cout << "  " << std::setw(5) << i + 1 << "  " << std::setw(5) << c.cells << "  " << std::setw(7) << c.members
                << "  " << std::left << std::setw(14) << (c.genus + (c.tame ? "" : " wild")) << "  " << std::setw(7)
                << (i < rep.elements.size() ? rep.elements[i] : "-") << std::right << "  "
                << (c.representative.empty() ? "(empty)" : c.representative) << "\n";
    }
  }
  return 0;
}

}  // namespace cgtb
