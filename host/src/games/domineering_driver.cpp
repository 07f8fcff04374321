// `cgtb build domineering`: Domineering on a rectangle (cgtb/games/domineering.hpp),
// over every region or the reachable, symmetry-reduced index.
#include <cxxopts.hpp>

#include "cgtb/domino_driver.hpp"
#include "cgtb/games/domineering.hpp"
#include "cgtb/partizan_driver.hpp"

namespace cgtb {

game_entry domineering_entry() {
  game_entry e;
  e.name = "domineering";
  e.summary = "Domineering on a rectangle of up to 64 cells (outcome classes, normal and misere)";
  e.position_syntax = "as Cram; Left places vertical dominoes, Right horizontal";
  e.options = domino_index_options({{"board", "board size ROWSxCOLS (Left places vertical dominoes)", "5x5"}});
  e.from_options = [](const cxxopts::ParseResult& r) {
    return make_domino_driver<partizan_driver, domineering, domineering_reachable>(
        r["board"].as<std::string>(), domino_index_choice::from_options(r), true);
  };
  e.from_params = [](const std::string& params) -> std::unique_ptr<game_driver> {
    return std::make_unique<partizan_driver<domineering>>(domineering::from_board_text(params));
  };
  e.from_header = [](const tablebase_header& h) {
    return make_domino_driver<partizan_driver, domineering, domineering_reachable>(
        h.params, domino_index_choice::from_header(h), true);
  };
  return e;
}

}  // namespace cgtb
