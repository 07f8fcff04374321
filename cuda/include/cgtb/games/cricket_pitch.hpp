// Cricket Pitch ("Cricket Pitch", a ruleset page of the combinatorial game
// rulesets collection, Rules and Examples): a short
// partizan ruleset on a list of non-negative bumps holding one roller. Left
// moves the roller left over k >= 1 consecutive positive bumps, Right moves it
// right over k >= 1 consecutive positive bumps; each bump rolled over drops by
// one. A zero can never be rolled over.
//
// Table: boards of exactly `length` places (the roller and length-1 bumps),
// bumps 0..max_bump. A shorter board is the same game as the board padded with
// zeros on the right ("Cricket Pitch", Notes: zeros the roller cannot cross cut the
// board), so the table answers every board of length <= `length`.
//
// Position: bump[0..n-1] (n = length-1 bumps, left to right, the roller not
// counted) and `roller`, the number of bumps left of the roller (0..n). A Left
// move over k bumps decrements bump[roller-k..roller-1] and sets roller -= k;
// a Right move decrements bump[roller..roller+k-1] and sets roller += k.
// Level: the sum of the bumps; a move over k bumps lowers it by k.
// Index of a level s (mixed radix restricted to a sum): the bump vector's rank
// among vectors of sum s in lexicographic order (the combinatorial number
// system of bounded compositions, counts N(k, s) of k bumps summing to s),
// times `length`, plus the roller place.
// Backend instantiations (cgtb-solve lines: the ruleset and the value rule
// each backend is compiled for; CMake collects them, docs/architecture.md):
// cgtb-solve: cgtb::cricket_pitch cgtb::partizan_rule
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cgtb/error.hpp"
#include "cgtb/hd.hpp"

namespace cgtb {

/// Longest board (roller included) a Cricket Pitch table supports.
inline constexpr int kCricketMaxLength = 32;
/// Largest bump a Cricket Pitch table supports.
inline constexpr int kCricketMaxBump = 255;

/// A Cricket Pitch board: trivially copyable, fixed width.
struct cricket_position {
  std::uint8_t bump[kCricketMaxLength - 1];  ///< bumps left to right; unused entries 0
  std::uint8_t roller;                       ///< bumps left of the roller
};
static_assert(sizeof(cricket_position) == 32, "a board is four 8-byte words (cricket_bump_reader)");

/// The bumps of a Cricket Pitch board in order, one byte at a time, from the
/// board's four words held in registers: bump i is byte i % 8 of word i / 8
/// (both backends are little-endian), and the words move up a queue, so no
/// word is indexed at run time (on a GPU an array indexed at run time sits
/// in each thread's local memory).
struct cricket_bump_reader {
  std::uint64_t cur, w1, w2, w3;
  int left = 8;  ///< bytes of cur not read yet
  CGTB_HD explicit cricket_bump_reader(const cricket_position& p) {
    std::uint64_t w[4];
    std::memcpy(w, &p, sizeof w);
    cur = w[0];
    w1 = w[1];
    w2 = w[2];
    w3 = w[3];
  }
  /// The next bump.
  CGTB_HD int next() {
    if (left == 0) {
      cur = w1;
      w1 = w2;
      w2 = w3;
      left = 8;
    }
    --left;
    const int v = static_cast<int>(cur & 0xff);
    cur >>= 8;
    return v;
  }
};

/// Trivially copyable Cricket Pitch ruleset over a table of counts.
///
/// `table` holds, for k = 0..n and s = 0..n*h (stride `stride` = n*h + 1),
/// count[k][s] = N(k, s), the number of k-vectors with entries in [0, h]
/// summing to s, at table[k*stride + s], followed by the prefix sums
/// cum[k][s] = N(k, 0) + ... + N(k, s) at table[(n+1)*stride + k*stride + s].
struct cricket_pitch_view {
  const std::uint64_t* table;
  int length;  ///< places on the board, roller included
  int n;       ///< bumps = length - 1
  int h;       ///< largest bump
  int stride;  ///< n*h + 1

