// `cgtb build rit`: Row Impartial Terminus on an r x c box (cgtb/games/rit.hpp).
#include <cxxopts.hpp>

#include "cgtb/games/rit.hpp"
#include "cgtb/impartial_driver.hpp"

namespace cgtb {

game_entry rit_entry() {
  game_entry e;
  e.name = "rit";
  e.summary = "Row Impartial Terminus: partitions in a ROWSxCOLS box (normal, misere, genus)";
  e.position_syntax = "a partition, [5,4,2,1] ([] the empty one)";
  e.add_options = [](cxxopts::Options& o) {
    o.add_options("rit")("box", "box size ROWSxCOLS (rows <= 16, columns <= 15)",
                         cxxopts::value<std::string>()->default_value("4x4"));
  };
  e.from_options = [](const cxxopts::ParseResult& r) -> std::unique_ptr<game_driver> {
    return std::make_unique<impartial_driver<rit>>(rit::from_box_text(r["box"].as<std::string>()));
  };
  e.from_params = [](const std::string& params) -> std::unique_ptr<game_driver> {
    return std::make_unique<impartial_driver<rit>>(rit::from_box_text(params));
  };
  return e;
}

}  // namespace cgtb
