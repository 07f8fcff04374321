// The genus symbol and tame/wild test against the symbols of "Cram with the last move losing" and
// Winning Ways ch. 13.
#include <gtest/gtest.h>

#include "cgtb/genus.hpp"

namespace {

cgtb::genus make(unsigned g, std::vector<unsigned> run) { return {g, std::move(run)}; }

TEST(Genus, FickleZeroIsWritten0_120AndTame) {
  auto g = make(0, {1, 2, 0, 2, 0, 2, 0, 2});
  EXPECT_EQ(g.symbol(), "0^{120}");
  EXPECT_TRUE(g.tame());
}

TEST(Genus, FickleOneIsWritten1_031AndTame) {
  auto g = make(1, {0, 3, 1, 3, 1, 3, 1, 3});
  EXPECT_EQ(g.symbol(), "1^{031}");
  EXPECT_TRUE(g.tame());
}

TEST(Genus, FirmHeapsAreTame) {
  for (unsigned n = 0; n < 12; ++n) {
    unsigned m = n ^ 2u;
    auto g = make(n, {n, m, n, m, n, m, n, m});
    EXPECT_TRUE(g.tame()) << n;
  }
  EXPECT_EQ(make(0, {0, 2, 0, 2, 0, 2, 0, 2}).symbol(), "0^{02}");
}

TEST(Genus, WildSymbolsOfSeed004) {
  auto a = make(2, {0, 3, 1, 5, 7, 5, 7, 5});
  EXPECT_EQ(a.symbol(), "2^{03157}");
  EXPECT_FALSE(a.tame());
  auto b = make(4, {1, 4, 6, 4, 6, 4, 6, 4});
  EXPECT_EQ(b.symbol(), "4^{146}");
  EXPECT_FALSE(b.tame());
}

TEST(Genus, NormalValueMustMatchFirmRun) {
  // Run 0,2,0,2 but normal value 2 is not a Nim heap's genus.
  EXPECT_FALSE(make(2, {0, 2, 0, 2, 0, 2, 0, 2}).tame());
}

TEST(Genus, UnsettledRunIsMarkedAndWild) {
  auto g = make(3, {0, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_EQ(g.settle_index(), -1);
  EXPECT_EQ(g.symbol(), "3^{01234567...}");
  EXPECT_FALSE(g.tame());
}

TEST(Genus, WideValuesAreCommaSeparated) { EXPECT_EQ(make(10, {10, 8, 10, 8, 10, 8, 10, 8}).symbol(), "10^{10,8}"); }

}  // namespace
