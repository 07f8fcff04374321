// Value rule of single-heap Grundy sequences (octal games): each option of a
// heap leaves at most two heaps (b, c), whose values are read from lower
// levels and combined by nim-sum (Sprague-Grundy theorem; Winning Ways ch. 4):
//   G(n) = mex { G(b) XOR G(c) : n -> b + c },  G(0) = 0.
// The view provides for_each_split(level, p, f(b, c)), b and c levels holding
// one position each (rank 0); level 0 is the empty heap.
#pragma once

#include <cstdint>

#include "cgtb/hd.hpp"

namespace cgtb {

struct heap_sum_rule {
  struct record {
    std::uint8_t g;
  };

  template <class View, class Lookup>
  CGTB_HD static record evaluate(const View& game, int level, typename View::position p, const Lookup& at) {
    std::uint64_t mask = 0;
    game.for_each_split(level, p, [&](int b, int c) { mask |= 1ull << (at(b, 0).g ^ at(c, 0).g); });
    return {static_cast<std::uint8_t>(mex64(mask))};
  }

  /// Grundy values stay below 64, the width of the mex mask.
  static constexpr unsigned value_limit = 64;
  /// Overflow check of the solver: the Grundy value reached value_limit.
  CGTB_HD static bool overflows(const record& r) { return r.g >= value_limit; }
  /// Field 0: the Grundy value.
  CGTB_HD static unsigned field(const record& r, int) { return r.g; }
};

}  // namespace cgtb
