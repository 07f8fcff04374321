// The memory model of a keyed (reachable) build: how large the solver makes
// its rank tables and the forward pass's hash sets, and into how many parts it
// splits a level of the forward pass. The solver (cuda/src/solve_index.hpp)
// sizes its buffers with these functions and `cgtb plan`
// (host/src/domino_plan.cpp) predicts a build's peak with the same ones, so
// the two cannot drift apart. Host-only.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "cgtb/backend.hpp"
#include "cgtb/reachable_index.hpp"

namespace cgtb::memory_model {

/// Slots of a level's rank table for n stored keys: load about 2/3 (any
/// size: slots are found by range reduction, not by a mask).
inline constexpr std::uint64_t rank_table_slots(std::uint64_t n) { return n + n / 2 + 16; }

/// Bytes of a level's rank table for n stored keys (8-byte slots); 0 for a
/// level past kMaxRankTableLevel, which never gets one.
inline double rank_table_bytes(std::uint64_t n) {
  return n <= kMaxRankTableLevel ? 8.0 * static_cast<double>(rank_table_slots(n)) : 0.0;
}

/// Bytes one part of the forward pass's hash set may take: a quarter of the
/// memory available, and at least 16 MiB.
inline double forward_part_budget(double available_bytes) { return std::max(16.0 * (1 << 20), available_bytes / 4); }

/// Parts the forward pass splits a level into (by key hash, each a pass over
/// the level above) for `estimate` keys, so that each part's hash set (8-byte
/// slots at load 3/4) fits forward_part_budget.
inline std::uint64_t forward_parts(double estimate, double available_bytes) {
  return std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(std::ceil(8.0 * 4.0 / 3.0 * estimate / forward_part_budget(available_bytes))));
}

/// Slots of one part's hash set for `estimate` keys in `parts` parts: the
/// estimated count at load 3/4, and 1024 more (the solver enlarges the set
/// by half and redoes the part when it fills past 4/5).
inline std::uint64_t forward_set_slots(double estimate, std::uint64_t parts) {
  return 1024 + static_cast<std::uint64_t>(4.0 / 3.0 * estimate / static_cast<double>(parts));
}

/// Bytes of level keys a reachable build keeps in host memory (beyond them
/// every level's keys wait in a temporary file until their level is solved):
/// kKeptKeysBytes, or an eighth of the memory available where that is less.
inline double kept_keys_limit(double available_bytes) {
  return std::min(static_cast<double>(kKeptKeysBytes), available_bytes / 8);
}

/// Distributed builds: the fewest distinct options a chunk of a rank's part
/// is sized for (the solve of a part goes in chunks where the records of all
/// its options would not fit; each chunk fetches those of its own options).
inline constexpr std::uint64_t kMinChunkOptions = std::uint64_t{1} << 20;

/// Distributed builds: bytes one distinct option of a chunk takes while the
/// chunk is solved, the larger of its two phases: generating the chunk's
/// options (a forward-pass hash set slot at load 3/4, with room to grow by
/// half, and the compacted key) and fetching their records (the key decoded,
/// coded and in a rank table; `whole_bytes` of a record as it travels where
/// the stored value is a dictionary id, else 0; `stored_bytes` as stored).
inline double fetched_option_bytes(double whole_bytes, double stored_bytes) {
  const double generate = 8.0 * 4.0 / 3.0 * 1.5 + 8.0;
  const double fetch = 8.0 + whole_bytes + stored_bytes + 4.0 + 12.0;
  return std::max(generate, fetch);
}

/// Distributed builds: the distinct options on a level of `below` classes
/// that `s` classes of the level above reach, each with `degree` options
/// spread at random over the level below (the random-graph estimate of
/// `cgtb plan --ranks`), and its inverse: the classes whose options stay
/// under `options`.
inline double options_reached(double s, double degree, double below) {
  return below > 0 ? below * -std::expm1(-s * degree / below) : 0.0;
}
inline double classes_reaching(double options, double degree, double below) {
  if (degree <= 0 || options >= below) return 1e300;
  return -below / degree * std::log1p(-options / below);
}
/// The option degree that makes `n` classes reach `found` distinct options
/// on a level of `below` classes (options_reached's inverse in degree).
inline double degree_reaching(double found, double n, double below) {
  if (n <= 0 || below <= 0) return 0.0;
  const double f = std::min(found / below, 1.0 - 1e-9);
  return -below / n * std::log1p(-f);
}

}  // namespace cgtb::memory_model
