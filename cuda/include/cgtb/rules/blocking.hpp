// Value rule of blocking games (Muller twist; "Dynamic One-Pile Blocking Nim",
// Electronic Journal of Combinatorics 10, 2003): before a move the
// opponent may block up to c of the mover's options, so the mover wins exactly
// when more than c options lead to a position that is lost for the player to
// move (a safe position). A position is safe when its winning options number
// at most c (no option at all included).
// The view provides blocks(p) = c for the position p.
#pragma once

#include <cstdint>

#include "cgtb/hd.hpp"

namespace cgtb {

struct blocking_rule {
  struct record {
    std::uint32_t winning;  ///< options leading to a safe position
    std::uint8_t safe;      ///< 1: lost for the player to move
    std::uint8_t zero[3];   ///< explicit padding, always 0: checkpoints copy records byte for byte
  };
  static_assert(sizeof(record) == 8, "no implicit padding");

  template <class View, class Lookup>
  CGTB_HD static record evaluate(const View& game, int level, typename View::position p, const Lookup& at) {
    std::uint32_t w = 0;
    game.for_each_option(level, p, [&](int l, std::uint64_t r) { w += at(l, r).safe; });
    return {w, static_cast<std::uint8_t>(w <= game.blocks(p) ? 1 : 0), {0, 0, 0}};
  }

  /// Overflow check of the solver: never (a bit, and a count of options no
  /// larger than the pile, whose size is an int).
  CGTB_HD static bool overflows(const record&) { return false; }
  /// Field 0: safe (0/1); field 1: the number of winning options.
  CGTB_HD static unsigned field(const record& r, int f) { return f == 0 ? r.safe : r.winning; }
};

}  // namespace cgtb
