// `cgtb search cram`: the Grundy value of one Cram position by search
// (cgtb/cram_search.hpp, docs/search.md).
#include <unistd.h>

#include <csignal>
#include <cxxopts.hpp>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "cgtb/cram_search.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/text.hpp"
#include "cli.hpp"
#include "commands.hpp"

namespace cgtb::tools {

namespace {

cram_search* g_running = nullptr;  ///< the search Ctrl-C stops

extern "C" void stop_search(int) {
  if (g_running) g_running->interrupt();
}

/// The values a region is known not to have, ascending.
std::vector<unsigned> excluded_values(std::uint64_t excluded) {
  std::vector<unsigned> v;
  for (unsigned g = 0; g < 64; ++g)
    if (excluded >> g & 1) v.push_back(g);
  return v;
}

/// "G is not 0, 1, 3" for a region whose value is not known.
std::string excluded_text(std::uint64_t excluded) {
  std::string s;
  for (unsigned g : excluded_values(excluded)) s += (s.empty() ? "" : ", ") + std::to_string(g);
  return s.empty() ? "no value excluded yet" : "G is not " + s;
}

}  // namespace

int cmd_search(int argc, char** argv) {
  cxxopts::Options o = command_options("search");
  o.positional_help("cram");
  o.add_options()("game", "the game (cram)", cxxopts::value<std::string>())(
      "board", "an empty ROWSxCOLS board (at most 128 cells)", cxxopts::value<std::string>())(
      "position", "a position as text instead ('.' empty, '#' covered, rows joined by '/')",
      cxxopts::value<std::string>())("table", "a cram-components tablebase to read small regions from",
                                     cxxopts::value<std::string>())(
      "tt-memory", "transposition table size in MB", cxxopts::value<std::size_t>()->default_value("1024"))(
      "tt-file", "read the transposition table from FILE where it exists, write it back at the end (Ctrl-C too)",
      cxxopts::value<std::string>())("time-limit", "stop after this many seconds and report what is known",
                                     cxxopts::value<double>())("t,threads", "threads (0 = every core)",
                                                               cxxopts::value<int>()->default_value("0"))(
      "symmetry-shortcut", "answer an empty even x even board 0 by the pairing argument instead of searching")(
      "json", "one JSON object")("q,quiet", "no progress lines");
  o.parse_positional({"game"});
  auto r = tools::parse_or_help(o, argc, argv,
                                "\nExamples:\n"
                                "  cgtb build cram-components --max-cells 16 -o components-16.cgtb\n"
                                "  cgtb search cram --board 5x7 --table components-16.cgtb\n"
                                "  cgtb search cram --position '....../....../..##../......' --json\n");
  if (!r.count("game")) throw input_error("cgtb search needs a game: cgtb search cram --board RxC");
  if (r["game"].as<std::string>() != "cram")
    throw input_error("cgtb search: unknown game '" + r["game"].as<std::string>() + "' (known: cram)");
  if (r.count("board") == r.count("position")) throw input_error("cgtb search cram needs one of --board or --position");
  std::string position;
  if (r.count("board")) {
    const auto [rows, cols] = parse_dimensions(r["board"].as<std::string>(), "board", "5x7");
    if (cols > 26) throw input_error("board " + r["board"].as<std::string>() + ": at most 26 columns");
    position = empty_board_text(rows, cols);
  } else {
    position = r["position"].as<std::string>();
  }
  cram_search_options opt;
  if (r.count("table")) opt.table = r["table"].as<std::string>();
  opt.tt_bytes = r["tt-memory"].as<std::size_t>() << 20;
  if (r.count("tt-file")) opt.tt_file = r["tt-file"].as<std::string>();
  if (r.count("time-limit")) opt.time_limit = r["time-limit"].as<double>();
  opt.threads = r["threads"].as<int>();
  opt.symmetry_shortcut = r.count("symmetry-shortcut") > 0;
  if (!r.count("quiet")) opt.progress = &stderr_progress();
  const bool json = r.count("json") > 0;
  cram_search search(opt);
  g_running = &search;
  std::signal(SIGINT, stop_search);
  const cram_search_report rep = search.solve(position);
  std::signal(SIGINT, SIG_DFL);
  g_running = nullptr;
  if (json) {
    nlohmann::ordered_json j;
    j["position"] = rep.position;
    j["complete"] = rep.complete;
    if (rep.complete) j["grundy"] = rep.grundy;
    if (rep.by_symmetry) j["by_symmetry"] = true;
    if (!rep.stopped.empty()) j["stopped"] = rep.stopped;
    nlohmann::ordered_json regions = nlohmann::ordered_json::array();
    for (const auto& g : rep.regions) {
      nlohmann::ordered_json x;
      x["region"] = g.text;
      x["cells"] = g.cells;
      if (g.solved) {
        x["grundy"] = g.grundy;
      } else {
        x["excluded"] = excluded_values(g.excluded);
      }
      regions.push_back(x);
    }
    j["regions"] = regions;
    j["seconds"] = rep.seconds;
    j["nodes"] = rep.nodes;
    j["table_reads"] = rep.table_reads;
    j["tt_hits"] = rep.tt_hits;
    j["tt_entries"] = rep.tt_entries;
    j["tt_capacity"] = rep.tt_capacity;
    j["table_max_cells"] = rep.table_max_cells;
    j["tt_loaded"] = rep.tt_loaded;
    j["tt_saved"] = rep.tt_saved;
    j["threads"] = rep.threads;
    std::cout << json_text(j) << "\n";
  } else {
    std::cout << rep.position << "\n";
    if (rep.regions.size() > 1)
      for (const auto& g : rep.regions)
        std::cout << "  region " << g.text << " (" << g.cells
                  << " cells): " << (g.solved ? "G = " + std::to_string(g.grundy) : excluded_text(g.excluded)) << "\n";
    if (rep.complete)
      std::cout << "  normal  Grundy value " << rep.grundy << ", outcome " << (rep.grundy ? "N" : "P")
                << (rep.by_symmetry ? "  (by the pairing argument, --symmetry-shortcut)" : "") << "\n";
    else
      std::cout << "  stopped (" << rep.stopped << ") before the value was found"
                << (rep.regions.size() == 1 ? ": " + excluded_text(rep.regions[0].excluded) : std::string()) << "\n";
    std::cout << std::fixed << std::setprecision(2) << "  " << rep.seconds << " s, " << rep.nodes << " nodes, "
              << rep.table_reads << " table reads, " << rep.tt_hits << " transposition hits, " << rep.tt_entries
              << " of " << rep.tt_capacity << " table entries used, " << rep.threads
              << (rep.threads == 1 ? " thread" : " threads") << "\n";
    if (rep.tt_saved)
      std::cout << "  transposition table written to " << opt.tt_file << " (" << rep.tt_entries << " regions"
                << (rep.tt_loaded ? ", " + std::to_string(rep.tt_loaded) + " of them read from it first" : "") << ")\n";
  }
  return rep.complete ? 0 : 4;
}

}  // namespace cgtb::tools
