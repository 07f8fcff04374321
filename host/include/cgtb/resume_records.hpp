// What a resumable build's checkpoint carries for the solver (docs/format.md,
// "Checkpoint payload"): the stored values of every solved level that a level
// still to solve reaches (the game's option_level_span: the level below for
// Cram and Domineering, the last k levels for Row Impartial Terminus, every
// level for octal games), and the record dictionary's entries where records
// are interned. Written where the values lie; copies are kept only of levels
// that a later checkpoint carries again.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cgtb/tablebase_writer.hpp"

namespace cgtb {

/// The solver's side of a resumable build's checkpoints.
class resume_records {
 public:
  /// `levels`: the game's levels, ascending; `span`: its option_level_span
  /// (options of level L land on L-span..L-1; 0: any lower level);
  /// `stored_bytes`: bytes of a position's stored value (a record, or a
  /// 4-byte id where records are interned); `entry_bytes`: bytes of a
  /// dictionary entry (0 where records are not interned).
  resume_records(std::vector<int> levels, int span, std::size_t stored_bytes, std::size_t entry_bytes);

  /// The checkpoint's payload after level `level` of n positions was solved:
  /// its stored values at `stored` (valid until the checkpoint is written),
  /// the dictionary's `entry_count` entries at `entries` (null where records
  /// are not interned), and the kept copies of the earlier levels that the
  /// levels still to solve reach. Keeps a copy of this level where a later
  /// checkpoint carries it too.
  std::vector<tablebase_writer::payload_piece> after_level(int level, std::uint64_t n, const void* stored,
                                                           const void* entries, std::uint64_t entry_count);

  /// Reads the payload of the checkpoint `w` resumed from (w.resumed());
  /// returns the last level the resumed build solved. Throws input_error
  /// naming `output` when the payload does not belong to this build.
  int resume_from(const tablebase_writer& w, const std::string& output);

  /// Fills `dst` with the n stored values of `level` from the resumed
  /// payload and, where records are interned, `*entries` with the
  /// dictionary's entries (solve_options::load_level). Frees the payload once
  /// every level it carries has been read. Throws input_error when the
  /// payload holds no such level.
  void load(tablebase_writer& w, int level, std::uint64_t n, void* dst, std::string* entries);
  /// The same for one rank of a build split across ranks, from the payload
  /// of its rank checkpoint (read_rank_checkpoint), which this object keeps
  /// until every level it carries is loaded.
  int resume_from(std::string payload, const std::string& output);
  void load(int level, std::uint64_t n, void* dst, std::string* entries);

 private:
  /// Indexes (into levels_) of the solved levels that the levels after index
  /// i reach.
  std::vector<std::size_t> reached_after(std::size_t i) const;
  std::size_t index_of(int level) const;
  /// Reads a payload's head and table; returns its last level solved.
  int parse(const std::string& payload, const std::string& output);
  /// Copies a level out of `payload`; true once every level it carries is read.
  bool load_from(const std::string& payload, int level, std::uint64_t n, void* dst, std::string* entries);
  std::string owned_;  ///< a rank checkpoint's payload (resume_from(std::string, ...))

  std::vector<int> levels_;
  int span_;
  std::size_t stored_bytes_, entry_bytes_;
  std::map<int, std::string> copies_;  ///< level -> stored values kept for later checkpoints
  std::int64_t head_[4] = {0, 0, 0, 0};
  std::vector<std::int64_t> table_;                               ///< the resumed payload's (level, n) pairs
  std::map<int, std::pair<std::size_t, std::uint64_t>> resumed_;  ///< level -> (offset, n) in the resumed payload
  std::size_t entries_at_ = 0, loaded_ = 0;
};

}  // namespace cgtb
