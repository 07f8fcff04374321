// cgtb quotient octal and the `octal:` terms of cgtb sum
// (cgtb/misere_quotient.hpp, cgtb/misere_sum.hpp) against a brute-force
// search written here, sharing no code with the product: heaps are numbers,
// the moves are read from the code's digits here, and a sum is searched
// move by move with nothing but a memo. Published quotients: misère Nim's
// (Plambeck and Siegel, "Misère quotients for impartial games", J. Combin.
// Theory A 115 (2008), the quotient of Nim heaps) and R8 of 0.75 (ibid., and
// Plambeck, "Taming the wild in impartial combinatorial games", INTEGERS 5
// (2005) G05).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/misere_quotient.hpp"
#include "cgtb/misere_sum.hpp"
#include "test_support.hpp"

namespace {

/// Misère outcomes of sums of heaps of one octal game, by brute force.
class brute_octal {
 public:
  explicit brute_octal(const std::string& code) {
    const std::size_t dot = code.find('.');
    digits.push_back(code[0] - '0');
    for (std::size_t i = dot + 1; i < code.size(); ++i) digits.push_back(code[i] - '0');
  }

  /// The heaps a move leaves: taking t beans, leaving none, one or two heaps.
  std::vector<std::vector<int>> moves(int a) const {
    std::vector<std::vector<int>> out;
    for (int t = 0; t < static_cast<int>(digits.size()) && t <= a; ++t) {
      const int d = digits[static_cast<std::size_t>(t)], rest = a - t;
      if (t > 0 && (d & 1) && rest == 0) out.push_back({});
      if (t > 0 && (d & 2) && rest > 0) out.push_back({rest});
      if (d & 4)
        for (int b = 1; 2 * b <= rest; ++b) out.push_back({b, rest - b});
    }
    return out;
  }

  /// True when the sum is a misère P-position (the player to move loses).
  bool p_position(std::vector<int> s) {
    std::sort(s.begin(), s.end());
    auto it = memo.find(s);
    if (it != memo.end()) return it->second;
    bool p = true;  // no move: the player to move wins misère play, so not P
    bool moved = false;
    for (std::size_t i = 0; i < s.size() && p; ++i)
      for (const auto& m : moves(s[i])) {
        moved = true;
        std::vector<int> t = s;
        t.erase(t.begin() + static_cast<std::ptrdiff_t>(i));
        t.insert(t.end(), m.begin(), m.end());
        if (p_position(t)) {
          p = false;
          break;
        }
      }
    if (!moved) p = false;
    memo.emplace(s, p);
    return p;
  }

  std::vector<int> digits;
  std::map<std::vector<int>, bool> memo;
};

cgtb::octal_quotient_report quotient_of(const std::string& code, int max_heap, std::uint64_t check = 0) {
  cgtb::octal_quotient_options opt;
  opt.code = code;
  opt.max_heap = max_heap;
  opt.check = check;
  return cgtb::octal_quotient(opt);
}

}  // namespace

TEST(OctalQuotient, PredictsTheBruteForceOutcomeOfRandomSums) {
  // Codes with tame and wild heaps; 4.7 splits without taking (digit 4
  // before the point).
  const std::vector<std::pair<std::string, int>> games = {{"0.75", 10}, {"0.77", 9},  {"0.07", 12}, {"0.137", 10},
                                                          {"4.7", 8},   {"0.31", 10}, {"0.6", 9}};
  std::mt19937_64 rng(7);
  for (const auto& [code, max_heap] : games) {
    SCOPED_TRACE(code);
    const auto rep = quotient_of(code, max_heap);
    ASSERT_TRUE(rep.proven) << rep.why_not;
    const auto& q = rep.quotient;
    // A misère quotient of a set with a move has even order (Plambeck and
    // Siegel); the identity is no P-position (0 is an N-position).
    EXPECT_EQ(q.order % 2, 0u);
    EXPECT_FALSE(q.p_portion[0]);
    brute_octal brute(code);
    int agreed = 0, sums = 0;
    for (int t = 0; t < 2500; ++t) {
      const int n = 1 + static_cast<int>(rng() % 4);
      std::vector<int> s;
      std::uint32_t x = 0;
      for (int i = 0; i < n; ++i) {
        const int h = 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(max_heap));
        s.push_back(h);
        x = q.times(x, rep.heap_element[static_cast<std::size_t>(h)]);
      }
      ++sums;
      agreed += brute.p_position(s) == (q.p_portion[x] != 0);
    }
    EXPECT_EQ(agreed, sums);
    // Distinct elements are told apart: for x != y some element z puts one
    // product in the P-portion and not the other (the quotient is reduced).
    for (std::uint32_t a = 0; a < q.order; ++a)
      for (std::uint32_t b = a + 1; b < q.order; ++b) {
        bool apart = false;
        for (std::uint32_t z = 0; z < q.order && !apart; ++z)
          apart = q.p_portion[q.times(a, z)] != q.p_portion[q.times(b, z)];
        EXPECT_TRUE(apart) << q.elements[a] << " and " << q.elements[b];
      }
    // The table is commutative and associative.
    for (std::uint32_t a = 0; a < q.order; ++a)
      for (std::uint32_t b = 0; b < q.order; ++b) {
        ASSERT_EQ(q.times(a, b), q.times(b, a));
        for (std::uint32_t c = 0; c < q.order; ++c) ASSERT_EQ(q.times(q.times(a, b), c), q.times(a, q.times(b, c)));
      }
  }
}

