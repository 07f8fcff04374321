// Value rule of scoring play (seed 001, chapters 2-4): the final score with
// the mover first, as a signed integer.
//
// For an impartial scoring game, G_s(p) = max over options o of
// (points of the move - G_s(o)), and a position with no option has G_s = 0
// (seed 001 Def. 3.1.2, 4.1.2, 4.2.2, 4.3.2; BRIEF §4). G_s(p) is the final
// score, Left minus Right, when Left moves first from p with both players
// playing perfectly and the score so far taken as 0; by Theorem 3.1.1,
// G_F^{SL}(p) = G_s(p) and G_F^{SR}(p) = -G_s(p). Points are signed integers.
#pragma once

#include <cstdint>

#include "cgtb/hd.hpp"

namespace cgtb {

/// Field identifiers of scoring records, as stored in tablebase files.
enum scoring_field : int {
  field_gs = 0,  ///< G_s = G_F^{SL}, signed (G_F^{SR} = -G_s for impartial games)
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
  /// The solver reports an overflow when max_value reaches this.
  static constexpr unsigned value_limit = static_cast<unsigned>(kScoringLimit);

  /// G_s of position p of `level`: the maximum of points - G_s(option) over
  /// every scored option, 0 when there is none.
  template <class View, class Lookup>
  CGTB_HD static record evaluate(const View& game, int level, typename View::position p, const Lookup& at) {
    bool any = false;
    std::int64_t best = 0;
    game.for_each_scored_option(level, p, [&](int l, std::uint64_t r, std::int32_t points) {
      std::int64_t v = static_cast<std::int64_t>(points) - at(l, r).v;
      if (!any || v > best) best = v;
      any = true;
    });
    if (best > kScoringLimit) best = kScoringLimit;
    if (best < -kScoringLimit) best = -kScoringLimit;
    return record{static_cast<std::int32_t>(best)};
  }

  /// |G_s| (overflow check: must stay below value_limit).
  CGTB_HD static unsigned max_value(const record& r) {
    return static_cast<unsigned>(r.v < 0 ? -static_cast<std::int64_t>(r.v) : r.v);
  }

  /// Value of field `f` (a scoring_field) of a record.
  CGTB_HD static std::int64_t field(const record& r, int /*f*/) { return r.v; }
};

/// Per-position record of a partizan scoring game: G_F^{SL} (Left moves
/// first) and G_F^{SR} (Right moves first), each the final score Left minus
/// Right with the score so far taken as 0.
struct partizan_scoring_record {
  std::int32_t sl, sr;
};

/// The partizan scoring value rule (seed 001 Def. 2.0.1, final scores G_F^{SL} and
/// G_F^{SR}): G_F^{SL}(p) = max over Left's options o of (points + G_F^{SR}(o)),
/// G_F^{SR}(p) = min over Right's options o of (G_F^{SL}(o) - points), where
/// points are what the mover scores; a player with no option ends the game
/// (value 0). Views give for_each_scored_left_option and
/// for_each_scored_right_option(level, p, f(option_level, option_rank,
/// points)). For an impartial game (same options, same points) it gives
/// G_F^{SL} = G_s and G_F^{SR} = -G_s (Theorem 3.1.1).
struct partizan_scoring_rule {
  using record = partizan_scoring_record;
  static constexpr unsigned value_limit = static_cast<unsigned>(kScoringLimit);

  CGTB_HD static std::int32_t clamp(std::int64_t v) {
    return static_cast<std::int32_t>(v > kScoringLimit ? kScoringLimit : v < -kScoringLimit ? -kScoringLimit : v);
  }

  template <class View, class Lookup>
  CGTB_HD static record evaluate(const View& game, int level, typename View::position p, const Lookup& at) {
    bool any = false;
    std::int64_t sl = 0, sr = 0;
    game.for_each_scored_left_option(level, p, [&](int l, std::uint64_t r, std::int32_t points) {
      const std::int64_t v = static_cast<std::int64_t>(points) + at(l, r).sr;
      if (!any || v > sl) sl = v;
      any = true;
    });
    any = false;
    game.for_each_scored_right_option(level, p, [&](int l, std::uint64_t r, std::int32_t points) {
      const std::int64_t v = static_cast<std::int64_t>(at(l, r).sl) - points;
      if (!any || v < sr) sr = v;
      any = true;
    });
    return record{clamp(sl), clamp(sr)};
  }

  /// max(|G_F^{SL}|, |G_F^{SR}|) (overflow check).
  CGTB_HD static unsigned max_value(const record& r) {
    const std::int64_t a = r.sl < 0 ? -static_cast<std::int64_t>(r.sl) : r.sl;
    const std::int64_t b = r.sr < 0 ? -static_cast<std::int64_t>(r.sr) : r.sr;
    return static_cast<unsigned>(a > b ? a : b);
  }

  /// Field 0: G_F^{SL}; field 1: G_F^{SR}.
  CGTB_HD static std::int64_t field(const record& r, int f) { return f == 0 ? r.sl : r.sr; }
};

}  // namespace cgtb
