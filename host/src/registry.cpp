#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"

namespace cgtb {

// The games, one line each, in the order `cgtb build --help` lists them.
// X(NAME): the entry NAME_entry(), defined beside the game's driver in
// host/src/games/.
#define CGTB_GAMES(X) \
  X(cram)             \
  X(cram_components)  \
  X(rit)              \
  X(octal)            \
  X(blocking_nim)     \
  X(domineering)      \
  X(cricket_pitch)    \
  X(scoring_octal)    \
  X(scoring_sum)

#define CGTB_DECLARE_ENTRY(name) game_entry name##_entry();
CGTB_GAMES(CGTB_DECLARE_ENTRY)
#undef CGTB_DECLARE_ENTRY

const std::vector<game_entry>& game_registry() {
#define CGTB_ENTRY(name) name##_entry(),
  static const std::vector<game_entry> games = {CGTB_GAMES(CGTB_ENTRY)};
#undef CGTB_ENTRY
  return games;
}

const game_entry& find_game(const std::string& name) {
  std::string known;
  for (const auto& g : game_registry()) {
    if (g.name == name) return g;
    known += (known.empty() ? "" : ", ") + g.name;
  }
  throw input_error("unknown ruleset '" + name + "' (known: " + known + ")");
}

std::unique_ptr<game_driver> driver_for_header(const tablebase_header& h) {
  const game_entry& e = find_game(h.ruleset);
  return e.from_header ? e.from_header(h) : e.from_params(h.params);
}

}  // namespace cgtb
