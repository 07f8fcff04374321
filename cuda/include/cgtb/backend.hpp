// Runtime interface of the two backends that run the level kernel: the CPU
// backend (Thrust's OpenMP system, compiled by g++) and the CUDA backend
// (Thrust's CUDA system, compiled by nvcc). Both run the same kernel source.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>

namespace cgtb {

enum class backend_kind { cpu, cuda };

/// Parses "cpu" or "cuda"; throws input_error otherwise.
backend_kind parse_backend(const std::string& name);
const char* backend_name(backend_kind b);
/// True when this binary was built with the CUDA backend.
bool cuda_backend_compiled();

/// Figures of one solved level.
struct level_report {
  int level = 0;
  std::uint64_t positions = 0;
  std::uint64_t options = 0;  ///< options examined (counted only with stats)
  double seconds = 0;         ///< kernel wall time, transfers included
  bool overflow = false;      ///< a value reached the rule's limit (the build then fails)
  /// Games with a keyed index (keyed_game): the level's stored positions in
  /// rank order, in host memory, valid during the consumer call; else null.
  const std::uint64_t* keys = nullptr;
};

namespace detail {
/// Bytes of host memory a build may still take (MemAvailable of /proc/meminfo).
std::size_t host_available_bytes();
}  // namespace detail

/// True for games whose index the solver builds (Game::keyed_index, e.g. the
/// reachable domino tables of cgtb/games/domino_reachable.hpp).
template <class Game, class = void>
struct keyed_game : std::false_type {};
template <class Game>
struct keyed_game<Game, std::void_t<decltype(Game::keyed_index)>> : std::bool_constant<Game::keyed_index> {};

/// How to run a solve.
struct solve_options {
  backend_kind backend = backend_kind::cpu;
  int threads = 0;             ///< CPU threads; 0 = all cores
  bool count_options = false;  ///< count options per level (one more pass)
  bool progress = false;       ///< a line per level of a keyed index's forward pass on stderr
  std::size_t max_memory = 0;  ///< bytes a build may use (0 = the memory available)
  /// Resumed builds: levels up to this one are solved already (-1: none).
  /// Those the next levels' options reach are loaded with load_level, which
  /// fills `n` records of the level at `records` (host memory).
  int resume_after = -1;
  std::function<void(int level, std::uint64_t n, void* records)> load_level;
};

/// Receives each level once solved, in ascending level order. `records` points
/// to `report.positions` records in host memory, valid during the call only.
template <class Record>
using level_consumer = std::function<void(const level_report& report, const Record* records)>;

/// Solves every level of `game` with value rule `Rule` on the chosen backend,
/// lowest level first, keeping only the levels options can reach resident.
/// Throws input_error if the CUDA backend is asked for but not compiled or no
/// GPU is present, resource_error if a level does not fit in memory (host or
/// device) or a value overflows its record, internal_error if a CUDA runtime
/// call fails.
/// Instantiated for the (game, rule) pairs listed in cuda/src/instantiations.inc.
template <class Game, class Rule>
void solve(const Game& game, const solve_options& opts, const level_consumer<typename Rule::record>& consume);

}  // namespace cgtb
