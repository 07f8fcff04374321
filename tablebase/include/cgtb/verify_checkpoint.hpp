// cgtb verify --resume: the state a long verification keeps after each level
// pass, so that a run stopped (killed, out of time) continues where it
// stopped (host/src/verify.cpp writes and reads it; docs/format.md, "Verify
// checkpoints").
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace cgtb::detail {

/// One level's reachability marks (a bit per stored position, set when it
/// was found as an option of a stored position): `words` 64-bit words at
/// `bits`, owned by the caller.
struct verify_marks {
  int level = 0;
  std::atomic<std::uint64_t>* bits = nullptr;
  std::uint64_t words = 0;
};

/// What a verify checkpoint holds besides the marks.
struct verify_progress {
  /// The table (its size, modification time and header) and the options the
  /// run checks with: a checkpoint of another table or other options is
  /// refused.
  std::string identity;
  int last_level = 0;      ///< the last level whose pass completed
  std::vector<int> reach;  ///< how far below its own level that pass read (the levels to preload next)
  std::uint64_t positions = 0, options = 0, genus_positions = 0, round_trips = 0, period_checked = 0;
};

/// Writes `p` and the marks to `path`: to path + ".tmp", flushed to disk,
/// then renamed over `path`, so that a run killed while writing leaves the
/// previous checkpoint. Little-endian: magic "CGTBVCK1"; u64 identity length
/// and text; i64 last level; u64 count and i64 reach distances; the five
/// counters; u64 level count, then per level i64 level, u64 words and the
/// words; XXH64 of everything before. Throws resource_error when the file
/// cannot be written.
void write_verify_checkpoint(const std::string& path, const verify_progress& p, const std::vector<verify_marks>& marks);

/// Reads the checkpoint at `path` into `p` and the marks (which must name
/// the same levels with the same word counts, as the run allocated them).
/// Returns false when there is none. Throws corrupt_file_error for a file
/// that is not a whole checkpoint, and input_error for one whose identity
/// differs from p.identity (another table, or other options): the message
/// says to remove it to verify afresh.
bool read_verify_checkpoint(const std::string& path, verify_progress& p, const std::vector<verify_marks>& marks);

}  // namespace cgtb::detail
