// `cgtb build cricket-pitch`: Cricket Pitch boards (cgtb/games/cricket_pitch.hpp).
#include <cxxopts.hpp>

#include "cgtb/games/cricket_pitch.hpp"
#include "cgtb/partizan_driver.hpp"

namespace cgtb {

game_entry cricket_pitch_entry() {
  game_entry e;
  e.name = "cricket-pitch";
  e.summary = "Cricket Pitch boards of length <= L, bumps <= h (outcome classes, normal and misere)";
  e.position_syntax = "[1,0,2,1,R,2,3] or 1021R23 (R the roller)";
  e.add_options = [](cxxopts::Options& o) {
    o.add_options("cricket-pitch")("length", "longest board, roller included",
                                   cxxopts::value<int>()->default_value("10"))(
        "max-bump", "largest bump", cxxopts::value<int>()->default_value("5"));
  };
  e.from_options = [](const cxxopts::ParseResult& r) -> std::unique_ptr<game_driver> {
    return std::make_unique<partizan_driver<cricket_pitch>>(
        cricket_pitch(r["length"].as<int>(), r["max-bump"].as<int>()));
  };
  e.from_params = [](const std::string& params) -> std::unique_ptr<game_driver> {
    return std::make_unique<partizan_driver<cricket_pitch>>(cricket_pitch::from_params(params));
  };
  return e;
}

}  // namespace cgtb