  using position = cricket_position;

  /// N(k, s); 0 outside 0 <= s <= k*h.
  CGTB_HD std::uint64_t count(int k, int s) const { return s < 0 || s >= stride ? 0 : table[k * stride + s]; }
  /// N(k, 0) + ... + N(k, s); 0 for s < 0.
  CGTB_HD std::uint64_t cum(int k, int s) const {
    if (s < 0) return 0;
    if (s >= stride) s = stride - 1;
    return table[(n + 1 + k) * stride + s];
  }

  CGTB_HD std::uint64_t level_size(int level) const { return count(n, level) * static_cast<std::uint64_t>(length); }

  // Two walks, the same ranks and options in the same order (the RIT view
  // does the same): the CPU indexes the board's bytes (`*_from_arrays`, in
  // L1); the GPU keeps the board in four words and reads it through
  // cricket_bump_reader (`*_in_registers`), ranking each option from the
  // board with a run of bumps lowered by one instead of building it. On the
  // CPU the register walk was 14 % slower (docs/performance.md, "GPU");
  // tests/test_partizan.cpp compares the two on every board of several
  // tables.

  /// Rank of p within its level (the sum of its bumps).
  CGTB_HD std::uint64_t rank(int level, const position& p) const {
#if defined(__CUDA_ARCH__)
    return rank_in_registers(level, p);
#else
    return rank_from_arrays(level, p);
#endif
  }
  CGTB_HD std::uint64_t rank_from_arrays(int level, const position& p) const {
    std::uint64_t c = 0;
    int rem = level;
    for (int i = 0; i < n; ++i) {
      const int k = n - 1 - i, v = p.bump[i];
      c += cum(k, rem) - cum(k, rem - v);  // vectors with a smaller bump here
      rem -= v;
    }
    return c * static_cast<std::uint64_t>(length) + p.roller;
  }
  CGTB_HD std::uint64_t rank_in_registers(int level, const position& p) const {
    return vector_rank_lowered(level, p, 0, 0) * static_cast<std::uint64_t>(length) + p.roller;
  }

  /// Rank, among the bump vectors summing to `level`, of p's bumps with
  /// those at lo <= i < hi lowered by one (lo = hi: p's own), read through
  /// cricket_bump_reader.
  CGTB_HD std::uint64_t vector_rank_lowered(int level, const position& p, int lo, int hi) const {
    cricket_bump_reader in(p);
    std::uint64_t c = 0;
    int rem = level;
    for (int i = 0; i < n; ++i) {
      const int k = n - 1 - i, v = in.next() - (i >= lo && i < hi ? 1 : 0);
      c += cum(k, rem) - cum(k, rem - v);
      rem -= v;
    }
    return c;
  }

  /// Inverse of rank: r < level_size(level).
  CGTB_HD position unrank(int level, std::uint64_t r) const {
#if defined(__CUDA_ARCH__)
    return unrank_in_registers(level, r);
#else
    return unrank_from_arrays(level, r);
#endif
  }
  /// One step of unrank: the bump v of a place with k places after it and
  /// `rem` left to sum, where c counts the vectors before this one; c drops
  /// by the vectors with a smaller bump here.
  CGTB_HD int unrank_bump(int k, int rem, std::uint64_t& c) const {
    int v = 0;
    for (;; ++v) {
      const std::uint64_t here = count(k, rem - v);
      if (c < here) return v;
      c -= here;
    }
  }
  CGTB_HD position unrank_from_arrays(int level, std::uint64_t r) const {
    position p;
    for (int i = 0; i < kCricketMaxLength - 1; ++i) p.bump[i] = 0;
    p.roller = static_cast<std::uint8_t>(r % static_cast<std::uint64_t>(length));
    std::uint64_t c = r / static_cast<std::uint64_t>(length);
    int rem = level;
    for (int i = 0; i < n; ++i) {
      const int v = unrank_bump(n - 1 - i, rem, c);
      p.bump[i] = static_cast<std::uint8_t>(v);
      rem -= v;
    }
    return p;
  }
  /// The 32 bytes (bumps, zeros, the roller) shifted into four words that
  /// move up a queue as each fills.
  CGTB_HD position unrank_in_registers(int level, std::uint64_t r) const {
    const std::uint64_t roller = r % static_cast<std::uint64_t>(length);
    std::uint64_t c = r / static_cast<std::uint64_t>(length);
    int rem = level;
    std::uint64_t w0 = 0, w1 = 0, w2 = 0, w3 = 0, acc = 0;
    for (int i = 0; i < 32; ++i) {
      std::uint64_t v = 0;
      if (i < n) {
        v = static_cast<std::uint64_t>(unrank_bump(n - 1 - i, rem, c));
        rem -= static_cast<int>(v);
      } else if (i == 31) {
        v = roller;
      }
      acc |= v << (8 * (i & 7));
      if ((i & 7) == 7) {
        w0 = w1;
        w1 = w2;
        w2 = w3;
        w3 = acc;
        acc = 0;
      }
    }
    const std::uint64_t w[4] = {w0, w1, w2, w3};
    position p;
    std::memcpy(&p, w, sizeof w);
    return p;
  }