TEST(OctalQuotient, HeapsOfOneElementAreIndistinguishableByBruteForce) {
  const auto rep = quotient_of("0.77", 9);
  brute_octal brute("0.77");
  std::mt19937_64 rng(3);
  for (int a = 1; a <= 9; ++a)
    for (int b = a + 1; b <= 9; ++b) {
      const bool same = rep.heap_element[static_cast<std::size_t>(a)] == rep.heap_element[static_cast<std::size_t>(b)];
      bool told_apart = false;
      // Every company of up to two heaps, then random ones of three.
      std::vector<std::vector<int>> company{{}};
      for (int c = 1; c <= 9; ++c) {
        company.push_back({c});
        for (int d = c; d <= 9; ++d) company.push_back({c, d});
      }
      for (int t = 0; t < 200; ++t)
        company.push_back(
            {1 + static_cast<int>(rng() % 9), 1 + static_cast<int>(rng() % 9), 1 + static_cast<int>(rng() % 9)});
      for (auto x : company) {
        auto with_a = x, with_b = x;
        with_a.push_back(a);
        with_b.push_back(b);
        told_apart = told_apart || brute.p_position(with_a) != brute.p_position(with_b);
      }
      if (same) {
        EXPECT_FALSE(told_apart) << "heaps " << a << " and " << b;
      }
    }
}

TEST(OctalQuotient, MisereNimIsPlambeckAndSiegelsQuotient) {
  // Nim on heaps 1..N is the octal game with N digits 3 (take any number,
  // leave at most one heap). Its quotient: the elements (x, 1) for every
  // nim-sum x of the heaps' binary digits and (0, 0), (1, 0) (no heap of 2 or
  // more): order 2^k + 2 for heaps below 2^k (N >= 2), P-portion of two
  // elements, heap n >= 2 is (n, 1), all distinct.
  for (int n = 2; n <= 9; ++n) {
    SCOPED_TRACE(n);
    const auto rep = quotient_of("0." + std::string(static_cast<std::size_t>(n), '3'), n);
    ASSERT_TRUE(rep.proven);
    int bits = 0;
    while ((1 << bits) <= n) ++bits;
    EXPECT_EQ(rep.quotient.order, (std::size_t{1} << bits) + 2);
    EXPECT_EQ(std::count(rep.quotient.p_portion.begin(), rep.quotient.p_portion.end(), 1), 2);
    std::vector<std::uint32_t> heaps(rep.heap_element.begin() + 1, rep.heap_element.end());
    std::sort(heaps.begin(), heaps.end());
    EXPECT_EQ(std::unique(heaps.begin(), heaps.end()), heaps.end());
  }
  const auto t2 = quotient_of("0.333", 3);
  EXPECT_EQ(t2.quotient.relations, (std::vector<std::string>{"a^2 = 1", "b^3 = b"}));
}

TEST(OctalQuotient, ZeroPointSevenFiveIsR8) {
  // Plambeck and Siegel: the quotient of 0.75 is R8 = <a, b, c | a^2 = 1,
  // b^3 = b, bc = ab, c^2 = b^2>, a, b, c the heaps of 1, 2 and 5,
  // P-portion {a, b^2}.
  for (int n : {5, 12}) {
    const auto rep = quotient_of("0.75", n);
    ASSERT_TRUE(rep.proven);
    const auto& q = rep.quotient;
    EXPECT_EQ(q.order, 8u);
    EXPECT_EQ(q.generator_of, (std::vector<std::string>{"heap 1", "heap 2", "heap 5"}));
    std::vector<std::string> rel = q.relations;
    std::sort(rel.begin(), rel.end());
    EXPECT_EQ(rel, (std::vector<std::string>{"a^2 = 1", "b^3 = b", "bc = ab", "c^2 = b^2"}));
    std::vector<std::string> p;
    for (std::size_t x = 0; x < q.order; ++x)
      if (q.p_portion[x]) p.push_back(q.elements[x]);
    EXPECT_EQ(p, (std::vector<std::string>{"a", "b^2"}));
  }
}

