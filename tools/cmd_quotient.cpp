// `cgtb quotient octal`: the misère quotient of an octal game's heaps;
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
#include "commands.hpp"

namespace cgtb::tools {

namespace {

int quotient_octal(const cxxopts::ParseResult& r) {
  const bool progress = !r.count("quiet") && isatty(2);
  octal_quotient_options opt;
  if (!r.count("code"))
    throw input_error("quotient octal needs --code, e.g. cgtb quotient octal --code 0.75 --max-heap 8");
  opt.code = r["code"].as<std::string>();
  opt.max_heap = r["max-heap"].as<int>();
  opt.check = r["check"].as<std::uint64_t>();
  opt.seed = r["seed"].as<std::uint64_t>();
  opt.max_order = r["max-order"].as<std::size_t>();
  opt.max_signatures = r["max-signatures"].as<std::uint64_t>();
  const octal_quotient_report rep = octal_quotient(opt, [&](const std::string& line) {
    if (progress) std::cerr << "[cgtb] " << line << "\n";
  });
  const misere_quotient& q = rep.quotient;
  std::vector<std::string> p;
  for (std::size_t x = 0; x < q.order; ++x)
    if (q.p_portion[x]) p.push_back(q.elements[x]);
  if (r.count("json")) {
    std::cout << octal_quotient_json(rep) << "\n";
    return rep.proven ? 0 : 4;
  }
  auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  std::cout << rep.code << ", the sums of heaps 1-" << rep.max_heap << ": misere quotient of order " << q.order
            << (rep.proven ? " (proven)" : " (NOT proven: " + rep.why_not + ")") << "\n";
  std::vector<std::string> gens;
  for (std::size_t i = 0; i < q.generators.size(); ++i) gens.push_back(q.generators[i] + " = " + q.generator_of[i]);
  std::cout << "  generators  " << join(gens) << "\n"
            << "  relations   " << (q.relations.empty() ? "none" : join(q.relations)) << "\n"
            << "  P-portion   {" << join(p) << "}\n"
            << "  heaps      ";
  for (std::size_t h = 1; h < rep.heap_element.size(); ++h)
    std::cout << " " << h << ":" << q.elements[rep.heap_element[h]];
  std::cout << "\n";
  if (r.count("list")) {
    std::cout << "\n  elements (P marks the P-portion) and products\n";
    for (std::size_t x = 0; x < q.order; ++x) {
      std::cout << "  " << std::setw(2) << (q.p_portion[x] ? "P" : "") << " " << std::left << std::setw(10)
                << q.elements[x] << std::right;
      for (const auto& g : q.generators) {
        const std::size_t gi =
            static_cast<std::size_t>(std::find(q.elements.begin(), q.elements.end(), g) - q.elements.begin());
        std::cout << "  x" << g << " = " << std::left << std::setw(8)
                  << q.elements[q.times(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(gi))] << std::right;
      }
      std::cout << "\n";
    }
  }
  std::cout << "  proof (every heap's step): " << rep.rounds << " rounds, " << rep.tests << " test sums in the last, "
            << rep.signatures << " signatures checked, " << rep.sums << " misere outcomes searched, " << std::fixed
            << std::setprecision(2) << rep.seconds << " s, " << (rep.memory_bytes >> 20) << " MB\n";
  if (rep.checked)
    std::cout << "  check: the quotient's prediction equals a fresh search (no quotient) on " << rep.check_agreed
              << " of " << rep.checked << " random sums of 1-4 heaps\n";
  return rep.proven ? 0 : 4;
}

}  // namespace

int cmd_quotient(int argc, char** argv) {
  cxxopts::Options o = command_options("quotient");
  o.positional_help("octal|cram");
  o.add_options()("game", "the game (octal or cram)", cxxopts::value<std::string>())(
      "code", "octal: the octal code, e.g. 0.75", cxxopts::value<std::string>())(
      "max-heap", "octal: the sums of heaps 1..N (1-4096)", cxxopts::value<int>()->default_value("8"))(
      "max-order", "octal: refuse a quotient of more elements", cxxopts::value<std::size_t>()->default_value("4096"))(
      "max-signatures", "octal: bound of the proof's finite check",
      cxxopts::value<std::uint64_t>()->default_value("20000000"))(
      "max-cells", "regions of at most N empty cells (1-12)", cxxopts::value<int>()->default_value("6"))(
      "company", "test sums with up to K further regions (0-3)", cxxopts::value<int>()->default_value("2"))(
      "sample", "test with N random multisets of K regions (after every smaller test) instead of all",
      cxxopts::value<std::uint64_t>()->default_value("0"))("seed", "seed of --sample and --check",
                                                           cxxopts::value<std::uint64_t>()->default_value("1"))(
      "check", "compare the quotient's prediction with a search on N random sums of 1-4 regions or heaps",
      cxxopts::value<std::uint64_t>()->default_value("10000"))(
      "list", "cram: list every class (representative, cells, members, genus); octal: every element")(
      "json", "one JSON object")("q,quiet", "no progress lines");
  o.parse_positional({"game"});
  auto r = tools::parse_or_help(o, argc, argv);
  if (!r.count("game"))
    throw input_error(
        "quotient needs a game: cgtb quotient octal --code C --max-heap N, or cgtb quotient cram --max-cells N");
  if (!r.unmatched().empty()) throw input_error("unexpected argument '" + r.unmatched()[0] + "'");
  auto refuse = [&](const std::vector<std::string>& names, const std::string& game) {
    for (const auto& n : names)
      if (r.count(n)) throw input_error("--" + n + " is not an option of cgtb quotient " + game);
  };
  if (r["game"].as<std::string>() == "octal") {
    refuse({"max-cells", "company", "sample"}, "octal");
    return quotient_octal(r);
  }
  if (r["game"].as<std::string>() == "cram") refuse({"code", "max-heap", "max-order", "max-signatures"}, "cram");
  if (r["game"].as<std::string>() != "cram")
    throw input_error("cgtb quotient takes octal or cram ('" + r["game"].as<std::string>() + "' is not available)");
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

}  // namespace cgtb::tools
