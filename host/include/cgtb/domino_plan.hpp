// Planning a reachable domino table before building it: the exact number of
// reachable positions of each level, counted without enumerating them, and
// the memory, file size and time a build will need.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cgtb {

/// Number of regions of a rows x cols board with k empty cells whose covered
/// cells can be tiled by dominoes (the positions of level k that can arise
/// from the empty board), for k = 0..rows*cols.
///
/// Counted by a dynamic programme over the cells in row-major order of the
/// board turned so that its rows are the shorter side (w <= 8 cells): the
/// state is the set of broken-profile tilings still possible (profiles are
/// w-bit masks of cells already covered by a domino reaching down or right),
/// i.e. the subset construction of the tiling automaton; a region is counted
/// when the empty profile survives the last cell. Throws input_error for
/// boards whose shorter side exceeds 8.
std::vector<std::uint64_t> count_reachable_regions(int rows, int cols);

/// One level of a plan.
struct level_plan {
  int level = 0;
  std::uint64_t positions = 0;  ///< reachable positions (exact)
  std::uint64_t classes = 0;    ///< stored positions: about positions / symmetries
  double value_bytes = 0;       ///< records of the stored positions
  double peak_bytes = 0;        ///< resident memory while this level is built
  /// The peak is the forward pass's (finding this level from the level
  /// above), not the solve's.
  bool forward_peak = false;
  int forward_parts = 1;  ///< parts the forward pass finds this level in
  /// This level's options are ranked through its rank table (the solve of
  /// the level above fits with it), else through its coded keys alone
  /// (slower, 12 bytes a stored position less).
  bool rank_table = true;
  double file_bytes = 0;  ///< estimated share of the file
  double seconds = 0;     ///< estimated solve time (0 without calibration)
};

/// Plan of a reachable table with `symmetries` board symmetries (distinct
/// cell maps, board_symmetry::count: the classes are estimated as
/// positions / symmetries) and records of `record_bytes` bytes, levels
/// ascending (board's parity). Memory follows the CPU backend's layout
/// (cuda/src/solve_index.hpp, cuda/src/level_loop.hpp): while level L is solved, the Elias-Fano
/// coded keys (elias_fano_bytes) and the records of L and L-2, and the rank
/// table of L-2 (8-byte slots, load 2/3) where the solve fits with it in
/// `available_bytes`, and what the consumer of the
/// level below holds beside it (kLevelConsumerBytes); the forward pass holds
/// the keys of the level above, a hash set (8-byte slots) for the level
/// below, in parts that keep it within a quarter of `available_bytes`, and
/// the parts' keys. All levels' keys stay in memory too while they take
/// under memory_model::kept_keys_limit together; past that, every other level's keys wait
/// in a temporary file. `seconds_per_class` and `bits_per_class` come from a
/// calibration build (0 to leave time and file size out).
std::vector<level_plan> plan_reachable_table(int rows, int cols, int symmetries, std::size_t record_bytes,
                                             double available_bytes, double seconds_per_class, double bits_per_class);

/// Largest peak_bytes of a plan.
double plan_peak_bytes(const std::vector<level_plan>& plan);

/// One level of a build split across ranks (docs/distributed.md), as the
/// largest rank sees it.
struct rank_level_plan {
  int level = 0;
  bool split = false;         ///< split across the ranks (else solved whole on rank 0)
  std::uint64_t classes = 0;  ///< stored classes of the largest part (rank 0's when not split)
  double options = 0;         ///< distinct options of that part on the level below (estimated)
  double peak_bytes = 0;      ///< that rank's resident memory while the level is found or solved
  double least_bytes = 0;     ///< the same with the part solved in chunks of the fewest options (kMinChunkOptions)
  double chunks = 1;          ///< chunks the part is solved in within the memory available (estimated)
  bool forward_peak = false;  ///< the peak is the forward pass's
  double sent_bytes = 0;      ///< bytes that rank sends the others for this level (forward, solve, writing)
  double seconds = 0;         ///< estimated time: its share of the solve plus sent_bytes at the bandwidth
};

/// The plan of a reachable table built by `ranks` MPI ranks, from the
/// one-process plan `plan` of a rows x cols board (plan_reachable_table),
/// records of `record_bytes` bytes (`sent_record_bytes` as they travel
/// between ranks), levels of fewer than `split_from` classes a rank solved
/// on rank 0, a network of `bandwidth` bytes a second a rank. A split level's
/// largest part is taken as 1.06 of the mean (the worst share measured by
/// `cgtb shares`). A part's options are estimated as in a random graph:
/// level L of C cells has about E·L(L−1)/(C(C−1)) options a class (E the
/// board's domino placements), so a class of the level below is reached by
/// d options on average, and a part reaches each with chance 1 − e^(−d/P).
/// Memory per rank follows the distributed level loop (cuda/src/level_loop.hpp,
/// part_bytes): the part's keys and records and those of its part of the
/// level below (with its rank table where it fits in `available_bytes`),
/// the options of a chunk (all the part's where they fit, else as many as
/// fit: memory_model::fetched_option_bytes each), the exchange's rounds
/// (kExchangeRoundKeys), the compressed blocks it writes (and, on rank 0,
/// one other rank's); the forward pass's hash set of the options a part
/// generates and the keys it receives. Throws input_error for ranks < 1.
std::vector<rank_level_plan> plan_across_ranks(const std::vector<level_plan>& plan, int rows, int cols, int ranks,
                                               std::size_t record_bytes, std::size_t sent_record_bytes,
                                               std::uint64_t split_from, double bandwidth, double available_bytes);

}  // namespace cgtb

namespace cgtb {

struct build_request;

/// Prints the plan of a reachable `ruleset` table ("cram" or "domineering")
/// on a rows x cols board with `symmetries` symmetries and records of
/// `record_bytes` (cgtb plan): per level positions, stored positions, bytes of
/// values, peak memory, estimated file size and time, and the totals. Time and
/// file size come from a calibration build of the same table on the largest
/// smaller board (same values) with at most about 300,000 stored positions.
/// `interned`: the records are held as 4-byte ids of a record dictionary
/// (cgtb/record_dictionary.hpp). With req.plan_ranks > 1, also the plan
/// across that many MPI ranks (plan_across_ranks), records travelling as
/// `sent_record_bytes` bytes (0: record_bytes). Throws what a build throws.
void print_reachable_plan(const std::string& ruleset, int rows, int cols, int symmetries, std::size_t record_bytes,
                          const build_request& req, std::ostream& out, bool interned = false,
                          std::size_t sent_record_bytes = 0);

/// Throws resource_error, naming the level and the figures, when the plan of
/// a reachable table needs more memory than `max_memory` bytes (0 = the
/// memory available now).
void check_reachable_plan(int rows, int cols, int symmetries, std::size_t record_bytes, std::size_t max_memory);
/// The same on rank `rank` of a build split across `ranks` ranks
/// (plan_across_ranks), with `max_memory` bytes a rank: throws
/// resource_error naming the level and the figures when this rank's plan
/// exceeds it (levels solved whole count on rank 0 only).
void check_reachable_plan_across_ranks(int rows, int cols, int symmetries, std::size_t record_bytes,
                                       std::size_t sent_record_bytes, std::size_t max_memory, int ranks,
                                       std::uint64_t split_from, int rank);

}  // namespace cgtb
