// An impartial ruleset seen as partizan: Left's options and Right's options
// are both the impartial options. Solving it with partizan_rule gives classes
// N or P only, and by the Sprague-Grundy theorem (Winning Ways ch. 11) N iff
// G != 0 under normal play; under misère play N iff G- != 0 (Winning Ways
// ch. 13). The tests check both on Cram.
// Backend instantiations (cgtb-solve lines: the ruleset and the value rule
// each backend is compiled for; CMake collects them, docs/architecture.md):
// cgtb-solve: cgtb::impartial_as_partizan<cgtb::cram> cgtb::partizan_rule
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cgtb/hd.hpp"

namespace cgtb {

/// Trivially copyable view adapter: forwards the index of `View` and offers
/// its options to both players.
template <class View>
struct impartial_as_partizan_view {
  View base;

  using position = typename View::position;

  CGTB_HD std::uint64_t level_size(int level) const { return base.level_size(level); }
  CGTB_HD position unrank(int level, std::uint64_t r) const { return base.unrank(level, r); }
  CGTB_HD std::uint64_t rank(int level, position p) const { return base.rank(level, p); }
  CGTB_HD position next(int level, position p) const { return base.next(level, p); }
  /// Left's options: the impartial options.
  template <class F>
  CGTB_HD void for_each_left_option(int level, position p, F&& f) const {
    base.for_each_option(level, p, f);
  }
  /// Right's options: the impartial options.
  template <class F>
  CGTB_HD void for_each_right_option(int level, position p, F&& f) const {
    base.for_each_option(level, p, f);
  }
  /// Options of both players (each impartial option counted twice).
  CGTB_HD int option_count(position p) const { return 2 * base.option_count(p); }
};

/// Host owner of the adapter: the same levels, index table and parameters as
/// the impartial game `Game` (e.g. cram).
template <class Game>
class impartial_as_partizan {
 public:
  using view_type = impartial_as_partizan_view<typename Game::view_type>;
  using position = typename Game::position;
  static constexpr const char* ruleset_name = Game::ruleset_name;

  explicit impartial_as_partizan(Game g) : game_(std::move(g)) {}

  const Game& game() const { return game_; }
  std::string params() const { return game_.params(); }
  std::vector<int> levels() const { return game_.levels(); }
  int option_level_span() const { return game_.option_level_span(); }
  const std::vector<std::uint64_t>& table() const { return game_.table(); }
  view_type view(const std::uint64_t* table) const { return {game_.view(table)}; }
  view_type host_view() const { return view(game_.table().data()); }

 private:
  Game game_;
};

}  // namespace cgtb
