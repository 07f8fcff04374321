// `cgtb build domineering`: Domineering on a rectangle (cgtb/games/domineering.hpp),
// over every region or the reachable, symmetry-reduced index.
#include <cxxopts.hpp>

#include "cgtb/domino_driver.hpp"
#include "cgtb/games/domineering.hpp"
#include "cgtb/partizan_driver.hpp"

namespace cgtb {

game_entry domineering_entry() {
  return domino_entry<partizan_driver, domineering, domineering_reachable>(
      "domineering", "Domineering on a rectangle of up to 64 cells (outcome classes, normal and misere)",
      "as Cram; Left places vertical dominoes, Right horizontal",
      "board size ROWSxCOLS (Left places vertical dominoes)", "5x5", true);
}

}  // namespace cgtb
