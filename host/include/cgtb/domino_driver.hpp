// Command-line options the domino games (Cram, Domineering) share: which
// positions a table stores (--positions) and whether it stores one position
// per symmetry class (--symmetry), and the driver each choice gets.
#pragma once

#include <cxxopts.hpp>
#include <memory>
#include <string>

#include "cgtb/driver.hpp"
#include "cgtb/error.hpp"
#include "cgtb/games/domino_reachable.hpp"

namespace cgtb {

/// The options of a domino game: `board` followed by --positions and
/// --symmetry (domino_index_choice).
std::vector<game_option> domino_index_options(std::vector<game_option> board);

/// Index choice of a domino table.
struct domino_index_choice {
  bool reachable = true;  ///< store only regions reachable from the empty board
  bool symmetry = true;   ///< one position per symmetry class (reachable tables only)

  /// From --positions and --symmetry; throws input_error for unknown words and
  /// for --positions all --symmetry on given explicitly.
  static domino_index_choice from_options(const cxxopts::ParseResult& r);
  /// From a file header's index, positions and symmetry lines.
  static domino_index_choice from_header(const tablebase_header& h);
};

/// The driver of a domino game: Driver<Game> for every region (--positions
/// all), Driver<Reachable> for reachable tables, with the symmetry group of
/// the board (domino_symmetry_group).
template <template <class> class Driver, class Game, class Reachable>
std::unique_ptr<game_driver> make_domino_driver(const std::string& board, const domino_index_choice& c, bool partizan) {
  Game g = Game::from_board_text(board);
  if (!c.reachable) return std::make_unique<Driver<Game>>(g);
  const std::string group = domino_symmetry_group(partizan, g.rows(), g.cols(), c.symmetry);
  return std::make_unique<Driver<Reachable>>(Reachable(g, group));
}

/// The registry entry of a domino game (Cram, Domineering): --board plus the
/// index options, and a driver over every region or the reachable index,
/// chosen by the options or by a file's index lines.
template <template <class> class Driver, class Game, class Reachable>
game_entry domino_entry(std::string name, std::string summary, std::string syntax, std::string board_help,
                        std::string default_board, bool partizan) {
  game_entry e{std::move(name),
               std::move(summary),
               std::move(syntax),
               domino_index_options({{"board", std::move(board_help), std::move(default_board)}}),
               [partizan](const cxxopts::ParseResult& r) {
                 return make_domino_driver<Driver, Game, Reachable>(r["board"].as<std::string>(),
                                                                    domino_index_choice::from_options(r), partizan);
               },
               driver_from<Driver<Game>>(&Game::from_board_text)};
  e.from_header = [partizan](const tablebase_header& h) {
    return make_domino_driver<Driver, Game, Reachable>(h.params, domino_index_choice::from_header(h), partizan);
  };
  return e;
}

}  // namespace cgtb
