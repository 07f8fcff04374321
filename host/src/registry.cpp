#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"

namespace cgtb {

// One line per game; each is defined beside its driver in host/src/games/.
game_entry cram_entry();
game_entry scoring_octal_entry();
game_entry scoring_sum_entry();
game_entry domineering_entry();
game_entry cricket_pitch_entry();
game_entry rit_entry();
game_entry octal_entry();
game_entry blocking_nim_entry();

const std::vector<game_entry>& game_registry() {
  static const std::vector<game_entry> games = {cram_entry(),          rit_entry(),         octal_entry(),
                                                blocking_nim_entry(),  domineering_entry(), cricket_pitch_entry(),
                                                scoring_octal_entry(), scoring_sum_entry()};
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
