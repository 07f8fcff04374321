// Value rule of partizan games: outcome classes under normal and misère play.
//
// Sources: Winning Ways, ch. 1-2 (outcome classes L, R, N, P; normal play);
// Siegel, Combinatorial Game Theory, ch. I.1 and V (misère play).
//
// A position's class under one convention is two bits: "Left moving first
// wins" and "Right moving first wins". Left moving first wins iff Left has an
// option from which Right, moving first, loses; with no option at all Left
// loses under normal play and wins under misère play. Symmetrically for Right.
//   L = Left wins whoever moves first      (bits 1, 0)
//   R = Right wins whoever moves first     (bits 0, 1)
//   N = the player moving first wins       (bits 1, 1)
//   P = the player moving first loses      (bits 0, 0)
//
// The rule is generic over partizan rulesets: their views provide
//   for_each_left_option(level, p, f) and for_each_right_option(level, p, f),
// each calling f(option_level, option_rank) once per option of that player.
// A view may also provide for_each_left_and_right_option(level, p, fl, fr),
// walking both players' options with shared work (Domineering ranks both from
// one pair_removal_ranks); the rule then calls it instead of the two walks.
// An impartial ruleset is seen as partizan through impartial_as_partizan
// (cgtb/games/impartial_as_partizan.hpp), whose Left and Right options are
// both the impartial options.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "cgtb/hd.hpp"

namespace cgtb {

/// Outcome class codes: bit 0 = Left moving first wins, bit 1 = Right moving
/// first wins.
enum outcome_class : unsigned {
  outcome_P = 0,  ///< the player moving first loses
  outcome_L = 1,  ///< Left wins whoever moves first
  outcome_R = 2,  ///< Right wins whoever moves first
  outcome_N = 3,  ///< the player moving first wins
};

/// Letter of an outcome class code (0..3): 'P', 'L', 'R' or 'N'.
CGTB_HD inline char outcome_letter(unsigned c) { return "PLRN"[c & 3u]; }

/// Class with Left and Right exchanged (L <-> R; N and P stay): the class of
/// the conjugate game, e.g. a transposed Domineering position.
CGTB_HD inline unsigned outcome_swap(unsigned c) { return ((c & 1u) << 1) | ((c >> 1) & 1u); }

namespace detail {
/// Callable accepting any option (used only in unevaluated detection).
struct any_option {
  template <class... A>
  CGTB_HD void operator()(A...) const {}
};
template <class V, class = void>
struct has_joint_option_walk : std::false_type {};
template <class V>
struct has_joint_option_walk<V, std::void_t<decltype(std::declval<const V&>().for_each_left_and_right_option(
                                    0, std::declval<typename V::position>(), any_option{}, any_option{}))>>
    : std::true_type {};
}  // namespace detail

/// Field identifiers of partizan records, as stored in tablebase files.
enum partizan_field : int {
  field_normal_class = 0,  ///< outcome class code under normal play (2 bits)
  field_misere_class = 1,  ///< outcome class code under misère play (2 bits)
};

/// Per-position record: bits 0-1 the normal-play class code, bits 2-3 the
/// misère class code (see outcome_class).
struct partizan_record {
  std::uint8_t bits;
};

/// The outcome-class rule (both conventions in one pass).
struct partizan_rule {
  using record = partizan_record;

  /// Record of position p of `level`: walks Left's and Right's options, reads
  /// each option's record with at(option_level, option_rank).
  template <class View, class Lookup>
  CGTB_HD static record evaluate(const View& game, int level, typename View::position p, const Lookup& at) {
    bool left_any = false, right_any = false;
    bool normal_left = false, misere_left = false, normal_right = false, misere_right = false;
    auto left = [&](int l, std::uint64_t r) {
      const unsigned o = at(l, r).bits;
      left_any = true;
      normal_left = normal_left || !(o & 2u);  // Right moving first loses the option (normal)
      misere_left = misere_left || !(o & 8u);  // ... (misère)
    };
    auto right = [&](int l, std::uint64_t r) {
      const unsigned o = at(l, r).bits;
      right_any = true;
      normal_right = normal_right || !(o & 1u);  // Left moving first loses the option (normal)
      misere_right = misere_right || !(o & 4u);  // ... (misère)
    };
    if constexpr (detail::has_joint_option_walk<View>::value) {
      game.for_each_left_and_right_option(level, p, left, right);
    } else {
      game.for_each_left_option(level, p, left);
      game.for_each_right_option(level, p, right);
    }
    if (!left_any) misere_left = true;  // misère: the player who cannot move wins
    if (!right_any) misere_right = true;
    record rec;
    rec.bits = static_cast<std::uint8_t>((normal_left ? 1u : 0u) | (normal_right ? 2u : 0u) | (misere_left ? 4u : 0u) |
                                         (misere_right ? 8u : 0u));
    return rec;
  }

  /// Overflow check of the solver: two 2-bit class codes, so never.
  CGTB_HD static bool overflows(const record&) { return false; }

  /// Value of field `f` (a partizan_field): a class code 0..3.
  CGTB_HD static unsigned field(const record& r, int f) {
    return f == field_misere_class ? (r.bits >> 2) & 3u : r.bits & 3u;
  }
};

}  // namespace cgtb
