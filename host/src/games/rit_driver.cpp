// `cgtb build rit`: Row Impartial Terminus on an r x c box (cgtb/games/rit.hpp).
#include <cxxopts.hpp>

#include "cgtb/games/rit.hpp"
#include "cgtb/impartial_driver.hpp"

namespace cgtb {

game_entry rit_entry() {
  return {"rit",
          "Row Impartial Terminus: partitions in a ROWSxCOLS box (normal, misere, genus)",
          "a partition, [5,4,2,1] ([] the empty one)",
          {{"box", "box size ROWSxCOLS (rows <= 16, columns <= 15)", "4x4"}},
          driver_from<impartial_driver<rit>>(
              [](const cxxopts::ParseResult& r) { return rit::from_box_text(r["box"].as<std::string>()); }),
          driver_from<impartial_driver<rit>>(&rit::from_box_text)};
}

}  // namespace cgtb
