// Dynamic one-pile Blocking Nim ("Dynamic One-Pile Blocking Nim", Electronic
// Journal of Combinatorics 10, 2003): the player making move k removes
// x in [m_k, M_k], x <= pile, counters; before the move the opponent may block
// up to c_k of those choices. A player who cannot move loses. The sequences
// must satisfy condition (1) c_k <= c_{k+1} and condition (2)
// 0 <= u_k <= u_{k+1} with u_k = M_k - m_k - c_k (ibid., Rules of the Game).
//
// Position: (pile p, move number k). Level: the pile size; every move lowers
// it by at least m_k >= 1. A table up to pile N holds, on level p, the move
// numbers k = 1 .. N - p + 1 (every position reachable from a pile of at most
// N at move 1), rank k - 1. Options of level p land on any lower level.
// Backend instantiations (cgtb-solve lines: the ruleset and the value rule
// each backend is compiled for; CMake collects them, docs/architecture.md):
// cgtb-solve: cgtb::blocking_nim cgtb::blocking_rule
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/hd.hpp"

namespace cgtb {

/// Trivially copyable Blocking Nim ruleset. `seq` holds, for k = 1..N+1,
/// c_k, m_k, M_k at 3(k-1), 3(k-1)+1, 3(k-1)+2.
struct blocking_nim_view {
  int max_pile;
  const std::uint64_t* seq;

  /// (pile << 32) | move number.
  using position = std::uint64_t;

  CGTB_HD static int pile(position p) { return static_cast<int>(p >> 32); }
  CGTB_HD static int move(position p) { return static_cast<int>(p & 0xffffffffu); }
  CGTB_HD static position make(int pile, int move) {
    return (static_cast<std::uint64_t>(pile) << 32) | static_cast<std::uint64_t>(move);
  }
  /// c_k of p's move: options the opponent may block.
  CGTB_HD std::uint64_t blocks(position p) const { return seq[3 * (move(p) - 1)]; }
  CGTB_HD std::uint64_t lo(int k) const { return seq[3 * (k - 1) + 1]; }
  CGTB_HD std::uint64_t hi(int k) const { return seq[3 * (k - 1) + 2]; }

  /// Move numbers 1..N-p+1 held for pile p = level.
  CGTB_HD std::uint64_t level_size(int level) const { return static_cast<std::uint64_t>(max_pile - level + 1); }
  CGTB_HD position unrank(int level, std::uint64_t r) const { return make(level, static_cast<int>(r) + 1); }
  CGTB_HD std::uint64_t rank(int, position p) const { return static_cast<std::uint64_t>(move(p) - 1); }
  CGTB_HD position next(int, position p) const { return p + 1; }

  /// Calls f(option_level, option_rank) for every x in [m_k, min(M_k, p)]:
  /// the position (p - x, k + 1).
  template <class F>
  CGTB_HD void for_each_option(int level, position p, F&& f) const {
    const int k = move(p);
    const std::uint64_t top = hi(k) < static_cast<std::uint64_t>(level) ? hi(k) : static_cast<std::uint64_t>(level);
    for (std::uint64_t x = lo(k); x <= top; ++x) f(level - static_cast<int>(x), static_cast<std::uint64_t>(k));
  }
  CGTB_HD int option_count(position p) const {
    const int k = move(p);
    const std::uint64_t top = hi(k) < static_cast<std::uint64_t>(pile(p)) ? hi(k) : static_cast<std::uint64_t>(pile(p));
    return top >= lo(k) ? static_cast<int>(top - lo(k) + 1) : 0;
  }
};

/// An integer sequence s_1, s_2, ... given on the command line:
///   "5"          constant 5;
///   "1,3,4"      the listed values, then the last one repeated;
///   "2+3i"       linear a + b*i ("3i", "i", "7-i" also; i starts at 1);
///   "cycle:1,2"  periodic 1, 2, 1, 2, ...
/// Throws input_error for malformed text.
struct int_sequence {
  enum kind_t { constant, list, linear, cycle } kind = constant;
  std::vector<long long> values;  ///< constant: one value; list and cycle: the values
  long long a = 0, b = 0;         ///< linear: a + b*i
  std::string text;               ///< canonical text

  static int_sequence parse(const std::string& text, const std::string& name);
  /// s_i for i >= 1.
  long long at(long long i) const;
};

/// A move of Blocking Nim: take `take` counters.
struct blocking_nim_move {
  int take;
  std::uint64_t after;
};

/// Blocking Nim up to pile N with sequences c, m, M (host owner).
class blocking_nim {
 public:
  using view_type = blocking_nim_view;
  using position = std::uint64_t;
  static constexpr const char* ruleset_name = "blocking-nim";

  /// Checks m_k >= 1, M_k >= 1, c_k >= 0 and conditions (1) and (2) of the
  /// rules ("Dynamic One-Pile Blocking Nim", Rules of the Game) for k = 1..N+1; throws input_error naming the first
  /// failing condition and index. N must be in 0..20000.
  blocking_nim(const int_sequence& c, const int_sequence& m, const int_sequence& M, int max_pile);
  /// Parses params() text "c=SEQ;m=SEQ;M=SEQ;N=100".
  static blocking_nim from_params(const std::string& params);

  std::string params() const;
  std::vector<int> levels() const;
  int option_level_span() const { return 0; }
  const std::vector<std::uint64_t>& table() const { return seq_; }
  view_type view(const std::uint64_t* t) const { return {max_pile_, t}; }
  view_type host_view() const { return view(seq_.data()); }
  int max_pile() const { return max_pile_; }
  int level_of(position p) const { return blocking_nim_view::pile(p); }

  /// "15@3" = pile 15 before move 3; "15" = pile 15 before move 1. Throws
  /// input_error if malformed or outside the table.
  position parse(const std::string& text) const;
  std::string format(position p) const;
  std::string move_name(const blocking_nim_move& m) const { return "take" + std::to_string(m.take); }
  std::vector<blocking_nim_move> moves(position p) const;
  /// c_k, m_k, M_k of move k (1-based, k <= N+1).
  std::uint64_t c(int k) const { return seq_[3 * static_cast<std::size_t>(k - 1)]; }
  std::uint64_t m(int k) const { return seq_[3 * static_cast<std::size_t>(k - 1) + 1]; }
  std::uint64_t M(int k) const { return seq_[3 * static_cast<std::size_t>(k - 1) + 2]; }

 private:
  int_sequence c_, m_, M_;
  int max_pile_;
  std::vector<std::uint64_t> seq_;
};

}  // namespace cgtb
