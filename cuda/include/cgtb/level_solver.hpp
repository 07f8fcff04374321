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

/// Calls f(position) for the positions of ranks first .. last - 1 of `level`,
/// in rank order: through View::for_each_position where the view has one (a
/// keyed index walks its coded keys with a cursor), else by unranking the
/// first and stepping with View::next.
template <class View, class = void>
struct has_position_walk : std::false_type {};
template <class View>
struct has_position_walk<View, std::void_t<decltype(View::walks_positions)>> : std::true_type {};
template <class View, class F>
CGTB_HD void for_each_position(const View& game, int level, std::uint64_t first, std::uint64_t last, F&& f) {
  if constexpr (has_position_walk<View>::value) {
    game.for_each_position(level, first, last, f);
  } else {
    if (first >= last) return;
    typename View::position p = game.unrank(level, first);
    for (std::uint64_t i = first; i < last; ++i) {
      f(p);
      if (i + 1 < last) p = game.next(level, p);
    }
  }
}

/// Kernel functor solving ranks [chunk * chunk_size, ...) of one level.
///
/// The value rule drives the option walk: Rule::evaluate(view, level, p,
/// lookup) enumerates the options it needs (all options for impartial rules,
/// Left's and Right's for partizan ones, scored options for scoring rules) and
/// reads each option's record with lookup(option_level, option_rank).
///
/// `by_level[L]` points to the records of level L wherever L is resident (the
/// levels an option can land on); `out[i]` receives the record of the
/// position of rank i, for the ranks [begin, end) (a whole level, or one
/// chunk of a distributed build's part); work item c walks the ranks from
/// begin + c·chunk_size. With
/// chunk_size > 1 a work item walks its positions in rank order
/// (for_each_position: cheap on CPU threads); on the GPU chunk_size is 1 so
/// neighbouring threads write neighbouring records (coalesced stores).
/// PrefetchBatch is the backend's prefetch hint, passed on in the lookup.
template <class View, class Rule, int PrefetchBatch = 0>
struct level_kernel {
  using record = typename Rule::record;
  View game;
  int level;
  std::uint64_t begin, end;
  std::uint64_t chunk_size;
  const record* const* by_level;
  record* out;
  int* overflow;  ///< set to 1 by any record the rule's overflow check rejects (the check fused into the pass)

