// `cgtb build domineering`: Domineering on a rectangle (cgtb/games/domineering.hpp).
#include <cxxopts.hpp>

#include "cgtb/games/domineering.hpp"
#include "cgtb/partizan_driver.hpp"

namespace cgtb {

game_entry domineering_entry() {
  game_entry e;
  e.name = "domineering";
  e.summary = "Domineering on a rectangle of up to 64 cells (outcome classes, normal and misere)";
  e.add_options = [](cxxopts::Options& o) {
    o.add_options("domineering")("board", "board size ROWSxCOLS (Left places vertical dominoes)",
                                 cxxopts::value<std::string>()->default_value("5x5"));
  };
  e.from_options = [](const cxxopts::ParseResult& r) -> std::unique_ptr<game_driver> {
    return std::make_unique<partizan_driver<domineering>>(domineering::from_board_text(r["board"].as<std::string>()));
  };
  e.from_params = [](const std::string& params) -> std::unique_ptr<game_driver> {
    return std::make_unique<partizan_driver<domineering>>(domineering::from_board_text(params));
  };
  return e;
}

}  // namespace cgtb
