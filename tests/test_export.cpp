// cgtb export: one row per stored position with the values the reader gives,
// orbit sizes summing to the level's positions, both formats, bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cgtb/tablebase.hpp"
#include "test_support.hpp"

namespace {

using namespace cgtb_test;

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

TEST(Export, CsvRowsAreTheStoredValuesAndOrbitsSumToThePositions) {
  temp_dir d;
  const std::string f = d.file("c.cgtb");
  ASSERT_EQ(run_cgtb({"build", "cram", "--board", "3x4", "-q", "-o", f}).code, 0);
  const cli_result e = run_cgtb({"export", f});
  ASSERT_EQ(e.code, 0) << describe(e);
  const auto rows = lines_of(e.out);
  cgtb::tablebase tb(f);
  EXPECT_EQ(rows[0], "level,rank,position,orbit,grundy,misere,genus1,genus2,genus3,genus4,genus5,genus6,genus7");
  std::uint64_t stored = 0, total_orbits = 0, total_positions = 0;
  for (const auto& le : tb.levels()) stored += le.positions;
  ASSERT_EQ(rows.size(), stored + 1);
  const auto drv = cgtb::driver_for_header(tb.header());
  for (std::size_t i = 1; i < rows.size(); ++i) {
    std::istringstream in(rows[i]);
    std::string cell;
    std::vector<std::string> c;
    while (std::getline(in, cell, ',')) c.push_back(cell);
    ASSERT_EQ(c.size(), 13u) << rows[i];
    const int level = std::stoi(c[0]);
    const std::uint64_t rank = std::stoull(c[1]);
    // The text names the stored position: querying it reads the same rank.
    const cgtb::position_ref p = drv->parse(c[2]);
    EXPECT_EQ(p.level, level);
    EXPECT_EQ(tb.rank_of_key(level, p.rank), static_cast<std::int64_t>(rank)) << c[2];
    total_orbits += std::stoull(c[3]);
    for (int f2 = 0; f2 < 9; ++f2) EXPECT_EQ(std::stoll(c[4 + f2]), tb.value(level, rank, f2)) << rows[i];
  }
  for (const auto& le : tb.levels()) total_positions += drv->level_positions(tb, le.level);
  EXPECT_EQ(total_orbits, total_positions);
}

TEST(Export, JsonLinesOfOneLevel) {
  temp_dir d;
  const std::string f = d.file("s.cgtb");
  ASSERT_EQ(run_cgtb({"build", "scoring-sum", "--op", "selective", "--left", "3311:1234", "--right", "333:123", "--max",
                      "6", "-q", "-o", f})
                .code,
            0);
  const cli_result e = run_cgtb({"export", f, "--level", "5", "--format", "jsonl"});
  ASSERT_EQ(e.code, 0) << describe(e);
  cgtb::tablebase tb(f);
  const auto rows = lines_of(e.out);
  ASSERT_EQ(rows.size(), tb.find_level(5)->positions);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto j = nlohmann::json::parse(rows[i]);
    EXPECT_EQ(j["level"], 5);
    EXPECT_EQ(j["rank"], i);
    EXPECT_FALSE(j.contains("orbit"));
    EXPECT_EQ(j["gs"].get<std::int64_t>(), tb.value(5, i, 0));
  }
}

TEST(Export, BadArgumentsAreOneLineErrors) {
  temp_dir d;
  const std::string f = d.file("c.cgtb");
  ASSERT_EQ(run_cgtb({"build", "cram", "--board", "2x3", "-q", "-o", f}).code, 0);
  EXPECT_TRUE(is_clean_error(run_cgtb({"export", f, "--level", "99"})));
  EXPECT_TRUE(is_clean_error(run_cgtb({"export", f, "--level", "-2"})));
  EXPECT_TRUE(is_clean_error(run_cgtb({"export", f, "--format", "xml"})));
  EXPECT_TRUE(is_clean_error(run_cgtb({"export", f, f})));
  EXPECT_TRUE(is_clean_error(run_cgtb({"export", d.file("missing.cgtb")})));
}

}  // namespace

namespace {

using namespace cgtb_test;

TEST(QueryOptions, EachOptionCarriesTheValuesItsOwnQueryGives) {
  temp_dir d;
  const std::string f = d.file("c.cgtb");
  ASSERT_EQ(run_cgtb({"build", "cram", "--board", "3x4", "-q", "-o", f}).code, 0);
  const cli_result r = run_cgtb({"query", "--options", "--json", f, "..../..../...."});
  ASSERT_EQ(r.code, 0) << describe(r);
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["options"].size(), 17u);  // 9 horizontal and 8 vertical dominoes
  for (const auto& o : j["options"]) {
    const cli_result q = run_cgtb({"query", "--json", f, o["position"].get<std::string>()});
    ASSERT_EQ(q.code, 0) << describe(q);
    const auto a = nlohmann::json::parse(q.out);
    EXPECT_EQ(o["grundy"], a["grundy"]) << o;
    EXPECT_EQ(o["misere"], a["misere"]) << o;
    EXPECT_EQ(o["genus"], a["genus"]) << o;
    EXPECT_EQ(o["tame"], a["tame"]) << o;
  }
  const cli_result t = run_cgtb({"query", "--options", f, "..../..../...."});
  EXPECT_NE(t.out.find("a1-b1 -> ##../..../....  (grundy "), std::string::npos) << t.out;
}

TEST(QueryOptions, AnOptionOfASequenceIsWorthTheXorOfItsHeaps) {
  temp_dir d;
  const std::string f = d.file("o.cgtb");
  ASSERT_EQ(run_cgtb({"build", "octal", "--code", "0.07", "--max-heap", "40", "-q", "-o", f}).code, 0);
  const cli_result r = run_cgtb({"query", "--options", "--json", f, "9"});
  ASSERT_EQ(r.code, 0) << describe(r);
  const auto listed = nlohmann::json::parse(r.out);
  for (const auto& o : listed["options"]) {
    const cli_result q = run_cgtb({"query", "--json", f, o["position"].get<std::string>()});
    ASSERT_EQ(q.code, 0) << describe(q);
    EXPECT_EQ(o["grundy"], nlohmann::json::parse(q.out)["grundy"]) << o;
  }
}

}  // namespace
