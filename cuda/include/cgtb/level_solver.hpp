// The retrograde-analysis kernel: one data-parallel map over the ranks of a
// level (docs/architecture.md). For each rank: unrank, generate options, rank
// each option in its own (already solved) level, read its record, fold with
// the value rule. No hash tables, recursion, locks or atomics.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "cgtb/hd.hpp"
#include "cgtb/prefetch.hpp"
#include "cgtb/reachable_index.hpp"
#include "cgtb/record_dictionary.hpp"

namespace cgtb {

/// True when View::random_access is set: unrank is one read, so the kernel
/// unranks every position instead of walking with next().
template <class View, class = void>
struct view_random_access : std::false_type {};
template <class View>
struct view_random_access<View, std::void_t<decltype(View::random_access)>> : std::bool_constant<View::random_access> {
};

/// The record lookup a level kernel hands its value rule: lookup(L, r) is the
/// record of rank r of level L. PrefetchBatch is the backend's hint
/// (cgtb/prefetch.hpp): how many option records a rule may prefetch before it
/// reads them.
template <class Record, int PrefetchBatch>
struct level_lookup {
  static constexpr int prefetch_batch = PrefetchBatch;
  const Record* const* by_level;
  CGTB_HD const Record& operator()(int option_level, std::uint64_t option_rank) const {
    return by_level[option_level][option_rank];
  }
};

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
/// PrefetchBatch is the backend's prefetch hint, passed on in the lookup.
template <class View, class Rule, int PrefetchBatch = 0>
struct level_kernel {
  using record = typename Rule::record;
  View game;
  int level;
  std::uint64_t count;
  std::uint64_t chunk_size;
  const record* const* by_level;
  record* out;
  int* overflow;  ///< set to 1 by any record the rule's overflow check rejects (the check fused into the pass)

  CGTB_HD void operator()(std::uint64_t chunk) const {
    std::uint64_t first = chunk * chunk_size;
    std::uint64_t last = first + chunk_size < count ? first + chunk_size : count;
    typename View::position p = game.unrank(level, first);
    const level_lookup<record, PrefetchBatch> lookup{by_level};
    for (std::uint64_t i = first; i < last; ++i) {
      if constexpr (view_random_access<View>::value) p = game.unrank(level, i);
      const record r = Rule::evaluate(game, level, p, lookup);
      if (Rule::overflows(r)) *overflow = 1;
      out[i] = r;
      if constexpr (!view_random_access<View>::value)
        if (i + 1 < last) p = game.next(level, p);
    }
  }
};

/// The record lookup of a level kernel over interned records
/// (cgtb/record_dictionary.hpp): lookup(L, r) is entries[ids_by_level[L][r]].
template <class Record, int PrefetchBatch>
struct interned_lookup {
  static constexpr int prefetch_batch = PrefetchBatch;
  const std::uint32_t* const* ids_by_level;
  const Record* entries;
  CGTB_HD const Record& operator()(int option_level, std::uint64_t option_rank) const {
    return entries[ids_by_level[option_level][option_rank]];
  }
  /// What to prefetch before the read: the id (the entries stay in cache).
  CGTB_HD const void* address(int option_level, std::uint64_t option_rank) const {
    return &ids_by_level[option_level][option_rank];
  }
};

/// The level kernel of a rule whose records the solver interns: as
/// level_kernel, but options' records are read through their ids and each
/// solved record is stored as its id in `dict` (out[i] = id). Sets *overflow
/// to 1 for a value overflow and *dict_full to 1 when the dictionary is full
/// (the solver grows it and runs the level again).
template <class View, class Rule, int PrefetchBatch = 0>
struct interned_level_kernel {
  using record = typename Rule::record;
  View game;
  int level;
  std::uint64_t count;
  std::uint64_t chunk_size;
  const std::uint32_t* const* ids_by_level;
  record_dictionary<record> dict;
  std::uint32_t* out;
  int* overflow;
  int* dict_full;

  CGTB_HD void operator()(std::uint64_t chunk) const {
    std::uint64_t first = chunk * chunk_size;
    std::uint64_t last = first + chunk_size < count ? first + chunk_size : count;
    typename View::position p = game.unrank(level, first);
    const interned_lookup<record, PrefetchBatch> lookup{ids_by_level, dict.entries};
    for (std::uint64_t i = first; i < last; ++i) {
      if constexpr (view_random_access<View>::value) p = game.unrank(level, i);
      const record r = Rule::evaluate(game, level, p, lookup);
      if (Rule::overflows(r)) *overflow = 1;
      out[i] = dict.intern(r, dict_full);
      if constexpr (!view_random_access<View>::value)
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

/// Forward pass of a keyed index: inserts the canonical options of the
/// position of rank i of the level above that fall in part `part` of `parts`
/// (key_part) into the hash set of the level below; sets *full when the set
/// has no free slot left. PrefetchBatch is the backend's prefetch hint
/// (cgtb/prefetch.hpp): how many options' slots to prefetch before inserting
/// them.
template <class View, int PrefetchBatch = 0>
struct reach_kernel {
  View game;
  reachable_level above;
  std::uint64_t part, parts;
  std::uint64_t* slots;
  std::uint64_t slot_count;
  int* full;
  CGTB_HD void operator()(std::uint64_t i) const {
    prefetch_queue<std::uint64_t, PrefetchBatch> inserts;
    auto insert = [this](std::uint64_t c) {
      if (!hash_set_insert(slots, slot_count, c)) *full = 1;
    };
    game.for_each_canonical_option(above.key(i), [&](std::uint64_t c) {
      if (parts == 1 || key_part(c, parts) == part) inserts.push(c, &slots[hash_home(c, slot_count)], insert);
    });
    inserts.flush(insert);
  }
};

/// True for an occupied hash slot.
struct occupied_slot {
  CGTB_HD bool operator()(std::uint64_t k) const { return k != kEmptySlot; }
};

}  // namespace cgtb
