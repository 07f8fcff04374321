// The MPI session of one cgtb process (docs/distributed.md): MPI is
// initialised only when a launcher (mpirun, mpiexec, srun with PMI/PMIx)
// started the process, so that a binary run on its own behaves exactly as
// one built without MPI.
#pragma once

#include <string>

namespace cgtb::tools {

/// Whether a launcher started this process: the rank variable of Open MPI
/// (OMPI_COMM_WORLD_RANK), of MPICH and Slurm's PMI (PMI_RANK) or of PMIx
/// (PMIX_RANK) is set.
bool launched();
/// This process's rank among those a launcher started (the variable above);
/// 0 when none did or the value is not a number.
int launched_rank();
/// How many processes the launcher started (OMPI_COMM_WORLD_SIZE or
/// PMI_SIZE); 1 when no launcher did, or when it gives no count (PMIx alone:
/// the count then comes from MPI, where the tool is built with it).
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

  /// The one-line refusal of `command` when more than one process runs it
  /// and it is not `build` (the one command whose work several processes
  /// share); "" otherwise.
  std::string one_process_refusal(const std::string& command) const;

  /// After an error: where MPI runs more than one process, ends every
  /// process of the job with exit status `rc` (MPI_Abort; the launcher adds
  /// its own lines), so that no rank waits for one that failed. Returns
  /// where there is nothing to end.
  void end_job(int rc) const;

 private:
  int rank_ = 0, size_ = 1;
  bool active_ = false;
};

}  // namespace cgtb::tools
