// How the classes of a keyed table's levels would be shared among the ranks
// of a distributed build (docs/distributed.md): which rank owns a class, by
// a hash of its file key or by ranges of keys between splitters drawn from
// a sample, and how even the shares come out on a table already built
// (`cgtb shares FILE`). The distributed build takes its owner functions from
// here, so that the figures are of the functions it runs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cgtb/tablebase.hpp"

namespace cgtb {

/// Owner (0 .. ranks - 1) of the class with file key `key` when classes are
/// shared by hash: hash_home(key, ranks) (cgtb/reachable_index.hpp), the
/// high bits of mix64(key) scaled to `ranks`. `ranks` >= 1.
std::uint32_t hash_owner(std::uint64_t key, std::uint32_t ranks);

/// Splitters of key ranges for `ranks` ranks from a sample of a level's keys
/// (any order, repeats allowed): ranks - 1 ascending keys, the sample's
/// quantiles; rank r owns the keys k with s[r-1] <= k < s[r] (s[-1] = 0,
/// s[ranks-1] = infinity). An empty sample gives every key to rank 0.
std::vector<std::uint64_t> range_splitters(std::vector<std::uint64_t> sample, std::uint32_t ranks);

/// Owner of `key` under range_splitters' splitters `s`.
std::uint32_t range_owner(const std::vector<std::uint64_t>& s, std::uint64_t key);

/// True when a level of `positions` classes is worth splitting across
/// `ranks` ranks: each would own at least `min_per_rank` classes (4096 by
/// default). Smaller levels are solved on one rank, where the exchange would
/// cost more than the work.
bool split_across_ranks(std::uint64_t positions, std::uint32_t ranks, std::uint64_t min_per_rank = 4096);

/// The blocks of a level that one rank writes, when ranks 0, 1, ... own
/// consecutive runs of the level's ranks (ownership by key range): the file
/// cuts a level into blocks of `block_entries` entries from its first rank
/// (docs/format.md), and block b is written by the rank that owns its first
/// entry, b * block_entries. A rank whose run does not start a block lends
/// its first entries to the rank that writes that block, and a rank whose
/// last block runs past its run borrows the entries it lacks from the ranks
/// after it; every other entry stays where it is.
struct rank_blocks {
  std::uint64_t first_rank = 0;   ///< the level rank of the run's first entry
  std::uint64_t count = 0;        ///< entries of the run
  std::uint64_t first_block = 0;  ///< first block this rank writes (0 when it writes none)
  std::uint64_t blocks = 0;       ///< blocks it writes: first_block .. first_block + blocks - 1
  std::uint64_t lent = 0;         ///< its first entries, which a block of an earlier rank holds
  std::uint64_t borrowed = 0;     ///< entries after its run that its last block holds
};

/// The blocks each rank writes (rank_blocks) when rank r owns counts[r]
/// entries of a level, in rank order. Throws std::invalid_argument when
/// block_entries is 0.
std::vector<rank_blocks> blocks_per_rank(const std::vector<std::uint64_t>& counts, std::uint64_t block_entries);

/// The shares of one level for one rank count.
struct level_share {
  int level = 0;
  std::uint64_t positions = 0;
  std::uint32_t ranks = 1;
  bool split = false;                  ///< split_across_ranks(positions, ranks)
  std::uint64_t largest_by_hash = 0;   ///< classes of the fullest rank under hash_owner
  std::uint64_t largest_by_range = 0;  ///< the same under range_owner, splitters from a sample
  /// largest / mean (mean = positions / ranks); 0 for an empty level.
  double hash_ratio() const;
  double range_ratio() const;
};

/// Options of measure_shares.
struct share_options {
  std::vector<std::uint32_t> ranks{16, 64, 256};  ///< rank counts to measure (each >= 1)
  std::uint64_t sample_per_rank = 4096;           ///< keys sampled per rank for the splitters
  std::uint64_t seed = 1;                         ///< of the sample
  /// Called after each level with its shares (may be empty).
  std::function<void(const std::vector<level_share>&)> on_level;
};

/// The shares of every level of the keyed table `tb` for each rank count
/// of `opt` (one entry per level and rank count, level-major). Reads each
/// level's keys once through the file. Throws input_error for a table
/// without keys (its index is the ruleset's, not a set of classes) or a
/// rank count of 0, and what the reader throws for a corrupt file.
std::vector<level_share> measure_shares(tablebase& tb, const share_options& opt);

}  // namespace cgtb
