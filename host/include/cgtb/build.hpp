// The build loop every driver shares: solve a game level by level with a value
// rule and stream each level into a tablebase file, with progress lines and
// --stats figures.
#pragma once

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "cgtb/backend.hpp"
#include "cgtb/domino_plan.hpp"
#include "cgtb/driver.hpp"
#include "cgtb/reachable_index.hpp"
#include "cgtb/record_dictionary.hpp"
#include "cgtb/resume_records.hpp"
#include "cgtb/tablebase.hpp"
#include "cgtb/value_kinds.hpp"

namespace cgtb {

/// The header of a build of `ruleset` with canonical `params`: the family,
/// values line and fields of the chosen value kinds, the request's block size
/// and zstd level (the index lines are the position locator's to fill).
tablebase_header build_header(const std::string& ruleset, const std::string& params, const value_choice& values,
                              const build_request& req);

/// Throws input_error when req.output cannot be a build's output
/// (tablebase_writer::check_output_path) or, unless req.force, when a file
/// is there already: one line saying what it is ("is a cgtb tablebase of
/// cram 4x5", "is not a cgtb tablebase") and that --force replaces it. The
/// front ends call it before any work; solve_and_write calls it again.
void check_build_output(const build_request& req);

/// The line a finished build ends with (the CLI and the Python module):
/// "[cgtb] wrote FILE (GAME PARAMS, VALUES, BACKEND backend)", VALUES the
/// value kinds the written file holds, read from its header (a game may store
/// fewer than --values asks). Throws what opening the file throws.
std::string wrote_line(const std::string& game, const std::string& params, const build_request& req);

/// Distributed builds (docs/distributed.md, "Writing"): writes level `level`,
/// whose parts lie on the ranks of `x` in rank order, this rank's `n`
/// entries given by `fill` and `keys` (as tablebase_writer::add_level_blocks
/// takes them, ranks counted from the part's first entry). Each rank packs
/// and compresses the file's blocks whose first entry it holds
/// (blocks_per_rank, cgtb/rank_shares.hpp), having sent its first entries
/// that belong to an earlier rank's block to that rank; rank 0 takes every
/// rank's compressed blocks in rank order and appends them to `w` (null on
/// the other ranks), so that the file holds the bytes one process writes.
/// Collective. Returns the level's positions on every rank. Throws what the
/// writer and the exchange throw; internal_error when a rank receives other
/// entries than its blocks need.
std::uint64_t write_level_parts(level_exchange& x, tablebase_writer* w, const tablebase_header& h, int level,
                                std::uint64_t n, const tablebase_writer::block_filler& fill,
                                const tablebase_writer::key_filler& keys);

/// Peak resident memory of this process, in bytes.
std::size_t peak_rss_bytes();

/// Prints the per-level and total figures of a build (cgtb build --stats);
/// `stored`: the table holds one entry per symmetry class (keyed index);
/// `file_positions`: the positions the file holds, where more than `levels`
/// count (a resumed build reports only the levels it solved; 0: their sum).
void print_build_stats(std::ostream& out, const std::vector<level_report>& levels, double total_seconds,
                       const std::string& file, std::uint64_t file_bytes, bool stored = false,
                       std::uint64_t file_positions = 0);

/// The progress line of a build on stderr (cgtb build without -q). On a
/// terminal one line, rewritten in place at most ten times a second: the
/// level, levels done, positions done (with the share of all when the total
/// is known), positions per second and, after the first second of solving,
/// an estimate of the time left. Else one line per level for builds of up to
/// 200 levels, and for longer ones (e.g. an octal sequence, one heap per
/// level) a line every 5 s. A summary line at the end in both cases.
class build_progress {
 public:
  /// `sink`: where the lines go (null: none); `levels`: how many levels the
  /// build solves; `positions`: how many positions in all, 0 when not known
  /// yet (reachable tables: see set_total()).
  build_progress(progress_sink* sink, std::size_t levels, std::uint64_t positions);
  /// Reports a solved level.
  void level_done(const level_report& r);
  /// Sets the positions in all, once known (a reachable table's, after its
  /// forward pass).
  void set_total(std::uint64_t positions) { total_ = positions; }
  /// Counts `levels` levels of `positions` positions as solved by the build
  /// a resumed one continues: they count as done, not in the rate.
  void solved_before(std::size_t levels, std::uint64_t positions);
  /// Ends the line and prints the summary "N levels, P positions solved in
  /// T s" (`stored`: the positions are stored classes).
  void finish(bool stored = false);

