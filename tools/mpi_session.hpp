// The MPI session of one cgtb process (docs/distributed.md): MPI is
// initialised only when a launcher (mpirun, mpiexec, srun with PMI/PMIx)
// started the process, so that a binary run on its own behaves exactly as
// one built without MPI.
#pragma once

#include <string>

namespace cgtb::tools {

/// The number of processes a launcher started this one among, from the
/// environment it sets (OMPI_COMM_WORLD_SIZE of Open MPI, PMI_SIZE of MPICH
/// and Slurm's PMI, PMIX_SIZE... of PMIx); 1 when no launcher did. Throws
/// nothing: an unreadable value counts as 1.
int launched_processes();

/// Holds MPI initialised (MPI_Init_thread with MPI_THREAD_FUNNELED: only the
/// main thread calls MPI) from construction to destruction, where the binary
/// was built with MPI (CGTB_MPI) and a launcher started it; otherwise does
/// nothing.
class mpi_session {
 public:
  mpi_session(int& argc, char**& argv);
  ~mpi_session();
  mpi_session(const mpi_session&) = delete;
  mpi_session& operator=(const mpi_session&) = delete;

  /// This process's rank and the number of processes (MPI's where it is
  /// initialised, else the launcher's: launched_rank(), launched_processes()).
  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Whether MPI was initialised.
  bool active() const { return active_; }

  /// The one-line refusal of `command` when more than one process runs it
  /// (every command runs as one process so far, and several copies of a
  /// build would race on one output file); "" for one process.
  std::string one_process_refusal(const std::string& command) const;

 private:
  int rank_ = 0, size_ = 1;
  bool active_ = false;
};

}  // namespace cgtb::tools
