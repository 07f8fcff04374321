// Eventual periodicity of a finite sequence, in one place for the host
// (find_period, cgtb/periodicity.hpp) and the device (the conjecture checks,
// cgtb/conjectures.hpp).
#pragma once

#include "cgtb/hd.hpp"

namespace cgtb {

/// Smallest period p of s[0..L-1] that shows at least `repeats` + 1 whole
/// periods after its preperiod, with the preperiod at most L / 2 (a period
/// that only shows in the last few values is not taken). Returns p and sets
/// *pre to the smallest preperiod for it (s[n + p] = s[n] for pre <= n < L - p);
/// returns 0 and sets *pre = L when there is none. `s` is anything indexable
/// by int (a pointer or a vector).
template <class Seq>
CGTB_HD int smallest_period(const Seq& s, int L, int repeats, int* pre) {
  for (int p = 1; p * (repeats + 1) <= L; ++p) {
    int last = -1;  // the last n with s[n + p] != s[n]
    for (int n = L - 1 - p; n >= 0; --n)
      if (s[n + p] != s[n]) {
        last = n;
        break;
      }
    if (L - (last + 1) >= (repeats + 1) * p && 2 * (L - (last + 1)) >= L) {
      *pre = last + 1;
      return p;
    }
  }
  *pre = L;
  return 0;
}

}  // namespace cgtb
