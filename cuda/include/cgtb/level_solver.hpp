// The retrograde-analysis kernel: one data-parallel map over the ranks of a
// level (BRIEF §2). For each rank: unrank, generate options, rank each option
// in its own (already solved) level, read its record, fold with the value rule.
// No hash tables, recursion, locks or atomics.
#pragma once

#include <cstdint>

#include "cgtb/hd.hpp"

namespace cgtb {

/// Kernel functor solving ranks [chunk * chunk_size, ...) of one level.
///
/// The value rule drives the option walk: Rule::evaluate(view, level, p,
/// lookup) enumerates the options it needs (all options for impartial rules,
/// Left's and Right's for partizan ones, scored options for scoring rules) and
/// reads each option's record with lookup(option_level, option_rank).
///
/// `by_level[L]` points to the records of level L wherever L is resident (the
/// levels an option can land on); `out` receives `count` records. With
/// chunk_size > 1 a work item unranks its first position and walks to the next
/// ones with View::next (cheap on CPU threads); on the GPU chunk_size is 1 so
/// neighbouring threads write neighbouring records (coalesced stores).
template <class View, class Rule>
struct level_kernel {
  using record = typename Rule::record;
  View game;
  int level;
  std::uint64_t count;
  std::uint64_t chunk_size;
  const record* const* by_level;
  record* out;

  CGTB_HD void operator()(std::uint64_t chunk) const {
    std::uint64_t first = chunk * chunk_size;
    std::uint64_t last = first + chunk_size < count ? first + chunk_size : count;
    typename View::position p = game.unrank(level, first);
    auto lookup = [this](int option_level, std::uint64_t option_rank) -> const record& {
      return by_level[option_level][option_rank];
    };
    for (std::uint64_t i = first; i < last; ++i) {
      out[i] = Rule::evaluate(game, level, p, lookup);
      if (i + 1 < last) p = game.next(level, p);
    }
  }
};

/// Number of options of the position of rank i (for --stats).
template <class View>
struct option_count_kernel {
  View game;
  int level;
  CGTB_HD std::uint64_t operator()(std::uint64_t i) const {
    return static_cast<std::uint64_t>(game.option_count(game.unrank(level, i)));
  }
};

/// Largest value held in a record (overflow check after each level).
template <class Rule>
struct max_value_kernel {
  CGTB_HD unsigned operator()(const typename Rule::record& r) const { return Rule::max_value(r); }
};

}  // namespace cgtb
