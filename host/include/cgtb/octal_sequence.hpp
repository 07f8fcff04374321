// The Grundy sequence G(0..N) of single heaps of an octal game, computed by
// the sparse-space ("rare values") method, and its period proven by the
// octal periodicity theorem.
//
// Sources: E. R. Berlekamp, J. H. Conway, R. K. Guy, Winning Ways, ch. 4
// "Taking and Breaking" (the periodicity theorem; Extras, "Sparse Space
// Spells Speed"); A. Gangolli and T. Plambeck, A note on periodicity in some
// octal games (1989); A. Flammenkamp, "Sparse- and Common-Positions of
// Sprague-Grundy Values of Octal-Games" (web pages).
//
// The method. Fix a mask m and write p(v) = popcount(v & m) mod 2. Label
// heap n by lambda(n) = p(G(n)) xor (n mod 2 when the split is of the
// domain type, else 0). The split names one label the common one; heaps of
// the other label are rare. For a move that leaves two heaps b + c = r, both
// common, p(G(b) xor G(c)) = (domain ? r mod 2 : 0) =: q(r). So the values of
// parity 1 - q(r) among these options all come from pairs with a rare heap,
// and are found by walking the rare heaps only; a value of parity q(r) is
// looked for pair by pair and, where the split fits the game, found after a
// few pairs. A heap costs O(rare heaps + a few pairs) instead of O(n). The
// labels are exact for any mask (mask 0 is the plain method with an early
// stop); the mask only decides the speed, and is chosen from the values
// computed so far (best_split).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cgtb/games/take_break.hpp"
#include "cgtb/progress.hpp"

namespace cgtb {

/// A split of heaps into common and rare ones by the parity of their masked
/// Grundy value (see the file comment). mask 0 makes every heap common.
struct sparse_split {
  std::uint32_t mask = 0;
  bool domain = false;  ///< the label includes the heap's parity (Flammenkamp's "domain" type)
  int common = 0;       ///< the label of the common heaps (0 or 1)

