// Runtime interface of the two backends that run the level kernel: the CPU
// backend (Thrust's OpenMP system, compiled by g++) and the CUDA backend
// (Thrust's CUDA system, compiled by nvcc). Both run the same kernel source.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "cgtb/progress.hpp"

namespace cgtb {

struct elias_fano_keys;  // cgtb/reachable_index.hpp

enum class backend_kind { cpu, cuda };

/// Parses "cpu" or "cuda"; throws input_error otherwise.
backend_kind parse_backend(const std::string& name);
const char* backend_name(backend_kind b);
/// True when this binary was built with the CUDA backend.
bool cuda_backend_compiled();
/// The one check of a backend choice, for the solver and the conjecture
/// checks alike: throws input_error (exit status 2) when `b` is the CUDA
/// backend and this cgtb was built without it. (A CUDA build on a machine
/// with no device throws resource_error, exit status 3, when the backend
/// starts.)
void require_backend(backend_kind b);

/// Figures of one solved level.
struct level_report {
  int level = 0;
  std::uint64_t positions = 0;
  std::uint64_t options = 0;  ///< options examined (counted only with stats)
  double seconds = 0;         ///< wall time of the level's kernels (the copy to the host runs beside the next level)
  bool overflow = false;      ///< a value reached the rule's limit (the build then fails)
  /// Interned records (cgtb/record_dictionary.hpp): entries of the build's
  /// record dictionary once this level is solved; 0 otherwise.
  std::uint64_t dictionary_entries = 0;
  /// Times the dictionary filled up during this level (each time it doubles
  /// and the positions whose record was new are solved again).
  int dictionary_growths = 0;
  /// Games with a keyed index (keyed_game): the level's stored positions in
  /// rank order (their canonical masks, Elias–Fano coded), in host memory,
  /// valid during the consumer call; else null.
  const elias_fano_keys* keys = nullptr;
};

namespace detail {
/// Bytes of host memory a build may still take (MemAvailable of /proc/meminfo).
std::size_t host_available_bytes();
/// `bytes` of uninitialised host memory for an array read at random (a
/// level's records, a hash table): from 2 MB on, aligned to 2 MB and asked
/// for transparent huge pages, since with 4 KB pages most such reads would
/// also miss the TLB. Free with std::free. Throws resource_error when the
/// host has no such memory.
void* allocate_host_pages(std::size_t bytes);
struct free_deleter {
  void operator()(void* p) const;
};
}  // namespace detail

/// An array of trivially copyable T in allocate_host_pages memory.
template <class T>
using host_pages = std::unique_ptr<T[], detail::free_deleter>;
/// n zeroed values of T in allocate_host_pages memory.
template <class T>
host_pages<T> zeroed_host_pages(std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
  void* p = detail::allocate_host_pages(n * sizeof(T));
  std::memset(p, 0, n * sizeof(T));
  return host_pages<T>(static_cast<T*>(p));
}

/// True for games whose index the solver builds (Game::keyed_index, e.g. the
/// reachable domino tables of cgtb/games/domino_reachable.hpp).
template <class Game, class = void>
struct keyed_game : std::false_type {};
template <class Game>
struct keyed_game<Game, std::void_t<decltype(Game::keyed_index)>> : std::bool_constant<Game::keyed_index> {};

/// Host memory the consumer of a solved level holds beside the level's
/// records: the writer's blocks in flight (tablebase_writer::add_level_blocks
/// compresses a batch of 256 blocks of 4,096 entries; each thread packs one
/// block of 8-byte values and keys at a time), under 32 MB for every table
/// cgtb writes. A checkpoint writes the records where they lie and adds
/// nothing.
constexpr double kLevelConsumerBytes = 32.0 * (1 << 20);

/// Bytes a stored class takes in a file's compressed blocks, as the memory
/// checks of a distributed build count the blocks its ranks hold while they
/// write a level: a bound with room (Cram 5×7 with every value: at most 2.7
/// bytes a class on every level of more than 10^5 classes, `cgtb info`).
constexpr double kCompressedClassBytes = 4.0;

/// The most option keys a rank asks the others for in one round of a
/// distributed build's exchange (level_exchange::fetch_records): the round's
/// buffers, keys out and records back on both sides, stay under about
/// 2^20 · (8 + record bytes) · 2 bytes a rank.
constexpr std::uint64_t kExchangeRoundKeys = std::uint64_t{1} << 20;

/// A reachable table's level keys stay in host memory while all levels' keys
/// together stay under this many bytes; past it every level's keys wait in a
/// temporary file until their level is solved (cuda/src/solve_index.hpp).
constexpr std::uint64_t kKeptKeysBytes = std::uint64_t{256} << 20;

/// The exchanges of a build whose levels are split across processes (the
/// ranks of an MPI job; docs/distributed.md). Every stored class of a level
/// belongs to one rank, the ranks owning disjoint, ascending key ranges (all
/// of rank r's keys below rank r + 1's), so that a level in rank order is the
/// ranks' parts one after another. Every member is collective: each rank
/// calls it in the same order with the same level. The tool implements it
/// over MPI (tools/mpi_exchange.hpp); the solver sees only this interface.
/// Members throw resource_error when a transfer fails.
class level_exchange {
 public:
  virtual ~level_exchange() = default;
  virtual int rank() const = 0;
  virtual int ranks() const = 0;
  /// Forward pass: `generated` holds the distinct keys (ascending) of level
  /// `level` in part `part` of `parts` (orbit_part) that are options of this
  /// rank's part of the level above; every rank calls it for parts 0, 1, ...
  /// in turn, with the same `parts`. Returns this rank's share of that part
  /// of `level`: the distinct keys of every rank's `generated` that fall in
  /// its range (the ranges chosen here at part 0, from part 0's keys).
  virtual std::vector<std::uint64_t> own_keys(int level, const std::vector<std::uint64_t>& generated,
                                              std::uint64_t part = 0, std::uint64_t parts = 1) = 0;
  /// Answers requests from this rank's part of a level: writes the records
  /// (record_bytes each) of `n` keys, all in its part, to `out`.
  using record_lookup = std::function<void(const std::uint64_t* keys, std::uint64_t n, void* out)>;
  /// Solve: fills `out` with the records (record_bytes each) of the `n`
  /// distinct keys `wanted` (ascending) of level `level`, asking each key's
  /// owner; `lookup` answers the other ranks' requests from this rank's part.
  virtual void fetch_records(int level, const std::uint64_t* wanted, std::uint64_t n, std::size_t record_bytes,
                             const record_lookup& lookup, void* out) = 0;
  /// Writing: every rank's `n`, in rank order (on every rank).
  virtual std::vector<std::uint64_t> counts(std::uint64_t n) = 0;
  /// Writing: sends `bytes` to rank `to` (nothing when `to` is negative or
  /// the bytes are empty); returns what the ranks sent this one, one rank's
  /// bytes after another in rank order.
  virtual std::string send_one(int to, const std::string& bytes) = 0;
  /// Writing: rank 0 calls `take` with each rank's `bytes` in rank order
  /// (its own first), one rank at a time, so that it holds one rank's bytes
  /// at once; `take` is not called on the other ranks.
  virtual void gather_in_order(const std::string& bytes, const std::function<void(const std::string&)>& take) = 0;
  /// The sum of `v` over the ranks.
  virtual std::uint64_t sum(std::uint64_t v) = 0;
  /// The largest `v` of the ranks.
  virtual std::uint64_t max(std::uint64_t v) = 0;
};

/// How to run a solve.
struct solve_options {
  backend_kind backend = backend_kind::cpu;
  int threads = 0;                    ///< CPU threads; 0 = all cores
  bool count_options = false;         ///< count options per level (one more pass)
  progress_sink* progress = nullptr;  ///< where the solver reports (forward pass, resumed keys); null: nowhere
  std::size_t max_memory = 0;         ///< bytes a build may use (0 = the memory available)
  /// Resumed builds: levels up to this one are solved already (-1: none).
  /// Those the next levels' options reach are loaded with load_level, which
  /// fills the level's `n` stored values at `stored` (host memory: records,
  /// or 4-byte ids where the solver interns records) and, for interned
  /// records, sets `*entries` to the bytes of the dictionary's entries
  /// (null otherwise); see level_records.
  int resume_after = -1;
  std::function<void(int level, std::uint64_t n, void* stored, std::string* entries)> load_level;
  /// Entries the record dictionary starts with (interned records; tests set
  /// it small to exercise its growth).
  std::uint64_t dictionary_capacity = std::uint64_t{1} << 16;
  /// Keyed indexes: parts of each level of the forward pass (0: as many as
  /// keep a part's hash set within a quarter of the free memory; tests set
  /// more to exercise the merge of parts).
  std::uint64_t forward_parts = 0;
  /// Keyed indexes: rank tables where they fit (false: every rank goes
  /// through the coded keys, as for levels whose table would not fit).
  bool rank_tables = true;
  /// Keyed indexes: a file that keeps the forward pass's keys (resumable
  /// builds), level by level as the pass finds them. Where it holds the
  /// levels of the same game from the top down to some level, those are
  /// read and the pass goes on from there (or is skipped, when all are
  /// there); else the pass writes it afresh. Empty: keys wait in an unnamed
  /// temporary file.
  std::string saved_keys;
  /// Keyed indexes: called after the forward pass has stored each level's
  /// keys (and saved them, with saved_keys), from the top level down.
  std::function<void(int level)> forward_level_done;
  /// Called once before the first level is solved (for keyed indexes: after
  /// the forward pass), with each level's positions (stored classes for a
  /// keyed index), in the order of Game::levels(); for progress lines.
  std::function<void(const std::vector<std::uint64_t>& positions)> levels_known;
  /// A build whose levels are split across ranks (keyed indexes, records
  /// a host-visible backend): this rank's exchanges with the others. Sizes,
  /// memory checks and kernels are then this rank's part's, and the consumer
  /// is called on every rank with the rank's part of each level (its
  /// report.positions and report.keys), on the solving thread, so that it
  /// may call the exchange (cgtb/build.hpp writes the level's blocks from
  /// the parts). Null: one process holds every level.
  level_exchange* exchange = nullptr;
  /// Distributed builds: the distinct options a chunk of a rank's part of a
  /// level is sized for (0: as many as the memory left allows, the whole
  /// part's where they fit; tests set a few to exercise the chunks).
  std::uint64_t chunk_options = 0;
};

/// A solved level's records as its consumer reads them, in host memory:
/// record i is records[i], or, where the solver interns records (records of
/// more than 8 bytes, cgtb/record_dictionary.hpp), entries[ids[i]] with
/// `entry_count` entries.
template <class Record>
struct level_records {
  const Record* records = nullptr;
  const std::uint32_t* ids = nullptr;
  const Record* entries = nullptr;
  std::uint64_t entry_count = 0;
  const Record& operator[](std::uint64_t i) const { return ids ? entries[ids[i]] : records[i]; }
};

/// Receives each level once solved, in ascending level order, one call at a
/// time. `records` holds `report.positions` records in host memory, valid
/// during the call only. Calls for large levels come from the solver's level
/// pipeline thread while the next levels solve (cuda/src/level_pipeline.hpp):
/// a consumer must not touch what the solving thread uses.
template <class Record>
using level_consumer = std::function<void(const level_report& report, const level_records<Record>& records)>;

/// Solves every level of `game` with value rule `Rule` on the chosen backend,
/// lowest level first, keeping only the levels options can reach resident.
/// Throws input_error if the CUDA backend is asked for but not compiled or no
/// GPU is present, resource_error if a level does not fit in memory (host or
/// device) or a value overflows its record, internal_error if a CUDA runtime
/// call fails.
/// Instantiated for the (game, rule) pairs the game headers name in their
/// cgtb-solve lines (cgtb/instantiations.inc, generated by CMake).
template <class Game, class Rule>
void solve(const Game& game, const solve_options& opts, const level_consumer<typename Rule::record>& consume);

}  // namespace cgtb
