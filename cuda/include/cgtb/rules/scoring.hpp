// Value rule of scoring play (F. Stewart, Scoring Play Combinatorial Games,
// chs. 2-4): the final score with the mover first, as a signed integer.
//
// For an impartial scoring game, G_s(p) = max over options o of
// (points of the move - G_s(o)), and a position with no option has G_s = 0
// (Defs. 3.1.2, 4.1.2, 4.2.2, 4.3.2). G_s(p) is the final score, Left minus
// Right, when Left moves first from p with both players playing perfectly and
// the score so far taken as 0; by Theorem 3.1.1, G_F^{SL}(p) = G_s(p) and
// G_F^{SR}(p) = -G_s(p). Points are signed integers. gs_max is the one place
// the recurrence is written: the value rule, the conjecture checks and the
// host's sequences all use it.
#pragma once

#include <cstdint>

#include "cgtb/hd.hpp"

namespace cgtb {

/// Field identifiers of scoring records, as stored in tablebase files.
enum scoring_field : int {
  field_gs = 0,  ///< G_s = G_F^{SL}, signed (G_F^{SR} = -G_s for impartial games)
};

/// G_s of a position from its options, one option at a time:
/// option(points, G_s(option)) for each, then value() (0 when none was given).
struct gs_max {
  bool any = false;
  std::int64_t best = 0;
  CGTB_HD void option(std::int64_t points, std::int64_t option_value) {
    const std::int64_t v = points - option_value;
    if (!any || v > best) best = v;
    any = true;
  }
  CGTB_HD std::int64_t value() const { return best; }
};

/// Per-position record: G_s as a signed 32-bit integer.
struct scoring_record {
  std::int32_t v;
};

/// Largest |G_s| a record holds; a value beyond it is clamped to it and the
/// solver reports an overflow (resource_error).
inline constexpr std::int64_t kScoringLimit = std::int64_t{1} << 30;

/// The scoring value rule. Views give the options with their points through
/// for_each_scored_option(level, p, f(option_level, option_rank, points)).
struct scoring_rule {
  using record = scoring_record;
  /// The largest |G_s| (the overflow error names it).
  static constexpr unsigned value_limit = static_cast<unsigned>(kScoringLimit);

  /// G_s of position p of `level`: the maximum of points - G_s(option) over
  /// every scored option, 0 when there is none.
  template <class View, class Lookup>
  CGTB_HD static record evaluate(const View& game, int level, typename View::position p, const Lookup& at) {
    gs_max g;
    game.for_each_scored_option(level, p,
                                [&](int l, std::uint64_t r, std::int32_t points) { g.option(points, at(l, r).v); });
    std::int64_t best = g.value();
    if (best > kScoringLimit) best = kScoringLimit;
    if (best < -kScoringLimit) best = -kScoringLimit;
    return record{static_cast<std::int32_t>(best)};
  }

  /// Overflow check of the solver: |G_s| reached the limit (evaluate clamps
  /// to it).
  CGTB_HD static bool overflows(const record& r) {
    return (r.v < 0 ? -static_cast<std::int64_t>(r.v) : r.v) >= kScoringLimit;
  }

  /// Value of field `f` (a scoring_field) of a record.
  CGTB_HD static std::int64_t field(const record& r, int /*f*/) { return r.v; }
};

}  // namespace cgtb