  /// The label lambda(n) of a heap n of value g.
  int label(std::uint64_t n, std::uint32_t g) const {
    return (__builtin_popcount(g & mask) & 1) ^ (domain ? static_cast<int>(n & 1) : 0);
  }
  bool rare(std::uint64_t n, std::uint32_t g) const { return label(n, g) != common; }
  /// "mask 0x3f, range type" / "mask 0x7, domain type" / "none (plain method)".
  std::string text() const;
  bool operator==(const sparse_split& o) const { return mask == o.mask && domain == o.domain && common == o.common; }
};

/// Counts of Grundy values by heap parity: at(v, n mod 2) heaps so far.
/// Heap 0 is never counted: no move leaves it as one of two heaps, so it is
/// neither common nor rare (as in sparse_space_of).
struct value_histogram {
  std::vector<std::uint64_t> count;  ///< count[2 v + parity]
  std::uint32_t max_value = 0;
  /// Counts heap n (n >= 1; n = 0 is ignored) of value g.
  void add(std::uint64_t n, std::uint32_t g);
  std::uint64_t at(std::uint32_t v, int parity) const {
    const std::size_t i = 2 * static_cast<std::size_t>(v) + static_cast<std::size_t>(parity);
    return i < count.size() ? count[i] : 0;
  }
};

/// True when `s` speeds up the game whose two-heap moves take the numbers of
/// beans in `split_takes`: the value of a common heap must have the parity
/// that no pair of common heaps gives, for every such move (range type:
/// common label 1; domain type: common label 1 xor (i mod 2), the same for
/// every take i).
bool split_fits(const sparse_split& s, const std::vector<int>& split_takes);

/// Among the splits that fit (split_fits) the fitting one with the fewest
/// rare heaps, over every mask below 2^bits (bits = the bit length of the
/// largest value, at most 12) and both types; `rare` receives its count.
/// Ties go to the smaller mask, then range before domain. Mask 0 (the plain
/// method) when none fits.
sparse_split best_split(const value_histogram& h, const std::vector<int>& split_takes, std::uint64_t* rare = nullptr);

/// How to compute a sequence.
struct sequence_options {
  int threads = 0;                    ///< worker threads for long pair scans (0 = all cores)
  progress_sink* progress = nullptr;  ///< where progress goes (heaps per second, time left); null: nowhere
  bool force_split = false;           ///< use `split` throughout instead of choosing one
  sparse_split split;                 ///< the forced split
  std::string label = "octal";        ///< names the game in progress lines
  /// Once the values computed so far prove a period (prove_octal_period,
  /// tried at heaps 256, 512, 1024, ...), write the rest of the sequence
  /// from it instead of computing it: the octal periodicity theorem makes
  /// the values the same.
  bool extend_by_period = true;
};

/// The sparse space of a sequence under a split: its rare heaps and values.
struct sparse_space {
  sparse_split split;
  std::uint64_t rare_heaps = 0;            ///< heaps rare under `split`
  std::int64_t last_rare = -1;             ///< the largest rare heap (-1: none)
  std::vector<std::uint32_t> rare_values;  ///< the distinct values of rare heaps, ascending
  std::uint32_t max_value = 0;             ///< the largest value of the sequence
  /// One line: "mask 0x1e, range type, common label 1; 52 rare heaps, the
  /// last n = 2346, 9 rare values, the largest 22; largest value 23".
  std::string text() const;
};

/// The sparse space of s[0..length-1] under `split`.
sparse_space sparse_space_of(const std::uint16_t* s, std::uint64_t length, const sparse_split& split);

/// The numbers of beans taken by the moves of `code` that leave two heaps.
std::vector<int> split_takes(const take_break& code);

/// What a sequence computation found and how much work it did.
struct octal_period;

struct sequence_report {
  sparse_space space;  ///< under the split in use at the end (mask 0: the plain method)
  /// The first heap whose value was written from a proven period (0: every
  /// value computed), and the period's preperiod and period.
  std::uint64_t extended_from = 0;
  std::uint64_t period = 0, preperiod = 0;
  bool sparse = false;      ///< some heap was computed with a non-zero mask
  std::uint64_t pairs = 0;  ///< two-heap options examined
  double seconds = 0;
};

/// The largest heap of a sequence (heaps are ints in positions; values take
/// 2 bytes each, so this is a 4 GB sequence).
inline constexpr std::uint64_t kMaxSequenceHeap = (std::uint64_t{1} << 31) - 1;

/// G(0..max_heap) of single heaps of the octal game `code`: computed heap by
/// heap, and, with opt.extend_by_period, extended by the first period the
/// values prove (Winning Ways, ch. 4, the octal periodicity theorem). Throws input_error for max_heap
/// above kMaxSequenceHeap, resource_error when a value reaches 2^16 or the
/// values do not fit in memory.
std::vector<std::uint16_t> octal_sequence(const take_break& code, std::uint64_t max_heap,
                                          const sequence_options& opt = {}, sequence_report* report = nullptr);

class tablebase;

/// The sequence G(0..N) an octal --max-heap file holds (level 0, field
/// grundy). Throws input_error when the level is missing or a value is
/// outside 0..65535.
std::vector<std::uint16_t> read_octal_sequence(tablebase& tb);

/// The period of an octal sequence, proven or not.
struct octal_period {
  bool proven = false;
  std::uint64_t period = 0;     ///< p: G(n + p) = G(n) for all n >= preperiod
  std::uint64_t preperiod = 0;  ///< n0: the least such start; the last exception is n0 - 1
  std::uint64_t needed = 0;     ///< the largest heap the proof reads: 2 n0 + 2p + t - 1
  std::uint64_t length = 0;     ///< heaps in the sequence (N + 1)
  int max_take = 0;             ///< t
  /// One line, e.g. "period 34, preperiod 53 (last exception n = 52), proven:
  /// G(n + 34) = G(n) for 53 <= n < 175 (2 n0 + p + t), heaps 0..1000".
  std::string text() const;
};

/// The smallest period p, with its least preperiod n0, that the octal
/// periodicity theorem proves from s[0..length-1] (Winning Ways, ch. 4: if
/// G(n + p) = G(n) for n0 <= n < 2 n0 + p + t, with t the most beans a move
/// takes, then for every n >= n0). With none proven, `proven` is false and
/// period/preperiod give the candidate whose agreement G(n + p) = G(n),
/// n0 <= n < length - p, runs over the most heaps, at least p of them (the
/// smallest such p on a tie; 0: none). Periods up to length / 2 are tried.
octal_period prove_octal_period(const std::uint16_t* s, std::uint64_t length, int max_take);

}  // namespace cgtb
