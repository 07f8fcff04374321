// Value rules of impartial games: normal Grundy value, misère Grundy value and
// the misère genus, combined in one pass over a level.
//
// Sources: Winning Ways, ch. 11 (Sprague-Grundy, mex rule) and ch. 13 (misère
// play, genus); "Row Impartial Terminus", section 2A (misère Grundy value: a
// position with no options has value 1); "Cram with the last move losing" (an
// essay on misère Cram), "How the symbols were computed" (genus from states
// with heaps of *2 and *1 beside the position; a heap of *1 only toggles the
// misère value, so heaps of *2 suffice).
#pragma once

#include <cstdint>

#include "cgtb/hd.hpp"
#include "cgtb/prefetch.hpp"

namespace cgtb {

/// Number of misère values kept per position: gamma_0..gamma_K, where
/// gamma_a = G-(p + a copies of *2); K < 0 means no misère values at all.
CGTB_HD constexpr int misere_state_count(int K) { return K < 0 ? 0 : K + 1; }

/// Field identifiers of impartial records, as stored in tablebase files.
enum impartial_field : int {
  field_grundy = 0,  ///< normal-play Grundy value G(p)
  field_misere = 1,  ///< misère Grundy value G-(p) = gamma_0; field_misere + k holds
                     ///< gamma_k = G-(p + k copies of *2), k = 1..7
};

/// The bit of value v in a 64-bit mex mask; none for v >= 64 (an overflow,
/// which impartial_rule::overflows reports).
CGTB_HD constexpr std::uint64_t value_bit(unsigned v) { return v < 64 ? std::uint64_t{1} << v : 0; }

/// Per-position record: G(p) in `g`, and m[a] = gamma_a = G-(p + a*(*2)),
/// a = 0..K. Values are < 64; 64 marks an overflow (a mex over more than 64
/// distinct values), which the solver reports as an error.
template <int K>
struct impartial_record {
  std::uint8_t g;
  std::uint8_t m[misere_state_count(K)];

  /// gamma_a = G-(p + a*(*2)).
  CGTB_HD unsigned misere(int a) const { return m[a]; }
  /// G-(p + a*(*2) + b*(*1)) = gamma_a xor (b mod 2): for every impartial X,
  /// G-(X + *1) = G-(X) xor 1 (induction on X: the options of X + *1 are
  /// X' + *1 and X, so its value is mex({G-(X') xor 1} u {G-(X)})). Winning
  /// Ways, ch. 13 (the genus; a heap of *1 toggles the misère value).
  CGTB_HD unsigned misere_sum(int a, int b) const { return m[a] ^ static_cast<unsigned>(b & 1); }
};
template <>
struct impartial_record<-1> {
  std::uint8_t g;
};

/// The impartial value rule with K heaps of *2 beside each position: K = -1
/// computes G only, K = 0 adds G-, K = 7 adds the genus run gamma_0..gamma_7
/// (8 misère values per position).
template <int K>
struct impartial_rule {
  using record = impartial_record<K>;
  static constexpr int states = misere_state_count(K);

  /// Folds the options of one position into mex masks, then applies the mex
  /// rule. gamma_0 of a position with no option is 1 (Winning Ways ch. 13).
  /// For a >= 1 the options of p + a*(*2) are p' + a*(*2) (value gamma_a(p'))
  /// and the heap moves *2 -> *1 and *2 -> 0, to p + (a-1)*(*2) + *1 and
  /// p + (a-1)*(*2), of values gamma_{a-1}(p) xor 1 and gamma_{a-1}(p)
  /// (impartial_record::misere_sum): so gamma_a(p) = mex({gamma_a(p')} u
  /// {gamma_{a-1}(p), gamma_{a-1}(p) xor 1}).
  struct accumulator {
    std::uint64_t gmask = 0;
    std::uint64_t mmask[states > 0 ? states : 1];

    CGTB_HD accumulator() {
      for (int s = 0; s < (states > 0 ? states : 1); ++s) mmask[s] = 0;
    }

