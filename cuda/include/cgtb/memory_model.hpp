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

}  // namespace cgtb::memory_model
