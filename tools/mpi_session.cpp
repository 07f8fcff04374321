// The MPI session of one cgtb process (mpi_session.hpp).
#include "mpi_session.hpp"

#include <cstdlib>
#include <string>

#ifdef CGTB_HAVE_MPI
#include <mpi.h>
#endif

namespace cgtb::tools {

namespace {
/// The integer in environment variable `name` if it is one in [lo, 2^30),
/// else -1.
int env_int(const char* name, long lo) {
  const char* v = std::getenv(name);
  if (!v || !*v) return -1;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return *end == '\0' && n >= lo && n < (1L << 30) ? static_cast<int>(n) : -1;
}
}  // namespace

constexpr const char* kRankVariables[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};
constexpr const char* kSizeVariables[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};

bool launched() {
  for (const char* name : kRankVariables)
    if (std::getenv(name)) return true;
  return false;
}

int launched_rank() {
  for (const char* name : kRankVariables)
    if (const int r = env_int(name, 0); r >= 0) return r;
  return 0;
}

int launched_processes() {
  for (const char* name : kSizeVariables)
    if (const int n = env_int(name, 1); n > 0) return n;
  return 1;
}

mpi_session::mpi_session(int& argc, char**& argv) : rank_(launched_rank()), size_(launched_processes()) {
#ifdef CGTB_HAVE_MPI
  // A launcher's environment, not the process count, says MPI is wanted: one
  // process under mpirun -np 1 initialises it too.
  if (!launched()) return;
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) return;
  active_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
#else
  (void)argc;
  (void)argv;
#endif
}

mpi_session::~mpi_session() {
#ifdef CGTB_HAVE_MPI
  if (active_) MPI_Finalize();
#endif
}

std::string mpi_session::one_process_refusal(const std::string& command) const {
  if (size_ <= 1 || (command == "build" && active_)) return {};
  if (command == "build")
    return "this cgtb was built without MPI, so its builds run as one process, but " + std::to_string(size_) +
           " were started: run it without mpirun or srun, or build cgtb with MPI (docs/distributed.md)";
  return "cgtb " + command + " runs as one process, but " + std::to_string(size_) +
         " were started (only cgtb build splits its work across MPI ranks; docs/distributed.md): run it without "
         "mpirun or srun, or with one process";
}

void mpi_session::end_job(int rc) const {
#ifdef CGTB_HAVE_MPI
  if (active_ && size_ > 1) MPI_Abort(MPI_COMM_WORLD, rc);
#else
  (void)rc;
#endif
}

}  // namespace cgtb::tools