    CGTB_HD void add(const record& o) {
      gmask |= value_bit(o.g);
      if constexpr (states > 0) {
        for (int s = 0; s < states; ++s) mmask[s] |= value_bit(o.m[s]);
      }
    }

    CGTB_HD record finish() const {
      record r;
      r.g = static_cast<std::uint8_t>(mex64(gmask));
      if constexpr (states > 0) {
        r.m[0] = static_cast<std::uint8_t>(mmask[0] == 0 ? 1 : mex64(mmask[0]));
        for (int a = 1; a <= K; ++a)
          r.m[a] = static_cast<std::uint8_t>(mex64(mmask[a] | value_bit(r.m[a - 1]) | value_bit(r.m[a - 1] ^ 1u)));
      }
      return r;
    }
  };

  /// Record of position p of `level`: folds every option's record, read with
  /// at(option_level, option_rank), then applies the mex rule.
  template <class View, class Lookup>
  CGTB_HD static record evaluate(const View& game, int level, typename View::position p, const Lookup& at) {
    accumulator acc;
    // The options' records are scattered over large levels: the lookup's
    // prefetch batch (the backend's choice, cgtb/prefetch.hpp) says how many
    // to prefetch before folding them.
    struct pending_read {
      int level;
      std::uint64_t rank;
    };
    prefetch_queue<pending_read, lookup_prefetch_batch<Lookup>::value> reads;
    auto fold = [&acc, &at](const pending_read& o) { acc.add(at(o.level, o.rank)); };
    game.for_each_option(level, p, [&](int l, std::uint64_t r) { reads.push({l, r}, record_address(at, l, r), fold); });
    reads.flush(fold);
    return acc.finish();
  }

  /// Values stay below 64, the width of the mex masks; mex64 returns 64 when
  /// a mask is full.
  static constexpr unsigned value_limit = 64;

  /// Overflow check of the solver: true when a value of the record reached
  /// value_limit (the build then fails with a resource_error).
  CGTB_HD static bool overflows(const record& r) {
    unsigned v = r.g;
    if constexpr (states > 0) {
      for (int s = 0; s < states; ++s) v = v > r.m[s] ? v : r.m[s];
    }
    return v >= value_limit;
  }

  /// Value of field `f` (an impartial_field) of a record.
  CGTB_HD static unsigned field(const record& r, int f) {
    if (f == field_grundy) return r.g;
    if constexpr (states > 0) return r.m[f - field_misere];
    return 0;
  }
};

/// The normal-play Grundy value of positions whose options are disjunctive
/// sums of stored positions (a Cram region less a domino falls apart into
/// connected parts: cgtb/games/cram_components.hpp). The view calls
/// on_part(level, rank) for each part of an option, then on_option_end();
/// an option's value is the XOR of its parts' values (the Sprague-Grundy
/// theorem, Winning Ways ch. 11; an option with no part is the empty
/// position, value 0), and the position's is the mex of its options'. G
/// only: misere values do not combine over parts. Records are
/// impartial_record<-1>, so the drivers, files and checks of G serve as they
/// are.
struct impartial_sum_rule {
  using record = impartial_record<-1>;
  static constexpr int states = 0;

  template <class View, class Lookup>
  CGTB_HD static record evaluate(const View& game, int level, const typename View::position& p, const Lookup& at) {
    std::uint64_t mask = 0;
    unsigned x = 0;
    game.for_each_option_part(
        level, p, [&](int l, std::uint64_t r) { x ^= at(l, r).g; },
        [&]() {
          mask |= value_bit(x);
          x = 0;
        });
    record r;
    r.g = static_cast<std::uint8_t>(mex64(mask));
    return r;
  }

  static constexpr unsigned value_limit = 64;
  CGTB_HD static bool overflows(const record& r) { return r.g >= value_limit; }
  CGTB_HD static unsigned field(const record& r, int) { return r.g; }
};

}  // namespace cgtb