  /// The position of the next rank: the roller steps right, or wraps to the
  /// next bump vector.
  CGTB_HD position next(int level, position p) const {
    if (p.roller + 1 < length) {
      ++p.roller;
      return p;
    }
    return unrank(level, rank(level, p) + 1);
  }

  /// Calls f(level - k, rank) for each of Left's options: the roller moved
  /// left over k = 1, 2, ... positive bumps.
  template <class F>
  CGTB_HD void for_each_left_option(int level, const position& p, F&& f) const {
#if defined(__CUDA_ARCH__)
    for_each_left_option_in_registers(level, p, f);
#else
    for_each_left_option_from_arrays(level, p, f);
#endif
  }
  template <class F>
  CGTB_HD void for_each_left_option_from_arrays(int level, const position& p, F&& f) const {
    position q = p;
    for (int k = 1; p.roller - k >= 0; ++k) {
      const int i = p.roller - k;
      if (q.bump[i] == 0) break;
      --q.bump[i];
      q.roller = static_cast<std::uint8_t>(i);
      f(level - k, rank_from_arrays(level - k, q));
    }
  }
  template <class F>
  CGTB_HD void for_each_left_option_in_registers(int level, const position& p, F&& f) const {
    const int run = left_run(p);
    for (int k = 1; k <= run; ++k) {
      const int lo = p.roller - k;
      f(level - k, vector_rank_lowered(level - k, p, lo, p.roller) * static_cast<std::uint64_t>(length) +
                       static_cast<std::uint64_t>(lo));
    }
  }

  /// Calls f(level - k, rank) for each of Right's options: the roller moved
  /// right over k = 1, 2, ... positive bumps.
  template <class F>
  CGTB_HD void for_each_right_option(int level, const position& p, F&& f) const {
#if defined(__CUDA_ARCH__)
    for_each_right_option_in_registers(level, p, f);
#else
    for_each_right_option_from_arrays(level, p, f);
#endif
  }
  template <class F>
  CGTB_HD void for_each_right_option_from_arrays(int level, const position& p, F&& f) const {
    position q = p;
    for (int k = 1; p.roller + k - 1 < n; ++k) {
      const int i = p.roller + k - 1;
      if (q.bump[i] == 0) break;
      --q.bump[i];
      q.roller = static_cast<std::uint8_t>(i + 1);
      f(level - k, rank_from_arrays(level - k, q));
    }
  }
  template <class F>
  CGTB_HD void for_each_right_option_in_registers(int level, const position& p, F&& f) const {
    const int run = right_run(p);
    for (int k = 1; k <= run; ++k) {
      const int hi = p.roller + k;
      f(level - k, vector_rank_lowered(level - k, p, p.roller, hi) * static_cast<std::uint64_t>(length) +
                       static_cast<std::uint64_t>(hi));
    }
  }

