// The Conway-Gurvich-Ho (CGH) classification of an impartial game restricted
// to the positions of a tablebase ("Row Impartial Terminus", section 2B; Gurvich and Ho,
// "Conway-Gurvich-Ho" hierarchy). The Conway pair of a position is
// (G, G-): its normal and misère Grundy values.
//   forced     every move from a (0,1)-position leads to a (1,0)-position and
//              every move from a (1,0)-position to a (0,1)-position;
//   miserable  every position is (0,1) or (1,0), or has no move to a (0,1)-
//              or (1,0)-position, or has moves to both;
//   pet        every position is (0,1), (1,0) or (k,k) with k >= 2.
// The table must be closed under moves (every table cgtb builds is).
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/tablebase.hpp"

namespace cgtb {

/// One CGH property and, when it fails, the first position (lowest level,
/// then lowest rank) that breaks it, described in words.
struct cgh_property {
  bool holds = true;
  std::string witness;  ///< empty when the property holds
};

/// Result of `cgtb classify`.
struct classify_report {
  std::string ruleset, params;
  std::uint64_t positions = 0;
  cgh_property forced, miserable, pet;
  /// Number of positions with each Conway pair (G, G-).
  std::map<std::pair<unsigned, unsigned>, std::uint64_t> pairs;

  /// Human-readable report (several lines).
  void print(std::ostream& out) const;
  /// One JSON object on one line.
  std::string json() const;
};

/// The Conway pairs of every position of `tb`, one vector per level:
/// pairs[level][rank] = G << 8 | G-. Throws input_error if the file lacks the
/// grundy or misere field.
std::vector<std::vector<std::uint16_t>> load_conway_pairs(tablebase& tb);

/// Classifies the game `game` over the levels of `tb` (the generic algorithm:
/// one pass over every position and its options, in parallel). `name(level,
/// rank)` gives a position's text for witnesses.
template <class Game>
classify_report classify_table(const Game& game, tablebase& tb,
                               const std::function<std::string(int, std::uint64_t)>& name) {
  const auto pairs = load_conway_pairs(tb);
  auto view = game.host_view();
  classify_report rep;
  rep.ruleset = tb.header().ruleset;
  rep.params = tb.header().params;
  constexpr std::uint16_t p01 = 1, p10 = 1u << 8;
  auto pair_text = [](std::uint16_t v) { return "(" + std::to_string(v >> 8) + "," + std::to_string(v & 255u) + ")"; };
  auto pair_at = [&](int l, std::uint64_t r) -> std::uint16_t {
    if (l < 0 || static_cast<std::size_t>(l) >= pairs.size() || r >= pairs[static_cast<std::size_t>(l)].size())
      throw input_error("tablebase lacks level " + std::to_string(l) + " rank " + std::to_string(r) +
                        ", an option of one of its positions");
    return pairs[static_cast<std::size_t>(l)][r];
  };
  std::array<std::uint64_t, 1u << 16> counts{};
  const std::uint64_t none = ~0ull;
  for (int level : game.levels()) {
    if (static_cast<std::size_t>(level) >= pairs.size())
      throw input_error("tablebase lacks level " + std::to_string(level));
    const std::uint64_t n = view.level_size(level);
    if (pairs[static_cast<std::size_t>(level)].size() != n)
      throw input_error("tablebase level " + std::to_string(level) + " has the wrong number of positions");
    // First failing rank of each property on this level, with the option.
    std::uint64_t bad_forced = none, bad_miserable = none, bad_pet = none;
    std::string err;
    const std::uint64_t chunk = 1024;
    const std::int64_t chunks = static_cast<std::int64_t>((n + chunk - 1) / chunk);
#pragma omp parallel
    {
      std::vector<std::uint64_t> local(1u << 16, 0);
      std::uint64_t bf = none, bm = none, bp = none;
#pragma omp for schedule(dynamic, 4)
      for (std::int64_t c = 0; c < chunks; ++c) {
        try {
          const std::uint64_t first = static_cast<std::uint64_t>(c) * chunk, last = std::min(n, first + chunk);
          auto p = view.unrank(level, first);
          for (std::uint64_t r = first; r < last; ++r) {
            const std::uint16_t px = pairs[static_cast<std::size_t>(level)][r];
            ++local[px];
            bool to01 = false, to10 = false, forced_ok = true;
            view.for_each_option(level, p, [&](int l, std::uint64_t orank) {
              const std::uint16_t po = pair_at(l, orank);
              to01 = to01 || po == p01;
              to10 = to10 || po == p10;
              if (px == p01 && po != p10) forced_ok = false;
              if (px == p10 && po != p01) forced_ok = false;
            });
            if (!forced_ok) bf = std::min(bf, r);
            if (px != p01 && px != p10 && to01 != to10) bm = std::min(bm, r);
            const unsigned g = px >> 8, m = px & 255u;
            if (px != p01 && px != p10 && !(g == m && g >= 2)) bp = std::min(bp, r);
            if (r + 1 < last) p = view.next(level, p);
          }
        } catch (const std::exception& e) {
#pragma omp critical
          err = e.what();
        }
      }
#pragma omp critical
      {
        for (std::size_t v = 0; v < local.size(); ++v) counts[v] += local[v];
        bad_forced = std::min(bad_forced, bf);
        bad_miserable = std::min(bad_miserable, bm);
        bad_pet = std::min(bad_pet, bp);
      }
    }
    if (!err.empty()) throw input_error(err);
    rep.positions += n;
    // Witnesses: describe the first failing position and the option at fault.
    auto describe = [&](std::uint64_t r, int which) {
      const std::uint16_t px = pairs[static_cast<std::size_t>(level)][r];
      std::string s = name(level, r) + " is a " + pair_text(px) + "-position";
      if (which == 2) return s;
      std::string opt;
      bool to01 = false, to10 = false;
      view.for_each_option(level, view.unrank(level, r), [&](int l, std::uint64_t orank) {
        const std::uint16_t po = pair_at(l, orank);
        to01 = to01 || po == p01;
        to10 = to10 || po == p10;
        const bool breaks = which == 0 && ((px == p01 && po != p10) || (px == p10 && po != p01));
        const bool reach = which == 1 && (po == p01 || po == p10);
        if (opt.empty() && (breaks || reach)) opt = name(l, orank) + ", a " + pair_text(po) + "-position";
      });
      if (which == 0) return s + " with an option " + opt;
      return s + " whose options reach " + std::string(to01 ? "(0,1)" : "(1,0)") + " but not " +
             std::string(to01 ? "(1,0)" : "(0,1)") + " (e.g. " + opt + ")";
    };
    if (rep.forced.holds && bad_forced != none) rep.forced = {false, describe(bad_forced, 0)};
    if (rep.miserable.holds && bad_miserable != none) rep.miserable = {false, describe(bad_miserable, 1)};
    if (rep.pet.holds && bad_pet != none) rep.pet = {false, describe(bad_pet, 2)};
  }
  for (std::size_t v = 0; v < counts.size(); ++v)
    if (counts[v]) rep.pairs[{static_cast<unsigned>(v >> 8), static_cast<unsigned>(v & 255u)}] = counts[v];
  return rep;
}

}  // namespace cgtb
