// Misère genus symbols and the tame/wild test (Winning Ways ch. 13; "Cram with
// the last move losing", an essay on misère Cram, "A symbol for each board").
#pragma once

#include <string>
#include <vector>

#include "cgtb/value_kinds.hpp"

namespace cgtb {

/// The genus of a position: its normal Grundy value g and the run
/// gamma_k = G-(p + k copies of *2) for k = 0..K.
struct genus {
  unsigned g = 0;
  std::vector<unsigned> run;

  /// Index j of the first pair of the run's final period of two (gamma_i =
  /// gamma_{i+2} for every i >= j within the run), or -1 when the run is too
  /// short to show the period twice (j > K - 3).
  int settle_index() const;
  /// The symbol as Winning Ways writes it: g, then the run up to the first
  /// occurrence of its final repeating pair, e.g. "2^{03157}". Values of 10 or
  /// more are separated by commas; an unsettled run ends with "...".
  std::string symbol() const;
  /// Tame: firm n^{n, n+2} (run n, n XOR 2, n, ...) or fickle 0^{120} or
  /// 1^{031}. Everything else, unsettled runs included, is wild.
  bool tame() const;
};

/// Genus of field values (grundy, misere, genus1..7) of one entry.
template <class Get>
genus genus_of(Get get, int grundy_field, int misere_field) {
  genus gn;
  gn.g = static_cast<unsigned>(get(grundy_field));
  for (int k = 0; k <= 7; ++k) gn.run.push_back(static_cast<unsigned>(get(misere_field + k)));
  return gn;
}

/// True when a header's fields hold the genus: grundy, then misere followed
/// by genus1..genus7 (what genus_of reads).
template <class Header>
bool has_genus_fields(const Header& h) {
  const int fg = h.field_index(cgtb::field_name::grundy), fm = h.field_index(cgtb::field_name::misere);
  return fg >= 0 && fm >= 0 && h.field_index("genus1") == fm + 1 && h.field_index("genus7") == fm + 7;
}

}  // namespace cgtb
