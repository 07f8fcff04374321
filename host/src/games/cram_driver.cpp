// `cgtb build cram`: Cram on a rectangle (cgtb/games/cram.hpp), over every
// region or the reachable, symmetry-reduced index (cgtb/games/domino_reachable.hpp).
#include <cxxopts.hpp>

#include "cgtb/domino_driver.hpp"
#include "cgtb/games/cram.hpp"
#include "cgtb/impartial_driver.hpp"

namespace cgtb {

game_entry cram_entry() {
  return domino_entry<impartial_driver, cram, cram_reachable>(
      "cram", "Cram on a rectangle of up to 64 cells (normal, misere, genus)",
      "row by row, rows separated by '/', '.' empty, '#' covered, e.g. '...../.##../.....'; moves by their two "
      "cells, columns a.., rows 1.. (row 1 written first), e.g. 'b2-b3'",
      "board size ROWSxCOLS", "4x5", false);
}

}  // namespace cgtb
