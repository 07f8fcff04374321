// `cgtb build cram`: Cram on a rectangle (cgtb/games/cram.hpp).
#include <cxxopts.hpp>

#include "cgtb/games/cram.hpp"
#include "cgtb/impartial_driver.hpp"

namespace cgtb {

game_entry cram_entry() {
  game_entry e;
  e.name = "cram";
  e.summary = "Cram on a rectangle of up to 64 cells (normal, misere, genus)";
  e.add_options = [](cxxopts::Options& o) {
    o.add_options("cram")("board", "board size ROWSxCOLS", cxxopts::value<std::string>()->default_value("4x5"));
  };
  e.from_options = [](const cxxopts::ParseResult& r) -> std::unique_ptr<game_driver> {
    return std::make_unique<impartial_driver<cram>>(cram::from_board_text(r["board"].as<std::string>()));
  };
  e.from_params = [](const std::string& params) -> std::unique_ptr<game_driver> {
    return std::make_unique<impartial_driver<cram>>(cram::from_board_text(params));
  };
  return e;
}

}  // namespace cgtb
