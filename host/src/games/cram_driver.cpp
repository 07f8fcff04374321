// `cgtb build cram`: Cram on a rectangle (cgtb/games/cram.hpp), over every
// region or the reachable, symmetry-reduced index (cgtb/games/domino_reachable.hpp).
#include <cxxopts.hpp>

#include "cgtb/domino_driver.hpp"
#include "cgtb/games/cram.hpp"
#include "cgtb/impartial_driver.hpp"

namespace cgtb {

game_entry cram_entry() {
  game_entry e;
  e.name = "cram";
  e.summary = "Cram on a rectangle of up to 64 cells (normal, misere, genus)";
  e.position_syntax = "row by row, rows separated by '/', '.' empty, '#' covered, e.g. '...../.##../.....'; moves by their two cells, columns a.., rows 1.. (row 1 written first), e.g. 'b2-b3'";
  e.options = domino_index_options({{"board", "board size ROWSxCOLS", "4x5"}});
  e.from_options = [](const cxxopts::ParseResult& r) {
    return make_domino_driver<impartial_driver, cram, cram_reachable>(r["board"].as<std::string>(),
                                                                      domino_index_choice::from_options(r), false);
  };
  e.from_params = [](const std::string& params) -> std::unique_ptr<game_driver> {
    return std::make_unique<impartial_driver<cram>>(cram::from_board_text(params));
  };
  e.from_header = [](const tablebase_header& h) {
    return make_domino_driver<impartial_driver, cram, cram_reachable>(h.params, domino_index_choice::from_header(h),
                                                                      false);
  };
  return e;
}

}  // namespace cgtb
