// Type-erased games for the command-line tool: every ruleset registers a
// driver that builds its tablebases, parses and prints its positions, lists
// its moves, and runs the analyses its value family supports.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/error.hpp"

namespace cxxopts {
class Options;
class ParseResult;
}  // namespace cxxopts

namespace cgtb {

class tablebase;

/// A position by its place in the index, with its canonical text.
struct position_ref {
  int level = 0;
  std::uint64_t rank = 0;
  std::string text;
};

/// A move and the position it leads to.
struct option_ref {
  std::string move;
  position_ref after;
};

/// What `cgtb build` asks for.
struct build_request {
  std::string values;  ///< comma-separated value kinds, "" = the game's default
  std::string output;  ///< file to write
  solve_options solve;
  bool progress = true;  ///< a line per level on stderr
  bool stats = false;    ///< per-level figures on stdout
  std::uint32_t block_entries = 4096;
  int zstd_level = 9;
};

/// Result of `cgtb census`.
struct census_report {
  std::uint64_t reachable = 0;  ///< positions reachable from the start, the start included
  std::uint64_t wild = 0;
  int smallest_wild_level = -1;  ///< -1 when no reachable position is wild
  std::string smallest_wild_example;
  std::string smallest_wild_genus;
  std::vector<std::uint64_t> reachable_by_level, wild_by_level;  ///< indexed by level
};

/// One ruleset with its parameters fixed.
class game_driver {
 public:
  virtual ~game_driver() = default;
  virtual std::string ruleset() const = 0;
  /// Canonical parameter text, as in the file header.
  virtual std::string params() const = 0;
  /// Builds the tablebase; throws input_error for bad value kinds.
  virtual void build(const build_request& req) const = 0;
  /// Parses a position; throws input_error naming the problem.
  virtual position_ref parse(const std::string& text) const = 0;
  /// Text of the position of rank r on level L; throws input_error if the
  /// level or rank is out of range.
  virtual std::string format(int level, std::uint64_t rank) const = 0;
  /// Every move from p with the position it leads to (its level and rank; the
  /// text of the option is left empty, for speed).
  virtual std::vector<option_ref> options(const position_ref& p) const = 0;
  /// Prints the answer to a query of p in `tb` (text or JSON lines).
  virtual void query(tablebase& tb, const position_ref& p, bool json, std::ostream& out) const = 0;
  /// Census of the positions reachable from the start; throws input_error if
  /// the game or the file's values do not support it.
  virtual census_report census(tablebase& tb) const = 0;
  /// Prints the options of p (cgtb query --options): by default one line
  /// "MOVE -> POSITION" per option; partizan games list each player's.
  virtual void list_options(tablebase& tb, const position_ref& p, bool json, std::ostream& out) const {
    (void)tb;
    std::string s = json ? "{\"position\":\"" + p.text + "\",\"options\":[" : p.text + "\n";
    bool first = true;
    for (const auto& o : options(p)) {
      const std::string after = o.after.text.empty() ? format(o.after.level, o.after.rank) : o.after.text;
      if (json)
        s += std::string(first ? "" : ",") + "{\"move\":\"" + o.move + "\",\"position\":\"" + after + "\"}";
      else
        s += "  " + o.move + " -> " + after + "\n";
      first = false;
    }
    out << s << (json ? "]}\n" : "");
  }
};

/// A registered game: its CLI name, options, and constructors.
struct game_entry {
  std::string name;
  std::string summary;
  /// Adds the game's parameter options to `cgtb build NAME`.
  std::function<void(cxxopts::Options&)> add_options;
  /// Makes the driver from parsed options; throws input_error.
  std::function<std::unique_ptr<game_driver>(const cxxopts::ParseResult&)> from_options;
  /// Makes the driver from a file header's canonical params; throws input_error.
  std::function<std::unique_ptr<game_driver>(const std::string&)> from_params;
};

/// Text of the position of rank r on level L of a ruleset owner `game`
/// (docs/architecture.md); throws input_error if the game has no such level or
/// the level no such rank. Shared by the drivers' format().
template <class Game>
std::string format_by_rank(const Game& game, int level, std::uint64_t rank) {
  auto view = game.host_view();
  auto levels = game.levels();
  if (std::find(levels.begin(), levels.end(), level) == levels.end() || rank >= view.level_size(level))
    throw input_error("no position of rank " + std::to_string(rank) + " on level " + std::to_string(level));
  return game.format(view.unrank(level, rank));
}

/// Every game cgtb knows, in the order `cgtb build --help` lists them.
const std::vector<game_entry>& game_registry();
/// Looks a game up by name; throws input_error listing the known ones.
const game_entry& find_game(const std::string& name);

}  // namespace cgtb