  /// Positive bumps directly left of the roller (Left's options) and from
  /// the roller rightwards (Right's), read through cricket_bump_reader.
  CGTB_HD int left_run(const position& p) const {
    cricket_bump_reader in(p);
    int run = 0;
    for (int i = 0; i < p.roller; ++i) run = in.next() > 0 ? run + 1 : 0;
    return run;
  }
  CGTB_HD int right_run(const position& p) const {
    cricket_bump_reader in(p);
    for (int i = 0; i < p.roller; ++i) in.next();
    int run = 0;
    for (int i = p.roller; i < n && in.next() > 0; ++i) ++run;
    return run;
  }

  /// Number of options of both players: the positive runs beside the roller.
  CGTB_HD int option_count(const position& p) const {
#if defined(__CUDA_ARCH__)
    return left_run(p) + right_run(p);
#else
    int c = 0;
    for (int i = p.roller - 1; i >= 0 && p.bump[i] > 0; --i) ++c;
    for (int i = p.roller; i < n && p.bump[i] > 0; ++i) ++c;
    return c;
#endif
  }
};

/// A Cricket Pitch move: the player, how many bumps the roller crosses, and
/// the position after.
struct cricket_move {
  bool left;  ///< true for Left (roller moves left)
  int over;   ///< bumps rolled over, >= 1
  cricket_position after;
};

/// Cricket Pitch boards of length <= `length` with bumps <= `max_bump` (host
/// owner of the count tables).
///
/// Text: "[1,0,2,1,R,2,3]" (the ruleset page's notation with R for the roller) or the
/// compact "1021R23" when every bump is a single digit. Printed positions use
/// the bracket form without the zero padding right of the last non-zero
/// place beyond the roller.
class cricket_pitch {
 public:
  using view_type = cricket_pitch_view;
  using position = cricket_position;
  using move = cricket_move;
  static constexpr const char* ruleset_name = "cricket-pitch";

  /// Throws input_error unless 1 <= length <= 32 and 0 <= max_bump <= 255,
  /// or if a level would hold 2^62 positions or more.
  cricket_pitch(int length, int max_bump);
  /// Parses canonical params "L10-h5"; throws input_error if malformed.
  static cricket_pitch from_params(const std::string& params);

  /// Canonical parameter text, e.g. "L10-h5".
  std::string params() const;
  int length() const { return length_; }
  int max_bump() const { return h_; }

  /// Levels 0..(length-1)*max_bump, ascending.
  std::vector<int> levels() const;
  /// Options of a level-L position lie on levels L-(length-1) .. L-1.
  int option_level_span() const { return length_ > 1 ? length_ - 1 : 1; }
  /// Sum of the bumps.
  int level_of(const position& p) const;

  const std::vector<std::uint64_t>& table() const { return table_; }
  view_type view(const std::uint64_t* table) const { return {table, length_, length_ - 1, h_, stride_}; }
  view_type host_view() const { return view(table_.data()); }

  /// Parses a board; throws input_error for a missing or doubled roller, a
  /// negative or oversized bump, a board longer than the table, or any other
  /// malformed text. Shorter boards are padded with zeros on the right.
  position parse(const std::string& text) const;
  /// Bracket form, e.g. "[1,0,2,1,R,2,3]".
  std::string format(const position& p) const;
  /// A move is named by the board it leads to (as the option lists of "Cricket Pitch", Examples).
  std::string move_name(const move& m) const { return format(m.after); }
  /// Left's moves, over 1, 2, ... bumps.
  std::vector<move> left_moves(const position& p) const;
  /// Right's moves, over 1, 2, ... bumps.
  std::vector<move> right_moves(const position& p) const;
  /// The zero-free board isomorphic to p ("Cricket Pitch", Notes): the positive runs
  /// touching the roller, placed from the first place, padded with zeros.
  position reduce(const position& p) const;

 private:
  int length_, h_, stride_;
  std::vector<std::uint64_t> table_;
};

}  // namespace cgtb
