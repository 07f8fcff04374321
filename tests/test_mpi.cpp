// The tool under an MPI launcher (tools/mpi_session.hpp, docs/distributed.md):
// one process builds what a plain run builds, byte for byte; several are
// refused in one line, leaving no file. Run where the tool is built with MPI.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace cgtb_test;

/// mpirun with `np` processes (oversubscribed: this machine may have fewer
/// cores), allowed to run as root as CI does.
std::vector<std::string> launcher(int np) {
  return {"env", "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1", CGTB_MPIEXEC, "--oversubscribe",
          "-np", std::to_string(np)};
}

TEST(Mpi, OneLaunchedProcessBuildsThePlainBuildsBytes) {
  if (std::string(CGTB_MPIEXEC).empty()) GTEST_SKIP() << "the tool is built without MPI (-DCGTB_MPI=OFF)";
  temp_dir dir;
  const std::vector<std::string> build = {"build", "cram", "--board", "3x5", "--values", "all", "-q", "-o"};
  auto plain = build, launched = build;
  plain.push_back(dir.file("plain.cgtb"));
  launched.push_back(dir.file("launched.cgtb"));
  const cli_result a = run_cgtb(plain);
  ASSERT_EQ(a.code, 0) << describe(a);
  const cli_result b = run_cgtb(launched, "", launcher(1));
  ASSERT_EQ(b.code, 0) << describe(b);
  EXPECT_TRUE(read_bytes(dir.file("plain.cgtb")) == read_bytes(dir.file("launched.cgtb")));
}

TEST(Mpi, SeveralProcessesAreRefusedInOneLineAndLeaveNoFile) {
  if (std::string(CGTB_MPIEXEC).empty()) GTEST_SKIP() << "the tool is built without MPI (-DCGTB_MPI=OFF)";
  temp_dir dir;
  const std::string out = dir.file("t.cgtb");
  const cli_result r = run_cgtb({"build", "cram", "--board", "3x4", "-q", "-o", out}, "", launcher(3));
  EXPECT_NE(r.code, 0) << describe(r);
  std::size_t refusals = 0;
  for (const std::string& l : r.err_lines())
    if (l.rfind("cgtb: error: cgtb build runs as one process, but 3 were started", 0) == 0) ++refusals;
  EXPECT_EQ(refusals, 1u) << describe(r);
  for (const auto& e : fs::directory_iterator(dir.path())) ADD_FAILURE() << "left " << e.path();
}

}  // namespace
