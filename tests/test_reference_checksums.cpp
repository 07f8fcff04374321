// Pinned reference tablebases: the SHA-256 of `cgtb export` of small tables
// of every game and value kind (tests/data/reference-tables.txt) must equal
// the list in tests/data/reference.sha256, so any change of a computed value
// fails loudly. The export holds only the stored values and positions, so the
// figures do not depend on the zstd version or the builder's version string.
// When a change is intended: bash scripts/update-reference-checksums.sh, and
// say why in docs/format.md's changelog.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace cgtb_test;

struct reference_table {
  std::string name;
  std::vector<std::string> build;  ///< arguments of `cgtb build` after the command
};

std::vector<reference_table> reference_tables() {
  std::ifstream in(std::string(CGTB_TEST_DATA_DIR) + "/reference-tables.txt");
  std::vector<reference_table> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    reference_table t;
    words >> t.name;
    for (std::string w; words >> w;) t.build.push_back(w);
    out.push_back(t);
  }
  return out;
}

std::map<std::string, std::string> pinned_checksums() {
  std::ifstream in(std::string(CGTB_TEST_DATA_DIR) + "/reference.sha256");
  std::map<std::string, std::string> out;
  std::string hash, name;
  while (in >> hash >> name) out[name] = hash;
  return out;
}

/// SHA-256 (hex) of a file, by coreutils' sha256sum.
std::string sha256_of(const std::string& path) {
  const std::string cmd = "sha256sum " + shell_quote(path);
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run sha256sum");
  char buf[65] = {};
  const std::size_t n = std::fread(buf, 1, 64, p);
  ::pclose(p);
  if (n != 64) throw std::runtime_error("sha256sum gave no hash for " + path);
  return std::string(buf, 64);
}

TEST(ReferenceChecksums, ListsEveryReferenceTable) {
  const auto tables = reference_tables();
  const auto pinned = pinned_checksums();
  ASSERT_GE(tables.size(), 8u);
  EXPECT_EQ(tables.size(), pinned.size());
  for (const auto& t : tables) EXPECT_TRUE(pinned.count(t.name)) << t.name << " has no pinned checksum";
}

class ReferenceChecksum : public ::testing::TestWithParam<reference_table> {};

TEST_P(ReferenceChecksum, ExportedValuesMatchThePinnedSha256) {
  const reference_table& t = GetParam();
  temp_dir dir;
  const std::string table = dir.file(t.name + ".cgtb");
  std::vector<std::string> args = {"build"};
  args.insert(args.end(), t.build.begin(), t.build.end());
  args.insert(args.end(), {"-q", "-o", table});
  const cli_result b = run_cgtb(args);  // run_cgtb also verifies the table
  ASSERT_EQ(b.code, 0) << describe(b);
  const cli_result e = run_cgtb({"export", table});
  ASSERT_EQ(e.code, 0) << describe(e);
  write_bytes(dir.file("export.csv"), e.out);
  const auto pinned = pinned_checksums();
  ASSERT_TRUE(pinned.count(t.name));
  EXPECT_EQ(sha256_of(dir.file("export.csv")), pinned.at(t.name))
      << "the values of " << t.name << " changed; if that is intended, run "
      << "scripts/update-reference-checksums.sh and say why in docs/format.md's changelog";
}

void PrintTo(const reference_table& t, std::ostream* os) { *os << t.name; }

std::string test_name(const ::testing::TestParamInfo<reference_table>& p) {
  std::string s;
  for (char c : p.param.name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Tables, ReferenceChecksum, ::testing::ValuesIn(reference_tables()), test_name);

}  // namespace