TEST(OctalQuotient, OctalSumTermsAgreeWithBruteForce) {
  cgtb::sum_settings set;
  set.winning_moves = true;
  cgtb::sum_solver solver(set);
  std::mt19937_64 rng(11);
  for (const std::string code : {"0.77", "0.07", "4.7", "0.137"}) {
    brute_octal brute(code);
    for (int t = 0; t < 300; ++t) {
      std::vector<int> heaps;
      std::string list;
      const int n = 1 + static_cast<int>(rng() % 3);
      for (int i = 0; i < n; ++i) {
        heaps.push_back(static_cast<int>(rng() % 12));
        list += (list.empty() ? "" : ",") + std::to_string(heaps.back());
      }
      const auto a = solver.solve({"octal:" + code + ":" + list});
      ASSERT_EQ(a.misere_outcome == 'P', brute.p_position(heaps)) << code << " " << list;
      // Each listed misère winning move leads to a P-position.
      for (const auto& m : a.misere_winning) {
        std::vector<int> after;
        std::string x = m.after;
        for (std::size_t i = 0; i < x.size();) {
          const std::size_t j = std::min(x.find(',', i), x.size());
          after.push_back(std::stoi(x.substr(i, j - i)));
          i = j + 1;
        }
        after.erase(std::remove(after.begin(), after.end(), 0), after.end());
        EXPECT_TRUE(brute.p_position(after)) << code << " " << list << " " << m.move;
      }
    }
  }
}

TEST(OctalQuotient, BadInputIsRefusedWithOneLine) {
  cgtb::sum_solver solver;
  EXPECT_THROW(solver.solve({"octal:0.9:3"}), cgtb::input_error);
  EXPECT_THROW(solver.solve({"octal:0.07"}), cgtb::input_error);
  EXPECT_THROW(solver.solve({"octal:0.07:3,x"}), cgtb::input_error);
  EXPECT_THROW(solver.solve({"octal:0.07:5000"}), cgtb::input_error);
  EXPECT_THROW(quotient_of("0.07", 0), cgtb::input_error);
  EXPECT_THROW(quotient_of("1.07", 5), cgtb::input_error);
  cgtb::octal_quotient_options small;
  small.code = "0.77";
  small.max_heap = 9;
  small.check = 0;
  small.max_order = 4;
  EXPECT_THROW(cgtb::octal_quotient(small), cgtb::resource_error);
  const auto bad = cgtb_test::run_cgtb({"quotient", "octal", "--code", "0.8", "--max-heap", "5"});
  EXPECT_NE(bad.code, 0);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  const auto other = cgtb_test::run_cgtb({"quotient", "octal", "--code", "0.75", "--max-cells", "4"});
  EXPECT_NE(other.code, 0);
  EXPECT_EQ(other.err_lines().size(), 1u) << other.err;
}

TEST(OctalQuotient, CliPrintsTheQuotientAsJson) {
  const auto r =
      cgtb_test::run_cgtb({"quotient", "octal", "--code", "0.75", "--max-heap", "6", "--json", "--check", "500"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["order"], 8);
  EXPECT_TRUE(j["proven"].get<bool>());
  EXPECT_EQ(j["heap_elements"].size(), 6u);
  EXPECT_EQ(j["checked"], 500);
  EXPECT_EQ(j["check_agreed"], 500);
  EXPECT_EQ(j["table"].size(), 8u);
}

TEST(OctalQuotient, DawsonsChessIsDawsonsKaylesOneHeapOver) {
  // A heap of n in Dawson's Chess (0.137) plays like a heap of n + 1 in
  // Dawson's Kayles (0.07) (Winning Ways ch. 4): the same quotient, the
  // heaps one over.
  for (int n : {9, 13}) {
    const auto chess = quotient_of("0.137", n), kayles = quotient_of("0.07", n + 1);
    EXPECT_EQ(chess.quotient.order, kayles.quotient.order);
    EXPECT_EQ(chess.quotient.relations, kayles.quotient.relations);
    for (int h = 1; h <= n; ++h)
      EXPECT_EQ(chess.quotient.elements[chess.heap_element[static_cast<std::size_t>(h)]],
                kayles.quotient.elements[kayles.heap_element[static_cast<std::size_t>(h + 1)]])
          << h;
  }
}
