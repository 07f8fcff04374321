// cgtb verify: an independent check of a tablebase's values. Every stored
// value is derived again from the stored values of the position's options
// (local consistency), with code written for the verifier alone (nothing
// from cuda/include/cgtb/rules/): the ruleset's host move generator gives
// the options, the public reader locates them by their index keys, and the
// values are recombined by the plain definition of each value kind. Run over
// every stored position, this proves every value by induction from the
// positions without options. Each option's text is printed and parsed back
// through the driver for a sample of the positions (every position with
// --deep).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/progress.hpp"

namespace cgtb {

/// Bytes of genus_memory (below) that a sampled run counts for each position
/// whose genus states it keeps: the 36 states and a hash map's overhead.
constexpr std::size_t kVerifyGenusStateBytes = 80;

/// What cgtb verify checks, and how much.
struct verify_options {
  std::uint64_t sample = 0;  ///< positions to check per level, chosen at random; 0 = every stored position
  /// Derive the genus of each checked position from the whole game tree
  /// below it (36 misère states per position, never read from the file)
  /// instead of from its options' stored genus fields, and print and parse
  /// back the text of every option of every checked position. Slow and
  /// memory-hungry; the default (false) is a complete check in less time.
  bool deep = false;
  std::uint64_t seed = 1;             ///< seed of the sample
  int threads = 0;                    ///< worker threads; 0 = OpenMP's default
  progress_sink* progress = nullptr;  ///< where a line per level goes; null: nowhere
  /// Derive and compare the genus fields. False checks the other fields
  /// only (deep runs: for tables whose genus states, 37 bytes a stored
  /// position, all levels at once, do not fit in memory).
  bool genus = true;
  /// Deep sampled runs: bytes the derived genus states of the sampled positions
  /// and their followers may take (kVerifyGenusStateBytes a position); 0 = half the
  /// memory available. Levels are checked from the lowest up (a
  /// position's options lie below it); from the first level whose sample
  /// needs more, the genus is left out.
  std::size_t genus_memory = 0;
  /// Bytes the levels decoded into memory may take (each level's values and
  /// keys, about fields + 3.5 bytes a stored position); 0 = half the memory
  /// available. Levels past it are read through the file (slower).
  std::size_t level_memory = 0;
  /// Full runs: after each level, keep what the run has established so far
  /// in a checkpoint beside the table (verify_checkpoint_path), and continue
  /// from one that a stopped run of the same table and options left; the
  /// checkpoint is removed when the run ends. Throws input_error with a
  /// sample or --deep.
  bool resume = false;
};

/// Where cgtb verify --resume keeps its checkpoint for the table at `path`.
inline std::string verify_checkpoint_path(const std::string& path) { return path + ".verify-checkpoint"; }

/// Outcome of cgtb verify.
struct verify_report {
  std::uint64_t positions = 0;    ///< stored positions whose values were derived and compared
  std::uint64_t options = 0;      ///< options located and read
  std::uint64_t round_trips = 0;  ///< positions whose options' texts were printed and parsed back
  /// Heap sequences: the period the stored values prove (octal periodicity
  /// theorem), in octal_period::text()'s words; empty when none.
  std::string period;
  std::uint64_t period_checked = 0;  ///< heaps checked against that period instead of their options
  std::vector<std::string> fields;   ///< the fields compared
  /// Keyed (reachable) tables checked in full: every stored position other
  /// than the start was found to be an option of a stored position.
  bool exact_index = false;
  /// Positions whose genus fields were derived and compared.
  std::uint64_t genus_positions = 0;
  /// Deep sampled runs: the first level whose genus was left out because its
  /// sample's states passed genus_memory (that level and all above it);
  /// -1 when none was.
  int genus_left_out_from = -1;
  std::string failure;  ///< empty when the file is consistent, else the first inconsistency found
  double seconds = 0;
};

/// Verifies the tablebase at `path`. The header's ruleset, parameters, value
/// kinds, fields and level table are checked against the ruleset; then each
/// checked position's stored values are compared with values derived from
/// the stored values of its options (levels from the lowest up, each level's
/// positions in parallel):
///  - Grundy value: the mex of the options' values, an option that is a sum
///    of components being worth the XOR of theirs (Winning Ways, ch. 11);
///  - misère Grundy value gamma_0: the mex of the options' values, 1 with no
///    option (Winning Ways, ch. 13);
///  - genus gamma_k = G-(p + k copies of *2), k = 1..7: the options of
///    p + k*(*2) are p' + k*(*2) and, by the heap moves *2 -> *1 and
///    *2 -> 0, p + (k-1)*(*2) + *1 and p + (k-1)*(*2); as G-(X + *1) =
///    G-(X) xor 1 for every impartial X (induction on X), gamma_k = mex of
///    the options' stored gamma_k, the position's own gamma_{k-1} and
///    gamma_{k-1} xor 1 (Winning Ways, ch. 13, "genus"). With deep, the
///    states p + a*(*2) + b*(*1), a + b <= 7, are instead derived bottom-up
///    from the options alone, never read from the file (full runs: every
///    position, all levels at once; sampled runs: the sampled positions and
///    their followers only);
///  - outcome classes under normal and misère play: Left moving first wins
///    iff some Left option is lost by Right moving first; with no option
///    Left loses (normal) or wins (misère) (Winning Ways, ch. 1-2; Siegel,
///    Combinatorial Game Theory, ch. V);
///  - scoring value G_s = max over options of (points - G_s(option)), 0 with
///    no option (F. Stewart, Scoring Play Combinatorial Games, PhD thesis,
///    Def. 3.1.2 and 4.1.2);
///  - blocking games: winning = options to a safe position, safe iff winning
///    <= the options the opponent may block (Muller twist; "Dynamic One-Pile
///    Blocking Nim", Electronic Journal of Combinatorics 10 (2003)).
/// Every option of a stored position must be stored. In full runs of keyed
/// tables every stored position but the start must be an option of one.
/// A full run thus proves every stored value by induction from the
/// positions without options.
/// A failed check (a wrong value, a missing option, a header that does not
/// match its ruleset) is returned in report.failure, not thrown; throws
/// input_error for an unreadable or corrupt file or an unknown ruleset, and
/// resource_error when the genus states of a full deep run do not fit in
/// memory (options.genus = false leaves the genus out; a sampled deep run
/// checks the genus of the levels whose states fit).
verify_report verify_tablebase(const std::string& path, const verify_options& options);

}  // namespace cgtb
