// `cgtb build cricket-pitch`: Cricket Pitch boards (cgtb/games/cricket_pitch.hpp).
#include <cxxopts.hpp>

#include "cgtb/games/cricket_pitch.hpp"
#include "cgtb/partizan_driver.hpp"

namespace cgtb {

game_entry cricket_pitch_entry() {
  return {"cricket-pitch",
          "Cricket Pitch boards of length <= L, bumps <= h (outcome classes, normal and misere)",
          "[1,0,2,1,R,2,3] or 1021R23 (R the roller)",
          {{"length", "longest board, roller included", "10", game_option::integer},
           {"max-bump", "largest bump", "5", game_option::integer}},
          driver_from<partizan_driver<cricket_pitch>>([](const cxxopts::ParseResult& r) {
            return cricket_pitch(r["length"].as<int>(), r["max-bump"].as<int>());
          }),
          driver_from<partizan_driver<cricket_pitch>>(&cricket_pitch::from_params)};
}

}  // namespace cgtb