  CGTB_HD void operator()(std::uint64_t chunk) const {
    std::uint64_t first = begin + chunk * chunk_size;
    std::uint64_t last = first + chunk_size < end ? first + chunk_size : end;
    const level_lookup<record, PrefetchBatch> lookup{by_level};
    std::uint64_t i = first;
    for_each_position(game, level, first, last, [&](const typename View::position& p) {
      const record r = Rule::evaluate(game, level, p, lookup);
      if (Rule::overflows(r)) *overflow = 1;
      out[i++] = r;
    });
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
/// to 1 for a value overflow and *dict_full to 1 when the dictionary is full:
/// those positions get kNoRecordId, and the solver grows the dictionary and
/// runs the kernel again with `retry` set, which solves only the positions
/// holding kNoRecordId (a few: the ones whose record was new after the
/// dictionary filled) and walks past the others.
template <class View, class Rule, int PrefetchBatch = 0>
struct interned_level_kernel {
  using record = typename Rule::record;
  View game;
  int level;
  std::uint64_t begin, end;  ///< the ranks solved, as in level_kernel
  std::uint64_t chunk_size;
  const std::uint32_t* const* ids_by_level;
  record_dictionary<record> dict;
  std::uint32_t* out;
  int* overflow;
  int* dict_full;
  bool retry = false;

  CGTB_HD void operator()(std::uint64_t chunk) const {
    std::uint64_t first = begin + chunk * chunk_size;
    std::uint64_t last = first + chunk_size < end ? first + chunk_size : end;
    const interned_lookup<record, PrefetchBatch> lookup{ids_by_level, dict.entries};
    std::uint64_t i = first;
    for_each_position(game, level, first, last, [&](const typename View::position& p) {
      if (retry && out[i] != kNoRecordId) {
        ++i;
        return;
      }
      const record r = Rule::evaluate(game, level, p, lookup);
      if (Rule::overflows(r)) *overflow = 1;
      out[i++] = dict.intern(r, dict_full);
    });
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
/// positions of ranks [c·chunk, (c+1)·chunk) of the level above (those of
/// work item c) whose class falls in part `part` of `parts` (orbit_part) into
/// the hash set of the level below; sets *full when the set has no free slot
/// left. PrefetchBatch is the backend's prefetch hint (cgtb/prefetch.hpp):
/// how many options' slots to prefetch before inserting them.
template <class View, int PrefetchBatch = 0>
struct reach_kernel {
  View game;
  reachable_level above;
  std::uint64_t chunk;
  std::uint64_t part, parts;
  std::uint64_t* slots;
  std::uint64_t slot_count;
  int* full;
  CGTB_HD void operator()(std::uint64_t c) const {
    prefetch_queue<std::uint64_t, PrefetchBatch> inserts;
    // Once the set is full the pass only runs to its end: the solver
    // enlarges the set and does the pass again.
    auto insert = [this](std::uint64_t k) {
      if (flag_read(full)) return;
      if (!hash_set_insert(slots, slot_count, k)) flag_raise(full);
    };
    const std::uint64_t first = c * chunk, last = first + chunk < above.size ? first + chunk : above.size;
#if defined(__CUDA_ARCH__)
    above.for_each_key(first, last, [&](std::uint64_t, std::uint64_t p) {
      game.for_each_canonical_option(
          p, part, parts, nullptr, [&](std::uint64_t k) { inserts.push(k, &slots[hash_home(k, slot_count)], insert); });
    });
#else
    // CPU: the cells' image sums in a table, and a direct-mapped filter of
    // the keys this work item has inserted: positions near each other in key
    // order share options, and the filter (in cache) skips repeated inserts,
    // each a cache miss in the set.
    std::uint64_t cell_sums[64];
    if (parts > 1) game.cell_image_sums(cell_sums);
    std::uint64_t recent[std::size_t{1} << kFilterBits];
    for (std::uint64_t& r : recent) r = kEmptySlot;
    above.for_each_key(first, last, [&](std::uint64_t, std::uint64_t p) {
      game.for_each_canonical_option(p, part, parts, cell_sums, [&](std::uint64_t k) {
        std::uint64_t& r = recent[mix64(k) >> (64 - kFilterBits)];
        if (r == k) return;
        r = k;
        inserts.push(k, &slots[hash_home(k, slot_count)], insert);
      });
    });
#endif
    inserts.flush(insert);
  }
  /// Bits of the CPU's filter of recent keys (8 bytes an entry: 512 KB, in
  /// the core's L2 cache).
  static constexpr int kFilterBits = 16;
  /// Positions of the level above a CPU work item walks (a multiple of the
  /// backend's chunk): the filter works across them.
  static constexpr std::uint64_t kCpuChunk = 4096;
};

/// Builds a level's rank table: the slot of key r gets rank r, for the ranks
/// of work item c ([c·chunk, (c+1)·chunk)).
struct rank_table_kernel {
  reachable_level level;
  std::uint64_t chunk;
  std::uint64_t* slots;
  std::uint64_t slot_count;
  int* full;
  CGTB_HD void operator()(std::uint64_t c) const {
    const std::uint64_t first = c * chunk, last = first + chunk < level.size ? first + chunk : level.size;
    level.for_each_key(first, last, [&](std::uint64_t r, std::uint64_t key) {
      if (!rank_table_insert(slots, slot_count, key, r)) *full = 1;
    });
  }
};

/// Sets *ambiguous when a key's fingerprint lookup does not give its own rank
/// (reachable_level::check_keys), for the ranks of work item c.
struct rank_table_check_kernel {
  reachable_level level;
  std::uint64_t chunk;
  int* ambiguous;
  CGTB_HD void operator()(std::uint64_t c) const {
    const std::uint64_t first = c * chunk, last = first + chunk < level.size ? first + chunk : level.size;
    level.for_each_key(first, last, [&](std::uint64_t r, std::uint64_t key) {
      if (level.table_find(key) != r) *ambiguous = 1;
    });
  }
};

/// True for an occupied hash slot.
struct occupied_slot {
  CGTB_HD bool operator()(std::uint64_t k) const { return k != kEmptySlot; }
};

/// Compaction of a hash set's occupied slots in blocks, without temporaries
/// the size of the set: counts[b] = the occupied slots of block b (slots
/// [b * block, (b + 1) * block) of the cap slots). One work item per block.
struct occupied_block_count {
  const std::uint64_t* slots;
  std::uint64_t cap, block;
  std::uint64_t* counts;
  CGTB_HD void operator()(std::uint64_t b) const {
    const std::uint64_t first = b * block, last = first + block < cap ? first + block : cap;
    std::uint64_t n = 0;
    for (std::uint64_t i = first; i < last; ++i) n += slots[i] != kEmptySlot;
    counts[b] = n;
  }
};

/// The second step of occupied_block_count: block b's occupied slots, in
/// slot order, to out[offsets[b]...] (offsets: the exclusive prefix sums of
/// the counts).
struct occupied_block_copy {
  const std::uint64_t* slots;
  std::uint64_t cap, block;
  const std::uint64_t* offsets;
  std::uint64_t* out;
  CGTB_HD void operator()(std::uint64_t b) const {
    const std::uint64_t first = b * block, last = first + block < cap ? first + block : cap;
    std::uint64_t* o = out + offsets[b];
    for (std::uint64_t i = first; i < last; ++i)
      if (slots[i] != kEmptySlot) *o++ = slots[i];
  }
};

}  // namespace cgtb