 private:
  void print_line(const level_report& r, bool stored);
  progress_sink* sink_;
  bool tty_;
  std::size_t levels_, done_levels_ = 0;
  std::uint64_t total_, done_ = 0;
  std::size_t levels_before_ = 0;                             ///< levels solved by the build this one resumes
  std::uint64_t done_before_ = 0;                             ///< their positions
  std::chrono::steady_clock::time_point t0_, last_, solve0_;  ///< solve0_: the first level's start
};

/// True for ruleset owners with their own index (not keyed_game) whose files
/// carry keys all the same: Game::file_keys(level, first, count, out) writes
/// the keys of ranks first.. of a level, ascending (the component table).
template <class Game, class = void>
struct has_own_file_keys : std::false_type {};
template <class Game>
struct has_own_file_keys<Game, std::void_t<decltype(std::declval<const Game&>().file_keys(
                                   0, std::uint64_t{}, std::uint64_t{}, static_cast<std::uint64_t*>(nullptr)))>>
    : std::true_type {};

/// Solves `game` with `Rule` on the backend of `opts` and writes the file
/// req.output with header `h`: field f of a position is field(record, f)
/// for f in 0..h.fields.size(). Prints a progress line per level on stderr
/// (a summary line for games of more than 200 levels) and, with req.stats, the
/// figures on stdout. Throws what solve() and tablebase_writer throw; a failed
/// build leaves no file under req.output.
template <class Game, class Rule, class Field>
void solve_and_write(const Game& game, const tablebase_header& h, const build_request& req, const solve_options& opts,
                     Field field) {
  // A build split across ranks: every rank solves and compresses its part
  // of each level; rank 0 alone opens the file and reports.
  level_exchange* const x = opts.exchange;
  const bool writes = !x || x->rank() == 0;
  if (x) {
    if constexpr (keyed_game<Game>::value)
      check_reachable_plan_across_ranks(game.rows(), game.cols(), game.symmetry().count, stored_record_bytes<Rule>(),
                                        sizeof(typename Rule::record), opts.max_memory, x->ranks(), req.split_from,
                                        x->rank());
  } else if constexpr (keyed_game<Game>::value) {
    check_reachable_plan(game.rows(), game.cols(), game.symmetry().count, stored_record_bytes<Rule>(), opts.max_memory);
  }
  if (writes) check_build_output(req);
  using record = typename Rule::record;
  std::optional<tablebase_writer> writer;
  if (writes) writer.emplace(req.output, h, req.resume);
  tablebase_writer* const wp = writer ? &*writer : nullptr;  // null on the ranks that do not write
  const std::size_t nf = h.fields.size();
  std::vector<level_report> reports;
  std::uint64_t total_positions = 0;  // unknown for keyed games until solved
  if constexpr (!keyed_game<Game>::value) {
    const auto view = game.host_view();
    for (int l : game.levels()) total_positions += view.level_size(l);
  }
  progress_sink* const reporter = writes ? req.reporter() : nullptr;
  build_progress progress(reporter, game.levels().size(), total_positions);
  const auto t0 = std::chrono::steady_clock::now();
  solve_options o = opts;
  o.progress = reporter;
  // Resumable builds: the checkpoint after each level carries the stored
  // values of every solved level that the levels still to solve reach
  // (cgtb/resume_records.hpp).
  constexpr std::size_t stored_bytes = stored_record_bytes<Rule>();
  resume_records carried(game.levels(), game.option_level_span(), stored_bytes,
                         interned_record<Rule>::value ? sizeof(record) : 0);
  // Resumable builds across ranks (docs/distributed.md, "Resuming"): each
  // rank keeps its part of the carried records in a rank checkpoint of its
  // own; rank 0's checkpoint of the partial file, written once every rank's
  // is on disk, commits the level, and each rank's checkpoint of the level
  // before goes only then. `committed`: the last level committed.
  int committed = -1;
  if (x && req.resume) {
    const int last = wp && wp->resumed() && !wp->levels().empty() ? wp->levels().back().level : -1;
    committed = static_cast<int>(x->sum(x->rank() == 0 ? static_cast<std::uint64_t>(last + 1) : 0)) - 1;
    if (committed >= 0) {
      const std::string file = rank_checkpoint_path(req.output, h, x->rank(), x->ranks(), committed);
      if (carried.resume_from(read_rank_checkpoint(file), file) != committed)
        throw corrupt_file_error("checkpoint '" + file + "' holds another level than its name says");
      o.resume_after = committed;
      o.load_level = [&carried](int level, std::uint64_t n, void* dst, std::string* entries) {
        carried.load(level, n, dst, entries);
      };
      if (wp) {
        wp->release_resumed_payload();
        progress_line(o.progress, "[cgtb] resuming %s after level %d (%d ranks)", req.output.c_str(), committed,
                      x->ranks());
        std::uint64_t before = 0;
        for (const level_entry& l : wp->levels()) before += l.positions;
        progress.solved_before(wp->levels().size(), before);
      }
    }
  } else if (wp && wp->resumed()) {
    o.resume_after = carried.resume_from(*wp, req.output);
    o.load_level = [wp, &carried](int level, std::uint64_t n, void* dst, std::string* entries) {
      carried.load(*wp, level, n, dst, entries);
    };
    progress_line(o.progress, "[cgtb] resuming %s after level %d", req.output.c_str(), o.resume_after);
    std::uint64_t before = 0;
    for (const level_entry& l : wp->levels()) before += l.positions;
    progress.solved_before(wp->levels().size(), before);
  }
  if constexpr (keyed_game<Game>::value)
    o.levels_known = [&progress](const std::vector<std::uint64_t>& sizes) {
      std::uint64_t total = 0;
      for (std::uint64_t s : sizes) total += s;
      progress.set_total(total);
    };
  // Across ranks the forward pass is made again on resuming (its parts are
  // the same for the same rank count).
  if (req.resume && !x) o.saved_keys = wp->saved_keys_path();
  if (req.after_forward_level) o.forward_level_done = req.after_forward_level;
  solve<Game, Rule>(game, o, [&](const level_report& r, const level_records<record>& rec) {
    tablebase_writer::key_filler keys;
    if constexpr (keyed_game<Game>::value) {
      // Keyed index: the file stores each stored position's key (ascending),
      // made block by block from the level's coded masks.
      const elias_fano_keys* masks = r.keys;
      keys = [&game, masks](std::uint64_t first, std::uint64_t count, std::uint64_t* out) {
        masks->decode(first, count, out);
        for (std::uint64_t j = 0; j < count; ++j) out[j] = game.file_key(out[j]);
      };
    } else if constexpr (has_own_file_keys<Game>::value) {
      // A ruleset's own index whose file still carries keys (the component
      // table's polyomino codes): the owner gives them.
      keys = [&game, level = r.level](std::uint64_t first, std::uint64_t count, std::uint64_t* out) {
        game.file_keys(level, first, count, out);
      };
    }
    const tablebase_writer::block_filler fill = [&](std::uint64_t first, std::uint64_t count, std::int64_t* v) {
      for (std::size_t f = 0; f < nf; ++f)
        for (std::uint64_t j = 0; j < count; ++j) v[f * count + j] = field(rec[first + j], f);
    };
    if (x) {
      level_report whole = r;  // this rank's part: the level's figures from every rank's
      whole.positions = write_level_parts(*x, wp, h, r.level, r.positions, fill, keys);
      whole.options = x->sum(r.options);
      whole.keys = nullptr;
      if (req.resume) {
        write_rank_checkpoint(rank_checkpoint_path(req.output, h, x->rank(), x->ranks(), r.level),
                              rec.ids ? carried.after_level(r.level, r.positions, rec.ids, rec.entries, rec.entry_count)
                                      : carried.after_level(r.level, r.positions, rec.records, nullptr, 0));
        x->sum(0);  // every rank's checkpoint of the level is on disk
        if (wp) wp->checkpoint({});
        x->sum(0);  // the level is committed
        if (committed >= 0) std::remove(rank_checkpoint_path(req.output, h, x->rank(), x->ranks(), committed).c_str());
        committed = r.level;
        if (req.after_checkpoint) req.after_checkpoint(r.level);
      }
      if (!writes) return;
      reports.push_back(whole);
      progress.level_done(whole);
      return;
    }
    wp->add_level_blocks(r.level, r.positions, fill, keys);
    if (req.resume) {
      if (rec.ids)
        wp->checkpoint(carried.after_level(r.level, r.positions, rec.ids, rec.entries, rec.entry_count));
      else
        wp->checkpoint(carried.after_level(r.level, r.positions, rec.records, nullptr, 0));
      if (req.after_checkpoint) req.after_checkpoint(r.level);
    }
    reports.push_back(r);
    reports.back().keys = nullptr;  // valid during this call only
    progress.level_done(r);
  });
  if (wp) wp->finish();
  if (x && req.resume) {
    x->sum(0);  // the file is in place: the ranks' checkpoints go
    if (committed >= 0) std::remove(rank_checkpoint_path(req.output, h, x->rank(), x->ranks(), committed).c_str());
  }
  if (!wp) return;
  progress.finish(keyed_game<Game>::value);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (req.stats) {
    std::uint64_t in_file = 0;
    for (const level_entry& l : wp->levels()) in_file += l.positions;
    print_build_stats(std::cout, reports, secs, req.output, wp->bytes_written(), keyed_game<Game>::value, in_file);
  }
}

}  // namespace cgtb
