// The guess-and-prove search of a misère quotient over a finite alphabet
// (private to host/src/misere/; octal_quotient.cpp runs it heap by heap).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cgtb/misere_sum.hpp"
#include "cgtb/octal_quotient.hpp"

namespace cgtb::misere_detail {

/// A multiset of letters (generators of the closed set), sorted.
using word = std::vector<std::uint32_t>;

/// The verdict of one round's proof (quotient_search::prove).
struct proof_verdict {
  /// proven, not_proven (then `new_tests` holds a counterexample's test sums
  /// and the search goes on, or, with none, the proof failed for good) or
  /// gave_up (the finite check passed its bound).
  quotient_status status = quotient_status::not_proven;
  std::vector<word> new_tests;
  std::string why_not;           ///< the reason, when the proof failed for good or gave up
  std::uint64_t signatures = 0;  ///< signatures the finite check visited (when it ran to its end or bound)

  /// The proof failed at a counterexample whose test sums are `tests`.
  static proof_verdict refuted(std::vector<word> tests) {
    proof_verdict v;
    v.new_tests = std::move(tests);
    return v;
  }
};

/// The guess-and-prove search of octal_quotient (its docstring, steps (1)
/// and (2); Plambeck and Siegel, "Misère quotients for impartial games",
/// section 3) over a finite alphabet of components whose options are sums
/// of letters.
class quotient_search {
 public:
  /// letters[i]: the component of letter i (a position with a move);
  /// options[i]: its options as words. Outcomes are asked of `solver`.
  /// Explores at most max_order elements and max_signatures signatures.
  quotient_search(sum_solver& solver, std::vector<std::uint64_t> letters, std::vector<std::vector<word>> options,
                  std::size_t max_order, std::uint64_t max_signatures);

  /// Runs rounds until the proof holds, fails for good or the finite check
  /// is too large; sets rounds, status, why_not and signatures. The first
  /// tests: `tests` (the previous heap's), the empty sum, and every sum of
  /// one or two letters with the last letter in it. Throws resource_error
  /// past max_order elements, std::logic_error when a counterexample adds no
  /// test (a bug).
  void run(std::set<word> tests, const std::function<void(const std::string&)>& progress);

  int rounds = 0;
  quotient_status status = quotient_status::not_proven;  ///< of the last round
  std::string why_not;                                   ///< unless proven
  std::uint64_t signatures = 0;                          ///< of the last round's finite check
  std::uint64_t sums = 0;                                ///< misère outcomes asked of the solver

  /// True when the last round proved the quotient.
  bool proven() const { return status == quotient_status::proven; }
  /// Elements of the automaton.
  std::size_t order() const { return reps_.size(); }
  /// The element of x with one more letter.
  std::uint32_t step(std::uint32_t x, std::uint32_t letter) const { return trans_[x * m_ + letter]; }
  /// The element of the sum w.
  std::uint32_t element_of(const word& w) const { return element_after(0, w); }
  /// True when x is in the P-portion.
  bool p_portion(std::uint32_t x) const { return p_[x] != 0; }
  /// A smallest sum of element x.
  const word& representative(std::uint32_t x) const { return reps_[x]; }
  /// The order x order product table, row-major: x.y = x with y's
  /// representative added (well defined once adding letters commutes).
  std::vector<std::uint32_t> product_table() const;
  /// Per element: 1 when it is in the P-portion.
  const std::vector<char>& p_flags() const { return p_; }
  /// Test sums of the last round.
  std::size_t tests() const { return tests_.size(); }
  /// The test sums of the last round.
  const std::vector<word>& test_sums() const { return tests_; }
  /// True when the player to move loses the misère sum w (searched).
  bool p_position(const word& w);

 private:
  /// The sum of a and b, sorted.
  static word plus(word a, const word& b);
  /// The outcomes of w beside every test, one bit each.
  std::string row(const word& w);
  /// The automaton of classes as the tests tell them apart (step (1)).
  void explore();
  /// The proof (step (2)) of this round's automaton.
  proof_verdict prove();
  /// Check (a): the first failure of x.h.h' = x.h'.h as new tests.
  std::vector<word> commutation_counterexample() const;
  /// Checks (c1), (c2) and (b).
  proof_verdict check_signatures();
  /// The element of x with the letters of w added.
  std::uint32_t element_after(std::uint32_t x, const word& w) const {
    for (std::uint32_t l : w) x = step(x, l);
    return x;
  }
  /// The letters added on the way to signature `at`, sorted.
  static word path_of(const std::vector<std::pair<std::uint64_t, std::uint32_t>>& parent, std::uint64_t at);
  /// The test sums a failure of the induction at the sum g gives.
  std::vector<word> counterexample(const word& g);
  /// Check (b), Moore's refinement.
  bool minimal() const;

  sum_solver& solver_;
  std::vector<std::uint64_t> letters_;
  std::vector<std::vector<word>> options_;
  std::uint32_t m_;
  std::size_t max_order_;
  std::uint64_t max_signatures_;
  std::vector<word> tests_;
  std::vector<word> reps_;
  std::vector<std::string> rows_;
  std::vector<std::uint32_t> trans_;
  std::vector<char> p_;
};

}  // namespace cgtb::misere_detail
