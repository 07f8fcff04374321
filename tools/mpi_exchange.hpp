// The exchanges of a build split across the ranks of an MPI job
// (cgtb/backend.hpp level_exchange; docs/distributed.md): level-synchronous
// MPI_Alltoallv rounds over per-destination buffers, each rank owning a key
// range of every level, the ranges chosen from a sample of the keys the
// ranks generate (a sample sort's splitters, cgtb/rank_shares.hpp).
#pragma once

#include <cstdint>
#include <memory>

#include "cgtb/backend.hpp"

namespace cgtb::tools {

/// Figures of a rank's exchanges, for `cgtb build --stats`.
struct exchange_figures {
  std::uint64_t bytes_sent = 0;      ///< bytes this rank sent to other ranks (keys and records)
  std::uint64_t keys_requested = 0;  ///< option keys this rank asked other ranks for
  /// The largest rank's part of a split level over the mean part, at the
  /// level where it is largest (1 when no level was split).
  double worst_share = 1;
  int worst_share_level = -1;
};

/// A level_exchange over MPI_COMM_WORLD, or null where the tool is built
/// without MPI or runs as one process. Levels whose ranks would own fewer
/// than `split_from` classes each stay whole on rank 0. A fetch sends at
/// most `batch_keys` keys a rank per round (bounded buffers: about 16 bytes
/// and a record each, on the sending and the answering side).
std::unique_ptr<level_exchange> make_mpi_exchange(std::uint64_t split_from,
                                                  std::uint64_t batch_keys = kExchangeRoundKeys);

/// The figures of an exchange made by make_mpi_exchange, summed over the
/// ranks (collective; every rank calls it).
exchange_figures exchange_totals(level_exchange& x);

}  // namespace cgtb::tools
